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

The modules: ``_dispatch`` (dask.array's tables and the ``"gnumpy"`` backend),
``_serialize`` (distributed's serializers), ``_locking`` (the one-thread-at-a-time lock),
``_workers`` (a worker's device, task pool, preload hook and plugin) and ``_cluster``
(``LocalGPUCluster``); this package registers the first two with Dask (``register``).

Examples
--------
>>> import gnumpy as gp, gnumpy.dask, dask.array as da
>>> x = da.from_array(gp.arange(8.0), chunks=4)
>>> type((2 * x + 1).sum().compute()).__name__
'ndarray'
"""
from __future__ import annotations

from ._cluster import LocalGPUCluster
from ._dispatch import GnumpyBackendEntrypoint, _register_array, to_gnumpy_dispatch
from ._locking import locked
from ._serialize import _register_distributed, transfers
from ._workers import (GnumpyThreadPoolExecutor, GnumpyWorkerPlugin, dask_setup,
                       evaluate_result, gpu_ids, setup_worker, synchronize, task_log,
                       worker_device, worker_info)

__all__ = ["register", "LocalGPUCluster", "GnumpyWorkerPlugin", "dask_setup", "setup_worker",
           "gpu_ids", "worker_device", "worker_info", "synchronize", "task_log", "transfers",
           "locked", "evaluate_result", "GnumpyBackendEntrypoint", "GnumpyThreadPoolExecutor",
           "to_gnumpy_dispatch"]


def __dir__():
    return sorted(__all__)


_registered = []


def register() -> None:
    """Register gnumpy with dask.array (and distributed, when installed).  Idempotent; runs
    when this package is imported."""
    if _registered:
        return
    _register_array()
    _registered.append(_register_distributed())


register()
