"""Lowering: a scheduled group -> a kernel spec (operands, scalars, one expression DAG).

Views are pushed down to the memory they read (elementwise ops commute with index maps),
so every memory operand ends as a strided access over the kernel's iteration space; a
reshape that strides cannot express adds an unravel level.  Expressions are hash-consed:
common subexpressions are computed once per kernel.  Dimensions that are contiguous for
every operand are collapsed, so a contiguous array of any shape iterates as 1-D.

The spec's structure (op structure, dtypes, operand kinds and ranks; not sizes, strides'
values or scalar values) goes into each renderer's plan key (``kernels/plan.py``), which
holds everything that determines the generated source: the in-memory kernel cache key.
"""
from __future__ import annotations

from .._graph import layout as L
from .._graph.layout import compose
from .._graph.ir import BARRIER, EW, IOTA, LEAF, REDUCE, SCALAR, SMALL_MATMUL, VIEW, Node

INT32_MAX = 2**31 - 1


class Operand:
    """A strided access: memory ('in'), an index value ('iota') or an output ('out').

    levels[0] = (shape, strides, offset) over the iteration space; each further level is
    the layout of a reshape source, reached by unravelling the previous level's linear
    position over its shape (C order)."""

    __slots__ = ("kind", "node", "dtype", "levels", "space")

    def __init__(self, kind, node, dtype, levels, space):
        self.kind = kind
        self.node = node
        self.dtype = dtype
        self.levels = levels
        self.space = space


class Spec:
    """Everything a renderer needs to produce one kernel's source."""

    def __init__(self, kind):
        self.kind = kind            # 'ew' | 'reduce' | 'rows'
        self.exprs = []             # ('ld', k) ('sc', k) ('io', k) ('acc',) ('acc', 'sum')
                                    # ('ph', j)
                                    # ('op', name, in_dt, arg, kids)
        self.dtypes = []            # dtype of each expr
        self.operands = []          # Operand
        self.scalars = []           # (dtype, value)
        self.scalar_nodes = []      # the SCALAR node behind each scalar parameter
        self.outputs = []           # (expr index, Operand of kind 'out')
        self.reduce = None          # reduce: (rop, acc expr, node)
        self.siblings = {}          # reduce: id(node) -> 'same' | 'sum' (fuse._siblings)
        self.shape = ()             # iteration shape (ew) / reduction input shape
        self.out_shape = ()         # reduce: output shape (epilogue space)
        self.axes = ()              # reduce: reduced axes of `shape`
        self.phases = []            # rows: (rop, acc expr, node) per row reduction
        self.phase_of = {}          # rows: id(REDUCE node) -> phase index
        self.aliased = False        # ew: outputs' memory may be memory the inputs read
        self._memo = {}
        self._ekeys = {}
        self._okeys = {}
        self._terms = {}            # (id(small_matmul node), side, t) -> its term's views

    # ---- building
    def _expr(self, e, dt):
        k = (e, dt)
        i = self._ekeys.get(k)
        if i is None:
            i = len(self.exprs)
            self.exprs.append(e)
            self.dtypes.append(dt)
            self._ekeys[k] = i
        return i

    def _operand(self, kind, node, dtype, levels, space):
        # one operand for reads of one place (buffer and leaf offset) through one layout:
        # what a replay's signature records as shared (cuda_signature.walk's places), so
        # a replayed graph of that signature shares exactly these (leaves at different
        # offsets whose views meet at one element stay apart: a replay moves each by its
        # own offset)
        key = (kind, id(node.buf) if node.buf is not None else id(node),
               node.offset if node.buf is not None else 0, dtype,
               tuple((lv[0], lv[1], lv[2]) for lv in levels), space)
        i = self._okeys.get(key)
        if i is None:
            i = len(self.operands)
            self.operands.append(Operand(kind, node, dtype, levels, space))
            self._okeys[key] = i
        return i

    def lower(self, node, space, chain=()):
        """Expression index computing `node` in iteration `space` ('pro'/'epi'/'ew')."""
        mk = (id(node), tuple(id(v) for v in chain), space)
        r = self._memo.get(mk)
        if r is not None:
            return r
        k = node.kind
        if k == LEAF:
            lv = compose(node.shape, node.strides, node.offset, chain)
            r = self._expr(("ld", self._operand("in", node, node.dtype, lv, space)), node.dtype)
        elif k == IOTA:
            lv = compose(node.shape, node.strides, node.offset, chain)
            r = self._expr(("io", self._operand("iota", node, node.dtype, lv, space)),
                           node.dtype)
        elif k == SCALAR:
            key = ("scalar", id(node))
            idx = self._okeys.get(key)
            if idx is None:
                idx = len(self.scalars)
                self.scalars.append((node.dtype, node.arg))
                self.scalar_nodes.append(node)
                self._okeys[key] = idx
            r = self._expr(("sc", idx), node.dtype)
        elif k == VIEW:
            r = self.lower(node.srcs[0], space, chain + (node,))
        elif k == EW and node.op == SMALL_MATMUL:
            a, b, dt = node.srcs[0], node.srcs[1], node.dtype
            r = None
            for t in range(node.arg):
                p = self._expr(("op", "multiply", dt, None,
                                (self.lower(a, space, chain + self._term(node, 0, t)),
                                 self.lower(b, space, chain + self._term(node, 1, t)))), dt)
                r = p if r is None else self._expr(("op", "add", dt, None, (r, p)), dt)
        elif k == EW:
            kids = tuple(self.lower(s, space, chain) for s in node.srcs)
            in_dt = node.srcs[1].dtype if node.op == "where" else node.srcs[0].dtype
            r = self._expr(("op", node.op, in_dt, node.arg, kids), node.dtype)
        elif k == REDUCE and self.reduce is not None and node is self.reduce[2]:
            if chain:
                raise AssertionError("a view of the reduction cannot be in its epilogue")
            r = self._expr(("acc",), node.dtype)
        elif k == REDUCE and id(node) in self.siblings:
            if chain:
                raise AssertionError("a view of a sibling reduction cannot be in the epilogue")
            how = self.siblings[id(node)]
            r = self._expr(("acc",) if how == "same" else ("acc", how), node.dtype)
        elif k == REDUCE and id(node) in self.phase_of:
            # a row group's earlier phase, read as a row broadcast (checked by the scheduler)
            r = self._expr(("ph", self.phase_of[id(node)]), node.dtype)
        elif k == REDUCE or k == BARRIER:
            # not run yet (only when showing sources ahead of time, gnumpy.explain): it
            # will be a C-contiguous buffer
            lv = compose(node.shape, L.c_strides(node.shape), 0, chain)
            r = self._expr(("ld", self._operand("in", node, node.dtype, lv, space)),
                           node.dtype)
        else:
            raise AssertionError(f"unrealized {node!r} inside a kernel")
        self._memo[mk] = r
        return r

    def _term(self, node, side, t):
        """The views through which ``small_matmul`` `node` reads its `side` source (0: the
        left) for its `t`-th term: column (row) t of it broadcast over the node's shape,
        outermost first (kept: the memo keys views by id)."""
        key = (id(node), side, t)
        v = self._terms.get(key)
        if v is None:
            src = node.srcs[side]
            lead = ((0, 1),) * (len(src.shape) - 2)
            arg = lead + (((0, 1), (t, 1)) if side == 0 else ((t, 1), (0, 1)))
            shape = src.shape[:-1] + (1,) if side == 0 else src.shape[:-2] + (1,) + \
                src.shape[-1:]
            sl = Node(VIEW, "slice", src.dtype, shape, (src,), arg, src.device)
            v = self._terms[key] = (Node(VIEW, "broadcast", src.dtype, node.shape, (sl,),
                                         None, src.device), sl)
        return v

    def add_output(self, expr, node, dest=None, space="ew"):
        shape = node.shape
        if dest is None:
            levels = [(shape, L.c_strides(shape), 0)]
            op = Operand("out", node, node.dtype, levels, space)
        else:
            op = Operand("out", dest, dest.dtype, [(shape, dest.strides, dest.offset)], space)
        self.outputs.append((expr, op))


def lower_group(group, dest=None) -> Spec:
    """Lower an 'elementwise', 'reduce' or 'rows' group (optionally writing into `dest`)."""
    if group.kind == "rows":
        spec = Spec("rows")
        spec.shape = group.outputs[0].shape
        spec.axes = (len(spec.shape) - 1,)
        same = {}           # identical reductions of one row (x.max() written twice) run once
        for r in group.phases:
            acc_in = spec.lower(r.srcs[0], "pro")
            key = (r.arg[0], acc_in, r.dtype)
            if key not in same:
                same[key] = len(spec.phases)
                spec.phases.append((r.arg[0], acc_in, r))
            spec.phase_of[id(r)] = same[key]
        for o in group.outputs:
            spec.add_output(spec.lower(o, "pro"), o, None, "pro")
        return spec
    if group.kind == "elementwise":
        spec = Spec("ew")
        spec.shape = group.outputs[0].shape
        dests = [dest] * len(group.outputs)
        if type(dest) is list:          # one LEAF per output, their memory maybe read by
            dests = dest                # the outputs' inputs
            spec.aliased = True
        for o, d in zip(group.outputs, dests):
            spec.add_output(spec.lower(o, "ew"), o, d)
        return spec
    r = group.reduce
    spec = Spec("reduce")
    rop, axes, keepdims = r.arg
    src = r.srcs[0]
    spec.shape = src.shape
    spec.axes = axes
    spec.out_shape = r.shape
    spec.reduce = (rop, None, r)
    spec.siblings = {id(n): how for n, how in group.siblings}
    acc_in = spec.lower(src, "pro")
    spec.reduce = (rop, acc_in, r)
    for o in group.outputs:     # with `dest`: its one output, stored into dest's memory
        e = spec.lower(o, "epi")
        spec.add_output(e, o, dest, "epi")
    return spec


# ------------------------------------------------------------------ iteration spaces

def collapse(shape, stride_sets, groups=None):
    """Drop size-1 dims and merge adjacent dims contiguous for every stride set.

    `groups` (one id per dim) keeps dims of different groups apart (kept vs reduced).
    Returns (shape, [strides per set], group ids)."""
    dims = [i for i, d in enumerate(shape) if d != 1]
    if any(shape[i] == 0 for i in range(len(shape))):
        dims = list(range(len(shape)))
    cs = [shape[i] for i in dims]
    cst = [[s[i] for i in dims] for s in stride_sets]
    cg = [groups[i] for i in dims] if groups is not None else [0] * len(dims)
    j = len(cs) - 1
    while j > 0:
        i = j - 1
        if cg[i] == cg[j] and all(st[i] == st[j] * cs[j] for st in cst):
            cs[i] *= cs[j]
            for st in cst:
                st[i] = st[j]
            del cs[j]
            for st in cst:
                del st[j]
            del cg[j]
        j -= 1
    return tuple(cs), [tuple(st) for st in cst], tuple(cg)


def vector_aligned(o, v, ptr_of) -> bool:
    """Is operand `o`'s first element aligned for `v`-element (16-byte) vector accesses?"""
    it = o.dtype.itemsize
    return (ptr_of(o) + o.levels[0][2] * it) % (v * it) == 0


def stride_class(s) -> str:
    return "z" if s == 0 else ("1" if s == 1 else "s")


def span(shape, strides) -> int:
    return sum(abs(s) * (d - 1) for d, s in zip(shape, strides) if d > 0)
