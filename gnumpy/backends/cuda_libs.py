"""NVIDIA's libraries for the CUDA backend, in one place.

cuBLAS, cuSOLVER and cuFFT are reached through nvmath-python's low-level bindings
(``nvmath.bindings.*``: plain integer handles, device pointers and stream handles, which is
what gnumpy holds); CUB through ``cuda.compute`` (cuda-cccl).  One ``Libs`` object per CUDA
backend (``backend.libs``) owns:

* the handles, created on first use and bound to gnumpy's current stream before every call
  (``blas()`` and ``solver()`` return a handle already bound to it);
* workspace from gnumpy's memory pool (``workspace(nbytes)``): a ``DeviceBuffer`` freed in
  stream order once the caller drops it, so a library call never allocates behind the pool;
* an LRU cache of cuFFT plans (``fft_plan``), which are costly to make and cheap to reuse;
* built CUB algorithms (``cub``), kept in memory and, serialized, in the kernel cache
  directory, so a new process does not JIT them again;
* ``read_info``: the one device-to-host read a LAPACK-style status needs.

Nothing here knows NumPy semantics: the op implementations (``cuda_blas``,
``cuda_solver``, ``cuda_fft``, ``cuda_cub``) do, and they call only this module for handles.
"""
from __future__ import annotations

import collections
import hashlib

import numpy as np

from .._config import config
from ..kernels import cache

# cudaDataType_t of each supported NumPy dtype (library.types.h)
CUDA_R_16F, CUDA_R_32F, CUDA_R_64F, CUDA_C_32F, CUDA_C_64F = 2, 0, 1, 4, 5
DATA_TYPE = {np.dtype(np.float16): CUDA_R_16F, np.dtype(np.float32): CUDA_R_32F,
             np.dtype(np.float64): CUDA_R_64F, np.dtype(np.complex64): CUDA_C_32F,
             np.dtype(np.complex128): CUDA_C_64F}
# the letter of the typed (BLAS/LAPACK-named) entry points: sgemm, dorgqr, zgesvdj_batched
TYPE_PREFIX = {np.dtype(np.float32): "s", np.dtype(np.float64): "d",
               np.dtype(np.complex64): "c", np.dtype(np.complex128): "z"}

_MISSING = ("gnumpy needs {pkg} for {what} on the CUDA backend ({err}); install it with "
            "`pip install gnumpy[cuda]` (or `pip install {pkg}`)")


def _import(module: str, pkg: str, what: str):
    import importlib
    try:
        return importlib.import_module(module)
    except Exception as e:          # noqa: BLE001 - ImportError, or a library not found
        raise ModuleNotFoundError(_MISSING.format(pkg=pkg, what=what, err=e)) from e


_BINDINGS: dict = {}


def bindings(name: str):
    """``nvmath.bindings.<name>`` (cublas, cusolverDn, cufft), with a clear error
    when nvmath-python or the library itself is missing (looked up once: every library
    call asks)."""
    m = _BINDINGS.get(name)
    if m is None:
        m = _BINDINGS[name] = _import_binding(name)
    return m


def _import_binding(name: str):
    """``nvmath.bindings.<name>`` alone, without running the ``nvmath`` and
    ``nvmath.bindings`` package ``__init__`` files where nvmath is not imported yet.

    # Note: nvmath's ``__init__`` imports its fft, linalg, sparse and tensor packages and
    # opens cuBLAS, cuFFT, cuRAND, cuSOLVER and cuSPARSE at once; that made gnumpy's first
    # library call in a process cost 0.4 s (1.7 s with a cold disk) on the lent H100,
    # against a few ms for the one binding it needs, which opens its library at its first
    # call.  The two packages stand in sys.modules as bare modules (their search paths
    # only) while the binding loads, then are removed: a later ``import nvmath`` runs
    # the real ``__init__`` files, which take the binding modules already loaded."""
    import _imp
    import importlib
    import importlib.machinery
    import importlib.util
    import sys
    import types
    full = f"nvmath.bindings.{name}"
    if "nvmath" in sys.modules or full in sys.modules:
        return _import(full, "nvmath-python", name)
    made = []
    _imp.acquire_lock()     # (other threads' imports of modules not loaded yet wait)
    try:
        path = None
        for pkg in ("nvmath", "nvmath.bindings"):
            spec = importlib.util.find_spec(pkg) if path is None else \
                importlib.machinery.PathFinder.find_spec(pkg, path)
            if spec is None or not spec.submodule_search_locations:
                break
            m = types.ModuleType(pkg)
            m.__spec__, m.__file__, m.__package__ = spec, spec.origin, pkg
            m.__path__ = path = list(spec.submodule_search_locations)
            sys.modules[pkg] = m
            made.append(pkg)
        return _import(full, "nvmath-python", name)
    finally:
        for pkg in made:
            sys.modules.pop(pkg, None)
        _imp.release_lock()


def compute():
    """The ``cuda.compute`` module (CUB), with a clear error when cuda-cccl is missing."""
    cc = _import("cuda.compute", "cuda-cccl", "CUB algorithms")
    if not getattr(cc, "_BINDINGS_AVAILABLE", True):
        raise ModuleNotFoundError(_MISSING.format(pkg="cuda-cccl", what="CUB algorithms",
                                                  err="its CUDA bindings did not load"))
    return cc


class DeviceArray:
    """A minimal ``__cuda_array_interface__`` view of device memory, the form
    ``cuda.compute`` takes its operands in (it reads ``dtype``, ``shape``, ``size`` and the
    interface's data pointer)."""

    __slots__ = ("dtype", "shape", "size", "ptr")

    def __init__(self, ptr: int, dtype, n: int) -> None:
        self.ptr = int(ptr)
        self.dtype = np.dtype(dtype)
        self.shape = (int(n),)
        self.size = int(n)

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (self.ptr, False),
                "strides": None, "version": 3}


class _Stream:
    """The ``__cuda_stream__`` protocol over a raw stream handle (cuda.compute's form)."""

    __slots__ = ("handle",)

    def __init__(self, handle: int) -> None:
        self.handle = handle

    def __cuda_stream__(self):
        return (0, self.handle)


class Libs:
    """The library handles, plan caches and workspace of one CUDA backend."""

    FFT_PLANS = 32          # cuFFT plans kept (least recently used dropped first)

    def __init__(self, backend) -> None:
        self.be = backend
        self._blas = self._blas_stream = None
        self._solver = self._solver_stream = None
        self._params = None
        self._plans = collections.OrderedDict()
        self._cub = {}
        self.cub_sizes = {}          # (id of a built CUB algorithm, items) -> temporary bytes
        self._host_scalars = {}      # (value, dtype) -> address in _host_arrays
        self._host_arrays = []
        self._host_spare = []

    # ------------------------------------------------------------------ streams
    def stream(self) -> int:
        """gnumpy's current stream (the bound thread's: library calls run under the
        execution lock) as an integer handle."""
        return self.be.stream_int

    def cub_stream(self) -> _Stream:
        return _Stream(self.stream())

    # ------------------------------------------------------------------ handles
    def blas(self) -> int:
        """The cuBLAS handle, bound to the current stream."""
        cublas = bindings("cublas")
        if self._blas is None:
            self._blas = cublas.create()
        s = self.stream()
        if s != self._blas_stream:
            cublas.set_stream(self._blas, s)
            self._blas_stream = s
        return self._blas

    def solver(self) -> int:
        """The cuSOLVER dense handle, bound to the current stream."""
        cus = bindings("cusolverDn")
        if self._solver is None:
            self._solver = cus.create()
            self._params = cus.create_params()
        s = self.stream()
        if s != self._solver_stream:
            cus.set_stream(self._solver, s)
            self._solver_stream = s
        return self._solver

    def solver_params(self) -> int:
        """The cusolverDnParams_t of the 64-bit (``x*``) API (default algorithms)."""
        self.solver()
        return self._params

    # ------------------------------------------------------------------ memory
    def workspace(self, nbytes: int):
        """Device scratch of `nbytes` from gnumpy's pool (a ``DeviceBuffer``; ``.ptr``).
        Keep it referenced until the library call is issued: it is freed in stream order."""
        return self.be.pool.alloc(max(int(nbytes), 1))

    def host_scalar(self, value, dtype) -> int:
        """The address of a host array of one `dtype` element holding `value` (alpha/beta
        of BLAS calls in host pointer mode), kept alive here; the address is kept too (numpy's
        ``.ctypes.data`` costs about 2 us a call, twice per library call)."""
        p = self._host_scalars.get((value, dtype))
        if p is None:
            a = np.full(1, value, dtype=dtype)
            p = a.ctypes.data
            if len(self._host_arrays) < 256:
                self._host_scalars[(value, dtype)] = p
                self._host_arrays.append(a)
            else:       # values past these (a loop's changing alpha) are read by the
                spare = self._host_spare        # call, in host pointer mode, before it
                spare.append(a)                 # returns: the last few are held
                del spare[:-4]
        return p

    def read_info(self, buf, n: int = 1) -> np.ndarray:
        """The `n` int32 status values at device buffer `buf` (one sync)."""
        out = np.empty(n, np.int32)
        d = self.be._driver
        self.be._check(d.cuMemcpyDtoHAsync(out.ctypes.data, buf.ptr, 4 * n,
                                           self.be.stream.handle))
        self.be.stream.sync()
        return out

    # ------------------------------------------------------------------ cuFFT plans
    def fft_plan(self, key, make):
        """The cuFFT plan for `key` (``make() -> (plan handle, work bytes)`` on a miss), bound
        to the current stream, and its work-area size.  Plans are made with automatic work
        areas off: the caller gives each execution a ``workspace``."""
        entry = self._plans.get(key)
        if entry is None:
            cufft = bindings("cufft")
            entry = [*make(), None]         # plan, work bytes, the stream it is bound to
            self._plans[key] = entry
            while len(self._plans) > self.FFT_PLANS:
                _, (old, _, _) = self._plans.popitem(last=False)
                self.be.stream.sync()          # it may still be running
                cufft.destroy(old)
        else:
            self._plans.move_to_end(key)
        stream = self.be.stream_int
        if entry[2] != stream:
            bindings("cufft").set_stream(entry[0], stream)
            entry[2] = stream
        return entry[0], entry[1]

    # ------------------------------------------------------------------ CUB (cuda.compute)
    def cub(self, key: tuple, make):
        """A built ``cuda.compute`` algorithm for `key`, ``make()`` on a miss.  Built
        algorithms are serialized into the kernel cache directory (keyed by `key`, the
        cuda-cccl version and the device's arch), so later processes skip the JIT."""
        algo = self._cub.get(key)
        if algo is not None:
            return algo
        cc = compute()
        ver = getattr(cc, "__version__", None) or _dist_version("cuda-cccl")
        digest = "cub-" + hashlib.sha256(repr((key, ver, self.be.arch)).encode()).hexdigest()
        blob = cache.disk_get(digest) if config.disk_cache else None
        if blob is not None:
            try:
                algo = cc.deserialize(blob)
            except Exception:       # noqa: BLE001 - a stale or foreign blob: rebuild
                algo = None
        if algo is None:
            algo = make()
            try:
                cache.disk_put(digest, cc.serialize(algo))
            except Exception:       # noqa: BLE001 - not serializable: memory cache only
                pass
        self._cub[key] = algo
        return algo


def _dist_version(name: str) -> str:
    try:
        from importlib.metadata import version
        return version(name)
    except Exception:               # noqa: BLE001
        return "?"


def libs(backend) -> Libs:
    """The ``Libs`` of a CUDA backend (created on first use)."""
    lb = getattr(backend, "_libs", None)
    if lb is None:
        lb = backend._libs = Libs(backend)
    return lb
