"""Reliability: eager validation of shapes and sizes, read-only arrays and ``flags``, views
whose chains cost O(1) per view, and views that keep their base's memory.

The silent wrong answers the reliability review and the fuzzer found are regression cases
in tests/test_fuzz.py (``FINDINGS``); this file holds the structural checks.
"""
from __future__ import annotations

import numpy as np
import pytest
from numpy.exceptions import AxisError  # noqa: F401 - NumPy's public exception, for clarity

import gnumpy as gp
from gnumpy._graph import ir

B = 2**40
_ONE = np.ones(3)


def _bt(shape):
    return lambda xp: xp.broadcast_to(xp.asarray(_ONE)[:1], shape)


# (case, call on xp, NumPy's exception type) -- every one raised at the call
HUGE = [
    ("zeros 3-d", lambda xp: xp.zeros((B,) * 3), ValueError),
    ("zeros 8 TiB", lambda xp: xp.zeros((B,)), MemoryError),
    ("empty 2**63", lambda xp: xp.empty(2**63), ValueError),
    ("empty 2**62", lambda xp: xp.empty(2**62), ValueError),
    ("ones negative", lambda xp: xp.ones((-1,)), ValueError),
    ("full", lambda xp: xp.full((B, B), 1.0), ValueError),
    ("zeros_like of a broadcast", lambda xp: xp.zeros_like(_bt((B,))(xp)), MemoryError),
    ("reshape into a huge shape", lambda xp: xp.zeros(0).reshape(B, B, 0), ValueError),
    ("broadcast_to past intp", lambda xp: _bt((B, B, B))(xp), ValueError),
    ("op on a huge broadcast", lambda xp: _bt((B,))(xp) + 1, MemoryError),
    ("arange", lambda xp: xp.arange(2**62), ValueError),
    ("arange of floats", lambda xp: xp.arange(0, 1e20), ValueError),
    ("linspace", lambda xp: xp.linspace(0, 1, 2**62), ValueError),
    ("tile", lambda xp: xp.tile(xp.asarray(_ONE), B), MemoryError),
    ("repeat", lambda xp: xp.repeat(xp.asarray(_ONE), B), MemoryError),
    ("tile 2-d", lambda xp: xp.tile(xp.asarray(_ONE), (B, B)), MemoryError),
    ("outer", lambda xp: xp.outer(_bt((B,))(xp), _bt((B,))(xp)), MemoryError),
    ("tri", lambda xp: xp.tri(B), MemoryError),
    ("resize", lambda xp: xp.resize(xp.asarray(_ONE), (B, B)), OverflowError),
    ("ravel of a broadcast", lambda xp: _bt((B, 2))(xp).ravel(), MemoryError),
    ("sort of a broadcast", lambda xp: xp.sort(_bt((B,))(xp)), MemoryError),
    ("eye", lambda xp: xp.eye(B), ValueError),
    ("identity", lambda xp: xp.identity(B), ValueError),
    ("indices", lambda xp: xp.indices((B, B)), ValueError),
    ("zeros then sum", lambda xp: xp.zeros((B,)).sum(), MemoryError),
    ("ones int8 32 TiB", lambda xp: xp.ones(2**45, dtype=np.int8), MemoryError),
    ("pad", lambda xp: xp.pad(xp.asarray(_ONE), B), MemoryError),
    ("concatenate a broadcast", lambda xp: xp.concatenate([_bt((B,))(xp), xp.asarray(_ONE)]),
     MemoryError),
    ("copy of a broadcast", lambda xp: _bt((B,))(xp).copy(), MemoryError),
    ("astype of a broadcast", lambda xp: _bt((B,))(xp).astype(np.float32), MemoryError),
    ("where over a broadcast", lambda xp: xp.where(True, _bt((B,))(xp), 0), MemoryError),
    ("dimension past intp", lambda xp: xp.zeros((2**64,)), ValueError),
]


@pytest.mark.parametrize("case,call,exc", HUGE, ids=[h[0] for h in HUGE])
def test_huge_shapes_raise_at_the_call(case, call, exc):
    with pytest.raises(exc):
        call(gp)


def test_huge_views_are_fine():
    # NumPy lets a view be larger than memory; only new arrays must fit
    v = _bt((B,))(gp)
    assert v.shape == (B,) and not v.flags.writeable


def test_memory_error_then_keeps_working():
    with pytest.raises(MemoryError):
        gp.ones(2**45, dtype=np.int8)
    np.testing.assert_array_equal((gp.arange(5) * 2).get(), np.arange(5) * 2)


def test_long_device_wait_is_interruptible():
    """Ctrl-C stops a wait for long device work (the driver is polled, not blocked on),
    and the library keeps working: the work finishes in stream order."""
    import _thread
    import threading
    import time
    x = gp.ones(2**28, dtype=np.float32)
    if x.device.kind != "cuda":
        pytest.skip("device waits exist on CUDA; the CPU backend's work is NumPy's")
    be = x.device._be
    n = 0
    y = x
    for n in range(1, 4001):            # about 2 s of enqueued kernels on an H200
        y = y * np.float32(1.0)
        gp.evaluate(y)
    timer = threading.Timer(0.2, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            be.synchronize()
            time.sleep(30)      # a wait that returned early: the interrupt lands here
        # interrupted inside the wait: the stream was still busy
        err = be._driver.cuStreamQuery(be.stream_handle)[0]
        assert err == be._driver.CUresult.CUDA_ERROR_NOT_READY
    finally:
        timer.cancel()
    be.synchronize()
    assert n == 4000
    np.testing.assert_array_equal(y[:5].get(), np.ones(5, np.float32))


# ---------------------------------------------------------------------- flags

def _layouts(xp):
    a = xp.asarray(np.arange(24.0).reshape(2, 3, 4))
    return {"c": a, "t": a.T, "slice": a[:, ::2], "rev": a[::-1], "row": a[1],
            "bcast": xp.broadcast_to(a[:1, :1], (2, 3, 4)), "flat": a.reshape(-1),
            "col": a[:, :, :1], "lazy": a + 1, "fort": xp.asfortranarray(a)}


@pytest.mark.parametrize("name", list(_layouts(np)))
def test_flags_match_numpy(name):
    n, g = _layouts(np)[name], _layouts(gp)[name]
    for f in ("c_contiguous", "f_contiguous", "writeable", "aligned"):
        assert getattr(g.flags, f) == getattr(n.flags, f), f
    assert g.flags["C"] == n.flags["C"] and g.flags.fnc == n.flags.fnc


def test_owndata():
    a = gp.zeros(3)
    assert a.flags.owndata and not a[1:].flags.owndata
    assert (a + 1).flags.owndata


def test_readonly_rules():
    a = gp.zeros((2, 3))
    assert a.flags.writeable
    b = gp.broadcast_to(a[0], (2, 3))
    assert not b.flags.writeable and not b[0].flags.writeable and not b.T.flags.writeable
    assert b.copy().flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        b[0, 0] = 1
    with pytest.raises(ValueError, match="read-only"):
        b += 1
    with pytest.raises(ValueError, match="read-only"):
        gp.add(a, 1, out=b)
    with pytest.raises(ValueError, match="read-only"):
        b.fill(3)
    assert not a.diagonal().flags.writeable
    assert not a.imag.flags.writeable
    assert a.real is a
    a.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        a[0] = 1
    v = a[1:]
    assert not v.flags.writeable
    with pytest.raises(ValueError, match="WRITEABLE"):
        v.setflags(write=True)
    a.setflags(write=True)
    a[0] = 1
    np.testing.assert_array_equal(a.get(), [[1, 1, 1], [0, 0, 0]])


def test_real_imag_views_share_memory():
    z = gp.asarray(np.array([1 + 2j, 3 - 4j]))
    r, i = z.real, z.imag
    r[0] = 10
    i[1] *= 2
    np.testing.assert_array_equal(z.get(), [10 + 2j, 3 - 8j])
    np.testing.assert_array_equal(r.get(), [10, 3])
    z[1] = 0
    np.testing.assert_array_equal(i.get(), [2, 0])
    lazy = z * 1
    lazy.imag[:] = 5
    np.testing.assert_array_equal(lazy.get(), [10 + 5j, 5j])


# ---------------------------------------------------------------------- view chains

def _chain_depth(node):
    d = 0
    while node.kind == ir.VIEW:
        node = node.srcs[0]
        d += 1
    return d


@pytest.mark.parametrize("lazy", [False, True])
def test_view_chains_are_constant_per_view(lazy):
    x = gp.arange(12.0)
    if lazy:
        x = x * 2
    y = x
    for i in range(4000):
        y = y.reshape(3, 4) if i % 2 == 0 else y.reshape(12)
    assert len(y._vops) == 1 and _chain_depth(y._node) <= 1
    z = x
    for _ in range(10001):
        z = z[::-1]
    assert len(z._vops) == 1 and _chain_depth(z._node) <= 1
    w = x.reshape(3, 4)
    for _ in range(1000):
        w = w.T[::-1]
    assert len(w._vops) == 1 and _chain_depth(w._node) <= 2
    m = x
    for _ in range(300):                 # mixed chains stay bounded too
        m = m.reshape(3, 4)[::-1].reshape(12)[1:][:-1]
        m = gp.concatenate([m[:1], m, m[-1:]]) if m.shape[0] < 12 else m
    x[0] = 100.0
    np.testing.assert_array_equal(y.get(), x.get())
    np.testing.assert_array_equal(z.get(), x.get()[::-1])
    ref = np.arange(12.0) * (2 if lazy else 1)
    ref[0] = 100.0
    np.testing.assert_array_equal(w.get(), ref.reshape(3, 4))


def test_views_of_lazy_roots_keep_aliasing():
    a = gp.zeros(6)
    v = a[::2]
    w = a.reshape(2, 3)
    a[0] = 5.0
    w[1, 1] = 7.0
    np.testing.assert_array_equal(v.get(), [5, 0, 7])
    b = gp.arange(6.0) * 1
    v = b[1:]
    c = gp.concatenate([v, v])     # a barrier reads the view
    v[0] = -1.0
    np.testing.assert_array_equal(b.get(), [0, -1, 2, 3, 4, 5])
    np.testing.assert_array_equal(c.get(), [1, 2, 3, 4, 5] * 2)


def test_element_is_a_copy():
    a = gp.arange(3.0)
    e, view = a[1], a[1, ...]
    a[1] = 9.0
    assert float(e) == 1.0 and float(view) == 9.0
