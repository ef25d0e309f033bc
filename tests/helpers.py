"""Shared helpers for comparing gnumpy against NumPy.

``check(actual, expected)`` asserts a gnumpy result matches a NumPy result on type, shape,
dtype and values (within the dtype's tolerance, NaN where NaN, infinities equal).
``strided_pair(np_array)`` gives the same values as a non-contiguous view in both
libraries.  ``DTYPES`` and the families come from gnumpy's dtype module.
"""
from __future__ import annotations

import numpy as np

import gnumpy as gp
from gnumpy import _dtypes as D

DTYPES = list(D.ALL)
BOOL = [D.bool_]
INTS = list(D.SIGNED + D.UNSIGNED)
FLOATS = list(D.FLOATS)
COMPLEX = list(D.COMPLEX)
NUMERIC = INTS + FLOATS + COMPLEX

# relative tolerance per dtype for computed (not exact) results
RTOL = {np.dtype(np.float16): 2e-3, np.dtype(np.float32): 2e-5, np.dtype(np.float64): 1e-12,
        np.dtype(np.complex64): 2e-5, np.dtype(np.complex128): 1e-12}


def tolerance(dtype, rtol=None, atol=None):
    dt = np.dtype(dtype)
    r = RTOL.get(dt, 0) if rtol is None else rtol
    if atol is None:
        atol = {2: 1e-3, 4: 1e-6, 8: 1e-14}.get(np.dtype(D.real_dtype(dt)).itemsize, 0) \
            if dt.kind in "fc" else 0
    return r, atol


def to_numpy(x):
    assert isinstance(x, gp.ndarray), f"expected a gnumpy array, got {type(x).__name__}"
    return x.get()


def check(actual, expected, rtol=None, atol=None, check_dtype=True, equal_nan=True):
    """Assert gnumpy `actual` matches NumPy `expected` (shape, dtype, values)."""
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected)
        for a, e in zip(actual, expected):
            check(a, e, rtol, atol, check_dtype, equal_nan)
        return
    a = to_numpy(actual)
    e = np.asarray(expected)
    assert a.shape == e.shape, f"shape {a.shape} != {e.shape}"
    if check_dtype:
        assert a.dtype == e.dtype, f"dtype {a.dtype} != {e.dtype}"
    if e.dtype.kind in "fc" or a.dtype.kind in "fc":
        r, t = tolerance(e.dtype if e.dtype.kind in "fc" else a.dtype, rtol, atol)
        np.testing.assert_allclose(a, e, rtol=r, atol=t, equal_nan=equal_nan)
    else:
        np.testing.assert_array_equal(a, e)


def strided_pair(a: np.ndarray):
    """(numpy view, gnumpy view) of the same values as `a`, non-contiguous in memory."""
    if a.ndim == 0:
        return a, gp.asarray(a)
    big = np.zeros(tuple(2 * d + 1 for d in a.shape), dtype=a.dtype)
    idx = tuple(slice(1, 1 + 2 * d, 2) for d in a.shape)
    big[idx] = a
    g = gp.asarray(big)[idx]
    npv = big[idx]
    assert np.array_equal(npv, a, equal_nan=True)
    return npv, g


def sample(dtype, shape, rng, special=True):
    """Random values of `dtype` (with NaN/inf/-0 mixed in for floats when `special`)."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    if dt.kind == "b":
        v = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = max(int(info.min), -1000), min(int(info.max), 1000)
        v = rng.integers(lo, hi, n, endpoint=True).astype(dt)
    else:
        rdt = D.real_dtype(dt)
        v = (rng.standard_normal(n) * 10).astype(rdt)
        if special and n >= 4:
            v[rng.integers(0, n, max(1, n // 8))] = rng.choice(
                np.array([np.nan, np.inf, -np.inf, -0.0, 0.0], dtype=rdt), max(1, n // 8))
        if dt.kind == "c":
            w = (rng.standard_normal(n) * 10).astype(rdt)
            v = (v + 1j * w).astype(dt)
    return v.reshape(shape)


def pair(dtype, shape, seed=0, kind="contiguous", special=True):
    """(NumPy array, gnumpy array) of the same sample values; `kind` 'contiguous',
    'strided' (a non-contiguous view in both) or 'transposed' (a transposed view)."""
    a = sample(dtype, shape, np.random.default_rng(seed), special)
    if kind == "strided":
        return strided_pair(a)
    if kind == "transposed":
        return a, gp.asarray(np.array(a.T, order="C")).T
    return a, gp.asarray(a)

