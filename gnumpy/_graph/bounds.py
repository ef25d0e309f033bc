"""The graph-size bounds: a lazy graph that grew past a bound is materialized where it
is taken (``bounded``), an array's lazy value updated in place a second time is computed
then (``updated_in_place``), and a lazy 0-d value broadcast into many results is
computed at its ``SCALAR_REUSE_MAX``-th use (``reused_scalar``)."""
from __future__ import annotations

import weakref

from .._config import config
from .ir import EW, LEAF, SCALAR, VIEW
from .readers import defer_reader
from .realize import materialize, materialize_one


def _scalar_chain(node, limit) -> int:
    """Elementwise and view nodes of a 0-d expression above its reductions, leaves and
    constants (what every kernel reading it recomputes), counted up to `limit` + 1."""
    seen = set()
    stack = [node]
    n = 0
    while stack:
        m = stack.pop()
        if m.kind != EW and m.kind != VIEW or id(m) in seen:
            continue
        seen.add(id(m))
        n += 1
        if n > limit:
            break
        stack.extend(m.srcs)
    return n


CHECK_SIZE = [0, -1, 0]     # graphs of more nodes than [0] (not 0-d; 0-d: [2]) are checked
                            # against config's bounds at its generation [1] (arrays read it
                            # inline, on their hot paths, before they call ``checked``)


def checked(node) -> None:
    """``bounded(node)``, with the size below which no graph can pass the bounds of
    config refreshed when config changes."""
    if CHECK_SIZE[1] != config._generation:
        CHECK_SIZE[:] = [config.max_graph_nodes, config._generation,
                         min(config.max_graph_nodes, config.max_scalar_graph_nodes)]
    if node.size > CHECK_SIZE[0 if node.shape else 2]:
        bounded(node)


def bounded(node):
    """`node`, materialized now when its graph passed a bound: a tree size over
    ``config.max_graph_nodes`` (a long Python loop must not grow one graph without end), or,
    for a 0-d node, an elementwise chain above its reductions over
    ``config.max_scalar_graph_nodes`` (a scalar recurrence, beta *= 1 - alpha**2, would be
    recomputed whole by every kernel reading it).  Arrays call it when they take a node."""
    lim = config.max_scalar_graph_nodes     # (a chain counts at most the tree's size)
    if node.kind != LEAF and (node.size > config.max_graph_nodes or not node.shape and
                              node.size > lim and _chain_past(node, lim)):
        if node.shape or not defer_reader(node):    # (a 0-d one: in the sequence, where
            materialize([node])                     # a write waits in one)
    return node


def _chain_past(node, limit) -> bool:
    """``_scalar_chain(node, limit) > limit``, without the walk where an upper bound of the
    count, the chain's tree count (``_chain_bound``), is within `limit`: a loop's scalar
    chain (go_fast's ``trace += tanh(a[i, i])``) walks only where it may pass."""
    if _chain_bound(node, limit) <= limit:
        return False
    n = _scalar_chain(node, limit)
    if n > limit:
        return True
    node.sig = n            # (exact: what the walk found)
    return False


def _chain_bound(n, limit) -> int:
    """An upper bound of ``_scalar_chain(n)``: its elementwise and view nodes counted as a
    tree (a node shared counts each time).  Each node's bound is kept on it (in
    ``Node.sig``, which only LEAFs use otherwise), so a chain extended by one statement
    costs a few additions; a node realized since only lowers the count.  More than
    `limit` for a large graph not met before (not walked here)."""
    k = n.kind
    if k != EW and k != VIEW:
        return 0
    c = n.sig
    if c is not None:
        return c
    if n.size > 4 * limit:
        return limit + 1
    b = 1
    for s in n.srcs:
        b += _chain_bound(s, limit)
    n.sig = b
    return b


# An array's lazy value updated in place again is computed at that update (one kernel for
# both updates).  A loop whose state is updated in place and read every iteration (NPBench
# nbody: ``vel += acc * dt / 2`` twice a step, ``vel`` read by every step's kernels) would
# otherwise grow one graph under every reader until the graph bound: each iteration's
# readers new kernels to compile, each recomputing the whole chain.  A 0-d value is left
# to the scalar rules (``bounded``, reused_scalar).
_updated = weakref.WeakSet()     # lazy values made by a first in-place update


def updated_in_place(node, old) -> None:
    """An array's value `old` became lazy `node`: if `node` reads `old` (an in-place
    update) and `old` was itself a lazy update, materialize `node`."""
    if old not in node.srcs:
        return
    if old.kind != LEAF and old in _updated:
        materialize_one(node)
    elif node.shape:
        _updated.add(node)


# A lazy 0-d node broadcast into larger results this many times is materialized at that
# use: a coefficient computed once and read by every statement of a loop (NPBench deriche's
# a1 ... b2) would otherwise be recomputed by every statement's kernel, and walked by every
# replay's signature and every write's check of pending readers.  A scalar recurrence
# (durbin's alpha, beta: a new node each iteration, read a few times) stays fused.
SCALAR_REUSE_MAX = 8
_scalar_uses: dict = {}     # id(node) -> [weakref of the node, uses so far]


def reused_scalar(node) -> None:
    """Count one use of lazy 0-d `node` as a broadcast operand; materialize it (in place)
    at its ``SCALAR_REUSE_MAX``-th.  A constant (a SCALAR) is a kernel's parameter:
    left as it is."""
    if node.kind == SCALAR:
        return
    e = _scalar_uses.get(id(node))
    if e is None or e[0]() is not node:
        if len(_scalar_uses) >= 4096:
            for k, v in list(_scalar_uses.items()):
                m = v[0]()
                if m is None or m.kind == LEAF:
                    _scalar_uses.pop(k, None)
        _scalar_uses[id(node)] = [weakref.ref(node), 1]
        return
    e[1] += 1
    if e[1] >= SCALAR_REUSE_MAX:
        _scalar_uses.pop(id(node), None)
        materialize([node])
