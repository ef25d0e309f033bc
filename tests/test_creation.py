"""Creation functions and ndarray attributes, compared against NumPy (dtype, shape, values).

Covers asarray/array (lists, scalars, NumPy arrays, gnumpy arrays, copy semantics),
from_dlpack, ranges (arange, linspace, logspace), constant arrays and their ``_like``
forms, eye/identity, tril/triu, meshgrid, and the ndarray / Array API inspection attributes.
"""
import ctypes

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gnumpy as gp
from helpers import COMPLEX, DTYPES, FLOATS, INTS, check, sample

DT_IDS = [str(d) for d in DTYPES]
DET = settings(derandomize=True)   # the same hypothesis examples on every run


def _ids(dts):
    return [str(np.dtype(d)) for d in dts]


def _fmt(v):
    if isinstance(v, type) and issubclass(v, (np.generic, bool, int, float, complex)):
        return np.dtype(v).name
    if isinstance(v, np.generic):
        return f"{np.dtype(type(v)).name}({v})"
    return repr(v)


def case_ids(cases):
    """Readable ids for (args, kwargs) cases: '0,5,0.5,dtype=int64'."""
    return [",".join([_fmt(a) for a in args] + [f"{k}={_fmt(v)}" for k, v in kw.items()])
            for args, kw in cases]


# ====================================================================== asarray / array

LISTS = [
    ("int", [1, 2, 3]),
    ("nested_int", [[1, 2], [3, 4], [5, 6]]),
    ("float", [1.5, -2.0, 3.25]),
    ("mixed_int_float", [[1, 2.5], [3, 4]]),
    ("bool", [True, False, True]),
    ("mixed_bool_int", [True, 2, 3]),
    ("mixed_bool_float", [[True, 0.5]]),
    ("complex", [1 + 2j, 3.0, -1j]),
    ("mixed_int_complex", [[1, 2j], [3, 4]]),
    ("tuple_of_tuples", ((1, 2, 3), (4, 5, 6))),
    ("deep", [[[1.0], [2.0]], [[3.0], [4.0]]]),
    ("empty", []),
    ("empty_nested", [[], []]),
    ("big_uint", [2 ** 63, 1]),
    ("neg_int", [-(2 ** 62), 5]),
    ("numpy_scalars", [np.float32(1.5), np.float32(2)]),
    ("numpy_int8_scalars", [np.int8(1), np.int8(-3)]),
    ("inf_nan", [np.inf, -np.inf, np.nan, -0.0]),
]


@pytest.mark.parametrize("obj", [v for _, v in LISTS], ids=[k for k, _ in LISTS])
def test_asarray_from_sequence(obj):
    check(gp.asarray(obj), np.asarray(obj))
    check(gp.array(obj), np.array(obj))


@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
def test_asarray_list_with_dtype(dtype):
    obj = [[0, 1, 2], [3, 4, 5]]
    check(gp.asarray(obj, dtype=dtype), np.asarray(obj, dtype=dtype))
    check(gp.array(obj, dtype=dtype), np.array(obj, dtype=dtype))


SCALARS = [
    ("int", 7), ("neg_int", -3), ("float", 2.5), ("bool", True), ("complex", 1 - 2j),
    ("np_float32", np.float32(1.25)), ("np_int8", np.int8(-5)), ("np_uint16", np.uint16(9)),
    ("np_float16", np.float16(0.5)), ("np_complex64", np.complex64(1 + 1j)),
    ("np_bool", np.bool_(False)), ("big_uint", 2 ** 63), ("nan", float("nan")),
]


@pytest.mark.parametrize("obj", [v for _, v in SCALARS], ids=[k for k, _ in SCALARS])
def test_asarray_from_scalar(obj):
    r = gp.asarray(obj)
    check(r, np.asarray(obj))
    assert r.ndim == 0 and r.shape == ()


@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
@pytest.mark.parametrize("layout", ["contiguous", "strided", "fortran", "zero_d", "empty"])
def test_asarray_from_numpy(dtype, layout):
    rng = np.random.default_rng(0)
    if layout == "zero_d":
        a = sample(dtype, (), rng)
    elif layout == "empty":
        a = sample(dtype, (0, 3), rng)
    else:
        a = sample(dtype, (4, 6), rng)
        if layout == "strided":
            a = a[::2, ::-3]
        elif layout == "fortran":
            a = np.asfortranarray(a)
    check(gp.asarray(a), np.asarray(a))
    check(gp.array(a), np.array(a))


@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
def test_asarray_numpy_is_a_snapshot(dtype):
    # gp.array always copies: later writes to the NumPy source are not seen
    a = sample(dtype, (5,), np.random.default_rng(1))
    expected = a.copy()
    g = gp.array(a)
    a[...] = a[0]
    check(g, expected)


@pytest.mark.parametrize("src", INTS[:2] + FLOATS + COMPLEX, ids=_ids(INTS[:2] + FLOATS + COMPLEX))
@pytest.mark.parametrize("dst", DTYPES, ids=DT_IDS)
def test_asarray_numpy_dtype_conversion(src, dst):
    # non-negative values: float -> unsigned of negatives is undefined behaviour in C
    a = np.abs(sample(src, (6,), np.random.default_rng(2), special=False)).astype(src)
    with np.errstate(all="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = np.asarray(a, dtype=dst)
            got = gp.asarray(a, dtype=dst)
    check(got, expected)


def test_asarray_gnumpy_same_object_when_nothing_changes():
    x = gp.asarray([1.0, 2.0, 3.0])
    assert gp.asarray(x) is x
    assert gp.asarray(x, dtype=gp.float64) is x
    assert gp.asarray(x, dtype="float64") is x
    assert gp.asarray(x, copy=False) is x
    assert gp.asarray(x, copy=None) is x
    y = x * 2                      # lazy arrays too
    assert gp.asarray(y) is y


def test_asarray_gnumpy_copy_true_is_independent():
    x = gp.asarray([1.0, 2.0, 3.0])
    c = gp.asarray(x, copy=True)
    assert c is not x
    x[0] = 100.0
    check(c, np.array([1.0, 2.0, 3.0]))
    c[1] = -5.0
    check(x, np.array([100.0, 2.0, 3.0]))


def test_array_gnumpy_copies_by_default():
    x = gp.asarray(np.arange(4))
    c = gp.array(x)
    assert c is not x
    c[0] = 42
    check(x, np.arange(4))
    check(c, np.array([42, 1, 2, 3]))


def test_asarray_gnumpy_copy_true_of_lazy_is_independent():
    x = gp.asarray([1.0, 2.0])
    y = x + 1
    c = gp.asarray(y, copy=True)
    y += 10
    check(c, np.array([2.0, 3.0]))
    check(y, np.array([12.0, 13.0]))


@pytest.mark.parametrize("dst", DTYPES, ids=DT_IDS)
def test_asarray_gnumpy_dtype_conversion(dst):
    a = np.array([0, 1, 2, 100], dtype=np.int16)
    g = gp.asarray(a)
    check(gp.asarray(g, dtype=dst), np.asarray(a, dtype=dst))
    check(gp.array(g, dtype=dst), np.array(a, dtype=dst))


def test_asarray_gnumpy_copy_false_raises_when_copy_needed():
    x = gp.asarray([1, 2, 3])
    with pytest.raises(ValueError):
        gp.asarray(x, dtype=gp.float32, copy=False)


def test_asarray_list_copy_false_raises():
    with pytest.raises(ValueError):
        np.asarray([1, 2], copy=False)
    with pytest.raises(ValueError):
        gp.asarray([1, 2], copy=False)


def test_asarray_list_of_gnumpy_arrays():
    a, b = gp.asarray([1.0, 2.0]), gp.asarray([3.0, 4.0])
    check(gp.asarray([a, b]), np.asarray([[1.0, 2.0], [3.0, 4.0]]))
    check(gp.asarray([a, b], dtype=gp.float32),
          np.asarray([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32))


def test_array_ndmin():
    check(gp.array([1, 2], ndmin=3), np.array([1, 2], ndmin=3))
    check(gp.array(5.0, ndmin=2), np.array(5.0, ndmin=2))


@pytest.mark.parametrize("obj", [
    pytest.param(["a", "b"], id="str_list"),
    pytest.param(np.array(["x", "yz"]), id="unicode_array"),
    pytest.param(np.array([b"x"]), id="bytes_array"),
    pytest.param(np.array([object(), 1], dtype=object), id="object_array"),
    pytest.param(np.array(["2020-01-01"], dtype="datetime64[D]"), id="datetime"),
    pytest.param("abc", id="str_scalar"),
])
def test_asarray_unsupported_dtype_raises_typeerror(obj):
    with pytest.raises(TypeError):
        gp.asarray(obj)


@pytest.mark.parametrize("dtype", ["U3", object, "datetime64[s]", "S2", np.longdouble
                                   if np.dtype(np.longdouble).itemsize > 8 else "V8"],
                         ids=["U3", "object", "datetime64", "S2", "longdouble_or_void"])
def test_asarray_unsupported_requested_dtype_raises_typeerror(dtype):
    with pytest.raises(TypeError):
        gp.asarray([1, 2], dtype=dtype)
    with pytest.raises(TypeError):
        gp.zeros(3, dtype=dtype)


# ====================================================================== DLPack

@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
def test_from_dlpack_numpy(dtype):
    a = sample(dtype, (3, 4), np.random.default_rng(3))
    check(gp.from_dlpack(a), np.from_dlpack(a))
    check(gp.from_dlpack(a[:, ::2]), np.from_dlpack(a[:, ::2]))


def test_from_dlpack_numpy_copy_true_is_independent():
    a = np.arange(5.0)
    g = gp.from_dlpack(a, copy=True)
    a[:] = -1
    check(g, np.arange(5.0))


@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
def test_from_dlpack_gnumpy(dtype):
    a = sample(dtype, (2, 5), np.random.default_rng(4))
    g = gp.asarray(a)
    check(gp.from_dlpack(g), a)
    check(gp.from_dlpack(g + g), a + a)


def test_numpy_from_dlpack_of_gnumpy_on_cpu():
    x = gp.asarray(np.arange(6.0).reshape(2, 3))
    if x.device != "cpu":
        pytest.skip("NumPy imports only CPU DLPack capsules")
    r = np.from_dlpack(x * 2)
    np.testing.assert_array_equal(r, np.arange(6.0).reshape(2, 3) * 2)
    assert x.__dlpack_device__()[0] == 1  # kDLCPU


# ====================================================================== arange

ARANGE = [
    ((5,), {}), ((0,), {}), ((-3,), {}), ((2, 10), {}), ((10, 2), {}), ((2, 10, 3), {}),
    ((10, 2, -3), {}), ((-5, 5, 2), {}), ((5, -5, -1), {}),
    ((0.0, 1.0, 0.1), {}), ((1, 1.3, 0.1), {}), ((-5.5, 3.2, 0.7), {}), ((3.0,), {}),
    ((1.0, 0.0, -0.25), {}), ((0, 1, 0.3), {}), ((2.5,), {}), ((0.0, 0.0, 0.1), {}),
    ((10,), {"dtype": np.float32}), ((0, 1, 0.1), {"dtype": np.float32}),
    ((5,), {"dtype": np.int8}), ((10, 0, -2), {"dtype": np.uint8}),
    ((3,), {"dtype": np.complex128}), ((0, 5, 0.5), {"dtype": np.int64}),
    ((2,), {"dtype": bool}), ((1, -1, -1), {"dtype": np.int16}),
    ((np.int32(2), np.int32(9)), {}), ((np.float32(0.5), 4), {}),
    ((0, 3 * 10 ** 9, 10 ** 9), {}), ((-(2 ** 40), 2 ** 40, 2 ** 39), {}),
]


@pytest.mark.parametrize("args,kw", ARANGE, ids=case_ids(ARANGE))
def test_arange(args, kw):
    check(gp.arange(*args, **kw), np.arange(*args, **kw))


@DET
@given(start=st.integers(-60, 60), stop=st.integers(-60, 60),
       step=st.integers(-7, 7).filter(bool),
       dtype=st.sampled_from([None, np.int8, np.int32, np.uint16, np.float32, np.float64]))
def test_arange_int_arguments(start, stop, step, dtype):
    if dtype is not None and np.dtype(dtype).kind == "u":
        start, stop = abs(start), abs(stop)
    check(gp.arange(start, stop, step, dtype=dtype), np.arange(start, stop, step, dtype=dtype))


_FLOATS = st.floats(-100, 100, allow_nan=False, allow_infinity=False)


@DET
@given(start=_FLOATS, stop=_FLOATS,
       step=st.floats(0.01, 10) | st.floats(-10, -0.01) | st.sampled_from([0.1, 0.3, -0.7]),
       dtype=st.sampled_from([None, np.float32, np.float64]))
def test_arange_float_arguments(start, stop, step, dtype):
    # the length (a ceil of a float quotient) and the values must both match NumPy's
    e = np.arange(start, stop, step, dtype=dtype)
    r = gp.arange(start, stop, step, dtype=dtype)
    assert r.shape == e.shape
    scale = max(abs(start), abs(stop), 1.0)
    check(r, e, atol=scale * (1e-5 if e.dtype == np.float32 else 1e-12))


def test_arange_step_keyword():
    check(gp.arange(3, step=0.5), np.arange(3, step=0.5))
    check(gp.arange(1, stop=7, step=2), np.arange(1, stop=7, step=2))


def test_arange_start_keyword():
    # NumPy code may name every argument (the Array API makes `start` positional-only,
    # NumPy does not)
    check(gp.arange(start=1, stop=7, step=2), np.arange(start=1, stop=7, step=2))


def test_arange_step_zero_raises():
    with pytest.raises(ZeroDivisionError):
        np.arange(0, 10, 0)
    with pytest.raises(ZeroDivisionError):
        gp.arange(0, 10, 0)
    with pytest.raises(ZeroDivisionError):
        gp.arange(0.0, 1.0, 0.0)


@pytest.mark.parametrize("shape", [(True, 2), [2, True], True])
def test_a_bool_is_no_dimension(shape):
    """NumPy's TypeError for a bool in a shape (``operator.index`` alone takes it as 1)."""
    for make in (lambda xp: xp.zeros(shape), lambda xp: xp.empty(shape),
                 lambda xp: xp.ones(shape), lambda xp: xp.full(shape, 2.0),
                 lambda xp: xp.arange(2.0).reshape(shape)):
        for xp in (np, gp):
            with pytest.raises(TypeError):
                make(xp)


def test_arange_bool_too_long_raises():
    with pytest.raises(TypeError):
        gp.arange(5, dtype=bool)


# ====================================================================== linspace / logspace

LINSPACE = [
    ((0, 1), {}), ((0, 1, 5), {}), ((0, 1, 5), {"endpoint": False}), ((-2.5, 7), {"num": 11}),
    ((1, 0, 4), {}), ((0, 1, 0), {}), ((0, 1, 1), {}), ((3, 3, 4), {}),
    ((0, 1, 1), {"endpoint": False}), ((0, 10, 5), {"dtype": np.int64}),
    ((-5, 5, 7), {"dtype": np.int32}), ((0, 1, 6), {"dtype": np.float32}),
    ((1 + 1j, 5 - 3j, 5), {}), ((0, 2j, 3), {"endpoint": False}),
    ((0, 1e10, 3), {}), ((np.float32(0), np.float32(1), 4), {}),
    ((0, 1, 5), {"dtype": np.complex64}), ((2, 3, 2), {"dtype": np.uint8}),
]


@pytest.mark.parametrize("args,kw", LINSPACE, ids=case_ids(LINSPACE))
def test_linspace(args, kw):
    check(gp.linspace(*args, **kw), np.linspace(*args, **kw))


@pytest.mark.parametrize("args,kw", [((0, 1, 5), {}), ((0, 1, 5), {"endpoint": False}),
                                     ((2, -2, 9), {}), ((0, 1, 1), {}), ((0, 1, 0), {}),
                                     ((1j, 2, 3), {})],
                         ids=["5", "5_no_endpoint", "descending", "num1", "num0", "complex"])
def test_linspace_retstep(args, kw):
    r, step = gp.linspace(*args, retstep=True, **kw)
    er, estep = np.linspace(*args, retstep=True, **kw)
    check(r, er)
    np.testing.assert_allclose(complex(step), complex(estep), rtol=1e-12, equal_nan=True)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_linspace_array_endpoints(axis):
    start, stop = np.array([0.0, 1.0, -2.0]), np.array([10.0, 20.0, 2.0])
    check(gp.linspace(gp.asarray(start), gp.asarray(stop), 5, axis=axis),
          np.linspace(start, stop, 5, axis=axis))
    check(gp.linspace(0.0, gp.asarray(stop), 4, endpoint=False, axis=axis),
          np.linspace(0.0, stop, 4, endpoint=False, axis=axis))


def test_linspace_array_endpoints_2d_and_retstep():
    start = np.zeros((2, 3))
    stop = np.arange(6.0).reshape(2, 3)
    r, s = gp.linspace(gp.asarray(start), gp.asarray(stop), 4, axis=1, retstep=True)
    er, es = np.linspace(start, stop, 4, axis=1, retstep=True)
    check(r, er)
    check(gp.asarray(s), es)


def test_linspace_negative_num_raises():
    with pytest.raises(ValueError):
        gp.linspace(0, 1, -1)


LOGSPACE = [
    ((0, 3, 4), {}), ((0, 3, 4), {"endpoint": False}), ((1, 5, 5), {"base": 2.0}),
    ((-2, 2, 5), {"dtype": np.float32}), ((0, 2, 3), {"base": np.e}), ((0, 1, 0), {}),
    ((0, 4, 5), {"dtype": np.int64}), ((2, 0, 3), {}),
]


@pytest.mark.parametrize("args,kw", LOGSPACE, ids=case_ids(LOGSPACE))
def test_logspace(args, kw):
    check(gp.logspace(*args, **kw), np.logspace(*args, **kw))


def test_logspace_array_endpoints_axis():
    start, stop = np.array([0.0, 1.0]), np.array([2.0, 3.0])
    check(gp.logspace(gp.asarray(start), gp.asarray(stop), 3, axis=1),
          np.logspace(start, stop, 3, axis=1))


# ====================================================================== constant arrays

SHAPES = [3, (), (0,), (2, 3), [4, 1], (2, 0, 3), np.int64(2)]
SHAPE_IDS = ["int", "0d", "empty", "tuple", "list", "empty3d", "np_int"]


@pytest.mark.parametrize("shape", SHAPES, ids=SHAPE_IDS)
@pytest.mark.parametrize("fn", ["zeros", "ones", "empty"])
def test_constant_default_dtype(fn, shape):
    r = getattr(gp, fn)(shape)
    e = getattr(np, fn)(shape)
    assert r.shape == e.shape and r.dtype == e.dtype
    if fn != "empty":
        check(r, e)


@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
@pytest.mark.parametrize("fn", ["zeros", "ones", "empty"])
def test_constant_dtype(fn, dtype):
    r = getattr(gp, fn)((2, 3), dtype=dtype)
    e = getattr(np, fn)((2, 3), dtype=dtype)
    assert r.shape == e.shape and r.dtype == e.dtype
    if fn != "empty":
        check(r, e)


FILLS = [
    ("int", 7), ("neg_int", -3), ("float", 2.5), ("bool", True), ("complex", 1 + 2j),
    ("np_float32", np.float32(1.5)), ("np_int8", np.int8(-2)), ("np_uint8", np.uint8(200)),
    ("nan", float("nan")), ("inf", float("-inf")), ("big_uint", 2 ** 63),
]


@pytest.mark.parametrize("fill", [v for _, v in FILLS], ids=[k for k, _ in FILLS])
def test_full_value_dtype(fill):
    check(gp.full((2, 3), fill), np.full((2, 3), fill))
    check(gp.full(4, fill), np.full(4, fill))


@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
@pytest.mark.parametrize("fill", [0, 1, 100, 2.75, True, -1.5],
                         ids=["0", "1", "100", "2.75", "True", "-1.5"])
def test_full_with_dtype(dtype, fill):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            e = np.full((3,), fill, dtype=dtype)
        except Exception as exc:
            with pytest.raises(type(exc)):
                gp.full((3,), fill, dtype=dtype)
            return
        check(gp.full((3,), fill, dtype=dtype), e)


@pytest.mark.parametrize("value,dtype", [(300, np.int8), (-1, np.uint8), (2 ** 31, np.int32),
                                         (-(2 ** 63) - 1, np.int64), (2 ** 64, np.uint64),
                                         (70000, np.uint16)],
                         ids=["300_int8", "-1_uint8", "2**31_int32", "int64_min-1",
                              "2**64_uint64", "70000_uint16"])
def test_full_python_int_out_of_range_raises_overflow(value, dtype):
    with pytest.raises(OverflowError):
        np.full(3, value, dtype=dtype)
    with pytest.raises(OverflowError):
        gp.full(3, value, dtype=dtype)
    with pytest.raises(OverflowError):
        gp.full_like(gp.zeros(3, dtype=dtype), value)


def test_full_with_array_fill_value():
    v = np.array([1.0, 2.0, 3.0])
    check(gp.full((2, 3), gp.asarray(v)), np.full((2, 3), v))
    check(gp.full((2, 3), gp.asarray(v), dtype=np.int32), np.full((2, 3), v, dtype=np.int32))
    check(gp.full((), gp.asarray(np.float32(4))), np.full((), np.float32(4)))


@pytest.mark.parametrize("fn", ["zeros", "ones", "empty", "full"])
@pytest.mark.parametrize("shape", [-1, (2, -1), (-3, 0)], ids=["-1", "(2,-1)", "(-3,0)"])
def test_constant_negative_dims_raise(fn, shape):
    args = (shape, 1) if fn == "full" else (shape,)
    with pytest.raises(ValueError):
        getattr(np, fn)(*args)
    with pytest.raises(ValueError):
        getattr(gp, fn)(*args)


@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
@pytest.mark.parametrize("fn", ["zeros_like", "ones_like", "empty_like", "full_like"])
def test_like_functions(fn, dtype):
    a = sample(dtype, (2, 3), np.random.default_rng(5))
    g = gp.asarray(a)
    args = (3,) if fn == "full_like" else ()
    for kw in ({}, {"dtype": np.float32}, {"shape": (4,)}, {"shape": 5, "dtype": np.int16},
               {"dtype": np.bool_}):
        r = getattr(gp, fn)(g, *args, **kw)
        e = getattr(np, fn)(a, *args, **kw)
        assert r.shape == e.shape and r.dtype == e.dtype, kw
        if fn != "empty_like":
            check(r, e)


def test_like_of_lazy_and_strided_input():
    a = np.arange(12.0).reshape(3, 4)
    g = gp.asarray(a)
    check(gp.ones_like((g + 1)[:, ::2]), np.ones_like((a + 1)[:, ::2]))
    check(gp.full_like(g.T, 2.5), np.full_like(a.T, 2.5))
    check(gp.zeros_like(gp.asarray(3.0)), np.zeros_like(np.asarray(3.0)))


def test_full_like_float_into_int():
    a = np.arange(4)
    check(gp.full_like(gp.asarray(a), 2.7), np.full_like(a, 2.7))


# ====================================================================== eye / identity

EYE = [((3,), {}), ((3, 4), {}), ((4, 3), {}), ((4, 3), {"k": 1}), ((4, 3), {"k": -2}),
       ((3, 5), {"k": 3}), ((3,), {"k": 5}), ((3,), {"k": -5}), ((0,), {}), ((2, 0), {}),
       ((1,), {}), ((5,), {"k": -1, "dtype": np.int32}), ((3,), {"dtype": bool}),
       ((3,), {"dtype": np.complex64}), ((4, 6), {"k": 2, "dtype": np.uint8}),
       ((3,), {"M": 2, "k": -1}), ((3,), {"dtype": np.float16})]


@pytest.mark.parametrize("args,kw", EYE, ids=case_ids(EYE))
def test_eye(args, kw):
    check(gp.eye(*args, **kw), np.eye(*args, **kw))


def test_eye_negative_raises():
    with pytest.raises(ValueError):
        gp.eye(-1)


@pytest.mark.parametrize("n", [0, 1, 4])
@pytest.mark.parametrize("dtype", [None, np.int8, np.float32, bool],
                         ids=["default", "int8", "float32", "bool"])
def test_identity(n, dtype):
    check(gp.identity(n, dtype=dtype), np.identity(n, dtype=dtype))


# ====================================================================== tril / triu

@pytest.mark.parametrize("fn", ["tril", "triu"])
@pytest.mark.parametrize("k", [-4, -1, 0, 1, 2, 6])
@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3), (2, 3, 4), (2, 2, 3, 3), (0, 3)],
                         ids=["4x4", "3x5", "5x3", "batched3d", "batched4d", "empty"])
def test_tril_triu(fn, k, shape):
    a = np.arange(1, 1 + int(np.prod(shape)), dtype=np.float64).reshape(shape)
    check(getattr(gp, fn)(gp.asarray(a), k=k), getattr(np, fn)(a, k=k))


@pytest.mark.parametrize("fn", ["tril", "triu"])
@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
def test_tril_triu_dtypes(fn, dtype):
    a = sample(dtype, (4, 5), np.random.default_rng(6))
    check(getattr(gp, fn)(gp.asarray(a)), getattr(np, fn)(a))
    check(getattr(gp, fn)(gp.asarray(a), -1), getattr(np, fn)(a, -1))


@pytest.mark.parametrize("fn", ["tril", "triu"])
@pytest.mark.parametrize("k", [-1, 0, 2])
def test_tril_triu_1d_input(fn, k):
    # NumPy treats a 1-d input as a row repeated into a square matrix
    a = np.array([1, 2, 3, 4])
    check(getattr(gp, fn)(gp.asarray(a), k=k), getattr(np, fn)(a, k=k))


@pytest.mark.parametrize("fn", ["tril", "triu"])
def test_tril_triu_strided_and_lazy(fn):
    a = np.arange(48.0).reshape(6, 8)
    g = gp.asarray(a)
    check(getattr(gp, fn)(g[::2, 1::2]), getattr(np, fn)(a[::2, 1::2]))
    check(getattr(gp, fn)((g * 2).T, 1), getattr(np, fn)((a * 2).T, 1))


# ====================================================================== meshgrid

@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_meshgrid(indexing, sparse, n):
    xs = [np.arange(2 + i, dtype=[np.float64, np.int32, np.float32][i]) * (i + 1)
          for i in range(n)]
    got = gp.meshgrid(*[gp.asarray(x) for x in xs], indexing=indexing, sparse=sparse)
    exp = np.meshgrid(*xs, indexing=indexing, sparse=sparse)
    assert isinstance(got, tuple)
    check(got, tuple(exp))


@pytest.mark.parametrize("copy", [True, False])
def test_meshgrid_copy(copy):
    x, y = np.arange(3.0), np.arange(4.0)
    got = gp.meshgrid(gp.asarray(x), gp.asarray(y), copy=copy)
    check(got, tuple(np.meshgrid(x, y, copy=copy)))


def test_meshgrid_copy_true_is_independent():
    x = gp.asarray([1.0, 2.0, 3.0])
    y = gp.asarray([10.0, 20.0])
    X, Y = gp.meshgrid(x, y)
    x[0] = -1.0
    X[0, 1] = 99.0
    ex, ey = np.meshgrid([1.0, 2.0, 3.0], [10.0, 20.0])
    ex[0, 1] = 99.0
    check(X, ex)
    check(Y, ey)
    check(x, np.array([-1.0, 2.0, 3.0]))


def test_meshgrid_bad_indexing():
    with pytest.raises(ValueError):
        gp.meshgrid(gp.arange(3), indexing="xz")


def test_meshgrid_no_inputs():
    assert gp.meshgrid() == tuple(np.meshgrid())


# ====================================================================== ndarray attributes

ATTR_SHAPES = [(), (0,), (5,), (2, 3), (2, 3, 4), (1, 0, 2)]


@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
@pytest.mark.parametrize("shape", ATTR_SHAPES, ids=[str(s) for s in ATTR_SHAPES])
def test_attributes(dtype, shape):
    a = np.zeros(shape, dtype=dtype)
    for g in (gp.asarray(a), gp.zeros(shape, dtype=dtype).copy(), gp.asarray(a)[...]):
        assert g.shape == a.shape
        assert isinstance(g.shape, tuple)
        assert g.dtype == a.dtype
        assert g.ndim == a.ndim
        assert g.size == a.size
        assert g.itemsize == a.itemsize
        assert g.nbytes == a.nbytes
        assert g.device == gp.asarray(0).device
        assert g.device in gp.__array_namespace_info__().devices()
        if g.ndim:
            assert len(g) == len(a)


@pytest.mark.parametrize("shape", ATTR_SHAPES, ids=[str(s) for s in ATTR_SHAPES])
def test_T(shape):
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    check(gp.asarray(a).T, a.T)
    check((gp.asarray(a) + 1).T, (a + 1).T)


@pytest.mark.parametrize("shape", [(2, 3), (2, 3, 4), (4, 1, 2, 5)],
                         ids=["2d", "3d", "4d"])
def test_mT(shape):
    a = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    check(gp.asarray(a).mT, a.mT)
    check(gp.asarray(a)[..., ::2].mT, a[..., ::2].mT)


@pytest.mark.parametrize("shape", [(), (3,)], ids=["0d", "1d"])
def test_mT_needs_2d(shape):
    with pytest.raises(ValueError):
        np.zeros(shape).mT
    with pytest.raises(ValueError):
        gp.zeros(shape).mT


def test_array_namespace():
    x = gp.asarray([1, 2])
    assert x.__array_namespace__() is gp
    assert x.__array_namespace__(api_version="2024.12") is gp
    assert x.__array_namespace__(api_version="2023.12") is gp
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="1999.01")
    assert gp.__array_api_version__ == "2024.12"


def test_array_namespace_info():
    info = gp.__array_namespace_info__()
    caps = info.capabilities()
    assert set(caps) >= {"boolean indexing", "data-dependent shapes", "max dimensions"}
    assert isinstance(caps["boolean indexing"], bool)
    assert isinstance(caps["data-dependent shapes"], bool)
    assert caps["max dimensions"] is None or caps["max dimensions"] >= 32
    dev = info.default_device()
    assert dev == gp.asarray(1.0).device
    assert dev == gp.zeros(3).device
    assert dev in info.devices()
    dd = info.default_dtypes()
    assert dd == {"real floating": np.dtype(np.float64), "complex floating":
                  np.dtype(np.complex128), "integral": np.dtype(np.int64),
                  "indexing": np.dtype(np.int64)}
    assert info.default_dtypes(device=dev) == dd
    # default dtypes agree with what creation functions pick
    assert gp.asarray(1.0).dtype == dd["real floating"]
    assert gp.asarray(1).dtype == dd["integral"]
    assert gp.asarray(1j).dtype == dd["complex floating"]
    assert gp.argmax(gp.arange(3)).dtype == dd["indexing"]


KINDS = [None, "bool", "signed integer", "unsigned integer", "integral", "real floating",
         "complex floating", "numeric"]


@pytest.mark.parametrize("kind", KINDS, ids=[str(k) for k in KINDS])
def test_array_namespace_info_dtypes(kind):
    # the same canonical dtypes, under the same names, as NumPy's inspection namespace
    info = gp.__array_namespace_info__()
    got = info.dtypes(kind=kind)
    assert got == np.__array_namespace_info__().dtypes(kind=kind)
    assert info.dtypes(kind=kind, device=info.default_device()) == got


def test_array_namespace_info_dtypes_tuple_and_errors():
    info = gp.__array_namespace_info__()
    kinds = ("bool", "complex floating")
    assert info.dtypes(kind=kinds) == np.__array_namespace_info__().dtypes(kind=kinds)
    with pytest.raises(ValueError):
        info.dtypes(kind="no such kind")


@pytest.mark.parametrize("view", ["stepped", "reversed", "transposed", "rows", "both",
                                  "broadcast"])
def test_asarray_copy_false_shares_strided_numpy_memory(view):
    """``asarray(x, copy=False)`` of a NumPy array that is not C-contiguous shares its
    memory on the CPU backend, as NumPy's does (writes are seen both ways; a read-only
    array stays read-only); on CUDA it raises NumPy's ValueError (a copy to the device)."""
    b = np.arange(20.0).reshape(4, 5)
    v = {"stepped": b[:, ::2], "reversed": b[::-1, 1:4], "transposed": b.T,
         "rows": b[1:3], "both": b[::2, ::-2],
         "broadcast": np.broadcast_to(b[0], (3, 5))}[view]
    if gp.asarray(0).device.kind != "cpu":
        with pytest.raises(ValueError, match="avoid copy"):
            gp.asarray(v, copy=False)
        return
    g = gp.asarray(v, copy=False)
    check(g, v)
    check(g * 2 + 1, v * 2 + 1)
    if not v.flags.writeable:
        with pytest.raises(ValueError):
            g[0] = 1.0
        return
    g[0] = -1.0
    assert (v[0] == -1.0).all()
    v[-1] = 7.0
    check(g, v)
    check(g[::-1], v[::-1])
    before = v.copy()
    g += 1.0                                # an in-place operator writes the memory too
    np.testing.assert_array_equal(v, before + 1.0)


def test_from_dlpack_of_host_memory_writes_the_producers_memory():
    """A DLPack import of host memory (a CPU array, whatever the default device) shares the
    producer's memory, strided too: setitem and in-place operators on the gnumpy array
    change the producer's array, as NumPy's ``from_dlpack`` does."""
    for v in (np.arange(12.0).reshape(3, 4), np.arange(12.0).reshape(3, 4)[:, ::2]):
        g = gp.from_dlpack(v)
        before = v.copy()
        g += 1.0
        np.testing.assert_array_equal(v, before + 1.0)
        g[0] = 5.0
        assert (v[0] == 5.0).all()
        check(g, v)


@pytest.mark.parametrize("order", ["C", "F", "c", "f", "A", "K", "k", "X", None, 1])
def test_order_argument_is_checked_as_numpy_checks_it(order):
    """``order=`` of the creation functions: NumPy's exception (type and message) or none:
    a new array takes C or F in any case, an array like another also A and K, anything
    else is a ValueError, a non-string a TypeError."""
    cases = [lambda m: m.zeros(3, order=order), lambda m: m.ones(3, order=order),
             lambda m: m.empty(3, order=order), lambda m: m.full(3, 1.0, order=order),
             lambda m: m.eye(3, order=order),
             lambda m: m.zeros_like(m.zeros(3), order=order),
             lambda m: m.empty_like(m.zeros(3), order=order),
             lambda m: m.ones_like(m.zeros(3), order=order),
             lambda m: m.full_like(m.zeros(3), 1, order=order),
             lambda m: m.copy(m.zeros(3), order=order)]
    for f in cases:
        try:
            f(np)
            want = None
        except (TypeError, ValueError) as e:
            want = (type(e), str(e))
        if want is None:
            f(gp)
            continue
        with pytest.raises(want[0]) as got:
            f(gp)
        assert str(got.value) == want[1]


def test_arange_length_is_numpys_float_ceiling():
    """NumPy's length is ``ceil((stop - start) / step)`` of the float quotient: past 2**53
    it rounds (11 exact steps, 10 in NumPy), for Python and NumPy ints alike."""
    for args in [(0, 10**18 + 1, 10**17), (0, 2**61 + 1, 2**60), (0, -(2**61 + 1), -(2**60)),
                 (5, 2, -1), (3, 3, 1), (0, 7, 3), (-(2**55), 2**55, 2**54 + 1)]:
        check(gp.arange(*args), np.arange(*args))
        check(gp.arange(*map(np.int64, args)), np.arange(*map(np.int64, args)))
    with pytest.raises(ValueError, match="Maximum allowed size exceeded"):
        np.arange(0, 10**400)
    with pytest.raises(ValueError, match="Maximum allowed size exceeded"):
        gp.arange(0, 10**400)


def _versioned_flags(capsule) -> int:
    """The flags of a DLPack 1.0 capsule (DLManagedTensorVersioned: version, manager
    context, deleter, then the flags)."""
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    p = get(capsule, b"dltensor_versioned")
    return ctypes.c_uint64.from_address(p + 8 + 8 + 8).value


@pytest.mark.parametrize("make", [lambda a: gp.broadcast_to(a, (2, 3)),
                                  lambda a: gp.broadcast_to(a[:, None], (3, 2)).T])
def test_read_only_arrays_export_read_only(make):
    """A read-only array (a broadcast, and a view of one) is exported read-only, as
    NumPy exports one: flagged in a DLPack 1.0 capsule (NumPy's import is read-only), and
    refused (BufferError) where the consumer's DLPack cannot say so: NumPy's import of a
    broadcast cannot write into its base."""
    a = gp.arange(3.0)
    b = make(a)
    ref = np.broadcast_to(np.arange(3.0), (2, 3))
    with pytest.raises(BufferError):
        ref.__dlpack__()
    with pytest.raises(BufferError):
        b.__dlpack__()
    assert _versioned_flags(b.__dlpack__(max_version=(1, 0))) & 1
    assert not _versioned_flags(a.__dlpack__(max_version=(1, 0))) & 1
    if b.device.kind == "cpu":
        w = np.from_dlpack(b)
        assert not w.flags.writeable
        with pytest.raises(ValueError):
            w[0, 0] = 5.0
        assert np.from_dlpack(a).flags.writeable
    check(a, np.arange(3.0))
