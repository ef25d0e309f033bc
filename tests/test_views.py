"""Basic indexing, basic-index assignment and shape manipulation, compared against NumPy.

Index expressions come from hypothesis (ints incl. negative, slices with any step and
out-of-range bounds, Ellipsis, None, on 0-d to 4-d arrays).  Every manipulation function
runs on contiguous, strided (non-contiguous view) and lazy inputs (``(x + 1)[::2].T``).
"""
import functools
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
import hypothesis.extra.numpy as hnp
from numpy.exceptions import AxisError

import gnumpy as gp
from gnumpy._graph import layout as L
from gnumpy._graph.ir import LEAF
from helpers import check, strided_pair

DET = settings(derandomize=True)   # the same examples on every run

VIEW_DTYPES = [np.dtype(t) for t in (np.float64, np.int32, np.bool_, np.uint8, np.float16,
                                     np.complex64, np.int64)]
VD_IDS = [str(d) for d in VIEW_DTYPES]
LAYOUTS = ["contiguous", "strided", "lazy"]


def values(shape, dtype=np.float64):
    """Distinct, exactly representable values (index mistakes cannot hide)."""
    n = int(np.prod(shape))
    v = np.arange(1, n + 1) % 251 if np.dtype(dtype).itemsize == 1 else np.arange(1, n + 1)
    if np.dtype(dtype).kind == "b":
        v = (np.arange(n) * 7 % 3) == 0
    elif np.dtype(dtype).kind == "c":
        v = v + 1j * (-v)
    return np.asarray(v).astype(dtype).reshape(shape)


def lazy_of(a):
    """A lazy gnumpy array with the values of `a`: ``(x + 1)[::2].T`` (x holds a.T - 1)."""
    if a.dtype.kind == "b":
        if a.ndim == 0:
            return gp.logical_not(gp.asarray(~a))
        t = ~a.T
        big = np.zeros((2 * t.shape[0],) + t.shape[1:], dtype=a.dtype)
        big[::2] = t
        return gp.logical_not(gp.asarray(big))[::2].T
    with np.errstate(all="ignore"):
        t = (a.T - np.ones((), a.dtype)).astype(a.dtype)
    if a.ndim == 0:
        return gp.asarray(t) + np.ones((), a.dtype)
    big = np.zeros((2 * t.shape[0],) + t.shape[1:], dtype=a.dtype)
    big[::2] = t
    return (gp.asarray(big) + np.ones((), a.dtype))[::2].T


def variant(a, layout):
    """(numpy array, gnumpy array) with the values of `a` in the requested layout."""
    if layout == "strided":
        return strided_pair(a)
    if layout == "lazy":
        g = lazy_of(a)
        return a, g
    return a, gp.asarray(a)


# ====================================================================== index strategies

@functools.lru_cache(maxsize=None)
def _dim_index_st(size):
    bound = st.none() | st.integers(-2 * size - 2, 2 * size + 2)
    step = st.none() | st.integers(-3, 3).filter(bool)
    sl = st.builds(slice, bound, bound, step)
    if size == 0:
        return sl
    return st.integers(-size, size - 1) | sl


@st.composite
def basic_index(draw, shape):
    """A basic index for `shape`: ints, slices, at most one Ellipsis, some None."""
    ndim = len(shape)
    n_real = draw(st.integers(0, ndim))
    use_ell = draw(st.booleans())
    if use_ell:
        n_head = draw(st.integers(0, n_real))
        dims = list(range(n_head)) + list(range(ndim - (n_real - n_head), ndim))
    else:
        n_head = n_real
        dims = list(range(n_real))
    items = [draw(_dim_index_st(shape[d])) for d in dims]
    if use_ell:
        items.insert(n_head, Ellipsis)
    for _ in range(draw(st.integers(0, 2))):
        items.insert(draw(st.integers(0, len(items))), None)
    if len(items) == 1 and draw(st.booleans()):
        return items[0]
    return tuple(items)


SHAPES = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5)


@st.composite
def shape_and_index(draw):
    shape = draw(SHAPES)
    return shape, draw(basic_index(shape))


# ====================================================================== getitem

@pytest.mark.parametrize("dtype", VIEW_DTYPES, ids=VD_IDS)
@pytest.mark.parametrize("layout", LAYOUTS)
@DET
@given(case=shape_and_index())
def test_getitem(dtype, layout, case):
    shape, key = case
    a, g = variant(values(shape, dtype), layout)
    check(g[key], a[key])


@DET
@given(case=shape_and_index(), data=st.data())
def test_getitem_chained(case, data):
    shape, key = case
    a, g = variant(values(shape), data.draw(st.sampled_from(LAYOUTS), label="layout"))
    v, gv = a[key], g[key]
    key2 = data.draw(basic_index(v.shape), label="key2")
    check(gv[key2], v[key2])
    check((gv + 1)[key2] * 2, (v + 1)[key2] * 2)


@DET
@given(case=shape_and_index(), data=st.data())
def test_basic_index_layout_is_numpys(case, data):
    """The indexing hot path's layout (``layout.basic_index``) is NumPy's view: shape,
    strides, byte offset, and a scalar exactly where NumPy returns one (all ints, no None
    or Ellipsis); a key it declines (None) goes to the general path."""
    shape, key = case
    base = np.arange(max(1, int(np.prod(shape))), dtype=np.int64)[:int(np.prod(shape))]
    a = base.reshape(shape)
    if data.draw(st.booleans(), label="reversed") and a.ndim:
        a = a[::-1]
    off = (a.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // 8
    r = L.basic_index(a.shape, tuple(s // 8 for s in a.strides), off, key)
    v = a[key]
    assert r is not None
    sh, strides, o, element = r
    assert element == (not isinstance(v, np.ndarray))
    v = np.asarray(v) if element else v
    assert sh == v.shape
    if v.size > 1:
        assert all(s * 8 == t for s, t, d in zip(strides, v.strides, sh) if d > 1)
    if v.size:                      # (values are positions: the first is the offset)
        assert o == v.reshape(-1)[0]


_AXIS_KEYS = (-8, -7, -1, 0, 3, 6, 7, slice(None), slice(1, -1), slice(None, None, -2),
              slice(5, 1, -1), slice(10, 20), slice(-100, 100, 3), slice(2, 2),
              slice(None, 3, 2), 1.5, None, Ellipsis, slice(1.0, 2), np.int64(2))


@pytest.mark.parametrize("layout", ["c", "reversed", "transposed"])
def test_matrix_keys_layout_is_numpys(layout):
    """Every pair of the keys above on a 7x5 matrix (``layout._matrix_index``, the
    two-axis hot path, and the general path it declines to): NumPy's layout and
    scalar-ness, or None where NumPy raises or the key is not ints and slices."""
    base = np.arange(35, dtype=np.int64)
    a = {"c": base.reshape(7, 5), "reversed": base.reshape(7, 5)[::-1],
         "transposed": base.reshape(5, 7).T[:, ::-1]}[layout]
    off = (a.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // 8
    for k0 in _AXIS_KEYS:
        for k1 in _AXIS_KEYS:
            key = (k0, k1)
            try:
                v = a[key]
            except (IndexError, TypeError, ValueError):
                v = None
            r = L.basic_index(a.shape, tuple(s // 8 for s in a.strides), off, key)
            if r is None:
                assert v is None or not all(type(k) in (int, slice) for k in key) or \
                    any(k is None or k is Ellipsis for k in key), key
                continue
            assert v is not None, key
            _same_layout(base, r, v, key)


def _same_layout(base, r, v, key):
    """``basic_index``'s result `r` over `base` (int64 positions) is NumPy's `v`: its
    shape, scalar-ness and the position of every element."""
    sh, strides, o, element = r
    assert element == (not isinstance(v, np.ndarray)), key
    v = np.asarray(v)
    assert sh == v.shape, key
    if v.size:
        idx = np.indices(sh).reshape(len(sh), -1) if sh else np.zeros((0, 1), int)
        pos = o + sum((s * i for s, i in zip(strides, idx)), np.zeros(1, int))
        assert np.array_equal(base[pos], v.reshape(-1)), key


_N_D_KEYS = (-1, 0, 2, slice(None), slice(1, -1), slice(None, None, -2), slice(3, 3), None,
             Ellipsis)


@pytest.mark.parametrize("layout", ["c", "reversed", "transposed"])
def test_n_d_keys_layout_is_numpys(layout):
    """Every key of one to three items from the list above on a 3x4x5 array (the general
    loop of ``layout.basic_index``: full slices, new axes, an Ellipsis, ints among
    slices): NumPy's shape, scalar-ness and the position of every element, or None where
    NumPy raises."""
    base = np.arange(60, dtype=np.int64)
    a = {"c": base.reshape(3, 4, 5), "reversed": base.reshape(3, 4, 5)[::-1, :, ::-1],
         "transposed": base.reshape(5, 4, 3).transpose(2, 1, 0)[:, ::-1]}[layout]
    off = (a.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // 8
    strides = tuple(s // 8 for s in a.strides)
    seen = 0
    for n in (1, 2, 3):
        for key in itertools.product(_N_D_KEYS, repeat=n):
            try:
                v = a[key]
            except IndexError:
                v = None
            r = L.basic_index(a.shape, strides, off, key)
            if r is None:
                assert v is None, key
                continue
            assert v is not None, key
            _same_layout(base, r, v, key)
            seen += np.size(v) > 0
    assert seen > 500


@pytest.mark.parametrize("key", [
    pytest.param(5, id="5"), pytest.param(-6, id="-6"), pytest.param((0, 4), id="(0,4)"),
    pytest.param((slice(None), -5), id="(:,-5)"), pytest.param((Ellipsis, 7), id="(...,7)"),
    pytest.param((1, 1, 1), id="too_many"), pytest.param((0, None, 0, 0), id="too_many_None"),
    pytest.param((Ellipsis, 0, Ellipsis), id="two_ellipses"),
    pytest.param(1.0, id="float"), pytest.param((0, "a"), id="str"),
])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_getitem_errors(key, layout):
    a, g = variant(values((5, 4)), layout)
    with pytest.raises(IndexError):
        a[key]
    with pytest.raises(IndexError):
        g[key]


def test_getitem_0d():
    a = np.asarray(7.5)
    g = gp.asarray(a)
    for key in [(), Ellipsis, None, (None, Ellipsis, None)]:
        check(g[key], a[key])
    with pytest.raises(IndexError):
        g[0]


def test_getitem_numpy_integer_and_0d_array_keys():
    a = values((4, 5))
    g = gp.asarray(a)
    check(g[np.int64(2)], a[np.int64(2)])
    check(g[np.int8(-1), np.uint16(3)], a[np.int8(-1), np.uint16(3)])
    check(g[gp.asarray(1)], a[np.asarray(1)])


def test_getitem_returns_gnumpy_arrays_for_scalars():
    # Note: gnumpy returns 0-d arrays where NumPy returns scalars
    g = gp.asarray(values((3, 4)))
    r = g[1, 2]
    assert isinstance(r, gp.ndarray) and r.shape == ()
    assert float(r) == values((3, 4))[1, 2]


def test_iteration_and_len():
    a = values((3, 2))
    g = gp.asarray(a)
    assert len(g) == 3
    rows = list(g)
    assert len(rows) == 3
    for r, e in zip(rows, a):
        check(r, e)


# ====================================================================== setitem

def _value_for(target_shape, dtype, kind, rng):
    if kind == "scalar":
        return {"b": True, "u": 3}.get(np.dtype(dtype).kind, -3)
    if kind == "float_scalar":
        return 2.0
    shape = target_shape
    if kind == "broadcast_row":
        shape = target_shape[-1:] if target_shape else ()
    elif kind == "broadcast_ones":
        shape = tuple(1 if rng.integers(0, 2) else d for d in target_shape)
    v = -values(shape, np.int64) if np.dtype(dtype).kind != "b" else values(shape, bool)
    return v.astype(dtype) if np.dtype(dtype).kind != "u" else (v % 200).astype(dtype)


@pytest.mark.parametrize("dtype", VIEW_DTYPES, ids=VD_IDS)
@pytest.mark.parametrize("layout", LAYOUTS)
@DET
@given(case=shape_and_index(), kind=st.sampled_from(["scalar", "float_scalar", "full",
                                                      "broadcast_row", "broadcast_ones"]),
       as_gnumpy=st.booleans())
def test_setitem(dtype, layout, case, kind, as_gnumpy):
    shape, key = case
    a, g = variant(values(shape, dtype), layout)
    a = a.copy()
    target = a[key].shape
    value = _value_for(target, dtype, kind, np.random.default_rng(len(target)))
    a[key] = value
    g[key] = gp.asarray(value) if (as_gnumpy and isinstance(value, np.ndarray)) else value
    check(g, a)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_setitem_casts_like_numpy(layout):
    a, g = variant(values((3, 4), np.int32), layout)
    a = a.copy()
    a[0] = 2.7
    g[0] = 2.7
    a[1, ::2] = np.array([1.5, -2.5])
    g[1, ::2] = gp.asarray([1.5, -2.5])
    a[2] = np.array([True, False, True, True])
    g[2] = gp.asarray([True, False, True, True])
    check(g, a)


@pytest.mark.parametrize("dtype,value", [(np.int8, 300), (np.uint8, -1), (np.int32, 2 ** 31),
                                         (np.uint64, -1), (np.int64, 2 ** 63)],
                         ids=["int8_300", "uint8_-1", "int32_2**31", "uint64_-1",
                              "int64_2**63"])
def test_setitem_python_int_out_of_range_raises(dtype, value):
    a = np.zeros(3, dtype)
    with pytest.raises(OverflowError):
        a[0] = value
    g = gp.asarray(a)
    with pytest.raises(OverflowError):
        g[0] = value
    with pytest.raises(OverflowError):
        g[1:] = value
    check(g, a)


@pytest.mark.parametrize("make", [
    pytest.param(lambda: gp.zeros((3, 4)), id="zeros"),
    pytest.param(lambda: gp.ones((3, 4)), id="ones"),
    pytest.param(lambda: gp.empty((3, 4)) * 0, id="empty_times_0"),
    pytest.param(lambda: gp.full((3, 4), 2.5), id="full"),
    pytest.param(lambda: gp.zeros_like(gp.asarray(np.ones((3, 4)))), id="zeros_like"),
    pytest.param(lambda: gp.full_like(gp.asarray(np.ones((3, 4))), 2.0), id="full_like"),
    pytest.param(lambda: gp.arange(12.0).reshape(3, 4), id="arange"),
    pytest.param(lambda: gp.eye(3, 4), id="eye"),
    pytest.param(lambda: gp.broadcast_to(gp.asarray(np.arange(4.0)), (3, 4)).copy(),
                 id="broadcast_copy"),
])
@pytest.mark.parametrize("key", [(0, 1), (slice(1, None), slice(None, None, 2)), Ellipsis],
                         ids=["(0,1)", "(1:,::2)", "..."])
def test_setitem_into_fresh_creation_results(make, key):
    g = make()
    a = g.get().copy()          # the values before the write, from gnumpy itself
    np.testing.assert_array_equal(a, make().get())
    a[key] = -9.0
    g[key] = -9.0
    check(g, a)
    # and through an explicit view
    g = make()
    v = g[1]
    v[2] = 42.0
    a = make().get().copy()
    a[1, 2] = 42.0
    check(g, a)


def test_setitem_shape_mismatch_raises():
    a = values((3, 4))
    g = gp.asarray(a)
    with pytest.raises(ValueError):
        a[0] = np.ones(3)
    with pytest.raises(ValueError):
        g[0] = gp.ones(3)
    with pytest.raises(ValueError):
        g[:, 1] = np.ones((3, 1))


def test_setitem_from_list_and_nested_list():
    a = values((3, 4))
    g = gp.asarray(a)
    a[1] = [9, 8, 7, 6]
    g[1] = [9, 8, 7, 6]
    a[:, 0] = [[0.5], [1.5], [2.5]][1]
    g[:, 0] = [[0.5], [1.5], [2.5]][1]
    check(g, a)


def test_setitem_overlapping_self_assignment():
    # NumPy makes the right-hand side a temporary when it overlaps the destination
    a = values((8,))
    g = gp.asarray(a)
    a[1:] = a[:-1]
    g[1:] = g[:-1]
    check(g, a)
    a[::-1] = a.copy()
    g[::-1] = g
    check(g, a)
    b = values((4, 4))
    h = gp.asarray(b)
    b[...] = b.T.copy()
    h[...] = h.T
    check(h, b)


# ====================================================================== reshape & co.

RESHAPES = [
    ((2, 3, 4), (6, 4)), ((2, 3, 4), (-1,)), ((2, 3, 4), (4, -1)), ((2, 3, 4), (2, 1, 12)),
    ((12,), (3, 2, 2)), ((6,), (1, 6, 1)), ((), (1, 1)), ((1,), ()), ((0, 3), (3, 0)),
    ((0, 3), (-1, 5)), ((4, 1, 3), (2, 2, 3)), ((2, 3, 4), 24),
]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("src,dst", RESHAPES, ids=[f"{s}->{d}" for s, d in RESHAPES])
def test_reshape(src, dst, order, layout):
    a, g = variant(values(src), layout)
    check(gp.reshape(g, dst, order=order), np.reshape(a, dst, order=order))
    check(g.reshape(dst, order=order), a.reshape(dst, order=order))
    if isinstance(dst, tuple) and len(dst) > 1:
        check(g.reshape(*dst), a.reshape(*dst))


@pytest.mark.parametrize("src,dst", [((6,), (4, -1)), ((6,), (-1, -1)), ((6,), (7,)),
                                     ((0, 3), (-1, 0))],
                         ids=["not_divisible", "two_unknowns", "size_mismatch", "zero_unknown"])
def test_reshape_errors(src, dst):
    a = values(src)
    with pytest.raises(ValueError):
        a.reshape(dst)
    with pytest.raises(ValueError):
        gp.asarray(a).reshape(dst)


def test_reshape_copy_false():
    a = values((4, 6))
    g = gp.asarray(a)
    # possible without a copy: fine, and a view
    v = gp.reshape(g, (2, 12), copy=False)
    check(v, a.reshape(2, 12))
    v[0, 0] = -1.0
    assert float(g[0, 0]) == -1.0
    # a transposed (or strided-in-the-middle) layout cannot be flattened without a copy
    with pytest.raises(ValueError):
        np.reshape(a.T, (-1,), copy=False)
    with pytest.raises(ValueError):
        gp.reshape(g.T, (-1,), copy=False)
    with pytest.raises(ValueError):
        gp.reshape(g[:, ::2][::2].T, (6,), copy=False)


def test_reshape_copy_true_is_independent():
    a = values((2, 3))
    g = gp.asarray(a)
    c = gp.reshape(g, (3, 2), copy=True)
    g[0, 0] = 100.0
    check(c, a.reshape(3, 2))


@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_reshape_is_a_view_when_possible(layout):
    a, g = variant(values((4, 6)), layout)
    a = a.copy()
    v = g.reshape(2, 2, 6)
    v[1, 0, 2] = -7.0           # a write through the view reaches the base
    a.reshape(2, 2, 6)[1, 0, 2] = -7.0
    check(g, a)
    g[0, 1] = -8.0              # and a write to the base reaches the view
    a[0, 1] = -8.0
    check(v, a.reshape(2, 2, 6))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", [(), (5,), (2, 3), (2, 3, 4), (0, 2)], ids=str)
def test_ravel_flatten(shape, layout):
    a, g = variant(values(shape), layout)
    for order in ("C", "F"):
        check(g.ravel(order=order), a.ravel(order=order))
        check(gp.ravel(g, order=order), np.ravel(a, order=order))
        check(g.flatten(order=order), a.flatten(order=order))


def test_flatten_is_a_copy():
    a = values((2, 3))
    g = gp.asarray(a)
    f = g.flatten()
    g[0, 0] = -1.0
    check(f, a.ravel())
    f[1] = 50.0
    assert float(g[0, 1]) == a[0, 1]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("axes", [None, (0, 1, 2), (2, 0, 1), (1, 2, 0), (-1, 0, -2)],
                         ids=str)
def test_transpose_permute_dims(axes, layout):
    a, g = variant(values((2, 3, 4)), layout)
    check(gp.transpose(g, axes), np.transpose(a, axes))
    check(g.transpose(axes), a.transpose(axes))
    if axes is not None:
        check(g.transpose(*axes), a.transpose(*axes))
        check(gp.permute_dims(g, axes), np.permute_dims(a, axes))
    check(g.T, a.T)


@pytest.mark.parametrize("axes", [(0, 1), (0, 1, 1), (0, 1, 3), (0, 0, 1)],
                         ids=["too_few", "repeated", "out_of_range", "dup"])
def test_transpose_errors(axes):
    a = values((2, 3, 4))
    with pytest.raises((ValueError, AxisError)) as e_np:
        np.transpose(a, axes)
    with pytest.raises(e_np.type):
        gp.transpose(gp.asarray(a), axes)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("a1,a2", [(0, 1), (0, 2), (-1, 0), (1, 1), (2, -3)], ids=str)
def test_swapaxes(a1, a2, layout):
    a, g = variant(values((2, 3, 4)), layout)
    check(gp.swapaxes(g, a1, a2), np.swapaxes(a, a1, a2))
    check(g.swapaxes(a1, a2), a.swapaxes(a1, a2))


def test_swapaxes_bad_axis():
    with pytest.raises(AxisError):
        gp.swapaxes(gp.ones((2, 3)), 0, 2)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("src,dst", [(0, 2), (-1, 0), ((0, 1), (2, 0)), ((0, 2), (-1, -2)),
                                     (1, 1), ((0, 1, 2), (2, 1, 0))], ids=str)
def test_moveaxis(src, dst, layout):
    a, g = variant(values((2, 3, 4)), layout)
    check(gp.moveaxis(g, src, dst), np.moveaxis(a, src, dst))


@pytest.mark.parametrize("src,dst", [(3, 0), ((0, 1), (0,)), ((0, 0), (1, 2))],
                         ids=["out_of_range", "length_mismatch", "repeated"])
def test_moveaxis_errors(src, dst):
    a = values((2, 3, 4))
    with pytest.raises((ValueError, AxisError)) as e_np:
        np.moveaxis(a, src, dst)
    with pytest.raises(e_np.type):
        gp.moveaxis(gp.asarray(a), src, dst)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3, (0, 1), (0, 3), (-1, 1), (0, 2, 4)],
                         ids=str)
def test_expand_dims(axis, layout):
    a, g = variant(values((2, 3)), layout)
    check(gp.expand_dims(g, axis), np.expand_dims(a, axis))
    check(gp.expand_dims(g, axis=axis), np.expand_dims(a, axis=axis))


@pytest.mark.parametrize("axis", [3, -4, (0, 0), (0, 5)], ids=str)
def test_expand_dims_errors(axis):
    a = values((2, 3))
    with pytest.raises((ValueError, AxisError)) as e_np:
        np.expand_dims(a, axis)
    with pytest.raises(e_np.type):
        gp.expand_dims(gp.asarray(a), axis)


def test_expand_dims_0d():
    a = np.asarray(3.0)
    check(gp.expand_dims(gp.asarray(a), 0), np.expand_dims(a, 0))
    check(gp.expand_dims(gp.asarray(a), (0, -1)), np.expand_dims(a, (0, -1)))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("axis", [None, 0, 2, -1, (0, 2), (0, -1, 2)], ids=str)
def test_squeeze(axis, layout):
    a, g = variant(values((1, 3, 1, 1)), layout)
    check(gp.squeeze(g, axis=axis), np.squeeze(a, axis=axis))
    check(g.squeeze(axis), a.squeeze(axis))


def test_squeeze_errors():
    a = values((1, 3, 1))
    with pytest.raises(ValueError):
        np.squeeze(a, axis=1)
    with pytest.raises(ValueError):
        gp.squeeze(gp.asarray(a), axis=1)
    with pytest.raises(AxisError):
        gp.squeeze(gp.asarray(a), axis=3)
    check(gp.squeeze(gp.asarray(np.ones((1, 1)))), np.squeeze(np.ones((1, 1))))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("src,dst", [((3,), (2, 3)), ((1,), (4,)), ((2, 1), (2, 5)),
                                     ((), (2, 2)), ((3, 1, 2), (4, 3, 5, 2)), ((1,), (0,)),
                                     ((2, 3), (2, 3))], ids=str)
def test_broadcast_to(src, dst, layout):
    a, g = variant(values(src), layout)
    check(gp.broadcast_to(g, dst), np.broadcast_to(a, dst))


@pytest.mark.parametrize("src,dst", [((3,), (4,)), ((2, 3), (3,)), ((2,), (2, 3)),
                                     ((3,), (-1, 3))], ids=str)
def test_broadcast_to_errors(src, dst):
    a = values(src)
    with pytest.raises(ValueError):
        np.broadcast_to(a, dst)
    with pytest.raises(ValueError):
        gp.broadcast_to(gp.asarray(a), dst)


def test_broadcast_to_int_shape():
    check(gp.broadcast_to(gp.asarray(2.0), 4), np.broadcast_to(np.asarray(2.0), 4))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shapes", [[(3,), (2, 3)], [(2, 1), (1, 4), ()], [(5,)],
                                    [(1, 2, 1), (3, 1, 1), (4,)], [(0, 1), (1, 3)]], ids=str)
def test_broadcast_arrays(shapes, layout):
    pairs = [variant(values(s) + i, layout) for i, s in enumerate(shapes)]
    got = gp.broadcast_arrays(*[g for _, g in pairs])
    exp = np.broadcast_arrays(*[a for a, _ in pairs])
    check(tuple(got), tuple(exp))


def test_broadcast_arrays_error():
    with pytest.raises(ValueError):
        gp.broadcast_arrays(gp.ones(3), gp.ones(4))


# ====================================================================== concat / stack

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("axis", [0, 1, -1, None], ids=str)
def test_concat(axis, layout):
    shapes = {0: [(2, 3), (1, 3), (4, 3)], 1: [(2, 1), (2, 3), (2, 2)],
              -1: [(2, 1), (2, 3), (2, 2)], None: [(2, 3), (5,), (1, 2, 2)]}[axis]
    pairs = [variant(values(s) * (i + 1), layout) for i, s in enumerate(shapes)]
    arrs, garrs = [a for a, _ in pairs], [g for _, g in pairs]
    check(gp.concat(garrs, axis=axis), np.concat(arrs, axis=axis))
    check(gp.concatenate(garrs, axis=axis), np.concatenate(arrs, axis=axis))
    check(gp.concatenate(tuple(garrs), axis), np.concatenate(tuple(arrs), axis))


def test_concat_default_axis_and_dtype_promotion():
    a, b = values((2, 2), np.int32), values((1, 2), np.float32)
    c = values((3, 2), np.uint8)
    check(gp.concat([gp.asarray(a), gp.asarray(b), gp.asarray(c)]), np.concat([a, b, c]))
    check(gp.concatenate([gp.asarray(a), gp.asarray(c)]), np.concatenate([a, c]))
    check(gp.concatenate([gp.asarray(a), gp.asarray(b)], dtype=np.float64),
          np.concatenate([a, b], dtype=np.float64))


def test_concat_empty_parts():
    a, b = np.zeros((0, 3)), values((2, 3))
    check(gp.concat([gp.asarray(a), gp.asarray(b)]), np.concat([a, b]))


def test_concatenate_out():
    a, b = values((2, 3)), values((1, 3))
    out = gp.zeros((3, 3))
    r = gp.concatenate([gp.asarray(a), gp.asarray(b)], out=out)
    assert r is out
    check(out, np.concatenate([a, b]))


@pytest.mark.parametrize("arrays,axis", [([(2, 3), (2, 4)], 0), ([(2, 3), (3,)], 0),
                                         ([(), ()], 0), ([], 0)],
                         ids=["shape_mismatch", "ndim_mismatch", "zero_d", "no_arrays"])
def test_concat_errors(arrays, axis):
    arrs = [values(s) for s in arrays]
    with pytest.raises(ValueError):
        np.concatenate(arrs, axis=axis)
    with pytest.raises(ValueError):
        gp.concat([gp.asarray(a) for a in arrs], axis=axis)


def test_concat_bad_axis():
    with pytest.raises(AxisError):
        gp.concat([gp.ones((2, 3)), gp.ones((2, 3))], axis=2)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3], ids=str)
def test_stack(axis, layout):
    pairs = [variant(values((2, 3)) * (i + 1), layout) for i in range(3)]
    arrs, garrs = [a for a, _ in pairs], [g for _, g in pairs]
    check(gp.stack(garrs, axis=axis), np.stack(arrs, axis=axis))


def test_stack_0d_and_mixed_dtypes():
    check(gp.stack([gp.asarray(1.0), gp.asarray(2.0)]), np.stack([np.asarray(1.0),
                                                                   np.asarray(2.0)]))
    a, b = values((3,), np.int8), values((3,), np.uint8)
    check(gp.stack([gp.asarray(a), gp.asarray(b)], axis=1), np.stack([a, b], axis=1))


def test_stack_errors():
    with pytest.raises(ValueError):
        np.stack([np.ones(3), np.ones(4)])
    with pytest.raises(ValueError):
        gp.stack([gp.ones(3), gp.ones(4)])
    with pytest.raises(ValueError):
        gp.stack([])
    with pytest.raises(AxisError):
        gp.stack([gp.ones(3), gp.ones(3)], axis=2)


def test_concat_result_does_not_alias_inputs():
    a = values((2, 2))
    g = gp.asarray(a)
    c = gp.concat([g, g])
    s = gp.stack([g, g])
    g[0, 0] = -100.0
    check(c, np.concat([a, a]))
    check(s, np.stack([a, a]))


# ====================================================================== manipulation chains

@pytest.mark.parametrize("layout", LAYOUTS)
def test_chain_of_views_on_lazy_input(layout):
    a, g = variant(values((4, 6)), layout)
    e = np.moveaxis(np.expand_dims(a[::-1, 1::2].T, 0), 0, -1).reshape(3, -1)
    r = gp.moveaxis(gp.expand_dims(g[::-1, 1::2].T, 0), 0, -1).reshape(3, -1)
    check(r, e)
    check(gp.squeeze(gp.broadcast_to(g[:1], (2, 1, 6))[:, :, ::3]),
          np.squeeze(np.broadcast_to(a[:1], (2, 1, 6))[:, :, ::3]))
    check((g.T + 1).reshape(-1)[::5], (a.T + 1).reshape(-1)[::5])


def test_shape_setter_reshapes_in_place():
    for mod in (np, gp):
        a = mod.arange(12.0)
        v = a[::3]
        a.shape = (3, 4)
        a[1, 1] = -1.0
        x, y = mod.mgrid[0:2, 0:3]
        x.shape = 6
        y.shape = (6,)
        if mod is np:
            want = (a.copy(), v.copy(), x.copy(), y.copy())
    for got, w in zip((a, v, x, y), want):
        check(got, w)
    b = gp.arange(12).reshape(3, 4).T
    with pytest.raises(AttributeError, match="Incompatible shape"):
        b.shape = 12
    with pytest.raises(ValueError):
        a.shape = (5, 5)


def test_lazy_root_viewed_many_times():
    """A lazy array read column by column in a loop (NPBench's correlation) is computed
    once, after a few views, not in every view's kernel; views taken before and after keep
    NumPy's values and see later writes to the root."""
    a = np.arange(48.0).reshape(6, 8)
    x = gp.asarray(a)
    d = x * 2 + 1                   # lazy root
    dn = a * 2 + 1
    first = d[:, 0]
    sums = [float(d[:, i].sum()) for i in range(8)] + [float(d[:, i:].sum()) for i in range(8)]
    assert sums == [float(dn[:, i].sum()) for i in range(8)] + \
        [float(dn[:, i:].sum()) for i in range(8)]
    assert d._node.kind == LEAF     # materialized once
    later = d[1:, 2]
    d[0, 0] = -5.0
    d[1, 2] = -6.0
    dn[0, 0] = -5.0
    dn[1, 2] = -6.0
    check(first, dn[:, 0])
    check(later, dn[1:, 2])
    check(d, dn)
    check(x, a)


# ------------------------------------------------------------------ views' place in memory
# (gnumpy/_viewmem.py; tests from a mutation run over it, issue 21)

def test_writes_through_part_views_of_offset_views():
    """``.real``/``.imag`` of a view that starts inside its root (offset, strides) write
    the root's floats at 2 * offset + part, as NumPy's."""
    base = (np.arange(24.0) - 5).reshape(4, 6) + 1j * np.arange(24.0).reshape(4, 6)
    for key in [np.s_[1:], np.s_[2:, 1::2], np.s_[::-1, 3], np.s_[1:3].__class__(1, 4)]:
        if isinstance(key, slice):
            key = (key,)
        a, x = base.copy(), gp.asarray(base)
        a[key].imag[...] = -7.0
        x[key].imag[...] = -7.0
        a[key].real[:1] = 9.0
        x[key].real[:1] = 9.0
        check(x, a)


def test_views_of_a_lazy_constant_are_bound_at_its_first_write():
    """A view of a lazy constant folds into the constant; the root's first write binds it
    to the root's memory, so it sees that write and later ones (NumPy: it is a view)."""
    x = gp.full(6, 1.0)
    xn = np.full(6, 1.0)
    v, vn = x[1:4], xn[1:4]
    w, wn = x[::2], xn[::2]
    x[1] = 7.0
    xn[1] = 7.0
    check(v, vn)
    x[2] = -3.0
    xn[2] = -3.0
    check(v, vn)
    check(w, wn)


def test_view_copied_by_a_library_call_is_bound_at_the_roots_first_write():
    """A library call (sort) materializes a view of a lazy root into memory of its own;
    the root's first write binds the view back to the root's memory, so later writes to
    the root show through it, as through NumPy's view."""
    a = np.arange(6.0)
    x, xn = gp.asarray(a) * 2, a * 2
    v, vn = x[1:4], xn[1:4]
    check(gp.sort(v), np.sort(vn))
    x[0] = 5.0
    xn[0] = 5.0
    x[1] = 9.0
    xn[1] = 9.0
    check(v, vn)


def test_a_view_of_a_lazy_array_computes_nothing_until_used():
    """Taking a view is free: the lazy root stays lazy (one kernel later computes the view
    from the root's sources); a long chain of views materializes the root instead of
    stacking view nodes without bound."""
    x = gp.asarray(np.arange(24.0).reshape(4, 6)) * 2
    gp.stats.reset()
    v = x[1:, ::2]
    assert gp.stats.groups == 0 and x._node.kind != LEAF
    check(v, (np.arange(24.0).reshape(4, 6) * 2)[1:, ::2])
    y = gp.asarray(np.arange(24.0).reshape(4, 6)) * 2
    yn = np.arange(24.0).reshape(4, 6) * 2
    u, un = y, yn
    for i in range(40):                 # alternating ops: nothing merges them
        u, un = (u.T, un.T) if i % 2 else (u[::-1], un[::-1])
    assert y._node.kind == LEAF         # the chain made the root materialize
    check(u, un)


def test_pruning_the_lazy_views_registry_keeps_live_views_bound():
    """When the registry of views made under lazy roots is pruned (past 1,024 entries; the
    threshold is lowered here), entries of dead roots and of materialized roots whose views
    are all dead go; live ones stay, among them a materialized root whose view a library
    call copied, and still bind their views at the root's first write.  The next threshold
    is twice what is left (at least 1,024)."""
    from gnumpy import _viewmem
    roots = [gp.full(4, float(i)) for i in range(700)]
    views = [r[1:3] for r in roots]
    keep = [(i, roots[i], views[i]) for i in range(0, 100, 20)]
    settled = roots[5]
    gp.evaluate(settled)                # materialized, unwritten; its views die below
    copied, cv = roots[7], views[7]
    check(gp.sort(cv), np.full(2, 7.0))     # cv: a copy in memory of its own
    gp.evaluate(copied)                 # materialized, unwritten, its view alive
    live = roots[100:]                  # 600 lazy roots with live views
    live_views = views[100:]
    del roots, views

    def prune():
        saved = _viewmem._LAZY_PRUNE[0]
        _viewmem._LAZY_PRUNE[0] = 0
        try:
            trigger = gp.full(4, 0.0)
            tv = trigger[1:]            # the next registration prunes
        finally:
            if _viewmem._LAZY_PRUNE[0] == 0:
                _viewmem._LAZY_PRUNE[0] = saved
        return trigger, tv
    big = prune()
    n = len(_viewmem._LAZY_VIEWS)
    assert n > 600 and _viewmem._LAZY_PRUNE[0] == 2 * (n - 1)
    assert len(live) == len(live_views) == 600
    del live, live_views, big
    trigger, tv = prune()
    entries = list(_viewmem._LAZY_VIEWS.values())
    assert all(r() is not None for r, _ in entries)
    assert not any(r() is settled for r, _ in entries)
    assert any(r() is copied for r, _ in entries)
    assert all(any(r() is kr for r, _ in entries) for _, kr, _ in keep)
    assert _viewmem._LAZY_PRUNE[0] == max(1024, 2 * len(entries) - 2)
    for i, r, v in keep:
        r[1] = -1.0
        check(v, np.array([-1.0, float(i)]))
    copied[1] = -2.0
    check(cv, np.array([-2.0, 7.0]))
    check(tv, np.zeros(3))


def test_parts_of_a_strided_root_write_through_its_strides():
    """``.real`` / ``.imag`` of a root whose memory is not C-ordered (a transposed array
    imported through DLPack, its memory shared) write at the root's own strides."""
    zn = (np.arange(12.0).reshape(3, 4) * (1 + 2j)).T
    if gp.asarray(0).device.kind == "cpu":
        pytest.skip("needs a GPU: the CPU backend copies imports C-ordered")
    torch = pytest.importorskip("torch")
    z = gp.from_dlpack(torch.from_numpy(zn.T.copy()).cuda().T)
    assert z._base is None and z._node.strides != L.c_strides(z.shape)
    z.real[0, 1] = 99.0
    zn.real[0, 1] = 99.0
    z.imag[2, :] = -1.0
    zn.imag[2, :] = -1.0
    check(z, zn)


def test_views_of_a_resized_root_keep_the_old_memory():
    """A view made before ``resize(refcheck=False)`` replaced its (lazy) root's memory
    keeps the old values, as NumPy's (which keeps the old buffer): the root's next write
    does not bind it to the new memory."""
    a = gp.asarray(np.arange(6.0)) * 1.0          # lazy root
    v = a[1:3]
    a.resize(8, refcheck=False)
    a[:] = 0.0
    check(v, np.array([1.0, 2.0]))
    check(a, np.zeros(8))


def test_a_view_op_that_does_not_fold_is_an_internal_error():
    from gnumpy._viewmem import _at_ops
    x = gp.asarray(np.arange(12.0).reshape(3, 4))[:, :3]
    with pytest.raises(AssertionError, match="does not fold"):
        _at_ops(x, [("reshape", None, (9,))])


def test_parts_of_a_shared_strided_numpy_root_write_through_its_strides():
    """The CPU backend shares a NumPy array's memory at its own strides and offset
    (``asarray(copy=False)`` of a Fortran-ordered array, of a strided slice): ``.real`` /
    ``.imag`` of that root write at those strides, into the NumPy array too."""
    a = np.asfortranarray((np.arange(6.0) + 1j * np.arange(6.0)).reshape(2, 3))
    an = a.copy(order="F")
    if gp.asarray(0).device.kind != "cpu":  # device memory cannot be NumPy's: NumPy's error
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            gp.asarray(a, copy=False)
        return
    z = gp.asarray(a, copy=False)
    assert z._base is None
    z.imag[0] = -5.0
    an.imag[0] = -5.0
    check(z, an)
    b = (np.arange(12.0) * (1 + 1j))[2::3]
    bn = b.copy()
    zb = gp.asarray(b, copy=False)
    zb.real[1] = 99.0
    bn.real[1] = 99.0
    check(zb, bn)
    np.testing.assert_array_equal(a, an)    # shared memory: NumPy sees the writes
    np.testing.assert_array_equal(b, bn)


def test_reshape_diagonal_and_flags_of_real_and_imag_parts():
    """``.real`` / ``.imag`` are views whose place in memory (every other float of the
    complex root) decides whether a reshape or diagonal folds into it: NumPy's values."""
    zn = np.arange(12.0).reshape(3, 4) * (1 + 2j)
    z = gp.asarray(zn)
    check(z.real.reshape(-1), zn.real.reshape(-1))
    check(z.imag.reshape(2, 6), zn.imag.reshape(2, 6))
    check(z.imag.T.reshape(-1), zn.imag.T.reshape(-1))
    check(z.imag.diagonal(), zn.imag.diagonal())
    assert z.real.flags.f_contiguous == zn.real.flags.f_contiguous
    assert z.real.flags.c_contiguous == zn.real.flags.c_contiguous


@pytest.mark.parametrize("n, views", [(300, 2), (1 << 16, 2), ((1 << 16) + 1, 8)])
def test_a_lazy_root_is_computed_after_few_views_when_small(n, views):
    """A lazy root of at most 2**16 elements viewed in a loop is materialized at its third
    view (a loop over small arrays is bound by host time); a larger one at its ninth (its
    first views fuse its expression into their kernels).  Values are NumPy's either way."""
    a = np.linspace(-1.0, 1.0, n)
    d = gp.asarray(a) * 3.0 - 1.0
    dn = a * 3.0 - 1.0
    got = []
    for i in range(views):
        got.append(d[i:i + 5])
        assert d._node.kind != LEAF
    got.append(d[views:views + 5])
    assert d._node.kind == LEAF
    for i, g in enumerate(got):
        check(g, dn[i:i + 5])


@pytest.mark.parametrize("ndim", range(10))
def test_T_is_transpose(ndim):
    """``.T`` (its own short path) is ``transpose()``: values, shape, a view that writes
    through, on contiguous, strided and lazy arrays of every rank."""
    shape = tuple(range(2, 2 + ndim)) if ndim < 6 else (1, 2) * (ndim // 2) + (2,) * (ndim % 2)
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    cases = [(gp.asarray(a), a), (gp.asarray(a) * 2, a * 2)]
    if ndim:
        cases.append((gp.asarray(a)[..., ::-1], a[..., ::-1]))
    for g, ref in cases:
        t = g.T
        assert t.shape == ref.T.shape
        np.testing.assert_array_equal(t.get(), ref.T)
        np.testing.assert_array_equal(t.get(), g.transpose().get())
    g = gp.zeros(shape)
    g.T[...] = a.T
    np.testing.assert_array_equal(g.get(), a)


@pytest.mark.parametrize("layout", ["c", "transposed", "stepped"])
def test_flat_reads_and_writes_in_c_order(layout):
    """``a.flat``: NumPy's flat iterator: len, iteration, indexing by int, slice, integer
    list and mask, and assignment through it into the array (a view's base sees it), on
    C-ordered, transposed and stepped layouts."""
    x = np.arange(12.0).reshape(3, 4)
    a, g = x.copy(), gp.asarray(x)
    if layout == "transposed":
        a, g = a.T, g.T
    elif layout == "stepped":
        a, g = a[:, ::2], g[:, ::2]
    n = a.size
    assert len(g.flat) == n and [float(v) for v in g.flat] == list(a.flat)
    for k in (1, -1, slice(1, n, 2), [0, n - 1, 2], np.arange(n) % 3 == 0):
        check(g.flat[k], np.asarray(a.flat[k]))
    with pytest.raises(IndexError):
        g.flat[n]
    for k, v in ((2, 9.0), (slice(0, n, 3), -1.0), ([0, n - 1], [7.0, 8.0]),
                 (np.arange(n) % 4 == 1, 3.0)):
        a.flat[k] = v
        g.flat[k] = v
        check(g, a)
    b, gb = x.copy(), gp.asarray(x)
    gb[:, 1].flat[0] = 100.0
    b[:, 1].flat[0] = 100.0
    check(gb, b)
    check(g.flat.copy(), a.flat.copy())
