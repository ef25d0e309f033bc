"""The replay signature of a lazy graph (``walk``): what the launch fast path looks its
replays up by, and the leaves and scalars a replay's template reads, in one pass."""
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
