"""A statement's write waits (``realize.write(..., defer=True)``) until the next statement or
anything that runs work or reads memory; a next statement writing the same memory folds it
into its own value.  Every observation sees NumPy's values: reads of the written memory
exact, overlapping or apart, named values kept across writes, host reads, reductions,
exports, memory shared with NumPy, threads and errors."""
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gnumpy as gp
from gnumpy import _device
from gnumpy._graph import chains as C
from gnumpy._graph import realize as R
from helpers import check


def _run(prog, base):
    """prog(xp, a, kept) on gnumpy and NumPy; a's values and every kept value match."""
    g, n = gp.asarray(base.copy()), base.copy()
    kg, kn = [], []
    prog(gp, g, kg)
    prog(np, n, kn)
    check(g, n)
    assert len(kg) == len(kn)
    for x, y in zip(kg, kn):
        if isinstance(y, np.ndarray) or isinstance(y, np.generic):
            check(gp.asarray(x), np.asarray(y))
        else:
            assert x == y or (x != x and y != y)


def test_pair_on_one_element_folds_into_one_write():
    """``a[i, j] += a[i, j-1]; a[i, j] /= 9`` is one deferred write on CUDA (the second
    folds the first); the next element's write, reading it, chains after it
    (test_element_chains), and a host read runs them.  The CPU backend
    writes an element at once, as NumPy does (``CpuBackend.write_element``): folding saves
    no launch there."""
    a = gp.asarray(np.arange(40.0).reshape(4, 10))
    gp.evaluate(a)
    cpu = a.device.kind == "cpu"
    a[3, 2] += a[3, 1]
    assert (R._deferred[0] is None) is cpu
    d0 = None if cpu else R._deferred[0][0]
    a[3, 2] /= 9.0
    if cpu:
        assert R._deferred[0] is None and a[3, 2].get() == (32.0 + 31.0) / 9.0
    else:
        assert R._deferred[0][0] is d0        # the same write, folded
    a[3, 3] += a[3, 2]                        # another element: chained after the pair
    assert cpu or R._deferred[0][0] is not d0 and len(C.elements) == 2
    ref = np.arange(40.0).reshape(4, 10)
    ref[3, 2] += ref[3, 1]
    ref[3, 2] /= 9.0
    ref[3, 3] += ref[3, 2]
    check(a, ref)
    assert R._deferred[0] is None             # the host read ran it


def test_pair_reading_another_element_folds():
    """``a[i, j] -= x; a[i, j] /= a[j, j]`` (a Cholesky step): the second statement reads
    another element of the memory it writes, apart from the deferred write's, and folds it
    all the same on CUDA; NumPy's values on both backends."""
    base = np.arange(1.0, 41.0).reshape(4, 10)
    a = gp.asarray(base.copy())
    gp.evaluate(a)
    cpu = a.device.kind == "cpu"
    a[3, 2] -= a[3, :2].sum()
    d0 = None if cpu else R._deferred[0][0]
    a[3, 2] /= a[2, 2]
    assert cpu or R._deferred[0][0] is d0        # the same write, folded
    ref = base.copy()
    ref[3, 2] -= ref[3, :2].sum()
    ref[3, 2] /= ref[2, 2]
    check(a, ref)


@pytest.mark.parametrize("case", [
    # the second statement reads the written region exactly, shifted, or elsewhere
    "a[2, 3] -= a[2, :3].sum(); a[2, 3] /= a[3, 3]",
    "a[2, 3] += 1.0; a[2, 3] = a[2, 4] * a[2, 3] - a[1, 3]",
    "a[2, 3] += 1.0; a[2, 3] = a[2, 3:5].sum() + a[2, 3]",
    "a[2, 1:5] += a[1, 1:5]; a[2, 1:5] *= 0.5",
    "a[2, 1:5] += a[1, 1:5]; a[2, 1:5] = a[2, 0:4] + 1.0",
    "a[2, 1:5] += a[1, 1:5]; a[2, 1:5] = a[2, ::-1][1:5] * 2.0",
    "a[2, 1:5] += a[1, 1:5]; a[2, 1:5] = a[:, 2][1:5]",
    "a[2, 1:5] += a[1, 1:5]; a[2, 1:5] -= a[2, 1:5].sum()",
    "a[2, 1:5] += a[1, 1:5]; a[2, :] = a[2, :] * 3.0",
    "a[2, :] = 7.0; a[2, 1:5] = a[2, 0:4] + a[2, 2:6]",
    "a[:, 3] = a[:, 2] * 2.0; a[:, 3] += a[:, 4]; a[:, 3] /= a[:, 3].max()",
    "a[1] = a[2]; a[1] = a[1] + a[0]; a[1] = a[1]",
    "a[0, 0] = 3.0; a[0, 0] = a[0, 0] ** 2; kept.append(float(a[0, 0]))",
    "a[1, 1] = a[1, 2] + 1; t = a[1, 1] * 2; a[1, 1] = t; a[1, 1] -= 5; kept.append(t)",
    "a[3] += 1.0; v = a[3]; a[3] *= 2.0; kept.append(v.copy()); a[3] -= v",
    "a[2, 2] += 1; kept.append(a.sum()); a[2, 2] += 1; kept.append(a[2].copy())",
    "a[0] = 1.0; a.T[0] = 2.0; a[:, 0] += a[0, :6]",
    # constants and copies of other parts (cavity_flow's boundary rows and columns)
    "a[1:-1, 1:-1] = a[1:-1, 2:] + a[:-2, 1:-1]; a[:, -1] = a[:, -2]; a[0, :] = a[1, :]; "
    "a[:, 0] = a[:, 1]; a[-1, :] = 0",
    "a[2, :] = -0.0; a[:, 3] = float('nan'); a[1:3, 4:] = float('-inf'); a[0, ::3] = 7",
    "v = a[1, 2:6]; a[0, 2:6] = v; a[1, 2:6] = 5.0; kept.append(v.copy()); a[3] = a[0]",
    "t = a[2] * 2.0; a[2, :] = 1.5; kept.append(t); a[4, :] = a[2, :]",
    "a[::2, 1] = a[1::2, 1]; a[:, 2] = a[::-1, 2]; a[1, 1:] = a[1, :-1]",
    "a[0, :] = a[0, 3] * 2.0; a[:, 1] = a[2, 1]; t = a[4, 4] + 1.0; a[4, :] = t; "
    "a[1:, 4] = a[0, 0]; kept.append(t)",
    "t = a[2, 2] * 3.0; a[2, :] += t; a[0, 0] = t; a[3, 3] = t; a[2, 2] = a[0, 0]; "
    "kept.append(t)",   # (t computed before a's write: an element written from memory)
])
def test_statement_pairs_match_numpy(case):
    def prog(xp, a, kept):
        exec(case, {"a": a, "kept": kept, "xp": xp})
    _run(prog, np.linspace(-3.0, 4.0, 60).reshape(6, 10))


@pytest.mark.parametrize("case", [
    # the value a temporary of another dtype (float64 into float32 / int64 into int8) or
    # shape (broadcast): the write computes its cast; it reads the written memory at the
    # same place, shifted, reversed, broadcast from one row, or through a reduction
    "a[1:] = a[:-1] * b[1:]",
    "a[:, :] = a[0] * b[0]",
    "a[:] = a[::-1] + b",
    "a[1:4, 1:] = xp.sum(a[:, :, None] * b[:, None, :4], axis=0)[1:, 1:]",
    "a[2] = a[3] * b[2]; a[3] = a[2] * b[0]",
    "a[:, 0] = a[:, 1] + b[:, 0]; a[:, 1] = a[:, 0] - b[:, 1]",
    "a[:4] = a[1:] + b[0]; a[4] = a[0] + b[4, 0]",
    "a[1:3, :] = a[0] + b[0]; a[:, 2] = a[:, 1:3].sum(axis=1) + b[:, 2]",
    "t = a[2] * b[2]; a[2] = t; a[3] = t + b[3]; kept.append(t)",
    "t = a[1:3] * b[1:3]; a[1:3] = t; a[0] = t[0]; kept.append(t)",
])
@pytest.mark.parametrize("dt, other", [(np.float32, np.float64), (np.int8, np.int64)])
def test_temporaries_cast_or_broadcast_into_the_destination(case, dt, other):
    """``a[k] = t`` where t is a lazy temporary whose dtype or shape differs from a[k]'s: the
    write computes the cast (or broadcast) of t itself, which may read a where it
    writes; NumPy's values, and a kept t keeps its own."""
    g = np.random.default_rng(3)
    base = (g.random((5, 4)) * 10).astype(dt)
    b = (g.random((5, 4)) * 10 - 5).astype(other) if dt == np.float32 else \
        g.integers(-3, 3, (5, 4)).astype(other)
    g_a, n_a = gp.asarray(base.copy()), base.copy()
    kg, kn = [], []
    exec(case, {"a": g_a, "b": gp.asarray(b), "xp": gp, "kept": kg})
    exec(case, {"a": n_a, "b": b, "xp": np, "kept": kn})
    check(g_a, n_a)
    for x, y in zip(kg, kn):
        check(x, y)


_STMTS = st.sampled_from([
    "a[{r}, {c}] += a[{r2}, {c2}]", "a[{r}, {c}] /= 3.0", "a[{r}, {c}] = a[{r}, {c}] * -1.5",
    "a[{r}, 1:4] += a[{r2}, 2:5]", "a[{r}, 1:4] = a[{r}, 1:4] - a[{r}, 0:3]",
    "a[{r}] *= 0.5", "a[{r}] = a[{r2}] + a[{r}]", "a[:, {c}] += a[:, {c2}]",
    "kept.append(a[{r}, {c}] + 0.0)", "kept.append(float(a[{r2}, {c2}]))",
    "kept.append(a[{r}].sum())", "t = a[{r}]; kept.append(t); a[{r}] += 1.0",
    "a[{r}, 1:] = -{c}.5", "a[:, {c}] = {r}", "a[{r}, :] = a[{r2}, :]",
    "a[:, {c}] = a[:, {c2}]", "a[{r}, 2:] = a[{r}, :-2]",
])


@settings(max_examples=60, deadline=None)
@given(steps=st.lists(st.tuples(_STMTS, st.integers(0, 4), st.integers(0, 5),
                                st.integers(0, 4), st.integers(0, 5)), min_size=1, max_size=8))
def test_random_statement_sequences_match_numpy(steps):
    """Random sequences of element, row and column statements, reading what earlier ones
    wrote at the same place or elsewhere, some keeping values: NumPy's values throughout
    (kept views read after later writes see those writes, as NumPy's do)."""
    def prog(xp, a, kept):
        for s, r, c, r2, c2 in steps:
            exec(s.format(r=r, c=c, r2=r2, c2=c2), {"a": a, "kept": kept})
    _run(prog, np.linspace(-2.0, 3.0, 30).reshape(5, 6))


def test_memory_shared_with_numpy_is_written_at_once():
    """asarray(copy=False) and from_dlpack of a NumPy array, and a DLPack export to NumPy:
    the other side reads the memory without asking gnumpy, so the write runs at once."""
    if gp.asarray(0).device.kind != "cpu":
        pytest.skip("NumPy memory is shared only on the CPU backend")
    x = np.zeros(4)
    a = gp.asarray(x, copy=False)
    a[1] += 2.0
    assert x[1] == 2.0 and R._deferred[0] is None
    y = np.zeros(3)
    b = gp.from_dlpack(y)
    b[2] = b[2] + 5.0
    assert y[2] == 5.0
    c = gp.zeros(3)
    view = np.from_dlpack(c)
    c[0] = c[0] + 4.0
    assert view[0] == 4.0


_SHARED_BEFORE = ["", "a[1] = 2.0", "a[1] += 1.0", "a[1] = a[0] * 3.0", "a[0] = -1.0",
                  "a[1, 2] = 7.0"]
_SHARED_STMTS = ["a[1] = s", "a[1, ...] = s", "a[None, 1] = s", "a[0:2] = s",
                 "a[1:3, ..., 1] = s[:2]", "a[1, ::-1] = s", "a[1] = s * 2.0", "a[1] += s"]


@settings(max_examples=60, deadline=None)
@given(before=st.sampled_from(_SHARED_BEFORE), stmt=st.sampled_from(_SHARED_STMTS),
       dt=st.sampled_from([np.float64, np.float32, np.int64]),
       new=st.lists(st.integers(-9, 9), min_size=3, max_size=3))
def test_a_write_reading_memory_shared_with_numpy_reads_it_now(before, stmt, dt, new):
    """``a[k] = s`` with `s` NumPy's memory (asarray(copy=False)): NumPy copies s's values
    at the statement, so a later change to that memory on NumPy's side is not seen, even
    when the write would otherwise wait (after a write to the same place it folds into, or
    a cast of s to a's dtype).  Found reviewing the constant and lazy statement writes:
    the fold and the cast made ``a[1] = s`` a deferred write that read s late."""
    if gp.asarray(0).device.kind != "cpu":
        pytest.skip("NumPy memory is shared only on the CPU backend")
    x = np.arange(1, 4).astype(dt)
    a = gp.asarray(np.linspace(-2.0, 3.0, 12).reshape(4, 3))
    ref = np.linspace(-2.0, 3.0, 12).reshape(4, 3)
    s = gp.asarray(x, copy=False)
    gp.evaluate(a)
    for src in (before, stmt):
        exec(src, {"a": a, "s": s})
        exec(src, {"a": ref, "s": x.copy()})
    x[...] = np.asarray(new, dtype=dt)        # NumPy's side changes its memory
    check(a, ref)


def test_settle_points_run_the_deferred_write():
    """evaluate, a backend's use (a host read of other memory) and another thread's work
    run the deferred write; nothing else is lost."""
    a = gp.asarray(np.arange(6.0))
    b = gp.asarray(np.arange(3.0))
    gp.evaluate(a, b)
    a[2:3] += 10.0                            # (one-element slices: elements are written
    assert R._deferred[0] is not None         # at once on the CPU backend)
    gp.evaluate(a)
    assert R._deferred[0] is None
    a[3:4] += 10.0
    float(b[0])                               # a host read of other memory
    assert R._deferred[0] is None
    a[4:5] += 10.0
    seen = []
    t = threading.Thread(target=lambda: seen.append(a.get().copy()))
    t.start()
    t.join()
    assert seen[0][4] == 14.0
    a[5:6] += 10.0
    _device.backend(a.device)
    assert R._deferred[0] is None
    check(a, np.arange(6.0) + np.array([0, 0, 10, 10, 10, 10]))


def test_a_freed_shared_buffers_id_does_not_stop_the_deferred_write(monkeypatch):
    """Memory once shared with NumPy and freed leaves its id listed (``_memstate``); a new
    buffer at that id is not shared, so a statement reading it still waits (it was
    written at once, and the settle-point test failed when its arrays met such an id)."""
    import weakref
    from gnumpy import _memstate

    class Gone:
        pass
    g = Gone()
    dead = weakref.ref(g)
    del g
    a = gp.asarray(np.arange(6.0))
    gp.evaluate(a)
    monkeypatch.setitem(_memstate._shared, id(a._node.buf), dead)
    a[2:3] += 10.0
    assert R._deferred[0] is not None
    a[3:4] = a[2:3] * 2.0                   # (reads the written memory: it runs first)
    check(a, np.array([0.0, 1.0, 12.0, 24.0, 4.0, 5.0]))


def test_a_failing_statement_leaves_the_deferred_write_intact():
    """A statement that raises (a bad shape, a bad cast) after a deferred write: the
    write still lands, and the arrays keep NumPy's values."""
    a = gp.asarray(np.arange(8.0).reshape(2, 4))
    i = gp.asarray(np.arange(8).reshape(2, 4))
    a[1, 1:3] += 1.0
    with pytest.raises(ValueError):
        a[1, 1:3] += gp.ones(3)
    with pytest.raises(TypeError):
        i[0, :2] += 1.5         # (an element, NumPy's scalar, would take 1.5 and round)
    ref = np.arange(8.0).reshape(2, 4)
    ref[1, 1:3] += 1.0
    check(a, ref)
    check(i, np.arange(8).reshape(2, 4))


@pytest.mark.parametrize("chained", [False, True])
def test_out_of_memory_at_the_deferred_write_keeps_it(chained, monkeypatch):
    """The deferred write runs out of memory when something settles it: the MemoryError
    reaches that caller, the write (with its chain of elements) waits again, and once
    memory is there it lands: nothing the program wrote is lost."""
    if chained:
        be = _device.backend(gp.asarray(0.0).device)
        if be.write_elements is None:
            pytest.skip("this backend writes no chains of elements")
        monkeypatch.setattr(be, "writes_elements", False)
    R.settle()
    base = np.arange(12.0) + 1.0
    a, ref = gp.asarray(base), base.copy()
    x = gp.asarray(base * 2)
    gp.evaluate(a, x)
    for y in (a, ref):
        if chained:
            y[1] = y[0] * 2.0
            y[2] = y[1] + 1.0
            y[3] = y[2] * y[1]
        else:
            y[2:5] = (x if y is a else base * 2)[2:5] * 3.0
    assert R._deferred[0] is not None and bool(C.elements) == chained
    name = "_write_elements" if chained else "_write"
    real = getattr(R, name)
    failed = []

    def out_of_memory(*args):
        if not failed:
            failed.append(1)
            raise MemoryError("out of device memory (simulated)")
        return real(*args)

    monkeypatch.setattr(R, name, out_of_memory)
    with pytest.raises(MemoryError):
        float(a.sum())
    assert failed and R._deferred[0] is not None and bool(C.elements) == chained
    check(a, ref)
    assert R._deferred[0] is None and not C.elements


def test_fold_is_bounded_by_the_graph_size():
    """A loop of statements on one row folds until the value passes max_graph_nodes, then
    runs and starts again: the graph never grows without bound."""
    a = gp.asarray(np.zeros((2, 5)))
    b = gp.asarray(np.arange(10.0).reshape(2, 5))
    ref = np.zeros((2, 5))
    for k in range(300):
        a[0, 1:4] += b[1, 1:4] * 0.5
        ref[0, 1:4] += np.arange(6.0, 9.0) * 0.5
        p = R._deferred[0]
        assert p is None or p[1].size <= gp.config.max_graph_nodes
    check(a, ref)


ON_CUDA = gp.asarray(0).device.kind == "cuda"
cuda_only = pytest.mark.skipif(not ON_CUDA, reason="streams and graph captures need a GPU")


@cuda_only
def test_streams_run_the_deferred_write_on_its_own_stream():
    """A statement's write before a stream block runs before the block; one inside the
    block runs before the block ends (on the block's stream); values are NumPy's."""
    a = gp.asarray(np.arange(8.0))
    gp.evaluate(a)
    a[1] += 5.0
    s = gp.cuda.Stream(nonblocking=True)
    with s:
        assert R._deferred[0] is None
        a[2] += a[1]
        a[2] *= 2.0
    assert R._deferred[0] is None
    s.synchronize()
    ref = np.arange(8.0)
    ref[1] += 5.0
    ref[2] += ref[1]
    ref[2] *= 2.0
    check(a, ref)


@cuda_only
def test_statement_writes_inside_a_graph_capture_are_captured():
    """Writes in a capture run at once, into the graph (not deferred past its end); a
    write before the capture is not in it."""
    xh = np.arange(16.0)
    x = gp.asarray(xh)
    y = gp.zeros(16)
    gp.evaluate(x, y)
    y[0:4] = x[0:4] * 2.0                   # (compiled outside the capture)
    y[4] += x[5]
    gp.evaluate(y)
    y[8] = 100.0                            # before: not in the graph
    g = gp.cuda.Graph()
    with g:
        assert R._deferred[0] is None
        y[0:4] = x[0:4] * 2.0
        y[4] += x[5]
        assert R._deferred[0] is None
    x[...] = gp.asarray(xh + 1.0)
    g.replay()
    ref = np.zeros(16)
    ref[0:4] = (xh[0:4] + 1.0) * 2.0
    ref[4] = xh[5] + (xh[5] + 1.0)          # run once before, then replayed (a capture
                                            # records its kernels; they run at replay)
    ref[8] = 100.0
    check(y, ref)
