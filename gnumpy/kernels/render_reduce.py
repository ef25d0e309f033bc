"""The fused reduction kernel: elementwise prologue, reduction, elementwise epilogue.

The reduced input is viewed as M kept positions x K reduced positions (dims collapsed).
Two strategies:

* ``row`` (reduce_rows): G threads cooperate on one output (G = 1, 32..block), reading the
  reduced positions (contiguous: 16-byte vector loads); warp shuffles then shared memory
  combine.
* ``col`` (reduce_cols): one thread per output, the kept positions contiguous across threads
  (coalesced), each thread walking the reduced axis.

When there are too few outputs to fill the GPU, the reduced axis is split over blocks
(``S`` splits): each block writes a partial accumulator, and the last block to finish
(an atomic counter) combines them in a fixed order and runs the epilogue, so one launch
does the whole reduction, deterministically.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._config import config
from .._graph import layout as L
from . import codegen as C
from .lower import INT32_MAX, collapse, span, stride_class, vector_aligned
from .reduce_ops import Acc
from . import reduce_cols, reduce_rows
from .render_ew import _unravel_helpers
from .launch import COUNTERS, PARTIALS, Ptr, scalar_entries
from .plan import Plan, SpecKey, operand_key, spec_key
from .types import param_decls, store_value


class ReduceKey(NamedTuple):
    """Everything a reduction kernel's source depends on (plan.py)."""
    spec: SpecKey
    strategy: str           # 'row' | 'col'
    nk: int                 # collapsed ranks: kept, reduced, epilogue (output) space
    nr: int
    ne: int
    pro: tuple              # prologue operands: (k, OperandKey, kept classes, reduced classes)
    epi: tuple              # epilogue operands and outputs: (k, OperandKey, classes)
    idx32: bool
    vec: int
    G: int                  # row: threads per output
    split: bool             # the reduced axis split over blocks (partials, last block)
    block: int
    TY: int                 # col: row lanes per block
    hints: str              # load hints of the row strategy's vectors

    @property
    def acc(self) -> Acc:
        rop, _, src_dt, _ = self.spec.reduce
        return Acc(rop, src_dt, with_sum=_with_sum(self.spec))

    def render(self, name: str) -> str:
        return render(self, name)


def _with_sum(spec) -> bool:
    """A sibling sum read off a var0 accumulator (fuse._siblings)."""
    return any(e[0] == "acc" and e[1:] == ("sum",) for e in spec.exprs)


class ReducePlan(Plan):
    """A reduction launch: collapsed kept / reduced / epilogue spaces (sizes and strides),
    the accumulator, splits and grid, and the decisions of `key`."""

    __slots__ = ("strategy", "kshape", "rshape", "pro", "epi", "eshape", "idx32", "vec", "G",
                 "S", "block", "M", "K", "grid", "acc", "chunk", "TY", "hints")

    def template(self) -> list:
        return template(self)

    def fit(self, resident: int, sm_count: int) -> None:
        reduce_cols.fit(self, resident, sm_count)

    def partial_bytes(self) -> int:
        return partial_bytes(self)

    def counters_needed(self) -> int:
        return counters_needed(self)


def _next_pow2(n):
    p = 1
    while p < n:
        p *= 2
    return p


# grid sizing of the row strategy: a split reduction's blocks are about SPLIT_WAVES x the
# resident blocks (two waves end more evenly than one); unsplit rows get at most
# ROW_GRID_WAVES x the resident blocks, striding over the row groups (0: a block per row
# group; the cap measured neutral).  bench/sweep.py --reduce-grid; the numbers are in
# docs/perf-notes.md, "Measurements behind the defaults".
SPLIT_WAVES = 2
ROW_GRID_WAVES = 8


def plan(spec, block, sm_count, bpsm, vector_ok, ptr_of) -> ReducePlan:
    p = ReducePlan()
    p.spec = spec
    p.block = block
    rop, _, rnode = spec.reduce
    src_dt = rnode.srcs[0].dtype
    p.acc = Acc(rop, src_dt, with_sum=_with_sum(spec))
    nd = len(spec.shape)
    kept = [d for d in range(nd) if d not in spec.axes]
    perm = kept + list(spec.axes)
    pshape = tuple(spec.shape[d] for d in perm)
    groups = [0] * len(kept) + [1] * len(spec.axes)
    pro = [(k, o) for k, o in enumerate(spec.operands) if o.space == "pro"]
    cshape, cstr, cg = collapse(pshape, [tuple(o.levels[0][1][d] for d in perm)
                                         for _, o in pro], groups)
    p.kshape = tuple(d for d, g in zip(cshape, cg) if g == 0)
    p.rshape = tuple(d for d, g in zip(cshape, cg) if g == 1)
    p.pro = []
    for (k, o), st in zip(pro, cstr):
        kst = tuple(s for s, g in zip(st, cg) if g == 0)
        rst = tuple(s for s, g in zip(st, cg) if g == 1)
        p.pro.append((k, o, kst, rst, tuple(stride_class(s) for s in kst),
                      tuple(stride_class(s) for s in rst)))
    p.M = L.prod(p.kshape)
    p.K = L.prod(p.rshape)
    epi = [(k, o) for k, o in enumerate(spec.operands) if o.space == "epi"]
    nops = len(spec.operands)
    epi += [(nops + j, o) for j, (_, o) in enumerate(spec.outputs)]
    eshape, estr, _ = collapse(spec.out_shape, [o.levels[0][1] for _, o in epi])
    p.eshape = eshape
    p.epi = [(k, o, st, tuple(stride_class(s) for s in st)) for (k, o), st in zip(epi, estr)]

    big = p.M > INT32_MAX or p.K > INT32_MAX or p.M * max(p.K, 1) > INT32_MAX
    for k, o, kst, rst, _, _ in p.pro:
        if span(p.kshape, kst) + span(p.rshape, rst) > INT32_MAX or len(o.levels) > 1:
            big = True
    for k, o, st, _ in p.epi:
        if span(eshape, st) > INT32_MAX or len(o.levels) > 1:
            big = True
    p.idx32 = not big

    mem = [t for t in p.pro if t[1].kind == "in"]
    row_contig = bool(p.rshape) and all(t[5][-1] in ("1", "z") for t in mem)
    col_ok = bool(p.kshape) and p.K > 1 and all(t[4][-1] in ("1", "z") for t in mem) and \
        all(len(t[1].levels) == 1 for t in p.pro)
    p.strategy = "row" if (row_contig or not p.kshape or not col_ok) else "col"
    if p.strategy == "row" and p.M == 1 and block < 1024:
        # a full reduction: 1024-thread blocks, faster than 256 for sum and var (row sums
        # prefer 256; bench/sweep.py, docs/perf-notes.md)
        bpsm = max(1, bpsm * block // 1024)
        block = p.block = 1024
    target = sm_count * bpsm
    p.vec = 1
    p.TY = 1
    if p.strategy == "row":
        if p.M == 1:
            p.G = block
        elif p.K <= 16 and p.M >= 4 * block:
            p.G = 1
        else:
            p.G = min(block, max(32, _next_pow2(max(1, p.K // 8))))
        rows_per_block = block // p.G
        row_groups = -(-p.M // rows_per_block)
        if vector_ok and len(p.rshape) == 1 and row_contig and p.G > 1 and \
                all(len(t[1].levels) == 1 for t in p.pro):
            unit = [t for t in mem if t[5][-1] == "1"]
            width = max((t[1].dtype.itemsize for t in unit), default=16)
            v = max(1, 16 // width)
            if v > 1 and unit and all(vector_aligned(t[1], v, ptr_of) and
                                      all(s % v == 0 for s in t[2]) for t in unit):
                p.vec = v
        p.S = 1
        if p.G == block and 0 < row_groups < target:
            per_split = block * p.vec * 16
            p.S = max(1, min(-(-target * SPLIT_WAVES // row_groups), p.K // per_split))
        p.chunk = -(-(p.K // p.vec) // p.S) if p.S > 1 else 0
        cap = row_groups if ROW_GRID_WAVES == 0 else min(row_groups, target * ROW_GRID_WAVES)
        p.grid = (p.S, row_groups) if p.S > 1 else (max(1, cap), 1)
    else:
        p.G = 1
        p.vec = reduce_cols.vec_width(p, mem, vector_ok, ptr_of)
        # row lanes: a block is TX column threads (one warp wide or more) x TY lanes
        # walking interleaved rows, so a narrow tile of columns still fills the block and
        # the grid needs few splits of the reduced axis (each split's partials cost a
        # write and a serial read in the last block).  A sum wants long row segments per
        # block (few lanes), var0's longer per-element work wants lanes (bench/sweep.py
        # --columns, docs/perf-notes.md)
        lanes = config.col_lanes or (16 if p.acc.var else 2)
        p.TY = 1
        while p.TY * 2 <= min(block // 32, lanes) and p.TY * 2 * 4 <= p.K:
            p.TY *= 2
        cols = (block // p.TY) * p.vec
        blocks_x = max(1, -(-p.M // cols))     # (no kept position: one block, no work)
        p.S = 1
        if blocks_x < target and p.K >= 64:
            p.S = max(1, min(-(-target // blocks_x), p.K // (32 * p.TY)))
        p.chunk = -(-p.K // p.S)
        p.grid = (blocks_x, p.S)
    # config.reduce_mem_hints: the row strategy's vector loads (contiguous reduced axis)
    p.hints = config.reduce_mem_hints if p.vec > 1 and p.strategy == "row" else ""
    p.key = ReduceKey(
        spec=spec_key(spec), strategy=p.strategy, nk=len(p.kshape), nr=len(p.rshape),
        ne=len(eshape), pro=tuple((k, operand_key(o), kc, rc) for k, o, _, _, kc, rc in p.pro),
        epi=tuple((k, operand_key(o), cls) for k, o, _, cls in p.epi), idx32=p.idx32,
        vec=p.vec, G=p.G, split=p.S > 1, block=block, TY=p.TY, hints=p.hints)
    return p


def fit(p: ReducePlan, resident: int, sm_count: int) -> None:
    p.fit(resident, sm_count)


def template(p: ReducePlan) -> list:
    """Kernel arguments in declaration order, as a replayable template."""
    spec = p.spec
    it = np.int32 if p.idx32 else np.int64
    out = []
    for k, o in enumerate(spec.operands):
        if o.kind == "in":
            off = o.levels[0][2] if len(o.levels) == 1 else 0
            out.append(Ptr(o, off * o.dtype.itemsize))
    for _, o in spec.outputs:
        out.append(Ptr(o, o.levels[0][2] * o.dtype.itemsize))
    out.extend(scalar_entries(spec))
    out.extend([it(p.M), it(p.K)])
    out.extend(it(d) for d in p.kshape[1:])
    out.extend(it(d) for d in p.rshape[1:])
    out.extend(it(d) for d in p.eshape[1:])
    for k, o, kst, rst, kc, rc in p.pro:
        if o.kind == "iota" or len(o.levels) > 1:
            out.append(np.int64(o.levels[0][2]))
        out.extend(it(s) for s, c in zip(kst, kc) if c == "s")
        out.extend(it(s) for s, c in zip(rst, rc) if c == "s")
        C.level_args(o, out)
    for k, o, st, cls in p.epi:
        if o.kind == "iota" or len(o.levels) > 1:
            out.append(np.int64(o.levels[0][2]))
        out.extend(it(s) for s, c in zip(st, cls) if c == "s")
        C.level_args(o, out)
    if p.S > 1:
        out.extend([PARTIALS, COUNTERS, it(p.chunk)])
    return out


def args(p: ReducePlan, ptr_of, partials_ptr=0, counters_ptr=0) -> list:
    return p.args(ptr_of, partials_ptr, counters_ptr)


def partial_bytes(p: ReducePlan) -> int:
    # each component's array starts 16-byte aligned (a long long after an odd number of
    # floats was a misaligned store)
    return sum(-(-_csize(t) * p.S * p.M // 16) * 16 for t, _ in p.acc.comps)


_CSIZE = {"bool": 1, "signed char": 1, "unsigned char": 1, "short": 2, "unsigned short": 2,
          "int": 4, "unsigned int": 4, "float": 4, "long long": 8, "unsigned long long": 8,
          "double": 8}


def _csize(ctype):
    return _CSIZE[ctype]


def counters_needed(p: ReducePlan) -> int:
    if p.S == 1:
        return 0
    return p.M if p.strategy == "row" else p.grid[0]


# ------------------------------------------------------------------ source

def source(p: ReducePlan, name: str) -> str:
    return p.source(name)


def render(p: ReduceKey, name: str) -> str:
    """The kernel's source, from its key alone."""
    spec = p.spec
    acc = p.acc
    IDX = "int" if p.idx32 else "long long"
    B = p.block
    decls = []
    for k, o in enumerate(spec.operands):
        if o.kind == "in":
            decls.append(C.ptr_decl(o, k, False))
    nops = len(spec.operands)
    for j, (_, o) in enumerate(spec.outputs):
        decls.append(C.ptr_decl(o, nops + j, True))
    for k, dt in enumerate(spec.scalar_dtypes):
        decls.extend(param_decls(dt, f"s{k}"))
    decls += [f"{IDX} M", f"{IDX} K"]
    decls += [f"{IDX} kd{d}" for d in range(1, p.nk)]
    decls += [f"{IDX} rd{d}" for d in range(1, p.nr)]
    decls += [f"{IDX} ed{d}" for d in range(1, p.ne)]
    for k, o, kc, rc in p.pro:
        if o.kind == "iota" or o.ranks:
            decls.append(f"long long off{k}")
        decls += [f"{IDX} ks{k}_{d}" for d, c in enumerate(kc) if c == "s"]
        decls += [f"{IDX} rs{k}_{d}" for d, c in enumerate(rc) if c == "s"]
        decls += C.level_decls(k, o)
    for k, o, cls in p.epi:
        if o.kind == "iota" or o.ranks:
            decls.append(f"long long off{k}")
        decls += [f"{IDX} es{k}_{d}" for d, c in enumerate(cls) if c == "s"]
        decls += C.level_decls(k, o)
    split = p.split
    if split:
        decls += ["char* __restrict__ gn_part", "unsigned int* __restrict__ gn_ctr",
                  f"{IDX} chunk"]

    ops = list(spec.operands) + [o for _, o in spec.outputs]
    pro_by_k = {t[0]: t for t in p.pro}
    epi_by_k = {t[0]: t for t in p.epi}

    def unravel(var, dims_prefix, n, out_prefix):
        return C.unravel_lines(var, dims_prefix, n, out_prefix, IDX, f"{out_prefix}r_")

    nk, nr, ne = p.nk, p.nr, p.ne
    kidx = [f"mi{d}" for d in range(nk)]
    ridx = [f"ri{d}" for d in range(nr)]
    eidx = [f"ei{d}" for d in range(ne)]

    def pro_base(k):
        t = pro_by_k[k]
        return C.offset_expr(t[2], [f"ks{k}_{d}" for d in range(nk)], kidx)

    def pro_red(k):
        t = pro_by_k[k]
        return C.offset_expr(t[3], [f"rs{k}_{d}" for d in range(nr)], ridx)

    def pro_offset(k):
        o = ops[k]
        lin = f"(b{k} + {pro_red(k)})"
        if o.kind == "iota":
            return lin
        return lin if not o.ranks else f"gn_unravel{k}((long long){lin} + off{k})"

    def iota_val(k, lin):
        o = ops[k]
        v = f"((long long)({lin}) + off{k})"
        return v if not o.ranks else f"gn_unravel{k}({v})"

    rop, acc_e, _, out_dt = spec.reduce
    # ---- prologue (value at (m, kk))
    lines_s, names_s = C.body(spec, [acc_e], lambda k: C.load_op(ops[k], f"p{k}",
                                                                 pro_offset(k)),
                              lambda k: iota_val(k, f"b{k} + {pro_red(k)}"), prefix="a")
    pro_vals = "\n".join(lines_s) + f"\nacc = {acc.push('acc', names_s[acc_e], 'kk')};"
    # ---- epilogue (at output position m, accumulator fin)
    epi_roots = [e for e, _ in spec.outputs]

    def epi_off(k):
        t = epi_by_k[k]
        base = C.offset_expr(t[2], [f"es{k}_{d}" for d in range(ne)], eidx)
        return base if not ops[k].ranks else f"gn_unravel{k}((long long)({base}) + off{k})"

    lines_e, names_e = C.body(spec, epi_roots, lambda k: C.load_op(ops[k], f"p{k}", epi_off(k)),
                              lambda k: iota_val(k, C.offset_expr(
                                  epi_by_k[k][2], [f"es{k}_{d}" for d in range(ne)], eidx)),
                              acc_expr=_acc_values(acc, out_dt), prefix="e")
    stores = []
    for j, (e, o) in enumerate(spec.outputs):
        k = nops + j
        stores.append(f"q{k}[{epi_off(k)}] = {store_value(o.dtype, names_e[e])};")
    epilogue = "\n".join(unravel("m_", "ed", ne, "ei") + lines_e + stores)
    epi_macro = "#define GN_EPILOGUE(m_, fin) do { \\\n" + \
        " \\\n".join("  " + ln for ln in epilogue.splitlines()) + " \\\n} while (0)"

    bases = []
    for k, o, *_ in p.pro:
        bases.append(f"const {IDX} b{k} = {pro_base(k)};")
    kept_block = "\n".join(unravel("m", "kd", nk, "mi") + bases)
    red_unravel = "\n".join(unravel("kk", "rd", nr, "ri"))

    src = [C.preamble(spec, p.hints), acc.decl(), acc.helpers(), _shfl(acc)]
    src += _unravel_helpers(ops)
    src.append(epi_macro)
    # var0 down columns: ask for two resident blocks (at most 64 registers with 512
    # threads); left to itself, with a sibling sum, it takes more and runs one block per SM
    bounds = f"{B}, {max(1, 1024 // B)}" if p.strategy == "col" and acc.var and B <= 512 \
        else f"{B}"
    src.append(f'extern "C" __global__ void __launch_bounds__({bounds}) {name}('
               + ", ".join(decls) + ") {")
    if p.strategy == "row":
        src.append(reduce_rows.body(p, IDX, kept_block, red_unravel, pro_vals, lines_s,
                                    names_s, acc_e, ops, split))
    elif p.vec > 1:
        src.append(reduce_cols.vec_body(p, IDX, kept_block, red_unravel, acc_e, ops, pro_red,
                                        split))
    else:
        src.append(reduce_cols.body(p, IDX, kept_block, red_unravel, lines_s, names_s, acc_e,
                                    split))
    src.append("}")
    return "\n".join(src)


def _acc_values(acc: Acc, out_dt) -> dict:
    """The epilogue's accumulator readings: the reduction's value, and with a sibling sum
    (fuse._siblings) the sum kept beside a var0."""
    vals = {(): acc.final("fin", out_dt)}
    if acc.with_sum:
        vals[("sum",)] = acc.derived_sum("fin")
    return vals


def _shfl(acc: Acc) -> str:
    """gn_shfl: shuffle an accumulator across lanes (component by component)."""
    lines = ["__device__ __forceinline__ gn_acc_t gn_shfl(gn_acc_t a, int m) {",
             "  gn_acc_t r = a;"]
    for ctype, comp in acc.comps:
        if ctype == "bool":
            lines.append(f"  r.{comp} = (bool)__shfl_xor_sync(0xffffffffu, (int)a.{comp}, m);")
        elif ctype in ("signed char", "short", "unsigned char", "unsigned short"):
            lines.append(f"  r.{comp} = ({ctype})__shfl_xor_sync(0xffffffffu, (int)a.{comp}, m);")
        else:
            lines.append(f"  r.{comp} = __shfl_xor_sync(0xffffffffu, a.{comp}, m);")
    lines += ["  return r;", "}"]
    return "\n".join(lines)
