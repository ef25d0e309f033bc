"""The row strategy of the fused reduction kernel (render_reduce): G threads per output
(G = 1, 32..block) walking the reduced positions (16-byte vector loads of V elements when
the reduced axis is contiguous), a warp-shuffle tree and shared memory combining the group,
and, when the reduced axis is split over blocks, a last block that combines the splits'
partials and runs the epilogue.
"""
from __future__ import annotations

from . import codegen as C
from .reduce_ops import Acc, part_io
from .types import STORAGE
from .types import load as ld


def _group_reduce(p, acc: Acc) -> str:
    """Combine `acc` over the G threads of a group; lane 0 of the group ends with it."""
    G = p.G
    if G == 1:
        return ""
    lines = []
    w = min(G, 32)
    m = w // 2
    while m >= 1:
        lines.append(f"acc = {acc.combine('acc', f'gn_shfl(acc, {m})')};")
        m //= 2
    if G > 32:
        nw = G // 32
        lines += [
            "__syncthreads();",
            "if ((threadIdx.x & 31) == 0) gn_sm[threadIdx.x >> 5] = acc;",
            "__syncthreads();",
            f"if ((threadIdx.x & {G - 1}) < 32) {{",
            f"  const int gw_ = (threadIdx.x / {G}) * {nw};",
            f"  acc = ((threadIdx.x & 31) < {nw}) ? gn_sm[gw_ + (threadIdx.x & 31)] : "
            f"{acc.identity()};",
        ]
        for m in (16, 8, 4, 2, 1):
            lines.append(f"  acc = {acc.combine('acc', f'gn_shfl(acc, {m})')};")
        lines.append("}")
    return "\n".join(lines)


def body(p, IDX, kept_block, red_unravel, pro_vals, lines_s, names_s, acc_e, ops, split):
    """The row strategy's loop, group combine and epilogue (split or not)."""
    acc = p.acc
    B, G, V = p.block, p.G, p.vec
    R = B // G
    out = [f"  __shared__ gn_acc_t gn_sm[{max(1, B // 32)}];"]
    if split:
        out.append("  __shared__ bool gn_last;")
        out.append(f"  const {IDX} gn_total = M * (long long)gridDim.x;")
    lane = f"(threadIdx.x & {G - 1})" if G > 1 else "0"
    grp = f"(threadIdx.x / {G})"
    if split:
        out.append(f"  {{ const {IDX} rg = blockIdx.y; const {IDX} sp = blockIdx.x;")
    else:
        out.append(f"  for ({IDX} rg = blockIdx.x; rg * {R} < M; rg += gridDim.x) {{")
    out.append(f"    const {IDX} m = rg * {R} + {grp};")
    out.append(f"    gn_acc_t acc = {acc.identity()};")
    out.append("    if (m < M) {")
    out.append(C.indent(kept_block, 6))
    if V > 1:
        # vectorized contiguous reduced axis (one collapsed reduced dim, unit stride)
        vec_lo = "sp * chunk" if split else "0"
        vec_hi = f"min((({IDX})(K / {V})), sp * chunk + chunk)" if split else f"(K / {V})"
        vloads = []
        for k, o, kc, rc in p.pro:
            if o.kind == "in" and rc[-1] == "1" and any(
                    e == ("ld", k) for e in (p.spec.exprs[i] for i in C.needed(p.spec, [acc_e]))):
                t = STORAGE[o.dtype]
                vloads.append(f"const gn_vec<{t}, {V}> vv{k} = "
                              f"{C.vec_load(t, V, f'p{k} + b{k}', 'kv', p.hints)};")
        def vload(k):
            t = [x for x in p.pro if x[0] == k][0]
            if t[3][-1] == "z":
                return ld(ops[k].dtype, f"p{k}", f"b{k}")
            return ld(ops[k].dtype, f"vv{k}.v", "e")

        def viota(k):
            t = [x for x in p.pro if x[0] == k][0]
            c = t[3][-1]
            step = "" if c == "1" else (" * 0" if c == "z" else f" * rs{k}_0")
            return f"((long long)(b{k} + (kv * {V} + e){step}) + off{k})"

        vl, vn = C.body(p.spec, [acc_e], vload, viota, prefix="v")
        inner = "\n".join(vl) + f"\nacc = {acc.push('acc', vn[acc_e], f'kv * {V} + e')};"
        out.append(f"      #pragma unroll 4\n      for ({IDX} kv = {vec_lo} + {lane}; kv < {vec_hi}; "
                   f"kv += {G}) {{")
        out.append(C.indent("\n".join(vloads), 8))
        out.append(f"        #pragma unroll\n        for (int e = 0; e < {V}; ++e) {{")
        out.append(C.indent(inner, 10))
        out.append("        }\n      }")
        tail_lo = f"(K / {V}) * {V} + {lane}"
        tail_cond = "sp == gridDim.x - 1" if split else "true"
        out.append(f"      if ({tail_cond}) for ({IDX} kk = {tail_lo}; kk < K; kk += {G}) {{")
    else:
        lo = f"sp * chunk + {lane}" if split else lane
        hi = "min(K, sp * chunk + chunk)" if split else "K"
        out.append(f"      for ({IDX} kk = {lo}; kk < {hi}; kk += {G}) {{")
    out.append(C.indent(red_unravel + "\n" + pro_vals, 8))
    out.append("      }")
    out.append("    }")
    if acc.settle_needed:
        out.append("    acc = gn_settle(acc);")
    out.append(C.indent(_group_reduce(p, acc), 4))
    if not split:
        out.append(f"    if ({lane} == 0 && m < M) GN_EPILOGUE(m, acc);")
        if G > 32:
            out.append("    __syncthreads();")
        out.append("  }")
        return "\n".join(out)
    out += [
        "    if (threadIdx.x == 0) {",
        C.indent(part_io(acc, "m * gridDim.x + sp", True), 6),
        "      __threadfence();",
        "      gn_last = atomicAdd(&gn_ctr[m], 1u) == gridDim.x - 1u;",
        "    }",
        "    __syncthreads();",
        "    if (!gn_last) return;",
        "    __threadfence();",
        f"    acc = {acc.identity()};",
        f"    for (int s = threadIdx.x; s < gridDim.x; s += {B}) {{",
        f"      gn_acc_t part_ = {acc.identity()};",
        C.indent(part_io(acc, "m * gridDim.x + s", False, "part_"), 6),
        f"      acc = {acc.combine('acc', 'part_')};",
        "    }",
        C.indent(_group_reduce(p, acc), 4),
        "    if (threadIdx.x == 0) { gn_ctr[m] = 0u; GN_EPILOGUE(m, acc); }",
        "  }",
    ]
    return "\n".join(out)
