"""Sorting, searching, sets and order statistics compared against NumPy.

sort / argsort (every dtype, duplicates, NaN/inf/-0 placement, stability, descending,
axis None/0/-1 on 1-3-D and strided inputs, empty and 0-d, lengths around the 2048-element
tile so the tile and merge kernels are both listed and compiled), lexsort, sort_complex,
partition / argpartition (the partition property), searchsorted, the unique family, set
operations, bincount / digitize / histogram, median and the quantile family, and in-place
``ndarray.sort`` seen through views.

The last section builds the CUDA sort kernels with g++ (their host mode runs every phase
of a kernel in turn) and runs them through the CUDA backend's launch logic
(``sort_ops.sort_rows`` etc.) against NumPy, so the GPU code paths are exercised here too.
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
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.exceptions import AxisError

import gnumpy as gp
from gnumpy import _dtypes as D
from helpers import DTYPES, check, strided_pair

DT_IDS = [str(d) for d in DTYPES]
REAL = [d for d in DTYPES if d.kind != "c"]
REAL_IDS = [str(d) for d in REAL]
FLOATS = [d for d in DTYPES if d.kind == "f"]
DET = settings(derandomize=True, max_examples=15)


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


def same(got, exp):
    """check() with exact values (NaN where NaN; -0 == 0)."""
    check(got, exp, rtol=0, atol=0)


# ------------------------------------------------------------------ sort / argsort

@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
def test_sort_argsort_every_dtype(dtype):
    rng = np.random.default_rng(0)
    for shape in [(7,), (1,), (0,), (3, 0), (4, 9), (2, 3, 5), (2, 2049)]:
        a = dup_sample(dtype, shape, rng)
        g = gp.asarray(a)
        for axis in [None, 0, -1] + ([1] if len(shape) == 3 else []):
            same(gp.sort(g, axis=axis), np.sort(a, axis=axis, kind="stable"))
            same(gp.argsort(g, axis=axis), np.argsort(a, axis=axis, kind="stable"))
            if axis is not None:
                same(gp.argsort(g, axis=axis, descending=True), np_desc_argsort(a, axis))
                same(gp.sort(g, axis=axis, descending=True),
                     np.take_along_axis(a, np_desc_argsort(a, axis), axis))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int64, np.float16,
                                   np.float32, np.float64, np.complex64, np.complex128],
                         ids=str)
@pytest.mark.parametrize("n", [1, 2, 2047, 2048, 2049, 5000])
def test_sort_lengths_around_the_tile(dtype, n):
    # n <= 2048: one shared-memory tile per row; above: tiles plus merge passes
    rng = np.random.default_rng(n)
    a = dup_sample(dtype, (2, n), rng)
    g = gp.asarray(a)
    same(gp.sort(g), np.sort(a, kind="stable"))
    same(gp.argsort(g), np.argsort(a, kind="stable"))
    same(gp.argsort(g, descending=True), np_desc_argsort(a))


@DET
@given(data=st.data())
def test_sort_hypothesis_layouts(data):
    dtype = data.draw(st.sampled_from([np.int16, np.uint8, np.float32, np.float64,
                                       np.complex64]))
    nd = data.draw(st.integers(1, 3))
    shape = tuple(data.draw(st.lists(st.integers(0, 6), min_size=nd, max_size=nd)))
    a = dup_sample(dtype, shape, np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))))
    layout = data.draw(st.sampled_from(["contiguous", "strided", "transposed", "lazy"]))
    if layout == "strided":
        a, g = strided_pair(a)
    elif layout == "transposed":
        a = a.T
        g = gp.asarray(np.ascontiguousarray(a.T)).T
    elif layout == "lazy":
        g = gp.asarray(a) + 0
        a = a + 0
    else:
        g = gp.asarray(a)
    axis = data.draw(st.sampled_from([None] + list(range(-nd, nd))))
    desc = data.draw(st.booleans())
    if axis is None or not desc:
        same(gp.sort(g, axis=axis), np.sort(a, axis=axis, kind="stable"))
        same(gp.argsort(g, axis=axis), np.argsort(a, axis=axis, kind="stable"))
    else:
        same(gp.argsort(g, axis=axis, descending=True), np_desc_argsort(a, axis))


def test_nan_inf_signed_zero_placement():
    a = np.array([np.nan, 1.0, -0.0, 0.0, np.inf, -np.inf, np.nan, -1.0, 0.0, -0.0])
    for dt in (np.float16, np.float32, np.float64):
        x = a.astype(dt)
        same(gp.sort(gp.asarray(x)), np.sort(x, kind="stable"))
        same(gp.argsort(gp.asarray(x)), np.argsort(x, kind="stable"))
        r = gp.sort(gp.asarray(x), descending=True).get()
        assert np.isnan(r[:2]).all() and r[2] == np.inf and r[-1] == -np.inf
    c = np.array([complex(np.nan, 1), complex(1, np.nan), complex(1, 2), complex(np.nan, np.nan),
                  complex(0, 5), complex(1, 1), complex(np.nan, 0), complex(2, np.nan)])
    for dt in (np.complex64, np.complex128):
        x = c.astype(dt)
        same(gp.argsort(gp.asarray(x)), np.argsort(x, kind="stable"))
        same(gp.sort(gp.asarray(x)), np.sort(x, kind="stable"))


def test_stability_with_duplicates():
    rng = np.random.default_rng(5)
    a = rng.integers(0, 3, (3, 300)).astype(np.float32)
    same(gp.argsort(gp.asarray(a), kind="stable"), np.argsort(a, kind="stable"))
    same(gp.argsort(gp.asarray(a), stable=True), np.argsort(a, kind="stable"))
    # descending keeps equal elements in their original order
    r = gp.argsort(gp.asarray(a), descending=True).get()
    for row, idx in zip(a, r):
        v = row[idx]
        assert (np.diff(v) <= 0).all()
        for val in np.unique(row):
            sel = idx[v == val]
            assert (np.diff(sel) > 0).all()


def test_sort_0d_and_errors():
    z = gp.asarray(np.float32(3))
    with pytest.raises(AxisError):
        gp.sort(z)
    same(gp.sort(z, axis=None), np.sort(np.float32(3), axis=None))
    same(gp.argsort(z), np.argsort(np.array(np.float32(3))))
    same(gp.argsort(z, axis=0), np.argsort(np.array(np.float32(3)), axis=0))
    x = gp.asarray([3, 1, 2])
    with pytest.raises(AxisError):
        gp.sort(x, axis=1)
    with pytest.raises(ValueError):
        gp.sort(x, kind="foo")
    with pytest.raises(TypeError):
        gp.sort(x, kind=3)
    with pytest.raises(ValueError):
        gp.sort(x, kind="stable", stable=True)
    with pytest.raises(ValueError):
        gp.argsort(x, order="f")
    same(gp.sort(x, kind="mergesort"), np.sort([3, 1, 2]))
    same(gp.sort(x, kind="heapsort"), np.sort([3, 1, 2]))


def test_sort_complex_dtypes():
    for dt in (np.int8, np.uint16, np.int32, np.float16, np.float32, np.bool_, np.complex64):
        a = dup_sample(dt, (3, 6), np.random.default_rng(1), special=False)
        same(gp.sort_complex(gp.asarray(a)), np.sort_complex(a))


def test_lexsort():
    rng = np.random.default_rng(3)
    k1 = rng.integers(0, 3, (4, 50))
    k2 = dup_sample(np.float64, (4, 50), rng)
    k3 = rng.integers(0, 2, (4, 50)).astype(bool)
    for keys in [(k1,), (k1, k2), (k2, k1, k3)]:
        same(gp.lexsort(tuple(gp.asarray(k) for k in keys)), np.lexsort(keys))
        same(gp.lexsort(tuple(gp.asarray(k) for k in keys), axis=0), np.lexsort(keys, axis=0))
    same(gp.lexsort(gp.asarray(np.stack([k1, k1 * 2]))), np.lexsort(np.stack([k1, k1 * 2])))
    same(gp.lexsort([3, 1, 2]), np.lexsort([3, 1, 2]))
    with pytest.raises(TypeError):
        gp.lexsort([])
    with pytest.raises(ValueError):
        gp.lexsort((gp.asarray([1, 2]), gp.asarray([1, 2, 3])))


def _check_partition(p, a, kth, axis):
    p = np.moveaxis(p, axis, -1)
    s = np.moveaxis(np.sort(a, axis=axis), axis, -1)
    for k in np.atleast_1d(kth):
        np.testing.assert_array_equal(p[..., k], s[..., k])
        left, right = p[..., :k], p[..., k + 1:]
        kv = p[..., k:k + 1]
        assert (left <= kv).all() and (right >= kv).all()


def test_partition_property():
    rng = np.random.default_rng(4)
    a = rng.integers(-20, 20, (5, 31)).astype(np.float32)
    for kth, axis in [(3, -1), ([0, 10, 30], -1), (-1, -1), (2, 0)]:
        p = gp.partition(gp.asarray(a), kth, axis=axis).get()
        _check_partition(p, a, np.asarray(kth) % a.shape[axis], axis)
        i = gp.argpartition(gp.asarray(a), kth, axis=axis).get()
        _check_partition(np.take_along_axis(a, i, axis), a, np.asarray(kth) % a.shape[axis],
                         axis)
    same(gp.argpartition(gp.asarray(5), 0), np.argpartition(np.array(5), 0))
    p = gp.partition(gp.asarray(a), 4, axis=None).get()
    _check_partition(p, a.ravel(), 4, 0)
    x = gp.asarray([3, 1, 2])
    for bad, exc in [(3, ValueError), (-4, ValueError), (True, ValueError), (1.0, TypeError)]:
        with pytest.raises(exc):
            gp.partition(x, bad)
    with pytest.raises(ValueError):
        gp.partition(x, 1, kind="quick")
    with pytest.raises(AxisError):
        gp.partition(gp.asarray(5), 0)


def test_inplace_sort_is_seen_through_views():
    a = np.array([[3.0, 1.0, 2.0], [0.0, -1.0, 5.0]])
    g = gp.asarray(a)
    v, t = g[:, ::2], g.T
    g.sort()
    a.sort()
    same(g, a)
    same(v, a[:, ::2])
    same(t, a.T)
    # sorting a view writes through into its base
    b = np.array([5, 3, 1, 4, 0])
    gb = gp.asarray(b)
    gb[1:4].sort()
    b[1:4].sort()
    same(gb, b)
    gb.sort(axis=0)
    b.sort(axis=0)
    same(gb, b)
    c = gp.asarray(np.array([[4, 1], [2, 3]]))
    c.partition(0, axis=0)
    same(c, np.array([[2, 1], [4, 3]]))
    with pytest.raises(AxisError):
        gp.asarray(1.0).sort()
    same(g.argsort(axis=0), a.argsort(axis=0, kind="stable"))
    same(gp.asarray([1, 3, 5]).searchsorted(3), np.searchsorted([1, 3, 5], 3))
    same(g.argpartition(1), np.argsort(a, kind="stable"))


# ------------------------------------------------------------------ searchsorted

@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
def test_searchsorted_dtypes(dtype):
    rng = np.random.default_rng(6)
    a = np.sort(dup_sample(dtype, (40,), rng), kind="stable")
    v = dup_sample(dtype, (3, 7), rng)
    for side in ("left", "right"):
        same(gp.searchsorted(gp.asarray(a), gp.asarray(v), side=side),
             np.searchsorted(a, v, side=side))
    perm = rng.permutation(40)
    shuffled = a[perm]
    sorter = np.argsort(shuffled, kind="stable")
    same(gp.searchsorted(gp.asarray(shuffled), gp.asarray(v), sorter=gp.asarray(sorter)),
         np.searchsorted(shuffled, v, sorter=sorter))


def test_searchsorted_mixed_and_errors():
    a8 = np.array([1, 2, 3], dtype=np.int8)
    for v in (2.5, 1000, -1, [0.5, 3.0], np.float32(2)):
        same(gp.searchsorted(gp.asarray(a8), v), np.searchsorted(a8, v))
    f = np.array([1.0, 2.0], np.float32)
    same(gp.searchsorted(gp.asarray(f), 1.00000001), np.searchsorted(f, 1.00000001))
    same(gp.searchsorted(gp.asarray(f)[::-1][::-1], [1, 2], side="right"),
         np.searchsorted(f, [1, 2], side="right"))
    same(gp.searchsorted(gp.asarray(np.array([], np.float64)), [1, 2]),
         np.searchsorted(np.array([]), [1, 2]))
    x = gp.asarray([1, 2, 3])
    with pytest.raises(ValueError):
        gp.searchsorted(x, 1, side="middle")
    with pytest.raises(TypeError):
        gp.searchsorted(x, 1, side=None)
    with pytest.raises(ValueError):
        gp.searchsorted(gp.asarray(3), 1)
    with pytest.raises(ValueError):
        gp.searchsorted(gp.asarray([[1, 2]]), 1)
    with pytest.raises(ValueError):
        gp.searchsorted(x, 1, sorter=[0, 1])
    with pytest.raises(TypeError):
        gp.searchsorted(x, 1, sorter=[0.0, 1.0, 2.0])
    with pytest.raises(ValueError):
        gp.searchsorted(x, 1, sorter=[0, 1, 5])


# ------------------------------------------------------------------ unique and sets

_NP24 = np.lib.NumpyVersion(np.__version__) >= "2.4.0"


def _unique_check(g, a, **kw):
    r = gp.unique(g, **kw)
    e = np.unique(a, **kw)
    r = r if isinstance(r, tuple) else (r,)
    e = e if isinstance(e, tuple) else (e,)
    for x, y in zip(r, e):
        same(x, y)


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
            same(x, y)
        r, e = gp.unique_counts(g), np.unique_counts(a)
        assert r._fields == e._fields
        for x, y in zip(r, e):
            same(x, y)
        # NumPy's unique_inverse sorts unstably: distinct NaNs may take either slot
        r, e = gp.unique_inverse(g), np.unique_inverse(a)
        assert r._fields == e._fields
        same(r.values, e.values)
        assert r.inverse_indices.shape == a.shape and r.inverse_indices.dtype == np.int64
        np.testing.assert_array_equal(r.values.get()[r.inverse_indices.get()], a)
        same(gp.unique_values(g), np.sort(np.unique_values(a)))
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


# ------------------------------------------------------------------ counting and histograms

@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int32, np.uint64,
                                   np.int64], ids=str)
def test_bincount(dtype):
    rng = np.random.default_rng(11)
    x = rng.integers(0, 2 if dtype is np.bool_ else 20, 100).astype(dtype)
    same(gp.bincount(gp.asarray(x)), np.bincount(x))
    same(gp.bincount(gp.asarray(x), minlength=40), np.bincount(x, minlength=40))
    w = rng.standard_normal(100).astype(np.float32)
    check(gp.bincount(gp.asarray(x), weights=gp.asarray(w)), np.bincount(x, weights=w),
          rtol=1e-12, atol=1e-12)
    check(gp.bincount(gp.asarray(x)[::3], weights=w[::3]), np.bincount(x[::3], weights=w[::3]),
          rtol=1e-12, atol=1e-12)


def test_bincount_edges_and_errors():
    same(gp.bincount([]), np.bincount([]))
    same(gp.bincount(gp.asarray(np.array([], np.int64)), minlength=3),
         np.bincount(np.array([], np.int64), minlength=3))
    same(gp.bincount([1, 3]), np.bincount([1, 3]))
    with pytest.raises(ValueError):
        gp.bincount(gp.asarray([1, -1]))
    with pytest.raises(ValueError):
        gp.bincount(gp.asarray([1]), minlength=-1)
    with pytest.raises(TypeError):
        gp.bincount(gp.asarray([1]), minlength=None)
    with pytest.raises(TypeError):
        gp.bincount(gp.asarray([1.5]))
    with pytest.raises(ValueError):
        gp.bincount(gp.asarray(3))
    with pytest.raises(ValueError):
        gp.bincount(gp.asarray([[1]]))
    with pytest.raises(ValueError):
        gp.bincount(gp.asarray([1, 2]), weights=gp.asarray([1.0]))
    with pytest.raises(TypeError):
        gp.bincount(gp.asarray([1, 2]), weights=gp.asarray([1j, 2]))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.uint8,
                                   np.int64], ids=str)
def test_histogram(dtype):
    rng = np.random.default_rng(12)
    x = (rng.standard_normal(300) * 10).astype(dtype)
    w = rng.standard_normal(300)
    wi = rng.integers(0, 5, 300).astype(np.int32)
    et = 1e-6 if np.dtype(dtype) in (np.float16, np.float32) else 1e-13   # edge tolerance
    for bins in (1, 7, [-5, 0, 1, 3, 20]):
        for r in (None, (-3, 4)):
            for weights in (None, w, wi):
                for density in (None, True):
                    e = nw(np.histogram, x, bins, range=r, weights=weights, density=density)
                    got = nw(gp.histogram, gp.asarray(x), bins, range=r, density=density,
                             weights=None if weights is None else gp.asarray(weights))
                    # densities and edges: a few ulp apart on the GPU (FMA contraction)
                    check(got[0], e[0], rtol=1e-6, atol=1e-9)
                    check(got[1], e[1], rtol=et, atol=et)
            check(gp.histogram_bin_edges(gp.asarray(x), bins, range=r),
                  np.histogram_bin_edges(x, bins, range=r), rtol=et, atol=et)


def test_histogram_special_cases_and_errors():
    same(gp.histogram(gp.asarray(np.array([], np.float32)))[0],
         np.histogram(np.array([], np.float32))[0])
    same(gp.histogram(gp.asarray([2.0, 2.0]), 3)[1], np.histogram([2.0, 2.0], 3)[1])
    cw = np.array([1 + 2j, 3j, -1.0])
    check(gp.histogram(gp.asarray([0.1, 0.5, 0.9]), 2, weights=gp.asarray(cw))[0],
          np.histogram([0.1, 0.5, 0.9], 2, weights=cw)[0])
    with pytest.warns(RuntimeWarning):
        same(gp.histogram(gp.asarray([True, False, True]), 2)[0],
             nw(np.histogram, np.array([True, False, True]), 2)[0])
    x = gp.asarray([0.0, np.nan, 1.0])
    with pytest.raises(ValueError):
        gp.histogram(x)
    same(gp.histogram(x, range=(0, 1))[0], nw(np.histogram, [0.0, np.nan, 1.0], range=(0, 1))[0])
    g = gp.asarray([1.0, 2.0])
    for kw, exc in [({"bins": 0}, ValueError), ({"bins": [3, 1, 2]}, ValueError),
                    ({"bins": [[1, 2]]}, ValueError), ({"bins": 2.5}, TypeError),
                    ({"range": (2, 1)}, ValueError), ({"range": (0, np.inf)}, ValueError),
                    ({"bins": "bogus"}, ValueError), ({"weights": gp.asarray([1.0])}, ValueError),
                    ({"bins": "auto", "weights": gp.asarray([1.0, 1.0])}, TypeError)]:
        with pytest.raises(exc):
            gp.histogram(g, **kw)


def test_histogram_bin_estimators():
    rng = np.random.default_rng(19)
    x = (rng.standard_normal(400) * 10).astype(np.float64)
    xi = rng.integers(-50, 50, 300)
    for name in ("auto", "fd", "doane", "rice", "scott", "sqrt", "sturges", "stone"):
        for r in (None, (-5, 5)):
            same(gp.histogram_bin_edges(gp.asarray(x), name, range=r),
                 nw(np.histogram_bin_edges, x, name, range=r))
        check(gp.histogram(gp.asarray(xi), name)[1], nw(np.histogram, xi, name)[1])


def test_digitize():
    rng = np.random.default_rng(13)
    x = dup_sample(np.float64, (4, 30), rng) * 2
    for bins in ([0.0, 1, 2.5, 4], [4.0, 2.5, 1, 0], [1.0, 1, 2, 2, 3], [3.0, 3, 2, 2, 1],
                 [1.0], [2.0, 2.0], np.array([0, 1, 3], np.int8)):
        for right in (False, True):
            same(gp.digitize(gp.asarray(x), gp.asarray(bins), right=right),
                 np.digitize(x, bins, right=right))
    xi = rng.integers(-3, 8, 50)
    same(gp.digitize(gp.asarray(xi), [0, 2, 5]), np.digitize(xi, [0, 2, 5]))
    with pytest.raises(TypeError):
        gp.digitize(gp.asarray([1j]), [0, 1])
    with pytest.raises(ValueError):
        gp.digitize(gp.asarray([1.0]), [3, 1, 2])
    with pytest.raises(ValueError):
        gp.digitize(gp.asarray([1.0]), [[1, 2]])
    with pytest.raises(ValueError):
        gp.digitize(gp.asarray([1.0]), 3)


# ------------------------------------------------------------------ median and quantiles

METHODS = ["linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf",
           "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
           "hazen", "weibull", "median_unbiased", "normal_unbiased"]


def qcheck(got, exp):
    exp = np.asarray(exp)
    rt = 2e-3 if exp.dtype == np.float16 else 1e-5
    check(got, exp, rtol=rt, atol=rt)


@pytest.mark.parametrize("method", METHODS)
def test_quantile_methods(method):
    rng = np.random.default_rng(14)
    # every method in float64; the dtype rules (weak q, float16, ints) on a few of them
    dtypes = (np.float64,) + ((np.float32,) if method in ("linear", "lower", "midpoint",
                                                          "hazen") else ()) + \
        ((np.int64, np.float16) if method in ("linear", "lower") else ())
    for dt in dtypes:
        a = (rng.standard_normal((4, 9)) * 10).astype(dt)
        if dt is not np.int64:
            a[1, 2], a[3, 0] = np.nan, np.inf
        g = gp.asarray(a)
        for q in (0.3, [0.0, 0.25, 1.0], np.array([0.5, 0.9], np.float32), 1):
            for axis in (None, 0):
                qcheck(gp.quantile(g, q, axis=axis, method=method),
                       nw(np.quantile, a, q, axis=axis, method=method))
                qcheck(gp.nanquantile(g, q, axis=axis, method=method),
                       nw(np.nanquantile, a, q, axis=axis, method=method))
        qcheck(gp.percentile(g, [10, 50], axis=(0, 1), method=method, keepdims=True),
               nw(np.percentile, a, [10, 50], axis=(0, 1), method=method, keepdims=True))
        qcheck(gp.nanpercentile(g, 75, axis=0, method=method, keepdims=True),
               nw(np.nanpercentile, a, 75, axis=0, method=method, keepdims=True))


def test_quantile_errors_and_specials():
    g = gp.asarray([1.0, 2.0, 3.0])
    with pytest.raises(ValueError):
        gp.quantile(g, 1.5)
    with pytest.raises(ValueError):
        gp.percentile(g, -1)
    with pytest.raises(ValueError):
        gp.quantile(g, 0.5, method="bogus")
    with pytest.raises(TypeError):
        gp.quantile(gp.asarray([1j]), 0.5)
    with pytest.raises(ValueError):
        gp.quantile(g, 0.5, weights=gp.asarray([1.0, 1.0, 1.0]))
    with pytest.raises(NotImplementedError):
        gp.quantile(g, 0.5, method="inverted_cdf", weights=gp.asarray([1.0, 1.0, 1.0]))
    with pytest.raises(IndexError):
        gp.quantile(gp.asarray(np.array([])), 0.5)
    qcheck(gp.quantile(gp.asarray([1.0, np.inf]), 1.0), nw(np.quantile, [1.0, np.inf], 1.0))
    qcheck(gp.nanquantile(gp.asarray(np.full((2, 3), np.nan)), 0.5, axis=1),
           nw(np.nanquantile, np.full((2, 3), np.nan), 0.5, axis=1))
    qcheck(nw(gp.nanquantile, gp.asarray(np.zeros((0, 3))), 0.5, axis=0),
           nw(np.nanquantile, np.zeros((0, 3)), 0.5, axis=0))
    out = gp.zeros((2,))
    r = gp.quantile(gp.asarray([[1.0, 2.0], [3.0, 5.0]]), 0.5, axis=1, out=out)
    assert r is out
    qcheck(out, np.quantile([[1.0, 2.0], [3.0, 5.0]], 0.5, axis=1))
    qcheck(gp.quantile(gp.asarray(np.arange(10) % 4), gp.asarray([0.5, 0.75])),
           np.quantile(np.arange(10) % 4, [0.5, 0.75]))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int32, np.uint8,
                                   np.bool_, np.complex64], ids=str)
def test_median(dtype):
    rng = np.random.default_rng(15)
    for shape in [(7,), (4, 6), (2, 3, 5), (0, 3)]:
        a = dup_sample(dtype, shape, rng)
        g = gp.asarray(a)
        for axis in [None, 0, -1] + ([(0, -1)] if len(shape) > 1 else []):
            for keepdims in (False, True):
                qcheck(gp.median(g, axis=axis, keepdims=keepdims),
                       nw(np.median, a, axis=axis, keepdims=keepdims))
                if dtype is not np.complex64 and a.size:
                    qcheck(gp.nanmedian(g, axis=axis, keepdims=keepdims),
                           nw(np.nanmedian, a, axis=axis, keepdims=keepdims))
    a = np.array([[np.nan, np.nan], [1.0, np.nan], [3.0, 1.0]])
    qcheck(gp.nanmedian(gp.asarray(a), axis=1), nw(np.nanmedian, a, axis=1))
    qcheck(gp.median(gp.asarray(a), axis=0), np.median(a, axis=0))
    s, ns = strided_pair(rng.standard_normal((5, 4)))
    qcheck(gp.median(ns, axis=0), np.median(s, axis=0))


# ------------------------------------------------------------------ the CUDA kernels on the host

def _host_lib():
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
    src += RS.bincount_kernel("bincount_None")
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

    def kernel(self, key, render):
        from gnumpy.kernels.types import SHORT
        _, kind, param = key
        suffix = SHORT[param] if isinstance(param, np.dtype) else param
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


@pytest.fixture(scope="module")
def hostdev():
    return HostDev(_host_lib())


@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
def test_cuda_sort_kernels_on_host(hostdev, dtype):
    from gnumpy.backends import sort_ops
    rng = np.random.default_rng(16)
    dt = np.dtype(dtype)
    for rows, n in [(5, 1), (3, 2), (300, 3), (7, 37), (2, 2047), (1, 2048), (2, 2049),
                    (2, 5000), (1, 9000)]:
        a = np.ascontiguousarray(dup_sample(dt, (rows, n), rng))
        for desc in (False, True):
            ref = np_desc_argsort(a) if desc else np.argsort(a, axis=-1, kind="stable")
            idx = np.empty((rows, n), np.int64)
            sort_ops.sort_rows(hostdev, dt, a.ctypes.data, idx.ctypes.data, rows, n, desc,
                               False)
            np.testing.assert_array_equal(idx, ref)
            vals = np.empty_like(a)
            sort_ops.sort_rows(hostdev, dt, a.ctypes.data, vals.ctypes.data, rows, n, desc,
                               True)
            np.testing.assert_array_equal(vals, np.take_along_axis(a, ref, -1))


@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
def test_cuda_search_kernels_on_host(hostdev, dtype):
    from gnumpy.backends import sort_ops
    rng = np.random.default_rng(17)
    dt = np.dtype(dtype)
    a = np.sort(dup_sample(dt, (50,), rng), kind="stable")
    v = dup_sample(dt, (30,), rng)
    out = np.empty(30, np.int64)
    for side in ("left", "right"):
        sort_ops.search(hostdev, dt, a.ctypes.data, 1, 0, 50, v.ctypes.data, out.ctypes.data,
                        30, side == "right")
        np.testing.assert_array_equal(out, np.searchsorted(a, v, side=side))
        rev = np.ascontiguousarray(a[::-1])      # a reversed in memory, read with stride -1
        sort_ops.search(hostdev, dt, rev.ctypes.data + 49 * dt.itemsize, -1, 0, 50,
                        v.ctypes.data, out.ctypes.data, 30, side == "right")
        np.testing.assert_array_equal(out, np.searchsorted(a, v, side=side))
        perm = rng.permutation(50)
        sh = np.ascontiguousarray(a[perm])
        sorter = np.argsort(sh, kind="stable")
        sort_ops.search(hostdev, dt, sh.ctypes.data, 1, sorter.ctypes.data, 50, v.ctypes.data,
                        out.ctypes.data, 30, side == "right")
        np.testing.assert_array_equal(out, np.searchsorted(sh, v, side=side, sorter=sorter))


def test_cuda_move_kernels_on_host(hostdev):
    from gnumpy.backends import sort_ops
    rng = np.random.default_rng(18)
    for dt in (np.int8, np.float16, np.float32, np.int64, np.complex128):
        dt = np.dtype(dt)
        x = dup_sample(dt, (3, 20), rng)
        idx = rng.integers(0, 20, (3, 6)).astype(np.int64)
        out = np.empty((3, 6), dt)
        sort_ops.gather(hostdev, dt.itemsize, x.ctypes.data, idx.ctypes.data, out.ctypes.data,
                        3, 6, 20, 6)
        np.testing.assert_array_equal(out, np.take_along_axis(x, idx, -1))
        sort_ops.gather(hostdev, dt.itemsize, x.ctypes.data, idx.ctypes.data, out.ctypes.data,
                        3, 6, 0, 6)
        np.testing.assert_array_equal(out, x[0][idx])
        perm = rng.permutation(20).astype(np.int64)
        mask = rng.integers(0, 2, 20).astype(bool)
        flat = np.ascontiguousarray(x[0])
        res = np.zeros(20, dt)
        sort_ops.scatter(hostdev, dt.itemsize, flat.ctypes.data, perm.ctypes.data, 0,
                         res.ctypes.data, 20)
        exp = np.zeros(20, dt)
        exp[perm] = flat
        np.testing.assert_array_equal(res, exp)
        pos = (np.cumsum(mask) - 1).astype(np.int64)
        res = np.zeros(int(mask.sum()), dt)
        sort_ops.scatter(hostdev, dt.itemsize, flat.ctypes.data, pos.ctypes.data,
                         mask.ctypes.data, res.ctypes.data, 20)
        np.testing.assert_array_equal(res, flat[mask])
    x = rng.integers(0, 9, 100).astype(np.int64)
    w = rng.standard_normal(100)
    cnt = np.full(12, 7, np.int64)
    sort_ops.bincount(hostdev, x.ctypes.data, 0, cnt.ctypes.data, 100, 12)
    np.testing.assert_array_equal(cnt, np.bincount(x, minlength=12))
    ws = np.full(12, 7.0)
    sort_ops.bincount(hostdev, x.ctypes.data, w.ctypes.data, ws.ctypes.data, 100, 12)
    np.testing.assert_allclose(ws, np.bincount(x, weights=w, minlength=12), rtol=1e-12)
