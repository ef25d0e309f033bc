"""Array manipulation breadth against NumPy: ravel/flatten orders, rollaxis, atleast_*, the
stacks, block, split family, unstack, flip, roll, rot90, tile, repeat, resize,
memory-layout requests, copyto, NumPy dispatch.  pad, append, insert, delete and
trim_zeros are in test_pad_insert_delete.py; diagonals, trace, fill_diagonal, triangle
indices and index grids in test_diagonals_grids.py.

Every function runs on several dtypes and on inputs of several layouts: contiguous,
strided (a stepped slice), transposed, reversed (negative strides) and lazy (an
unmaterialized expression).  Where NumPy returns a view (flip, split pieces, atleast_*),
writes to the base must show through it.
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


def test_join_refuses_an_iterator_and_takes_an_array():
    a = np.arange(6.0).reshape(2, 3)
    ga = gp.asarray(a)
    with pytest.raises(TypeError, match="sequence"):
        gp.stack(x for x in [ga[0], ga[1]])
    with pytest.raises(TypeError, match="sequence"):
        gp.concatenate(x for x in [ga[0], ga[1]])
    check(gp.stack(ga), np.stack(a))
    check(gp.concatenate(ga), np.concatenate(a))
    check(gp.stack(a, axis=1), np.stack(a, axis=1))


@pytest.mark.parametrize("f", ["concatenate", "stack"])
def test_join_casting_without_dtype_or_out(f):
    """`casting` with neither dtype nor out: a bad name is NumPy's ValueError (TypeError
    for a non-string), and under 'no' and 'equiv' a piece of another dtype than the
    result's its TypeError (stack's direct path included)."""
    a, b = np.arange(3.0), np.arange(3, dtype=np.float32)
    ga, gb = gp.asarray(a), gp.asarray(b)
    gf, nf = getattr(gp, f), getattr(np, f)
    for casting in ("no", "equiv"):
        with pytest.raises(TypeError):
            gf([ga, gb], casting=casting)
        with pytest.raises(TypeError):
            gf([ga[0:1], gb[1:2]], casting=casting)
        check(gf([ga, ga[::-1]], casting=casting), nf([a, a[::-1]], casting=casting))
    check(gf([ga, gb], casting="safe"), nf([a, b], casting="safe"))
    with pytest.raises(ValueError, match="casting must be one of"):
        gf([ga, ga], casting="foo")
    for bad in (None, 3):
        with pytest.raises(TypeError, match="casting must be str"):
            gf([ga, ga], casting=bad)


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
