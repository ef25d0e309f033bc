"""The special elementwise functions against NumPy: where, clip, round, divmod, modf,
frexp, ldexp, astype, real/imag/conj (values, dtypes, shapes, keywords and errors).

The op table's elementwise functions and the comparison helpers: test_elementwise.py.
"""
import numpy as np
import pytest
from hypothesis import given

import gnumpy as gp
from gnumpy import _dtypes as D

from helpers import check, sample, strided_pair
from test_elementwise import (DTYPES, SEEDS, SETTINGS, _int_full, _labelled, _np_outcome,
                              compare, make, np_call)


# ---------------------------------------------------------------------- where

WHERE_PAIRS = [(D.float64, D.float64), (D.int8, D.uint8), (D.float32, D.int64),
               (D.bool_, D.complex64), (D.float16, D.float32), (D.int32, D.bool_)]


@SETTINGS
@given(seed=SEEDS)
def test_where_arrays(seed):
    rng = np.random.default_rng(seed)
    for pair in WHERE_PAIRS:
        _labelled(str(pair), _where_arrays, pair, rng)


def _where_arrays(pair, rng):
    c = rng.integers(0, 2, (3, 4)).astype(bool)
    x, y = sample(pair[0], (3, 4), rng), sample(pair[1], (4,), rng)
    check(gp.where(gp.asarray(c), gp.asarray(x), gp.asarray(y)), np.where(c, x, y))
    nc, gc = strided_pair(c)
    nx, gx = strided_pair(x)
    check(gp.where(gc, gx, gp.asarray(y)), np.where(nc, nx, y))
    # non-bool condition: nonzero is true
    ci = rng.integers(-1, 2, (3, 4)).astype(np.int16)
    check(gp.where(gp.asarray(ci), gp.asarray(x), gp.asarray(y)), np.where(ci, x, y))


@pytest.mark.parametrize("dt", ["float64", "float32", "complex64", "int16", "uint8", "bool"])
@pytest.mark.parametrize("shape", [(3, 4), (), (0, 5), (7,)], ids=str)
def test_where_of_arrays_of_one_shape_and_dtype(dt, shape):
    """``where(c, x, y)`` with a bool condition and two arrays of its shape and one dtype
    (the one-node path): contiguous, strided, lazy and written-after operands, NaN, inf
    and -0.0 among the values."""
    rng = np.random.default_rng(13)
    c = rng.integers(0, 2, shape).astype(bool)
    x, y = sample(dt, shape, rng), sample(dt, shape, rng)
    gc, gx, gy = gp.asarray(c), gp.asarray(x), gp.asarray(y)
    check(gp.where(gc, gx, gy), np.where(c, x, y))
    nc, sc = strided_pair(c)
    nx, sx = strided_pair(x)
    check(gp.where(sc, sx, gy), np.where(nc, nx, y))
    if dt != "bool":
        check(gp.where(gc == gc, gx + gy, gx), np.where(c == c, x + y, x))
    r = gp.where(gc, gx, gy)
    gx[...] = gy
    check(r, np.where(c, x, y))
    check(gp.where(gc, gy, gy), y)


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_where_with_scalars(dt):
    rng = np.random.default_rng(11)
    c = np.array([True, False, True, False])
    x = sample(dt, (4,), rng)
    gc, gx = gp.asarray(c), gp.asarray(x)
    for s in (True, 0, 2, 1.5, -0.0, 2j):
        for args, gargs in (((c, x, s), (gc, gx, s)), ((c, s, x), (gc, s, gx))):
            kind, e = _np_outcome(np.where, *args)
            if kind == "error":
                with pytest.raises(e):
                    gp.where(*gargs)
                continue
            check(gp.where(*gargs), e)
    check(gp.where(gc, 1, 2.5), np.where(c, 1, 2.5))
    check(gp.where(gc, 1, 2), np.where(c, 1, 2))
    check(gp.where(True, gx, 0), np.where(True, x, 0))
    check(gp.where(gp.asarray(False), 1j, gx), np.where(False, 1j, x))


def test_where_shapes():
    c = np.array([[True], [False]])
    x = np.arange(3.0)
    check(gp.where(gp.asarray(c), gp.asarray(x), 7), np.where(c, x, 7))
    check(gp.where(gp.asarray(np.zeros((0, 3), bool)), gp.asarray(x), 1.0),
          np.where(np.zeros((0, 3), bool), x, 1.0))
    with pytest.raises(ValueError):
        gp.where(gp.asarray(np.ones(2, bool)), gp.asarray(np.ones(3)), 0)


# ---------------------------------------------------------------------- clip

CLIP_DTYPES = DTYPES      # NumPy clips complex values too (lexicographic order)


@SETTINGS
@given(seed=SEEDS)
def test_clip_values(seed):
    rng = np.random.default_rng(seed)
    for dt in CLIP_DTYPES:
        _labelled(str(dt), _clip_values, dt, rng)


def _clip_values(dt, rng):
    a = sample(dt, (3, 5), rng)
    ga = gp.asarray(a)
    lo, hi = (0, 1) if dt.kind == "b" else (2, 7)
    compare("clip", (a, lo, hi), (ga, lo, hi))
    compare("clip", (a,), (ga,), min=lo, max=hi)
    compare("clip", (a, None, hi), (ga, None, hi))
    compare("clip", (a, lo, None), (ga, lo, None))
    compare("clip", (a, None, None), (ga, None, None))
    compare("clip", (a, hi, lo), (ga, hi, lo))              # min > max: NumPy gives max
    check(ga.clip(lo, hi), np_call(np.clip, a, lo, hi))
    check(ga.clip(min=lo), np_call(a.clip, min=lo))
    # array bounds, broadcast
    blo = sample(dt, (5,), rng)
    bhi = sample(dt, (3, 1), rng)
    compare("clip", (a, blo, bhi), (ga, gp.asarray(blo), gp.asarray(bhi)))
    nv, gv = strided_pair(a)
    compare("clip", (nv, lo, hi), (gv, lo, hi))


def test_clip_a_min_a_max_keywords():
    a = np.arange(-5, 6, dtype=np.int8)
    ga = gp.asarray(a)
    check(gp.clip(ga, a_min=1, a_max=3), np_call(np.clip, a, a_min=1, a_max=3))
    check(gp.clip(ga, a_min=None, a_max=3), np_call(np.clip, a, a_min=None, a_max=3))


@pytest.mark.parametrize("dt", [D.int8, D.uint8, D.int32, D.float16, D.float32], ids=str)
def test_clip_promotion(dt):
    a = np.arange(0, 10, dtype=dt)
    ga = gp.asarray(a)
    compare("clip", (a, 1.5, 6.5), (ga, 1.5, 6.5))            # python float bounds
    compare("clip", (a, np.float64(2), 5), (ga, np.float64(2), 5))
    f32 = np.array([1.0, 2.0], np.float32)[:, None]
    compare("clip", (a, f32, 8), (ga, gp.asarray(f32), 8))
    if dt.kind in "iu":
        info = np.iinfo(dt)
        compare("clip", (a, int(info.min) - 1, int(info.max) + 1),
                (ga, int(info.min) - 1, int(info.max) + 1))


def test_clip_nan_and_out():
    a = np.array([np.nan, -3.0, 0.5, 9.0, np.inf])
    ga = gp.asarray(a)
    compare("clip", (a, -1, 1), (ga, -1, 1))
    out = gp.asarray(np.zeros(5))
    r = gp.clip(ga, -1, 1, out=out)
    assert r is out
    check(out, np_call(np.clip, a, -1, 1))


# ---------------------------------------------------------------------- round

@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_round(dt):
    rng = np.random.default_rng(17)
    if dt.kind in "fc":
        with np.errstate(all="ignore"):
            a = sample(dt, (40,), rng) / 3
        a[:6] = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 0.125], dtype=D.real_dtype(dt))
    else:
        a = sample(dt, (40,), rng)
        if dt.kind in "iu":
            a[:6] = np.array([15, 25, 35, 125, 5, 45]).astype(dt)
    ga = gp.asarray(a)
    for d in (-2, -1, 0, 1, 2, 3):
        _labelled(f"round({dt}, {d})", compare, "round", (a, d), (ga, d))
        _labelled(f"around({dt}, decimals={d})", compare, "around", (a,), (ga,), decimals=d)
        _labelled(f"{dt} array.round({d})", compare, "round", (a, d), (ga, d),
                  gp_func=lambda x, d: x.round(d), np_func=lambda x, d: x.round(d))
    compare("round", (a,), (ga,))


def test_round_out():
    a = np.array([0.25, 1.55, -2.5])
    out = gp.asarray(np.zeros(3))
    r = gp.round(gp.asarray(a), 1, out=out)
    assert r is out
    check(out, np.round(a, 1))


# ---------------------------------------------------------------------- divmod, modf, frexp, ldexp


@SETTINGS
@given(seed=SEEDS)
def test_divmod(seed):
    rng = np.random.default_rng(seed)
    for dt in DTYPES:             # complex: NumPy's TypeError must be matched
        a = make("floor_divide", 0, dt, (12,), rng)
        b = make("floor_divide", 1, dt, (12,), rng)
        _labelled(f"divmod({dt}, {dt})", compare, "divmod", (a, b),
                  (gp.asarray(a), gp.asarray(b)))
        _labelled(f"divmod({dt}, 3)", compare, "divmod", (a, 3), (gp.asarray(a), 3))


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_modf_frexp(dt):
    a = make("trunc", 0, dt, (30,), np.random.default_rng(2))
    compare("modf", (a,), (gp.asarray(a),))
    compare("frexp", (a,), (gp.asarray(a),))


@pytest.mark.parametrize("edt", [D.int8, D.int32, D.int64, D.uint8], ids=str)
@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_ldexp(dt, edt):
    rng = np.random.default_rng(4)
    a = make("ldexp", 0, dt, (20,), rng)
    b = make("ldexp", 1, edt, (20,), rng)
    compare("ldexp", (a, b), (gp.asarray(a), gp.asarray(b)))
    compare("ldexp", (a, 3), (gp.asarray(a), 3))
    compare("ldexp", (a, np.int32(-2)), (gp.asarray(a), np.int32(-2)))


@pytest.mark.parametrize("mantissa", [True, 3, -2.5, np.float32(2), np.int8(3)], ids=repr)
def test_ldexp_scalar_mantissa_with_dtype(mantissa):
    # a Python scalar mantissa takes NumPy's legacy loop (float16 for bool, or for an int
    # beside an integer exponent array; float64 otherwise), which dtype= must hold safely
    rng = np.random.default_rng(5)
    for edt in (np.uint8, np.int8, np.int64, np.bool_):
        b = make("ldexp", 1, edt, (7,), rng)
        for dt in (np.float16, np.float32, np.float64):
            compare("ldexp", (mantissa, b), (mantissa, gp.asarray(b)), dtype=dt)


# ---------------------------------------------------------------------- astype

def _astype_source(src, dst, rng):
    """Values of `src` that convert to `dst` with a defined result.

    Float/complex -> integer casts of NaN, inf or out-of-range values are C undefined
    behaviour (NumPy's result is platform dependent), so those sources are finite and in
    the target's range; everything else keeps the full sample (NaN/inf/-0, wraparound).
    """
    a = sample(src, (24,), rng)
    if src.kind in "fc" and dst.kind in "iu":
        r = np.real(a) if src.kind == "c" else a
        r = np.where(np.isfinite(r), r, 0)
        if dst.kind == "u":
            r = np.abs(r)
        r = np.clip(r, -100, 100)
        a = r.astype(src) if src.kind == "f" else (r + 1j * np.imag(a)).astype(src)
    return a


@pytest.mark.parametrize("src", DTYPES, ids=str)
@pytest.mark.parametrize("dst", DTYPES, ids=str)
def test_astype_values(src, dst):
    rng = np.random.default_rng(6)
    a = _astype_source(src, dst, rng)
    e = np_call(a.astype, dst)
    ga = gp.asarray(a)
    check(gp.astype(ga, dst), e, rtol=0, atol=0)
    check(ga.astype(dst), e, rtol=0, atol=0)
    check(ga.astype(dst.type), e, rtol=0, atol=0)
    nv, gv = strided_pair(a.reshape(4, 6))
    check(gv.astype(dst), np_call(nv.astype, dst), rtol=0, atol=0)
    if src.kind in "iu" and dst.kind in "iu":   # wraparound over the full range
        full = _int_full(src, (50,), rng)
        check(gp.asarray(full).astype(dst), full.astype(dst))


@pytest.mark.parametrize("src", DTYPES, ids=str)
def test_astype_casting_keyword(src):
    x = gp.asarray(np.ones(3, src))
    for dst in DTYPES:
        for casting in ("no", "safe", "same_kind", "unsafe"):
            if np.can_cast(src, dst, casting):
                assert x.astype(dst, casting=casting).dtype == dst
            else:
                with pytest.raises(TypeError):
                    np.ones(3, src).astype(dst, casting=casting)
                with pytest.raises(TypeError):
                    x.astype(dst, casting=casting)


def test_astype_copy_semantics():
    a = np.arange(6.0)
    x = gp.asarray(a)
    assert gp.astype(x, x.dtype, copy=False) is x
    assert x.astype(np.float64, copy=False) is x
    y = gp.astype(x, np.float64)              # copy=True: a new array
    assert y is not x
    z = x.astype(np.float64)
    x += 1
    check(y, a)
    check(z, a)
    check(x, a + 1)
    w = x.astype(np.float32, copy=False)      # a different dtype always copies
    x *= 2
    check(w, ((a + 1)).astype(np.float32))
    with pytest.raises(TypeError):
        gp.astype(x, "object")


def test_astype_empty_and_0d():
    for a in (np.zeros((0, 3), np.float32), np.array(2.5), np.array(-1, np.int8)):
        for dst in (D.int16, D.float64, D.bool_, D.complex64, D.uint8):
            check(gp.asarray(a).astype(dst), a.astype(dst))


# ---------------------------------------------------------------------- real / imag / conj

@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_real_imag_conj(dt):
    a = sample(dt, (3, 4), np.random.default_rng(8))
    ga = gp.asarray(a)
    check(gp.real(ga), np.real(a), rtol=0, atol=0)
    check(gp.imag(ga), np.imag(a), rtol=0, atol=0)
    check(ga.real, a.real, rtol=0, atol=0)
    check(ga.imag, a.imag, rtol=0, atol=0)
    kind, e = _np_outcome(np.conj, a)
    if kind == "error":
        with pytest.raises(e):
            gp.conj(ga)
    else:
        check(gp.conj(ga), e, rtol=0, atol=0)
        check(gp.conjugate(ga), e, rtol=0, atol=0)
        check(ga.conj(), np_call(a.conj), rtol=0, atol=0)
    nv, gv = strided_pair(a)
    check(gp.real(gv), np.real(nv), rtol=0, atol=0)
    check(gp.imag(gv), np.imag(nv), rtol=0, atol=0)
