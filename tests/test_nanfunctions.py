"""NaN-ignoring reductions and scans against NumPy: nansum, nanprod, nanmean, nanvar, nanstd,
nanmin, nanmax, nanargmin, nanargmax, nancumsum, nancumprod.

Every dtype family (integers and bool behave as the plain reductions), NaN/inf/-0 and
all-NaN slices, empty and 0-d inputs, strided and lazy inputs, axis None/int/tuple,
keepdims, dtype=, out=, where=, initial=, ddof/correction/mean=, eager errors, and the
number of fused groups (kernels) each function takes.

Note: gnumpy returns 0-d arrays where NumPy returns scalars; NumPy's RuntimeWarnings for
all-NaN slices are not emitted (gnumpy emits no floating-point warnings).
"""
import functools
import warnings

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.exceptions import AxisError

import gnumpy as gp
from helpers import COMPLEX_PRODUCT_ZERO_SIGN, check, sample, strided_pair, tolerance

DET = settings(derandomize=True)
# integers other than int64 take the plain reductions' paths (test_integer_and_bool_inputs)
DTYPES = [np.dtype(t) for t in (np.bool_, np.int64, np.float16, np.float32, np.float64,
                                np.complex64, np.complex128)]
DT_IDS = [str(d) for d in DTYPES]
INEXACT = [d for d in DTYPES if d.kind in "fc"]
IN_IDS = [str(d) for d in INEXACT]
REDUCTIONS = ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin"]


def np_call(f, *args, **kw):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return f(*args, **kw)


def data(dtype, shape, seed, nan_rows=True):
    """Random values with NaN/inf/-0 mixed in and, for inexact dtypes, whole NaN slices."""
    rng = np.random.default_rng(seed)
    a = sample(dtype, shape, rng)
    if a.dtype.kind in "fc" and a.ndim and a.size and nan_rows:
        idx = [slice(None)] * a.ndim
        ax = int(rng.integers(0, a.ndim))
        idx[ax] = int(rng.integers(0, a.shape[ax]))
        a[tuple(idx)] = np.nan
    return a


def layout(a, kind):
    if kind == "strided":
        return strided_pair(a)
    if kind == "lazy":
        return a, gp.asarray(np.array(a.T, order="C")).copy().T
    return a, gp.asarray(a)


def ncheck(got, exp, a, fn, signed_zero=True):
    """check() with an absolute tolerance scaled to the data (summation order differs)."""
    e = np.asarray(exp)
    if e.dtype.kind == "c":
        assert got.dtype == e.dtype, f"dtype {got.dtype} != {e.dtype}"
        ncheck(got.real, e.real, a, fn, signed_zero)
        ncheck(got.imag, e.imag, a, fn, signed_zero)
        return
    if e.dtype.kind not in "f":
        check(got, e)
        return
    r, atol = tolerance(e.dtype)
    src = np.asarray(a).dtype
    if src.kind in "fc":   # NumPy keeps some intermediates in the input's precision
        r, atol = max(r, tolerance(src)[0]), max(atol, tolerance(src)[1])
    if e.dtype == np.float16 or src == np.float16:
        r = max(r, 1e-2)
    v = np.asarray(a)
    v = np.abs(v.astype(np.complex128) if v.dtype.kind == "c" else v.astype(np.float64))
    v = v[np.isfinite(v)]
    big = float(v.max()) if v.size else 0.0
    scale = {"nansum": float(v.sum()) if v.size else 0.0, "nanmean": big, "nanvar": 4 * big ** 2,
             "nanstd": 2 * big}.get(fn, 0.0)
    if fn == "nanprod":
        r = max(r, 64 * v.size * float(np.finfo(e.dtype).eps))
    check(got, e, rtol=r, atol=atol + r * scale, signed_zero=signed_zero)


@functools.lru_cache(maxsize=None)
def _axis_st(ndim):
    opts = [st.none(), hnp.valid_tuple_axes(ndim)]
    if ndim:
        opts.append(st.integers(-ndim, ndim - 1))
    return st.one_of(opts)


@st.composite
def cases(draw, max_dims=3):
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=max_dims, min_side=0, max_side=4))
    return (shape, draw(st.integers(0, 2 ** 32 - 1)),
            draw(st.sampled_from(["contiguous", "strided", "lazy"])),
            draw(_axis_st(len(shape))), draw(st.booleans()))


def _empty_error(fn, a, axis):
    """Does NumPy raise for this empty reduction (min/max without identity)?"""
    if fn not in ("nanmax", "nanmin") or a.size:
        return False
    try:
        np_call(getattr(np, fn), a, axis=axis)
    except ValueError:
        return True
    return False


# ------------------------------------------------------------------ the reductions

@pytest.mark.parametrize("fn", REDUCTIONS)
@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
@DET
@given(c=cases())
def test_nan_reductions(fn, dtype, c):
    shape, seed, kind, axis, keepdims = c
    a, g = layout(data(dtype, shape, seed), kind)
    if fn == "nanprod" and a.dtype.kind in "fc":
        with np.errstate(all="ignore"):
            a = (a * 0.3).astype(a.dtype)
        a, g = layout(a, kind)
    if _empty_error(fn, a, axis):
        with pytest.raises(ValueError):
            getattr(gp, fn)(g, axis=axis, keepdims=keepdims)
        return
    e = np_call(getattr(np, fn), a, axis=axis, keepdims=keepdims)
    ncheck(getattr(gp, fn)(g, axis=axis, keepdims=keepdims), e, a, fn)


@pytest.mark.parametrize("fn", ["nanmean", "nanvar", "nanstd", "nanmax", "nanmin", "nansum"])
@pytest.mark.parametrize("dtype", INEXACT, ids=IN_IDS)
def test_all_nan_slices(fn, dtype):
    a = sample(dtype, (4, 5), np.random.default_rng(3), special=False)
    a[1] = np.nan
    a[:, 3] = np.nan
    a[2, 0] = np.inf if a.dtype.kind == "f" else complex(np.inf, 1)
    a[3, :] = -np.inf if a.dtype.kind == "f" else complex(-np.inf, 0)
    a[3, 2] = np.nan
    g = gp.asarray(a)
    for axis in (None, 0, 1, (0, 1)):
        e = np_call(getattr(np, fn), a, axis=axis)
        ncheck(getattr(gp, fn)(g, axis=axis), e, a[np.isfinite(a)], fn)
    for v in (np.nan, np.inf, -np.inf, -0.0):   # 0-d
        z = np.asarray(v, dtype=dtype)
        ncheck(getattr(gp, fn)(gp.asarray(z)), np_call(getattr(np, fn), z), z, fn)


@pytest.mark.parametrize("fn", ["nanmean", "nanvar", "nanstd", "nansum", "nanprod"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_])
def test_empty_inputs(fn, dtype):
    for shape, axis in (((0,), None), ((0, 3), 0), ((0, 3), 1), ((2, 0), 1)):
        a = np.zeros(shape, dtype=dtype)
        ncheck(getattr(gp, fn)(gp.asarray(a), axis=axis), np_call(getattr(np, fn), a,
                                                                  axis=axis), a, fn)


@pytest.mark.parametrize("fn", ["nanmax", "nanmin"])
def test_extreme_empty_errors_and_initial(fn):
    a = np.zeros((0, 3))
    with pytest.raises(ValueError, match="zero-size array to reduction operation"):
        getattr(gp, fn)(gp.asarray(a))
    with pytest.raises(ValueError, match="zero-size array"):
        getattr(gp, fn)(gp.asarray(a), axis=0)
    check(getattr(gp, fn)(gp.asarray(a), axis=1), getattr(np, fn)(a, axis=1))
    check(getattr(gp, fn)(gp.asarray(a), axis=0, initial=5.0),
          getattr(np, fn)(a, axis=0, initial=5.0))
    x = data(np.float64, (3, 4), 5)
    g = gp.asarray(x)
    with pytest.raises(ValueError, match="does not have an identity"):
        getattr(gp, fn)(g, where=x > 0)
    for init in (-1.0, 0.5, 2.0):
        check(getattr(gp, fn)(g, axis=1, initial=init),
              np_call(getattr(np, fn), x, axis=1, initial=init))
        m = np.random.default_rng(1).random((3, 4)) > 0.4
        check(getattr(gp, fn)(g, axis=0, initial=init, where=m),
              np_call(getattr(np, fn), x, axis=0, initial=init, where=m))
    xi = np.arange(12, dtype=np.int16).reshape(3, 4)
    check(getattr(gp, fn)(gp.asarray(xi), axis=1, initial=5),
          getattr(np, fn)(xi, axis=1, initial=5))


# ------------------------------------------------------------------ keywords

@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.complex64, np.int8])
def test_sum_prod_keywords(dtype):
    a = data(dtype, (3, 4), 11)
    if a.dtype.kind in "fc":
        a[np.isinf(a)] = 2
    g = gp.asarray(a)
    m = np.random.default_rng(2).random((3, 4)) > 0.3
    for fn in ("nansum", "nanprod"):
        f, nf = getattr(gp, fn), getattr(np, fn)
        for kw in ({"dtype": np.float64}, {"initial": 3}, {"where": m},
                   {"where": m[0], "axis": 0, "keepdims": True}, {"axis": (0, 1)}):
            e = np_call(nf, a, **kw)
            ncheck(f(g, **{k: (gp.asarray(v) if k == "where" else v) for k, v in kw.items()}),
                   e, a, fn)
        out = gp.zeros(4, dtype=np.complex128 if a.dtype.kind == "c" else np.float64)
        r = f(g, axis=0, out=out)
        assert r is out
        ncheck(out, np_call(nf, a, axis=0).astype(out.dtype), a, fn)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex128])
def test_mean_var_keywords(dtype):
    a = data(dtype, (4, 5), 21)
    a[np.isinf(a)] = 1.5
    g = gp.asarray(a)
    m = np.random.default_rng(4).random((4, 5)) > 0.3
    cdt = np.complex128 if a.dtype.kind == "c" else np.float64
    for kw in ({"dtype": cdt}, {"where": m}, {"axis": 1, "where": m[0], "keepdims": True},
               {"axis": (1, 0)}, {"axis": -1, "keepdims": True}):
        gkw = {k: (gp.asarray(v) if k == "where" else v) for k, v in kw.items()}
        ncheck(gp.nanmean(g, **gkw), np_call(np.nanmean, a, **kw), a, "nanmean")
        for fn in ("nanvar", "nanstd"):
            for extra in ({}, {"ddof": 1}, {"correction": 2}):
                e = np_call(getattr(np, fn), a, **kw, **extra)
                ncheck(getattr(gp, fn)(g, **gkw, **extra), e, a, fn)
    mean = np_call(np.nanmean, a, axis=1, keepdims=True)
    ncheck(gp.nanvar(g, axis=1, mean=gp.asarray(mean)),
           np_call(np.nanvar, a, axis=1, mean=mean), a, "nanvar")
    out = gp.zeros(5, dtype=np.float64)
    assert gp.nanstd(g, axis=0, out=out) is out
    ncheck(out, np_call(np.nanstd, a, axis=0).astype(np.float64), a, "nanstd")
    outm = gp.zeros(4, dtype=cdt)
    assert gp.nanmean(g, axis=1, out=outm) is outm
    ncheck(outm, np_call(np.nanmean, a, axis=1).astype(cdt), a, "nanmean")


def test_integer_and_bool_inputs_are_plain_reductions():
    for dtype in (np.bool_, np.int8, np.uint16, np.int64):
        a = sample(dtype, (3, 4), np.random.default_rng(9))
        g = gp.asarray(a)
        for fn in REDUCTIONS + ["nanargmax", "nanargmin"]:
            e = np_call(getattr(np, fn), a, axis=1)
            ncheck(getattr(gp, fn)(g, axis=1), e, a, fn)
        ncheck(gp.nanmean(g, dtype=np.float32), np.nanmean(a, dtype=np.float32), a, "nanmean")


# ------------------------------------------------------------------ argmin / argmax

@pytest.mark.parametrize("fn", ["nanargmax", "nanargmin"])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64, np.int32])
def test_nanarg(fn, dtype):
    rng = np.random.default_rng(5)
    a = sample(dtype, (4, 6), rng)
    if a.dtype.kind in "fc":
        a[a != a] = 0       # no all-NaN slice here
        a[rng.random((4, 6)) > 0.6] = np.nan
        a[:, 0] = 1         # every slice has a number
        a[0, :] = 1
    f, nf = getattr(gp, fn), getattr(np, fn)
    for layout_kind in ("contiguous", "strided", "lazy"):
        x, g = layout(a, layout_kind)
        for axis in (None, 0, 1, -1):
            check(f(g, axis=axis), nf(x, axis=axis))
            check(f(g, axis=axis, keepdims=True), nf(x, axis=axis, keepdims=True))
    out = gp.zeros(6, dtype=np.int64)
    assert f(gp.asarray(a), axis=0, out=out) is out
    check(out, nf(a, axis=0))


@pytest.mark.parametrize("fn", ["nanargmax", "nanargmin"])
@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_nanarg_errors(fn, dtype):
    a = np.ones((3, 4), dtype=dtype)
    a[1] = np.nan
    f = getattr(gp, fn)
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        f(gp.asarray(a), axis=1)
    check(f(gp.asarray(a), axis=0), getattr(np, fn)(a, axis=0))
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        f(gp.asarray(np.full(5, np.nan, dtype=dtype)))
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        f(gp.asarray(np.asarray(np.nan, dtype=dtype)))
    with pytest.raises(ValueError):
        f(gp.asarray(np.zeros(0, dtype=dtype)))
    with pytest.raises(AxisError):
        f(gp.asarray(a), axis=2)


# ------------------------------------------------------------------ scans

@pytest.mark.parametrize("fn", ["nancumsum", "nancumprod"])
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint32, np.float16, np.float32,
                                   np.float64, np.complex64])
def test_nan_scans(fn, dtype):
    a = data(dtype, (3, 5), 17, nan_rows=False)
    if fn == "nancumprod" and a.dtype.kind in "fc":
        with np.errstate(all="ignore"):
            a = (a * 0.3).astype(a.dtype)
    f, nf = getattr(gp, fn), getattr(np, fn)
    for kind in ("contiguous", "strided", "lazy"):
        x, g = layout(a, kind)
        for axis in (None, 0, 1, -1):
            ncheck(f(g, axis=axis), np_call(nf, x, axis=axis), x, "nansum")
    ncheck(f(gp.asarray(a), axis=1, dtype=np.complex128), np_call(nf, a, axis=1,
                                                                  dtype=np.complex128), a,
           "nansum", COMPLEX_PRODUCT_ZERO_SIGN or fn != "nancumprod")
    out = gp.zeros((3, 5), dtype=np.complex128)
    assert f(gp.asarray(a), axis=0, out=out) is out
    ncheck(out, np_call(nf, a, axis=0).astype(np.complex128), a, "nansum")
    z = np.asarray(np.nan, dtype=np.float32)
    check(f(gp.asarray(z)), nf(z))
    e = np.zeros((0, 2), dtype=np.float32)
    check(f(gp.asarray(e), axis=0), nf(e, axis=0))


# ------------------------------------------------------------------ errors

def test_eager_errors():
    g = gp.asarray(np.ones((2, 3)))
    for fn in REDUCTIONS + ["nancumsum", "nancumprod"]:
        with pytest.raises(AxisError):
            getattr(gp, fn)(g, axis=2)
    for fn in ("nanmean", "nanvar", "nanstd"):
        with pytest.raises(TypeError, match="dtype must be inexact"):
            getattr(gp, fn)(g, dtype=np.int64)
        with pytest.raises(TypeError, match="out must be inexact"):
            getattr(gp, fn)(g, axis=0, out=gp.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="ddof and correction"):
        gp.nanvar(g, ddof=1, correction=1)
    with pytest.raises(ValueError, match="duplicate value"):
        gp.nansum(g, axis=(0, 0))


# ------------------------------------------------------------------ fusion

def _groups(r):
    gp.stats.reset()
    gp.evaluate(r)
    return gp.stats.groups


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_nan_reductions_are_fused(dtype):
    a = data(dtype, (6, 7), 31)
    for axis in (None, 0, 1):
        for fn in ("nansum", "nanprod", "nanmean", "nanmax", "nanmin"):
            assert _groups(getattr(gp, fn)(gp.asarray(a), axis=axis)) == 1, fn
        for fn in ("nanvar", "nanstd"):
            assert _groups(getattr(gp, fn)(gp.asarray(a), axis=axis)) == 2, fn
    # the prologue fuses too: nansum of an expression is still one kernel
    g = gp.asarray(a)
    assert _groups(gp.nansum(g * 2 + 1, axis=1)) == 1
    assert _groups(gp.nanmax(gp.sqrt(g), axis=0)) == 1
