"""Type promotion, casting and dtype inspection, checked against NumPy 2 (NEP 50).

``result_type`` over every pair of gnumpy's 14 dtypes, every dtype with every kind of
Python scalar (weak) in both orders, pairs of Python scalars and a sample of triples;
``can_cast`` over all pairs and casting modes; ``isdtype``, ``finfo`` and ``iinfo``; and the
result dtype of every elementwise op in the op table for every dtype (unary) or dtype pair
(binary), with and without Python-scalar operands, including NumPy's TypeErrors and
OverflowErrors and NumPy 2's constant comparisons with out-of-range Python ints.
"""
import itertools
import warnings

import numpy as np
import pytest

import gnumpy as gp
from gnumpy import _dtypes as D
from gnumpy._ops import EW_OPS, INTERNAL_EW
from helpers import assert_close, check

DTYPES = list(D.ALL)
INT_DTYPES = list(D.SIGNED + D.UNSIGNED)
SCALARS = [True, 1, 1.0, 1j]
SCALAR_IDS = ["True", "1", "1.0", "1j"]
CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]


def _id(x):
    if isinstance(x, np.dtype):
        return str(x)
    return repr(x)


def _pair_id(p):
    return f"{p[0]}-{p[1]}"


PAIRS = list(itertools.product(DTYPES, DTYPES))


def _builtin_exc(t):
    """The builtin exception class NumPy's exception type derives from (NumPy raises
    private subclasses such as UFuncTypeError / _UFuncNoLoopError of TypeError)."""
    for c in t.__mro__:
        if c.__module__ == "builtins":
            return c
    return t


def _outcome(f, *args):
    """('ok', value) or ('error', builtin exception type) of f(*args), warnings off."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return "ok", f(*args)
        except Exception as e:   # noqa: BLE001 - we compare exception types against NumPy
            return "error", _builtin_exc(type(e))


# ---------------------------------------------------------------------- result_type

@pytest.mark.parametrize("pair", PAIRS, ids=_pair_id)
def test_result_type_dtype_pairs(pair):
    a, b = pair
    expected = np.result_type(a, b)
    assert gp.result_type(a, b) == expected
    # scalar types and strings name the same dtypes
    assert gp.result_type(a.type, b.type) == expected
    assert gp.result_type(a.name, b.name) == expected


@pytest.mark.parametrize("pair", PAIRS, ids=_pair_id)
def test_result_type_accepts_arrays(pair):
    a, b = pair
    xa = gp.asarray(np.ones(2, a))
    xb = gp.asarray(np.ones((), b))
    expected = np.result_type(a, b)
    assert gp.result_type(xa, xb) == expected
    assert gp.result_type(xa, b) == expected
    assert gp.result_type(a, xb) == expected
    # numpy arrays (strong, whatever their values) too
    assert gp.result_type(np.ones(2, a), xb) == expected


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_result_type_single(dt):
    assert gp.result_type(dt) == np.result_type(dt)
    assert gp.result_type(gp.asarray(np.zeros(3, dt))) == dt


@pytest.mark.parametrize("scalar", SCALARS, ids=SCALAR_IDS)
@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_result_type_weak_python_scalar(dt, scalar):
    assert gp.result_type(dt, scalar) == np.result_type(dt, scalar)
    assert gp.result_type(scalar, dt) == np.result_type(scalar, dt)
    x = gp.asarray(np.ones(2, dt))
    assert gp.result_type(x, scalar) == np.result_type(dt, scalar)
    assert gp.result_type(scalar, x) == np.result_type(scalar, dt)


@pytest.mark.parametrize("dt", INT_DTYPES, ids=str)
def test_result_type_weak_int_is_not_value_based(dt):
    # NEP 50: result_type does not look at the value of a Python int
    for v in (300, -1, 2**63, -(2**63)):
        assert gp.result_type(dt, v) == np.result_type(dt, v)


@pytest.mark.parametrize("pair", list(itertools.product(SCALARS, SCALARS)),
                         ids=lambda p: f"{p[0]!r}-{p[1]!r}")
def test_result_type_python_scalar_pairs(pair):
    a, b = pair
    assert gp.result_type(a, b) == np.result_type(a, b)
    assert gp.result_type(a) == np.result_type(a)


def _triples():
    rng = np.random.default_rng(1234)
    pool = DTYPES + SCALARS
    out = set()
    while len(out) < 300:
        i, j, k = rng.integers(0, len(pool), 3)
        out.add((i, j, k))
    return [tuple(pool[t] for t in trip) for trip in sorted(out)]


@pytest.mark.parametrize("trip", _triples(), ids=lambda t: "-".join(_id(x) for x in t))
def test_result_type_triples(trip):
    assert gp.result_type(*trip) == np.result_type(*trip)


def test_result_type_many_dtypes():
    rng = np.random.default_rng(7)
    for _ in range(50):
        n = int(rng.integers(4, 9))
        args = [DTYPES[i] if i < len(DTYPES) else SCALARS[i - len(DTYPES)]
                for i in rng.integers(0, len(DTYPES) + len(SCALARS), n)]
        assert gp.result_type(*args) == np.result_type(*args), args


def test_result_type_requires_an_argument():
    with pytest.raises((ValueError, TypeError)):
        np.result_type()
    with pytest.raises((ValueError, TypeError)):
        gp.result_type()


def test_dtype_objects_are_numpys():
    for dt in DTYPES:
        assert getattr(gp, dt.name if dt.name != "bool" else "bool_") is dt.type
        x = gp.asarray(np.ones(1, dt))
        assert x.dtype == dt and x.dtype == dt.type
    assert gp.float32(3) == np.float32(3)
    assert type(gp.float32(3)) is np.float32


# ---------------------------------------------------------------------- can_cast

@pytest.mark.parametrize("casting", CASTINGS)
@pytest.mark.parametrize("pair", PAIRS, ids=_pair_id)
def test_can_cast(pair, casting):
    a, b = pair
    expected = np.can_cast(a, b, casting=casting)
    assert gp.can_cast(a, b, casting=casting) == expected
    assert gp.can_cast(gp.asarray(np.ones(2, a)), b, casting=casting) == expected


@pytest.mark.parametrize("pair", PAIRS, ids=_pair_id)
def test_can_cast_default_is_safe(pair):
    a, b = pair
    assert gp.can_cast(a, b) == np.can_cast(a, b)
    assert gp.can_cast(a.type, b.name) == np.can_cast(a.type, b.name)


@pytest.mark.parametrize("scalar", SCALARS, ids=SCALAR_IDS)
def test_can_cast_python_scalar_raises(scalar):
    with pytest.raises(TypeError):
        np.can_cast(scalar, np.float64)
    with pytest.raises(TypeError):
        gp.can_cast(scalar, np.float64)


def test_can_cast_bad_casting_mode():
    with pytest.raises(ValueError):
        np.can_cast(np.int8, np.int16, casting="bogus")
    with pytest.raises(ValueError):
        gp.can_cast(gp.int8, gp.int16, casting="bogus")
    # NumPy: "kind argument is a string, but 'bogus kind' is not a known kind name."
    with pytest.raises(ValueError, match=r"^unknown dtype kind 'bogus kind'$"):
        gp.isdtype(gp.int8, "bogus kind")


# ---------------------------------------------------------------------- isdtype

KIND_NAMES = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
              "complex floating", "numeric"]


@pytest.mark.parametrize("kind", KIND_NAMES)
@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_isdtype_kind_names(dt, kind):
    assert gp.isdtype(dt, kind) == np.isdtype(dt, kind)


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_isdtype_dtypes_and_tuples(dt):
    for other in DTYPES:
        assert gp.isdtype(dt, other) == np.isdtype(dt, other), other
    for kinds in itertools.combinations(KIND_NAMES, 2):
        assert gp.isdtype(dt, kinds) == np.isdtype(dt, kinds), kinds
    mixed = ("bool", np.dtype(np.float32), "complex floating")
    assert gp.isdtype(dt, mixed) == np.isdtype(dt, mixed)
    assert gp.isdtype(dt, ()) == np.isdtype(dt, ())


@pytest.mark.parametrize("kind", ["floating", "integer", "float", "complex", "Bool"])
def test_isdtype_unknown_kind_raises_valueerror(kind):
    with pytest.raises(ValueError):
        np.isdtype(np.float64, kind)
    with pytest.raises(ValueError):
        gp.isdtype(gp.float64, kind)


def test_isdtype_rejects_arrays():
    with pytest.raises(TypeError):
        np.isdtype(np.ones(2), "bool")
    with pytest.raises(TypeError):
        gp.isdtype(gp.asarray(np.ones(2)), "bool")


# ---------------------------------------------------------------------- finfo / iinfo

FINFO_ATTRS = ["bits", "eps", "max", "min", "smallest_normal", "dtype", "resolution",
               "tiny"]


@pytest.mark.parametrize("dt", list(D.FLOATS + D.COMPLEX), ids=str)
def test_finfo(dt):
    e = np.finfo(dt)
    for arg in (dt, dt.type, gp.asarray(np.ones(3, dt))):
        f = gp.finfo(arg)
        for attr in FINFO_ATTRS:
            # (values compare equal; gnumpy may return Python floats, as the Array API asks)
            assert getattr(f, attr) == getattr(e, attr), attr


@pytest.mark.parametrize("dt", INT_DTYPES, ids=str)
def test_iinfo(dt):
    e = np.iinfo(dt)
    for arg in (dt, dt.type, gp.asarray(np.ones(3, dt))):
        i = gp.iinfo(arg)
        for attr in ("bits", "max", "min", "dtype"):
            assert getattr(i, attr) == getattr(e, attr), attr


@pytest.mark.parametrize("dt", [D.bool_] + INT_DTYPES, ids=str)
def test_finfo_rejects_non_inexact(dt):
    with pytest.raises(ValueError):
        np.finfo(dt)
    with pytest.raises(ValueError):
        gp.finfo(dt)


@pytest.mark.parametrize("dt", [D.bool_] + list(D.FLOATS + D.COMPLEX), ids=str)
def test_iinfo_rejects_non_integer(dt):
    with pytest.raises(ValueError):
        np.iinfo(dt)
    with pytest.raises(ValueError):
        gp.iinfo(dt)


# ---------------------------------------------------------------------- op result dtypes

def _np_func(name):
    if name in ("real", "imag"):
        return getattr(np, name)
    f = getattr(np, name, None)
    return f if isinstance(f, np.ufunc) else None


OPS = [name for name in EW_OPS if name not in INTERNAL_EW and _np_func(name) is not None]
UNARY = [n for n in OPS if EW_OPS[n].nin == 1]
BINARY = [n for n in OPS if EW_OPS[n].nin == 2]


def test_every_public_table_op_is_covered():
    missing = [n for n in EW_OPS if n not in INTERNAL_EW and n not in OPS]
    assert missing == [], f"op rows without a same-named numpy ufunc: {missing}"


def _desc(a):
    if isinstance(a, np.ndarray):
        return f"{a.dtype} array"
    if isinstance(a, np.generic):
        return f"np.{type(a).__name__}({a})"
    return repr(a)


def _compare_call(name, np_args, gp_args):
    """gnumpy's result dtype (or error type) for op `name` equals NumPy's."""
    kind, val = _outcome(_np_func(name), *np_args)
    gf = getattr(gp, name)
    where = f"{name}({', '.join(_desc(a) for a in np_args)})"
    if kind == "error":
        before = gp.stats.groups
        try:
            r = gf(*gp_args)
        except val:
            assert gp.stats.groups == before, f"{where}: raised only after evaluating"
            return
        except Exception as e:   # noqa: BLE001
            raise AssertionError(f"{where}: NumPy raises {val.__name__}, gnumpy "
                                 f"{type(e).__name__}: {e}") from None
        raise AssertionError(f"{where}: NumPy raises {val.__name__}, gnumpy returns "
                             f"{r.dtype}")
    try:
        r = gf(*gp_args)
    except Exception as e:   # noqa: BLE001
        raise AssertionError(f"{where}: NumPy gives {np.asarray(val).dtype}, gnumpy raises "
                             f"{type(e).__name__}: {e}") from None
    assert isinstance(r, gp.ndarray), type(r)
    assert r.dtype == np.asarray(val).dtype, \
        f"{where}: gnumpy {r.dtype}, NumPy {np.asarray(val).dtype}"
    assert r.shape == np.asarray(val).shape


@pytest.mark.parametrize("dt", DTYPES, ids=str)
@pytest.mark.parametrize("name", UNARY)
def test_unary_result_dtype(name, dt):
    a = np.ones(2, dt)
    _compare_call(name, (a,), (gp.asarray(a),))


@pytest.mark.parametrize("name", BINARY)
def test_binary_result_dtype_all_pairs(name):
    failures = []
    for a_dt, b_dt in PAIRS:
        a, b = np.ones(2, a_dt), np.ones(2, b_dt)
        try:
            _compare_call(name, (a, b), (gp.asarray(a), gp.asarray(b)))
        except AssertionError as e:
            failures.append(str(e).splitlines()[0])
    assert not failures, f"{len(failures)} pairs differ:\n" + "\n".join(failures[:30])


@pytest.mark.parametrize("name", BINARY)
def test_binary_result_dtype_with_python_scalars(name):
    failures = []
    for dt in DTYPES:
        a = np.ones(2, dt)
        for s in SCALARS:
            for np_args, gp_args in (((a, s), (gp.asarray(a), s)), ((s, a), (s, gp.asarray(a)))):
                try:
                    _compare_call(name, np_args, gp_args)
                except AssertionError as e:
                    failures.append(str(e).splitlines()[0])
    assert not failures, f"{len(failures)} cases differ:\n" + "\n".join(failures[:30])


@pytest.mark.parametrize("name", BINARY)
def test_binary_result_dtype_with_numpy_scalars(name):
    # NumPy scalars are strong: they promote like 0-d arrays
    failures = []
    for a_dt, b_dt in [(D.int8, D.int64), (D.uint8, D.int16), (D.float32, D.float64),
                       (D.float16, D.int32), (D.bool_, D.float32), (D.int32, D.complex64),
                       (D.uint64, D.int64), (D.float32, D.complex128)]:
        a = np.ones(2, a_dt)
        s = b_dt.type(1)
        for np_args, gp_args in (((a, s), (gp.asarray(a), s)), ((s, a), (s, gp.asarray(a)))):
            try:
                _compare_call(name, np_args, gp_args)
            except AssertionError as e:
                failures.append(str(e).splitlines()[0])
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("name", BINARY)
def test_binary_python_scalars_only(name):
    failures = []
    for a, b in itertools.product(SCALARS, SCALARS):
        try:
            _compare_call(name, (a, b), (a, b))
        except AssertionError as e:
            failures.append(str(e).splitlines()[0])
    assert not failures, "\n".join(failures)


# ---------------------------------------------------------------------- out-of-range ints

def _out_of_range(dt):
    info = np.iinfo(dt)
    return [int(info.max) + 1, int(info.min) - 1, 2**64, -(2**64)]


@pytest.mark.parametrize("dt", INT_DTYPES, ids=str)
@pytest.mark.parametrize("name", BINARY)
def test_out_of_range_python_int(name, dt):
    a = np.array([0, 1, int(np.iinfo(dt).max)], dtype=dt)
    g = gp.asarray(a)
    f = getattr(gp, name)
    failures = []
    for v in _out_of_range(dt):
        for np_args, gp_args in (((a, v), (g, v)), ((v, a), (v, g))):
            try:
                _compare_call(name, np_args, gp_args)
            except AssertionError as e:
                failures.append(str(e).splitlines()[0])
                continue
            kind, val = _outcome(_np_func(name), *np_args)
            if kind == "ok":
                got = f(*gp_args).get()
                # the dtype's tolerance from the one table (transcendentals: a few ulp on
                # GPUs); exact for integer and bool results
                assert got.dtype == np.asarray(val).dtype, repr(np_args)
                assert_close(got, val, err_msg=repr(np_args))
    assert not failures, "\n".join(failures)


def test_out_of_range_examples():
    u8 = gp.asarray(np.array([0, 5, 255], dtype=np.uint8))
    i8 = gp.asarray(np.array([-128, 0, 127], dtype=np.int8))
    with pytest.raises(OverflowError):
        u8 + 300
    with pytest.raises(OverflowError):
        i8 + -129
    with pytest.raises(OverflowError):
        -129 + i8
    with pytest.raises(OverflowError):
        u8 * -1
    assert (u8 < 300).dtype == np.bool_
    np.testing.assert_array_equal((u8 < 300).get(), [True, True, True])
    np.testing.assert_array_equal((u8 == -1).get(), [False, False, False])
    np.testing.assert_array_equal((u8 != -1).get(), [True, True, True])
    np.testing.assert_array_equal((u8 > -1).get(), [True, True, True])
    np.testing.assert_array_equal((300 > u8).get(), [True, True, True])
    np.testing.assert_array_equal((i8 >= 128).get(), [False, False, False])
    np.testing.assert_array_equal((i8 <= -129).get(), [False, False, False])
    # in range values behave normally
    np.testing.assert_array_equal((u8 + 255).get(), np.array([0, 5, 255], np.uint8) + 255)


def test_weak_float_and_complex_keep_float_precision():
    x = gp.asarray(np.ones(2, np.float16))
    assert (x + 1e10).dtype == np.float16            # overflows to inf, like NumPy
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal((x + 1e10).get(), np.ones(2, np.float16) + 1e10)
    assert (x * 1j).dtype == np.complex64
    assert (gp.asarray(np.ones(2, np.float32)) * 1j).dtype == np.complex64
    assert (gp.asarray(np.ones(2, np.int8)) * 1j).dtype == np.complex128
    assert (gp.asarray(np.ones(2, np.uint64)) + 1.0).dtype == np.float64


# ---------------------------------------------------------------------- the lattice itself
# (tests added from a mutation run, issue 21: promotion is a table built at import from
# _promote_pair, so a wrong branch of _promote_pair is only seen by checking the function)

def _msg(e):
    return " ".join(str(e.value).split())


def test_promotion_lattice_function_and_table_match_numpy():
    def same(got, want):
        # isinstance first: NumPy compares None equal to float64 (np.dtype(None))
        return isinstance(got, np.dtype) and got == want

    for a, b in PAIRS:
        want = np.promote_types(a, b)
        assert same(D._promote_pair(a, b), want), (a, b)
        assert same(D._TABLE[(a, b)], want), (a, b)
    for size, dt in ((1, np.int8), (2, np.int16), (4, np.int32), (8, np.int64)):
        assert same(D._signed_of_size(size), dt)
    assert D._signed_of_size(16) is None
    for dt in [np.dtype(np.bool_)] + INT_DTYPES:
        assert same(D._float_for_int(dt), np.promote_types(dt, np.float16)), dt


def test_dtype_helpers_and_messages_match_numpy():
    assert D.real_dtype(np.dtype(np.complex128)) == np.float64
    assert D.real_dtype(np.dtype(np.complex64)) == np.float32
    assert D.real_dtype(np.dtype(np.int16)) == np.int16
    for bad, exc in ((lambda m: m.result_type(), ValueError),
                     (lambda m: m.can_cast(1, m.int8), TypeError),
                     (lambda m: m.can_cast(1.0, m.float32), TypeError)):
        with pytest.raises(exc) as e:
            bad(np)
        with pytest.raises(exc) as g:
            bad(gp)
        # NumPy's can_cast message goes on about NEP 50: gnumpy's is its first sentence
        assert _msg(e).startswith(_msg(g)) and len(_msg(g)) > 20, (_msg(g), _msg(e))
    # NumPy 2.4 says "... 'same_kind', 'unsafe' (got 'bogus')": gnumpy's older wording
    # (a known difference, gnumpy/_dtypes.py can_cast)
    with pytest.raises(ValueError, match=r"^casting must be one of 'no', 'equiv', 'safe', "
                                         r"'same_kind', or 'unsafe'$"):
        gp.can_cast(gp.int8, gp.int16, casting="bogus")
    # NumPy: "kind argument is a string, but 'bogus kind' is not a known kind name."
    with pytest.raises(ValueError, match=r"^unknown dtype kind 'bogus kind'$"):
        gp.isdtype(gp.int8, "bogus kind")
    with pytest.raises(TypeError) as g:
        gp.isdtype(gp.asarray([1]), "integral")
    assert "isdtype() expects a dtype" in str(g.value)
    with pytest.raises(TypeError) as g:
        D.to_dtype("not a dtype")
    assert "not a dtype" in str(g.value)
    # gnumpy's own messages (no NumPy counterpart)
    with pytest.raises(TypeError, match=r"^dtype must not be None here$"):
        D.to_dtype(None)
    with pytest.raises(TypeError, match=r"^gnumpy does not support dtype <U1$"):
        D.to_dtype("U1")
    with pytest.raises(TypeError, match=r"^isdtype\(\) expects a dtype, not ndarray$"):
        gp.isdtype(gp.asarray([1]), "integral")
    with pytest.raises(ValueError, match=r"^data type int8 not inexact$"):
        gp.finfo(gp.int8)
    with pytest.raises(ValueError, match=r"^Invalid integer data type 'f'.$"):
        gp.iinfo(gp.float32)
    with pytest.raises(OverflowError, match=r"^Python integer 128 out of bounds for int8$"):
        D.check_weak_int(128, np.dtype(np.int8))
    # dtype-likes that are not dtypes, and non-native byte order
    assert gp.isdtype(np.int8, "integral") and not gp.isdtype(np.float32, "integral")
    for like, want in ((">f8", np.float64), ("<i4", np.int32), (">c8", np.complex64),
                       (np.dtype(">u2"), np.uint16)):
        got = D.to_dtype(like)
        assert got == want and got.isnative and got is D.to_dtype(want), like


@pytest.mark.parametrize("dt", INT_DTYPES, ids=str)
def test_python_int_at_the_bounds_is_accepted(dt):
    # NEP 50: exactly the dtype's min and max fit; one past raises OverflowError
    lo, hi = int(np.iinfo(dt).min), int(np.iinfo(dt).max)
    g = gp.asarray(np.zeros(2, dt))
    for v in (lo, hi):
        assert (g + v).dtype == dt
        D.check_weak_int(v, np.dtype(dt))
    for v in (lo - 1, hi + 1):
        with pytest.raises(OverflowError):
            D.check_weak_int(v, np.dtype(dt))


def test_finfo_passes_other_attributes_and_repr_through_to_numpys():
    for dt in (np.float16, np.float32, np.float64, np.complex64):
        f, e = gp.finfo(dt), np.finfo(dt)
        for attr in ("precision", "nmant", "maxexp", "minexp", "iexp"):
            assert getattr(f, attr) == getattr(e, attr), attr
        assert repr(f) == repr(e)


def _complex_warnings(f):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        f()
    return w


@pytest.mark.parametrize("dst", [np.float32, np.float64, np.int32, np.uint8, np.bool_],
                         ids=lambda d: d.__name__)
@pytest.mark.parametrize("src", [np.complex64, np.complex128, np.float64, np.int64],
                         ids=lambda d: d.__name__)
def test_complex_to_real_cast_warns_as_numpy(src, dst):
    """astype from complex to a real dtype (not bool) gives NumPy's ComplexWarning, with
    its message, attributed to the caller's line (not to a frame inside gnumpy); no other
    cast warns.  (The function: the method ``x.astype`` adds a frame of its own.)"""
    import os
    a = np.arange(3).astype(src)
    want = _complex_warnings(lambda: np.astype(a, dst))
    got = _complex_warnings(lambda: gp.astype(gp.asarray(a), dst))
    assert [(w.category, str(w.message)) for w in got] == \
        [(w.category, str(w.message)) for w in want]
    pkg = os.path.dirname(os.path.abspath(gp.__file__)) + os.sep
    for w in got:
        assert not os.path.abspath(w.filename).startswith(pkg), w.filename


@pytest.mark.parametrize("dt", [np.float32, np.float64], ids=str)
def test_nanmean_accumulates_in_numpys_precision(dt):
    """nanmean / nanvar sum (value, count) pairs packed in a complex of the real compute
    dtype: float32 sums in float32 (NumPy's rounding), float64 in float64."""
    big = 2.0 ** 24 if dt == np.float32 else 2.0 ** 53
    a = np.array([big, 1, 1, np.nan], dt)
    g = gp.asarray(a)
    for f in ("nanmean", "nanvar"):
        r, e = getattr(gp, f)(g).get(), getattr(np, f)(a)
        assert r.dtype == e.dtype and r == e, (f, r, e)


def test_complex_to_real_astype_warns_at_the_callers_line():
    """The method and the function name the caller's line, as NumPy's astype does."""
    import warnings
    x = gp.asarray(np.array([1 + 2j, -0.5j]))
    for cast in (lambda: x.astype(np.float32), lambda: gp.astype(x, np.float64)):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = cast()
        assert [m.category for m in w] == [np.exceptions.ComplexWarning]
        assert w[0].filename == __file__
        check(r, np.array([1 + 2j, -0.5j]).real.astype(r.dtype))
