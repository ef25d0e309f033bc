"""The op table (gnumpy/_ops.py), pinned against NumPy: tests from a mutation run (issue 21,
mutmut over _ops.py) for what the elementwise, reduction, promotion and operator tests
left open.

* the IR ``power`` op on signed integers with negative exponents: the public API raises
  NumPy's ValueError before any such exponent reaches a kernel, so only an IR node built
  directly runs it; both backends define it as trunc(a ** b) (1 for a == 1, +-1 for
  a == -1 by the exponent's parity, 0 otherwise, 0 ** -n included: gn_power in
  kernels/gn_math.cuh and ``_np_int_power``);
* ``real``/``imag`` (the IR ops behind ``gp.real``/``gp.imag``) consumed inside the same
  fused group by an op that sees an imaginary part (``abs``, ``==``, a product): the value
  they hand on is real, not the complex input;
* argmax/argmin over all axes (a flat C-order index) and over one axis, with and without
  keepdims, for 1-d, 2-d and 3-d inputs, strided views, ties and NaN;
* the public names the table generates: every elementwise function NumPy has under that
  name exists with NumPy's arity, and the special rows (``ldexp``) keep their own
  function.
"""
import warnings

import numpy as np
import pytest

import gnumpy as gp
from gnumpy._api._common import wrap
from gnumpy._graph import ir

from helpers import check, pair, strided_pair

SIGNED = [np.int8, np.int16, np.int32, np.int64]
UNSIGNED = [np.uint8, np.uint16, np.uint32, np.uint64]


# ------------------------------------------------------------------ integer power, IR level
def _ir_power(ga, gb):
    """The IR power node of two gnumpy arrays of one dtype and shape (what a kernel runs
    when no API check stands before it)."""
    a, b = ga._node, gb._node
    return wrap(ir.ew("power", a.dtype, (a, b)))


def _trunc_power(a, b):
    """trunc(a ** b) for integer arrays, element by element in exact Python integers
    (wrapped into the dtype like NumPy's integer power); 0 ** -n is 0 (gnumpy's documented
    value where NumPy raises)."""
    dt = a.dtype
    out = []
    for x, e in zip(a.reshape(-1).tolist(), b.reshape(-1).tolist()):
        if e >= 0:
            out.append(x ** e)
        elif x == 0:
            out.append(0)
        else:
            # |x| >= 2: |x ** e| < 1, truncated to 0; x == +-1: exactly +-1
            out.append(int(x ** e) if abs(x) == 1 else 0)
    bits = dt.itemsize * 8
    wrapped = [((v + (1 << (bits - 1))) % (1 << bits)) - (1 << (bits - 1)) for v in out]
    return np.array(wrapped, dtype=dt).reshape(a.shape)


@pytest.mark.parametrize("dt", SIGNED, ids=lambda d: np.dtype(d).name)
def test_ir_integer_power_with_negative_exponents_truncates(dt):
    rng = np.random.default_rng(2101)
    n = 97
    a = rng.choice(np.array([-3, -2, -1, 0, 1, 2, 3, 5, -7], dtype=dt), n)
    b = rng.integers(-6, 7, n).astype(dt)
    # every base meets an odd and an even negative exponent, and a positive one
    a[:9], b[:9] = [-1, -1, 1, 1, 0, 2, -2, 3, -1], [-1, -2, -1, -4, -3, -1, -3, -2, -5]
    b[9] = 0
    e = _trunc_power(a, b)
    assert (e[b < 0] != 0).any() and (e[(b < 0) & (a == -1)] == -1).any()
    check(_ir_power(gp.asarray(a), gp.asarray(b)), e, exact=True)
    # as part of a fused chain, on a strided view of the exponents
    sb, gsb = strided_pair(b)
    check(_ir_power(gp.asarray(a), gsb) + gp.asarray(np.ones(n, dt)),
          (e + np.ones(n, dt)).astype(dt), exact=True)


@pytest.mark.parametrize("dt", SIGNED + UNSIGNED, ids=lambda d: np.dtype(d).name)
def test_ir_integer_power_without_negative_exponents_is_numpys(dt):
    rng = np.random.default_rng(2102)
    a = rng.integers(0, 9, (5, 7)).astype(dt)
    b = rng.integers(0, 9, (5, 7)).astype(dt)
    if np.dtype(dt).kind == "i":
        a[::2] = -a[::2]
    check(_ir_power(gp.asarray(a), gp.asarray(b)), np.power(a, b), exact=True)


@pytest.mark.parametrize("shape", [(), (0,), (3, 0)])
def test_ir_integer_power_negative_exponent_0d_and_empty(shape):
    a = np.full(shape, -1, np.int32)
    b = np.full(shape, -3, np.int32)
    check(_ir_power(gp.asarray(a), gp.asarray(b)), np.full(shape, -1, np.int32), exact=True)
    a2 = np.full(shape, 4, np.int64)
    check(_ir_power(gp.asarray(a2), gp.asarray(b.astype(np.int64))),
          np.zeros(shape, np.int64), exact=True)


def test_public_integer_power_still_raises_for_negative_exponents():
    x = gp.asarray(np.array([2, 3], np.int32))
    with pytest.raises(ValueError, match="negative integer powers"):
        np.power(np.array([2, 3], np.int32), np.array([1, -1], np.int32))
    with pytest.raises(ValueError, match="negative integer powers"):
        gp.power(x, gp.asarray(np.array([1, -1], np.int32)))
    # masked off by where=: NumPy does not look at them, neither does gnumpy
    o_np = np.zeros(2, np.int32)
    np.power(np.array([2, 3], np.int32), np.array([-1, 2], np.int32), out=o_np,
             where=np.array([False, True]))
    o = gp.zeros(2, np.int32)
    gp.power(x, gp.asarray(np.array([-1, 2], np.int32)), out=o,
             where=gp.asarray(np.array([False, True])))
    check(o, o_np, exact=True)


# ------------------------------------------------------------------ real / imag in fused groups
@pytest.mark.parametrize("dt", [np.complex64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_real_and_imag_hand_on_real_values_inside_a_fused_group(dt):
    rng = np.random.default_rng(2103)
    z = (rng.standard_normal(40) * 4 + 1j * rng.standard_normal(40) * 4).astype(dt)
    z[:6] = np.array([3j, -2j, 0j, -0.0 + 5j, complex(np.nan, 1), complex(2, np.inf)], dt)
    gz = gp.asarray(z)
    for f in (np.real, np.imag):
        g = getattr(gp, f.__name__)
        check(g(gz), f(z))
        check(gp.abs(g(gz)), np.abs(f(z)))
        check(g(gz) == 0, f(z) == 0)
        check(g(gz) * g(gz), f(z) * f(z))
        check(gp.sqrt(g(gz)), np.sqrt(f(z)))
        check(g(gz) < 0, f(z) < 0)
    vz, gvz = strided_pair(z.reshape(5, 8))
    check(gp.real(gvz) - gp.imag(gvz), np.real(vz) - np.imag(vz))
    # a reduction with the op as its prologue
    check(gp.sum(gp.abs(gp.real(gvz)), axis=1), np.sum(np.abs(np.real(vz)), axis=1),
          scale=float(np.nansum(np.abs(vz.real))))


@pytest.mark.parametrize("dt", [np.complex64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_real_and_imag_of_complex_warn_nothing(dt):
    # NumPy's real/imag select a part: no ComplexWarning (a complex value cast to real
    # somewhere on the way would raise one)
    z = (np.arange(6) - 2.5 + 1j * (np.arange(6) + 0.5)).astype(dt)
    gz = gp.asarray(z)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        e = (np.real(z), np.imag(z), np.abs(np.real(z)) + np.imag(z))
        r = (gp.real(gz), gp.imag(gz), gp.abs(gp.real(gz)) + gp.imag(gz))
        got = [x.get() for x in r]
    for a, b in zip(got, e):
        check(gp.asarray(a), b)


@pytest.mark.parametrize("dt", [np.bool_, np.int8, np.uint16, np.int64, np.float16,
                                np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_real_and_imag_of_real_inputs(dt):
    a, g = pair(dt, (4, 6), seed=2104)
    check(gp.real(g), np.real(a))
    check(gp.imag(g), np.imag(a))
    check(gp.imag(g) + gp.real(g), np.imag(a) + np.real(a))
    check(gp.sum(gp.imag(g), axis=0), np.sum(np.imag(a), axis=0))
    check(gp.real(g[0, 0]), np.real(a[0, 0]))
    check(gp.imag(g[0, 0]), np.imag(a[0, 0]))
    e = np.zeros((0, 3), dt)
    check(gp.imag(gp.asarray(e)), np.imag(e))


# ------------------------------------------------------------------ argmax / argmin
def _arg_cases(rng):
    yield rng.standard_normal(7)
    yield rng.standard_normal((4, 5))
    yield rng.standard_normal((3, 4, 5))
    yield rng.integers(-3, 3, (6, 5)).astype(np.int16)          # ties: the first one
    t = rng.standard_normal((3, 4, 2)).astype(np.float32)
    t[1, 2, 1] = np.nan                                       # NaN wins, the first one
    t[2, 0, 0] = np.nan
    yield t
    u = rng.standard_normal((5, 3))
    u[0, 1], u[4, 2] = np.inf, -np.inf
    yield u


@pytest.mark.parametrize("fn", ["argmax", "argmin"])
def test_argmax_argmin_over_all_and_single_axes(fn):
    rng = np.random.default_rng(2105)
    nf, gf = getattr(np, fn), getattr(gp, fn)
    for a in _arg_cases(rng):
        g = gp.asarray(a)
        for kw in ({}, {"keepdims": True}):
            check(gf(g, **kw), nf(a, **kw))
            for ax in range(-a.ndim, a.ndim):
                check(gf(g, axis=ax, **kw), nf(a, axis=ax, **kw))
        va, vg = strided_pair(a)
        check(gf(vg), nf(va))
        check(gf(vg.T, keepdims=True), nf(va.T, keepdims=True))
        check(getattr(vg, fn)(axis=0), getattr(va, fn)(axis=0))


@pytest.mark.parametrize("fn", ["argmax", "argmin"])
def test_argmax_argmin_with_a_fused_prologue_and_epilogue(fn):
    rng = np.random.default_rng(2106)
    nf, gf = getattr(np, fn), getattr(gp, fn)
    a = rng.standard_normal((6, 7))
    b = rng.standard_normal((6, 7))
    ga, gb = gp.asarray(a), gp.asarray(b)
    check(gf((ga - gb) ** 2), nf((a - b) ** 2))
    check(gf((ga - gb) ** 2, axis=1, keepdims=True) + 1, nf((a - b) ** 2, axis=1,
                                                              keepdims=True) + 1)
    check(gf(ga * gb, keepdims=True) * 2, nf(a * b, keepdims=True) * 2)


def test_argmax_argmin_errors_on_empty():
    a = np.zeros((0, 3))
    for fn in ("argmax", "argmin"):
        with pytest.raises(ValueError):
            getattr(np, fn)(a)
        with pytest.raises(ValueError):
            getattr(gp, fn)(gp.asarray(a))
        with pytest.raises(ValueError):
            getattr(gp, fn)(gp.asarray(a), axis=0)
        check(getattr(gp, fn)(gp.asarray(a), axis=1), getattr(np, fn)(a, axis=1))


# ------------------------------------------------------------------ the generated names
_NUMPY_EW = ["add", "subtract", "multiply", "divide", "true_divide", "floor_divide",
             "remainder", "mod", "fmod", "power", "float_power", "negative", "positive",
             "absolute", "fabs", "sign", "square", "reciprocal", "conjugate", "conj",
             "maximum", "minimum", "fmax", "fmin", "heaviside", "gcd", "lcm", "sqrt", "cbrt",
             "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logaddexp",
             "logaddexp2", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2",
             "hypot", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "deg2rad",
             "rad2deg", "radians", "degrees", "floor", "ceil", "trunc", "rint", "copysign",
             "nextafter", "spacing", "signbit", "isfinite", "isinf", "isnan", "equal",
             "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
             "logical_or", "logical_xor", "logical_not", "bitwise_and", "bitwise_or",
             "bitwise_xor", "invert", "bitwise_invert", "bitwise_not", "left_shift",
             "right_shift", "bitwise_left_shift", "bitwise_right_shift", "bitwise_count",
             "abs", "pow", "asin", "acos", "atan", "atan2", "asinh", "acosh", "atanh"]


@pytest.mark.parametrize("name", _NUMPY_EW)
def test_every_numpy_elementwise_name_is_a_gnumpy_ufunc_like_numpys(name):
    n, g = getattr(np, name), getattr(gp, name)
    assert g.nin == n.nin
    # (NumPy's radians/degrees are ufuncs of their own names; gnumpy's are its deg2rad and
    # rad2deg objects)
    assert g.__name__ == {"radians": "deg2rad", "degrees": "rad2deg"}.get(name, n.__name__)
    rng = np.random.default_rng(2107)
    dt = np.int32 if name in ("gcd", "lcm", "left_shift", "right_shift", "bitwise_left_shift",
                              "bitwise_right_shift", "bitwise_count", "bitwise_and",
                              "bitwise_or", "bitwise_xor", "invert", "bitwise_invert",
                              "bitwise_not") else np.float64
    args = []
    for i in range(n.nin):
        v = rng.integers(0, 5, 6).astype(dt) if dt == np.int32 else \
            rng.uniform(0.1, 0.9, 6)
        args.append(v)
    check(g(*[gp.asarray(v) for v in args]), n(*args))


def test_the_special_rows_keep_their_own_functions():
    # ldexp takes an integer exponent (NumPy has no float-float loop): the table row is
    # marked special and the public name is the hand-written function
    rng = np.random.default_rng(2108)
    x = rng.standard_normal(9)
    x[:4] = [np.inf, -0.0, np.nan, 0.0]
    e = rng.integers(-5, 6, 9).astype(np.int32)
    check(gp.ldexp(gp.asarray(x), gp.asarray(e)), np.ldexp(x, e))
    check(gp.ldexp(gp.asarray(x.astype(np.float32)), 3), np.ldexp(x.astype(np.float32), 3))
    assert not isinstance(gp.ldexp, type(gp.add))
    for internal in ("modf_frac", "frexp_mant", "frexp_exp"):
        assert not hasattr(gp, internal)
    m, ex = gp.frexp(gp.asarray(x))
    check((m, ex), np.frexp(x))
    check(gp.modf(gp.asarray(x)), np.modf(x))


# ------------------------------------------------------------------ ufunc.reduce of logical ops
@pytest.mark.parametrize("dt", [np.bool_, np.int8, np.uint32, np.float32, np.float64,
                                np.complex64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", ["logical_and", "logical_or"])
def test_logical_ufunc_reduce_is_all_and_any(name, dt):
    # the rows' reduce_op: logical_and.reduce is all, logical_or.reduce is any (NaN and
    # -0.0 among the inputs: NaN is true, -0.0 false)
    rng = np.random.default_rng(2109)
    a = rng.integers(0, 2, (4, 5, 3)).astype(dt)
    a[1] = 1
    a[2, :, 0] = 0
    if np.dtype(dt).kind in "fc":
        a[0, 0, 0], a[3, 1, 1], a[2, 2, 2] = np.nan, -0.0, 0.5
    ga = gp.asarray(a)
    nf, gf = getattr(np, name), getattr(gp, name)
    for kw in ({}, {"axis": 1}, {"axis": -1}, {"axis": None}, {"axis": (0, 2)},
               {"axis": 2, "keepdims": True}):
        check(gf.reduce(ga, **kw), nf.reduce(a, **kw))
    e = np.zeros((0, 3), dt)
    check(gf.reduce(gp.asarray(e)), nf.reduce(e))           # the identity
    check(gf.reduce(gp.asarray(e), axis=1), nf.reduce(e, axis=1))


def test_ufunc_types_are_numpys_loops():
    """``ufunc.types`` lists each loop with the output the op table gives it ('?' for
    comparisons and predicates, the real type of ``absolute``'s complex loops, 'B' for
    ``bitwise_count``): every entry is one of NumPy's loops of that ufunc."""
    names = [n for n in dir(np) if isinstance(getattr(np, n), np.ufunc) and
             isinstance(getattr(gp, n, None), gp.ufunc)]
    assert len(names) > 60
    for n in names:
        ours, theirs = getattr(gp, n).types, set(getattr(np, n).types)
        assert ours and all(t in theirs for t in ours), (n, [t for t in ours
                                                             if t not in theirs])


# ------------------------------------------------------------------ the reference implementations
# The table's np_impl is the reference meaning of each op (the CPU backend runs it, and
# casts a result of another dtype back to the node's, broadcasting a smaller shape where it
# is used): so it must itself give NumPy's dtype and shape, not lean on that cast.
@pytest.mark.parametrize("dt", [np.bool_, np.int8, np.uint16, np.int64, np.float16,
                                np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_imag_of_a_real_array_is_numpys_zeros(dt):
    from gnumpy._ops import EW_OPS
    x = np.arange(12).reshape(3, 4).astype(dt)
    r = EW_OPS["imag"].np_impl(x)
    want = np.imag(x)
    assert r.dtype == want.dtype == x.dtype and r.shape == want.shape == (3, 4)
    np.testing.assert_array_equal(r, want)


@pytest.mark.parametrize("dt", SIGNED, ids=lambda d: np.dtype(d).name)
def test_integer_power_with_negative_exponents_keeps_the_dtype(dt):
    """gn_power's truncated values (1, -1 by parity, 0) for negative exponents, in the
    sources' integer dtype (an object array holding them would be another result)."""
    from gnumpy._ops import EW_OPS
    a = np.array([[1, -1, -1, 2], [0, 3, -2, 5]], dt)
    b = np.array([[-1, -2, -3, -1], [-4, 2, -1, 0]], dt)
    r = EW_OPS["power"].np_impl(a, b)
    assert r.dtype == np.dtype(dt) and r.shape == (2, 4)
    np.testing.assert_array_equal(r, _trunc_power(a, b))


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 4)])
def test_argreduce_over_all_axes_with_keepdims_is_numpys_shape(name, shape):
    from gnumpy._ops import REDUCE_OPS
    x = np.random.default_rng(2104).standard_normal(shape)
    f = getattr(np, name)
    axes = tuple(range(len(shape)))
    r = REDUCE_OPS[name].np_impl(x, axis=axes, keepdims=True)
    want = f(x, axis=None, keepdims=True)
    assert r.shape == want.shape == (1,) * len(shape) and r.dtype == want.dtype
    np.testing.assert_array_equal(r, want)
    r = REDUCE_OPS[name].np_impl(x, axis=axes, keepdims=False)
    assert np.ndim(r) == 0 and r == f(x)
