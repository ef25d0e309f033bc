"""Remembered walks, shared by the replay signatures of the CUDA and CPU backends
(``cuda_signature.recall``, ``cpu_signature.recall``): a graph's hint (its root's kind,
op, dtype and tree size) walked often enough gets a reader, straight-line code generated
from the graph walked last that reads a new graph of that shape without the walk
(``remember``), the one that answered last tried first (``answer``); and the shape groups
a reader's checks must keep apart (``shape_groups``).
"""
from __future__ import annotations

from .._graph.ir import BARRIER, EW, LEAF, REDUCE, SCALAR, VIEW

COLD = ()                   # a hint's readers when its graphs are always walked
_PER_HINT = 4               # readers a hint keeps
_MAKES_MAX = 8              # readers made for a hint before its graphs are always walked
_MAX_HINTS = 4096
_GROUP_MAX = 16             # a graph with more inner nodes of one shape gets no reader


def answer(rds, *graph):
    """The first answer to `graph` of readers `rds` after the first (which the caller
    tried, inline), or None; the reader that answers moves to the front, so a loop whose
    statement takes one shape for a while, then another (scattering_self_energies' 3x3
    updates) tries the current one first."""
    for i in range(1, len(rds)):
        r = rds[i](*graph)
        if r is not None:
            rds.insert(0, rds.pop(i))
            return r
    return None


def remember(h, rds, tables, make_at, reader, root, roots) -> None:
    """Count a walk of hint `h` (its readers `rds`, None when it has none) in `tables`
    (readers by hint, walks since the last reader was made, readers made): at the
    `make_at`-th, make a reader of `root` (and `roots`) with ``reader(root, roots)``
    (None: no reader for it).  A hint that keeps missing gets another reader, up to
    `_MAKES_MAX`, then is always walked (``COLD``)."""
    by_hint, seen, made = tables
    c = seen.get(h, 0) + 1
    if c < make_at:
        if c == 1 and len(seen) >= _MAX_HINTS:
            seen.clear()
            by_hint.clear()
            made.clear()
        seen[h] = c
        return
    seen[h] = 0
    m = made.get(h, 0)
    if m >= _MAKES_MAX:
        by_hint[h] = COLD
        return
    made[h] = m + 1
    rd = reader(root, roots)
    if rd is None:
        return
    if rds is None:
        by_hint[h] = [rd]
    else:
        if len(rds) >= _PER_HINT:
            rds.pop()           # (the one that answered least recently)
        rds.insert(0, rd)


def inner_node(emit, e, n, v, seen, groups, by_group, sig) -> bool:
    """A reader's lines for inner node `n` of the graph it is made from, met at
    expression `e`: the check that the new graph holds the same node there when `n` was
    met before (its back-reference added to `sig`; False), else `n`'s variable `v` and
    the checks that keep it apart from the nodes of its shape group (True)."""
    j = seen.get(id(n))
    if j is not None:               # met again: the same node, or the walk's
        emit(f"    if {e} is not {j[0]}: return None")     # numbering differs
        sig += ["8", str(j[1])]
        return False
    seen[id(n)] = (v, len(seen))
    emit(f"    {v} = {e}")
    g = groups[id(n)]
    for w in by_group.get(g, ()):       # one node in two places: the walk would
        emit(f"    if {v} is {w}: return None")     # number them as one
    by_group.setdefault(g, []).append(v)
    return True


def elementwise_checks(emit, v, n, const) -> None:
    """A reader's checks of elementwise node `v` against `n` (kind, op, dtype, arg,
    arity), its sources bound to ``s{v}``."""
    arg = "is not None" if n.arg is None else f"!= {const(n.arg)}"
    emit(f"    if {v}.kind != {EW} or {v}.op != {const(n.op)} or "
         f"{v}.dtype is not {const(n.dtype)} or {v}.arg {arg}: return None")
    emit(f"    s{v} = {v}.srcs")
    emit(f"    if len(s{v}) != {len(n.srcs)}: return None")


def shape_groups(root, roots):
    """Group number of each inner node: nodes of one group have subtrees that one reader
    check cannot tell apart (kinds, ops, dtypes, args; leaves and reads abstracted), so a
    new graph may hold one node in two of their places; None when a group holds more
    than `_GROUP_MAX` nodes (the reader's checks between them would grow as their
    square)."""
    ids, memo = {}, {}
    todo = [root] if roots is None else list(roots)
    while todo:                     # (post-order without recursion)
        n = todo.pop()
        if id(n) in memo or n.kind in (LEAF, SCALAR):
            continue
        srcs = n.srcs if n.kind in (EW, VIEW, REDUCE, BARRIER) else ()
        missing = [x for x in srcs if id(x) not in memo and x.kind not in (LEAF, SCALAR)]
        if missing:
            todo.append(n)
            todo += missing
            continue
        kids = tuple("L" if x.kind == LEAF else ("S", x.dtype) if x.kind == SCALAR
                     else memo[id(x)] for x in srcs)
        if n.kind == EW:
            key = (EW, n.op, n.dtype, n.arg, kids)
        elif n.kind == VIEW:
            key = (VIEW, n.op, kids)
        elif n.kind == REDUCE:
            key = (REDUCE, n.dtype, n.arg, kids)
        elif n.kind == BARRIER:
            key = (BARRIER, n.op, n.dtype, kids)
        else:
            key = (n.kind,)
        memo[id(n)] = ids.setdefault(key, len(ids))
    sizes = {}
    for g in memo.values():
        sizes[g] = sizes.get(g, 0) + 1
    if max(sizes.values(), default=0) > _GROUP_MAX:
        return None
    return memo


class Constants:
    """The constants a reader's generated code names: literals for None, bools, ints,
    strings and tuples of ints, else ``c0``, ``c1``, ... bound as the reader's default
    arguments (``compile_reader``)."""

    def __init__(self) -> None:
        self.values = []
        self._names = {}

    def __call__(self, v) -> str:
        t = type(v)
        if v is None or t is bool or t is int or t is str or \
                t is tuple and all(type(x) is int for x in v):
            return repr(v)
        k = self._names.get(id(v))
        if k is None:
            self.values.append(v)
            k = self._names[id(v)] = f"c{len(self.values) - 1}"
        return k


def compile_reader(params, body, const, filename, **bound):
    """The function ``read(params)`` of the generated lines `body`, with the names in
    `bound` and the constants `const` named bound as default arguments."""
    g = dict(bound)
    g.update((f"c{i}", x) for i, x in enumerate(const.values))
    defaults = "".join(f", {k}={k}" for k in g)
    exec(compile(f"def read({params}{defaults}):\n" + "\n".join(body), filename, "exec"),
         g)     # noqa: S102 - generated from our own graph, no user text
    return g["read"]

