"""Two matrix-vector products of one matrix, ``r @ A, A @ p`` evaluated together (NPBench's
bicg), gnumpy against CuPy in one run: gnumpy's one pass over A (``cuda_matvec2``) and
CuPy's two cuBLAS GEMVs, and each library's single ``A @ p``.

    python3 bench/matvec_pair.py [--shapes 4000x5000,5500x5500,1000x1200,300x240,20000x300]
                                 [--calls 30] [--out F]

Per case: three warm-up calls, then ``--calls`` calls each between two synchronizes; the
median host time (the call returning) and wall time (to the synchronize after it), in us.
"""
from __future__ import annotations

import argparse
import json
import time

import numpy

import gnumpy as gp


def _time(f, sync, calls):
    for _ in range(3):
        f()
        sync()
    host, wall = [], []
    for _ in range(calls):
        sync()
        t0 = time.perf_counter()
        f()
        t1 = time.perf_counter()
        sync()
        host.append(t1 - t0)
        wall.append(time.perf_counter() - t0)
    host.sort()
    wall.sort()
    return round(host[calls // 2] * 1e6, 1), round(wall[calls // 2] * 1e6, 1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", default="4000x5000,5500x5500,1000x1200,300x240,20000x300")
    ap.add_argument("--calls", type=int, default=30)
    ap.add_argument("--out")
    args = ap.parse_args()
    try:
        import cupy as cp
    except ImportError:         # (no CuPy: gnumpy's columns alone)
        cp = None
    on_gpu = gp.asarray(0.0).device.kind == "cuda"
    rng = numpy.random.default_rng(0)
    res = {}
    for shape in args.shapes.split(","):
        m, n = map(int, shape.split("x"))
        An, pn, rn = rng.random((m, n)), rng.random(n), rng.random(m)
        A, p, r = gp.asarray(An), gp.asarray(pn), gp.asarray(rn)
        gs = gp.cuda.synchronize if on_gpu else (lambda: None)
        x, y = r @ A, A @ p
        gp.evaluate(x, y)
        err = max(float(abs(gp.asnumpy(x) - rn @ An).max() / abs(rn @ An).max()),
                  float(abs(gp.asnumpy(y) - An @ pn).max() / abs(An @ pn).max()))
        row = {"gnumpy pair": _time(lambda: gp.evaluate(r @ A, A @ p), gs, args.calls),
               "gnumpy A@p": _time(lambda: gp.evaluate(A @ p), gs, args.calls)}
        if cp is not None:
            Ac, pc, rc = cp.asarray(An), cp.asarray(pn), cp.asarray(rn)
            cs = cp.cuda.Device().synchronize
            row["cupy pair"] = _time(lambda: (rc @ Ac, Ac @ pc), cs, args.calls)
            row["cupy A@p"] = _time(lambda: Ac @ pc, cs, args.calls)
        res[shape] = dict(row, err=err)
        ratio = f"  pair/CuPy {row['gnumpy pair'][1] / row['cupy pair'][1]:.2f}" \
            if cp is not None else ""
        print(f"{shape:>11}  " + "  ".join(f"{k} {v[1]:7.1f} us (host {v[0]:5.1f})"
                                           for k, v in row.items()) + ratio + f"  err {err:.1e}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"script": "matvec_pair", "device": gp.asarray(0).device.kind,
                       "results": res}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
