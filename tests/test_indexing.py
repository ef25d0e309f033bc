"""Advanced indexing, gather/scatter, ``ufunc.at`` and the index functions, against NumPy.

Random index expressions come from hypothesis: ints (also negative), slices with steps and
negative bounds, integer arrays (also negative; gnumpy arrays, NumPy arrays, nested lists)
broadcast together, boolean masks over one or more dims, 0-d booleans, None and Ellipsis,
on contiguous, strided and lazy sources, for reading and writing.  Writes whose targets
repeat use one value, so the expected result does not depend on which duplicate wins (on
the GPU any one may).  Every function is compared on shape, dtype and values, and its
errors on exception type.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.exceptions import AxisError

import gnumpy as gp
from gnumpy._graph import ir
from helpers import check, sample, strided_pair

DET = settings(derandomize=True)
DTYPES = [np.dtype(t) for t in (np.float64, np.float32, np.float16, np.int64, np.int32,
                                np.int8, np.uint8, np.uint64, np.bool_, np.complex64,
                                np.complex128)]
LAYOUTS = ["contiguous", "strided", "lazy", "transposed"]


def variant(a, layout):
    """(numpy array, gnumpy array) with the values of `a` in the requested layout."""
    if layout == "strided":
        return strided_pair(a)
    if layout == "lazy":
        return a, gp.asarray(a).copy()      # an unevaluated copy
    if layout == "transposed":
        t = np.ascontiguousarray(a.T)
        return t.T, gp.asarray(t).T
    return a, gp.asarray(a)


# ====================================================================== index strategies

@st.composite
def _int_array(draw, size, bshape):
    """An integer index array for a dim of `size`, broadcastable to `bshape`."""
    nd = draw(st.integers(0, len(bshape)))
    shp = tuple(d if draw(st.booleans()) else 1 for d in bshape[len(bshape) - nd:])
    n = int(np.prod(shp))
    vals = draw(st.lists(st.integers(-size, size - 1), min_size=n, max_size=n))
    arr = np.array(vals, dtype=draw(st.sampled_from([np.int64, np.int32, np.int16])))
    return _as_form(draw, arr.reshape(shp))


def _as_form(draw, arr):
    form = draw(st.sampled_from(["gp", "np", "list"] if arr.ndim else ["gp", "np"]))
    if form == "gp":
        return gp.asarray(arr)
    return arr.tolist() if form == "list" else arr


@st.composite
def adv_index(draw, shape):
    """An index with at least one advanced entry for `shape` (all dims non-empty)."""
    nd = len(shape)
    bshape = draw(st.sampled_from([(3,), (2, 1), (2, 3), (0,), (1,)]))
    items, d, adv, ell = [], 0, False, False
    while d < nd:
        kind = draw(st.sampled_from(["slice", "int", "arr", "arr", "mask", "none", "ell",
                                     "stop"]))
        if kind == "stop" and adv and not ell:
            break
        if kind == "slice":
            n = shape[d]
            b = st.none() | st.integers(-n - 1, n + 1)
            items.append(slice(draw(b), draw(b), draw(st.sampled_from([None, 1, 2, -1, -2]))))
            d += 1
        elif kind == "int":
            items.append(draw(st.integers(-shape[d], shape[d] - 1)))
            d += 1
        elif kind == "arr":
            items.append(draw(_int_array(shape[d], bshape)))
            d += 1
            adv = True
        elif kind == "mask":
            k = draw(st.integers(1, nd - d))
            m = np.array(draw(st.lists(st.booleans(), min_size=int(np.prod(shape[d:d + k])),
                                       max_size=int(np.prod(shape[d:d + k]))))
                         ).reshape(shape[d:d + k])
            items.append(_as_form(draw, m))
            d += k
            adv = True
        elif kind == "none":
            items.append(None if draw(st.booleans()) else draw(st.sampled_from([True, False])))
            adv = adv or items[-1] is not None
        elif kind == "ell" and not ell:
            ell = True
            rest = nd - d - draw(st.integers(0, nd - d))
            items.append(Ellipsis)
            d += rest
    if not adv:
        items.append(draw(_int_array(shape[d], bshape)) if d < nd else
                     draw(st.sampled_from([True, False])))
    return tuple(items) if len(items) != 1 or draw(st.booleans()) else items[0]


def np_key(key):
    """The same index with gnumpy arrays replaced by NumPy arrays."""
    if isinstance(key, tuple):
        return tuple(np_key(k) for k in key)
    return key.get() if isinstance(key, gp.ndarray) else key


SHAPES = st.lists(st.integers(1, 4), min_size=1, max_size=4).map(tuple)


@st.composite
def shape_and_adv_index(draw):
    shape = draw(SHAPES)
    return shape, draw(adv_index(shape))


# ====================================================================== getitem

@pytest.mark.parametrize("layout", LAYOUTS)
@DET
@given(case=shape_and_adv_index(), dtype=st.sampled_from(DTYPES))
def test_getitem_random(layout, case, dtype):
    shape, key = case
    a, g = variant(sample(dtype, shape, np.random.default_rng(0)), layout)
    try:
        expected = a[np_key(key)]
    except IndexError:              # masks whose counts do not broadcast with the rest
        with pytest.raises(IndexError):
            g[key]
        return
    check(g[key], expected)


CASES = [[1, 0], (slice(None), [0, 2]), (0, slice(None), [1, 2]), ([0, 1], None, [1, 2]),
         (Ellipsis, True), (slice(None), True, [1, 2]), ([[0], [1]], [1, 2]), ([-1, 0],),
         (np.array(1),), ([0, 1], slice(None, None, -1), [[1], [2]]), ([],), ([[]],),
         (0, [1, 2], slice(1, None)), (slice(None), [0, 0, 1], Ellipsis), (False,),
         (slice(None), [0], Ellipsis, [1]), ((0, 1),), (np.array([1], np.uint64),),
         ([True, False], Ellipsis, [0, 3]), (None, [1], None, slice(None), [2])]


@pytest.mark.parametrize("key", CASES, ids=[repr(k)[:40] for k in CASES])
def test_getitem_cases(key):
    a = sample(np.float32, (2, 3, 4), np.random.default_rng(1))
    g = gp.asarray(a)
    check(g[key], a[key])
    def on_device(k):
        if isinstance(k, list) and np.asarray(k).dtype.kind in "iub":
            return gp.asarray(k)
        return k
    gkey = tuple(on_device(k) for k in key) if isinstance(key, tuple) else on_device(key)
    check(g[gkey], a[key])


def test_getitem_masks():
    rng = np.random.default_rng(2)
    a = sample(np.float64, (3, 4, 5), rng)
    g = gp.asarray(a)
    check(g[g > 0], a[a > 0])
    check(g[gp.asarray(a[:, :, 0] > 0)], a[a[:, :, 0] > 0])
    check(g[:, gp.asarray(a[0, :, 0] > 0)], a[:, a[0, :, 0] > 0])
    check(g[..., a[0, 0] > 0], a[..., a[0, 0] > 0])
    check(g[gp.isnan(g)], a[np.isnan(a)])
    check(g[g != g], a[a != a])
    check(g[np.zeros((3, 4), bool)], a[np.zeros((3, 4), bool)])
    check(g[(g > 0)[:, :, 0], 1], a[(a > 0)[:, :, 0], 1])



@settings(max_examples=40, deadline=None)
@given(st.data())
def test_whole_array_mask_matches_numpy(data):
    """``a[m]`` with a mask of a's shape (the path that skips the general planner): C
    order whatever a's memory order (strided, transposed, lazy), any density (none, all),
    lazy and materialized masks, 1 to 3 dimensions, complex values."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31), label="seed"))
    shape = tuple(data.draw(st.lists(st.integers(0, 5), min_size=1, max_size=3),
                            label="shape"))
    dt = data.draw(st.sampled_from([np.float64, np.int32, np.complex64]), label="dtype")
    a = sample(dt, shape, rng)
    layout = data.draw(st.sampled_from(["c", "strided", "T", "lazy"]), label="layout")
    if layout == "strided":
        a, g = strided_pair(a)
    elif layout == "T":
        a = np.ascontiguousarray(a.T).T
        g = gp.asarray(np.ascontiguousarray(a.T)).T
    elif layout == "lazy":
        g = gp.asarray(a) * 2
        a = a * 2
    else:
        g = gp.asarray(a)
    density = data.draw(st.sampled_from([0.0, 0.3, 1.0]), label="density")
    m = rng.random(shape) < density
    if data.draw(st.booleans(), label="lazy mask"):
        t = rng.random(shape)
        gm, m = gp.asarray(t) < density, t < density
    else:
        gm = gp.asarray(m)
    check(g[gm], a[m])
    check(g[gm].sum(), a[m].sum())

def test_getitem_0d_and_empty():
    a = np.asarray(3.5)
    g = gp.asarray(a)
    for key in [True, False, (None, True), (Ellipsis, False), np.True_, gp.asarray(True)]:
        check(g[key], a[np_key(key)])
    e = np.zeros((0, 3), np.int32)
    ge = gp.asarray(e)
    for key in [[], (slice(None), [0, 2]), (np.zeros(0, bool),), ([[]], [[]])]:
        check(ge[key], e[key])
    b = np.arange(6).reshape(2, 3)
    check(gp.asarray(b)[np.zeros((0, 2), np.int64)], b[np.zeros((0, 2), np.int64)])
    check(gp.asarray(b)[gp.asarray(np.zeros(0, np.int64))], b[np.zeros(0, np.int64)])


def test_getitem_large_mask_compaction():
    # several tiles and more than one block of tile counts in the compaction
    rng = np.random.default_rng(3)
    a = rng.random(2048 * 1100 + 77) < 0.3
    g = gp.asarray(a)
    check(gp.flatnonzero(g), np.flatnonzero(a))
    x = np.arange(a.size, dtype=np.int32)
    check(gp.asarray(x)[g], x[a])


ERRORS = [([3],), ([-4],), (gp.asarray([0, 3]),), (gp.asarray([-4]),), ([0, 1], [0, 1, 2]),
          (0, 0, [0]), ([True, False],), (np.ones((3, 5), bool),), ([[True]],),
          (np.array([0.5]),), ([0, 1.5],), (gp.asarray([1.0]),), (0, 4, [0]),
          (Ellipsis, [0], Ellipsis), (slice(None), [4]), ("a", [0])]


@pytest.mark.parametrize("key", ERRORS, ids=[repr(k)[:40] for k in ERRORS])
def test_index_errors(key):
    a = np.arange(12.0).reshape(3, 4)
    g = gp.asarray(a)
    with pytest.raises(IndexError):
        a[np_key(key)]
    with pytest.raises(IndexError):
        g[key]
    with pytest.raises(IndexError):
        g[key] = 1.0
    check(g, a)     # nothing written


# ====================================================================== setitem

@pytest.mark.parametrize("layout", ["contiguous", "strided", "lazy"])
@DET
@given(case=shape_and_adv_index(), dtype=st.sampled_from(DTYPES), data=st.data())
def test_setitem_random(layout, case, dtype, data):
    shape, key = case
    rng = np.random.default_rng(4)
    base = sample(dtype, shape, rng)
    nkey = np_key(key)
    try:
        pos = np.arange(base.size).reshape(shape)[nkey]
    except IndexError:
        a, g = variant(base, layout)
        with pytest.raises(IndexError):
            g[key] = 0
        check(g, a)
        return
    rshape = pos.shape
    unique = len(np.unique(pos)) == pos.size
    form = data.draw(st.sampled_from(["full", "row", "scalar"] if unique else ["scalar"]))
    if form == "full":
        v = sample(dtype, rshape, rng)
    elif form == "row":
        v = sample(dtype, rshape[-1:], rng)
    else:
        v = sample(dtype, (), rng)[()]
    if layout == "strided":
        big = sample(dtype, tuple(2 * d + 1 for d in shape), rng)
        gbig = gp.asarray(big)
        sl = tuple(slice(1, 1 + 2 * d, 2) for d in shape)
        a, g = big[sl], gbig[sl]
    else:
        a, g = variant(base, layout)
        a = a.copy()
    a[nkey] = v
    g[key] = gp.asarray(v) if form != "scalar" and data.draw(st.booleans()) else v
    check(g, a)
    if layout == "strided":
        check(gbig, big)


def test_setitem_cases():
    a = np.arange(24.0).reshape(2, 3, 4)
    g = gp.asarray(a)
    a[[0, 1], 1] = 7
    g[[0, 1], 1] = 7
    a[a > 10] = -1
    g[g > 10] = -1
    a[:, [0, 2]] = np.arange(4.0)
    g[:, [0, 2]] = gp.arange(4.0)
    a[0, [0, 2], 1:3] = np.ones((1, 1, 2))      # extra leading 1s are dropped
    g[0, [0, 2], 1:3] = np.ones((1, 1, 2))
    a[..., [True, False, True, False]] = 5.5
    g[..., gp.asarray([True, False, True, False])] = 5.5
    a[np.array(1)] = 3
    g[gp.asarray(1)] = 3
    check(g, a)
    b = np.arange(5, dtype=np.int8)
    gb = gp.asarray(b)
    b[[0, 1]] = 1.7            # NumPy casts (truncates)
    gb[[0, 1]] = 1.7
    check(gb, b)


def test_setitem_errors_leave_input_intact():
    a = np.arange(6, dtype=np.int8)
    g = gp.asarray(a)
    with pytest.raises(ValueError):
        g[[0, 1]] = np.ones(3)
    with pytest.raises(ValueError):
        g[g > 2] = gp.asarray([1, 2])           # mask count 3, two values
    with pytest.raises(OverflowError):
        g[[0]] = 1000
    with pytest.raises(TypeError):
        g[[0]] = 1j
    with pytest.raises(IndexError):
        g[[0, 9]] = 1
    check(g, a)


def test_mask_assignment_is_lazy():
    g = gp.asarray(np.arange(10.0))
    m = g > 4
    gp.stats.reset()
    g[m] = 0.0
    assert gp.stats.materializations == 0      # where(mask, v, x): no sync, no kernel yet
    g[gp.asarray(np.arange(10) % 2 == 0)] = -1.0
    a = np.arange(10.0)
    a[a > 4] = 0
    a[np.arange(10) % 2 == 0] = -1
    check(g, a)
    assert gp.stats.materializations == 1      # both writes, one kernel


def test_iadd_with_duplicates():
    a = np.zeros(5)
    g = gp.zeros(5)
    a[[0, 0, 1, 3, 3, 3]] += 1
    g[gp.asarray([0, 0, 1, 3, 3, 3])] += 1
    check(g, a)
    a[[1, -1]] *= 3
    g[[1, -1]] *= 3
    check(g, a)


# ====================================================================== aliasing

def test_gather_is_a_copy():
    a = np.arange(10.0)
    x = gp.asarray(a)
    y = x[[1, 2, 3]]
    x[1:4] = -1.0
    x[[5]] = -2.0
    check(y, a[[1, 2, 3]])


ZERO_D_KEYS = [("g",), (0, "g"), ("g", Ellipsis), (Ellipsis, "g"), ("g", slice(None), "m"),
               ("g", 2, "n"), ("n", 1), ("m", slice(None, None, -1)), (None, "g", 1)]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("key", ZERO_D_KEYS, ids=str)
def test_zero_d_integer_array_indices(layout, key):
    """0-d integer arrays (gnumpy or NumPy, negative too) as the only advanced indices:
    NumPy's values, shape and dtype; the result is a copy (a later write to the source
    leaves it), and writes through such a key land where NumPy's do."""
    a, x = variant(np.arange(60.0).reshape(3, 4, 5) - 7, layout)
    vals = {"g": (gp.asarray(np.array(1)), np.array(1)),
            "m": (gp.asarray(np.array(-2, np.int32)), np.array(-2, np.int32)),
            "n": (np.array(2, np.uint8), np.array(2, np.uint8))}
    gk = tuple(vals[k][0] if isinstance(k, str) else k for k in key)
    nk = tuple(vals[k][1] if isinstance(k, str) else k for k in key)
    expected = a[nk].copy()
    r = x[gk]
    check(r, expected)
    x[...] = -1.0
    check(r, expected)
    a, x = variant(np.arange(60.0).reshape(3, 4, 5) - 7, layout)
    a = a.copy()
    a[nk] = 99.0
    x[gk] = 99.0
    check(x, a)


def test_zero_d_integer_array_index_errors():
    x = gp.asarray(np.arange(12.0).reshape(3, 4))
    for k in (np.array(3), gp.asarray(np.array(-4)), (0, gp.asarray(np.array(4)))):
        with pytest.raises(IndexError):
            x[k]
        with pytest.raises(IndexError):
            x[k] = 1.0
    check(x, np.arange(12.0).reshape(3, 4))
    with pytest.raises(IndexError):             # a 0-d float array is no index
        x[gp.asarray(np.array(1.0))]


def test_pending_reader_keeps_old_values():
    x = gp.arange(6.0) + 0
    z = x * 2
    w = x[::2]                   # a view sees the write
    x[[0, 2]] = 5.0
    check(z, np.arange(6.0) * 2)
    check(w, np.array([5.0, 5.0, 4.0]))
    check(x, np.array([5.0, 1, 5, 3, 4, 5]))


def test_scatter_into_views_and_self_overlap():
    a = np.arange(12.0).reshape(3, 4)
    x = gp.asarray(a)
    v = x[:, 1:]                 # a view: writes through it reach x
    v[[0, 2], [0, 1]] = -7.0
    a[:, 1:][[0, 2], [0, 1]] = -7.0
    check(x, a)
    y = gp.asarray(np.arange(5.0))
    b = np.arange(5.0)
    y[[4, 3, 2, 1, 0]] = y          # the value reads the target: copied first
    b[[4, 3, 2, 1, 0]] = b.copy()
    check(y, b)
    i = gp.asarray(np.array([2, 0, 1]))
    i[i] = gp.asarray(np.array([7, 8, 9]))    # the index array is the target
    ii = np.array([2, 0, 1])
    ii[ii.copy()] = [7, 8, 9]
    check(i, ii)


def test_writes_through_views_reach_the_base():
    a = np.arange(20.0).reshape(4, 5)
    x = gp.asarray(a)
    v, va = x[1:, ::2], a[1:, ::2]
    v[v > 8] = 0.5                       # the lazy where path, through a view
    va[va > 8] = 0.5
    gp.add.at(v, ([0, 0, 2], [1, 1, 0]), 1.0)
    np.add.at(va, ([0, 0, 2], [1, 1, 0]), 1.0)
    gp.put(v, [0, 8], [-3.0, -4.0])
    np.put(va, [0, 8], [-3.0, -4.0])
    gp.place(v, v < 0, [9.0])
    np.place(va, va < 0, [9.0])
    check(x, a)
    check(v, va)


def test_view_of_lazy_base_as_index_source_keeps_sharing():
    x = gp.arange(6.0) * 1
    v = x[::2]
    check(v[[0, 2]], np.array([0.0, 4.0]))
    x[...] = 5.0
    check(v, np.full(3, 5.0))


# ====================================================================== ufunc.at

AT_CASES = [("add", t) for t in (np.float64, np.float32, np.float16, np.int64, np.int32,
                                  np.int8, np.uint8, np.uint32, np.uint64, np.complex64,
                                  np.complex128, np.bool_)] + \
    [("subtract", t) for t in (np.float32, np.int32, np.uint64, np.complex128, np.int16)] + \
    [("multiply", t) for t in (np.float64, np.int16, np.complex64, np.complex128)] + \
    [("minimum", t) for t in (np.float32, np.int32, np.uint64, np.int8, np.float16)] + \
    [("maximum", t) for t in (np.float64, np.int64, np.uint32, np.uint16)] + \
    [("bitwise_xor", np.int32), ("bitwise_or", np.bool_), ("divide", np.float32),
     ("fmax", np.float64), ("logical_and", np.bool_)]


@pytest.mark.parametrize("op,dtype", AT_CASES, ids=[f"{o}-{np.dtype(t)}" for o, t in AT_CASES])
def test_ufunc_at(op, dtype):
    rng = np.random.default_rng(5)
    base = sample(dtype, (6, 4), rng, special=False)
    if np.dtype(dtype).kind in "iu":
        base = base % 7
    idx = (np.array([0, 0, 5, 2, 0, 5]), slice(None))
    vals = sample(dtype, (6, 4), rng, special=False)
    if np.dtype(dtype).kind in "iu":
        vals = vals % 5
    a, g = base.copy(), gp.asarray(base)
    getattr(np, op).at(a, idx, vals)
    getattr(gp, op).at(g, (gp.asarray(idx[0]), idx[1]), gp.asarray(vals))
    check(g, a, rtol=1e-2 if np.dtype(dtype).itemsize <= 2 and dtype != np.int16 else None)


def test_ufunc_at_forms():
    a = np.arange(6.0)
    g = gp.asarray(a)
    np.add.at(a, [0, 0, 1], 1)              # through __array_ufunc__
    np.add.at(g, [0, 0, 1], 1)
    gp.multiply.at(g, 2, 10)                # a basic index
    np.multiply.at(a, 2, 10)
    gp.add.at(g, g > 3, gp.asarray(0.5))    # a mask
    np.add.at(a, a > 3, 0.5)
    gp.negative.at(g, [1, 1, 5])            # unary, applied once per index
    np.negative.at(a, [1, 1, 5])
    check(g, a)
    b = np.zeros(3, np.int8)
    gb = gp.asarray(b)
    np.add.at(b, [0, 0], 1.7)               # unsafe cast back, as NumPy
    gp.add.at(gb, [0, 0], 1.7)
    check(gb, b)
    x = gp.zeros((2, 3))
    z = x + 1
    gp.add.at(x, ([0, 0], [1, 1]), 1.0)
    check(z, np.ones((2, 3)))
    with pytest.raises(IndexError):
        gp.add.at(g, [6], 1)
    with pytest.raises(TypeError):
        gp.add.at(g, [0])
    with pytest.raises(ValueError):
        gp.add.at(g, [0, 1], gp.ones(3))


# ====================================================================== take / put

@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex128, np.bool_])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_take(dtype, layout):
    a, g = variant(sample(dtype, (3, 4), np.random.default_rng(6)), layout)
    check(gp.take(g, [0, 5, -1]), np.take(a, [0, 5, -1]))
    check(gp.take(g, [[0, 2]], axis=1), np.take(a, [[0, 2]], axis=1))
    check(gp.take(g, gp.asarray([7, -9]), axis=1, mode="wrap"),
          np.take(a, [7, -9], axis=1, mode="wrap"))
    check(gp.take(g, [7, -9], axis=0, mode="clip"), np.take(a, [7, -9], axis=0, mode="clip"))
    check(gp.take(g, gp.asarray([-7, 2]), axis=-2, mode="clip"),
          np.take(a, [-7, 2], axis=-2, mode="clip"))
    check(g.take(1), a.take(1))
    check(g.take([], axis=0), a.take([], axis=0))
    out = gp.empty((2, 4), dtype=dtype)
    r = gp.take(g, [2, 0], axis=0, out=out)
    assert r is out
    check(out, np.take(a, [2, 0], axis=0))


def test_take_errors():
    g = gp.arange(6).reshape(2, 3)
    with pytest.raises(IndexError):
        gp.take(g, [6])
    with pytest.raises(IndexError):
        gp.take(g, gp.asarray([3]), axis=1)
    with pytest.raises(IndexError):
        gp.take(gp.zeros((0,)), [0])
    with pytest.raises(AxisError):
        gp.take(g, [0], axis=2)
    with pytest.raises(ValueError):
        gp.take(g, [0], mode="bad")
    with pytest.raises(TypeError):
        gp.take(g, [1.5])


def test_take_along_axis_and_put_along_axis():
    rng = np.random.default_rng(7)
    a = sample(np.float64, (3, 4), rng)
    g = gp.asarray(a)
    i = np.argsort(a, axis=1)
    check(gp.take_along_axis(g, gp.asarray(i), axis=1), np.take_along_axis(a, i, axis=1))
    check(gp.take_along_axis(g, [[1, 0, 2, -1]], axis=0),
          np.take_along_axis(a, np.array([[1, 0, 2, -1]]), axis=0))
    check(gp.take_along_axis(g, gp.asarray([[1], [0], [3]]), axis=-1),
          np.take_along_axis(a, np.array([[1], [0], [3]]), axis=-1))
    check(gp.take_along_axis(g, [5, 0], axis=None),
          np.take_along_axis(a, np.array([5, 0]), axis=None))
    col = np.array([[1], [0], [3]])
    x, xa = g.copy(), a.copy()
    gp.put_along_axis(x, gp.asarray(col), 99.0, axis=1)
    np.put_along_axis(xa, col, 99.0, axis=1)
    check(x, xa)
    gp.put_along_axis(x, [2, 11], gp.asarray([-1.0, -2.0]), axis=None)
    np.put_along_axis(xa, np.array([2, 11]), [-1.0, -2.0], axis=None)
    check(x, xa)
    t = gp.asarray(a.T.copy()).T            # non-contiguous target, flattened access
    ta = a.copy()
    gp.put_along_axis(t, [0, 5], 7.0, axis=None)
    np.put_along_axis(ta, np.array([0, 5]), 7.0, axis=None)
    check(t, ta)
    with pytest.raises(IndexError):
        gp.take_along_axis(g, [[1.0]], axis=1)
    with pytest.raises(ValueError):
        gp.take_along_axis(g, [1], axis=1)
    with pytest.raises(ValueError):
        gp.take_along_axis(g, [[1]], axis=None)
    with pytest.raises(IndexError):
        gp.take_along_axis(g, [[4]], axis=1)


def test_put():
    a = np.arange(12).reshape(3, 4)
    for ind, v, mode in [([0, -1, 2], [7, 8], "raise"), (gp.asarray([0, 20]), 5, "wrap"),
                         ([-30, 30], [1, 2], "clip"), ([1, 2, 3], [9, 8, 7, 6], "raise"),
                         ([], [1], "raise"), ([0, 1], [], "raise")]:
        x, xa = gp.asarray(a), a.copy()
        gp.put(x, ind, v, mode=mode)
        np.put(xa, np_key(ind), v, mode=mode)
        check(x, xa)
    t = gp.asarray(a.T.copy()).T
    t.put([0, 5], [-1, -2])
    xa = a.copy()
    xa.put([0, 5], [-1, -2])
    check(t, xa)
    with pytest.raises(TypeError):
        gp.put([1, 2], [0], 1)
    with pytest.raises(IndexError):
        gp.put(gp.asarray(a), [12], 1)


# ====================================================================== masks

def test_compress_extract():
    a = np.arange(12.0).reshape(3, 4)
    g = gp.asarray(a)
    check(gp.compress([True, False, True], g, axis=0), np.compress([True, False, True], a,
                                                                     axis=0))
    check(g.compress(gp.asarray([0, 1, 1, 0]), axis=1), a.compress([0, 1, 1, 0], axis=1))
    check(gp.compress([False, True], g), np.compress([False, True], a))
    check(gp.compress([True, False], g, axis=1), np.compress([True, False], a, axis=1))
    check(gp.extract(g % 3 == 0, g), np.extract(a % 3 == 0, a))
    check(gp.extract(np.array([[1, 0], [0, 3]]), gp.arange(4).reshape(2, 2)),
          np.extract(np.array([[1, 0], [0, 3]]), np.arange(4).reshape(2, 2)))
    with pytest.raises(ValueError):
        gp.compress([[True]], g)
    with pytest.raises(IndexError):
        gp.compress([True, False, True, True], g, axis=0)


def test_place_putmask():
    a = np.arange(12).reshape(3, 4)
    x, xa = gp.asarray(a), a.copy()
    gp.place(x, x > 5, [44, 55])
    np.place(xa, xa > 5, [44, 55])
    check(x, xa)
    gp.place(x, np.zeros((3, 4), bool), [])       # nothing to place: no error
    with pytest.raises(ValueError):
        gp.place(x, x > 0, [])
    with pytest.raises(ValueError):
        gp.place(x, [True, False], [1])
    for vals in ([1, 2, 3], 7.9, list(range(100, 112)), []):
        x, xa = gp.asarray(a), a.copy()
        gp.putmask(x, x % 2 == 1, vals)
        np.putmask(xa, xa % 2 == 1, vals)
        check(x, xa)
    x, xa = gp.asarray(a), a.copy()
    gp.putmask(x, x > 5, x ** 2)
    np.putmask(xa, xa > 5, xa ** 2)
    check(x, xa)
    with pytest.raises(ValueError):
        gp.putmask(x, [True], [1])
    with pytest.raises(TypeError):
        gp.putmask([1, 2], [True, False], 1)


@pytest.mark.parametrize("dtype", [np.float64, np.int8, np.bool_, np.complex64, np.float16])
def test_nonzero_family(dtype):
    rng = np.random.default_rng(8)
    a = sample(dtype, (3, 5, 2), rng)
    a[0] = 0
    if np.dtype(dtype).kind == "f":
        a[1, 0, 0] = -0.0
    g = gp.asarray(a)
    check(gp.nonzero(g), np.nonzero(a))
    check(g.nonzero(), a.nonzero())
    check(gp.where(g), np.where(a))
    check(gp.argwhere(g), np.argwhere(a))
    check(gp.flatnonzero(g), np.flatnonzero(a))
    check(gp.nonzero(g[0, :, 0]), np.nonzero(a[0, :, 0]))
    s, gs = strided_pair(a)
    check(gp.nonzero(gs.T), np.nonzero(s.T))
    check(gp.argwhere(gp.asarray(a[0, 0])), np.argwhere(a[0, 0]))
    for v in (0, 5):
        check(gp.argwhere(gp.asarray(v)), np.argwhere(v))
        check(gp.flatnonzero(gp.asarray(v)), np.flatnonzero(v))
    with pytest.raises(ValueError):
        gp.nonzero(gp.asarray(1))
    with pytest.raises(ValueError):
        gp.where(True)


# ====================================================================== index tricks

def test_ix_choose():
    a = np.arange(12).reshape(3, 4)
    g = gp.asarray(a)
    check(gp.ix_([0, 2], [True, False, True, True]), np.ix_([0, 2], [True, False, True, True]))
    check(gp.ix_(gp.asarray([1]), gp.asarray([False, True, False, True]), []),
          np.ix_([1], [False, True, False, True], []))
    check(g[gp.ix_([0, 2], [1, 3])], a[np.ix_([0, 2], [1, 3])])
    with pytest.raises(ValueError):
        gp.ix_([[1]])
    ch = [[1, 2, 3], [10, 20, 30], [100, 200, 300]]
    check(gp.choose(gp.asarray([2, 0, 1]), ch), np.choose([2, 0, 1], ch))
    check(gp.choose([5, -1, 1], [[1, 2, 3], [10, 20, 30]], mode="wrap"),
          np.choose([5, -1, 1], [[1, 2, 3], [10, 20, 30]], mode="wrap"))
    check(gp.choose(gp.asarray([5, -1, 1]), gp.asarray(np.array(ch[:2])), mode="clip"),
          np.choose([5, -1, 1], np.array(ch[:2]), mode="clip"))
    f = np.float32(1.5)
    c2 = np.arange(2, dtype=np.int16)
    check(gp.choose(gp.asarray([[0], [1]], dtype=np.int8), [f, gp.asarray(c2)]),
          np.choose(np.array([[0], [1]], np.int8), [f, c2]))
    with pytest.raises(ValueError):
        gp.choose(gp.asarray([0, 3]), ch)
    with pytest.raises(TypeError):
        gp.choose(gp.asarray([0.0, 1.0]), ch)


def test_ravel_unravel():
    check(gp.ravel_multi_index(([3, 6, 6], [4, 5, 1]), (7, 6)),
          np.ravel_multi_index(([3, 6, 6], [4, 5, 1]), (7, 6)))
    check(gp.ravel_multi_index((gp.asarray([3, 6, 6]), [4, 5, 1]), (7, 6), order="F"),
          np.ravel_multi_index(([3, 6, 6], [4, 5, 1]), (7, 6), order="F"))
    check(gp.ravel_multi_index(([0, 5], [1, 1]), (3, 2), mode=("clip", "wrap")),
          np.ravel_multi_index(([0, 5], [1, 1]), (3, 2), mode=("clip", "wrap")))
    check(gp.ravel_multi_index((gp.asarray([[-1], [2]]), [0, 1]), (3, 2), mode="wrap"),
          np.ravel_multi_index(([[-1], [2]], [0, 1]), (3, 2), mode="wrap"))
    check(gp.unravel_index(gp.asarray([22, 41, 37]), (7, 6)),
          np.unravel_index([22, 41, 37], (7, 6)))
    check(gp.unravel_index([22, 41, 37], (7, 6), order="F"),
          np.unravel_index([22, 41, 37], (7, 6), order="F"))
    check(gp.unravel_index(gp.asarray([[5], [0]], dtype=np.int32), (2, 1, 3)),
          np.unravel_index(np.array([[5], [0]], np.int32), (2, 1, 3)))
    check(gp.unravel_index(4, (2, 3)), tuple(np.asarray(v) for v in np.unravel_index(4, (2, 3))))
    for bad in (([0, 3], [1, 1]), (gp.asarray([0, -1]), [1, 1])):
        with pytest.raises(ValueError):
            gp.ravel_multi_index(bad, (3, 2))
    with pytest.raises(ValueError):
        gp.unravel_index([6], (2, 3))
    with pytest.raises(ValueError):
        gp.unravel_index(gp.asarray([-1]), (2, 3))
    with pytest.raises(TypeError):
        gp.unravel_index([1.0], (2, 3))


def test_diag_indices():
    check(gp.diag_indices(3), np.diag_indices(3))
    check(gp.diag_indices(2, 3), np.diag_indices(2, 3))
    check(gp.diag_indices_from(gp.zeros((2, 2, 2))), np.diag_indices_from(np.zeros((2, 2, 2))))
    x = gp.zeros((3, 3))
    x[gp.diag_indices_from(x)] = 1.0
    check(x, np.eye(3))
    with pytest.raises(ValueError):
        gp.diag_indices_from(gp.zeros(3))
    with pytest.raises(ValueError):
        gp.diag_indices_from(gp.zeros((2, 3)))


@pytest.mark.parametrize("xs,ms", [((2, 3), (2, 0)), ((2, 1), (2, 0)), ((2, 3), (0, 3)),
                                   ((3,), (0,)), ((0, 1), (0, 0)), ((2, 1, 4), (2, 0)),
                                   ((2, 1), (2, 2)), ((0,), (1,))])
def test_empty_boolean_mask_of_another_shape(xs, ms):
    # NumPy accepts an empty mask whatever its shape (the Array API suite draws these);
    # a non-empty mismatched mask is still an IndexError
    x = np.arange(int(np.prod(xs)), dtype=np.float32).reshape(xs)
    m = np.zeros(ms, bool)
    try:
        e = x[m]
    except IndexError:
        with pytest.raises(IndexError):
            gp.asarray(x)[gp.asarray(m)]
        return
    r = gp.asarray(x)[gp.asarray(m)]
    assert r.shape == e.shape and r.dtype == e.dtype
    g = gp.asarray(x)
    g[gp.asarray(m)] = 5
    assert np.array_equal(g.get(), x)


@pytest.mark.parametrize("key, unique", [
    ((slice(None), np.array([True, False, True, True, False, True])), True),
    ((np.arange(4) % 2 == 0, 2), True),
    ((np.array([True, False, True, False]), np.array([True, False, False, False, True, False])),
     True),
    (([0, 0], 1), False),
    ((np.array([True, False, False, False]), [3, 3]), False),
    ((np.arange(4) > 0, slice(1, 3)), True),
])
def test_scatter_knows_when_offsets_are_distinct(key, unique):
    """Masks select each element once, so their scatters skip the search for repeated
    offsets (the O(n^2) or sorted last-wins kernels on CUDA); integer arrays may repeat."""
    from gnumpy._api.indexing import index_plan
    a = gp.asarray(np.arange(24.0).reshape(4, 6))
    assert index_plan.plan(a, key).unique is unique
    n = a.get()
    shape = n[key].shape
    a[key] = -1.0 - gp.arange(float(np.prod(shape))).reshape(shape)
    n[key] = -1.0 - np.arange(float(np.prod(shape))).reshape(shape)
    check(a, n)


@pytest.mark.parametrize("n", [5, 3000, 20000])
def test_fancy_assignment_with_duplicates_last_wins(n):
    # NumPy assigns in order, so the last of equal indices wins (a scatter of more than
    # SCATTER_SORT_MIN values finds the last by a stable sort on CUDA, smaller ones by pairs)
    rng = np.random.default_rng(n)
    a = rng.standard_normal((40, 30))
    rows = rng.integers(-40, 40, n)
    cols = rng.integers(0, 30, n)
    vals = rng.standard_normal(n)
    g = gp.asarray(a)
    a[rows, cols] = vals
    g[gp.asarray(rows), gp.asarray(cols)] = gp.asarray(vals)
    check(g, a)
    b = np.zeros(7, np.int8)
    h = gp.asarray(b)
    b[[1, 1, 3, 1]] = [5, 6, 7, 8]
    h[[1, 1, 3, 1]] = [5, 6, 7, 8]
    check(h, b)


def _count_compactions(monkeypatch):
    """A list that gets one entry per mask compaction (``masks.flat_nonzero`` call)."""
    from gnumpy._api.indexing import masks
    calls = []
    real = masks.flat_nonzero

    def counted(x):
        calls.append(1)
        return real(x)
    monkeypatch.setattr(masks, "flat_nonzero", counted)
    return calls


def test_mask_offsets_are_reused_until_memory_is_written(monkeypatch):
    """The offsets of a boolean mask index are computed once for a run of uses of the same
    mask array (one count, one sync: mandelbrot's Z[I], C[I], Z[I] = ...), kept across
    writes of other memory (mandelbrot's N_[Xi[I], Yi[I]] = i + 1), and computed again
    after a write to the mask (out=, setitem, in-place operator)."""
    calls = _count_compactions(monkeypatch)
    rng = np.random.default_rng(11)
    zn, cn = rng.standard_normal(50), rng.standard_normal(50)
    z, c = gp.asarray(zn), gp.asarray(cn)
    for it in range(4):
        In = np.abs(zn) < 1.0
        I = gp.abs(z) < 1.0
        del calls[:]
        z[I] = z[I] ** 2 + c[I]
        zn[In] = zn[In] ** 2 + cn[In]
        assert len(calls) == 1
        check(z, zn)
    In = np.abs(zn) < 2.0
    I = gp.abs(z) < 2.0
    a = z[I]
    gp.logical_not(I, out=I)                    # the mask itself rewritten (out=)
    np.logical_not(In, out=In)
    check(z[I], zn[In])
    check(a, zn[~In])
    z[I] = 0.5                                  # (a lazy where: no memory written)
    zn[In] = 0.5
    del calls[:]
    check(c[I], cn[In])
    assert not calls
    c[1:3] = 7.0                                # memory written elsewhere: kept
    cn[1:3] = 7.0
    check(c[I], cn[In])
    assert not calls
    I[2:5] = True                               # the mask's memory: computed again
    In[2:5] = True
    check(c[I], cn[In])
    assert len(calls) == 1
    I2 = gp.abs(z) > 0.4
    I2n = np.abs(zn) > 0.4
    check(z[I2], zn[I2n])
    I2 ^= True                                  # in-place operator: a new node
    I2n ^= True
    check(z[I2], zn[I2n])
    I2[3] = not bool(I2[3])                     # setitem: the mask is viewed since
    I2n[3] = not I2n[3]
    check(z[I2], zn[I2n])
    check(c[I2], cn[I2n])


def test_mask_written_by_a_dlpack_consumer_is_read_again():
    """A mask array shared with another library (DLPack) may be written behind gnumpy's
    back: its offsets are not reused."""
    zn = np.linspace(-2.0, 2.0, 9)
    z = gp.asarray(zn)
    I = gp.abs(z) < 1.0
    if z.device.kind != "cpu":
        torch = pytest.importorskip("torch")
        t = torch.from_dlpack(I)
    else:
        t = np.from_dlpack(I)
    check(z[I], zn[np.abs(zn) < 1.0])           # (offsets computed after the export)
    t[0] = True
    m = np.abs(zn) < 1.0
    m[0] = True
    assert I.get()[0]                           # the consumer wrote gnumpy's memory
    check(z[I], zn[m])


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex128, np.int32])
def test_masked_update_from_the_same_mask_is_a_where(dt):
    """``a[m] = f(a[m], b[m])`` with one full mask: NumPy's values, computed as
    ``where(m, f(a, b), a)`` (no gather or scatter runs); values that are not
    elementwise in the gathers (a reduction, another mask, an index array) keep the
    scatter, with NumPy's values too."""
    rng = np.random.default_rng(5)
    an = (rng.standard_normal((6, 7)) * 3).astype(dt)
    bn = (rng.standard_normal((6, 7)) * 3).astype(dt)
    if np.dtype(dt).kind == "f":
        an[0, 0], an[1, 1], bn[2, 2] = np.nan, -0.0, np.inf
    a, b = gp.asarray(an), gp.asarray(bn)
    for it in range(3):
        mn = np.abs(an) < 2
        m = gp.abs(a) < 2
        gp.stats.reset()
        a[m] = a[m] * 2 + b[m] - 1
        an[mn] = an[mn] * 2 + bn[mn] - 1
        gp.evaluate(a)
        assert gp.stats.by_kind["barrier"] == 0 or mn.sum() <= 1     # (one: a broadcast)
        check(a, an)
    m = a > 0
    mn = an > 0
    a[m] = a[m] - a[m].sum()                    # a reduction over the selection
    an[mn] = an[mn] - an[mn].sum()
    check(a, an)
    m2 = gp.asarray(np.roll(mn, 1))
    if int(m2.sum()) == int(m.sum()):
        a[m] = b[m2]                            # gathered through another mask
        an[mn] = bn[np.roll(mn, 1)]
        check(a, an)
    f = gp.asarray(an.astype(np.float64))
    fn = an.astype(np.float64)
    k = gp.abs(f) > 1
    kn = np.abs(fn) > 1
    a[k] = f[k] * 1.5                           # a float value into the array's dtype
    an[kn] = fn[kn] * 1.5
    check(a, an)


def test_mask_computed_with_the_arrays_it_reads():
    """The mask of a loop over a lazy state (mandelbrot's ``I = abs(Z) < 2``) is computed
    together with that state, so the state's graph does not grow across iterations."""
    zn = np.zeros(40, np.complex128)
    cn = np.linspace(-2, 1, 40) + 0.5j
    z, c = gp.asarray(zn), gp.asarray(cn)
    for it in range(20):
        In = np.abs(zn) < 2.0
        I = gp.abs(z) < 2.0
        z[I] = z[I] ** 2 + c[I]
        zn[In] = zn[In] ** 2 + cn[In]
        if it:
            assert z._node.size < 20
    check(z, zn)


def test_rebuilt_mask_reuses_offsets_only_for_the_same_values(monkeypatch):
    """``x[x > 0] = x[x > 0] ** -1.5`` builds the mask twice: the second, the same
    expression of the same memory, reuses the first one's offsets (one count); masks
    that differ in an operand, a scalar's sign of zero or the memory read since, count
    again."""
    calls = _count_compactions(monkeypatch)
    rng = np.random.default_rng(2)
    xn = rng.standard_normal((5, 6))
    x = gp.asarray(xn) * 1.0                    # lazy
    xn = xn * 1.0
    x[x > 0] = x[x > 0] ** -1.5
    xn[xn > 0] = xn[xn > 0] ** -1.5
    check(x, xn)
    assert len(calls) == 1
    y = gp.asarray(xn.copy())
    yn = xn.copy()
    del calls[:]
    a = y[y / 0.0 > 0]                          # inf where y > 0, and -inf ...
    b = y[y / -0.0 > 0]                         # ... the other way round: other offsets
    check(a, yn[yn / 0.0 > 0])
    check(b, yn[yn / -0.0 > 0])
    assert len(calls) == 2
    del calls[:]
    c1 = y[y > 0.25]
    c2 = y[y > 0.5]                             # another scalar
    y[0, 0] = 7.0                               # a write: the same mask counts again
    yn[0, 0] = 7.0
    c3 = y[y > 0.5]
    check(c1, xn[xn > 0.25])
    check(c2, xn[xn > 0.5])
    check(c3, yn[yn > 0.5])
    assert len(calls) == 3


def test_a_masks_scalar_bounds_stay_lazy_and_its_reductions_are_computed_with_it():
    """A mask over 0-d bounds (NPBench azimint_naive: ``rmax * i / npt <= radius``): the
    arrays the mask reads are computed with its count, except a 0-d elementwise expression
    of memory and constants, which the count's kernel recomputes (no output, no schedule
    of its own); a 0-d reduction among them is computed once, with the mask."""
    rng = np.random.default_rng(5)
    rn, dn = rng.random(300), rng.standard_normal(300)
    radius, data = gp.asarray(rn), gp.asarray(dn)
    rmax = radius.max()
    rmaxn = rn.max()
    res, resn = gp.zeros(6), np.zeros(6)
    for i in range(6):
        r1, r2 = rmax * i / 6, rmax * (i + 1) / 6
        r1n, r2n = rmaxn * i / 6, rmaxn * (i + 1) / 6
        m = gp.logical_and(r1 <= radius, radius < r2)
        res[i] = data[m].mean()
        resn[i] = dn[np.logical_and(r1n <= rn, rn < r2n)].mean()
        assert rmax._node.kind == ir.LEAF           # computed with the first mask
        if i:                                       # (the first bounds held rmax's sum)
            assert r1._node.kind != ir.LEAF and r2._node.kind != ir.LEAF
    check(res, resn)
    w = radius * 2.0                                # a lazy array that is not 0-d
    m = w > 1.0
    check(data[m], dn[rn * 2.0 > 1.0])
    assert w._node.kind == ir.LEAF                  # computed with the mask, as before


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.int8, np.bool_,
                                np.complex128, np.uint8], ids=str)
def test_assigning_strings_and_none_converts_as_numpy(dt):
    """``a[k] = "1.5"`` / ``None`` / ``b"2"``: NumPy's conversion of one object ("1.5" ->
    1.5, None -> nan in a float array), or its ValueError / TypeError, through a basic,
    an integer-array and a mask index."""
    for v in ("a", "1.5", "7", None, b"2", "", "nan", "1+2j", "True"):
        for k in (1, [0, 2], np.array([True, False, True])):
            a, g = np.zeros(3, dtype=dt), gp.zeros(3, dtype=dt)
            try:
                a[k] = v
            except (TypeError, ValueError) as e:
                with pytest.raises(type(e)):
                    g[k] = v
                continue
            g[k] = v
            assert np.array_equal(g.get(), a, equal_nan=True), (v, k)


_SIMPLE_KEY = st.one_of(st.integers(-7, 7), st.builds(
    slice, st.none() | st.integers(-8, 8), st.none() | st.integers(-8, 8),
    st.none() | st.sampled_from([1, 2, 3, -1, -2, -5])))


@settings(derandomize=True, max_examples=300)
@given(shape=st.lists(st.integers(0, 5), max_size=4).map(tuple),
       key=st.lists(_SIMPLE_KEY, max_size=5), bare=st.booleans())
def test_simple_keys_give_the_general_view_ops(shape, key, bare):
    """``keys.simple_view_ops`` (a lazy array's ``a[1:-1]``, ``a[i, :k]`` in one pass)
    gives ``view_ops``'s answer for every key of ints and slices it takes, and steps
    aside (None) for a key ``view_ops`` refuses; a lazy array indexed so has NumPy's
    values."""
    from gnumpy._api.indexing.keys import simple_view_ops, view_ops
    k = key[0] if bare and len(key) == 1 else tuple(key)
    got = simple_view_ops(shape, k)
    try:
        want = view_ops(shape, k)
    except IndexError:
        assert got is None
        return
    assert got is None or got == want
    if got is not None:
        x = np.arange(float(np.prod(shape, dtype=int))).reshape(shape)
        check((gp.asarray(x) * 2.0)[k], (x * 2.0)[k])


def test_a_lazy_arrays_simple_slice_is_a_view_of_its_memory():
    """A slice of a lazy array (taken through ``simple_view_ops``) shares its memory: a
    write into the array after the slice is seen through it, as in NumPy."""
    x = np.arange(12.0).reshape(3, 4)
    a = gp.asarray(x) + 1.0
    s = a[1, 1:3]
    e = a[2, 3]
    a[1, 2] = -5.0
    y = x + 1.0
    ys, ye = y[1, 1:3], y[2, 3].copy()
    y[1, 2] = -5.0
    check(s, ys)
    check(e, ye)
