"""Index arrays: nonzero, argwhere, flatnonzero, ix_, ravel_multi_index, unravel_index,
diag_indices, diag_indices_from.

``nonzero`` and friends run the device compaction of ``masks.flat_nonzero`` (one sync
for the count) and unravel the flat indices with elementwise ops; the multi-index
conversions are elementwise (lazy), with one sync to check bounds where NumPy raises.
"""
from __future__ import annotations

import numpy as np

from ... import _dtypes as D
from ..._broadcast import broadcast_shapes
from ..._graph import ir
from ..._graph import layout as L
from . import masks
from .._common import as_node, host_to_node, is_array, wrap
from .advanced import fix_index, int_index
from ..._device import as_device
from ..._sizes import dims as _shape
from ..creation.creation import arange

I64 = D.int64


def _arr(x, device=None):
    return x if is_array(x) else wrap(as_node(x, device=device))


def _unravel(flat, shape, strides):
    """New int64 nodes, one per dim: flat // strides[d] % shape[d] (flat's shape).

    # Note: written as q - (flat // (stride * size)) * size: NVRTC 12 never finishes
    # compiling the fused kernel of a remainder of a floor_divide result."""
    dev = flat.device
    outer = max(range(len(strides)), key=lambda d: strides[d])
    out = []
    for d, (n, s) in enumerate(zip(shape, strides)):
        q = _fdiv(flat, s)
        if d != outer:
            hi = ir.ew("multiply", I64, (_fdiv(flat, s * n), ir.scalar(n, I64, flat.shape,
                                                                      dev)))
            q = ir.ew("subtract", I64, (q, hi))
        out.append(q if q is not flat else ir.ew("astype", I64, (flat,)))
    return out


def _fdiv(node, c):
    if c == 1:
        return node
    return ir.ew("floor_divide", I64, (node, ir.scalar(max(c, 1), I64, node.shape,
                                                       node.device)))


def nonzero(a):
    """Indices of the nonzero elements of `a`, one int64 array per dimension.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.nonzero(gp.asarray([[3, 0], [0, 4]]))
    (array([0, 1]), array([0, 1]))
    """
    a = _arr(a)
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use "
                         "np.atleast_1d(scalar).nonzero() instead.")
    flat = masks.flat_nonzero(a)
    if a.ndim == 1:
        return (wrap(flat),)
    return tuple(wrap(n) for n in _unravel(flat, a.shape, L.c_strides(a.shape)))


def flatnonzero(a):
    """Indices of the nonzero elements of `a` flattened.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.flatnonzero(gp.asarray([[0, 2], [3, 0]]))
    array([1, 2])
    """
    return wrap(masks.flat_nonzero(_arr(a)))


def argwhere(a):
    """Indices of the nonzero elements of `a`, one row per element (shape (N, a.ndim)).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.argwhere(gp.asarray([[0, 2], [3, 0]]))
    array([[0, 1],
           [1, 0]])
    """
    a = _arr(a)
    flat = masks.flat_nonzero(a)
    n = flat.shape[0]
    nd = a.ndim
    if nd == 0:
        return wrap(ir.scalar(0, I64, (n, 0), a.device))
    if nd == 1:
        return wrap(ir.ew("astype", I64, (ir.reshape(flat, (n, 1)),)))
    shape = (n, nd)
    dev = a.device
    f = ir.broadcast(ir.reshape(flat, (n, 1)), shape)
    cs = np.asarray(L.c_strides(a.shape), np.int64)
    rows = [ir.broadcast(host_to_node(r.reshape(1, nd), device=dev), shape)
            for r in (cs, cs * np.asarray(a.shape, np.int64), np.asarray(a.shape, np.int64))]
    q = ir.ew("floor_divide", I64, (f, rows[0]))          # f // cs % dims (see _unravel)
    hi = ir.ew("multiply", I64, (ir.ew("floor_divide", I64, (f, rows[1])), rows[2]))
    return wrap(ir.ew("subtract", I64, (q, hi)))


def ix_(*args):
    """Open-mesh index arrays from 1-d sequences (booleans become their nonzero indices).

    Examples
    --------
    >>> import gnumpy as gp
    >>> a = gp.arange(12).reshape(3, 4)
    >>> a[gp.ix_([0, 2], [1, 3])]
    array([[ 1,  3],
           [ 9, 11]])
    """
    out = []
    nd = len(args)
    for k, new in enumerate(args):
        if is_array(new):
            if new.ndim != 1:
                raise ValueError("Cross index must be 1 dimensional")
            if new.dtype == D.bool_:
                new = wrap(masks.flat_nonzero(new))
        else:
            h = np.asarray(new)
            if h.size == 0:
                h = h.astype(np.intp)
            if h.ndim != 1:
                raise ValueError("Cross index must be 1 dimensional")
            if h.dtype.kind == "b":
                h = np.flatnonzero(h)
            new = wrap(host_to_node(h))
        out.append(new.reshape((1,) * k + (new.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def _strides(dims, order):
    if order == "C":
        return L.c_strides(dims)
    if order == "F":
        return tuple(reversed(L.c_strides(tuple(reversed(dims)))))
    raise ValueError("only 'C' or 'F' order is permitted")


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """Flat indices into an array of shape `dims` from a tuple of index arrays.

    # Note: scalar inputs give a 0-d gnumpy array, not a NumPy integer.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.ravel_multi_index(([3, 6, 6], [4, 5, 1]), (7, 6))
    array([22, 41, 37])
    """
    dims = _shape(dims)
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims):
        raise ValueError("mode must be a single string or one per dimension")
    for m in modes:
        if m not in ("raise", "wrap", "clip"):
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {m!r})")
    dev = as_device(next((x.device for x in multi_index if is_array(x)), None))
    idx = [int_index(x, dev) for x in multi_index]
    shapes = [v.shape for _, v in idx]
    shape = broadcast_shapes(*shapes)
    st = _strides(dims, order)
    total = None
    for (kind, v), n, s, m in zip(idx, dims, st, modes):
        node = fix_index((kind, v), n, m, dev,
                         lambda i: ValueError("invalid entry in coordinates array"),
                         neg_ok=False)
        node = ir.broadcast(node, shape)
        if s != 1:
            node = ir.ew("multiply", I64, (node, ir.scalar(s, I64, shape, dev)))
        total = node if total is None else ir.ew("add", I64, (total, node))
    if total is None:
        total = ir.scalar(0, I64, shape, dev)
    if len(dims) == 1 and st[0] == 1:
        total = ir.ew("astype", I64, (total,))      # never the caller's own node
    return wrap(total)


def unravel_index(indices, shape, order="C"):
    """Tuple of index arrays into an array of `shape` from flat `indices`.

    # Note: scalar inputs give 0-d gnumpy arrays, not NumPy integers.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.unravel_index(gp.asarray([22, 41, 37]), (7, 6))
    (array([3, 6, 6]), array([4, 5, 1]))
    """
    dims = _shape(shape)
    size = L.prod(dims)
    dev = indices.device if is_array(indices) else None
    dev = as_device(dev)
    dt = indices.dtype if is_array(indices) else np.asarray(indices).dtype
    if dt.kind not in "iu":
        raise TypeError("only int indices permitted")
    idx = int_index(indices, dev)
    flat = fix_index(idx, size, "raise", dev,
                     lambda i: ValueError(f"index {i} is out of bounds for array with size "
                                          f"{size}"), neg_ok=False)
    if not dims:
        return ()
    return tuple(wrap(n) for n in _unravel(flat, dims, _strides(dims, order)))


def diag_indices(n, ndim=2):
    """Indices of the main diagonal of an n x n x ... array (`ndim` dims).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.diag_indices(3)
    (array([0, 1, 2]), array([0, 1, 2]))
    """
    idx = arange(n)
    return (idx,) * ndim


def diag_indices_from(arr):
    """``diag_indices`` for the shape of `arr` (at least 2-d, all dims equal).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.diag_indices_from(gp.zeros((2, 2)))
    (array([0, 1]), array([0, 1]))
    """
    shape = arr.shape if is_array(arr) else np.shape(arr)
    if len(shape) < 2:
        raise ValueError("input array must be at least 2-d")
    if any(d != shape[0] for d in shape):
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(shape[0], len(shape))
