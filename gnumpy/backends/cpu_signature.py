"""The CPU backend's replay signature (``walk``), and the same answer for a graph of a
shape met before, read by code generated for that shape (``recall``, what the write
replay calls).

The signature is the graph's structure: node kinds, ops, dtypes and view arguments (and a
small product's operand shapes), with inner nodes met again as back-references; leaves and
scalars are listed at each use and passed at each call (NumPy takes their strides and
shapes itself, so layouts are not part of it).  ``cpu_fast`` compiles one function per
signature.
"""
from __future__ import annotations

from .._graph.ir import EW, LEAF, REDUCE, SCALAR, SMALL_MATMUL, VIEW
from .remembered import (COLD, Constants, answer, compile_reader, elementwise_checks,
                         inner_node, remember, shape_groups)


def walk(root, limit=None):
    """(signature, leaves, scalars, ok), in the order ``cpu_fast._compile`` numbers them; ok is
    False for a barrier or index-valued node, or once the signature passes `limit`
    items (the walk stops there), None for a graph with a reduction."""
    sig = []
    seen = {}
    leaves = []
    scalars = []
    ok = True
    stack = [root]
    while stack:
        n = stack.pop()
        k = n.kind
        if k == LEAF:
            leaves.append(n)
            sig += (0, n.dtype)
            continue
        if k == SCALAR:         # (a 0-d one or not: _compile's out= reuse depends on it)
            scalars.append(n)
            sig += (1, n.dtype, not n.shape)
            continue
        i = seen.get(id(n))
        if i is not None:
            sig += (8, i)
            continue
        seen[id(n)] = len(seen)
        if k == EW:
            if limit is not None and len(sig) > limit:
                return None, leaves, scalars, False
            sig += (3, n.op, n.dtype, len(n.srcs))
            if n.op == SMALL_MATMUL:  # (its function broadcasts each source to its shape)
                sig += (n.srcs[0].shape, n.srcs[1].shape)
        elif k == VIEW:
            sig += (4, n.op, n.arg, n.shape, n.srcs[0].shape)
        elif k == REDUCE:
            sig += (5, n.dtype, n.arg, n.srcs[0].shape)
            ok = None
        else:
            return None, leaves, scalars, False
        stack.extend(reversed(n.srcs))
    return tuple(sig), leaves, scalars, ok


# ------------------------------------------------------------------ remembered walks

_BY_HINT: dict = {}         # a root's hint -> its readers, oldest first (or COLD)
_SEEN: dict = {}            # hint -> its walks since its last reader was made
_MADE: dict = {}            # hint -> the readers made for it
_MAKE_AT = 16               # walks of a hint before a reader is made for it (as on CUDA)


def recall(root):
    """``walk(root)``'s answer, for a graph of a shape met before without the walk: a
    hint (the root's kind, op, dtype and tree size) walked `_MAKE_AT` times gets a reader
    (``_reader``) of the graph walked last, which a new graph of that shape answers
    through, or which steps aside (``remembered.remember``)."""
    h = (root.kind, root.op, root.dtype, root.size)
    rds = _BY_HINT.get(h)
    if rds:
        r = rds[0](root)
        if r is not None or len(rds) > 1 and (r := answer(rds, root)) is not None:
            return r
    r = walk(root)
    if r[3] is not False and rds is not COLD:
        remember(h, rds, (_BY_HINT, _SEEN, _MADE), _MAKE_AT, _reader, root, None)
    return r


def _reader(root, roots=None):
    """Straight-line code following `root`'s visit order through a new graph: it checks
    at each node what a loop's statements keep (kinds, ops, dtypes, an elementwise node's
    arg and arity, a reduction's arg, which inner nodes are one node) and reads what
    varies (view args and shapes, a scalar's shape), building ``walk``'s signature and
    lists of leaves and scalars; None for a graph of many inner nodes of one shape."""
    groups = shape_groups(root, None)
    if groups is None:
        return None
    const = Constants()
    body = []
    emit = body.append
    todo = [("root", root)]
    seen, by_group = {}, {}
    sig, leaves, scalars = [], [], []
    ok = True
    nv = 0
    while todo:
        e, n = todo.pop()
        k = n.kind
        v = f"v{nv}"
        if k == LEAF or k == SCALAR:
            nv += 1
            emit(f"    {v} = {e}")
            emit(f"    if {v}.kind != {k} or {v}.dtype is not {const(n.dtype)}: return None")
            if k == LEAF:
                sig += ["0", const(n.dtype)]
                leaves.append(v)
            else:
                sig += ["1", const(n.dtype), f"not {v}.shape"]
                scalars.append(v)
            continue
        if not inner_node(emit, e, n, v, seen, groups, by_group, sig):
            continue
        nv += 1
        arg = "is not None" if n.arg is None else f"!= {const(n.arg)}"
        if k == EW:
            elementwise_checks(emit, v, n, const)
            sig += ["3", const(n.op), const(n.dtype), str(len(n.srcs))]
            if n.op == SMALL_MATMUL:
                sig += [f"s{v}[0].shape", f"s{v}[1].shape"]
            todo += [(f"s{v}[{i}]", x) for i, x in enumerate(n.srcs)][::-1]
        elif k == VIEW:
            emit(f"    if {v}.kind != {VIEW} or {v}.op != {const(n.op)}: return None")
            emit(f"    s{v} = {v}.srcs[0]")
            sig += ["4", const(n.op), f"{v}.arg", f"{v}.shape", f"s{v}.shape"]
            todo.append((f"s{v}", n.srcs[0]))
        elif k == REDUCE:
            emit(f"    if {v}.kind != {REDUCE} or {v}.dtype is not {const(n.dtype)} or "
                 f"{v}.arg {arg}: return None")
            emit(f"    s{v} = {v}.srcs[0]")
            sig += ["5", const(n.dtype), const(n.arg), f"s{v}.shape"]
            ok = None
            todo.append((f"s{v}", n.srcs[0]))
        else:       # (walk gives no signature for other kinds: no reader is made)
            return None
    emit(f"    return ({', '.join(sig)},), [{', '.join(leaves)}], [{', '.join(scalars)}], "
         f"{ok}")
    return compile_reader("root", body, const, "<gnumpy cpu signature reader>")
