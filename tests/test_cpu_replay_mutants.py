"""The CPU backend (gnumpy/backends/cpu.py, cpu_fast.py), second mutation run (2026-12-02):
what tests/test_cpu_backend_mutants.py left open, pinned against NumPy or against the
backend's own contracts.

* index maps: sparse index grids sliced with steps, ``take`` along an inner axis (an IOTA
  whose strides are another axis's C stride, not +-1); reductions whose prologue has
  temporaries of its own; unknown view and node kinds are errors that name them;
* host data in: ``from_numpy`` copies by default and for copy=True, shares strided memory
  for copy=False over exactly the span the array touches, and refuses (copies) strides that
  are not whole elements; printing and DLPack export (``max_version``) as NumPy's;
* work done once: a shared subexpression is computed once per evaluation, on the general
  path and in the compiled replay; the replay lists the leaves after a shared node in order;
* memory: results (element-wise, where, casts, reductions, barriers) are kept, not copied;
  a copy that is needed (a result NumPy left in Fortran order) is made once, on the general
  path and in the replay (which starts at a signature's third materialization); a node
  read by two parents counts its sources once (the temporaries under it are reused);
* the CUDA kernel check is handed the group the backend runs, with its destination; a
  signature is compiled once, and stays compiled when it empties a full cache.

Host-memory peaks are measured with tracemalloc (NumPy reports its allocations to it); each
bound sits between the right count of arrays and one more.
"""
import ctypes
import dataclasses
import tracemalloc
from types import SimpleNamespace

import numpy as np
import pytest

import gnumpy as gp
from gnumpy import _ops
from gnumpy._graph import ir
from gnumpy.backends import cpu as C

from helpers import assert_close, check

RNG = np.random.default_rng(3131)
# These tests pin the CPU backend (its host memory, its paths): they run where it is the
# default device (CPU CI, and GNUMPY_DEVICE=cpu anywhere); the default device is chosen once
# per process.
pytestmark = [pytest.mark.filterwarnings("ignore::RuntimeWarning"),
              pytest.mark.skipif(gp.asarray(0).device.kind != "cpu",
                                 reason="CPU backend tests; the default device here is "
                                        "CUDA (run with GNUMPY_DEVICE=cpu)")]
F64 = np.dtype(np.float64)


def _vals(shape, dtype=np.float64):
    return (RNG.standard_normal(shape) * 3).astype(dtype)


def _dev():
    return gp.asarray(0).device


# ------------------------------------------------------------------ index grids
def test_index_grids_sliced_with_steps():
    """Steps of 2, 3, -2, -3 over the grids (views of the materialized grid)."""
    for shape in [(5, 9), (4, 3, 7)]:
        for i, (g, n) in enumerate(zip(gp.indices(shape, sparse=True),
                                       np.indices(shape, sparse=True))):
            for k in [slice(None, None, 2), slice(1, None, 3), slice(None, None, -2),
                      slice(-1, 0, -3)]:
                key = (slice(None),) * i + (k,)
                check(g[key], n[key])
                check(g[key] * 3 - 1, n[key] * 3 - 1)
                check(g[key] + g[key][..., :1], n[key] + n[key][..., :1])


def test_take_along_inner_axes():
    """``take`` adds an IOTA of the other dims' C strides (5, 20: not +-1) to the index."""
    a = _vals((4, 5))
    g = gp.asarray(a)
    idx = np.array([4, 0, 2, 2, 1, 3])
    check(gp.take(g, gp.asarray(idx), axis=1), np.take(a, idx, axis=1), exact=True)
    ia = RNG.integers(0, 5, (4, 5))
    check(gp.take_along_axis(g, gp.asarray(ia), axis=1), np.take_along_axis(a, ia, axis=1),
          exact=True)
    b = _vals((3, 4, 5))
    check(gp.take(gp.asarray(b), gp.asarray(idx[:3]), axis=2), np.take(b, idx[:3], axis=2),
          exact=True)


def test_unknown_kinds_are_errors_that_name_them():
    with pytest.raises(ValueError, match="gather"):
        C.view_array(np.zeros(3), SimpleNamespace(op="gather", arg=None, shape=(3,)))
    odd = SimpleNamespace(kind=99, tag="odd-node")
    with pytest.raises(AssertionError, match="odd-node"):
        C.CpuBackend(_dev())._eval(odd, {}, {})


def test_reductions_of_element_wise_chains():
    """A reduction's prologue with temporaries of its own (reused inside the prologue)."""
    a = _vals((4, 5))
    g = gp.asarray(a)
    for _ in range(2):
        check(gp.sum((g + 1) * 2, axis=0), np.sum((a + 1) * 2, axis=0))
        check(gp.max(gp.sin(g - 1) * g + 1, axis=1), np.max(np.sin(a - 1) * a + 1, axis=1))
        check(gp.mean(gp.exp(g / 4) - g), np.mean(np.exp(a / 4) - a))


# ------------------------------------------------------------------ host data in and out
def test_from_numpy_copies_by_default_and_when_asked():
    be = C.CpuBackend(_dev())
    a = _vals((4, 6))
    keep = a.copy()
    leaves = [(be.from_numpy(a), keep),                       # the default: a copy
              (be.from_numpy(a[:, ::2], copy=True), keep[:, ::2]),
              (be.from_numpy(a[::-1].T, copy=True), keep[::-1].T)]
    g = gp.asarray(a[1:, ::-2])
    a[...] = -1.0
    for n, e in leaves:
        assert_close(be.to_numpy(n), e, rtol=0, atol=0)
    check(g, keep[1:, ::-2], exact=True)


def _span(arr):
    """(lowest, highest + itemsize) byte addresses `arr` touches."""
    lo = hi = arr.__array_interface__["data"][0]
    for d, s in zip(arr.shape, arr.strides):
        if s < 0:
            lo += (d - 1) * s
        else:
            hi += (d - 1) * s
    return lo, hi + arr.itemsize


def test_shared_leaf_spans_exactly_the_memory_of_the_array():
    base = _vals((6, 8))
    dev = _dev()
    for arr in [base[:, ::2], base[::-1], base[1:5, ::-3], base.T, base[::2, 1::3].T,
                base[2:3, ::-1], base[4:, :1], np.broadcast_to(base[3], (3, 8)),
                np.broadcast_to(base[::-2, 5:6], (3, 4))]:
        n = C._shared_leaf(arr, dev)
        v = C.leaf_array(n)
        assert_close(v, arr, rtol=0, atol=0)
        assert np.shares_memory(v, arr)
        assert _span(n.buf) == _span(arr), arr.strides
    # strides that are not whole elements: no shared leaf; from_numpy copies
    odd = np.ndarray((4,), np.int16, buffer=np.arange(16, dtype=np.uint8), strides=(3,))
    assert C._shared_leaf(odd, dev) is None
    be = C.CpuBackend(dev)
    np.testing.assert_array_equal(be.to_numpy(be.from_numpy(odd, copy=False)), odd)
    # the API: copy=False shares a strided array's memory both ways
    sub = base[1:, ::-2]
    g = gp.asarray(sub, copy=False)
    base[2, 7] = 99.0
    check(g, base[1:, ::-2], exact=True)


def _capsule_name(c) -> bytes:
    f = ctypes.pythonapi.PyCapsule_GetName
    f.restype = ctypes.c_char_p
    f.argtypes = [ctypes.py_object]
    return f(c)


def test_dlpack_export_honours_max_version():
    a = _vals((3, 4))
    g = gp.asarray(a)
    assert _capsule_name(g.__dlpack__()) == _capsule_name(a.__dlpack__()) == b"dltensor"
    assert _capsule_name(g.__dlpack__(max_version=(1, 0))) == \
        _capsule_name(a.__dlpack__(max_version=(1, 0))) == b"dltensor_versioned"
    assert_close(np.from_dlpack(g * 2), a * 2)


def test_printing_is_numpys():
    for a in [_vals((3, 4)), _vals((7,))[::-2], np.arange(6, dtype=np.int16).reshape(2, 3).T,
              np.array([1 + 2j, np.nan, -0.0]), np.array(2.5)]:
        g = gp.asarray(a)
        assert repr(g) == repr(a)
        assert str(g) == str(a)
        assert str(g * 1) == str(a * 1)


# ------------------------------------------------------------------ work done once
def _counted(monkeypatch, name):
    """Count the calls of op `name`'s NumPy implementation."""
    calls = []
    row = _ops.EW_OPS[name]
    impl = row.np_impl

    def counted(*a, **k):
        calls.append(1)
        return impl(*a, **k)
    monkeypatch.setitem(_ops.EW_OPS, name, dataclasses.replace(row, np_impl=counted))
    return calls


def _diamond(x):
    """(sin(x) * sin(x) + sin(x)) as IR over LEAF `x`, sin(x) one node."""
    t = ir.ew("sin", F64, (x,))
    return ir.ew("add", F64, (ir.ew("multiply", F64, (t, t)), t))


def test_a_shared_subexpression_is_computed_once(monkeypatch):
    """On the general path (the first two materializations of a signature) and in the
    compiled replay (the third on), through a backend of the test's own."""
    from gnumpy._graph.fuse import Group
    calls = _counted(monkeypatch, "sin")
    dev = _dev()
    be = C.CpuBackend(dev)
    with gp.config.override(check_kernels=""):
        for k in range(4):
            a = _vals((5, 3))
            root = _diamond(be.from_numpy(a))
            del calls[:]
            replayed = be.fast(root)        # the general path twice, then the replay
            assert bool(replayed) == (k >= 2), k
            if not replayed:
                be.run(Group("elementwise", [root], dev, 0))
            assert len(calls) == 1, (k, len(calls))
            s = np.sin(a)
            assert_close(be.to_numpy(root), s * s + s)


def test_replay_lists_the_leaves_after_a_shared_node():
    a, b, c = _vals((6,)), _vals((6,)), _vals((6,))
    g, h, k = gp.asarray(a), gp.asarray(b), gp.asarray(c)
    for _ in range(3):
        for f in [lambda x, y, z, xp: (x + y) * (x + y) - z * 3,
                  lambda x, y, z, xp: xp.sin(x - y) / (x - y) + y * z,
                  lambda x, y, z, xp: (x * 2) * (x * 2) + (y - z)]:
            dn = np.zeros(6)
            dg = gp.zeros(6)
            dn[...] = f(a, b, c, np)
            dg[...] = f(g, h, k, gp)
            check(dg, dn)
            check(f(g, h, k, gp), f(a, b, c, np))


# ------------------------------------------------------------------ memory
def _peak(f) -> int:
    tracemalloc.start()
    try:
        f()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_results_are_kept_not_copied():
    """A result the backend computed is the array's memory (one array at the peak), on the
    general path and in the replay."""
    n = 1 << 17
    xh = RNG.random(n)
    x = gp.asarray(xh)
    m = gp.asarray(RNG.random((2, n)))
    nb = xh.nbytes
    cases = [(lambda: gp.sin(x), np.sin(xh), 1),
             (lambda: x * 2.0 - 1.0, xh * 2.0 - 1.0, 1),
             (lambda: gp.sum(m, axis=0), np.sum(m.get(), axis=0), 1),
             (lambda: gp.sort(x), np.sort(xh), 1)]
    for make, want, arrays in cases:
        for _ in range(4):      # general path twice, then the replay
            y = make()
            peak = _peak(lambda: gp.evaluate(y))
            assert peak < (arrays + 0.5) * nb, (want.shape, peak / nb)
            check(y, want)


def test_each_path_keeps_or_copies_once():
    """Through a backend of the test's own, so that each graph takes the general path
    twice and then the replay: a where's or a cast's result is kept (one array at the
    peak); a result NumPy left in Fortran order (from an operand in Fortran order) is
    copied once into C order (two arrays)."""
    from gnumpy._graph.fuse import Group
    n = 1 << 17
    dev = _dev()
    be = C.CpuBackend(dev)
    xh, yh = RNG.random(n), RNG.random(n)
    ft = xh.reshape(256, 512)
    f32 = xh.astype(np.float32)

    def where():
        x, y = be.from_numpy(xh), be.from_numpy(yh)
        half = ir.scalar(0.5, F64, (n,), dev)
        return ir.where(ir.ew("greater", np.dtype(bool), (x, half)), x, y), \
            np.where(xh > 0.5, xh, yh), 1.5

    def cast():
        return ir.cast(be.from_numpy(f32), F64), f32.astype(np.float64), 1.5

    def fortran():
        t = ir.permute(be.from_numpy(ft), (1, 0))
        return ir.ew("multiply", F64, (t, ir.scalar(3.0, F64, t.shape, dev))), ft.T * 3.0, 2.5
    with gp.config.override(check_kernels=""):
        for build in (where, cast, fortran):
            for k in range(3):
                root, want, bound = build()

                def go():
                    if not be.fast(root):
                        be.run(Group("elementwise", [root], dev, 0))
                peak = _peak(go)
                assert peak < bound * xh.nbytes, (build.__name__, k, peak / xh.nbytes)
                assert_close(be.to_numpy(root), want, rtol=0, atol=0)


def test_asarray_of_a_fortran_array_copies_once():
    f = np.asfortranarray(_vals((512, 256)))
    peak = _peak(lambda: gp.asarray(f))
    assert peak < 1.5 * f.nbytes, peak / f.nbytes
    check(gp.asarray(f), f, exact=True)


def test_a_node_read_twice_counts_its_sources_once():
    """u = x + 1, t = sin(u), t * 2 + t * 3: u is read once (by t), so t is computed in
    u's memory; t, its two products and nothing more are alive at the peak (3 arrays)."""
    n = 1 << 17
    xh = RNG.random(n)
    x = gp.asarray(xh)
    t = np.sin(xh + 1)
    want = t * 2 + t * 3
    for _ in range(4):
        t = gp.sin(x + 1)
        y = t * 2 + t * 3
        peak = _peak(lambda: gp.evaluate(y))
        assert peak < 3.5 * xh.nbytes, peak / xh.nbytes
        check(y, want)


# ------------------------------------------------------------------ the kernel check
def _record_checks(monkeypatch):
    from gnumpy.kernels import check as kcheck
    seen = []
    monkeypatch.setattr(kcheck, "check_group", lambda g, dest=None: seen.append((g, dest)))
    return seen


def test_the_kernel_check_gets_the_group_that_runs(monkeypatch):
    """Each path hands ``check_group`` an element-wise group of the value it computes, on
    the value's device, and for a write the destination."""
    seen = _record_checks(monkeypatch)
    a, b = _vals((4, 5)), _vals((4, 5))
    g, h = gp.asarray(a), gp.asarray(b)
    with gp.config.override(check_kernels="cover"):
        for k in range(3):      # materialized: the general path twice, then the replay
            y = g * h - k
            del seen[:]
            gp.evaluate(y)
            assert len(seen) == 1
            grp, dest = seen[0]
            assert grp.kind == "elementwise" and dest is None
            assert grp.device == y.device and len(grp.outputs) == 1
            assert grp.outputs[0].shape == (4, 5)
            check(y, a * b - k)
        d = gp.asarray(np.zeros((4, 5)))
        del seen[:]
        d[...] = g - h          # the replayed write (a statement's: it waits)
        gp.evaluate(d)
        assert len(seen) == 1
        grp, dest = seen[0]
        assert grp.kind == "elementwise" and grp.device == d.device
        assert dest is not None and dest.shape == (4, 5) and dest.buf is d._leaf().buf
        check(d, a - b)
        # a value with a reduction: the schedule's groups (a reduction kernel first), not
        # one element-wise kernel of the whole value
        del seen[:]
        d[...] = g - gp.sum(h, axis=0, keepdims=True)
        gp.evaluate(d)
        assert [grp.kind for grp, _ in seen] == ["reduce", "elementwise"]
        check(d, a - np.sum(b, axis=0, keepdims=True))
        # a materialized array written as it is (the backend's own write)
        del seen[:]
        d[...] = h
        gp.evaluate(d)
        assert [grp.kind for grp, _ in seen] == ["elementwise"]
        check(d, b, exact=True)


def test_the_general_write_checks_the_group_it_writes(monkeypatch):
    """The backend's own write: the group it is given, else an element-wise group of the
    value, with the destination."""
    from gnumpy._graph.fuse import Group
    seen = _record_checks(monkeypatch)
    dev = _dev()
    be = C.CpuBackend(dev)
    a = _vals((3, 4))
    dest = be.from_numpy(np.zeros((3, 4)))
    value = ir.ew("exp", F64, (be.from_numpy(a),))
    mine = Group("reduce", [value], dev, 0)
    with gp.config.override(check_kernels="cover"):
        be.write(dest, value, mine)
        be.write(dest, value)
    assert seen[0][0] is mine and seen[0][1] is dest
    grp, d = seen[1]
    assert grp.kind == "elementwise" and grp.outputs == [value] and grp.device == dev
    assert d is dest
    assert_close(be.to_numpy(dest), np.exp(a))


# ------------------------------------------------------------------ compiled once
def test_a_signature_is_compiled_once(monkeypatch):
    """Writes of one structure compile one function; when the cache overflows and is
    emptied, the function compiled at that moment stays for the next call."""
    from gnumpy.backends import cpu_fast
    made = []
    real = cpu_fast._compile

    def counted(root):
        made.append(1)
        return real(root)
    monkeypatch.setattr(cpu_fast, "_compile", counted)
    fast = C.CpuBackend(_dev()).fast
    a, b = _vals((4,)), _vals((4,))
    with gp.config.override(check_kernels=""):
        for k in range(3):
            d = gp.asarray(np.zeros(4))
            value = ir.ew("subtract", F64, (gp.asarray(a)._leaf(), gp.asarray(b)._leaf()))
            assert fast.write(d._leaf(), value, None) == 1
            check(d, a - b)
        assert len(made) == 1
        # fill the cache with stand-in signatures (one leaf-free function each) until it
        # is emptied; the signature that emptied it is compiled once, not twice
        const = ir.scalar(2.5, F64, (), _dev())
        key = 0
        while True:
            key += 1
            before = len(fast.cache)
            fast._value(("sig", key), const, [], [const])
            if len(fast.cache) <= before:
                break
        n = len(made)
        assert float(fast._value(("sig", key), const, [], [const])) == 2.5
        assert len(made) == n


def test_compiled_function_tells_0d_scalars_from_broadcast_ones():
    """``floor(s1 + s2) + x`` with 0-d constants and with constants of x's shape (a scalar
    is a 0-d NumPy value either way): one signature would reuse the 0-d temporary as the
    output of the shaped sum.  The scalars' 0-d-ness is in the signature, so each graph
    gets its own function and NumPy's values."""
    from gnumpy.backends import cpu_fast
    dev = _dev()
    be = C.CpuBackend(dev)
    fast = cpu_fast.CpuFast(be)
    for shape in ((), (5,), ()):
        x = np.arange(float(np.prod(shape, dtype=int))).reshape(shape) - 2.0
        s = [ir.Node(ir.SCALAR, "scalar", F64, shape, (), np.float64(v), dev)
             for v in (1.5, 2.25)]
        root = ir.ew("add", F64, (ir.ew("floor", F64, (ir.ew("add", F64, s),)),
                                  be.from_numpy(x)))
        sig, leaves, scalars, ok = cpu_fast._walk(root)
        assert ok
        got = fast._value(sig, root, leaves, scalars)
        assert got.shape == shape
        assert_close(got, np.floor(1.5 + 2.25) + x)


@pytest.mark.parametrize("links,bound", [(4, None), (120, None), (200, 1000)])
def test_a_graph_past_the_compiled_bound_stops_its_walk(monkeypatch, links, bound):
    """A loop's lazy chain at the default graph bound (120 links of ``0.5 * x + y``) is
    compiled like a short one: its materializations replay from its third.  One whose
    signature would pass ``_MAX_COMPILED`` items (a graph bound raised past the default)
    takes the general path without walking the whole graph.  Values are NumPy's either
    way, on every call."""
    from gnumpy.backends import cpu_fast
    made = []
    real = cpu_fast._compile
    monkeypatch.setattr(cpu_fast, "_compile", lambda root: made.append(1) or real(root))
    x0 = np.linspace(-1.0, 1.0, 7)
    e = x0
    for _ in range(links):
        e = 0.5 * x0 + e
    with gp.config.override(max_graph_nodes=bound or gp.config.max_graph_nodes):
        for call in range(4):
            x = gp.asarray(x0)
            y = x
            for _ in range(links):
                y = 0.5 * x + y
            root = y._node
            if call == 0:
                full = cpu_fast._walk(root)
                short = cpu_fast._walk(root, cpu_fast._MAX_COMPILED)
                if bound:
                    assert len(full[0]) > cpu_fast._MAX_COMPILED
                    assert short[3] is False and short[0] is None
                    assert len(short[1]) + len(short[2]) < len(full[1]) + len(full[2])
                else:
                    assert short[0] == full[0] and short[3] is True
            check(y, e)
    assert made if not bound else not made


def test_a_broadcast_element_stays_0d_in_the_compiled_function():
    """A 0-d value broadcast over a row (``r[:k] += 1.5 * p[i, j] * p[:k, j]``, syrk's
    statement) is passed to NumPy 0-d: its operations broadcast it.  It is no temporary
    of the row's shape to reuse as an output (``e * 2.0 + row`` computes ``e * 2.0`` 0-d),
    and a write or a materialization of a broadcast 0-d value alone still has the row's
    shape.  Each statement runs 4 times: the replay compiles from the third."""
    from gnumpy.backends import cpu_fast
    p0 = _vals((6, 5))
    for call in range(4):
        p = gp.asarray(p0)
        r = gp.asarray(np.zeros((6, 6)))
        want = np.zeros((6, 6))
        for k in range(1, 6):
            r[k, :k + 1] += 1.5 * p[k, 2] * p[:k + 1, 2]
            want[k, :k + 1] += 1.5 * p0[k, 2] * p0[:k + 1, 2]
        check(r, want)
        e, row = p[1, 1], p[:, 3]
        node = ir.ew("add", F64, (ir.ew("multiply", F64, (
            ir.broadcast(e._node, (6,)), ir.scalar(2.0, F64, (6,), _dev()))), row._node))
        y = gp.ndarray._from_node(node)
        sig = cpu_fast._walk(node)[0]
        check(y, p0[1, 1] * 2.0 + p0[:, 3])
        d = gp.asarray(np.zeros(6))
        d[:] = p[2, 2] * p[3, 3]                # the value: a broadcast of a 0-d product
        check(d, np.full(6, p0[2, 2] * p0[3, 3]))
        b = gp.broadcast_to(p[4, 4] + 1.0, (2, 3))
        check(b, np.full((2, 3), p0[4, 4] + 1.0))
    assert sig in gp.asarray(0).device._be.fast.cache     # (the last calls replayed it)


def test_views_and_reductions_of_0d_values_have_their_shapes():
    """A value NumPy holds smaller than its node in the compiled function (a sum of
    scalars, a broadcast element, row or column) is broadcast to its node's shape before a
    view reshapes it or a reduction sums it; a value of its node's shape goes to them as
    it is.  Writes with reductions
    replay with the kernel check off (the check wants the schedule)."""
    from gnumpy.backends import cpu_fast
    dev = _dev()
    fast = cpu_fast.CpuFast(C.CpuBackend(dev))
    x0 = _vals((2, 3))
    e = gp.asarray(x0)[1, 2]            # an element's copy: a lazy 0-d node

    def sc(v, shape):
        return ir.scalar(v, F64, shape, dev)
    with gp.config.override(check_kernels=""):
        for call in range(4):
            x = gp.asarray(x0)._leaf()
            s6 = ir.ew("add", F64, (sc(1.5, (6,)), sc(2.25, (6,))))
            col = ir.reshape(ir.ew("exp", F64, (x,)), (6, 1))     # (broadcast operands of
            row = ir.view(ir.reshape(ir.ew("sin", F64, (x,)), (6,)), "slice",  # 2 and 1 axes)
                          ((0, 1),), (5,))
            cases = [
                (ir.ew("add", F64, (ir.reshape(s6, (2, 3)), x)), (2, 3), 3.75 + x0),
                (ir.reduce("sum", s6, (0,), False, F64), (), 6 * 3.75),
                (ir.reduce("sum", ir.broadcast(e._node, (4,)), (0,), False, F64), (),
                 4 * x0[1, 2]),
                (ir.reduce("sum", ir.ew("multiply", F64, (x, sc(2.0, (2, 3)))), (1,), False,
                           F64), (2,), (x0 * 2.0).sum(axis=1)),
                (ir.reshape(ir.ew("negative", F64, (x,)), (3, 2)), (3, 2), -x0.reshape(3, 2)),
                (ir.reduce("sum", ir.broadcast(ir.ew("negative", F64, (x,)), (4, 2, 3)),
                           (0, 2), False, F64), (2,), -4 * x0.sum(axis=1)),
                (ir.ew("add", F64, (ir.broadcast(col, (6, 5)), ir.broadcast(row, (6, 5)))),
                 (6, 5), np.exp(x0).reshape(6, 1) + np.sin(x0).reshape(6)[:5]),
            ]
            for value, shape, want in cases:
                d = gp.asarray(np.zeros(shape))
                assert fast.write(d._leaf(), value, None) == 1
                check(d, np.asarray(want))


def test_a_masks_count_is_numpys_count_of_the_bools():
    """``count_nonzero(m)`` and ``m.sum()`` of a bool mask are NumPy's count of the bools
    on both CPU evaluators (the general one; a write's compiled function, from its
    signature's third time): NumPy's values (a small integer dtype wraps as the sum does)
    and no integer copy of the mask (8 bytes an element)."""
    h = np.random.default_rng(3).random((1000, 1000)) > 0.4
    x = gp.asarray(h)
    gp.evaluate(x)
    peak = _peak(lambda: int(gp.count_nonzero(x)))
    assert int(gp.count_nonzero(x)) == np.count_nonzero(h)
    assert peak < h.size * 2, peak
    check(x.sum(axis=0, keepdims=True), h.sum(axis=0, keepdims=True))
    check(x.sum(dtype=np.int8), h.sum(dtype=np.int8))
    y, want = gp.zeros(6, np.int64), np.zeros(6, np.int64)
    for k in range(6):
        y[k] = (x[k * 100] > 0).sum()
        want[k] = (h[k * 100] > 0).sum()
        check(y, want)
    z = gp.zeros(3, np.uint8)
    for k in range(3):
        z[k] = x.sum(dtype=np.uint8)
    check(z, np.full(3, h.sum(dtype=np.uint8)))


def test_replays_ignore_floating_point_errors_and_restore_the_callers_state():
    """The replay and the general path compute without warnings or errors (NumPy's values)
    under any error state of the caller's, and leave that state as it was: the statements
    run past a signature's third sighting, so the compiled replay runs them too."""
    a = np.array([1.0, 0.0, -1.0, np.nan, np.inf, -0.0])
    g = gp.asarray(a)
    with np.errstate(all="ignore"):
        want_w = np.log(a) / 0.0 - a
        want_m = (a * 0.0) % 0.0 + np.sqrt(a)
    for state in ({"all": "raise"}, {"all": "warn", "under": "ignore"}, {"divide": "call"}):
        kw = dict(state, call=(lambda *e: None)) if "call" in state.values() else state
        with np.errstate(**kw):
            before = np.geterr()
            for _ in range(5):
                d = gp.asarray(np.zeros(6))     # memory: a write into it, not a rebind
                d[...] = gp.log(g) / 0.0 - g
                m = (g * 0.0) % 0.0 + gp.sqrt(g)
                gp.evaluate(m)                  # one root: the replay of a value
                check(d, want_w)
                check(m, want_m)
                assert np.geterr() == before
            if state.get("all") == "raise":
                with pytest.raises(FloatingPointError):
                    np.array(1.0) / np.array(0.0)
        assert np.geterr() == {"divide": "warn", "over": "warn", "under": "ignore",
                               "invalid": "warn"}
