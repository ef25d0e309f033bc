"""Ufunc keywords and methods against NumPy: out= (casting, shapes, views), where=,
dtype=, the ufunc attributes, reduce (initial, where, empty), accumulate, outer, and NumPy
interop (``__array_ufunc__``, NumPy ufuncs and arrays on gnumpy arrays, order=).

The op table's elementwise functions and the comparison helpers: test_elementwise.py.
"""
import numpy as np
import pytest

import gnumpy as gp
from gnumpy import _dtypes as D

from helpers import check, sample, strided_pair
from test_elementwise import DTYPES, ROWS, _np_outcome, compare, np_call


# ---------------------------------------------------------------------- ufunc keywords

def test_out_keyword_writes_and_returns_out():
    a, b = np.arange(6.0).reshape(2, 3), np.arange(3.0)
    out = gp.asarray(np.zeros((2, 3)))
    r = gp.add(gp.asarray(a), gp.asarray(b), out=out)
    assert r is out
    check(out, a + b)
    r = gp.multiply(gp.asarray(a), 2, out=(out,))
    assert r is out
    check(out, a * 2)
    o2 = gp.asarray(np.zeros((2, 3)))
    r = gp.subtract(gp.asarray(a), gp.asarray(b), o2)          # positional out
    assert r is o2
    check(o2, a - b)
    o3 = gp.asarray(np.zeros(3, np.float32))
    assert gp.sin(gp.asarray(b), out=o3) is o3
    check(o3, np.sin(b, out=np.zeros(3, np.float32)))


def test_out_keyword_casting():
    a = np.arange(4, dtype=np.int32)
    ga = gp.asarray(a)
    # int result into a float out: safe
    o = gp.asarray(np.zeros(4))
    gp.add(ga, 1, out=o)
    check(o, np.add(a, 1, out=np.zeros(4)))
    # float64 into float32 is same_kind: allowed
    o32 = gp.asarray(np.zeros(4, np.float32))
    gp.multiply(gp.asarray(a * 0.5), 3.0, out=o32)
    check(o32, np.multiply(a * 0.5, 3.0, out=np.zeros(4, np.float32)))
    # float into int is refused (NumPy's UFuncTypeError is a TypeError)
    oi = gp.asarray(np.zeros(4, np.int32))
    with pytest.raises(TypeError):
        np.add(a, 1.5, out=np.zeros(4, np.int32))
    with pytest.raises(TypeError):
        gp.add(ga, 1.5, out=oi)
    with pytest.raises(TypeError):
        gp.sqrt(ga, out=oi)
    with pytest.raises(TypeError):
        gp.add(gp.asarray(a + 0j), 1, out=gp.asarray(np.zeros(4)))
    # unless casting='unsafe'
    gp.add(ga, 1.5, out=oi, casting="unsafe")
    check(oi, np.add(a, 1.5, out=np.zeros(4, np.int32), casting="unsafe"))


def test_out_keyword_shapes():
    a = np.arange(4.0)
    out = gp.asarray(np.zeros((3, 4)))
    gp.add(gp.asarray(a), 1, out=out)          # out may be bigger than the broadcast shape
    check(out, np.add(a, 1, out=np.zeros((3, 4))))
    with pytest.raises(ValueError):
        np.add(np.zeros((3, 4)), 1, out=np.zeros(4))
    with pytest.raises(ValueError):
        gp.add(gp.asarray(np.zeros((3, 4))), 1, out=gp.asarray(np.zeros(4)))
    with pytest.raises(TypeError):
        gp.add(gp.asarray(a), 1, out=[0, 0, 0, 0])


def test_out_keyword_view_writes_base():
    base_np = np.zeros((4, 6))
    base = gp.asarray(base_np)
    view = base[::2, 1::2]
    a = np.arange(6.0).reshape(2, 3)
    r = gp.add(gp.asarray(a), 10, out=view)
    assert r is view
    np.add(a, 10, out=base_np[::2, 1::2])
    check(base, base_np)
    check(view, base_np[::2, 1::2])


def test_where_keyword_with_out():
    a, b = np.arange(6.0), np.full(6, 10.0)
    mask = np.array([True, False, True, False, False, True])
    out_np = np.full(6, -1.0)
    np.add(a, b, out=out_np, where=mask)
    out = gp.asarray(np.full(6, -1.0))
    r = gp.add(gp.asarray(a), gp.asarray(b), out=out, where=gp.asarray(mask))
    assert r is out
    check(out, out_np)
    # where= as a numpy array / list, broadcast mask
    out2 = gp.asarray(np.full((2, 6), -1.0))
    out2_np = np.full((2, 6), -1.0)
    np.multiply(a, 2, out=out2_np, where=mask)
    gp.multiply(gp.asarray(a), 2, out=out2, where=mask)
    check(out2, out2_np)
    out3 = gp.asarray(np.zeros(6, np.int64))
    out3_np = np.zeros(6, np.int64)
    np.negative(np.arange(6), out=out3_np, where=list(mask))
    gp.negative(gp.asarray(np.arange(6)), out=out3, where=list(mask))
    check(out3, out3_np)


@pytest.mark.parametrize("name,args,dtype", [
    ("add", (np.arange(4, dtype=np.int8), np.arange(4, dtype=np.int8)), np.float32),
    ("multiply", (np.arange(4, dtype=np.int8), 100), np.int16),
    ("sin", (np.arange(4, dtype=np.int16),), np.float32),
    ("divide", (np.arange(4, dtype=np.int32), 3), np.float32),
    ("add", (np.arange(4.0), 0.5), np.float16),
    ("sqrt", (np.arange(4.0),), np.complex128),
], ids=lambda x: x if isinstance(x, str) else "")
def test_dtype_keyword(name, args, dtype):
    gargs = tuple(gp.asarray(a) if isinstance(a, np.ndarray) else a for a in args)
    compare(name, args, gargs, dtype=dtype)


UFUNC_NAMES = [n for n, r in ROWS.items() if isinstance(getattr(np, n), np.ufunc)]


@pytest.mark.parametrize("name", UFUNC_NAMES)
def test_ufunc_attributes(name):
    g, n = getattr(gp, name), getattr(np, name)
    assert g.nin == n.nin
    assert g.nout == n.nout
    assert g.nargs == n.nargs
    gi, ni = g.identity, n.identity
    assert (gi is None) == (ni is None) and gi == ni and type(gi) is type(ni), (gi, ni)
    assert g.__name__ == n.__name__


@pytest.mark.parametrize("dt", DTYPES, ids=str)
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum"])
def test_ufunc_reduce(name, dt):
    rng = np.random.default_rng(9)
    a = sample(dt, (3, 4, 5), rng, special=False)
    if dt.kind in "iu":
        a = (a % 5).astype(dt)
    ga = gp.asarray(a)
    nf, gf = getattr(np, name), getattr(gp, name)
    for kw in ({}, {"axis": 1}, {"axis": -1}, {"axis": None}, {"axis": (0, 2)},
               {"axis": 0, "keepdims": True}):
        e = np_call(nf.reduce, a, **kw)
        r = gf.reduce(ga, **kw)
        if dt == np.float16 and name in ("add", "multiply"):
            # float16 sums: NumPy rounds partial sums to half, a GPU keeps them in float32;
            # the difference scales with the summed magnitudes, not with the result
            check(r, e, atol=float(np.abs(a.astype(np.float32)).sum()) * 2.0 ** -10)
        else:
            check(r, e)
    if name in ("add", "multiply"):
        check(gf.reduce(ga, axis=1, dtype=np.complex128),
              np_call(nf.reduce, a, axis=1, dtype=np.complex128))
    nv, gv = strided_pair(a)
    check(gf.reduce(gv, axis=2), np_call(nf.reduce, nv, axis=2))


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "logical_or",
                                  "logical_and"])
def test_ufunc_reduce_initial_and_where(name):
    """``ufunc.reduce`` with ``initial=`` and ``where=`` (what the reductions take), on
    random data with NaN and an empty axis; ``initial=`` of a logical reduction and
    ``reduceat`` raise NotImplementedError."""
    rng = np.random.default_rng(12)
    a = sample(np.float64, (3, 4), rng)
    m = rng.random((3, 4)) < 0.6
    nf, gf = getattr(np, name), getattr(gp, name)
    ga, gm = gp.asarray(a), gp.asarray(m)
    logical = name.startswith("logical")
    for kw in ({"where": m, "axis": 1}, {"where": m[0], "axis": 0},
               {"initial": 2.5, "axis": 0}, {"initial": -1.0, "where": m, "axis": None}):
        if logical and "initial" in kw:
            with pytest.raises(NotImplementedError):
                gf.reduce(ga, **kw)
            continue
        gkw = {k: gp.asarray(v) if k == "where" else v for k, v in kw.items()}
        if name in ("maximum", "minimum") and "initial" not in kw:
            for f, x, k in ((nf, a, kw), (gf, ga, gkw)):    # no identity: NumPy's error
                with pytest.raises(ValueError, match="identity"):
                    f.reduce(x, **k)
            continue
        check(gf.reduce(ga, **gkw), np_call(nf.reduce, a, **kw))
    if not logical:
        e = np.zeros((0, 3))
        check(gf.reduce(gp.asarray(e), axis=0, initial=5.0),
              np_call(nf.reduce, e, axis=0, initial=5.0))
    with pytest.raises(NotImplementedError, match="reduceat"):
        gf.reduceat(ga[0], [0, 2])
    assert isinstance(gm, gp.ndarray)


def test_ufunc_reduce_empty():
    a = np.zeros((0, 3))
    check(gp.add.reduce(gp.asarray(a)), np.add.reduce(a))
    check(gp.multiply.reduce(gp.asarray(a)), np.multiply.reduce(a))
    with pytest.raises(ValueError):
        np.maximum.reduce(a)
    with pytest.raises(ValueError):
        gp.maximum.reduce(gp.asarray(a))


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_ufunc_accumulate(dt):
    a = sample(dt, (3, 4), np.random.default_rng(10), special=False)
    ga = gp.asarray(a)
    for name in ("add", "multiply"):
        nf, gf = getattr(np, name), getattr(gp, name)
        check(gf.accumulate(ga), np_call(nf.accumulate, a))
        check(gf.accumulate(ga, axis=1), np_call(nf.accumulate, a, axis=1))
    check(gp.add.accumulate(ga, dtype=np.complex128),
          np_call(np.add.accumulate, a, dtype=np.complex128))


@pytest.mark.parametrize("pair", [(D.float64, D.float64), (D.int8, D.int8),
                                  (D.int16, D.float32), (D.bool_, D.bool_)], ids=lambda p: f"{p[0]}-{p[1]}")
def test_ufunc_outer(pair):
    rng = np.random.default_rng(12)
    a, b = sample(pair[0], (3,), rng), sample(pair[1], (2, 4), rng)
    for name in ("add", "multiply", "maximum", "greater", "subtract"):
        kind, e = _np_outcome(getattr(np, name).outer, a, b)
        if kind == "error":
            with pytest.raises(e):
                getattr(gp, name).outer(gp.asarray(a), gp.asarray(b))
            continue
        check(getattr(gp, name).outer(gp.asarray(a), gp.asarray(b)), e)


# ---------------------------------------------------------------------- NumPy interop

def test_numpy_ufunc_on_gnumpy_array_returns_gnumpy():
    a = np.linspace(-2, 2, 7)
    g = gp.asarray(a)
    for r, e in ((np.sin(g), np.sin(a)), (np.add(g, 1), a + 1),
                 (np.maximum(a, g), np.maximum(a, a)), (np.add.reduce(g), np.add.reduce(a))):
        check(r, e)          # check() asserts r is a gnumpy array


def test_numpy_array_with_gnumpy_array_returns_gnumpy():
    a = np.arange(6.0).reshape(2, 3)
    b = np.arange(3.0)
    g = gp.asarray(b)
    for r, e in ((a + g, a + b), (g + a, b + a), (a * g, a * b), (a - g, a - b),
                 (a / g, np_call(np.divide, a, b)), (a < g, a < b), (a ** g, a ** b),
                 (np.float32(2) * g, np.float32(2) * b)):
        check(r, e)


def test_repeated_python_scalars_keep_sign_type_and_dtype():
    # ir.scalar_value caches NumPy scalars of repeated Python scalars: the sign of zero,
    # NaN, int against float and the target dtype must still come through
    from gnumpy._graph import ir
    for _ in range(2):
        for v, dt in ((-0.0, np.float32), (0.0, np.float32), (np.nan, np.float64),
                      (1, np.int8), (1.0, np.float32), (1, np.float64), (300, np.int16),
                      (1e300, np.float32), (-2.5, np.float16), (2**63, np.uint64)):
            got = ir.scalar_value(v, np.dtype(dt))
            with np.errstate(all="ignore"):
                want = np.array(v).astype(dt)[()]
            assert got.dtype == np.dtype(dt)
            assert got.tobytes() == want.tobytes() or (np.isnan(got) and np.isnan(want)), \
                (v, dt, got, want)
    x = gp.asarray(np.array([1.0, -1.0], np.float32))
    for _ in range(3):
        check(x * -0.0, np.array([1.0, -1.0], np.float32) * -0.0)
        check(x * 0.0, np.array([1.0, -1.0], np.float32) * 0.0)
        check(x.astype(np.float64) * 0.1, np.array([1.0, -1.0]) * 0.1)
        check(x * 0.1, np.array([1.0, -1.0], np.float32) * np.float32(0.1))


@pytest.mark.parametrize("order", ["C", "c", "F", "k", "A", "X", 1, None])
def test_ufunc_order_argument_is_checked_as_numpy_checks_it(order):
    """A ufunc's ``order=``: either case of C, F, A or K, or None (NumPy's ValueError for
    another string, TypeError for a non-string, same messages)."""
    a = np.arange(3.0)
    for f in (lambda m, x: m.add(x, x, order=order), lambda m, x: m.ldexp(x, 2, order=order)):
        try:
            want = f(np, a)
        except (TypeError, ValueError) as e:
            with pytest.raises(type(e)) as got:
                f(gp, gp.asarray(a))
            assert str(got.value) == str(e)
            continue
        check(f(gp, gp.asarray(a)), want)


def test_power_with_where_keeps_the_exponents_dtype():
    """``power(b, e, where=m)``: masked-off exponents are never used (NumPy does not check
    them), and a bool or narrow exponent keeps its dtype in the result's type."""
    m = np.array([True, False, True])
    for base, exp in [(np.array([3, 4, 5], np.int8), np.array([True, True, False])),
                      (np.array([3, 4, 5], np.uint8), np.array([True, False, True])),
                      (np.array([1.5, 2.0, 3.0], np.float16), np.array([2, -1, 1], np.int8)),
                      (np.array([2, 3, 4], np.int16), np.array([2, -3, 1], np.int16))]:
        out = np.zeros(3, base.dtype)
        gout = gp.asarray(out)
        e = np.power(base, exp, where=m, out=out)
        assert gp.power(gp.asarray(base), gp.asarray(exp), where=gp.asarray(m), out=gout) \
            is gout
        check(gout, e)
        r = gp.power(gp.asarray(base), gp.asarray(exp), where=gp.asarray(m))
        assert r.dtype == np.result_type(base, exp)
