"""The scheduler: partition what must be materialized into fusible groups, in order.

The only place that decides what runs.  Rules:

* Nodes that need a buffer ("M nodes"): the requested roots, every REDUCE and BARRIER node,
  and the lazy sources of BARRIER nodes (non-fusible ops read materialized inputs).
* Elementwise nodes and views are never materialized on their own: every group that needs
  one recomputes it inline (a view becomes index arithmetic), so `sum((x-y)**2)` is one group.
* A REDUCE group carries its elementwise prologue (the subgraph under it) and, as extra
  outputs, the elementwise roots of the reduction's shape that depend on it alone and not
  through a view (its epilogue: `mean` = sum / n, `var`, `std`).
* Elementwise roots with the same shape, device and level come out of one group.
* Reductions along the last axis that are read back across their rows, and the
  elementwise nodes that read them, form one 'rows' group (rows.py: softmax).
* Sibling reductions come out of one group: identical reductions (same op, source and
  axes) are computed once, and a float ``sum`` with the same source, axes and shape as a
  ``var0`` comes out of the var0's group, whose accumulator then also sums (``x.mean(0)``
  and ``x.std(0)`` read ``x`` once).
* Levels order the groups: a REDUCE/BARRIER runs after the groups it depends on; at each
  level reductions and barriers run before elementwise groups.
"""
from __future__ import annotations

from .._config import config
from . import layout as L
from . import rows
from .ir import BARRIER, EW, IOTA, LEAF, REDUCE, SCALAR, VIEW, crossed


class Group:
    """One unit of work for a backend: a fused kernel (or a non-fusible op)."""

    __slots__ = ("kind", "outputs", "reduce", "barrier", "device", "level", "phases",
                 "siblings")

    def __init__(self, kind, outputs, device, level, reduce=None, barrier=None, phases=(),
                 siblings=()):
        self.kind = kind          # 'elementwise' | 'reduce' | 'rows' | 'barrier'
        self.outputs = outputs    # nodes this group realizes (writes a buffer for)
        self.device = device
        self.level = level
        self.reduce = reduce      # the REDUCE node of a reduce group
        self.barrier = barrier    # the BARRIER node of a barrier group
        self.phases = phases      # rows: the row reductions it computes, in order
        self.siblings = siblings  # reduce: ((node, 'same' | 'sum'), ...) it also computes

    def __repr__(self) -> str:
        outs = ", ".join(f"{o.dtype}{list(o.shape)}" for o in self.outputs)
        return f"<Group {self.kind} level={self.level} -> {outs}>"


def writes_into(group, value, dest) -> bool:
    """Can `group`, the last group of ``dest[...] = value``, store `value` straight into
    LEAF `dest`?  An elementwise group computing `value` can (overlaps were resolved
    before).  So can a reduce group whose epilogue computes it, when its outputs are
    stored after every read of dest's memory they depend on: dest is one element (stored
    once the whole reduction is done), or the reduction reads nothing of dest's buffer."""
    if group.outputs != [value]:
        return False
    if group.kind == "elementwise":
        return True
    if group.kind != "reduce" or group.siblings:
        return False
    if L.prod(dest.shape) <= 1:
        return True
    buf = dest.buf
    seen = set()
    stack = [group.reduce.srcs[0]]
    while stack:
        n = stack.pop()
        if n.kind == LEAF:
            if n.buf is buf:
                return False
            continue
        if n.kind == REDUCE or n.kind == BARRIER or id(n) in seen:
            continue        # an earlier group's output: memory of its own
        seen.add(id(n))
        stack.extend(n.srcs)
    return True


def _collect(roots):
    """All lazy nodes reachable from `roots` (iterative DFS; stops at leaves)."""
    seen = {}
    stack = list(roots)
    while stack:
        n = stack.pop()
        i = id(n)
        if i in seen:
            continue
        seen[i] = n
        for s in n.srcs:
            if s.kind != LEAF and id(s) not in seen:
                stack.append(s)
    return seen


def _deps(n):
    """REDUCE/BARRIER nodes an elementwise/reduce node reads through fusible nodes.

    Returns {id: (node, under_view)}; under_view is True when some path reaches the node
    through a VIEW or a node reading across positions (``ir.crossed``; then it cannot be
    an epilogue input)."""
    out = {}
    seen = set()
    stack = [(s, False) for s in n.srcs]
    while stack:
        m, uv = stack.pop()
        k = m.kind
        if k == LEAF or k == SCALAR or k == IOTA:
            continue
        if k == REDUCE or k == BARRIER:
            prev = out.get(id(m))
            out[id(m)] = (m, uv or (prev[1] if prev else False))
            continue
        key = (id(m), uv)
        if key in seen:
            continue
        seen.add(key)
        child_uv = uv or k == VIEW or crossed(m)
        for s in m.srcs:
            stack.append((s, child_uv))
    return out


def library_group(node):
    """The one group of `node` when it is a library call (a BARRIER) whose operands are
    all in memory, else None."""
    if node.kind != BARRIER:
        return None
    for s in node.srcs:
        if s.kind != LEAF:
            return None
    return Group("barrier", [node], node.device, 1, barrier=node)


def schedule(roots) -> list:
    """Ordered groups that materialize every node in `roots`.

    A graph of a structure scheduled before replays that schedule (``_SCHEDULES``): a loop
    or a program called again builds the same graphs, and the schedule depends on nothing
    but the structure (`_structure`) and the options."""
    roots = [r for r in dict.fromkeys(roots) if r.kind != LEAF]
    if not roots:
        return []
    libs = []
    for r in roots:             # library calls on memory (``return r @ A, A @ p``): apart
        g = library_group(r)
        if g is None:
            break
        libs.append(g)
    else:
        return libs
    sig, inner = _structure(roots)
    key = (config._generation, sig)
    try:
        plan = _SCHEDULES.get(key)
    except TypeError:           # an argument that is not hashable
        return _schedule(roots)
    if plan is None:
        groups = _schedule(roots)
        if len(_SCHEDULES) >= _MAX_SCHEDULES:
            _SCHEDULES.clear()
        _SCHEDULES[key] = _encode(groups, inner)
        return groups
    if plan is False:
        return _schedule(roots)
    return [Group(kind, [inner[i] for i in outs], inner[dev].device, lv,
                  None if red is None else inner[red], None if bar is None else inner[bar],
                  [inner[i] for i in phases], tuple((inner[i], how) for i, how in sibs))
            for kind, outs, dev, lv, red, bar, phases, sibs in plan]


_SCHEDULES: dict = {}       # (options generation, structure) -> encoded groups, or False
_MAX_SCHEDULES = 4096


def _structure(roots):
    """(signature, inner nodes in visit order) of the graphs under `roots`: a pre-order
    encoding of every node's kind and fields (a node met again is a back-reference to its
    visit number; leaves by their own identity, dtype and shape, since scheduling compares
    reduction sources by identity; devices by identity too: as fine as equality or finer,
    and hashed in C).  Scalar values and barrier arguments (a compaction's count) do not
    change a schedule and are left out.  An argument may be unhashable: the caller's
    lookup raises TypeError then."""
    sig = [len(roots)]
    seen = {}
    leaves = {}
    inner = []
    stack = roots[::-1]
    while stack:
        n = stack.pop()
        k = n.kind
        if k == LEAF:
            i = leaves.get(id(n))
            if i is None:
                i = leaves[id(n)] = len(leaves)
            sig += (0, i, n.dtype, n.shape)
            continue
        i = seen.get(id(n))
        if i is not None:
            sig += (8, i)
            continue
        seen[id(n)] = len(inner)
        inner.append(n)
        srcs = n.srcs
        sig += (k, n.op, n.dtype, n.shape, None if k == SCALAR or k == BARRIER else n.arg,
                len(srcs), id(n.device))
        stack.extend(srcs[::-1])
    return tuple(sig), inner


def _encode(groups, inner):
    """`groups` with every node as its index into `inner`, or False when one is not
    there (scheduling made a node of its own: nothing to replay)."""
    index = {id(n): i for i, n in enumerate(inner)}
    try:
        return tuple((g.kind, tuple(index[id(o)] for o in g.outputs),
                      index[id(g.reduce or g.barrier or g.outputs[0])], g.level,
                      None if g.reduce is None else index[id(g.reduce)],
                      None if g.barrier is None else index[id(g.barrier)],
                      tuple(index[id(p)] for p in g.phases),
                      tuple((index[id(n)], how) for n, how in g.siblings))
                     for g in groups)
    except KeyError:
        return False


def _schedule(roots) -> list:
    nodes = _collect(roots)
    if len(roots) == 1:
        for n in nodes.values():
            if n.kind == REDUCE or n.kind == BARRIER:
                break
        else:
            return [Group("elementwise", roots, roots[0].device, 0)]  # one kernel
    must = {id(r): r for r in roots}
    for n in nodes.values():
        if n.kind == REDUCE or n.kind == BARRIER:
            must[id(n)] = n
            if n.kind == BARRIER:
                for s in n.srcs:
                    if s.kind != LEAF:
                        must[id(s)] = s

    deps = {}
    for i, n in must.items():
        if n.kind == BARRIER:
            deps[i] = {id(s): (s, False) for s in n.srcs if s.kind != LEAF}
        else:
            deps[i] = _deps(n)

    # levels, iteratively in dependency order
    level = {}
    for i0, n0 in must.items():
        if i0 in level:
            continue
        stack = [(i0, n0)]
        while stack:
            i, n = stack[-1]
            if i in level:
                stack.pop()
                continue
            # every dependency is an M node (reductions, barriers and barrier inputs)
            pending = [(j, m) for j, (m, _) in deps[i].items() if j not in level]
            if pending:
                stack.extend(pending)
                continue
            base = max((level[j] for j in deps[i]), default=0)
            level[i] = base + 1 if n.kind in (REDUCE, BARRIER) else base
            stack.pop()

    # row groups (rows.py): last-axis reductions and the elementwise nodes reading them
    absorbed = set()
    row_groups = rows.clusters(must, deps, roots) if config.fuse_rows else []
    in_rows, row_phases = set(), set()
    for consumers, phases in row_groups:
        in_rows.update(id(n) for n in consumers)
        row_phases.update(id(r) for r in phases)
    in_rows |= row_phases
    absorbed |= in_rows

    # sibling reductions computed by another reduction's group
    sib_of = _siblings(must, absorbed) if config.fuse_siblings else {}
    host = {i: h for i, (h, _) in sib_of.items()}
    siblings = {}   # host id -> [(node, how)]
    for i, (h, how) in sib_of.items():
        siblings.setdefault(id(h), []).append((must[i], how))

    # small elementwise results of column-type reductions that a larger kernel reads through
    # a broadcast (the mean sum / n, the std sqrt(var0)) become epilogue outputs: computed
    # once per reduced position instead of once per element of the larger kernel
    if config.fuse_siblings and any(n.kind == REDUCE and i not in absorbed
                                    for i, n in must.items()):
        for s_ in _broadcast_epilogues(must, absorbed, host):
            must[id(s_)] = s_
            deps[id(s_)] = _deps(s_)
            level[id(s_)] = max(level[j] for j in deps[id(s_)])

    # epilogues: elementwise M nodes that depend on exactly one reduction group, not via a
    # view
    epilogue = {}   # reduce id -> [nodes]
    for i, n in must.items():
        if n.kind in (REDUCE, BARRIER) or n.kind == VIEW or i in absorbed:
            continue
        d = deps[i]
        hosts = {id(host.get(j, r)): host.get(j, r) for j, (r, _) in d.items()}
        if len(hosts) == 1:
            (j, r), = hosts.items()
            if r.kind == REDUCE and not any(uv for _, uv in d.values()) and \
                    r.shape == n.shape and r.device == n.device:
                epilogue.setdefault(j, []).append(n)
                absorbed.add(i)

    needs_buffer = set()
    for i, n in must.items():
        if i in absorbed and i not in in_rows:
            continue        # an epilogue: its one reduction is computed in its group
        for j in deps[i]:
            if j not in row_phases:     # a row group's own phases need no buffer
                needs_buffer.add(j)
    for r in roots:
        needs_buffer.add(id(r))

    groups = []
    row_by_key = {}     # independent row groups of one shape and level share a kernel
    for consumers, phases in row_groups:
        lv = max(level[id(n)] for n in consumers)
        key = (lv, consumers[0].shape, consumers[0].device)
        g = row_by_key.get(key)
        if g is None:
            g = row_by_key[key] = Group("rows", [], consumers[0].device, lv, phases=[])
            groups.append(((lv, 1, len(groups)), g))
        g.outputs.extend(consumers)
        g.phases.extend(phases)
    ew_groups = {}
    for i, n in must.items():
        if i in absorbed:
            continue
        lv = level[i]
        if n.kind == REDUCE:
            if i in host:
                continue        # computed by its var0's group
            sib = siblings.get(i, [])
            outs = ([n] if i in needs_buffer else []) + \
                [s for s, _ in sib if id(s) in needs_buffer] + epilogue.get(i, [])
            groups.append(((lv, 0, len(groups)), Group("reduce", outs, n.device, lv, reduce=n,
                                                       siblings=tuple(sib))))
        elif n.kind == BARRIER:
            groups.append(((lv, 0, len(groups)), Group("barrier", [n], n.device, lv,
                                                       barrier=n)))
        else:
            key = (lv, n.shape, n.device)
            g = ew_groups.get(key)
            if g is None:
                g = Group("elementwise", [], n.device, lv)
                ew_groups[key] = g
                groups.append(((lv, 1, len(groups)), g))
            g.outputs.append(n)
    groups.sort(key=lambda t: t[0])
    return [g for _, g in groups]


def _same_source(a, b) -> bool:
    """The same node, or the same cast of one node (``mean`` and ``var`` of an int array
    each cast it to float64)."""
    if a is b:
        return True
    return (a.kind == b.kind == EW and a.op == b.op == "astype" and a.dtype == b.dtype and
            a.srcs[0] is b.srcs[0])


def _siblings(must, absorbed) -> dict:
    """{id(reduction): (host reduction, how)} for reductions another group computes:
    'same', an identical reduction (op, source, axes, shape and dtype), or 'sum', a float
    sum of the same source, axes and shape as a var0 (read off its accumulator).  Same
    source and axes mean the same level."""
    reds = [n for i, n in must.items() if n.kind == REDUCE and i not in absorbed]
    if len(reds) < 2:
        return {}
    out = {}
    hosts = []
    for n in reds:
        for h in hosts:
            if h.arg == n.arg and h.dtype == n.dtype and h.device == n.device and \
                    _same_source(h.srcs[0], n.srcs[0]):
                out[id(n)] = (h, "same")
                break
        else:
            hosts.append(n)
    var0 = [h for h in hosts if h.arg[0] == "var0"]
    for n in hosts if var0 else ():
        if n.arg[0] != "sum" or n.dtype.kind != "f" or n.dtype.itemsize < 4 or \
                n.srcs[0].dtype != n.dtype:
            continue
        for v in var0:
            if v.arg[1] == n.arg[1] and v.shape == n.shape and v.device == n.device and \
                    v.srcs[0].dtype == n.dtype and _same_source(v.srcs[0], n.srcs[0]):
                out[id(n)] = (v, "sum")
                for i, (h, how) in list(out.items()):     # identical sums follow it
                    if h is n:
                        out[i] = (v, "sum")
                break
    return out


def _broadcast_epilogues(must, absorbed, host) -> list:
    """Elementwise nodes read through a broadcast by a larger M node (or a reduction's
    prologue) that depend, not through a view, on exactly one reduction group whose
    reductions keep the last axis and have the node's shape: each is then an epilogue
    output of that group."""
    out = {}
    seen = set()
    for i, n in must.items():
        if i in absorbed or n.kind == BARRIER:
            continue
        stack = list(n.srcs) if n.kind == REDUCE else [n]
        while stack:
            m = stack.pop()
            k = m.kind
            if k in (LEAF, SCALAR, IOTA, REDUCE, BARRIER) or id(m) in seen:
                continue
            seen.add(id(m))
            if k == VIEW and m.op == "broadcast":
                src = m.srcs[0]
                if src.kind == EW and id(src) not in must and id(src) not in out and \
                        _col_epilogue(src, host):
                    out[id(src)] = src
                    continue
            stack.extend(m.srcs)
    return list(out.values())


def _col_epilogue(n, host) -> bool:
    d = _deps(n)
    if not d or any(uv for _, uv in d.values()):
        return False
    hosts = {id(host.get(j, r)): host.get(j, r) for j, (r, _) in d.items()}
    if len(hosts) != 1:
        return False
    (r,) = hosts.values()
    nd = len(r.srcs[0].shape) if r.kind == REDUCE else 0
    return r.kind == REDUCE and r.shape == n.shape and r.device == n.device and \
        (nd - 1) not in r.arg[1]
