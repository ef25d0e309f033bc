"""The replay signature of a lazy graph (``walk``): what the launch fast path looks its
replays up by, and the leaves and scalars a replay's template reads, in one pass; and the
same answer for a graph of a shape met before, read by code generated for that shape
(``recall``, what the fast path calls)."""
from __future__ import annotations

from .._graph.ir import BARRIER, EW, IOTA, LEAF, REDUCE, SCALAR, VIEW
from .remembered import (COLD, Constants, answer, compile_reader, elementwise_checks,
                         inner_node, remember, shape_groups)


_LAYOUTS: dict = {}         # a leaf's layout tuple -> small int (never reused)
_next_id = [0]


def layout_id(n) -> int:
    """The interned id of LEAF `n`'s layout (dtype, shape, strides, 16-byte alignment; not
    the offset, which replays pass with the pointer), cached on the node: signatures then
    hash small ints, not nested tuples.  ``walk`` and the generated readers look the same
    key up in `_LAYOUTS` inline and call this only for a new one."""
    t = (n.dtype, n.shape, n.strides, (n.buf.ptr + n.offset * n.dtype.itemsize) & 15)
    i = _LAYOUTS.get(t)
    if i is None:
        if len(_LAYOUTS) >= 1 << 16:
            _LAYOUTS.clear()          # ids stay unique: the next one continues the count
        i = _LAYOUTS[t] = _next_id[0]
        _next_id[0] += 1
    n.sig = i
    return i


def walk(root, roots=None, bars=False):
    """(signature, leaves, scalars, ok) of the expression under `root`.

    The signature is a flat pre-order encoding of the graph (each node's kind code and
    fields, then its sources; a node met again is a back-reference to its visit number)
    holding only small ints, interned strings, dtypes and shape tuples, so hashing and
    comparing it is cheap.  A leaf is its layout id, its buffer's first-seen number and
    its (buffer, offset)'s first-seen number: offsets are launch arguments, but which
    leaves share one (a kernel loads them as one operand) is structure; so is which
    constants are one node (a kernel takes it once: ``x * s + s``).  Leaves and
    scalars are listed at each use (a replay's template indexes them by position, and the
    same position holds the same role in every graph of one signature); only inner nodes
    are deduplicated.  It runs on every replayed call: one iterative pass, no recursion
    or closures; dictionaries number first visits (``setdefault``).  With `roots` (a
    list), the expressions of all of them, one after the other (each encoding is
    self-delimiting).  A library call (BARRIER) ends the walk (ok False), or, with `bars`,
    is an inner node listed among the leaves at its first visit (a program replay,
    ``cuda_program``, runs it live and reads its output there): its op, dtype, shape and
    arity are structure, its argument is read by the call itself."""
    sig = []
    seen = {}
    bufs = {}
    places = {}
    consts = {}
    leaves = []
    scalars = []
    layouts = _LAYOUTS
    ext = sig.extend
    listed = leaves.append
    first = seen.setdefault     # (a node's visit number, given at its first visit)
    stack = [root] if roots is None else roots[::-1]
    pop = stack.pop
    push = stack.append
    while stack:
        n = pop()
        k = n.kind
        if k == LEAF:           # leaves and scalars met again are simply listed again
            buf = n.buf
            b = bufs.setdefault(id(buf), len(bufs))
            o = places.setdefault((b, n.offset), len(places))
            listed(n)
            ls = n.sig
            if ls is None:      # layout_id(n), inlined
                ls = layouts.get((n.dtype, n.shape, n.strides,
                                  (buf.ptr + n.offset * n.dtype.itemsize) & 15))
                if ls is None:
                    ls = layout_id(n)
                n.sig = ls
            ext((0, ls, b, o))
            continue
        if k == SCALAR:         # (numbered: a kernel takes one constant met twice once)
            scalars.append(n)
            ext((1, n.dtype, n.shape, consts.setdefault(id(n), len(consts))))
            continue
        ns = len(seen)
        i = first(id(n), ns)
        if i != ns:
            ext((8, i))
            continue
        if k == EW:
            srcs = n.srcs
            ext((3, n.op, n.dtype, n.arg, len(srcs)))
            if len(srcs) == 2:
                push(srcs[1])
                push(srcs[0])
            else:
                stack += srcs[::-1]
        elif k == VIEW:
            ext((4, n.op, n.arg, n.shape))
            push(n.srcs[0])
        elif k == REDUCE:
            ext((5, n.dtype, n.arg))
            push(n.srcs[0])
        elif k == IOTA:
            ext((2, n.shape, n.strides, n.offset))
        elif k == BARRIER and bars:
            srcs = n.srcs
            listed(n)
            ext((6, n.op, n.dtype, n.shape, len(srcs)))
            stack += srcs[::-1]
        else:
            return None, leaves, scalars, False
    return tuple(sig), leaves, scalars, True


# ------------------------------------------------------------------ remembered walks

_BY_HINT: dict = {}         # a root's hint -> its readers, oldest first (or COLD)
_SEEN: dict = {}            # hint -> its walks since its last reader was made
_MADE: dict = {}            # hint -> the readers made for it
_MAKE_AT = 16               # walks of a hint before a reader is made for it: making one
                            # costs 50-170 walks of its graph (0.7 ms for a 7-node
                            # statement, 5.7 ms for a chain of 32 elements), so a shape
                            # met rarely keeps its walk
_ROOTS_FEW = 4
_CHAIN_MAKE_AT = 64         # walks of a hint of more roots (a chain of element writes)
                            # before its reader is made: it costs 3-6 ms to make (a chain
                            # of 32 writes) and saves under a microsecond a statement, so
                            # a short loop keeps its walks


def roots_hint(roots) -> tuple:
    """The hint of a list of roots: their number, the first's and last's op and tree
    size, the last's dtype."""
    a = roots[0]
    b = roots[-1]
    return (len(roots), a.op, a.size, b.op, b.size, b.dtype)


def recall(root, roots=None, bars=False):
    """``walk(root, roots, bars)``'s answer, for a graph of a shape met before without the
    walk.

    A hint (the root's kind, op, dtype and tree size) walked `_MAKE_AT` times
    (`_CHAIN_MAKE_AT` for more than `_ROOTS_FEW` roots) gets a reader (``_reader``) of the
    graph walked last: straight-line code that follows that graph's visit order through a
    new graph, checks at each node what does not vary between a loop's statements (kinds,
    ops, dtypes, an elementwise node's arg, which leaves share a buffer or a place, which
    constants and which inner nodes are one node) and reads what does (leaf layouts, view
    args and shapes), building the walk's signature and its lists of leaves and scalars.
    A statement whose slices change length each iteration (durbin's ``y[:k]``) is read by
    one reader. A graph no reader of its hint takes is walked; a hint that keeps missing
    gets another reader, up to a few, then is always walked (``remembered.remember``).
    (Hints of one root and of several differ in length, and `bars` adds an element: a
    reader is only ever given the form it was made for.)"""
    h = (root.kind, root.op, root.dtype, root.size) if roots is None else roots_hint(roots)
    if bars:
        h = (h, True)
    rds = _BY_HINT.get(h)
    if rds:
        r = rds[0](root, roots)
        if r is not None or len(rds) > 1 and (r := answer(rds, root, roots)) is not None:
            return r
    r = walk(root, roots, bars)
    if r[3] and rds is not COLD:
        remember(h, rds, (_BY_HINT, _SEEN, _MADE),
                 _MAKE_AT if roots is None or len(roots) <= _ROOTS_FEW else _CHAIN_MAKE_AT,
                 _reader, root, roots)
    return r


def _reader(root, roots):
    """The generated reader of graphs shaped like `root`'s (or `roots`'), or None (a
    graph of many inner nodes of one shape): see ``recall``.  Its answer is the walk's:
    a constant met again must be the node met before (a kernel takes it once), and
    constants apart must be apart (the walk numbers one node met twice as one; a replay
    built from a graph where they are one node takes one parameter for both, and a
    library call makes its constant operand memory, which a kernel reading the same node
    as a parameter would not see)."""
    const = Constants()
    groups = shape_groups(root, roots)
    if groups is None:
        return None
    body = []
    emit = body.append
    if roots is None:
        todo = [("root", root)]
    else:
        emit(f"    if roots is None or len(roots) != {len(roots)}: return None")
        todo = [(f"roots[{i}]", r) for i, r in enumerate(roots)]
    todo.reverse()
    seen, bufs, places, by_group, consts = {}, {}, {}, {}, {}
    sig, leaves, scalars = [], [], []
    nv = 0
    while todo:
        e, n = todo.pop()
        k = n.kind
        v = f"v{nv}"
        if k == LEAF:
            nv += 1
            emit(f"    {v} = {e}")
            emit(f"    if {v}.kind != {LEAF}: return None")
            emit(f"    l{v} = {v}.sig")
            b = bufs.get(id(n.buf))
            if b is None:
                b = bufs[id(n.buf)] = len(bufs)
                emit(f"    B{b} = {v}.buf")
            else:
                emit(f"    if {v}.buf is not B{b}: return None")
            emit(f"    if l{v} is None:")          # layout_id, inlined
            emit(f"        d{v} = {v}.dtype")
            emit(f"        l{v} = LAY.get((d{v}, {v}.shape, {v}.strides, "
                 f"(B{b}.ptr + {v}.offset * d{v}.itemsize) & 15))")
            emit(f"        if l{v} is None: l{v} = lid({v})")
            emit(f"        else: {v}.sig = l{v}")
            o = places.get((b, n.offset))
            if o is None:
                o = places[(b, n.offset)] = len(places)
                emit(f"    O{o} = {v}.offset")
            else:
                emit(f"    if {v}.offset != O{o}: return None")
            sig += ["0", f"l{v}", str(b), str(o)]
            leaves.append(v)
            continue
        if k == SCALAR:
            nv += 1
            emit(f"    {v} = {e}")
            emit(f"    if {v}.kind != {SCALAR} or {v}.dtype is not {const(n.dtype)}: "
                 f"return None")
            q = consts.get(id(n))
            if q is None:
                q = consts[id(n)] = len(consts)
                emit(f"    Q{q} = {v}")
            else:
                emit(f"    if {v} is not Q{q}: return None")
            sig += ["1", const(n.dtype), f"{v}.shape", str(q)]
            scalars.append(v)
            continue
        if not inner_node(emit, e, n, v, seen, groups, by_group, sig):
            continue
        nv += 1
        arg = "is not None" if n.arg is None else f"!= {const(n.arg)}"
        if k == EW:
            elementwise_checks(emit, v, n, const)
            sig += ["3", const(n.op), const(n.dtype), const(n.arg), str(len(n.srcs))]
            todo += [(f"s{v}[{i}]", x) for i, x in enumerate(n.srcs)][::-1]
        elif k == VIEW:
            emit(f"    if {v}.kind != {VIEW} or {v}.op != {const(n.op)}: return None")
            sig += ["4", const(n.op), f"{v}.arg", f"{v}.shape"]
            todo.append((f"{v}.srcs[0]", n.srcs[0]))
        elif k == REDUCE:
            emit(f"    if {v}.kind != {REDUCE} or {v}.dtype is not {const(n.dtype)} or "
                 f"{v}.arg {arg}: return None")
            sig += ["5", const(n.dtype), const(n.arg)]
            todo.append((f"{v}.srcs[0]", n.srcs[0]))
        elif k == BARRIER:      # (made only from a walk with bars)
            emit(f"    if {v}.kind != {BARRIER} or {v}.op != {const(n.op)} or "
                 f"{v}.dtype is not {const(n.dtype)}: return None")
            emit(f"    s{v} = {v}.srcs")
            emit(f"    if len(s{v}) != {len(n.srcs)}: return None")
            sig += ["6", const(n.op), const(n.dtype), f"{v}.shape", str(len(n.srcs))]
            leaves.append(v)
            todo += [(f"s{v}[{i}]", x) for i, x in enumerate(n.srcs)][::-1]
        else:   # IOTA (walk() gives no signature for other kinds)
            emit(f"    if {v}.kind != {IOTA}: return None")
            sig += ["2", f"{v}.shape", f"{v}.strides", f"{v}.offset"]
    if len(bufs) > 1:           # buffers apart stay apart, places apart too (one check
        emit(f"    if len({{{', '.join(f'id(B{b})' for b in range(len(bufs)))}}}) != "
             f"{len(bufs)}: return None")       # each: pairs would grow as their square)
    nq = len(consts)        # (a few: compared in pairs, with no call)
    if 1 < nq <= 4:
        emit(f"    if {' or '.join(f'Q{a} is Q{b}' for a in range(nq) for b in range(a))}: "
             f"return None")
    elif nq > 4:
        emit(f"    if len({{{', '.join(f'id(Q{q})' for q in range(nq))}}}) != {nq}: "
             f"return None")
    at = {}
    for (b, _), o in places.items():
        at.setdefault(b, []).append(f"O{o}")
    for os_ in at.values():
        if len(os_) > 1:
            emit(f"    if len({{{', '.join(os_)}}}) != {len(os_)}: return None")
    emit(f"    return ({', '.join(sig)},), [{', '.join(leaves)}], [{', '.join(scalars)}], "
         f"True")
    return compile_reader("root, roots", body, const, "<gnumpy signature reader>",
                          lid=layout_id, LAY=_LAYOUTS)
