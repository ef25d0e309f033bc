"""Sorting, searching and order statistics compared against NumPy.

sort / argsort (every dtype, duplicates, NaN/inf/-0 placement, stability, descending,
axis None/0/-1 on 1-3-D and strided inputs, empty and 0-d, lengths around the 2048-element
tile so the tile and merge kernels are both listed and compiled), rows long enough for
CUB's radix sort on CUDA (and every case sent there with the thresholds lowered), lexsort,
sort_complex, partition / argpartition (the partition property), searchsorted, median and
the quantile family, and in-place ``ndarray.sort`` seen through views.  Sets are in
test_sets.py, histograms in test_histograms.py, scans in test_scans.py.

The last section builds the CUDA sort kernels with g++ (their host mode runs every phase
of a kernel in turn) and runs them through the CUDA backend's launch logic
(``sort_ops.sort_rows`` etc.) against NumPy, so the GPU code paths are exercised here too.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.exceptions import AxisError

import gnumpy as gp
from helpers import DTYPES, check, strided_pair
from sort_helpers import (HostDev, cub_everywhere, dup_sample, host_lib, np_desc_argsort, nw,
                          same)

DT_IDS = [str(d) for d in DTYPES]
REAL = [d for d in DTYPES if d.kind != "c"]
REAL_IDS = [str(d) for d in REAL]
FLOATS = [d for d in DTYPES if d.kind == "f"]
DET = settings(derandomize=True, max_examples=15)


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


# ------------------------------------------------------------------ the CUB path (CUDA)

CUB_N = 1 << 14         # rows this long take CUB's radix sort in these tests (the
                        # threshold lowered to it: sort_ops.SORT_CUB_MIN_N is 2^18)


@pytest.fixture
def cub_rows(monkeypatch):
    from gnumpy.backends import sort_ops
    monkeypatch.setattr(sort_ops, "SORT_CUB_MIN_N", CUB_N)


def _all_orders(g, a, axis=-1):
    same(gp.sort(g, axis=axis), np.sort(a, axis=axis, kind="stable"))
    same(gp.argsort(g, axis=axis), np.argsort(a, axis=axis, kind="stable"))
    same(gp.argsort(g, axis=axis, descending=True), np_desc_argsort(a, axis))
    same(gp.sort(g, axis=axis, descending=True),
         np.take_along_axis(a, np_desc_argsort(a, axis), axis))


@pytest.mark.parametrize("dtype", REAL, ids=REAL_IDS)
def test_sort_long_rows(cub_rows, dtype):
    # one long row, a few long rows, a strided view, the transpose sorted along axis 0 and a
    # pending expression: CUB's radix sort on CUDA, duplicates and NaN/inf/-0 included
    rng = np.random.default_rng(20)
    a = dup_sample(dtype, (3, 2 * CUB_N + 2), rng)
    g = gp.asarray(a)
    _all_orders(g[1], a[1])
    _all_orders(g, a)
    _all_orders(g[:, ::2], a[:, ::2])
    _all_orders(g.T, a.T, axis=0)
    if a.dtype.kind in "iuf":
        lazy = a[0] * a.dtype.type(2)
        _all_orders(g[0] * a.dtype.type(2), lazy)
    same(gp.sort(g, axis=None), np.sort(a, axis=None, kind="stable"))


def test_sort_long_nan_payloads_and_signed_zeros(cub_rows):
    # negative NaNs and NaN payloads sort last (in their order), -0.0 ties with 0.0
    rng = np.random.default_rng(21)
    for dt, ut in ((np.float16, np.uint16), (np.float32, np.uint32), (np.float64, np.uint64)):
        x = rng.integers(-3, 4, CUB_N + 7).astype(dt)
        bits = x.view(ut)
        bits[rng.integers(0, x.size, 40)] = np.array(np.nan, dt).view(ut) | ut(1)  # payload
        x[rng.integers(0, x.size, 40)] = -np.array(np.nan, dt)                     # sign
        x[rng.integers(0, x.size, 40)] = -0.0
        x[rng.integers(0, x.size, 20)] = np.inf
        x[rng.integers(0, x.size, 20)] = -np.inf
        _all_orders(gp.asarray(x), x)
        check(gp.median(gp.asarray(x[np.isfinite(x)])), np.median(x[np.isfinite(x)]))


@pytest.mark.parametrize("dtype", REAL, ids=REAL_IDS)
def test_sort_every_case_through_cub(monkeypatch, dtype):
    # the thresholds lowered: small rows, single elements, many rows and empty arrays reach
    # the CUB path on CUDA
    cub_everywhere(monkeypatch)
    rng = np.random.default_rng(22)
    for shape in [(7,), (1,), (0,), (4, 9), (2, 3, 5)]:
        a = dup_sample(dtype, shape, rng)
        g = gp.asarray(a)
        for axis in (None, 0, -1):
            same(gp.sort(g, axis=axis), np.sort(a, axis=axis, kind="stable"))
            same(gp.argsort(g, axis=axis), np.argsort(a, axis=axis, kind="stable"))
            if axis is not None:
                same(gp.argsort(g, axis=axis, descending=True), np_desc_argsort(a, axis))
    same(gp.argsort(gp.asarray(np.float32(3))), np.argsort(np.array(np.float32(3))))


def test_cub_switches():
    from gnumpy.backends import cuda_cub, sort_ops
    f, n, r = sort_ops.use_cub_sort, sort_ops.SORT_CUB_MIN_N, sort_ops.SORT_CUB_MAX_ROWS
    assert f(np.float32, 1, n) and f(np.bool_, r, n) and f(np.uint64, 2, 10 * n)
    assert not f(np.float32, 1, n - 1) and not f(np.int32, r + 1, n)
    assert not f(np.complex64, 1, 10 * n)            # no radix sort of complex keys
    assert not f(np.float32, 4096, 4096)             # many short rows: gnumpy's kernels
    s, m, k = cuda_cub.use_cub_scan, cuda_cub.SCAN_CUB_MIN_LEN, cuda_cub.SCAN_CUB_MAX_LINES
    assert s(np.float32, 1, m) and s(np.int64, k, m) and s(np.float16, 1, 10 * m)
    assert not s(np.float32, 1, m - 1) and not s(np.float64, k + 1, m)
    assert not s(np.complex64, 1, m) and not s(np.bool_, 1, m)


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


_LAYOUT_CALLS = {
    "sort": lambda xp, x, ax: xp.sort(x, axis=ax),
    "argsort": lambda xp, x, ax: xp.argsort(x, axis=ax),
    "argsort(stable=True)": lambda xp, x, ax: xp.argsort(x, axis=ax, stable=True),
    "partition": lambda xp, x, ax: xp.partition(x, 0, axis=ax),
    "argpartition": lambda xp, x, ax: xp.argpartition(x, 0, axis=ax),
    "lexsort": lambda xp, x, ax: xp.lexsort((x, -x), axis=ax),
}


@pytest.mark.parametrize("name", list(_LAYOUT_CALLS))
def test_sorts_along_any_axis_are_new_c_contiguous_arrays(name):
    """NumPy's sorts along any axis return a new array, C-contiguous for C-ordered input
    (argsort, argpartition and lexsort for any input): flags and strides are NumPy's, and
    reshaping the result is a view.  (gnumpy sorted rows along the last axis and returned
    them moved back: a transposed view.)"""
    call = _LAYOUT_CALLS[name]
    a = np.random.default_rng(5).standard_normal((3, 4, 5))
    shapes = [a, a[:, :1], a[:, :, :1], a[:2, :, :2] * 1, a[0]]
    for x in shapes:
        for ax in range(-x.ndim, x.ndim):
            for g in (gp.asarray(x), gp.asarray(x) + 0, strided_pair(x)[1]):
                e = call(np, x, ax)
                r = call(gp, g, ax)
                if "partition" in name:     # values: the partition property at kth=0
                    v = r.get() if name == "partition" else np.take_along_axis(x, r.get(), ax)
                    _check_partition(v, x, 0, ax)
                else:                       # (no ties: every sort's order is NumPy's)
                    same(r, e)
                assert r.flags["C_CONTIGUOUS"] and e.flags["C_CONTIGUOUS"]
                assert r.strides == e.strides, (name, x.shape, ax)
                assert gp.shares_memory(r.reshape(-1), r)
                assert np.shares_memory(e.reshape(-1), e)
                assert not gp.shares_memory(r, g)
    # argsort's layout is C whatever the input's
    t = a.T
    for ax in (0, 1, 2):
        e = np.argsort(t, axis=ax, kind="stable")
        r = gp.argsort(gp.asarray(np.ascontiguousarray(a)).T, axis=ax)
        same(r, e)
        assert r.strides == e.strides and r.flags["C_CONTIGUOUS"]


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

@pytest.fixture(scope="module")
def hostdev():
    return HostDev(host_lib())


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


def test_cuda_counting_kernels_on_host(hostdev):
    """bincount's kernel (int32 and int64 bins, counts and weight sums, fewer and more
    bins than a block sums in shared memory; the bin past the last is not counted) and
    the equal-bins histogram's against NumPy, zeroing what the output held."""
    from gnumpy.backends import sort_ops
    from gnumpy.kernels import render_sort as RS
    rng = np.random.default_rng(19)
    for nbins in (12, RS.HIST_SMEM + 5):
        for idt in (np.int32, np.int64):
            x = rng.integers(0, nbins + 1, 3000).astype(idt)
            w = rng.standard_normal(3000)
            for weighted in (False, True):
                out = np.full(nbins, 7, np.float64 if weighted else np.int64)
                key = sort_ops.kernel("bincount", (np.dtype(idt), weighted))
                sort_ops.count(hostdev, key, x.ctypes.data, w.ctypes.data if weighted else 0,
                               out.ctypes.data, 3000, nbins)
                want = np.bincount(x, w if weighted else None, minlength=nbins + 1)[:nbins]
                np.testing.assert_allclose(out, want, rtol=1e-12)
    for dt in (np.float32, np.float64):
        a = (rng.standard_normal(4000) * 3).astype(dt)
        w = rng.standard_normal(4000)
        lo, hi = a.min(), a.max()
        for nb in (7, RS.HIST_SMEM + 1):
            t = np.dtype(dt).type
            step = (hi - lo) / nb
            args = (lo, hi, t(hi - lo), t(nb), lo, t(step), t(hi - lo), t(nb), np.int32(0))
            for weighted in (False, True):
                out = np.full(nb, 3, np.float64 if weighted else np.int64)
                key = sort_ops.kernel("hist", (np.dtype(dt),) * 3 + (weighted,))
                sort_ops.count(hostdev, key, a.ctypes.data, w.ctypes.data if weighted else 0,
                               out.ctypes.data, 4000, nb, args)
                want = np.histogram(a, nb, weights=w if weighted else None)[0]
                np.testing.assert_allclose(out, want, rtol=1e-12)


@pytest.mark.parametrize("rows", [1, 3, 300])
@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64])
def test_sort_rows_keep_the_stable_order_of_signed_zeros_and_nans(rows, dt):
    """Sorted rows equal NumPy's stable sort bit for bit: -0.0 and +0.0 in input order, NaN
    payloads and signs last in input order (the CPU backend fixes the ties of NumPy's
    default sort row by row, or sorts stably when many rows need it)."""
    if gp.asarray(0).device.kind != "cpu":
        pytest.skip("the CPU backend's fix-up of NumPy's default sort")
    rng = np.random.default_rng(rows)
    ut = {2: np.uint16, 4: np.uint32, 8: np.uint64}[np.dtype(dt).itemsize]
    x = rng.integers(-2, 3, (rows, 40)).astype(dt)
    x[rng.random(x.shape) < 0.2] = -0.0
    x.view(ut)[rng.random(x.shape) < 0.05] = np.array(np.nan, dt).view(ut) | ut(3)
    x[rng.random(x.shape) < 0.05] = -np.array(np.nan, dt)
    x[0] = rng.standard_normal(40).astype(dt)           # a row with nothing to fix
    got = gp.sort(gp.asarray(x), axis=-1).get()
    assert got.tobytes() == np.sort(x, axis=-1, kind="stable").tobytes()
    got_t = gp.sort(gp.asarray(np.ascontiguousarray(x.T)).T, axis=-1).get()
    assert np.ascontiguousarray(got_t).tobytes() == np.sort(x, axis=-1, kind="stable").tobytes()


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.int32, np.uint32])
def test_packed_argsort_is_numpys_stable_argsort(dt):
    """The CPU backend's argsort of 32-bit and float16 values (one sort of value-ordered
    keys with the index in the low word, ``sort_numpy._packed_argsort``) is NumPy's stable
    argsort: signed zeros equal, NaNs of either sign last and equal, infinities, extremes,
    subnormals, rows, and descending."""
    from gnumpy.backends import sort_numpy as SN
    rng = np.random.default_rng(3)
    if np.dtype(dt).kind == "f":
        fi = np.finfo(dt)
        special = np.array([0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, fi.max, -fi.max,
                            fi.smallest_subnormal, -fi.smallest_subnormal, 1.0, -1.0], dt)
        x = np.concatenate([special, rng.standard_normal(500).astype(dt),
                            np.round(rng.standard_normal(300)).astype(dt), special])
    else:
        ii = np.iinfo(dt)
        x = np.concatenate([np.array([ii.min, ii.max, 0, ii.max, ii.min], dt),
                            rng.integers(ii.min, ii.max, 500, dtype=dt, endpoint=True),
                            rng.integers(0, 4, 300).astype(dt)])
    x = rng.permutation(x)
    assert (SN._packed_argsort(x) == np.argsort(x, kind="stable")).all()
    rows = x[:800].reshape(8, 100)
    assert (SN._packed_argsort(rows) == np.argsort(rows, axis=-1, kind="stable")).all()
    n = x.shape[-1]
    desc = (n - 1) - np.flip(np.argsort(np.flip(x), kind="stable"))
    assert (SN.np_argsort(x, True) == desc).all()
    same(gp.argsort(gp.asarray(x)), np.argsort(x, kind="stable"))


@pytest.mark.parametrize("case", ["few_ties", "nans", "many_ties", "rows"])
@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64, np.int32, np.uint32,
                                np.uint8])
def test_argsort_orders_ties_stably(case, dt):
    """argsort equals NumPy's stable argsort whatever the ties: a few runs of equal values
    (the CPU backend reorders them after NumPy's default argsort), NaNs and signed zeros,
    mostly ties (the stable argsort itself), many rows."""
    rng = np.random.default_rng(len(case))
    shape = (5, 900) if case == "rows" else (3000,)
    if np.dtype(dt).kind == "f":
        x = rng.standard_normal(shape).astype(dt)
    else:
        x = rng.permutation(np.arange(np.prod(shape)) % np.iinfo(dt).max).astype(dt)
        x = x.reshape(shape)
    flat = x.reshape(-1)
    if case in ("few_ties", "rows"):
        flat[rng.integers(0, flat.size, 40)] = flat[rng.integers(0, flat.size, 40)]
    if case == "nans" and x.dtype.kind == "f":
        flat[rng.integers(0, flat.size, 30)] = np.nan
        flat[rng.integers(0, flat.size, 30)] = -0.0
        flat[rng.integers(0, flat.size, 30)] = 0.0
    if case == "many_ties":
        x = (x % 3).astype(dt) if x.dtype.kind != "f" else np.round(x).astype(dt)
    same(gp.argsort(gp.asarray(x), axis=-1), np.argsort(x, axis=-1, kind="stable"))


def _outcome(f, *args, **kw):
    """f's result as a NumPy array, or the type of what it raised."""
    try:
        r = f(*args, **kw)
    except Exception as e:          # noqa: BLE001 (compared with NumPy's)
        return type(e)
    return np.asarray(r.get() if isinstance(r, gp.ndarray) else r)


def _same_outcome(f_np, f_gp, *args, **kw):
    """f_np and f_gp give the same values, or raise the same type (NumPy's may be a
    subclass of gnumpy's: its UFuncTypeError family is TypeError's)."""
    def g_(a):
        return gp.asarray(a) if isinstance(a, np.ndarray) else a
    e = _outcome(f_np, *args, **kw)
    g = _outcome(f_gp, *map(g_, args), **{k: g_(v) for k, v in kw.items()})
    if isinstance(e, type):
        assert isinstance(g, type) and issubclass(e, g), (e, g)
    else:
        assert not isinstance(g, type), (e, g)
        check(gp.asarray(g), e)


def test_empty_inputs_of_sorting_and_quantiles_are_numpys():
    """Found by a sweep against NumPy: quantiles over the non-empty axis of a size-0 array
    are empty (of the method's dtype), nan-quantiles of empty integer input are NaN,
    partition of no elements does not bound kth, and several empty lexsort keys order
    nothing; an integer out= of a float quantile raises NumPy's TypeError."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for a, q, axis, method in [(np.zeros((0, 3)), 0.5, 1, "linear"),
                                   (np.zeros((0, 3), np.int32), [0.5, 0.1], 1, "lower"),
                                   (np.zeros((3, 0), np.float32), 0.5, 0, "linear"),
                                   (np.zeros((0, 3), np.float16), 0.5, 1, "nearest")]:
            for f in ("quantile", "nanquantile", "percentile"):
                qq = np.asarray(q) * 100 if f == "percentile" else q
                for kd in (False, True):
                    _same_outcome(getattr(np, f), getattr(gp, f), a, qq, axis=axis,
                                  method=method, keepdims=kd)
        for a, axis in [(np.zeros(0, int), None), (np.zeros((2, 0), int), 1),
                        (np.zeros(0, bool), None)]:
            _same_outcome(np.nanquantile, gp.nanquantile, a, 0.5, axis=axis)
    for a, kth in [(np.zeros(0), 0), (np.zeros(0), -1), (np.zeros(0), 5),
                   (np.zeros((0, 3)), 3), (np.zeros((0, 3)), [1, 7]), (np.zeros(0), True),
                   (np.zeros(0), 1.5), (np.arange(4.0), 4)]:
        _same_outcome(np.partition, gp.partition, a, kth)
        _same_outcome(np.argpartition, gp.argpartition, a, kth)
    for keys in [(np.zeros(0), np.zeros(0)), (np.zeros((0, 3)), np.zeros((0, 3)))]:
        check(gp.lexsort(tuple(gp.asarray(k) for k in keys)), np.lexsort(keys))
    check(gp.lexsort(gp.zeros((2, 0))), np.lexsort(np.zeros((2, 0))))
    x = np.array([[1.0, 2, 3], [4, 5, 6]])
    for f in ("quantile", "percentile", "nanquantile"):
        q = 50 if f == "percentile" else 0.5
        _same_outcome(getattr(np, f), getattr(gp, f), x, q, axis=0,
                      out=np.zeros(3, np.int64))
    check(gp.searchsorted(gp.arange(5.0), 2.0, side=b"right"),
          np.searchsorted(np.arange(5.0), 2.0, side=b"right"))


def test_nanmedian_of_a_negative_zero_is_numpys_positive_zero():
    """NumPy's median is a mean, whose sum starts from +0.0: a -0.0 median comes out as
    +0.0 (odd and even counts, NaNs among the values, rows)."""
    for a in ([-0.0, 1.0, -1.0], [-0.0], -0.0, [-0.0, np.nan], [-0.0, -0.0], [3.0, np.nan, 1.0]):
        x = np.array(a)
        check(gp.nanmedian(gp.asarray(x)), np.nanmedian(x))
        check(gp.nanmedian(gp.asarray(x.astype(np.float32))), np.nanmedian(x.astype(np.float32)))
    x = np.array([[-0.0, 1.0, -1.0], [2.0, -0.0, np.nan]])
    check(gp.nanmedian(gp.asarray(x), axis=1), np.nanmedian(x, axis=1))


def test_searchsorted_of_python_ints_past_int64():
    """NumPy reads a Python int past int64 as a float against a float array, as a uint64
    against a uint64 array where it fits, and past every element of an integer array."""
    for a, v in [(np.arange(5.0), 2**70), (np.arange(5.0, dtype=np.float32), 2**70),
                 (np.arange(5.0), -10**400), (np.arange(5), 2**64), (np.arange(5), -2**70),
                 (np.arange(5), 2**63), (np.arange(5), 10**400),
                 (np.array([1, 2**63 + 5, 2**64 - 1], np.uint64), 2**63 + 7),
                 (np.arange(5, dtype=np.uint64), 2**64), (np.arange(5, dtype=np.int8), 300)]:
        for side in ("left", "right"):
            check(gp.searchsorted(gp.asarray(a), v, side=side),
                  np.asarray(np.searchsorted(a, v, side=side)))
