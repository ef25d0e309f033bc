"""Bounds checks of device index arrays: (min, max) of each, one transfer for all of them.

NumPy raises IndexError at the call for an out-of-bounds integer index array, so a device
index array costs a reduction and a device->host transfer (a sync) before the gather.  A
row loop indexes with slices of one array (``x[A_col[A_row[i]:A_row[i + 1]]]``): the
first check also reduces the whole array the slice views (its root, when not much larger),
and later slices of it are checked against those bounds without a transfer while nothing
has written that memory (``_memstate``).  A root's bounds only ever prove an index in
range; an index they do not prove is checked exactly.

A gather's values are elements of the array it reads, so the bounds of that array, known
when the gather is built, hold for the result (``derived``): mandelbrot's loop narrows its
index arrays each iteration (``Xi = Xi[I]``) and indexes with them (``N_[Xi[I], Yi[I]]``)
with no check after the first, which also reduces the arrays gathered from.  An argsort's
indices lie in the axis they sort by construction (``known``).
"""
from __future__ import annotations

import weakref

from ... import _dtypes as D
from ..._graph import ir
from ..._graph import layout as L
from ..._memstate import MISS, Memo, last_write, shared, write_epoch

I64 = D.int64
_ROOT_MAX = 1 << 22         # elements: a root larger than this (and than 4 x the slice)
                            # is not reduced to check one slice of it
_ROOTS = Memo(256)          # root buffer, root layout -> (lo, hi)
# Gathers: id(result node) -> [weakref of it, weakref of the root node it read, the write
# count then, (lo, hi) of that root or None]
_DERIVED: dict = {}


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


def _entry(n):
    """The live ``_DERIVED`` entry of node `n` whose values are unchanged since (a lazy
    node's never change; a LEAF's while its memory is not written), or None."""
    e = _DERIVED.get(id(n))
    if e is None or e[0]() is not n:
        return None
    if n.kind == ir.LEAF and (last_write(n.buf) > e[2] or shared(n.buf)):
        return None
    return e


def _root_node(arr):
    """The node of the array whose elements index array `arr` shows at its own dtype
    (itself, or the base it views), or None (a view as another dtype)."""
    root = arr._base if arr._base is not None else arr
    rn = root._node
    return rn if rn.dtype == arr._node.dtype and rn.dtype.kind in "iu" else None


def _bounds_of(rn):
    """(lo, hi) known for the values of root node `rn` (``_root_node``'s), or None."""
    if rn is None:
        return None
    if rn.kind == ir.LEAF and not shared(rn.buf):
        k = _known(rn)
        if k is not None:
            return k
    e = _entry(rn)
    return None if e is None else e[3]


def derived(node, arr) -> None:
    """`node` (a new array's) holds elements of `arr` as they are now (a gather): it
    takes arr's bounds when known, else it remembers arr to reduce at its first check."""
    rn = _root_node(arr)
    if rn is not None:
        _remember(node, rn, _bounds_of(rn))


def known(node, lo, hi) -> None:
    """Integer `node` (a new array's) holds values in [lo, hi] by how it is made (an
    argsort's indices): an index array of it, or of a view of it, is in bounds with no
    reduction and no transfer while its memory is unchanged (``x[np.argsort(x)]``)."""
    _remember(node, node, (lo, hi))


def _remember(node, rn, lohi) -> None:
    if len(_DERIVED) >= 1024:
        for k, e in list(_DERIVED.items()):
            if e[0]() is None:
                del _DERIVED[k]
        if len(_DERIVED) >= 1024:
            _DERIVED.clear()
    _DERIVED[id(node)] = [weakref.ref(node), weakref.ref(rn), write_epoch[0], lohi]


def bounds(items, minmax) -> list:
    """For each (int64 node, index array, axis size) of `items` (each non-empty): (lo, hi)
    of its values, or of a superset of them that lies in [-size, size).  `minmax` computes
    [(min, max)] of int64 nodes with one transfer (``index_plan.minmax``)."""
    out = [None] * len(items)
    todo, roots, sources = [], [], []
    for i, (node, arr, size) in enumerate(items):
        rt = _root_node(arr)
        k = _bounds_of(rt)
        if k is not None and -size <= k[0] and k[1] < size:
            out[i] = k
            continue
        rn = _root_leaf(arr)
        if rn is not None and k is None and \
                L.prod(rn.shape) <= max(_ROOT_MAX, 4 * L.prod(node.shape)) and \
                all(r is not rn for r in roots):
            roots.append(rn)
        e = None if rt is None else _entry(rt)
        if e is not None and e[3] is None:      # a gather's result: the array it read,
            s = e[1]()                          # unchanged since, is reduced with it
            if s is not None and s.kind == ir.LEAF and \
                    last_write(s.buf) <= e[2] and not shared(s.buf) and \
                    L.prod(s.shape) <= max(_ROOT_MAX, 4 * L.prod(node.shape)):
                sources.append((e, s))
        todo.append(i)
    if not todo:
        return out
    epoch = _ROOTS.epoch()
    extra = roots + [s for _, s in sources]
    vals = minmax([items[i][0] for i in todo] + [ir.cast(r, I64) for r in extra])
    for i, v in zip(todo, vals):
        out[i] = v
    for r, v in zip(roots, vals[len(todo):]):
        _ROOTS.put(r.buf, (r.dtype, r.shape, r.strides, r.offset), v, epoch)
    for (e, s), v in zip(sources, vals[len(todo) + len(roots):]):
        e[3] = v
        _ROOTS.put(s.buf, (s.dtype, s.shape, s.strides, s.offset), v, epoch)
    return out
