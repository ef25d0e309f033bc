"""A write's scan of the pending arrays (``readers.flush_readers``) examines only the arrays
made or changed since the last write into the same memory (``readers._MARKS``), and every
pending array still keeps the values it had when it was made: random programs of many
lazy results and interleaved writes (more written arrays than marks, views, in-place
updates, ``out=``), checked against NumPy.  Nothing here times anything."""
from __future__ import annotations

import numpy as np
import pytest

import gnumpy as gp
from gnumpy._graph import readers as RD


def test_a_loop_of_writes_examines_only_new_arrays(monkeypatch):
    seen = []
    real = RD._to_examine

    def spy(bid, since):
        keys = real(bid, since)
        seen.append(len(keys))
        return keys

    monkeypatch.setattr(RD, "_to_examine", spy)
    n = 600
    a, b = gp.zeros(n), gp.asarray(np.arange(100.0))
    an, bn = np.zeros(n), np.arange(100.0)
    outs, refs = [], []
    for i in range(n):
        a[i] = i                # (the lazy results kept do not read a: they stay pending)
        an[i] = i
        outs.append(b * i + 1.0)
        refs.append(bn * i + 1.0)
    assert len(seen) >= n - 100 and max(seen[-400:]) <= 8, max(seen[-400:])
    np.testing.assert_array_equal(a.get(), an)
    for x, y in zip(outs[::37], refs[::37]):
        np.testing.assert_array_equal(x.get(), y)


def _program(seed, xp, steps=120, nbuf=11):
    """A random program over `nbuf` arrays: lazy results kept (and some dropped), writes
    into elements, slices and views, in-place updates of kept results, ``out=``; returns
    every array it kept, in order."""
    rng = np.random.default_rng(seed)
    bufs = [xp.asarray(np.arange(8.0) * (k + 1)) for k in range(nbuf)]
    kept = []
    for _ in range(steps):
        op = rng.integers(0, 7)
        i, j = (int(v) for v in rng.integers(0, nbuf, 2))
        if op == 0:
            kept.append(bufs[i] * 2.0 + bufs[j])
        elif op == 1:
            bufs[i][int(rng.integers(0, 8))] = float(rng.integers(-5, 5))
        elif op == 2:
            bufs[i][2:6] = bufs[j][1:5] + 1.0
        elif op == 3 and kept:
            k = int(rng.integers(0, len(kept)))
            kept[k] += bufs[i][:kept[k].shape[0]]
        elif op == 4:
            v = bufs[i][::2]
            v *= 3.0
        elif op == 5:
            xp.add(bufs[i], bufs[j], out=bufs[(i + 1) % nbuf])
        elif op == 6 and kept:
            kept.pop(int(rng.integers(0, len(kept))))
        if rng.random() < 0.2:
            kept.append(bufs[j][1:7] - bufs[i][:6])
    return [np.asarray(k.get() if hasattr(k, "get") else k) for k in kept + bufs]


@pytest.fixture
def marks_always(monkeypatch):
    """Scans use marks whatever the number of pending arrays (they start at 64)."""
    monkeypatch.setattr(RD, "_MARK_FROM", 0)


@pytest.mark.parametrize("seed", range(12))
def test_random_programs_keep_numpys_values(marks_always, seed):
    got = _program(seed, gp)
    want = _program(seed, np)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_a_failed_flush_leaves_the_next_scan_whole(marks_always, monkeypatch):
    # a write whose readers' flush raises leaves them pending: the next write into the
    # memory still finds and materializes them
    a = gp.asarray(np.arange(6.0))
    r = a * 2.0
    real = RD._flush

    def fail(*args):
        raise MemoryError("out of memory (test)")

    monkeypatch.setattr(RD, "_flush", fail)
    with pytest.raises(MemoryError):
        a[1] = 100.0
    monkeypatch.setattr(RD, "_flush", real)
    a[2] = 50.0
    np.testing.assert_array_equal(r.get(), np.arange(6.0) * 2.0)


def test_operands_left_by_one_scan_are_examined_by_the_next(marks_always):
    # the write's own operands (`skip`, `also`) are left by its scan only: the next write
    # into the memory examines them
    a = gp.asarray(np.arange(6.0))
    r = a * 2.0
    b = gp.asarray(np.ones(6))
    s = b + 1.0
    RD.flush_readers(a._leaf().buf, skip=r)
    assert r._node.lazy
    RD.flush_readers(a._leaf().buf, also=s)
    assert not r._node.lazy
    np.testing.assert_array_equal(r.get(), np.arange(6.0) * 2.0)


def test_a_realization_into_written_memory_renews_the_scan(marks_always):
    # a kept value written into memory (its node computed there) makes the arrays built
    # on it read that memory: the next write into it examines them again
    for write in (lambda c, t: c.__setitem__(slice(None), t),
                  lambda c, t: c.__setitem__(slice(1, 3), t[1:3])):
        x = gp.asarray(np.arange(4.0))
        c = gp.zeros(4)
        c[0] = 5.0
        t = x * 2.0
        p = t + 1.0
        q = t[1:3] * 3.0
        write(c, t)
        c[1] = 100.0
        c[2] = -1.0
        np.testing.assert_array_equal(p.get(), np.arange(4.0) * 2.0 + 1.0)
        np.testing.assert_array_equal(q.get(), np.arange(4.0)[1:3] * 6.0)
        np.testing.assert_array_equal(t.get(), np.arange(4.0) * 2.0)


def test_a_lazy_array_made_by_another_thread_during_a_scan(marks_always):
    # track() takes no lock: a thread may add an entry while a write walks _pending back
    # to its sentinel; the walk falls back to a full scan instead of raising
    import sys
    import threading
    a, b = gp.asarray(np.zeros(4)), gp.asarray(np.ones(4))
    keep = [b * float(i) for i in range(70)]
    a[0] = 1.0
    more = [b + float(i) for i in range(3)]
    made = []
    code = RD._to_examine.__code__

    def tracer(frame, event, arg):
        if frame.f_code is not code:
            return None

        def local(frame, event, arg):
            if event == "line" and not made and "it" in frame.f_locals:   # (in the walk)
                th = threading.Thread(target=lambda: made.append(b * 5.0))
                th.start()
                th.join()
            return local
        return local

    sys.settrace(tracer)
    try:
        a[1] = 2.0
    finally:
        sys.settrace(None)
    assert made
    np.testing.assert_array_equal(a.get(), [1.0, 2.0, 0.0, 0.0])
    np.testing.assert_array_equal(keep[3].get(), np.full(4, 3.0))
    np.testing.assert_array_equal(more[2].get(), np.full(4, 3.0))


def test_a_lazy_array_made_by_another_thread_during_a_scan_is_examined_later(marks_always,
                                                                            monkeypatch):
    # an array made while a write scans (after the scan took its keys) comes after the
    # write's sentinel: the next write into the same memory materializes it first
    import threading
    a, b = gp.asarray(np.zeros(4)), gp.asarray(np.ones(4))
    keep = [b * float(i) for i in range(70)]
    a[0] = 1.0
    box, real = [], RD.read_set

    def hook(n):
        if not box:
            th = threading.Thread(target=lambda: box.append(a * 1.0))
            th.start()
            th.join()
        return real(n)

    monkeypatch.setattr(RD, "read_set", hook)
    t = b * 2.0                 # (a new pending array: the scan reads its set)
    a[1] = 2.0
    monkeypatch.setattr(RD, "read_set", real)
    assert box
    a[2] = 3.0
    got = box[0].get()
    assert got.tolist() in ([1.0, 0.0, 0.0, 0.0], [1.0, 2.0, 0.0, 0.0]), got
    np.testing.assert_array_equal(t.get(), np.full(4, 2.0))
    np.testing.assert_array_equal(keep[5].get(), np.full(4, 5.0))
