"""Advanced indexing, gather and scatter, against NumPy.

Random index expressions come from hypothesis: ints (also negative), slices with steps and
negative bounds, integer arrays (also negative; gnumpy arrays, NumPy arrays, nested lists)
broadcast together, boolean masks over one or more dims, 0-d booleans, None and Ellipsis,
on contiguous, strided and lazy sources, for reading and writing.  Writes whose targets
repeat use one value, so the expected result does not depend on which duplicate wins (on
the GPU any one may).  Every function is compared on shape, dtype and values, and its
errors on exception type.  ``ufunc.at`` and the index functions are in
test_indexing_functions.py; boolean masks' offsets and scatters in test_indexing_masks.py.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gnumpy as gp
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


@pytest.mark.parametrize("layout", LAYOUTS)
def test_numpy_scalar_integer_indices_give_views(layout):
    """An integer scalar as NumPy gives it (an element read ``idx[a, b]``, a reduction's
    ``argmax()``) indexes as an int does: a view, which writes reach both ways.  A 0-d
    array is an advanced index: a copy, an array (its in-place operators write it) unless
    it selects one element (then NumPy's scalar, which they rebind)."""
    a, x = variant(np.arange(60.0).reshape(3, 4, 5) - 7, layout)
    a = np.array(a)
    idn = np.array([[0, 2], [1, 3]])
    idg = gp.asarray(idn)
    kn, kg = idn[0, 1], idg[0, 1]           # (NumPy's: an np.int64)
    mn = np.array([0.0, 3.0, 1.0]).argmax()
    mg = gp.asarray(np.array([0.0, 3.0, 1.0])).argmax()
    rn, rg = a[mn, kn], x[mg, kg]
    check(rg, rn)
    rn[0] = 100.0
    rg[0] = 100.0                           # through the view, into the source
    a[1, 2, 1] = -5.0
    x[1, 2, 1] = -5.0                       # and from the source, seen by the view
    check(rg, rn)
    check(x, a)
    zn, zg = a[1, np.array(2)], x[1, gp.asarray(np.array(2))]
    alias_n, alias_g = zn, zg
    zn += 1.0
    zg += 1.0
    check(alias_g, alias_n)                 # an array: written in place
    a[1, 2] = 0.0
    x[1, 2] = 0.0
    check(zg, zn)                           # a copy: the source's write misses it
    en, eg = a[1, np.array(2), np.array(3)], x[1, gp.asarray(np.array(2)), 3]
    alias_n, alias_g = en, eg
    en += 1.0
    eg += 1.0
    check(alias_g, alias_n)                 # a scalar: rebound
    check(eg, en)


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


INDEX_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
                np.uint64]


@pytest.mark.parametrize("idt", INDEX_DTYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("layout", ["contiguous", "strided", "lazy"])
def test_vector_gather_index_dtypes(idt, layout):
    """``x[cols]`` of a vector and an integer index array of every dtype (read as it lies,
    no cast, when in memory and in range), 1-d and 2-d, in every index layout; negative
    indices of the signed ones, and an empty index."""
    rng = np.random.default_rng(int(np.dtype(idt).num) * 7 + len(layout))
    x = rng.standard_normal(100)
    x[3], x[5] = np.nan, -0.0
    sx, gx = variant(x, "strided" if layout == "strided" else "contiguous")
    lo = -100 if np.dtype(idt).kind == "i" and np.dtype(idt).itemsize > 1 else 0
    hi = min(100, np.iinfo(idt).max + 1)
    for shape in [(37,), (4, 6), (0,)]:
        idx = rng.integers(max(lo, np.iinfo(idt).min), hi, shape).astype(idt)
        for neg in (False, True):
            k = (idx.astype(np.int64) % 100).astype(idt) if not neg else idx
            sk, gk = variant(k, layout)
            check(gx[gk], sx[sk], exact=True)


def test_row_loop_gather_reduction():
    """NPBench spmv's row loop, ``y[i] = vals @ x[cols]`` with uint32 CSR indices and
    Python-int and 0-d row bounds, and a loop that writes the gathered vector between
    rows (each row reads the values written before it)."""
    rng = np.random.default_rng(5)
    m, n, nnz = 40, 30, 120
    rows = np.sort(np.concatenate([[0, nnz], rng.integers(0, nnz, m - 1)])).astype(np.uint32)
    cols = rng.integers(0, n, nnz).astype(np.uint32)
    vals = rng.standard_normal(nnz)
    x = rng.standard_normal(n)
    g_rows, g_cols, g_vals, g_x = (gp.asarray(a) for a in (rows, cols, vals, x))
    y, gy = np.empty(m), gp.empty(m)
    for i in range(m):
        y[i] = vals[rows[i]:rows[i + 1]] @ x[cols[rows[i]:rows[i + 1]]]
        gy[i] = g_vals[g_rows[i]:g_rows[i + 1]] @ g_x[g_cols[g_rows[i]:g_rows[i + 1]]]
    check(gy, y)
    for i in range(m):
        a, b = int(rows[i]), int(rows[i + 1])
        x[i % n] = vals[a:b] @ x[cols[a:b]] + 1.0
        g_x[i % n] = g_vals[a:b] @ g_x[g_cols[a:b]] + 1.0
    check(g_x, x)


def test_a_slice_whose_bound_changes_is_read_again():
    """A key object reused after its slice's bound (a 0-d NumPy or gnumpy array) changed
    selects what the bound says now, as in NumPy."""
    for bound in (np.array(2), gp.asarray(2)):
        key = (1, slice(0, bound))
        a = np.arange(20.0).reshape(4, 5)
        g = gp.asarray(a)
        for _ in range(3):
            check(g[key], a[key])
            a[key] += 1.0
            g[key] += 1.0
            check(g, a)
            bound[...] = bound + 1
