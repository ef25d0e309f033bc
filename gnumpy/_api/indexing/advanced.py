"""Index functions on the gather / scatter / compaction machinery of ``indexing``: take,
take_along_axis, put, put_along_axis, compress, extract, place, putmask, choose.

Each builds an int64 array of logical flat offsets lazily (elementwise ops and iotas) and
runs one gather or scatter; index arguments given as host data (lists, NumPy arrays) are
checked on the host, gnumpy index arrays with one device min/max sync.
"""
from __future__ import annotations

import numpy as np

from ... import _dtypes as D
from ..._broadcast import broadcast_shapes
from ..._graph import ir
from ..._graph import layout as L
from . import index_plan as IP
from . import indexing as IX
from . import masks
from .._common import (as_node, axis_int, host_to_node, is_array, normalize_axis,
                       scalar_result, wrap)

I64 = D.int64
_MODES = ("raise", "wrap", "clip")


def _arr(x, device=None):
    return x if is_array(x) else wrap(as_node(x, device=device))


def _check_mode(mode):
    if mode not in _MODES:
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")


def int_index(x, device, casting="same_kind"):
    """An index argument -> ('h', int64 NumPy array) or ('g', int64 node); non-integer
    indices raise NumPy's TypeError for `casting` to int64."""
    if is_array(x):
        dt = x.dtype
    else:
        h = np.asarray(x)
        if h.size == 0 and h.dtype.kind == "f" and not isinstance(x, np.ndarray):
            h = h.astype(np.int64)
        dt = h.dtype
    if not D.can_cast(dt, I64, casting):
        raise TypeError(f"Cannot cast array data from {dt!r} to dtype('int64') according to "
                        f"the rule {casting!r}")
    if is_array(x):
        if x.device != device:
            raise ValueError(f"index array on {x.device} for an array on {device}")
        return "g", ir.cast(masks.src_node(x), I64)
    return "h", h.astype(np.int64)


def fix_index(idx, size, mode, device, oob, neg_ok=True):
    """int64 node of index `idx` (from ``int_index``) with entries in [0, size): 'raise'
    checks the bounds (``oob(value)`` gives the exception), 'wrap' and 'clip' map."""
    kind, v = idx
    shape = v.shape
    if L.prod(shape) == 0:
        return host_to_node(v, device=device) if kind == "h" else v
    lo_ok = -size if neg_ok else 0
    if kind == "h":
        if mode == "raise":
            lo, hi = int(v.min()), int(v.max())
            if hi >= size or lo < lo_ok:
                raise oob(hi if hi >= size else lo)
            v = np.where(v < 0, v + size, v)
        elif mode == "wrap":
            v = v % size
        else:
            v = np.clip(v, 0, size - 1)
        return host_to_node(v, device=device)
    if mode == "raise":
        (lo, hi), = IP.minmax([v])
        if hi >= size or lo < lo_ok:
            raise oob(hi if hi >= size else lo)
        return IP.normalize(v, size) if lo < 0 else v
    if mode == "wrap":
        return ir.ew("remainder", I64, (v, ir.scalar(size, I64, shape, device)))
    hi = ir.ew("minimum", I64, (v, ir.scalar(size - 1, I64, shape, device)))
    return ir.ew("maximum", I64, (hi, ir.scalar(0, I64, shape, device)))


def axis_offsets(shape, axis, inode, out_shape, device, along=False):
    """Offsets into C-order `shape` for `inode` (int64, in range) along `axis`, plus iotas
    over the other dims: ``take``'s layout (the index dims replace `axis`) or, with
    `along`, ``take_along_axis``'s (same ndim; an other dim of size 1 stays at 0)."""
    cs = L.c_strides(shape)
    nd = len(shape)
    ishape = inode.shape
    lead, trail = axis, nd - axis - 1
    if along:
        node = inode
        st = [0 if (d == axis or shape[d] == 1) else cs[d] for d in range(nd)]
    else:                                               # take layout
        node = ir.reshape(inode, (1,) * lead + ishape + (1,) * trail)
        st = list(cs[:axis]) + [0] * len(ishape) + list(cs[axis + 1:])
    if cs[axis] != 1:
        node = ir.ew("multiply", I64, (node, ir.scalar(cs[axis], I64, node.shape, device)))
    node = ir.broadcast(node, out_shape)
    if any(st):
        node = ir.ew("add", I64, (node, ir.iota(out_shape, st, 0, device)))
    return node


def _oob_axis(axis, size):
    return lambda i: IndexError(f"index {i} is out of bounds for axis {axis} with size {size}")


def _out(r, out):
    if out is None:
        return r
    if not is_array(out):
        raise TypeError("out must be a gnumpy array")
    if out.shape != r.shape:
        raise ValueError("output array does not match result of ndarray.take")
    out._assign_from(r)
    return out


# ====================================================================== take / put

def take(a, indices, axis=None, out=None, mode="raise"):
    """Elements of `a` at `indices` along `axis` (the flattened array when None).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.take(gp.asarray([4, 3, 5, 7]), [0, 1, 4], mode="clip")
    array([4, 3, 7])
    """
    _check_mode(mode)
    a = _arr(a)
    if axis is None:
        a = a.reshape(-1)
        ax = 0
    else:
        ax = axis_int(axis, "an integer is required for the axis")
        if a.ndim == 0:             # (NumPy's PyArray_CheckAxis reads a 0-d array as 1-d)
            a = a.reshape(1)
        ax = normalize_axis(ax, a.ndim)
    idx = int_index(indices, a.device)
    ishape = idx[1].shape
    size = a.shape[ax]
    if size == 0 and L.prod(ishape):
        raise IndexError("cannot do a non-empty take from an empty axes.")
    inode = fix_index(idx, size, mode, a.device, _oob_axis(ax, size))
    rshape = a.shape[:ax] + tuple(ishape) + a.shape[ax + 1:]
    if L.prod(rshape) == 0:
        return _out(IX.gather(a, (), None, rshape), out)
    off = axis_offsets(a.shape, ax, inode, rshape, a.device)
    return _out(IX.gather(a, (), off, rshape), out)


def _along_axis(arr, indices, axis):
    """(array indexed, result shape, int64 offsets node or None) of *_along_axis."""
    arr = _arr(arr)
    ind = indices if is_array(indices) else np.asarray(indices)
    if ind.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if axis is None:
        if ind.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        arr = arr.reshape(-1)
        axis = 0
    ax = normalize_axis(axis, arr.ndim)
    if ind.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    other = tuple(1 if d == ax else s for d, s in enumerate(arr.shape))
    try:
        rshape = broadcast_shapes(tuple(ind.shape), other)
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together "
                         f"with shapes {tuple(ind.shape)} {other}") from None
    size = arr.shape[ax]
    if L.prod(rshape) == 0:
        return arr, rshape, None
    inode = fix_index(int_index(indices, arr.device), size, "raise", arr.device,
                      _oob_axis(ax, size))
    return arr, rshape, axis_offsets(arr.shape, ax, inode, rshape, arr.device, along=True)


def take_along_axis(arr, indices, axis=-1):
    """Values of `arr` at `indices` along `axis`, matching 1-d slices (as argsort output).

    Examples
    --------
    >>> import gnumpy as gp
    >>> a = gp.asarray([[10, 30, 20], [60, 40, 50]])
    >>> gp.take_along_axis(a, gp.argmax(a, axis=1, keepdims=True), axis=1)
    array([[30],
           [60]])
    """
    arr, rshape, off = _along_axis(arr, indices, axis)
    return IX.gather(arr, (), off, rshape)


def put_along_axis(arr, indices, values, axis):
    """Write `values` into `arr` at `indices` along `axis` (in place).

    Examples
    --------
    >>> import gnumpy as gp
    >>> a = gp.zeros((2, 3))
    >>> gp.put_along_axis(a, gp.asarray([[1], [2]]), 5.0, axis=1)
    >>> a
    array([[0., 5., 0.],
           [0., 0., 5.]])
    """
    if not is_array(arr):
        raise TypeError("put_along_axis: `arr` must be a gnumpy array")
    _, rshape, off = _along_axis(arr, indices, axis)
    vnode = IX.fit_value(IX.value_node(arr.dtype, values, arr.device), rshape)
    # offsets into the flattened array (axis=None) are offsets into arr's C order
    IX.scatter(arr, (), off, vnode)


def put(a, ind, v, mode="raise"):
    """``a.flat[ind] = v`` with `v` repeated as needed (in place).

    Examples
    --------
    >>> import gnumpy as gp
    >>> a = gp.arange(5)
    >>> gp.put(a, [0, 2], [-44, -55])
    >>> a
    array([-44,   1, -55,   3,   4])
    """
    if not is_array(a):
        raise TypeError(f"argument 1 must be gnumpy.ndarray, not {type(a)}")
    _check_mode(mode)
    if a._ro:
        raise ValueError("put: output array is read-only")
    idx = int_index(ind, a.device)
    if isinstance(v, np.generic):       # NumPy converts put's values as an array
        vals = host_to_node(v, dtype=a.dtype, device=a.device)
    else:
        vals = IX.value_node(a.dtype, v, a.device)
    n, nv = L.prod(idx[1].shape), L.prod(vals.shape)
    if n == 0 or nv == 0:
        return
    if a.size == 0:
        raise IndexError("cannot replace elements of an empty array")
    kind, iv = idx
    idx = (kind, iv.reshape(-1) if kind == "h" else ir.reshape(iv, (n,)))
    off = fix_index(idx, a.size, mode, a.device, _oob_axis(0, a.size))
    IX.scatter(a, (), off, _cycled(vals, n))


def _cycled(vals, n):
    """Node (n,) or (1,): the values of `vals` (flattened) repeated to length n."""
    nv = L.prod(vals.shape)
    flat = ir.reshape(vals, (nv,))
    if nv == 1:
        return flat
    if nv >= n:
        return ir.view(flat, "slice", ((0, 1),), (n,)) if nv > n else flat
    pos = ir.ew("remainder", I64, (ir.iota((n,), (1,), 0, vals.device),
                                   ir.scalar(nv, I64, (n,), vals.device)))
    return ir.barrier("gather", (flat, pos), None, vals.dtype, (n,))


# ====================================================================== masks

def _flat_mask_index(condition, device):
    """int64 node (N,): flat indices of the nonzero elements of `condition` (any shape)."""
    if is_array(condition):
        return masks.flat_nonzero(condition)
    return host_to_node(np.flatnonzero(np.asarray(condition)), device=device)


def compress(condition, a, axis=None, out=None):
    """Slices of `a` along `axis` where `condition` (1-d) is true.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.compress([False, True, True], gp.asarray([[1, 2], [3, 4], [5, 6]]), axis=0)
    array([[3, 4],
           [5, 6]])
    """
    a = _arr(a)
    ndim = condition.ndim if is_array(condition) else np.ndim(condition)
    if ndim != 1:
        raise ValueError("condition must be a 1-d array")
    idx = _flat_mask_index(condition, a.device)
    return take(a, wrap(idx), axis=axis, out=out)


def extract(condition, arr):
    """The elements of `arr` (flattened) where `condition` (flattened) is nonzero.

    Examples
    --------
    >>> import gnumpy as gp
    >>> a = gp.arange(6).reshape(2, 3)
    >>> gp.extract(a % 3 == 0, a)
    array([0, 3])
    """
    arr = _arr(arr)
    idx = _flat_mask_index(condition, arr.device)
    return take(arr.reshape(-1), wrap(idx))


def place(arr, mask, vals):
    """Put `vals` (repeated) into `arr` where `mask` is true, in C order (in place).

    Examples
    --------
    >>> import gnumpy as gp
    >>> a = gp.arange(6)
    >>> gp.place(a, a > 2, [44, 55])
    >>> a
    array([ 0,  1,  2, 44, 55, 44])
    """
    if not is_array(arr):
        raise TypeError(f"argument 1 must be gnumpy.ndarray, not {type(arr)}")
    msize = mask.size if is_array(mask) else np.size(mask)
    if msize != arr.size:
        raise ValueError("place: mask and data must be the same size")
    idx = _flat_mask_index(mask, arr.device)
    n = idx.shape[0]
    v = IX.value_node(arr.dtype, vals, arr.device)
    if n == 0:
        return
    if L.prod(v.shape) == 0:
        raise ValueError("Cannot insert from an empty array!")
    IX.scatter(arr, (), idx, _cycled(v, n), unique=True)    # a mask: each element once


def putmask(a, mask, values):
    """``a.flat[i] = values.flat[i % len(values)]`` where ``mask.flat[i]`` (in place).

    Examples
    --------
    >>> import gnumpy as gp
    >>> a = gp.arange(6)
    >>> gp.putmask(a, a > 2, a ** 2)
    >>> a
    array([ 0,  1,  2,  9, 16, 25])
    """
    if not is_array(a):
        raise TypeError(f"argument 1 must be gnumpy.ndarray, not {type(a)}")
    m = _arr(mask, a.device)
    if m.size != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    v = IX.value_node(a.dtype, values, a.device)
    nv = L.prod(v.shape)
    if nv == 0 or a.size == 0:
        return
    if nv == a.size:
        vnode = ir.reshape(v, a.shape) if v.shape != a.shape else v
    else:
        vnode = ir.reshape(_cycled(v, a.size), (a.size,) if nv != 1 else (1,))
        vnode = ir.broadcast(ir.reshape(vnode, (1,) * a.ndim) if nv == 1 else
                             ir.reshape(vnode, a.shape), a.shape)
    mnode = ir.reshape(ir.cast(m._node, D.bool_), a.shape)
    a._set_node(ir.where(mnode, vnode, masks.src_node(a)))


# ====================================================================== choose

def choose(a, choices, out=None, mode="raise"):
    """``choices[a[i]][i]`` for every position of the broadcast of `a` and `choices`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.choose(gp.asarray([2, 0, 1]), [[1, 2, 3], [10, 20, 30], [100, 200, 300]])
    array([100,   2,  30])
    """
    _check_mode(mode)
    if is_array(choices):
        choices = [choices[i] for i in range(choices.shape[0])]
    dev = a.device if is_array(a) else None
    cs = [_arr(c, dev) for c in choices]
    if not cs:
        raise ValueError("0-length sequence.")
    dev = cs[0].device
    kind, iv = int_index(a, dev, casting="safe")
    inode = host_to_node(iv, device=dev) if kind == "h" else iv
    try:
        shape = broadcast_shapes(inode.shape, *[c.shape for c in cs])
    except ValueError:
        raise ValueError("shape mismatch: objects cannot be broadcast to a single shape"
                         ) from None
    n = len(cs)
    inode = fix_index((kind, iv if kind == "h" else inode), n, mode, dev,
                      lambda i: ValueError("invalid entry in choice array"), neg_ok=False)
    dt = D.result_type(*cs)
    inode = ir.broadcast(inode, shape)
    r = ir.ew("astype", dt, (ir.broadcast(cs[-1]._node, shape),))
    for i in range(n - 2, -1, -1):
        hit = ir.ew("equal", D.bool_, (inode, ir.scalar(i, I64, shape, dev)))
        r = ir.where(hit, ir.broadcast(ir.cast(cs[i]._node, dt), shape), r)
    res = wrap(r)
    if out is not None:
        out._assign_from(res)
        return out
    return scalar_result(res)       # (NumPy's scalar where 0-d)
