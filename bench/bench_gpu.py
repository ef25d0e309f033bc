"""GPU benchmark: gnumpy against CuPy and PyTorch (whichever import) in the same run.

    python3 bench/bench_gpu.py [--quick] [--json OUT.json]

Times device work with CUDA events (median of repeats after warm-up); GB/s counts the
ideal bytes (each input read once, each output written once).  Also measures the wall
time of a tiny fused SAXPY call and the first-call latency of a new kernel with an empty
and with a warm disk cache (fresh processes).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

import gnumpy as gp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

N = 1 << 28


def d2d_copy_bandwidth(nbytes=1 << 31):
    from cuda.bindings import driver
    be = gp._device.backend(gp.asarray(0.0).device)
    a, b = be.pool.alloc(nbytes), be.pool.alloc(nbytes)
    s = be.stream.handle

    def run():
        driver.cuMemcpyDtoDAsync(b.ptr, a.ptr, nbytes, s)
    for _ in range(3):
        run()
    ts = []
    for _ in range(10):
        e0 = gp.cuda.Event().record()
        run()
        e1 = gp.cuda.Event().record()
        e1.synchronize()
        ts.append(e0.elapsed_time(e1) / 1e3)
    return 2 * nbytes / statistics.median(ts) / 1e9


QUICK_CASES = {"saxpy": 12, "expr7": 12, "sum": 4, "sumsq_diff": 8, "row_sum": 4,
               "col_sum": 4}


def cases(n):
    """{case: (bytes, {library: seconds})} for gnumpy, torch and CuPy (bench/peers.py)."""
    import peers
    rng = np.random.default_rng(0)
    xh = rng.standard_normal(n, dtype=np.float32)
    yh = rng.standard_normal(n, dtype=np.float32)
    m = int(np.sqrt(n))
    Xh = xh[: m * m].reshape(m, m)
    out = {c: (per * (m * m if c.endswith("_sum") else n), {}) for c, per in QUICK_CASES.items()}
    for cls in (peers.Gnumpy, peers.Torch, peers.Cupy, peers.CupyFused):
        try:
            ad = cls(xh, yh, Xh, np.float32(2.5))
        except Exception as e:  # noqa: BLE001 - a peer that does not import is skipped
            print(f"{cls.name} unavailable: {e}")
            continue
        for c in QUICK_CASES:
            f = ad.case(c)
            if f is not None:
                out[c][1][cls.name] = ad.time(f)[0]
        del ad
    return out


def tiny_call_us(reps=2000):
    x = gp.asarray(np.ones(1000, np.float32))
    y = gp.asarray(np.ones(1000, np.float32))
    a = np.float32(2.0)
    for _ in range(50):
        gp.evaluate(a * x + y)
    gp.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(reps):
        gp.evaluate(a * x + y)
    gp.cuda.synchronize()
    return (time.perf_counter() - t0) / reps * 1e6


def first_call_ms():
    """(cold, warm disk cache) first-call milliseconds in fresh processes (medians of 3)."""
    from first_call import measure
    r = measure()
    return r["cold_ms"], r["warm_disk_ms"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json")
    a = ap.parse_args()
    n = (1 << 24) if a.quick else N
    res = {"n": n, "device": str(gp.asarray(0.0).device)}
    res["d2d_copy_GBs"] = d2d_copy_bandwidth()
    table = {}
    for name, (nbytes, times) in cases(n).items():
        table[name] = {lib: {"s": t, "GBs": nbytes / t / 1e9} for lib, t in times.items()}
    res["cases"] = table
    res["tiny_saxpy_us"] = tiny_call_us()
    res["first_call_cold_ms"], res["first_call_warm_disk_ms"] = first_call_ms()
    res["kernel_cache"] = gp.cuda.kernel_cache_info()
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)
    print(f"device-to-device copy: {res['d2d_copy_GBs']:.0f} GB/s   (n = {n:,} float32)")
    for name, libs in table.items():
        best_peer = max((v["GBs"] for k, v in libs.items() if k != "gnumpy"), default=None)
        g = libs["gnumpy"]["GBs"]
        peers = "  ".join(f"{k} {v['GBs']:.0f}" for k, v in libs.items() if k != "gnumpy")
        ratio = f"  ratio to best peer {g / best_peer:.2f}x" if best_peer else ""
        print(f"{name:12s} gnumpy {g:7.0f} GB/s   {peers}{ratio}")
    print(f"tiny fused saxpy (1000 elts): {res['tiny_saxpy_us']:.1f} us/call wall")
    print(f"first call of a new kernel: cold {res['first_call_cold_ms']:.1f} ms, warm disk "
          f"cache {res['first_call_warm_disk_ms']:.1f} ms")


if __name__ == "__main__":
    main()
