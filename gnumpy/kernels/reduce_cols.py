"""The column strategy of the fused reduction kernel (render_reduce): threads across the
contiguous kept columns (16-byte vectors of V columns when every operand allows), TY row
lanes per block walking interleaved rows, a fixed-order tree across the lanes, and, when
the reduced axis is split over blocks, a last block that combines the splits' partials.
The split count comes from the grid, so ``fit`` can size it once the kernel is compiled.
"""
from __future__ import annotations

from . import codegen as C
from .lower import vector_aligned
from .reduce_ops import part_io
from .types import COMPUTE, STORAGE
from .types import load as ld


def vec_width(p, mem, vector_ok, ptr_of) -> int:
    """Columns per thread of the col strategy: 16-byte vector loads across the kept
    (contiguous) axis when every operand allows it, else 1."""
    if not vector_ok or not mem or any(t[1].kind == "iota" or len(t[1].levels) > 1
                                       for t in p.pro):
        return 1
    unit = [t for t in mem if t[4][-1] == "1"]
    if not unit:
        return 1
    width = max(t[1].dtype.itemsize for t in unit)
    v = 16 // width
    if v < 2 or p.kshape[-1] % v:
        return 1
    for k, o, kst, rst, kc, rc in unit:
        if not vector_aligned(o, v, ptr_of) or any(s % v for s in kst[:-1] + rst):
            return 1
    for k, o, kst, rst, kc, rc in mem:      # broadcast-across-columns operands
        if kc[-1] == "z" and any(s % v for s in kst[:-1]):
            return 1
    return v


def fit(p, resident: int, sm_count: int) -> None:
    """Resize a split column reduction to the blocks the compiled kernel keeps resident
    per multiprocessor (its registers decide): one full wave instead of a wave and a
    fraction (a kernel of 64 registers keeps 2 blocks of 512 per SM, and a grid sized for
    more ends in a partial wave).  The kernel reads the split count from the grid; a split kernel
    keeps at least 2 splits (it writes partials)."""
    if p.strategy != "col" or p.S < 2 or resident < 1:
        return
    blocks_x = p.grid[0]
    S = max(2, min((sm_count * resident) // blocks_x, p.K // (32 * p.TY)))
    p.S = S
    p.chunk = -(-p.K // S)
    p.grid = (blocks_x, S)


def _col_head(p, IDX, split):
    """The col strategy's thread position: TX column threads x TY row lanes per block;
    lane ty walks rows ty, ty + TY, ... of the block's chunk."""
    TX, TY = p.block // p.TY, p.TY
    out = [f"  const int tx = threadIdx.x % {TX}, ty = threadIdx.x / {TX};",
           f"  const {IDX} m = (({IDX})blockIdx.x * {TX} + tx) * {p.vec};",
           f"  gn_acc_t acc[{p.vec}];",
           f"  #pragma unroll\n  for (int e = 0; e < {p.vec}; ++e) acc[e] = {p.acc.identity()};"]
    if split:
        out += ["  __shared__ bool gn_last;", f"  const {IDX} gn_total = M * (long long)gridDim.y;"]
    lo = "blockIdx.y * chunk" if split else "0"
    hi = "min(K, blockIdx.y * chunk + chunk)" if split else "K"
    loop = f"for ({IDX} kk = {lo} + ty; kk < {hi}; kk += {TY})"
    return out, loop


def _lane_tree(acc, var, TY) -> list:
    """Combine `var` over the TY row lanes of each column thread through shared memory
    (``gn_cs``), in a fixed tree order; every lane ends with the total."""
    return ["    gn_cs[ty][tx] = " + var + ";",
            "    __syncthreads();",
            f"    for (int h = {TY // 2}; h > 0; h >>= 1) {{",
            f"      if (ty < h) gn_cs[ty][tx] = {acc.combine('gn_cs[ty][tx]', 'gn_cs[ty + h][tx]')};",
            "      __syncthreads();",
            "    }",
            f"    {var} = gn_cs[0][tx];",
            "    __syncthreads();"]


def _col_tail(p, IDX, split):
    """Combine the TY row lanes' accumulators (a tree through shared memory, in a fixed
    order), then the epilogue, or the split's partials and the last block's combine."""
    acc, V, TY = p.acc, p.vec, p.TY
    TX = p.block // TY
    out = []
    if acc.settle_needed:
        out.append(f"  #pragma unroll\n  for (int e = 0; e < {V}; ++e) acc[e] = gn_settle(acc[e]);")
    if TY > 1:
        out += [f"  __shared__ gn_acc_t gn_cs[{TY}][{TX}];",
                f"  #pragma unroll 1\n  for (int e = 0; e < {V}; ++e) {{"]
        out += _lane_tree(acc, "acc[e]", TY) + ["  }"]
    if not split:
        out.append(f"  if (ty == 0 && m < M) {{\n    #pragma unroll\n    for (int e = 0; e < {V}; ++e) "
                   f"if (m + e < M) GN_EPILOGUE(m + e, acc[e]);\n  }}")
        return out
    out += [
        "  if (ty == 0 && m < M) {",
        f"    for (int e = 0; e < {V}; ++e)",
        C.indent(part_io(acc, "blockIdx.y * M + m + e", True, "acc[e]"), 6),
        "  }",
        "  __threadfence();",
        "  __syncthreads();",
        "  if (threadIdx.x == 0) gn_last = atomicAdd(&gn_ctr[blockIdx.x], 1u) == gridDim.y - 1u;",
        "  __syncthreads();",
        "  if (!gn_last) return;",
        "  __threadfence();",
        # the last block: lane ty combines splits ty, ty + TY, ..., then the lanes' results
        # combine as above (a fixed order), so no thread reads every split serially
        f"  #pragma unroll 1\n  for (int e = 0; e < {V}; ++e) {{",
        f"    gn_acc_t a_ = {acc.identity()};",
        "    if (m < M) {",
        f"      for (int s = ty; s < gridDim.y; s += {TY}) {{",
        f"        gn_acc_t part_ = {acc.identity()};",
        C.indent(part_io(acc, "s * M + m + e", False, "part_"), 8),
        f"        a_ = {acc.combine('a_', 'part_')};",
        "      }",
        "    }",
    ]
    if TY > 1:
        out += _lane_tree(acc, "a_", TY)
    out += [
        "    if (ty == 0 && m < M) GN_EPILOGUE(m + e, a_);",
        "  }",
        "  if (threadIdx.x == 0) gn_ctr[blockIdx.x] = 0u;",
    ]
    return out


def body(p, IDX, kept_block, red_unravel, lines_s, names_s, acc_e, split):
    """The col strategy, one column per thread (any operand layout)."""
    out, loop = _col_head(p, IDX, split)
    out.append("  if (m < M) {")
    out.append(C.indent(kept_block, 4))
    if p.acc.var:
        out.append(C.indent(_var_loop(p, IDX, red_unravel, "\n".join(lines_s),
                                     names_s[acc_e], False, split), 4))
    else:
        push = f"acc[0] = {p.acc.push('acc[0]', names_s[acc_e], 'kk')};"
        out.append(f"    #pragma unroll 4\n    {loop} {{")
        out.append(C.indent(red_unravel + "\n" + "\n".join(lines_s) + "\n" + push, 6))
        out.append("    }")
    out.append("  }")
    return "\n".join(out + _col_tail(p, IDX, split))


def _var_loop(p, IDX, step_lines, value_lines, value, vec, split):
    """var0 down a lane's rows without the push's select and count: the shift k is the
    lane's first value (peeled), the count is the number of rows.  Per row: d = x - k in
    the value's type (exact for x near k, else one rounding, as NumPy's two-pass x - mean),
    then s += d, q += d * d in double; a sibling sum adds x in the value's type."""
    V, TY = p.vec, p.TY
    T = "double" if p.acc.dt.kind != "f" else COMPUTE[p.acc.dt]
    lo = "blockIdx.y * chunk" if split else "0"
    hi = "min(K, blockIdx.y * chunk + chunk)" if split else "K"
    per_e = value_lines + "\n"
    if vec:
        each = lambda body: (f"#pragma unroll\nfor (int e = 0; e < {V}; ++e) {{\n"
                             + C.indent(per_e + body, 2) + "\n}")
    else:
        each = lambda body: "{ const int e = 0;\n" + C.indent(per_e + body, 2) + "\n}"
    t = p.acc.with_sum
    return "\n".join([
        f"const {IDX} k0_ = {lo} + ty, hi_ = {hi};",
        f"{T} kd_[{V}]{f', t_[{V}]' if t else ''};",
        f"double s_[{V}], q_[{V}];",
        f"#pragma unroll\nfor (int e = 0; e < {V}; ++e) {{ kd_[e] = 0; s_[e] = 0.0; q_[e] = 0.0;"
        + (" t_[e] = 0;" if t else "") + " }",
        "if (k0_ < hi_) {",
        f"  const {IDX} kk = k0_;",
        C.indent(step_lines, 2),
        C.indent(each(f"kd_[e] = ({T})({value});"), 2),
        "}",
        f"#pragma unroll 4\nfor ({IDX} kk = k0_; kk < hi_; kk += {TY}) {{",
        C.indent(step_lines, 2),
        C.indent(each(f"const {T} x_ = ({T})({value});\n"
                     "const double d_ = (double)(x_ - kd_[e]);\n"
                     "s_[e] += d_;\nq_[e] = fma(d_, d_, q_[e]);"
                     + ("\nt_[e] += x_;" if t else "")), 2),
        "}",
        f"const double n_ = k0_ < hi_ ? (double)((hi_ - k0_ + {TY - 1}) / {TY}) : 0.0;",
        f"#pragma unroll\nfor (int e = 0; e < {V}; ++e) acc[e] = gn_acc_t{{n_, (double)kd_[e], "
        "s_[e], q_[e]" + (", (double)t_[e]" if t else "") + "};",
    ])


def vec_body(p, IDX, kept_block, red_unravel, acc_e, ops, pro_red, split):
    """The col strategy with V adjacent columns per thread (16-byte loads)."""
    acc, V = p.acc, p.vec
    out, loop = _col_head(p, IDX, split)
    used = {p.spec.exprs[i][1] for i in C.needed(p.spec, [acc_e]) if p.spec.exprs[i][0] == "ld"}
    loads = []
    kinds = {}
    for k, o, kc, rc in p.pro:
        if o.kind != "in" or k not in used:
            continue
        kinds[k] = kc[-1]
        if kc[-1] == "1":
            t = STORAGE[o.dtype]
            loads.append(f"const gn_vec<{t}, {V}> cv{k} = *reinterpret_cast<const gn_vec<{t}, "
                         f"{V}>*>(p{k} + b{k} + {pro_red(k)});")

    def vload(k):
        if kinds.get(k) == "1":
            return ld(ops[k].dtype, f"cv{k}.v", "e")
        return ld(ops[k].dtype, f"p{k}", f"(b{k} + {pro_red(k)})")

    vl, vn = C.body(p.spec, [acc_e], vload, lambda k: "0", prefix="v")
    inner = "\n".join(vl) + f"\nacc[e] = {acc.push('acc[e]', vn[acc_e], 'kk')};"
    out.append("  if (m < M) {")
    out.append(C.indent(kept_block, 4))
    if acc.var:
        out.append(C.indent(_var_loop(p, IDX, red_unravel + "\n" + "\n".join(loads),
                                     "\n".join(vl), vn[acc_e], True, split), 4))
        out.append("  }")
        return "\n".join(out + _col_tail(p, IDX, split))
    out.append(f"    #pragma unroll 4\n    {loop} {{")
    out.append(C.indent(red_unravel + "\n" + "\n".join(loads), 6))
    out.append(f"      #pragma unroll\n      for (int e = 0; e < {V}; ++e) {{")
    out.append(C.indent(inner, 8))
    out.append("      }\n    }\n  }")
    return "\n".join(out + _col_tail(p, IDX, split))
