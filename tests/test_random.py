"""gnumpy.random: Philox4x32-10 bits, streams, shapes and dtypes, the legacy API.

* the bits: Random123's known-answer vectors through the public path (on a GPU this runs
  the CUDA kernel), an independent scalar Philox over random keys and counters (128-bit
  carries, wraparound, uint64 layout, odd sizes), and the CUDA kernel's own source built
  with g++ on the host (grid-stride loop, vector and scalar stores);
* streams: a seeded generator's numbers recomputed from its state with NumPy (so the CPU
  and CUDA backends give the same numbers), reproducibility, independence, counter advance;
* every function's shapes and dtypes for each ``size`` form against NumPy's Generator,
  parameters as scalars, lists, NumPy and gnumpy arrays (strided too), ``out=``;
* the legacy module functions and RandomState.

Statistics, errors, permutations and choice: test_random_distributions.py.
Streams differ from NumPy's by design, so values are never compared with NumPy's.
"""
import ctypes

import numpy as np
import pytest

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
