"""The CUDA backend's CUB code (``backends/cuda_cub.py`` and its callers in ``sort_ops`` and
``CudaBackend._scan``) run on the host against NumPy.

A stand-in for ``cuda.compute`` implements the three algorithms gnumpy builds with CUB's
documented semantics -- a stable radix sort that orders keys by their bits (so negative
NaNs first, each NaN payload its own key, -0.0 before +0.0: the worst case the canonical
keys must survive), inclusive scans, unique-by-key with ``==`` -- over host memory, and a
stand-in backend gives the CUDA code host buffers (their ``ptr`` is a host address), the
CPU backend's elementwise evaluation for ``write`` and the g++ build of gnumpy's own
kernels for gathers and scatters. What runs is gnumpy's CUDA code: the calls, their
arguments, pointer offsets, row loops, transposes, views and the flows of sort, scan and
unique.
"""
import ctypes
import enum
import types

import numpy as np
import pytest

import gnumpy as gp
from gnumpy import _dtypes as D
from gnumpy._api._common import wrap
from gnumpy._device import CPU, backend
from gnumpy._graph import ir
from gnumpy._graph import layout as L
from gnumpy._graph.ir import leaf
from gnumpy.backends import cuda_cub, cuda_libs, sort_ops
from gnumpy.backends.cpu import leaf_array
from gnumpy.backends.cuda import CudaBackend
from helpers import DTYPES
from sort_helpers import HostDev, cub_everywhere, dup_sample, host_lib, np_desc_argsort

REAL = [d for d in DTYPES if d.kind != "c"]
REAL_IDS = [str(d) for d in REAL]
TEMP = 64                       # temporary bytes every stand-in algorithm asks for


# ------------------------------------------------------------------ host memory

class HostBuf(np.ndarray):
    """A host byte buffer that looks like a pool buffer (``.ptr``)."""

    @property
    def ptr(self):
        return self.ctypes.data


def _alloc(nbytes):
    return np.zeros(max(int(nbytes), 16), np.uint8).view(HostBuf)


def _view(a):
    """The host memory behind a ``DeviceArray``."""
    if a.size == 0:
        return np.empty(0, a.dtype)
    raw = (ctypes.c_char * (a.size * a.dtype.itemsize)).from_address(a.ptr)
    return np.frombuffer(raw, a.dtype, a.size)


# ------------------------------------------------------------------ the cuda.compute stand-in

class SortOrder(enum.Enum):
    ASCENDING = 0
    DESCENDING = 1


class OpKind(enum.Enum):
    PLUS = 1
    MULTIPLIES = 2
    EQUAL_TO = 3


def _bits_order(k):
    """Radix sort's key order as uint64: sign-flipped integers, IEEE floats by their bits."""
    dt = k.dtype
    ut = np.dtype(f"u{dt.itemsize}")
    top = ut.type(1) << ut.type(8 * dt.itemsize - 1)
    if dt.kind == "u":
        return k.astype(np.uint64)
    u = k.view(ut)
    if dt.kind == "i":
        return (u ^ top).astype(np.uint64)
    assert dt.kind == "f", dt
    return np.where(u & top, ~u, u | top).astype(np.uint64)


class _Algo:
    def __init__(self, run):
        self.run = run
        self.asked = []         # the item counts its temporary storage was asked for

    def __call__(self, *, temp_storage, stream, **kw):
        assert isinstance(stream.__cuda_stream__()[1], int)
        need = TEMP + kw["num_items"]       # (sized by the item count, as CUB's are)
        if temp_storage is None:
            self.asked.append(kw["num_items"])
        else:
            assert temp_storage.nbytes >= need and temp_storage.dtype == np.uint8
            self.run(**kw)
        return need


class FakeCompute(types.SimpleNamespace):
    """``cuda.compute`` over host memory (the calls gnumpy makes, checked as they come)."""

    __version__ = "host"
    SortOrder = SortOrder
    OpKind = OpKind

    def __init__(self):
        super().__init__(builds=[], algos=[])

    def serialize(self, algo):
        raise TypeError("host stand-in: not serializable")

    def make_radix_sort(self, *, d_in_keys, d_out_keys, d_in_values, d_out_values, order):
        kdt, pairs = d_in_keys.dtype, d_in_values is not None
        assert kdt.kind in "iuf" and d_out_keys.dtype == kdt
        self.builds.append(("radix_sort", kdt, pairs, order))
        self.algos.append(algo := _Algo(None))

        def run(d_in_keys, d_out_keys, d_in_values, d_out_values, num_items):
            assert (d_in_values is not None) == pairs and d_in_keys.dtype == kdt
            assert d_in_keys.size == d_out_keys.size == num_items
            k = _view(d_in_keys).copy()
            key = _bits_order(k)
            p = np.argsort(~key if order is SortOrder.DESCENDING else key, kind="stable")
            _view(d_out_keys)[:] = k[p]
            if pairs:
                assert d_in_values.size == d_out_values.size == num_items
                _view(d_out_values)[:] = _view(d_in_values).copy()[p]
        algo.run = run
        return algo

    def make_inclusive_scan(self, *, d_in, d_out, op, init_value):
        dt = d_in.dtype
        assert init_value is None and d_out.dtype == dt and dt in cuda_cub.SCAN_CUB_DTYPES
        self.builds.append(("inclusive_scan", dt, op))

        def run(d_in, d_out, op, init_value, num_items):
            assert d_in.size == d_out.size == num_items and d_in.dtype == dt
            f = np.cumsum if op is OpKind.PLUS else np.cumprod
            _view(d_out)[:] = f(_view(d_in).copy(), dtype=dt)
        return _Algo(run)

    def make_unique_by_key(self, *, d_in_keys, d_in_items, d_out_keys, d_out_items,
                           d_out_num_selected, op):
        assert op is OpKind.EQUAL_TO and d_out_num_selected.size == 1
        self.builds.append(("unique_by_key", d_in_keys.dtype, d_in_items.dtype))

        def run(d_in_keys, d_in_items, d_out_keys, d_out_items, d_out_num_selected, op,
                num_items):
            k, it = _view(d_in_keys).copy(), _view(d_in_items).copy()
            assert k.size == it.size == num_items
            head = np.ones(num_items, bool)
            head[1:] = k[1:] != k[:-1]                  # ==, so NaN never equals NaN
            m = int(head.sum())
            _view(d_out_keys)[:m] = k[head]
            _view(d_out_items)[:m] = it[head]
            _view(d_out_num_selected)[0] = m
        return _Algo(run)


# ------------------------------------------------------------------ the backend stand-in

class FakeBackend:
    """What cuda_cub and its callers use of ``CudaBackend``, over host memory."""

    def __init__(self):
        self.device = CPU
        self.arch = "host"
        self.pool = types.SimpleNamespace(alloc=_alloc)
        self.stream = types.SimpleNamespace(handle=0, sync=lambda: None)
        self.stream_int = 0
        self._driver = types.SimpleNamespace(
            cuMemsetD8Async=lambda p, v, n, s: (ctypes.memset(p, v, n), 0)[1:],
            cuMemcpyDtoHAsync=lambda d, s, n, st: (ctypes.memmove(d, s, n), 0)[1:])
        self._cpu = backend(CPU)

    def _check(self, res):
        assert (res[0] if isinstance(res, tuple) else res) == 0

    def write(self, dest, value):
        self._cpu.write(dest, value)

    _contig = CudaBackend._contig

    def _contiguous_copy(self, node):
        dest = leaf(_alloc(L.prod(node.shape) * node.dtype.itemsize), node.dtype, node.shape,
                    L.c_strides(node.shape), 0, CPU)
        self.write(dest, node)
        return dest


@pytest.fixture
def be(monkeypatch):
    fake = FakeCompute()
    monkeypatch.setattr(cuda_libs, "compute", lambda: fake)
    monkeypatch.setattr(cuda_cub, "compute", lambda: fake)
    lib = host_lib()
    monkeypatch.setattr(sort_ops, "CudaDev", lambda b: HostDev(lib))
    b = FakeBackend()
    b.fake = fake
    return b


def _leaf(a, strided=False):
    """A LEAF over a host copy of `a` (every other element of a doubled buffer if
    `strided`)."""
    a = np.asarray(a)
    if strided:
        big = np.zeros(a.shape[:-1] + (2 * a.shape[-1],), a.dtype) if a.ndim else a.copy()
        if a.ndim:
            big[..., ::2] = a
        buf = _alloc(big.nbytes)
        buf[:big.nbytes] = big.reshape(-1).view(np.uint8)
        st = L.c_strides(big.shape)
        st = st[:-1] + (2,) if a.ndim else st
        return leaf(buf, a.dtype, a.shape, st, 0, CPU)
    buf = _alloc(a.nbytes)
    buf[:a.nbytes] = np.ascontiguousarray(a).reshape(-1).view(np.uint8)
    return leaf(buf, a.dtype, a.shape, L.c_strides(a.shape), 0, CPU)


def _got(node):
    return leaf_array(node).copy()


def _run_barrier(b, impl, node):
    buf = _alloc(L.prod(node.shape) * node.dtype.itemsize)
    impl(b, node, buf)
    return leaf_array(leaf(buf, node.dtype, node.shape, L.c_strides(node.shape), 0, CPU))


# ------------------------------------------------------------------ tests

def _radix_input(a, op):
    """What the sort API hands the CUDA sort on the CUB path (``sorting._radix_keys``:
    ``cuda_cub.canonical``, evaluated here by the CPU backend)."""
    if a.dtype.kind != "f":
        return a
    return wrap(cuda_cub.canonical(gp.asarray(a)._node, zeros=op == "argsort")).get()


@pytest.mark.parametrize("dtype", REAL, ids=REAL_IDS)
def test_sorts_on_host(be, monkeypatch, dtype):
    cub_everywhere(monkeypatch)
    rng = np.random.default_rng(60)
    for shape in [(1,), (7,), (3, 40), (2, 3, 9)]:
        a = dup_sample(dtype, shape, rng)
        for strided in (False, True):
            for desc in (False, True):
                ref = np_desc_argsort(a) if desc else np.argsort(a, axis=-1, kind="stable")
                for op in ("sort", "argsort"):
                    x = _leaf(_radix_input(a, op), strided)
                    dt = a.dtype if op == "sort" else D.int64
                    got = _run_barrier(be, sort_ops._cuda_sort,
                                       ir.barrier(op, (x,), desc, dt, a.shape))
                    exp = ref if op == "argsort" else np.take_along_axis(a, ref, -1)
                    np.testing.assert_array_equal(got, exp)
    assert all(bd[1].kind != "b" for bd in be.fake.builds)        # bool sorts as uint8


@pytest.mark.parametrize("dtype", sorted(cuda_cub.SCAN_CUB_DTYPES, key=str), ids=str)
def test_scans_on_host(be, monkeypatch, dtype):
    cub_everywhere(monkeypatch)
    rng = np.random.default_rng(61)
    for shape, axis in [((9,), 0), ((3, 7), 1), ((3, 7), 0), ((4, 6, 2), 1), ((2, 1, 5), 2)]:
        a = rng.integers(-1, 2, shape).astype(dtype)
        if a.dtype.kind == "u":
            a = rng.integers(0, 3, shape).astype(dtype)
        for op, f, ident in (("cumsum", np.cumsum, 0), ("cumprod", np.cumprod, 1)):
            for inc in (False, True):
                exp = f(a, axis=axis, dtype=a.dtype)
                if inc:
                    pad = list(a.shape)
                    pad[axis] = 1
                    exp = np.concatenate([np.full(pad, ident, a.dtype), exp], axis=axis)
                node = ir.barrier(op, (_leaf(a, strided=True),), (axis, inc), a.dtype,
                                  exp.shape)
                np.testing.assert_array_equal(_run_barrier(be, CudaBackend._scan, node), exp)


def _check_unique(b, a, strided=False, **kw):
    exp = np.unique(a, **kw)
    exp = exp if isinstance(exp, tuple) else (exp,)
    got = sort_ops.cuda_unique(b, _leaf(a, strided), **kw)
    assert got[0].dtype == a.dtype
    got = [_got(g) for g in got if g is not None]
    assert len(got) == len(exp)
    for g, e in zip(got, exp):
        np.testing.assert_array_equal(g, e.reshape(-1) if g.ndim == 1 else e)


def _sorted_by_cub(be) -> bool:
    """Did a CUB radix sort run?  (unique of a short input sorts with gnumpy's kernels, a
    long one with CUB's radix sort; ``cub_everywhere`` sends short ones to CUB too.)"""
    return any(bd[0] == "radix_sort" for bd in be.fake.builds)


@pytest.mark.parametrize("cub", [False, True], ids=["kernels", "cub"])
@pytest.mark.parametrize("dtype", REAL, ids=REAL_IDS)
def test_unique_on_host(be, monkeypatch, dtype, cub):
    if cub:
        cub_everywhere(monkeypatch)
    rng = np.random.default_rng(62)
    for shape in [(1,), (30,), (4, 25)]:
        a = dup_sample(dtype, shape, rng)
        for strided in (False, True):
            _check_unique(be, a, strided)
            _check_unique(be, a, strided, return_index=True, return_inverse=True,
                          return_counts=True)
            _check_unique(be, a, strided, return_index=True, return_counts=True,
                          equal_nan=False)
            _check_unique(be, a, strided, return_inverse=True)
    _check_unique(be, dup_sample(dtype, (), rng), return_counts=True)
    assert _sorted_by_cub(be) == cub


@pytest.mark.parametrize("cub", [False, True], ids=["kernels", "cub"])
def test_unique_nan_payloads_on_host(be, monkeypatch, cub):
    if cub:
        cub_everywhere(monkeypatch)
    x = np.array([2.0, np.nan, -0.0, 1.0, -np.nan, 0.0, 2.0, np.nan, -0.0], np.float32)
    x.view(np.uint32)[7] |= 5
    for eq in (True, False):
        _check_unique(be, x, return_index=True, return_inverse=True, return_counts=True,
                      equal_nan=eq)
    assert _sorted_by_cub(be) == cub


def test_temporary_storage_asked_once_per_item_count(be):
    """CUB's temporary storage is asked for once per built algorithm and item count (the
    question costs the host as much as the run); another count asks again, and every run
    gets the storage its count needs (the stand-in sizes it by the count and checks)."""
    rng = np.random.default_rng(62)
    for n in (40, 40, 1000, 40, 1000, 7):
        a = rng.standard_normal(n).astype(np.float32)
        x, out = _leaf(a), _alloc(a.nbytes)
        cuda_cub.radix_sort(be, n, a.dtype, x.buf.ptr, out.ptr)
        np.testing.assert_array_equal(np.frombuffer(out[:a.nbytes].tobytes(), a.dtype),
                                      np.sort(a))
    algo, = be.fake.algos
    assert algo.asked == [40, 1000, 7]
