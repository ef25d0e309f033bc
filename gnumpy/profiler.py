"""``gnumpy.profiler``: NVTX ranges for Nsight Systems, and ``benchmark``.

With ``gnumpy.config.nvtx`` on (``GNUMPY_NVTX=1``), every materialization, every group of
kernels it runs, every CUDA barrier (cuBLAS, CUB, scans) and every eager library call
(``linalg``) is wrapped in an NVTX range named after what runs, e.g.
``elementwise[multiply,add]``, ``reduce[sum: subtract,square]``, ``barrier[matmul]``,
``library[svd]``.  Off (the default), the only cost is one attribute check per
materialization.  On, materializations take the general path (scheduled groups, each in its
range) rather than the launch fast path's replay, so the profile shows every group by name
at the price of the planning time the fast path saves.  The ranges go to the first NVTX binding found: NVIDIA's ``nvtx`` package
(domain ``gnumpy``; ``pip install nvtx``), else CuPy's ``cupy.cuda.nvtx``, else PyTorch's
``torch.cuda.nvtx``.  ``record_ranges()`` collects the range names without any profiler
attached (how the tests check them).

``benchmark(f, args, kwargs, n_repeat, n_warmup)`` times a function as
``cupyx.profiler.benchmark`` does: host (wall) time and device time (CUDA events on
gnumpy's current stream) of each call, separately.

Examples
--------
>>> import gnumpy as gp
>>> x = gp.ones(1000)
>>> with gp.profiler.record_ranges() as names, gp.config.override(nvtx=True):
...     float((2 * x + 1).sum())
3000.0
>>> names
['materialize[sum: multiply,add]', 'reduce[sum: multiply,add]']
"""
from __future__ import annotations

import contextlib
import math
import time

import numpy as np

from . import _nvtx
from ._api._common import evaluate
from ._array import ndarray
from ._device import backend, default_device

__all__ = ["benchmark", "BenchmarkResult", "time_range", "record_ranges"]


def __dir__():
    return sorted(__all__)


# ------------------------------------------------------------------ NVTX ranges
# (the bindings: _nvtx.py)

_push, _pop = _nvtx.push, _nvtx.pop
require_nvtx = _nvtx.require_nvtx


@contextlib.contextmanager
def record_ranges():
    """Collect the names of the NVTX ranges gnumpy opens in the block (in the order they
    open), with or without an NVTX binding or a profiler: a test hook.

    Ranges are opened only while ``config.nvtx`` is on.

    Examples
    --------
    >>> import gnumpy as gp
    >>> with gp.profiler.record_ranges() as names, gp.config.override(nvtx=True):
    ...     gp.evaluate(gp.ones(4) * 3)
    >>> names
    ['materialize[multiply]', 'elementwise[multiply]']
    """
    names: list = []
    _nvtx.recorders.append(names)
    try:
        yield names
    finally:
        _nvtx.recorders.remove(names)


@contextlib.contextmanager
def time_range(message: str):
    """An NVTX range around a block of user code (``cupyx.profiler.time_range``'s role).

    Opened whether or not ``config.nvtx`` is on; raises RuntimeError when no NVTX binding
    imports (see the module docstring).

    Examples
    --------
    >>> import gnumpy as gp
    >>> with gp.profiler.record_ranges() as names:
    ...     with gp.profiler.time_range("my step"):
    ...         pass
    >>> names
    ['my step']
    """
    _push(message)
    try:
        yield
    finally:
        _pop()


# ------------------------------------------------------------------ benchmark

class BenchmarkResult:
    """Times of the calls ``benchmark`` made, in seconds.

    Attributes
    ----------
    name : str
        The function's name (or the ``name`` given).
    cpu_times : numpy.ndarray
        Host wall time of each call (launching the work, not waiting for it).
    gpu_times : numpy.ndarray or None
        Device time of each call (CUDA events on gnumpy's current stream); None on the
        CPU backend, where there is no device to time separately.
    device : str
        The device timed ("cpu" or "cuda:N").
    """

    def __init__(self, name, cpu_times, gpu_times, device):
        self.name = name
        self.cpu_times = np.asarray(cpu_times, dtype=np.float64)
        self.gpu_times = None if gpu_times is None else np.asarray(gpu_times, np.float64)
        self.device = device

    @staticmethod
    def _stats(label, t) -> str:
        us = t * 1e6
        return (f"{label}:{us.mean():10.3f} us +/- {us.std():8.3f} "
                f"(min: {us.min():10.3f} / max: {us.max():10.3f}) us")

    def __repr__(self) -> str:
        if self.cpu_times.size == 0:
            return f"{self.name:<20s}: no calls timed"
        parts = [self._stats("    CPU", self.cpu_times)]
        if self.gpu_times is not None:
            parts.append(self._stats(f"    GPU-{self.device.split(':')[-1]}",
                                     self.gpu_times))
        return f"{self.name:<20s}:" + "".join(parts)

    __str__ = __repr__


def _evaluate_all(out) -> None:
    stack, arrays = [out], []
    while stack:
        o = stack.pop()
        if isinstance(o, ndarray):
            arrays.append(o)
        elif isinstance(o, (tuple, list)):
            stack.extend(o)
        elif isinstance(o, dict):
            stack.extend(o.values())
    if arrays:
        evaluate(*arrays)


def benchmark(f, args=(), kwargs=None, n_repeat: int = 10000, n_warmup: int = 10,
              max_duration: float = math.inf, name: str | None = None) -> BenchmarkResult:
    """Time ``f(*args, **kwargs)``: host and device time of each call, separately.

    Modelled on ``cupyx.profiler.benchmark``.  Because gnumpy is lazy, every gnumpy array
    `f` returns (directly or in a tuple, list or dict) is evaluated inside the timed call,
    so the time covers the work, not only building the expression.

    Parameters
    ----------
    f : callable
        The function to time.
    args : tuple, optional
        Positional arguments of `f`.
    kwargs : dict, optional
        Keyword arguments of `f`.
    n_repeat : int, optional
        Timed calls (10000, as CuPy).
    n_warmup : int, optional
        Untimed calls first (10): kernels compile and plans cache here.
    max_duration : float, optional
        Stop timing after this many seconds of host time (the calls made so far count).
    name : str, optional
        The name shown (default: ``f.__name__``).

    Returns
    -------
    BenchmarkResult
        ``cpu_times`` (host wall time per call: Python, planning and launching) and
        ``gpu_times`` (device time per call between CUDA events recorded on gnumpy's
        current stream before and after the call, the end event waited on), in seconds.

    Notes
    -----
    On the CPU backend the work runs on the host, inside the host time: ``gpu_times`` is
    None (there is no separate device time) and the repr shows the CPU line only.

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.arange(10_000, dtype=gp.float32)
    >>> r = gp.benchmark(lambda a: (2 * a + 1).sum(), (x,), n_repeat=20, n_warmup=2)
    >>> r.cpu_times.shape
    (20,)
    """
    kwargs = {} if kwargs is None else kwargs
    name = name if name is not None else getattr(f, "__name__", "function")
    dev = default_device()
    be = backend(dev)
    cuda = dev.kind == "cuda"
    if cuda:
        # loaded on first use: only CUDA timing needs gnumpy.cuda (~12 ms)
        from .cuda import Event, get_current_stream
        stream = get_current_stream(dev.id)
    for _ in range(n_warmup):
        _evaluate_all(f(*args, **kwargs))
    if cuda:
        be.synchronize()
    cpu, gpu = [], []
    spent = 0.0
    for _ in range(n_repeat):
        if cuda:
            start = Event().record(stream)
        t0 = time.perf_counter()
        _evaluate_all(f(*args, **kwargs))
        t1 = time.perf_counter()
        if cuda:
            end = Event().record(stream)
            end.synchronize()
            gpu.append(start.elapsed_time(end) * 1e-3)
        cpu.append(t1 - t0)
        spent += t1 - t0
        if spent >= max_duration:
            break
    return BenchmarkResult(name, cpu, gpu if cuda else None, str(dev))
