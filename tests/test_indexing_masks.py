"""Boolean masks and scatters against NumPy: empty masks of another shape, scatters that
know their offsets are distinct, last-wins duplicate assignment, and a mask's offsets
computed once and reused until its memory is written (and computed with the arrays it
reads).

The index strategies and indexing itself: test_indexing.py.
"""
import numpy as np
import pytest

import gnumpy as gp
from gnumpy._graph import ir
from helpers import check


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


@pytest.mark.parametrize("n", [0, 1, 2047, 2048, 2049, 2048 * 1024, 2048 * 1024 + 1,
                               2048 * 1100 - 7])
def test_compaction_count_on_either_side_of_its_tiles(n):
    """A mask's count is the compaction's own (on CUDA: the total its scan of per-tile
    counts writes after them, 2048 elements a tile, 1024 tiles a chunk of the scan): the
    offsets, their number and the masked values match NumPy at the edges of both."""
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n)
    for m in (x > 0.5, x > 9.0, x > -9.0):
        g = gp.asarray(x)
        gm = gp.asarray(m)
        check(g[gm], x[m])
        check(gp.flatnonzero(gm), np.flatnonzero(m))
        g[gm] = -2.0
        y = x.copy()
        y[m] = -2.0
        check(g, y)
