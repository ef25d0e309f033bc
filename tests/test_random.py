"""gnumpy.random: Philox4x32-10 bits, transforms, the Generator / RandomState / module API.

* the bits: Random123's known-answer vectors through the public path (on a GPU this runs
  the CUDA kernel), an independent scalar Philox over random keys and counters (128-bit
  carries, wraparound, uint64 layout, odd sizes), and the CUDA kernel's own source built
  with g++ on the host (grid-stride loop, vector and scalar stores);
* streams: a seeded generator's numbers recomputed from its state with NumPy (so the CPU
  and CUDA backends give the same numbers), reproducibility, independence, counter advance;
* every function's shapes and dtypes for each ``size`` form against NumPy's Generator,
  parameters as scalars, lists, NumPy and gnumpy arrays (strided too), ``out=``;
* statistics on 10**5 samples with loose bounds (moments, buckets, ranges);
* errors: the exception type NumPy raises for the same call, raised at the call.

Streams differ from NumPy's by design, so values are never compared with NumPy's.
"""
import ctypes
import math
import warnings

import numpy as np
import pytest
from numpy.exceptions import AxisError

import cuda_host
import gnumpy as gp
from gnumpy.backends.random_ops import philox_words
from gnumpy.kernels import render_random as RR

N = 100_000
M32 = 0xFFFFFFFF

# Random123 kat_vectors: philox4x32 10 (counter words c0..c3, key words k0 k1 -> output)
KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8)),
    ((M32,) * 4, (M32, M32), (0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd)),
    ((0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344), (0xa4093822, 0x299f31d0),
     (0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1)),
]


def _ctr(words):
    return sum(w << (32 * i) for i, w in enumerate(words))


def _philox_ref(key, counter):
    """Scalar Philox4x32-10 written from the paper (independent of the vectorized code)."""
    c = [(counter >> (32 * i)) & M32 for i in range(4)]
    k = [key & M32, key >> 32]
    for r in range(10):
        if r:
            k = [(k[0] + 0x9E3779B9) & M32, (k[1] + 0xBB67AE85) & M32]
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & M32, (p0 >> 32) ^ c[3] ^ k[1], p0 & M32]
    return c


def _stream_ref(key, counter, nwords):
    out = []
    b = 0
    while len(out) < nwords:
        out.extend(_philox_ref(key, (counter + b) % (1 << 128)))
        b += 1
    return np.array(out[:nwords], dtype=np.uint32)


def _words64(w32):
    return w32[0::2].astype(np.uint64) | (w32[1::2].astype(np.uint64) << np.uint64(32))


# ------------------------------------------------------------------ the bits

@pytest.mark.parametrize("ctr,key,expected", KAT)
def test_known_answers(ctr, key, expected):
    k = key[0] | (key[1] << 32)
    c = _ctr(ctr)
    assert philox_words(k, c, 4).tolist() == list(expected)
    assert _philox_ref(k, c) == list(expected)
    # through the public path: the backend's random_bits (the CUDA kernel on a GPU)
    bg = gp.random.Philox(key=k, counter=c)
    r = bg.random_raw(4, dtype=np.uint32)
    assert isinstance(r, gp.ndarray) and r.dtype == np.uint32
    assert r.get().tolist() == list(expected)
    assert bg.state["state"]["counter"] == (c + 1) % (1 << 128)
    # the uint64 view of the same stream: low word first
    r64 = gp.random.Philox(key=k, counter=c).random_raw(2).get()
    assert r64.tolist() == _words64(np.array(expected, np.uint32)).tolist()


@pytest.mark.parametrize("n", [0, 1, 3, 4, 5, 17, 1000])
def test_bits_match_reference(n):
    rng = np.random.default_rng(n)
    for counter in (int(rng.integers(0, 2 ** 63)) | (int(rng.integers(0, 2 ** 63)) << 64),
                    (1 << 64) - 2,                   # carries into the high 64 bits
                    (1 << 128) - 1):                 # wraps around
        key = int(rng.integers(0, 2 ** 63)) * 2 + 1
        exp = _stream_ref(key, counter, n)
        got = gp.random.Philox(key=key, counter=counter).random_raw(n, dtype=np.uint32)
        np.testing.assert_array_equal(got.get(), exp)
        exp64 = _stream_ref(key, counter, 2 * n)
        got64 = gp.random.Philox(key=key, counter=counter).random_raw((n,))
        assert got64.dtype == np.uint64
        np.testing.assert_array_equal(got64.get(), _words64(exp64))


def test_bits_shapes_and_advance():
    bg = gp.random.Philox(key=5, counter=0)
    a = bg.random_raw((3, 5), dtype=np.uint32)      # 15 words: 4 blocks
    assert a.shape == (3, 5) and bg.state["state"]["counter"] == 4
    b = bg.random_raw((2, 3))                       # 12 words: 3 blocks
    assert b.shape == (2, 3) and bg.state["state"]["counter"] == 7
    assert bg.random_raw().shape == ()
    np.testing.assert_array_equal(a.get().reshape(-1), _stream_ref(5, 0, 15))
    np.testing.assert_array_equal(b.get().reshape(-1), _words64(_stream_ref(5, 4, 12)))


@pytest.fixture(scope="module")
def host_kernel():
    """The CUDA kernel's source built with g++, CUDA's built-ins emulated."""
    src = RR.philox_source(RR.BLOCK, name="gn_philox") + f"""
extern "C" void run(unsigned* out, unsigned long long n, unsigned long long lo,
                    unsigned long long hi, unsigned k0, unsigned k1, unsigned grid) {{
  gridDim.x = grid;
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned t = 0; t < {RR.BLOCK}; ++t) {{
      blockIdx.x = b; threadIdx.x = t; gn_philox(out, n, lo, hi, k0, k1);
    }}
}}
"""
    f = cuda_host.build(src, "philox").run
    f.argtypes = [ctypes.c_void_p, ctypes.c_ulonglong, ctypes.c_ulonglong, ctypes.c_ulonglong,
                  ctypes.c_uint, ctypes.c_uint, ctypes.c_uint]
    return f


@pytest.mark.parametrize("nwords,grid,offset", [(4, 1, 0), (4099, 2, 0), (4099, 2, 1),
                                                 (1, 1, 0), (3000, 1, 3)])
def test_cuda_kernel_source_on_host(host_kernel, nwords, grid, offset):
    key, counter = 0x0123456789ABCDEF, (1 << 64) - 3
    buf = np.zeros(nwords + offset + 1, dtype=np.uint32)
    out = buf[offset:]                       # offset 1 and 3: not 16-byte aligned
    host_kernel(out.ctypes.data, nwords, counter & ((1 << 64) - 1), counter >> 64,
                key & M32, key >> 32, grid)
    np.testing.assert_array_equal(out[:nwords], philox_words(key, counter, nwords))
    assert out[nwords] == 0                  # nothing written past the end


def test_kernel_compiles_with_nvrtc():
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC needed")
    from gnumpy.kernels.compile import compile_cubin
    cubin, _ = compile_cubin(RR.philox_source(name="gn_kernel"), "90")
    assert len(cubin) > 0


# ------------------------------------------------------------------ streams

def _state(rng):
    st = rng.bit_generator.state["state"]
    return st["key"], st["counter"]


def _philox_rng(seed):
    return gp.random.Generator(gp.random.Philox(seed))


def test_seeded_stream_recomputed_with_numpy():
    # the numbers follow from the state alone: the same on the CPU and CUDA backends
    rng = _philox_rng(2024)
    key, ctr = _state(rng)
    w = _words64(philox_words(key, ctr, 2 * 1000))
    np.testing.assert_array_equal(rng.random(1000).get(),
                                  (w >> np.uint64(11)).astype(np.float64) * 2.0 ** -53)
    key, ctr = _state(rng)
    w32 = philox_words(key, ctr, 1000)
    np.testing.assert_array_equal(rng.random(1000, dtype=np.float32).get(),
                                  (w32 >> np.uint32(8)).astype(np.float32) *
                                  np.float32(2.0 ** -24))
    key, ctr = _state(rng)
    w = _words64(philox_words(key, ctr, 2 * 2 * 500)).reshape(2, 500)
    u1 = ((w[0] >> np.uint64(11)) + np.uint64(1)).astype(np.float64) * 2.0 ** -53
    u2 = (w[1] >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
    z = np.sqrt(-2.0 * np.log(u1)) * np.cos(2 * np.pi * u2)
    np.testing.assert_allclose(rng.standard_normal(500).get(), z, rtol=1e-12, atol=1e-13)
    key, ctr = _state(rng)
    w = _words64(philox_words(key, ctr, 2 * 300))
    exp = (((w >> np.uint64(32)) * np.uint64(10) +
            (((w & np.uint64(M32)) * np.uint64(10)) >> np.uint64(32))) >> np.uint64(32))
    np.testing.assert_array_equal(rng.integers(-3, 7, size=300).get(), exp.astype(np.int64) - 3)


RANGES = [2, 3, 10, 255, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 3 * 2 ** 61, 2 ** 63 + 1,
          2 ** 64 - 1, 2 ** 64]


@pytest.mark.parametrize("r", RANGES)
def test_bounded_integers_exact(r):
    # Lemire's multiply-shift in uint64 ops (64- or 128-bit products) against Python ints
    from gnumpy.random import _transforms as T
    n = 300
    key, ctr = 0xDEADBEEF12345678, (1 << 64) - 7
    bg = gp.random.Philox(key=key, counter=ctr)
    wide = T.wide(r)
    got = T.below(bg.bits((2, n) if wide else (n,), np.uint64), r).get()
    w = _words64(philox_words(key, ctr, 4 * n if wide else 2 * n)).tolist()
    if wide:
        exp = [((xh << 64 | xl) * r) >> 128 for xh, xl in zip(w[:n], w[n:])]
    else:
        exp = [(x * r) >> 64 for x in w]
    assert got.dtype == np.uint64 and got.tolist() == exp
    # the array form (a uint64 range per element; 0 stands for 2**64)
    bg = gp.random.Philox(key=key, counter=ctr)
    rr = gp.asarray(np.array([r % 2 ** 64] * n, dtype=np.uint64))
    small = r <= 2 ** 32
    got = T.below_array(bg.bits((n,) if small else (2, n), np.uint64), rr, small).get()
    w = _words64(philox_words(key, ctr, 2 * n if small else 4 * n)).tolist()
    if small:
        exp = [(x * r) >> 64 for x in w]
    else:
        exp = [((xh << 64 | xl) * r) >> 128 for xh, xl in zip(w[:n], w[n:])]
    assert got.tolist() == exp


def _draws(rng):
    return [rng.random(7), rng.random(7, dtype=np.float32), rng.standard_normal((2, 3)),
            rng.normal(1, 2, 5), rng.integers(0, 100, 9), rng.integers(0, 2 ** 40, 3),
            rng.exponential(2.0, 4), rng.uniform(-1, 1, 3), rng.gumbel(size=3)]


def test_same_seed_same_numbers():
    a = [x.get() for x in _draws(gp.random.default_rng(123))]
    b = [x.get() for x in _draws(gp.random.default_rng(123))]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    ss = np.random.SeedSequence(123)
    c = [x.get() for x in _draws(gp.random.default_rng(ss))]
    for x, y in zip(a, c):
        np.testing.assert_array_equal(x, y)


def test_different_seeds_and_calls_differ():
    r1, r2 = gp.random.default_rng(1), gp.random.default_rng(2)
    a, b = r1.random(64).get(), r2.random(64).get()
    assert not np.array_equal(a, b)
    assert not np.array_equal(a, r1.random(64).get())       # consecutive calls
    c1, c2 = gp.random.default_rng(1).spawn(2)
    assert not np.array_equal(c1.random(64).get(), c2.random(64).get())
    assert not np.array_equal(gp.random.default_rng().random(64).get(),
                              gp.random.default_rng().random(64).get())   # fresh entropy


def test_counter_advances_by_blocks_used():
    rng = _philox_rng(9)
    _, c0 = _state(rng)
    rng.random(10)              # 10 uint64 = 20 words = 5 blocks
    assert _state(rng)[1] == c0 + 5
    rng.random(3, dtype=np.float32)         # 3 words = 1 block
    assert _state(rng)[1] == c0 + 6
    rng.standard_normal(4)                  # 2 x 4 uint64 = 16 words = 4 blocks
    assert _state(rng)[1] == c0 + 10


def test_state_roundtrip_and_jump():
    rng = _philox_rng(5)
    st = rng.bit_generator.state
    a = rng.random(8).get()
    rng.bit_generator.state = st
    np.testing.assert_array_equal(rng.random(8).get(), a)
    j = rng.bit_generator.jumped()
    assert j.state["state"]["counter"] == (st["state"]["counter"] + 2 ** 64 + 4) % 2 ** 128
    with pytest.raises(ValueError):
        rng.bit_generator.state = {"bit_generator": "MT19937", "state": {}}
    with pytest.raises(ValueError):
        gp.random.Philox(1, key=3)
    assert gp.random.default_rng(rng) is rng
    assert isinstance(gp.random.Generator(np.random.PCG64(3)).bit_generator, gp.random.PCG64)


@pytest.mark.parametrize("seed", [-1, 1.5, "a", [1, -2]])
def test_bad_seeds_like_numpy(seed):
    try:
        np.random.default_rng(seed)
    except Exception as e:        # noqa: BLE001
        exc = type(e)
    with pytest.raises(exc):
        gp.random.default_rng(seed)


def test_lazy_and_fused():
    rng = gp.random.default_rng(0)
    x = rng.normal(size=1000)
    y = (x * 2.0 + 1.0).sum()
    gp.stats.reset()
    v = float(y)
    assert gp.stats.groups == 2          # the draw (Philox bits), then one fused reduction
    assert abs(v / 1000 - 1.0) < 0.3


# ------------------------------------------------------------------ pinned stream, CPU fast path

# default_rng(20240611) (PCG64): these draws, in this order.  The bits and the exact
# transforms (random, uniform, integers) are the same on every backend (random and uniform
# are NumPy's own numbers); the values through log, cos and sqrt are pinned exactly on the
# CPU backend and to a few ulp elsewhere.
PINNED = [
    (lambda r: r.random(3), True,
     ["0x1.8462725bcce0cp-3", "0x1.ffef228103be3p-1", "0x1.2c5ed13c903aep-1"]),
    (lambda r: r.random(3, dtype=np.float32), True,
     ["0x1.efd1da0000000p-1", "0x1.ab924a0000000p-1", "0x1.f3a3200000000p-3"]),
    (lambda r: r.standard_normal(3), False,
     ["-0x1.ca36adf6cf7e9p+0", "0x1.23477399699ecp-2", "-0x1.496a92b47513fp-2"]),
    (lambda r: r.standard_normal(3, dtype=np.float32), False,
     ["0x1.2e7ccc0000000p-1", "-0x1.4d411c0000000p-5", "-0x1.03201a0000000p+0"]),
    (lambda r: r.integers(0, 1000, 4), True, [359, 644, 271, 195]),
    (lambda r: r.integers(-2 ** 62, 2 ** 62, 3), True,
     [76711976555640047, 1635653106003004879, 2602920096388318020]),
    (lambda r: r.exponential(2.0, 3), False,
     ["0x1.40254582d45dcp+1", "0x1.deb9f89fdf6f6p-2", "0x1.ba6730ea62cf9p+0"]),
    (lambda r: r.uniform(-1, 3, 3), True,
     ["0x1.31a8c56795881p+1", "0x1.60ae94c593ac0p+0", "-0x1.7d7219e704cf0p-2"]),
    (lambda r: r.normal(1.5, 0.5, 3), False,
     ["0x1.edbb090d2afc2p+0", "0x1.9d494f2fbaeecp+0", "0x1.84744d4a0a212p+0"]),
]


def test_pinned_stream():
    # a faster implementation must not change a single bit of the stream
    rng = gp.random.default_rng(20240611)
    cpu = gp.asarray(0).device.kind == "cpu"
    for draw, exact, expected in PINNED:
        got = draw(rng).get()
        if got.dtype.kind == "f":
            exp = np.array([float.fromhex(v) for v in expected], dtype=got.dtype)
            if exact or cpu:
                assert [float(v).hex() for v in got] == [float(v).hex() for v in exp]
            else:
                tol = 1e-12 if got.itemsize == 8 else 1e-6
                np.testing.assert_allclose(got, exp, rtol=tol, atol=tol)
        else:
            assert got.tolist() == expected
    assert rng.bit_generator.state == {
        "bit_generator": "PCG64", "has_uint32": 0, "uinteger": 840612580,
        "state": {"state": 51475341213551198302295058739276397666,
                  "inc": 125678647535510250935334187538031713567}}


@pytest.fixture
def small_chunks(monkeypatch):
    """The CPU fast path with tiny chunks, so small draws cross many chunk boundaries."""
    from gnumpy.random import _host
    monkeypatch.setattr(_host, "CHUNK", 8)
    monkeypatch.setattr(_host, "DRAW_CHUNK", 24)
    monkeypatch.setattr(_host, "FN_CHUNK", 10)


@pytest.mark.parametrize("counter", [5, (1 << 32) - 37, (1 << 64) - 50, (1 << 128) - 60])
def test_cpu_philox_chunks(small_chunks, counter):
    from gnumpy.random import _host
    key = 0x0123456789ABCDEF
    for nwords in (0, 3, 4, 97, 403):
        np.testing.assert_array_equal(_host.philox_words(key, counter, nwords),
                                      _stream_ref(key, counter, nwords))
    got = _host.bits(key, counter, (3, 67), np.uint64)
    np.testing.assert_array_equal(got.reshape(-1), _words64(_stream_ref(key, counter, 402)))


FUSED_DRAWS = [
    lambda r: r.random(301), lambda r: r.random((7, 43), dtype=np.float32),
    lambda r: r.standard_normal(301), lambda r: r.standard_normal(299, dtype=np.float32),
    lambda r: r.normal(1.5, 2.5, 299), lambda r: r.uniform(-1, 3, 303),
    lambda r: r.exponential(2.0, 301),
    lambda r: r.standard_exponential(301, dtype=np.float32),
    lambda r: r.integers(0, 100, 303), lambda r: r.integers(-5, 2 ** 40, 301),
    lambda r: r.integers(0, 2 ** 63 + 5, 301, dtype=np.uint64),
    lambda r: r.integers(0, 1000, 301, dtype=np.int32),
    lambda r: r.integers(0, 2, 101, dtype=bool), lambda r: r.integers(0, 2 ** 20, 101),
    lambda r: r.integers(-2 ** 63, 2 ** 63 - 1, 77, endpoint=True),
    lambda r: r.laplace(size=301), lambda r: r.standard_cauchy(301),
    lambda r: r.gamma(2.0, size=301), lambda r: r.standard_normal((3, 0)),
    lambda r: r.standard_normal(5004, dtype=np.float32), lambda r: r.random(2051),
    lambda r: r.random(),
]


@pytest.mark.parametrize("k", range(len(FUSED_DRAWS)))
@pytest.mark.parametrize("counter", [3, (1 << 32) - 100, (1 << 128) - 200])
def test_fused_draws_equal_the_lazy_graph(small_chunks, monkeypatch, k, counter):
    # a draw is one fused barrier (the CPU backend's chunks, CUDA's draw kernel); the lazy
    # graph (random_bits and elementwise ops; on the CPU CI the kernels of both get
    # compiled) must give the same bits and leave the same state
    from gnumpy.random import _philox

    def run(fused):
        monkeypatch.setattr(_philox, "FUSED", fused)
        rng = gp.random.Generator(gp.random.Philox(key=0xDEADBEEF12345678, counter=counter))
        return FUSED_DRAWS[k](rng).get(), rng.bit_generator.state

    (a, sa), (b, sb) = run(True), run(False)
    assert a.dtype == b.dtype and a.shape == b.shape and sa == sb
    assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("bg, op", [(gp.random.PCG64, "pcg64_draw"),
                                    (gp.random.Philox, "random_draw")])
def test_a_draw_is_one_lazy_barrier(bg, op):
    rng = gp.random.Generator(bg(0))
    for x in (rng.random(10), rng.normal(1.0, 2.0, 10), rng.integers(0, 7, 10)):
        assert x._node.lazy and x._node.op == op


# ------------------------------------------------------------------ shapes and dtypes

SIZES = [None, 5, (2, 3), [4], np.int64(3), (), 0, (3, 0)]
CALLS = [
    ("random", (), {}), ("random", (), {"dtype": np.float32}),
    ("standard_normal", (), {}), ("standard_normal", (), {"dtype": np.float32}),
    ("standard_exponential", (), {}), ("standard_exponential", (), {"dtype": np.float32}),
    ("normal", (1.0, 2.0), {}), ("uniform", (-2.0, 3.0), {}), ("exponential", (2.0,), {}),
    ("integers", (10,), {}), ("integers", (-5, 5), {"dtype": np.int8}),
    ("integers", (0, 2), {"dtype": np.bool_}), ("integers", (0, 2 ** 64 - 1),
                                                 {"dtype": np.uint64, "endpoint": True}),
    ("integers", (0, 3 * 2 ** 61), {}), ("integers", (7, 9), {"dtype": np.uint16}),
    ("gumbel", (), {}), ("laplace", (1.0, 2.0), {}), ("logistic", (), {}),
    ("lognormal", (), {}), ("rayleigh", (), {}), ("standard_cauchy", (), {}),
    ("pareto", (3.0,), {}), ("power", (2.0,), {}), ("weibull", (1.5,), {}),
    ("triangular", (0.0, 1.0, 3.0), {}), ("geometric", (0.3,), {}), ("wald", (1.0, 2.0), {}),
    ("standard_gamma", (0.5,), {}), ("standard_gamma", (2.0,), {"dtype": np.float32}),
    ("gamma", (2.0, 3.0), {}), ("chisquare", (3.0,), {}), ("beta", (0.5, 2.0), {}),
    ("f", (3.0, 7.0), {}), ("standard_t", (5.0,), {}), ("poisson", (3.0,), {}),
    ("poisson", (30.0,), {}), ("negative_binomial", (3, 0.4), {}),
    ("binomial", (10, 0.3), {}), ("binomial", (500, 0.7), {}), ("logseries", (0.6,), {}),
    ("noncentral_chisquare", (3.0, 2.0), {}), ("noncentral_f", (3.0, 7.0, 1.5), {}),
    ("vonmises", (0.5, 4.0), {}), ("zipf", (2.0,), {}),
    ("hypergeometric", (30, 70, 20), {}), ("hypergeometric", (5, 5, 3), {}),
]


@pytest.mark.parametrize("name,args,kw", CALLS, ids=[f"{c[0]}-{i}" for i, c in
                                                      enumerate(CALLS)])
def test_shapes_and_dtypes_like_numpy(name, args, kw):
    rng = gp.random.default_rng(0)
    nrng = np.random.default_rng(0)
    for size in SIZES:
        e = np.asarray(getattr(nrng, name)(*args, size=size, **kw))
        if size is None:      # NumPy returns a Python float here, whatever the dtype
            e = np.asarray(getattr(nrng, name)(*args, size=1, **kw)).reshape(())
        r = getattr(rng, name)(*args, size=size, **kw)
        assert isinstance(r, gp.ndarray)
        assert r.shape == e.shape and r.dtype == e.dtype, (size, r.shape, r.dtype)
        assert r.get().shape == e.shape


@pytest.mark.parametrize("make", ["list", "numpy", "gnumpy", "strided"])
def test_array_parameters_broadcast(make):
    loc = np.array([[0.0], [10.0], [100.0]])
    scale = np.array([1.0, 2.0])
    if make == "list":
        args = (loc.tolist(), scale.tolist())
    elif make == "numpy":
        args = (loc, scale)
    elif make == "gnumpy":
        args = (gp.asarray(loc), gp.asarray(scale))
    else:
        big = np.zeros((6, 1))
        big[::2] = loc
        args = (gp.asarray(big)[::2], gp.asarray(np.array([1.0, 0.0, 2.0]))[::2])
    rng = gp.random.default_rng(3)
    r = rng.normal(*args)
    assert r.shape == (3, 2) and r.dtype == np.float64
    r = rng.normal(*args, size=(N // 6, 3, 2)).get()
    np.testing.assert_allclose(r.mean(axis=0), np.broadcast_to(loc, (3, 2)), atol=0.1)
    np.testing.assert_allclose(r.std(axis=0), np.broadcast_to(scale, (3, 2)), rtol=0.05)
    u = rng.uniform(args[0], 200.0, size=(4, 3, 2)).get()
    assert ((u >= np.broadcast_to(loc, (3, 2))) & (u < 200)).all()
    lo = [0, 10, 100] if make == "list" else (
        np.array([0, 10, 100]) if make != "gnumpy" else gp.asarray([0, 10, 100]))
    k = rng.integers(lo, 110, size=(N // 10, 3)).get()
    assert k.dtype == np.int64 and (k >= [0, 10, 100]).all() and (k < 110).all()
    assert set(np.unique(k[:, 2]).tolist()) == set(range(100, 110))


def test_integer_array_bounds_64bit_and_endpoint():
    rng = gp.random.default_rng(4)
    lo = gp.asarray(np.array([-2 ** 63, 0, 5], dtype=np.int64))
    hi = gp.asarray(np.array([2 ** 63 - 1, 3, 5], dtype=np.int64))
    k = rng.integers(lo, hi, size=(2000, 3), endpoint=True).get()
    assert (k[:, 1] >= 0).all() and (k[:, 1] <= 3).all() and set(k[:, 1]) == {0, 1, 2, 3}
    assert (k[:, 2] == 5).all()
    assert (k[:, 0] < 0).any() and (k[:, 0] > 0).any()
    u = rng.integers(np.array([0, 2 ** 63], dtype=np.uint64), 2 ** 64, dtype=np.uint64,
                     size=(1000, 2)).get()
    assert u.dtype == np.uint64 and (u[:, 1] >= 2 ** 63).all()
    # a 64-bit range that is not a power of two (128-bit multiply-shift)
    big = rng.integers(0, 3 * 2 ** 61, size=N).get()
    assert big.min() >= 0 and big.max() < 3 * 2 ** 61
    assert abs(big.mean() / (3 * 2 ** 60) - 1) < 0.02
    assert (big >= 2 ** 62).mean() > 0.3            # the top third is reached


def test_out_argument():
    rng = gp.random.default_rng(0)
    out = gp.zeros((4, 5), dtype=np.float32)
    r = rng.random(out=out, dtype=np.float32)
    assert r is out
    v = out.get()
    assert ((v >= 0) & (v < 1)).all() and len(np.unique(v)) > 10
    base = gp.zeros((3, 4))
    rng.standard_normal(out=base[1:])           # a contiguous view: writes through
    b = base.get()
    assert (b[0] == 0).all() and (b[1:] != 0).all()
    rng.standard_exponential(size=(2, 4), out=base[1:])
    assert (base.get()[1:] >= 0).all()
    with pytest.raises(TypeError):
        rng.random(out=gp.zeros(3, dtype=np.float32))
    with pytest.raises(ValueError):
        rng.random(4, out=gp.zeros(3))
    with pytest.raises(ValueError):
        rng.random(out=gp.zeros((4, 4))[:, ::2])


# ------------------------------------------------------------------ statistics

def _moments(x):
    x = x.get().astype(np.float64)
    return x.mean(), x.var()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_uniform_statistics(dtype):
    rng = gp.random.default_rng(11)
    x = rng.random(N, dtype=dtype)
    v = x.get()
    assert v.dtype == dtype and v.min() >= 0 and v.max() < 1
    m, var = _moments(x)
    assert abs(m - 0.5) < 0.01 and abs(var - 1 / 12) < 0.005
    counts = np.bincount((v * 100).astype(int), minlength=100)
    chi2 = (((counts - N / 100) ** 2) / (N / 100)).sum()
    assert chi2 < 200            # 99 degrees of freedom: mean 99, sd 14
    assert len(np.unique(v)) > 0.99 * N if dtype == np.float64 else True
    u = rng.uniform(-3.0, 5.0, N).get()
    assert u.min() >= -3 and u.max() < 5 and abs(u.mean() - 1.0) < 0.05


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_normal_statistics(dtype):
    rng = gp.random.default_rng(12)
    z = rng.standard_normal(N, dtype=dtype)
    assert z.dtype == dtype
    m, var = _moments(z)
    assert abs(m) < 0.02 and abs(var - 1) < 0.03
    v = z.get()
    assert abs(np.mean(np.abs(v) < 1) - 0.6827) < 0.01
    assert abs(np.mean(np.abs(v) < 2) - 0.9545) < 0.005
    assert np.isfinite(v).all()
    x = rng.normal(3.0, 0.5, N)
    m, var = _moments(x)
    assert abs(m - 3) < 0.01 and abs(var - 0.25) < 0.01


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_exponential_statistics(dtype):
    rng = gp.random.default_rng(13)
    e = rng.standard_exponential(N, dtype=dtype)
    m, var = _moments(e)
    assert abs(m - 1) < 0.02 and abs(var - 1) < 0.05
    assert e.get().min() >= 0
    m, var = _moments(rng.exponential(2.5, N))
    assert abs(m - 2.5) < 0.05 and abs(var - 6.25) < 0.4


@pytest.mark.parametrize("low,high,dtype", [(-3, 7, np.int64), (0, 2, np.bool_),
                                            (-128, 128, np.int8), (0, 256, np.uint8),
                                            (10, 13, np.uint32), (-2 ** 31, 2 ** 31, np.int32)])
def test_integers_cover_range(low, high, dtype):
    rng = gp.random.default_rng(14)
    k = rng.integers(low, high, size=N, dtype=dtype).get()
    assert k.dtype == np.dtype(dtype)
    ki = k.astype(np.int64)
    assert ki.min() >= low and ki.max() < high
    r = high - low
    if r <= 256:
        counts = np.bincount(ki - low, minlength=r)
        assert (counts > 0).all()
        chi2 = (((counts - N / r) ** 2) / (N / r)).sum()
        assert chi2 < r + 6 * math.sqrt(2 * r) + 10
    else:
        assert abs(ki.mean() - (low + high - 1) / 2) < 0.02 * r
    ke = rng.integers(low, high - 1, size=N, dtype=dtype, endpoint=True).get()
    assert ke.astype(np.int64).max() == high - 1 if r <= 256 else True


def test_other_distributions_statistics():
    rng = gp.random.default_rng(15)
    g = np.euler_gamma

    def mean(x):
        return float(x.get().mean())
    assert abs(mean(rng.gumbel(1.0, 2.0, N)) - (1 + 2 * g)) < 0.05
    assert abs(float(rng.laplace(0.0, 1.5, N).get().var()) - 2 * 1.5 ** 2) < 0.2
    assert abs(float(rng.logistic(0.0, 1.0, N).get().var()) - np.pi ** 2 / 3) < 0.15
    assert abs(mean(rng.lognormal(0.0, 0.5, N)) - np.exp(0.125)) < 0.02
    assert abs(mean(rng.rayleigh(2.0, N)) - 2 * np.sqrt(np.pi / 2)) < 0.03
    assert abs(float(np.median(rng.standard_cauchy(N).get()))) < 0.03
    assert abs(mean(rng.pareto(3.0, N)) - 0.5) < 0.03
    assert abs(mean(rng.power(2.0, N)) - 2 / 3) < 0.01
    assert abs(mean(rng.weibull(2.0, N)) - math.gamma(1.5)) < 0.01
    t = rng.triangular(0.0, 1.0, 3.0, N).get()
    assert t.min() >= 0 and t.max() <= 3 and abs(t.mean() - 4 / 3) < 0.02
    geo = rng.geometric(0.25, N).get()
    assert geo.min() >= 1 and abs(geo.mean() - 4) < 0.1
    assert (rng.geometric(1.0, 10).get() == 1).all()
    w = rng.wald(1.5, 2.0, N).get()
    assert w.min() > 0 and abs(w.mean() - 1.5) < 0.05
    assert (rng.weibull(np.array([0.0, 1.0]), size=(5, 2)).get()[:, 0] == 0).all()


@pytest.mark.parametrize("k", [0.05, 0.5, 1.0, 3.5, 40.0])
def test_gamma_family_statistics(k):
    # mean and variance within ~5 standard errors (N draws; the 4th moments bound them)
    rng = gp.random.default_rng(17)
    m, v = _moments(rng.standard_gamma(k, N))
    assert abs(m - k) < 5 * math.sqrt(k / N) and abs(v - k) < 5 * math.sqrt((6 * k + 2 * k * k) / N)
    m, v = _moments(rng.gamma(k, 2.0, N))
    assert abs(m - 2 * k) < 10 * math.sqrt(k / N) and abs(v / (4 * k) - 1) < 0.1
    a, b = k, 2.0
    m, v = _moments(rng.beta(a, b, N))
    assert abs(m - a / (a + b)) < 0.01 and abs(v - a * b / ((a + b) ** 2 * (a + b + 1))) < 0.01


def test_chisquare_f_t_statistics():
    rng = gp.random.default_rng(18)
    m, v = _moments(rng.chisquare(3.0, N))
    assert abs(m - 3) < 0.05 and abs(v - 6) < 0.3
    m, v = _moments(rng.f(5.0, 12.0, N))
    assert abs(m - 12 / 10) < 0.03
    m, v = _moments(rng.standard_t(6.0, N))
    assert abs(m) < 0.03 and abs(v - 6 / 4) < 0.1
    small = rng.beta(0.01, 0.02, N).get()     # log-space ratio: no 0 / 0
    assert np.isfinite(small).all() and small.min() >= 0 and small.max() <= 1


@pytest.mark.parametrize("lam", [0.0, 0.3, 4.0, 9.9, 10.0, 55.0, 1e7])
def test_poisson_statistics(lam):
    rng = gp.random.default_rng(19)
    x = rng.poisson(lam, N)
    assert x.dtype == np.int64
    h = x.get()
    assert h.min() >= 0
    if lam == 0:
        assert (h == 0).all()
        return
    se = math.sqrt(lam / N)
    assert abs(h.mean() - lam) < 5 * se
    assert abs(h.var() / lam - 1) < 5 * math.sqrt(2 / N) + 1 / lam / 10
    if lam < 60:                  # the whole law: P(X = j) against the pmf
        j = np.arange(int(lam + 6 * math.sqrt(lam)) + 2)
        pmf = np.exp(-lam + j * math.log(lam) - np.array([math.lgamma(t + 1) for t in j]))
        freq = np.bincount(h, minlength=len(j))[:len(j)] / N
        assert np.all(np.abs(freq - pmf) < 5 * np.sqrt(pmf / N) + 2e-4)


@pytest.mark.parametrize("n,p", [(0, 0.5), (12, 0.0), (12, 1.0), (10, 0.3), (40, 0.25),
                                 (500, 0.7), (3 * 10 ** 9, 0.4)])
def test_binomial_statistics(n, p):
    h = gp.random.default_rng(21).binomial(n, p, N).get()
    assert h.dtype == np.int64 and h.min() >= 0 and h.max() <= n
    mean, var = n * p, n * p * (1 - p)
    if var == 0:
        assert (h == mean).all()
        return
    assert abs(h.mean() - mean) < 5 * math.sqrt(var / N)
    assert abs(h.var() / var - 1) < 0.03
    if n <= 500:                  # the whole law against the pmf
        j = np.arange(n + 1)
        lp = np.array([math.lgamma(n + 1) - math.lgamma(t + 1) - math.lgamma(n - t + 1)
                       for t in j]) + j * math.log(p) + (n - j) * math.log1p(-p)
        pmf = np.exp(lp)
        freq = np.bincount(h, minlength=n + 1) / N
        assert np.all(np.abs(freq - pmf) < 5 * np.sqrt(pmf / N) + 2e-4)


def test_logseries_dirichlet_noncentral_vonmises_statistics():
    rng = gp.random.default_rng(22)
    for p in (0.2, 0.9):
        h = rng.logseries(p, N).get()
        j = np.arange(1, 12)
        pmf = -p ** j / (j * math.log1p(-p))
        freq = np.bincount(h, minlength=13)[1:12] / N
        assert h.min() >= 1 and np.all(np.abs(freq - pmf) < 5 * np.sqrt(pmf / N) + 2e-4)
    d = rng.dirichlet([0.5, 1.0, 3.0], N).get()
    assert d.shape == (N, 3) and np.allclose(d.sum(axis=1), 1)
    assert np.all(np.abs(d.mean(axis=0) - np.array([0.5, 1.0, 3.0]) / 4.5) < 0.005)
    tiny = rng.dirichlet([0.01, 0.02, 0.0], 100).get()
    assert np.isfinite(tiny).all() and np.allclose(tiny.sum(axis=1), 1) and (tiny[:, 2] == 0).all()
    m, v = _moments(rng.noncentral_chisquare(3.0, 2.0, N))
    assert abs(m - 5) < 0.06 and abs(v / (2 * (3 + 4)) - 1) < 0.05
    m, v = _moments(rng.noncentral_chisquare(0.5, 1.5, N))
    assert abs(m - 2) < 0.04 and abs(v / (2 * (0.5 + 3)) - 1) < 0.05
    m, _ = _moments(rng.noncentral_f(3.0, 12.0, 1.5, N))
    assert abs(m - 12 * 4.5 / (3 * 10)) < 0.03
    for mu, k, r in ((0.5, 4.0, 0.8635226110245504), (-3.0, 0.5, 0.24249961258080202)):
        x = rng.vonmises(mu, k, N).get()
        assert x.min() >= -np.pi and x.max() <= np.pi
        assert abs(np.cos(x - mu).mean() - r) < 0.01 and abs(np.sin(x - mu).mean()) < 0.01
    assert (np.abs(rng.vonmises(1.0, 1e7, 100).get() - 1.0) < 0.01).all()
    u = rng.vonmises(0.0, 0.0, N).get()
    assert abs(u.mean()) < 0.03 and abs(u.var() - np.pi ** 2 / 3) < 0.05
    assert np.isnan(rng.vonmises(np.nan, 1.0, 3).get()).all()
    assert np.isnan(rng.noncentral_chisquare(1.0, np.nan, 3).get()).all()
    assert np.isnan(rng.dirichlet([np.nan, 1.0], 2).get()).all()


def test_multinomial_and_zipf():
    rng = gp.random.default_rng(23)
    nrng = np.random.default_rng(0)
    for args, kw in (((20, [0.2, 0.3, 0.5]), {}), (([3, 50], [0.5, 0.25, 0.25]), {}),
                     ((10, [[0.5, 0.5], [0.1, 0.9]]), {"size": (4, 2)}),
                     ((10, [0.2, 0.3, 0.6]), {"size": 5}), ((7, [1.0]), {"size": (0,)})):
        r = rng.multinomial(*args, **kw)
        e = nrng.multinomial(*args, **kw)
        assert r.shape == e.shape and r.dtype == e.dtype
        n = np.broadcast_to(np.asarray(args[0]), r.shape[:-1])
        assert (r.get().sum(axis=-1) == n).all() and r.get().min(initial=0) >= 0
    x = rng.multinomial(20, [0.2, 0.3, 0.5], size=N).get()
    assert np.all(np.abs(x.mean(axis=0) - [4, 6, 10]) < 0.05)
    assert abs(np.cov(x.T)[0, 1] + 20 * 0.2 * 0.3) < 0.05
    assert (rng.multinomial(10, [0.2, 0.3, 0.6], size=100).get()[:, 2] >= 0).all()
    for a in (1.5, 4.0):
        z = rng.zipf(a, N).get()
        j = np.arange(1, 8)
        zeta = sum(k ** -a for k in range(1, 200000)) + 200000 ** (1 - a) / (a - 1)
        pmf = j ** -a / zeta
        freq = np.bincount(z[z < 8], minlength=8)[1:8] / N
        assert z.min() >= 1 and np.all(np.abs(freq - pmf) < 5 * np.sqrt(pmf / N) + 2e-4)


@pytest.mark.parametrize("good,bad,nsample", [(5, 5, 3), (30, 70, 20), (700, 300, 600),
                                             (10, 990, 500), (5, 0, 3), (0, 5, 3),
                                             (5, 5, 0), (50, 50, 99)])
def test_hypergeometric_law(good, bad, nsample):
    h = gp.random.default_rng(24).hypergeometric(good, bad, nsample, N).get()
    assert h.dtype == np.int64
    lc = lambda n, k: math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)  # noqa: E731
    j = np.arange(max(0, nsample - bad), min(good, nsample) + 1)
    pmf = np.exp([lc(good, k) + lc(bad, nsample - k) - lc(good + bad, nsample) for k in j])
    assert h.min() >= j[0] and h.max() <= j[-1]
    freq = np.bincount(h - j[0], minlength=len(j))[:len(j)] / N
    assert np.all(np.abs(freq - pmf) < 5 * np.sqrt(pmf / N) + 2e-4)
    x = gp.random.default_rng(25).hypergeometric(np.array([10, 700]), np.array([990, 300]),
                                                 np.array([500, 600]), size=(20000, 2)).get()
    assert np.all(np.abs(x.mean(axis=0) - [5, 420]) < [0.06, 0.3])


def test_rejection_array_parameters_and_edges():
    rng = gp.random.default_rng(20)
    lam = np.array([0.0, 2.0, 9.5, 10.0, 200.0])
    for lp in (lam, gp.asarray(lam)):
        x = rng.poisson(lp, size=(20000, 5)).get()
        assert (x[:, 0] == 0).all()
        assert np.all(np.abs(x[:, 1:].mean(axis=0) - lam[1:]) < 5 * np.sqrt(lam[1:] / 20000))
    k = np.array([np.nan, 0.0, 0.5, np.inf, 4.0])
    g = rng.standard_gamma(k, size=(20000, 5)).get()
    assert np.isnan(g[:, 0]).all() and (g[:, 1] == 0).all() and np.isinf(g[:, 3]).all()
    assert np.all(np.abs(g[:, [2, 4]].mean(axis=0) - [0.5, 4.0]) < [0.03, 0.1])
    assert np.isnan(rng.standard_gamma(np.nan, 3).get()).all()
    assert (rng.standard_gamma(0.0, 3).get() == 0).all()
    nb = rng.negative_binomial(np.array([1.0, 5.0]), np.array([[0.5], [1.0]]),
                               size=(3000, 2, 2)).get()
    assert (nb[:, 1, :] == 0).all()
    assert np.all(np.abs(nb[:, 0, :].mean(axis=0) - [1.0, 5.0]) < [0.15, 0.35])
    out = gp.empty((4, 3))
    r = rng.standard_gamma(2.0, out=out)
    assert r is out and (out.get() > 0).all()
    f32 = rng.standard_gamma(2.0, size=1000, dtype=np.float32)
    assert f32.dtype == np.float32 and float(f32.mean()) > 1.5
    for name, args in (("standard_gamma", (1.0,)), ("poisson", (3.0,)), ("beta", (1.0, 2.0)),
                       ("negative_binomial", (2, 0.5))):
        e = getattr(gp.random, name)(*args, size=7)
        assert e.shape == (7,)


def test_integer_and_float_zero_dim_and_empty():
    rng = gp.random.default_rng(16)
    for r in (rng.random(), rng.integers(5), rng.normal(), rng.standard_normal(),
              rng.exponential()):
        assert isinstance(r, gp.ndarray) and r.shape == ()
    assert 0 <= float(rng.random()) < 1
    assert rng.integers(4, 5).item() == 4               # one possible value
    assert rng.integers(0, 0, endpoint=True, size=3).get().tolist() == [0, 0, 0]
    assert rng.integers(np.array([], dtype=np.int64), 3).shape == (0,)
    assert rng.normal(np.zeros((0, 2)), 1.0).shape == (0, 2)


def test_bytes():
    a = gp.random.default_rng(7).bytes(10)
    assert isinstance(a, bytes) and len(a) == 10
    assert a == gp.random.default_rng(7).bytes(10)
    assert gp.random.default_rng(7).bytes(0) == b""


# ------------------------------------------------------------------ errors, as NumPy

ERRORS = [
    ("random", (), {"dtype": np.float16}), ("random", (), {"dtype": np.int32}),
    ("random", (), {"size": -1}), ("random", (), {"size": (2, -1)}),
    ("random", (), {"size": 2.0}), ("random", (), {"size": (2.0, 3)}),
    ("random", (), {"size": True}), ("random", (), {"size": "a"}),
    ("standard_normal", (), {"dtype": np.float16}),
    ("standard_exponential", (), {"dtype": np.int64}),
    ("integers", (5, 5), {}), ("integers", (5, 3), {}), ("integers", (5, 3),
                                                        {"endpoint": True}),
    ("integers", (0,), {}), ("integers", (-3,), {}), ("integers", (-1,), {"endpoint": True}),
    ("integers", (-1, 5), {"dtype": np.uint8}), ("integers", (0, 257), {"dtype": np.uint8}),
    ("integers", (0, 256), {"dtype": np.uint8, "endpoint": True}),
    ("integers", (0, 3), {"dtype": np.bool_}), ("integers", (0, 3), {"dtype": np.float64}),
    ("integers", (0, 2 ** 64), {}), ("integers", (0, 2 ** 64 + 1), {"dtype": np.uint64}),
    ("integers", ([0, 5], [3, 4]), {}), ("integers", ([0, 1], [3, 4]), {"size": 3}),
    ("integers", (np.array([-1]), 5), {"dtype": np.uint64}),
    ("integers", (np.array([np.nan]), 3), {}), ("integers", (0, np.nan), {}),
    ("normal", (0, -1), {}), ("normal", (0, [1, -1]), {}), ("normal", ([0, 1], 1),
                                                          {"size": 3}),
    ("uniform", (1, 0), {}), ("uniform", (0, np.inf), {}), ("uniform", (np.nan, 1), {}),
    ("exponential", (-1,), {}), ("gumbel", (0, -1), {}), ("laplace", (0, -1), {}),
    ("logistic", (0, -1), {}), ("lognormal", (0, -1), {}), ("rayleigh", (-1,), {}),
    ("pareto", (0,), {}), ("power", (-1,), {}), ("weibull", (-1,), {}),
    ("triangular", (1, 0, 2), {}), ("triangular", (0, 3, 2), {}), ("triangular", (1, 1, 1),
                                                                   {}),
    ("geometric", (0,), {}), ("geometric", (1.5,), {}), ("geometric", (np.nan,), {}),
    ("wald", (0, 1), {}), ("wald", (1, 0), {}),
    ("standard_gamma", (-1,), {}), ("standard_gamma", (1.0,), {"dtype": np.int32}),
    ("gamma", (-1, 1), {}), ("gamma", (1, -1), {}), ("chisquare", (0,), {}),
    ("beta", (0, 1), {}), ("beta", (1, -2), {}), ("f", (0, 1), {}), ("f", (1, 0), {}),
    ("standard_t", (0,), {}), ("poisson", (-1,), {}), ("poisson", (np.nan,), {}),
    ("poisson", (1e19,), {}), ("poisson", ([1.0, -1.0],), {}), ("poisson", ([np.nan],), {}),
    ("negative_binomial", (0, 0.5), {}), ("negative_binomial", (np.nan, 0.5), {}),
    ("negative_binomial", (1, 0), {}), ("negative_binomial", (1, 1.5), {}),
    ("binomial", (-1, 0.5), {}), ("binomial", (1, -0.1), {}), ("binomial", (1, np.nan), {}),
    ("binomial", (1, [0.5, np.nan]), {}), ("binomial", ([1, -1], 0.5), {}),
    ("logseries", (1.0,), {}), ("logseries", (-0.1,), {}), ("logseries", ([0.5, 1.0],), {}),
    ("dirichlet", ([-1.0, 1.0],), {}), ("dirichlet", ([[1.0, 1.0]],), {}),
    ("noncentral_chisquare", (0, 1), {}), ("noncentral_chisquare", (1, -1), {}),
    ("noncentral_f", (0, 1, 1), {}), ("noncentral_f", (1, 0, 1), {}),
    ("noncentral_f", (1, 1, -1), {}), ("vonmises", (0, -1), {}),
    ("zipf", (1.0,), {}), ("zipf", (np.nan,), {}), ("zipf", ([2.0, 1.0],), {}),
    ("multinomial", (10, [0.2, 0.9, 0.6]), {}), ("multinomial", (10, [-0.1, 0.5, 0.6]), {}),
    ("multinomial", (-1, [0.5, 0.5]), {}), ("multinomial", (10, [0.5, np.nan]), {}),
    ("multinomial", (10, 0.5), {}), ("multinomial", (10, []), {}),
    ("hypergeometric", (-1, 5, 3), {}), ("hypergeometric", (5, -1, 3), {}),
    ("hypergeometric", (5, 5, -1), {}), ("hypergeometric", (5, 5, 11), {}),
    ("hypergeometric", (10 ** 9, 5, 3), {}), ("hypergeometric", (5, 5, [3, 11]), {}),
    ("multivariate_normal", ([[0.0, 0.0]], np.eye(2)), {}),
    ("multivariate_normal", ([0.0, 0.0], [1.0, 1.0]), {}),
    ("multivariate_normal", ([0.0, 0.0, 0.0], np.eye(2)), {}),
    ("multivariate_normal", ([0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]]), {"check_valid": "raise"}),
    ("multivariate_normal", ([0.0, 0.0], np.eye(2)), {"method": "bad"}),
    ("multivariate_normal", ([0.0, 0.0], np.eye(2)), {"check_valid": "bad"}),
    ("choice", (0, 3), {}), ("choice", (-1, 3), {}), ("choice", ([], 3), {}),
    ("choice", (5, 6), {"replace": False}), ("choice", (5.0, 2), {}),
    ("choice", (5, 3), {"p": [0.1, 0.2, 0.3, 0.4]}),
    ("choice", (5, 3), {"p": [0.1, 0.2, 0.3, 0.4, 0.1]}),
    ("choice", (5, 3), {"p": [0.1, 0.2, 0.3, 0.5, -0.1]}),
    ("choice", (5, 3), {"p": [[0.1, 0.2, 0.3, 0.4, 0.0]]}),
    ("choice", (5, 3), {"p": [0.5, 0.5, np.nan, 0, 0]}),
    ("choice", (5, 3), {"replace": False, "p": [0.5, 0.5, 0, 0, 0]}),
    ("choice", (5, -1), {}),
    ("permutation", (np.arange(12).reshape(3, 4),), {"axis": 3}),
    ("permutation", (np.array(5),), {}),
    ("permuted", (np.arange(6).reshape(2, 3),), {"axis": 2}),
    ("permuted", (np.array(5),), {}),
]


def _np_exception(name, args, kw):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            getattr(np.random.default_rng(0), name)(*args, **kw)
    except Exception as e:        # noqa: BLE001
        return e
    raise AssertionError(f"NumPy accepts {name}{args}{kw}")


@pytest.mark.parametrize("name,args,kw", ERRORS, ids=[f"{e[0]}-{i}" for i, e in
                                                       enumerate(ERRORS)])
def test_errors_like_numpy(name, args, kw):
    e = _np_exception(name, args, kw)
    with pytest.raises(type(e)) as info:
        getattr(gp.random.default_rng(0), name)(*args, **kw)
    if name not in ("choice", "permutation", "permuted") or isinstance(e, ValueError):
        if "shape mismatch" not in str(e):
            assert str(info.value) == str(e)


def test_gnumpy_array_parameters_are_checked():
    rng = gp.random.default_rng(0)
    with pytest.raises(ValueError, match="scale < 0"):
        rng.normal(0, gp.asarray([1.0, -1.0]))
    with pytest.raises(ValueError, match="low >= high"):
        rng.integers(gp.asarray([0, 5]), gp.asarray([3, 4]))
    with pytest.raises(ValueError, match="high is out of bounds"):
        rng.integers(0, gp.asarray([300]), dtype=np.uint8)
    with pytest.raises(OverflowError):
        rng.uniform(gp.asarray([0.0]), np.inf)


def test_multivariate_hypergeometric_not_implemented():
    with pytest.raises(NotImplementedError):
        gp.random.default_rng(0).multivariate_hypergeometric([3, 4], 2)


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal(method):
    rng = gp.random.default_rng(26)
    mean = np.array([1.0, -2.0, 0.5])
    cov = np.array([[2.0, 0.6, 0.1], [0.6, 1.0, -0.3], [0.1, -0.3, 0.5]])
    x = rng.multivariate_normal(mean, gp.asarray(cov), size=N, method=method)
    assert x.shape == (N, 3) and x.dtype == np.float64
    h = x.get()
    assert np.all(np.abs(h.mean(axis=0) - mean) < 5 * np.sqrt(np.diag(cov) / N))
    assert np.all(np.abs(np.cov(h.T) - cov) < 0.03)
    for size in (None, 4, (2, 3)):
        e = np.random.default_rng(0).multivariate_normal(mean, cov, size=size, method=method)
        assert rng.multivariate_normal(mean, cov, size=size, method=method).shape == e.shape
    assert gp.random.multivariate_normal(mean, cov, 5).shape == (5, 3)
    bad = ([0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]])
    if method == "cholesky":            # NumPy's factorization refuses it, as here
        with pytest.raises(np.linalg.LinAlgError):
            rng.multivariate_normal(*bad, method=method)
    else:
        with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
            rng.multivariate_normal(*bad, method=method)


# ------------------------------------------------------------------ permutations, choice

def _needs_sort_and_take():
    try:
        from gnumpy._api.indexing import advanced  # noqa: F401
        from gnumpy._api.sorting import sorting  # noqa: F401
    except ImportError:
        pytest.skip("needs gnumpy/_api/sorting/sorting.py (argsort) and "
                    "gnumpy/_api/indexing/advanced.py (take)")


def test_permutation_is_a_permutation():
    _needs_sort_and_take()
    rng = gp.random.default_rng(20)
    p = rng.permutation(1000)
    assert p.dtype == np.int64 and sorted(p.get().tolist()) == list(range(1000))
    assert p.get().tolist() != list(range(1000))
    assert rng.permutation(0).shape == (0,) and rng.permutation(-1).shape == (0,)
    a = np.arange(24.0).reshape(4, 6)
    for axis, g in ((0, gp.asarray(a)), (1, gp.asarray(a)), (-1, gp.asarray(a.T).T)):
        r = rng.permutation(g, axis=axis).get()
        assert r.shape == a.shape
        ax = axis % 2
        cols = np.moveaxis(r, ax, 0)
        ref = np.moveaxis(np.asarray(g.get()), ax, 0)
        assert sorted(map(tuple, cols.tolist())) == sorted(map(tuple, ref.tolist()))
    s = rng.permutation([3.5, 1.5, 2.5]).get()
    assert s.dtype == np.float64 and sorted(s.tolist()) == [1.5, 2.5, 3.5]


def test_permutation_is_uniform():
    _needs_sort_and_take()
    rng = gp.random.default_rng(21)
    first = np.array([int(rng.permutation(4)[0]) for _ in range(400)])
    counts = np.bincount(first, minlength=4)
    assert (counts > 60).all()


def test_shuffle_in_place():
    _needs_sort_and_take()
    rng = gp.random.default_rng(22)
    v = np.random.default_rng(0).standard_normal(50)
    x = gp.asarray(v)
    assert rng.shuffle(x) is None
    got = x.get()
    assert sorted(got.tolist()) == sorted(v.tolist()) and not np.array_equal(got, v)
    m = np.arange(12).reshape(3, 4)
    g = gp.asarray(m)
    rng.shuffle(g, axis=1)
    assert sorted(map(tuple, g.get().T.tolist())) == sorted(map(tuple, m.T.tolist()))
    big = gp.asarray(np.arange(20))
    view = big[::2]                             # a strided view: shuffles the base's memory
    rng.shuffle(view)
    b = big.get()
    assert (b[1::2] == np.arange(1, 20, 2)).all()
    assert sorted(b[::2].tolist()) == list(range(0, 20, 2))
    lst = list(range(10))
    rng.shuffle(lst)
    assert sorted(lst) == list(range(10))
    with pytest.raises(TypeError):
        rng.shuffle(gp.asarray(5))
    with pytest.raises(AxisError):
        rng.shuffle(gp.asarray(m), axis=-3)


def test_permuted():
    _needs_sort_and_take()
    rng = gp.random.default_rng(23)
    m = np.arange(30).reshape(5, 6)
    r = rng.permuted(gp.asarray(m), axis=1).get()
    assert all(sorted(row) == sorted(mr) for row, mr in zip(r.tolist(), m.tolist()))
    r = rng.permuted(gp.asarray(m)).get()
    assert r.shape == m.shape and sorted(r.reshape(-1).tolist()) == list(range(30))
    out = gp.zeros((5, 6), dtype=np.int64)
    assert rng.permuted(gp.asarray(m), axis=0, out=out) is out
    assert sorted(out.get()[:, 0].tolist()) == m[:, 0].tolist()
    with pytest.raises(ValueError):
        rng.permuted(gp.asarray(m), out=gp.zeros(4, dtype=np.int64))


def test_choice():
    _needs_sort_and_take()
    rng = gp.random.default_rng(24)
    c = rng.choice(10, size=N)
    v = c.get()
    assert v.dtype == np.int64 and v.min() >= 0 and v.max() < 10
    assert (np.bincount(v, minlength=10) > N / 10 * 0.9).all()
    u = rng.choice(1000, size=(20, 30), replace=False).get()
    assert u.shape == (20, 30) and len(np.unique(u)) == 600 and u.max() < 1000
    assert rng.choice(5, 5, replace=False).get().tolist() != [] and \
        sorted(rng.choice(5, 5, replace=False).get().tolist()) == [0, 1, 2, 3, 4]
    a = np.arange(12.0).reshape(3, 4)
    assert rng.choice(gp.asarray(a), 2).shape == (2, 4)
    s = rng.choice(gp.asarray(a), (2, 5), axis=1).get()
    assert s.shape == (3, 2, 5) and set(s[0].reshape(-1)) <= set(a[0])
    assert rng.choice(a).shape == (4,)
    assert rng.choice(5).shape == ()
    assert rng.choice([1.5, 2.5], 3).dtype == np.float64
    assert rng.choice(0, 0).shape == (0,)
    p = [0.1, 0.0, 0.6, 0.3]
    w = rng.choice(4, N, p=p).get()
    freq = np.bincount(w, minlength=4) / N
    np.testing.assert_allclose(freq, p, atol=0.01)
    w = rng.choice(4, N, p=gp.asarray(np.array(p))).get()
    np.testing.assert_allclose(np.bincount(w, minlength=4) / N, p, atol=0.01)
    firsts = np.array([rng.choice(4, 2, replace=False, p=p).get() for _ in range(300)])
    assert (firsts[:, 0] != firsts[:, 1]).all() and not (firsts == 1).any()
    assert np.mean(firsts[:, 0] == 2) > 0.45       # the heaviest item comes first most


# ------------------------------------------------------------------ the legacy API

def test_legacy_module_functions():
    R = gp.random
    R.seed(42)
    a = [R.rand(3).get(), R.randn(2, 2).get(), R.randint(5, size=4).get()]
    R.seed(42)
    b = [R.rand(3).get(), R.randn(2, 2).get(), R.randint(5, size=4).get()]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert R.rand().shape == () and R.rand(2, 3).shape == (2, 3)
    assert R.randn(4).dtype == np.float64
    assert R.randint(5, 10, size=(2,), dtype=np.uint8).dtype == np.uint8
    for f in (R.random, R.random_sample, R.ranf, R.sample):
        x = f((2, 2)).get()
        assert x.shape == (2, 2) and ((x >= 0) & (x < 1)).all()
    with pytest.warns(DeprecationWarning):
        r = R.random_integers(5, size=N // 10).get()
    assert r.min() == 1 and r.max() == 5
    assert R.uniform(2, 1, size=3).shape == (3,)        # the legacy API allows high < low
    assert R.normal(size=2).shape == (2,) and R.exponential(size=2).shape == (2,)
    assert R.standard_normal(3).shape == (3,) and R.standard_exponential(3).shape == (3,)
    assert len(R.bytes(3)) == 3
    st = R.get_state()
    x = R.rand(4).get()
    R.set_state(st)
    np.testing.assert_array_equal(R.rand(4).get(), x)
    assert isinstance(R.get_bit_generator(), R.PCG64)


def test_random_state_class():
    rs = gp.random.RandomState(0)
    x = rs.random_sample((3,)).get()
    np.testing.assert_array_equal(gp.random.RandomState(0).random_sample(3).get(), x)
    assert rs.gumbel(size=2).shape == (2,) and rs.tomaxint(2).dtype == np.int64
    assert rs.randint(0, 2 ** 40, size=3).dtype == np.int64


LEGACY_ERRORS = [
    ("seed", (-1,)), ("seed", (2 ** 32,)), ("seed", (1.5,)), ("seed", ([],)),
    ("seed", ([2 ** 32],)), ("rand", ((2, 3),)), ("rand", (-1,)), ("randn", (2.0,)),
    ("randint", (5, 5)), ("randint", (0,)), ("uniform", (0, np.inf)), ("normal", (0, -1)),
    ("set_state", ((1, 2),)),
]


@pytest.mark.parametrize("name,args", LEGACY_ERRORS,
                         ids=[f"{e[0]}-{i}" for i, e in enumerate(LEGACY_ERRORS)])
def test_legacy_errors_like_numpy(name, args):
    try:
        getattr(np.random.RandomState(0), name)(*args)
    except Exception as e:        # noqa: BLE001
        exc = type(e)
    else:
        raise AssertionError("NumPy accepts it")
    with pytest.raises(exc):
        getattr(gp.random.RandomState(0), name)(*args)
    with pytest.raises(TypeError):
        gp.random.randint(3, size=2, dtype=np.float64)
