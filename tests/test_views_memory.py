"""Chains of views and views' place in memory, compared against NumPy: views of lazy
roots, the shape setter, writes through ``.real``/``.imag`` and strided parts, views
bound at their root's first write, the lazy views registry, ``.T`` and ``.flat``.

The layouts and basic indexing: test_views.py.
"""
import numpy as np
import pytest

import gnumpy as gp
from gnumpy._graph import layout as L
from gnumpy._graph.ir import LEAF
from helpers import check
from test_views import LAYOUTS, values, variant


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


@pytest.mark.parametrize("layout", ["contiguous", "strided"])
@pytest.mark.parametrize("n", [61, (1 << 16) + 1])
def test_views_of_a_small_copy_are_its_memory_from_the_first(layout, n):
    """``pn = p.copy()`` of at most 2**16 elements is computed at its first index (a
    snapshot: p's next write computes it anyway); a larger copy stays lazy there.  Either
    way its views share pn's memory, not p's, and keep NumPy's values across writes to
    p, pn and the views."""
    a, p = variant(values((3, n)), layout)
    a = a.copy()
    pn, pnn = p.copy(), a.copy()
    v = pn[1:, 2:]
    assert (pn._node.kind == LEAF) == (pn.size <= 1 << 16)
    vn = pnn[1:, 2:]
    w, wn = pn[0], pnn[0]
    p[...] = -1.0
    a[...] = -1.0
    v[0, 0] = 7.0
    vn[0, 0] = 7.0
    pn[0, 1] = 9.0
    pnn[0, 1] = 9.0
    for got, want in ((v, vn), (w, wn), (pn, pnn), (p, a), (pn[1:, 1:-1], pnn[1:, 1:-1])):
        check(got, want)


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


def test_views_of_a_lazy_root_fold_into_its_memory_when_it_is_computed():
    """A small lazy root viewed again and again is computed at its third view, and the
    views taken before fold into its memory then (no pending reader left): writes through
    any of them are seen by the root and the others, as in NumPy."""
    xn = np.arange(12.0).reshape(3, 4) * 2
    x = gp.arange(12.0).reshape(3, 4) * 2
    v1, v2 = x[0], x[:, 1]
    assert x._node.kind != LEAF and v1._node.kind != LEAF
    v3 = x[1:, ::2]
    assert x._node.kind == LEAF
    for v in (v1, v2, v3):
        assert v._node.kind == LEAF and v._node.buf is x._node.buf
    v1[1] = -5.0
    xn[0, 1] = -5.0
    v3[0, 1] += 100.0
    xn[1, 2] += 100.0
    check(x, xn)
    check(v2, xn[:, 1])
    check(v1, xn[0])
    check(v3, xn[1:, ::2])
