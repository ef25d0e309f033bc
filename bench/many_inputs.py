"""GPU time of elementwise kernels of many inputs (stencils of stencils) by register budget.

    python3 bench/many_inputs.py [--budgets 0,128,96,64,48] [--reps 20] [--json F]

A fused kernel of many shifted views loads every input vector of a thread before it
computes (``render_ew``): hdiff's 31 views of two float64 arrays at 2-wide vectors unrolled
4 times hold about 500 registers a thread and spill.  ``config.ew_held_regs`` bounds them
(unroll less, then narrower vectors).  Each budget runs in a fresh process (its own kernel
cache directory): GPU time of a case's kernels from a CUPTI trace (``torch.profiler``),
the mean over ``--reps`` calls.  Cases: K shifted views of one 2-D
array (K = 2 is SAXPY-like, the control) in float32 and float64 at 512² and 4096², and
NPBench hdiff's output expression at its S size and 4x that; and full, row and column sums
of the 4096² stencils (reduction kernels, planned apart from the budget).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

OFFSETS = [(0, 0), (1, 1), (0, 1), (1, 0), (2, 1), (1, 2), (0, 2), (2, 0), (2, 2),
           (3, 1), (1, 3), (3, 3), (0, 3), (3, 0), (3, 2), (2, 3), (4, 4), (4, 0), (0, 4),
           (4, 1), (1, 4), (4, 2), (2, 4), (4, 3), (3, 4), (5, 5), (5, 0), (0, 5), (5, 1),
           (1, 5), (5, 2)]


def stencil(gp, A, k, n):
    acc = None
    for i, (di, dj) in enumerate(OFFSETS[:k]):
        t = (0.5 + i) * A[di:di + n, 4 * dj:4 * dj + n]     # (16-byte aligned views)
        acc = t if acc is None else acc + t
    return acc


def hdiff(gp, in_field, coeff):
    I, J, _ = coeff.shape
    lap = 4.0 * in_field[1:I + 3, 1:J + 3, :] - (
        in_field[2:I + 4, 1:J + 3, :] + in_field[0:I + 2, 1:J + 3, :] +
        in_field[1:I + 3, 2:J + 4, :] + in_field[1:I + 3, 0:J + 2, :])
    res = lap[1:, 1:J + 1, :] - lap[:-1, 1:J + 1, :]
    flx = gp.where((res * (in_field[2:I + 3, 2:J + 2, :] - in_field[1:I + 2, 2:J + 2, :]))
                   > 0, 0, res)
    res = lap[1:I + 1, 1:, :] - lap[1:I + 1, :-1, :]
    fly = gp.where((res * (in_field[2:I + 2, 2:J + 3, :] - in_field[2:I + 2, 1:J + 2, :]))
                   > 0, 0, res)
    return in_field[2:I + 2, 2:J + 2, :] - coeff * (flx[1:] - flx[:-1] + fly[:, 1:] -
                                                    fly[:, :-1])


def cases(gp):
    rng = np.random.default_rng(0)
    out = {}
    for dt in ("float32", "float64"):
        for n in (512, 4096):
            A = gp.asarray(rng.random((n + 6, n + 24)).astype(dt))
            for k in (2, 5, 9, 17, 31):
                out[f"stencil{k}_{dt}_{n}"] = (lambda A=A, k=k, n=n: stencil(gp, A, k, n))
            if n == 4096:       # reductions over such a prologue (their own plans)
                for k in (2, 9, 17):
                    out[f"sum_stencil{k}_{dt}_{n}"] = (
                        lambda A=A, k=k, n=n: stencil(gp, A, k, n).sum())
                    out[f"rowsum_stencil{k}_{dt}_{n}"] = (
                        lambda A=A, k=k, n=n: stencil(gp, A, k, n).sum(axis=1))
                    out[f"colsum_stencil{k}_{dt}_{n}"] = (
                        lambda A=A, k=k, n=n: stencil(gp, A, k, n).sum(axis=0))
    for scale in (1, 2):
        I, J, K = 64 * scale, 64 * scale, 60
        f = gp.asarray(rng.random((I + 4, J + 4, K)))
        c = gp.asarray(rng.random((I, J, K)))
        out[f"hdiff_{I}x{J}x{K}"] = (lambda f=f, c=c: hdiff(gp, f, c))
    return out


def child(budget: int, reps: int) -> dict:
    import torch
    from torch.profiler import ProfilerActivity, profile

    import gnumpy as gp
    gp.config.set(ew_held_regs=budget)
    res = {}
    for name, make in cases(gp).items():
        gp.evaluate(make())             # compile and warm
        gp.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(reps):
                gp.evaluate(make())
            gp.cuda.synchronize()
            torch.cuda.synchronize()
        us = [e.device_time if hasattr(e, "device_time") else e.cuda_time
              for e in prof.events() if e.device_type.name == "CUDA" and
              "memcpy" not in e.name.lower() and "memset" not in e.name.lower()]
        res[name] = dict(plan_of(make()), us=sum(us) / reps if us else None,
                         launches=len(us) / reps)
    return res


def plan_of(v) -> dict:
    """The vector width and unroll of the one elementwise kernel computing `v`."""
    from gnumpy._graph.fuse import schedule
    from gnumpy.kernels import build
    groups = schedule([v._node])
    if len(groups) != 1:
        return {"vec": None, "unroll": None}
    plan = build.plan_group(groups[0], lambda o: 0, 132, 8)[1]
    return {"vec": plan.vec, "unroll": getattr(plan, "unroll", 1)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--budgets", default="0,128,96,64,48")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--json", default="")
    ap.add_argument("--child", type=int, default=None)
    a = ap.parse_args()
    if a.child is not None:
        print(json.dumps(child(a.child, a.reps)))
        return 0
    budgets = [int(b) for b in a.budgets.split(",")]
    table = {}
    for b in budgets:
        env = dict(os.environ, GNUMPY_CACHE_DIR=tempfile.mkdtemp(prefix="gn_regs_"))
        r = subprocess.run([sys.executable, __file__, "--child", str(b), "--reps",
                            str(a.reps)], capture_output=True, text=True, env=env)
        if r.returncode:
            print(r.stderr[-3000:], file=sys.stderr)
            return 1
        table[b] = json.loads(r.stdout.strip().splitlines()[-1])
    names = list(table[budgets[0]])
    print("| case | " + " | ".join(f"budget {b or 'none'}: us (vec x unroll)" for b in budgets)
          + " |")
    print("|---|" + "---|" * len(budgets))
    for n in names:
        cells = []
        for b in budgets:
            c = table[b][n]
            us = "-" if c["us"] is None else f"{c['us']:.1f}"
            cells.append(f"{us} ({c['vec']}x{c['unroll']})")
        print(f"| {n} | " + " | ".join(cells) + " |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(table, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
