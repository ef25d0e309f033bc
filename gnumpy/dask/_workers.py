"""gnumpy workers of Dask: the device a worker uses (``worker_device``, ``gpu_ids``), its task
pool (each task run under ``locked`` with its result evaluated), the preload hook and the
worker plugin that set a worker up, and what ``client.run`` asks of a worker
(``synchronize``, ``worker_info``, ``task_log``)."""
from __future__ import annotations

import os

import gnumpy as gp
from gnumpy._config import Config
from gnumpy._device import Device, default_device
from gnumpy.backends import cuda_probe

from ._locking import locked


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
