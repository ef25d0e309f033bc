"""Wall time of a tiny fused SAXPY call (1,000 float32), cache warm: the dispatch cost.

    GNUMPY_DEVICE=cuda python3 bench/tiny.py
"""
import time

import numpy as np

import gnumpy as gp

x = gp.asarray(np.ones(1000, np.float32))
y = gp.asarray(np.ones(1000, np.float32))
for label, a in (("numpy float32 scalar", np.float32(2.0)), ("Python float", 2.0)):
    for _ in range(200):
        gp.evaluate(a * x + y)
    gp.cuda.synchronize()
    best = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(2000):
            gp.evaluate(a * x + y)
        gp.cuda.synchronize()
        best.append((time.perf_counter() - t0) / 2000 * 1e6)
    print(f"tiny saxpy ({label}): median {sorted(best)[2]:.1f} us/call, best {min(best):.1f}")
