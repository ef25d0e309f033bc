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
into slots are realized first, and the node is realized into its output, which later
kernels read as a leaf.  Every node a kernel computed is realized into its slot at the
end (found in the new graph by its path of source indices from a root, which the
signature fixes), as the general path leaves them: an intermediate the caller keeps (a
mean, a layer's activation) is memory afterwards, not a graph to compute again.
"""
from __future__ import annotations

import threading

from .._config import config
from .._graph import layout as L
from .._graph.fuse import Group, schedule, writes_into
from .._graph.ir import BARRIER, LEAF
from . import barriers
from .cuda_replay import STATIC, Slot, Stages, stage
from .cuda_signature import layout_id, recall


class Program:
    """A replayed materialization: its steps (``Replay`` kernels and ``Call``s) over the
    leaves and slots, the slots' sizes, and the nodes its kernels computed, as (path from
    a root: the root's index, then source indices; slot index; strides)."""
    __slots__ = ("steps", "sizes", "outs", "kind", "lock")


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
    reduction's roots of another shape); roots that are all library calls over memory
    (``return A @ p, r @ A``) are not: their schedule needs no walk."""
    if roots is not None:
        for r in roots:
            if r.kind != BARRIER or [x for x in r.srcs if x.kind != LEAF]:
                break
        else:
            return False
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
    _replay(fp, pg, [root] if roots is None else roots, leaves, scalars, None)
    return pg.kind


def write(fp, dest, value, overlaps):
    """``dest[...] = value`` (LEAF `dest`, `value` a lazy graph with library calls in it)
    as a program whose last kernel writes dest: the kinds of its groups, or 0 to take the
    general path (also where `value`'s kernels read dest's memory other than element for
    element, ``overlaps(value, dest)``: what the general path makes its own buffer first).
    Whether they do follows from the signature and the offsets of the leaves in dest's
    buffer relative to dest's, which the key holds."""
    sig, leaves, scalars, ok = recall(value, None, True)
    if not ok:
        return 0
    if fp.generation != config._generation:
        fp._options_changed()
    db, o = dest.buf, dest.offset
    ds = dest.sig
    key = ("program", sig, layout_id(dest) if ds is None else ds,
           tuple([n.offset - o if n.buf is db else None for n in leaves]))
    pg = fp.cache.get(key)
    if pg is None:
        if len(fp.cache) >= 8192:
            fp.cache.clear()
        if overlaps is not None and key[3].count(None) != len(leaves) and \
                overlaps(value, dest):
            pg = fp.cache[key] = False
            return 0
        pg = fp.cache[key] = _build(fp, [value], leaves, scalars, dest)
        return 0 if pg is False else pg.kind
    if pg is False:
        return 0
    _replay(fp, pg, [value], leaves, scalars, dest)
    return pg.kind


def _replay(fp, pg, roots, leaves, scalars, dest):
    """Run program `pg` on the graphs of `roots` over their `leaves` and `scalars` (its
    last kernel writing `dest`, when given), then realize what its kernels computed."""
    be = fp.be
    pool = be.pool
    bufs = [pool.alloc(n) for n in pg.sizes]
    outs = []
    for path, k, strides in pg.outs:    # (found before anything runs: a node realized
        n = roots[path[0]]              # drops its sources)
        for i in path[1:]:
            n = n.srcs[i]
        outs.append((n, bufs[k], strides))
    ext = leaves + [Slot(b) for b in bufs]
    launch = fp._launch
    steps = pg.steps
    with pg.lock:                   # the kernels' parameter blocks are shared
        for s in steps if dest is None else steps[:-1]:
            if type(s) is Call:
                _run_call(be, s, leaves, ext)
            elif type(s) is tuple:          # two calls, one pass (``Backend.matvec_pair``)
                if not be.matvec_pair(leaves[s[0].at], leaves[s[1].at]):
                    _run_call(be, s[0], leaves, ext)
                    _run_call(be, s[1], leaves, ext)
            else:
                launch(s, ext, scalars)
        if dest is not None:
            launch(steps[-1], ext, scalars, dest)
    for n, buf, strides in outs:
        if n.kind != LEAF:
            n.realize(buf, strides, 0)


def _run_call(be, s, leaves, ext) -> None:
    """Run Call `s` on its live BARRIER node, its operands in slots realized first."""
    node = leaves[s.at]
    srcs = node.srcs
    for i, k, strides in s.operands:
        x = srcs[i]
        if x.kind != LEAF:      # (an operand of two calls: realized once)
            x.realize(ext[k].buf, strides, 0)
    buf = be.pool.alloc(s.nbytes)
    s.impl(be, node, buf)
    node.realize(buf, s.strides, 0)


def _build(fp, roots, leaves, scalars, dest=None):
    """Run the schedule of `roots` group by group, keeping each as a step (with `dest`,
    the one root's value is then written into it, by its last group when that group can,
    else by a copy kernel); the Program, or False (the groups run so far are in
    ``fp.ran``).  An error raised by a group (a library call's) leaves ``fp.ran`` empty."""
    try:
        return _make(fp, roots, leaves, scalars, dest)
    except BaseException:
        fp.ran = ()
        raise


def _make(fp, roots, leaves, scalars, dest):
    groups = schedule(roots)
    if len(groups) > _MAX_GROUPS or len(roots) == 1 and \
            not any(g.kind == "barrier" for g in groups):
        return False        # (one root's kernels alone: FastPath's own replays)
    paths = _paths(roots)
    value = roots[0]
    last = None
    if dest is not None:
        direct = writes_into(groups[-1], value, dest)     # (never a call's group)
        last = groups.pop() if direct else Group("elementwise", [value], value.device, 0)
    st = Stages()
    st.stages = []
    slot_of = {}
    sizes = []
    run_ = (st, slot_of, sizes, [])
    leaf_index = {id(n): i for i, n in enumerate(leaves)}
    be = fp.be
    fp.ran = ()
    paired = None
    for g, h in zip(groups, groups[1:] + [None]):
        if g is paired:
            continue
        if g.kind != "barrier":
            run_ = fp._slot_stages([g], leaves, scalars, run_)
            if run_ is None or run_ is STATIC:
                return False
            continue
        c = _call(g.barrier, leaf_index, slot_of)
        if c is None:
            return False
        c2 = _call(h.barrier, leaf_index, slot_of) if h is not None and h.kind == "barrier" \
            and not c.operands else None
        if c2 is not None and not c2.operands and be.matvec_pair(g.barrier, h.barrier):
            st.stages.append((c, c2))       # two calls on memory, one pass over a matrix
            paired = h
            fp.ran += ("barrier", "barrier")
            continue
        st.stages.append(c)
        be.run(g)
        fp.ran += ("barrier",)
    kinds = tuple(g.kind for g in groups)
    if last is not None:
        scalar_index = {id(n): i for i, n in enumerate(scalars)}
        rp = stage(be, last, be._ptr_of({}),
                   lambda n: leaf_index.get(id(n), slot_of.get(id(n))),
                   lambda n: scalar_index.get(id(n)), True, dest)
        if rp is None or rp is STATIC:
            return False
        st.stages.append(rp)
        fp._launch(rp, leaves + [Slot(b) for b in run_[3]], scalars, dest)
        kinds += (last.kind if direct else "copy",)
    fp.ran = ()
    pg = Program()
    pg.steps = tuple(st.stages)
    pg.sizes = tuple(sizes)
    nl = len(leaves)
    pg.outs = tuple((paths[i][0], k - nl, paths[i][1].strides)
                    for i, k in slot_of.items() if i in paths)
    pg.kind = kinds
    pg.lock = threading.Lock()
    return pg


def _paths(roots):
    """{id(node): (its path from a root, the node)} for the inner nodes of the graphs of
    `roots`: the root's index, then the source index of each step down."""
    paths = {}
    todo = [(r, (j,)) for j, r in enumerate(roots)]
    while todo:
        n, p = todo.pop()
        if n.kind == LEAF or id(n) in paths:
            continue
        paths[id(n)] = (p, n)
        todo += [(x, p + (i,)) for i, x in enumerate(n.srcs)]
    return paths


def _call(node, leaf_index, slot_of):
    """The Call of BARRIER `node` (listed among the leaves), its operands in memory or in
    slots; None when the walk does not list it or an operand."""
    at = leaf_index.get(id(node))
    if at is None:
        return None
    c = Call()
    c.at = at
    c.impl = barriers.cuda_impl(node.op)
    c.nbytes = L.prod(node.shape) * node.dtype.itemsize
    c.strides = L.c_strides(node.shape)
    ops = []
    for i, x in enumerate(node.srcs):
        k = slot_of.get(id(x))
        if k is not None:
            ops.append((i, k, x.strides))
        elif leaf_index.get(id(x)) is None:
            return None
    c.operands = tuple(ops)
    return c
