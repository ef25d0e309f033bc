"""CPU backend benchmark: fused SAXPY on 10^6 float64, gnumpy (CPU backend) vs NumPy.

    GNUMPY_DEVICE=cpu python3 bench/bench_cpu.py

Prints the median wall time per call of each and their ratio (the target is <= 1.3x).
"""
import os
import statistics
import time

os.environ.setdefault("GNUMPY_DEVICE", "cpu")
import numpy as np  # noqa: E402

import gnumpy as gp  # noqa: E402


def median_time(f, reps=50, inner=5):
    f()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            f()
        ts.append((time.perf_counter() - t0) / inner)
    return statistics.median(ts)


def main():
    n = 10**6
    rng = np.random.default_rng(0)
    xh, yh = rng.standard_normal(n), rng.standard_normal(n)
    x, y = gp.asarray(xh), gp.asarray(yh)
    a = 2.5
    t_np = median_time(lambda: a * xh + yh)
    t_gp = median_time(lambda: gp.evaluate(a * x + y))
    r = (a * x + y).get()
    assert np.allclose(r, a * xh + yh)
    print(f"saxpy n=10^6 float64: numpy {t_np * 1e3:.3f} ms, gnumpy-cpu {t_gp * 1e3:.3f} ms, "
          f"ratio {t_gp / t_np:.2f}x (target <= 1.30x)")


if __name__ == "__main__":
    main()
