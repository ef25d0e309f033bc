"""gnumpy.random's PCG64 (the default bit generator) against NumPy's own PCG64.

The uniform draws are NumPy's numbers for the same seed and state, bit for bit, and leave
NumPy's state (the buffered 32-bit half included); the raw words are NumPy's
``random_raw`` words and buffered 32-bit halves; the other draws are their transform
(``_transforms``) of exactly those words.  The CUDA draw kernel's source is also built
with g++ (CUDA's built-ins emulated) and run through the backend's launch code, thread by
thread, against the CPU backend: the same words on both backends.
"""
from __future__ import annotations

import ctypes
import warnings

import numpy as np
import pytest

import cuda_host
import gnumpy as gp
from gnumpy.random import _pcg64
from gnumpy.random import _pcg_host as H
from gnumpy.random import _transforms as T
from gnumpy.random import _ziggurat as zig
from gnumpy.kernels import render_ziggurat as Z

M32 = 0xFFFFFFFF


def _pair(seed):
    return gp.random.default_rng(seed), np.random.default_rng(seed)


UNIFORM = [
    lambda r: r.random(5), lambda r: r.random(3, dtype=np.float32),
    lambda r: r.random(4, dtype=np.float32), lambda r: r.uniform(-1.0, 3.0, 7),
    lambda r: r.random((2, 3)), lambda r: r.random(1, dtype=np.float32),
    lambda r: r.random(), lambda r: r.random(70001), lambda r: r.uniform(2.5, 1e6, 9001),
    lambda r: r.random(9001, dtype=np.float32), lambda r: r.random((0, 3)),
    lambda r: r.uniform(size=4), lambda r: r.random(2, dtype=np.float32),
]


@pytest.mark.parametrize("seed", [0, 7, 2 ** 40 + 3, [1, 2, 3]])
def test_uniform_draws_are_numpys(seed):
    g, n = _pair(seed)
    for f in UNIFORM:
        a, b = f(g), f(n)
        assert a.dtype == np.asarray(b).dtype and a.shape == np.shape(b)
        assert a.get().tobytes() == np.asarray(b).tobytes()
        assert g.bit_generator.state == n.bit_generator.state


def test_raw_words_are_numpys():
    g, n = _pair(11)
    bg, nb = g.bit_generator, n.bit_generator
    np.testing.assert_array_equal(bg.random_raw(1001).get(), nb.random_raw(1001))
    assert bg.state == nb.state
    # 32-bit words: NumPy's buffered next_uint32, low half first, one half kept over
    for k in (3, 1, 4, 2, 5):
        np.testing.assert_array_equal(bg.random_raw(k, dtype=np.uint32).get(),
                                      n.integers(0, 2 ** 32, k, dtype=np.uint32))
        assert bg.state == nb.state
    # a 64-bit draw leaves the buffered half in place
    np.testing.assert_array_equal(bg.random_raw((2, 3)).get(), nb.random_raw(6).reshape(2, 3))
    assert bg.state == nb.state and bg.state["has_uint32"] == 1
    assert bg.random_raw().shape == ()


def _words(nb, k):
    return nb.random_raw(k)


def test_other_draws_transform_numpys_words():
    # the draws beyond uniform apply their transform (T) to NumPy's words, in order
    g, n = _pair(5)
    nb = n.bit_generator
    st = nb.state["state"]
    w = _words(nb, 3000)
    key = Z.side_key(st["state"], st["inc"])
    np.testing.assert_allclose(g.standard_normal(3000).get(), zig.normal(w, 0, key, np.float64),
                               rtol=1e-12, atol=1e-13)
    # integers in a range up to 2**32: NumPy's own method on the same 32-bit words (the
    # same numbers until a word is rejected, about 6 in 2**32 here)
    np.testing.assert_array_equal(g.integers(-3, 7, size=200).get(), n.integers(-3, 7, 200))
    w = _words(nb, 2 * 50).reshape(2, 50)
    np.testing.assert_array_equal(g.integers(0, 3 * 2 ** 61, size=50).get(),
                                  T.below(w, 3 * 2 ** 61).astype(np.int64))
    w = _words(nb, 77)
    np.testing.assert_allclose(g.exponential(2.0, 77).get(),
                               2.0 * T.standard_exponential(w, np.float64), rtol=1e-13)
    assert g.bit_generator.state == nb.state
    # 32-bit words through the buffer: a float32 normal after an odd float32 draw
    g.random(3, dtype=np.float32)
    n.random(3, dtype=np.float32)
    st = nb.state["state"]
    w32 = n.integers(0, 2 ** 32, 4001, dtype=np.uint32)
    np.testing.assert_allclose(g.standard_normal(4001, dtype=np.float32).get(),
                               zig.normal(w32, 0, Z.side_key(st["state"], st["inc"]),
                                          np.float32), rtol=1e-6, atol=1e-6)
    assert g.bit_generator.state == nb.state


@pytest.mark.parametrize("lo, hi, dtype", [(0, 1000, np.int64), (-5, 100, np.int64),
                                           (0, 10, np.int32), (3, 2 ** 32, np.uint32),
                                           (7, 2 ** 32 + 7, np.uint64), (-2 ** 31, 2 ** 31,
                                                                        np.int64)])
def test_bounded_integers_are_numpys(lo, hi, dtype):
    # NumPy's Lemire method on the same 32-bit words: its numbers and state while no word is
    # rejected (these seeds and ranges reject none)
    g, n = _pair(21)
    for size in (5, 3, 40001):
        np.testing.assert_array_equal(g.integers(lo, hi, size, dtype=dtype).get(),
                                      n.integers(lo, hi, size, dtype=dtype))
        assert g.bit_generator.state == n.bit_generator.state


def test_numpys_integers_only_when_it_rejected_nothing(monkeypatch):
    # the CPU backend calls NumPy's integers first and keeps its numbers only when the
    # state after it shows no rejected word: a range rejecting a quarter of the words, one
    # draw a seed, against the draws made without NumPy
    def draws(seeds):
        out = []
        for seed in seeds:
            g = gp.random.default_rng(seed)
            out.append((g.integers(5, 5 + 3 * 2 ** 30, size=1).get().tolist(),
                        g.integers(0, 7, size=(2, 3), dtype=np.int32).get().tolist(),
                        g.bit_generator.state))
        return out
    seeds = range(40)
    a = draws(seeds)
    monkeypatch.setattr(H, "_numpy_integers", lambda *args: None)
    assert draws(seeds) == a
    rejected = [s for s, (x, _, _) in zip(seeds, a)
                if x != np.random.default_rng(s).integers(5, 5 + 3 * 2 ** 30, 1).tolist()]
    assert 3 <= len(rejected) <= 25             # (a quarter of 40, by the side stream)


def test_bounded_integers_reject_like_lemire():
    # r = 3 * 2**30 rejects a quarter of the words; without the rejection v % 3 would be 0
    # twice as often as 1 or 2 (one output in three has two preimages)
    n = 300_000
    r = 3 * 2 ** 30
    v = gp.random.default_rng(8).integers(0, r, n).get()
    assert v.min() >= 0 and v.max() < r
    c = np.bincount(v % 3, minlength=3)
    chi2 = ((c - n / 3) ** 2 / (n / 3)).sum()
    assert chi2 < 20, c                         # 2 degrees of freedom
    q = np.bincount(v // 2 ** 28, minlength=12)             # and even over the range
    assert ((q - n / 12) ** 2 / (n / 12)).sum() < 40, q


def test_state_api_like_numpys():
    g, n = _pair(3)
    bg, nb = g.bit_generator, n.bit_generator
    assert bg.state == nb.state and repr(g) == "Generator(PCG64)"
    st = bg.state
    a = g.random(8).get()
    bg.state = st
    np.testing.assert_array_equal(g.random(8).get(), a)
    assert bg.advance(12345) is bg
    nb.random_raw(8)
    nb.advance(12345)
    assert bg.state == nb.state
    assert bg.jumped(3).state == nb.jumped(3).state
    kids, nkids = bg.spawn(2), nb.spawn(2)
    for k, nk in zip(kids, nkids):
        assert k.state == nk.state
    # from NumPy's bit generator or generator: its state, so the same numbers
    nb2 = np.random.PCG64(99)
    nb2.random_raw(3)
    for rng in (gp.random.Generator(nb2), gp.random.default_rng(np.random.Generator(nb2))):
        np.testing.assert_array_equal(rng.random(4).get(), _copy_random(nb2, 4))
    for bad, exc in (({"bit_generator": "MT19937", "state": {}}, ValueError),
                     ([1, 2], TypeError)):
        with pytest.raises(exc):
            bg.state = bad
    with pytest.raises(TypeError):
        bg.random_raw(3, dtype=np.int32)
    r = gp.random.RandomState(4)
    assert r.get_state()["bit_generator"] == "PCG64"


@pytest.mark.parametrize("flag", [2, 5])
def test_any_nonzero_buffer_flag_is_numpys(flag):
    # NumPy keeps any has_uint32 it is given and takes a nonzero one as a buffered half
    st = np.random.PCG64(0).state
    st["has_uint32"], st["uinteger"] = flag, 7
    nb, bg = np.random.PCG64(0), gp.random.PCG64(0)
    nb.state = st
    bg.state = st
    assert bg.state == nb.state
    g, n = gp.random.Generator(bg), np.random.Generator(nb)
    for f in (lambda r: r.random(2), lambda r: r.random(3, dtype=np.float32),
              lambda r: r.random(2, dtype=np.float32)):
        np.testing.assert_array_equal(f(g).get(), f(n))
        assert bg.state == nb.state


def test_numpys_argument_errors_and_out_order():
    g, n = _pair(1)
    for lo, hi in ((1e308, -1e308), (-1e308, 1e308), (2.0, 1.0)):
        with pytest.raises(Exception) as want:
            n.uniform(lo, hi)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(want.type, match=str(want.value)):
                g.uniform(lo, hi)
    with pytest.raises(TypeError):
        g.bit_generator.state = [1]
    with pytest.raises(ValueError):
        g.bit_generator.state = {"bit_generator": "MT19937"}
    # out= in Fortran order is filled in memory order, as NumPy fills it
    g2, n2 = _pair(4)
    for dt in (np.float64, np.float32):
        o, on = gp.zeros((3, 4), dtype=dt).T, np.zeros((3, 4), dtype=dt).T
        g2.random(out=o, dtype=dt)
        n2.random(out=on, dtype=dt)
        np.testing.assert_array_equal(o.get(), on)
    o = gp.zeros((5, 2)).T
    g2.standard_normal(out=o)
    assert o.shape == (2, 5) and np.isfinite(o.get()).all() and (o.get() != 0).all()


def _copy_random(nb, k):
    c = np.random.PCG64(0)
    c.state = nb.state
    return np.random.Generator(c).random(k)


@pytest.mark.parametrize("n", [1, 2, 3, 8191, 8193, 65537])
def test_cpu_chunks_and_parts(monkeypatch, n):
    # small chunks: the word streams cross many chunk ends (two parts: 128-bit integers;
    # 32-bit words from inside a word: float32 normals after an odd float32 draw)
    monkeypatch.setattr(H, "CHUNK", 24 if n < 8192 else 4096)
    monkeypatch.setattr(H, "ZIG_CHUNK", 24 if n < 8192 else 4096)
    monkeypatch.setattr(H, "FN_CHUNK", 10)
    g, nrng = _pair(17)
    nb = nrng.bit_generator
    g.random(1, dtype=np.float32)
    nrng.random(1, dtype=np.float32)
    st = nb.state["state"]
    w32 = nrng.integers(0, 2 ** 32, n, dtype=np.uint32)
    got = g.standard_normal(n, dtype=np.float32).get()
    np.testing.assert_array_equal(got, zig.normal(w32, 0, Z.side_key(st["state"], st["inc"]),
                                                  np.float32))
    st = nb.state["state"]
    w = nb.random_raw(n)
    np.testing.assert_array_equal(g.normal(1.5, 2.0, n).get(),
                                  1.5 + 2.0 * zig.normal(w, 0, Z.side_key(st["state"], st["inc"]),
                                                         np.float64))
    w = nb.random_raw(2 * n).reshape(2, n)
    r = 3 * 2 ** 61 + 5
    np.testing.assert_array_equal(g.integers(0, r, n, dtype=np.uint64).get(), T.below(w, r))
    assert g.bit_generator.state == nb.state


# ------------------------------------------------------------------ the CUDA kernel on the host

_CTYPES = {np.dtype(np.uint64): ctypes.c_uint64, np.dtype(np.uint32): ctypes.c_uint32,
           np.dtype(np.int64): ctypes.c_int64, np.dtype(np.int32): ctypes.c_int32,
           np.dtype(np.float64): ctypes.c_double, np.dtype(np.float32): ctypes.c_float}


class _HostDevice:
    """What ``random_ops._cuda_pcg`` asks of the CUDA backend, with the kernel's source run
    on the host: each launch runs every thread of the grid in turn."""
    sm_count = 1

    def _misc_kernel(self, key):
        return cuda_host.build(key.render("gn_kernel"), "pcg")

    def _go(self, lib, grid, block, args):
        fn = lib.gn_kernel
        cargs = [ctypes.c_void_p(a) if type(a) is int else _CTYPES[np.dtype(type(a))](a)
                 for a in args]
        for b in range(grid):
            for t in range(block):
                lib.gn_set(b, t, grid)
                fn(*cargs)


class _Buf:
    def __init__(self, arr):
        self.arr, self.ptr = arr, arr.ctypes.data


HOST_DRAWS = [            # (PCG64.draw's kinds: zig_normal, lemire_integers up to 2**32)
    ("raw", np.uint64, ()), ("raw", np.uint32, ()), ("random", np.float64, ()),
    ("random", np.float32, ()), ("random", np.float64, (-2.0, 5.0)),
    ("zig_normal", np.float32, ()), ("zig_normal", np.float64, (1.5, 2.0)),
    ("lemire_integers", np.int64, (1000, -7)), ("lemire_integers", np.int64, (2 ** 31 + 1, 0)),
    ("lemire_integers", np.uint32, (2 ** 32, 0)), ("integers", np.uint64, (3 * 2 ** 61, 0)),
    ("standard_exponential", np.float32, ()), ("standard_normal", np.float64, ()),
]


@pytest.mark.parametrize("kind, dtype, args", HOST_DRAWS)
@pytest.mark.parametrize("n, h", [(1, 0), (1, 1), (7, 1), (2053, 0), (2053, 1), (2054, 1)])
def test_cuda_kernel_source_on_host(kind, dtype, args, n, h):
    # n = 2053: more groups than one block of threads, so each thread strides the grid
    from gnumpy.backends import random_ops as RO
    nb = np.random.PCG64(1234)
    nb.random_raw(5)
    if h:
        np.random.Generator(nb).random(1, dtype=np.float32)    # a buffered half
    st = nb.state
    s, inc, hh, u = st["state"]["state"], st["state"]["inc"], st["has_uint32"], st["uinteger"]
    assert hh == h
    prog = T.draw_program(kind, dtype, args, gp.asarray(0).device, "pcg64")
    plan = T.draw_plan(kind, dtype, args)
    arg = (s, inc, hh, u, kind, (n,), np.dtype(dtype), args, prog)
    want = H.draw(*arg[:8])
    got = np.full(n + 1, 7, plan.dtype)         # one element past the end: not written
    node = type("N", (), {"arg": arg})()
    RO._cuda_pcg(_HostDevice(), node, _Buf(got))
    if kind in ("standard_normal", "standard_exponential", "zig_normal"):   # glibc's libm
        tol = 1e-12 if plan.dtype == np.float64 else 2e-6
        np.testing.assert_allclose(got[:n], want, rtol=tol, atol=tol)
    else:
        assert got[:n].tobytes() == want.tobytes()
    assert got[n] == 7


def test_pcg_kernel_compiles_with_nvrtc():
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC needed")
    from gnumpy.kernels.compile import compile_cubin
    for kind, dtype, args in HOST_DRAWS:
        prog = T.draw_program(kind, dtype, args, gp.asarray(0).device, "pcg64")
        cubin, _ = compile_cubin(prog.key.render("gn_kernel"), "90")
        assert len(cubin) > 0


def test_output_function_is_numpys():
    nb = np.random.PCG64(8)
    s = nb.state["state"]
    x = nb.random_raw(3)
    mult = 0x2360ED051FC65DA44385DF649FCCF645
    st = s["state"]
    mine = []
    for _ in range(3):
        st = (st * mult + s["inc"]) % 2 ** 128
        mine.append(_pcg64.output(st))
    assert mine == [int(v) for v in x]
