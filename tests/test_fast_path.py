"""The CUDA launch fast path, without a GPU: a fake CUDA backend records launches, and the
replayed argument lists must equal what the general path (schedule, lower, plan) builds."""
import ctypes
import threading

import numpy as np
import pytest

import gnumpy as gp
from helpers import check
from gnumpy import _device
from gnumpy._graph import layout as L
from gnumpy._graph import realize
from gnumpy._graph.fuse import schedule
from gnumpy._graph.ir import leaf

pytest.importorskip(
    "cuda.bindings.nvrtc",
    reason="cuda.bindings/NVRTC missing: the 'cuda' extra (cuda-bindings, "
           "nvidia-cuda-nvrtc) is not installed; the fast path's fake backend builds on "
           "gnumpy.backends.cuda, which needs it")
from gnumpy.backends.cuda import CudaBackend  # noqa: E402
from gnumpy.backends import cuda_launchers, cuda_replay  # noqa: E402
from gnumpy.backends.cuda_fast import FastPath  # noqa: E402
from gnumpy.backends.cuda_memory import DeviceBuffer  # noqa: E402
from gnumpy.kernels import build  # noqa: E402


class _Pool:
    def __init__(self):
        self.next = 1 << 20

    def alloc(self, n):
        b = DeviceBuffer(None, n)
        b.ptr = self.next
        self.next += max(256, (n + 255) // 256 * 256)
        return b


class _Stream:
    handle = 0

    def sync(self):
        pass


class FakeCuda(CudaBackend):
    """CudaBackend with the driver calls replaced: kernels compile, launches are recorded."""

    def __init__(self, device):
        self.device = device
        self._tls = threading.local()
        self.default_stream = _Stream()
        self._set_stream(self.default_stream)
        self.sm_count, self.max_threads_sm, self.arch = 132, 2048, "90"
        self.pool = _Pool()
        self.kernels = build.KernelCache("90", lambda cubin: object())
        self._cfgs, self._counters, self._counters_len = {}, None, 0
        self._resident = {}
        self.fast = FastPath(self)
        self.launches = []

    def _go(self, kernel, grid, block, args):
        self.launches.append((kernel, grid, block, list(args)))

    def bind_thread(self):
        self.thread = threading.get_ident()     # no CUDA context to make current

    def copy_leaf(self, dest, src):
        return False            # (the driver's copy: the fake's buffers are not memory)

    def packed_launcher(self, kernel, grid, block, tmpl):
        """Record pre-packed launches by decoding the parameter block the way the driver
        reads it: through the address array, one typed value per parameter."""
        types = [cuda_launchers._slot_type(e, e[1] if e[0] == "c" else None) for e in tmpl]

        def raw(params):
            addrs = (ctypes.c_uint64 * len(types)).from_address(params)
            vals = [np.frombuffer((ctypes.c_char * 8).from_address(a), t, count=1)[0]
                    for a, t in zip(addrs, types)]
            self.launches.append((kernel, grid, block, vals))
        launch, keep = cuda_launchers.compile_packed(tmpl, raw)
        launch.keep = keep
        return launch

    def launch_params(self, kernel, block, ptrs):
        self.launches.append((kernel, 1, block, "params"))

    def _counter_ptr(self, n):
        return 7 << 40

    def from_numpy(self, arr, copy=True):
        a = arr if arr.flags.c_contiguous else np.array(arr, order="C")   # (0-d stays 0-d)
        buf = self.pool.alloc(a.nbytes)
        return leaf(buf, a.dtype, a.shape, L.c_strides(a.shape), 0, self.device)


@pytest.fixture
def fake():
    import gc
    from gnumpy._graph import realize
    realize.settle()            # what earlier tests left waiting runs before the counts
    gc.collect()                # (and their arrays in reference cycles go)
    dev = _device.Device("cuda", 7)     # (the one object of that device: its cached
    be = FakeCuda(dev)                  # backend is this test's too)
    old = _device._backends.get(dev)
    _device._backends[dev] = be
    dev._be = be
    yield dev, be
    realize.settle()            # a write the test left waiting runs on its own backend
    dev._be = old
    if old is None:
        _device._backends.pop(dev, None)
    else:
        _device._backends[dev] = old


def _args_general(be, expr):
    g = schedule([expr._node])
    assert len(g) == 1
    outs = {id(expr._node): be.pool.alloc(L.prod(expr.shape) * expr.dtype.itemsize)}
    mod, plan = build.plan_group(g[0], be._ptr_of(outs), be.sm_count, be.blocks_per_sm)
    if plan.spec.kind == "ew":
        return mod.args(plan, be._ptr_of(outs)), outs[id(expr._node)].ptr
    if plan.spec.kind == "reduce":     # as the backend does once the kernel is compiled
        mod.fit(plan, be.resident(object(), plan.block), be.sm_count)
    return mod.args(plan, be._ptr_of(outs), _PARTIALS, 7 << 40), outs[id(expr._node)].ptr


_PARTIALS = 0xDEAD00    # stands for the per-launch partials buffer of split reductions


CASES = {
    "saxpy_f32": lambda x, y: np.float32(2.5) * x + y,
    "python_scalars": lambda x, y: 3.0 * x - 1.5,
    "half": lambda x, y: x.astype(gp.float16) * 3 + y.astype(gp.float16),
    "complex_scalar": lambda x, y: x * (1 + 2j) + y,
    "bool_where": lambda x, y: gp.where(x > 0, x, y * 2),
    "int_big": lambda x, y: x.astype(gp.uint64) + 2**63,
    "sum_split": lambda x, y: gp.sum(x * y),
    "mean_rows": lambda x, y: x.reshape(64, -1).mean(axis=1),
    "std_cols": lambda x, y: x.reshape(-1, 64).std(axis=0),      # a split column reduction
    "strided": lambda x, y: x.reshape(64, -1).T[::2] + 1,
    # leaves met more than once: one node used twice, and two nodes over one buffer
    "leaf_reused": lambda x, y: x * x + y * x,
    "one_buffer_two_nodes": lambda x, y: x.reshape(64, -1).reshape(-1) * x[:] - y,
}


@pytest.mark.parametrize("name", list(CASES))
def test_replay_matches_general_path(fake, name):
    dev, be = fake
    rng = np.random.default_rng(0)
    n = 1 << 16 if name != "sum_split" else 1 << 22
    x = gp.asarray(rng.standard_normal(n).astype(np.float32), device=dev)
    y = gp.asarray(rng.standard_normal(n).astype(np.float32), device=dev)
    f = CASES[name]
    for attempt in range(3):          # first build, then replays
        e = f(x, y)
        expected, out_ptr = _args_general(be, e)
        be.launches.clear()
        gp.evaluate(e)
        assert len(be.launches) == 1
        got = be.launches[0][3]
        # the replay allocated its own output: substitute it before comparing
        real_out = e._leaf().buf.ptr
        exp = [real_out if (type(a) is int and a == out_ptr) else a for a in expected]
        exp = [g if (type(a) is int and a == _PARTIALS) else a for a, g in zip(exp, got)]
        assert len(got) == len(exp), (attempt, got, exp)
        for g, a in zip(got, exp):
            if type(a) is int:                  # pointers: 64-bit slots
                assert g.dtype == np.uint64 and int(g) == a, (attempt, got, exp)
            else:                               # typed parameters keep their type
                assert g.dtype == np.asarray(a).dtype and g == a, (attempt, got, exp)
    assert len(be.fast.cache) >= 1


def test_signature_tells_shared_from_distinct_subexpressions(fake):
    """t*t with t = x + 1.5 (one scalar, shared) and (x + 1.5) * (x + 2.5) (two scalars) have
    the same tree shape; the signature's node numbering must keep their kernels apart."""
    dev, be = fake
    x = gp.asarray(np.arange(8.0, dtype=np.float32), device=dev)
    for _ in range(2):
        t = x + 1.5
        gp.evaluate(t * t)
    e = (x + 1.5) * (x + 2.5)
    expected, out_ptr = _args_general(be, e)
    be.launches.clear()
    gp.evaluate(e)
    got = be.launches[0][3]
    assert sorted(float(v) for v in got if isinstance(v, np.floating)) == [1.5, 2.5]
    assert len(got) == len(expected)


class _Kernel:
    handle = 0x5EED


def test_ctypes_launch_passes_the_parameter_block(fake, monkeypatch):
    """The ctypes launch (libcuda's cuLaunchKernel through ctypes) calls it with the
    function handle, grid, block, the current stream and the pre-packed parameter block;
    a ctypes callback with cuLaunchKernel's signature stands in for libcuda."""
    from gnumpy.backends import cuda as cuda_mod
    dev, be = fake
    seen = []
    proto = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, *[ctypes.c_uint] * 7,
                             ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)

    def fake_launch(func, gx, gy, gz, bx, by, bz, shmem, stream, params, extra):
        addrs = (ctypes.c_uint64 * 4).from_address(params)
        ptrs = [int(np.frombuffer((ctypes.c_char * 8).from_address(a), np.uint64)[0])
                for a in addrs[:3]]
        scale = float(np.frombuffer((ctypes.c_char * 4).from_address(addrs[3]),
                                    np.float32)[0])
        seen.append((func, (gx, gy, gz), (bx, by, bz), shmem, stream, ptrs, scale, extra))
        return 0
    cfn = proto(fake_launch)
    monkeypatch.setattr(cuda_mod, "_libcuda_launch", lambda: cfn)
    be.kernels = build.KernelCache("90", lambda cubin: _Kernel())
    be.stream_c = ctypes.c_void_p(0xABC)
    monkeypatch.setattr(FakeCuda, "packed_launcher", CudaBackend.packed_launcher)
    x = gp.asarray(np.arange(4096, dtype=np.float32), device=dev)
    y = gp.asarray(np.ones(4096, dtype=np.float32), device=dev)
    for k in range(3):
        e = np.float32(k + 0.5) * x + y
        gp.evaluate(e)
        func, grid, block, shmem, stream, ptrs, scale, extra = seen[-1]
        assert func == _Kernel.handle and stream == 0xABC and shmem == 0 and extra is None
        assert ptrs == [x._node.buf.ptr, y._node.buf.ptr, e._node.buf.ptr]
        assert scale == k + 0.5
        assert grid[1:] == (1, 1) and block[1:] == (1, 1) and grid[0] > 0 and block[0] > 0
    assert len(seen) == 3


STAGED = {
    "standardize": lambda X: (X - X.mean(0)) / X.std(0),
    "centered_cols": lambda X: X - X.sum(0) / 3.0,
    "row_then_full": lambda X: X / X.max(),
}


def _scalar_args(args):
    """The non-pointer arguments as Python numbers (pointers are allocation-dependent)."""
    out = []
    for a in args:
        if isinstance(a, (int, np.uint64)) and not isinstance(a, bool) and int(a) >= 1 << 20:
            continue
        out.append(float(a) if not isinstance(a, complex) else a)
    return out


@pytest.mark.parametrize("name", list(STAGED))
def test_replay_of_several_kernels_matches_general_path(fake, name):
    """A materialization of a few kernels (a reduction, then the elementwise pass reading
    it) replays every kernel with the general path's kernels, grids and parameters."""
    dev, be = fake
    rng = np.random.default_rng(1)
    X = gp.asarray(rng.standard_normal((256, 96)).astype(np.float32), device=dev)
    f = STAGED[name]
    with gp.config.override(fast_stages=1):         # the general path, for reference
        be.launches.clear()
        gp.evaluate(f(X))
        want = list(be.launches)
    assert len(want) >= 2
    for attempt in range(3):                         # build, then replays
        be.launches.clear()
        gp.stats.reset()
        gp.evaluate(f(X))
        got = list(be.launches)
        assert len(got) == len(want) == gp.stats.groups, attempt
        for (k1, g1, b1, a1), (k2, g2, b2, a2) in zip(want, got):
            assert k1 is k2 and g1 == g2 and b1 == b2 and len(a1) == len(a2), attempt
            assert _scalar_args(a1) == _scalar_args(a2), attempt
    assert any(type(v) is cuda_replay.Stages for v in be.fast.cache.values())


def test_abandoned_stage_build_counts_its_kernels(fake):
    # `s + s[::-1]`: the reduction stage replays and launches, then the reversed view of
    # its slot cannot (its offset is not a launch argument); the general path runs the
    # rest.  stats counts both kernels, as many as were launched.
    dev, be = fake
    a = np.random.default_rng(21).standard_normal((6, 8))
    for expr in (lambda s: s + s[::-1], lambda s: s[::-1] + s, lambda s: s[::2] + 1):
        x = gp.asarray(a, device=dev)
        r = expr(x.sum(0))
        be.fast.cache.clear()
        be.launches.clear()
        gp.stats.reset()
        gp.evaluate(r)
        assert gp.stats.groups == len(be.launches) == 2
        assert be.fast.ran == ()


def test_constant_statement_writes_wait_and_fold(fake):
    """``a[i, j] = c`` is a statement's write like ``a[i, j] += b``: on CUDA it waits, and
    the next statement on the same place folds it (four launches when a constant write
    launched at once); the two folded writes then run as one sequence (one launch)."""
    dev, be = fake
    a = gp.asarray(np.arange(40.0).reshape(4, 10), device=dev)
    gp.evaluate(a)
    for j in range(3):          # (the first round builds the kernels)
        be.launches.clear()
        a[1, j] = 0.5
        a[1, j] += 2.0
        a[2, 3:6] = 7.0
        a[2, 3:6] *= a[0, 3:6]
        gp.evaluate(a)
        assert len(be.launches) == 1, j


def _new_kernels(be, before):
    return [k[0] for k in be.kernels.mem if k not in before]


def test_a_synced_write_compiles_once_for_every_length(fake):
    """durbin's ``y[:k] += a * flip(y[:k])`` for a growing k: the one-block kernel is
    launched with the block k needs and compiled once (its launch bound the largest)."""
    dev, be = fake
    rng = np.random.default_rng(3)
    yn = rng.standard_normal(900)
    y = gp.asarray(yn, device=dev)
    before = set(be.kernels.mem)
    blocks = set()
    for k in (5, 40, 100, 300, 700, 900):
        be.launches.clear()
        y[:k] += 0.25 * gp.flip(y[:k])
        yn[:k] += 0.25 * np.flip(yn[:k])
        gp.evaluate(y)
        assert len(be.launches) == 1
        blocks.add(be.launches[0][2])
    assert len(blocks) > 1                      # each length its own block ...
    assert len(_new_kernels(be, before)) == 1   # ... one kernel


def test_a_state_updated_in_place_compiles_few_kernels(fake):
    """NPBench nbody's loop: a state updated in place twice a step and read by every step
    (a reduction) compiles the same kernels every step, not one more per step while its
    graph grew (ten steps: 2 new kernels, 10 without ``bounds.updated_in_place``)."""
    dev, be = fake
    rng = np.random.default_rng(4)
    v = gp.asarray(rng.standard_normal((25, 3)), device=dev)
    accs = [gp.asarray(a, device=dev) for a in rng.standard_normal((11, 25, 3))]
    before = set(be.kernels.mem)
    for k in range(10):         # (accs[k]: what nbody's getAcc returns, new memory)
        v += accs[k] * 0.05 / 2.0
        v += accs[k + 1] * 0.05 / 2.0
        gp.evaluate((v * v).sum())
    assert len(_new_kernels(be, before)) <= 3


def _stockham(xp, x, y, R=2, K=9):
    """NPBench stockham_fft's loop: each step's write into ``y`` flushes two lazy readers
    of it (the twiddled values and the product over them)."""
    N = R ** K
    i_coord, j_coord = xp.mgrid[0:R, 0:R]
    dft_mat = xp.exp(-2.0j * xp.pi * i_coord * j_coord / R)
    y[:] = x[:]
    ii_coord, jj_coord = xp.mgrid[0:R, 0:R**K]
    for i in range(K):
        yv = xp.reshape(y, (R**i, R, R**(K - i - 1)))
        tmp_perm = xp.transpose(yv, axes=(1, 0, 2))
        D = xp.empty((R, R**i, R**(K - i - 1)), dtype=xp.complex128)
        tmp = xp.exp(-2.0j * xp.pi * ii_coord[:, :R**i] * jj_coord[:, :R**i] / R**(i + 1))
        D[:] = xp.repeat(xp.reshape(tmp, (R, R**i, 1)), R**(K - i - 1), axis=2)
        tmp_twid = xp.reshape(tmp_perm, (N, )) * xp.reshape(D, (N, ))
        y[:] = xp.reshape(dft_mat @ xp.reshape(tmp_twid, (R, R**(K - 1))), (N, ))


def test_a_program_run_again_plans_nothing(fake, monkeypatch):
    """The readers a write flushes come in the order they were made, whatever ids the
    arrays of an earlier run left behind: a second run of a program replays every kernel
    (NPBench stockham_fft, whose writes flush two readers each)."""
    dev, be = fake
    monkeypatch.setattr(_device, "_default", dev)
    plans = []
    orig = build.plan_group
    monkeypatch.setattr(build, "plan_group", lambda *a, **k: plans.append(1) or orig(*a, **k))
    xn = np.random.default_rng(5).standard_normal(512) * (1 + 0.5j)
    for run in range(5):
        if run == 1:
            plans.clear()
        y = gp.empty(512, dtype=complex, device=dev)
        _stockham(gp, gp.asarray(xn, device=dev), y)
        gp.evaluate(y)
    assert not plans


def _counting_schedules(fake, monkeypatch):
    """(device, backend, the root counts of the schedules made from now on), the fake
    device the default."""
    dev, be = fake
    monkeypatch.setattr(_device, "_default", dev)
    calls = []
    orig = schedule
    from gnumpy.backends import cuda_program
    for m in (realize, cuda_program):       # (a program's first run schedules there)
        monkeypatch.setattr(m, "schedule", lambda roots: calls.append(len(roots)) or
                            orig(roots))
    return dev, be, calls


def test_readers_that_read_each_other_are_flushed_without_a_schedule(fake, monkeypatch):
    """A write that flushes pending readers whose graphs share nothing but each other
    (stockham's twiddled input and its butterfly product made from it) computes them one
    after the other through the launch fast path: no schedule once the statements are
    known.  Two readers sharing a lazy value are scheduled together (computing it once)."""
    dev, be, calls = _counting_schedules(fake, monkeypatch)

    def step(y):
        a = y * 2.0
        b = gp.reshape(a, (4, 16)).sum(axis=0) + 1.0    # reads a
        c = y - 3.0                                     # reads y only
        y[:] = 0.5
        return a, b, c

    y = gp.asarray(np.arange(64.0), device=dev)
    for k in range(3):
        if k == 2:
            calls.clear()
        step(y)
    assert 2 not in calls and 3 not in calls, calls
    calls.clear()
    z = gp.asarray(np.arange(64.0), device=dev)

    def two(z):
        t = z * 2.0                                     # (gone: no pending array)
        return t + 1.0, t - 1.0                         # both read the lazy t

    u, v = two(z)
    z[:] = 0.5
    assert 2 in calls, calls


def test_roots_scheduled_as_one_group_replay_it_without_a_schedule(fake, monkeypatch):
    """Several roots that a schedule made one group of (pending readers sharing a lazy
    value, flushed together before a write) replay that group when they come again: one
    schedule, the first time; one launch for the readers each time."""
    dev, be, calls = _counting_schedules(fake, monkeypatch)
    z = gp.asarray(np.arange(64.0), device=dev)

    def two(z):
        t = z * 2.0                                     # (gone: no pending array)
        return t + 1.0, t - 1.0                         # both read the lazy t

    launches = []
    for k in range(4):
        n0 = len(be.launches)
        u, v = two(z)
        z[:] = 0.5 + k
        gp.evaluate(u, v, z)
        launches.append(len(be.launches) - n0)
    assert calls == [2], calls
    assert launches == [2, 2, 2, 2], launches          # the readers' kernel, the write


def test_readers_flushed_in_a_chain_keep_their_values():
    yn = np.arange(64.0)
    y = gp.asarray(yn)
    a = y * 2.0
    b = gp.reshape(a, (4, 16)).sum(axis=0) + 1.0
    c = (b[:, None] * a[None, :16]).sum(axis=0)         # reads a and b
    y[:] = 0.5
    an = yn * 2.0
    bn = an.reshape(4, 16).sum(axis=0) + 1.0
    check(a, an)
    check(b, bn)
    check(c, (bn[:, None] * an[None, :16]).sum(axis=0))
    check(y, np.full(64, 0.5))


def test_stockham_loop_matches_numpy():
    xn = np.random.default_rng(6).standard_normal(256) * (1 - 0.25j)
    yn, y = np.empty(256, complex), gp.empty(256, dtype=complex)
    _stockham(np, xn, yn, K=8)
    _stockham(gp, gp.asarray(xn), y, K=8)
    check(y, yn, rtol=1e-12, atol=1e-12)
    check(y, np.fft.fft(xn), rtol=1e-9, atol=1e-9)


def _maxpool_of_lazy(xp, x, bias):
    """NPBench lenet's pooling of a lazy ``relu(conv + bias)``: its first statements
    reduce slices of the lazy value (then it is computed, at its third view)."""
    y = xp.maximum(x + bias, 0)
    out = xp.empty((x.shape[0], x.shape[1] // 2, x.shape[2] // 2, x.shape[3]), x.dtype)
    for i in range(x.shape[1] // 2):
        for j in range(x.shape[2] // 2):
            out[:, i, j, :] = xp.max(y[:, 2 * i:2 * i + 2, 2 * j:2 * j + 2, :], axis=(1, 2))
    return out


def test_a_reduction_of_a_slice_of_a_lazy_value_replays(fake, monkeypatch):
    """A written reduction over a slice of a lazy expression, whose offsets are constants
    of its kernel, replays per offsets (planned once, not at every call)."""
    dev, be = fake
    monkeypatch.setattr(_device, "_default", dev)
    plans = []
    orig = build.plan_group
    monkeypatch.setattr(build, "plan_group", lambda *a, **k: plans.append(1) or orig(*a, **k))
    rng = np.random.default_rng(7)
    xn = rng.standard_normal((2, 8, 8, 3)).astype(np.float32)
    bn = rng.standard_normal(3).astype(np.float32)
    for run in range(4):
        if run == 2:
            plans.clear()
        out = _maxpool_of_lazy(gp, gp.asarray(xn, device=dev), gp.asarray(bn, device=dev))
        gp.evaluate(out)
    assert not plans


def test_maxpool_of_a_lazy_value_matches_numpy():
    rng = np.random.default_rng(8)
    xn = rng.standard_normal((2, 8, 6, 3)).astype(np.float32)
    bn = rng.standard_normal(3).astype(np.float32)
    for _ in range(2):
        check(_maxpool_of_lazy(gp, gp.asarray(xn), gp.asarray(bn)),
              _maxpool_of_lazy(np, xn, bn), rtol=0, atol=0)


def _overlapping_statements(xp, n):
    """Writes whose values read the memory they overwrite other than element for element
    (each a separate statement, several times: the replays), on a fresh array: seidel's
    row, durbin's flip, a 2-D block, complex values, int32 and float32 with a cast; `n`
    elements in the durbin write."""
    rng = np.random.default_rng(n)
    A = xp.asarray(rng.standard_normal((6, n + 2)))
    y = xp.asarray(rng.standard_normal(n + 8))
    Z = xp.asarray(rng.standard_normal((5, 7)) + 1j * rng.standard_normal((5, 7)))
    K = xp.asarray(rng.integers(-50, 50, n + 3, dtype=np.int32))
    F = xp.asarray(rng.standard_normal(n + 3).astype(np.float32))
    for i in range(1, min(5, n)):
        A[i, 1:-1] += A[i - 1, :-2] + A[i, 2:] * 0.5 - A[i + 1, 1:-1]
        y[:n - i] += 0.25 * xp.flip(y[:n - i])
        y[i:n] = y[:n - i] * -1.5
        Z[1:4, 2:6] = Z[0:3, 1:5] * (1 - 2j) + Z[1:4, 2:6]
        K[1:n + 1] -= K[:n] * 3 - K[2:n + 2]
        F[1:n + 1] = F[::-1][1:n + 1] + K[:n]
    return A, y, Z, K, F


@pytest.mark.parametrize("n", [3, 48, 1000, 1024, 1025])
def test_overlapping_small_writes_are_one_kernel(fake, n):
    """A write whose value reads the memory it overwrites other than element for element,
    of at most SYNC_MAX elements, is one kernel of one block that loads before it stores
    (seidel's row, durbin's flip); a larger one computes a temporary, then copies (two).
    Values are NumPy's, on the default device (the synced kernel where it is CUDA)."""
    dev, be = fake
    small = n <= 1024               # (render_ew.SYNC_MAX)
    rng = np.random.default_rng(0)
    y = gp.asarray(rng.standard_normal(n + 8), device=dev)
    A = gp.asarray(rng.standard_normal((4, n + 2)), device=dev)
    gp.evaluate(y, A)
    for k in range(3):              # the build, then replays
        be.launches.clear()
        y[:n] += 0.25 * gp.flip(y[:n])
        gp.evaluate(y)
        A[2, 1:-1] += A[1, :-2] + A[2, 2:]
        gp.evaluate(A)
        assert len(be.launches) == (2 if small else 4), (k, len(be.launches))
    synced = [key[0] for key in be.kernels.mem if getattr(key[0], "sync", False)]
    assert bool(synced) == small
    assert all(not key.restrict and key.vec == 1 for key in synced)
    for g, e in zip(_overlapping_statements(gp, n), _overlapping_statements(np, n)):
        check(g, e)


def test_contiguous_copies_are_one_driver_copy(fake, monkeypatch):
    """``dst[...] = src`` between C-contiguous memory of one dtype and shape, apart, is
    one ``cuMemcpyDtoDAsync`` (``CudaBackend.copy_leaf``; the driver call recorded here)
    with byte pointers and length; overlapping, strided, empty and mixed-dtype writes keep
    the copy kernel."""
    from gnumpy.backends import cuda_memory
    dev, be = fake
    calls = []
    monkeypatch.setattr(cuda_memory, "_libcuda_copy",
                        lambda: (lambda d, s, n, st: calls.append((d, s, n)) or 0))
    monkeypatch.setattr(FakeCuda, "copy_leaf", CudaBackend.copy_leaf)

    def put(dst, src):
        calls.clear()
        be.launches.clear()
        dst[...] = src
        realize.settle()
        return list(calls), len(be.launches)

    for dt in (np.float64, np.float32, np.int8, np.complex128, np.bool_, np.float16):
        it = np.dtype(dt).itemsize
        A = gp.asarray(np.zeros((4, 6), dt), device=dev)
        B = gp.asarray(np.ones((4, 6), dt), device=dev)
        gp.evaluate(A, B)
        pa, pb = A._node.buf.ptr, B._node.buf.ptr
        assert put(A[1], B[2]) == ([(pa + 6 * it, pb + 12 * it, 6 * it)], 0)
        assert put(A[0:2], A[2:4]) == ([(pa, pa + 12 * it, 12 * it)], 0)    # apart
        assert put(A[0, 0:3], A[0, 3:6]) == ([(pa, pa + 3 * it, 3 * it)], 0)  # adjacent
        assert put(A[1:2, 2:3], B[3:4, 5:6]) == ([(pa + 8 * it, pb + 23 * it, it)], 0)
        for dst, src in ((A[1:3], A[2:4]), (A[0, 1:4], A[0, 0:3]),     # overlapping
                         (A[:, 0], B[:, 1])):                           # strided
            c, n = put(dst, src)
            assert c == [] and n >= 1
        assert put(A[0, 0:0], B[0, 0:0])[0] == []                       # empty
    A = gp.asarray(np.zeros(4), device=dev)
    B = gp.asarray(np.ones(4, np.float32), device=dev)
    gp.evaluate(A, B)
    assert put(A, B) == ([], 1)                                         # a cast
