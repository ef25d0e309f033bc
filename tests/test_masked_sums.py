"""Sums and means of ``a[m]`` (a boolean mask of a's shape) are computed as sums of
``where(m, a, 0)``, with no compaction (``reductions._reduce``): NumPy's values, dtypes
and shapes for every dtype, NaN/inf/-0, lazy and strided operands, empty and full
selections."""
import numpy as np
import pytest

import gnumpy as gp
from gnumpy._graph.ir import BARRIER
from helpers import check

RNG = np.random.default_rng(31)


def _barriers(node, seen=None):
    seen = set() if seen is None else seen
    if id(node) in seen:
        return []
    seen.add(id(node))
    out = [node.op] if node.kind == BARRIER else []
    for s in node.srcs:
        out += _barriers(s, seen)
    return out


def _data(dtype, shape):
    if dtype == np.bool_:
        return RNG.random(shape) > 0.5
    x = RNG.standard_normal(shape) * 4
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    x = x.astype(dtype)
    if np.dtype(dtype).kind in "fc":
        flat = x.reshape(-1)
        flat[:5] = [np.nan, np.inf, -0.0, -np.inf, 0.0]
    return x


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.int32,
                                   np.uint8, np.int64, np.bool_, np.complex64,
                                   np.complex128])
@pytest.mark.parametrize("shape", [(40,), (6, 7)])
def test_sum_and_mean_of_a_masked_selection(dtype, shape):
    x = _data(dtype, shape)
    m = RNG.random(shape) > 0.4
    m.reshape(-1)[1:3] = False          # the inf / -0 positions excluded, the NaN kept
    g = gp.asarray(x)
    gm = gp.asarray(m)
    with np.errstate(all="ignore"):
        sel = g[gm]
        assert _barriers(gp.sum(sel)._node) == []           # no compaction
        check(gp.sum(sel), np.sum(x[m]))
        check(sel.sum(keepdims=True), x[m].sum(keepdims=True))
        check(gp.mean(sel), np.mean(x[m]))
        if np.dtype(dtype).kind in "iuf":
            check(sel.sum(dtype=np.float64), x[m].sum(dtype=np.float64))
        check(sel, x[m])                                    # the selection itself


def test_a_sum_of_negative_zeros():
    x = np.array([-0.0, 5.0, -0.0, 2.0])
    m = np.array([True, False, True, False])
    check(gp.asarray(x)[gp.asarray(m)].sum(), x[m].sum())   # +0.0: NumPy starts from +0


def test_lazy_mask_and_operand_in_a_loop():
    """azimint_naive's loop: a lazy mask of ranges, the mean of the selection."""
    data, radius = RNG.random(500), RNG.random(500)
    gd, gr = gp.asarray(data), gp.asarray(radius)
    want, got = np.zeros(10), gp.zeros(10)
    for i in range(10):
        m = np.logical_and(i / 10 <= radius, radius < (i + 1) / 10)
        want[i] = data[m].mean()
        gm = gp.logical_and(i / 10 <= gr, gr < (i + 1) / 10)
        got[i] = (gd * 2 - gd)[gm].mean()
    check(got, want)


def test_empty_full_and_other_selections():
    x = RNG.standard_normal((5, 4))
    g = gp.asarray(x)
    for m in (np.zeros((5, 4), bool), np.ones((5, 4), bool)):
        check(g[gp.asarray(m)].sum(), x[m].sum())
    check(g[gp.asarray(x[:, 0] > 0)].sum(), x[x[:, 0] > 0].sum())   # a mask of rows
    check(g[gp.asarray(x > 0)].max(), x[x > 0].max())               # not rewritten
    check(g[::2][gp.asarray(x[::2] > 0)].sum(), x[::2][x[::2] > 0].sum())


def test_a_mask_written_after_the_selection():
    """A write between ``a[m]`` and its sum (into the mask's memory, or into memory a
    lazy mask reads): the sum is of the elements selected when ``a[m]`` was taken."""
    def rebuilt(xp):
        a = xp.arange(1.0, 9.0)
        b = xp.arange(8) * 1
        y1 = a[b > 3]
        y1.tolist()
        y2 = a[b > 3]           # the same mask expression again (its offsets are kept)
        b[...] = 0
        return float(y2.sum()), float(y2.mean())

    def in_place(xp):
        a = xp.arange(1.0, 9.0)
        m = xp.asarray(np.array([True, False] * 4))
        a[m].tolist()           # (the offsets of m computed, and kept)
        y = a[m]
        m[...] = ~m
        return float(y.sum()), float(y.mean())
    for f in (rebuilt, in_place):
        assert f(gp) == f(np), f.__name__
