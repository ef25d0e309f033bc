"""The everyday NumPy surface against NumPy: logic and comparison (isclose, allclose,
array_equal, ...), selection (select, piecewise), math odds and ends (nan_to_num, angle,
fix, sinc, i0, trapezoid, gradient, ediff1d, unwrap, polyval, vander, geomspace), windows,
products (inner, outer, vdot, kron, tensordot, cross, einsum), convolve/correlate, average,
cov, corrcoef, ptp, the floating-point error state, dtype helpers, ndarray.view and friends,
and the coverage report script.

Note: gnumpy returns 0-d arrays where NumPy returns scalars; the checks compare values,
dtypes and shapes.
"""
import importlib.util
import pathlib
import pickle
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.exceptions import AxisError

import gnumpy as gp
from helpers import check, pair, sample, strided_pair

DET = settings(derandomize=True)
ALL = [np.dtype(t) for t in (np.bool_, np.int8, np.uint16, np.int64, np.uint64, np.float16,
                             np.float32, np.float64, np.complex64, np.complex128)]
ALL_IDS = [str(d) for d in ALL]
NUM = [d for d in ALL if d.kind != "b"]
NUM_IDS = [str(d) for d in NUM]
REALF = [np.dtype(t) for t in (np.float16, np.float32, np.float64)]
REALF_IDS = [str(d) for d in REALF]


def np_call(f, *args, **kw):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return f(*args, **kw)


LAYOUTS = ["contiguous", "strided", "transposed"]


# ------------------------------------------------------------------ closeness and equality

@pytest.mark.parametrize("dtype", ALL, ids=ALL_IDS)
@DET
@given(seed=st.integers(0, 2 ** 32 - 1), kind=st.sampled_from(LAYOUTS),
       equal_nan=st.booleans(), other=st.sampled_from(["same", "near", "scalar", "int"]))
def test_isclose(dtype, seed, kind, equal_nan, other):
    a, g = pair(dtype, (3, 4), seed, kind=kind)
    if other == "same":
        b = a.copy()
    elif other == "near":
        b = np_call(np.add, a, np.asarray(1e-6, dtype=a.dtype) if a.dtype.kind in "fc"
                    else 0)
    elif other == "scalar":
        b = 1.0
    else:
        b = 3
    gb = gp.asarray(b) if isinstance(b, np.ndarray) else b
    check(gp.isclose(g, gb, equal_nan=equal_nan), np_call(np.isclose, a, b,
                                                            equal_nan=equal_nan))
    check(gp.isclose(gb, g, rtol=1e-3, atol=0.5), np_call(np.isclose, b, a, rtol=1e-3,
                                                           atol=0.5))
    assert gp.allclose(g, gb, equal_nan=equal_nan) == np_call(np.allclose, a, b,
                                                              equal_nan=equal_nan)


def test_isclose_edge_cases():
    x = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1e-300])
    y = np.array([np.inf, np.inf, np.nan, -0.0, 0.0, 0.0])
    for en in (False, True):
        check(gp.isclose(gp.asarray(x), gp.asarray(y), equal_nan=en), np.isclose(x, y,
                                                                                 equal_nan=en))
    check(gp.isclose(gp.asarray(x)[:, None], gp.asarray(y)), np.isclose(x[:, None], y))
    check(gp.isclose(1.0, 1.0 + 1e-9), np.isclose(1.0, 1.0 + 1e-9))
    check(gp.isclose(gp.asarray(np.int8([-128, 127])), np.int8(-128)),
          np.isclose(np.int8([-128, 127]), np.int8(-128)))
    at = np.array([0.1, 1e-9, 0.0])
    check(gp.isclose(gp.asarray(x[:3]), 0.05, atol=gp.asarray(at)),
          np.isclose(x[:3], 0.05, atol=at))
    check(gp.isclose(gp.zeros((0, 2)), 1.0), np.isclose(np.zeros((0, 2)), 1.0))
    with pytest.warns(RuntimeWarning, match="not valid"):
        gp.isclose(gp.asarray(x), 1.0, atol=np.inf)
    with gp.errstate(invalid="raise"), pytest.raises(FloatingPointError):
        gp.isclose(gp.asarray(x), 1.0, rtol=np.nan)
    with pytest.raises(ValueError):
        gp.isclose(gp.ones(3), gp.ones(4))
    assert gp.allclose([1.0, 2.0], gp.asarray([1.0, 2.0])) is True


@pytest.mark.parametrize("dtype", ALL, ids=ALL_IDS)
def test_array_equal_and_equiv(dtype):
    a, g = pair(dtype, (3, 4), 1)
    b = a.copy()
    for en in (False, True):
        for other in (b, b[:, :3], b[::-1]):
            assert gp.array_equal(g, gp.asarray(other), equal_nan=en) is \
                bool(np.array_equal(a, other, equal_nan=en))
    assert gp.array_equiv(g[:1], gp.asarray(np.broadcast_to(a[:1], (3, 4)))) is True
    assert gp.array_equiv(g, a[:1]) is bool(np.array_equiv(a, a[:1]))
    assert gp.array_equiv(g, np.ones(5)) is False
    assert gp.array_equal(g, [[1, 2]]) is False
    assert gp.array_equal(gp.zeros((0, 3)), np.zeros((0, 3))) is True


@pytest.mark.parametrize("dtype", ALL, ids=ALL_IDS)
def test_predicates(dtype):
    a, g = pair(dtype, (4, 5), 2)
    for kind in LAYOUTS:
        a, g = pair(dtype, (4, 5), 2, kind=kind)
        check(gp.iscomplex(g), np.iscomplex(a))
        check(gp.isreal(g), np.isreal(a))
        if a.dtype.kind == "c":
            with pytest.raises(TypeError, match="ambiguous"):
                gp.isposinf(g)
        else:
            check(gp.isposinf(g), np.isposinf(a))
            check(gp.isneginf(g), np.isneginf(a))
    assert gp.iscomplexobj(g) == np.iscomplexobj(a)
    assert gp.isrealobj(g) == np.isrealobj(a)
    out = gp.zeros((4, 5), dtype=bool)
    if a.dtype.kind != "c":
        assert gp.isneginf(g, out=out) is out
        check(out, np.isneginf(a))
    assert gp.iscomplexobj([1 + 0j]) and gp.isrealobj([1.0]) and not gp.iscomplexobj(3)
    check(gp.iscomplex(gp.asarray(2j)), np.asarray(np.iscomplex(2j)))


def test_real_if_close_isfortran_iterable():
    z = np.array([1 + 1e-15j, 2 - 1e-14j])
    r = gp.real_if_close(gp.asarray(z))
    check(r, np.real_if_close(z))
    check(gp.real_if_close(gp.asarray(z + 1e-3j)), np.real_if_close(z + 1e-3j))
    check(gp.real_if_close(gp.asarray(z), tol=1e-20), np.real_if_close(z, tol=1e-20))
    check(gp.real_if_close(gp.asarray([1.0, 2.0])), np.real_if_close([1.0, 2.0]))
    check(gp.real_if_close(gp.asarray(np.complex64(1 + 1e-7j))),
          np.real_if_close(np.complex64(1 + 1e-7j)))
    m = gp.ones((2, 3))
    assert gp.isfortran(m.T) and not gp.isfortran(m) and not gp.isfortran(gp.ones(3))
    assert gp.isfortran(m.T) == np.isfortran(np.ones((2, 3)).T)
    assert gp.iterable(m) and gp.iterable([1]) and not gp.iterable(gp.asarray(1.0))
    assert not gp.iterable(3)


def test_shares_memory():
    x = gp.arange(12.0).reshape(3, 4)
    xn = np.arange(12.0).reshape(3, 4)
    views = [lambda v: v, lambda v: v[1], lambda v: v[:, ::2], lambda v: v[:, 1::2],
             lambda v: v.T, lambda v: v[2:, 3:]]
    for f1 in views:
        for f2 in views:
            assert gp.shares_memory(f1(x), f2(x)) == np.shares_memory(f1(xn), f2(xn))
            assert gp.may_share_memory(f1(x), f2(x)) == np.may_share_memory(f1(xn), f2(xn))
    y = x + 1
    assert not gp.shares_memory(x, y) and not gp.may_share_memory(y, x)
    assert not gp.shares_memory(x, xn)
    assert gp.shares_memory(x, x.view(np.int64))
    assert gp.shares_memory(gp.zeros(3), [1, 2]) is False


# ------------------------------------------------------------------ selection

@pytest.mark.parametrize("dtype", ALL, ids=ALL_IDS)
def test_select(dtype):
    a, g = pair(dtype, (4, 5), 3, special=False)
    rng = np.random.default_rng(4)
    c1, c2 = rng.random((4, 5)) > 0.5, rng.random(5) > 0.3
    conds_n, conds_g = [c1, c2], [gp.asarray(c1), gp.asarray(c2)]
    b = sample(dtype, (4, 5), rng, special=False)
    # (NumPy refuses Python int choices for unsigned arrays: its copyto casts them from
    # int64 'same_kind'; gnumpy uses the promoted dtype)
    scalar_case = ([a, 2], 1) if a.dtype.kind != "u" else ([a, np.uint8(2)], np.uint8(1))
    for choices, default in (([a, b], 0), scalar_case, ([a, b[0]], b)):
        gch = [gp.asarray(c) if isinstance(c, np.ndarray) else c for c in choices]
        gd = gp.asarray(default) if isinstance(default, np.ndarray) else default
        check(gp.select(conds_g, gch, gd), np.select(conds_n, choices, default))
    check(gp.select([gp.asarray(c2)], [1.5], 2), np.select([c2], [1.5], 2))
    with pytest.raises(ValueError, match="same length"):
        gp.select(conds_g, [g])
    with pytest.raises(ValueError, match="empty condition list"):
        gp.select([], [])
    with pytest.raises(TypeError, match="invalid entry 0"):
        gp.select([gp.ones((4, 5), dtype=np.int8)], [g])


def test_select_fuses():
    x = gp.asarray(np.arange(12.0))
    r = gp.select([x < 3, x > 8, x == 5], [x, x ** 2, -x], 42)
    gp.stats.reset()
    gp.evaluate(r)
    assert gp.stats.groups == 1
    xn = np.arange(12.0)
    check(r, np.select([xn < 3, xn > 8, xn == 5], [xn, xn ** 2, -xn], 42))


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex64])
def test_piecewise(dtype):
    a, g = pair(dtype, (6,), 5, special=False)
    re = a.real if a.dtype.kind == "c" else a
    gre = g.real if a.dtype.kind == "c" else g
    cases = [([re < 0, re >= 0], [-1, 1]),
             ([re < 0], [lambda t: t * 2, lambda t: t - 1]),
             ([re < -1, re > 1], [0, lambda t: t ** 2, 7]),
             (re > 0, [lambda t: t + 3])]
    for conds, funcs in cases:
        gconds = gp.asarray(conds) if isinstance(conds, np.ndarray) else \
            [gp.asarray(c) for c in conds]
        check(gp.piecewise(g, gconds, funcs), np.piecewise(a, conds, funcs))
    x = np.asarray(2.5, dtype=dtype)
    check(gp.piecewise(gp.asarray(x), [True, False], [1, 2]), np.piecewise(x, [True, False],
                                                                           [1, 2]))
    check(gp.piecewise(g, [gp.asarray(re > 0)], [lambda t, k: t * k], 3),
          np.piecewise(a, [re > 0], [lambda t, k: t * k], 3))
    with pytest.raises(ValueError, match="functions are expected"):
        gp.piecewise(g, [gre > 0], [1, 2, 3])


# ------------------------------------------------------------------ elementwise odds and ends

@pytest.mark.parametrize("dtype", ALL, ids=ALL_IDS)
def test_nan_to_num(dtype):
    for kind in LAYOUTS:
        a, g = pair(dtype, (4, 5), 6, kind=kind)
        check(gp.nan_to_num(g), np.nan_to_num(a))
        kw = {"nan": -7.0, "posinf": 1e3, "neginf": -1e3}
        if a.dtype.kind in "fc":
            check(gp.nan_to_num(g, **kw), np.nan_to_num(a, **kw))
    a, g = pair(dtype, (4, 5), 6)
    r = gp.nan_to_num(g, copy=False)
    assert r is g
    check(g, np.nan_to_num(a))
    z = np.asarray(np.nan if a.dtype.kind in "fc" else 3, dtype=dtype)
    check(gp.nan_to_num(gp.asarray(z)), np.asarray(np.nan_to_num(z)))


def test_nan_to_num_complex_infinite_parts():
    z = np.array([complex(np.nan, np.inf), complex(-np.inf, np.nan), 1 + 2j,
                  complex(np.inf, -np.inf)], dtype=np.complex64)
    check(gp.nan_to_num(gp.asarray(z)), np.nan_to_num(z))
    check(gp.nan_to_num(gp.asarray(z), posinf=np.inf), np.nan_to_num(z, posinf=np.inf))


@pytest.mark.parametrize("dtype", NUM, ids=NUM_IDS)
def test_angle_fix_sinc(dtype):
    for kind in LAYOUTS:
        a, g = pair(dtype, (3, 4), 7, kind=kind)
        check(gp.angle(g), np_call(np.angle, a))
        check(gp.angle(g, deg=True), np_call(np.angle, a, deg=True))
        if a.dtype.kind != "c":
            check(gp.fix(g), np_call(np.fix, a))
        check(gp.sinc(g), np_call(np.sinc, a), rtol=1e-2 if a.dtype == np.float16 else None)
    if a.dtype.kind != "c":
        out = gp.zeros((3, 4), dtype=a.dtype)
        assert gp.fix(g, out=out) is out
        check(out, np.fix(a))
    else:
        with pytest.raises(TypeError):
            gp.fix(g)
    check(gp.sinc(gp.asarray([0.0, -0.0])), np.sinc([0.0, -0.0]))


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.float16, np.float32, np.float64])
def test_i0(dtype):
    rng = np.random.default_rng(8)
    a = (rng.standard_normal((4, 6)) * 12).astype(dtype)
    if a.dtype.kind == "f":
        a[0, :4] = [np.nan, np.inf, -np.inf, -0.0]
    g = gp.asarray(a)
    check(gp.i0(g), np_call(np.i0, a), rtol=2e-2 if a.dtype == np.float16 else None)
    check(gp.i0(g.T[::2]), np_call(np.i0, a.T[::2]),
          rtol=2e-2 if a.dtype == np.float16 else None)
    with pytest.raises(TypeError, match="complex"):
        gp.i0(gp.asarray([1j]))
    gp.stats.reset()
    gp.evaluate(gp.i0(gp.asarray(a)))
    assert gp.stats.groups == 1


# ------------------------------------------------------------------ differences and integrals

@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.float16, np.float32, np.float64,
                                   np.complex128])
def test_trapezoid(dtype):
    a, g = pair(dtype, (4, 5), 9, special=False)
    x = np.cumsum(np.random.default_rng(1).random(5))
    check(gp.trapezoid(g), np.trapezoid(a))
    check(gp.trapezoid(g, dx=0.5, axis=0), np.trapezoid(a, dx=0.5, axis=0))
    check(gp.trapezoid(g, x=gp.asarray(x)), np.trapezoid(a, x=x))
    x2 = np.cumsum(np.random.default_rng(2).random((4, 5)), axis=0)
    check(gp.trapezoid(g, x=gp.asarray(x2), axis=0), np.trapezoid(a, x=x2, axis=0))
    check(gp.trapezoid(gp.asarray(a[:, :1])), np.trapezoid(a[:, :1]))


@pytest.mark.parametrize("dtype", [np.int16, np.float16, np.float32, np.float64,
                                   np.complex64])
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient(dtype, edge_order):
    a, g = pair(dtype, (4, 6), 10, special=False)
    rtol = 1e-2 if np.dtype(dtype) == np.float16 else None
    check(gp.gradient(g, edge_order=edge_order), np_call(np.gradient, a,
                                                         edge_order=edge_order), rtol=rtol)
    check(gp.gradient(g, 0.5, 2.0, edge_order=edge_order),
          np_call(np.gradient, a, 0.5, 2.0, edge_order=edge_order), rtol=rtol)
    xs = np.cumsum(np.random.default_rng(3).random(6)) + 1
    check(gp.gradient(g, gp.asarray(xs), axis=1, edge_order=edge_order),
          np_call(np.gradient, a, xs, axis=1, edge_order=edge_order), rtol=rtol)
    check(gp.gradient(g, 3, gp.asarray(xs), edge_order=edge_order),
          np_call(np.gradient, a, 3, xs, edge_order=edge_order), rtol=rtol)
    xu = np.arange(4) * 2         # integer, uniform coordinates
    check(gp.gradient(g, gp.asarray(xu), axis=0), np_call(np.gradient, a, xu, axis=0),
          rtol=rtol)
    check(gp.gradient(g.T, axis=(1, 0)), np_call(np.gradient, a.T, axis=(1, 0)), rtol=rtol)


def test_gradient_errors():
    g = gp.ones((3, 4))
    with pytest.raises(ValueError, match="too small"):
        gp.gradient(gp.ones(2), edge_order=2)
    with pytest.raises(ValueError, match="greater than 2"):
        gp.gradient(g, edge_order=3)
    with pytest.raises(TypeError, match="invalid number of arguments"):
        gp.gradient(g, 1.0, 2.0, 3.0)
    with pytest.raises(ValueError, match="must match the length"):
        gp.gradient(g, gp.ones(5), axis=0)
    with pytest.raises(ValueError, match="scalars or 1d"):
        gp.gradient(g, gp.ones((3, 1)), axis=0)
    with pytest.raises(AxisError):
        gp.gradient(g, axis=2)
    with pytest.raises(TypeError):
        gp.gradient(gp.asarray([True, False, True]))
    assert gp.gradient(gp.asarray(1.0)) == ()


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, np.float32, np.complex64])
def test_ediff1d(dtype):
    a, g = pair(dtype, (3, 4), 11, special=False)
    check(gp.ediff1d(g), np.ediff1d(a))
    tb, te = np.array([1, 2], dtype=dtype), np.array(5, dtype=dtype)
    check(gp.ediff1d(g, to_begin=gp.asarray(tb), to_end=te), np.ediff1d(a, to_begin=tb,
                                                                         to_end=te))
    if a.dtype.kind != "u":
        check(gp.ediff1d(g, to_begin=[1, 2], to_end=5), np.ediff1d(a, to_begin=[1, 2],
                                                                   to_end=5))
    else:
        with pytest.raises(TypeError, match="same_kind"):
            gp.ediff1d(g, to_begin=[1, 2])
    te2 = np.array([3, 4], dtype=dtype)
    check(gp.ediff1d(g.T, to_end=gp.asarray(te2)), np.ediff1d(a.T, to_end=te2))
    check(gp.ediff1d(gp.asarray(a[:1, :1])), np.ediff1d(a[:1, :1]))
    if a.dtype.kind in "iu":
        with pytest.raises(TypeError, match="same_kind"):
            gp.ediff1d(g, to_begin=1.5)
    with pytest.raises(TypeError):
        gp.ediff1d(gp.asarray([True, False]))


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_unwrap(dtype):
    rng = np.random.default_rng(12)
    p = np.cumsum(rng.standard_normal((3, 8)) * 3, axis=1).astype(dtype)
    if np.dtype(dtype).kind == "i":
        p = np.cumsum(rng.integers(-6, 7, (3, 8)), axis=1).astype(dtype)
        check(gp.unwrap(gp.asarray(p), period=6), np.unwrap(p, period=6))
        check(gp.unwrap(gp.asarray(p), period=5, axis=0), np.unwrap(p, period=5, axis=0))
    g = gp.asarray(p)
    check(gp.unwrap(g), np.unwrap(p))
    check(gp.unwrap(g, axis=0), np.unwrap(p, axis=0))
    check(gp.unwrap(g, discont=4.0), np.unwrap(p, discont=4.0))
    check(gp.unwrap(g.T, period=360), np.unwrap(p.T, period=360))
    check(gp.unwrap(gp.zeros((2, 0))), np.unwrap(np.zeros((2, 0))))


def test_interp():
    rng = np.random.default_rng(27)
    xp = np.sort(rng.random(8))
    fp = rng.standard_normal(8)
    x = np.r_[rng.random(20) * 1.4 - 0.2, xp[3], xp[-1], xp[0], np.nan, np.inf, -np.inf]
    gx, gxp, gfp = gp.asarray(x), gp.asarray(xp), gp.asarray(fp)
    check(gp.interp(gx, gxp, gfp), np.interp(x, xp, fp))
    check(gp.interp(gx, gxp, gfp, left=-5.0, right=7), np.interp(x, xp, fp, left=-5.0,
                                                                  right=7))
    check(gp.interp(gx[:24].reshape(3, 8).T, gxp, gfp),
          np.interp(x[:24].reshape(3, 8).T, xp, fp))
    fpc = (fp + 1j * rng.standard_normal(8)).astype(np.complex64)
    check(gp.interp(gx, gxp, gp.asarray(fpc)), np.interp(x, xp, fpc))
    check(gp.interp(gx * 10, gxp * 10, gfp, period=3), np_call(np.interp, x * 10, xp * 10, fp,
                                                               period=3))
    check(gp.interp(2.5, [1, 2, 3], [3, 2, 0]), np.asarray(np.interp(2.5, [1, 2, 3],
                                                                     [3, 2, 0])))
    check(gp.interp(gx, [0.5], [3.0]), np.interp(x, [0.5], [3.0]))
    xi, fi = np.array([0.0, 1.0, np.inf]), np.array([0.0, np.inf, np.inf])
    check(gp.interp(gp.asarray([0.5, 2.0, 1.0]), gp.asarray(xi), gp.asarray(fi)),
          np_call(np.interp, [0.5, 2.0, 1.0], xi, fi))
    xs, fs = strided_pair(np.linspace(0, 1, 5))[1], strided_pair(np.arange(5.0))[1]
    check(gp.interp(gp.asarray([0.3]), xs, fs), np.interp([0.3], np.linspace(0, 1, 5),
                                                           np.arange(5.0)))
    with pytest.raises(ValueError, match="same length"):
        gp.interp(gx, gxp, gfp[:3])
    with pytest.raises(ValueError, match="empty"):
        gp.interp(gx, gp.zeros(0), gp.zeros(0))
    with pytest.raises(ValueError, match="period"):
        gp.interp(gx, gxp, gfp, period=0)
    with pytest.raises(ValueError):
        gp.interp(gx, gp.ones((2, 4)), gp.ones((2, 4)))


# ------------------------------------------------------------------ polynomials, ranges, windows

@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.int64, np.uint32, np.float16,
                                   np.float32, np.complex64])
def test_polyval_vander(dtype):
    x, g = pair(dtype, (5,), 13, special=False)
    x = (x * 1 if x.dtype.kind == "b" else (x % 5 if x.dtype.kind in "iu" else x / 10)
         ).astype(dtype)
    g = gp.asarray(x)
    p = np.array([2, -1, 3], dtype=np.int16)
    check(gp.polyval(gp.asarray(p), g), np.polyval(p, x))
    check(gp.polyval([1.5, 0.0, -2.0], g), np.polyval([1.5, 0.0, -2.0], x))
    check(gp.polyval(gp.asarray(p), 2), np.polyval(p, 2))
    for N in (None, 0, 1, 4):
        for inc in (False, True):
            check(gp.vander(g, N, increasing=inc), np.vander(x, N, increasing=inc))
    with pytest.raises(ValueError, match="one-dimensional"):
        gp.vander(gp.ones((2, 2)))


def test_geomspace():
    cases = [(1, 1000, 4, {}), (-1, -1000, 5, {}), (1000, 1, 3, {"endpoint": False}),
             (1j, 1000j, 4, {}), (1 + 1j, 100, 6, {}), (2, 2, 3, {}),
             (1, 10, 0, {}), (1, 10, 1, {}), (1, 256, 9, {"dtype": np.int32}),
             (1, 8, 4, {"dtype": np.float32}), (1, 1e6, 7, {})]
    for start, stop, num, kw in cases:
        # integer results truncate a float power: one ulp on the GPU can move one by 1
        r, e = gp.geomspace(start, stop, num, **kw), np.geomspace(start, stop, num, **kw)
        if kw.get("dtype") == np.int32:
            assert r.dtype == e.dtype and r.shape == e.shape
            np.testing.assert_allclose(r.get(), e, atol=1, rtol=0)
        else:
            check(r, e)
    s, e = np.array([1.0, -2.0]), np.array([10.0, -20.0])
    check(gp.geomspace(gp.asarray(s), gp.asarray(e), 4), np.geomspace(s, e, 4))
    check(gp.geomspace(gp.asarray(s), gp.asarray(e), 4, axis=1),
          np.geomspace(s, e, 4, axis=1))
    with pytest.raises(ValueError, match="cannot include zero"):
        gp.geomspace(0, 10)
    with pytest.raises(ValueError, match="cannot include zero"):
        gp.geomspace(gp.asarray([1.0, 0.0]), 10)


@pytest.mark.parametrize("fn", ["bartlett", "blackman", "hamming", "hanning"])
def test_windows(fn):
    for M in (-1, 0, 1, 2, 5, 8, 5.5):
        check(getattr(gp, fn)(M), getattr(np, fn)(M), atol=1e-15)


def test_kaiser():
    for M, beta in ((1, 2.0), (0, 5.0), (6, 0.0), (7, 8.6), (12, 14.0)):
        check(gp.kaiser(M, beta), np.kaiser(M, beta))


# ------------------------------------------------------------------ products

@pytest.mark.parametrize("dtype", ALL, ids=ALL_IDS)
def test_products(dtype):
    a, ga = pair(dtype, (3, 4), 14, special=False)
    b, gb = pair(dtype, (4, 5), 15, special=False, kind="transposed")
    v, gv = pair(dtype, (4,), 16, special=False, kind="strided")
    check(gp.outer(ga, gv), np.outer(a, v))
    check(gp.inner(gv, gv), np.inner(v, v))
    check(gp.inner(ga, gv), np.inner(a, v))
    check(gp.inner(ga, gb.T), np.inner(a, b.T))
    check(gp.inner(ga, 2), np.inner(a, 2))
    check(gp.vdot(ga, ga), np.vdot(a, a))
    check(gp.kron(ga, gv), np.kron(a, v))
    check(gp.kron(gv, ga[:2, :2]), np.kron(v, a[:2, :2]))
    check(gp.kron(ga, 3), np.kron(a, 3))
    check(gp.tensordot(ga, gb, axes=1), np.tensordot(a, b, axes=1))
    check(gp.tensordot(ga, gb.T, axes=([1], [1])), np.tensordot(a, b.T, axes=([1], [1])))
    check(gp.tensordot(ga, ga, axes=2), np.tensordot(a, a, axes=2))
    check(gp.tensordot(gv, gv, axes=0), np.tensordot(v, v, axes=0))
    out = gp.zeros((3, 4), dtype=a.dtype)
    assert gp.outer(ga[:, 0], gv, out=out) is out
    check(out, np.outer(a[:, 0], v))


def test_product_errors():
    with pytest.raises(ValueError, match="not aligned"):
        gp.inner(gp.ones(3), gp.ones(4))
    with pytest.raises(ValueError, match="different lengths"):
        gp.vdot(gp.ones(3), gp.ones(4))
    with pytest.raises(ValueError, match="shape-mismatch"):
        gp.tensordot(gp.ones((2, 3)), gp.ones((2, 3)), axes=([0], [1]))
    with pytest.raises(ValueError, match="duplicate"):
        gp.tensordot(gp.ones((2, 2)), gp.ones((2, 2)), axes=([0, 0], [0, 1]))


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.float32, np.float64,
                                   np.complex64])
def test_cross(dtype):
    a, ga = pair(dtype, (4, 3), 17, special=False)
    b, gb = pair(dtype, (4, 3), 18, special=False, kind="strided")
    check(gp.cross(ga, gb), np.cross(a, b))
    check(gp.cross(ga[0], gb), np.cross(a[0], b))
    check(gp.cross(ga.T, gb.T, axis=0), np.cross(a.T, b.T, axis=0))
    check(gp.cross(ga.T, gb, axisa=0, axisc=0), np.cross(a.T, b, axisa=0, axisc=0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for x, y in ((a[:, :2], b[:, :2]), (a[:, :2], b), (a, b[:, :2])):
            try:
                e = np.cross(x, y)
            except ValueError:          # NumPy releases that dropped 2-vectors
                continue
            check(gp.cross(gp.asarray(x), gp.asarray(y)), e)
    with pytest.warns(DeprecationWarning):
        gp.cross(ga[:, :2], gb[:, :2])
    with pytest.raises(ValueError, match="incompatible dimensions"):
        gp.cross(gp.ones(4), gp.ones(3))
    with pytest.raises(ValueError, match="zero dimension"):
        gp.cross(gp.asarray(1.0), gp.ones(3))
    with pytest.raises(TypeError):
        gp.cross(gp.asarray([True, False, True]), gp.asarray([True, True, False]))


EINSUM = [("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]),
          ("ii", [(4, 4)]), ("ii->i", [(4, 4)]), ("ij->ji", [(3, 4)]), ("ij->", [(3, 4)]),
          ("i,i", [(4,), (4,)]), ("i,j->ij", [(3,), (4,)]), ("ij,j->i", [(3, 4), (4,)]),
          ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("...ij,...jk", [(2, 3, 4), (4, 5)]),
          ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]), ("iij->j", [(3, 3, 2)]),
          ("ijk,kj->i", [(2, 3, 4), (4, 3)]), ("i...->...", [(3, 2, 2)]),
          ("ba", [(3, 4)]), ("ij,ij->ij", [(3, 4), (1, 4)]), ("i,i,i", [(3,), (3,), (3,)]),
          ("ab,ba->a", [(3, 3), (3, 3)]), ("ik,jk->", [(2, 3), (4, 3)])]


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.int64, np.float16, np.float32,
                                   np.complex128])
def test_einsum(dtype):
    rng = np.random.default_rng(19)
    for subs, shapes in EINSUM:
        ops = [sample(dtype, s, rng, special=False) for s in shapes]
        check(gp.einsum(subs, *[gp.asarray(o) for o in ops]), np.einsum(subs, *ops),
              rtol=2e-2 if np.dtype(dtype) == np.float16 else None)
    a = sample(dtype, (3, 4), rng, special=False)
    b = sample(dtype, (4, 2), rng, special=False)
    check(gp.einsum(gp.asarray(a), [0, 1], gp.asarray(b), [1, 2], [0, 2]),
          np.einsum(a, [0, 1], b, [1, 2], [0, 2]))
    check(gp.einsum("ij,jk", gp.asarray(a), gp.asarray(b), dtype=np.complex128),
          np.einsum("ij,jk", a, b, dtype=np.complex128))


def test_einsum_errors_and_path():
    a = gp.ones((2, 3))
    for subs, ops, err in (("ij,jk", [a, gp.ones((2, 4))], ValueError),
                           ("ij", [gp.ones((2, 3, 4))], ValueError),
                           ("ij->k", [a], ValueError), ("ij->ii", [a], ValueError),
                           ("ij,j", [a], ValueError), ("i", [a, a], ValueError),
                           ("i...->", [a], ValueError), ("i1", [a], ValueError)):
        with pytest.raises(err):
            gp.einsum(subs, *ops)
    with pytest.raises(TypeError, match="Cannot cast"):
        gp.einsum("ij", gp.ones((2, 2)), dtype=np.int32)
    out = gp.zeros((2, 2))
    assert gp.einsum("ij,kj->ik", a, a, out=out) is out
    check(out, np.full((2, 2), 3.0))
    path = gp.einsum_path("ij,jk,kl->il", gp.ones((2, 3)), gp.ones((3, 4)), gp.ones((4, 2)))
    npath = np.einsum_path("ij,jk,kl->il", np.ones((2, 3)), np.ones((3, 4)), np.ones((4, 2)))
    assert path[0] == npath[0]


MODES = ["full", "same", "valid"]


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.int64, np.float16, np.float32,
                                   np.float64, np.complex64])
def test_convolve_correlate(dtype):
    rng = np.random.default_rng(20)
    for n, m in ((7, 3), (3, 7), (5, 5), (6, 2), (1, 4), (4, 1), (8, 1)):
        a = sample(dtype, (n,), rng, special=False)
        v = sample(dtype, (m,), rng, special=False)
        ga, gv = gp.asarray(a), gp.asarray(v)
        for mode in MODES:
            tol = 2e-2 if np.dtype(dtype) == np.float16 else None
            check(gp.convolve(ga, gv, mode), np.convolve(a, v, mode), rtol=tol, atol=tol)
            check(gp.correlate(ga, gv, mode), np.correlate(a, v, mode), rtol=tol, atol=tol)
    a = sample(dtype, (9,), rng, special=False)
    sa, sg = strided_pair(a)
    check(gp.convolve(sg, sg[::-2]), np.convolve(sa, sa[::-2]),
          rtol=2e-2 if np.dtype(dtype) == np.float16 else None)
    check(gp.convolve(gp.asarray(a[0]), sg), np.convolve(a[0], sa))


def test_convolve_errors_and_fusion():
    with pytest.raises(ValueError, match="a cannot be empty"):
        gp.convolve(gp.zeros(0), gp.ones(3))
    with pytest.raises(ValueError, match="v cannot be empty"):
        gp.correlate(gp.ones(3), gp.zeros(0))
    with pytest.raises(ValueError, match="mode"):
        gp.convolve(gp.ones(3), gp.ones(2), mode="middle")
    with pytest.raises(ValueError, match="too deep"):
        gp.convolve(gp.ones((2, 2)), gp.ones(2))
    a = gp.asarray(np.arange(50.0))
    gp.evaluate(a)
    gp.stats.reset()
    gp.evaluate(gp.convolve(a, gp.asarray([1.0, 2.0, 1.0])))
    assert gp.stats.groups <= 3      # the padded copy and one reduction (plus a tiny cast)


# ------------------------------------------------------------------ statistics

@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.uint8, np.float16, np.float32,
                                   np.float64, np.complex64])
def test_average(dtype):
    a, g = pair(dtype, (3, 4, 2), 21, special=False)
    w = np.random.default_rng(5).random((3, 4, 2)) + 0.1
    wa = np.random.default_rng(6).random(4) + 0.1
    w2 = np.random.default_rng(7).random((2, 3)) + 0.1
    check(gp.average(g), np.average(a))
    check(gp.average(g, axis=1, keepdims=True), np.average(a, axis=1, keepdims=True))
    check(gp.average(g, weights=gp.asarray(w)), np.average(a, weights=w))
    check(gp.average(g, axis=1, weights=gp.asarray(wa)), np.average(a, axis=1, weights=wa))
    check(gp.average(g, axis=(2, 0), weights=gp.asarray(w2)),
          np.average(a, axis=(2, 0), weights=w2))
    check(gp.average(g, axis=0, weights=gp.asarray(w), returned=True),
          np.average(a, axis=0, weights=w, returned=True))
    check(gp.average(g, axis=(0, 1), returned=True), np.average(a, axis=(0, 1),
                                                                returned=True))
    with pytest.raises(TypeError, match="Axis must be specified"):
        gp.average(g, weights=gp.asarray(wa))
    with pytest.raises(ValueError, match="consistent with shape"):
        gp.average(g, axis=1, weights=gp.ones(3))
    with pytest.raises(ZeroDivisionError):
        gp.average(g, axis=1, weights=gp.zeros(4))


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128])
def test_cov_corrcoef(dtype):
    for kind in LAYOUTS:
        m, g = pair(dtype, (3, 6), 22, special=False, kind=kind)
        y, gy = pair(dtype, (2, 6), 23, special=False)
        check(gp.cov(g), np.cov(m))
        check(gp.cov(g.T, rowvar=False), np.cov(m.T, rowvar=False))
        check(gp.cov(g, gy), np.cov(m, y))
        check(gp.cov(g, bias=True), np.cov(m, bias=True))
        check(gp.cov(g, ddof=3), np.cov(m, ddof=3))
        check(gp.cov(g[0]), np.cov(m[0]))
        check(gp.corrcoef(g), np.corrcoef(m))
        check(gp.corrcoef(g, gy, rowvar=True), np.corrcoef(m, y))
        check(gp.corrcoef(g[0]), np.corrcoef(m[0]))
    fw = np.array([1, 2, 1, 3, 1, 1])
    aw = np.array([0.5, 1.0, 2.0, 1.0, 0.1, 1.0])
    check(gp.cov(g, fweights=gp.asarray(fw)), np.cov(m, fweights=fw))
    check(gp.cov(g, aweights=aw), np.cov(m, aweights=aw))
    check(gp.cov(g, fweights=fw, aweights=aw, ddof=2), np.cov(m, fweights=fw, aweights=aw,
                                                             ddof=2))
    check(gp.cov(g, dtype=np.complex64), np.cov(m, dtype=np.complex64))
    check(gp.cov(gp.zeros((0, 3))), np_call(np.cov, np.zeros((0, 3))))
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        r = gp.cov(gp.asarray(m[:, :1]))
    check(r, np_call(np.cov, m[:, :1]))


def test_cov_errors():
    g = gp.ones((2, 4))
    with pytest.raises(ValueError, match="ddof must be integer"):
        gp.cov(g, ddof=1.5)
    with pytest.raises(ValueError, match="more than 2 dimensions"):
        gp.cov(gp.ones((2, 2, 2)))
    with pytest.raises(TypeError, match="fweights must be integer"):
        gp.cov(g, fweights=[1, 1.5, 1, 1])
    with pytest.raises(RuntimeError, match="incompatible numbers"):
        gp.cov(g, fweights=[1, 1, 1])
    with pytest.raises(ValueError, match="cannot be negative"):
        gp.cov(g, aweights=[1.0, -1.0, 1.0, 1.0])
    with pytest.raises(RuntimeError, match="multidimensional"):
        gp.cov(g, aweights=gp.ones((2, 4)))


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.float16, np.float64])
def test_ptp(dtype):
    a, g = pair(dtype, (3, 4), 24)
    for axis in (None, 0, 1, (0, 1)):
        check(gp.ptp(g, axis=axis), np_call(np.ptp, a, axis=axis))
        check(gp.ptp(g, axis=axis, keepdims=True), np_call(np.ptp, a, axis=axis,
                                                           keepdims=True))
    out = gp.zeros(4, dtype=a.dtype)
    assert gp.ptp(g, axis=0, out=out) is out
    with pytest.raises(ValueError):
        gp.ptp(gp.zeros((0, 2)))
    with pytest.raises(TypeError):
        gp.ptp(gp.asarray([True, False]))


# ------------------------------------------------------------------ error state, dtypes

def test_errstate():
    assert gp.geterr() == {"divide": "warn", "over": "warn", "under": "ignore",
                           "invalid": "warn"}
    old = gp.seterr(all="ignore")
    try:
        assert old["divide"] == "warn" and gp.geterr()["over"] == "ignore"
        with gp.errstate(divide="raise", under="print"):
            assert gp.geterr() == {"divide": "raise", "over": "ignore", "under": "print",
                                   "invalid": "ignore"}
        assert gp.geterr()["divide"] == "ignore"
    finally:
        gp.seterr(**old)
    assert gp.geterr() == np.geterr() or gp.geterr()["divide"] == "warn"

    @gp.errstate(invalid="ignore")
    def f():
        return gp.geterr()["invalid"]
    assert f() == "ignore" and gp.geterr()["invalid"] == "warn"
    es = gp.errstate(all="ignore")
    with es:
        with pytest.raises(TypeError, match="twice"):
            es.__enter__()
    with pytest.raises(ValueError, match="invalid error mode"):
        gp.seterr(divide="loud")
    with pytest.raises(TypeError, match="callable"):
        gp.seterrcall(3)
    assert gp.seterrcall(print) is None and gp.geterrcall() is print
    gp.seterrcall(None)
    with gp.errstate(call=print):
        assert gp.geterrcall() is print
    assert gp.geterrcall() is None
    assert gp.setbufsize(4096) == 8192 and gp.getbufsize() == 4096
    gp.setbufsize(8192)
    # Note: gnumpy computes the same under every error state and never warns
    with gp.errstate(all="raise"):
        check(gp.asarray([1.0, 0.0]) / 0, np_call(np.divide, [1.0, 0.0], 0))


def test_dtype_helpers():
    names = ["bool", "int8", "uint8", "int16", "uint32", "int64", "uint64", "float16",
             "float32", "float64", "complex64", "complex128"]
    for a in names:
        for b in names:
            assert gp.promote_types(a, b) == np.promote_types(a, b)
    with pytest.raises(TypeError):
        gp.promote_types("int8", "U3")
    for v in (10, -1, 300, 1e50, 3.5, 1 + 2j, True, 2 ** 63):
        assert gp.min_scalar_type(v) == np.min_scalar_type(v)
    assert gp.min_scalar_type(gp.asarray(1000)) == np.min_scalar_type(np.asarray(1000))
    assert gp.min_scalar_type(gp.ones(3, dtype=np.int32)) == np.int32
    arrs = [np.ones(2, dtype=t) for t in (np.int8, np.float16, np.float32, np.complex64,
                                          np.float64)]
    for i in range(len(arrs)):
        for j in range(i, len(arrs)):
            sub = arrs[i:j + 1]
            assert gp.common_type(*[gp.asarray(x) for x in sub]) is np.common_type(*sub)
    with pytest.raises(TypeError):
        gp.common_type(gp.asarray([True]))
    for chars in (["d", "f", "S"], "dfF", ["i"], [gp.ones(2, dtype=np.float32)]):
        ref = [np.ones(2, dtype=np.float32)] if not isinstance(chars, str) and \
            gp.iterable(chars) and isinstance(chars[0], gp.ndarray) else chars
        assert gp.mintypecode(chars) == np.mintypecode(ref)
    assert gp.typename("d") == np.typename("d")
    assert gp.long is np.long and gp.ulong is np.ulong and gp.True_ is np.True_
    assert gp.little_endian == np.little_endian and gp.typecodes == np.typecodes
    assert gp.exceptions.AxisError is AxisError
    assert gp.issubdtype(np.str_, gp.character) and not gp.issubdtype(gp.float32, gp.flexible)


def test_asanyarray_asarray_chkfinite():
    for v in ([1, 2], [[1.5, -2.0]], 3, np.arange(4, dtype=np.uint8)):
        check(gp.asanyarray(v), np.asanyarray(v))
        check(gp.asarray_chkfinite(v), np.asarray_chkfinite(v))
    check(gp.asarray_chkfinite([1, 2], dtype=np.float32), np.asarray_chkfinite(
        [1, 2], dtype=np.float32))
    g = gp.ones(3)
    assert gp.asanyarray(g) is g
    for bad in ([1.0, np.nan], [np.inf], [[1 + 0j, complex(0, np.inf)]]):
        with pytest.raises(ValueError, match="must not contain infs or NaNs"):
            gp.asarray_chkfinite(gp.asarray(bad))


# ------------------------------------------------------------------ ndarray methods

@pytest.mark.parametrize("src,dst", [(np.float32, np.int32), (np.int64, np.float64),
                                     (np.uint8, np.int8), (np.float32, np.uint8),
                                     (np.float64, np.complex128), (np.complex64, np.float32),
                                     (np.int16, np.float16), (np.uint8, np.bool_)])
def test_view(src, dst):
    a = sample(src, (3, 4), np.random.default_rng(25), special=False)
    if np.dtype(dst) == np.bool_:
        a = a % 2
    g = gp.asarray(a)
    check(g.view(dst), a.view(dst))
    check(g[1:].view(dst), a[1:].view(dst))
    check(g.T.view(src), a.T.view(src))
    v = g.view(dst)
    assert gp.shares_memory(v, g)
    v[...] = gp.zeros(v.shape, dtype=dst)
    check(g, np.zeros_like(a))
    g[...] = gp.asarray(a)            # and writes through the base are seen by the view
    check(v, a.view(dst))


def test_view_errors_and_types():
    g = gp.ones((3, 4), dtype=np.float32)
    assert isinstance(g.view(), gp.ndarray) and g.view(gp.ndarray).shape == (3, 4)
    with pytest.raises(ValueError, match="last axis must be contiguous"):
        g.T.view(np.int8)
    with pytest.raises(ValueError, match="larger dtype"):
        g[:, :3].view(np.float64)
    with pytest.raises(ValueError, match="0d array"):
        gp.asarray(np.float32(1)).view(np.int8)
    with pytest.raises(TypeError):
        g.view(np.float32, type=list)
    with pytest.raises(NotImplementedError, match="aligned"):
        g[:, 1:3].view(np.complex64)
    c = np.array([1 + 2j, 3 - 4j])
    gc = gp.asarray(c)
    check(gc.getfield(np.float64, 8), c.getfield(np.float64, 8))
    gc.setfield(gp.asarray([7.0, 8.0]), np.float64, 0)
    c.setfield(np.array([7.0, 8.0]), np.float64, 0)
    check(gc, c)
    with pytest.raises(ValueError):
        gc.getfield(np.float64, 12)


def test_float16_nan_payloads_survive_copies_and_casts():
    """NumPy keeps a float16 NaN's payload through copies and float32 round trips (the
    GPU's conversion instructions canonicalize it); byteswap and view expose the bits."""
    bits = np.array([0x7e00, 0xfe00, 0x7c01, 0x7d55, 0xffff, 0x3c00, 0x0001], np.uint16)
    h = bits.view(np.float16)
    g = gp.asarray(h)
    for got, exp in ((g[::-1].copy(), h[::-1].copy()),
                     (gp.ascontiguousarray(g[::2]), h[::2]),
                     (g.astype(np.float32).astype(np.float16), h.astype(np.float32)
                      .astype(np.float16)),
                     (g.astype(np.float32), h.astype(np.float32))):
        udt = np.uint16 if exp.dtype == np.float16 else np.uint32
        assert got.view(udt).tolist() == exp.view(udt).tolist()
    f = np.array([np.nan, -np.nan], np.float32).view(np.uint32)
    f = (f | np.uint32(0x2000)).view(np.float32)             # a payload bit that survives
    assert gp.asarray(f).astype(np.float16).view(np.uint16).tolist() == \
        f.astype(np.float16).view(np.uint16).tolist()


@pytest.mark.parametrize("dtype", ALL, ids=ALL_IDS)
def test_byteswap_and_serialization(dtype, tmp_path):
    a, g = pair(dtype, (3, 4), 26, kind="strided")
    check(g.byteswap(), a.byteswap())
    h = gp.asarray(a)
    assert h.byteswap(inplace=True) is h
    check(h, a.byteswap())
    check(pickle.loads(g.dumps()), a)
    g.dump(tmp_path / "x.pkl")
    with open(tmp_path / "x.pkl", "rb") as f:
        check(pickle.load(f), a)
    g.tofile(tmp_path / "x.bin")
    np.testing.assert_array_equal(np.fromfile(tmp_path / "x.bin", dtype=a.dtype),
                                  a.ravel())


def test_misc_methods():
    g = gp.arange(6.0).reshape(2, 3)
    assert 4.0 in g and 7.0 not in g
    with pytest.raises(ValueError, match="cannot delete"):
        del g[0]
    assert gp.ndarray[int] is not None
    f = g.flags
    assert f.c_contiguous and not f.f_contiguous and f["C"] and f.writeable
    assert g.T.flags.f_contiguous and g.T.flags["FNC"]
    g.setflags(write=False)
    assert not g.flags.writeable
    g.setflags(write=True)
    with pytest.raises(KeyError):
        f["nope"]


# ------------------------------------------------------------------ coverage report

def test_coverage_script_is_deterministic():
    path = pathlib.Path(__file__).resolve().parent.parent / "tools" / "coverage.py"
    spec = importlib.util.spec_from_file_location("gn_coverage", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    lst = mod.listing()
    assert set(lst) == {"numpy", "numpy.linalg", "numpy.fft", "numpy.random"}
    names = dict(lst["numpy"])
    assert names["nansum"] and names["einsum"] and names["sin"]
    assert "float32" not in names and "ndarray" not in names
    assert mod.render(lst) == mod.render(mod.listing())


def test_cov_and_corrcoef_refuse_an_integer_dtype():
    """NumPy subtracts the float mean in place in the requested dtype: an integer or bool
    dtype raises its casting TypeError."""
    for f in ("cov", "corrcoef"):
        for dt in (np.int64, np.int32, bool):
            with pytest.raises(TypeError):
                getattr(np, f)([1, 2, 4], dtype=dt)
            with pytest.raises(TypeError, match="same_kind"):
                getattr(gp, f)(gp.asarray([1, 2, 4]), dtype=dt)
        check(getattr(gp, f)(gp.asarray([[1, 2, 4], [0, 3, 1]]), dtype=np.float32),
              getattr(np, f)([[1, 2, 4], [0, 3, 1]], dtype=np.float32))


def test_bincount_of_no_values_ignores_the_weights():
    """NumPy's bincount of an empty array returns int64 zeros whatever the weights are
    (float, complex, another length); with values, complex weights raise TypeError."""
    x = np.zeros(0, np.int64)
    for w in (np.zeros(0), np.zeros(0, complex), np.zeros(3)):
        for ml in (0, 2):
            check(gp.bincount(gp.asarray(x), weights=gp.asarray(w), minlength=ml),
                  np.bincount(x, weights=w, minlength=ml))
    with pytest.raises(TypeError):
        gp.bincount(gp.asarray([0, 1]), weights=gp.asarray(np.zeros(2, complex)))


def test_digitize_refuses_complex_bins():
    """NumPy reads the bins as float64 to check their order: complex bins raise its
    casting TypeError (complex x: its own TypeError)."""
    for x in (np.array([1.0, 2, 3]), np.array([1, 2, 3])):
        with pytest.raises(TypeError, match="complex128"):
            np.digitize(x, np.array([1 + 0j, 2]))
        with pytest.raises(TypeError, match="complex128"):
            gp.digitize(gp.asarray(x), gp.asarray(np.array([1 + 0j, 2])))
    with pytest.raises(TypeError, match="may not be complex"):
        gp.digitize(gp.asarray(np.array([1 + 0j, 2])), gp.asarray([1.0, 2.0]))
    check(gp.digitize(gp.asarray([1.0, 2.0]), gp.asarray(np.array([1, 2], np.uint64))),
          np.digitize(np.array([1.0, 2.0]), np.array([1, 2], np.uint64)))
