"""Program replays: one materialization with library calls in it (``relu(x @ w + b) @
w2``, softmax over a product) replayed as a whole, without scheduling it or walking each
of its groups again.

The graph's signature comes from one walk that goes through library calls
(``cuda_signature.recall(root, bars=True)``: each BARRIER node is listed among the
leaves).  The first time a signature is met, its schedule runs group by group as the
general path would, and each group is kept: a kernel as a ``Replay`` over the leaves and
per-call slot buffers (``FastPath._slot_stages``), a library call as a ``Call``.  A
replay then allocates the slots, launches the kernels and makes the calls in that order.
A call runs on the live BARRIER node of the new graph (its argument, a product's
transposes or a draw's key, is read there): the operands that earlier kernels computed
into slots are realized first, as the general path leaves them, and the node is realized
into its output, which later kernels read as a leaf.
"""
from __future__ import annotations

import threading

from .._config import config
from .._graph import layout as L
from .._graph.fuse import schedule
from .._graph.ir import BARRIER, LEAF
from . import barriers
from .cuda_replay import STATIC, Slot, Stages
from .cuda_signature import recall


class Program:
    """A replayed materialization: its steps (``Replay`` kernels and ``Call``s) over the
    leaves and slots, the slots' sizes, and for each root the slot of its value (None: a
    call's output, realized by its step) and its strides."""
    __slots__ = ("steps", "sizes", "root_slots", "strides", "kind", "lock")


class Call:
    """A library call of a program: the BARRIER node at leaf `at`, its implementation,
    output size and strides, and its operands computed into slots, as (source index, slot
    index, strides)."""
    __slots__ = ("at", "impl", "nbytes", "strides", "operands")


_MAX_GROUPS = 16            # a longer schedule is run as scheduled


def run(fp, root, roots=None):
    """Replay `root` (or the lazy `roots` of one materialization), a lazy graph with
    library calls in it, as a program (FastPath ``fp``'s cache, keyed by the signature),
    building the program the first time; the kinds of its groups, or False to take the
    general path (``fp.ran`` then holds the kinds of the groups a failed build ran).
    Roots apart are replayed too when their schedule has no call (several groups: a
    reduction's roots of another shape)."""
    sig, leaves, scalars, ok = recall(root, roots, True)
    if not ok:
        return False
    if fp.generation != config._generation:
        fp._options_changed()
    key = ("program", sig) if roots is None else ("program", len(roots), sig)
    pg = fp.cache.get(key)
    if pg is None:
        if len(fp.cache) >= 8192:
            fp.cache.clear()
        pg = fp.cache[key] = _build(fp, [root] if roots is None else roots, leaves,
                                    scalars)
        return pg is not False and pg.kind
    if pg is False:
        return False
    be = fp.be
    pool = be.pool
    bufs = [pool.alloc(n) for n in pg.sizes]
    ext = leaves + [Slot(b) for b in bufs]
    launch = fp._launch
    with pg.lock:                   # the kernels' parameter blocks are shared
        for s in pg.steps:
            if type(s) is Call:
                node = leaves[s.at]
                srcs = node.srcs
                for i, k, strides in s.operands:
                    x = srcs[i]
                    if x.kind != LEAF:      # (an operand of two calls: realized once)
                        x.realize(ext[k].buf, strides, 0)
                buf = pool.alloc(s.nbytes)
                s.impl(be, node, buf)
                node.realize(buf, s.strides, 0)
            else:
                launch(s, ext, scalars)
    if roots is None:
        k = pg.root_slots[0]
        if k is not None:
            root.realize(bufs[k], pg.strides[0], 0)
    else:
        for r, k, strides in zip(roots, pg.root_slots, pg.strides):
            if k is not None and r.kind != LEAF:
                r.realize(bufs[k], strides, 0)
    return pg.kind


def _build(fp, roots, leaves, scalars):
    """Run the schedule of `roots` group by group, keeping each as a step; the Program,
    or False (the groups run so far are in ``fp.ran``)."""
    groups = schedule(roots)
    if len(groups) > _MAX_GROUPS or len(roots) == 1 and \
            not any(g.kind == "barrier" for g in groups):
        return False        # (one root's kernels alone: FastPath's own replays)
    st = Stages()
    st.stages = []
    slot_of = {}
    sizes = []
    run_ = (st, slot_of, sizes, [])
    leaf_index = {id(n): i for i, n in enumerate(leaves)}
    be = fp.be
    fp.ran = ()
    for g in groups:
        if g.kind != "barrier":
            run_ = fp._slot_stages([g], leaves, scalars, run_)
            if run_ is None or run_ is STATIC:
                return False
            continue
        node = g.barrier
        at = leaf_index.get(id(node))
        if at is None or node.kind != BARRIER:
            return False
        c = Call()
        c.at = at
        c.impl = barriers.cuda_impl(node.op)
        c.nbytes = L.prod(node.shape) * node.dtype.itemsize
        c.strides = L.c_strides(node.shape)
        c.operands = []
        for i, x in enumerate(node.srcs):
            k = slot_of.get(id(x))
            if k is not None:
                c.operands.append((i, k, x.strides))
            elif leaf_index.get(id(x)) is None:
                return False        # (an operand the walk does not list)
        c.operands = tuple(c.operands)
        st.stages.append(c)
        be.run(g)
        fp.ran += ("barrier",)
    fp.ran = ()
    pg = Program()
    pg.steps = tuple(st.stages)
    pg.sizes = tuple(sizes)
    pg.root_slots = tuple(None if k is None else k - len(leaves)
                          for k in [slot_of.get(id(r)) for r in roots])
    pg.strides = tuple(L.c_strides(r.shape) for r in roots)
    pg.kind = tuple(g.kind for g in groups)
    pg.lock = threading.Lock()
    return pg
