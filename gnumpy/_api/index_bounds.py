"""Bounds checks of device index arrays: (min, max) of each, one transfer for all of them.

NumPy raises IndexError at the call for an out-of-bounds integer index array, so a device
index array costs a reduction and a device->host transfer (a sync) before the gather.  A
row loop indexes with slices of one array (``x[A_col[A_row[i]:A_row[i + 1]]]``): the
first check also reduces the whole array the slice views (its root, when not much larger),
and later slices of it are checked against those bounds without a transfer while nothing
has written that memory (``realize.last_write``; memory visible outside gnumpy is never
trusted, ``_device.shared``).  A root's bounds only ever prove an index in range; an index
they do not prove is checked exactly.
"""
from __future__ import annotations

import weakref

from .. import _device
from .. import _dtypes as D
from .._graph import ir
from .._graph import layout as L
from .._graph import realize as R
from ._common import wrap

I64 = D.int64
_ROOT_MAX = 1 << 22         # elements: a root larger than this (and than 4 x the slice)
                            # is not reduced to check one slice of it
# id(root buffer) -> (weakref of the buffer, write count when computed, root layout, lo, hi)
_ROOTS: dict = {}


def _root_leaf(arr):
    """The LEAF of the whole array whose memory index array `arr` views (itself when it is
    a base), or None when its memory is not plain gnumpy memory one array owns."""
    n = arr._node
    root = arr._base if arr._base is not None else arr
    rn = root._node
    if n.kind != ir.LEAF or rn.kind != ir.LEAF or rn.buf is not n.buf or \
            rn.dtype.kind not in "iu" or _device.shared(rn.buf):
        return None
    return rn


def _known(rn):
    """(lo, hi) of root LEAF `rn` computed since its memory was last written, or None."""
    e = _ROOTS.get(id(rn.buf))
    if e is None or e[0]() is not rn.buf or e[2] != (rn.dtype, rn.shape, rn.strides,
                                                      rn.offset):
        return None
    if R.last_write(rn.buf) > e[1]:
        return None
    return e[3], e[4]


def bounds(items) -> list:
    """For each (int64 node, index array, axis size) of `items` (each non-empty): (lo, hi)
    of its values, or of a superset of them that lies in [-size, size)."""
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
    epoch = R.write_epoch[0]        # (read before the values: a write meanwhile voids them)
    vals = minmax([items[i][0] for i in todo] + [ir.cast(r, I64) for r in roots])
    for i, v in zip(todo, vals):
        out[i] = v
    if len(_ROOTS) > 256:
        _ROOTS.clear()
    for r, (lo, hi) in zip(roots, vals[len(todo):]):
        _ROOTS[id(r.buf)] = (weakref.ref(r.buf), epoch, (r.dtype, r.shape, r.strides,
                                                         r.offset), lo, hi)
    return out


def minmax(nodes):
    """[(min, max)] of int64 nodes (each non-empty), with one device->host transfer: the
    reductions and an elementwise gather of their results into one vector (no barrier:
    a loop of fancy indexing replays them)."""
    k = 2 * len(nodes)
    dev = nodes[0].device
    pos = ir.axis_iota((k,), 0, dev)
    acc = None
    for i, n in enumerate(nodes):
        flat = ir.reshape(n, (L.prod(n.shape),))
        for j, rop in enumerate(("min", "max")):
            r = ir.broadcast(ir.reduce(rop, flat, (0,), False, I64), (k,))
            at = ir.ew("equal", D.bool_, (pos, ir.scalar(2 * i + j, I64, (k,), dev)))
            acc = r if acc is None else ir.where(at, r, acc)
    vals = wrap(acc).get().tolist()
    return [(vals[2 * i], vals[2 * i + 1]) for i in range(len(nodes))]
