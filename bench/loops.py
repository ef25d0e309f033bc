"""Loops of small statements: µs per Python statement, gnumpy against a peer in one run.

    python3 bench/loops.py [--peer cupy|numpy] [--iters 400] [--rounds 5] [--out loops.json]
    GNUMPY_DEVICE=cpu python3 bench/loops.py --peer numpy          (the CPU backend)

The patterns of the replay issue (stencils with slice assignments, row and element updates
of solvers, a lazy chain with no write), a row-wise solver loop (forward substitution),
NPBench's jacobi_1d step (two statements, each reading the other's write) and syrk's inner
loop (one row updated again and again: consecutive writes of one region fold into one).
Each pattern runs 20 warm-up iterations, then its `--iters` steps once untimed (every kernel
and plan the steps need exists before the clock starts: a row of a new length, a lazy chain
reaching the graph bound) in every library, then the same steps timed `--rounds` times, the
libraries taking turns within each round (a host whose speed drifts, as the lent machines'
does by up to 1.6x within minutes, moves every library alike); the clock stops after the
library's device synchronize (gnumpy: ``evaluate`` of the arrays written, then
``cuda.synchronize``; CuPy: ``Device.synchronize``).  Times are µs per iteration divided by
the statements one iteration runs, the median of the rounds (the JSON keeps every round).
Results are checked against NumPy running the same iterations.  JSON goes to ``--out``
(default ``$OUT/loops.json`` when $OUT is set).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import numpy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(1, ROOT)


def patterns(xp):
    """{name: (statements per iteration, state, step(state, k), arrays to check)}."""
    rng = numpy.random.default_rng(0)
    A = xp.asarray(rng.random(3200))
    B = xp.asarray(numpy.zeros(3200))

    def jacobi(s, k):
        s["B"][1:-1] = 0.33333 * (s["A"][:-2] + s["A"][1:-1] + s["A"][2:])

    M = xp.asarray(rng.random((50, 50)))

    def seidel(s, k):
        i = k % 48 + 1
        M = s["M"]
        M[i, 1:-1] += (M[i - 1, :-2] + M[i - 1, 1:-1] + M[i - 1, 2:] + M[i, 2:] +
                       M[i + 1, :-2] + M[i + 1, 1:-1] + M[i + 1, 2:])

    S = xp.asarray(rng.random((10, 100)))

    def scalar(s, k):
        j = k % 98 + 1
        S = s["S"]
        S[3, j] += S[3, j - 1]
        S[3, j] /= 9.0

    C = xp.asarray(rng.random((60, 60)) + numpy.eye(60) * 60)

    def chol(s, k):
        i, j = 30, k % 29 + 1
        C = s["C"]
        C[i, j] -= xp.dot(C[i, :j], C[j, :j])
        C[i, j] /= C[j, j]

    x = xp.asarray(rng.random(1000))

    def lazy(s, k):
        s["y"] = 0.99 * s["x"] + s["y"]

    Lm = xp.asarray(numpy.tril(rng.random((64, 64))) + 64 * numpy.eye(64))
    b = xp.asarray(rng.random(64))

    def trisolv(s, k):
        i = k % 63 + 1
        X = s["X"]
        X[i] = (s["b"][i] - xp.dot(s["L"][i, :i], X[:i])) / s["L"][i, i]

    def jacobi2(s, k):          # NPBench's jacobi_1d step: each statement reads the other's
        A, B = s["A2"], s["B2"]     # write (the jacobi row alone writes one region again and
        B[1:-1] = 0.33333 * (A[:-2] + A[1:-1] + A[2:])     # again: a write nothing reads)
        A[1:-1] = 0.33333 * (B[:-2] + B[1:-1] + B[2:])

    R = xp.asarray(rng.random((64, 64)))
    P = xp.asarray(rng.random((64, 48)))

    def rowchain(s, k):         # NPBench's syrk inner loop: one row updated k times
        i = k // 48 % 63 + 1
        s["R"][i, :i + 1] += 1.5 * s["P"][i, k % 48] * s["P"][:i + 1, k % 48]

    st = {"A": A, "B": B, "M": M, "S": S, "C": C, "x": x, "y": xp.asarray(numpy.zeros(1000)),
          "L": Lm, "b": b, "X": xp.asarray(numpy.zeros(64)), "A2": xp.asarray(rng.random(3200)),
          "B2": xp.asarray(numpy.zeros(3200)), "R": R, "P": P}
    return st, {"jacobi": (1, jacobi, ["B"]), "seidel": (1, seidel, ["M"]),
                "scalar": (2, scalar, ["S"]), "chol": (2, chol, ["C"]),
                "lazy": (1, lazy, ["y"]), "trisolv": (1, trisolv, ["X"]),
                "jacobi2": (2, jacobi2, ["A2", "B2"]), "rowchain": (1, rowchain, ["R"])}


def sync_of(xp, name):
    if name == "gnumpy":
        def sync(arrs):
            xp.evaluate(*arrs)
            if xp.asarray(0).device.kind == "cuda":
                xp.cuda.synchronize()
        return sync
    if name == "cupy":
        return lambda arrs: xp.cuda.Device().synchronize()
    return lambda arrs: None


def run(libs, iters, rounds):
    """{library: {pattern: [us a statement, one per round]}} and each library's state."""
    setups = {name: (patterns(xp), sync_of(xp, name)) for name, xp in libs}
    res = {name: {} for name, _ in libs}
    for pname in setups[libs[0][0]][0][1]:
        for name, _ in libs:            # warm-up, then the timed steps once untimed
            (st, pats), sync = setups[name]
            per, step, names = pats[pname]
            for ks in (range(20), range(20, 20 + iters)):
                for k in ks:
                    step(st, k)
                sync([st[n] for n in names])
        for _ in range(rounds):
            for name, _ in libs:
                (st, pats), sync = setups[name]
                per, step, names = pats[pname]
                t = time.perf_counter()
                for k in range(20, 20 + iters):
                    step(st, k)
                sync([st[n] for n in names])
                res[name].setdefault(pname, []).append(
                    (time.perf_counter() - t) / iters / per * 1e6)
    return res, {name: setups[name][0][0] for name, _ in libs}


def host(a):
    if hasattr(a, "get"):
        return a.get()
    return numpy.asarray(a)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer", default=None, help="cupy or numpy (default: cupy on a GPU)")
    ap.add_argument("--iters", type=int, default=400)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    import gnumpy as gp
    on_gpu = gp.asarray(0).device.kind == "cuda"
    peer = a.peer or ("cupy" if on_gpu else "numpy")
    libs = [("gnumpy", gp)]
    if peer == "cupy":
        import cupy
        libs.append(("cupy", cupy))
    libs.append(("numpy", numpy))
    rounds, states = run(libs, a.iters, max(1, a.rounds))
    res = {n: {p: statistics.median(v) for p, v in r.items()} for n, r in rounds.items()}
    ok = {}
    for p in res["gnumpy"]:
        _, pats = patterns(numpy)
        names = pats[p][2]
        ok[p] = all(numpy.allclose(host(states["gnumpy"][n]), host(states["numpy"][n]),
                                   rtol=1e-9, atol=1e-12) for n in names)
    print(f"{'pattern':10s}" + "".join(f"{n:>12s}" for n, _ in libs) +
          f"{'ratio':>9s}  (µs per statement; ratio = gnumpy / {peer})")
    for p in res["gnumpy"]:
        r = res["gnumpy"][p] / res[peer][p]
        print(f"{p:10s}" + "".join(f"{res[n][p]:12.1f}" for n, _ in libs) +
              f"{r:9.2f}  {'ok' if ok[p] else 'MISMATCH'}")
    out = a.out or (os.path.join(os.environ["OUT"], "loops.json") if os.environ.get("OUT")
                    else None)
    if out:
        with open(out, "w") as f:
            json.dump({"us_per_statement": res, "rounds": rounds, "matches_numpy": ok,
                       "peer": peer, "iters": a.iters}, f, indent=1)
    return 0 if all(ok.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
