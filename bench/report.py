"""Turn a bench/suite.py result file into docs/benchmarks.md and PNG plots.

    python3 bench/report.py bench/results/h200.json [--docs docs] [--also OTHER.json ...]

Needs matplotlib for the plots (the table is written without it).  Ratios are gnumpy's
bandwidth (or, for wall-time cases, the peer's time over gnumpy's) against the best peer
measured in the same run.
"""
from __future__ import annotations

import argparse
import json
import os

TITLES = {
    "saxpy": "SAXPY a*x + y", "expr7": "7-op sin(x)*cos(y) + x*x - 3*y + exp(-x)",
    "sum": "sum(x)", "sumsq_diff": "sum((x-y)**2)", "row_sum": "X.sum(axis=1)",
    "col_sum": "X.sum(axis=0)", "mean": "x.mean()", "var": "x.var()", "std": "x.std()",
    "softmax": "softmax over rows", "standardize": "(X - X.mean(0)) / X.std(0)",
    "tiny": "tiny fused SAXPY, 1,000 elements (wall per call)",
    "loop100": "100 dependent updates x = x*0.99 + 1, 1,000 elements (wall per loop)",
}
BW_CASES = ["saxpy", "expr7", "sum", "sumsq_diff", "row_sum", "col_sum", "mean", "var",
            "std", "softmax", "standardize"]
WALL_CASES = ["tiny", "loop100"]


def _cell(v, fmt):
    return "" if v is None else fmt.format(v)


def _row(res, case):
    """({library: value}, best peer, gnumpy / best peer) of one case of run `res` (for
    wall-time cases the ratio is the peer's time over gnumpy's); None when not measured."""
    wall = case in WALL_CASES
    key = "us" if wall else "GBs"
    vals = {lib: r["cases"].get(case, {}).get(key) for lib, r in res["libs"].items()}
    if all(v is None for v in vals.values()):
        return None
    pv = {p: v for p, v in vals.items() if p != "gnumpy" and v is not None}
    best = (min if wall else max)(pv, key=pv.get) if pv else None
    g = vals.get("gnumpy")
    ratio = None
    if best is not None and g:
        ratio = pv[best] / g if wall else g / pv[best]
    return vals, best, ratio


def table(res) -> list:
    libs = list(res["libs"])
    out = ["| case | " + " | ".join(libs) + " | best peer | gnumpy / best peer |",
           "|---|" + "---|" * (len(libs) + 2)]
    for case in BW_CASES + WALL_CASES:
        row = _row(res, case)
        if row is None:
            continue
        vals, best, ratio = row
        fmt = "{:.1f} us" if case in WALL_CASES else "{:.0f}"
        cells = []
        for lib in libs:
            c = _cell(vals[lib], fmt)
            cells.append(f"**{c}**" if lib == best and c else c)
        out.append(f"| {TITLES[case]} | " + " | ".join(cells) +
                   f" | {best or ''} | {_cell(ratio, '{:.2f}x')} |")
    return out


def ratio_table(runs) -> list:
    """gnumpy / best peer per case for several runs side by side: [(label, res), ...]."""
    out = ["| case | " + " | ".join(label for label, _ in runs) + " |",
           "|---|" + "---|" * len(runs)]
    for case in BW_CASES + WALL_CASES:
        cells = []
        for _, res in runs:
            row = _row(res, case)
            if row is None or row[2] is None:
                cells.append("")
            else:
                g = row[0]["gnumpy"]
                unit = " us" if case in WALL_CASES else ""
                cells.append(f"{row[2]:.2f}x ({g:.0f}{unit} vs {row[1]} "
                             f"{row[0][row[1]]:.0f}{unit})")
        if any(cells):
            out.append(f"| {TITLES[case]} | " + " | ".join(cells) + " |")
    return out


def plots(res, docs) -> list:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    os.makedirs(os.path.join(docs, "bench"), exist_ok=True)
    made = []
    for op in ("saxpy", "sum"):
        fig, ax = plt.subplots(figsize=(7, 4.2))
        for lib, r in res["libs"].items():
            pts = r.get("sweep", {}).get(op)
            if pts:
                xs = sorted(int(k) for k in pts)
                ax.plot(xs, [pts[str(k)] for k in xs], marker="o", label=lib)
        if "d2d_copy_GBs" in res:
            ax.axhline(res["d2d_copy_GBs"], ls="--", c="gray", lw=1, label="D2D copy")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("elements (float32)")
        ax.set_ylabel("GB/s (ideal bytes)")
        ax.set_title(f"{TITLES[op]}: bandwidth against size (H200)")
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
        path = os.path.join(docs, "bench", f"sweep_{op}.png")
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        made.append(path)
    for case in BW_CASES + WALL_CASES:
        wall = case in WALL_CASES
        key = "us" if wall else "GBs"
        items = [(lib, r["cases"].get(case, {}).get(key)) for lib, r in res["libs"].items()]
        items = [(lib, v) for lib, v in items if v is not None]
        if not items:
            continue
        fig, ax = plt.subplots(figsize=(6, 3.2))
        ax.barh([i[0] for i in items], [i[1] for i in items],
                color=["tab:green" if i[0] == "gnumpy" else "tab:gray" for i in items])
        ax.set_xlabel("us per call (lower is better)" if wall else "GB/s (higher is better)")
        ax.set_title(TITLES[case], fontsize=9)
        ax.invert_yaxis()
        fig.tight_layout()
        path = os.path.join(docs, "bench", f"case_{case}.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        made.append(path)
    return made


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("result")
    ap.add_argument("--docs", default="docs")
    ap.add_argument("--also", action="append", default=[], help="another result file whose "
                    "ratios are listed beside this run's (host-to-host spread)")
    args = ap.parse_args()
    with open(args.result) as f:
        res = json.load(f)
    lines = ["# Benchmarks: gnumpy against CuPy, PyTorch and JAX on the H200", "",
             f"Generated by `bench/report.py {args.result}` from one run of "
             f"`bench/suite.py` (started {res.get('started')}, n = {res['n']:,} float32, "
             f"matrix {res['matrix'][0]} x {res['matrix'][1]}).  Bandwidth in GB/s of ideal "
             "bytes (each input read once, each output written once); CUDA events around 5 "
             "back-to-back calls, median of 15 (JAX: wall clock).  Bold: the best peer.", ""]
    if "d2d_copy_GBs" in res:
        lines.append(f"Device-to-device copy in the same run: {res['d2d_copy_GBs']:.0f} GB/s "
                     f"(datasheet 4800).")
        lines.append("")
    lines += table(res)
    g = res["libs"].get("gnumpy", {})
    gl = g.get("graph_loop")
    if gl and "speedup" in gl:
        lines += ["", f"CUDA graph replay of a 100-kernel loop (`gnumpy.cuda.Graph`): "
                      f"{gl['plain_us']:.0f} us per loop launched kernel by kernel, "
                      f"{gl['replay_us']:.0f} us replayed: {gl['speedup']:.1f}x."]
    fc = res.get("first_call")
    if fc:
        med = " (medians of 3 fresh processes)" if "runs" in fc else ""
        lines += ["", f"First call of a new small fused kernel in a fresh process{med}: "
                      f"{fc['cold_ms']:.1f} ms with an empty cache (NVRTC), "
                      f"{fc['warm_disk_ms']:.1f} ms with a warm disk cache."]
        if "runs" in fc:
            lines[-1] += (f"  The run's first process (which may also read the NVRTC libraries "
                          f"from disk): {fc['runs'][0][0]:.1f} ms cold.")
    firsts = []
    for lib, r in res["libs"].items():
        c = r["cases"].get("tiny", {})
        if "first_s" in c:
            firsts.append(f"{lib} {c['first_s'] * 1e3:.0f} ms")
    if firsts:
        lines += ["", "First call of the tiny SAXPY in the benchmark process (includes each "
                      "library's compile): " + ", ".join(firsts) + "."]
    if args.also:
        runs = [(f"this run ({res.get('started')})", res)]
        for path in args.also:
            with open(path) as f:
                other = json.load(f)
            runs.append((f"`{os.path.basename(path)}` ({other.get('started')})", other))
        lines += ["", "## The same cases in other runs", "",
                  "gnumpy over the best peer of each run (each run measures every library "
                  "on its own lent H200; hosts differ by a few percent, most in the cases "
                  "that depend on the CPU).  Device-to-device copy: " + ", ".join(
                      f"{r.get('d2d_copy_GBs', 0):.0f}" for _, r in runs) + " GB/s.", ""]
        lines += ratio_table(runs)
    os.makedirs(args.docs, exist_ok=True)
    made = plots(res, args.docs)
    if made:
        lines += ["", "## Plots", ""]
        lines += [f"![{os.path.basename(p)}]({os.path.relpath(p, args.docs)})" for p in made]
    path = os.path.join(args.docs, "benchmarks.md")
    kept = ""                   # the hand-written sections after the marker (real programs:
    if os.path.exists(path):    # bench/loops.py, bench/npbench.py, bench/libs.py) are kept
        old = open(path).read()
        if PROGRAMS_MARK in old:
            kept = "\n" + old[old.index(PROGRAMS_MARK):]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n" + kept)
    print("\n".join(lines))


PROGRAMS_MARK = "<!-- sections below are kept by bench/report.py -->"


if __name__ == "__main__":
    main()
