"""Where a loop statement's time goes on this host: the launch against the Python around it.

    python3 bench/launch_split.py [--patterns seidel,chol,...] [--out split.json]

Runs bench/loops.py's patterns (and NPBench fdtd_2d's four statements) in three fresh
processes: ``real`` (the CUDA backend as is), ``nolaunch`` (the same, with the driver's
``cuLaunchKernel`` replaced by a Python function that returns 0: every parameter is still
written, no kernel runs, values are garbage) and ``fake`` (bench/fake_cuda.py: no device
at all: the same parameter packing, launches counted, a Python memory pool in place of
the device's).  real - nolaunch is what the driver's launch costs the host; the fake
device's time is the fast path's Python alone, not a model of the device's host (its pool
can make it the slowest of the three).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _fdtd(gp, np):
    rng = np.random.default_rng(0)
    ex, ey, hz = (gp.asarray(rng.random((60, 80))) for _ in range(3))
    f = gp.asarray(rng.random(100))

    def step(s, t):
        t %= 100
        ey[0, :] = f[t]
        ey[1:, :] -= 0.5 * (hz[1:, :] - hz[:-1, :])
        ex[:, 1:] -= 0.5 * (hz[:, 1:] - hz[:, :-1])
        hz[:-1, :-1] -= 0.7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1] - ey[:-1, :-1])
    return 4, step, (ex, ey, hz)


def child(mode, names, iters):
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    if mode == "fake":
        import fake_cuda
        fake_cuda.install()
    elif mode == "nolaunch":
        from gnumpy.backends import cuda as C
        C._libcuda_launch = lambda: (lambda *a: 0)
    import numpy as np
    import gnumpy as gp
    import loops
    st, pats = loops.patterns(gp)
    out = {}
    for name in names:
        if name == "fdtd":
            per, step, arrs = _fdtd(gp, np)
            keys = ()
        else:           # (read at each sync: a pattern may rebind its state, as lazy's y)
            per, step, keys = pats[name]
            arrs = ()

        def sync():
            gp.evaluate(*arrs, *[st[k] for k in keys])
            if mode != "fake":
                gp.cuda.synchronize()
        for k in range(20 + iters):
            step(st, k)
        sync()
        best = 1e9
        for _ in range(5):
            t = time.perf_counter()
            for k in range(20, 20 + iters):
                step(st, k)
            sync()
            best = min(best, (time.perf_counter() - t) / iters / per * 1e6)
        out[name] = best
    print(json.dumps(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--patterns", default="jacobi,seidel,scalar,chol,trisolv,fdtd")
    ap.add_argument("--iters", type=int, default=400)
    ap.add_argument("--out", default=os.path.join(os.environ.get("OUT", "."), "split.json"))
    ap.add_argument("--child", default=None)
    a = ap.parse_args()
    names = a.patterns.split(",")
    if a.child:
        return child(a.child, names, a.iters)
    res = {}
    for rnd in range(2):
        for mode in ("real", "nolaunch", "fake"):
            r = subprocess.run([sys.executable, __file__, "--child", mode, "--patterns",
                                a.patterns, "--iters", str(a.iters)], capture_output=True,
                               text=True)
            if r.returncode:
                print(mode, "failed:", r.stderr[-2000:])
                continue
            got = json.loads(r.stdout.strip().splitlines()[-1])
            for k, v in got.items():
                res.setdefault(mode, {}).setdefault(k, []).append(v)
    print(f"{'pattern':10s} {'real':>8s} {'nolaunch':>9s} {'fake':>8s}   "
          "(us a statement, best of rounds)")
    for k in names:
        row = [min(res.get(m, {}).get(k, [float('nan')])) for m in ("real", "nolaunch", "fake")]
        print(f"{k:10s} {row[0]:8.1f} {row[1]:9.1f} {row[2]:8.1f}")
    with open(a.out, "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
