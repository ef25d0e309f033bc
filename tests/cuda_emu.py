"""gnumpy's CUDA backend run on the host, with real values.

``EmuCuda`` is ``CudaBackend`` with the driver replaced:

* device memory is host memory (numpy uint8 buffers kept alive; a pointer is an address),
  with poison bytes (0xFF: NaN in every float dtype) in fresh allocations and canary
  guards after every block (checked after each launch when ``EMU_GUARDS=1``);
* every driver entry the backend uses for copies, memsets and reads is routed to
  memmove/memset: cuda.bindings-style ``_driver`` calls (cuMemcpyHtoDAsync,
  cuMemcpyDtoHAsync, cuMemsetD8Async, cuMemsetD32Async, cuMemAllocHost, cuStreamQuery,
  cuMemGetInfo) and the libcuda ctypes functions of ``cuda_probe.libcuda``
  (cuLaunchKernel, cuMemcpyDtoHAsync_v2, cuStreamQuery, cuMemcpyDtoDAsync_v2): the real
  launch fast path (``compile_packed(direct=...)``), element reads and ``copy_leaf`` run;
* kernels: ``KernelCache.get`` keeps each kernel's CUDA source (optionally NVRTC-compiles
  it too, ``EMU_NVRTC=1``), builds it with g++ after ``emu_rt.h`` (CUDA built-ins on the
  host) and before ``emu_run.h`` (an entry point that decodes the kernel's parameter
  block with the kernel's own parameter types, then runs the grid: blocks one after
  another, threads serially, or as fibers when the kernel uses __syncthreads, shared
  memory, shuffles or ballots);
* libraries: cuBLAS (gemm/gemv/strided-batched, NumPy on the host buffers: the test
  suite's FakeCublas), cuSOLVER (tests/cusolver_host.FakeCusolver), CUB (tests/
  test_cub_host.FakeCompute); cuFFT and cuBLASLt raise NotImplementedError.

``install(ordinal=0)`` makes an EmuCuda the backend of ``Device('cuda', ordinal)`` and the
default device.
"""
from __future__ import annotations

import collections
import ctypes
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import types
import weakref
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent     # tests/: the suite's fake libraries
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import gnumpy as gp  # noqa: E402
from gnumpy import _device  # noqa: E402
from gnumpy._config import config  # noqa: E402
from gnumpy.backends import cuda as cuda_mod  # noqa: E402
from gnumpy.backends import cuda_launchers, cuda_libs, cuda_probe  # noqa: E402
from gnumpy.backends.cuda import CudaBackend  # noqa: E402
from gnumpy.backends.cuda_fast import FastPath  # noqa: E402
from gnumpy.backends.cuda_memory import DeviceBuffer, MemoryPool  # noqa: E402
from gnumpy.kernels import build, cache, cache_key  # noqa: E402
from gnumpy.kernels.compile import KERNEL_NAME, compile_cubin  # noqa: E402

CACHE = Path(os.environ.get("EMU_CACHE", str(Path(tempfile.gettempdir()) / "gnumpy_cuda_emu")))
GUARD = 256
POISON = 0xFF
CANARY = 0xA5
CHECK_GUARDS = os.environ.get("EMU_GUARDS", "1") == "1"
NVRTC = os.environ.get("EMU_NVRTC", "0") == "1"
EMU_STACKS = os.environ.get("EMU_STACKS", "0") == "1"
REVERSE = int(os.environ.get("EMU_ORDER", "forward") == "reverse")   # blocks, threads in reverse
SM_COUNT = int(os.environ.get("EMU_SM", "4"))

# ---------------------------------------------------------------------------- memory


class _HostMem:
    """A host allocation standing in for device memory: `handle` is the address."""
    __slots__ = ("arr", "handle", "size", "__weakref__")

    def __init__(self, nbytes):
        raw = np.empty(nbytes + 2 * GUARD + 256, np.uint8)
        start = (-raw.ctypes.data) % 256 + GUARD
        self.arr = raw
        raw[:] = CANARY
        raw[start:start + nbytes] = POISON
        self.handle = raw.ctypes.data + start
        self.size = nbytes

    def guards_ok(self):
        a = self.arr
        start = self.handle - a.ctypes.data
        return bool((a[start - GUARD:start] == CANARY).all() and
                    (a[start + self.size:start + self.size + GUARD] == CANARY).all())


class EmuPool(MemoryPool):
    """The real pool's free lists and size classes over host allocations."""

    def __init__(self, backend):
        self.backend = backend
        self._empty = DeviceBuffer(None, 0)
        self._free = {}
        self.large_cached = 0
        self.capture = None
        self._side = None
        self.live = {}      # handle -> (size, weakref to its numpy array)
        self.allocated = 0
        self.history = []

    def _attr(self, name):
        return self.allocated

    def info(self):
        return {"used": self.allocated, "reserved": self.allocated, "peak": self.allocated,
                "limit": config.pool_limit}

    def trim(self):
        for free in self._free.values():
            free.clear()
        self.large_cached = 0

    def _alloc(self, nbytes):
        m = _HostMem(nbytes)
        seq = len(self.history)
        # liveness follows the numpy array, not the _HostMem: a DeviceBuffer collected in a
        # reference cycle resurrects its _HostMem into the free list (DeviceBuffer.__del__)
        # after the cycle's weakrefs were cleared; the array is not GC-tracked, so its
        # weakref lives until the memory is really released
        self.live[m.handle] = (m.size, weakref.ref(m.arr, lambda _, h=m.handle, s=seq:
                                                    self._freed(h, s)))
        self.allocated += nbytes
        self.history.append([m.handle, nbytes, len(self.backend.log), None,
                             EMU_STACKS and "".join(traceback.format_stack(limit=14)[:-2])])
        return DeviceBuffer(m, nbytes)

    def _freed(self, handle, seq):
        self.history[seq][3] = len(self.backend.log)
        self.live.pop(handle, None)

    def whence(self, ptr):
        """What the history says of `ptr` (the last allocation that held it)."""
        for h in reversed(self.history):
            if h[0] <= ptr <= h[0] + h[1]:
                return (f"allocation #{self.history.index(h)} of {h[1]} B made at launch {h[2]}, "
                        f"freed at launch {h[3]} (now {len(self.backend.log)}); allocated at:\n{h[4]}")
        return "never allocated by the pool"

    def owner(self, ptr):
        for h, (size, _) in self.live.items():
            if h <= ptr <= h + size:
                return h
        return None

    def check_guards(self, what):
        bad = []
        for h, (size, ref) in list(self.live.items()):
            a = ref()
            if a is None:
                continue
            start = h - a.ctypes.data
            if not ((a[start - GUARD:start] == CANARY).all() and
                    (a[start + size:start + size + GUARD] == CANARY).all()):
                bad.append((h, size))
        if bad:
            for h, size in bad:     # (reported once)
                a = self.live[h][1]()
                start = h - a.ctypes.data
                a[start - GUARD:start] = CANARY
                a[start + size:start + size + GUARD] = CANARY
            raise EmuError(f"{what}: wrote outside its buffers (guard bytes of "
                           f"{len(bad)} allocation(s) changed, e.g. {bad[0][1]} bytes at "
                           f"{bad[0][0]:#x})")


class EmuError(RuntimeError):
    pass


# ---------------------------------------------------------------------------- driver

def _addr(x):
    if isinstance(x, ctypes.c_void_p):
        return x.value or 0
    if hasattr(x, "value") and not isinstance(x, (int, np.integer)):
        return int(x.value or 0)
    return int(x)


class _Result(int):
    @property
    def name(self):
        return {0: "CUDA_SUCCESS", 600: "CUDA_ERROR_NOT_READY"}.get(int(self), str(int(self)))


class _CUresult:
    CUDA_SUCCESS = _Result(0)
    CUDA_ERROR_NOT_READY = _Result(600)

    def __call__(self, v):
        return _Result(v)


class EmuDriver:
    """The cuda.bindings.driver calls the backend makes, on host memory."""

    CUresult = _CUresult()

    def __init__(self, be):
        self.be = be
        self.calls = collections.Counter()
        self._hosts = []

    def cuMemcpyHtoDAsync(self, dst, src, n, stream):
        self.calls["HtoD"] += 1
        ctypes.memmove(_addr(dst), _addr(src), int(n))
        return (self.CUresult.CUDA_SUCCESS,)

    def cuMemcpyDtoHAsync(self, dst, src, n, stream):
        self.calls["DtoH"] += 1
        ctypes.memmove(_addr(dst), _addr(src), int(n))
        return (self.CUresult.CUDA_SUCCESS,)

    def cuMemcpyDtoDAsync(self, dst, src, n, stream):
        self.calls["DtoD"] += 1
        ctypes.memmove(_addr(dst), _addr(src), int(n))
        return (self.CUresult.CUDA_SUCCESS,)

    def cuMemsetD8Async(self, ptr, v, n, stream):
        self.calls["memset8"] += 1
        ctypes.memset(_addr(ptr), int(v), int(n))
        return (self.CUresult.CUDA_SUCCESS,)

    def cuMemsetD32Async(self, ptr, v, n, stream):
        self.calls["memset32"] += 1
        arr = (ctypes.c_uint32 * int(n)).from_address(_addr(ptr))
        np.frombuffer(arr, np.uint32)[:] = int(v)
        return (self.CUresult.CUDA_SUCCESS,)

    def cuMemAllocHost(self, n):
        a = np.zeros(int(n) + 64, np.uint8)
        self._hosts.append(a)
        return (self.CUresult.CUDA_SUCCESS, a.ctypes.data)

    def cuStreamQuery(self, h):
        return (self.CUresult.CUDA_SUCCESS,)

    def cuStreamSynchronize(self, h):
        return (self.CUresult.CUDA_SUCCESS,)

    def cuMemGetInfo(self):
        return (self.CUresult.CUDA_SUCCESS, 8 << 30, 8 << 30)

    def __getattr__(self, name):
        raise NotImplementedError(f"emulated driver: {name} is not emulated")


# libcuda through ctypes (cuda_probe.libcuda): the functions the backend loads that way
_LAUNCH_PROTO = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, *[ctypes.c_uint] * 7,
                                 ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
_COPY_PROTO = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_uint64,
                               ctypes.c_size_t, ctypes.c_void_p)
_COPY_DD_PROTO = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_uint64, ctypes.c_uint64,
                                  ctypes.c_size_t, ctypes.c_void_p)
_QUERY_PROTO = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
_KERNELS: dict = {}     # handle -> EmuKernel
_RUN_LOCK = threading.Lock()
_ACTIVE = []            # the installed EmuCuda (the ctypes callbacks' backend)
_PENDING = []           # an exception raised inside a ctypes callback


def _cb_launch(func, gx, gy, gz, bx, by, bz, shmem, stream, params, extra):
    try:
        k = _KERNELS[func]
        _ACTIVE[0].paths["cuLaunchKernel (packed replay, ctypes)"] += 1
        _ACTIVE[0].run_kernel(k, (gx, gy, gz), (bx, by, bz), params, packed=True)
        return 0
    except BaseException as e:      # noqa: BLE001 - raised again by _launch_failed
        _PENDING.append(e)
        return 999


def _cb_dtoh(dst, src, n, stream):
    _ACTIVE[0]._driver.calls["DtoH(ctypes)"] += 1
    ctypes.memmove(dst, src, n)
    return 0


def _cb_dtod(dst, src, n, stream):
    _ACTIVE[0]._driver.calls["DtoD(ctypes)"] += 1
    ctypes.memmove(dst, src, n)
    return 0


def _cb_query(stream):
    return 0


_CALLBACKS = {"cuLaunchKernel": _LAUNCH_PROTO(_cb_launch),
              "cuMemcpyDtoHAsync_v2": _COPY_PROTO(_cb_dtoh),
              "cuMemcpyDtoDAsync_v2": _COPY_DD_PROTO(_cb_dtod),
              "cuStreamQuery": _QUERY_PROTO(_cb_query)}
_orig_launch_failed = cuda_launchers._launch_failed


def _dump_launch_frames(p):
    f = sys._getframe()
    while f is not None:
        if f.f_code.co_name == "launch" and "L" in f.f_locals:
            L = f.f_locals["L"]
            print("launch leaves:", file=sys.stderr)
            for i, n in enumerate(L):
                b = n.buf
                print(f"  L[{i}] {type(n).__name__} id={id(n):#x} buf={type(b).__name__} "
                      f"ptr={b.ptr:#x} hit={b.ptr <= p < b.ptr + max(b.size, 1)} "
                      f"_buf={type(getattr(b, '_buf', None)).__name__} "
                      f"shape={getattr(n, 'shape', None)} kind={getattr(n, 'kind', None)} "
                      f"refs={sys.getrefcount(n)}", file=sys.stderr)
            O = f.f_locals.get("O")
            if O is not None and hasattr(O, "_buf"):
                be = _ACTIVE[0]
                m = O._buf
                print(f"  O: ptr={O.ptr:#x} size={O.size} _buf.handle={m.handle:#x} "
                      f"_buf.size={m.size} in live={m.handle in be.pool.live} "
                      f"history={[i for i, h in enumerate(be.pool.history) if h[0] == m.handle]}",
                      file=sys.stderr)
        if f.f_code.co_name in ("_replay", "write", "_replay_stages", "__call__") and "rp" in f.f_locals:
            rp = f.f_locals["rp"]
            print("  in", f.f_code.co_name, "template", getattr(rp, "template", None), file=sys.stderr)
        f = f.f_back


def _launch_failed(code):
    if _PENDING:
        raise _PENDING.pop()
    _orig_launch_failed(code)


# ---------------------------------------------------------------------------- kernels

RT = (HERE / "cuda_emu_rt.h").read_text()
RUN = (HERE / "cuda_emu_run.h").read_text()
_COLLECTIVE = re.compile(r"__syncthreads|__shfl|__ballot|__syncwarp|__shared__|__any_sync|"
                         r"__all_sync|__activemask")
_LDH = re.compile(r"template <class V> __device__ __forceinline__ V gn_ldh\(const V\* p\) \{"
                  r".*?\n  return r;\n\}\n", re.S)


_MUTATE = os.environ.get("EMU_MUTATE")     # "old=>new": a fault injected into every kernel


_SORT_CUDA = "#ifndef GN_SORT_COMMON\n#define GN_SORT_COMMON\n#ifdef __CUDACC__\n"


def _host_source(src):
    """The kernel's source as g++ takes it: the PTX load-hint helper becomes a plain load,
    and the fixed-function kernels of ``render_sort`` take their CUDA branch (blocks and
    threads, which this emulator runs), not their one-thread host branch (tests/
    kernels_host runs that once; run once per emulated thread, an accumulating kernel
    such as the weighted bincount added every weight once per thread)."""
    src = _LDH.sub("template <class V> inline V gn_ldh(const V* p) { return *p; }\n", src)
    src = src.replace(_SORT_CUDA, _SORT_CUDA.replace("#ifdef __CUDACC__", "#if 1"))
    if _MUTATE:
        old, new = _MUTATE.split("=>")
        src = src.replace(old, new)
    return src


def _classify(key, src):
    """A kernel family name for coverage counts."""
    name = type(key).__name__
    if name == "FixedKey":
        fn = getattr(key, "fn", None)
        mod = getattr(fn, "__module__", "").rsplit(".", 1)[-1].replace("render_", "")
        return f"fixed:{mod}." + getattr(fn, "__name__", str(fn)).replace("_source", "")
    spec = getattr(key, "spec", None)
    kind = getattr(spec, "kind", None) or name
    fam = kind
    if kind == "ew":
        if "__syncthreads" in src:
            fam = "ew-synced"
        elif re.search(r"\bq\d+\b.*\bq\d+\b", src.split("gn_kernel(")[-1].split(")")[0]):
            fam = "ew-multi-out"
    elif kind == "reduce":
        fam = "reduce-split" if "gn_ctr" in src else "reduce"
    elif kind == "rows":
        fam = "rows"
    return fam


class EmuKernel:
    _next = [0x1000]

    def __init__(self, key, src, lib, family, fibers):
        self.handle = EmuKernel._next[0]
        EmuKernel._next[0] += 1
        _KERNELS[self.handle] = self
        self.key, self.src, self.lib, self.family, self.fibers = key, src, lib, family, fibers
        n = lib.gn_emu_nparams()
        self.n = n
        sizes = (ctypes.c_int * max(n, 1))()
        kinds = (ctypes.c_int * max(n, 1))()
        lib.gn_emu_param_sizes(sizes)
        lib.gn_emu_param_kinds(kinds)
        self.sizes = list(sizes)[:n]
        self.kinds = list(kinds)[:n]
        lib.gn_emu_launch.restype = ctypes.c_int
        lib.gn_emu_launch.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 6 + [ctypes.c_int] * 2
        lib.gn_emu_message.restype = ctypes.c_char_p
        self.launches = 0


def _gxx_build(src, tag):
    gxx = shutil.which("g++")
    if gxx is None:
        raise EmuError("g++ is needed to run CUDA kernels on the host")
    h = hashlib.sha256(src.encode()).hexdigest()[:20]
    CACHE.mkdir(parents=True, exist_ok=True)
    lib = CACHE / f"{tag}_{h}.so"
    if not lib.exists():
        cpp = CACHE / f"{tag}_{h}.{os.getpid()}.cpp"
        cpp.write_text(src)
        tmp = cpp.with_suffix(f".{os.getpid()}.so")
        opt = os.environ.get("EMU_OPT", "-O1")
        r = subprocess.run([gxx, opt, "-g0", "-std=c++17", "-ffp-contract=off", "-shared",
                            "-fPIC", "-w", "-o", str(tmp), str(cpp)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise EmuError(f"g++ failed on kernel {tag} ({cpp}):\n{r.stderr[-4000:]}")
        tmp.replace(lib)
        cpp.unlink()
    return ctypes.CDLL(str(lib))


class EmuKernelCache(build.KernelCache):
    """KernelCache whose kernels are host builds of their CUDA source."""

    def __init__(self, arch, be):
        super().__init__(arch, None)
        self.be = be
        self.compile_seconds = 0.0
        self.sources = {}

    def get(self, key, render):
        full = (key, config.codegen_items())
        k = self.mem.get(full)
        if k is not None:
            cache.counters.memory_hits += 1
            return k
        src = render()
        if NVRTC:                   # the real compile too: the source must pass NVRTC
            compile_cubin(src, self.arch, config.fma)
        fam = _classify(key, src)
        host = _host_source(src)
        fibers = bool(_COLLECTIVE.search(host))
        t0 = time.perf_counter()
        lib = _gxx_build(RT + "\n#line 1 \"kernel.cu\"\n" + host +
                         f"\n#define GN_EMU_KERNEL {KERNEL_NAME}\n" + RUN,
                         re.sub(r"\W", "_", fam))
        self.compile_seconds += time.perf_counter() - t0
        cache.counters.misses += 1
        k = EmuKernel(key, src, lib, fam, fibers)
        self.mem[full] = k
        self.be.families[fam] += 0
        return k


# ---------------------------------------------------------------------------- the backend

class _Stream:
    handle = 0

    def sync(self):
        pass

    def wait(self, other):
        pass


_PACK = {bool: np.bool_, float: np.float64, complex: np.complex128}


def _pack_arg(a):
    """The bytes cuda.core puts in a parameter's slot for Python argument `a`."""
    if isinstance(a, np.generic):
        return np.asarray(a).tobytes(), a.dtype
    if isinstance(a, bool):
        return np.bool_(a).tobytes(), np.dtype(np.bool_)
    if isinstance(a, int):
        return (np.uint64(a) if a >= 1 << 63 else np.int64(a)).tobytes(), np.dtype(np.int64)
    if isinstance(a, float):
        return np.float64(a).tobytes(), np.dtype(np.float64)
    if isinstance(a, complex):
        return np.complex128(a).tobytes(), np.dtype(np.complex128)
    if hasattr(a, "handle"):
        return np.uint64(int(a.handle)).tobytes(), np.dtype(np.uint64)
    if hasattr(a, "ptr"):
        return np.uint64(int(a.ptr)).tobytes(), np.dtype(np.uint64)
    raise EmuError(f"cannot pack kernel argument {a!r} ({type(a).__name__})")


class EmuCuda(CudaBackend):
    """CudaBackend over host memory with kernels run on the host."""

    def __init__(self, device):
        self.device = device
        self._tls = threading.local()
        self.default_stream = _Stream()
        self._set_stream(self.default_stream)
        self.thread = threading.get_ident()
        self.sm_count, self.max_threads_sm, self.arch = SM_COUNT, 2048, "90"
        self._driver = EmuDriver(self)
        self._not_ready = self._driver.CUresult.CUDA_ERROR_NOT_READY
        self.pool = EmuPool(self)
        self.families = collections.Counter()
        self.kernels = EmuKernelCache("90", self)
        self._cfgs, self._counters, self._counters_len = {}, None, 0
        self._resident = {}
        self._stage = None
        self.fast = FastPath(self)
        self.log = []               # (family, grid, block) of every launch
        self.packed = {}            # parameter-block address -> slot dtypes (packed launches)
        self.notes = collections.Counter()
        self.paths = collections.Counter()
        self.launch_seconds = 0.0

    def bind_thread(self):
        self.thread = threading.get_ident()

    def _cfg(self, grid, block):
        return (grid, block)

    def _go(self, kernel, grid, block, args):
        """The general launch path (cuda.core's launch): pack like cuda.core, run."""
        self.paths["cuda.core launch (general path, _go)"] += 1
        n = len(args)
        slots = np.zeros(max(n, 1) * 2, np.uint64)        # 16 bytes a slot
        types_ = []
        for i, a in enumerate(args):
            b, dt = _pack_arg(a)
            slots.view(np.uint8)[16 * i:16 * i + len(b)] = np.frombuffer(b, np.uint8)
            types_.append(dt)
        addrs = (ctypes.c_uint64 * max(n, 1))(*[slots.ctypes.data + 16 * i for i in range(n)])
        self.run_kernel(kernel, grid, block, ctypes.addressof(addrs), packed=False,
                        slot_types=types_, keep=(slots, addrs))

    def run_kernel(self, kernel, grid, block, params, packed, slot_types=None, keep=None):
        g = (tuple(grid) + (1, 1))[:3] if isinstance(grid, (tuple, list)) else (grid, 1, 1)
        b = (tuple(block) + (1, 1))[:3] if isinstance(block, (tuple, list)) else (block, 1, 1)
        if packed and slot_types is None:
            slot_types = self.packed.get(params)
        if slot_types is not None:
            if len(slot_types) != kernel.n:
                raise EmuError(f"{kernel.family} kernel takes {kernel.n} parameters, the launch "
                               f"gives {len(slot_types)}")
            addrs = (ctypes.c_uint64 * max(kernel.n, 1)).from_address(params)
            for i, (dt, sz, kd) in enumerate(zip(slot_types, kernel.sizes, kernel.kinds)):
                dt = np.dtype(dt)
                if dt.itemsize != sz:
                    why = (f"{kernel.family} param {i}: slot {dt} ({dt.itemsize} B), kernel "
                           f"reads {sz} B ({'pointer' if kd == 1 else 'float' if kd == 2 else 'int' if kd == 3 else 'other'})")
                    if kd == 2 or dt.kind == "f" or dt.itemsize < sz:
                        raise EmuError("parameter type mismatch: " + why)
                    self.notes["int slot wider than param"] += 1
                if kd == 1:
                    p = int(np.frombuffer((ctypes.c_char * 8).from_address(addrs[i]),
                                          np.uint64)[0])
                    if 0 < p < 4096:    # an empty operand's pointer (offset from null)
                        self.notes[f"{kernel.family}: near-null pointer (empty operand)"] += 1
                        continue
                    if p and self.pool.owner(p) is None and p != self._stage:
                        if EMU_STACKS:
                            _dump_launch_frames(p)
                        raise EmuError(f"{kernel.family} param {i}: pointer {p:#x} is in no "
                                       f"live allocation: {self.pool.whence(p)}")
        t0 = time.perf_counter()
        with _RUN_LOCK:     # (a kernel library's emulation state is global)
            rc = kernel.lib.gn_emu_launch(params, *g, *b, int(kernel.fibers), REVERSE)
        self.launch_seconds += time.perf_counter() - t0
        kernel.launches += 1
        self.families[kernel.family] += 1
        self.log.append((kernel.family, g, b))
        w = kernel.lib.gn_emu_warnings()
        if w & 1:
            self.notes[f"{kernel.family}: __syncthreads with exited threads"] += 1
        if w & 2:
            self.notes[f"{kernel.family}: shuffle read an exited lane"] += 1
        if rc:
            msg = kernel.lib.gn_emu_message().decode()
            raise EmuError(f"{kernel.family} kernel failed on the host: {msg}\n"
                           f"grid {g} block {b}")
        if CHECK_GUARDS:
            self.pool.check_guards(f"{kernel.family} kernel")

    def _make_stage(self):
        self._stage = self._driver.cuMemAllocHost(4096)[1]
        return self._stage

    def wait(self):
        pass

    def synchronize(self):
        pass


# ---------------------------------------------------------------------------- libraries

class _Enum:
    def __getattr__(self, name):
        return 0


class EmuCublas(types.ModuleType):
    """nvmath.bindings.cublas on host memory: s/d/c/z gemm, gemv, strided-batched gemm
    (the test suite's FakeCublas), gemm_ex for float16."""

    def __init__(self):
        super().__init__("cublas")
        from test_blas_host import FakeCublas
        self._fakes = {c: FakeCublas(d) for c, d in
                       zip("sdcz", (np.float32, np.float64, np.complex64, np.complex128))}
        self.calls = collections.Counter()

    def create(self):
        return 1

    def set_stream(self, h, s):
        return None

    def set_pointer_mode(self, *a):
        return None

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name[0] in "sdcz" and name[1:] in ("gemm", "gemv", "gemm_strided_batched"):
            f = getattr(self._fakes[name[0]], name)

            def call(*a):
                self.calls[name] += 1
                return f(*a)
            return call
        raise NotImplementedError(f"emulated cuBLAS: {name} is not emulated")


class EmuCusolver:
    """tests/cusolver_host.FakeCusolver with the handle calls."""

    def __init__(self, fake):
        self.fake = fake
        self.calls = fake.calls

    def create(self):
        return 1

    def create_params(self):
        return 2

    def set_stream(self, h, s):
        return None

    def destroy(self, h):
        return None

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return getattr(self.fake, name)
        except AttributeError:
            raise NotImplementedError(f"emulated cuSOLVER: {name} is not emulated") from None


class _NotEmulated(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise NotImplementedError(f"emulated {self.__name__}: {name} is not emulated")


def _install_libs():
    cuda_libs._BINDINGS["cublas"] = EmuCublas()
    try:
        from cusolver_host import FakeCusolver
        cuda_libs._BINDINGS["cusolverDn"] = EmuCusolver(FakeCusolver())
    except Exception as e:       # noqa: BLE001
        print(f"emucuda: cuSOLVER not emulated ({type(e).__name__}: {e})", file=sys.stderr)
        cuda_libs._BINDINGS["cusolverDn"] = _NotEmulated("cusolverDn")
    cuda_libs._BINDINGS["cufft"] = _NotEmulated("cufft")
    try:
        from gnumpy.backends import cuda_cub
        from test_cub_host import FakeCompute
        fake = FakeCompute()
        cuda_libs.compute = lambda: fake
        cuda_cub.compute = lambda: fake
    except Exception as e:       # noqa: BLE001
        print(f"emucuda: CUB not emulated ({type(e).__name__}: {e})", file=sys.stderr)


# ---------------------------------------------------------------------------- install

def _compile_packed(tmpl, launch_raw=None, direct=None):
    launch, keep = _orig_compile_packed(tmpl, launch_raw, direct)
    types_ = [cuda_launchers._slot_type(e, e[1] if e[0] == "c" else None) for e in tmpl]
    if _ACTIVE:
        _ACTIVE[0].packed[int(keep[1].ctypes.data)] = types_
    return launch, keep


_orig_compile_packed = cuda_launchers.compile_packed


def install(ordinal: int = 0, default: bool = True):
    """An EmuCuda as the backend of Device('cuda', ordinal) (and the default device)."""
    _install_libs()         # (first: importing the test helpers probes CUDA)
    cuda_probe._result = (ordinal + 1, "emulated")
    cuda_probe._LIBCUDA.update(_CALLBACKS)
    cuda_mod._LIBCUDA_READ.clear()
    cuda_launchers._launch_failed = _launch_failed
    cuda_launchers.compile_packed = _compile_packed
    cuda_mod.compile_packed = _compile_packed
    dev = _device.Device("cuda", ordinal)
    be = EmuCuda(dev)
    _ACTIVE[:] = [be]
    _device._backends[dev] = be
    dev._be = be
    if default:
        _device._default = dev
    return dev, be


def summary(be):
    k = be.kernels
    fams = collections.Counter()
    for kern in k.mem.values():
        fams[kern.family] += 1
    return {"kernel kinds built": dict(fams), "launches by family": dict(be.families),
            "launch paths": dict(be.paths),
            "driver calls": dict(be._driver.calls),
            "cublas calls": dict(cuda_libs._BINDINGS["cublas"].calls),
            "cusolver calls": collections.Counter(getattr(cuda_libs._BINDINGS["cusolverDn"], "calls", [])), "notes": dict(be.notes),
            "g++ seconds": round(k.compile_seconds, 1),
            "launch seconds": round(be.launch_seconds, 2)}
