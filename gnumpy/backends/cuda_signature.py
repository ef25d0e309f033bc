"""The replay signature of a lazy graph (``walk``): what the launch fast path looks its
replays up by, and the leaves and scalars a replay's template reads, in one pass; and the
same answer for a graph of a shape met before, read by code generated for that shape
(``recall``, what the fast path calls)."""
from __future__ import annotations

from .._graph.ir import EW, IOTA, LEAF, REDUCE, SCALAR, VIEW


_LAYOUTS: dict = {}         # a leaf's layout tuple -> small int (never reused)
_next_id = [0]


def layout_id(n) -> int:
    """The interned id of LEAF `n`'s layout (dtype, shape, strides, 16-byte alignment; not
    the offset, which replays pass with the pointer), cached on the node: signatures then
    hash small ints, not nested tuples."""
    t = (n.dtype, n.shape, n.strides, (n.buf.ptr + n.offset * n.dtype.itemsize) & 15)
    i = _LAYOUTS.get(t)
    if i is None:
        if len(_LAYOUTS) >= 1 << 16:
            _LAYOUTS.clear()          # ids stay unique: the next one continues the count
        i = _LAYOUTS[t] = _next_id[0]
        _next_id[0] += 1
    n.sig = i
    return i


def walk(root, roots=None):
    """(signature, leaves, scalars, ok) of the expression under `root`.

    The signature is a flat pre-order encoding of the graph (each node's kind code and
    fields, then its sources; a node met again is a back-reference to its visit number)
    holding only small ints, interned strings, dtypes and shape tuples, so hashing and
    comparing it is cheap.  A leaf is its layout id, its buffer's first-seen number and
    its (buffer, offset)'s first-seen number: offsets are launch arguments, but which
    leaves share one (a kernel loads them as one operand) is structure.  Leaves and
    scalars are listed at each use (a replay's template indexes them by position, and the
    same position holds the same role in every graph of one signature); only inner nodes
    are deduplicated.  It runs on every replayed call: one iterative pass, no recursion
    or closures; dictionaries number first visits (``setdefault``).  With `roots` (a
    list), the expressions of all of them, one after the other (each encoding is
    self-delimiting)."""
    sig = []
    seen = {}
    bufs = {}
    places = {}
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
        if k == SCALAR:
            scalars.append(n)
            ext((1, n.dtype, n.shape))
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
        else:
            return None, leaves, scalars, False
    return tuple(sig), leaves, scalars, True


# ------------------------------------------------------------------ remembered walks

_READERS: dict = {}         # signature -> its generated reader, or the times it was seen
_MAKE_AT = 16               # sightings of a hint, then of a signature of it, before the
                            # signature gets a reader: making one costs 50-70 walks of its
                            # graph (a lazy chain at the graph bound, 17 ms), so a shape
                            # met rarely keeps its walk
_SEEN: dict = {}            # hint -> walks of it while it has no reader
_BY_HINT: dict = {}         # a root's hint -> the readers last good for it, oldest first
_PER_HINT = 4
_MISSED: dict = {}          # hint -> the times a graph of a known shape missed its readers
_MISSES_MAX = 64            # then the hint's graphs are walked (its readers: _COLD)
_COLD = ()
_MAX_READERS = 4096


def recall(root, roots=None):
    """``walk(root, roots)``'s answer for a graph of a shape met before, without the walk.

    A signature met `_MAKE_AT` times, after its hint was, gets a reader (``_reader``):
    straight-line code that follows that graph's visit order through a new graph, checks at each node what the
    walk would encode (kind, op, dtype, arg, shape; a leaf's layout id, its buffer and
    place among the earlier leaves'; a node met again is the same object) and lists the
    leaves and scalars as the walk does.  The readers last good for the root's hint (its
    kind, op, dtype, shape and tree size) are tried first; a graph that fails a check is
    walked, and a hint whose graphs of known shapes keep missing its readers (more
    shapes take turns than it keeps) is walked from then on.  A reader may also accept a graph that shares more inner nodes than the
    recorded one (the walk would encode back-references there): it lists the leaves of
    each use, in the recorded positions, and the recorded replay computes the same values
    from them.  (Hints of one root and of several differ in length: a reader is only
    ever given the form it was made for.)"""
    if roots is None:
        h = (root.kind, root.op, root.dtype, root.shape, root.size)
    else:
        a = roots[0]
        b = roots[-1]
        h = (len(roots), a.op, a.size, b.op, b.size, b.dtype)
    rds = _BY_HINT.get(h)
    if rds is not None:
        for rd in rds:
            r = rd(root, roots)
            if r is not None:
                return r
    r = walk(root, roots)
    if not r[3] or rds is _COLD:
        return r
    if rds is None:     # signatures are counted once their hint is met often (hashing
        c = _SEEN.get(h, 0)             # one costs 1-2 us: a loop's one-off graphs,
        if c < _MAKE_AT:                # correlation's rows of every length, skip it)
            if not c and len(_SEEN) >= _MAX_READERS:
                _SEEN.clear()
            _SEEN[h] = c + 1
            return r
    sig = r[0]
    rd = _READERS.get(sig)
    if rd is None:
        if len(_READERS) >= _MAX_READERS:
            _READERS.clear()
            _BY_HINT.clear()
            _MISSED.clear()
        _READERS[sig] = 1
        return r
    if type(rd) is int:
        if rd + 1 < _MAKE_AT:
            _READERS[sig] = rd + 1
            return r
        rd = _READERS[sig] = _reader(root, roots, sig)
    elif rds:           # a shape whose reader the hint's few had dropped: the hint's
        m = _MISSED[h] = _MISSED.get(h, 0) + 1      # shapes take turns
        if m > _MISSES_MAX:
            _BY_HINT[h] = _COLD         # (lu's rows of every length: all walked)
            return r
    if rds is None:
        _BY_HINT[h] = [rd]
    else:                       # (one hint, a few shapes: a column's alignment
        if len(rds) >= _PER_HINT:       # alternating with its offset)
            del rds[0]
        rds.append(rd)
    return r


def _reader(root, roots, sig):
    """The generated reader of graphs shaped like `root`'s (or `roots`'): see ``recall``."""
    K = [sig]
    code = ["def read(root, roots, K=K):"]
    emit = code.append

    def const(v):
        K.append(v)
        return f"K[{len(K) - 1}]"

    if roots is None:
        todo = [("root", root)]
    else:
        emit(f"    if roots is None or len(roots) != {len(roots)}: return None")
        todo = [(f"roots[{i}]", r) for i, r in enumerate(roots)]
    todo.reverse()
    seen, bufs, places = {}, {}, {}
    leaves, scalars = [], []
    nv = 0
    while todo:
        e, n = todo.pop()
        k = n.kind
        if k == LEAF:
            v = f"v{nv}"
            nv += 1
            emit(f"    {v} = {e}")
            ls = layout_id(n) if n.sig is None else n.sig
            emit(f"    if {v}.kind != {LEAF} or {v}.sig != {ls} and ("     # (its layout's
                 f"{v}.dtype is not {const(n.dtype)} or {v}.shape != {const(n.shape)} or "
                 f"{v}.strides != {const(n.strides)} or ({v}.buf.ptr + {v}.offset * "
                 f"{n.dtype.itemsize}) & 15 != {(n.buf.ptr + n.offset * n.dtype.itemsize) & 15}"
                 f"): return None")          # fields, as layout_id reads them: no tuple)
            b = bufs.get(id(n.buf))
            if b is None:
                b = bufs[id(n.buf)] = len(bufs)
                emit(f"    B{b} = {v}.buf")
                for c in range(b):
                    emit(f"    if B{b} is B{c}: return None")
            else:
                emit(f"    if {v}.buf is not B{b}: return None")
            o = places.get((b, n.offset))
            if o is None:
                o = places[(b, n.offset)] = len(places)
                emit(f"    O{o} = {v}.offset")
                for (c, _), p in places.items():
                    if c == b and p != o:
                        emit(f"    if O{o} == O{p}: return None")
            else:
                emit(f"    if {v}.offset != O{o}: return None")
            leaves.append(v)
            continue
        if k == SCALAR:
            v = f"v{nv}"
            nv += 1
            emit(f"    {v} = {e}")
            emit(f"    if {v}.kind != {SCALAR} or {v}.dtype is not {const(n.dtype)} or "
                 f"{v}.shape != {const(n.shape)}: return None")
            scalars.append(v)
            continue
        j = seen.get(id(n))
        if j is not None:
            emit(f"    if {e} is not {j}: return None")
            continue
        v = seen[id(n)] = f"v{nv}"
        nv += 1
        emit(f"    {v} = {e}")
        arg = "is not None" if n.arg is None else f"!= {const(n.arg)}"
        if k == EW:
            emit(f"    if {v}.kind != {EW} or {v}.op != {const(n.op)} or "
                 f"{v}.dtype is not {const(n.dtype)} or {v}.arg {arg}: return None")
            emit(f"    s{v} = {v}.srcs")
            emit(f"    if len(s{v}) != {len(n.srcs)}: return None")
            todo += [(f"s{v}[{i}]", s) for i, s in enumerate(n.srcs)][::-1]
        elif k == VIEW:
            emit(f"    if {v}.kind != {VIEW} or {v}.op != {const(n.op)} or "
                 f"{v}.arg {arg} or {v}.shape != {const(n.shape)}: return None")
            todo.append((f"{v}.srcs[0]", n.srcs[0]))
        elif k == REDUCE:
            emit(f"    if {v}.kind != {REDUCE} or {v}.dtype is not {const(n.dtype)} or "
                 f"{v}.arg {arg}: return None")
            todo.append((f"{v}.srcs[0]", n.srcs[0]))
        else:   # IOTA (walk() gave no signature for other kinds)
            emit(f"    if {v}.kind != {IOTA} or {v}.shape != {const(n.shape)} or "
                 f"{v}.strides != {const(n.strides)} or {v}.offset != {const(n.offset)}: "
                 f"return None")
    emit(f"    return K[0], [{', '.join(leaves)}], [{', '.join(scalars)}], True")
    g = {"K": K}
    exec(compile("\n".join(code), "<gnumpy signature reader>", "exec"), g)
    return g["read"]
