"""gnumpy: a NumPy drop-in array library for NVIDIA GPUs with automatic kernel fusion.

``import gnumpy as np`` runs ordinary NumPy code on the GPU (or on the CPU backend where
there is none).  Every elementwise op and reduction is lazy: the expression graph is fused
into as few JIT-compiled kernels as the data flow allows when a result is needed.  The
namespace implements the Python Array API standard (2024.12).

What the namespace holds (``__all__`` lists every name; ``dir(gnumpy)`` shows them):

* the array type ``ndarray`` and NumPy's dtypes (``float32``, ``dtype``, ``finfo``, ...);
* creation: ``asarray``, ``zeros``, ``arange``, ``linspace``, ``eye``, ``mgrid``, ...;
* elementwise functions, ``ufunc`` objects generated from the op table (``add``, ``sin``,
  ``maximum``, ... with ``out=``, ``where=``, ``reduce``, ``accumulate``, ``at``), and
  ``where``, ``clip``, ``astype``;
* reductions and statistics: ``sum``, ``mean``, ``var``, ``argmax``, ``cumsum``,
  ``median``, ``quantile``, the ``nan*`` family, ``histogram``;
* shape and indexing: ``reshape``, ``transpose``, ``concatenate``, ``stack``, ``pad``,
  ``take``, ``nonzero``, ``diagonal``, ...; sorting and sets: ``sort``, ``unique``, ...;
* products: ``matmul``, ``dot``, ``einsum``, ``tensordot``, ...; I/O and printing;
* submodules ``linalg``, ``fft``, ``random``, ``cuda`` (devices, streams, CUDA graphs),
  ``profiler`` and ``testing``;
* ``config`` (options and environment variables), ``evaluate`` (materialize now),
  ``explain`` (the kernels a materialization would run) and ``show_config``.
"""
from __future__ import annotations

import numpy as _np

from . import _dtypes
from ._array import ndarray
from ._config import config
from ._device import Device
from ._graph.ir import VIEW as _VIEW
from ._graph.realize import stats
from ._ops import public_names as _public_names
from ._api import _common
from ._api.elementwise.ufunc import ufunc
from ._lazy import load as __getattr__, namespace_dir as __dir__  # the rest: on first use
from ._lazy import public_names as _public_names_all
from ._api.elementwise.elementwise import astype, where
from ._api.elementwise.ewspecial import clip, frexp, ldexp, modf
from ._api.elementwise.ewspecial import divmod_ as divmod
from ._api.elementwise.ewspecial import round_ as round

__version__ = "0.1.0"
__array_api_version__ = "2024.12"

# ---- dtypes: NumPy's own scalar types, so `x.dtype == gnumpy.float32` works as in NumPy
bool = _np.bool_
bool_ = _np.bool_
int8, int16, int32, int64 = _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float16, float32, float64 = _np.float16, _np.float32, _np.float64
complex64, complex128 = _np.complex64, _np.complex128
intp, uintp = _np.intp, _np.uintp
half, single, double = float16, float32, float64
csingle, cdouble = complex64, complex128
byte, ubyte, short, ushort = int8, uint8, int16, uint16
intc, uintc = _np.intc, _np.uintc
int_, uint = _np.int_, _np.uint
longlong, ulonglong = _np.longlong, _np.ulonglong
dtype = _np.dtype
generic, number, integer, signedinteger, unsignedinteger = (
    _np.generic, _np.number, _np.integer, _np.signedinteger, _np.unsignedinteger)
inexact, floating, complexfloating = _np.inexact, _np.floating, _np.complexfloating
finfo, iinfo, isdtype, can_cast = _dtypes.finfo, _dtypes.iinfo, _dtypes.isdtype, _dtypes.can_cast
result_type = _dtypes.result_type
issubdtype = _np.issubdtype

# ---- constants
e = _np.e
pi = _np.pi
inf = _np.inf
nan = _np.nan
newaxis = None
euler_gamma = _np.euler_gamma

# ---- elementwise functions (ufunc objects generated from the op table)
_ufuncs = {}
for _name, _row in _public_names():
    _uf = _ufuncs.get(_row.name)
    if _uf is None:
        _uf = _ufuncs[_row.name] = ufunc(_row, _row.name)
    globals()[_name] = _uf
del _name, _row, _uf
# NumPy's real and imag are functions of `val` (views of a complex array's parts), not
# ufuncs: their op-table rows stay, for the views' nodes and the elementwise tests
from ._api.elementwise.ewspecial import real, imag  # noqa: E402
around = round


evaluate = _common.evaluate


def explain(*arrays, file=None, source=True) -> str:
    """Print (and return) the groups of kernels that materializing `arrays` would run:
    each group's expressions, its inputs and (unless `source` is False) the CUDA source
    of its kernel, rendered on every backend (no GPU needed).

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.ones(4)
    >>> _ = gp.explain((2 * x).sum(), source=False)
    1 group (one kernel or library call each):
    [0] reduce on cpu
        out float64[] = sum(2.0 * 1.0)
    """
    from ._graph.explain import describe    # on first use: it loads the kernel renderers
    nodes = [a._base._node if (a._base is not None and a._node.kind == _VIEW) else a._node
             for a in arrays]
    text = describe(nodes, source=source)
    print(text, file=file)
    return text


def isscalar(element) -> bool:
    """True for a Python or NumPy scalar, and for gnumpy's 0-d array that stands for
    NumPy's scalar (``x.sum()``, ``a[i, j]``; see ``ndarray._sc``): not for other arrays,
    0-d ones (``asarray(1.0)``) included."""
    if isinstance(element, ndarray):
        return element._sc
    return _np.isscalar(element)


def ndim(a) -> int:
    """The number of dimensions of `a` (an array, or anything ``numpy.ndim`` takes)."""
    return a.ndim if isinstance(a, ndarray) else _np.ndim(a)


def shape(a) -> tuple:
    """The shape of `a` (an array, or anything ``numpy.shape`` takes)."""
    return a.shape if isinstance(a, ndarray) else _np.shape(a)


def size(a, axis=None) -> int:
    """The number of elements of `a`, or its length along `axis`."""
    if axis is None:
        return a.size if isinstance(a, ndarray) else _np.size(a)
    return a.shape[axis]


# every public name, loaded or not: the eager ones above and the lazy ones of _lazy.py
__all__ = _public_names_all()
