"""Python operators and scalar conversions of gnumpy arrays, against NumPy.

Every binary operator in its normal, reflected (Python scalar, NumPy scalar or NumPy array
on the left) and in-place form; unary operators; ``@`` over 1-D, 2-D and batched shapes;
``divmod``; then ``__bool__ __int__ __float__ __complex__ __index__ __len__ __iter__``,
``item``, ``tolist``, ``repr`` and ``str``, with NumPy's error types and messages.
"""
import math
import operator
import warnings

import numpy as np
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import gnumpy as gp
from gnumpy import _dtypes as D

from helpers import COMPLEX_PRODUCT_ZERO_SIGN, check, sample, strided_pair

DTYPES = list(D.ALL)
SETTINGS = settings(derandomize=True, database=None,
                    phases=[Phase.explicit, Phase.reuse, Phase.generate])
SEEDS = st.integers(0, 2**32 - 1)

BINARY = {  # symbol: (operator function, in-place operator function)
    "+": (operator.add, operator.iadd), "-": (operator.sub, operator.isub),
    "*": (operator.mul, operator.imul), "/": (operator.truediv, operator.itruediv),
    "//": (operator.floordiv, operator.ifloordiv), "%": (operator.mod, operator.imod),
    "**": (operator.pow, operator.ipow), "<<": (operator.lshift, operator.ilshift),
    ">>": (operator.rshift, operator.irshift), "&": (operator.and_, operator.iand),
    "|": (operator.or_, operator.ior), "^": (operator.xor, operator.ixor),
    "<": (operator.lt, None), "<=": (operator.le, None), ">": (operator.gt, None),
    ">=": (operator.ge, None), "==": (operator.eq, None), "!=": (operator.ne, None),
}
SYMBOLS = list(BINARY)
INPLACE = [s for s in SYMBOLS if BINARY[s][1] is not None]
UNARY = {"-": operator.neg, "+": operator.pos, "~": operator.invert, "abs": abs}


def _builtin_exc(t):
    for c in t.__mro__:
        if c.__module__ == "builtins":
            return c
    return t


def _np_outcome(f, *args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return "ok", f(*args)
        except Exception as e:   # noqa: BLE001 - compared with gnumpy's exception
            return "error", (_builtin_exc(type(e)), e)


def _desc(x):
    if isinstance(x, np.ndarray):
        return f"{x.dtype}{list(x.shape)}"
    if isinstance(x, np.generic):
        return f"np.{type(x).__name__}({x})"
    return repr(x)


def _data(dt, shape, rng, sym=None, pos=0):
    """Random operand; exponents of integer ** are non-negative (NumPy raises ValueError for
    negative integer exponents in arrays, a data-dependent error), shift counts cover
    [0, 2*bits], and integer / and % get zero divisors (NumPy defines the result as 0)."""
    dt = np.dtype(dt)
    v = sample(dt, shape, rng)
    if dt.kind in "iu" and v.size:
        if sym == "**" and pos == 1:
            v = (np.abs(v.astype(np.int64)) % 9).astype(dt)
        elif sym in ("<<", ">>") and pos == 1:
            v = rng.integers(0, 2 * 8 * dt.itemsize + 1, size=shape).astype(dt)
        elif sym in ("//", "%") and pos == 1:
            v.reshape(-1)[rng.integers(0, v.size, max(1, v.size // 4))] = 0
    return v


def _subset(rng, items, k):
    """`k` random items for one example (hypothesis varies the seed, so across examples
    every dtype is drawn many times)."""
    return [items[i] for i in sorted(rng.choice(len(items), k, replace=False))]


def _check_result(r, e, where):
    assert isinstance(r, gp.ndarray), f"{where}: got {type(r).__name__}, not a gnumpy array"
    # complex power on CUDA: the sign of a zero part may differ (helpers)
    sz = COMPLEX_PRODUCT_ZERO_SIGN or "**" not in where or np.asarray(e).dtype.kind != "c"
    try:
        check(r, e, signed_zero=sz)
    except AssertionError as err:
        raise AssertionError(f"{where}: {' '.join(str(err).split())}") from None


def compare_op(f, np_args, gp_args, where):
    kind, e = _np_outcome(f, *np_args)
    if kind == "error":
        exc = e[0]
        try:
            r = f(*gp_args)
        except exc:
            return
        except Exception as err:   # noqa: BLE001
            raise AssertionError(f"{where}: NumPy raises {exc.__name__}, gnumpy "
                                 f"{type(err).__name__}: {err}") from None
        raise AssertionError(f"{where}: NumPy raises {exc.__name__} ({e[1]}), gnumpy "
                             f"returns {getattr(r, 'dtype', r)}")
    try:
        r = f(*gp_args)
    except Exception as err:   # noqa: BLE001
        raise AssertionError(f"{where}: NumPy gives {np.asarray(e).dtype}, gnumpy raises "
                             f"{type(err).__name__}: {err}") from None
    if isinstance(e, tuple):
        assert isinstance(r, tuple) and len(r) == len(e), where
        for ri, ei in zip(r, e):
            _check_result(ri, ei, where)
    else:
        _check_result(r, e, where)


# ---------------------------------------------------------------------- binary operators

@pytest.mark.parametrize("sym", SYMBOLS)
@SETTINGS
@given(seed=SEEDS)
def test_binary_operator_same_dtype(sym, seed):
    rng = np.random.default_rng(seed)
    f = BINARY[sym][0]
    shapes = [((3, 4), (3, 4)), ((3, 1), (4,)), ((), (5,)), ((0,), (1,)), ((2, 3), ())]
    s1, s2 = shapes[int(rng.integers(len(shapes)))]
    strided = bool(rng.random() < 0.5)
    for dt in _subset(rng, DTYPES, 7):
        a, b = _data(dt, s1, rng, sym, 0), _data(dt, s2, rng, sym, 1)
        na, ga = strided_pair(a) if strided else (a, gp.asarray(a))
        nb, gb = strided_pair(b) if strided else (b, gp.asarray(b))
        compare_op(f, (na, nb), (ga, gb), f"{_desc(a)} {sym} {_desc(b)}")


@pytest.mark.parametrize("sym", SYMBOLS)
@SETTINGS
@given(seed=SEEDS)
def test_binary_operator_mixed_dtypes(sym, seed):
    rng = np.random.default_rng(seed)
    f = BINARY[sym][0]
    for _ in range(3):
        d1, d2 = (DTYPES[i] for i in rng.integers(0, len(DTYPES), 2))
        a, b = _data(d1, (2, 3), rng, sym, 0), _data(d2, (3,), rng, sym, 1)
        compare_op(f, (a, b), (gp.asarray(a), gp.asarray(b)), f"{_desc(a)} {sym} {_desc(b)}")


PY_SCALARS = [True, False, 0, 2, -3, 2.5, -0.0, float("nan"), 1j, 1.5 - 2j]
NP_SCALARS = [np.float32(2.5), np.float64(-1.5), np.int8(3), np.uint8(2), np.int64(-2),
              np.uint64(7), np.float16(0.5), np.complex64(1 + 1j), np.bool_(True)]


@pytest.mark.parametrize("sym", SYMBOLS)
def test_operator_with_python_scalar(sym):
    rng = np.random.default_rng(20)
    f = BINARY[sym][0]
    for dt in DTYPES:
        a = _data(dt, (5,), rng, sym, 0)
        b = _data(dt, (5,), rng, sym, 1)
        for s in PY_SCALARS:
            compare_op(f, (a, s), (gp.asarray(a), s), f"{_desc(a)} {sym} {s!r}")
            # reflected: the Python scalar on the left
            compare_op(f, (s, b), (s, gp.asarray(b)), f"{s!r} {sym} {_desc(b)}")


@pytest.mark.parametrize("sym", SYMBOLS)
def test_operator_with_numpy_scalar(sym):
    rng = np.random.default_rng(21)
    f = BINARY[sym][0]
    for dt in DTYPES:
        a = _data(dt, (5,), rng, sym, 0)
        b = _data(dt, (5,), rng, sym, 1)
        for s in NP_SCALARS:
            compare_op(f, (a, s), (gp.asarray(a), s), f"{_desc(a)} {sym} {_desc(s)}")
            # the NumPy scalar on the left must still give a gnumpy array
            compare_op(f, (s, b), (s, gp.asarray(b)), f"{_desc(s)} {sym} {_desc(b)}")


SAME_DTYPE_SCALARS = {np.float64: [-1.5, 0.0, -0.0, np.inf, np.nan, 3e300],
                      np.float32: [2.5, -0.0, np.inf, 3e38],
                      np.complex128: [1.5 - 2j, complex(np.nan, 1)], np.complex64: [-1j],
                      np.int64: [-2, 0, 2**62], np.int32: [7, 0, -2**31]}


@pytest.mark.parametrize("sym", [s for s in SYMBOLS if s != "**"])
def test_numpy_scalar_of_the_arrays_dtype_on_either_side(sym):
    """``a <op> alpha`` and ``alpha <op> a`` with alpha a NumPy scalar of a's dtype
    (NPBench's ``alpha = np.float64(1.5)``), each called again once its signature is
    known (the operators' hot path; NumPy's scalar on the left comes through
    ``__array_ufunc__``): arrays, 0-d arrays, elements, views and lazy operands."""
    rng = np.random.default_rng(23)
    f = BINARY[sym][0]
    for t, values in SAME_DTYPE_SCALARS.items():
        a = _data(np.dtype(t), (6, 4), rng, sym, 0)
        b = _data(np.dtype(t), (6, 4), rng, sym, 1)
        ga, gb = gp.asarray(a), gp.asarray(b)
        operands = [("array", a, ga), ("0-d", b[2, 1].reshape(()), gb[2, 1].reshape(())),
                    ("element", b[3, 2], gb[3, 2]), ("view", b[::-2, 1:], gb[::-2, 1:]),
                    ("lazy", b[:, ::-1] + b, gb[:, ::-1] + gb)]
        for v in values:
            s = t(v)
            for what, x, gx in operands:
                for _ in range(2):
                    compare_op(f, (x, s), (gx, s), f"{what} {t.__name__} {sym} {s!r}")
                    compare_op(f, (s, x), (s, gx), f"{s!r} {sym} {what} {t.__name__}")
        assert type(t(values[0]) + ga) is gp.ndarray
        np.testing.assert_array_equal(ga.get(), a)      # (the operands kept their values)


@pytest.mark.parametrize("sym", [s for s in SYMBOLS if s != "**"])
def test_element_and_array_of_one_dtype(sym):
    """An element or 0-d array with an array of its dtype, either side (``A[i, k] *
    A[:i + 1, k]``), each called again once the signature is known (the operators'
    broadcasting hot path, which power does not take): elements, 0-d arrays and lazy 0-d
    values against arrays, views and lazy arrays."""
    rng = np.random.default_rng(24)
    f = BINARY[sym][0]
    for dt in (D.float64, D.float32, D.int64, D.int8, D.uint16, D.bool_, D.complex64):
        a = _data(dt, (5, 4), rng, sym, 0)
        b = _data(dt, (5, 4), rng, sym, 1)
        ga, gb = gp.asarray(a), gp.asarray(b)
        zeros = [("element", a[1, 2], ga[1, 2]), ("0-d", a[3, 0].reshape(()),
                                                  ga[3, 0].reshape(())),
                 ("lazy 0-d", a[2, 2] * a[0, 1], ga[2, 2] * ga[0, 1])]
        arrays = [("array", b, gb), ("column", b[:, 3], gb[:, 3]),
                  ("view", b[::-2, 1:], gb[::-2, 1:]), ("lazy", b[:, ::-1] & b
                  if dt.kind in "biu" else b[:, ::-1] * b, gb[:, ::-1] & gb
                  if dt.kind in "biu" else gb[:, ::-1] * gb)]
        for zw, z, gz in zeros:
            for aw, x, gx in arrays:
                for _ in range(2):
                    compare_op(f, (z, x), (gz, gx), f"{zw} {sym} {aw} {dt}")
                    compare_op(f, (x, z), (gx, gz), f"{aw} {sym} {zw} {dt}")
        np.testing.assert_array_equal(ga.get(), a)
        np.testing.assert_array_equal(gb.get(), b)


@pytest.mark.parametrize("sym", SYMBOLS)
def test_operator_with_numpy_array_and_list(sym):
    rng = np.random.default_rng(22)
    f = BINARY[sym][0]
    for dt in (D.int32, D.float64, D.bool_, D.uint8, D.complex64):
        a = _data(dt, (2, 3), rng, sym, 0)
        b = _data(dt, (3,), rng, sym, 1)
        compare_op(f, (a, b), (a, gp.asarray(b)), f"numpy {_desc(a)} {sym} {_desc(b)}")
        compare_op(f, (a, b), (gp.asarray(a), b), f"{_desc(a)} {sym} numpy {_desc(b)}")
        lst = b.tolist()
        compare_op(f, (a, np.asarray(lst)), (gp.asarray(a), lst), f"{_desc(a)} {sym} list")


def test_comparison_with_out_of_range_python_int():
    a = np.array([0, 7, 255], dtype=np.uint8)
    g = gp.asarray(a)
    for sym in ("<", "<=", ">", ">=", "==", "!="):
        f = BINARY[sym][0]
        for v in (300, -1, 2**70):
            compare_op(f, (a, v), (g, v), f"uint8 {sym} {v}")
            compare_op(f, (v, a), (v, g), f"{v} {sym} uint8")


def test_eq_ne_with_none():
    a = np.arange(3)
    g = gp.asarray(a)
    compare_op(operator.eq, (a, None), (g, None), "array == None")
    compare_op(operator.ne, (a, None), (g, None), "array != None")


# ---------------------------------------------------------------------- unary operators

@pytest.mark.parametrize("sym", list(UNARY))
@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_unary_operator(sym, dt):
    f = UNARY[sym]
    rng = np.random.default_rng(23)
    a = sample(dt, (3, 4), rng)
    if np.dtype(dt).kind in "iu":
        a[0, :2] = np.iinfo(dt).min, np.iinfo(dt).max     # wraparound of -INT_MIN
    compare_op(f, (a,), (gp.asarray(a),), f"{sym}{_desc(a)}")
    na, ga = strided_pair(a)
    compare_op(f, (na,), (ga,), f"{sym} strided {_desc(a)}")
    z = np.asarray(a[0, 0])
    compare_op(f, (z,), (gp.asarray(z),), f"{sym} 0-d {_desc(z)}")


UFUNCS1 = ["exp", "sqrt", "sin", "negative", "absolute", "isnan", "sign", "floor",
           "logical_not", "invert", "square", "reciprocal", "conjugate"]


@pytest.mark.parametrize("name", UFUNCS1)
def test_one_operand_ufuncs_and_operators_called_again(name):
    """``np.exp(x)``, ``-x``, ``abs(x)``, each called again once its signature is known
    (the one-operand hot path: one node), over every dtype the op takes, with NaN, inf,
    -0 and integer extremes, on arrays, elements, 0-d arrays, views and lazy operands;
    the result a gnumpy array (a NumPy scalar where NumPy gives one)."""
    def f(x):
        return getattr(gp if isinstance(x, gp.ndarray) else np, name)(x)
    rng = np.random.default_rng(25)
    for dt in DTYPES:
        a = sample(dt, (4, 5), rng)
        if np.dtype(dt).kind == "f":
            a[0, :4] = np.nan, np.inf, -np.inf, -0.0
        elif np.dtype(dt).kind in "iu":
            a[0, :2] = np.iinfo(dt).min, np.iinfo(dt).max
        ga = gp.asarray(a)
        cases = [("array", a, ga), ("element", a[0, 3], ga[0, 3]),
                 ("0-d", a[1, 1].reshape(()), ga[1, 1].reshape(())),
                 ("view", a[::-2, 1:], ga[::-2, 1:]),
                 ("lazy", a[:, ::-1] * a[:, ::-1] if dt != D.bool_ else a & a[:, ::-1],
                  ga[:, ::-1] * ga[:, ::-1] if dt != D.bool_ else ga & ga[:, ::-1])]
        for what, x, gx in cases:
            for _ in range(2):
                compare_op(f, (x,), (gx,), f"{name} {what} {_desc(a)}")
            if what in ("element", "0-d") and np.dtype(dt) == np.float64 and \
                    name in ("exp", "negative", "square"):
                r = f(gx)               # NumPy's scalar: ``t += 1`` rebinds t, r keeps
                want = float(f(x))      # its value
                t = r
                t += 1.0
                assert float(r) == want or np.isnan(want), (name, what)
        for sym in ("-", "abs"):
            for what, x, gx in cases:
                compare_op(UNARY[sym], (x,), (gx,), f"{sym} {what} {_desc(a)}")
        np.testing.assert_array_equal(ga.get(), a)


# ---------------------------------------------------------------------- in-place operators

def _inplace_case(sym, a, b, gb):
    """a op= b in NumPy and gnumpy: same outcome, same object, same dtype and values."""
    f = BINARY[sym][1]
    where = f"{_desc(a)} {sym}= {_desc(b)}"
    na = a.copy()
    kind, e = _np_outcome(f, na, b)
    g = gp.asarray(a)
    if kind == "error":
        exc = e[0]
        try:
            r = f(g, gb)
        except exc:
            check(g, a)        # the failed operation left the array unchanged
            return
        except Exception as err:   # noqa: BLE001
            raise AssertionError(f"{where}: NumPy raises {exc.__name__}, gnumpy "
                                 f"{type(err).__name__}: {err}") from None
        raise AssertionError(f"{where}: NumPy raises {exc.__name__} ({e[1]}), gnumpy "
                             f"returns {getattr(r, 'dtype', r)}")
    try:
        r = f(g, gb)
    except Exception as err:   # noqa: BLE001
        raise AssertionError(f"{where}: NumPy works, gnumpy raises {type(err).__name__}: "
                             f"{err}") from None
    assert r is g, f"{where}: in-place operator did not return the same array"
    assert g.dtype == a.dtype, where
    _check_result(g, na, where)


@pytest.mark.parametrize("sym", INPLACE)
@SETTINGS
@given(seed=SEEDS)
def test_inplace_operator(sym, seed):
    rng = np.random.default_rng(seed)
    for dt in _subset(rng, DTYPES, 4):
        a = _data(dt, (3, 4), rng, sym, 0)
        # same dtype, broadcast operand
        b = _data(dt, (4,), rng, sym, 1)
        _inplace_case(sym, a, b, gp.asarray(b))
        # another dtype (NumPy's same_kind rule decides)
        d2 = DTYPES[int(rng.integers(len(DTYPES)))]
        b2 = _data(d2, (3, 4), rng, sym, 1)
        _inplace_case(sym, a, b2, gp.asarray(b2))
        # Python scalars
        for s in (2, 1.5, True, 1j, -1):
            _inplace_case(sym, a, s, s)


@pytest.mark.parametrize("sym", INPLACE)
def test_inplace_errors(sym):
    f = BINARY[sym][1]
    # a result shape that differs from the array's: ValueError
    dt = np.float64 if sym not in ("<<", ">>", "&", "|", "^") else np.int32
    a = gp.asarray(np.ones(3, dt))
    with pytest.raises(ValueError):
        f(np.ones(3, dt), np.ones((2, 3), dt))
    with pytest.raises(ValueError):
        f(a, gp.asarray(np.ones((2, 3), dt)))
    check(a, np.ones(3, dt))


def test_inplace_same_kind_examples():
    x = gp.asarray(np.arange(4))
    with pytest.raises(TypeError):
        x += 1.5
    with pytest.raises(TypeError):
        x /= 2
    with pytest.raises(TypeError):
        x *= gp.asarray(np.ones(4, np.float32))
    check(x, np.arange(4))
    u = gp.asarray(np.arange(4, dtype=np.uint8))
    with pytest.raises(OverflowError):
        u += 300
    with pytest.raises(TypeError):      # int64 -> uint8 is not same_kind
        u += gp.asarray(np.ones(4, np.int64))
    u += gp.asarray(np.ones(4, np.uint16))     # uint16 -> uint8 is same_kind
    check(u, np.arange(4, dtype=np.uint8) + 1)
    f = gp.asarray(np.ones(4, np.float32))
    f += 1e300                                  # weak float keeps float32 (-> inf)
    assert f.dtype == np.float32
    with np.errstate(all="ignore"):
        check(f, np.ones(4, np.float32) + 1e300)
    with pytest.raises(TypeError):
        f += 1j
    b = gp.asarray(np.array([True, False]))
    b |= True
    check(b, np.array([True, True]))
    with pytest.raises(TypeError):
        b += 1


def test_inplace_semantics():
    base = np.arange(12.0).reshape(3, 4)
    x = gp.asarray(base)
    view = x[:, ::2]
    pending = x * 2                       # a lazy expression reading x
    x += 100
    check(pending, base * 2)              # never sees the later write
    check(view, (base + 100)[:, ::2])     # a view sees writes to its base
    view *= -1                            # in-place on a view writes to the base
    e = base + 100
    e[:, ::2] *= -1
    check(x, e)
    y = x
    y -= 1
    assert y is x
    check(x, e - 1)


# ---------------------------------------------------------------------- matmul

MATMUL_SHAPES = [((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 2)), ((3, 4), (4, 2)),
                 ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)),
                 ((0, 4), (4, 3)), ((3, 0), (0, 2)), ((1, 1), (1,))]
MATMUL_DTYPES = DTYPES


def _mm_tol(dt, a=None, b=None):
    """A product's tolerance.  float16: NumPy accumulates in float16, a GPU kernel may
    accumulate in float32.  Other inexact dtypes: the dot-product error bound, k * eps *
    (|a| @ |b|), as an absolute tolerance (a product summed in another order, or with
    more precision, differs from NumPy's where terms cancel)."""
    dt = np.dtype(dt)
    if dt == D.float16:
        return 1e-2, 1e-2
    if dt.kind not in "fc" or a is None or not a.size or not b.size:
        return None, None
    k = a.shape[-1]
    bound = np.matmul(np.abs(a).astype(np.float64), np.abs(b).astype(np.float64))
    return None, 2 * k * float(np.finfo(dt).eps) * float(np.max(bound, initial=0.0))


@pytest.mark.parametrize("dt", MATMUL_DTYPES, ids=str)
@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=lambda s: f"{s[0]}@{s[1]}")
def test_matmul(shapes, dt):
    rng = np.random.default_rng(24)
    a = sample(dt, shapes[0], rng, special=False)
    b = sample(dt, shapes[1], rng, special=False)
    e = np.matmul(a, b)
    ga, gb = gp.asarray(a), gp.asarray(b)
    r = ga @ gb
    assert isinstance(r, gp.ndarray)
    rt, at = _mm_tol(dt, a, b)
    check(r, e, rtol=rt, atol=at)
    check(gp.matmul(ga, gb), e, rtol=rt, atol=at)
    check(a @ gb, e, rtol=rt, atol=at)          # NumPy array on the left
    check(ga @ b, e, rtol=rt, atol=at)
    if a.ndim >= 1 and b.ndim >= 1 and a.size and b.size:
        na, sa = strided_pair(a)
        nb, sb = strided_pair(b)
        check(sa @ sb, na @ nb, rtol=rt, atol=at)


def test_matmul_mixed_dtypes_and_overflow():
    a = np.arange(12, dtype=np.int8).reshape(3, 4) * 10
    b = np.arange(8, dtype=np.int16).reshape(4, 2)
    check(gp.asarray(a) @ gp.asarray(b), a @ b)
    c = np.arange(8.0, dtype=np.float32).reshape(4, 2)
    check(gp.asarray(a) @ gp.asarray(c), a @ c)
    big = np.full((2, 2), 100, np.int8)
    check(gp.asarray(big) @ gp.asarray(big), big @ big)      # wraps like NumPy
    check(gp.asarray(a) @ b.tolist(), a @ np.asarray(b.tolist()))


def test_matmul_errors():
    for x, y in [((), (3,)), ((3,), ()), ((3,), (4,)), ((2, 3), (2, 3)),
                 ((2, 2, 3), (3, 3, 2))]:
        a, b = np.ones(x), np.ones(y)
        with pytest.raises(ValueError):
            a @ b
        with pytest.raises(ValueError):
            gp.asarray(a) @ gp.asarray(b)
    compare_op(operator.matmul, (np.ones((2, 2)), 2.0), (gp.asarray(np.ones((2, 2))), 2.0),
               "(2, 2) @ 2.0")
    compare_op(operator.matmul, (2.0, np.ones((2, 2))), (2.0, gp.asarray(np.ones((2, 2)))),
               "2.0 @ (2, 2)")
    g = gp.ones((2, 3))
    for kw in ({"axes": [(-2, -1), (-2, -1), (-2, -1)]}, {"axis": -1}):
        with pytest.raises(NotImplementedError, match="moveaxis"):
            gp.matmul(g, g.T, **kw)


def test_inplace_matmul():
    a = np.arange(4.0).reshape(2, 2)
    b = np.arange(4.0).reshape(2, 2) + 1
    g = gp.asarray(a)
    r = g
    r @= gp.asarray(b)
    assert r is g
    e = a.copy()
    e @= b
    check(g, e)
    # shape change: ValueError
    g2 = gp.asarray(np.ones((2, 3)))
    with pytest.raises(ValueError):
        n = np.ones((2, 3))
        n @= np.ones((3, 2))
    with pytest.raises(ValueError):
        g2 @= gp.asarray(np.ones((3, 2)))
    # same_kind casting: float result into an int array is refused
    gi = gp.asarray(np.ones((2, 2), np.int32))
    with pytest.raises(TypeError):
        n = np.ones((2, 2), np.int32)
        n @= np.ones((2, 2))
    with pytest.raises(TypeError):
        gi @= gp.asarray(np.ones((2, 2)))


# ---------------------------------------------------------------------- divmod

@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_divmod_operator(dt):
    rng = np.random.default_rng(25)
    a, b = _data(dt, (6,), rng, "//", 0), _data(dt, (6,), rng, "//", 1)
    ga, gb = gp.asarray(a), gp.asarray(b)
    compare_op(divmod, (a, b), (ga, gb), f"divmod({_desc(a)}, {_desc(b)})")
    compare_op(divmod, (a, 3), (ga, 3), f"divmod({_desc(a)}, 3)")
    compare_op(divmod, (7, b), (7, gb), f"divmod(7, {_desc(b)})")
    compare_op(divmod, (a, 2.5), (ga, 2.5), f"divmod({_desc(a)}, 2.5)")
    compare_op(divmod, (np.float32(4), b), (np.float32(4), gb),
               f"divmod(np.float32, {_desc(b)})")


# ---------------------------------------------------------------------- scalar conversions

CONVERSION_ARRAYS = [
    np.array(1.5), np.array(-0.0), np.array(np.nan), np.array(np.inf), np.array(True),
    np.array(False), np.array(3, np.int8), np.array(-7, np.int64),
    np.array(2**64 - 1, np.uint64), np.array(1 + 2j), np.array(2.5 + 0j, np.complex64),
    np.array(np.float16(0.1)), np.array([1]), np.array([2.5]), np.array([[0]]),
    np.array([]), np.zeros((2, 0)), np.array([1, 2]), np.array([[True, False]]),
]
CONVERSIONS = {"bool": bool, "int": int, "float": float, "complex": complex,
               "index": operator.index, "len": len, "iter": lambda x: list(iter(x))}


def _conv_outcome(f, x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return "ok", f(x)
        except Exception as e:   # noqa: BLE001
            return "error", (_builtin_exc(type(e)), str(e))


@pytest.mark.parametrize("conv", list(CONVERSIONS))
@pytest.mark.parametrize("a", CONVERSION_ARRAYS,
                         ids=lambda a: f"{a.dtype}{list(a.shape)}")
def test_scalar_conversion(a, conv):
    f = CONVERSIONS[conv]
    kind, e = _conv_outcome(f, a)
    gkind, r = _conv_outcome(f, gp.asarray(a))
    if kind == "error":
        assert gkind == "error", f"NumPy raises {e[0].__name__}: {e[1]}; gnumpy gives {r!r}"
        assert r[0] is e[0], f"exception {r[0].__name__} ({r[1]}) != {e[0].__name__}"
        assert r[1] == e[1], "message differs from NumPy's"
        return
    assert gkind == "ok", f"NumPy gives {e!r}; gnumpy raises {r[0].__name__}: {r[1]}"
    if conv == "iter":
        assert len(r) == len(e)
        for ri, ei in zip(r, e):
            assert isinstance(ri, gp.ndarray)
            check(ri, np.asarray(ei))
        return
    assert type(r) is type(e), (type(r), type(e))
    if isinstance(e, float) and math.isnan(e):
        assert math.isnan(r)
    elif isinstance(e, complex) and (math.isnan(e.real) or math.isnan(e.imag)):
        assert repr(r) == repr(e)
    else:
        assert r == e
        if isinstance(e, float):
            assert math.copysign(1, r) == math.copysign(1, e)


def test_index_protocol_uses():
    seq = list(range(10))
    i = gp.asarray(np.array(3, np.int32))
    assert seq[i] == 3
    assert seq[gp.asarray(np.array(1, np.uint8)):i] == [1, 2]
    assert list(range(gp.asarray(np.array(4)))) == [0, 1, 2, 3]
    assert hex(gp.asarray(np.array(255, np.int64))) == "0xff"
    with pytest.raises(TypeError):
        seq[gp.asarray(np.array(1.0))]
    with pytest.raises(TypeError):
        seq[gp.asarray(np.array(True))]


def test_bool_in_control_flow():
    x = gp.asarray(np.array([1.0, 2.0]))
    assert bool((x > 0).all())
    if (x.sum() > 2):
        pass
    else:
        raise AssertionError("sum > 2 should be true")
    with pytest.raises(ValueError):
        if x > 0:
            pass
    with pytest.raises(ValueError):
        x and x
    assert not gp.asarray(np.array([0.0]))


# ---------------------------------------------------------------------- item / tolist

ITEM_ARRAYS = [np.array(v, dtype=dt) for dt, v in
               [(D.bool_, True), (D.int8, -5), (D.uint8, 250), (D.int16, -300),
                (D.uint16, 60000), (D.int32, -7), (D.uint32, 4000000000), (D.int64, -2**40),
                (D.uint64, 2**64 - 1), (D.float16, 0.1), (D.float32, 0.1), (D.float64, -0.0),
                (D.complex64, 1 + 2j), (D.complex128, -1.5j)]]


@pytest.mark.parametrize("a", ITEM_ARRAYS, ids=lambda a: str(a.dtype))
def test_item(a):
    g = gp.asarray(a)
    for x, y in ((g, a), (g.reshape(1), a.reshape(1)), (g.reshape(1, 1), a.reshape(1, 1))):
        r, e = x.item(), y.item()
        assert type(r) is type(e) and repr(r) == repr(e)
    b = np.stack([a, a, a]).reshape(3)
    gb = gp.asarray(b)
    for idx in (0, 2, -1):
        r, e = gb.item(idx), b.item(idx)
        assert type(r) is type(e) and repr(r) == repr(e)
    b2 = np.tile(a, (2, 3))
    assert repr(gp.asarray(b2).item(1, 2)) == repr(b2.item(1, 2))
    assert repr(gp.asarray(b2).item(4)) == repr(b2.item(4))
    with pytest.raises(ValueError) as ge:
        gb.item()
    with pytest.raises(ValueError) as ne:
        b.item()
    assert str(ge.value) == str(ne.value)
    with pytest.raises(IndexError):
        b.item(5)
    with pytest.raises(IndexError):
        gb.item(5)


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_tolist(dt):
    rng = np.random.default_rng(26)
    for shape in [(), (0,), (4,), (2, 3), (2, 0, 3), (2, 2, 2)]:
        a = sample(dt, shape, rng)
        r, e = gp.asarray(a).tolist(), a.tolist()
        assert repr(r) == repr(e)
        assert type(r) is type(e)
    a = sample(dt, (4, 5), rng)
    na, ga = strided_pair(a)
    assert repr(ga.tolist()) == repr(na.tolist())
    assert repr((ga.T).tolist()) == repr(na.T.tolist())


# ---------------------------------------------------------------------- repr / str

def _repr_cases(dt):
    rng = np.random.default_rng(27)
    cases = [sample(dt, (), rng), np.zeros((0,), dt), np.zeros((2, 0), dt),
             sample(dt, (5,), rng), sample(dt, (3, 4), rng), sample(dt, (2, 2, 3), rng),
             sample(dt, (2000,), rng), sample(dt, (40, 40), rng)]
    if np.dtype(dt).kind in "fc":
        with np.errstate(all="ignore"):      # 1e20 overflows float16
            cases.append(np.array([np.nan, np.inf, -np.inf, -0.0, 1e-20, 1e20], dtype=dt))
    return cases


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_repr_and_str(dt):
    for a in _repr_cases(dt):
        g = gp.asarray(a)
        assert repr(g) == repr(a)
        assert str(g) == str(a)
    a = sample(dt, (4, 6), np.random.default_rng(28))
    na, ga = strided_pair(a)
    assert repr(ga) == repr(na)
    assert repr(ga.T[::-1]) == repr(na.T[::-1])
    kind, e = _np_outcome(operator.add, a, a)
    if kind == "ok":                       # a pending lazy result prints its values
        assert repr(gp.asarray(a) + gp.asarray(a)) == repr(e)
        assert str(gp.asarray(a) + gp.asarray(a)) == str(e)


def test_repr_follows_numpy_printoptions():
    a = np.array([1.123456789, 2.0, np.pi])
    with np.printoptions(precision=3):
        assert repr(gp.asarray(a)) == repr(a)
        assert str(gp.asarray(a)) == str(a)
    with np.printoptions(threshold=5):
        b = np.arange(20)
        assert repr(gp.asarray(b)) == repr(b)


def test_format():
    a = np.array(1.23456)
    assert f"{gp.asarray(a):.3f}" == f"{a:.3f}"
    assert f"{gp.asarray(np.array(7, np.int8)):>4}" == f"{np.array(7, np.int8):>4}"
    b = np.arange(3.0)
    assert f"{gp.asarray(b)}" == f"{b}"
    with pytest.raises(TypeError):
        f"{b:.3f}"
    with pytest.raises(TypeError):
        f"{gp.asarray(b):.3f}"



def test_operators_come_from_the_op_table():
    """Every op-table row with a dunder is ndarray's Python operator (reflected and in-place
    too for arithmetic) computing that op, as NumPy's operator does."""
    from gnumpy._ops import EW_OPS
    rows = [r for r in EW_OPS.values() if r.dunder]
    assert len(rows) == 22
    a = np.array([[3, -2, 7], [5, 1, -4]], dtype=np.int64)
    b = np.array([[2, 3, 1], [1, 2, 3]], dtype=np.int64)

    def same(f):                # f(xp, x, y) on both libraries: values, or the error type
        try:
            want = f(np, a.copy(), b)
        except Exception as e:  # noqa: BLE001   (NumPy's own subclasses: their builtin base)
            base = next(t for t in type(e).__mro__ if t.__module__ == "builtins")
            with pytest.raises(base):
                f(gp, gp.asarray(a), gp.asarray(b))
            return
        check(f(gp, gp.asarray(a), gp.asarray(b)), want)

    for r in rows:
        names = [f"__{r.dunder}__"]
        if r.nin == 2 and r.out != "bool":
            names += [f"__r{r.dunder}__", f"__i{r.dunder}__"]
        for n in names:
            assert getattr(gp.ndarray, n).__name__ == r.name, n
        if r.nin == 1:
            same(lambda xp, x, y: getattr(x, names[0])())
            continue
        same(lambda xp, x, y: getattr(x, names[0])(y))
        if len(names) > 1:
            same(lambda xp, x, y: getattr(y, names[1])(x))
            same(lambda xp, x, y: getattr(x, names[2])(y))


BROADCAST_PAIRS = [((8, 1, 1, 4, 1), (1, 1, 4, 3)), ((3, 1), (4,)), ((1,), (5,)),
                   ((2, 1, 3), (1, 4, 1)), ((0, 1), (1, 3)), ((1, 0), (2, 1)),
                   ((1, 1), (1, 1, 1)), ((4,), (3, 1)), ((), (2, 3))]


@pytest.mark.parametrize("s1,s2", BROADCAST_PAIRS)
@pytest.mark.parametrize("layout", ["contiguous", "strided", "reversed", "lazy"])
def test_broadcast_operands_on_the_operator_hot_path(s1, s2, layout):
    """``a * b`` of arrays of two shapes that broadcast: the second call takes the
    operator hot path (``apply2``, whose cache the first call fills), where a leaf operand
    is broadcast by its strides (stride 0 on the stretched axes) and a cast one through a
    view.  Values against NumPy for contiguous, strided, reversed and lazy operands, both
    orders, one cast operand; a broadcast operand is a leaf with NumPy's broadcast strides
    (on axes longer than one)."""
    rng = np.random.default_rng(len(s1) * 7 + len(s2))
    for d1, d2 in ((np.float32, np.float32), (np.int64, np.int64), (np.float64, np.int32)):
        a = sample(d1, s1, rng)
        b = sample(d2, s2, rng)
        pairs = []
        for x in (a, b):
            if layout == "strided":
                pairs.append(strided_pair(x))
            elif layout == "reversed" and x.ndim:
                g = gp.asarray(x[::-1].copy())[::-1]
                pairs.append((x, g))
            elif layout == "lazy":      # an expression, broadcast as a view of its node
                pairs.append((x, gp.asarray(x) * 1))
            else:
                pairs.append((x, gp.asarray(x)))
        (na, ga), (nb, gb) = pairs
        want = na * nb
        for _ in range(2):
            check(ga * gb, want)
            check(gb * ga, nb * na)
    shape = np.broadcast_shapes(s1, s2)
    ga = gp.asarray(sample(np.float32, s1, rng))
    gb = gp.asarray(sample(np.float32, s2, rng))
    node = gp._api.elementwise.elementwise.apply2("multiply", ga, gb, True)
    assert node is not None and node.shape == shape
    want = np.broadcast_to(ga.get(), shape).strides
    src = node.srcs[0]
    assert src.kind == gp._graph.ir.LEAF
    assert len(src.strides) == len(shape)
    for n, got, w in zip(shape, src.strides, want):     # (a length-1 axis: any stride)
        assert n < 2 or got * 4 == w, (src.strides, want)


def _node_form(n):
    """A node's structure, sources included (LEAF: memory, layout; SCALAR: its value)."""
    if n.kind == gp._graph.ir.LEAF:
        return ("leaf", id(n.buf), n.dtype, n.shape, n.strides, n.offset)
    if n.kind == gp._graph.ir.SCALAR:
        return ("scalar", n.dtype, n.shape, repr(n.arg))
    return (n.kind, n.op, n.dtype, n.shape, n.size, tuple(_node_form(s) for s in n.srcs))


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.int8, np.uint8,
                                np.bool_, np.complex64])
def test_operator_node_is_apply2s(dt):
    """The operators build the loop statement's node themselves (two arrays of one shape
    and dtype, an array and a Python float or int, element copies read from memory):
    the same node ``apply2`` builds, and NumPy's values, for every binary operator in
    both orders; 0-d results are NumPy's scalars."""
    from gnumpy._api.elementwise.elementwise import apply2
    from gnumpy._ops import EW_OPS
    rng = np.random.default_rng(5)
    a = sample(dt, (3, 4), rng)
    b = sample(dt, (3, 4), rng)
    ga, gb = gp.asarray(a), gp.asarray(b)
    cases = [("arrays", ga, gb, a, b), ("lazy", ga * 1, gb[::-1][::-1], a * 1, b),
             ("elements", ga[1, 2], gb[2, 3], a[1, 2], b[2, 3]),
             ("element, 0-d", ga[1, 2], gp.asarray(b[0, 0]), a[1, 2], b[0, 0])]
    for s in (2.5, -3, 7, 300, 2**40):
        cases.append((f"scalar {s!r}", ga, s, a, s))
        cases.append((f"scalar {s!r} of an element", ga[0, 1], s, a[0, 1], s))
    for r in EW_OPS.values():
        if not r.dunder or r.nin != 2 or r.name == "power":
            continue
        f = getattr(operator, r.dunder, None) or getattr(operator, r.dunder + "_")
        for what, x, y, nx, ny in cases:
            orders = [(x, y, nx, ny, False)]
            if not isinstance(y, gp.ndarray):
                orders.append((y, x, ny, nx, True))     # reflected: the scalar on the left
            for p, q, np_p, np_q, reflected in orders:
                for _ in range(2):  # (the first call may fill the signature cache)
                    with np.errstate(all="ignore"), warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        try:
                            want = f(np_p, np_q)
                        except Exception as e:  # noqa: BLE001  (NumPy's error, raised
                            with pytest.raises(_builtin_exc(type(e))):  # by the general
                                f(p, q)                                 # path)
                            continue
                        got = f(p, q)
                    ref = apply2(r.name, p, q)    # (a comparison reflects by swapping)
                    if ref is not None and got._node.kind != gp._graph.ir.LEAF and \
                            not (reflected and r.out == "bool"):
                        assert _node_form(got._node) == _node_form(ref._node), \
                            (r.name, what, reflected)
                    check(got, want)
                    if not got.shape:
                        assert got._sc, (r.name, what)


def test_scalar_from_the_operator_at_the_scalar_bound():
    """A 0-d result of the operators' own path is NumPy's scalar also where the scalar
    chain bound materializes it: ``t += e`` then makes a new value, and what held the old
    one keeps it (NPBench go_fast's ``trace += tanh(a[i, i])``)."""
    rng = np.random.default_rng(2)
    a = rng.random((40, 40))
    ga = gp.asarray(a)
    with gp.config.override(max_scalar_graph_nodes=3, max_graph_nodes=64):
        for first in (0.0, 0.5, ga[0, 0] * 0.0):
            t, want, held = first, float(first), []
            for i in range(40):
                t = t + gp.tanh(ga[i, i]) * 1.0
                t += 0.25
                held.append(t)
                assert t._sc
            for i, h in enumerate(held):
                want = want + np.tanh(a[i, i]) * 1.0 + 0.25
                assert abs(float(h) - want) < 1e-12
