"""Diagonals and index grids: diagonal, diag, diagflat, trace, fill_diagonal,
tril_indices/triu_indices (and their ``_from`` forms), mask_indices, indices, fromfunction.

``diagonal`` is a strided view (flatten the two axes, slice with step ``m + 1``) whenever the
layout allows; index grids are lazy IOTA expressions (``tril_indices`` inverts the row
offsets in closed form), so none of them reads host data or needs a gather.
"""
from __future__ import annotations

import math
import operator

import numpy as np

from ... import _dtypes as D
from ..._device import default_device
from ..._graph import ir
from ..._graph import layout as L
from ..._sizes import dimension
from .. import _common
from ..creation import creation
from .._common import as_node, is_array, normalize_axis, wrap
from ._views import apply_ops, arr, cyclic, folds, fresh, true_layout
from ..creation.creation import arange
from ..elementwise.elementwise import apply, where
from ..reductions.reductions import sum as sum_
from ..indexing.index_tricks import nonzero


def _diag_ops(shape, offset, a1, a2):
    """View ops taking the diagonal of axes (a1, a2), two candidate orientations."""
    nd = len(shape)
    n, m = shape[a1], shape[a2]
    if offset >= 0:
        length = max(0, min(n, m - offset))
        r0, c0 = 0, offset
    else:
        length = max(0, min(n + offset, m))
        r0, c0 = -offset, 0
    rest = [d for d in range(nd) if d not in (a1, a2)]
    head = tuple(shape[d] for d in rest)
    out = []
    for first, second, i0, j0 in ((a1, a2, r0, c0), (a2, a1, c0, r0)):
        p, q = shape[first], shape[second]
        perm = tuple(rest) + (first, second)
        ops = [] if perm == tuple(range(nd)) else [("permute", perm, head + (p, q))]
        ops.append(("reshape", None, head + (p * q,)))
        start = i0 * q + j0 if length else 0
        ss = ((0, 1),) * len(head) + ((start, q + 1),)
        ops.append(("slice", ss, head + (length,)))
        out.append(ops)
    return out


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The diagonal of `a` over axes (axis1, axis2), as the last axis of the result: a
    view when the two axes can be flattened together in memory, else a copy.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.diagonal(gp.arange(9).reshape(3, 3), 1)
    array([1, 5])
    """
    a = arr(a)
    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    offset = operator.index(offset)
    a1 = normalize_axis(axis1, a.ndim)
    a2 = normalize_axis(axis2, a.ndim)
    if a1 == a2:
        raise ValueError("axis1 and axis2 cannot be the same")
    # As NumPy's, the result is a read-only view.  When the two axes flatten together
    # (adjacent in memory) it is made of view ops and stays lazy; otherwise (the stride
    # sum of two non-adjacent axes, which the IR's view ops cannot express) `a` is
    # materialized and the view reads its memory at the diagonal's strides.
    cands = _diag_ops(a.shape, offset, a1, a2)
    for ops in cands:
        if folds(a, ops):
            r = a._view(ops)
            break
    else:
        lay = true_layout(a)
        if lay is None:
            r = fresh(apply_ops(a._node, cands[0]), a)
        else:
            r = a._strided_view(*_diag_layout(a.shape, lay, offset, a1, a2))
    r._ro = True
    return r


def _diag_layout(shape, layout, offset, a1, a2):
    """(shape, strides, offset) of the diagonal of axes (a1, a2) of a strided layout."""
    st, off = layout
    n, m = shape[a1], shape[a2]
    if offset >= 0:
        length, i0, j0 = max(0, min(n, m - offset)), 0, offset
    else:
        length, i0, j0 = max(0, min(n + offset, m)), -offset, 0
    rest = [d for d in range(len(shape)) if d not in (a1, a2)]
    if length:
        off += i0 * st[a1] + j0 * st[a2]
    return (tuple(shape[d] for d in rest) + (length,),
            tuple(st[d] for d in rest) + (st[a1] + st[a2],), off)


def diag(v, k=0):
    """Extract the k-th diagonal of a 2-D array (a view), or build a 2-D array with 1-D `v`
    on its k-th diagonal.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.diag(gp.asarray([1, 2]))
    array([[1, 0],
           [0, 2]])
    """
    v = arr(v)
    k = operator.index(k)
    if v.ndim == 2:
        return diagonal(v, k)
    if v.ndim != 1:
        raise ValueError("Input must be 1- or 2-d.")
    n = v.shape[0]
    N = n + abs(k)
    dev = v.device
    zero = ir.scalar(0, v.dtype, (N, N), dev)
    if n == 0:
        return wrap(zero)
    ext = cyclic(v._node, 0, 0, N)      # v[i] for the rows (k >= 0) or columns (k < 0)
    ext = ir.reshape(ext, (N, 1) if k >= 0 else (1, N))
    ext = ir.broadcast(ext, (N, N))
    on = ir.ew("equal", D.bool_, (ir.iota((N, N), (-1, 1), 0, dev),
                                  ir.scalar(k, D.int64, (N, N), dev)))
    return wrap(ir.where(on, ext, zero))


def diagflat(v, k=0):
    """A 2-D array with the flattened input on its k-th diagonal.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.diagflat(gp.asarray([[1, 2]]), 1).shape
    (3, 3)
    """
    return diag(arr(v).reshape(-1), k)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """Sum along a diagonal (a fused reduction over the diagonal view).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.trace(gp.eye(3))
    array(3.)
    """
    return sum_(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype, out=out)


def fill_diagonal(a, val, wrap=False):
    """Write `val` (flattened, repeated as needed) on the main diagonal of `a`, in place.

    For 2-D arrays `wrap` continues the diagonal below a tall matrix's square part, as
    NumPy's ``a.flat[::ncols + 1]``.

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.zeros((2, 2)); gp.fill_diagonal(x, 5); x
    array([[5., 0.],
           [0., 5.]])
    """
    if not is_array(a):
        raise TypeError("fill_diagonal() needs a gnumpy array to write into")
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    end = None
    if a.ndim == 2:
        step = a.shape[1] + 1
        if not wrap:
            end = a.shape[1] * a.shape[1]
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + sum(L.prod(a.shape[:i]) for i in range(1, a.ndim))
    total = a.size
    stop = total if end is None else min(end, total)
    count = len(range(0, stop, step))
    v = val if is_array(val) else _common.wrap(as_node(val, device=a.device))
    v = v.reshape(-1)
    if count == 0 or v.size == 0:
        return None
    if v.device != a.device:
        raise ValueError(f"cannot write an array on {v.device} into one on {a.device}")
    _check_scalar(val, a.dtype)
    vals = cyclic(ir.cast(v._node, a.dtype), 0, 0, count)
    ops = [("reshape", None, (total,)), ("slice", ((0, step),), (count,))]
    if folds(a, ops):
        a._view(ops)._set_node(vals)
        return None
    # a layout strides cannot flatten: rewrite the whole array with a where over the
    # flat index (the new diagonal values spread with a broadcast + reshape index map)
    flat = ir.reshape(a._node if (a._base is None and not a._has_views) else a._leaf(),
                      (total,))
    p = ir.axis_iota((total,), 0, a.device)
    i64 = D.int64
    on = ir.ew("logical_and", D.bool_, (
        ir.ew("equal", D.bool_, (ir.ew("remainder", i64, (p, ir.scalar(step, i64, (total,),
                                                                      a.device))),
                                 ir.scalar(0, i64, (total,), a.device))),
        ir.ew("less", D.bool_, (p, ir.scalar(stop, i64, (total,), a.device)))))
    rows = L.ceil_div(total, step)
    spread = ir.broadcast(ir.reshape(cyclic(vals, 0, 0, rows), (rows, 1)), (rows, step))
    spread = ir.view(ir.reshape(spread, (rows * step,)), "slice", ((0, 1),), (total,))
    a._set_node(ir.reshape(ir.where(on, spread, flat), a.shape))
    return None


def _check_scalar(val, dt):
    k = D.weak_kind(val)
    if k == "i":
        D.check_weak_int(val, dt)
    elif k == "c" and dt.kind != "c":
        raise TypeError("float() argument must be a string or a real number, not 'complex'")


# ------------------------------------------------------------------ triangle indices

def _tril_parts(n, k, m):
    """Row layout of tril(ones((n, m)), k): rows r0..r1 hold a+0, a+1, ... elements,
    rows r1..n hold m; returns (r0, r1, a, count)."""
    r0 = min(max(-k, 0), n)
    r1 = min(max(m - k - 1, r0), n)
    a = r0 + k + 1
    t = r1 - r0
    tri = t * a + t * (t - 1) // 2
    return r0, r1, a, tri + (n - r1) * max(m, 0)


def _tril_at(p, n, k, m):
    """(rows, cols) of the p-th (int64 array) element of tril(ones((n, m)), k), row-major."""
    r0, r1, a, _ = _tril_parts(n, k, m)
    t_rows = r1 - r0
    tri = t_rows * a + t_rows * (t_rows - 1) // 2
    # triangular part: the largest t with S(t) = t*a + t*(t-1)/2 <= p
    b = 2 * a - 1
    pf = p.astype(D.float64)
    t = apply("floor", (apply("sqrt", pf * 8.0 + float(b * b)) - float(b)) * 0.5)
    t = t.astype(D.int64)

    def s_of(t_):
        return t_ * a + (t_ * (t_ - 1)) // 2
    t = where(s_of(t + 1) <= p, t + 1, t)          # exact integer fix-up of the sqrt
    t = where(s_of(t) > p, t - 1, t)
    q = p - tri
    mm = max(m, 1)
    in_tri = p < tri
    rows = where(in_tri, t + r0, q // mm + r1)
    cols = where(in_tri, p - s_of(t), q % mm)
    return rows, cols


def _count_from(k):
    if isinstance(k, (float, np.floating)):
        return math.floor(k)
    return operator.index(k)


def tril_indices(n, k=0, m=None):
    """Row and column indices of the lower triangle of an (n, m) array (row-major order).

    Examples
    --------
    >>> import gnumpy as gp
    >>> [i.tolist() for i in gp.tril_indices(3)]
    [[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]]
    """
    n = operator.index(n)
    m = n if m is None else operator.index(m)
    k = _count_from(k)
    nn, mm = max(n, 0), max(m, 0)
    count = _tril_parts(nn, k, mm)[3] if nn and mm else 0
    p = arange(count)
    if count == 0:
        return p, arange(0)
    return _tril_at(p, nn, k, mm)


def triu_indices(n, k=0, m=None):
    """Row and column indices of the upper triangle of an (n, m) array (row-major order).

    Examples
    --------
    >>> import gnumpy as gp
    >>> [i.tolist() for i in gp.triu_indices(3, 1)]
    [[0, 0, 1], [1, 2, 2]]
    """
    n = operator.index(n)
    m = n if m is None else operator.index(m)
    k = _count_from(k)
    nn, mm = max(n, 0), max(m, 0)
    # the upper triangle is the lower one of the array turned by 180 degrees
    k2 = mm - nn - k
    count = _tril_parts(nn, k2, mm)[3] if nn and mm else 0
    if count == 0:
        return arange(0), arange(0)
    rows, cols = _tril_at(arange(count - 1, -1, -1), nn, k2, mm)
    return (nn - 1) - rows, (mm - 1) - cols


def _shape2(arr_):
    shape = arr_.shape if is_array(arr_) else np.shape(arr_)
    if len(shape) != 2:
        raise ValueError("input array must be 2-d")
    return shape


def tril_indices_from(arr, k=0):
    """Indices of the lower triangle of the 2-D array `arr`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> len(gp.tril_indices_from(gp.ones((3, 3)))[0])
    6
    """
    n, m = _shape2(arr)
    return tril_indices(n, k=k, m=m)


def triu_indices_from(arr, k=0):
    """Indices of the upper triangle of the 2-D array `arr`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> len(gp.triu_indices_from(gp.ones((3, 3)), 1)[0])
    3
    """
    n, m = _shape2(arr)
    return triu_indices(n, k=k, m=m)


def mask_indices(n, mask_func, k=0):
    """Indices where ``mask_func(ones((n, n)), k)`` is non-zero (``triu``/``tril`` take a
    closed form; other functions need ``nonzero``).

    Examples
    --------
    >>> import gnumpy as gp
    >>> [i.tolist() for i in gp.mask_indices(3, gp.triu, 1)]
    [[0, 0, 1], [1, 2, 2]]
    """
    if mask_func in (creation.triu, np.triu):
        return triu_indices(n, k)
    if mask_func in (creation.tril, np.tril):
        return tril_indices(n, k)
    m = mask_func(creation.ones((n, n), dtype=int), k)
    return nonzero(arr(m) != 0)


# ------------------------------------------------------------------ index grids

def indices(dimensions, dtype=int, sparse=False):
    """An array (or, `sparse`, a tuple of broadcastable arrays) holding the index of each
    position along each axis of a grid of shape `dimensions`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.indices((2, 3))[1]
    array([[0, 1, 2],
           [0, 1, 2]])
    """
    dims = tuple(dimension(d) for d in dimensions)
    if any(d < 0 for d in dims):
        raise ValueError("negative dimensions are not allowed")
    dt = D.to_dtype(dtype)
    dev = default_device()
    N = len(dims)
    if sparse:
        out = []
        for i, d in enumerate(dims):
            shp = (1,) * i + (d,) + (1,) * (N - i - 1)
            out.append(wrap(ir.cast(ir.axis_iota(shp, i, dev), dt)))
        return tuple(out)
    full = (N,) + dims
    if N == 0:
        return wrap(ir.scalar(0, dt, full, dev))
    which = ir.axis_iota(full, 0, dev)
    node = ir.axis_iota(full, N, dev)
    for i in range(N - 2, -1, -1):
        sel = ir.ew("equal", D.bool_, (which, ir.scalar(i, D.int64, full, dev)))
        node = ir.where(sel, ir.axis_iota(full, i + 1, dev), node)
    return wrap(ir.cast(node, dt))


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """``function(*indices(shape, dtype))``: an array built from the index grid.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fromfunction(lambda i, j: i == j, (2, 2))
    array([[ True, False],
           [False,  True]])
    """
    return function(*indices(shape, dtype=dtype), **kwargs)
