"""pad, append, insert, delete and trim_zeros against NumPy, on several dtypes and on
inputs of several layouts (contiguous, strided, transposed, reversed, lazy).

The layouts and the rest of array manipulation: test_manipulation.py.
"""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.exceptions import AxisError

import gnumpy as gp
from helpers import check
from test_manipulation import DET, DT_IDS, DTYPES, LAYOUTS, pair, rand


# ====================================================================== pad

PAD_WIDTHS = [1, (2, 3), ((1, 0), (0, 4)), ((3,), (1,)), 0, ((5, 7),), {1: 2}, {0: (1, 3)},
              np.array([[1, 2], [3, 0]])]
PW_IDS = ["1", "(2,3)", "per_axis", "per_axis_sym", "0", "big", "dict_int", "dict_pair",
          "ndarray"]


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap",
                                  "maximum", "minimum", "mean", "linear_ramp"])
@pytest.mark.parametrize("width", PAD_WIDTHS, ids=PW_IDS)
def test_pad_modes(mode, width):
    a, g = pair(rand((3, 4), np.float64, 3, special=False), "strided")
    check(gp.pad(g, width, mode=mode), np.pad(a, width, mode=mode))


@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap"])
def test_pad_dtypes_layouts(dtype, mode):
    layout = LAYOUTS[(DTYPES.index(dtype) + len(mode)) % len(LAYOUTS)]
    a, g = pair(rand((2, 3), dtype, 4), layout)
    check(gp.pad(g, ((1, 2), (4, 0)), mode=mode), np.pad(a, ((1, 2), (4, 0)), mode=mode))


@pytest.mark.parametrize("mode", ["reflect", "symmetric", "wrap"])
@pytest.mark.parametrize("reflect_type", ["even", "odd"])
@DET
@given(n=st.integers(1, 5), before=st.integers(0, 17), after=st.integers(0, 17))
def test_pad_large_widths(mode, reflect_type, n, before, after):
    a = (np.arange(n) * 3 - 2).astype(np.int32) ** 2
    kw = {} if mode == "wrap" else {"reflect_type": reflect_type}
    check(gp.pad(gp.asarray(a), (before, after), mode=mode, **kw),
          np.pad(a, (before, after), mode=mode, **kw))


@pytest.mark.parametrize("kw", [
    {"constant_values": 7}, {"constant_values": (1, 2)}, {"constant_values": ((1, 2), (3, 4))},
    {"constant_values": -2.7}, {"stat_length": 2}, {"stat_length": ((1, 2), (3, 1))},
    {"end_values": (5, -3)}, {"end_values": ((1, 2), (3, 4))},
], ids=lambda d: str(d))
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8], ids=str)
def test_pad_keywords(kw, dtype):
    mode = {"constant_values": "constant", "stat_length": "mean",
            "end_values": "linear_ramp"}[next(iter(kw))]
    a = (rand((3, 4), np.float64, 6, special=False) * 3).astype(dtype)
    check(gp.pad(gp.asarray(a), ((2, 1), (1, 3)), mode=mode, **kw),
          np.pad(a, ((2, 1), (1, 3)), mode=mode, **kw))
    if mode == "mean":
        for m in ("maximum", "minimum"):
            check(gp.pad(gp.asarray(a), 2, mode=m, **kw), np.pad(a, 2, mode=m, **kw))


@pytest.mark.parametrize("dtype", [np.float64, np.int32], ids=str)
def test_pad_median(dtype):
    a = (rand((4, 5), np.float64, 2, special=False) * 4).astype(dtype)
    if not hasattr(gp, "median"):
        with pytest.raises(NotImplementedError):
            gp.pad(gp.asarray(a), 1, mode="median")
        return
    for kw in ({}, {"stat_length": 2}, {"stat_length": ((1, 3), (2, 2))}):
        check(gp.pad(gp.asarray(a), ((1, 2), (3, 1)), mode="median", **kw),
              np.pad(a, ((1, 2), (3, 1)), mode="median", **kw))


def test_pad_edge_cases():
    check(gp.pad(gp.asarray(3.0), 2), np.pad(np.asarray(3.0), 2))
    check(gp.pad(gp.zeros((0, 2)), 1), np.pad(np.zeros((0, 2)), 1))
    check(gp.pad(gp.zeros((0, 2)), ((0, 0), (1, 1)), mode="edge"),
          np.pad(np.zeros((0, 2)), ((0, 0), (1, 1)), mode="edge"))
    check(gp.pad(gp.ones((1, 3)), 2, mode="reflect"), np.pad(np.ones((1, 3)), 2, mode="reflect"))
    e = gp.pad(gp.arange(3), 2, mode="empty")
    assert e.shape == (7,) and e[2:5].tolist() == [0, 1, 2]
    g = gp.arange(4.0)
    p = gp.pad(g, 0)
    g[0] = 50.0                      # pad always copies
    check(p, np.arange(4.0))

    def fill(vector, width, axis, kwargs):
        vector[:width[0]] = kwargs.get("v", 9)
        if width[1]:
            vector[-width[1]:] = -1

    a = np.arange(6.0).reshape(2, 3)
    check(gp.pad(gp.asarray(a), (1, 2), fill, v=5), np.pad(a, (1, 2), fill, v=5))


@pytest.mark.parametrize("args,kw,exc", [
    ((1.5,), {}, TypeError), ((-1,), {}, ValueError), ((((1, 2), (3, 4), (5, 6)),), {},
                                                         ValueError),
    ((1,), {"mode": "foo"}, ValueError), ((1,), {"mode": "edge", "constant_values": 1},
                                          ValueError),
    ((1,), {"mode": "maximum", "stat_length": 0}, ValueError), ((np.uint8(1),), {}, TypeError),
], ids=["float", "negative", "bad_shape", "mode", "kwarg", "stat0", "uint"])
def test_pad_errors(args, kw, exc):
    with pytest.raises(exc):
        np.pad(np.arange(5.0).reshape(1, 5), *args, **kw)
    with pytest.raises(exc):
        gp.pad(gp.arange(5.0).reshape(1, 5), *args, **kw)
    with pytest.raises(ValueError):
        gp.pad(gp.zeros(0), 1, mode="edge")


# ====================================================================== append / insert / delete

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES[:4], ids=DT_IDS[:4])
def test_append(dtype, layout):
    a, g = pair(rand((2, 3), dtype, 8), layout)
    v = rand((2, 2), dtype, 9)
    check(gp.append(g, v), np.append(a, v))
    check(gp.append(g, gp.asarray(v), axis=1), np.append(a, v, axis=1))
    check(gp.append(g, v[:1, :1].repeat(3, 1), axis=0),
          np.append(a, v[:1, :1].repeat(3, 1), axis=0))
    with pytest.raises(ValueError):
        gp.append(g, gp.arange(3), axis=0)


DELETE_OBJS = [0, -1, 3, slice(1, 4), slice(None, None, 2), slice(5, 0, -2), slice(4, 4),
               [0, 2, 2], [], np.array([True, False, True, False, False, True]),
               np.array([1, -1]), [[1]], np.int64(2), slice(0, 6, 4)]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("axis", [None, 1])
def test_delete(axis, layout):
    a, g = pair(rand((3, 6) if axis else (6,), np.int32, 2), layout)
    for obj in DELETE_OBJS:
        check(gp.delete(g, obj, axis=axis), np.delete(a, obj, axis=axis))


def test_delete_2d_flat_many_runs_and_errors():
    a = rand((5, 8), np.float32, 1)
    g = gp.asarray(a)
    check(gp.delete(g, [1, 7, 20, 33]), np.delete(a, [1, 7, 20, 33]))
    idx = np.arange(0, 40, 2)
    check(gp.delete(g, idx), np.delete(a, idx))
    check(gp.delete(g, gp.asarray(idx % 8 == 0)[:8], axis=1),
          np.delete(a, idx[:8] % 8 == 0, axis=1))
    check(gp.delete(gp.asarray(5), 0), np.delete(np.asarray(5), 0))
    d = gp.delete(g, [], axis=0)
    g[0, 0] = 77                          # delete always copies
    check(d, a)
    for bad, exc in [(10, IndexError), ([10], IndexError), ([-11], IndexError),
                     (np.array([True, False]), ValueError), ([1.5], IndexError),
                     (True, ValueError)]:
        with pytest.raises(exc):
            np.delete(np.arange(10), bad)
        with pytest.raises(exc):
            gp.delete(gp.arange(10), bad)


INSERT_CASES = [
    (1, 9, None), (-1, 9, None), (0, [7, 8], None), (6, 4.7, None), ([1, 1, 0], [7, 8, 9], None),
    ([2], [5, 6], None), (slice(1, 5, 2), [10, 11], None), ([], [], None),
    (np.array([True, False, True, False, False, False]), 3, None), ([0, 6], 1, None),
    (1, [1, 2, 3, 4, 5, 6], 0), ([1], [[1], [2], [3]], 1), (1, [[1], [2], [3]], 1), ([0, 2, 2], 0, 1),
    (2, gp.asarray([5, 6, 7]), 1), (np.int64(1), 5, 1), ([3, 1], [[1, 2]], 1),
]


@pytest.mark.parametrize("layout", ["contiguous", "strided", "lazy"])
@pytest.mark.parametrize("case", range(len(INSERT_CASES)))
def test_insert(case, layout):
    obj, values, axis = INSERT_CASES[case]
    a, g = pair(rand((3, 6) if axis is not None else (6,), np.int64, 5), layout)
    hv = values.get() if isinstance(values, gp.ndarray) else values
    check(gp.insert(g, obj, values, axis=axis), np.insert(a, obj, hv, axis=axis))


def test_insert_dtypes_many_and_errors():
    for dt in DTYPES:
        a = rand((4,), dt, 3)
        check(gp.insert(gp.asarray(a), [1, 3], a[:2]), np.insert(a, [1, 3], a[:2]))
    a = rand((30,), np.float32, 3)
    idx = np.arange(0, 30, 2)
    check(gp.insert(gp.asarray(a), idx, -1.0), np.insert(a, idx, -1.0))
    check(gp.insert(gp.asarray(3), 0, 1), np.insert(np.asarray(3), 0, 1))
    check(gp.insert(gp.ones((2, 2)), 1, 5), np.insert(np.ones((2, 2)), 1, 5))
    for bad, exc in [(10, IndexError), ([10], IndexError), ([[1]], ValueError),
                     (1.5, TypeError), ([1.5], TypeError)]:
        with pytest.raises(exc):
            np.insert(np.arange(5), bad, 1)
        with pytest.raises(exc):
            gp.insert(gp.arange(5), bad, 1)
    with pytest.raises(ValueError):
        gp.insert(gp.ones((3, 4)), 1, [1, 2], axis=1)
    with pytest.raises(AxisError):
        gp.insert(gp.ones((3, 4)), 1, 1, axis=2)


# ====================================================================== trim_zeros

@pytest.mark.parametrize("trim", ["fb", "f", "b", "BF"])
@pytest.mark.parametrize("case", [
    (np.array([0, 0, 1, 2, 0, 3, 0]), None), (np.array([0, 0]), None), (np.array([], int), None),
    (np.array([[0, 0, 0], [0, 1, 0], [0, 0, 2], [0, 0, 0]]), None),
    (np.array([[0, 0, 0], [0, 1, 0], [0, 0, 2], [0, 0, 0]]), 1),
    (np.array([[0, 0, 0], [0, 1, 0], [0, 0, 2], [0, 0, 0]]), (-2,)),
    (np.zeros((2, 3)), 0), (np.array([0.0, -0.0, np.nan, 0.0]), None),
    (np.array([0j, 1j, 0]), None), (np.array(0), None),
], ids=[str(i) for i in range(10)])
def test_trim_zeros(trim, case):
    a, axis = case
    g = gp.asarray(a)
    check(gp.trim_zeros(g, trim, axis=axis), np.trim_zeros(a, trim, axis=axis))


def test_trim_zeros_view_and_errors():
    g = gp.asarray([0, 3, 4, 0])
    t = gp.trim_zeros(g)
    g[1] = 9
    check(t, np.array([9, 4]))
    with pytest.raises(ValueError):
        gp.trim_zeros(g, "x")
    with pytest.raises(AxisError):
        gp.trim_zeros(g, axis=1)
