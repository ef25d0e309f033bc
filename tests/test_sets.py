"""The unique family and the set functions compared against NumPy.

unique with every flag for every dtype (duplicates, NaN payloads and signs, -0.0, equal_nan
both ways, empty, 0-d, non-contiguous and N-d inputs, sizes where CUB's unique runs on
CUDA), the Array API's unique_all / unique_counts / unique_inverse / unique_values,
unique along an axis, the gnumpy composition the CUDA backend runs for complex values and
axes (``sets.unique_by_ops``, run here on the CPU backend), isin, union1d, intersect1d,
setdiff1d and setxor1d.
"""
import numpy as np
import pytest
from numpy.exceptions import AxisError

import gnumpy as gp
from gnumpy._api.sorting import sets
from helpers import DTYPES
from sort_helpers import dup_sample, same

DT_IDS = [str(d) for d in DTYPES]
FLAGS = dict(return_index=True, return_inverse=True, return_counts=True)

_NP24 = np.lib.NumpyVersion(np.__version__) >= "2.4.0"


def _nan_as_one(v):
    """Complex values with a NaN part as nan+nanj: which of them a complex unique keeps
    for its one NaN is unspecified (NumPy 2.4's sort path keeps the first in sort order,
    2.5's hash path another)."""
    h = np.array(v.get() if isinstance(v, gp.ndarray) else v)
    if h.dtype.kind == "c":
        h[np.isnan(h)] = complex(np.nan, np.nan)
    return gp.asarray(h) if isinstance(v, gp.ndarray) else h


def _unique_check(g, a, **kw):
    r = gp.unique(g, **kw)
    e = np.unique(a, **kw)
    r = r if isinstance(r, tuple) else (r,)
    e = e if isinstance(e, tuple) else (e,)
    keep_nan = kw.get("equal_nan", True)
    for k, (x, y) in enumerate(zip(r, e)):
        if k == 0 and keep_nan:
            x, y = _nan_as_one(x), _nan_as_one(y)
        same(x, y, signed_zero=False)   # which of -0.0 and +0.0 a set keeps is unspecified


@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
def test_unique(dtype):
    rng = np.random.default_rng(7)
    for shape in [(30,), (4, 6), (0,), (1,)]:
        a = dup_sample(dtype, shape, rng)
        g = gp.asarray(a)
        _unique_check(g, a)
        _unique_check(g, a, return_index=True, return_inverse=True, return_counts=True)
        _unique_check(g, a, return_counts=True, equal_nan=False)
        _unique_check(g, a, return_inverse=True)


def test_unique_array_api_family():
    rng = np.random.default_rng(8)
    for dt in (np.float32, np.complex64, np.int16):
        a = dup_sample(dt, (5, 7), rng)
        g = gp.asarray(a)
        r, e = gp.unique_all(g), np.unique_all(a)
        assert type(r).__name__ == "UniqueAllResult" and r._fields == e._fields
        for x, y in zip(r, e):
            same(x, y, signed_zero=False)
        r, e = gp.unique_counts(g), np.unique_counts(a)
        assert r._fields == e._fields
        for x, y in zip(r, e):
            same(x, y, signed_zero=False)
        # NumPy's unique_inverse sorts unstably: distinct NaNs may take either slot
        r, e = gp.unique_inverse(g), np.unique_inverse(a)
        assert r._fields == e._fields
        same(r.values, e.values, signed_zero=False)
        assert r.inverse_indices.shape == a.shape and r.inverse_indices.dtype == np.int64
        np.testing.assert_array_equal(r.values.get()[r.inverse_indices.get()], a)
        same(_nan_as_one(gp.unique_values(g)), _nan_as_one(np.sort(np.unique_values(a))),
             signed_zero=False)
    same(gp.unique(gp.asarray([3, 1, 3]), axis=0), np.unique([3, 1, 3], axis=0))
    with pytest.raises(AxisError):
        gp.unique(gp.asarray([3, 1, 3]), axis=1)


def test_unique_axis():
    rng = np.random.default_rng(5)
    for shape, axis in [((6, 3), 0), ((6, 3), 1), ((4, 2, 3), -2), ((0, 3), 0)]:
        a = rng.integers(0, 2, shape).astype(np.float32)
        if a.size:
            # NaN rows/columns compare equal in unique(axis=) from NumPy 2.4 on; older
            # releases keep them apart, so only -0.0 goes in there
            a.ravel()[[0, 3]] = (np.nan if _NP24 else 2.0), -0.0
        _unique_check(gp.asarray(a), a, axis=axis)
        _unique_check(gp.asarray(a), a, axis=axis, return_index=True, return_inverse=True,
                      return_counts=True)


def test_unique_nan_and_signed_zero():
    a = np.array([3.0, 1, np.nan, 2, 1, -np.nan, -0.0, 0.0, np.nan])
    for kw in ({}, {"equal_nan": False}, {"return_counts": True}):
        _unique_check(gp.asarray(a), a, **kw)
    c = np.array([complex(1, np.nan), complex(np.nan, 2), 1 + 1j, 1 + 1j, complex(np.nan, 2)])
    _unique_check(gp.asarray(c), c, return_counts=True)
    _unique_check(gp.asarray(c), c, return_counts=True, equal_nan=False)


@pytest.mark.parametrize("invert", [False, True])
def test_isin(invert):
    rng = np.random.default_rng(9)
    for dt_e, dt_t in [(np.int32, np.int32), (np.int8, np.uint64), (np.float32, np.int16),
                       (np.float64, np.float64), (np.complex64, np.float32),
                       (np.bool_, np.int64)]:
        e = dup_sample(dt_e, (4, 5), rng)
        t = dup_sample(dt_t, (9,), rng)
        same(gp.isin(gp.asarray(e), gp.asarray(t), invert=invert),
             np.isin(e, t, invert=invert))
    e = np.array([np.nan, 0.0, -0.0, 1.0])
    same(gp.isin(gp.asarray(e), [np.nan, 0.0], invert=invert),
         np.isin(e, [np.nan, 0.0], invert=invert))
    same(gp.isin(gp.asarray(e), np.array([]), invert=invert),
         np.isin(e, np.array([]), invert=invert))
    same(gp.isin(gp.asarray(3), [1, 3]), np.isin(3, [1, 3]))
    with pytest.raises(ValueError):
        gp.isin(gp.asarray([1]), [1], kind="x")
    with pytest.raises(ValueError):
        gp.isin(gp.asarray([1.0]), [1.0], kind="table")


def test_set_operations():
    rng = np.random.default_rng(10)
    for dt in (np.int64, np.float32, np.uint8):
        a = dup_sample(dt, (25,), rng)
        b = dup_sample(dt, (3, 6), rng)
        ga, gb = gp.asarray(a), gp.asarray(b)
        same(gp.union1d(ga, gb), np.union1d(a, b))
        same(gp.setdiff1d(ga, gb), np.setdiff1d(a, b))
        same(gp.setxor1d(ga, gb), np.setxor1d(a, b))
        same(gp.intersect1d(ga, gb), np.intersect1d(a, b))
        for x, y in zip(gp.intersect1d(ga, gb, return_indices=True),
                        np.intersect1d(a, b, return_indices=True)):
            same(x, y)
        ua, ub = np.unique(a), np.unique(b)
        same(gp.intersect1d(gp.asarray(ua), gp.asarray(ub), assume_unique=True),
             np.intersect1d(ua, ub, assume_unique=True))
        for x, y in zip(gp.intersect1d(gp.asarray(ua), gp.asarray(ub), assume_unique=True,
                                       return_indices=True),
                        np.intersect1d(ua, ub, assume_unique=True, return_indices=True)):
            same(x, y)
        same(gp.setdiff1d(gp.asarray(ua), gp.asarray(ub), assume_unique=True),
             np.setdiff1d(ua, ub, assume_unique=True))
        same(gp.setxor1d(gp.asarray(ua), gp.asarray(ub), assume_unique=True),
             np.setxor1d(ua, ub, assume_unique=True))
    e = np.array([], np.int64)
    for f in ("union1d", "setdiff1d", "setxor1d", "intersect1d"):
        same(getattr(gp, f)(gp.asarray(e), gp.asarray(e)), getattr(np, f)(e, e))
    same(gp.intersect1d(gp.asarray([1.0, 2.0]), gp.asarray([2, 3])),
         np.intersect1d([1.0, 2.0], [2, 3]))




@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
def test_unique_large_strided_and_nd(dtype):
    rng = np.random.default_rng(30)
    a = dup_sample(dtype, (6, 9001), rng)
    g = gp.asarray(a)
    for x, gx in [(a, g), (a[:, ::3], g[:, ::3]), (a[2], g[2]), (a[0, 5], g[0, 5])]:
        _unique_check(gx, x)
        _unique_check(gx, x, **FLAGS)
        _unique_check(gx, x, **FLAGS, equal_nan=False)
        _unique_check(gx, x, return_inverse=True)
    if a.dtype.kind != "b":
        _unique_check(g + 1, a + 1, return_counts=True)         # a pending expression


def test_unique_nan_payloads_and_signs():
    rng = np.random.default_rng(31)
    for dt, ut in ((np.float16, np.uint16), (np.float32, np.uint32), (np.float64, np.uint64)):
        x = rng.integers(-3, 4, 3000).astype(dt)
        bits = x.view(ut)
        bits[rng.integers(0, x.size, 30)] = np.array(np.nan, dt).view(ut) | ut(3)
        x[rng.integers(0, x.size, 30)] = -np.array(np.nan, dt)
        x[rng.integers(0, x.size, 30)] = -0.0
        g = gp.asarray(x)
        for eq in (True, False):
            _unique_check(g, x, **FLAGS, equal_nan=eq)
            _unique_check(g, x, equal_nan=eq)


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.complex64, np.complex128,
                                   np.bool_], ids=str)
def test_unique_by_ops(dtype):
    # the composition CUDA runs for complex values and axes, against NumPy on any backend
    rng = np.random.default_rng(32)
    a = dup_sample(dtype, (5, 40), rng)
    g = gp.asarray(a)
    for eq in (True, False):
        # (NumPy sorts unstably unless return_index: distinct NaNs' inverse is unspecified)
        for flags in ({}, FLAGS) + (({"return_inverse": True},) if eq else ()):
            got = sets.unique_by_ops(g, None, flags.get("return_index", False),
                                     flags.get("return_inverse", False),
                                     flags.get("return_counts", False), eq)
            exp = np.unique(a.ravel(), **flags, equal_nan=eq)
            exp = exp if isinstance(exp, tuple) else (exp,)
            got = tuple(r for r in got if r is not None)
            assert len(got) == len(exp)
            if eq and a.dtype.kind == "c":
                # the one NaN kept is a NaN, which one is unspecified: NumPy 2.4 keeps
                # nan-2j of [nan-2j, nan+nanj] but nan+nanj of this sample
                x, y = got[0].get(), exp[0]
                assert np.isnan(x[-1]) and np.isnan(y[-1])
                same(got[0][:-1], y[:-1], signed_zero=False)
                got, exp = got[1:], exp[1:]
            for x, y in zip(got, exp):      # (which of -0.0 and +0.0 is kept is unspecified:
                same(x, y, signed_zero=False)   # NumPy's own depends on its sort kernel)
    if a.dtype.kind != "c":
        b = dup_sample(dtype, (5, 6), rng, special=False)
        got = sets.unique_by_ops(gp.asarray(b), 1, True, True, True, True)
        for x, y in zip(got, np.unique(b, axis=1, **FLAGS)):
            same(x, y)


def test_unique_with_a_sequence_axis_raises_numpys_errors():
    """NumPy moves a sequence axis to the front and refuses every one: AxisError out of
    range, ValueError repeated or of another length, TypeError for one item."""
    x = np.ones((2, 3))
    g = gp.asarray(x)
    for axis in [(0, 1), (0, 0), (0, 5), (5,), (1,), (-1,), [0], [0, 1], [0, 0], [7], (), []]:
        with pytest.raises(Exception) as e_np:
            np.unique(x, axis=axis)
        with pytest.raises(Exception) as e_gp:
            gp.unique(g, axis=axis)
        assert e_gp.type is e_np.type, axis
