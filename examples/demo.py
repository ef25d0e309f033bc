"""The main job: a fused SAXPY and a fused 7-op expression, checked against NumPy.

Runs on the GPU when there is one (CUDA backend), on the CPU backend otherwise; prints the
backend, the number of kernels each expression compiled to, and the time per call.
"""
import time

import numpy

import gnumpy as np   # the drop-in: ordinary NumPy code below

n = 1 << 22
rng = numpy.random.default_rng(0)
xh = rng.standard_normal(n, dtype=numpy.float32)
yh = rng.standard_normal(n, dtype=numpy.float32)
x, y = np.asarray(xh), np.asarray(yh)
a = np.float32(2.5)


def timed(f, reps=20):
    f()                                   # warm-up (compiles the fused kernel once)
    t0 = time.perf_counter()
    for _ in range(reps):
        r = f()
        np.evaluate(r)
    r.get()                               # wait for the device
    return (time.perf_counter() - t0) / reps, r


for name, f, ref in [
    ("saxpy a*x + y", lambda: a * x + y, a * xh + yh),
    ("sin(x)*cos(y) + x*x - 3*y + exp(-x)",
     lambda: np.sin(x) * np.cos(y) + x * x - 3 * y + np.exp(-x),
     numpy.sin(xh) * numpy.cos(yh) + xh * xh - 3 * yh + numpy.exp(-xh)),
    ("sum((x-y)**2)", lambda: np.sum((x - y) ** 2), numpy.sum((xh - yh) ** 2)),
]:
    np.stats.reset()
    expr = f()
    np.evaluate(expr)
    kernels = np.stats.groups
    dt, r = timed(f)
    ok = numpy.allclose(r.get(), ref, rtol=1e-4, atol=1e-3)
    gbs = (3 if "saxpy" in name else 2) * n * 4 / dt / 1e9
    print(f"{name:40s} kernels={kernels}  {dt * 1e3:8.3f} ms  {gbs:8.1f} GB/s  "
          f"matches NumPy: {ok}")
    assert ok, name
print(f"backend: {x.device}  (gnumpy {np.__version__}, n = {n:,} float32)")
