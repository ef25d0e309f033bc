"""SAXPY at the memory-bandwidth limit: a*x + y on 2^28 float32 on the GPU.

    python3 examples/saxpy.py [n_log2]

Verifies a sample against NumPy, prints GB/s (12 bytes per element: x and y read, the
result written) and the fraction of the card's device-to-device copy bandwidth measured
in the same run.
"""
import statistics
import sys

import numpy

import gnumpy as np
from gnumpy.cuda import Event


def d2d_bandwidth(nbytes):
    from cuda.bindings import driver
    be = np._device.backend(np.asarray(0.0).device)
    a, b = be.pool.alloc(nbytes), be.pool.alloc(nbytes)
    ts = []
    for i in range(13):
        e0 = Event().record()
        driver.cuMemcpyDtoDAsync(b.ptr, a.ptr, nbytes, be.stream.handle)
        e1 = Event().record()
        e1.synchronize()
        if i >= 3:
            ts.append(e0.elapsed_time(e1) / 1e3)
    return 2 * nbytes / statistics.median(ts) / 1e9


def main():
    if not np.cuda.is_available():
        sys.exit("examples/saxpy.py needs a CUDA GPU (run examples/demo.py on the CPU)")
    n = 1 << (int(sys.argv[1]) if len(sys.argv) > 1 else 28)
    rng = numpy.random.default_rng(1)
    x = np.asarray(rng.standard_normal(n, dtype=numpy.float32))
    y = np.asarray(rng.standard_normal(n, dtype=numpy.float32))
    a = numpy.float32(2.5)
    z = a * x + y
    np.evaluate(z)
    idx = rng.integers(0, n, 1000)
    xs, ys, zs = x.get()[idx], y.get()[idx], z.get()[idx]
    assert numpy.allclose(zs, a * xs + ys, rtol=1e-6, atol=1e-6), "wrong result"
    ts = []
    for i in range(23):
        e0 = Event().record()
        z = a * x + y
        np.evaluate(z)
        e1 = Event().record()
        e1.synchronize()
        if i >= 3:
            ts.append(e0.elapsed_time(e1) / 1e3)
    t = statistics.median(ts)
    gbs = 12 * n / t / 1e9
    copy = d2d_bandwidth(4 * n)
    print(f"saxpy n=2^{n.bit_length() - 1} float32: {t * 1e3:.3f} ms, {gbs:.0f} GB/s = "
          f"{gbs / copy:.1%} of the measured device-to-device copy ({copy:.0f} GB/s), "
          f"{gbs / 4800:.1%} of the 4.8 TB/s datasheet")


if __name__ == "__main__":
    main()
