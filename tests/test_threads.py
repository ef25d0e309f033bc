"""Threads: whatever is correct under NumPy with threads is correct under gnumpy.

Independent arrays per thread, disjoint writes into one array, and readers beside a writer
(each read equals the array at some point of the writer's serial history).  Assertions on
values only, never on times.
"""
import subprocess
import sys
import threading

import numpy as np

import gnumpy as gp

THREADS = 8


def _run(target, n=THREADS):
    errors = []

    def wrap(t):
        try:
            target(t)
        except BaseException as e:      # noqa: BLE001 - reported below, with the thread
            errors.append((t, repr(e)))
    ts = [threading.Thread(target=wrap, args=(t,)) for t in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == []


def test_independent_arrays_per_thread():
    """Each thread: y = x*2 + 1 (lazy), then a write into x; y keeps the values it had."""
    wrong = []

    def work(t):
        x = gp.asarray(np.arange(64.0) + t)
        xn = np.arange(64.0) + t
        for _ in range(150):
            y = x * 2 + 1
            yn = xn * 2 + 1
            x[::2] = -x[1::2]
            xn[::2] = -xn[1::2]
            if not np.array_equal(y.get(), yn):
                wrong.append(t)
            x = gp.asarray(xn)
    _run(work)
    assert wrong == []


def test_masked_updates_per_thread():
    """Each thread runs a mandelbrot-like masked update on its own arrays, with its own
    masks (the last mask's offsets are shared state): every thread gets NumPy's values."""
    wrong = []

    def work(t):
        cn = np.linspace(-2.0, 1.0, 50) + (0.1 * t) * 1j
        zn = np.zeros(50, np.complex128)
        z, c = gp.asarray(zn), gp.asarray(cn)
        for _ in range(25):
            In = np.abs(zn) < 2.0
            I = gp.abs(z) < 2.0
            z[I] = z[I] ** 2 + c[I]
            zn[In] = zn[In] ** 2 + cn[In]
            w = c[I]                            # the same mask once more
            if not np.allclose(w.get(), cn[In]):
                wrong.append(t)
        if not np.allclose(z.get(), zn, equal_nan=True):
            wrong.append(t)
    _run(work)
    assert wrong == []


def test_disjoint_slices_of_one_array():
    """Eight threads each add 1 to their own interleaved slice, many times: no update is
    lost and no thread dies."""
    x = gp.zeros(64)
    iters = 150

    def work(t):
        for _ in range(iters):
            x[t::THREADS] = x[t::THREADS] + 1
    _run(work)
    np.testing.assert_array_equal(x.get(), np.full(64, float(iters)))


def test_in_place_writer_with_readers():
    """One thread adds 1 to every element (x += 1 on a view: a write); seven read sums.
    Every sum a reader sees is 64 * k for some k the writer reached."""
    x = gp.zeros(64)
    v = x[:]
    iters = 200
    seen = []

    def work(t):
        if t == 0:
            for _ in range(iters):
                v[...] += 1
        else:
            for _ in range(60):
                seen.append(float(x.sum()))
    _run(work)
    np.testing.assert_array_equal(x.get(), np.full(64, float(iters)))
    assert all(s % 64 == 0 and 0 <= s <= 64 * iters for s in seen)


def test_lazy_root_writer_with_readers():
    """A writer rebinding a lazy root (x += 1 builds a chain) beside readers of x."""
    box = {"x": gp.zeros(16)}
    seen = []

    def work(t):
        if t == 0:
            x = box["x"]
            for _ in range(200):
                x += 1
            box["x"] = x
        else:
            for _ in range(60):
                seen.append(float(box["x"].sum()))
    _run(work)
    assert float(box["x"].sum()) == 16 * 200
    assert all(s % 16 == 0 for s in seen)


def test_concurrent_first_use_in_a_fresh_process():
    """Lazy loading under concurrent first use: threads call sort, cumsum, fft, linalg and
    random for the first time at once in a fresh interpreter."""
    code = r"""
import threading, numpy as np, gnumpy as gp
errs = []
def f(k):
    try:
        a = gp.asarray(np.arange(32.0)[::-1].copy())
        r = [gp.sort(a), gp.cumsum(a), gp.fft.fft(a).real, gp.linalg.norm(a) + a,
             gp.random.default_rng(k).random(4)]
        for x in r:
            x.get()
    except BaseException as e:
        errs.append(repr(e))
ts = [threading.Thread(target=f, args=(k,)) for k in range(8)]
[t.start() for t in ts]; [t.join() for t in ts]
print("ERRORS", errs)
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "ERRORS []" in r.stdout, r.stdout[-2000:]
