"""The current CUDA stream is per thread (``with gnumpy.cuda.Stream():`` changes the calling
thread's only), and work stays ordered: a blocking stream is ordered with the stream it
replaces on entry and exit, and when the running thread changes to one on another stream,
that stream waits for the previous one's work.

The ordering rules are checked without a GPU on a CudaBackend whose streams record their
waits; on the GPU, threads on their own streams must give NumPy's values."""
import threading
import types

import numpy as np
import pytest

import gnumpy as gp

ON_CUDA = gp.asarray(0).device.kind == "cuda"
cuda_only = pytest.mark.skipif(not ON_CUDA, reason="streams need the CUDA backend")


# ---------------------------------------------------------------- ordering rules (no GPU)

class _S:
    """A stream that records which streams it was made to wait for."""

    def __init__(self, name, log):
        self.name, self.log, self.handle = name, log, 1000 + len(log) + len(name)

    def wait(self, other):
        self.log.append((self.name, other.name))


@pytest.fixture
def be():
    cuda = pytest.importorskip(
        "gnumpy.backends.cuda", reason="the 'cuda' extra (cuda-bindings) is not installed")
    b = object.__new__(cuda.CudaBackend)
    b.log = []
    b._tls = threading.local()
    b.default_stream = _S("default", b.log)
    b._set_stream(b.default_stream)
    b.thread = threading.get_ident()
    b.pool = types.SimpleNamespace(capture=None)
    b.cdev = types.SimpleNamespace(set_current=lambda: None)
    return b


def _in_thread(fn):
    out = []
    t = threading.Thread(target=lambda: out.append(fn()))
    t.start()
    t.join()
    return out[0]


def test_blocking_stream_is_ordered_both_ways(be):
    s = _S("s", be.log)
    be.push_stream(s)
    assert be.stream is s and be.cur_stream is s and be.stream_handle == s.handle
    be.pop_stream()
    assert be.stream is be.default_stream and be.cur_stream is be.default_stream
    assert be.log == [("s", "default"), ("default", "s")]


def test_nonblocking_stream_is_not_ordered(be):
    s = _S("s", be.log)
    be.push_stream(s, blocking=False)
    assert be.cur_stream is s
    be.pop_stream(blocking=False)
    assert be.cur_stream is be.default_stream
    assert be.log == []


def test_nested_streams_unwind_in_order(be):
    a, b = _S("a", be.log), _S("b", be.log)
    be.push_stream(a)
    be.push_stream(b)
    assert be.stream is b
    be.pop_stream()
    assert be.stream is a and be.cur_stream is a
    be.pop_stream()
    assert be.log == [("a", "default"), ("b", "a"), ("a", "b"), ("default", "a")]


def test_current_stream_is_per_thread(be):
    s = _S("s", be.log)
    be.push_stream(s, blocking=False)
    assert _in_thread(lambda: be.stream) is be.default_stream   # not the other thread's
    assert be.stream is s
    be.pop_stream(blocking=False)


def test_thread_switch_orders_the_streams(be):
    s = _S("s", be.log)
    be.push_stream(s, blocking=False)          # this thread works on s

    def other():
        be.bind_thread()                       # as realize does when the thread changes
        return be.cur_stream
    assert _in_thread(other) is be.default_stream
    assert be.log == [("default", "s")]        # the other thread's work follows s's
    be.bind_thread()                           # back on this thread
    assert be.cur_stream is s
    assert be.log == [("default", "s"), ("s", "default")]
    be.pop_stream(blocking=False)


def test_thread_switch_on_one_stream_adds_no_wait(be):
    _in_thread(be.bind_thread)
    be.bind_thread()
    assert be.log == [] and be.cur_stream is be.default_stream


def test_no_cross_stream_wait_while_capturing(be):
    s = _S("s", be.log)
    be.push_stream(s, blocking=False)
    be.pool.capture = []
    _in_thread(be.bind_thread)
    assert be.log == []
    be.pool.capture = None
    be.bind_thread()
    be.pop_stream(blocking=False)


# ---------------------------------------------------------------- on the GPU

@cuda_only
def test_each_thread_sees_its_own_current_stream():
    default = gp.cuda.get_current_stream().ptr
    inside = threading.Barrier(4)
    seen = {}

    def work(t):
        s = gp.cuda.Stream(nonblocking=bool(t % 2))
        with s:
            inside.wait()                      # all four threads are in their blocks
            seen[t] = (gp.cuda.get_current_stream().ptr, s.ptr)
            inside.wait()
        seen[t] += (gp.cuda.get_current_stream().ptr,)
    ts = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert len(seen) == 4
    for cur, own, after in seen.values():
        assert cur == own and after == default
    assert len({own for _, own, _ in seen.values()}) == 4
    assert gp.cuda.get_current_stream().ptr == default


@cuda_only
@pytest.mark.parametrize("nonblocking", [False, True])
def test_threads_on_their_own_streams_share_an_array(nonblocking):
    """Eight threads, each in its own stream, add into disjoint slices of one array and
    read the whole array: no update is lost, and every read is a state the array had."""
    n, iters = 1 << 16, 40
    x = gp.zeros(8 * n, dtype=gp.float32)
    errors, bad = [], []

    def work(t):
        try:
            with gp.cuda.Stream(nonblocking=nonblocking):
                for _ in range(iters):
                    x[t::8] = x[t::8] + 1
                    v = x[t::8].get()
                    if not (v == v[0]).all():
                        bad.append(t)
                gp.cuda.synchronize()
        except BaseException as e:             # noqa: BLE001 - reported below
            errors.append(repr(e))
    ts = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == [] and bad == []
    np.testing.assert_array_equal(x.get(), np.full(8 * n, iters, np.float32))


@cuda_only
def test_blocking_stream_orders_lazy_work_without_synchronize():
    """Work issued before a blocking block is seen in it, and the block's results after
    it, with no explicit synchronization (the inputs are large enough that a missing
    order would read unfinished data)."""
    xn = np.random.default_rng(0).standard_normal(1 << 24).astype(np.float32)
    for _ in range(3):
        x = gp.asarray(xn)
        y = gp.sqrt(gp.abs(x)) * 3 + x
        gp.evaluate(y)                         # on the default stream
        with gp.cuda.Stream():
            z = y * 2 - 1
            gp.evaluate(z)                     # on the block's stream
        w = (z + y).get()                      # on the default stream again
        yn = np.sqrt(np.abs(xn)) * 3 + xn
        np.testing.assert_allclose(w, (yn * 2 - 1) + yn, rtol=1e-5, atol=1e-5)
