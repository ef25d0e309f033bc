"""gnumpy arrays as Dask chunks: ``dask.array`` over gnumpy, one worker process per GPU.

``import gnumpy.dask`` registers gnumpy with Dask (nothing in ``import gnumpy`` imports Dask):

* ``dask.array``'s dispatch tables (concatenate, tensordot, einsum, take, percentile, empty,
  numel/nannumel, to_numpy), so Dask's block algorithms keep gnumpy chunks instead of
  falling back to NumPy; ``gnumpy.ndarray`` as a chunk type, so ``dask_array + gnumpy_array``
  works; ``sizeof`` (the bytes a chunk holds on its device, for Dask's memory accounting);
  and an array backend ``"gnumpy"``: under ``dask.config.set({"array.backend": "gnumpy"})``
  ``da.ones``/``zeros``/``empty``/``full``/``arange``/``da.random`` make gnumpy chunks, and
  ``x.to_backend("gnumpy")`` moves a NumPy-backed collection onto gnumpy.
* ``distributed``'s serializers (when distributed is installed): a gnumpy array travels
  between workers as a small header and one host frame (device-to-host on the sender, NumPy's
  own zero-copy frame on the wire, host-to-device on the receiver's device).  No pickle of a
  device buffer ever happens.  The ``cuda`` family (used by UCX comms) hands the device
  buffer itself to the comm; it is written for UCX and was not run (docs/dask.md).
* Worker integration: ``dask_setup`` (``--preload gnumpy.dask``) and ``GnumpyWorkerPlugin``
  make each worker use one device, run its tasks on one CUDA-bound thread, serialise gnumpy
  use between the task thread and the comm threads (gnumpy's lazy graph is not thread-safe),
  and evaluate each task's gnumpy result before the task ends, so a task is one fused kernel
  (its elementwise work and chunk reduction) and its inputs' memory is freed on time.
* ``LocalGPUCluster``: one worker process per visible GPU (dask-cuda's ``LocalCUDACluster``
  when installed and asked for), or N CPU workers on the CPU backend where there is no GPU.

Examples
--------
>>> import gnumpy as gp, gnumpy.dask, dask.array as da
>>> x = da.from_array(gp.arange(8.0), chunks=4)
>>> type((2 * x + 1).sum().compute()).__name__
'ndarray'
"""
from __future__ import annotations

import contextlib
import os
import threading
import uuid

import numpy as np

import dask
import dask.array as da
from dask.array import chunk_types
from dask.array.backends import ArrayBackendEntrypoint, array_creation_dispatch
from dask.array.dispatch import (
    concatenate_lookup, divide_lookup, einsum_lookup, empty_lookup, nannumel_lookup,
    numel_lookup, percentile_lookup, take_lookup, tensordot_lookup, to_numpy_dispatch)
from dask.sizeof import sizeof
from dask.tokenize import normalize_token

import gnumpy as gp
from gnumpy._config import Config
from gnumpy._device import Device, default_device
from gnumpy.backends import cuda_probe

__all__ = ["register", "LocalGPUCluster", "GnumpyWorkerPlugin", "dask_setup", "setup_worker",
           "gpu_ids", "worker_device", "worker_info", "synchronize", "task_log", "transfers",
           "locked", "evaluate_result", "GnumpyBackendEntrypoint", "GnumpyThreadPoolExecutor",
           "to_gnumpy_dispatch"]


def __dir__():
    return sorted(__all__)

to_gnumpy_dispatch = dask.utils.Dispatch("to_gnumpy_dispatch")

# ---------------------------------------------------------------------- one thread at a time
# gnumpy's lazy graph, memory pool and streams belong to one thread at a time.  A Dask worker
# touches arrays from its task thread and from its comm threads (event loop, offload), so
# every gnumpy use this module makes on a worker runs under this lock, on a thread whose CUDA
# context is current.
_LOCK = threading.RLock()
_bound = threading.local()


def _bind_thread() -> None:
    """Make the default device's CUDA context current on this thread (once per thread)."""
    dev = default_device()
    if dev.kind != "cuda" or getattr(_bound, "dev", None) == dev.id:
        return
    from cuda.core import Device as CDevice
    gp._device.backend(dev)             # the backend exists (it makes the context primary)
    CDevice(dev.id).set_current()
    _bound.dev = dev.id


@contextlib.contextmanager
def locked():
    """Hold gnumpy for this thread: the module's lock, with the device's context current."""
    with _LOCK:
        _bind_thread()
        yield


def evaluate_result(value):
    """Materialize the gnumpy arrays in a task's result (an array, or a tuple/list/dict of
    them), so the task's fused kernels run inside the task that built them."""
    arrays = []

    def walk(v, depth=0):
        if isinstance(v, gp.ndarray):
            arrays.append(v)
        elif depth < 2 and isinstance(v, (tuple, list)):
            for e in v:
                walk(e, depth + 1)
        elif depth < 2 and isinstance(v, dict):
            for e in v.values():
                walk(e, depth + 1)

    walk(value)
    if arrays:
        gp.evaluate(*arrays)
    return value


def synchronize() -> None:
    """Wait for this process's queued gnumpy work (``client.run(gnumpy.dask.synchronize)``
    before reading a clock: a task ends when its kernels are queued, not when they finish)."""
    with locked():
        gp._device.backend(default_device()).synchronize()


def worker_info() -> dict:
    """This process's gnumpy device and the GPUs it sees (``client.run(worker_info)``)."""
    return {"device": str(default_device()), "pid": os.getpid(), "gpus": gpu_ids()}


# ---------------------------------------------------------------------- dask.array dispatch
def _einsum(*args, **kwargs):
    kwargs.pop("order", None)            # layout hints: gnumpy picks its own
    return gp.einsum(*args, **kwargs)


def _percentile(a, q, method="linear"):
    """Dask's chunk percentile, (values, count), computed on the chunk's device; Dask's
    ``merge_percentiles`` then runs on gnumpy arrays too (through ``__array_function__``)."""
    n = len(a)
    if not n:
        return None, n
    q = np.asarray(list(q) if not isinstance(q, np.ndarray) else q, dtype=np.float64)
    if not np.issubdtype(a.dtype, np.number):
        method = "nearest"
    return gp.percentile(a, gp.asarray(q, device=a.device), method=method), n


def _numel(x, **kwargs):
    """Elements counted per reduced block, as a gnumpy array on the chunk's device (Dask's
    default returns NumPy, which would mix host arrays into mean/var's partial results)."""
    from dask.array.backends import _numel_arraylike
    return _numel_arraylike(x, **kwargs)


def _nannumel(x, **kwargs):
    return gp.sum(~gp.isnan(x), **kwargs)


def _empty(shape, dtype=None, **kwargs):
    kwargs.pop("order", None)
    return gp.empty(shape, dtype=dtype, **kwargs)


class GnumpyBackendEntrypoint(ArrayBackendEntrypoint):
    """The ``"gnumpy"`` array backend of Dask: under
    ``dask.config.set({"array.backend": "gnumpy"})`` Dask's creation functions (``ones``,
    ``zeros``, ``empty``, ``full``, ``arange``, ``da.random``) make gnumpy chunks, and
    ``x.to_backend("gnumpy")`` moves a collection's chunks to gnumpy."""

    @classmethod
    def to_backend_dispatch(cls):
        """The dispatch that moves one chunk to gnumpy (``to_gnumpy_dispatch``)."""
        return to_gnumpy_dispatch

    @classmethod
    def to_backend(cls, data, **kwargs):
        """`data` with gnumpy chunks (itself when they are already gnumpy arrays)."""
        if isinstance(data._meta, gp.ndarray):
            return data
        return data.map_blocks(cls.to_backend_dispatch(), **kwargs)

    @property
    def RandomState(self):
        """gnumpy's RandomState (``da.random.RandomState`` under this backend)."""
        return gp.random.RandomState

    @property
    def default_bit_generator(self):
        """gnumpy's default bit generator (``da.random.default_rng`` under this backend)."""
        return gp.random.Philox

    @staticmethod
    def _with_meta(attr, *args, meta=None, **kwargs):
        meta = gp.empty((0,)) if meta is None else meta
        with dask.config.set({"array.backend": "numpy"}):
            return getattr(da, attr)(*args, meta=meta, **kwargs)

    @staticmethod
    def ones(*args, **kwargs):
        """``da.ones`` with gnumpy chunks."""
        return GnumpyBackendEntrypoint._with_meta("ones", *args, **kwargs)

    @staticmethod
    def zeros(*args, **kwargs):
        """``da.zeros`` with gnumpy chunks."""
        return GnumpyBackendEntrypoint._with_meta("zeros", *args, **kwargs)

    @staticmethod
    def empty(*args, **kwargs):
        """``da.empty`` with gnumpy chunks."""
        return GnumpyBackendEntrypoint._with_meta("empty", *args, **kwargs)

    @staticmethod
    def full(*args, **kwargs):
        """``da.full`` with gnumpy chunks."""
        return GnumpyBackendEntrypoint._with_meta("full", *args, **kwargs)

    @staticmethod
    def arange(*args, like=None, **kwargs):
        """``da.arange`` with gnumpy chunks."""
        like = gp.empty((0,)) if like is None else like
        with dask.config.set({"array.backend": "numpy"}):
            r = da.arange(*args, like=like, **kwargs)
        # Dask's chunk calls np.arange(start, stop, step, dtype, like=...): a gnumpy.arange
        # that refuses a positional dtype makes NumPy chunks, which this moves to gnumpy
        return r.map_blocks(_as_gnumpy, dtype=r.dtype, meta=like[:0] if like.ndim else like)


def _as_gnumpy(x):
    return x if isinstance(x, gp.ndarray) else gp.asarray(x)


def _concatenate(arrays, axis=0):
    arrays = list(arrays)
    if len(arrays) == 1 and isinstance(arrays[0], gp.ndarray):
        return arrays[0]        # Dask's nested _concatenate2 joins lists of one: no copy
    return gp.concatenate(arrays, axis=axis)


# Tokens without a device-to-host copy: Dask's default tokenizes an unknown object by
# pickling it (for gnumpy: .get() of the whole array, twice per from_array).  A gnumpy
# array's token is new at each call instead (as Dask's own for objects it cannot hash): an
# in-place write keeps an array's graph node, so no cheap token could follow it, and two
# arrays, or one before and after a write, must never share a key.  The cost: Dask does not
# recognise a second from_array of the same array as the same data.
def _tokenize(x):
    return ("gnumpy.ndarray", x.shape, x.dtype.str, str(x.device), uuid.uuid4().hex)


def _register_array() -> None:
    nd = gp.ndarray
    if nd not in chunk_types._HANDLED_CHUNK_TYPES:
        chunk_types.register_chunk_type(nd)
    concatenate_lookup.register(nd, _concatenate)
    tensordot_lookup.register(nd, gp.tensordot)
    einsum_lookup.register(nd, _einsum)
    take_lookup.register(nd, gp.take)
    empty_lookup.register(nd, _empty)
    divide_lookup.register(nd, gp.divide)
    percentile_lookup.register(nd, _percentile)
    numel_lookup.register(nd, _numel)
    nannumel_lookup.register(nd, _nannumel)
    to_numpy_dispatch.register(nd, lambda data, **kw: gp.asnumpy(data))
    to_gnumpy_dispatch.register(nd, lambda data, **kw: data)
    to_gnumpy_dispatch.register(np.ndarray, lambda data, **kw: gp.asarray(data, **kw))
    sizeof.register(nd, lambda x: int(x.nbytes))
    normalize_token.register(nd, _tokenize)
    try:
        array_creation_dispatch.register_backend("gnumpy", GnumpyBackendEntrypoint())
    except TypeError:                   # an older Dask: the class itself is accepted
        pass


# ---------------------------------------------------------------------- distributed serializers
# what this process's serializers moved (``client.run(lambda: gnumpy.dask.transfers)``)
transfers = {"serialized": 0, "serialized_bytes": 0, "deserialized": 0,
             "deserialized_bytes": 0}


def _serialize(x):
    """Header + one host frame: the chunk's values staged through host memory (.get())."""
    from distributed.protocol.numpy import serialize_numpy_ndarray
    with locked():
        h = x.get()
    sub, frames = serialize_numpy_ndarray(h)
    transfers["serialized"] += 1
    transfers["serialized_bytes"] += h.nbytes
    return {"numpy": sub, "device-kind": x.device.kind}, frames


def _deserialize(header, frames):
    """The frame back as a gnumpy array on this process's default device."""
    from distributed.protocol.numpy import deserialize_numpy_ndarray
    h = deserialize_numpy_ndarray(header["numpy"], frames)
    transfers["deserialized"] += 1
    transfers["deserialized_bytes"] += h.nbytes
    with locked():
        dev = default_device()
        if dev.kind == "cpu" and h.flags.writeable:
            return gp.asarray(h, copy=False)   # the received frame is this array's memory
        return gp.asarray(h, device=dev)


def _cuda_serialize(x):
    """The ``cuda`` family (UCX): the device buffer itself as the frame.  Not run (no UCX
    here); a CPU array refuses, so distributed uses the ``dask`` family for it."""
    if x.device.kind != "cuda":
        raise NotImplementedError("gnumpy CPU arrays use the 'dask' serializers")
    with locked():
        c = gp.ascontiguousarray(x)
        frame = c.reshape(-1).view(np.uint8) if c.size else gp.empty((0,), dtype=np.uint8)
        gp.evaluate(frame)
        gp._device.backend(x.device).synchronize()    # the comm reads it on its own stream
    return {"shape": x.shape, "dtype": x.dtype.str}, [frame]


def _cuda_deserialize(header, frames):
    """A received device frame (any object with __cuda_array_interface__) as a gnumpy array."""
    (frame,) = frames
    with locked():
        raw = gp.asarray(frame, copy=True)     # a device-to-device copy into gnumpy's pool
        dt = np.dtype(header["dtype"])
        if raw.dtype != np.uint8:
            raw = raw.view(np.uint8)
        return raw.view(dt).reshape(header["shape"])


def _register_distributed() -> bool:
    try:
        from distributed.protocol import dask_deserialize, dask_serialize
    except ImportError:
        return False
    dask_serialize.register(gp.ndarray)(_serialize)
    dask_deserialize.register(gp.ndarray)(_deserialize)
    try:
        from distributed.protocol.cuda import cuda_deserialize, cuda_serialize
    except ImportError:
        return True
    cuda_serialize.register(gp.ndarray)(_cuda_serialize)
    cuda_deserialize.register(gp.ndarray)(_cuda_deserialize)
    return True


_registered = []


def register() -> None:
    """Register gnumpy with dask.array (and distributed, when installed).  Idempotent; runs
    when this module is imported."""
    if _registered:
        return
    _register_array()
    _registered.append(_register_distributed())


register()


# ---------------------------------------------------------------------- workers
def worker_device() -> str:
    """The device a worker uses: ``GNUMPY_DEVICE`` as the process's environment says now
    (a Nanny sets a worker's environment after Python started, maybe after gnumpy was
    imported: the options are read afresh), else cuda where a GPU is usable, else cpu."""
    want = Config().device
    if want in ("", "auto"):
        return "cuda" if gpu_ids() else "cpu"
    return want


try:
    from distributed.threadpoolexecutor import ThreadPoolExecutor as _DistributedPool
except ImportError:                     # dask without distributed
    _DistributedPool = None


# Per task on this worker: (key, kernels run, their kinds), the last TASK_LOG_LEN tasks;
# ``client.run(gnumpy.dask.task_log)`` reads it (the examples and tests check fusion by it).
TASK_LOG_LEN = 10000
_task_log: list = []


def task_log(clear=False) -> list:
    """The gnumpy kernels each recent task of this worker ran: (key, groups, {kind: n})."""
    out = list(_task_log)
    if clear:
        _task_log.clear()
    return out


def _task_key(fn):
    """The task's key, read from the closure distributed submits (None where it differs)."""
    try:
        cells = {c: v.cell_contents for c, v in zip(fn.__code__.co_freevars, fn.__closure__)}
        if getattr(cells.get("func"), "__name__", "") in ("_run_task", "_run_task_simple"):
            return cells["args"][3] if cells["func"].__name__ == "_run_task" else None
    except Exception:
        pass
    return None


def _run_locked(fn, args, kwargs):
    """One task on a worker: run under ``locked()``, its gnumpy result evaluated before the
    task counts as finished; an error of that evaluation is the task's error."""
    import time
    with locked():
        st = gp.stats
        g0, k0 = st.groups, dict(st.by_kind)
        r = fn(*args, **kwargs)
        done = isinstance(r, dict) and r.get("op") == "task-finished"  # distributed's _run_task
        try:
            evaluate_result(r["result"] if done else r)
        except Exception as e:
            if not done:
                raise
            from distributed.core import error_message
            msg = error_message(e)
            msg.update(op="task-erred", actual_exception=e, start=r["start"], stop=time.time(),
                       thread=r.get("thread"))
            return msg
        if done:
            r["stop"] = max(r["stop"], time.time())     # the kernels are part of the task
        if len(_task_log) >= TASK_LOG_LEN:
            del _task_log[:TASK_LOG_LEN // 2]
        _task_log.append((_task_key(fn), st.groups - g0,
                          {k: v - k0.get(k, 0) for k, v in st.by_kind.items() if v != k0.get(k, 0)}))
        return r


if _DistributedPool is not None:
    class GnumpyThreadPoolExecutor(_DistributedPool):
        """Distributed's task thread pool, each task run under ``locked()`` with its gnumpy
        result evaluated before the task ends.  (The worker recognises its pools by the name
        ThreadPoolExecutor; this one keeps secede/rejoin and contextvars.)"""

        def submit(self, fn, /, *args, **kwargs):
            """Run ``fn(*args, **kwargs)`` on a pool thread, holding gnumpy (``locked``)."""
            return super().submit(_run_locked, fn, args, kwargs)
else:
    GnumpyThreadPoolExecutor = None


def setup_worker(worker, device=None) -> str:
    """Make `worker` a gnumpy worker: its device chosen, its task pool replaced by a
    ``GnumpyThreadPoolExecutor`` of the same size.  Returns the device's name."""
    dev = str(Device(device or worker_device()))
    cur = gp._device._default
    if cur is None:
        gp.config.set(device=dev)        # read when the first array is made
    elif str(cur) != dev:
        raise RuntimeError(f"this worker already uses {cur}, not {dev}")
    pool = worker.executors.get("default")
    if pool is not None and type(pool).__name__ == "ThreadPoolExecutor":
        worker.executors["default"] = GnumpyThreadPoolExecutor(
            pool._max_workers, thread_name_prefix="Dask-gnumpy-Threads")
        pool.shutdown(wait=False)
    with locked():                       # start the backend (and CUDA) now, not in a task
        gp.evaluate(gp.zeros(1))
    return str(default_device())


def dask_setup(worker, device=None) -> None:
    """Preload hook: ``dask worker --preload gnumpy.dask`` (or ``preload=["gnumpy.dask"]``)."""
    setup_worker(worker, device)


try:
    from distributed.diagnostics.plugin import WorkerPlugin as _WorkerPlugin
except ImportError:                     # dask without distributed
    _WorkerPlugin = object


class GnumpyWorkerPlugin(_WorkerPlugin):
    """``client.register_plugin(GnumpyWorkerPlugin())`` makes the workers of a running cluster
    gnumpy workers (as ``dask_setup`` does for workers started with the preload)."""

    name = "gnumpy"

    def __init__(self, device=None):
        self.device = device

    def setup(self, worker):
        """Called by distributed on each worker: ``setup_worker(worker)``."""
        setup_worker(worker, self.device)


def gpu_ids() -> list:
    """The CUDA devices this process sees, as names for a worker's CUDA_VISIBLE_DEVICES:
    their UUIDs (``GPU-...``), which name the same GPU whatever this process's own
    CUDA_VISIBLE_DEVICES is; ordinals where the driver gives no UUID.  Empty without a
    usable driver."""
    n = cuda_probe.device_count()[0]
    if n == 0:
        return []
    try:
        from cuda.bindings import driver
        ids = []
        for i in range(n):
            err, dev = driver.cuDeviceGet(i)
            if err != driver.CUresult.CUDA_SUCCESS:
                raise RuntimeError(err)
            err, uuid_ = driver.cuDeviceGetUuid(dev)
            if err != driver.CUresult.CUDA_SUCCESS:
                raise RuntimeError(err)
            ids.append(_uuid_name(bytes(uuid_.bytes)))
        return ids
    except Exception:
        return [str(i) for i in range(n)]


def _uuid_name(b: bytes) -> str:
    """NVIDIA's spelling of a GPU's 16-byte UUID (as nvidia-smi -L prints it)."""
    h = b.hex()
    return f"GPU-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def _local_cluster_class():
    import copy

    from distributed import LocalCluster, Nanny

    class _LocalGPUCluster(LocalCluster):
        """One worker process per GPU (each sees only its GPU through CUDA_VISIBLE_DEVICES,
        set to the GPU's UUID, and uses it as cuda:0), or `n_workers` CPU workers on the
        CPU backend."""

        def __init__(self, n_workers=None, *, devices=None, device=None,
                     threads_per_worker=1, memory_limit="auto", preload_gnumpy=True, **kwargs):
            if device is None:
                device = "cuda" if (devices or gpu_ids()) else "cpu"
            if device.startswith("cuda"):
                devices = list(devices or gpu_ids())
                if not devices:
                    raise RuntimeError("LocalGPUCluster(device='cuda'): no usable CUDA device "
                                       "(pass device='cpu' for CPU workers)")
                if n_workers is not None:
                    devices = devices[:n_workers]
            else:
                devices = [None] * (n_workers or 2)
            self._devices = devices
            self._device_kind = "cuda" if device.startswith("cuda") else "cpu"
            kwargs.setdefault("processes", True)
            if not kwargs["processes"]:
                raise ValueError("LocalGPUCluster needs worker processes (one device each)")
            preload = list(kwargs.pop("preload", None) or [])
            if preload_gnumpy and "gnumpy.dask" not in preload:
                preload.append("gnumpy.dask")
            if memory_limit == "auto" and self._device_kind == "cuda":
                # Dask's memory manager compares the chunks' sizes (device bytes) with the
                # host's memory and would spill device chunks to disk through the host: GPU
                # workers get no host limit (device memory is gnumpy's pool's to manage)
                memory_limit = 0
            if memory_limit == "auto":
                import logging

                from distributed.worker_memory import parse_memory_limit
                memory_limit = parse_memory_limit("auto", 1, len(devices),
                                                  logger=logging.getLogger(__name__))
            super().__init__(n_workers=0, threads_per_worker=threads_per_worker,
                             worker_class=Nanny, memory_limit=memory_limit,
                             preload=preload, **kwargs)
            self.scale(len(devices))
            self.sync(self._correct_state)
            self.sync(self._wait_for_workers)

        def new_worker_spec(self):
            free = [i for i in range(len(self._devices)) if i not in self.worker_spec]
            if not free:
                raise ValueError("LocalGPUCluster: every device has its worker")
            i = free[0]
            spec = copy.deepcopy(self.new_spec)
            env = dict(spec["options"].get("env") or {})
            if self._device_kind == "cuda":
                env["CUDA_VISIBLE_DEVICES"] = str(self._devices[i])
                env["GNUMPY_DEVICE"] = "cuda:0"
            else:
                env["GNUMPY_DEVICE"] = "cpu"
            spec["options"]["env"] = env
            return {i: spec}

    return _LocalGPUCluster


def LocalGPUCluster(n_workers=None, *, devices=None, device=None, threads_per_worker=1,
                    use_dask_cuda=None, preload_gnumpy=True, **kwargs):
    """A local Dask cluster of gnumpy workers, one process per GPU.

    Parameters
    ----------
    n_workers : int, optional
        GPU workers: the first `n_workers` visible GPUs (default: all).  CPU workers
        (``device='cpu'``, or no GPU here): how many (default 2).
    devices : list of str, optional
        The GPUs to use, as CUDA_VISIBLE_DEVICES names them (UUIDs or ordinals; default:
        every GPU this process sees, ``gpu_ids()``).
    device : {'cuda', 'cpu'}, optional
        Default: 'cuda' where a GPU is usable, else 'cpu'.
    threads_per_worker : int
        Task threads per worker (default 1: one stream, one task at a time per GPU).
    preload_gnumpy : bool
        Preload ``gnumpy.dask`` into each worker (``dask_setup``: its device, its task pool).
        False gives plain workers pinned to one GPU each (e.g. for dask.array over CuPy).
    use_dask_cuda : bool, optional
        Start dask-cuda's ``LocalCUDACluster`` (its device pinning, CPU affinity and UCX
        options; ``protocol="ucx"`` with ``enable_nvlink=True`` moves chunks GPU to GPU).
        Default: when dask-cuda is installed and the workers are GPU workers; otherwise a
        ``distributed.LocalCluster`` whose worker processes each see one GPU
        (CUDA_VISIBLE_DEVICES) and use it as ``cuda:0``.  True without dask-cuda raises
        ImportError.
    **kwargs
        Passed to ``distributed.LocalCluster`` (``dashboard_address``, ``memory_limit``, ...).
        ``memory_limit`` defaults to the host's memory shared among CPU workers and to none
        for GPU workers: Dask counts a chunk's device bytes against it and would spill
        device chunks to disk through the host.

    Examples
    --------
    >>> from distributed import Client
    >>> cluster = LocalGPUCluster()             # doctest: +SKIP
    >>> client = Client(cluster)                # doctest: +SKIP
    """
    if device is None:
        device = "cuda" if (devices or gpu_ids()) else "cpu"
    if use_dask_cuda is None:
        import importlib.util
        use_dask_cuda = device.startswith("cuda") and \
            importlib.util.find_spec("dask_cuda") is not None
    if use_dask_cuda:
        from dask_cuda import LocalCUDACluster
        preload = list(kwargs.pop("preload", None) or [])
        if preload_gnumpy and "gnumpy.dask" not in preload:
            preload.append("gnumpy.dask")
        if devices is not None:
            kwargs["CUDA_VISIBLE_DEVICES"] = ",".join(map(str, devices))
        return LocalCUDACluster(n_workers=n_workers, threads_per_worker=threads_per_worker,
                                preload=preload, **kwargs)
    return _local_cluster_class()(n_workers, devices=devices, device=device,
                                  threads_per_worker=threads_per_worker,
                                  preload_gnumpy=preload_gnumpy, **kwargs)
