"""A loop's writes of single elements of one buffer wait as a chain (``gnumpy._graph.chains``):
each value reads the chained elements' values instead of their memory, and the whole chain
is one kernel when anything settles it.  On the CPU backend, which writes an element at
once, the tests turn that off (``writes_elements``) so that the chain runs through
``CpuBackend.write_elements``; on CUDA the chain is the backend's own behaviour.  Every
observation sees NumPy's values."""
import gc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gnumpy as gp
from gnumpy import _device
from gnumpy._graph import chains as C
from gnumpy._graph import realize as R
from helpers import check


@pytest.fixture
def chains(monkeypatch):
    """The default backend, with element writes chained (the CPU backend's turned on)."""
    R.settle()
    be = _device.backend(gp.asarray(0.0).device)
    if be.write_elements is None:
        pytest.skip("this backend writes no chains of elements")
    monkeypatch.setattr(be, "writes_elements", False)
    yield be
    R.settle()


@pytest.fixture(params=["chained", "default"])
def writes(request):
    """Each element statement chained (``chains``), or as the backend writes it by
    default: the CPU's at once, through the statement's path that skips the reader scan
    (``readers.write_element_alone``) where its temporary is the one live pending array."""
    if request.param == "chained":
        request.getfixturevalue("chains")
    R.settle()
    yield request.param
    R.settle()


def _kernels():
    return R.stats.by_kind["elementwise"]


@pytest.mark.parametrize("n", [5, 50, 200])
def test_seidel_row_is_one_kernel_per_chain(chains, n):
    """``A[i, j] += A[i, j-1]; A[i, j] /= 9.0`` for j along a row: one kernel per
    ``ELEMENTS_MAX`` elements, not one per element, with NumPy's values; the next row
    starts a chain of its own, cut in the same places."""
    per_row = -(-(n - 2) // C.ELEMENTS_MAX)
    base = np.random.default_rng(1).random((6, n))
    a, ref = gp.asarray(base), base.copy()
    gp.evaluate(a)
    R.settle()
    k0 = _kernels()
    for i in (2, 3):
        for j in range(1, n - 1):
            a[i, j] += a[i, j - 1]
            a[i, j] /= 9.0
            ref[i, j] += ref[i, j - 1]
            ref[i, j] /= 9.0
            if j == 1 and i == 3:       # the row before ran when this one began
                assert _kernels() - k0 == per_row
                left = len(first)
        if i == 2:
            first = dict(C.elements)
    assert len(C.elements) == left
    R.settle()
    assert _kernels() - k0 == 2 * per_row
    check(a, ref)


def test_memory_shared_elsewhere_leaves_the_chain(chains):
    """An element statement reading memory seen outside gnumpy (exported through
    DLPack, on either backend) takes that memory's value at the statement (the element
    read is computed at once); memory shared elsewhere, live or freed, leaves the chain as
    it is: the row still runs as one kernel, with NumPy's values."""
    base = np.random.default_rng(4).random((3, 12))
    a, ref = gp.asarray(base), base.copy()
    kept = np.arange(12.0)
    other = gp.asarray(kept)                    # (live, shared, unread by the row)
    gone = gp.asarray(np.arange(5.0))
    gp.evaluate(a, other, gone)
    other.__dlpack__()
    gone.__dlpack__()
    del gone                                    # (freed: its id stays listed)
    R.settle()
    k0 = _kernels()
    for j in range(1, 11):
        a[1, j] += a[1, j - 1]
        ref[1, j] += ref[1, j - 1]
    assert len(C.elements) == 10
    R.settle()
    assert _kernels() - k0 == 1
    a[2, 1] += other[3]                         # reads shared memory: its value now
    ref[2, 1] += kept[3]
    if a.device.kind == "cpu":
        np.from_dlpack(other)[3] = -100.0       # the other side writes it afterwards
    check(a, ref)


def test_chain_stops_at_other_work(chains):
    """A row write, a read of an element, a reduction: each runs the chain first."""
    base = np.linspace(-2.0, 3.0, 40).reshape(4, 10)
    a, ref = gp.asarray(base), base.copy()
    for xp, x in ((gp, a), (np, ref)):
        x[1, 1] = x[1, 0] * 2.0
        x[1, 2] = x[1, 1] + x[0, 2]
        x[2, 1:5] = x[1, 0:4] + 1.0          # reads the chained elements
        x[1, 3] = x[1, 2] - 1.0
        x[1, 4] = x[1, 3] * x[1, 3]
    assert float(a[1, 4]) == ref[1, 4]
    a[1, 5] = a[1, 4] + a.sum()
    ref[1, 5] = ref[1, 4] + ref.sum()
    check(a, ref)


def test_rewriting_a_chained_element(chains):
    """An element written again after others keeps NumPy's order: a later write replaces
    its entry, and values written before read its earlier value."""
    base = np.arange(20.0).reshape(2, 10)
    a, ref = gp.asarray(base), base.copy()
    for x in (a, ref):
        x[0, 1] = 1.5
        x[0, 2] = x[0, 1] + 1.0
        x[0, 1] = x[0, 2] * 3.0
        x[0, 3] = x[0, 1] + x[0, 2]
        x[0, 2] = x[0, 2] - x[0, 3]
    check(a, ref)


def test_an_element_read_before_it_is_written(chains):
    """A value reads an element's memory, then a later write in the chain stores that
    element without reading it: the kernel reads before it stores."""
    base = np.arange(10.0) + 1.0
    a, ref = gp.asarray(base), base.copy()
    for x in (a, ref):
        x[2] = x[1] * 2.0
        x[1] = x[3] + 5.0
        x[4] = x[1] - x[2]
        x[3] = x[0] / 4.0
    check(a, ref)


def test_other_dtype_or_buffer_ends_the_chain(chains):
    """An element of another dtype view of the memory, or of another array, is no element
    of the chain: the chain runs first."""
    base = np.arange(16.0)
    a, ref = gp.asarray(base), base.copy()
    b, bref = gp.asarray(base * 2), base * 2
    a[1] = a[0] + 1.0
    a[2] = a[1] * 2.0
    n = a.view(np.int64)[1]         # the memory of a[1] as an integer
    ref[1] = ref[0] + 1.0
    ref[2] = ref[1] * 2.0
    assert int(n) == int(ref.view(np.int64)[1])
    a[3] = a[2] + 1.0
    b[0] = a[3] + b[1]
    a[4] = b[0] * 2.0
    ref[3] = ref[2] + 1.0
    bref[0] = ref[3] + bref[1]
    ref[4] = bref[0] * 2.0
    check(a, ref)
    check(b, bref)


def test_growing_values_settle_at_the_node_bound(chains):
    """A value that doubles each step (Fibonacci over elements) stays under
    ``ELEMENT_NODES``: the chain runs before it passes."""
    base = np.ones(64)
    a, ref = gp.asarray(base), base.copy()
    for j in range(2, 60):
        a[j] = a[j - 1] + a[j - 2] * 0.5
        ref[j] = ref[j - 1] + ref[j - 2] * 0.5
        assert not C.elements or R._deferred[0][1].size <= C.ELEMENT_NODES
    check(a, ref)


def test_integer_chain_and_views(chains):
    """Integer elements (wrapping arithmetic) through a strided view of a matrix."""
    base = np.arange(60, dtype=np.int32).reshape(6, 10) * 7919
    a, ref = gp.asarray(base), base.copy()
    va, vr = a[::2, 1::3], ref[::2, 1::3]
    for j in range(1, 3):
        for x in (va, vr):
            with np.errstate(over="ignore"):
                x[1, j] = x[1, j - 1] * 1013 + x[0, j]
            x[2, j] ^= x[1, j]
    check(a, ref)


_OPS = ["+", "-", "*"]


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11), st.integers(0, 11),
                          st.sampled_from(_OPS), st.sampled_from(["=", "+="]),
                          st.integers(0, 9)), min_size=1, max_size=60),
       st.floats(-3, 3, allow_nan=False))
def test_random_element_programs_match_numpy(writes, prog, c):
    """Random statements ``a[d] (= or +=) a[s] op a[t]`` with constants, sometimes a read
    of an element, a row write or a Python ``max`` of two elements between them."""
    base = np.random.default_rng(len(prog)).random(12) - 0.5
    a, ref = gp.asarray(base), base.copy()
    seen = []
    for d, s, t, op, asg, extra in prog:
        for x, out in ((a, None), (ref, seen)):
            v = eval(f"x[{s}] {op} x[{t}]") * c
            if asg == "=":
                x[d] = v
            else:
                x[d] += v
            if extra == 0 and out is not None:
                out.append((float(a[s]), float(ref[s])))
            if extra == 1:
                x[6:9] = x[0:3] * 0.5
            if extra == 2:              # a condition over chained elements, on the host
                x[t] = max(x[s], x[d])
    for g, n in seen:
        assert g == pytest.approx(n, rel=1e-12, abs=1e-12)
    check(a, ref)


@pytest.mark.parametrize("reader", ["written", "chained", "view", "none"])
def test_pending_readers_keep_their_values_as_the_chain_grows(writes, reader):
    """A statement's element write joins the chain without the reader scan only when its
    temporary is the one pending array: a lazy array made between the statements that
    reads the element written next, an element already chained, or the row through a
    view keeps the values it had when it was made (NumPy's), and the chain still runs as
    one kernel per ELEMENTS_MAX elements."""
    base = np.random.default_rng(7).random((4, 12))
    a, ref = gp.asarray(base), base.copy()
    gp.evaluate(a)
    R.settle()
    kept = []
    for j in range(1, 11):
        for xp, x in ((gp, a), (np, ref)):
            x[2, j] += x[2, j - 1]
            if j == 5:
                r = {"written": lambda: x[2, 6] * 2.0, "chained": lambda: x[2, 3] - 1.0,
                     "view": lambda: x[2, :] + 0.5, "none": lambda: None}[reader]()
                kept.append(r)
            x[2, j] /= 3.0
    if reader != "none":
        check(kept[0], kept[1])
    R.settle()
    check(a, ref)


_BETWEEN = {        # what runs between ``v = x[2, 5]`` and ``x[2, 5] = v`` (x is 4 x 12)
    "nothing": lambda x, v: None,
    "element": lambda x, v: x.__setitem__((2, 5), 7.5),
    "in place": lambda x, v: x[2].__iadd__(1.0),
    "row": lambda x, v: x.__setitem__(slice(1, 3), 0.25),
    "view": lambda x, v: x[2].__setitem__(5, -3.0),
    "chain": lambda x, v: [x.__setitem__((2, j), x[2, j - 1] * 0.5) for j in range(3, 9)],
    "max": lambda x, v: x.__setitem__((2, 5), max(x[2, 5], x[2, 4] + 10.0)),
}


@pytest.mark.parametrize("chained", [False, True])
@pytest.mark.parametrize("between", list(_BETWEEN))
def test_writing_an_element_its_own_earlier_read(between, chained, request):
    """``x[i, j] = v`` with v a read of x[i, j] (nussinov's ``max(table[i, j], t)``
    giving the element back): v keeps the value it had when read whatever was written
    in between, so the write puts back that value (NumPy's) and writes nothing when the
    element is unchanged."""
    if chained:
        request.getfixturevalue("chains")
    base = np.random.default_rng(11).random((4, 12))
    a, ref = gp.asarray(base), base.copy()
    for x in (a, ref):
        x[2, 5] = x[2, 4] * 3.0         # (a write waiting, deferred, before the read)
        v = x[2, 5]
        _BETWEEN[between](x, v)
        x[2, 5] = v
        x[2, 6] = x[2, 5] + 1.0
    check(a, ref)


def test_an_element_written_back_unchanged_is_no_write():
    """``x[i, j] = x[i, j]`` through a lazy read of the element records no write: the
    memory's known values stay valid and nothing is flushed or launched."""
    from gnumpy._memstate import write_epoch
    x = gp.asarray(np.arange(12.0))
    v = x[5]
    e = write_epoch[0]
    x[5] = v
    assert write_epoch[0] == e
    x[5] = v * 1.0                      # (a computed value is a write)
    assert write_epoch[0] == e + 1
    check(x, np.arange(12.0))


def test_an_exception_as_a_chain_starts_leaves_no_chain(chains, monkeypatch):
    """A walk that raises while a chain starts (a value too deep for the interpreter's
    stack, an interrupt) leaves no chain holding the deferred write unchecked: its value
    here reads a whole slice, which no chain may take.  The failed statement writes
    nothing; everything after it has NumPy's values."""
    base = np.arange(12.0) + 0.5
    a, ref = gp.asarray(base), base.copy()
    a[1] = a[2:6].sum()                 # deferred; not an expression of elements
    ref[1] = ref[2:6].sum()
    real = C._substitute

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(C, "_substitute", interrupted)
    with pytest.raises(KeyboardInterrupt):
        a[3] = a[1] * 2.0
    monkeypatch.setattr(C, "_substitute", real)
    assert not C.elements and R._deferred[0] is not None
    for x in (a, ref):
        x[2] = x[1] + 1.0
        x[4] = x[2] * x[1]
    check(a, ref)


def _no_pending_readers():
    """Compute the lazy arrays other tests left alive (readers too) and drop the pending
    entries of dead or computed arrays (more than ``_MARK_FROM`` of them send an element
    statement the general way)."""
    from gnumpy._graph import readers as RD
    gc.collect()
    gp.evaluate(*[x for x in (r() for r in list(RD._pending.values())) if x is not None])
    RD._prune()


def test_a_dead_roots_lazy_views_do_not_slow_the_array_that_takes_its_id(monkeypatch):
    """The lazy views a root left when it died stay listed under its id until the next
    prune; an array made later at that id (CPython reuses ids) writes its elements as any
    other does (the scan-free path), not the general way, and keeps NumPy's values."""
    from gnumpy._graph import readers as RD
    from gnumpy._viewmem import _LAZY_VIEWS
    be = _device.backend(gp.asarray(0.0).device)
    if not be.writes_elements:
        pytest.skip("this backend chains element writes")
    _no_pending_readers()
    base = np.random.default_rng(6).random((3, 8))
    r = gp.asarray(base) + 1.0              # a lazy root with a lazy view: listed
    v = r[1:, 2:]
    dead = _LAZY_VIEWS[id(r)]
    del r, v
    assert dead[0]() is None
    a, ref = gp.asarray(base), base.copy()
    gp.evaluate(a)
    R.settle()
    _LAZY_VIEWS[id(a)] = dead               # (what a dead root at a's id leaves)
    scans = []
    real = RD.flush_readers
    monkeypatch.setattr(RD, "flush_readers", lambda *a_, **k: (scans.append(1), real(*a_, **k)))
    for j in range(1, 6):
        for x in (a, ref):
            x[1, j] += x[1, j - 1]
            x[1, j] /= 3.0
    assert scans == []
    check(a, ref)


def test_cpu_element_statements_skip_the_reader_scan(monkeypatch):
    """On a backend that writes elements at once (the CPU's), a loop's element statement
    whose temporary is the one live pending array is written with no reader scan; a
    lazy reader of the array kept between statements, or a deferred write of a row,
    sends the statement the general way.  NumPy's values throughout."""
    from gnumpy._graph import readers as RD
    be = _device.backend(gp.asarray(0.0).device)
    if not be.writes_elements:
        pytest.skip("this backend chains element writes")
    scans = []
    real = RD.flush_readers
    monkeypatch.setattr(RD, "flush_readers", lambda *a, **k: (scans.append(1), real(*a, **k)))
    _no_pending_readers()
    base = np.random.default_rng(5).random((4, 12))
    a, ref = gp.asarray(base), base.copy()
    gp.evaluate(a)
    R.settle()
    for j in range(1, 11):
        for x in (a, ref):
            x[2, j] += x[2, j - 1]
            x[2, j] /= 3.0
    assert scans == []
    kept = [x[2, 4] * 2.0 for x in (a, ref)]    # a lazy reader of the next write's element
    for x in (a, ref):
        x[2, 4] += x[2, 3]
    assert len(scans) == 1
    check(kept[0], kept[1])
    for x in (a, ref):
        x[1, :] = x[3, :] * 0.5                 # a row's write, deferred
        x[1, 3] -= x[1, 2]
    assert len(scans) == 3
    check(a, ref)
