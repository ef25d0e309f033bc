"""Index-expression objects: ``mgrid``, ``ogrid``, ``r_``, ``c_``, ``s_``, ``index_exp``.

``mgrid``/``ogrid`` take NumPy's own values for each axis (``numpy.ogrid`` on the key: one
small vector per axis, NumPy's dtype and its float rounding of ``start + i*step``), upload
those vectors only, and build the dense grid on the device as a broadcast (lazy, fused into
whatever reads it).  ``r_``/``c_`` follow NumPy's ``AxisConcatenator`` (slices become
``arange``/``linspace``, a leading string directive sets the axis, ``ndmin`` and the
transpose rule) with gnumpy arrays and one ``concatenate``.  ``s_`` and ``index_exp`` build
plain Python index tuples and are NumPy's own objects.

# Note: the matrix directives 'r' and 'c' of ``r_`` (NumPy's ``matrix`` class) raise
# NotImplementedError: gnumpy has no matrix class.
"""
from __future__ import annotations

import math

import numpy as np

from ..._device import as_device
from ..._dtypes import result_type
from ..._graph import ir
from .._common import is_array, wrap
from .creation import _SMALL, arange, array, asarray, linspace
from ..shape.manipulation import broadcast_to, concatenate, stack
from ..shape.shaping import broadcast_shapes

s_ = np.s_
index_exp = np.index_exp


class _Grid:
    """``mgrid`` (dense) and ``ogrid`` (open, broadcastable) grids."""

    __slots__ = ("sparse",)

    def __init__(self, sparse: bool) -> None:
        self.sparse = sparse

    def __getitem__(self, key):
        ints = _int_slices(key) if type(key) is tuple else None
        if ints is not None:
            return _int_grid(ints, self.sparse)
        axes = np.ogrid[key]            # NumPy's values, dtype and errors, one per axis
        if not self.sparse and any(a.size == 0 for a in (
                axes if isinstance(axes, (tuple, list)) else (axes,))):
            np.mgrid[key]               # (NumPy's ValueError for a negative length)
        if not isinstance(key, tuple):
            return asarray(axes)
        axes = [asarray(a) for a in axes]
        if self.sparse:
            return tuple(axes)
        if not axes:
            return asarray(np.mgrid[key])
        shape = broadcast_shapes(*(a.shape for a in axes))
        return stack([broadcast_to(a, shape) for a in axes])

    def __len__(self) -> int:
        return 0


def _int_slices(key):
    """[(start, step, length)] of a tuple of slices of Python ints (NumPy's ``start + i *
    step`` for ``i < ceil((stop - start) / step)``), or None for other keys and negative
    lengths (NumPy's path: floats, counts, errors)."""
    out = []
    for s in key:
        if type(s) is not slice:
            return None
        start = 0 if s.start is None else s.start
        stop, step = s.stop, 1 if s.step is None else s.step
        if type(start) is not int or type(stop) is not int or type(step) is not int or \
                not step or not -_SMALL < start < _SMALL or not -_SMALL < stop < _SMALL or \
                not -_SMALL < step < _SMALL:
            return None
        n = math.ceil((stop - start) / step)
        if n < 0:
            return None
        out.append((start, step, n))
    return out or None


def _int_grid(ints, sparse):
    """The grid of `ints` (``_int_slices``) as int64 index arithmetic on the device, no
    vector uploaded: each axis an IOTA node (NPBench stockham's ``mgrid[0:R, 0:R**K]``,
    every call); the dense grid selects axis k's at row k."""
    dev = as_device(None)
    d = len(ints)
    shape = tuple(n for _, _, n in ints)
    if sparse:
        return tuple(wrap(ir.iota(tuple(n if j == k else 1 for j in range(d)),
                                  tuple(step if j == k else 0 for j in range(d)), start, dev))
                     for k, (start, step, n) in enumerate(ints))
    full = (d,) + shape
    row = ir.axis_iota(full, 0, dev)
    grid = None
    for k in reversed(range(d)):
        start, step, _ = ints[k]
        v = ir.iota(full, (0,) + tuple(step if j == k else 0 for j in range(d)), start, dev)
        grid = v if grid is None else ir.ew("where", v.dtype, (
            ir.ew("equal", np.dtype(np.bool_), (row, ir.scalar(k, v.dtype, full, dev))),
            v, grid))
    return wrap(grid)


mgrid = _Grid(False)
ogrid = _Grid(True)


class _Concatenator:
    """``r_`` (along axis 0) and ``c_`` (along the last axis, 2-D at least)."""

    __slots__ = ("axis", "ndmin", "trans1d")

    def __init__(self, axis=0, ndmin=1, trans1d=-1) -> None:
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key):
        if isinstance(key, str):
            raise NotImplementedError("r_/c_ with a matrix string builds a numpy.matrix, "
                                      "which gnumpy does not have")
        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        objs, kinds = [], []
        for k, item in enumerate(key):
            scalar = False
            if isinstance(item, slice):
                start = 0 if item.start is None else item.start
                step = 1 if item.step is None else item.step
                if isinstance(step, (complex, np.complexfloating)):
                    new = linspace(start, item.stop, num=int(abs(step)))
                else:
                    new = arange(start, item.stop, step)
                if ndmin > 1:
                    new = array(new, copy=None, ndmin=ndmin)
                    if trans1d != -1:
                        new = new.swapaxes(-1, trans1d)
            elif isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    raise NotImplementedError("the 'r' and 'c' directives of r_ build a "
                                              "numpy.matrix, which gnumpy does not have")
                try:
                    vec = [int(x) for x in item.split(",")]
                except ValueError as e:
                    raise ValueError(f"unknown special directive {item!r}") from e
                if len(vec) == 1:
                    axis = vec[0]
                elif len(vec) in (2, 3):
                    axis, ndmin = vec[:2]
                    if len(vec) == 3:
                        trans1d = vec[2]
                else:
                    raise ValueError(f"unknown special directive {item!r}")
                continue
            elif type(item) in np.ScalarType:
                scalar = True
                new = item
            else:
                item_ndim = item.ndim if is_array(item) else np.ndim(item)
                new = array(item, copy=None, ndmin=ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2 = ndmin - item_ndim
                    k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
                    order = list(range(ndmin))
                    new = new.transpose(order[:k1] + order[k2:] + order[k1:k2])
            objs.append(new)
            kinds.append(item if scalar else new.dtype)
        if kinds:
            dt = result_type(*kinds)
            objs = [array(o, copy=None, ndmin=ndmin, dtype=dt) for o in objs]
        return concatenate(tuple(objs), axis=axis)

    def __len__(self) -> int:
        return 0


r_ = _Concatenator(0)
c_ = _Concatenator(-1, ndmin=2, trans1d=0)

__all__ = ["c_", "index_exp", "mgrid", "ogrid", "r_", "s_"]
