"""Helpers of the sorting, set, histogram and scan tests: samples with many duplicates and
NumPy's special values, the Array API's stable descending argsort, exact comparison,
switches that send small inputs down the CUB paths of the CUDA backend, and gnumpy's sort
kernels built for the host with g++ behind ``sort_ops``' device interface (``HostDev``).
"""
import ctypes
import hashlib
import shutil
import subprocess
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest

from gnumpy import _dtypes as D
from helpers import check


def dup_sample(dtype, shape, rng, special=True):
    """Random values with many duplicates (and NaN/inf/-0 for inexact dtypes)."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    if dt.kind == "b":
        v = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -6
        v = rng.integers(lo, 7, n).astype(dt)
        if n >= 4:
            info = np.iinfo(dt)
            v[rng.integers(0, n, 2)] = [info.min, info.max]
    else:
        rdt = np.dtype(D.real_dtype(dt))
        v = rng.integers(-5, 6, n).astype(rdt) / rdt.type(2)
        if special and n >= 4:
            k = max(1, n // 6)
            v[rng.integers(0, n, k)] = rng.choice(
                np.array([np.nan, np.inf, -np.inf, -0.0, 0.0], dtype=rdt), k)
        if dt.kind == "c":
            w = rng.integers(-2, 3, n).astype(rdt)
            if special and n >= 4:
                w[rng.integers(0, n, max(1, n // 8))] = np.nan
            v = (v + 1j * w).astype(dt)
    return v.reshape(shape)


def np_desc_argsort(x, axis=-1):
    """array_api_strict's stable descending argsort (flip, stable argsort, flip back)."""
    n = x.shape[axis]
    r = np.flip(np.argsort(np.flip(x, axis), axis=axis, kind="stable"), axis)
    return (n - 1) - r


def nw(f, *a, **k):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return f(*a, **k)


def same(got, exp, signed_zero=True):
    """check() with exact values (NaN where NaN; the sign of zero unless not
    `signed_zero`)."""
    check(got, exp, rtol=0, atol=0, signed_zero=signed_zero)



def cub_everywhere(monkeypatch):
    """Send every real-dtype sort and every scan down the CUB path on CUDA (small inputs then
    reach the library calls there) until the test ends; the CPU backend runs NumPy either
    way."""
    from gnumpy.backends import cuda_cub, sort_ops
    monkeypatch.setattr(sort_ops, "SORT_CUB_MIN_N", 1)
    monkeypatch.setattr(sort_ops, "SORT_CUB_MAX_ROWS", 1 << 30)
    monkeypatch.setattr(cuda_cub, "SCAN_CUB_MIN_LEN", 1)
    monkeypatch.setattr(cuda_cub, "SCAN_CUB_MAX_LINES", 1 << 30)


def host_lib():
    """The CUDA sort kernels built for the host with g++ (skips the test without g++)."""
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("g++ not found: cannot build the sort kernels for the host")
    from gnumpy.kernels import render_sort as RS
    from gnumpy.kernels.types import SHORT
    src = RS.preamble()
    for dt in D.ALL:
        for kind in ("tile", "merge", "search"):
            src += RS.SOURCES[kind](dt, f"{kind}_{SHORT[dt]}")
    for size in RS.MOVE_TYPE:
        for kind in ("gather", "scatter"):
            src += RS.SOURCES[kind](size, f"{kind}_{size}")
    for dt in (np.int32, np.int64):
        dt = np.dtype(dt)
        for weighted in (False, True):
            src += RS.bincount_kernel((dt, weighted), f"bincount_{SHORT[dt]}_{int(weighted)}")
    for dt in (np.float32, np.float64):
        dt = np.dtype(dt)
        for weighted in (False, True):
            src += RS.hist_kernel((dt, dt, dt, weighted), f"hist_{SHORT[dt]}_{int(weighted)}")
    h = hashlib.sha256(src.encode()).hexdigest()[:16]
    out = Path(tempfile.gettempdir()) / f"gnumpy_sort_{h}.so"
    if not out.exists():
        d = Path(tempfile.mkdtemp())
        (d / "k.cpp").write_text(src)
        kdir = Path(RS.__file__).parent
        r = subprocess.run([gxx, "-O1", "-std=c++17", "-fPIC", "-shared", f"-I{kdir}",
                            str(d / "k.cpp"), "-o", str(d / "k.so")],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr[-3000:]
        shutil.move(str(d / "k.so"), str(out))
    return ctypes.CDLL(str(out))


class HostDev:
    """sort_ops' device interface on the host: kernels from the g++ build, NumPy memory."""

    def __init__(self, lib):
        self.lib = lib
        self.keep = []

    def kernel(self, key):
        from gnumpy.kernels.types import SHORT
        kind, param = key.args
        suffix = SHORT[param] if isinstance(param, np.dtype) else \
            f"{SHORT[param[0]]}_{int(param[-1])}" if isinstance(param, tuple) else param
        fn = getattr(self.lib, f"{kind}_{suffix}")
        fn.restype = None
        return fn

    def launch(self, k, grid, block, args):
        conv = []
        for a in args:
            if isinstance(a, np.int64):
                conv.append(ctypes.c_longlong(int(a)))
            elif isinstance(a, np.int32):
                conv.append(ctypes.c_int(int(a)))
            elif isinstance(a, np.float64):
                conv.append(ctypes.c_double(float(a)))
            elif isinstance(a, np.float32):
                conv.append(ctypes.c_float(float(a)))
            else:
                conv.append(ctypes.c_void_p(a))
        k(*conv)

    def alloc(self, nbytes):
        buf = np.zeros(max(nbytes, 16), np.uint8)
        self.keep.append(buf)

        class B:
            ptr = buf.ctypes.data
        return B

    def release(self, bufs):
        pass

    def zero(self, ptr, nbytes):
        ctypes.memset(ptr, 0, nbytes)
