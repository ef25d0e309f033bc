"""Tuning sweep on the GPU (2^28 float32, back-to-back timing as in bench/suite.py):
elementwise unroll / block size for SAXPY and the 7-op expression, block size
for sum and the row/column reductions of a 16384 x 16384 matrix, with torch's numbers in
the same run for reference.  One line per configuration.

    GNUMPY_DEVICE=cuda python3 bench/sweep.py [--tiles | --saxpy | --reduce-grid | --fusion
                                               | --columns | --rows | --hints]

``--fusion`` times softmax with and without row groups, the standardization with and
without sibling reductions and its pieces, and the FMA switch.  ``--tiles`` compares the two
vector-loop layouts (``config.ew_tiles``) by block size and unroll, one chunk of work per
block (two rounds); ``--saxpy`` SAXPY alone by tile size, interleaved with torch.add over
five rounds; ``--reduce-grid`` the row strategy's grid (``render_reduce.SPLIT_WAVES`` /
``ROW_GRID_WAVES``) beside torch and CuPy.  ``--columns`` sweeps the column reductions' row
lanes and block size, and the row-broadcast elementwise layout (``config.ew_columns``) by
unroll.  ``--rows`` times softmax's row group by vectors per thread, online max/exp-sum pass,
register cache (``--quick``: the defaults only); ``--hints`` the reductions under each
``config.reduce_mem_hints`` setting.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402

import gnumpy as gp  # noqa: E402

n = int(os.environ.get("SWEEP_N", 1 << 28))   # smaller for a dry run on CPU
rng = np.random.default_rng(0)
xh = rng.standard_normal(n, dtype=np.float32)
yh = rng.standard_normal(n, dtype=np.float32)
Xh = xh.reshape(-1, 16384)
a = np.float32(2.5)
try:
    t = peers.Torch(xh, yh, Xh, a)
    for case, per in (("saxpy", 12), ("expr7", 12), ("sum", 4), ("row_sum", 4),
                      ("col_sum", 4)):
        s, _ = t.time(t.case(case))
        print(f"torch {case}: {per * n / s / 1e9:.0f} GB/s")
    del t
except Exception as e:  # noqa: BLE001
    print("torch unavailable:", e)
g = peers.Gnumpy(xh, yh, Xh, a)


def bw(case, per):
    s, _ = g.time(g.case(case), reps=9)
    return per * n / s / 1e9


def _torch_time(torch, f, reps=9, inner=5):
    ts = []
    for _ in range(reps):
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record()
        for _ in range(inner):
            f()
        e1.record()
        e1.synchronize()
        ts.append(e0.elapsed_time(e1) / 1e3 / inner)
    return sorted(ts)[len(ts) // 2]


def bw_of(f, per, reps=9):
    s, _ = g.time(f, reps=reps)
    return per * n / s / 1e9


if "--fusion" in sys.argv:        # where softmax and standardization spend their time
    X = g.X
    for rows in (True, False):
        gp.config.set(fuse_rows=rows)
        print(f"fuse_rows={rows}: softmax {bw('softmax', 8):.0f} GB/s (8 B/elt)", flush=True)
    gp.config.set(fuse_rows=True, row_registers=False)
    print(f"fuse_rows=True row_registers=False: softmax {bw('softmax', 8):.0f} GB/s", flush=True)
    gp.config.set(row_registers=True)
    for sib in (False, True):
        gp.config.set(fuse_siblings=sib)
        print(f"fuse_siblings={sib}: standardize {bw('standardize', 8):.0f} GB/s, "
              f"mean+std together {bw_of(lambda: gp.evaluate(X.mean(0), X.std(0)), 4):.0f}",
              flush=True)
    m, s = X.mean(axis=0), X.std(axis=0)
    gp.evaluate(m, s)
    print(f"standardize {bw('standardize', 8):.0f} GB/s (8 B/elt); pieces at their own "
          f"bytes: X.mean(0) {bw_of(lambda: gp.evaluate(X.mean(axis=0)), 4):.0f}, "
          f"X.std(0) {bw_of(lambda: gp.evaluate(X.std(axis=0)), 4):.0f}, "
          f"(X - m) / s with m, s materialized {bw_of(lambda: gp.evaluate((X - m) / s), 8):.0f}",
          flush=True)
    print(f"row softmax pieces: X.max(1) {bw_of(lambda: gp.evaluate(X.max(axis=1)), 4):.0f}, "
          f"copy X {bw_of(lambda: gp.evaluate(X + 0), 8):.0f}", flush=True)
    for block, vec in ((256, True), (1024, True), (512, False)):
        gp.config.set(block_size=block, vector_loads=vec)
        print(f"block={block} vector_loads={vec}: X.std(0) "
              f"{bw_of(lambda: gp.evaluate(X.std(axis=0)), 4):.0f}, X.mean(0) "
              f"{bw_of(lambda: gp.evaluate(X.mean(axis=0)), 4):.0f}", flush=True)
    gp.config.set(block_size=512, vector_loads=True)
    for fma in (False, True):
        gp.config.set(fma=fma)
        print(f"fma={fma}: saxpy {bw('saxpy', 12):.0f}, expr7 {bw('expr7', 12):.0f}, "
              f"var {bw('var', 4):.0f}, col_sum {bw('col_sum', 4):.0f}", flush=True)
    sys.exit(0)
if "--hints" in sys.argv:         # config.reduce_mem_hints
    try:
        tc = peers.TorchCompile(xh, yh, Xh, a)
        for case, per in (("sumsq_diff", 8),):
            s, _ = tc.time(tc.case(case), reps=9)
            print(f"torch.compile {case}: {per * n / s / 1e9:.0f} GB/s", flush=True)
        del tc
    except Exception as e:  # noqa: BLE001
        print("torch.compile unavailable:", e)
    for rnd in range(2):
        for h in ("", "L2::64B", "L2::128B", "L2::256B", "lcs"):
            gp.config.set(reduce_mem_hints=h)
            print(f"round {rnd} reduce_mem_hints={h!r}: sum {bw('sum', 4):.0f}, sumsq "
                  f"{bw('sumsq_diff', 8):.0f}", flush=True)
    gp.config.set(reduce_mem_hints="L2::128B")
    sys.exit(0)
if "--rows" in sys.argv:          # softmax row groups by row length, torch.compile beside
    from gnumpy.kernels import render_rows
    for k in (1024, 4096, 16384, 65536):
        Xk = g.X.reshape(n // k, k)
        sm = peers.softmax_of(gp)
        try:
            import torch
            tX = torch.from_numpy(Xh.reshape(n // k, k)).cuda()
            torch._dynamo.reset()     # else each new K recompiles with dynamic shapes
            tf = torch.compile(peers.softmax_of(torch, keepdim=True))
            tf(tX)
            torch.cuda.synchronize()
            s = _torch_time(torch, lambda: tf(tX))
            print(f"K={k} torch.compile softmax: {8 * n / s / 1e9:.0f} GB/s", flush=True)
            del tX
        except Exception as e:  # noqa: BLE001
            print("torch.compile unavailable:", e)
        quick = "--quick" in sys.argv            # the defaults alone
        for per in (8,) if quick else (4, 8):
            render_rows.VECTORS_PER_THREAD = per
            for online in (True,) if quick else (True, False):
                for regs in (True,) if quick else (False, True):
                    gp.config.set(row_online=online, row_registers=regs)
                    print(f"K={k} vectors/thread={per} row_online={online} "
                          f"row_registers={regs}: softmax "
                          f"{bw_of(lambda: gp.evaluate(sm(Xk)), 8):.0f} GB/s", flush=True)
    gp.config.set(row_online=True, row_registers=True)
    sys.exit(0)
if "--columns" in sys.argv:       # column reductions and row-broadcast elementwise passes
    X = g.X
    m, sd = X.mean(axis=0), X.std(axis=0)
    gp.evaluate(m, sd)
    for lanes in (1, 2, 4, 8, 16, 32):
        for block in (256, 512, 1024):
            if lanes * 32 > block:
                continue
            gp.config.set(col_lanes=lanes, block_size=block)
            print(f"col_lanes={lanes} block={block}: col_sum {bw('col_sum', 4):.0f}, "
                  f"X.std(0) {bw_of(lambda: gp.evaluate(X.std(axis=0)), 4):.0f}, mean+std "
                  f"{bw_of(lambda: gp.evaluate(X.mean(0), X.std(0)), 4):.0f}", flush=True)
    gp.config.set(col_lanes=16, block_size=512)
    for cols in (True, False):
        for unroll in (2, 4, 8):
            gp.config.set(ew_columns=cols, ew_unroll=unroll)
            print(f"ew_columns={cols} unroll={unroll}: (X - m) / s "
                  f"{bw_of(lambda: gp.evaluate((X - m) / sd), 8):.0f}, standardize "
                  f"{bw('standardize', 8):.0f}", flush=True)
    sys.exit(0)
if "--saxpy" in sys.argv:         # SAXPY's gap to torch.add: granularity of the tiles
    import statistics
    t = peers.Torch(xh, yh, Xh, a)
    cfgs = ((512, 4), (512, 1), (256, 1), (128, 1), (128, 2), (128, 4), (1024, 1))
    got = {c: [] for c in cfgs}
    got["torch.add"] = []
    for rnd in range(5):
        s, _ = t.time(t.case("saxpy"), reps=9)
        got["torch.add"].append(12 * n / s / 1e9)
        for block, unroll in cfgs:
            gp.config.set(ew_tiles=True, ew_unroll=unroll, block_size=block, ew_light=False)
            got[(block, unroll)].append(bw('saxpy', 12))
        gp.config.set(ew_unroll=4, block_size=512, ew_light=True)
        got.setdefault("ew_light (default)", []).append(bw('saxpy', 12))
        print(f"round {rnd}: " + ", ".join(f"{k}: {v[-1]:.0f}" for k, v in got.items()),
              flush=True)
    for k, v in got.items():
        print(f"saxpy {k}: median {statistics.median(v):.0f} GB/s", flush=True)
    for block, unroll in cfgs:
        gp.config.set(ew_unroll=unroll, block_size=block, ew_light=False)
        print(f"expr7 block={block} unroll={unroll}: {bw('expr7', 12):.0f} / "
              f"{bw('expr7', 12):.0f} GB/s", flush=True)
    gp.config.set(ew_unroll=4, block_size=512, ew_light=True)
    sys.exit(0)
if "--reduce-grid" in sys.argv:   # row-strategy grids: splits of a full sum, rows per block
    from gnumpy.kernels import render_reduce
    t = peers.Torch(xh, yh, Xh, a)
    try:
        cp = peers.Cupy(xh, yh, Xh, a)
    except Exception as e:  # noqa: BLE001
        cp = None
        print("cupy unavailable:", e)
    for rnd in range(3):
        line = []
        for lib in (t, cp):
            if lib is not None:
                for case in ("sum", "row_sum", "mean"):
                    s, _ = lib.time(lib.case(case), reps=9)
                    line.append(f"{lib.name} {case} {4 * n / s / 1e9:.0f}")
        print(f"round {rnd} peers: " + ", ".join(line), flush=True)
        for sw, rw, blk in ((1, 8, 512), (2, 8, 512), (2, 8, 256), (2, 0, 256), (2, 8, 1024)):
            render_reduce.SPLIT_WAVES, render_reduce.ROW_GRID_WAVES = sw, rw
            gp.config.set(block_size=blk)        # a new generation: plans are redone
            print(f"round {rnd} SPLIT_WAVES={sw} ROW_GRID_WAVES={rw} block={blk}: sum "
                  f"{bw('sum', 4):.0f}, "
                  f"row_sum {bw('row_sum', 4):.0f}, mean {bw('mean', 4):.0f}, sumsq "
                  f"{bw('sumsq_diff', 8):.0f}", flush=True)
    render_reduce.SPLIT_WAVES, render_reduce.ROW_GRID_WAVES = 1, 8
    gp.config.set(block_size=512)
    sys.exit(0)
if "--tiles" in sys.argv:         # the vector-loop layout (config.ew_tiles), one chunk per block
    for rnd in range(2):
        for tiles in (False, True):
            for block in (128, 256, 512):
                for unroll in (1, 2, 4):
                    gp.config.set(ew_tiles=tiles, ew_unroll=unroll, block_size=block,
                                  ew_light=False)
                    print(f"round {rnd} tiles={tiles} block={block} unroll={unroll}: "
                          f"saxpy {bw('saxpy', 12):.0f} GB/s, expr7 {bw('expr7', 12):.0f}",
                          flush=True)
    sys.exit(0)
for block in (128, 256, 512):
    for unroll in (1, 2, 4, 8):
        gp.config.set(ew_unroll=unroll, block_size=block, ew_light=False)
        print(f"block={block} unroll={unroll}: saxpy "
              f"{bw('saxpy', 12):.0f} GB/s, expr7 {bw('expr7', 12):.0f}", flush=True)
for block in (256, 512, 1024):
    gp.config.set(block_size=block, ew_unroll=2)
    print(f"reduce block={block}: sum {bw('sum', 4):.0f} GB/s, row_sum "
          f"{bw('row_sum', 4):.0f}, col_sum {bw('col_sum', 4):.0f}, var {bw('var', 4):.0f}, "
          f"softmax {bw('softmax', 8):.0f}, standardize {bw('standardize', 8):.0f}",
          flush=True)
