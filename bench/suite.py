"""The side-by-side GPU benchmark: gnumpy against every peer importable here, in one run.

    python3 bench/suite.py --out results.json [--quick] [--libs gnumpy,cupy,...]
                           [--cases standardize,softmax,...]   (a subset: only these)

Cases (2^28 float32 vectors, a 16384 x 16384 float32 matrix): SAXPY, the 7-op expression,
sum, sum((x-y)**2), row and column sums, mean/var/std, softmax over rows, standardization
``(X - X.mean(0)) / X.std(0)``; dispatch (wall time per tiny fused SAXPY call, 1,000
elements), a Python loop of 100 dependent small updates, CUDA graph replay of a 100-kernel
loop, first-call latency, and a size sweep 2^10..2^28 for SAXPY and sum.  Device time is
measured with each library's CUDA events around 5 back-to-back calls (JAX: wall clock),
median of 15 after warm-up; GB/s counts each input read once and each output written once.
Results are written after every library, so a run cut short keeps what it measured;
``bench/report.py`` turns them into docs/benchmarks.md and the plots.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import sys
import time

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402

M = 16384
N = M * M

CASES = {      # name -> ideal bytes per element of the case's iteration space
    "saxpy": 12, "expr7": 12, "sum": 4, "sumsq_diff": 8, "row_sum": 4, "col_sum": 4,
    "mean": 4, "var": 4, "std": 4, "softmax": 8, "standardize": 8,
}
SWEEP = [1 << k for k in range(10, 29, 2)]


def run_lib(cls, xh, yh, Xh, a, quick, log, only=()):
    t0 = time.perf_counter()
    try:
        ad = cls(xh, yh, Xh, a)
    except Exception as e:      # noqa: BLE001 - a peer that does not import is skipped
        log(f"{cls.name}: unavailable ({type(e).__name__}: {e})")
        return None
    out = {"cases": {}, "sweep": {}}
    n = xh.size
    reps = 7 if quick else 15
    for case, per in CASES.items():
        if only and case not in only:
            continue
        try:
            f = ad.case(case)
            if f is None:
                continue
            s, first = ad.time(f, reps=reps)
            out["cases"][case] = {"s": s, "GBs": per * n / s / 1e9, "first_s": first}
            log(f"{cls.name:14s} {case:12s} {per * n / s / 1e9:8.0f} GB/s  "
                f"(first call {first * 1e3:.0f} ms)")
        except Exception as e:  # noqa: BLE001
            out["cases"][case] = {"error": f"{type(e).__name__}: {e}"[:300]}
            log(f"{cls.name:14s} {case:12s} error {type(e).__name__}: {str(e)[:200]}")
    for case in ("tiny", "loop100"):
        if only and case not in only:
            continue
        try:
            f = ad.case(case)
            if f is not None:
                t0c = time.perf_counter()
                f()
                ad.sync()
                first = time.perf_counter() - t0c
                w = ad.wall_per_call(f, n=200 if case == "loop100" else 1000)
                out["cases"][case] = {"us": w * 1e6, "first_s": first}
                log(f"{cls.name:14s} {case:12s} {w * 1e6:8.1f} us per call (wall)")
        except Exception as e:  # noqa: BLE001
            out["cases"][case] = {"error": f"{type(e).__name__}: {e}"[:300]}
            log(f"{cls.name:14s} {case:12s} error {type(e).__name__}: {str(e)[:200]}")
    if hasattr(ad, "graph_loop") and (not only or "graph" in only):
        try:
            plain, replay = ad.graph_loop()
            out["graph_loop"] = {"plain_us": plain * 1e6, "replay_us": replay * 1e6,
                                 "speedup": plain / replay}
            log(f"{cls.name:14s} 100-kernel loop: {plain * 1e6:.0f} us plain, "
                f"{replay * 1e6:.0f} us graph replay ({plain / replay:.1f}x)")
        except Exception as e:  # noqa: BLE001
            out["graph_loop"] = {"error": f"{type(e).__name__}: {e}"[:300]}
            log(f"{cls.name:14s} graph loop error {type(e).__name__}: {str(e)[:200]}")
    for op in ("saxpy", "sum") if not only or "sweep" in only else ():
        per = 12 if op == "saxpy" else 4
        for k in (SWEEP[::2] if quick else SWEEP):
            if k > n:
                continue
            try:
                f = ad.sized(op, k)
                if f is None:
                    break
                s, _ = ad.time(f, reps=reps)
                out["sweep"].setdefault(op, {})[str(k)] = per * k / s / 1e9
            except Exception as e:  # noqa: BLE001
                log(f"{cls.name} sweep {op} {k}: {type(e).__name__}: {str(e)[:200]}")
                break
    out["wall_s"] = time.perf_counter() - t0
    ad.close()
    del ad
    gc.collect()
    _free_peer_memory()
    return out


def _free_peer_memory():
    for mod, call in (("torch", "cuda.empty_cache"), ("cupy", None)):
        m = sys.modules.get(mod)
        if m is None:
            continue
        if mod == "torch":
            m.cuda.empty_cache()
        else:
            m.get_default_memory_pool().free_all_blocks()


def first_call_latency():
    """gnumpy's first call of a new small fused kernel in fresh processes: empty cache (NVRTC
    compiles), then warm disk cache; medians of 3 (bench/first_call.py)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from first_call import measure
    plain = measure()
    return {"cold_ms": plain["cold_ms"], "warm_disk_ms": plain["warm_disk_ms"],
            "runs": plain["runs"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--libs", default="")
    ap.add_argument("--cases", default="", help="comma-separated subset of the cases (and "
                    "tiny, loop100, graph, sweep, first); all when empty")
    args = ap.parse_args()
    only = set(filter(None, args.cases.split(",")))
    m = 4096 if args.quick else M
    rng = np.random.default_rng(0)
    xh = rng.standard_normal(m * m, dtype=np.float32)
    yh = rng.standard_normal(m * m, dtype=np.float32)
    Xh = xh.reshape(m, m)
    a = np.float32(2.5)
    res = {"n": m * m, "matrix": [m, m], "host": platform.node(), "libs": {},
           "started": time.strftime("%Y-%m-%d %H:%M:%S")}
    lines = []

    def log(s):
        print(s, flush=True)
        lines.append(s)

    def save():
        res["log"] = lines
        with open(args.out, "w") as f:
            json.dump(res, f, indent=1)
    try:
        if only and "first" not in only:
            raise RuntimeError("skipped (--cases)")
        from bench_gpu import d2d_copy_bandwidth
        res["d2d_copy_GBs"] = d2d_copy_bandwidth()
        log(f"device-to-device copy: {res['d2d_copy_GBs']:.0f} GB/s")
        res["first_call"] = first_call_latency()
        fc = res["first_call"]
        log(f"gnumpy first call: cold {fc['cold_ms']:.1f} ms, warm disk "
            f"{fc['warm_disk_ms']:.1f} ms")
    except Exception as e:  # noqa: BLE001
        log(f"copy/first-call measurement failed: {e}")
    save()
    want = set(filter(None, args.libs.split(",")))
    for cls in peers.ADAPTERS:
        if want and cls.name not in want:
            continue
        r = run_lib(cls, xh, yh, Xh, a, args.quick, log, only)
        if r is not None:
            res["libs"][cls.name] = r
        save()
    import gnumpy as gp
    res["kernel_cache"] = gp.cuda.kernel_cache_info()
    save()


if __name__ == "__main__":
    main()
