"""Editing along an axis: insert, delete, trim_zeros, and ``copyto`` (a write into an
existing array).

The positions are host metadata (the user's indices, slices or masks): results are joins of
runs of the input (``concat`` of views), or a ``take`` gather when the runs are many.
``trim_zeros`` reads its bounding box back with one sync.
"""
from __future__ import annotations

import numpy as np

from ... import _dtypes as D
from ..._broadcast import broadcast_to_check
from ..._graph import ir
from .._common import as_node, axis_tuple, host_to_node, is_array, normalize_axis, wrap
from ..indexing.advanced import take
from ..reductions.reductions import any as any_, argmax
from ._views import arr as _arr, fresh, slice_axis
from .manipulation import broadcast_to, concat, moveaxis, ravel, reshape, stack
from ..outargs import check_casting

_MANY_RUNS = 16


def _host(v):
    return v.get() if is_array(v) else v


def _flat_axis(a, axis):
    if axis is None:
        return (ravel(a) if a.ndim != 1 else a), 0
    return a, normalize_axis(axis, a.ndim)


def _piece(a, axis, start, stop):
    return wrap(slice_axis(a._node, axis, start, 1, stop - start))


def _join_runs(a, axis, runs, sources=None):
    """Concatenate runs [(src, start, stop)] along `axis` (src indexes `sources`)."""
    sources = sources or [a]
    runs = [r for r in runs if r[2] > r[1]]
    if not runs:
        shp = list(a.shape)
        shp[axis] = 0
        return wrap(ir.scalar(0, a.dtype, tuple(shp), a.device))
    if len(runs) > _MANY_RUNS:
        offsets = np.cumsum([0] + [s.shape[axis] for s in sources]).tolist()
        idx = np.concatenate([np.arange(offsets[k] + b, offsets[k] + e) for k, b, e in runs])
        both = concat(sources, axis=axis) if len(sources) > 1 else a
        return take(both, wrap(host_to_node(idx.astype(np.int64), device=a.device)),
                    axis=axis)
    pieces = [_piece(sources[k], axis, b, e) for k, b, e in runs]
    if len(pieces) == 1:
        return fresh(pieces[0]._node, *sources)
    return concat(pieces, axis=axis)


def _mask_runs(keep):
    """Runs [(0, start, stop)] of True in the 1-D bool host array `keep`."""
    k = np.concatenate([[False], keep, [False]]).astype(np.int8)
    d = np.flatnonzero(np.diff(k))
    return [(0, int(s), int(e)) for s, e in zip(d[::2], d[1::2])]


# ------------------------------------------------------------------ delete

def delete(arr, obj, axis=None):
    """A new array without the sub-arrays at `obj` (int, slice, index list or boolean mask)
    along `axis` (the flattened array when None).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.delete(gp.arange(6), [1, 4])
    array([0, 2, 3, 5])
    """
    a, axis = _flat_axis(_arr(arr), axis)
    n = a.shape[axis]
    if isinstance(obj, slice):
        start, stop, step = obj.indices(n)
        xr = range(start, stop, step)
        if len(xr) == 0:
            return a._copy()
        return _delete_slice(a, axis, xr)
    single = None
    if isinstance(obj, (int, np.integer)) and not isinstance(obj, (bool, np.bool_)):
        single = int(obj)
    else:
        idx = np.asarray(_host(obj))
        if idx.size == 0 and not isinstance(_host(obj), np.ndarray):
            idx = idx.astype(np.intp)
        elif idx.size == 1 and idx.dtype.kind in "ui":
            single = int(idx.item())
    if single is not None:
        if not -n <= single < n:
            raise IndexError(f"index {single} is out of bounds for axis {axis} with size {n}")
        single %= n
        return _join_runs(a, axis, [(0, 0, single), (0, single + 1, n)])
    if idx.dtype == bool:
        if idx.shape != (n,):
            raise ValueError("boolean array argument obj to delete must be one dimensional "
                             f"and match the axis length of {n}")
        keep = ~idx
    else:
        if idx.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        flat = idx.reshape(-1)
        bad = flat[(flat >= n) | (flat < -n)]
        if bad.size:
            raise IndexError(f"index {bad[0]} is out of bounds for axis {axis} with size {n}")
        keep = np.ones(n, dtype=bool)
        keep[flat] = False
    return _join_runs(a, axis, _mask_runs(keep))


def _delete_slice(a, axis, xr):
    step = abs(xr.step)
    lo, hi = min(xr[0], xr[-1]), max(xr[0], xr[-1])
    n = a.shape[axis]
    pieces = []
    if step > 1 and len(xr) > 1:
        # kept elements between deleted ones: rows of a (count-1, step) grid without
        # their first column (a reshape + slice index map)
        rows = len(xr) - 1
        grid = slice_axis(a._node, axis, lo, 1, rows * step)
        shp = grid.shape
        grid = ir.reshape(grid, shp[:axis] + (rows, step) + shp[axis + 1:])
        grid = ir.view(grid, "slice", tuple((1, 1) if d == axis + 1 else (0, 1)
                                            for d in range(grid.ndim)),
                       shp[:axis] + (rows, step - 1) + shp[axis + 1:])
        grid = ir.reshape(grid, shp[:axis] + (rows * (step - 1),) + shp[axis + 1:])
        pieces.append(wrap(grid))
    head = _piece(a, axis, 0, lo) if lo else None
    tail = _piece(a, axis, hi + 1, n) if hi + 1 < n else None
    parts = [p for p in [head] + pieces + [tail] if p is not None]
    if not parts:
        shp = list(a.shape)
        shp[axis] = 0
        return wrap(ir.scalar(0, a.dtype, tuple(shp), a.device))
    if len(parts) == 1:
        return fresh(parts[0]._node, a)
    return concat(parts, axis=axis)


# ------------------------------------------------------------------ insert

def insert(arr, obj, values, axis=None):
    """A new array with `values` inserted before the indices `obj` (int, slice, index list
    or boolean mask) along `axis` (the flattened array when None).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.insert(gp.asarray([1, 2, 3]), 1, 9)
    array([1, 9, 2, 3])
    """
    a, axis = _flat_axis(_arr(arr), axis)
    n = a.shape[axis]
    if isinstance(obj, slice):
        indices = np.arange(*obj.indices(n), dtype=np.intp)
    else:
        indices = np.array(_host(obj))
        if indices.dtype == bool:
            if indices.ndim != 1:
                raise ValueError("boolean array argument obj to insert must be one "
                                 "dimensional")
            indices = np.flatnonzero(indices)
        elif indices.ndim > 1:
            raise ValueError("index array argument obj to insert must be one dimensional "
                             "or scalar")
    if indices.size and indices.dtype.kind not in "iu":
        raise TypeError("slice indices must be integers or None or have an __index__ method")
    v = _arr(values)
    if v.device != a.device:
        raise ValueError(f"cannot insert an array on {v.device} into one on {a.device}")
    v = v.astype(a.dtype, copy=False)
    if indices.size == 1:
        index = int(indices.item())
        if not -n <= index <= n:
            raise IndexError(f"index {_host(obj)} is out of bounds for axis {axis} with size "
                             f"{n}")
        if index < 0:
            index += n
        if v.ndim < a.ndim:
            v = reshape(v, (1,) * (a.ndim - v.ndim) + v.shape)
        if indices.ndim == 0:
            v = moveaxis(v, 0, axis)
        shp = list(a.shape)
        shp[axis] = v.shape[axis]
        v = broadcast_to(_strip(v, a.ndim), tuple(shp))
        return _join_runs(a, axis, [(0, 0, index), (1, 0, shp[axis]), (0, index, n)],
                          [a, v])
    if indices.size == 0:
        indices = indices.astype(np.intp)
    indices = indices.astype(np.int64)
    bad = indices[(indices > n) | (indices < -n)]
    if bad.size:
        # Note: NumPy lets some out-of-range indices through to a later fancy assignment;
        # gnumpy rejects every index outside [-n, n]
        raise IndexError(f"index {bad[0]} is out of bounds for axis {axis} with size {n}")
    indices[indices < 0] += n
    count = len(indices)
    order = indices.argsort(kind="mergesort")
    indices[order] += np.arange(count)
    shp = list(a.shape)
    shp[axis] = count
    v = broadcast_to(_strip(v, a.ndim), tuple(shp))
    runs = []
    nxt = pos = 0
    for j in order.tolist():
        p = int(indices[j])
        if p > pos:
            runs.append((0, nxt, nxt + p - pos))
            nxt += p - pos
        last = runs[-1] if runs else None
        if last is not None and last[0] == 1 and last[2] == j:
            runs[-1] = (1, last[1], j + 1)
        else:
            runs.append((1, j, j + 1))
        pos = p + 1
    runs.append((0, nxt, n))
    return _join_runs(a, axis, runs, [a, v])


def _strip(v, ndim):
    """Drop leading length-1 axes beyond `ndim` (NumPy's assignment allows them)."""
    while v.ndim > ndim and v.shape[0] == 1:
        v = v[0]
    return v


# ------------------------------------------------------------------ trim_zeros

def trim_zeros(filt, trim="fb", axis=None):
    """Trim the leading and/or trailing zeros of `filt` along `axis` (all axes by
    default): a view of the bounding box of the non-zero elements.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.trim_zeros(gp.asarray([0, 0, 1, 2, 0]))
    array([1, 2])
    """
    # Note: a list input gives a gnumpy array (NumPy slices a list as a list)
    x = _arr(filt)
    trim = trim.lower()
    if trim not in ("fb", "bf", "f", "b"):
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    axes = tuple(range(x.ndim)) if axis is None else axis_tuple(axis, x.ndim)
    if not axes:
        return x
    if x.size == 0:
        return x[tuple(slice(0, 0) if d in axes else slice(None) for d in range(x.ndim))]
    nz = x != 0
    parts = [any_(nz)]
    for d in range(x.ndim):
        other = tuple(i for i in range(x.ndim) if i != d)
        line = any_(nz, axis=other) if other else nz
        parts.append(argmax(line))
        parts.append(argmax(line[::-1]))
    # the bounding box of the non-zero elements: one device->host sync
    box = stack([p.astype(D.int64) for p in parts]).tolist()
    if not box[0]:
        return x[tuple(slice(0, 0) if d in axes else slice(None) for d in range(x.ndim))]
    sl = []
    for d in range(x.ndim):
        start, stop = box[1 + 2 * d], x.shape[d] - box[2 + 2 * d]
        if d not in axes:
            sl.append(slice(None))
        else:
            sl.append(slice(start if "f" in trim else None, stop if "b" in trim else None))
    return x[tuple(sl)]


# ------------------------------------------------------------------ copyto

def copyto(dst, src, casting="same_kind", where=True):
    """Copy `src` into the gnumpy array `dst` (broadcasting), where `where` is True.

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.zeros(3); gp.copyto(x, 2.0, where=gp.asarray([True, False, True])); x
    array([2., 0., 2.])
    """
    if not is_array(dst):
        raise TypeError(f"copyto() argument 1 must be a gnumpy.ndarray, not "
                        f"{type(dst).__name__}")
    check_casting(casting)
    k = D.weak_kind(src)
    if k is not None:
        if k == "i" and dst.dtype.kind in "iu":
            D.check_weak_int(src, dst.dtype)
        sdt = D.apply_weak(dst.dtype, k)
        what = "scalar"
        snode = ir.scalar(src, sdt, (), dst.device)
    else:
        snode = src._node if is_array(src) else as_node(src, device=dst.device)
        sdt = snode.dtype
        what = "array data"
    if snode.device != dst.device:
        raise ValueError(f"cannot copy an array on {snode.device} into one on {dst.device}")
    if not D.can_cast(sdt, dst.dtype, casting):
        raise TypeError(f"Cannot cast {what} from {sdt!r} to {dst.dtype!r} according to "
                        f"the rule {casting!r}")
    try:
        broadcast_to_check(snode.shape, dst.shape)
    except ValueError:
        raise ValueError(f"could not broadcast input array from shape {snode.shape} into "
                         f"shape {dst.shape}") from None
    value = ir.broadcast(ir.cast(snode, dst.dtype), dst.shape)
    if where is not True:
        if is_array(where) or isinstance(where, np.ndarray):
            if where.dtype != np.bool_:
                raise TypeError(f"Cannot cast array data from {where.dtype!r} to "
                                "dtype('bool') according to the rule 'safe'")
            mnode = where._node if is_array(where) else as_node(where, device=dst.device)
        else:
            mnode = as_node(np.asarray(where, dtype=bool), device=dst.device)
        broadcast_to_check(mnode.shape, dst.shape)
        old = dst._node if (dst._base is None and not dst._has_views) else dst._leaf()
        value = ir.where(ir.broadcast(mnode, dst.shape), value, old)
    elif (value is snode or value.kind == ir.LEAF) and dst._base is None and \
            not dst._has_views:
        value = ir.copy(value)      # dst takes a node of its own, never src's node or memory
    dst._set_node(value)

