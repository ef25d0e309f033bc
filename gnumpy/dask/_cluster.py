"""``LocalGPUCluster``: a local Dask cluster of gnumpy workers, one worker process per GPU
(dask-cuda's ``LocalCUDACluster`` when installed and asked for), or N CPU workers."""
from __future__ import annotations

from ._workers import gpu_ids


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
