"""Row groups: reductions along the last axis fused with the elementwise work that reads
them back across the row, one kernel per group (softmax, log-softmax, row normalization).

``e = exp(X - X.max(1, keepdims=True)); e / e.sum(1, keepdims=True)`` otherwise runs as
three kernels (max, exp-sum, divide): three reads of X and one write.  A row group runs
one block per row: phase 1 reduces the row to its max, phase 2 re-reads the row (from L2
for rows that fit) for the sum, the last phase writes the output, so X leaves DRAM once.

A cluster is formed by the scheduler (``fuse.schedule``) when

* every reduction in it reduces the last axis of the same shape S (at least 2-D, with
  enough rows to fill the GPU and rows short enough for one block),
* each reduction is read only by members of the cluster, and only as a row broadcast
  (position (i..., k) of S reads the reduction at (i...)),
* its consumers are elementwise nodes of shape S that must be materialized.
"""
from __future__ import annotations

from . import layout as L
from .ir import BARRIER, EW, IOTA, LEAF, REDUCE, SCALAR, VIEW, crossed

MIN_ROWS = 64          # fewer rows than this leave most of the GPU idle: separate kernels
MAX_ROW = 1 << 17      # longer rows: one block per row is too little parallelism per row


def row_reduce_ok(r) -> bool:
    """A reduction a row group can compute: the last axis of an N-d input, N >= 2."""
    src = r.srcs[0]
    nd = len(src.shape)
    if nd < 2 or r.arg[1] != (nd - 1,):
        return False
    k = src.shape[-1]
    return 2 <= k <= MAX_ROW and L.prod(src.shape[:-1]) >= MIN_ROWS


def reads(start):
    """[(REDUCE or BARRIER node, view chain)] read by `start`'s fusible subgraph, or None
    when the subgraph is too large to check or reads across positions (``ir.crossed``)."""
    out = []
    seen = set()
    stack = [(start, ())]
    while stack:
        n, chain = stack.pop()
        k = n.kind
        if k == LEAF or k == SCALAR or k == IOTA:
            continue
        if k == REDUCE or k == BARRIER:
            out.append((n, chain))
            continue
        key = (id(n), tuple(id(v) for v in chain))
        if key in seen:
            continue
        seen.add(key)
        if len(seen) > 4096:
            return None
        if k == VIEW:
            stack.append((n.srcs[0], chain + (n,)))
        elif crossed(n):
            return None
        else:
            stack.extend((s, chain) for s in n.srcs)
    return out


def row_broadcast(r, chain, shape) -> bool:
    """Does reading REDUCE `r` through `chain` give, at each position of `shape`, r's value
    of that position's row?"""
    if not chain:
        return False
    lv = L.compose(r.shape, L.c_strides(r.shape), 0, chain)
    if len(lv) != 1:
        return False
    sh, st, off = lv[0]
    if tuple(sh) != tuple(shape) or off != 0 or st[-1] != 0:
        return False
    cs = L.c_strides(shape[:-1])
    return all(st[d] == cs[d] or shape[d] == 1 for d in range(len(shape) - 1))


def clusters(must, deps, roots):
    """Row groups among the M nodes: [(consumers, reductions in dependency order)].

    `must`: {id: node} of nodes needing a buffer; `deps`: {id: {id: (node, under_view)}}."""
    root_ids = {id(r) for r in roots}
    cand = {i: n for i, n in must.items()
            if n.kind == REDUCE and i not in root_ids and row_reduce_ok(n)}
    if not cand:
        return []
    found = []          # [consumers, member ids]
    owner = {}          # member id -> index in found
    for i, n in must.items():
        if n.kind != EW or not deps[i]:
            continue
        shape = n.shape
        members, stack = set(), list(deps[i])
        while stack:
            j = stack.pop()
            if j in members:
                continue
            r = cand.get(j)
            if r is None or r.srcs[0].shape != shape or r.device != n.device:
                continue    # materialized before the group (softmax(X @ W): the matmul)
            members.add(j)
            stack.extend(j2 for j2 in deps[j] if j2 in cand)
        if not members:
            continue
        hit = {owner[j] for j in members if j in owner}
        if len(hit) > 1:
            continue
        if hit:                 # shares a reduction (so its shape) with an earlier consumer
            ci = hit.pop()
            found[ci][0].append(n)
            found[ci][1] |= members
        else:
            ci = len(found)
            found.append([[n], members])
        for j in members:
            owner[j] = ci
    out = []
    for consumers, members in found:
        inside = {id(c) for c in consumers} | members
        if any(j in inside for i, d in deps.items() if i not in inside for j in d):
            continue        # read by a node outside (a reduction needs its buffer; a
            #                 barrier input must be realized before the barrier runs)
        shape = consumers[0].shape
        starts = consumers + [must[j].srcs[0] for j in members]
        ok = True
        for s in starts:
            rd = reads(s)
            if rd is None or any(id(r) in members and not row_broadcast(r, ch, shape)
                                 for r, ch in rd):
                ok = False
                break
        if ok:
            out.append((consumers, _ordered(members, must, deps)))
    return out


def _ordered(members, must, deps):
    """The member reductions, each after the members it reads."""
    done, order = set(), []

    def visit(j):
        if j in done:
            return
        done.add(j)
        for j2 in deps[j]:
            if j2 in members:
                visit(j2)
        order.append(must[j])
    for j in must:          # the scheduler's deterministic order: stable kernel sources
        if j in members:
            visit(j)
    return order
