"""Library-shaped work (BLAS, LAPACK, FFT, sort/scan/select, random): gnumpy against CuPy
in the same process on the same inputs (GPU), or gnumpy's CPU backend against NumPy.

    python3 bench/libs.py [--budget 540] [--out libs.json] [--quick] [--cases 'svd*,fft*']
                          [--sizes full|small|cpu] [--peer cupy|numpy] [--no-check]
    GNUMPY_DEVICE=cpu python3 bench/libs.py --quick --sizes small      (a dry run, a minute)
    GNUMPY_DEVICE=cpu python3 bench/cpu_libs.py                        (--peer numpy --sizes cpu)

Every input is generated once with NumPy and uploaded to each library.  A call is timed by
wall clock around the call plus the library's device synchronize (gnumpy: ``evaluate`` of
its outputs, then ``cuda.synchronize``); the first call is timed apart (it includes kernel
compiles, cuFFT plans, CUB builds), then one warm-up call (when the first was cheap), then
the median of up to 15 calls (5 with --quick) or of those that fit in about 2 s (0.5 s).
``--interleave`` (the default on the CPU) times the two libraries in turns.  gnumpy's
result is checked against the peer's (NumPy's on the host when the peer is missing):
values, or invariants where a decomposition is unique only up to signs (svd, eigh, qr), or
statistics for random draws.  JSON is written after every case (``--out``, default
``$OUT/libs.json`` when $OUT is set); a compact table ends the run.
CuPy runs with its default ``cupyx.seterr(linalg='ignore')``: its linalg calls never read
cuSOLVER's status back (no LinAlgError, no synchronize), where gnumpy, as NumPy, raises on
a singular or non-positive-definite matrix and so reads it once a call.
``BENCH_CUPY_LINALG=raise`` runs CuPy with NumPy's checks too (every script that loads
CuPy through ``load_lib``: libs.py, npbench.py, gpu_time.py, sklearn_fit.py).
The run stops starting cases when ``--budget`` seconds are nearly spent and cuts a case off
after ``--case-timeout`` seconds (SIGALRM), recording the error and going on.  The case
table is the "Library-shaped work on the H200" table of ../shared/notes/peers.md.
"""
from __future__ import annotations

import argparse
import contextlib
import fnmatch
import json
import os
import platform
import signal
import statistics
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:            # the working tree's gnumpy, also without PYTHONPATH
    sys.path.insert(1, ROOT)

F32, F64, C64 = np.float32, np.float64, np.complex64


# ------------------------------------------------------------------ budget and time limits

class CaseTimeout(BaseException):
    """Raised by SIGALRM when a case runs past its limit (a BaseException, so no
    ``except Exception`` inside a library swallows it)."""


class Budget:
    """Wall-clock budget of a run: ``remaining()`` seconds, ``limit(s)`` a SIGALRM guard."""

    def __init__(self, seconds, reserve=4.0):
        self.end = time.perf_counter() + seconds
        self.reserve = reserve

    def remaining(self) -> float:
        return self.end - time.perf_counter() - self.reserve

    @contextlib.contextmanager
    def limit(self, seconds):
        s = min(seconds, self.remaining())
        if s <= 0:
            raise CaseTimeout("budget spent")

        def fire(*_):
            raise CaseTimeout(f"timed out after {s:.0f} s")
        old = signal.signal(signal.SIGALRM, fire)
        signal.setitimer(signal.ITIMER_REAL, s)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)


def err_str(e) -> str:
    return f"{type(e).__name__}: {e}"[:300]


def flatten(out):
    """The arrays and scalars of a result (tuples, lists and named tuples unpacked)."""
    if isinstance(out, (tuple, list)):
        return [x for o in out for x in flatten(o)]
    return [] if out is None else [out]


# ------------------------------------------------------------------ libraries

class Lib:
    """One library: ``put`` (host -> library, synchronized), ``finish`` (materialize a
    result and wait for the device), ``host`` (result -> NumPy), ``free``."""
    name = "?"

    def put(self, a):
        return a

    def finish(self, out):
        pass

    def host(self, a):
        return np.asarray(a)

    def free(self):
        pass

    def rng(self, seed):
        return self.xp.random.default_rng(seed)


class NumpyLib(Lib):
    name = "numpy"

    def __init__(self):
        self.xp = np

    def put(self, a):
        return np.array(a, copy=True) if isinstance(a, np.ndarray) else a


class GnumpyLib(Lib):
    name = "gnumpy"

    def __init__(self):
        import gnumpy as gp
        self.xp = self.gp = gp
        self.cuda = (os.environ.get("GNUMPY_DEVICE", "auto").lower() != "cpu"
                     and gp.cuda.is_available())

    def put(self, a):
        if not isinstance(a, np.ndarray):
            return a
        x = self.gp.asarray(a)
        self.finish(x)
        return x

    def finish(self, out):
        arrs = [o for o in flatten(out) if isinstance(o, self.gp.ndarray)]
        if arrs:
            self.gp.evaluate(*arrs)
        if self.cuda:
            self.gp.cuda.synchronize()

    def host(self, a):
        return a.get() if isinstance(a, self.gp.ndarray) else np.asarray(a)

    def free(self):
        if self.cuda:
            self.gp.cuda.free_all_blocks()


class CupyLib(Lib):
    name = "cupy"

    def __init__(self):
        import cupy as cp
        cp.cuda.runtime.getDeviceCount()
        self.xp = self.cp = cp
        mode = os.environ.get("BENCH_CUPY_LINALG")
        if mode:                    # (see the module's docstring)
            import cupyx
            cupyx.seterr(linalg=mode)

    def put(self, a):
        if not isinstance(a, np.ndarray):
            return a
        x = self.cp.asarray(a)
        self.finish(None)
        return x

    def finish(self, out):
        self.cp.cuda.Device().synchronize()

    def host(self, a):
        return self.cp.asnumpy(a) if isinstance(a, self.cp.ndarray) else np.asarray(a)

    def free(self):
        self.cp.get_default_memory_pool().free_all_blocks()


LIBS = {"numpy": NumpyLib, "gnumpy": GnumpyLib, "cupy": CupyLib}


def load_lib(name, log=print):
    """The library adapter, or None (logged) when it does not import or has no device."""
    try:
        return LIBS[name]()
    except Exception as e:      # noqa: BLE001 - a peer that does not import is skipped
        log(f"{name}: unavailable ({err_str(e)})")
        return None


def time_calls(pairs, budget, quick):
    """{library name: {'first_ms', 'ms' (median), 'reps'}} for [(lib, f), ...]: each
    library's first call, one warm-up, then rounds of one timed call per library
    (interleaved, so a change in the machine's load hits all alike) until the repetition
    target or the time target is met."""
    max_reps, target = (5, 0.5) if quick else (15, 2.0)
    target *= len(pairs)

    def once(lib, f):
        t0 = time.perf_counter()
        lib.finish(f())
        return time.perf_counter() - t0
    first = {lib.name: once(lib, f) for lib, f in pairs}
    if sum(first.values()) < target / 2:
        for lib, f in pairs:
            once(lib, f)
    ts = {lib.name: [] for lib, _ in pairs}
    spent = last = 0.0
    for n in range(max_reps):
        if n and (spent >= (target if n >= 3 else 3 * target) or budget.remaining() < 2 * last):
            break
        last = 0.0
        for lib, f in pairs:
            ts[lib.name].append(once(lib, f))
            last += ts[lib.name][-1]
        spent += last
    return {k: {"first_ms": first[k] * 1e3, "ms": statistics.median(v) * 1e3, "reps": len(v)}
            for k, v in ts.items()}


# ------------------------------------------------------------------ checks

def _rel(a, b):
    a, b = np.asarray(a, dtype=np.complex128 if np.iscomplexobj(a) else np.float64), \
        np.asarray(b, dtype=np.complex128 if np.iscomplexobj(b) else np.float64)
    if a.shape != b.shape:
        raise AssertionError(f"shape {a.shape} != reference {b.shape}")
    nb = np.linalg.norm(b.ravel())
    return float(np.linalg.norm((a - b).ravel()) / (nb if nb else 1.0))


def close(tol, first_only=False):
    """Relative Frobenius error of every output (or the first) against the reference."""
    def check(out, ref, inp):
        n = 1 if first_only else len(ref)
        return max(_rel(o, r) for o, r in zip(out[:n], ref[:n])), tol
    return check


def exact(out, ref, inp):
    for o, r in zip(out, ref):
        if o.shape != r.shape:
            raise AssertionError(f"shape {o.shape} != reference {r.shape}")
    bad = sum(int(np.count_nonzero(o != r)) for o, r in zip(out, ref))
    return bad, 0


def check_svd(tol):
    def check(out, ref, inp):
        u, s, vh = out
        a = inp["a"]
        return max(_rel(s, ref[1]), _rel((u * s[..., None, :]) @ vh, a)), tol
    return check


def check_eigh(tol):
    def check(out, ref, inp):
        w, v = out
        a = inp["a"]
        res = np.linalg.norm(a @ v - v * w) / np.linalg.norm(a)
        return max(_rel(w, ref[0]), float(res)), tol
    return check


def check_qr(tol):
    def check(out, ref, inp):
        q, r = out
        return max(_rel(q @ r, inp["a"]), _rel(np.abs(r), np.abs(ref[1]))), tol
    return check


def check_argsort(out, ref, inp):
    a = inp["a"]
    return int(np.count_nonzero(a[out[0]] != a[ref[0]])), 0


def check_hist(out, ref, inp):
    return float(np.abs(out[0].astype(np.int64) - ref[0]).sum() / inp["x"].size
                 + _rel(out[1], ref[1])), 1e-5


def check_kmeans(out, ref, inp):
    return float(np.count_nonzero(out[0] != ref[0]) / out[0].size), 1e-4


def stats(mean, std):
    def check(out, ref, inp):
        x = out[0][:1 << 24].astype(np.float64)
        tol = 6.0 / np.sqrt(x.size)
        return float(max(abs(x.mean() - mean), abs(x.std() - std)) / std), tol
    return check


# ------------------------------------------------------------------ cases

def _rn(rng, shape, dt=F64):
    return rng.standard_normal(shape).astype(dt)


def _spd(rng, n):
    m = rng.standard_normal((n, n))
    return m @ m.T / n + np.eye(n)


def _cplx(rng, shape):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(C64)


def _svdvals(xp, a):
    f = getattr(xp.linalg, "svdvals", None)
    return f(a) if f is not None else xp.linalg.svd(a, compute_uv=False)


def _uniform(xp, d, p):
    if p.get("dt", "float32") == "float64":
        return d["rng"].uniform(0.0, 1.0, p["n"])
    return d["rng"].random(p["n"], dtype=F32)


def pretty(p) -> dict:
    """Size parameters for labels: 2^k for powers of two from 2^16, thousands separators
    above 10,000."""
    out = {}
    for k, v in p.items():
        if isinstance(v, int) and v >= 1 << 16 and v & (v - 1) == 0:
            v = f"2^{v.bit_length() - 1}"
        elif isinstance(v, int) and v > 10000:
            v = f"{v:,}"
        out[k] = v
    return out


class Case:
    """`make(rng, p)` -> host inputs; `run(xp, d, p)` -> result; `check(out, ref, inp)` ->
    (error, tolerance) on host arrays; `sizes[preset]` -> p (absent: not in that preset)."""

    def __init__(self, name, label, sizes, make, run, check, needs_ref=True, rng=False):
        self.name, self.label, self.sizes = name, label, sizes
        self.make, self.run, self.check = make, run, check
        self.needs_ref, self.rng = needs_ref, rng


def _sq(dt):
    return lambda r, p: {"a": _rn(r, (p["n"], p["n"]), dt), "b": _rn(r, (p["n"], p["n"]), dt)}


def _v(key, dt):
    return lambda r, p: {key: _rn(r, p["n"], dt)}


SIZES = ("full", "small", "cpu")


def _s(full, small, cpu):
    return {k: v for k, v in zip(SIZES, (full, small, cpu)) if v is not None}


CASES = [
    Case("matmul_f32", "matmul f32 {n}²", _s({"n": 4096}, {"n": 256}, {"n": 1024}),
         _sq(F32), lambda xp, d, p: d["a"] @ d["b"], close(1e-4)),
    Case("matmul_f64", "matmul f64 {n}²", _s({"n": 4096}, {"n": 256}, {"n": 1024}),
         _sq(F64), lambda xp, d, p: d["a"] @ d["b"], close(1e-11)),
    Case("matmul_f32_big", "matmul f32 {n}²", _s({"n": 8192}, {"n": 320}, None),
         _sq(F32), lambda xp, d, p: d["a"] @ d["b"], close(1e-4)),
    Case("matmul_f64_big", "matmul f64 {n}²", _s({"n": 8192}, {"n": 320}, None),
         _sq(F64), lambda xp, d, p: d["a"] @ d["b"], close(1e-11)),
    Case("bmm_f32", "batched matmul f32 {b}×{n}²",
         _s({"b": 512, "n": 128}, {"b": 64, "n": 32}, {"b": 64, "n": 128}),
         lambda r, p: {"a": _rn(r, (p["b"], p["n"], p["n"]), F32),
                       "b": _rn(r, (p["b"], p["n"], p["n"]), F32)},
         lambda xp, d, p: d["a"] @ d["b"], close(1e-4)),
    Case("gemv_f32", "gemv f32 {n}²", _s({"n": 16384}, {"n": 1024}, {"n": 4096}),
         lambda r, p: {"a": _rn(r, (p["n"], p["n"]), F32), "x": _rn(r, p["n"], F32)},
         lambda xp, d, p: d["a"] @ d["x"], close(1e-4)),
    Case("xtx_f64", "Xᵀ X f64 {m}×{n}", _s({"m": 100000, "n": 256}, {"m": 5000, "n": 64},
                                            {"m": 20000, "n": 256}),
         lambda r, p: {"a": _rn(r, (p["m"], p["n"]))},
         lambda xp, d, p: d["a"].T @ d["a"], close(1e-11)),
    Case("svd_f64", "svd f64 {m}×{n} (reduced)", _s({"m": 4096, "n": 256},
                                                    {"m": 400, "n": 64}, {"m": 1000, "n": 200}),
         lambda r, p: {"a": _rn(r, (p["m"], p["n"]))},
         lambda xp, d, p: xp.linalg.svd(d["a"], full_matrices=False), check_svd(1e-10)),
    Case("svd_sq_f64", "svd f64 {n}²", _s(None, None, {"n": 200}),
         lambda r, p: {"a": _rn(r, (p["n"], p["n"]))},
         lambda xp, d, p: xp.linalg.svd(d["a"]), check_svd(1e-10)),
    Case("svd_stack_f64", "svd f64 stack {b}×{n}²", _s({"b": 10000, "n": 8}, {"b": 100, "n": 8},
                                                      {"b": 10000, "n": 8}),
         lambda r, p: {"a": _rn(r, (p["b"], p["n"], p["n"]))},
         lambda xp, d, p: xp.linalg.svd(d["a"]), check_svd(1e-10)),
    Case("svdvals_f32", "svdvals f32 {m}×{n}", _s({"m": 2048, "n": 512}, {"m": 256, "n": 64},
                                                  {"m": 1000, "n": 200}),
         lambda r, p: {"a": _rn(r, (p["m"], p["n"]), F32)},
         lambda xp, d, p: _svdvals(xp, d["a"]), close(1e-4)),
    Case("eigh_f64", "eigh f64 {n}²", _s({"n": 1024}, {"n": 128}, {"n": 200}),
         lambda r, p: {"a": _spd(r, p["n"]) - 1.5 * np.eye(p["n"])},
         lambda xp, d, p: xp.linalg.eigh(d["a"]), check_eigh(1e-10)),
    Case("solve_f64", "solve f64 {n}², {k} rhs", _s({"n": 4096, "k": 16}, {"n": 256, "k": 16},
                                                    {"n": 200, "k": 16}),
         lambda r, p: {"a": _rn(r, (p["n"], p["n"])) + p["n"] ** 0.5 * np.eye(p["n"]),
                       "b": _rn(r, (p["n"], p["k"]))},
         lambda xp, d, p: xp.linalg.solve(d["a"], d["b"]), close(1e-9)),
    # small matrices (gnumpy's one-launch LU and Cholesky kernels, linalg/_small.py;
    # cuSOLVER with GNUMPY_LINALG_SMALL_N=0): stacks, and contour_integral's 50² system
    Case("solve_stack_f64", "solve f64 stack {b}×{n}², 1 rhs",
         _s({"b": 10000, "n": 4}, {"b": 100, "n": 4}, {"b": 10000, "n": 4}),
         lambda r, p: {"a": _rn(r, (p["b"], p["n"], p["n"])) + 2 * np.eye(p["n"]),
                       "b": _rn(r, (p["b"], p["n"], 1))},
         lambda xp, d, p: xp.linalg.solve(d["a"], d["b"]), close(1e-9)),
    Case("inv_stack_f64", "inv f64 stack {b}×{n}²",
         _s({"b": 1000, "n": 16}, {"b": 50, "n": 16}, {"b": 1000, "n": 16}),
         lambda r, p: {"a": _rn(r, (p["b"], p["n"], p["n"])) + 4 * np.eye(p["n"])},
         lambda xp, d, p: xp.linalg.inv(d["a"]), close(1e-9)),
    Case("det_stack_f64", "det f64 stack {b}×{n}²",
         _s({"b": 10000, "n": 8}, {"b": 100, "n": 8}, {"b": 10000, "n": 8}),
         lambda r, p: {"a": _rn(r, (p["b"], p["n"], p["n"])) + 3 * np.eye(p["n"])},
         lambda xp, d, p: xp.linalg.det(d["a"]), close(1e-9)),
    Case("cholesky_stack_f64", "cholesky f64 stack {b}×{n}²",
         _s({"b": 1000, "n": 16}, {"b": 50, "n": 16}, {"b": 1000, "n": 16}),
         lambda r, p: {"a": np.stack([_spd(r, p["n"]) for _ in range(p["b"])])},
         lambda xp, d, p: xp.linalg.cholesky(d["a"]), close(1e-10)),
    Case("solve_c128_50", "solve c128 {n}², {k} rhs", _s({"n": 50, "k": 150},
                                                         {"n": 50, "k": 150}, {"n": 50, "k": 150}),
         lambda r, p: {"a": (_rn(r, (p["n"], p["n"])) + 1j * _rn(r, (p["n"], p["n"]))
                             + 8 * np.eye(p["n"])).astype(np.complex128),
                       "b": (_rn(r, (p["n"], p["k"])) + 1j * _rn(r, (p["n"], p["k"])))
                       .astype(np.complex128)},
         lambda xp, d, p: xp.linalg.solve(d["a"], d["b"]), close(1e-9)),
    Case("inv_f64_32", "inv f64 {n}²", _s({"n": 32}, {"n": 32}, {"n": 32}),
         lambda r, p: {"a": _rn(r, (p["n"], p["n"])) + 6 * np.eye(p["n"])},
         lambda xp, d, p: xp.linalg.inv(d["a"]), close(1e-9)),
    Case("solve_f64_64", "solve f64 {n}², {k} rhs", _s({"n": 64, "k": 1}, {"n": 64, "k": 1},
                                                      {"n": 64, "k": 1}),
         lambda r, p: {"a": _rn(r, (p["n"], p["n"])) + 8 * np.eye(p["n"]),
                       "b": _rn(r, (p["n"], p["k"]))},
         lambda xp, d, p: xp.linalg.solve(d["a"], d["b"]), close(1e-9)),
    Case("qr_stack_f64", "qr f64 stack {b}×{n}²",
         _s({"b": 10000, "n": 8}, {"b": 100, "n": 8}, {"b": 10000, "n": 8}),
         lambda r, p: {"a": _rn(r, (p["b"], p["n"], p["n"]))},
         lambda xp, d, p: xp.linalg.qr(d["a"]), check_qr(1e-10)),
    Case("qr_stack_tall_f64", "qr f64 stack {b}×{m}×{n}",
         _s({"b": 2000, "m": 32, "n": 8}, {"b": 50, "m": 32, "n": 8},
            {"b": 2000, "m": 32, "n": 8}),
         lambda r, p: {"a": _rn(r, (p["b"], p["m"], p["n"]))},
         lambda xp, d, p: xp.linalg.qr(d["a"]), check_qr(1e-10)),
    Case("qr_stack_c128", "qr c128 stack {b}×{n}²",
         _s({"b": 1000, "n": 16}, {"b": 50, "n": 16}, {"b": 1000, "n": 16}),
         lambda r, p: {"a": (_rn(r, (p["b"], p["n"], p["n"])) +
                             1j * _rn(r, (p["b"], p["n"], p["n"]))).astype(np.complex128)},
         lambda xp, d, p: xp.linalg.qr(d["a"]), check_qr(1e-10)),
    Case("qr_f64_16", "qr f64 {n}²", _s({"n": 16}, {"n": 16}, {"n": 16}),
         lambda r, p: {"a": _rn(r, (p["n"], p["n"]))},
         lambda xp, d, p: xp.linalg.qr(d["a"]), check_qr(1e-10)),
    Case("cholesky_f64", "cholesky f64 {n}²", _s({"n": 4096}, {"n": 256}, {"n": 500}),
         lambda r, p: {"a": _spd(r, p["n"])},
         lambda xp, d, p: xp.linalg.cholesky(d["a"]), close(1e-10)),
    Case("qr_f64", "qr f64 {m}×{n}", _s({"m": 4096, "n": 1024}, {"m": 256, "n": 64},
                                        {"m": 500, "n": 500}),
         lambda r, p: {"a": _rn(r, (p["m"], p["n"]))},
         lambda xp, d, p: xp.linalg.qr(d["a"]), check_qr(1e-10)),
    Case("inv_f64", "inv f64 {n}²", _s({"n": 2048}, {"n": 256}, {"n": 500}),
         lambda r, p: {"a": _rn(r, (p["n"], p["n"])) + p["n"] ** 0.5 * np.eye(p["n"])},
         lambda xp, d, p: xp.linalg.inv(d["a"]), close(1e-9)),
    Case("lstsq_f64", "lstsq f64 {m}×{n}", _s({"m": 4096, "n": 256}, {"m": 512, "n": 32},
                                              {"m": 1000, "n": 200}),
         lambda r, p: {"a": _rn(r, (p["m"], p["n"])), "b": _rn(r, p["m"])},
         lambda xp, d, p: xp.linalg.lstsq(d["a"], d["b"], rcond=None), close(1e-9, True)),
    Case("pinv_f64", "pinv f64 {m}×{n}", _s(None, None, {"m": 500, "n": 200}),
         lambda r, p: {"a": _rn(r, (p["m"], p["n"]))},
         lambda xp, d, p: xp.linalg.pinv(d["a"]), close(1e-9)),
    Case("det_f64", "det f64 {n}²", _s(None, None, {"n": 500}),
         lambda r, p: {"a": np.eye(p["n"]) + _rn(r, (p["n"], p["n"])) / p["n"]},
         lambda xp, d, p: xp.linalg.det(d["a"]), close(1e-9)),
    Case("fft_c64", "fft c64 {n}", _s({"n": 1 << 24}, {"n": 1 << 16}, {"n": 1 << 20}),
         lambda r, p: {"x": _cplx(r, p["n"])},
         lambda xp, d, p: xp.fft.fft(d["x"]), close(1e-4)),
    Case("rfft_f32", "rfft f32 {n}", _s({"n": 1 << 24}, {"n": 1 << 16}, {"n": 1 << 20}),
         _v("x", F32), lambda xp, d, p: xp.fft.rfft(d["x"]), close(1e-4)),
    Case("fft_prime_c64", "fft c64 n = {n}", _s({"n": 1000003}, {"n": 10007}, {"n": 100003}),
         lambda r, p: {"x": _cplx(r, p["n"])},
         lambda xp, d, p: xp.fft.fft(d["x"]), close(1e-4)),
    Case("fft2_c64", "fft2 c64 {n}²", _s({"n": 4096}, {"n": 256}, {"n": 1024}),
         lambda r, p: {"x": _cplx(r, (p["n"], p["n"]))},
         lambda xp, d, p: xp.fft.fft2(d["x"]), close(1e-4)),
    Case("sort_f32", "sort f32 {n}", _s({"n": 1 << 26}, {"n": 1 << 18}, {"n": 1 << 22}),
         _v("a", F32), lambda xp, d, p: xp.sort(d["a"]), exact),
    Case("argsort_f32", "argsort f32 {n}", _s({"n": 1 << 24}, {"n": 1 << 16}, {"n": 1 << 22}),
         _v("a", F32), lambda xp, d, p: xp.argsort(d["a"]), check_argsort),
    Case("sort_rows_f32", "sort rows f32 {n}², axis 1",
         _s({"n": 4096}, {"n": 256}, {"n": 1024}),
         lambda r, p: {"a": _rn(r, (p["n"], p["n"]), F32)},
         lambda xp, d, p: xp.sort(d["a"], axis=1), exact),
    Case("unique_i32", "unique int32 {n}", _s({"n": 1 << 24}, {"n": 1 << 16}, {"n": 1 << 22}),
         lambda r, p: {"a": r.integers(0, p["n"] // 4, p["n"], dtype=np.int32)},
         lambda xp, d, p: xp.unique(d["a"]), exact),
    # small integers: every partial sum is exact in float32, whatever the summation order
    Case("cumsum_f32", "cumsum f32 {n}", _s({"n": 1 << 28}, {"n": 1 << 18}, {"n": 1 << 24}),
         lambda r, p: {"a": r.integers(-3, 4, p["n"], dtype=np.int8).astype(F32)},
         lambda xp, d, p: xp.cumsum(d["a"]), exact),
    Case("searchsorted", "searchsorted {m} into {n}",
         _s({"m": 1 << 22, "n": 1 << 24}, {"m": 1 << 14, "n": 1 << 16},
            {"m": 1 << 20, "n": 1 << 22}),
         lambda r, p: {"a": np.sort(r.random(p["n"], dtype=F32)), "v": r.random(p["m"], F32)},
         lambda xp, d, p: xp.searchsorted(d["a"], d["v"]), exact),
    Case("histogram", "histogram {n}, 256 bins", _s({"n": 1 << 26}, {"n": 1 << 18},
                                                   {"n": 1 << 22}),
         _v("x", F32), lambda xp, d, p: xp.histogram(d["x"], bins=256), check_hist),
    Case("bincount", "bincount {n}", _s({"n": 1 << 26}, {"n": 1 << 18}, {"n": 1 << 22}),
         lambda r, p: {"a": r.integers(0, 4096, p["n"])},
         lambda xp, d, p: xp.bincount(d["a"]), exact),
    Case("gather", "gather a[idx] {n}", _s({"n": 1 << 26}, {"n": 1 << 18}, {"n": 1 << 22}),
         lambda r, p: {"a": _rn(r, p["n"], F32), "i": r.integers(0, p["n"], p["n"])},
         lambda xp, d, p: d["a"][d["i"]], exact),
    Case("array_elements", "array of {k} elements of a vector", _s({"k": 10}, {"k": 10},
                                                                   {"k": 10}),
         lambda r, p: {"v": _rn(r, 1000)},
         lambda xp, d, p: xp.array([d["v"][i * 7] for i in range(p["k"])]), exact),
    Case("concat_slices", "concatenate {k} slices of {n}", _s({"k": 10, "n": 5},
                                                              {"k": 10, "n": 5},
                                                              {"k": 10, "n": 5}),
         lambda r, p: {"v": _rn(r, 1000)},
         lambda xp, d, p: xp.concatenate([d["v"][i * 9:i * 9 + p["n"]]
                                          for i in range(p["k"])]), exact),
    Case("stack_rows", "stack {k} rows of {n}²", _s({"k": 8, "n": 256}, {"k": 8, "n": 64},
                                                    {"k": 8, "n": 256}),
         lambda r, p: {"m": _rn(r, (p["n"], p["n"]))},
         lambda xp, d, p: xp.stack([d["m"][i] * 2 for i in range(p["k"])], axis=1), exact),
    Case("bool_mask", "boolean mask a[a > .5] {n}", _s({"n": 1 << 26}, {"n": 1 << 18},
                                                      {"n": 1 << 22}),
         lambda r, p: {"a": r.random(p["n"], dtype=F32)},
         lambda xp, d, p: d["a"][d["a"] > 0.5], exact),
    Case("standard_normal", "standard_normal {dt} {n}",
         _s({"n": 1 << 28, "dt": "float32"}, {"n": 1 << 18, "dt": "float32"},
            {"n": 2000000, "dt": "float64"}),
         lambda r, p: {},
         lambda xp, d, p: d["rng"].standard_normal(p["n"], dtype=np.dtype(p["dt"])),
         stats(0.0, 1.0), needs_ref=False, rng=True),
    Case("uniform", "uniform {dt} {n}",
         _s({"n": 1 << 28, "dt": "float32"}, {"n": 1 << 18, "dt": "float32"},
            {"n": 2000000, "dt": "float64"}),
         lambda r, p: {}, _uniform, stats(0.5, 12 ** -0.5), needs_ref=False, rng=True),
    Case("integers", "integers int64 {n}", _s(None, None, {"n": 2000000}),
         lambda r, p: {}, lambda xp, d, p: d["rng"].integers(0, 1000, p["n"]),
         stats(499.5, (1000 ** 2 / 12 - 1 / 12) ** 0.5), needs_ref=False, rng=True),
    Case("argmax_rows", "argmax axis 1 {n}²", _s({"n": 16384}, {"n": 512}, {"n": 4096}),
         lambda r, p: {"a": _rn(r, (p["n"], p["n"]), F32)},
         lambda xp, d, p: xp.argmax(d["a"], axis=1), exact),
    Case("kmeans", "k-means distances + argmin {n}×{k}×{d}",
         _s({"n": 1 << 20, "k": 16, "d": 64}, {"n": 4096, "k": 16, "d": 64},
            {"n": 100000, "k": 16, "d": 64}),
         lambda r, p: {"x": _rn(r, (p["n"], p["d"]), F32), "c": _rn(r, (p["k"], p["d"]), F32)},
         lambda xp, d, p: ((d["x"][:, None, :] - d["c"][None, :, :]) ** 2).sum(-1).argmin(1),
         check_kmeans),
]


# ------------------------------------------------------------------ the run

def run_case(case, p, gn, peer, budget, args, log):
    """One case: inputs, the peer's timing and result, gnumpy's, the check.  With
    `args.interleave` both libraries hold their inputs at once and are timed in turns;
    otherwise one after the other, each library's memory freed before the next."""
    rec = {"label": case.label.format(**pretty(p)), "sizes": p}
    inp = case.make(np.random.default_rng(1234), p)
    outs = {}
    libs = [x for x in (peer, gn) if x is not None]
    for group in ([libs] if args.interleave else [[lib] for lib in libs]):
        pairs = []
        try:
            for lib in group:
                try:
                    with budget.limit(args.case_timeout):
                        d = {k: lib.put(v) for k, v in inp.items()}
                        if case.rng:
                            d["rng"] = lib.rng(7)
                    pairs.append((lib, lambda d=d, lib=lib: case.run(lib.xp, d, p)))
                except (Exception, CaseTimeout) as e:   # noqa: BLE001
                    rec[lib.name] = {"error": err_str(e)}
                d = None
            try:
                with budget.limit(args.case_timeout * max(1, len(pairs))):
                    rec.update(time_calls(pairs, budget, args.quick) if pairs else {})
            except (Exception, CaseTimeout) as e:   # noqa: BLE001
                if len(pairs) == 1:
                    rec[pairs[0][0].name] = {"error": err_str(e)}
                else:                   # each alone, to learn whose error it is
                    for pair in pairs:
                        try:
                            with budget.limit(args.case_timeout):
                                rec.update(time_calls([pair], budget, args.quick))
                        except (Exception, CaseTimeout) as e1:   # noqa: BLE001
                            rec[pair[0].name] = {"error": err_str(e1)}
            for lib, f in pairs:
                if args.no_check or "ms" not in rec.get(lib.name, {}) or not (
                        lib is gn or case.needs_ref):
                    continue
                try:
                    with budget.limit(args.case_timeout):
                        outs[lib.name] = [lib.host(o) for o in flatten(f())]
                except (Exception, CaseTimeout) as e:   # noqa: BLE001
                    rec[lib.name]["result_error"] = err_str(e)
        finally:
            pairs = None                # the inputs go before the pools are trimmed
            for lib in group:
                with contextlib.suppress(Exception):
                    lib.free()
    g, pr = rec.get(gn.name, {}), rec.get(peer.name if peer else "", {})
    if "ms" in g and "ms" in pr:
        rec["peer_over_gnumpy"] = pr["ms"] / g["ms"]
        rec["gnumpy_over_peer"] = g["ms"] / pr["ms"]
    if "gnumpy" in outs:
        try:
            ref = outs.get(peer.name) if peer else None
            if case.needs_ref:
                rec["ref"] = peer.name if ref is not None else "numpy (host)"
                if ref is None:
                    with budget.limit(args.case_timeout):
                        ref = [np.asarray(o) for o in flatten(case.run(np, dict(inp), p))]
            e, tol = case.check(outs["gnumpy"], ref, inp)
            rec["check"] = {"ok": bool(e <= tol), "err": float(e), "tol": float(tol)}
            if ref is not None:
                dts = [str(o.dtype) for o in outs["gnumpy"]], [str(o.dtype) for o in ref]
                if dts[0] != dts[1]:
                    rec["check"]["dtypes"] = dts
        except (Exception, CaseTimeout) as e:   # noqa: BLE001
            rec["check"] = {"ok": False, "error": err_str(e)}
    return rec


def select(cases, preset, patterns):
    out = []
    for c in cases:
        if preset not in c.sizes:
            continue
        if patterns and not any(fnmatch.fnmatch(c.name, pat) for pat in patterns):
            continue
        out.append(c)
    return out


def table(res, peer_name, cpu_ratio=False) -> list:
    pn = peer_name or "peer"
    rh = f"gnumpy/{pn}" if cpu_ratio else f"{pn}/gnumpy"
    lines = [f"| case | {pn} ms | gnumpy ms | {rh} | gnumpy first ms | check |",
             "|---|---|---|---|---|---|"]
    for name in res["order"]:
        r = res["cases"][name]
        g, p = r.get("gnumpy", {}), r.get(pn, {})
        gms = f"{g['ms']:.3f}" if "ms" in g else "error" if "error" in g else ""
        pms = f"{p['ms']:.3f}" if "ms" in p else "error" if "error" in p else ""
        ratio = r.get("gnumpy_over_peer" if cpu_ratio else "peer_over_gnumpy")
        ck = r.get("check", {})
        cs = ("ok" if ck.get("ok") else "MISMATCH" if "err" in ck else
              "error" if ck else "")
        if "err" in ck:
            cs += f" ({ck['err']:.2g})"
        first = f"{g['first_ms']:.1f}" if "first_ms" in g else ""
        lines.append(f"| {r['label']} | {pms} | {gms} | "
                     f"{'' if ratio is None else f'{ratio:.2f}'} | {first} | {cs} |")
    return lines


def errors(res) -> list:
    out = []
    for name in res["order"]:
        r = res["cases"][name]
        for k in ("gnumpy", res.get("peer") or "-", "check"):
            v = r.get(k)
            if isinstance(v, dict) and "error" in v:
                out.append(f"{name} [{k}]: {v['error'][:200]}")
    return out


def versions(libs) -> dict:
    v = {"python": platform.python_version(), "numpy": np.__version__}
    for lib in libs:
        if lib is None or lib.name == "numpy":
            continue
        with contextlib.suppress(Exception):
            v[lib.name] = getattr(lib.xp, "__version__", "?")
        if lib.name == "gnumpy" and lib.cuda:
            with contextlib.suppress(Exception):
                v["device"] = lib.gp.cuda.Device().name
    return v


def default_out(name):
    d = os.environ.get("OUT")
    return os.path.join(d, name) if d else name


def main(argv=None, cpu_mode=False):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", type=float, default=540.0, help="seconds for the whole run")
    ap.add_argument("--case-timeout", type=float, default=90.0,
                    help="seconds for one library on one case")
    ap.add_argument("--out", default=None)
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    ap.add_argument("--cases", default="", help="comma-separated names or glob patterns")
    ap.add_argument("--sizes", choices=SIZES, default="cpu" if cpu_mode else "full")
    ap.add_argument("--peer", choices=("cupy", "numpy", "none"),
                    default="numpy" if cpu_mode else "cupy")
    ap.add_argument("--no-check", action="store_true")
    ap.add_argument("--interleave", action=argparse.BooleanOptionalAction, default=cpu_mode,
                    help="time the two libraries in turns on inputs held at once (default "
                    "with --peer numpy on the CPU, where the load of the machine varies)")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    args = ap.parse_args(argv)
    budget = Budget(args.budget)
    cases = select(CASES, args.sizes, [s for s in args.cases.split(",") if s])
    if args.list:
        for c in cases:
            print(f"{c.name:16s} {c.label.format(**pretty(c.sizes[args.sizes]))}")
        return
    out_path = args.out or default_out("cpu_libs.json" if cpu_mode else "libs.json")
    lines = []

    def log(s):
        print(s, flush=True)
        lines.append(s)
    gn = load_lib("gnumpy", log)
    if gn is None:
        sys.exit(1)
    peer = None if args.peer == "none" else load_lib(args.peer, log)
    res = {"script": "cpu_libs" if cpu_mode else "libs", "sizes": args.sizes,
           "peer": peer.name if peer else None, "quick": args.quick,
           "host": platform.node(), "started": time.strftime("%Y-%m-%d %H:%M:%S"),
           "versions": versions([gn, peer]), "cases": {}, "order": [], "log": lines}

    def save():
        with open(out_path, "w") as f:
            json.dump(res, f, indent=1)
    log(f"{len(cases)} cases, sizes {args.sizes}, peer {res['peer']}, budget {args.budget:.0f} s"
        f", results in {out_path}")
    for case in cases:
        if budget.remaining() < 5:
            log(f"budget spent: stopped before {case.name}")
            res["stopped_before"] = case.name
            break
        t0 = time.perf_counter()
        try:
            rec = run_case(case, case.sizes[args.sizes], gn, peer, budget, args, log)
        except (Exception, CaseTimeout) as e:   # noqa: BLE001 - inputs failed
            rec = {"label": case.label.format(**pretty(case.sizes[args.sizes])),
                   "error": err_str(e)}
        rec["wall_s"] = time.perf_counter() - t0
        res["cases"][case.name] = rec
        res["order"].append(case.name)
        pn = res["peer"] or "peer"
        g, p = rec.get("gnumpy", {}), rec.get(pn, {})
        log(f"{case.name:16s} {pn} {p.get('ms', float('nan')):10.3f} ms  gnumpy "
            f"{g.get('ms', float('nan')):10.3f} ms (first {g.get('first_ms', float('nan')):.1f})"
            f"  check {rec.get('check', {})}  {rec.get('error', '')}"
            f"{g.get('error', '')}")
        save()
    res["table"] = table(res, res["peer"], cpu_ratio=cpu_mode)
    res["errors"] = errors(res)
    save()
    print("\n" + "\n".join(res["table"]))
    if res["errors"]:
        print("\nerrors:\n  " + "\n  ".join(res["errors"]))
    if cpu_mode:
        rs = [r["gnumpy_over_peer"] for r in res["cases"].values() if "gnumpy_over_peer" in r]
        if rs:
            print(f"\ngnumpy/numpy: {sum(x <= 1.2 for x in rs)} of {len(rs)} cases within 1.2x;"
                  f" geometric mean {float(np.exp(np.mean(np.log(rs)))):.2f}x")
    else:
        rs = [r["peer_over_gnumpy"] for r in res["cases"].values() if "peer_over_gnumpy" in r]
        if rs:
            print(f"\ngnumpy faster than {res['peer']} on {sum(x > 1 for x in rs)} of {len(rs)}; "
                  f"geometric mean {res['peer']}/gnumpy {float(np.exp(np.mean(np.log(rs)))):.2f}")
    bad = [n for n, r in res["cases"].items() if r.get("check", {}).get("ok") is False]
    print(f"checks: {len(bad)} failed" + (f": {', '.join(bad)}" if bad else ""))


if __name__ == "__main__":
    main()
