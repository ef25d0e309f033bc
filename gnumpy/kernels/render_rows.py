"""The row-group kernel (scheduler: ``_graph/rows.py``): reductions along the last axis and
the elementwise outputs that read them back across the row, one block per row.

The iteration space is M rows x K positions (the kept dims collapsed into M).  For each
row, each phase walks the row (16-byte vector loads where the data allows), reduces it
across the block (warp shuffles, then shared memory; every thread ends with the total, so
it is the same value everywhere) and keeps its final value in a register; the last pass
computes and stores the outputs.  Later passes re-read the row, from L2 while the row is
still there.  Each phase's accumulator lives in a namespace of its own (``gn_ph<j>``),
so max and sum (or mean and variance) phases can share a kernel.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import _dtypes as D
from .._config import config
from .._graph import layout as L
from . import codegen as C
from .launch import Ptr, scalar_entries
from .plan import Plan, SpecKey, operand_key, spec_key
from .lower import INT32_MAX, collapse, span, stride_class, vector_aligned
from .reduce_ops import Acc, inf_literal
from .render_ew import _unravel_helpers
from .render_reduce import _next_pow2, _shfl
from .types import COMPUTE, STORAGE, param_decls, store_value
from .types import load as ld


class RowsKey(NamedTuple):
    """Everything a row-group kernel's source depends on (plan.py)."""
    spec: SpecKey
    nk: int                 # collapsed rank of the kept (row) space
    ops: tuple              # every operand and output: (k, OperandKey, kept classes,
    #                         the row's stride class)
    idx32: bool
    vec: int
    block: int
    G: int                  # threads per row
    R: int                  # vectors per thread kept in registers (0: none)
    cached: tuple           # the operands kept in registers
    online: tuple           # phases j run with j + 1 as one online pass

    @property
    def accs(self) -> list:
        """Each phase's accumulator (None: computed by the previous phase's online pass)."""
        accs = [Acc(rop, src_dt) for rop, _, src_dt, _ in self.spec.phases]
        for j in self.online:
            accs[j:j + 2] = [_OnlineAcc(self.spec.phases[j][3]), None]
        return accs

    def render(self, name: str) -> str:
        return render(self, name)


class RowsPlan(Plan):
    """A row-group launch: M rows of K, the operands' strides, and the decisions of `key`."""

    __slots__ = ("kshape", "K", "M", "ops", "idx32", "vec", "block", "grid", "S", "R",
                 "cached", "online", "G")

    def template(self) -> list:
        return template(self)


VECTORS_PER_THREAD = 8  # a row's vectors per thread and pass, which sizes the block: 8 gives
#                         smaller blocks, more rows per SM; faster than 4 with the register
#                         cache (bench/sweep.py --rows, docs/perf-notes.md)
WARP_ROW_BLOCK = 256    # the block of one-warp rows (8 rows)
MAX_CACHE_REGS = 32     # 32-bit registers per thread a row cache may take (1024-thread
#                         blocks have 64 in all)


def plan(spec, sm_count, bpsm, vector_ok, ptr_of) -> RowsPlan:
    p = RowsPlan()
    p.spec = spec
    p.S = 1
    nd = len(spec.shape)
    groups = [0] * (nd - 1) + [1]
    ops = list(spec.operands) + [o for _, o in spec.outputs]
    cshape, cstr, cg = collapse(spec.shape, [o.levels[0][1] for o in ops], groups)
    p.kshape = tuple(d for d, g in zip(cshape, cg) if g == 0)
    rdims = [d for d, g in zip(cshape, cg) if g == 1]
    p.K = rdims[0] if rdims else 1
    p.M = L.prod(p.kshape)
    p.ops = []
    for k, (o, st) in enumerate(zip(ops, cstr)):
        kst = tuple(s for s, g in zip(st, cg) if g == 0)
        rst = ([s for s, g in zip(st, cg) if g == 1] or [0])[0]
        p.ops.append((k, o, kst, rst, tuple(stride_class(s) for s in kst), stride_class(rst)))
    big = p.M * p.K > INT32_MAX or any(
        span(p.kshape + (p.K,), kst + (rst,)) > INT32_MAX or len(o.levels) > 1
        for _, o, kst, rst, _, _ in p.ops)
    p.idx32 = not big
    p.vec = _vec(p, vector_ok, ptr_of)
    # G threads per row; rows short enough for one warp run WARP_ROW_BLOCK / 32 to a block
    # (a 32-thread block per row would be held to 32 blocks, half the threads, per SM)
    p.G = min(1024, max(32, _next_pow2(-(-p.K // (p.vec * VECTORS_PER_THREAD)))))
    p.block = WARP_ROW_BLOCK if p.G == 32 else p.G
    blocks = -(-p.M // (p.block // p.G))
    p.grid = (max(1, blocks), 1)
    # the row in registers: each thread keeps its R vectors of every contiguous input from
    # the first pass, so later phases and the output pass read no memory (R is part of the
    # kernel, so rows of one length class share it)
    p.R, p.cached = 0, ()
    if config.row_registers:
        cached = tuple(k for k, o, kst, rst, kc, rc in p.ops
                       if o.kind == "in" and rc == "1" and len(o.levels) == 1)
        R = -(-(p.K // p.vec) // p.G)
        regs = sum(R * p.vec * max(4, ops[k].dtype.itemsize) // 4 for k in cached)
        if cached and R <= 8 and regs <= MAX_CACHE_REGS:
            p.R, p.cached = R, cached
    # softmax's max and exp-sum as one pass, when the row is re-read from L2: with the row
    # in registers the separate passes measured faster (bench/sweep.py --rows,
    # docs/perf-notes.md)
    p.online = _online_pairs(spec) if config.row_online and not p.cached else ()
    p.key = RowsKey(
        spec=spec_key(spec), nk=len(p.kshape),
        ops=tuple((k, operand_key(o), kc, rc) for k, o, _, _, kc, rc in p.ops), idx32=p.idx32,
        vec=p.vec, block=p.block, G=p.G, R=p.R, cached=p.cached, online=p.online)
    return p


def _online_pairs(spec) -> tuple:
    """Phases j where phase j is the max of a float expression e and phase j + 1 the sum of
    exp(e - ph_j) (softmax, log-softmax): the two run as one online pass (gn_mxs)."""
    out, ph, X, T = [], spec.phases, spec.exprs, spec.dtypes
    j = 0
    while j + 1 < len(ph):
        (r0, e0, n0), (r1, e1, n1) = ph[j], ph[j + 1]
        dt = n0.dtype
        ok = (r0 == "max" and r1 == "sum" and dt in (D.float32, D.float64)
              and T[e0] == dt and n1.dtype == dt and T[e1] == dt)
        if ok:
            ex = X[e1]
            ok = ex[0] == "op" and ex[1] == "exp" and ex[2] == dt and len(ex[4]) == 1
            if ok:
                sub = X[ex[4][0]]
                ok = (sub[0] == "op" and sub[1] == "subtract" and sub[2] == dt
                      and T[ex[4][0]] == dt and len(sub[4]) == 2 and sub[4][0] == e0
                      and X[sub[4][1]] == ("ph", j))
        if ok:
            out.append(j)
        j += 2 if ok else 1
    return tuple(out)


class _OnlineAcc:
    """Acc's interface for an online (max, sum of exp(x - max)) pair: gn_math.cuh's gn_mxs."""

    def __init__(self, dt):
        self.ct = COMPUTE[dt]
        self.comps = [(self.ct, "m"), (self.ct, "s")]

    def decl(self) -> str:
        return f"typedef gn_mxs<{self.ct}> gn_acc_t;"

    def helpers(self) -> str:
        return ""

    def identity(self) -> str:
        return f"gn_acc_t{{{inf_literal(self.ct, True)}, ({self.ct})0}}"

    def combine(self, a, b) -> str:
        return f"gn_mxs_comb({a}, {b})"

    def push(self, acc, value, index) -> str:
        return f"gn_mxs_push({acc}, ({self.ct})({value}))"


def _vec(p, vector_ok, ptr_of) -> int:
    """Elements per 16-byte vector along the row, when every unit-stride operand allows."""
    if not vector_ok or any(o.kind == "iota" or len(o.levels) > 1 for _, o, *_ in p.ops):
        return 1
    unit = [t for t in p.ops if t[5] == "1"]
    if not unit:
        return 1
    v = 16 // max(t[1].dtype.itemsize for t in unit)
    if v < 2 or p.K % v:
        return 1
    for k, o, kst, rst, kc, rc in unit:
        if any(s % v for s in kst) or (o.kind == "in" and not vector_aligned(o, v, ptr_of)):
            return 1
    return v


def template(p: RowsPlan) -> list:
    spec = p.spec
    it = np.int32 if p.idx32 else np.int64
    out = []
    for o in spec.operands:
        if o.kind == "in":
            out.append(Ptr(o, (o.levels[0][2] if len(o.levels) == 1 else 0) * o.dtype.itemsize))
    for _, o in spec.outputs:
        out.append(Ptr(o, o.levels[0][2] * o.dtype.itemsize))
    out.extend(scalar_entries(spec))
    out.extend([it(p.M), it(p.K)])
    out.extend(it(d) for d in p.kshape[1:])
    for k, o, kst, rst, kc, rc in p.ops:
        if o.kind == "iota" or len(o.levels) > 1:
            out.append(np.int64(o.levels[0][2]))
        out.extend(it(s) for s, c in zip(kst, kc) if c == "s")
        if rc == "s":
            out.append(it(rst))
        C.level_args(o, out)
    return out


def args(p: RowsPlan, ptr_of, partials_ptr=0, counters_ptr=0) -> list:
    return p.args(ptr_of)


def _phase_ns(j, acc: Acc, block: int) -> str:
    """Namespace gn_ph<j>: phase j's accumulator, its combine and the row's total (`block`:
    the threads of a row; 32: the warp's shuffles alone)."""
    nw = block // 32
    lines = [f"namespace gn_ph{j} {{", acc.decl(), acc.helpers(), _shfl(acc),
             f"__device__ __forceinline__ gn_acc_t ident() {{ return {acc.identity()}; }}",
             "__device__ __forceinline__ gn_acc_t comb(gn_acc_t a, gn_acc_t b) "
             f"{{ return {acc.combine('a', 'b')}; }}",
             "template <class V> __device__ __forceinline__ gn_acc_t push(gn_acc_t a, V x, "
             f"long long i) {{ return {acc.push('a', 'x', 'i')}; }}"]
    if nw == 1:                 # a warp per row: every lane ends with the total, no barrier
        lines += ["// the warp's total in every lane",
                  "__device__ __forceinline__ gn_acc_t all(gn_acc_t a) {"]
    else:
        lines += ["// the block's total in every thread (shared memory read in one fixed order)",
                  "__device__ __forceinline__ gn_acc_t all(gn_acc_t a) {",
                  f"  __shared__ gn_acc_t sm[{nw}];"]
    lines += [f"  a = comb(a, gn_shfl(a, {m}));" for m in (16, 8, 4, 2, 1)]
    if nw > 1:
        lines += ["  if ((threadIdx.x & 31) == 0) sm[threadIdx.x >> 5] = a;",
                  "  __syncthreads();",
                  "  a = sm[0];",
                  f"  for (int w = 1; w < {nw}; ++w) a = comb(a, sm[w]);",
                  "  __syncthreads();"]
    lines += ["  return a;", "}", "}"]
    return "\n".join(lines)


def source(p: RowsPlan, name: str) -> str:
    return p.source(name)


def render(p: RowsKey, name: str) -> str:
    """The kernel's source, from its key alone."""
    spec = p.spec
    IDX = "int" if p.idx32 else "long long"
    B, V, G = p.block, p.vec, p.G
    T = "threadIdx.x" if G == B else f"(threadIdx.x & {G - 1})"     # the thread in its row
    nops = len(spec.operands)
    ops = list(spec.operands) + [o for _, o in spec.outputs]
    decls = [C.ptr_decl(o, k, False) for k, o in enumerate(spec.operands) if o.kind == "in"]
    decls += [C.ptr_decl(o, nops + j, True) for j, (_, o) in enumerate(spec.outputs)]
    for k, dt in enumerate(spec.scalar_dtypes):
        decls.extend(param_decls(dt, f"s{k}"))
    decls += [f"{IDX} M", f"{IDX} K"]
    nk = p.nk
    decls += [f"{IDX} kd{d}" for d in range(1, nk)]
    by_k = {t[0]: t for t in p.ops}
    for k, o, kc, rc in p.ops:
        if o.kind == "iota" or o.ranks:
            decls.append(f"long long off{k}")
        decls += [f"{IDX} ks{k}_{d}" for d, c in enumerate(kc) if c == "s"]
        if rc == "s":
            decls.append(f"{IDX} rs{k}")
        decls += C.level_decls(k, o)
    kidx = [f"mi{d}" for d in range(nk)]

    def lin(k):                 # operand k's linear offset at row position kk
        rc = by_k[k][3]
        step = {"z": "", "1": " + kk", "s": f" + kk * rs{k}"}[rc]
        return f"(b{k}{step})"

    R, cached = p.R, set(p.cached)

    def load(k):
        o = ops[k]
        if k in cached:
            return ld(o.dtype, f"cv{k}[r].v", "e")
        if by_k[k][3] == "1" and V > 1:
            return ld(o.dtype, f"vv{k}.v", "e")
        pos = lin(k) if not o.ranks else f"gn_unravel{k}((long long){lin(k)} + off{k})"
        return ld(o.dtype, f"p{k}", pos)

    def iota(k):
        v = f"((long long){lin(k)} + off{k})"
        return v if not ops[k].ranks else f"gn_unravel{k}({v})"

    def sweep(roots, prefix, tail):
        """A loop over the row computing `roots`, then `tail(names)` per position."""
        lines, names = C.body(spec, roots, load, iota, prefix=prefix)
        used = sorted({spec.exprs[i][1] for i in C.needed(spec, roots)
                       if spec.exprs[i][0] == "ld"})
        vl = []
        if V > 1:
            for k in used:
                if by_k[k][3] == "1" and k not in cached:
                    t = STORAGE[ops[k].dtype]
                    vl.append(f"const gn_vec<{t}, {V}> vv{k} = reinterpret_cast<const "
                              f"gn_vec<{t}, {V}>*>(p{k} + b{k})[kv];")
        pre, inner, post = tail(names)
        body = [C.indent("\n".join(vl + pre), 2),
                f"  #pragma unroll\n  for (int e = 0; e < {V}; ++e) {{",
                f"    const {IDX} kk = kv * {V} + e;",
                C.indent("\n".join(lines + inner), 4),
                "  }",
                C.indent("\n".join(post), 2)]
        if R:
            return "\n".join([f"#pragma unroll\nfor (int r = 0; r < {R}; ++r) {{",
                              f"  const {IDX} kv = {T} + r * {G};",
                              f"  if (kv < K / {V}) {{", C.indent("\n".join(body), 2),
                              "  }", "}"])
        return "\n".join([
            f"#pragma unroll 4\nfor ({IDX} kv = {T}; kv < K / {V}; kv += {G}) {{"]
            + body + ["}"])

    row = C.unravel_lines("m", "kd", nk, "mi", IDX, "mr_")
    row += [f"const {IDX} b{k} = {C.offset_expr(kc, [f'ks{k}_{d}' for d in range(nk)], kidx)};"
            for k, o, kc, rc in p.ops]
    for k in p.cached:
        t = STORAGE[ops[k].dtype]
        row += [f"gn_vec<{t}, {V}> cv{k}[{R}];",
                f"#pragma unroll\nfor (int r = 0; r < {R}; ++r) {{",
                f"  const {IDX} kv = {T} + r * {G};",
                f"  if (kv < K / {V}) cv{k}[r] = reinterpret_cast<const gn_vec<{t}, {V}>*>"
                f"(p{k} + b{k})[kv];", "}"]
    accs = p.accs
    for j, ((rop, acc_e, _, out_dt), acc) in enumerate(zip(spec.phases, accs)):
        if acc is None:                 # phase j - 1's online pass computed it
            continue
        row.append(f"gn_ph{j}::gn_acc_t acc{j} = gn_ph{j}::ident();")
        if j in p.online:               # a thread's vector at once: its exps independent
            ct = COMPUTE[out_dt]
            row.append(sweep([acc_e], f"a{j}_", lambda names, j=j, acc_e=acc_e, ct=ct: (
                [f"{ct} xs{j}[{V}];"], [f"xs{j}[e] = {names[acc_e]};"],
                [f"acc{j} = gn_mxs_push_n(acc{j}, xs{j});"])))
        else:
            row.append(sweep([acc_e], f"a{j}_", lambda names, j=j, acc_e=acc_e: (
                [], [f"acc{j} = gn_ph{j}::push(acc{j}, {names[acc_e]}, kk);"], [])))
        row.append(f"acc{j} = gn_ph{j}::all(acc{j});")
        if j in p.online:
            ct = COMPUTE[out_dt]
            row.append(f"const {ct} ph{j} = acc{j}.m;")
            row.append(f"const {ct} ph{j + 1} = gn_mxs_sum(acc{j});")
            continue
        row.append(f"const {COMPUTE[out_dt]} ph{j} = {acc.final(f'acc{j}', out_dt)};")

    def stores(names):
        pre, inner, post = [], [], []
        for j, (e, o) in enumerate(spec.outputs):
            k = nops + j
            val = store_value(o.dtype, names[e])
            if V > 1:
                t = STORAGE[o.dtype]
                pre.append(f"gn_vec<{t}, {V}> ov{k};")
                inner.append(f"ov{k}.v[e] = {val};")
                post.append(f"reinterpret_cast<gn_vec<{t}, {V}>*>(q{k} + b{k})[kv] = ov{k};")
            else:
                inner.append(f"q{k}[{lin(k)}] = {val};")
        return pre, inner, post
    row.append(sweep([e for e, _ in spec.outputs], "o", stores))
    src = [C.preamble(spec)]
    src += [_phase_ns(j, acc, G) for j, acc in enumerate(accs) if acc is not None]
    src += _unravel_helpers(ops)
    src.append(f'extern "C" __global__ void __launch_bounds__({B}) {name}('
               + ", ".join(decls) + ") {")
    if G == B:
        src.append(f"  for ({IDX} m = blockIdx.x; m < M; m += gridDim.x) {{")
    else:                       # B / G rows per block, a warp each (no block barrier)
        src.append(f"  for ({IDX} m = blockIdx.x * {B // G} + threadIdx.x / {G}; m < M; "
                   f"m += gridDim.x * {B // G}) {{")
    src.append(C.indent("\n".join(row), 4))
    src.append("  }")
    src.append("}")
    return "\n".join(src)
