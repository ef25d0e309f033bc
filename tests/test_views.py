"""Basic indexing and basic-index assignment, compared against NumPy.

Index expressions come from hypothesis (ints incl. negative, slices with any step and
out-of-range bounds, Ellipsis, None, on 0-d to 4-d arrays), on contiguous, strided
(non-contiguous view) and lazy inputs (``(x + 1)[::2].T``).  Shape manipulation is in
test_views_shape_ops.py; chains of views and views' place in memory in
test_views_memory.py.
"""
import functools
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
import hypothesis.extra.numpy as hnp

import gnumpy as gp
from gnumpy._graph import layout as L
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
        if a.ndim == 0:     # (asarray: the ufunc's 0-d result is NumPy's scalar)
            return gp.asarray(gp.logical_not(gp.asarray(~a)))
        t = ~a.T
        big = np.zeros((2 * t.shape[0],) + t.shape[1:], dtype=a.dtype)
        big[::2] = t
        return gp.logical_not(gp.asarray(big))[::2].T
    with np.errstate(all="ignore"):
        t = (a.T - np.ones((), a.dtype)).astype(a.dtype)
    if a.ndim == 0:
        return gp.asarray(gp.asarray(t) + np.ones((), a.dtype))
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
