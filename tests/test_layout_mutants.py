"""Strided layouts (gnumpy/_graph/layout.py), pinned against NumPy: tests from a mutation
run (issue 21, mutmut over layout.py) for what the view, indexing and replay tests left
open.

* the strides, contiguity flags and no-copy reshapes of views, against NumPy's for random
  strided layouts (NumPy's own no-copy reshape algorithm decides; trailing and leading
  size-1 axes included, whose strides NumPy sets from the neighbouring axis);
* ``a[i, j]`` with every axis indexed is a copy (a later write misses it), as NumPy's
  scalar;
* ``span`` (the memory a layout touches: the CUDA backend's overlap check for writes)
  against the positions the layout addresses, enumerated;
* ``compose`` (the index arithmetic of a lazy view chain in a generated kernel, including
  reshapes strides cannot express) evaluated in Python against NumPy's views of ``arange``:
  on the CPU backend nothing else runs it.
"""
import itertools

import numpy as np
import pytest

import gnumpy as gp
from gnumpy._graph import layout as L
from gnumpy._graph.ir import VIEW


def _pair(shape):
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    return a, gp.asarray(a)


def _factorizations(n, ndim):
    """Every shape of `ndim` axes whose product is n (size-1 axes included)."""
    divs = [d for d in range(1, n + 1) if n % d == 0]
    return [s for s in itertools.product(divs, repeat=ndim) if int(np.prod(s)) == n]


def _strides(x):
    """Strides of the axes longer than 1 (NumPy's choice for size-1 axes depends on how
    the view was made: 0 for a new axis, the sliced stride times the step otherwise)."""
    return tuple(s for s, d in zip(x.strides, x.shape) if d != 1)


def _random_view(rng, a, g):
    """The same random view (transpose, strided slices, maybe a new axis) of both."""
    axes = tuple(rng.permutation(a.ndim))
    a, g = a.transpose(axes), g.transpose(axes)
    key = []
    for d in a.shape:
        step = int(rng.choice([1, 1, 2, -1, -2]))
        start = int(rng.integers(0, max(d // 3, 1)))
        key.append(slice(start, None, step) if step > 0 else slice(None, start or None, step))
    if rng.random() < 0.3:
        key.insert(int(rng.integers(0, len(key) + 1)), None)
    key = tuple(key)
    return a[key], g[key]


# ------------------------------------------------------------------ strides and reshapes
def test_no_copy_reshape_of_random_views_matches_numpy():
    rng = np.random.default_rng(21)
    checked = 0
    for _ in range(60):
        shape = tuple(int(d) for d in rng.integers(1, 5, size=int(rng.integers(1, 4))))
        a, g = _pair(shape)
        va, vg = _random_view(rng, a, g)
        if va.size <= 1:
            continue
        assert _strides(vg) == _strides(va)
        assert vg.flags.c_contiguous == va.flags.c_contiguous
        assert vg.flags.f_contiguous == va.flags.f_contiguous
        for ndim in (1, 2, 3, 4):
            for ns in _factorizations(va.size, ndim)[:12]:
                try:
                    ra = va.reshape(ns, copy=False)
                except ValueError:
                    with pytest.raises(ValueError):
                        gp.reshape(vg, ns, copy=False)
                    continue
                rg = gp.reshape(vg, ns, copy=False)
                assert _strides(rg) == _strides(ra), (shape, va.strides, ns)
                np.testing.assert_array_equal(rg.get(), ra)
                checked += 1
    assert checked > 200


@pytest.mark.parametrize("newshape", [(6, 1), (1, 6, 1), (3, 2, 1, 1), (1, 1, 6),
                                      (2, 1, 3, 1)])
def test_size_one_axes_of_a_reshaped_strided_view_take_numpys_strides(newshape):
    a, g = _pair((12,))
    ra, rg = a[::2].reshape(newshape), g[::2].reshape(newshape)
    assert rg.strides == ra.strides
    np.testing.assert_array_equal(rg.get(), ra)
    ra2 = a.reshape(3, 4)[:, 1::2].reshape(newshape)
    rg2 = g.reshape(3, 4)[:, 1::2].reshape(newshape)
    np.testing.assert_array_equal(rg2.get(), ra2)


def test_merging_three_strided_axes_is_a_view_only_when_numpy_says_so():
    a, g = _pair((2, 3, 4))
    for f in (lambda x: x, lambda x: x[:, :, ::2], lambda x: x[:, ::2], lambda x: x[::-1],
              lambda x: x.transpose(1, 0, 2), lambda x: x[:, :, 1:3]):
        va, vg = f(a), f(g)
        try:
            ra = va.reshape(-1, copy=False)
        except ValueError:
            with pytest.raises(ValueError):
                gp.reshape(vg, -1, copy=False)
        else:
            rg = gp.reshape(vg, -1, copy=False)
            assert rg.strides == ra.strides
            rg[0] = -1.0            # a view: the write reaches the base
            ra[0] = -1.0
            np.testing.assert_array_equal(g.get(), a)


@pytest.mark.parametrize("make", [
    lambda x: x.reshape(-1)[::2],                       # (2,) of stride 2
    lambda x: x.reshape(-1)[:4:2],
    lambda x: x.reshape(3, 4)[:, ::2].reshape(3, 2, 1),
    lambda x: x.reshape(3, 4)[:, ::2][:, :, None],
    lambda x: x.reshape(3, 4)[:, 1:3][..., None, None],
    lambda x: x.reshape(3, 4)[:2, :2],
    lambda x: x.reshape(3, 4)[:, :1],
    lambda x: x.reshape(3, 4)[1:2],
    lambda x: x.reshape(3, 4).T,
    lambda x: x.reshape(3, 4)[::2, None],
])
def test_contiguity_flags_of_views_match_numpy(make):
    a, g = _pair((12,))
    va, vg = make(a), make(g)
    assert vg.flags.c_contiguous == va.flags.c_contiguous
    assert vg.flags.f_contiguous == va.flags.f_contiguous
    assert _strides(vg) == _strides(va)


def test_shape_of_an_empty_array_can_be_set():
    for shape, new in [((0, 3), (3, 0)), ((2, 0), (0,)), ((0,), (1, 0, 5))]:
        for g in (gp.zeros(shape), gp.asarray(np.zeros(shape))):   # lazy, in memory
            a = np.zeros(shape)
            a.shape = new
            g.shape = new
            assert g.shape == a.shape


# ------------------------------------------------------------------ indexing
def test_every_axis_indexed_is_a_copy():
    for shape, key in [((3, 4), (1, 2)), ((3, 4), (0, 0)), ((3, 4), (-1, -4)),
                       ((5,), 0), ((5,), -1), ((5,), 4), ((2, 3, 4), (1, -2, 3))]:
        a, g = _pair(shape)
        xa, xg = a[key], g[key]
        assert xg.shape == () and float(xg) == float(xa)
        g[key] = -7.0
        a[key] = -7.0
        assert float(xg) == float(xa)        # the earlier read keeps its value
        np.testing.assert_array_equal(g.get(), a)


def test_int_and_slice_keys_read_and_write_as_numpy():
    rng = np.random.default_rng(3)
    shape = (4, 5, 3)
    keys = [0, -1, 3, -4, (0, 0), (-1, -5), (3, 4, 2), (0, slice(None), -3),
            (slice(1, None, 2), -1), (slice(None, None, -1), 0, slice(2, 0, -1)),
            (slice(-2, None), slice(0, 1)), slice(0, 0), (2, slice(4, None, -2))]
    for key in keys:
        a, g = _pair(shape)
        np.testing.assert_array_equal(np.asarray(g[key].get()), a[key])
        v = rng.standard_normal(np.shape(a[key]))
        a[key] = v
        g[key] = gp.asarray(v) if np.ndim(v) else float(v)
        np.testing.assert_array_equal(g.get(), a)
    for key in [4, -5, (0, 5), (0, 0, 3), (0, -6), (1, 2, 3, 0)]:
        a, g = _pair(shape)
        with pytest.raises(IndexError):
            a[key]
        with pytest.raises(IndexError):
            g[key]


# ------------------------------------------------------------------ span
def _positions(shape, strides, offset):
    if not shape:
        return np.array([offset])
    idx = np.indices(shape).reshape(len(shape), -1)
    return offset + (np.asarray(strides, dtype=np.int64)[:, None] * idx).sum(0)


def test_span_is_the_first_and_last_position_touched():
    rng = np.random.default_rng(5)
    for _ in range(300):
        nd = int(rng.integers(0, 4))
        shape = tuple(int(d) for d in rng.integers(0 if rng.random() < 0.1 else 1, 5, nd))
        strides = tuple(int(s) for s in rng.integers(-7, 8, nd))
        offset = int(rng.integers(0, 40))
        got = L.span(shape, strides, offset)
        if 0 in shape:
            assert got == (0, -1)
            continue
        p = _positions(shape, strides, offset)
        assert got == (int(p.min()), int(p.max())), (shape, strides, offset)


# ------------------------------------------------------------------ compose
def _levels_positions(levels):
    """Where each element of the outermost level is read: C-order unravel between levels."""
    shape, st, off = levels[0]
    pos = _positions(shape, st, off) if shape else np.array([off])
    for shp, st2, off2 in levels[1:]:
        multi = np.unravel_index(pos, shp)
        pos = off2 + sum(np.asarray(m, dtype=np.int64) * s for m, s in zip(multi, st2))
    return pos


CHAINS = [
    lambda x: x.reshape(2, 3, 4).transpose(2, 0, 1)[::2, :, 1:],
    lambda x: x.reshape(4, 6)[:, ::2].reshape(12)[::-3],
    lambda x: x.reshape(4, 6)[:, ::2].reshape(12)[::-3].reshape(2, 2),
    lambda x: x.reshape(4, 6).T[1:, ::-1].reshape(-1)[2:17].reshape(3, 5).T.reshape(15),
    lambda x: x.reshape(4, 6)[:, 1::2].reshape(3, 4)[::-1, 1:].T.reshape(-1)[1:],
    lambda x: x.reshape(4, 6)[1:, ::3],
    lambda x: x[5:].reshape(1, 19)[:, ::2],
    lambda x: x.reshape(4, 1, 6).reshape(4, 6, 1)[:, ::-2],
]
BCHAINS = [
    (lambda x: x.reshape(4, 1, 6)[..., ::2], (4, 5, 3)),
    (lambda x: x.reshape(4, 6)[::-1, 0:1], (2, 4, 3)),
    (lambda x: x.reshape(4, 6).T[::2, :1].reshape(3), (2, 3)),
]


def _check_compose(ga, na):
    chain, n = [], ga._node
    while n.kind == VIEW:
        chain.append(n)
        n = n.srcs[0]
    assert chain, "expected a lazy view chain"
    base = np.arange(int(np.prod(n.shape)))
    levels = L.compose(n.shape, L.c_strides(n.shape), 0, chain)
    assert levels[0][0] == na.shape
    np.testing.assert_array_equal(base[_levels_positions(levels)], na.reshape(-1))
    np.testing.assert_array_equal(ga.get(), na)


@pytest.fixture
def view_chains(monkeypatch):
    """Small lazy roots keep their views as chains of view nodes (they are materialized
    at their third view otherwise, ``_viewmem._viewed_enough``)."""
    from gnumpy import _viewmem
    monkeypatch.setattr(_viewmem, "_LAZY_VIEWS_MAX_SMALL", _viewmem._LAZY_VIEWS_MAX)


@pytest.mark.parametrize("i", range(len(CHAINS)))
def test_compose_reads_what_numpys_views_read(i, view_chains):
    x = gp.arange(24) + 0        # lazy: its views stay a chain of view nodes
    _check_compose(CHAINS[i](x), CHAINS[i](np.arange(24)))


@pytest.mark.parametrize("i", range(len(BCHAINS)))
def test_compose_of_broadcasts(i, view_chains):
    f, shape = BCHAINS[i]
    x = gp.arange(24) + 0
    _check_compose(gp.broadcast_to(f(x), shape), np.broadcast_to(f(np.arange(24)), shape))


def test_normalize_slice_is_pythons():
    for size in range(0, 7):
        for start, stop, step in itertools.product([None, -8, -3, -1, 0, 1, 2, 6, 9],
                                                   [None, -8, -2, 0, 1, 3, 7],
                                                   [None, -3, -2, -1, 1, 2, 5]):
            sl = slice(start, stop, step)
            r = range(size)[sl]
            s, st, n = L.normalize_slice(sl, size)
            assert n == len(r)
            assert st == r.step
            if n:
                assert s == r.start


@pytest.mark.parametrize("make", [
    lambda m: m.arange(0).reshape(2, 0, 3),
    lambda m: m.arange(0.0).reshape(0, 3).T,
    lambda m: m.arange(12.0).reshape(3, 4)[:0].reshape(2, 0, 3),
    lambda m: m.arange(12.0).reshape(3, 4)[:, ::2][:0].reshape(0, 6),
    lambda m: m.arange(24.0).reshape(2, 3, 4)[:, :0].reshape(4, 0, 2, 1),
], ids=["arange", "transposed", "sliced", "strided", "size-one-axis"])
def test_reshapes_of_empty_arrays_take_numpys_c_strides(make):
    """A reshape of an empty array is C-strided as NumPy's (a zero-length axis counts as
    length 1 in the strides of the axes before it)."""
    a, g = make(np), make(gp)
    assert g.shape == a.shape
    assert g.strides == a.strides


@pytest.mark.parametrize("shift", [1, 3, -2, 7])
def test_roll_and_resize_repeat_the_source_by_ceil_division(shift):
    """``roll`` and ``resize`` read the source cyclically (repeated ``ceil(n / len)``
    times by a broadcast; ``layout.ceil_div``)."""
    a, g = _pair((5,))
    np.testing.assert_array_equal(gp.roll(g, shift).get(), np.roll(a, shift))
    a2, g2 = _pair((2, 3))
    np.testing.assert_array_equal(gp.roll(g2, shift, axis=1).get(), np.roll(a2, shift, axis=1))
    for n in (3, 5, 7, 10, 11, 15):
        np.testing.assert_array_equal(gp.resize(g, (n,)).get(), np.resize(a, (n,)))
    np.testing.assert_array_equal(gp.resize(g2, (4, 4)).get(), np.resize(a2, (4, 4)))
    a3, g3 = np.zeros((5, 3)), gp.zeros((5, 3))
    np.fill_diagonal(a3, [1.0, 2.0])
    gp.fill_diagonal(g3, [1.0, 2.0])
    np.testing.assert_array_equal(g3.get(), a3)
