"""GPU time of elementwise kernels of many inputs (stencils of stencils) by register budget.

    python3 bench/many_inputs.py [--budgets 0,128,96,64,48] [--reps 20] [--json F]

A fused kernel of many shifted views loads every input vector of a thread before it
computes (``render_ew``): hdiff's 31 views of two float64 arrays at 2-wide vectors unrolled
4 times hold about 500 registers a thread and spill.  ``config.ew_held_regs`` bounds them
(unroll less, then narrower vectors).  Each budget runs in a fresh process (its own kernel
cache directory): GPU time of a case's kernels from a CUPTI trace (``torch.profiler``),
the mean over ``--reps`` calls.  Cases: K shifted views of one 2-D
array (K = 2 is SAXPY-like, the control) in float32 and float64 at 512² and 4096², and
NPBench's hdiff (run unchanged) at its S size and 4x that; and full, row and column sums
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


def npbench_hdiff(gp, scale):
    """NPBench's hdiff (its _numpy.py bound to gnumpy, run unchanged) on arrays of its S
    preset's shapes, the first two axes `scale` times longer: (call returning the array
    it writes, case name)."""
    import npbench as nb
    info = nb.kernels(nb.ROOT)["hdiff"]
    impl, _ = nb.implementation(nb.ROOT, info, "gnumpy")
    I, J, K = nb.init_data(nb.ROOT, info, "S")["coeff"].shape
    I, J = I * scale, J * scale
    rng = np.random.default_rng(1)
    f, c = gp.asarray(rng.random((I + 4, J + 4, K))), gp.asarray(rng.random((I, J, K)))
    out = gp.zeros((I, J, K))

    def call():
        impl(f, out, c)
        return out
    return call, f"hdiff_{I}x{J}x{K}"


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
        call, name = npbench_hdiff(gp, scale)
        out[name] = call
    return out


def child(budget: int, reps: int) -> dict:
    import torch
    from torch.profiler import ProfilerActivity, profile

    import gnumpy as gp
    from gnumpy.kernels import render_ew, render_reduce
    planned = _recording(render_ew, render_reduce)
    gp.config.set(ew_held_regs=budget)
    res = {}
    for name, make in cases(gp).items():
        planned.clear()
        gp.evaluate(make())             # compile and warm (the kernel's plan is made here)
        gp.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(reps):
                gp.evaluate(make())
            gp.cuda.synchronize()
            torch.cuda.synchronize()
        us = [e.device_time if hasattr(e, "device_time") else e.cuda_time
              for e in prof.events() if e.device_type.name == "CUDA" and
              "memcpy" not in e.name.lower() and "memset" not in e.name.lower()]
        last = planned[-1] if planned else None
        res[name] = {"us": sum(us) / reps if us else None, "launches": len(us) / reps,
                     "vec": getattr(last, "vec", None), "unroll": getattr(last, "unroll", 1)}
    return res


def _recording(*modules) -> list:
    """The plans the renderers of `modules` make from now on, in order (their ``plan``
    wrapped): a case's warm-up call plans its kernel once."""
    planned = []
    for m in modules:
        def plan(*a, _plan=m.plan, **k):
            p = _plan(*a, **k)
            planned.append(p)
            return p
        m.plan = plan
    return planned


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
