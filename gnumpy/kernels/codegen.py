"""Shared pieces of kernel source generation: expression bodies, operand offsets, the
source preamble (headers chosen by the dtypes and ops a kernel uses)."""
from __future__ import annotations

import os
from functools import lru_cache

import numpy as np

from .. import _dtypes as D
from . import ops_cuda
from .launch import LevelOff
from .types import COMPUTE, STORAGE, load, param_value_expr

_HERE = os.path.dirname(__file__)

VEC_DECL = ("template <class T, int N> struct alignas(sizeof(T) * N) gn_vec { T v[N]; };\n")


@lru_cache(maxsize=None)
def header(name: str) -> str:
    with open(os.path.join(_HERE, name), encoding="utf-8") as f:
        return f.read()


def headers(*dtypes) -> str:
    """The helper headers of a kernel over `dtypes` rendered outside the element-wise
    planner (scans, index kernels, matmul): core and math, and complex when one of the
    dtypes is complex."""
    return header("gn_core.cuh") + header("gn_math.cuh") + (
        header("gn_complex.cuh") if any(np.dtype(d).kind == "c" for d in dtypes) else "")


def vec_load(t: str, V: int, base: str, index: str, hints: str = "") -> str:
    """Expression loading vector `index` of the gn_vec<t, V> array at `base`, with the load
    hint of `hints` (``config.reduce_mem_hints``) when it has one."""
    arr = f"reinterpret_cast<const gn_vec<{t}, {V}>*>({base})"
    return f"gn_ldh({arr} + {index})" if _hints(hints) else f"{arr}[{index}]"


def vec_store(t: str, V: int, base: str, index: str, val: str) -> str:
    """Statement storing gn_vec `val` as vector `index` of the array at `base`."""
    return f"reinterpret_cast<gn_vec<{t}, {V}>*>({base})[{index}] = {val};"


def _hints(hints: str) -> str:
    """The PTX load qualifiers of a hints string ('' for none)."""
    h = [x for x in hints.split(",") if x]
    ld = ("cs" if "lcs" in h else "nc") + "".join(f".{x}" for x in h if x.startswith("L2::"))
    return ld if ld != "nc" else ""


def _hint_helpers(hints: str) -> str:
    """gn_ldh: a vector's load with the hints, for vectors of 16, 8 or 4 bytes (an operand
    narrower than the widest one has a narrower vector); 1- and 2-byte vectors load
    plainly."""
    ld = _hints(hints)
    if not ld:
        return ""
    return ("template <class V> __device__ __forceinline__ V gn_ldh(const V* p) {\n"
            "  V r; unsigned int* u = reinterpret_cast<unsigned int*>(&r);\n"
            "  if constexpr (sizeof(V) == 16)\n"
            f"    asm(\"ld.global.{ld}.v4.u32 {{%0, %1, %2, %3}}, [%4];\" : \"=r\"(u[0]), "
            "\"=r\"(u[1]), \"=r\"(u[2]), \"=r\"(u[3]) : \"l\"(p));\n"
            "  else if constexpr (sizeof(V) == 8)\n"
            f"    asm(\"ld.global.{ld}.v2.u32 {{%0, %1}}, [%2];\" : \"=r\"(u[0]), "
            "\"=r\"(u[1]) : \"l\"(p));\n"
            "  else if constexpr (sizeof(V) == 4)\n"
            f"    asm(\"ld.global.{ld}.u32 %0, [%1];\" : \"=r\"(u[0]) : \"l\"(p));\n"
            "  else\n    r = *p;\n"
            "  return r;\n}\n")


def preamble(spec, hints: str = "") -> str:
    """Headers a kernel needs: core + math always, complex when a complex dtype appears."""
    parts = [header("gn_core.cuh"), header("gn_math.cuh")]
    if any(dt.kind == "c" for dt in spec.dtypes) or \
            any(op.dtype.kind == "c" for op in spec.operands):
        parts.append(header("gn_complex.cuh"))
    parts.append(VEC_DECL + _hint_helpers(hints))
    return "\n".join(parts)


def needed(spec, roots):
    """Indices of expressions reachable from `roots`, in topological (creation) order."""
    seen = set()
    stack = list(roots)
    while stack:
        i = stack.pop()
        if i in seen:
            continue
        seen.add(i)
        e = spec.exprs[i]
        if e[0] == "op":
            stack.extend(e[4])
    return sorted(seen)


def body(spec, roots, load_expr, iota_expr, acc_expr="acc_v", prefix="t"):
    """C++ lines computing the expressions reachable from `roots` (one const per expr).

    `spec` is a plan.SpecKey; load_expr(k) / iota_expr(k) give the expression reading
    operand k at the current index.  Returns (lines, name of each expression)."""
    names = {}
    lines = []
    for i in needed(spec, roots):
        e = spec.exprs[i]
        dt = spec.dtypes[i]
        tag = e[0]
        if tag == "ld":
            k = e[1]
            val = load_expr(k)
        elif tag == "io":
            val = iota_expr(e[1])
        elif tag == "sc":
            val = param_value_expr(spec.scalar_dtypes[e[1]], f"s{e[1]}")
        elif tag == "acc":      # the reduction's value, or a sibling read off its accumulator
            val = acc_expr if isinstance(acc_expr, str) else acc_expr[e[1:]]
        elif tag == "ph":
            val = f"ph{e[1]}"           # a row group's phase value (render_rows)
        else:
            _, op, in_dt, arg, kids = e
            args = [names[c] for c in kids]
            if op == "astype" and dt == D.float16 and in_dt != D.float16:
                val = f"gn_h2f(gn_to_f16({args[0]}))"   # one rounding, like NumPy's cast
            else:
                val = ops_cuda.render(op, in_dt, dt, args)
                if dt == D.float16 and op != "astype":
                    val = f"gn_rh({val})"   # NumPy rounds every float16 result to half
        name = f"{prefix}{i}"
        names[i] = name
        lines.append(f"const {COMPUTE[dt]} {name} = {val};")
    return lines, names


def ptr_decl(op, idx, is_out, restrict=True):
    t = STORAGE[op.dtype]
    r = " __restrict__" if restrict else ""
    return f"{t}*{r} q{idx}" if is_out else f"const {t}*{r} p{idx}"


def offset_expr(strides_cls, stride_params, idx_names):
    """Sum of index * stride terms for one operand (stride classes z/1/s)."""
    terms = []
    for c, p, iv in zip(strides_cls, stride_params, idx_names):
        if c == "z":
            continue
        terms.append(iv if c == "1" else f"{iv} * {p}")
    return " + ".join(terms) if terms else "0"


def load_op(op, ptr, off):
    return load(op.dtype, ptr, off)


def unravel_lines(var, dims_prefix, n, out_prefix, IDX, tmp):
    """C++ lines splitting linear index `var` over n dims (sizes dims_prefix1.. as
    parameters; dim 0 needs none) into out_prefix0..n-1, C order."""
    if n == 0:
        return []
    if n == 1:
        return [f"const {IDX} {out_prefix}0 = {var};"]
    lines = [f"{IDX} {tmp} = {var};"]
    for d in range(n - 1, 0, -1):
        lines.append(f"const {IDX} {out_prefix}{d} = {tmp} % {dims_prefix}{d}; "
                     f"{tmp} /= {dims_prefix}{d};")
    lines.append(f"const {IDX} {out_prefix}0 = {tmp};")
    return lines


def level_decls(k, o):
    """Parameter declarations of operand k's reshape levels (shape, strides, offset);
    `o` is a plan.OperandKey (``ranks``: each level's rank)."""
    out = []
    for li, r in enumerate(o.ranks):
        out += [f"long long l{k}_{li}_d{j}" for j in range(r)]
        out += [f"long long l{k}_{li}_s{j}" for j in range(r)]
        out.append(f"long long l{k}_{li}_off")
    return out


def level_args(o, out):
    """Append the values of operand o's reshape-level parameters (level_decls' order).
    The innermost level's offset of a memory operand holds its node's offset
    (``layout.compose``): a ``LevelOff``, which a replay reads from the node."""
    last = len(o.levels) - 1
    for k, (shape, strides, off) in enumerate(o.levels[1:], 1):
        out.extend(np.int64(d) for d in shape)
        out.extend(np.int64(s) for s in strides)
        out.append(LevelOff(o, np.int64(off)) if k == last and o.kind == "in" else
                   np.int64(off))


def indent(text: str, n: int) -> str:
    pad = " " * n
    return "\n".join(pad + ln if ln else ln for ln in text.splitlines())
