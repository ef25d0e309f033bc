"""cumsum / cumprod / cumulative_sum / cumulative_prod on lines long enough for CUB's scan
on CUDA (1-D, a few long rows, long columns whose lines are strided in memory, with and
without include_initial, every dtype and explicit accumulation dtypes), and every small case
sent down the CUB path with the thresholds lowered.  The general scan semantics (axes,
layouts, dtypes, out=) are tested in test_reductions.py.

Values are chosen so that every summation order gives the same result (CUB's scan is not
NumPy's left-to-right loop): integers (wraparound is associative), small counts of ones
for floats, and +-1 for products.
"""
import numpy as np
import pytest

import gnumpy as gp
from helpers import COMPLEX_PRODUCT_ZERO_SIGN, DTYPES
from sort_helpers import cub_everywhere, same

DT_IDS = [str(d) for d in DTYPES]
LONG = (1 << 14) + 9            # cuda_cub.SCAN_CUB_MIN_LEN: lines this long go to CUB


def _exact_sample(dtype, shape, rng, prod):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(shape) < 0.3
    if dt.kind in "iu":
        return rng.integers(0, 100, shape).astype(dt)
    if prod:
        v = np.where(rng.random(shape) < 0.5, 1.0, -1.0)
    else:
        v = (rng.random(shape) < 0.03).astype(np.float64)      # partial sums stay < 2048
    if dt.kind == "c":
        v = v + 1j * (v if not prod else 0)
    return v.astype(dt)


def _all_scans(g, a, axis):
    # complex scans on CUDA start from an identity: the sign of a zero part may differ
    sz = COMPLEX_PRODUCT_ZERO_SIGN or a.dtype.kind != "c"
    for fn in ("cumsum", "cumprod"):
        same(getattr(gp, fn)(g, axis=axis), getattr(np, fn)(a, axis=axis),
             signed_zero=sz)
    if axis is not None:
        for fn in ("cumulative_sum", "cumulative_prod"):
            for inc in (False, True):
                same(getattr(gp, fn)(g, axis=axis, include_initial=inc),
                     getattr(np, fn)(a, axis=axis, include_initial=inc),
                     signed_zero=sz)


@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
def test_scan_long_lines(dtype):
    rng = np.random.default_rng(50)
    for prod in (False, True):
        a = _exact_sample(dtype, (3, LONG), rng, prod)
        g = gp.asarray(a)
        _all_scans(g[1], a[1], 0)               # one long line
        _all_scans(g, a, 1)                     # a few long rows
        _all_scans(g.T, a.T, 0)                 # long columns (strided lines)
        _all_scans(g[:, ::2], a[:, ::2], 1)     # a strided view
        _all_scans(g, a, None)                  # flattened


def test_scan_accumulation_dtypes():
    rng = np.random.default_rng(51)
    a = rng.integers(-100, 100, LONG).astype(np.int8)
    g = gp.asarray(a)
    for dt in (np.int8, np.uint16, np.int32):
        same(gp.cumsum(g, dtype=dt), np.cumsum(a, dtype=dt))
        same(gp.cumprod(g, dtype=dt), np.cumprod(a, dtype=dt))
    same(gp.cumsum(g, dtype=np.float64), np.cumsum(a, dtype=np.float64))
    # Note: a parallel scan combines partial products in another order than NumPy's loop,
    # so a float product that overflows to inf before a zero factor gives NaN where NumPy
    # gives 0: float products are checked on factors that cannot overflow.
    b = (a % 3 - 1).astype(np.int8)
    same(gp.cumprod(gp.asarray(b), dtype=np.float64), np.cumprod(b, dtype=np.float64))
    same(gp.cumsum(g + 1), np.cumsum(a + 1))               # a pending expression


@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
def test_scan_every_case_through_cub(monkeypatch, dtype):
    # the thresholds lowered: single elements, short and many lines reach CUB on CUDA
    cub_everywhere(monkeypatch)
    rng = np.random.default_rng(52)
    for shape in [(1,), (6,), (3, 4), (4, 1, 3), (2, 0), (0, 3)]:
        for prod in (False, True):
            a = _exact_sample(dtype, shape, rng, prod)
            g = gp.asarray(a)
            for axis in range(len(shape)):
                _all_scans(g, a, axis)
