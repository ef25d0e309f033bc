"""The ziggurat normals (gnumpy/kernels/render_ziggurat.py, gnumpy/random/_ziggurat.py):
the tables, the CPU twin's slow path against a scalar reference of the CUDA loop, the
CUDA device functions built with g++ against the CPU twin on words that take every path
(fast, wedge, tail), and the distribution itself.
"""
from __future__ import annotations

import ctypes
import math

import numpy as np
import pytest

import cuda_host
import gnumpy as gp
from gnumpy.kernels import render_random as RR
from gnumpy.kernels import render_ziggurat as Z
from gnumpy.random import _host
from gnumpy.random import _ziggurat as zig

KEY = 0x0123456789ABCDEF


def test_tables_have_equal_layers():
    for itemsize, bits in ((8, 52), (4, 23)):
        ki, wi, fi = Z.tables(itemsize)
        m = float(1 << bits)
        x = wi.astype(np.float64) * m
        f = np.exp(-0.5 * x * x)
        v = Z.R * math.exp(-0.5 * Z.R ** 2) + math.sqrt(math.pi / 2) * \
            math.erfc(Z.R / math.sqrt(2))
        tol = 1e-12 if itemsize == 8 else 1e-5
        assert abs(x[255] - Z.R) < tol * Z.R and abs(x[0] * f[255] - v) < tol * v
        areas = x[2:] * (f[1:-1] - f[2:])           # layer i: width x[i], height step
        np.testing.assert_allclose(areas, v, rtol=100 * tol)
        assert ki[1] == 0 and (np.diff(x[1:]) > 0).all()
        np.testing.assert_allclose(ki[2:].astype(np.float64), x[1:-1] / x[2:] * m, rtol=tol)
        np.testing.assert_allclose(fi[1:].astype(np.float64), f[1:], rtol=tol)


def _block(i, a):
    """Philox block (i, a | TAG << 32) of KEY from the CPU Philox stream code."""
    w = _host.philox_words(KEY, i | ((a | (Z.TAG << 32)) << 64), 4)
    return [int(v) for v in w]


def _slow_ref(i, idx, rabs, x):
    """The CUDA loop (gn_zig_slow, float64) in Python floats."""
    ki, wi, fi = Z.tables(8)
    a = 0
    while True:
        b = _block(i, a)
        w1, w2 = b[0] | b[1] << 32, b[2] | b[3] << 32
        u1, u2 = (w1 >> 11) * 2.0 ** -53, (w2 >> 11) * 2.0 ** -53
        if idx == 0:
            xx = -Z.INV_R * math.log(1.0 - u1)
            yy = -math.log(1.0 - u2)
            if yy + yy > xx * xx:
                return -(Z.R + xx) if (rabs >> 8) & 1 else Z.R + xx
        else:
            if (float(fi[idx - 1]) - float(fi[idx])) * u1 + float(fi[idx]) < \
                    math.exp(-0.5 * x * x):
                return x
            idx, r = w2 & 0xFF, w2 >> 8
            rabs = (r >> 1) & 0x000FFFFFFFFFFFFF
            x = rabs * float(wi[idx]) * (-1.0 if r & 1 else 1.0)
            if rabs < int(ki[idx]):
                return x
        a += 1


def _hard_words(n, itemsize, seed=0):
    """Words of which a third land in the tail (layer 0 past ki[0]), a third in the top
    layer (always a wedge), a third anywhere."""
    rng = np.random.default_rng(seed)
    if itemsize == 8:
        w = rng.integers(0, 2 ** 64, n, dtype=np.uint64, endpoint=False)
        ki = Z.tables(8)[0]
        hi = (np.uint64(int(ki[0])) + (w >> np.uint64(13)) % np.uint64(2 ** 52 - int(ki[0])))
        tail = (hi << np.uint64(9)) | (w & np.uint64(0x100))
        top = (w & ~np.uint64(0xFF)) | np.uint64(1)
    else:
        w = rng.integers(0, 2 ** 32, n, dtype=np.uint32)
        ki = Z.tables(4)[0]
        hi = np.uint32(int(ki[0])) + (w >> np.uint32(10)) % np.uint32(2 ** 23 - int(ki[0]))
        tail = (hi << np.uint32(9)) | (w & np.uint32(0x100))
        top = (w & ~np.uint32(0xFF)) | np.uint32(1)
    k = np.arange(n) % 3
    return np.where(k == 0, tail, np.where(k == 1, top, w))


def test_cpu_slow_path_is_the_cuda_loop():
    w = _hard_words(300, 8)
    got = zig.normal(w, 1000, KEY, np.float64)
    ki, wi, _ = Z.tables(8)
    for k, word in enumerate(w.tolist()):
        idx, r = word & 0xFF, word >> 8
        rabs = (r >> 1) & 0x000FFFFFFFFFFFFF
        x = rabs * float(wi[idx]) * (-1.0 if r & 1 else 1.0)
        exp = x if rabs < int(ki[idx]) else _slow_ref(1000 + k, idx, rabs, x)
        assert got[k] == pytest.approx(exp, rel=1e-14, abs=1e-300), k


def _zig_lib(itemsize):
    T = "unsigned long long" if itemsize == 8 else "unsigned int"
    F = "double" if itemsize == 8 else "float"
    src = f"""{RR._block_fn()}
{Z.normal_fns(itemsize)}
extern "C" void run(const {T}* w, {F}* out, unsigned long long n, unsigned long long start,
                    unsigned k0, unsigned k1) {{
  for (unsigned long long i = 0; i < n; ++i) out[i] = gn_zig_normal(w[i], start + i, k0, k1);
}}
"""
    return cuda_host.build(src, "zig").run


@pytest.mark.parametrize("itemsize", [8, 4])
def test_cuda_device_functions_on_host(itemsize):
    # every path of gn_zig_normal against the CPU twin (glibc's log/exp against NumPy's)
    dt = np.dtype(np.float64 if itemsize == 8 else np.float32)
    w = _hard_words(3000, itemsize, seed=itemsize)
    run = _zig_lib(itemsize)
    out = np.zeros(w.size, dt)
    run(w.ctypes.data_as(ctypes.c_void_p), out.ctypes.data_as(ctypes.c_void_p),
        ctypes.c_ulonglong(w.size), ctypes.c_ulonglong(77), ctypes.c_uint(KEY & 0xFFFFFFFF),
        ctypes.c_uint(KEY >> 32))
    ref = zig.normal(w, 77, KEY, dt)
    ki = Z.tables(itemsize)[0]
    j = (w & w.dtype.type(0xFF)).astype(np.intp)
    fast = ((w >> w.dtype.type(9)) & w.dtype.type(2 ** Z.BITS[itemsize] - 1)) < ki[j]
    assert fast.mean() < 0.5                    # the words took the slow paths
    assert out[fast].tobytes() == ref[fast].tobytes()      # one rounded product: exact
    np.testing.assert_allclose(out, ref, rtol=1e-13 if itemsize == 8 else 1e-5)
    assert (np.abs(ref[0::3]) >= Z.R * (1 - 1e-6)).all()     # the tail words' normals


def _phi(t):
    return 0.5 * (1.0 + np.vectorize(math.erf)(t / math.sqrt(2.0)))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_normal_distribution(dtype):
    n = 2_000_000
    x = gp.random.default_rng(12345).standard_normal(n, dtype=dtype).get().astype(np.float64)
    edges = np.concatenate([[-np.inf], np.linspace(-4.5, 4.5, 91), [np.inf]])
    counts = np.histogram(x, edges)[0]
    p = np.diff(_phi(edges))
    chi2 = ((counts - n * p) ** 2 / (n * p)).sum()
    assert chi2 < 92 + 6 * math.sqrt(2 * 92), chi2          # 92 bins: mean 91, sd 13.5
    tail = (np.abs(x) > Z.R).mean()                           # the tail path's share
    exp = 2 * (1 - _phi(np.array([Z.R]))[0])
    assert abs(tail - exp) < 6 * math.sqrt(exp / n)
    assert abs(x.mean()) < 6 / math.sqrt(n) and abs(x.std() - 1) < 6 / math.sqrt(2 * n)
