"""Counting and binning compared against NumPy: bincount, digitize, histogram and
histogram_bin_edges (equal and given bins, ranges, weights of every kind, density, the
bin-width estimators, values exactly on the edges, NaN and infinities, sizes where CUB's
histogram runs on CUDA), and the gnumpy compositions the CUDA backend runs
(``histograms.histogram_by_ops`` / ``bincount_by_ops``), run here on the CPU backend
against ``np.histogram`` / ``np.bincount``.
"""
import numpy as np
import pytest

import gnumpy as gp
from gnumpy._api.reductions import histograms as H
from gnumpy._graph import ir
from helpers import check
from sort_helpers import dup_sample, nw, same


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int32, np.uint64,
                                   np.int64], ids=str)
def test_bincount(dtype):
    rng = np.random.default_rng(11)
    x = rng.integers(0, 2 if dtype is np.bool_ else 20, 100).astype(dtype)
    same(gp.bincount(gp.asarray(x)), np.bincount(x))
    same(gp.bincount(gp.asarray(x), minlength=40), np.bincount(x, minlength=40))
    w = rng.standard_normal(100).astype(np.float32)
    check(gp.bincount(gp.asarray(x), weights=gp.asarray(w)), np.bincount(x, weights=w),
          rtol=1e-12, atol=1e-12)
    check(gp.bincount(gp.asarray(x)[::3], weights=w[::3]), np.bincount(x[::3], weights=w[::3]),
          rtol=1e-12, atol=1e-12)


def test_bincount_edges_and_errors():
    same(gp.bincount([]), np.bincount([]))
    same(gp.bincount(gp.asarray(np.array([], np.int64)), minlength=3),
         np.bincount(np.array([], np.int64), minlength=3))
    same(gp.bincount([1, 3]), np.bincount([1, 3]))
    with pytest.raises(ValueError):
        gp.bincount(gp.asarray([1, -1]))
    with pytest.raises(ValueError):
        gp.bincount(gp.asarray([1]), minlength=-1)
    with pytest.raises(TypeError):
        gp.bincount(gp.asarray([1]), minlength=None)
    with pytest.raises(TypeError):
        gp.bincount(gp.asarray([1.5]))
    with pytest.raises(ValueError):
        gp.bincount(gp.asarray(3))
    with pytest.raises(ValueError):
        gp.bincount(gp.asarray([[1]]))
    with pytest.raises(ValueError):
        gp.bincount(gp.asarray([1, 2]), weights=gp.asarray([1.0]))
    with pytest.raises(TypeError):
        gp.bincount(gp.asarray([1, 2]), weights=gp.asarray([1j, 2]))
    for w in (np.ones((2, 1)), np.ones(())):     # NumPy's words for the weights' depth
        with pytest.raises(ValueError) as e:
            np.bincount([1, 2], weights=w)
        with pytest.raises(ValueError, match=str(e.value)):
            gp.bincount(gp.asarray([1, 2]), weights=gp.asarray(w))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.uint8,
                                   np.int64], ids=str)
def test_histogram(dtype):
    rng = np.random.default_rng(12)
    x = (rng.standard_normal(300) * 10).astype(dtype)
    w = rng.standard_normal(300)
    wi = rng.integers(0, 5, 300).astype(np.int32)
    et = 1e-6 if np.dtype(dtype) in (np.float16, np.float32) else 1e-13   # edge tolerance
    for bins in (1, 7, [-5, 0, 1, 3, 20]):
        for r in (None, (-3, 4)):
            for weights in (None, w, wi):
                for density in (None, True):
                    e = nw(np.histogram, x, bins, range=r, weights=weights, density=density)
                    got = nw(gp.histogram, gp.asarray(x), bins, range=r, density=density,
                             weights=None if weights is None else gp.asarray(weights))
                    # densities and edges: a few ulp apart on the GPU (FMA contraction)
                    check(got[0], e[0], rtol=1e-6, atol=1e-9)
                    check(got[1], e[1], rtol=et, atol=et)
            check(gp.histogram_bin_edges(gp.asarray(x), bins, range=r),
                  np.histogram_bin_edges(x, bins, range=r), rtol=et, atol=et)


def test_histogram_special_cases_and_errors():
    same(gp.histogram(gp.asarray(np.array([], np.float32)))[0],
         np.histogram(np.array([], np.float32))[0])
    same(gp.histogram(gp.asarray([2.0, 2.0]), 3)[1], np.histogram([2.0, 2.0], 3)[1])
    cw = np.array([1 + 2j, 3j, -1.0])
    check(gp.histogram(gp.asarray([0.1, 0.5, 0.9]), 2, weights=gp.asarray(cw))[0],
          np.histogram([0.1, 0.5, 0.9], 2, weights=cw)[0])
    with pytest.warns(RuntimeWarning):
        same(gp.histogram(gp.asarray([True, False, True]), 2)[0],
             nw(np.histogram, np.array([True, False, True]), 2)[0])
    x = gp.asarray([0.0, np.nan, 1.0])
    with pytest.raises(ValueError):
        gp.histogram(x)
    same(gp.histogram(x, range=(0, 1))[0], nw(np.histogram, [0.0, np.nan, 1.0], range=(0, 1))[0])
    g = gp.asarray([1.0, 2.0])
    for kw, exc in [({"bins": 0}, ValueError), ({"bins": [3, 1, 2]}, ValueError),
                    ({"bins": [[1, 2]]}, ValueError), ({"bins": 2.5}, TypeError),
                    ({"range": (2, 1)}, ValueError), ({"range": (0, np.inf)}, ValueError),
                    ({"bins": "bogus"}, ValueError), ({"weights": gp.asarray([1.0])}, ValueError),
                    ({"bins": "auto", "weights": gp.asarray([1.0, 1.0])}, TypeError)]:
        with pytest.raises(exc):
            gp.histogram(g, **kw)


def test_histogram_bin_estimators():
    rng = np.random.default_rng(19)
    x = (rng.standard_normal(400) * 10).astype(np.float64)
    xi = rng.integers(-50, 50, 300)
    for name in ("auto", "fd", "doane", "rice", "scott", "sqrt", "sturges", "stone"):
        for r in (None, (-5, 5)):
            same(gp.histogram_bin_edges(gp.asarray(x), name, range=r),
                 nw(np.histogram_bin_edges, x, name, range=r))
        check(gp.histogram(gp.asarray(xi), name)[1], nw(np.histogram, xi, name)[1])
    for seed in range(4):       # float16 data of a narrow range: 'stone' divides NumPy's
        h = (np.random.default_rng(seed).standard_normal(300) * 5e-4).astype(np.float16)
        same(gp.histogram_bin_edges(gp.asarray(h), "stone"),    # float64 dot product by a
             nw(np.histogram_bin_edges, h, "stone"))            # float16 width


def test_digitize():
    rng = np.random.default_rng(13)
    x = dup_sample(np.float64, (4, 30), rng) * 2
    for bins in ([0.0, 1, 2.5, 4], [4.0, 2.5, 1, 0], [1.0, 1, 2, 2, 3], [3.0, 3, 2, 2, 1],
                 [1.0], [2.0, 2.0], np.array([0, 1, 3], np.int8)):
        for right in (False, True):
            same(gp.digitize(gp.asarray(x), gp.asarray(bins), right=right),
                 np.digitize(x, bins, right=right))
    xi = rng.integers(-3, 8, 50)
    same(gp.digitize(gp.asarray(xi), [0, 2, 5]), np.digitize(xi, [0, 2, 5]))
    with pytest.raises(TypeError):
        gp.digitize(gp.asarray([1j]), [0, 1])
    with pytest.raises(ValueError):
        gp.digitize(gp.asarray([1.0]), [3, 1, 2])
    with pytest.raises(ValueError):
        gp.digitize(gp.asarray([1.0]), [[1, 2]])
    with pytest.raises(ValueError):
        gp.digitize(gp.asarray([1.0]), 3)

# ------------------------------------------------------------------ the CUDA compositions

def _by_ops(a, bins, range=None, weights=None):
    """histogram's counts as the CUDA backend computes them (gnumpy ops, any backend)."""
    ga, gw = H._ravel_and_check_weights(gp.asarray(a), None if weights is None
                                        else gp.asarray(weights))
    edges, uniform = H._get_bin_edges(ga, bins, range, gw)
    rest = ([] if gw is None else [gw]) + ([edges] if uniform is None else [])
    return H.histogram_by_ops(ga, *rest, uniform=uniform, weighted=gw is not None)


def _on_edges(x, bins, range=None):
    """`x` plus every edge and its neighbours in `x`'s dtype, NaN and infinities."""
    e = np.histogram_bin_edges(x, bins, range=range)
    if x.dtype.kind == "f":
        e = e.astype(x.dtype)
        e = np.concatenate([e, np.nextafter(e, e.dtype.type(np.inf)),
                            np.nextafter(e, e.dtype.type(-np.inf))])
        extra = np.array([np.nan, np.inf, -np.inf], x.dtype) if range is not None else []
        return np.concatenate([x, e, np.asarray(extra, x.dtype)])
    return np.concatenate([x, np.round(e).astype(x.dtype)])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.uint8,
                                   np.int64], ids=str)
def test_histogram_by_ops(dtype):
    rng = np.random.default_rng(40)
    x = (rng.standard_normal(2000) * 30).astype(dtype)
    w = rng.standard_normal(x.size)
    for bins in (1, 7, 256, 1000, [-40, -3, 0, 0, 5, 60]):
        for r in (None, (-20, 25.5)):
            if np.ndim(bins) and r is not None:
                continue
            a = _on_edges(x, bins, r)
            same(_by_ops(a, bins, r), nw(np.histogram, a, bins, range=r)[0])
            ww = rng.standard_normal(a.size)
            check(_by_ops(a, bins, r, ww), nw(np.histogram, a, bins, range=r, weights=ww)[0],
                  rtol=1e-12, atol=1e-12)
    cw = (w[:x.size] + 1j * w[::-1][:x.size]).astype(np.complex64)
    check(_by_ops(x, 9, None, cw), np.histogram(x, 9, weights=cw)[0], rtol=1e-5, atol=1e-5)
    wi = rng.integers(-3, 4, x.size).astype(np.int16)
    same(_by_ops(x, [-50, 0, 50], None, wi), np.histogram(x, [-50, 0, 50], weights=wi)[0])


@pytest.mark.parametrize("host", [True, False], ids=["host-edges", "device-edges"])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int16, np.uint8],
                         ids=str)
def test_equal_bin_edges_are_numpys(dtype, host, monkeypatch):
    """Equal bins' edges are NumPy's linspace, bit for bit: computed on the host up to
    ``_HOST_EDGES`` bins, per element on the device past it."""
    if not host:
        monkeypatch.setattr(H, "_HOST_EDGES", 0)
    rng = np.random.default_rng(41)
    x = (rng.standard_normal(500) * 20).astype(dtype)
    for bins in (1, 3, 10, 333):
        for r in (None, (-7, 9), (0.1, 0.7), (np.float32(-1.5), np.float32(2.25))):
            same(gp.histogram_bin_edges(gp.asarray(x), bins, range=r),
                 np.histogram_bin_edges(x, bins, range=r))
    same(gp.histogram_bin_edges(gp.asarray(np.full(5, 3, dtype)), 4),
         np.histogram_bin_edges(np.full(5, 3, dtype), 4))


def test_a_histograms_data_range_is_read_once_while_unwritten(monkeypatch):
    """The automatic range of a histogram is one transfer, remembered for the memory while
    nothing writes it: a second histogram of the same array (azimint's counts, then its
    weight sums) reduces nothing; a write, another view or a lazy array reduces again."""
    reduced = []
    real = H.min_

    def counting_min(a, *args, **kw):
        reduced.append(a.shape)
        return real(a, *args, **kw)
    monkeypatch.setattr(H, "min_", counting_min)
    rng = np.random.default_rng(43)
    xn = rng.standard_normal(3000)
    wn = rng.random(3000)
    x = gp.asarray(xn)
    gp.evaluate(x)
    same(gp.histogram(x, 50)[0], np.histogram(xn, 50)[0])
    check(gp.histogram(x, 50, weights=gp.asarray(wn))[0], np.histogram(xn, 50, weights=wn)[0],
          rtol=1e-12, atol=1e-12)
    same(gp.histogram(x, 7)[1], np.histogram(xn, 7)[1])
    assert len(reduced) == 1
    x[5] = 40.0                 # written: the range is read again, and holds the new value
    xn[5] = 40.0
    same(gp.histogram(x, 50)[0], np.histogram(xn, 50)[0])
    same(gp.histogram(x, 50)[1], np.histogram(xn, 50)[1])
    assert len(reduced) == 2
    same(gp.histogram(x[10:], 20)[0], np.histogram(xn[10:], 20)[0])    # another layout
    same(gp.histogram(x * 2, 20)[0], np.histogram(xn * 2, 20)[0])      # lazy: not kept
    same(gp.histogram(x * 2, 20)[0], np.histogram(xn * 2, 20)[0])
    assert len(reduced) == 5
    xn[7] = np.nan
    x[7] = np.nan               # NaN: NumPy's error, each time
    for _ in range(2):
        with pytest.raises(ValueError, match="not finite"):
            gp.histogram(x, 5)


def test_bincount_by_ops():
    rng = np.random.default_rng(42)
    for dt in (np.uint8, np.int32, np.int64, np.bool_):
        x = rng.integers(0, 2 if dt is np.bool_ else 300, 5000).astype(dt)
        same(H.bincount_by_ops(gp.asarray(x)), np.bincount(x))
        same(H.bincount_by_ops(gp.asarray(x), None, 400), np.bincount(x, minlength=400))
        w = rng.standard_normal(x.size)
        check(H.bincount_by_ops(gp.asarray(x), gp.asarray(w)), np.bincount(x, weights=w),
              rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError):
        H.bincount_by_ops(gp.asarray([1, -1]))


def test_counting_large():
    # sizes where CUB's histogram (counts) and the float64-atomics kernel (weights) run
    rng = np.random.default_rng(43)
    x = rng.standard_normal(1 << 17).astype(np.float32)
    g = gp.asarray(x)
    for bins in (256, 300, 5):
        same(gp.histogram(g, bins)[0], np.histogram(x, bins)[0])
    same(gp.histogram(g[::2], 64, range=(-1, 1))[0], np.histogram(x[::2], 64, range=(-1, 1))[0])
    i = rng.integers(0, 1000, 1 << 17)
    same(gp.bincount(gp.asarray(i)), np.bincount(i))
    check(gp.bincount(gp.asarray(i), weights=g), np.bincount(i, weights=x),
          rtol=1e-9, atol=1e-9)
    same(gp.bincount(gp.asarray(i[::3].astype(np.uint16))), np.bincount(i[::3]))


def _by_ops_of(ga, bins, range=None, gw=None):
    """``_by_ops`` of gnumpy arrays as they are (no new copy: memory a later call sees)."""
    edges, uniform = H._get_bin_edges(ga, bins, range, gw)
    rest = ([] if gw is None else [gw]) + ([edges] if uniform is None else [])
    return H.histogram_by_ops(ga, *rest, uniform=uniform, weighted=gw is not None)


def test_uniform_index_is_reused_over_unchanged_memory(monkeypatch):
    """A second equal-bins histogram of the same unchanged memory with the same bins reads
    the first's bin index while the first's lazy counts hold it (counts, then weight sums
    of integer data: float data takes the one-kernel histogram); a write to the data,
    other bins or range, another sign of a zero edge, or a first result already computed
    and dropped builds it again.  NumPy's counts each time (the first's counts from the
    data as it was before the write)."""
    from gnumpy._api.reductions import binning
    from gnumpy._memstate import Memo
    monkeypatch.setattr(binning, "_INDEXES", Memo(8))  # (other tests' entries: evictions)
    built = []
    real = binning._build_uniform_index
    monkeypatch.setattr(binning, "_build_uniform_index",
                        lambda *a: built.append(1) or real(*a))
    rng = np.random.default_rng(41)
    x = rng.integers(-4, 5, 3000)
    w = rng.standard_normal(3000)
    ga, gw = gp.asarray(x), gp.asarray(w)
    h1 = _by_ops_of(ga, 50)
    h2 = _by_ops_of(ga, 50, gw=gw)
    assert len(built) == 1                      # the second reused the first's index
    same(h1, np.histogram(x, 50)[0])
    check(h2, np.histogram(x, 50, weights=w)[0], rtol=1e-12, atol=1e-12)
    old = x.copy()
    h1 = _by_ops_of(ga, 50)
    ga[5:100] = 7                               # a write: the index is built again
    x[5:100] = 7
    h2 = _by_ops_of(ga, 50, gw=gw)
    assert len(built) == 3
    same(h1, np.histogram(old, 50)[0])
    check(h2, np.histogram(x, 50, weights=w)[0], rtol=1e-12, atol=1e-12)
    keep = _by_ops_of(ga, 50, (0.0, 2.0))       # held: its index stays alive
    assert len(built) == 4
    for bins, r, reused in ((51, (0.0, 2.0), False), (50, (-1.0, 2.0), False),
                            (50, (-0.0, 2.0), False), (50, (0.0, 2.0), True)):
        n = len(built)
        same(_by_ops_of(ga, bins, r), np.histogram(x, bins, range=r)[0])
        assert len(built) == n + (not reused), (bins, r)
    same(keep, np.histogram(x, 50, range=(0.0, 2.0))[0])
    del keep
    gp.evaluate(_by_ops_of(ga, 50, (0.0, 2.0)))    # computed and dropped: nothing held
    n = len(built)
    same(_by_ops_of(ga, 50, (0.0, 2.0)), np.histogram(x, 50, range=(0.0, 2.0))[0])
    assert len(built) == n + 1


def test_equal_bins_of_float_data_in_one_kernel(monkeypatch):
    """float32 and float64 data take the ``histogram_uniform`` barrier (the data's range,
    a range of its dtype, of ints into float64, of Python floats: float32 offsets scaled
    and edges computed in float64, as NumPy does): no bin index is built; integer data,
    a float64 edge with float32 data (the comparisons in float64) and complex weights
    build the index.  NumPy's counts and weight sums either way, values on the edges and
    one ulp either side included."""
    from gnumpy._api.reductions import binning
    built = []
    real = binning._build_uniform_index
    monkeypatch.setattr(binning, "_build_uniform_index",
                        lambda *a: built.append(1) or real(*a))
    rng = np.random.default_rng(42)
    for dt, r, kernel in ((np.float64, None, True), (np.float32, None, True),
                          (np.float64, (-2, 3), True), (np.float64, (-2.5, 3.25), True),
                          (np.float32, (np.float32(-1.5), np.float32(2.25)), True),
                          (np.float32, (-1.5, 2.25), True), (np.float32, (0.1, 0.7), True),
                          (np.float32, (np.float64(-1.5), 2.25), False),
                          (np.int32, None, False)):
        x = _on_edges((rng.standard_normal(900) * 2).astype(dt), 13, r)
        w = rng.standard_normal(x.size)
        for weights, uses in ((None, kernel), (w, kernel), (w + 1j * w[::-1], False)):
            n = len(built)
            ga = gp.asarray(x)
            gw = None if weights is None else gp.asarray(weights)
            got = _by_ops_of(ga, 13, r, gw)
            assert (got._node.kind == ir.BARRIER and got._node.op == "histogram_uniform"
                    or weights is not None and got._node.srcs and
                    got._node.srcs[0].op == "histogram_uniform") == uses, (dt, r)
            assert len(built) == n + (not uses), (dt, r)
            want = np.histogram(x, 13, range=r, weights=weights)[0]
            if weights is None:
                same(got, want)
            else:
                check(got, want, rtol=1e-12, atol=1e-12)
    for dt, big in ((np.float64, 1e308), (np.float32, 3e38)):     # the width overflows
        t = np.dtype(dt).type
        a = gp.asarray(np.array([-big, 0.0, big], dt))
        assert binning.uniform_counts(a, None, t(-big), t(big), 1, np.dtype(dt)) is None
