"""``pad``: NumPy's padding modes (constant, edge, linear_ramp, maximum/minimum/mean/median,
reflect, symmetric, wrap, empty, and a callable), one axis after the other as NumPy does.

Each axis is padded with one ``concat`` of the current array and its two pad pieces (views
and lazy expressions of the current array); 'wrap' is a cyclic index map (no copy) and
'reflect'/'symmetric' follow NumPy's iteration, which doubles the reflected block each round.
"""
from __future__ import annotations

import numpy as np

from ... import _dtypes as D
from ..._graph import ir
from .._common import is_array, wrap
from ._views import arr, cyclic, fresh, slice_axis
from ..creation.creation import linspace
from ..elementwise.ewspecial import round_
from .manipulation import broadcast_to, concat, moveaxis
from ..reductions.reductions import max as max_
from ..reductions.reductions import mean
from ..reductions.reductions import min as min_
from ..reductions.statistics import median

_ALLOWED = {
    "empty": (), "edge": (), "wrap": (),
    "constant": ("constant_values",),
    "linear_ramp": ("end_values",),
    "maximum": ("stat_length",), "mean": ("stat_length",), "median": ("stat_length",),
    "minimum": ("stat_length",),
    "reflect": ("reflect_type",), "symmetric": ("reflect_type",),
}


def _host(v):
    return v.get() if is_array(v) else v


def _as_pairs(x, ndim, as_index=False):
    """NumPy's ``_as_pairs``: broadcast `x` to ndim (before, after) pairs (host data)."""
    if x is None:
        return ((None, None),) * ndim
    x = np.array(_host(x))
    if as_index:
        x = np.round(x).astype(np.intp, copy=False)
    if x.ndim < 3:
        if x.size == 1:
            x = x.ravel()
            if as_index and x[0] < 0:
                raise ValueError("index can't contain negative values")
            return ((x[0], x[0]),) * ndim
        if x.size == 2 and x.shape != (2, 1):
            x = x.ravel()
            if as_index and (x[0] < 0 or x[1] < 0):
                raise ValueError("index can't contain negative values")
            return ((x[0], x[1]),) * ndim
    if as_index and x.size and x.min() < 0:
        raise ValueError("index can't contain negative values")
    return np.broadcast_to(x, (ndim, 2)).tolist()


def _widths(pad_width, ndim):
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * ndim
        for axis, width in pad_width.items():
            if isinstance(width, int):
                seq[axis] = (width, width)
            elif isinstance(width, tuple) and len(width) == 2 and \
                    all(isinstance(w, int) for w in width):
                seq[axis] = width
            else:
                raise AssertionError(f"Expected code to be unreachable, but got: {width!r}")
        pad_width = seq
    pw = np.asarray(_host(pad_width))
    if pw.dtype.kind != "i":
        raise TypeError("`pad_width` must be of integral type.")
    return [(int(a), int(b)) for a, b in _as_pairs(pw, ndim, as_index=True)]


def pad(array, pad_width, mode="constant", **kwargs):
    """Pad an array (NumPy's ``pad``: every mode and keyword).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.pad(gp.asarray([1, 2, 3]), (1, 2), mode="edge")
    array([1, 1, 2, 3, 3, 3])
    """
    x = arr(array)
    widths = _widths(pad_width, x.ndim)
    if callable(mode):
        return _pad_callable(x, widths, mode, kwargs)
    if mode not in _ALLOWED:
        raise ValueError(f"mode '{mode}' is not supported")
    extra = set(kwargs) - set(_ALLOWED[mode])
    if extra:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {extra}")
    if mode in ("constant", "empty"):
        # Note: mode 'empty' pads with zeros (NumPy leaves the pad area uninitialized)
        values = _as_pairs(kwargs.get("constant_values", 0), x.ndim)
        cur = x
        for axis, (w, v) in enumerate(zip(widths, values)):
            cur = _join(cur, axis, w, lambda c, ax, n, side: _const(c, ax, n, v[side]))
        return _result(cur, x)
    if x.size == 0:
        for axis, w in enumerate(widths):
            if x.shape[axis] == 0 and any(w):
                raise ValueError(f"can't extend empty axis {axis} using modes other than "
                                 "'constant' or 'empty'")
        shape = tuple(d + a + b for d, (a, b) in zip(x.shape, widths))
        return wrap(ir.scalar(0, x.dtype, shape, x.device))
    cur = x
    if mode == "edge":
        for axis, w in enumerate(widths):
            cur = _join(cur, axis, w, _edge)
    elif mode == "wrap":
        for axis, (before, after) in enumerate(widths):
            n = cur.shape[axis]
            if before or after:
                cur = fresh(cyclic(cur._node, axis, -before, before + n + after), cur)
    elif mode == "linear_ramp":
        ends = _as_pairs(kwargs.get("end_values", 0), x.ndim)
        for axis, (w, e) in enumerate(zip(widths, ends)):
            cur = _join(cur, axis, w, lambda c, ax, n, side: _ramp(c, ax, n, side, e[side]))
    elif mode in ("maximum", "minimum", "mean", "median"):
        lengths = _as_pairs(kwargs.get("stat_length"), x.ndim, as_index=True)
        for axis, (w, ln) in enumerate(zip(widths, lengths)):
            cur = _pad_stat(cur, axis, w, ln, mode)
    else:
        method = kwargs.get("reflect_type", "even")
        for axis, w in enumerate(widths):
            if cur.shape[axis] == 1:
                cur = _join(cur, axis, w, _edge)   # NumPy's legacy: a singleton reflects
                continue
            cur = _reflect(cur, axis, w, method, mode == "symmetric")
    return _result(cur, x)


def _result(cur, x):
    return cur._copy() if (cur is x or cur._base is not None) else cur


def _piece_shape(c, axis, n):
    shp = list(c.shape)
    shp[axis] = n
    return tuple(shp)


def _join(cur, axis, widths, make):
    """cur with make(cur, axis, width, side) joined before (side 0) and after (side 1)."""
    before, after = widths
    if not before and not after:
        return cur
    parts = []
    if before:
        parts.append(make(cur, axis, before, 0))
    parts.append(cur)
    if after:
        parts.append(make(cur, axis, after, 1))
    return concat(parts, axis=axis)


def _const(c, axis, n, value):
    shape = _piece_shape(c, axis, n)
    if isinstance(value, np.generic) and value.dtype in D.SUPPORTED:
        # Note: a NumPy scalar is cast unsafely into the array's dtype (NumPy's setitem
        # raises OverflowError for some out-of-range integers)
        return wrap(ir.cast(ir.scalar(value, value.dtype, shape, c.device), c.dtype))
    k = D.weak_kind(value)
    if k == "i":
        D.check_weak_int(value, c.dtype)
    elif k == "c" and c.dtype.kind != "c":
        raise TypeError("float() argument must be a string or a real number, not 'complex'")
    return wrap(ir.scalar(value, c.dtype, shape, c.device))


def _edge_of(c, axis, side):
    n = c.shape[axis]
    return wrap(slice_axis(c._node, axis, 0 if side == 0 else n - 1, 1, 1))


def _edge(c, axis, n, side):
    return broadcast_to(_edge_of(c, axis, side), _piece_shape(c, axis, n))


def _ramp(c, axis, n, side, end):
    edge = _edge_of(c, axis, side)
    stop = edge.reshape(tuple(d for i, d in enumerate(edge.shape) if i != axis))
    r = linspace(end, stop, num=n, endpoint=False, dtype=c.dtype, axis=axis)
    if side == 1:
        r = wrap(ir.view(r._node, "slice", tuple((n - 1, -1) if i == axis else (0, 1)
                                                 for i in range(r.ndim)), r.shape))
    return r


def _pad_stat(cur, axis, widths, lengths, mode):
    func = {"maximum": max_, "minimum": min_, "mean": mean, "median": median}[mode]
    n = cur.shape[axis]
    left, right = lengths
    left = n if left is None or n < left else int(left)
    right = n if right is None or n < right else int(right)
    if (left == 0 or right == 0) and mode in ("maximum", "minimum"):
        raise ValueError("stat_length of 0 yields no value for padding")
    stats = []
    for start, length in ((0, left), (n - right, right)):
        chunk = wrap(slice_axis(cur._node, axis, start, 1, length))
        s = func(chunk, axis=axis, keepdims=True)
        if cur.dtype.kind in "iu":
            s = round_(s)
        stats.append(s.astype(cur.dtype, copy=False))
    return _join(cur, axis, widths,
                 lambda c, ax, w, side: broadcast_to(stats[side], _piece_shape(c, ax, w)))


def _flip_axis(node, axis):
    n = node.shape[axis]
    return ir.view(node, "slice", tuple((n - 1, -1) if i == axis else (0, 1)
                                        for i in range(node.ndim)), node.shape)


def _reflect(cur, axis, widths, method, include_edge):
    """NumPy's ``_set_reflect_both`` loop: each round reflects a chunk of the (growing)
    valid area onto both sides; ``cur`` holds the valid area only."""
    left, right = widths
    period = cur.shape[axis]
    while left > 0 or right > 0:
        size = cur.shape[axis]
        if include_edge:
            old = size // period * period
            eo = 1
        else:
            old = (size - 1) // (period - 1) * (period - 1) + 1 - 1
            eo = 0
        parts = []
        node = cur._node
        if left > 0:
            cl = min(old, left)
            chunk = _flip_axis(slice_axis(node, axis, 1 - eo, 1, cl), axis)
            chunk = wrap(chunk)
            if method == "odd":
                chunk = (2 * wrap(slice_axis(node, axis, 0, 1, 1)) - chunk).astype(cur.dtype)
            parts.append(chunk)
            left -= cl
        parts.append(cur)
        if right > 0:
            cr = min(old, right)
            lo = size - 1 + eo - cr
            chunk = wrap(_flip_axis(slice_axis(node, axis, lo - 0, 1, cr), axis))
            if method == "odd":
                chunk = (2 * wrap(slice_axis(node, axis, size - 1, 1, 1)) -
                         chunk).astype(cur.dtype)
            parts.append(chunk)
            right -= cr
        cur = concat(parts, axis=axis)
    return cur


def _pad_callable(x, widths, function, kwargs):
    """The legacy callable mode: `function(vector, iaxis_pad_width, iaxis, kwargs)` fills
    each 1-D vector view of the zero-padded array in place."""
    padded = pad(x, widths, mode="constant")
    for axis in range(padded.ndim):
        view = moveaxis(padded, axis, -1)
        for ind in np.ndindex(view.shape[:-1]):
            function(view[ind + (Ellipsis,)], widths[axis], axis, kwargs)
    return padded
