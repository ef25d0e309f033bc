"""A loop's writes of one shape into one buffer, each reading the ones before lane for
lane, wait as a chain (``gnumpy._graph.chains.extend_vectors``) and run as one kernel
when anything settles them.  CUDA chains them; on the CPU backend the tests turn that on
(``vector_chains``) so that the chain runs through ``CpuBackend.write_elements`` (and,
under the test command, its CUDA kernel is rendered and compiled).  Every observation
sees NumPy's values."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gnumpy as gp
from gnumpy import _device
from gnumpy._graph import chains as C
from gnumpy._graph import realize as R
from gnumpy._graph.ir import EW, IOTA, LEAF, SCALAR, VIEW
from helpers import check
from test_fast_path import fake  # noqa: F401 - the fake CUDA backend fixture


@pytest.fixture
def chains(monkeypatch):
    """The default backend, with writes of one shape chained (the CPU backend's on), and
    every chain it runs checked for what its kernel needs (``_lane_safe``)."""
    R.settle()
    be = _device.backend(gp.asarray(0.0).device)
    if be.write_elements is None:
        pytest.skip("this backend writes no chains")
    monkeypatch.setattr(be, "vector_chains", True)
    run = be.write_elements

    def checked(dests, values):
        if dests[0].shape:
            _lane_safe(dests, values)
        return run(dests, values)
    monkeypatch.setattr(be, "write_elements", checked)
    yield be
    R.settle()


def _places(n):
    """The element offsets of LEAF `n`, lane by lane (C order over its shape)."""
    idx = np.indices(n.shape).reshape(len(n.shape), -1)
    return n.offset + (np.asarray(n.strides)[:, None] * idx).sum(axis=0)


def _lane_safe(dests, values):
    """What a chain's kernel (one thread a lane, each loading every value's inputs before
    it stores) needs, checked apart from ``chains``: destinations of one shape touching
    disjoint elements, and values that read their buffer only at the lane they compute
    (never through a view, never one lane over), with only elementwise nodes."""
    buf, shape = dests[0].buf, dests[0].shape
    written = {}
    for d in dests:
        assert d.buf is buf and d.shape == shape
        for lane, off in enumerate(_places(d)):
            assert off not in written, "two destinations share an element"
            written[off] = lane
    for v in values:
        stack, seen = [(v, False)], set()
        while stack:
            n, viewed = stack.pop()
            if n.kind == LEAF:
                if n.buf is buf:
                    assert not viewed, "a chained value reads its buffer through a view"
                    for lane, off in enumerate(_places(n)):
                        assert written.get(off, lane) == lane, "a read one lane over"
                continue
            if n.kind in (SCALAR, IOTA) or id(n) in seen:
                continue
            assert n.kind in (EW, VIEW), "a chained value holds a non-elementwise node"
            seen.add(id(n))
            stack.extend((s, viewed or n.kind == VIEW) for s in n.srcs)


def _kernels():
    return R.stats.by_kind["elementwise"]


def _deriche(xp, x, y, cols):
    """NPBench deriche's recurrences: along the columns (`cols`) or the rows."""
    a1, a2, b1, b2 = 0.31, -0.12, 0.9, -0.35
    if cols:
        y[:, 0] = a1 * x[:, 0]
        y[:, 1] = a1 * x[:, 1] + a2 * x[:, 0] + b1 * y[:, 0]
        for j in range(2, x.shape[1]):
            y[:, j] = a1 * x[:, j] + a2 * x[:, j - 1] + b1 * y[:, j - 1] + b2 * y[:, j - 2]
    else:
        for i in range(x.shape[0] - 3, -1, -1):
            y[i, :] = a1 * x[i + 1, :] + a2 * x[i + 2, :] + b1 * y[i + 1, :] + \
                b2 * y[i + 2, :]


@pytest.mark.parametrize("cols", [True, False])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_recurrence_is_one_kernel_per_chain(chains, cols, dtype):
    """deriche's column (strided) and row recurrences: a kernel per ``VECTORS_MAX``
    writes, not one per write, with NumPy's values."""
    n = 2 * C.VECTORS_MAX + 7
    base = np.random.default_rng(2).random((n, n)).astype(dtype)
    x = gp.asarray(base)
    y, ref = gp.asarray(np.ones((n, n), dtype)), np.ones((n, n), dtype)
    gp.evaluate(x, y)
    k0 = _kernels()
    _deriche(gp, x, y, cols)
    _deriche(np, base, ref, cols)
    assert C.elements
    R.settle()
    assert _kernels() - k0 <= -(-n // C.VECTORS_MAX) + 1
    check(y, ref)


def test_planes_of_a_3d_array_chain(chains):
    """A vertical sweep over ``x[:, :, k]`` (two axes longer than one, planes
    interleaved in memory), reading a transposed array and the plane before: one kernel
    per ``VECTORS_MAX`` planes, NumPy's values; a read of the next plane shifted by a
    row is a read across lanes."""
    nz = C.VECTORS_MAX + 5
    base = np.random.default_rng(13).random((6, 7, nz))
    other = np.random.default_rng(14).random((7, 6))
    x, ref = gp.asarray(base), base.copy()
    o = gp.asarray(other)
    gp.evaluate(x, o)
    R.settle()
    k0 = _kernels()
    for a, t in ((x, o), (ref, other)):
        for k in range(1, nz):
            a[:, :, k] = a[:, :, k - 1] * 0.5 + t.T - a[:, :, k]
    R.settle()
    assert _kernels() - k0 <= 3
    check(x, ref)
    for a in (x, ref):
        a[:, :, 1] = a[:, :, 0] + 1.0
        a[:, :, 2] = a[:, :, 1] * 2.0
        a[1:, :, 3] = a[:-1, :, 2] - 1.0          # another shape: the chain runs
        a[:-1, :, 4] = a[1:, :, 3] + 0.5
        a[:-1, :, 5] = a[:-1, :, 4] * a[1:, :, 4]  # one row over: not chained
    check(x, ref)
    base = np.random.default_rng(15).random((6, 8, 9))
    y, yref = gp.asarray(base), base.copy()
    for a in (y, yref):
        a[:, :7, 1] = a[:, :7, 0] + 1.0
        a[:, :7, 2] = a[:, :7, 1] * 2.0 + a[:, 1:, 2]   # its own plane one column over
        a[:, :7, 3] = a[:, :7, 2] - a[:, 1:, 4]         # memory that a later write
        a[:, :7, 4] = a[:, :7, 3] * 0.5                 # stores one column over
    check(y, yref)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 12), st.integers(2, 5)), min_size=1, max_size=3),
       st.integers(-90, 90))
def test_same_layout_overlap_is_never_missed(axes, q):
    """``chains._meets`` (do two layouts of one shape and strides, offsets q apart, share
    an element) against enumeration: it may say yes where they do not (a write then
    stays out of the chain), never no where they do."""
    axes = sorted(axes, reverse=True)
    pts = {0}
    for s, n in axes:
        pts = {p + k * s for p in pts for k in range(n)}
    if any(p + q in pts for p in pts):
        assert C._meets(q, tuple(axes))


def test_reads_across_lanes_are_not_chained(chains):
    """A value reading a chained destination shifted by a lane (``y[i, 1:]`` from
    ``y[i - 1, :-1]``) or through a broadcast of one of its elements: the chain runs
    first, and every value is NumPy's."""
    base = np.random.default_rng(3).random((8, 9))
    y, ref = gp.asarray(base), base.copy()
    for x in (y, ref):
        x[1, 1:] = x[0, 1:] * 2.0
        x[2, 1:] = x[1, 1:] + 1.0               # chains
        x[3, 1:] = x[2, :-1] - 0.5              # reads y[2, 1:] one lane over
        x[4, 1:] = x[3, 1:] * x[3, 1]           # a broadcast element of y[3, 1:]
        x[5, 1:] = x[4, 1:] + x[4, 1:].sum()    # a reduction
        x[6, 1:] = x[5, 1:] + 1.0
    check(y, ref)


def test_memory_read_then_written_in_the_chain(chains):
    """A value reads memory a later write of the chain stores: at its own lane it reads
    the memory before the store (one kernel), one lane over the chain runs first."""
    base = np.random.default_rng(5).random((6, 5))
    y, ref = gp.asarray(base), base.copy()
    gp.evaluate(y)
    R.settle()
    k0 = _kernels()
    for x in (y, ref):
        x[2, :] = x[1, :] + 1.0
        x[3, :] = x[2, :] * 2.0 - x[4, :]       # reads y[4, :] from memory
        x[4, :] = x[3, :] + 0.25                # stores it, lane for lane
        x[1, :] = x[4, :] * x[2, :]             # stores what the first value read
    R.settle()
    assert _kernels() - k0 == 1
    check(y, ref)
    v, vref = gp.asarray(np.arange(20.0)), np.arange(20.0)
    for x in (v, vref):
        x[0:5] = x[5:10] * 2.0
        x[10:15] = x[0:5] + x[3:8]              # reads x[0:5] and x[5:10] across lanes
        x[5:10] = x[10:15] - 1.0
        x[15:20] = x[5:10] + x[0:5]
    check(v, vref)
    w, wref = gp.asarray(np.arange(30.0)), np.arange(30.0)
    for x in (w, wref):
        x[0:4] = x[4:8] * 2.0
        x[8:12] = x[0:4] + x[20:24]             # joins, reading x[20:24] from memory
        x[21:25] = x[8:12] - 1.0                # stores it one lane over
        x[12:16] = x[21:25] * 3.0
    check(w, wref)


def test_rewriting_a_chained_destination(chains):
    """A destination written again later replaces its entry; writes before read its
    earlier value."""
    base = np.random.default_rng(6).random((5, 7))
    y, ref = gp.asarray(base), base.copy()
    for x in (y, ref):
        x[:, 1] = x[:, 0] * 3.0
        x[:, 2] = x[:, 1] + x[:, 0]
        x[:, 1] *= x[:, 2]
        x[:, 3] = x[:, 1] - x[:, 2]
        x[:, 2] = x[:, 3] / 2.0
    check(y, ref)


def test_observations_settle_the_chain(chains):
    """A pending array reading a chained column, an element read, a host copy and an
    operation on the whole buffer each see the values written before them."""
    base = np.random.default_rng(7).random((6, 8))
    y, ref = gp.asarray(base), base.copy()
    for x in (y, ref):
        x[:, 1] = x[:, 0] + 1.0
        x[:, 2] = x[:, 1] * 0.5
    t = y[:, 2] * 2.0                           # pending, reads the chain
    y[:, 3] = y[:, 2] - 1.0
    ref[:, 3] = ref[:, 2] - 1.0
    tref = ref[:, 2] * 2.0
    assert float(y[4, 3]) == ref[4, 3]
    y[:, 4] = y[:, 3] + t
    ref[:, 4] = ref[:, 3] + tref
    y[:, 5] = y[:, 4] * 3.0
    ref[:, 5] = ref[:, 4] * 3.0
    np.testing.assert_array_equal(gp.asnumpy(y), ref)
    y[:, 6] = y[:, 5] + y.mean()
    ref[:, 6] = ref[:, 5] + ref.mean()
    check(t, tref)
    check(y, ref)


def test_other_shapes_dtypes_and_buffers_end_the_chain(chains):
    """A write of another shape, another buffer or another dtype's view of the memory is
    no write of the chain: the chain runs first."""
    base = np.random.default_rng(8).random((6, 6))
    y, ref = gp.asarray(base), base.copy()
    z, zref = gp.asarray(base + 1.0), base + 1.0
    y[1, :] = y[0, :] + 1.0
    y[2, :] = y[1, :] * 2.0
    y[3, 1:] = y[2, 1:] - 1.0                  # another shape
    z[0, :] = y[3, :] + 1.0                    # another buffer
    y[4, :] = z[0, :] * y[3, :]
    bits = y.view(np.int64)[4, :] + 0          # another dtype's view of the memory
    y[5, :] = y[4, :] + 1.0
    y[0, :] = y[5, :] + (y.view(np.int64)[5, :] & 1)   # a chained row, as integers
    ref[1, :] = ref[0, :] + 1.0
    ref[2, :] = ref[1, :] * 2.0
    ref[3, 1:] = ref[2, 1:] - 1.0
    zref[0, :] = ref[3, :] + 1.0
    ref[4, :] = zref[0, :] * ref[3, :]
    bref = ref.view(np.int64)[4, :] + 0
    ref[5, :] = ref[4, :] + 1.0
    ref[0, :] = ref[5, :] + (ref.view(np.int64)[5, :] & 1)
    check(y, ref)
    check(z, zref)
    check(bits, bref)


def test_growing_values_stay_under_the_node_bound(chains):
    """A two-term recurrence doubles its values' tree sizes each step; the chain counts
    each node once and runs before it holds ``VECTOR_NODES`` of them."""
    base = np.random.default_rng(9).random((4, 80))
    y, ref = gp.asarray(base), base.copy()
    for j in range(2, 80):
        y[:, j] = y[:, j - 1] * 0.5 + y[:, j - 2] * 0.25 + 1.0
        ref[:, j] = ref[:, j - 1] * 0.5 + ref[:, j - 2] * 0.25 + 1.0
        assert C._vector[1] <= C.VECTOR_NODES and len(C.elements) <= C.VECTORS_MAX
    check(y, ref)


def test_a_layout_that_never_chains_stops_trying(chains, monkeypatch):
    """seidel's row stencil reads the row before one lane over: each write fails to start
    a chain.  After ``MISSES`` failures in a row its layout tries only every ``RETRY``-th
    write, and a recurrence on that layout afterwards chains again from its next retry;
    the values are NumPy's throughout."""
    monkeypatch.setattr(C, "_misses", {})
    base = np.random.default_rng(12).random((130, 9))
    m, ref = gp.asarray(base), base.copy()
    tried = []
    walk = C._lanes
    monkeypatch.setattr(C, "_lanes", lambda *a: tried.append(1) or walk(*a))
    for x in (m, ref):
        for i in range(1, 21):
            x[i, 1:-1] += x[i - 1, :-2] + x[i - 1, 2:] + x[i + 1, 1:-1]
    assert len(tried) == C.MISSES       # (gnumpy's statements only: NumPy's do not walk)
    key = (id(m._leaf().buf), (7,), (1,))
    assert C._misses[key] == 20 - 1
    R.settle()
    k0 = _kernels()
    for x in (m, ref):
        for i in range(22, 129):
            x[i, 1:-1] = x[i - 1, 1:-1] * 0.5 + x[i - 2, 1:-1]
    R.settle()
    assert key not in C._misses         # a retry started a chain
    assert _kernels() - k0 < 107 - 2 * C.VECTORS_MAX
    check(m, ref)


def test_integers_wrap_and_special_floats(chains):
    """Integer columns wrap as NumPy's; NaN, infinities and -0.0 pass through a chain."""
    base = (np.arange(42, dtype=np.int32).reshape(6, 7) * 48271) % 65521
    y, ref = gp.asarray(base), base.copy()
    for x in (y, ref):
        for j in range(1, 7):
            with np.errstate(over="ignore"):
                x[:, j] = x[:, j - 1] * 69069 + x[:, j]
    check(y, ref)
    f = np.array([[np.nan, -0.0, np.inf, -np.inf, 1.0]] * 4).T.copy()
    y, ref = gp.asarray(f), f.copy()
    for x in (y, ref):
        for j in range(1, 4):
            with np.errstate(invalid="ignore"):
                x[:, j] = x[:, j - 1] * -1.0 + x[:, j] * 0.0
    check(y, ref)


_SRC = ["row", "col", "rev", "shift", "other", "const"]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 5), st.sampled_from(_SRC),
                          st.integers(0, 5), st.sampled_from(_SRC), st.integers(0, 5),
                          st.sampled_from(["=", "+=", "*="]), st.integers(0, 7)),
                min_size=1, max_size=40))
def test_random_programs_match_numpy(chains, prog):
    """Random statements writing a row or a column of a 6x6 matrix from rows, columns,
    reversed and shifted rows of it and of another array, with reads of elements and
    pending arrays between them."""
    rng = np.random.default_rng(len(prog))
    base = rng.random((6, 6)) - 0.5
    other = rng.random((6, 6))
    a, ref = gp.asarray(base), base.copy()
    b = gp.asarray(other)
    held = []

    def src(x, o, kind, k, row):
        """A source of the written shape: a row of `x` (or of `o`), a column, or one of
        them reversed or rolled by one (NumPy's or gnumpy's roll, as `x` is)."""
        if kind == "const":
            return 0.75
        line = (lambda m: m[k, :]) if row else (lambda m: m[:, k])
        if kind == "other":
            return line(o)
        if kind == "rev":
            return line(x)[::-1]
        if kind == "shift":
            return (np if x is ref else gp).roll(line(x), 1)
        return line(x) if kind == "row" else (x[:, k] if row else x[k, :])

    for row, d, s1, k1, s2, k2, asg, extra in prog:
        for x, o in ((a, b), (ref, other)):
            v = src(x, o, s1, k1, row) * 1.5 - src(x, o, s2, k2, row)
            dest = (d, slice(None)) if row else (slice(None), d)
            if asg == "=":
                x[dest] = v
            elif asg == "+=":
                x[dest] += v
            else:
                x[dest] *= v
        if extra == 0:
            assert float(a[k1, k2]) == ref[k1, k2]
        elif extra == 1:
            held.append((a[:, k1] + 1.0, ref[:, k1] + 1.0))
    for got, want in held:
        check(got, want)
    check(a, ref)


def test_a_chain_is_one_launch_on_cuda(fake):
    """On the CUDA backend (faked: kernels compile, launches are recorded) a column
    recurrence of twelve writes launches one kernel, its destinations the twelve columns'
    pointers, and a second run of the loop replays it with nothing compiled."""
    dev, be = fake
    assert be.vector_chains
    x = gp.asarray(np.ones((40, 16)), device=dev)
    y = gp.asarray(np.ones((40, 16)), device=dev)
    gp.evaluate(x, y)
    for run in range(2):
        R.settle()
        n0, k0 = len(be.launches), len(be.kernels.mem)
        for j in range(2, 14):
            y[:, j] = 0.5 * x[:, j] + 0.25 * y[:, j - 1] - 0.125 * y[:, j - 2]
        assert len(C.elements) == 12 and len(be.launches) == n0
        R.settle()
        assert len(be.launches) == n0 + 1
        assert run == 0 or len(be.kernels.mem) == k0
    args = be.launches[-1][3]
    base = y._leaf().buf.ptr
    for j in range(2, 14):
        assert base + 8 * j in args
