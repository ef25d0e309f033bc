"""Boolean masks as flat offsets: the device compaction (``flat_nonzero``, one sync for the
count) and the memo of the last mask's offsets, reused while the memory it read is
unwritten (``mask_offsets``)."""
from __future__ import annotations

import weakref

import numpy as np

from ... import _dtypes as D
from ..._graph import ir
from ..._graph import realize as R
from ..._graph import readers as RD
from ..._memstate import last_write, shared, write_epoch
from ..elementwise.elementwise import apply


def src_node(a):
    """The node a barrier may read for `a`: a view of a lazy base is materialized first
    (materializing its own VIEW node would cut it off from its base's memory)."""
    return a._node if a._base is None or a._node.kind == ir.LEAF else a._leaf()


# The last mask's offsets, one tuple replaced whole (threads read it once): (weakref of the
# mask array, its node, write epoch, offsets node, value key of the mask's expression or
# None), or None
_LAST_MASK = [None]


def mask_offsets(m):
    """``flat_nonzero(m)`` for boolean mask array `m` of an index.  The last mask's offsets
    are reused while neither the mask's memory nor the memory its expression read was
    written since (``_memstate.last_write``) or seen outside gnumpy, for the same array
    with the same node, or for a lazy mask whose graph computes the same values from the
    same memory (`_value_key`:
    ``x[x > 0] = x[x > 0] ** -1.5`` builds the mask twice).  Only a base array with no
    views is kept: nothing but gnumpy's writes reaches its memory (exported and imported
    arrays count as viewed).  A loop's ``X[I]``, ``C[I]``, ``Z[I] = ...`` then counts (one
    sync) and compacts once, not three times."""
    c = _LAST_MASK[0]
    n = m._node
    lazy = n.kind != ir.LEAF
    epoch = write_epoch[0]            # (read before the count: a write meanwhile voids it)
    same = c is not None and _unchanged(c[5], c[2])
    if same and c[0]() is m and n is c[1]:
        return c[3]
    inner = []
    vk = _value_key(n, nodes=inner) if lazy else None
    if same and lazy and c[4] is not None and vk[0] == c[4][0]:
        return c[3]
    # the mask's own expression, over its sources as they are after the count computed
    # them (arrays it reads are computed with it, `held_inside`), keys a rebuilt mask: the
    # key taken before, unless the count materialized a node inside it
    expr = ir.Node(n.kind, n.op, n.dtype, n.shape, n.srcs, n.arg, n.device) if lazy \
        else None
    flat = flat_nonzero(m)
    if lazy and (vk[0] is None or any(x.kind == ir.LEAF for x in inner[1:])):
        vk = _value_key(expr)
    if vk is not None and vk[0] is None:
        vk = None
    if m._base is None and not m._has_views and m._node.kind == ir.LEAF:
        bufs = [m._node.buf] + (vk[1] if vk is not None else [])
        _LAST_MASK[0] = (weakref.ref(m), m._node, epoch, flat, vk, bufs)
    return flat


def _unchanged(bufs, epoch) -> bool:
    """Was none of `bufs` written in place since write count `epoch` (nor seen outside
    gnumpy, where it may change unseen)?"""
    for b in bufs:
        if last_write(b) > epoch or shared(b):
            return False
    return True


_EXACT = (int, str, bool, type(None))


def _exact(arg) -> bool:
    """Is `arg` compared exactly by ``==`` (no float, whose -0.0 equals 0.0)?"""
    return type(arg) in _EXACT or type(arg) is tuple and all(_exact(a) for a in arg)


def _value_key(node, limit=64, nodes=None):
    """(key, buffers): a key equal for two lazy graphs that compute the same values from
    the same memory (leaves by buffer, offset and layout; scalars by their bytes), or
    None for a graph of more than `limit` nodes or an argument ``==`` cannot tell apart
    exactly; the buffers it names (by id: kept alive with the key, so no other buffer
    takes one of those ids meanwhile).  `nodes`, a list: gets the lazy nodes keyed, in
    walk order (`node` first)."""
    key = []
    bufs = []
    seen = {}
    stack = [node]
    while stack:
        n = stack.pop()
        k = n.kind
        if k == ir.LEAF:
            key += (0, id(n.buf), n.offset, n.strides, n.shape, n.dtype)
            bufs.append(n.buf)
            continue
        if k == ir.SCALAR:
            a = n.arg
            if not isinstance(a, np.generic):
                return None, bufs
            key += (1, n.dtype, n.shape, a.tobytes())
            continue
        i = seen.get(id(n))
        if i is not None:
            key += (8, i)
            continue
        seen[id(n)] = len(seen)
        if nodes is not None:
            nodes.append(n)
        if len(seen) > limit or not _exact(n.arg):
            return None, bufs
        key += (k, n.op, n.dtype, n.shape, n.strides, n.offset, n.arg, len(n.srcs))
        stack.extend(n.srcs[::-1])
    return tuple(key), bufs


def flat_nonzero(x):
    """int64 node (n,): C-order flat indices of the nonzero elements of gnumpy array `x`
    (a device compaction; one sync for the count n, read from the compaction's own scan
    on CUDA)."""
    mask = src_node(x) if x._node.dtype == D.bool_ else apply("not_equal", x, 0)._node
    if mask.kind != ir.LEAF:        # read twice: by the count and by the compaction; the
        R.materialize([mask] + RD.held_inside(mask))   # arrays it reads computed with it
    with R.lock:
        return R.backend_here(mask.device).nonzero_node(mask)
