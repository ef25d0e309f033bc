"""Device memory: the stream-ordered pool behind every CUDA array.

Buffers come from cuda.core's ``DeviceMemoryResource`` over the device's default pool,
whose release threshold is raised so freed blocks are reused instead of returned to the
driver.  A buffer is freed (in stream order) when the last array or node holding it goes:
into a per-stream free list of its size class first (a pool round trip through cuda.core
costs tens of microseconds for a large block, and loops ask for the same sizes again and
again; docs/perf-notes.md has the numbers), into the pool when the list or the cache is
full.
Out of memory: collect garbage, trim the pool, retry once, then raise ``MemoryError``
naming the request and the pool state; the library keeps working afterwards.
"""
from __future__ import annotations

import ctypes
import gc
import threading

from .._config import config
from .._graph import layout as L
from .cuda_probe import libcuda


_SMALL = 1 << 16          # allocations up to this size: size classes of 256 bytes
_FREE_MAX = 64            # cached small blocks per (stream, size class)
_LARGE_MAX = 4            # cached large blocks per (stream, size class)
_LARGE_BYTES = 1 << 30    # cached large blocks in all, in bytes


def _large_class(nbytes: int) -> int:
    """The size class of a large allocation: rounded up to a sixteenth of the power of
    two above it (at most 1/8 more memory)."""
    step = 1 << (nbytes.bit_length() - 4)
    return (nbytes + step - 1) & -step


class _FreeList(list):
    """Freed blocks of one (stream, size class), kept for reuse: (cuda.core buffer, ptr)."""
    __slots__ = ("limit", "pool", "nbytes")

    def __init__(self, limit, pool=None, nbytes=0):
        super().__init__()
        self.limit = limit
        self.pool = pool          # large classes: the pool counting their cached bytes
        self.nbytes = nbytes


class DeviceBuffer:
    """A device allocation: `ptr` (int), `size` in bytes; freed when garbage-collected.

    Blocks go back to a per-stream free list of their size class instead of the pool
    (reuse in the same stream is ordered by the stream itself); large blocks while the
    pool's cache of them stays under ``_LARGE_BYTES``."""

    __slots__ = ("ptr", "size", "_buf", "_free", "__weakref__")

    def __init__(self, buf, size: int, free=None) -> None:
        self._buf = buf
        self.size = size
        self.ptr = int(buf.handle) if buf is not None else 0
        self._free = free

    def __del__(self):
        free = self._free
        try:
            if free is not None and len(free) < free.limit:
                pool = free.pool
                if pool is not None:
                    if pool.large_cached + free.nbytes > _LARGE_BYTES:
                        return
                    pool.large_cached += free.nbytes
                free.append((self._buf, self.ptr))
        except Exception:     # interpreter shutdown
            pass


class MemoryPool:
    def __init__(self, backend) -> None:
        from cuda.core import DeviceMemoryResource
        from cuda.bindings import driver
        self.backend = backend
        self._driver = driver
        self.mr = DeviceMemoryResource(backend.cdev)
        self._pool = self.mr.handle
        try:
            threshold = driver.cuuint64_t(2**63 - 1)
            driver.cuMemPoolSetAttribute(
                self._pool, driver.CUmemPool_attribute.CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                threshold)
        except Exception:
            pass
        self._empty = DeviceBuffer(None, 0)
        self._free = {}
        self.large_cached = 0     # bytes held by the free lists of large classes
        self.capture = None       # the owning list of a CUDA graph capture in progress
        self._side = None

    def _attr(self, name: str) -> int:
        d = self._driver
        attr = getattr(d.CUmemPool_attribute, name)
        err, v = d.cuMemPoolGetAttribute(self._pool, attr)
        return int(v) if int(err) == 0 else -1

    def info(self) -> dict:
        return {"used": self._attr("CU_MEMPOOL_ATTR_USED_MEM_CURRENT"),
                "reserved": self._attr("CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT"),
                "peak": self._attr("CU_MEMPOOL_ATTR_USED_MEM_HIGH"),
                "limit": config.pool_limit}

    def trim(self) -> None:
        self.backend.stream.sync()
        for free in self._free.values():
            free.clear()
        self.large_cached = 0
        self._driver.cuMemPoolTrimTo(self._pool, 0)

    def alloc(self, nbytes: int) -> DeviceBuffer:
        if nbytes == 0:
            return self._empty
        if self.capture is not None:
            return self._alloc_captured(nbytes)
        large = nbytes > _SMALL
        nbytes = _large_class(nbytes) if large else (nbytes + 255) & ~255
        key = (self.backend.cur_stream, nbytes)
        free = self._free.get(key)
        if free is None:
            free = self._free[key] = _FreeList(_LARGE_MAX, self, nbytes) if large else \
                _FreeList(_FREE_MAX)
        if free:
            d = DeviceBuffer.__new__(DeviceBuffer)
            d._buf, d.ptr = free.pop()
            if large:
                self.large_cached -= nbytes
            d.size, d._free = nbytes, free
            return d
        d = self._alloc(nbytes)
        d._free = free
        return d

    def _alloc_captured(self, nbytes: int) -> DeviceBuffer:
        """During a CUDA graph capture: memory taken outside the capture (on a side stream,
        so it is not a graph allocation node), owned by the graph until it is dropped."""
        if self._side is None:
            self._side = self.backend.cdev.create_stream()
        d = DeviceBuffer(self.mr.allocate(nbytes, stream=self._side), nbytes)
        self._side.sync()
        self.capture.append(d)
        return d

    def _alloc(self, nbytes: int) -> DeviceBuffer:
        limit = config.pool_limit
        for attempt in (0, 1):
            if limit and self._attr("CU_MEMPOOL_ATTR_USED_MEM_CURRENT") + nbytes > limit:
                err = "pool limit"
            else:
                try:
                    return DeviceBuffer(self.mr.allocate(nbytes, stream=self.backend.stream),
                                        nbytes)
                except Exception as e:   # cuda.core raises CUDAError(CUDA_ERROR_OUT_OF_MEMORY)
                    if "OUT_OF_MEMORY" not in str(e) and "out of memory" not in str(e):
                        raise
                    err = str(e)
            if attempt == 0:
                gc.collect()
                self.trim()
        info = self.info()
        raise MemoryError(f"gnumpy: out of device memory allocating {nbytes:,} bytes on "
                          f"{self.backend.device} ({err}); pool used {info['used']:,} B, "
                          f"reserved {info['reserved']:,} B, peak {info['peak']:,} B, limit "
                          f"{info['limit'] or 'none'}")


_COPY_ARGS = (ctypes.c_uint64, ctypes.c_uint64, ctypes.c_size_t, ctypes.c_void_p)


def leaf_ptr(node) -> int:
    """The device address of LEAF `node`'s first element."""
    return node.buf.ptr + node.offset * node.dtype.itemsize


def _libcuda_copy():
    """libcuda's ``cuMemcpyDtoDAsync_v2`` through ctypes (``cuda_probe.libcuda``), or
    None."""
    return libcuda("cuMemcpyDtoDAsync_v2", _COPY_ARGS)


def copy_leaf(be, dest, src) -> bool:
    """``CudaBackend.copy_leaf``: a copy between C-contiguous LEAFs of one dtype and
    shape in memory that does not overlap, as one ``cuMemcpyDtoDAsync`` on the current
    stream, where a replayed copy kernel walks, fills and launches (``y[k] = alpha`` with
    alpha in memory: NPBench durbin's, once a row).  False for any other layout, or where
    libcuda's function does not load."""
    if not (L.is_c_contiguous(dest.shape, dest.strides) and
            L.is_c_contiguous(src.shape, src.strides)):
        return False
    it = dest.dtype.itemsize
    n = L.prod(dest.shape) * it
    d = dest.buf.ptr + dest.offset * it
    s = src.buf.ptr + src.offset * it
    if n == 0 or (src.buf is dest.buf and s < d + n and d < s + n):
        return False
    cp = _libcuda_copy()
    if cp is None:
        return False
    if be.thread != threading.get_ident():
        be.bind_thread()
    be._check(cp(d, s, n, be.stream_c))
    return True
