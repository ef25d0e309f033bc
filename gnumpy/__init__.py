"""gnumpy: a NumPy drop-in array library for NVIDIA GPUs with automatic kernel fusion.

``import gnumpy as np`` runs ordinary NumPy code on the GPU (or on the CPU backend where
there is none).  Every elementwise op and reduction is lazy: the expression graph is fused
into as few JIT-compiled kernels as the data flow allows when a result is needed.  The
namespace implements the Python Array API standard (2024.12).
"""
from __future__ import annotations

import numpy as _np

from . import _dtypes
from . import cuda
from ._array import ndarray
from ._config import config
from ._device import Device
from ._graph import realize as _realize
from ._graph.ir import LEAF as _LEAF, VIEW as _VIEW
from ._graph.realize import stats
from ._ops import public_names as _public_names
from ._api import _common
from ._api import elementwise as _elementwise
from ._api import indexing as _indexing
from ._api import interop as _interop
from ._api.ufunc import ufunc
from ._api.creation import (arange, array, asarray, asnumpy, copy, empty, empty_like, eye,
                            from_dlpack, full, full_like, identity, linspace, logspace,
                            meshgrid, ones, ones_like, tri, tril, triu, zeros, zeros_like)
from ._api.elementwise import astype, clip, frexp, ldexp, modf, where
from ._api.elementwise import divmod_ as divmod
from ._api.elementwise import round_ as round
from ._api.info import __array_namespace_info__
from ._api.advanced import (choose, compress, extract, place, put, put_along_axis, putmask,
                            take, take_along_axis)
from ._api.index_tricks import (argwhere, diag_indices, diag_indices_from, flatnonzero, ix_,
                                nonzero, ravel_multi_index, unravel_index)
from ._api.grids import c_, index_exp, mgrid, ogrid, r_, s_
from ._api.manipulation import (broadcast_arrays, broadcast_to, concat, concatenate,
                                expand_dims, matrix_transpose, moveaxis, permute_dims, ravel,
                                reshape, squeeze, stack, swapaxes, transpose)
from ._api.shaping import (ascontiguousarray, asfortranarray, broadcast_shapes, flip, fliplr,
                           flipud, repeat, require, resize, roll, rollaxis, rot90, tile)
from ._api.joining import (append, array_split, atleast_1d, atleast_2d, atleast_3d, block,
                           column_stack, dsplit, dstack, hsplit, hstack, row_stack, split,
                           unstack, vsplit, vstack)
from ._api.padding import pad
from ._api.bits import packbits, unpackbits
from ._api.functional import apply_along_axis, apply_over_axes
from ._api.polynomial import (poly, polyadd, polyder, polydiv, polyfit, polyint, polymul,
                              polysub, roots)
from ._api.npyio import (frombuffer, fromfile, fromiter, fromregex, fromstring, genfromtxt,
                         load, loadtxt, save, savetxt, savez, savez_compressed)
from ._api.printing import (array2string, array_repr, array_str, base_repr, binary_repr,
                            format_float_positional, format_float_scientific, get_printoptions,
                            printoptions, set_printoptions)
from ._api.editing import copyto, delete, insert, trim_zeros
from ._api.diagonals import (diag, diagflat, diagonal, fill_diagonal, fromfunction, indices,
                             mask_indices, trace, tril_indices, tril_indices_from,
                             triu_indices, triu_indices_from)
from ._api.matmul import dot, matmul, matvec, vecdot, vecmat
from ._api.nanfunctions import (nanargmax, nanargmin, nancumprod, nancumsum, nanmax, nanmean,
                                nanmin, nanprod, nanstd, nansum, nanvar)
from ._api.logic import (allclose, array_equal, array_equiv, iscomplex, iscomplexobj,
                         isclose, isfortran, isneginf, isposinf, isreal, isrealobj, iterable,
                         may_share_memory, piecewise, real_if_close, select, shares_memory)
from ._api.mathmisc import (angle, ediff1d, fix, geomspace, gradient, i0, nan_to_num,
                            polyval, sinc, trapezoid, unwrap, vander)
from ._api.windows import bartlett, blackman, hamming, hanning, kaiser
from ._api.moments import average, corrcoef, cov, ptp
from ._api.products import convolve, correlate, cross, inner, kron, outer, tensordot, vdot
from ._api.einsum import einsum, einsum_path
from ._api.interpolation import interp
from ._numpy_compat import (False_, True_, asanyarray, asarray_chkfinite, character,
                            common_type, errstate, exceptions, flexible, getbufsize, geterr,
                            geterrcall, little_endian, long, min_scalar_type, mintypecode,
                            promote_types, setbufsize, seterr, seterrcall, typecodes,
                            typename, ulong)
from ._api.reductions import (all, any, argmax, argmin, count_nonzero, cumprod, cumsum,
                              cumulative_prod, cumulative_sum, diff, max, mean, min, prod, std,
                              sum, var)
from ._api.sorting import (argpartition, argsort, lexsort, partition, searchsorted, sort,
                           sort_complex)
from ._api.sets import (intersect1d, isin, setdiff1d, setxor1d, union1d, unique, unique_all,
                        unique_counts, unique_inverse, unique_values)
from ._api.statistics import median, nanmedian, nanpercentile, nanquantile, percentile, quantile
from ._api.histograms import bincount, digitize, histogram, histogram_bin_edges
from ._api.histogramdd import histogram2d, histogramdd

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
around = round
amax, amin = max, min
concatenate = concatenate


def evaluate(*arrays) -> None:
    """Materialize `arrays` now, fusing their pending work into as few kernels as possible.

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.arange(5.0); y = x * 2; z = y.sum()
    >>> gp.evaluate(y, z)
    """
    if len(arrays) == 1 and type(arrays[0]) is ndarray and arrays[0]._base is None:
        n = arrays[0]._node
        if n.kind != _LEAF:
            _realize.materialize_one(n)
        return
    nodes, views = [], []
    for a in arrays:
        if not isinstance(a, ndarray):
            raise TypeError(f"evaluate() takes gnumpy arrays, not {type(a).__name__}")
        if a._base is not None and a._node.kind == _VIEW:
            nodes.append(a._base._node)
            views.append(a)
        else:
            nodes.append(a._node)
    _realize.materialize(nodes)
    for v in views:
        v._leaf()


def explain(*arrays, file=None) -> str:
    """Print (and return) the groups of kernels that materializing `arrays` would run."""
    from ._graph.explain import describe
    nodes = [a._base._node if (a._base is not None and a._node.kind == _VIEW) else a._node
             for a in arrays]
    text = describe(nodes)
    print(text, file=file)
    return text


def isscalar(element) -> bool:
    return _np.isscalar(element)


def ndim(a) -> int:
    return a.ndim if isinstance(a, ndarray) else _np.ndim(a)


def shape(a) -> tuple:
    return a.shape if isinstance(a, ndarray) else _np.shape(a)


def size(a, axis=None) -> int:
    if axis is None:
        return a.size if isinstance(a, ndarray) else _np.size(a)
    return a.shape[axis]


from . import random  # noqa: E402
from . import linalg  # noqa: E402
from . import fft  # noqa: E402
from . import _array as _array_mod  # noqa: E402

_array_mod._api = __import__(__name__)
_array_mod._apply2 = _elementwise.apply2
