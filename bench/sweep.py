"""Tuning sweep on the GPU: elementwise unroll/grid and reduction block size on 2^28 float32,
plus a profile of the tiny-call launch path.  Prints one line per configuration.

    GNUMPY_DEVICE=cuda python3 bench/sweep.py
"""
import cProfile
import io
import pstats
import statistics
import time

import numpy as np

import gnumpy as gp


def t_events(f, reps=15):
    for _ in range(3):
        gp.evaluate(f())
    ts = []
    for _ in range(reps):
        e0 = gp.cuda.Event().record()
        gp.evaluate(f())
        e1 = gp.cuda.Event().record()
        e1.synchronize()
        ts.append(e0.elapsed_time(e1) / 1e3)
    return statistics.median(ts)


n = 1 << 28
x = gp.asarray(np.random.default_rng(0).standard_normal(n, dtype=np.float32))
y = gp.asarray(np.random.default_rng(1).standard_normal(n, dtype=np.float32))
a = np.float32(2.5)
for unroll in (1, 2, 4):
    for waves in (1, 2, 4, 0):
        for block in (256, 512):
            gp.config.set(ew_unroll=unroll, grid_waves=waves, block_size=block)
            t = t_events(lambda: a * x + y)
            print(f"saxpy unroll={unroll} waves={waves} block={block}: {12 * n / t / 1e9:.0f} GB/s")
for block in (256, 512, 1024):
    gp.config.set(block_size=block, ew_unroll=2, grid_waves=1)
    t = t_events(lambda: gp.sum(x))
    t2 = t_events(lambda: gp.sum((x - y) ** 2))
    print(f"sum block={block}: {4 * n / t / 1e9:.0f} GB/s   sumsq: {8 * n / t2 / 1e9:.0f} GB/s")
gp.config.set(block_size=256, ew_unroll=2, grid_waves=1)
xs = gp.asarray(np.ones(1000, np.float32))
ys = gp.asarray(np.ones(1000, np.float32))
for _ in range(100):
    gp.evaluate(a * xs + ys)
gp.cuda.synchronize()
t0 = time.perf_counter()
for _ in range(3000):
    gp.evaluate(a * xs + ys)
gp.cuda.synchronize()
print(f"tiny saxpy: {(time.perf_counter() - t0) / 3000 * 1e6:.1f} us/call")
pr = cProfile.Profile()
pr.enable()
for _ in range(3000):
    gp.evaluate(a * xs + ys)
pr.disable()
s = io.StringIO()
pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(14)
print("\n".join(s.getvalue().splitlines()[6:24]))
