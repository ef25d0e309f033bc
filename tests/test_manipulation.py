"""Array manipulation breadth against NumPy: ravel/flatten orders, rollaxis, atleast_*, the
stacks, block, split family, unstack, flip, roll, rot90, tile, repeat, pad, append, insert,
delete, resize, trim_zeros, memory-layout requests, copyto, diagonals, trace,
fill_diagonal, triangle indices, index grids.

Every function runs on several dtypes and on inputs of several layouts: contiguous,
strided (a stepped slice), transposed, reversed (negative strides) and lazy (an
unmaterialized expression).  Where NumPy returns a view (flip, diagonal, split pieces,
atleast_*), writes to the base must show through it.
"""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.exceptions import AxisError

import gnumpy as gp
from helpers import check, sample, strided_pair

DET = settings(derandomize=True, max_examples=20)
DTYPES = [np.dtype(t) for t in (np.float64, np.int32, np.bool_, np.uint8, np.float16,
                                np.complex64, np.int64)]
DT_IDS = [str(d) for d in DTYPES]
LAYOUTS = ["contiguous", "strided", "transposed", "reversed", "lazy"]


def rand(shape, dtype=np.float64, seed=0, special=True):
    return sample(dtype, shape, np.random.default_rng(seed), special=special)


def pair(a, layout):
    """(numpy array, gnumpy array) with the values of `a` and the same memory layout."""
    if layout == "contiguous":
        return a, gp.asarray(a)
    if layout == "strided":
        return strided_pair(a)
    if layout == "transposed":
        t = np.ascontiguousarray(a.T)
        return t.T, gp.asarray(t).T
    if layout == "reversed":
        r = np.ascontiguousarray(a[(slice(None, None, -1),) * a.ndim])
        return (r[(slice(None, None, -1),) * a.ndim],
                gp.asarray(r)[(slice(None, None, -1),) * a.ndim])
    if layout == "lazy":
        if a.dtype.kind == "b":
            return a, gp.logical_not(gp.asarray(~a))
        # -(-a): the same values bit for bit (NaN, inf, -0, wrapped integers)
        with np.errstate(all="ignore"):
            b = np.negative(a)
        g = gp.negative(gp.asarray(b))
        assert g._node.lazy
        return a, g
    raise ValueError(layout)


# ====================================================================== ravel / reshape

def _layout_pairs():
    a = np.arange(1.0, 25.0).reshape(2, 3, 4)
    t = np.ascontiguousarray(a.transpose(2, 0, 1))
    big = np.zeros((4, 6, 4))
    big[::2, ::2] = a
    yield "contiguous", a, gp.asarray(a)
    yield "transposed", t.transpose(1, 2, 0), gp.asarray(t).transpose(1, 2, 0)
    yield "permuted_reversed", a.transpose(1, 0, 2)[:, ::-1], \
        gp.asarray(a).transpose(1, 0, 2)[:, ::-1]
    yield "strided", big[::2, ::2], gp.asarray(big)[::2, ::2]
    yield "lazy_T", (a + 1).T, (gp.asarray(a) + 1).T
    yield "broadcast", np.broadcast_to(a[:, :1], (2, 3, 4)), \
        gp.broadcast_to(gp.asarray(a)[:, :1], (2, 3, 4))
    yield "fortran", np.asfortranarray(a), gp.asfortranarray(gp.asarray(a))
    yield "0d", np.asarray(5.0), gp.asarray(5.0)


LAYOUT_PAIRS = list(_layout_pairs())


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("name,a,g", LAYOUT_PAIRS, ids=[p[0] for p in LAYOUT_PAIRS])
def test_ravel_flatten_orders(name, a, g, order):
    check(gp.ravel(g, order=order), np.ravel(a, order=order))
    check(g.ravel(order), a.ravel(order))
    check(g.flatten(order), a.flatten(order))


def test_ravel_is_a_view_flatten_a_copy():
    a = np.arange(12.0).reshape(3, 4)
    g = gp.asarray(a)
    r, f = g.ravel(), g.flatten()
    base = gp.asarray(a.T.copy())
    rk = base.T.ravel("K")           # memory order of a transpose: a view
    g[0, 1] = -5.0
    a[0, 1] = -5.0
    check(r, a.ravel())
    check(f, np.arange(12.0))
    base[0, 1] = -7.0
    assert float(rk[1]) == -7.0
    with pytest.raises(ValueError):
        gp.ravel(g, order="X")
    with pytest.raises(ValueError):
        g.reshape(12, order="K")


@pytest.mark.parametrize("name,a,g", LAYOUT_PAIRS[:-1], ids=[p[0] for p in LAYOUT_PAIRS[:-1]])
def test_reshape_order_a(name, a, g):
    check(g.reshape((4, 6), order="A"), a.reshape((4, 6), order="A"))
    check(gp.reshape(g, (-1, 2), order="F"), np.reshape(a, (-1, 2), order="F"))


@pytest.mark.parametrize("axis,start", [(2, 0), (0, 3), (1, 0), (-1, 1), (0, -1), (1, 1),
                                        (2, 2), (0, -3)])
def test_rollaxis(axis, start):
    a = rand((2, 3, 4))
    g = gp.asarray(a)
    check(gp.rollaxis(g, axis, start), np.rollaxis(a, axis, start))


@pytest.mark.parametrize("axis,start", [(3, 0), (0, 4), (0, -4)])
def test_rollaxis_errors(axis, start):
    a = np.zeros((2, 3, 4))
    with pytest.raises(AxisError):
        np.rollaxis(a, axis, start)
    with pytest.raises(AxisError):
        gp.rollaxis(gp.asarray(a), axis, start)


# ====================================================================== atleast / stacks

@pytest.mark.parametrize("fname", ["atleast_1d", "atleast_2d", "atleast_3d"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 1, 3), (0,)], ids=str)
def test_atleast(fname, shape):
    a = rand(shape, np.int32)
    g = gp.asarray(a)
    r = getattr(gp, fname)(g)
    check(r, getattr(np, fname)(a))
    # a view: writes to the base show through
    g[...] = 7
    check(r, getattr(np, fname)(np.full(shape, 7, np.int32)))
    many = getattr(gp, fname)(g, 1.5, [1, 2])
    ref = getattr(np, fname)(np.full(shape, 7, np.int32), 1.5, [1, 2])
    assert isinstance(many, tuple) and len(many) == 3
    check(many, ref)
    assert getattr(gp, fname)() == getattr(np, fname)() == ()


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES[:4], ids=DT_IDS[:4])
def test_stacks(dtype, layout):
    a1, g1 = pair(rand((3, 4), dtype, 1), layout)
    a2, g2 = pair(rand((3, 4), dtype, 2), "contiguous")
    for f in ("vstack", "hstack", "dstack", "column_stack"):
        check(getattr(gp, f)([g1, g2]), getattr(np, f)([a1, a2]))
        check(getattr(gp, f)((g1,)), getattr(np, f)((a1,)))
    v1, v2 = rand((5,), dtype, 3), rand((5,), dtype, 4)
    h1, h2 = gp.asarray(v1), gp.asarray(v2)
    for f in ("vstack", "hstack", "dstack", "column_stack"):
        check(getattr(gp, f)([h1, h2]), getattr(np, f)([v1, v2]))
    check(gp.hstack([gp.asarray(1), h1]), np.hstack([np.asarray(1), v1]))
    check(gp.column_stack([h1[:3], g1]), np.column_stack([v1[:3], a1]))


def test_stack_dtype_casting_and_errors():
    a, b = np.arange(3), np.arange(3.0)
    ga, gb = gp.asarray(a), gp.asarray(b)
    check(gp.vstack([ga, gb], dtype=np.float32), np.vstack([a, b], dtype=np.float32))
    check(gp.hstack([ga, ga], dtype=np.int8), np.hstack([a, a], dtype=np.int8))
    check(gp.vstack([ga, gb], dtype=np.int8, casting="unsafe"),
          np.vstack([a, b], dtype=np.int8, casting="unsafe"))
    with pytest.raises(TypeError):
        gp.hstack([ga, gb], dtype=np.int8)
    with pytest.raises(ValueError):
        gp.vstack([])
    with pytest.raises(ValueError):
        gp.column_stack([ga, gp.zeros((4, 2))])
    with pytest.raises(TypeError):
        gp.vstack(x for x in [ga])
    if hasattr(np, "row_stack"):      # gone from some NumPy 2.x releases
        with pytest.warns(DeprecationWarning):
            r = gp.row_stack([ga, ga])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            check(r, np.row_stack([a, a]))


def test_concatenate_keywords():
    a, b = np.arange(4), np.arange(4.0) / 3
    ga, gb = gp.asarray(a), gp.asarray(b)
    check(gp.concatenate([ga, gb], dtype=np.float32), np.concatenate([a, b], dtype=np.float32))
    check(gp.concatenate([ga, ga], dtype=np.int8), np.concatenate([a, a], dtype=np.int8))
    out = gp.zeros(8, np.int16)
    r = gp.concatenate([ga, ga], out=out)
    assert r is out
    check(out, np.concatenate([a, a]).astype(np.int16))
    with pytest.raises(TypeError):
        gp.concatenate([ga, gb], dtype=np.int8)
    with pytest.raises(TypeError):
        gp.concatenate([ga, gb], out=gp.zeros(8, np.int8))
    with pytest.raises(TypeError):
        gp.concatenate([ga], out=gp.zeros(4), dtype=float)
    with pytest.raises(ValueError):
        gp.concatenate([ga], casting="bad")
    with pytest.raises(ValueError):
        gp.concatenate([ga], out=gp.zeros(5))


@pytest.mark.parametrize("case", [
    lambda m: [m.eye(2), m.zeros((2, 1))],
    lambda m: [[m.eye(2), m.zeros((2, 1))], [m.ones((1, 2)), m.full((1, 1), 5.0)]],
    lambda m: [1, 2, 3],
    lambda m: [[1, 2], [3, 4]],
    lambda m: [[[m.ones((2, 2))], [m.zeros((1, 2))]]],
    lambda m: m.arange(3.0),
    lambda m: 4,
    lambda m: [m.arange(2), [5]],
], ids=["row", "2x2", "scalars", "nested_scalars", "3deep", "bare", "scalar", "mixed"])
def test_block(case):
    try:
        exp = np.block(case(np))
    except Exception as e:   # noqa: BLE001  (the error must match)
        with pytest.raises(type(e)):
            gp.block(case(gp))
        return
    check(gp.block(case(gp)), exp)


@pytest.mark.parametrize("bad,exc", [([], ValueError), ([[1], [[2]]], ValueError),
                                     (([1],), TypeError), ([[]], ValueError),
                                     ([[1, 2], [3]], ValueError)])
def test_block_errors(bad, exc):
    with pytest.raises(exc):
        np.block(bad)
    with pytest.raises(exc):
        gp.block(bad)


# ====================================================================== split / unstack

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("ios,axis", [(2, 0), (3, 1), ([1, 3], 1), ([0, 5, -1], 1),
                                      ([3, 1], 0), ([], 0), (4, -1), (np.array([2]), 0),
                                      (1, 0)])
def test_array_split(ios, axis, layout):
    a, g = pair(rand((4, 6)), layout)
    check(tuple(gp.array_split(g, ios, axis)), tuple(np.array_split(a, ios, axis)))
    try:
        exp = np.split(a, ios, axis)
    except ValueError:
        with pytest.raises(ValueError):
            gp.split(g, ios, axis)
    else:
        check(tuple(gp.split(g, ios, axis)), tuple(exp))


def test_split_views_and_variants():
    a = rand((4, 6, 2), np.int64)
    g = gp.asarray(a)
    pieces = gp.split(g, 2, axis=1)
    g[...] = 1
    for p in pieces:
        check(p, np.ones((4, 3, 2), np.int64))
    a = rand((4, 6, 2), np.int64)
    g = gp.asarray(a)
    check(tuple(gp.hsplit(g, 3)), tuple(np.hsplit(a, 3)))
    check(tuple(gp.vsplit(g, [1])), tuple(np.vsplit(a, [1])))
    check(tuple(gp.dsplit(g, 2)), tuple(np.dsplit(a, 2)))
    check(tuple(gp.hsplit(gp.arange(6), 2)), tuple(np.hsplit(np.arange(6), 2)))
    with pytest.raises(ValueError):
        gp.split(gp.arange(5), 2)
    with pytest.raises(ValueError):
        gp.array_split(gp.arange(5), 0)
    with pytest.raises(IndexError):
        gp.split(gp.asarray(1), 1)
    with pytest.raises(IndexError):
        gp.split(g, 2, axis=3)
    with pytest.raises(ValueError):
        gp.hsplit(gp.asarray(1), 1)
    with pytest.raises(ValueError):
        gp.vsplit(gp.arange(4), 2)
    with pytest.raises(ValueError):
        gp.dsplit(gp.ones((2, 2)), 2)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_unstack(axis):
    a = rand((2, 3, 4), np.complex64)
    g = gp.asarray(a)
    r = gp.unstack(g, axis=axis)
    check(r, np.unstack(a, axis=axis))
    g[...] = 2
    check(r[0], np.full(np.unstack(a, axis=axis)[0].shape, 2, np.complex64))
    with pytest.raises(ValueError):
        gp.unstack(gp.asarray(1.0))
    with pytest.raises(AxisError):
        gp.unstack(g, axis=3)


# ====================================================================== flip / roll / rot90

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (), (2, 0, 1)], ids=str)
def test_flip(axis, layout):
    a, g = pair(rand((3, 4, 2), np.float32), layout)
    check(gp.flip(g, axis), np.flip(a, axis))


def test_flip_views_and_errors():
    a = rand((3, 4), np.int32)
    g = gp.asarray(a)
    f, lr, ud = gp.flip(g), gp.fliplr(g), gp.flipud(g)
    g[1] = 99
    a[1] = 99
    check(f, np.flip(a))
    check(lr, np.fliplr(a))
    check(ud, np.flipud(a))
    f[0, 0] = -1            # and a write through the view reaches the base
    a[-1, -1] = -1
    check(g, a)
    check(gp.flip(gp.asarray(3.0)), np.flip(np.asarray(3.0)))
    v = rand((7,), np.float64)          # a vector, whole and in parts, and a view of it
    gv = gp.asarray(v)
    for part in (slice(None), slice(2, 6), slice(None, None, 2), slice(5, 0, -1)):
        check(gp.flip(gv[part]), np.flip(v[part]))
    fv = gp.flip(gv)
    gv[0] = -5.0
    v[0] = -5.0
    check(fv, np.flip(v))
    check(gp.flip(gp.zeros((0, 3))), np.flip(np.zeros((0, 3))))
    with pytest.raises(AxisError):
        gp.flip(g, 2)
    with pytest.raises(ValueError):
        gp.flip(g, (0, 0))
    with pytest.raises(ValueError):
        gp.fliplr(gp.arange(3))
    with pytest.raises(ValueError):
        gp.flipud(gp.asarray(1))


ROLLS = [(1, None), (-7, None), (2, 0), (-1, 1), (13, -1), ((1, 2), (0, 1)), ((1, 2), (0, 0)),
         (0, 1), ([3, -1], 1), (1.5, 0)]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
def test_roll(dtype, layout):
    a, g = pair(rand((3, 5), dtype, 7), layout)
    cases = ROLLS if dtype == np.float64 else ROLLS[1:3] + ROLLS[5:6]
    for shift, axis in cases:
        check(gp.roll(g, shift, axis), np.roll(a, shift, axis))


@DET
@given(shape=st.lists(st.integers(0, 4), min_size=0, max_size=3),
       shift=st.integers(-20, 20), data=st.data())
def test_roll_hypothesis(shape, shift, data):
    a = rand(tuple(shape), np.int16, 3)
    g = gp.asarray(a)
    axis = data.draw(st.none() | (st.integers(-len(shape), len(shape) - 1)
                                  if shape else st.none()))
    check(gp.roll(g, shift, axis), np.roll(a, shift, axis))


def test_roll_is_a_copy_and_errors():
    a = np.arange(5.0)
    g = gp.asarray(a)
    r0, r1 = gp.roll(g, 0), gp.roll(g, 2)
    g[0] = 100.0
    check(r0, np.arange(5.0))
    check(r1, np.roll(np.arange(5.0), 2))
    with pytest.raises(AxisError):
        gp.roll(g, 1, axis=1)
    with pytest.raises(ValueError):
        gp.roll(gp.ones((2, 2)), [[1]], axis=0)
    with pytest.raises(ValueError):
        gp.roll(gp.ones((2, 2)), (1, 2), axis=(0, 1, 0))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("k", [0, 1, 2, 3, -1, 5])
@pytest.mark.parametrize("axes", [(0, 1), (1, 0), (2, 0), (-1, -2)], ids=str)
def test_rot90(k, axes, layout):
    a, g = pair(rand((2, 3, 4), np.int8), layout)
    check(gp.rot90(g, k, axes), np.rot90(a, k, axes))


@pytest.mark.parametrize("axes", [(0, 0), (0, 5), (0,), (0, -3), (0, 1, 2)], ids=str)
def test_rot90_errors(axes):
    with pytest.raises(ValueError):
        np.rot90(np.ones((2, 3, 4)), axes=axes)
    with pytest.raises(ValueError):
        gp.rot90(gp.ones((2, 3, 4)), axes=axes)
    with pytest.raises(ValueError):
        gp.rot90(gp.arange(3))


def test_rot90_is_a_view():
    a = np.arange(6).reshape(2, 3)
    g = gp.asarray(a)
    r = gp.rot90(g)
    g[0, 0] = -1
    a[0, 0] = -1
    check(r, np.rot90(a))


# ====================================================================== tile / repeat / resize

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("reps", [2, (2, 1), (1, 3), (2, 2, 2), (0, 2), (), 1, (1, 1)],
                         ids=str)
def test_tile(reps, layout):
    a, g = pair(rand((2, 3), np.complex64), layout)
    r = gp.tile(g, reps)
    check(r, np.tile(a, reps))


def test_tile_edge_cases():
    check(gp.tile(gp.asarray(2.5), (2, 3)), np.tile(np.asarray(2.5), (2, 3)))
    check(gp.tile(gp.zeros((0, 2)), 3), np.tile(np.zeros((0, 2)), 3))
    check(gp.tile([1, 2], 2), np.tile([1, 2], 2))
    g = gp.arange(3)
    t = gp.tile(g, 1)
    g[0] = 10                      # tile always copies
    check(t, np.arange(3))
    with pytest.raises(ValueError):
        gp.tile(g, -1)
    with pytest.raises(TypeError):
        gp.tile(g, 1.5)


REPEATS = [(2, None), (3, 0), (0, 1), ([1, 0, 2], 0), ([2] * 4, 1), ([1, 2, 0, 3], -1),
           ([4], 1), (np.array([0, 1, 2]), 0), (1, -1)]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
def test_repeat(dtype, layout):
    a, g = pair(rand((3, 4), dtype, 11), layout)
    cases = REPEATS if dtype == np.int32 else REPEATS[::3]
    for repeats, axis in cases:
        check(gp.repeat(g, repeats, axis), np.repeat(a, repeats, axis))
        check(g.repeat(repeats, axis), a.repeat(repeats, axis))


def test_repeat_many_runs_and_errors():
    rng = np.random.default_rng(5)
    a = rand((40, 3), np.float32, 5)
    reps = rng.integers(0, 4, 40)
    g = gp.asarray(a)
    check(gp.repeat(g, reps, axis=0), np.repeat(a, reps, axis=0))
    check(gp.repeat(g, gp.asarray(reps), axis=0), np.repeat(a, reps, axis=0))
    check(gp.repeat(gp.asarray(3), 2), np.repeat(np.asarray(3), 2))
    check(gp.repeat(gp.asarray(3), [2], axis=0), np.repeat(np.asarray(3), [2], axis=0))
    check(gp.repeat(g, 1.5), np.repeat(a, 1.5))
    e = np.zeros((2, 0), np.float32)        # empty counts for an empty axis
    check(gp.repeat(gp.asarray(e), np.array([], np.int8), axis=1),
          np.repeat(e, np.array([], np.int8), axis=1))
    check(gp.repeat(gp.asarray(np.array([], bool)), gp.asarray(np.array([], np.int8))),
          np.repeat(np.array([], bool), np.array([], np.int8)))
    r = gp.repeat(g, 1)
    g[0, 0] = 100.0                # repeat always copies
    check(r, np.repeat(a, 1))
    with pytest.raises(ValueError):
        gp.repeat(g, -1)
    with pytest.raises(ValueError):
        gp.repeat(g, [1, 2])
    with pytest.raises(ValueError):
        gp.repeat(gp.arange(3), [1, -1, 2])
    with pytest.raises(ValueError):
        gp.repeat(g, [[1]])
    with pytest.raises(AxisError):
        gp.repeat(g, 2, axis=2)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", [(7,), (2, 5), (3, 2, 2), 4, (0,), (2, 0), ()], ids=str)
def test_resize(shape, layout):
    a, g = pair(rand((2, 3), np.int16, 2), layout)
    check(gp.resize(g, shape), np.resize(a, shape))


def test_resize_errors_and_empty():
    check(gp.resize(gp.zeros(0), 3), np.resize(np.zeros(0), 3))
    with pytest.raises(ValueError):
        gp.resize(gp.arange(3), (2, -1))


@pytest.mark.parametrize("new", [(6,), (2, 4), (1,), (0,), (3, 2)], ids=str)
def test_ndarray_resize(new):
    a = np.arange(6.0).reshape(2, 3).copy()
    g = gp.asarray(a)
    a.resize(new, refcheck=False)
    g.resize(new)
    check(g, a)
    g2 = gp.arange(4.0) * 2          # lazy
    a2 = np.arange(4.0) * 2
    g2.resize(2, 3)
    a2.resize(2, 3, refcheck=False)
    check(g2, a2)


def test_ndarray_resize_errors():
    g = gp.arange(6.0)
    v = g[::2]
    with pytest.raises(ValueError):
        v.resize(2)
    with pytest.raises(ValueError):
        g.resize(3)             # it has a view
    g.resize(3, refcheck=False)
    check(g, np.arange(3.0))
    check(v, np.arange(0.0, 6.0, 2))


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


# ====================================================================== layout requests

@pytest.mark.parametrize("name,a,g", LAYOUT_PAIRS, ids=[p[0] for p in LAYOUT_PAIRS])
def test_ascontiguous_asfortran(name, a, g):
    c, f = gp.ascontiguousarray(g), gp.asfortranarray(g)
    nc, nf = np.ascontiguousarray(a), np.asfortranarray(a)
    check(c, nc)
    check(f, nf)
    assert _strides(c) == _strides(nc)
    assert _strides(f) == _strides(nf)
    check(gp.ascontiguousarray(g, dtype=np.float32), np.ascontiguousarray(a, dtype=np.float32))
    for req in (None, "C", "F", ["A", "W"], "O", ["C", "E"], ["F_CONTIGUOUS"], "AW"):
        r, e = gp.require(g, requirements=req), np.require(a, requirements=req)
        check(r, e)
        if req in ("C", "F"):
            assert _strides(r) == _strides(e)


def _strides(x):
    # the stride of a length-1 axis is arbitrary
    return tuple(s for s, d in zip(x.strides, x.shape) if d != 1)


def test_layout_requests_identity_and_errors():
    g = gp.ones((2, 3))
    assert gp.ascontiguousarray(g) is g
    assert gp.asfortranarray(g.T) is g.T or gp.asfortranarray(g.T).strides == (8, 24)
    assert gp.require(g, requirements="C") is g
    with pytest.raises(ValueError):
        gp.require(g, requirements="CF")
    with pytest.raises(KeyError):
        gp.require(g, requirements="Z")


# ====================================================================== copyto

@pytest.mark.parametrize("layout", ["contiguous", "strided", "lazy"])
@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
def test_copyto(dtype, layout):
    d, g = pair(rand((3, 4), dtype, 1), layout)
    d = d.copy()
    src = rand((4,), dtype, 2)
    np.copyto(d, src)
    gp.copyto(g, gp.asarray(src))
    check(g, d)
    mask = rand((3, 4), np.bool_, 3)
    src2 = rand((3, 1), dtype, 4)
    np.copyto(d, src2, where=mask)
    gp.copyto(g, src2, where=gp.asarray(mask))
    check(g, d)
    one = True if dtype.kind == "b" else 1
    np.copyto(d, one, where=[True, False, False, True])
    gp.copyto(g, one, where=[True, False, False, True])
    check(g, d)
    if dtype.kind == "b":
        with pytest.raises(TypeError):
            np.copyto(d, 1)
        with pytest.raises(TypeError):
            gp.copyto(g, 1)


def test_copyto_views_casting_errors():
    a = np.zeros((3, 4), np.float32)
    g = gp.asarray(a)
    v, nv = g[:, 1::2], a[:, 1::2]
    np.copyto(nv, np.arange(2), casting="unsafe")
    gp.copyto(v, gp.arange(2), casting="unsafe")
    check(g, a)
    np.copyto(a.T, 2.5, where=a.T == 0)
    gp.copyto(g.T, 2.5, where=g.T == 0)
    check(g, a)
    np.copyto(a, 1.0, casting="safe")
    gp.copyto(g, 1.0, casting="safe")
    check(g, a)
    i8 = gp.zeros(3, np.int8)
    for src, kw, exc in [(300, {}, OverflowError), (1.5, {}, TypeError),
                         (np.ones(3), {}, TypeError), (np.ones(4, np.int8), {}, ValueError),
                         (1j, {}, TypeError), (np.ones(3, np.int64), {"casting": "safe"},
                                               TypeError),
                         (2 ** 40, {"casting": "unsafe"}, OverflowError),
                         (1, {"where": np.ones(3)}, TypeError),
                         (1, {"casting": "bad"}, ValueError)]:
        with pytest.raises(exc):
            np.copyto(np.zeros(3, np.int8), src, **kw)
        with pytest.raises(exc):
            gp.copyto(i8, src, **kw)
    with pytest.raises(TypeError):
        gp.copyto([1, 2], 3)
    check(i8, np.zeros(3, np.int8))


# ====================================================================== diagonals

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
def test_diagonal_2d(dtype, layout):
    a, g = pair(rand((4, 5), dtype, 3), layout)
    for offset in [0, 1, -2, 5, -4]:
        check(gp.diagonal(g, offset), np.diagonal(a, offset))
        check(g.diagonal(offset), a.diagonal(offset))
        check(gp.diag(g, offset), np.diag(a, offset))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("offset,axis1,axis2", [(0, 0, 1), (1, 1, 2), (-1, 2, 0), (2, -1, -3),
                                                (0, 2, 1), (-3, 0, 2)])
def test_diagonal_nd(offset, axis1, axis2, layout):
    a, g = pair(rand((3, 4, 5), np.float32, 2), layout)
    check(gp.diagonal(g, offset, axis1, axis2), np.diagonal(a, offset, axis1, axis2))
    check(gp.trace(g, offset, axis1, axis2), np.trace(a, offset, axis1, axis2))


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "lazy"])
def test_diagonal_is_a_view(layout):
    a, g = pair(rand((4, 4), np.float64, 1), layout)
    a = a.copy()
    d = gp.diagonal(g, 1)
    g[0, 1] = 42.0
    a[0, 1] = 42.0
    g[...] = g * 2
    a *= 2
    check(d, np.diagonal(a, 1))
    e = gp.diagonal(gp.asarray(np.arange(24.0).reshape(2, 3, 4)), 0, 1, 2)
    assert e._base is not None           # the last two axes: always a view


def test_diagonal_errors():
    for args, exc in [((np.arange(3),), ValueError), ((np.ones((2, 2)), 0, 0, 0), ValueError),
                      ((np.ones((2, 2)), 0, 0, -2), ValueError),
                      ((np.ones((2, 2)), 0, 0, 2), AxisError),
                      ((np.ones((2, 2)), 1.5), TypeError)]:
        with pytest.raises(exc):
            np.diagonal(*args)
        with pytest.raises(exc):
            gp.diagonal(gp.asarray(args[0]), *args[1:])
    with pytest.raises(ValueError):
        gp.diag(gp.ones((2, 2, 2)))
    with pytest.raises(ValueError):
        gp.diag(gp.asarray(1.0))
    with pytest.raises(ValueError):
        gp.trace(gp.arange(3))


@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
@pytest.mark.parametrize("k", [0, 1, -2, 3])
@pytest.mark.parametrize("n", [0, 1, 4])
def test_diag_diagflat_build(dtype, k, n):
    v = rand((n,), dtype, 4)
    g = gp.asarray(v)
    check(gp.diag(g, k), np.diag(v, k))
    check(gp.diag(g + gp.zeros((), dtype) if dtype != np.bool_ else g, k), np.diag(v, k))
    m = rand((2, 2), dtype, 5)
    check(gp.diagflat(gp.asarray(m), k), np.diagflat(m, k))
    check(gp.diagflat([1, 2], k), np.diagflat([1, 2], k))


@pytest.mark.parametrize("dtype", [None, np.float32, np.int8, np.complex128], ids=str)
def test_trace_dtype_out(dtype):
    a = rand((3, 4, 4), np.int16, 3)
    g = gp.asarray(a)
    check(gp.trace(g, dtype=dtype), np.trace(a, dtype=dtype))
    check(g.trace(1, 1, 2, dtype=dtype), a.trace(1, 1, 2, dtype=dtype))
    out = gp.zeros(4, np.float64)
    r = gp.trace(g, axis1=1, axis2=0, out=out)
    assert r is out
    check(out, np.trace(a, axis1=1, axis2=0).astype(np.float64))
    b = rand((4, 4), np.bool_, 1)
    check(gp.trace(gp.asarray(b)), np.trace(b))


@pytest.mark.parametrize("layout", ["contiguous", "strided", "transposed", "lazy"])
@pytest.mark.parametrize("shape,wrap", [((4, 4), False), ((5, 3), False), ((7, 3), True),
                                        ((3, 5), True), ((3, 3, 3), False), ((2, 2, 2, 2), True),
                                        ((1, 1), False), ((0, 3), False)])
@pytest.mark.parametrize("val", [5, np.arange(10)], ids=["5", "arange"])
def test_fill_diagonal(shape, wrap, val, layout):
    a, g = pair(rand(shape, np.float32, 2), layout)
    a = a.copy()
    np.fill_diagonal(a, val, wrap=wrap)
    r = gp.fill_diagonal(g, val, wrap=wrap)
    assert r is None
    check(g, a)


def test_fill_diagonal_views_dtypes_errors():
    a = np.zeros((6, 6), np.int32)
    g = gp.asarray(a)
    np.fill_diagonal(a[::2, 1:4], 7)
    gp.fill_diagonal(g[::2, 1:4], 7)
    check(g, a)
    np.fill_diagonal(a[1:].T, gp.asarray([1, 2]).get())
    gp.fill_diagonal(g[1:].T, gp.asarray([1, 2]))
    check(g, a)
    for dt in DTYPES:
        b = rand((3, 3), dt, 6)
        h = gp.asarray(b)
        np.fill_diagonal(b, b[0])
        gp.fill_diagonal(h, gp.asarray(b[0]))
        check(h, b)
    with pytest.raises(ValueError):
        gp.fill_diagonal(gp.zeros(3), 1)
    with pytest.raises(ValueError):
        gp.fill_diagonal(gp.zeros((2, 3, 2)), 1)
    with pytest.raises(OverflowError):
        gp.fill_diagonal(gp.zeros((2, 2), np.int8), 300)


# ====================================================================== index grids

@pytest.mark.parametrize("n", [0, 1, 5, 9])
@pytest.mark.parametrize("m", [None, 0, 1, 3, 8])
def test_tri_indices(n, m):
    for k in [-10, -3, -1, 0, 1, 2, 7]:
        check(gp.tril_indices(n, k, m), np.tril_indices(n, k, m))
        check(gp.triu_indices(n, k, m), np.triu_indices(n, k, m))


@DET
@given(n=st.integers(0, 60), k=st.integers(-70, 70), m=st.integers(0, 60))
def test_tri_indices_hypothesis(n, k, m):
    check(gp.tril_indices(n, k, m), np.tril_indices(n, k, m))
    check(gp.triu_indices(n, k, m), np.triu_indices(n, k, m))


def test_tri_indices_from_and_mask_indices():
    a = np.ones((4, 6))
    g = gp.asarray(a)
    for k in (-1, 0, 2):
        check(gp.tril_indices_from(g, k), np.tril_indices_from(a, k))
        check(gp.triu_indices_from(g, k), np.triu_indices_from(a, k))
        check(gp.mask_indices(4, gp.triu, k), np.mask_indices(4, np.triu, k))
        check(gp.mask_indices(4, np.tril, k), np.mask_indices(4, np.tril, k))
    check(gp.tril_indices(3, k=1.5), np.tril_indices(3, k=1.5))
    with pytest.raises(ValueError):
        gp.tril_indices_from(gp.arange(3))
    with pytest.raises(ValueError):
        gp.triu_indices_from(gp.ones((2, 2, 2)))


def test_mask_indices_general():
    if not hasattr(gp, "nonzero"):
        with pytest.raises(NotImplementedError):
            gp.mask_indices(3, lambda m, k: m * 2, 0)
        return
    check(gp.mask_indices(3, lambda m, k: gp.fliplr(gp.triu(m, k)), 1),
          np.mask_indices(3, lambda m, k: np.fliplr(np.triu(m, k)), 1))


@pytest.mark.parametrize("dims", [(2, 3), (4,), (), (2, 0, 3), (1, 2, 3, 2)], ids=str)
@pytest.mark.parametrize("dtype", [int, np.float32, np.int8, np.uint16], ids=str)
@pytest.mark.parametrize("sparse", [False, True])
def test_indices(dims, dtype, sparse):
    check(gp.indices(dims, dtype=dtype, sparse=sparse), np.indices(dims, dtype=dtype,
                                                                   sparse=sparse))


def test_indices_fromfunction_broadcast_shapes():
    with pytest.raises(ValueError):
        gp.indices((2, -3))
    f = lambda i, j, c=1: i * 10 + j + c  # noqa: E731
    check(gp.fromfunction(f, (3, 4)), np.fromfunction(f, (3, 4)))
    check(gp.fromfunction(f, (3, 4), dtype=int, c=5), np.fromfunction(f, (3, 4), dtype=int,
                                                                      c=5))
    for shapes in [((2, 1), (3,)), (1, (2, 3)), (), ((0,), (1,)), ((4, 1, 2), (3, 1))]:
        assert gp.broadcast_shapes(*shapes) == np.broadcast_shapes(*shapes)
    with pytest.raises(ValueError):
        gp.broadcast_shapes((2,), (3,))
    with pytest.raises(ValueError):
        gp.broadcast_shapes((-1,))


# ====================================================================== NumPy dispatch

def test_numpy_functions_dispatch_to_gnumpy():
    g = gp.arange(12.0).reshape(3, 4)
    for f, args in [(np.flip, ()), (np.roll, (1,)), (np.tile, (2,)), (np.pad, (1,)),
                    (np.diagonal, ()), (np.rot90, ()), (np.repeat, (2,)),
                    (np.delete, (1,)), (np.insert, (1, 5.0)), (np.atleast_3d, ()),
                    (np.trim_zeros, ())]:
        r = f(g, *args)
        assert isinstance(r, gp.ndarray), f.__name__
        check(r, f(np.arange(12.0).reshape(3, 4), *args))


def test_bool_axes_of_transpose_and_squeeze_raise_as_numpy():
    """NumPy refuses bools as transpose's axes and squeeze's axis (TypeError, with these
    messages); ints and NumPy ints, in any order, are permutations."""
    a = np.ones((2, 3, 4))
    g = gp.asarray(a)
    for axes in [(True, False, 2), (np.True_, False, 2), (0, True, 2)]:
        with pytest.raises(TypeError, match="an integer is required"):
            np.transpose(a, axes)
        with pytest.raises(TypeError, match="an integer is required"):
            gp.transpose(g, axes)
    for axes in [(1, 0, 2), (2, 0, 1), (np.int64(2), 1, 0), (-1, 0, 1), [1, 2, 0]]:
        check(gp.transpose(g, axes), np.transpose(a, axes))
    s = np.ones((1, 3, 1))
    for axis, msg in [(True, "an integer is required for the axis"),
                      ((0, True), "integers are required for the axis tuple elements")]:
        with pytest.raises(TypeError, match=msg):
            np.squeeze(s, axis)
        with pytest.raises(TypeError, match=msg):
            gp.squeeze(gp.asarray(s), axis)


def test_repeat_of_an_empty_axis_by_a_negative_count():
    """NumPy repeats an empty axis any number of times, a negative one too; a non-empty
    axis refuses a negative count."""
    for a, axis in [(np.array([]), None), (np.zeros((2, 0)), 1), (np.zeros((0, 3)), 0)]:
        check(gp.repeat(gp.asarray(a), -1, axis=axis), np.repeat(a, -1, axis=axis))
    with pytest.raises(ValueError, match="negative dimensions"):
        np.repeat(np.zeros((2, 0)), -1, axis=0)
    with pytest.raises(ValueError, match="negative dimensions"):
        gp.repeat(gp.zeros((2, 0)), -1, axis=0)
