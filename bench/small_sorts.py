"""sort, argsort, cumsum and unique of small 1-D arrays on CUDA: gnumpy's own kernels
against CUB (``cuda.compute``), and CuPy, in one run; the thresholds of
``sort_ops.SORT_CUB_MIN_N`` (which unique's sort follows; its run search stays CUB's) and
``cuda_cub.SCAN_CUB_MIN_LEN`` rest on these numbers.

    python3 bench/small_sorts.py [--sizes 12,14,15,16,17,18,20] [--out F]
    python3 bench/small_sorts.py --first [own|cub]     (one fresh process, empty caches)

Warm: median of 30 calls of each case (wall clock to the device synchronize) with the
thresholds forced to each path in turn.  ``--first``: the first call of every case at
n = 20,000 in this process, whose kernel cache directory is new and empty, with the given
path forced: what a program's first sort or unique costs before anything is compiled or
built (NVRTC for gnumpy's kernels; CUB's build for ``cuda.compute``).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

if "--first" in sys.argv:           # before gnumpy reads its cache directory
    os.environ["GNUMPY_CACHE_DIR"] = tempfile.mkdtemp(prefix="gnumpy-first-")

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import gnumpy as gp  # noqa: E402
from gnumpy.backends import cuda_cub, sort_ops  # noqa: E402

CASES = {
    "sort f32": (np.float32, lambda xp, x: xp.sort(x)),
    "argsort f32": (np.float32, lambda xp, x: xp.argsort(x, kind="stable")),
    "sort i64": (np.int64, lambda xp, x: xp.sort(x)),
    "cumsum f64": (np.float64, lambda xp, x: xp.cumsum(x)),
    "unique i64": (np.int64, lambda xp, x: xp.unique(x)),
    "unique_inverse i64": (np.int64, lambda xp, x: xp.unique(x, return_inverse=True)),
}


def force(path: str) -> None:
    """Send every sort, scan and unique of these sizes to CUB or to gnumpy's kernels."""
    big = 1 << 62
    sort_ops.SORT_CUB_MIN_N = 1 if path == "cub" else big
    cuda_cub.SCAN_CUB_MIN_LEN = 1 if path == "cub" else big


def data(dt, n, rng):
    if np.dtype(dt).kind == "i":
        return rng.integers(0, max(n // 8, 2), n).astype(dt)
    return rng.standard_normal(n).astype(dt)


def med(f, sync, reps=30):
    f()
    sync()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        f()
        sync()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts) * 1e3


def warm(sizes, out):
    import cupy as cp
    rng = np.random.default_rng(0)
    gsync = gp.cuda.synchronize
    csync = cp.cuda.Device().synchronize
    res = {}
    print(f"{'case':20s} {'n':>8s} {'own ms':>8s} {'CUB ms':>8s} {'CuPy ms':>8s}")
    for name, (dt, fn) in CASES.items():
        for k in sizes:
            n = 1 << k
            h = data(dt, n, rng)
            g, c = gp.asarray(h), cp.asarray(h)
            row = {}
            for path in ("own", "cub"):
                force(path)
                row[path] = med(lambda: gp.evaluate(*_flat(fn(gp, g))), gsync)
            row["cupy"] = med(lambda: fn(cp, c), csync)
            res[f"{name} 2^{k}"] = row
            print(f"{name:20s} {n:8d} {row['own']:8.3f} {row['cub']:8.3f} {row['cupy']:8.3f}",
                  flush=True)
    _save(out, {"mode": "warm", "results": res})


def first(path, out):
    force(path)
    rng = np.random.default_rng(0)
    res = {}
    for name, (dt, fn) in CASES.items():
        g = gp.asarray(data(dt, 20000, rng))
        gp.cuda.synchronize()
        t = time.perf_counter()
        gp.evaluate(*_flat(fn(gp, g)))
        gp.cuda.synchronize()
        res[name] = (time.perf_counter() - t) * 1e3
        print(f"first {path:4s} {name:20s} {res[name]:9.1f} ms", flush=True)
    print(f"first {path:4s} total {sum(res.values()) / 1e3:.2f} s")
    _save(out, {"mode": "first", "path": path, "results": res})


def _flat(r):
    return list(r) if isinstance(r, tuple) else [r]


def _save(out, obj):
    if out:
        with open(out, "w") as f:
            json.dump(obj, f, indent=1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="12,14,15,16,17,18,20")
    ap.add_argument("--first", choices=("own", "cub"))
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    if a.first:
        first(a.first, a.out)
    else:
        warm([int(s) for s in a.sizes.split(",")], a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
