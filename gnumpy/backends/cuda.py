"""The CUDA backend: runs scheduled groups as NVRTC-compiled kernels through cuda.core.

Memory comes from the device's stream-ordered pool (``cuda_memory``); work is issued on
the current stream (``gnumpy.cuda.Stream`` can change it); kernels come from the caches
in ``gnumpy.kernels``.  Non-fusible ops are barrier groups (``barriers``): scans and concat
here, matmul in ``cuda_blas``, NVIDIA's libraries through ``cuda_libs``.
"""
from __future__ import annotations

import ctypes
import threading
import time

import numpy as np

from .. import _dtypes as D
from .._config import config
from .._dlpack import export
from .._graph import layout as L
from .._graph.fuse import Group
from .._graph.ir import leaf
from .._graph.ranges import span
from .._graph.running import lock as exec_lock
from ..kernels import build, render_misc
from ..kernels.compile import KERNEL_NAME
from ..kernels.plan import FixedKey
from . import barriers, cuda_probe
from .base import Backend
from .cuda_cub import scan_lines, use_cub_scan
from .cuda_fast import FastPath
from .cuda_launchers import _launch_failed, compile_packed
from .cuda_matvec2 import pair as pair_matvecs
from .cuda_memory import MemoryPool, copy_leaf
from .cuda_sequence import Sequences
from .cuda_probe import libcuda


_STAGE_BYTES = 4096      # device-to-host reads up to this size go through pinned memory


def _libcuda_launch():
    """libcuda's ``cuLaunchKernel`` through ctypes (``cuda_probe.libcuda``), or None."""
    return libcuda("cuLaunchKernel")


_LIBCUDA_READ = []
_NOT_READY = 600        # CUDA_ERROR_NOT_READY


def _libcuda_read():
    """(``cuMemcpyDtoHAsync_v2``, ``cuStreamQuery``) of libcuda through ctypes, for
    element reads (kept as one pair: every read asks), or None."""
    if not _LIBCUDA_READ:
        copy = libcuda("cuMemcpyDtoHAsync_v2", (ctypes.c_void_p, ctypes.c_uint64,
                                                ctypes.c_size_t, ctypes.c_void_p))
        query = libcuda("cuStreamQuery", (ctypes.c_void_p,))
        _LIBCUDA_READ.append(None if copy is None or query is None else (copy, query))
    return _LIBCUDA_READ[0]


class CudaBackend(Backend):
    name = "cuda"
    # A folded chain of statements is one kernel, planned once per layout: a new row
    # length plans the chain again, at a cost that grows with its size; 64 nodes keep a
    # row's launches few (syrk: about 9 nodes a statement).  Measured: perf-notes,
    # "Deferred writes".
    fold_nodes = 64

    def __init__(self, device) -> None:
        super().__init__(device)
        n, why = cuda_probe.device_count()
        if device.id >= n:
            raise RuntimeError(f"CUDA device {device.id} is not usable here ({why})")
        from cuda.core import Device as CDevice
        from cuda.core import LaunchConfig, ObjectCode, launch
        from cuda.bindings import driver
        self._driver = driver
        self._not_ready = driver.CUresult.CUDA_ERROR_NOT_READY
        self._LaunchConfig = LaunchConfig
        self._launch = launch
        self._ObjectCode = ObjectCode
        self.cdev = CDevice(device.id)
        self.cdev.set_current()
        self.thread = threading.get_ident()
        self.default_stream = self.cdev.create_stream()
        self._tls = threading.local()
        self._set_stream(self.default_stream)
        props = self.cdev.properties
        self.sm_count = props.multiprocessor_count
        self.max_threads_sm = props.max_threads_per_multiprocessor
        self.arch = self.cdev.arch
        self.pool = MemoryPool(self)
        self.kernels = build.KernelCache(self.arch, self._load)
        self.fast = FastPath(self)
        self._cfgs = {}
        self._counters = None
        self._counters_len = 0
        self._resident = {}        # (kernel handle, block) -> resident blocks per SM
        self._stage = None         # pinned host memory for small reads (_make_stage)

    # ------------------------------------------------------------------ streams
    # The current stream is per thread: each thread has its own stack of entered
    # streams (``gnumpy.cuda.Stream``), and a thread with none uses the device's
    # default stream, shared by all threads.  The bound thread's stream is cached as
    # ``cur_stream``/``stream_handle``/``stream_int``/``stream_c`` for the launch paths; it changes
    # only under the execution lock (``bind_thread``, ``push_stream``, ``pop_stream``).
    @property
    def stream(self):
        """The calling thread's current stream."""
        st = getattr(self._tls, "stack", None)
        return st[-1] if st else self.default_stream

    def push_stream(self, s, blocking: bool = True) -> None:
        """Make `s` the calling thread's current stream (caller holds the execution
        lock).  A blocking stream first waits for the work already on the stream it
        replaces, so lazy work realized in the block sees everything issued before it."""
        outer = self.stream
        st = getattr(self._tls, "stack", None)
        if st is None:
            st = self._tls.stack = []
        st.append(s)
        if blocking and s is not outer:
            s.wait(outer)
        self.bind_thread()

    def pop_stream(self, blocking: bool = True) -> None:
        """Leave the calling thread's innermost stream (caller holds the execution lock).
        For a blocking stream the outer stream then waits for the block's work."""
        inner = self._tls.stack.pop()
        outer = self.stream
        if blocking and inner is not outer:
            outer.wait(inner)
        self.bind_thread()

    def _set_stream(self, s) -> None:
        """The current stream, and its handle as cuda.bindings, ctypes and the library
        bindings (an int) take it."""
        self.cur_stream = s
        self.stream_handle = s.handle
        self.stream_int = int(s.handle)
        self.stream_c = ctypes.c_void_p(self.stream_int)

    def synchronize(self) -> None:
        self.wait()

    def wait(self) -> None:
        """Wait until the current stream's work is done, interruptibly: the driver is
        polled, so Ctrl-C (KeyboardInterrupt) stops a long wait (the work itself goes on,
        in stream order).  Waits up to a millisecond spin (an element read behind a
        kernel returns within microseconds of the work's end); longer ones sleep 50 us
        between polls."""
        rd = _libcuda_read()
        if rd is not None and self.thread == threading.get_ident():
            query, h, ready, not_ready = rd[1], self.stream_c, 0, _NOT_READY
        else:
            q = self._driver.cuStreamQuery
            query, h = (lambda h: q(h)[0]), self.stream.handle
            ready, not_ready = self._driver.CUresult.CUDA_SUCCESS, self._not_ready
        t0 = None
        while True:
            err = query(h)
            if err == ready:
                return
            if err != not_ready:
                self._check(err)
            if t0 is None:
                t0 = time.perf_counter()
            elif time.perf_counter() - t0 > 1e-3:
                time.sleep(5e-5)

    def bind_thread(self) -> None:
        """The device's context current on the calling thread, and that thread's current
        stream the one launches use (called under the execution lock).  When the bound
        thread changes to one on another stream, that stream first waits for the previous
        one's work: statements of different threads reach the device in lock order,
        whatever streams they use."""
        tid = threading.get_ident()
        if tid != self.thread:
            self.cdev.set_current()
        s = self.stream
        if s is not self.cur_stream:
            if tid != self.thread and self.pool.capture is None:
                s.wait(self.cur_stream)
            self._set_stream(s)
        self.thread = tid

    # ------------------------------------------------------------------ kernels
    def _load(self, cubin: bytes):
        return self._ObjectCode.from_cubin(cubin).get_kernel(KERNEL_NAME)

    def _cfg(self, grid, block):
        key = (grid, block)
        c = self._cfgs.get(key)
        if c is None:
            c = self._cfgs[key] = self._LaunchConfig(grid=grid, block=block)
        return c

    def _go(self, kernel, grid, block, args) -> None:
        self._launch(self.stream, self._cfg(grid, block), kernel, *args)

    def packed_launcher(self, kernel, grid, block, tmpl):
        """A replay launcher over a pre-packed parameter block (``cuda_fast``), launching
        with ``cuLaunchKernel`` on the current stream: called through ctypes (about half
        a microsecond of Python per call) when libcuda loads that way, else through
        cuda.bindings."""
        gx, gy, gz = (tuple(grid) + (1, 1))[:3] if isinstance(grid, tuple) else (grid, 1, 1)
        bx, by, bz = (tuple(block) + (1, 1))[:3] if isinstance(block, tuple) else (block, 1, 1)
        cu = _libcuda_launch()
        if cu is not None:
            launch, keep = compile_packed(tmpl, direct=(cu, int(kernel.handle), (gx, gy, gz),
                                                        (bx, by, bz), self))
        else:
            d = self._driver
            func = d.CUfunction(int(kernel.handle))
            launch_kernel = d.cuLaunchKernel
            ok = d.CUresult.CUDA_SUCCESS
            be = self

            def go(params):
                r = launch_kernel(func, gx, gy, gz, bx, by, bz, 0, be.stream_handle, params, 0)
                if r[0] is not ok:
                    raise RuntimeError(f"cuLaunchKernel failed: {r[0]}")
            launch, keep = compile_packed(tmpl, go)
        launch.keep = keep          # the parameter block lives as long as the launcher
        return launch

    def resident(self, kernel, block: int) -> int:
        """Blocks of `block` threads of `kernel` one multiprocessor holds at once."""
        key = (id(kernel), block)
        r = self._resident.get(key)
        if r is None:
            occ = getattr(kernel, "occupancy", None)
            try:
                r = int(occ.max_active_blocks_per_multiprocessor(block, 0))
            except Exception:       # noqa: BLE001 - no occupancy query: assume full
                r = max(1, self.max_threads_sm // block)
            self._resident[key] = r
        return r

    @property
    def blocks_per_sm(self) -> int:
        return max(1, self.max_threads_sm // config.block_size)

    # ------------------------------------------------------------------ data movement
    def from_numpy(self, arr: np.ndarray, copy: bool = True):
        with exec_lock:
            return self._from_numpy(arr)

    def _from_numpy(self, arr: np.ndarray):
        if self.thread != threading.get_ident():
            self.bind_thread()
        a = arr if arr.flags.c_contiguous else np.array(arr, order="C")   # keeps 0-d shape
        buf = self.pool.alloc(a.nbytes)
        if a.nbytes:
            self._check(self._driver.cuMemcpyHtoDAsync(buf.ptr, a.ctypes.data, a.nbytes,
                                                        self.stream.handle))
        return leaf(buf, D.to_dtype(a.dtype), a.shape, L.c_strides(a.shape), 0, self.device)

    def to_numpy(self, node) -> np.ndarray:
        with exec_lock:
            return self._to_numpy(node)

    def _to_numpy(self, node) -> np.ndarray:
        if self.thread != threading.get_ident():
            self.bind_thread()
        out = np.empty(node.shape, dtype=node.dtype)
        if out.nbytes == 0:
            return out
        src = node
        if not L.is_c_contiguous(node.shape, node.strides):
            src = self._contiguous_copy(node)
        ptr = src.buf.ptr + src.offset * src.dtype.itemsize
        n = out.nbytes
        if n <= _STAGE_BYTES:       # a small read (an element): through pinned memory
            stage = self._stage or self._make_stage()
            rd = _libcuda_read()
            if rd is None:
                self._check(self._driver.cuMemcpyDtoHAsync(stage, ptr, n,
                                                            self.stream.handle))
            else:                       # (the calling thread's stream: bound above)
                self._check(rd[0](stage, ptr, n, self.stream_c))
            self.wait()
            ctypes.memmove(out.ctypes.data, stage, n)
            return out
        self._check(self._driver.cuMemcpyDtoHAsync(out.ctypes.data, ptr, n,
                                                    self.stream.handle))
        self.wait()
        return out

    def _make_stage(self) -> int:
        """The pinned host buffer small device-to-host reads go through: an asynchronous
        copy into it and a stream wait cost less than a pageable copy."""
        err, p = self._driver.cuMemAllocHost(_STAGE_BYTES)
        self._check(err)
        self._stage = int(p)
        return self._stage

    def nonzero_node(self, mask):
        from .index_ops import cuda_nonzero_node     # (barrier modules load on first use)
        return cuda_nonzero_node(self, mask)

    def _contiguous_copy(self, node):
        buf = self.pool.alloc(L.prod(node.shape) * node.dtype.itemsize)
        dest = leaf(buf, node.dtype, node.shape, L.c_strides(node.shape), 0, self.device)
        self.write(dest, node)
        return dest

    def _check(self, res) -> None:
        err = res[0] if isinstance(res, tuple) else res
        if int(err) != 0:
            raise RuntimeError(f"CUDA driver call failed: {err}")

    # ------------------------------------------------------------------ groups
    def run(self, group) -> None:
        if group.kind == "barrier":
            return self._barrier(group)
        outs = {}
        for o in group.outputs:
            outs[id(o)] = self.pool.alloc(L.prod(o.shape) * o.dtype.itemsize)
        self._run_planned(group, outs, None)
        for o in group.outputs:
            o.realize(outs[id(o)], L.c_strides(o.shape), 0)

    def write(self, dest, value, group=None) -> None:
        if group is None and self.fast is not None and self.fast.write(dest, value, None):
            return                      # replayed (the caller resolved any overlap)
        g = group if group is not None else Group("elementwise", [value], dest.device, 0)
        self._run_planned(g, {}, dest)

    copy_leaf = copy_leaf

    def write_elements(self, dests, values) -> None:
        if self.fast is not None and self.fast.write_elements(dests, values):
            return
        self._run_planned(Group("elementwise", list(values), dests[0].device, 0), {},
                          list(dests))

    @property
    def sequences(self):
        s = self.__dict__.get("_sequences")
        if s is None:
            s = self.__dict__["_sequences"] = Sequences(self)
        return s

    def launch_params(self, kernel, block: int, ptrs) -> None:
        """Launch `kernel` on one block of `block` threads with the parameters that
        `ptrs` (a ctypes array of pointers) points to: the driver copies them at the
        launch, so their memory may change as soon as this returns."""
        cu = _libcuda_launch()
        if cu is not None:
            r = cu(ctypes.c_void_p(int(kernel.handle)), 1, 1, 1, block, 1, 1, 0,
                   self.stream_c, ctypes.c_void_p(ctypes.addressof(ptrs)), None)
            if r:
                _launch_failed(r)
            return
        d = self._driver
        r = d.cuLaunchKernel(d.CUfunction(int(kernel.handle)), 1, 1, 1, block, 1, 1, 0,
                             self.stream_handle, ctypes.addressof(ptrs), 0)
        if r[0] is not d.CUresult.CUDA_SUCCESS:
            raise RuntimeError(f"cuLaunchKernel failed: {r[0]}")

    def _ptr_of(self, outs):
        def ptr_of(o):
            n = o.node
            if n.buf is not None:
                return n.buf.ptr
            b = outs.get(id(n))
            return b.ptr if b is not None else 0      # a placeholder (explain)
        return ptr_of

    def _run_planned(self, group, outs, dest) -> None:
        ptr_of = self._ptr_of(outs)
        _, plan = build.plan_group(group, ptr_of, self.sm_count, self.blocks_per_sm, dest)
        kernel = self.kernels.get(plan.key, lambda: plan.source(KERNEL_NAME))
        if plan.spec.kind == "ew":
            if plan.n == 0:
                return
            grid, block = plan.launch_dims(self.sm_count, self.blocks_per_sm)
            self._go(kernel, grid, block, plan.args(ptr_of))
            return
        if plan.M == 0:
            return
        if plan.spec.kind == "reduce":
            plan.fit(self.resident(kernel, plan.block), self.sm_count)
        part = ctr = 0
        keep = None
        if plan.S > 1:
            keep = self.pool.alloc(plan.partial_bytes())
            part = keep.ptr
            ctr = self._counter_ptr(plan.counters_needed())
        self._go(kernel, plan.grid, plan.block, plan.args(ptr_of, part, ctr))
        del keep   # freed in stream order, after the kernel

    def _counter_ptr(self, n: int) -> int:
        """A zeroed counter array of at least `n` uint32 (kernels leave it zeroed)."""
        if n > self._counters_len:
            size = max(n, 1024, 2 * self._counters_len)
            buf = self.pool.alloc(size * 4)
            self._check(self._driver.cuMemsetD32Async(buf.ptr, 0, size, self.stream.handle))
            self._counters, self._counters_len = buf, size
        return self._counters.ptr

    def source_of(self, group) -> str:
        if group.kind == "barrier":
            return None
        return build.source_of(group, ptr_of=lambda o: 0, sm_count=self.sm_count,
                               blocks_per_sm=self.blocks_per_sm)

    # ------------------------------------------------------------------ barriers
    def product_into(self, dest, product, beta, check=False) -> bool:
        return barriers.into_impl(product.op)(self, dest, product, beta, check)

    def matvec_pair(self, n1, n2, out1=None, out2=None) -> bool:
        return pair_matvecs(self, n1, n2, out1, out2)

    def _barrier(self, group, _in_range=False) -> None:
        if config.nvtx and not _in_range:   # profiling: the call inside an NVTX range
            with span(f"cuda.barrier[{group.barrier.op}]"):
                return self._barrier(group, True)
        node = group.barrier
        op = node.op
        buf = self.pool.alloc(L.prod(node.shape) * node.dtype.itemsize)
        barriers.cuda_impl(op)(self, node, buf)
        node.realize(buf, L.c_strides(node.shape), 0)

    def _contig(self, src):
        if src.strides is not None and L.is_c_contiguous(src.shape, src.strides):
            return src
        return self._contiguous_copy(src)

    def _misc_kernel(self, key):
        """The compiled kernel of fixed-function `key` (``plan.FixedKey``)."""
        return self.kernels.get(key, lambda: key.render(KERNEL_NAME))

    def _scan(self, node, buf) -> None:
        axis, include_initial = node.arg
        src = self._contig(node.srcs[0])
        shape = src.shape
        outer = L.prod(shape[:axis])
        Ln = shape[axis]
        inner = L.prod(shape[axis + 1:])
        if outer * inner == 0:
            return
        if use_cub_scan(node.dtype, outer * inner, Ln):     # few long lines: CUB
            return scan_lines(self, node.op, src, buf, outer, Ln, inner, include_initial)
        # many short lines: gnumpy's kernel, one thread (inner > 1) or one block per line
        block = 256
        kind = "thread" if inner > 1 else "block"
        k = self._misc_kernel(FixedKey(render_misc.scan_source, (
            node.op, node.dtype, kind, bool(include_initial), block)))
        lines = outer * inner if kind == "thread" else outer
        grid = max(1, min(-(-lines // block) if kind == "thread" else lines,
                          self.sm_count * 32))
        ptr = src.buf.ptr + src.offset * src.dtype.itemsize
        self._go(k, grid, block, [ptr, buf.ptr, np.int64(outer), np.int64(Ln), np.int64(inner)])

    # ------------------------------------------------------------------ interop
    def dlpack_device(self):
        return (2, self.device.id)   # kDLCUDA

    def dlpack_export(self, node, stream=None, max_version=None, dl_device=None, copy=None,
                      readonly=False):
        if dl_device is not None and tuple(dl_device) != (2, self.device.id):
            if tuple(dl_device)[0] != 1:
                raise BufferError(f"gnumpy cannot export {self.device} memory to DLPack "
                                  f"device {tuple(dl_device)}")
            if copy is False:
                raise BufferError("exporting CUDA memory to the CPU needs a copy, and "
                                  "copy=False was asked")
            host = self.to_numpy(node)          # the consumer asked for host memory
            kw = {} if max_version is None else {"max_version": max_version}
            return host.__dlpack__(**kw)
        if stream is not None and stream != -1:
            self.stream.sync()   # the consumer's stream must see our writes
        return export(node, node.buf.ptr, (2, self.device.id), owner=node.buf,
                      max_version=max_version, readonly=readonly)


barriers.register("cumsum", cuda=CudaBackend._scan)
barriers.register("cumprod", cuda=CudaBackend._scan)
