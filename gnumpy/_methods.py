"""ndarray's methods that are NumPy functions (``a.sum()``, ``a.reshape()``, ``a.sort()``,
...) and its NumPy protocols (``__array_ufunc__``, ``__array_function__``), as a base
class of ``gnumpy.ndarray`` (``_array.py`` holds its state, views, writes and indexing;
``_attributes.py`` and ``_operators.py`` its other base classes).

Each method forwards to the function of its name in the ``gnumpy`` namespace, reached by
name (``_ns``): the namespace loads the function's module on first use (``_lazy.py``), so
this layer names no module above it and ``import gnumpy`` loads none of them.
"""
from __future__ import annotations

import numpy as np

from . import _lazy
from ._operators import _NP_SCALARS, REFLECTED
from ._ops import EW_OPS, INTERNAL_EW

_ns = _lazy.package()


def _ufunc_ops():
    return {n: n for n, r in EW_OPS.items() if n not in INTERNAL_EW and
            not r.extra.get("special") and isinstance(getattr(np, n, None), np.ufunc)}


_UFUNC_OPS = _ufunc_ops()


class NumpyMethods:
    """The methods of ``gnumpy.ndarray`` that forward to the namespace."""

    __slots__ = ()

    # ------------------------------------------------------------------ NumPy interop
    def __array_ufunc__(self, uf, method, *inputs, **kwargs):
        if method == "__call__" and not kwargs and len(inputs) == 2 and inputs[1] is self \
                and type(inputs[0]) in _NP_SCALARS:     # ``alpha * a``: the operator's
            f = REFLECTED.get(uf)                       # hot path
            if f is not None:
                return f(self, inputs[0])
        if method == "__call__" and not kwargs and uf.nin == len(inputs):
            name = _UFUNC_OPS.get(uf.__name__)
            if name is not None:
                if len(inputs) == 2:        # a NumPy scalar <op> an array: the hot path
                    r = _ns._elementwise.apply2(name, inputs[0], inputs[1])
                    if r is not None:
                        return r
                return _ns._elementwise.apply(name, *inputs)
        f = getattr(_ns, uf.__name__, None)
        if f is None:
            return NotImplemented
        if method == "__call__":
            return f(*inputs, **kwargs)
        m = getattr(f, method, None)
        return NotImplemented if m is None else m(*inputs, **kwargs)

    def __array_function__(self, func, types, args, kwargs):
        mod = func.__module__ or ""
        name = func.__name__
        target = _ns
        if mod.startswith("numpy.linalg"):
            target = getattr(_ns, "linalg", None)
        elif mod.startswith("numpy.fft"):
            target = getattr(_ns, "fft", None)
        f = getattr(target, name, None) if target is not None else None
        if f is None or not callable(f):
            return NotImplemented
        return f(*args, **kwargs)

    # ------------------------------------------------------------------ methods
    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        return _ns._elementwise.cast_array(self, dtype, copy, None, casting, 4)

    def copy(self, order="C"):
        r = self._copy()
        if self._sc:
            r._sc = True        # (a scalar's copy is a scalar)
        return r

    def fill(self, value):
        if self._sc:
            return          # NumPy's scalar fills a copy of itself: its value stays
        self._assign_from(value)

    def reshape(self, *shape, order="C", copy=None):
        if len(shape) == 1:     # (one argument: a shape, or a single dimension)
            shape = shape[0]
        return _ns.reshape(self, shape, order=order, copy=copy)

    def ravel(self, order="C"):
        return _ns.ravel(self, order=order)

    def flatten(self, order="C"):
        return _ns._array_methods.flatten(self, order=order)

    def repeat(self, repeats, axis=None):
        return _ns.repeat(self, repeats, axis=axis)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        return _ns.diagonal(self, offset, axis1, axis2)

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        return _ns.trace(self, offset, axis1, axis2, dtype=dtype, out=out)

    def resize(self, *new_shape, refcheck=True):
        _ns._array_methods.resize(self, new_shape, refcheck=refcheck)

    def transpose(self, *axes):
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
            axes = axes[0]
        return _ns.transpose(self, axes if axes else None)

    def swapaxes(self, axis1, axis2):
        return _ns.swapaxes(self, axis1, axis2)

    def squeeze(self, axis=None):
        return _ns.squeeze(self, axis=axis)

    def conj(self):
        # Note: like NumPy's method, a real array is returned as is (np.conjugate copies;
        # a scalar's method gives a new scalar)
        if self.dtype.kind == "c":
            return _ns.conjugate(self)
        return self.copy() if self._sc else self

    conjugate = conj

    def sum(self, axis=None, dtype=None, out=None, keepdims=False, **kw):
        return _ns.sum(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, **kw)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False, **kw):
        return _ns.prod(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, **kw)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False, **kw):
        return _ns.mean(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, **kw)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kw):
        return _ns.var(self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims,
                        **kw)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kw):
        return _ns.std(self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims,
                        **kw)

    def min(self, axis=None, out=None, keepdims=False, **kw):
        return _ns.min(self, axis=axis, out=out, keepdims=keepdims, **kw)

    def max(self, axis=None, out=None, keepdims=False, **kw):
        return _ns.max(self, axis=axis, out=out, keepdims=keepdims, **kw)

    def argmin(self, axis=None, out=None, *, keepdims=False):
        return _ns.argmin(self, axis=axis, out=out, keepdims=keepdims)

    def argmax(self, axis=None, out=None, *, keepdims=False):
        return _ns.argmax(self, axis=axis, out=out, keepdims=keepdims)

    def any(self, axis=None, out=None, keepdims=False, **kw):
        return _ns.any(self, axis=axis, out=out, keepdims=keepdims, **kw)

    def all(self, axis=None, out=None, keepdims=False, **kw):
        return _ns.all(self, axis=axis, out=out, keepdims=keepdims, **kw)

    def cumsum(self, axis=None, dtype=None, out=None):
        return _ns.cumsum(self, axis=axis, dtype=dtype, out=out)

    def cumprod(self, axis=None, dtype=None, out=None):
        return _ns.cumprod(self, axis=axis, dtype=dtype, out=out)

    def round(self, decimals=0, out=None):
        return _ns.round(self, decimals=decimals, out=out)

    def clip(self, min=None, max=None, out=None, **kw):
        return _ns.clip(self, min, max, out=out, **kw)

    def dot(self, b, out=None):
        return _ns.dot(self, b, out=out)

    # sorting and searching (gnumpy/_api/sorting/sorting.py)
    def sort(self, axis=-1, kind=None, order=None, *, stable=None):
        """Sort in place (the sorted values are written into this array's memory)."""
        if axis is None:        # (NumPy's method sorts along an axis, never flattened)
            raise TypeError("'NoneType' object cannot be interpreted as an integer")
        self._assign_from(_ns.sort(self, axis=axis, kind=kind, order=order, stable=stable))

    def argsort(self, axis=-1, kind=None, order=None, *, stable=None):
        return _ns.argsort(self, axis=axis, kind=kind, order=order, stable=stable)

    def partition(self, kth, axis=-1, kind="introselect", order=None):
        """Partition in place (a full sort, written into this array's memory)."""
        if axis is None:        # (NumPy's method partitions along an axis, never flattened)
            raise TypeError("'NoneType' object cannot be interpreted as an integer")
        self._assign_from(_ns.partition(self, kth, axis=axis, kind=kind, order=order))

    def argpartition(self, kth, axis=-1, kind="introselect", order=None):
        return _ns.argpartition(self, kth, axis=axis, kind=kind, order=order)

    def searchsorted(self, v, side="left", sorter=None):
        return _ns.searchsorted(self, v, side=side, sorter=sorter)

    # memory reinterpretation and serialization (gnumpy/_api/array_methods.py)
    def view(self, dtype=None, type=None):
        return _ns._array_methods.view(self, dtype, type)

    def getfield(self, dtype, offset=0):
        return _ns._array_methods.getfield(self, dtype, offset)

    def setfield(self, val, dtype, offset=0):
        _ns._array_methods.setfield(self, val, dtype, offset)

    def byteswap(self, inplace=False):
        return _ns._array_methods.byteswap(self, inplace)

    def setflags(self, write=None, align=None, uic=None):
        _ns._array_methods.setflags(self, write, align, uic)

    def dumps(self):
        return _ns._array_methods.dumps(self)

    def dump(self, file):
        _ns._array_methods.dump(self, file)

    def tofile(self, fid, sep="", format="%s"):
        _ns._array_methods.tofile(self, fid, sep, format)

    def __contains__(self, value):
        return _ns._array_methods.contains(self, value)



    def take(self, indices, axis=None, out=None, mode="raise"):
        return _ns.take(self, indices, axis=axis, out=out, mode=mode)

    def put(self, indices, values, mode="raise"):
        _ns.put(self, indices, values, mode=mode)

    def nonzero(self):
        return _ns.nonzero(self)

    def compress(self, condition, axis=None, out=None):
        return _ns.compress(condition, self, axis=axis, out=out)
