"""Accumulators of the reduction ops: type, identity, combine and final value, per dtype.

An accumulator has one or more components (complex: re/im; argmax/argmin: value and
index; var0: count, mean and sum of squared deviations), so partial results of split
reductions are stored as plain component arrays.

``var0`` is the population variance in one pass, accumulated in double: per element, sums of
deviations from a shift (the first value the thread saw) and of their squares, no division;
partials merge with Chan's pairwise formula.  ``var``/``std`` read their input once instead
of twice (mean, then squared deviations) and stay accurate (float32 data: double sums).
The accumulator (n, k, s, q) stands for mean = k + s/n and M2 = q - s*s/n.
"""
from __future__ import annotations

import numpy as np

from .. import _dtypes as D
from .._ops import REDUCE_OPS
from .types import COMPUTE


class Acc:
    """How one reduction op accumulates values of one compute dtype."""

    def __init__(self, rop, dt, with_sum=False):
        self.rop = rop
        self.dt = dt
        ct = COMPUTE[dt]
        cplx = dt.kind == "c"
        part = ("float" if dt == D.complex64 else "double") if cplx else None
        self.arg = rop in ("argmax", "argmin")
        self.var = rop == "var0"
        # var0: accumulators fresh from pushes carry a shift (s != 0); settling them once
        # (one division) before they are combined keeps the combines division-light
        self.settle_needed = self.var
        # var0 with a sibling sum (fuse.py): a fifth component, the plain sum in double
        # (n * mean is NaN where the shift is infinite; NumPy's sum is +-inf there)
        self.with_sum = self.var and with_sum
        if rop in ("sum", "prod"):
            self.ctype = "float" if dt == D.float16 else ct
        elif rop in ("any", "all"):
            self.ctype = "bool"
        else:
            self.ctype = ct
        self.cplx = cplx and rop not in ("any", "all")
        # components: (C type, name)
        if self.var:
            self.ctype = "double"
            self.comps = [("double", "n"), ("double", "k"), ("double", "s"), ("double", "q")]
            if self.with_sum:
                self.comps.append(("double", "t"))
        elif self.arg:
            self.comps = ([(part, "v.re"), (part, "v.im")] if cplx else [(ct, "v")]) + \
                [("long long", "i")]
        elif self.cplx:
            self.comps = [(part, "v.re"), (part, "v.im")]
        else:
            self.comps = [(self.ctype, "v")]

    def decl(self) -> str:
        """The accumulator struct (one per kernel)."""
        if self.var:
            return ("struct gn_acc_t { double n; double k; double s; double q;"
                    + (" double t;" if self.with_sum else "") + " };")
        fields = f"{self.ctype} v;" + (" long long i;" if self.arg else "")
        return f"struct gn_acc_t {{ {fields} }};"

    def identity(self) -> str:
        rop, dt, ct = self.rop, self.dt, self.ctype
        if self.var:
            return "gn_acc_t{0.0, 0.0, 0.0, 0.0" + (", 0.0}" if self.with_sum else "}")
        ident = REDUCE_OPS[rop].identity
        if ident is not None:
            # sum, prod, any, all: the op table's identity (the value of an empty reduction)
            v = identity_literal(ident, ct, self.cplx)
        else:
            # min, max, argmin, argmax (empty is an error): the dtype's far end, which every
            # value beats or ties
            v = _extreme(dt, ct, rop in ("min", "argmin"))
        return f"gn_acc_t{{{v}" + (", 0x7fffffffffffffffLL}" if self.arg else "}")

    def combine(self, a: str, b: str) -> str:
        """Expression combining accumulators a and b (a precedes b in index order)."""
        rop = self.rop
        if self.var:
            return f"gn_var_combine({a}, {b})"
        av, bv = f"{a}.v", f"{b}.v"
        if rop == "sum":
            v = f"gn_add({av}, {bv})" if self.cplx else f"({av} + {bv})"
        elif rop == "prod":
            v = f"gn_multiply({av}, {bv})" if self.cplx else f"({av} * {bv})"
        # any/all: never || or && (b is often a warp shuffle, which every lane of the warp
        # must execute; a short-circuit skipped it in lanes already decided and hung the
        # GPU: bool(x.any()) with a mix of true and false lanes never returned on the H200)
        elif rop == "any":
            v = f"(bool)({av} | {bv})"
        elif rop == "all":
            v = f"(bool)({av} & {bv})"
        elif rop in ("max", "min"):
            v = f"gn_{'maximum' if rop == 'max' else 'minimum'}({av}, {bv})"
        else:
            return f"gn_arg_pick_{rop}({a}, {b})"
        return f"gn_acc_t{{{v}}}"

    def helpers(self) -> str:
        """Device functions the combine needs (arg-reductions' total order, Chan's
        combination of variance partials)."""
        if self.var:
            return ("__device__ __forceinline__ gn_acc_t gn_settle(gn_acc_t a) {\n"
                    "  // (n, k, s, q) -> (n, mean, 0, M2); a no-op (no division) when settled\n"
                    "  if (a.s != 0.0) {\n"
                    "    const double m = a.s / a.n;\n"
                    "    a.k += m; a.q -= a.s * m; a.s = 0.0;\n"
                    "  }\n"
                    "  return a;\n}\n"
                    "__device__ __forceinline__ gn_acc_t gn_var_combine(gn_acc_t a, "
                    "gn_acc_t b) {\n"
                    "  if (a.n == 0.0) return b;\n"
                    "  if (b.n == 0.0) return a;\n"
                    "  a = gn_settle(a); b = gn_settle(b);\n"
                    "  const double n = a.n + b.n, d = b.k - a.k, r = b.n / n;\n"
                    "  return gn_acc_t{n, a.k + d * r, 0.0, a.q + b.q + d * d * a.n * r"
                    + (", a.t + b.t" if self.with_sum else "") + "};\n}\n"
                    "__device__ __forceinline__ gn_acc_t gn_var_push(gn_acc_t a, double x) {\n"
                    "  const double k = a.n == 0.0 ? x : a.k;   // a select, not a branch\n"
                    "  const double d = x - k;\n"
                    "  return gn_acc_t{a.n + 1.0, k, a.s + d, a.q + d * d"
                    + (", a.t + x" if self.with_sum else "") + "};\n}")
        if not self.arg:
            return ""
        ct = self.ctype
        better = "gn_greater" if self.rop == "argmax" else "gn_less"
        if self.cplx or self.dt.kind == "f":
            nan = "gn_isnan"
            cmp = (f"({better}(a.v, b.v) || (gn_equal(a.v, b.v) && a.i < b.i))")
            take = (f"{nan}(a.v) ? (!{nan}(b.v) || a.i < b.i) : "
                    f"({nan}(b.v) ? false : {cmp})")
        else:
            op = ">" if self.rop == "argmax" else "<"
            take = f"(a.v {op} b.v || (a.v == b.v && a.i < b.i))"
        return (f"__device__ __forceinline__ gn_acc_t gn_arg_pick_{self.rop}(gn_acc_t a, "
                f"gn_acc_t b) {{\n  const bool take_a = {take};\n  return take_a ? a : b;\n}}\n"
                f"// accumulator value type: {ct}")

    def lift(self, value: str, index: str) -> str:
        """An accumulator holding one prologue value (at flat reduced index `index`)."""
        if self.var:
            t = f", (double)({value})" if self.with_sum else ""
            return f"gn_acc_t{{1.0, (double)({value}), 0.0, 0.0{t}}}"
        if self.arg:
            return f"gn_acc_t{{{value}, (long long)({index})}}"
        if self.rop in ("any", "all"):
            return f"gn_acc_t{{(bool)({value})}}"
        return f"gn_acc_t{{({self.ctype})({value})}}" if not self.cplx else \
            f"gn_acc_t{{{value}}}"

    def push(self, acc: str, value: str, index: str) -> str:
        """`acc` with one more prologue value (at flat reduced index `index`)."""
        if self.var:
            return f"gn_var_push({acc}, (double)({value}))"
        return self.combine(acc, self.lift(value, index))

    def derived_sum(self, acc: str) -> str:
        """The sum of the pushed values, read off a var0 accumulator made `with_sum`: a
        float ``sum`` of the same input and axes computed by the var0's kernel."""
        return f"{acc}.t"

    def final(self, acc: str, out_dt) -> str:
        """The reduction's result value (compute type of `out_dt`) from accumulator `acc`."""
        if self.arg:
            return f"{acc}.i"
        if self.var:
            return f"(({acc}.q - {acc}.s * ({acc}.s / {acc}.n)) / {acc}.n)"
        if out_dt == D.float16:
            return f"gn_rh({acc}.v)"
        return f"{acc}.v"


def part_io(acc: Acc, idx: str, write: bool, var="acc"):
    """Code storing (or loading) accumulator components at partial index `idx`."""
    lines = ["{ char* gp_ = gn_part;"]
    for ctype, comp in acc.comps:
        if write:
            lines.append(f"  (({ctype}*)gp_)[{idx}] = {var}.{comp};")
        else:
            lines.append(f"  {var}.{comp} = ((volatile {ctype}*)gp_)[{idx}];")
        lines.append(f"  gp_ += (sizeof({ctype}) * (size_t)gn_total + 15) & ~(size_t)15;")
    lines.append("}")
    return "\n".join(lines)


def identity_literal(value, ctype: str, cplx: bool) -> str:
    """The C literal of an op-table identity (0, 1, False, True) in compute type `ctype`."""
    if isinstance(value, (bool, np.bool_)):
        if ctype != "bool":
            raise ValueError(f"a bool identity for a {ctype} accumulator")
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return f"{ctype}{{{int(value)}, 0}}" if cplx else f"({ctype}){int(value)}"
    raise ValueError(f"no C literal for reduction identity {value!r}")


def inf_literal(real_ctype: str, negative: bool) -> str:
    """+-infinity without <cmath> (NVRTC has no headers)."""
    if real_ctype == "double":
        return f"__longlong_as_double({'0xfff0000000000000LL' if negative else '0x7ff0000000000000LL'})"
    return f"__int_as_float({'(int)0xff800000' if negative else '0x7f800000'})"


def _extreme(dt, ct, high: bool) -> str:
    if dt.kind == "c":
        inf = inf_literal("float" if dt == D.complex64 else "double", not high)
        return f"{ct}{{{inf}, {inf}}}"
    if dt.kind == "f":
        return inf_literal("double" if dt == D.float64 else "float", not high)
    if dt.kind == "b":
        return "true" if high else "false"
    info = np.iinfo(dt)
    v = int(info.max) if high else int(info.min)
    if dt == D.int64 and not high:
        return "(-0x7fffffffffffffffLL - 1)"
    suffix = "ULL" if dt.kind == "u" else ("LL" if dt.itemsize == 8 else "")
    return f"({ct}){v}{suffix}"
