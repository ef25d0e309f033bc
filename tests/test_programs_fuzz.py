"""A differential fuzz of program replays (``gnumpy/backends/cuda_program.py``, config
``fast_programs``) on the CUDA backend emulated on the host (``cuda_emu.EmuCuda``).

``Gen(seed)`` writes a random loop program (source text, run by ``exec``) over persistent
arrays: products of 1-D and 2-D operands (``@``, ``matmul``, ``dot``, ``matvec``,
``vecmat``, transposed, strided, reversed and scaled views; small products that fuse and
larger ones or deep ones, k > 256, that are library calls; batched, einsum, tensordot;
chains of calls), the elementwise work around them (scales, biases, ``maximum``, ``exp``,
``tanh``, a product read twice, equal constants in several places), sort and cumsum,
``linalg.solve``/``inv``, writes of such values into rows, columns, strided slices and the
whole of an array, in-place operators, values that read the destination (aligned, shifted,
under the product), ``out=``, several roots evaluated at once (with and without calls),
intermediates kept by the caller while their sources are overwritten, reductions of
products written into views, zero-size operands, float64, float32, complex128 and mixed
dtypes.  Each statement runs in a loop of 20-32 iterations whose offsets, lengths and
scalars change (readers of signatures are generated after 16 walks of a hint), so the
programs are built, then replayed.

The program runs on NumPy and, in a child process with the emulator installed, on gnumpy
three times: twice with the defaults (the second run replays programs and readers the
first one made, from its first iteration) and once on the general path
(``fast_stages=1, fast_programs=False``); all must match NumPy (a result of a
single-precision program that does not may instead be no farther than NumPy's from the
program's result in double precision, give or take the rounding scale of NumPy's float32
result and what float32 rounding of the inputs moves it by: a float32 product or sum that
cancels, which gnumpy accumulates in double; a double-precision one likewise within
what NumPy's rounding moves it by, or no farther than NumPy's from the program run in
extended precision, ``np.longdouble``).  The child also poisons recycled pool
blocks (a replay that reads a slot it did not write reads NaN) and fails on a cuBLAS call
whose output overlaps one of its inputs (the host fake would hide that).

More seeds, by hand::

    python3 tests/test_programs_fuzz.py 60000 100      # seeds 60000..60099
    python3 tests/test_programs_fuzz.py 60012 1 --show  # one program, its source printed

(the generator is tests/progfuzz_gen.py; seeds of 80000 and up use every statement
kind).  Not covered: cuBLASLt epilogues and cuFFT (not emulated), streams and
concurrency (the emulator runs a kernel at its launch, its blocks one after another),
float16, integer dtypes other than in a few products.
"""
from __future__ import annotations

import ast
import math
import os
import re
import shutil
import subprocess
import sys
import time
import traceback
from pathlib import Path

import numpy as np
import pytest

from progfuzz_gen import NAMES, generate

HERE = Path(__file__).resolve().parent


TOL = {"float64": 1e-9, "float32": 2e-4, "complex128": 1e-9}


def compare(ref, got, tol):
    ref, got = np.asarray(ref), np.asarray(got)
    if ref.shape != got.shape:
        return f"shape {got.shape} != {ref.shape}"
    if ref.dtype != got.dtype:
        return f"dtype {got.dtype} != {ref.dtype}"
    if ref.size == 0:
        return None
    fin = np.isfinite(ref)
    scale = np.abs(ref[fin]).max() if fin.any() else 1.0
    with np.errstate(all="ignore"):         # (an infinity is matched only by itself)
        ok = fin & (np.abs(ref - got) <= tol * (np.abs(ref) + scale * 0.01 + 1e-30)) | \
            (np.isnan(ref) & np.isnan(got)) | (ref == got)
    if not ok.all():
        bad = ~ok
        i = tuple(int(x) for x in np.argwhere(bad)[0]) if bad.ndim else ()
        return (f"{int(bad.sum())}/{bad.size} differ, first at {i}: got {got[i]!r} "
                f"want {ref[i]!r}")
    return None


def no_worse(ref, got, exact, tol, noise=0.0, single=True) -> bool:
    """Is single-precision `got` within `tol` of NumPy's `ref` where NumPy's own rounding
    allows: no farther from `exact` (the program run in double precision) than `ref` is,
    plus `tol`, twice the farthest any element of `ref` is (the rounding scale of NumPy's
    float32 computation of this result) and twice `noise` (how far the double program's
    result moves when its inputs move by one float32 rounding: ``perturbed``)?  A float32
    product or sum that cancels (``x - mean(x)`` of values near 1) leaves both far apart
    relative to the result: gnumpy, accumulating in double, may be the closer to the exact
    value, or NumPy's rounding may happen to be the luckier one at an element, both within
    what float32 rounding of the terms allows.  The same holds a double-precision result
    (`single` False) to the program run in extended precision (``extended``), `tol` its
    own: a difference from a mean that is one rounding of the terms apart (seed 84994);
    there NumPy's infinities must be matched.  (The allowance is the output's largest
    own error, so a cancelling block lets a block beside it off by about that much: 2e-16
    of the cancelling terms, below ``compare``'s tolerance at the generator's scales.)"""
    ref, got, exact = np.asarray(ref), np.asarray(got), np.asarray(exact)
    if ref.shape != got.shape or ref.dtype != got.dtype or exact.shape != ref.shape:
        return False
    with np.errstate(all="ignore"):
        err, own = np.abs(got - exact), np.abs(ref - exact)
        fin = own[np.isfinite(own)]
        scale = fin.max() if fin.size else 0.0
        ok = (err <= own + tol * (np.abs(exact) + 1e-30) + 2 * scale +
              2 * np.asarray(noise)) | (np.isnan(ref) & np.isnan(got)) | (ref == got)
        if not single:      # (NumPy's infinity is matched by itself; NumPy's float32
            ok &= np.isfinite(ref) | (ref == got) | np.isnan(got) & np.isnan(ref)
    return bool(ok.all())   # overflow, computed in double by gnumpy, is not)


def extended(inputs) -> dict:
    """`inputs` with float64 and complex128 arrays in the host's extended precision
    (``np.longdouble``: 64 bits of mantissa on x86), or None where it has no more
    digits than double."""
    if np.finfo(np.longdouble).nmant <= 52:
        return None
    up = {np.dtype(np.float64): np.longdouble, np.dtype(np.complex128): np.clongdouble}
    return {k: a.astype(up[a.dtype]) if a.dtype in up else a for k, a in inputs.items()}


def doubled(inputs) -> dict:
    """`inputs` with float32 and complex64 arrays in double precision."""
    up = {np.dtype(np.float32): np.float64, np.dtype(np.complex64): np.complex128}
    return {k: a.astype(up[a.dtype]) if a.dtype in up else a for k, a in inputs.items()}


def perturbed(inputs, seed, step=2.0**-24) -> dict:
    """`inputs` in double precision, each float value moved by at most one float32
    rounding (a random relative step within `step`, 2**-24): a single-precision program's
    results move by about what float32 rounding of its inputs allows when run on them
    (with 2**-52, what double rounding allows)."""
    rng = np.random.default_rng(seed)
    out = {}
    for k, a in doubled(inputs).items():
        if a.dtype.kind in "fc":
            a = a * (1 + rng.uniform(-1, 1, a.shape) * step)
        out[k] = a
    return out


def within_noise(ref, got, moved) -> bool:
    """Is double-precision `got` no farther from NumPy's `ref` than eight times the
    farthest `ref` moves (`moved`: NumPy's results of the program on inputs moved by a
    double rounding or two, ``perturbed(.., 2**-52)``)?  A sum that cancels to 1e-14 of
    its terms (standardized rows summed) is only known to about that: two summation
    orders give values of either sign.  A wrong element moves a result by the scale of
    its terms, far beyond this."""
    ref, got = np.asarray(ref), np.asarray(got)
    if ref.shape != got.shape or ref.dtype != got.dtype:
        return False
    with np.errstate(all="ignore"):
        noise = np.zeros(ref.shape)
        for m in moved:
            m = np.asarray(m)
            if m.shape != ref.shape:
                return False
            noise = np.maximum(noise, np.abs(m - ref))
        ok = (np.abs(got - ref) <= 8 * noise) | (np.isnan(ref) & np.isnan(got)) | \
            (ref == got)
    return bool(ok.all())


# ---------------------------------------------------------------------------- child process

VARIANTS = {"default": {}, "general": {"fast_stages": 1, "fast_programs": False}}
RUNS = ("default", "default", "general")


def _child(seeds, show=False):
    """Run `seeds` on NumPy and on the emulated CUDA backend: one line per seed."""
    import collections
    import ctypes

    sys.path.insert(0, str(HERE))
    import cuda_emu as emucuda
    dev, be = emucuda.install()
    import gnumpy as gp
    import test_blas_host as TBH
    from gnumpy.backends import cuda_program as CP

    stats = collections.Counter()
    replay, build = CP._replay, CP._build

    def _replay(fp, pg, roots, leaves, scalars, dest):
        stats["replay"] += 1
        return replay(fp, pg, roots, leaves, scalars, dest)

    def _build(fp, roots, leaves, scalars, dest=None):
        r = build(fp, roots, leaves, scalars, dest)
        stats["built" if r is not False else "not built"] += 1
        return r
    CP._replay, CP._build = _replay, _build

    alloc = type(be.pool).alloc

    def poisoned(self, nbytes):     # recycled blocks are NaN too, as fresh ones are
        d = alloc(self, nbytes)
        if d.ptr and d.size:
            ctypes.memset(d.ptr, 0xFF, d.size)
        return d
    type(be.pool).alloc = poisoned

    aliased = []

    def addrs(ptr, rows, cols, ld, it):
        r = np.arange(rows, dtype=np.int64)[:, None]
        c = np.arange(cols, dtype=np.int64)[None, :]
        return (ptr + (r + c * ld) * it).ravel()

    gemm = TBH.FakeCublas._gemm

    def _gemm(self, t1, t2, m, n, k, p1, ld1, p2, ld2, pc, ldc, alpha=None, beta=None):
        it = self.dt.itemsize
        C = addrs(pc, m, n, ldc, it)
        if np.intersect1d(C, addrs(p1, *((m, k) if t1 == 0 else (k, m)), ld1, it)).size or \
                np.intersect1d(C, addrs(p2, *((k, n) if t2 == 0 else (n, k)), ld2, it)).size:
            aliased.append(("gemm", m, n, k))
        return gemm(self, t1, t2, m, n, k, p1, ld1, p2, ld2, pc, ldc, alpha, beta)
    TBH.FakeCublas._gemm = _gemm
    getattr_ = TBH.FakeCublas.__getattr__

    def _getattr(self, name):
        f = getattr_(self, name)
        if not name.endswith("gemv"):
            return f

        def g(h, t, m, n, alpha, p, ld, px, incx, beta, py, incy):
            it = self.dt.itemsize
            ny, nx = (m, n) if t == 0 else (n, m)
            y = py + np.arange(ny, dtype=np.int64) * incy * it
            x = px + np.arange(nx, dtype=np.int64) * incx * it
            if np.intersect1d(y, addrs(p, m, n, ld, it)).size or np.intersect1d(y, x).size:
                aliased.append(("gemv", m, n))
            return f(h, t, m, n, alpha, p, ld, px, incx, beta, py, incy)
        return g
    TBH.FakeCublas.__getattr__ = _getattr

    def run_np(src, inputs):
        ns = {}
        exec(src, ns)
        with np.errstate(all="ignore"):
            return ns["prog"](np, lambda *a: None, lambda t: np.array(t),
                              *[inputs[n].copy() for n in NAMES])

    def run_gp(src, inputs, variant):
        ns = {}
        exec(src, ns)
        with gp.config.override(**VARIANTS[variant]):
            args = [gp.asarray(inputs[n].copy(), device=dev) for n in NAMES]
            return [np.asarray(r) for r in ns["prog"](gp, gp.evaluate, np.asarray, *args)]

    def check(seed):
        src, inputs, dt = generate(seed)
        if show:
            print(src)
        try:
            want = [np.asarray(w) for w in run_np(src, inputs)]
        except Exception as e:      # noqa: BLE001
            return "invalid", f"numpy: {type(e).__name__}: {e}"
        single = dt == "float32" or "xp.float32" in src or "xp.complex64" in src
        exact = []          # the program in double precision, run at the first mismatch
        longer = []         # ... in extended precision, at a double one's first
        moved = []          # NumPy's results on inputs moved by double roundings (idem)
        probs = []
        del aliased[:]
        for vi, v in enumerate(RUNS):
            try:
                got = run_gp(src, inputs, v)
            except Exception as e:      # noqa: BLE001
                probs.append(f"{v}#{vi}: {type(e).__name__}: {str(e)[:300]} "
                             + traceback.format_exc(limit=-3).replace("\n", " | "))
                continue
            if len(got) != len(want):
                probs.append(f"{v}#{vi}: {len(got)} results != {len(want)}")
            for j, (w, g) in enumerate(zip(want, got)):
                low = single or w.dtype in (np.float32, np.complex64)
                tol = 2e-4 if low else TOL[dt]
                why = compare(w, g, tol)
                if why and low:
                    if not exact:       # (the program in double, then on inputs moved
                        exact.append(run_np(src, doubled(inputs)))  # by float32 roundings)
                        exact += [run_np(src, perturbed(inputs, k)) for k in range(2)]
                    if all(len(e) == len(want) for e in exact) and no_worse(
                            w, g, exact[0][j], tol, np.maximum(*[np.abs(
                                np.asarray(e[j]) - exact[0][j]) for e in exact[1:]])):
                        why = None
                elif why and w.dtype.kind in "fc":
                    if not moved:
                        moved += [run_np(src, perturbed(inputs, k, 2.0**-52)) for k in range(3)]
                    if all(len(e) == len(want) for e in moved) and \
                            within_noise(w, g, [e[j] for e in moved]):
                        why = None
                    elif (ext := extended(inputs)) is not None:     # (the program in
                        if not longer:                              # extended precision)
                            try:
                                longer.append(run_np(src, ext))
                            except Exception:   # noqa: BLE001 - (linalg has no long loops)
                                longer.append(None)
                        if longer[0] is not None and len(longer[0]) == len(want) and \
                                no_worse(w, g, longer[0][j], tol, single=False):
                            why = None
                if why:
                    name = NAMES[j] if j < len(NAMES) else f"out[{j - len(NAMES)}]"
                    probs.append(f"{v}#{vi}: {name}: {why}")
                    break
        if aliased:
            probs.append(f"a cuBLAS call's output overlaps an input: {aliased[:3]}")
        return ("bad" if probs else "ok"), "; ".join(probs)

    for seed in seeds:
        t = time.perf_counter()
        kind, why = check(seed)
        print(f"[{kind}] seed {seed} {time.perf_counter() - t:.1f}s {why}", flush=True)
    print("program stats:", dict(stats), flush=True)


# ---------------------------------------------------------------------------- the test

# Fixed seeds, chosen cheap (16 s with an empty kernel cache, 5 s warm, on 2 cores) and
# apart: 51001 complex128, deep products (k > 256), linalg.inv/solve; 51003 cumsum, *=,
# batched products; 51029 float32, deep products, writes into an operand of later products;
# 71044 a lazy accumulator, zero-size products, small fused products; 51023 sort, a chain of
# two calls reading the destination, Y[:] = Y @ W2 ..., a strided destination.  Together
# they catch these mutants of cuda_program: stale scalars on a replay (run or write), a
# write key without the leaves' offsets in dest's buffer, intermediates not realized.
SEEDS = [51001, 51003, 51029, 71044, 51023]


def _run_child(seeds):
    env = dict(os.environ)
    env.pop("GNUMPY_DEVICE", None)
    r = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--seeds",
                        ",".join(map(str, seeds))], capture_output=True, text=True, env=env,
                       timeout=600)
    return r.returncode, r.stdout + r.stderr


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is needed to run kernels")
def test_program_replays_match_numpy_and_the_general_path():
    pytest.importorskip("cuda.bindings.nvrtc", reason="the 'cuda' extra is not installed")
    rc, out = _run_child(SEEDS)
    lines = [ln for ln in out.splitlines() if ln.startswith("[")]
    bad = [ln for ln in lines if not ln.startswith("[ok")]
    assert rc == 0 and len(lines) == len(SEEDS) and not bad, "\n".join(bad) or out[-4000:]
    stats = re.search(r"program stats: (\{.*\})", out)
    assert stats, out[-2000:]
    stats = ast.literal_eval(stats.group(1))
    assert stats.get("built", 0) >= 10 and stats.get("replay", 0) >= 200, stats


def test_a_single_precision_answer_nearer_the_exact_one_than_numpys_passes():
    exact = np.array([-0.000254445117, 0.0344])      # seed 83113's product, in double
    ref = np.array([-0.00025463104, 0.0344], np.float32)    # NumPy's float32 sgemm
    nearer = np.array([-0.00025439262, 0.0344], np.float32)     # accumulated in double
    farther = np.array([-0.0002551, 0.0344], np.float32)
    assert compare(ref, nearer, 2e-4) is not None
    assert no_worse(ref, nearer, exact, 2e-4)
    assert not no_worse(ref, farther, exact, 2e-4)


def test_a_single_precision_answer_within_float32_rounding_of_a_cancelling_sum_passes():
    exact = np.float64(-2.137480701991379e-06)  # seed 83304: a float32 dot product's sum,
    ref = np.float64(-2.1420419216156006e-06)   # cancelling to 1e-6 of its terms, in double;
    got = np.float64(-2.125245373463258e-06)    # NumPy's float32 answer, then gnumpy's
    noise = 1.5e-8      # how far the double answer moves on inputs moved by float32 roundings
    assert compare(ref, got, 2e-4) is not None
    assert no_worse(ref, got, exact, 2e-4, noise)   # (2.7 times as far as NumPy's)
    assert not no_worse(ref, np.float64(-2.2e-06), exact, 2e-4, noise)


def test_a_single_precision_answer_at_numpys_rounding_scale_passes():
    exact = np.array([-5.0552e-05, 6.0e-05, -4.0e-05])  # x - mean(x), x float32 near 1
    ref = np.array([-5.0545e-05, 6.0119e-05, -3.9881e-05], np.float32)  # NumPy: 1.2e-7 off
    got = np.array([-5.0664e-05, 6.0e-05, -4.0e-05], np.float32)    # where NumPy is 7e-9 off
    assert compare(ref, got, 2e-4) is not None
    assert no_worse(ref, got, exact, 2e-4)
    assert not no_worse(ref, np.array([-5.2e-05, 6.0e-05, -4.0e-05], np.float32), exact,
                        2e-4)


def test_a_double_precision_answer_within_the_rounding_noise_of_a_cancelling_sum_passes():
    rng = np.random.default_rng(5)         # seed 84360: rows standardized, then summed
    x = rng.random((10, 48)) * 7

    def prog(x):
        y = (x - x.mean(axis=1, keepdims=True)) / x.std(axis=1, keepdims=True) * 26
        return y.sum(axis=1)
    ref = prog(x)                                       # ~1e-14: cancelled
    got = np.array([sum(r) for r in ((x - x.mean(axis=1, keepdims=True)) /
                                     x.std(axis=1, keepdims=True) * 26)])  # in another order
    moved = [prog(perturbed({"x": x}, k, 2.0**-52)["x"]) for k in range(3)]
    assert np.abs(ref).max() < 1e-12 and compare(ref, got, 1e-9) is not None
    assert within_noise(ref, got, moved)
    assert not within_noise(ref, got + 1e-11, moved)    # a thousandth of a term: a fault
    assert not within_noise(ref, got[:-1], moved[:1])


def test_generator_is_deterministic():
    a, b = generate(60003), generate(60003)
    assert a[0] == b[0] and all((a[1][k] == b[1][k]).all() for k in NAMES)
    assert "@" in a[0] or "dot" in a[0] or "mat" in a[0]


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "--seeds":
        _child([int(s) for s in args[1].split(",")], "--show" in args)
    else:
        start, count = int(args[0]), int(args[1]) if len(args) > 1 else 1
        _child(range(start, start + count), "--show" in args)


def test_a_difference_from_a_mean_one_rounding_apart_passes():
    """Seed 84994: ``t2 = t1 - mean(t1, axis=0)`` with t1 = exp(Y * 0.01) + 1.0 within
    4e-5 of 2.0 (one rounding of t1 is 4.4e-16).  gnumpy's column means were the
    exactly rounded ones, NumPy's a rounding or two off, so elements near zero differ by
    1e-8 of their size.  The inputs' noise reads zero there (the + 1.0 rounds it away);
    against the program in extended precision gnumpy's result is no worse than NumPy's,
    and faults of a millionth of the result's scale are still caught."""
    rng = np.random.default_rng(3)
    y = rng.random((30, 34)) * 0.007

    def prog(xp_y):
        t1 = np.exp(xp_y * 0.01) + 1.0
        return t1 - np.mean(t1, axis=0)
    ref = prog(y)
    t1 = np.exp(y * 0.01) + 1.0
    got = t1 - np.array([math.fsum(t1[:, c]) / len(t1) for c in range(t1.shape[1])])
    assert compare(ref, got, 1e-9) is not None
    moved = [prog(perturbed({"y": y}, k, 2.0**-52)["y"]) for k in range(3)]
    assert not within_noise(ref, got, moved)
    ext = extended({"y": y})
    if ext is None:
        pytest.skip("no extended precision on this host")
    exact = prog(ext["y"])
    assert exact.dtype == np.longdouble
    assert no_worse(ref, got, exact, 1e-9, single=False)
    assert not no_worse(ref, got + 1e-11, exact, 1e-9, single=False)
    assert not no_worse(ref, got * (1 + 1e-7), exact, 1e-9, single=False)


def test_an_infinity_is_matched_only_by_itself():
    """NumPy's inf is no tolerance's multiple of anything: a finite or opposite value
    there is a mismatch (``compare``), and the extended-precision rule does not excuse it
    (NumPy's own error there is infinite)."""
    ref = np.array([np.inf, -np.inf, 1.0])
    for got in ([5.0, -np.inf, 1.0], [np.inf, np.inf, 1.0], [np.inf, -1e308, 1.0]):
        got = np.array(got)
        assert compare(ref, got, 1e-9) is not None
        assert not no_worse(ref, got, np.array([1e308, -1e308, 1.0], np.longdouble), 1e-9,
                            single=False)
    assert compare(ref, ref.copy(), 1e-9) is None
    assert no_worse(ref, ref.copy(), np.array([1e308, -1e308, 1.0], np.longdouble), 1e-9,
                    single=False)
