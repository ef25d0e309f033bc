"""histogramdd and histogram2d against NumPy: bin counts, given edges, ranges, weights,
density, points on the last edge, int/float32/float64 samples, empty and 1-D samples,
non-contiguous inputs, and NumPy's errors."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import gnumpy as gp
from helpers import check, strided_pair


def _same(got, exp):
    h, edges = got
    check(h, exp[0])
    assert len(edges) == len(exp[1])
    for g, e in zip(edges, exp[1]):
        check(g, e)


def _g(v):
    return gp.asarray(v) if isinstance(v, np.ndarray) else v


@given(seed=st.integers(0, 2**32 - 1), d=st.integers(1, 3), n=st.integers(0, 60),
       dtype=st.sampled_from([np.float64, np.float32, np.int32]),
       density=st.booleans(), weighted=st.booleans())
def test_histogramdd_random(seed, d, n, dtype, density, weighted):
    rng = np.random.default_rng(seed)
    s = (rng.standard_normal((n, d)) * 4).astype(dtype)
    if n:
        s[rng.integers(0, n)] = s.max(axis=0)           # points on the last edge
    bins = [int(b) for b in rng.integers(1, 6, d)]
    w = rng.random(n) if weighted else None
    with np.errstate(all="ignore"):
        exp = np.histogramdd(s, bins=bins, density=density or None, weights=w)
    _same(gp.histogramdd(gp.asarray(s), bins=bins, density=density or None, weights=_g(w)),
          exp)


def test_histogramdd_edges_ranges_and_samples():
    rng = np.random.default_rng(1)
    s = rng.standard_normal((40, 2))
    edges = [np.array([-3.0, -1.0, 0.0, 0.5, 3.0]), np.array([-1.0, 1.0])]
    _same(gp.histogramdd(gp.asarray(s), bins=[gp.asarray(e) for e in edges]),
          np.histogramdd(s, bins=edges))
    _same(gp.histogramdd(gp.asarray(s), bins=3, range=[(-1, 1), (0, 2)]),
          np.histogramdd(s, bins=3, range=[(-1, 1), (0, 2)]))
    _same(gp.histogramdd(gp.asarray(s), bins=(2, 5), range=[None, (0, 2)], density=True),
          np.histogramdd(s, bins=(2, 5), range=[None, (0, 2)], density=True))
    hs, gs = strided_pair(s)
    _same(gp.histogramdd(gs, bins=4), np.histogramdd(hs, bins=4))
    x = rng.standard_normal(30)
    _same(gp.histogramdd(gp.asarray(x), bins=6), np.histogramdd(x, bins=6))      # 1-D sample
    _same(gp.histogramdd([gp.asarray(x), gp.asarray(x * 2)], bins=3),
          np.histogramdd([x, x * 2], bins=3))                                     # list of arrays
    _same(gp.histogramdd([[1, 2, 2], [0, 0, 1]], bins=2), np.histogramdd([[1, 2, 2], [0, 0, 1]],
                                                                          bins=2))
    const = np.ones((5, 2))
    _same(gp.histogramdd(gp.asarray(const), bins=2), np.histogramdd(const, bins=2))


def test_histogram2d():
    rng = np.random.default_rng(2)
    x, y = rng.standard_normal(50), rng.random(50)
    w = rng.random(50)
    for kw in ({}, {"bins": 4}, {"bins": [3, 5]}, {"bins": np.linspace(-1, 1, 4)},
               {"bins": [np.array([-2.0, 0.0, 2.0]), 3]}, {"range": [(-1, 1), (0, 0.5)]},
               {"weights": w, "density": True}):
        gkw = {k: (_g(v) if not isinstance(v, list) else [_g(t) for t in v])
               for k, v in kw.items()}
        got = gp.histogram2d(gp.asarray(x), gp.asarray(y), **gkw)
        exp = np.histogram2d(x, y, **kw)
        for g, e in zip(got, exp):
            check(g, e)


def test_errors():
    s = gp.asarray(np.random.default_rng(3).standard_normal((10, 2)))
    with pytest.raises(ValueError, match="dimension of bins"):
        gp.histogramdd(s, bins=[2, 3, 4])
    with pytest.raises(ValueError, match="one entry per dimension"):
        gp.histogramdd(s, range=[(0, 1)])
    with pytest.raises(ValueError, match="must be positive"):
        gp.histogramdd(s, bins=[0, 2])
    with pytest.raises(TypeError, match="must be an integer"):
        gp.histogramdd(s, bins=[2.5, 2])
    with pytest.raises(ValueError, match="monotonically increasing"):
        gp.histogramdd(s, bins=[gp.asarray([0.0, 2.0, 1.0]), 2])
    with pytest.raises(ValueError, match="scalar or 1d array"):
        gp.histogramdd(s, bins=[gp.ones((2, 2)), 2])
    with pytest.raises(ValueError, match="same length"):
        gp.histogramdd(s, weights=gp.ones(3))
    with pytest.raises(ValueError, match="max must be larger"):
        gp.histogramdd(s, range=[(1, 0), None])
