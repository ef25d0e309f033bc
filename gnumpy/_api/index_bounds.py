"""Bounds checks of device index arrays: (min, max) of each, one transfer for all of them.

NumPy raises IndexError at the call for an out-of-bounds integer index array, so a device
index array costs a reduction and a device->host transfer (a sync) before the gather.  A
row loop indexes with slices of one array (``x[A_col[A_row[i]:A_row[i + 1]]]``): the
first check also reduces the whole array the slice views (its root, when not much larger),
and later slices of it are checked against those bounds without a transfer while nothing
has written that memory (``_memstate``).  A root's bounds only ever prove an index in
range; an index they do not prove is checked exactly.
"""
from __future__ import annotations

from .. import _dtypes as D
from .._graph import ir
from .._graph import layout as L
from .._memstate import MISS, Memo, shared

I64 = D.int64
_ROOT_MAX = 1 << 22         # elements: a root larger than this (and than 4 x the slice)
                            # is not reduced to check one slice of it
_ROOTS = Memo(256)          # root buffer, root layout -> (lo, hi)


def _root_leaf(arr):
    """The LEAF of the whole array whose memory index array `arr` views (itself when it is
    a base) at arr's dtype, or None when its memory is not plain gnumpy memory one array
    owns, or arr views it as another dtype (``.view``: other values)."""
    n = arr._node
    root = arr._base if arr._base is not None else arr
    rn = root._node
    if n.kind != ir.LEAF or rn.kind != ir.LEAF or rn.buf is not n.buf or \
            rn.dtype != n.dtype or rn.dtype.kind not in "iu" or shared(rn.buf):
        return None
    return rn


def _known(rn):
    """(lo, hi) of root LEAF `rn` computed since its memory was last written, or None."""
    k = _ROOTS.get(rn.buf, (rn.dtype, rn.shape, rn.strides, rn.offset))
    return None if k is MISS else k


def bounds(items, minmax) -> list:
    """For each (int64 node, index array, axis size) of `items` (each non-empty): (lo, hi)
    of its values, or of a superset of them that lies in [-size, size).  `minmax` computes
    [(min, max)] of int64 nodes with one transfer (``indexing.minmax``)."""
    out = [None] * len(items)
    todo, roots = [], []
    for i, (node, arr, size) in enumerate(items):
        rn = _root_leaf(arr)
        if rn is not None:
            k = _known(rn)
            if k is not None and -size <= k[0] and k[1] < size:
                out[i] = k
                continue
            n_root = L.prod(rn.shape)
            if k is None and n_root <= max(_ROOT_MAX, 4 * L.prod(node.shape)) and \
                    all(r is not rn for r in roots):
                roots.append(rn)
        todo.append(i)
    if not todo:
        return out
    epoch = _ROOTS.epoch()
    vals = minmax([items[i][0] for i in todo] + [ir.cast(r, I64) for r in roots])
    for i, v in zip(todo, vals):
        out[i] = v
    for r, v in zip(roots, vals[len(todo):]):
        _ROOTS.put(r.buf, (r.dtype, r.shape, r.strides, r.offset), v, epoch)
    return out
