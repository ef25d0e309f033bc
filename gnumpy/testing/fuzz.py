"""Differential fuzzer: random programs run on gnumpy and on NumPy (or on gnumpy's CPU and
CUDA backends), compared on values (NaN positions and the sign of zero included), dtypes,
shapes and exception types.

Each case is one seed: ``generate(seed)`` (``fuzz_gen``) builds the program, ``check``
runs it on both sides and classifies the outcome:

* ``ok``            every result matches (and both raised compatible errors at one step);
* ``wrong``         a silent wrong answer: a value, dtype or shape differs;
* ``internal``      gnumpy raised where NumPy did not (not NotImplementedError), or raised
                    when a result was read (an error that surfaced at materialization);
* ``exc-type``      both raised, but gnumpy's exception is not an instance of the public
                    class of NumPy's (``UFuncTypeError`` counts as ``TypeError``);
* ``missing-error`` NumPy raised and gnumpy did not;
* ``unsupported``   gnumpy raised NotImplementedError where NumPy works.

Run from the command line::

    python -m gnumpy.testing.fuzz --cases 2000 [--seed 0] [--mode numpy|cuda] [--steps 8]

``--mode cuda`` compares the CPU backend with the CUDA backend on portable programs.  A
failing case prints its seed and its program as Python; ``--seed S --cases 1 -v`` replays it.
"""
from __future__ import annotations

import argparse

import sys
import time

import numpy as np

import gnumpy

from .fuzz_gen import generate
from .fuzz_prog import WRITES, Namespace, Ref, run, source

_PUBLIC = ("builtins", "numpy.exceptions", "numpy.linalg")


def public_base(t):
    """The first class in `t`'s MRO that NumPy exposes publicly (or a builtin)."""
    for c in t.__mro__:
        if c.__module__ in _PUBLIC:
            return c
    return Exception


def _tol(dt):
    return {2: (4e-3, 1e-3), 4: (2e-5, 1e-6), 8: (1e-12, 1e-14)}[
        np.dtype(dt).itemsize // (2 if np.dtype(dt).kind == "c" else 1)]


def compare(ref, got, zero_sign=True, loose=False, scale=0.0):
    """None when gnumpy result `got` matches reference `ref` (NumPy arrays), else why;
    `loose`: a rounding tolerance for inexact results (absolute: 1e-3 x `scale` at
    least), +0 and -0 equal."""
    if ref.shape != got.shape:
        return f"shape {got.shape} != {ref.shape}"
    if ref.dtype != got.dtype:
        return f"dtype {got.dtype} != {ref.dtype}"
    if ref.dtype.kind in "biu":
        if not np.array_equal(ref, got):
            return f"values differ at {_where(ref != got)}"
        return None
    if ref.dtype.kind == "c":
        return compare(ref.real.copy(), got.real.copy(), zero_sign, loose, scale) or \
            compare(ref.imag.copy(), got.imag.copy(), zero_sign, loose, scale)
    rn, gn = np.isnan(ref), np.isnan(got)
    if not np.array_equal(rn, gn):
        return f"NaN positions differ at {_where(rn != gn)}"
    rtol, atol = _tol(ref.dtype)
    if loose:
        zero_sign = False
        # (an inexact source may have had less precision than this result's dtype)
        rtol = 2e-2 if ref.dtype.itemsize == 2 else 1e-3
        atol = max(atol * 10, rtol * scale)
    r = np.where(rn, 0, ref).astype(np.float64)
    g = np.where(gn, 0, got).astype(np.float64)
    rinf = np.isinf(r)
    if not np.array_equal(rinf, np.isinf(g)) or not np.array_equal(r[rinf], g[rinf]):
        return f"infinities differ at {_where(rinf != np.isinf(g))}"
    fin = ~rinf
    with np.errstate(all="ignore"):
        bad = fin & (np.abs(r - g) > atol + rtol * np.abs(r))
    if bad.any():
        return f"values differ at {_where(bad)}: {got[bad][:3]} != {ref[bad][:3]}"
    z = (r == 0) & (g == 0) & ~rn       # (a NaN's sign bit means nothing)
    if zero_sign and not np.array_equal(np.signbit(ref[z]), np.signbit(got[z])):
        return f"sign of zero differs at {_where(z & (np.signbit(ref) != np.signbit(got)))}"
    return None


# Sources of results that may differ from the reference by rounding: reductions whose
# summation order gnumpy may not share (and, between devices, every inexact float op), and
# max/min reductions and clip (the sign of a zero result where +0 and -0 meet depends on
# NumPy's SIMD order).  Their results are compared with a loose tolerance and either sign
# of zero; what an inexact value feeds through a discontinuous op (floor, %, a comparison,
# a cast to an integer, ...) is not compared at all.
_APPROX = {"sum", "prod", "mean", "var", "std", "nansum", "nanprod", "nanmean", "nanvar",
           "nanstd", "max", "min", "nanmax", "nanmin", "ptp", "amax", "amin", "clip",
           "cumsum", "cumprod", "maximum", "minimum", "fmax", "fmin"}
_EXACT_FLOAT = {"add", "subtract", "multiply", "negative", "positive",
                "maximum", "minimum", "fmax", "fmin", "floor", "ceil", "trunc", "rint",
                "copysign", "square", "conjugate", "conj", "real", "imag", "fabs", "sign",
                "where", "astype", "copy", "+", "-", "*", "ldexp", "frexp",
                "nextafter", "spacing", "signbit",
                "isnan", "isinf", "isfinite", "any", "all", "count_nonzero", "argmax",
                "argmin", "concatenate", "put", "fill", "ravel", "flatten", "reshape",
                "transpose", "squeeze", "expand_dims", "broadcast_to", "swapaxes",
                "diagonal", "T"}
_DISCONT = {"floor", "ceil", "trunc", "rint", "round", "remainder", "fmod", "floor_divide",
            "divmod", "modf", "sign", "signbit", "nextafter", "spacing", "frexp",
            "heaviside", "copysign", "isnan", "isinf", "isfinite", "argmax", "argmin",
            "any", "all", "count_nonzero", "astype", "//", "%", "<", "<=", "==", "!=", ">",
            ">=", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
            "logical_and", "logical_or", "logical_xor", "logical_not", "where", "~",
            "invert", "gcd", "lcm", "&", "|", "^", "<<", ">>", "bitwise_and", "bitwise_or",
            "bitwise_xor", "left_shift", "right_shift", "bitwise_count", "**", "power",
            "/", "divide", "reciprocal", "arctan2",
            "float_power", "clip", "maximum", "minimum", "fmax", "fmin", "max", "min",
            "nanmax", "nanmin", "ptp"}


_F16_ACCURATE = {"var", "std", "nanvar", "nanstd"}


def _refs(v):
    if isinstance(v, Ref):
        yield v.i
    elif isinstance(v, (tuple, list)):
        for x in v:
            yield from _refs(x)


def _name(st):
    return st.args[0] if st.op in ("ufunc", "func", "method", "attr", "binop", "unop",
                                   "iop") else st.op


_CANCEL = {"sum", "mean", "var", "std", "nansum", "nanmean", "nanvar", "nanstd", "cumsum",
           "ptp"}      # reductions whose rounding error scales with their inputs' size


def _magnitude(name, x):
    """The scale of the rounding error of reduction `name` over the values `x`."""
    v = np.abs(x[np.isfinite(x)]).astype(np.float64) if x.size else np.zeros(0)
    m = float(v.max()) if v.size else 0.0
    return m * m if name in ("var", "nanvar") else m * max(1, x.size)


def inexact(prog, env, mode):
    """(approx, skip, scale): results compared loosely (an absolute tolerance from
    `scale` where given), and results not compared (see _APPROX).  What a reduction
    with cancellation feeds is not compared (its error has no scale of its own)."""
    approx, skip, n, scale = set(), set(), 0, {}
    alias = {}
    arrays = [(i, v) for i, v in enumerate(env) if isinstance(v, np.ndarray)]
    for i, a in arrays:
        alias[i] = {j for j, b in arrays if np.shares_memory(a, b)}
    for st in prog:
        name = _name(st)
        srcs = set()
        for a in list(st.args) + list(st.kw.values()):
            srcs.update(_refs(a))
        k = 2 if st.op == "func" and name in ("divmod", "modf", "frexp") else 1
        outs = set(range(n, n + k)) if st.out else set()
        if st.out:
            n += k
        targets = set()
        if st.op in ("setitem", "iop", "fill") or name == "put":
            targets = set(_refs(st.args[1] if st.op == "iop" else st.args[0]))
        if "out" in st.kw:
            targets |= set(_refs(st.kw["out"]))
        if st.op in ("setitem", "fill"):
            srcs -= targets
        tainted = bool(srcs & (approx | skip))
        src_approx = name in _APPROX or (mode == "cuda" and name not in _EXACT_FLOAT)
        for t in targets:
            outs |= alias.get(t, {t})
        if name in _F16_ACCURATE and "dtype" not in st.kw and any(
                isinstance(env[i], np.ndarray) and env[i].dtype == np.float16
                for i in _refs(st.args[1])):
            # Note: gnumpy's float16 var/std accumulate in float32 (NumPy's float16 sums
            # of squares drift and overflow): a deliberate deviation, not compared
            skip |= outs
            continue
        if srcs & skip or (tainted and name in _DISCONT) or (srcs & set(scale)):
            skip |= outs
        elif name in _CANCEL and st.op in ("func", "method") and \
                isinstance(st.args[1], Ref) and isinstance(env[st.args[1].i], np.ndarray):
            m = _magnitude(name, env[st.args[1].i])
            for o in outs:      # (integer results are exact)
                v = env[o] if o < len(env) else None
                if not isinstance(v, np.ndarray) or v.dtype.kind in "fc":
                    approx.add(o)
                    scale[o] = m
        elif tainted or src_approx:
            for o in outs:
                v = env[o] if o < len(env) else None
                if isinstance(v, np.ndarray) and v.dtype.kind in "biu" and tainted:
                    skip.add(o)         # an inexact value cast to an integer or bool
                else:
                    approx.add(o)
    return approx - skip, skip, scale


def _where(mask):
    idx = np.argwhere(np.asarray(mask))
    return tuple(int(v) for v in idx[0]) if len(idx) else ()


class Outcome:
    """The result of one case: `kind` (see the module docstring), `detail`, the seed and
    the program's source."""

    __slots__ = ("kind", "detail", "seed", "src", "step")

    def __init__(self, kind, detail, seed, src, step=None):
        self.kind, self.detail, self.seed, self.src, self.step = kind, detail, seed, src, step

    def __repr__(self):
        return (f"[{self.kind}] seed={self.seed}: {self.detail}\n--- program (xp = numpy | "
                f"gnumpy) ---\n{self.src}")


_KINDS: dict = {}


def _device_kind(device):
    """'cpu' or 'cuda': the kind of the device gnumpy puts arrays on for `device`."""
    k = _KINDS.get(device)
    if k is None:
        k = _KINDS[device] = gnumpy.asarray(0, device=device).device.kind
    return k


def _host_all(env, ns):
    out = []
    for v in env:
        try:
            out.append(ns.host(v))
        except Exception as e:      # noqa: BLE001 - an error at materialization
            return out, e
    return out, None


def check(seed, steps=8, mode="numpy", device=None, prog=None):
    """Run the program of `seed` on the reference and on gnumpy; an Outcome.

    mode 'numpy': NumPy against gnumpy on `device` (default device); mode 'cuda': gnumpy's
    CPU backend against its CUDA backend.  Whenever gnumpy runs on a GPU the programs are
    portable and every inexact float op counts as approximate (see ``inexact``)."""
    on_gpu = mode == "cuda" or _device_kind(device) == "cuda"
    if prog is None:
        prog = generate(seed, steps, portable=on_gpu)
    src = source(prog)
    if mode == "numpy":
        ref_ns, cand_ns = Namespace(np), Namespace(gnumpy, device)
    else:
        ref_ns, cand_ns = Namespace(gnumpy, "cpu"), Namespace(gnumpy, device or "cuda")
    env_r, err_r, at_r = run(prog, ref_ns)
    env_c, err_c, at_c = run(prog, cand_ns)
    host_r, late_r = _host_all(env_r, ref_ns)
    host_c, late_c = _host_all(env_c, cand_ns)
    if late_r is not None:
        return Outcome("internal", f"reference raised reading a result: {late_r!r}", seed,
                       src)
    if late_c is not None:
        return Outcome("internal", f"raised reading result v{len(host_c)}: {late_c!r}", seed,
                       src)
    if err_r is None and err_c is not None:
        kind = "unsupported" if isinstance(err_c, NotImplementedError) else "internal"
        return Outcome(kind, f"step {at_c} raised {type(err_c).__name__}: {err_c}", seed, src,
                       prog[at_c])
    if err_r is not None and err_c is None:
        return Outcome("missing-error", f"step {at_r}: NumPy raised "
                       f"{type(err_r).__name__}: {err_r}; gnumpy did not", seed, src,
                       prog[at_r])
    if err_r is not None:
        if at_r != at_c:
            return Outcome("exc-type", f"NumPy raised at step {at_r}, gnumpy at step {at_c}",
                           seed, src, prog[min(at_r, at_c)])
        base = public_base(type(err_r))
        if not isinstance(err_c, base):
            return Outcome("exc-type", f"step {at_r}: NumPy {type(err_r).__name__}({err_r}); "
                           f"gnumpy {type(err_c).__name__}({err_c})", seed, src, prog[at_r])
        if prog[at_r].op in WRITES or "out" in prog[at_r].kw:
            # NumPy may have written part of the target before raising
            return Outcome("ok", "", seed, src)
    if len(host_r) != len(host_c):
        return Outcome("wrong", f"{len(host_c)} results != {len(host_r)}", seed, src)
    approx, skip, scale = inexact(prog, host_r, "cuda" if on_gpu else mode)
    for i, (r, c) in enumerate(zip(host_r, host_c)):
        if r is None and c is None:
            continue
        if (r is None) != (c is None):
            return Outcome("wrong", f"v{i}: {type(c).__name__} != {type(r).__name__}", seed,
                           src)
        if i in skip:
            why = None if (r.shape, r.dtype) == (c.shape, c.dtype) else \
                f"shape/dtype {c.shape} {c.dtype} != {r.shape} {r.dtype}"
        else:
            why = compare(r, c, loose=i in approx, scale=scale.get(i, 0.0))
        if why is not None:
            return Outcome("wrong", f"v{i}: {why}", seed, src)
    return Outcome("ok", "", seed, src)


def fuzz(cases, seed=0, steps=8, mode="numpy", device=None, budget_s=None):
    """Run `cases` cases from `seed` (stopping early after `budget_s` seconds); returns
    (counts by kind, [Outcome of every case that is not ok])."""
    counts = {}
    bad = []
    t0 = time.perf_counter()
    with gnumpy.config.override(check_kernels=""):
        for k in range(cases):
            if budget_s is not None and time.perf_counter() - t0 > budget_s:
                break
            o = check(seed + k, steps, mode, device)
            counts[o.kind] = counts.get(o.kind, 0) + 1
            if o.kind != "ok":
                bad.append(o)
    counts["cases"] = sum(counts.values())
    return counts, bad


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--steps", type=int, default=8)
    ap.add_argument("--mode", choices=("numpy", "cuda"), default="numpy")
    ap.add_argument("--device", default=None)
    ap.add_argument("--show", type=int, default=10, help="failing cases to print")
    ap.add_argument("-v", action="store_true", help="print every program")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    if a.v:
        for k in range(a.cases):
            print(check(a.seed + k, a.steps, a.mode, a.device))
        return 0
    counts, bad = fuzz(a.cases, a.seed, a.steps, a.mode, a.device)
    for o in bad[:a.show]:
        print(o, "\n")
    dt = time.perf_counter() - t0
    print(f"{counts} in {dt:.1f} s ({1e3 * dt / max(1, counts['cases']):.1f} ms/case)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())


