"""``gnumpy.cuda``: devices, streams, events, memory-pool statistics, kernel caches and
CUDA graphs (``Graph``).

Examples
--------
>>> import gnumpy as gp
>>> if gp.cuda.is_available():
...     with gp.cuda.Stream() as s:
...         y = gp.arange(10.0) * 2
...     s.synchronize()
"""
from __future__ import annotations

from .._config import config as _config
from .._device import Device as _GDevice
from .._device import backend as _backend, _backends
from .._graph.realize import lock as _exec_lock
from .._graph.realize import settle as _settle
from ..backends import cuda_probe as _probe
from ..kernels import cache as _kcache
from .graphs import Graph

__all__ = ["Device", "Event", "Graph", "Stream", "clear_kernel_cache", "device_count",
           "free_all_blocks", "get_current_stream", "is_available", "kernel_cache_info",
           "memory_info", "set_pool_limit", "synchronize"]


def __dir__():
    return sorted(__all__)


def is_available() -> bool:
    """True when a CUDA GPU and driver are usable."""
    return _probe.device_count()[0] > 0


def device_count() -> int:
    """The number of usable CUDA devices (0 without a GPU or driver)."""
    return _probe.device_count()[0]


def _be(device=None):
    dev = _GDevice("cuda", 0 if device is None else getattr(device, "id", device))
    return _backend(dev)


class Device:
    """A CUDA device: its properties, synchronization, and ``with`` selection."""

    def __init__(self, device_id: int = 0) -> None:
        self.id = int(device_id)

    @property
    def _cdev(self):
        return _be(self.id).cdev

    @property
    def name(self) -> str:
        return self._cdev.name

    @property
    def compute_capability(self) -> tuple:
        cc = self._cdev.compute_capability
        return (cc.major, cc.minor)

    @property
    def multiprocessor_count(self) -> int:
        return _be(self.id).sm_count

    @property
    def properties(self):
        return self._cdev.properties

    def synchronize(self) -> None:
        _be(self.id).synchronize()

    def __repr__(self) -> str:
        return f"<gnumpy.cuda.Device {self.id}>"


class Stream:
    """A CUDA stream; ``with Stream():`` makes it the calling thread's current stream for
    gnumpy work, as CuPy's ``with stream:`` does.  A thread that has entered none uses the
    device's default gnumpy stream, which all threads share.

    A blocking stream (``nonblocking=False``, the default) is ordered with the stream it
    replaces: the block's work starts after the work issued before it, and work after the
    block starts after the block's.  Lazy work realized later therefore always sees what
    it reads.  A ``nonblocking=True`` stream has no such order: use events or
    ``synchronize`` to order it, as with CUDA streams."""

    def __init__(self, device_id: int = 0, nonblocking: bool = False, _cuda_stream=None):
        self._be = _be(device_id)
        if _cuda_stream is None:
            from cuda.core import StreamOptions
            self._be.cdev.set_current()         # this thread may not have used CUDA yet
            _cuda_stream = self._be.cdev.create_stream(
                options=StreamOptions(nonblocking=nonblocking))
        self.cuda_stream = _cuda_stream
        self.nonblocking = nonblocking

    @property
    def ptr(self) -> int:
        return int(self.cuda_stream.handle)

    def __enter__(self):
        with _exec_lock:
            _settle()           # a statement's write before the block runs on its stream
            self._be.push_stream(self.cuda_stream, blocking=not self.nonblocking)
        return self

    def __exit__(self, *exc):
        with _exec_lock:
            _settle()           # and one in the block on the block's stream
            self._be.pop_stream(blocking=not self.nonblocking)
        return False

    def synchronize(self) -> None:
        self.cuda_stream.sync()

    def record(self, event=None):
        ev = event if event is not None else Event()
        ev.record(self)
        return ev

    def wait_event(self, event) -> None:
        self.cuda_stream.wait(event.cuda_event)


def get_current_stream(device_id: int = 0) -> Stream:
    """The stream gnumpy issues work on for `device_id` in this thread (a ``Stream``)."""
    be = _be(device_id)
    return Stream(device_id, _cuda_stream=be.stream)


class Event:
    """A CUDA event with timing enabled (``elapsed_time`` in milliseconds)."""

    def __init__(self, timing: bool = True) -> None:
        self.timing = timing
        self.cuda_event = None

    def record(self, stream=None):
        from cuda.core import EventOptions
        _settle()                   # a statement's write belongs before the event
        be = stream._be if isinstance(stream, Stream) else _be()
        s = stream.cuda_stream if isinstance(stream, Stream) else be.stream
        be.cdev.set_current()                   # this thread may not have used CUDA yet
        try:
            opts = EventOptions(timing_enabled=self.timing)
        except TypeError:                      # cuda-core < 1.0
            opts = EventOptions(enable_timing=self.timing)
        self.cuda_event = s.record(options=opts)
        return self

    def synchronize(self) -> None:
        self.cuda_event.sync()

    def elapsed_time(self, end: "Event") -> float:
        return float(end.cuda_event - self.cuda_event)


def synchronize(device_id: int = 0) -> None:
    """Wait for all gnumpy work queued on the current stream of the device."""
    if is_available():
        _be(device_id).synchronize()


def memory_info(device_id: int = 0) -> dict:
    """Pool statistics in bytes: used, reserved, peak (high-water mark), limit."""
    return _be(device_id).pool.info()


def free_all_blocks(device_id: int = 0) -> None:
    """Return cached free blocks of the memory pool to the driver."""
    _be(device_id).pool.trim()


def set_pool_limit(nbytes: int) -> None:
    """Bound the device memory gnumpy may take from the pool (0: no bound)."""
    _config.set(pool_limit=int(nbytes))


def kernel_cache_info() -> dict:
    """Kernel cache counters: memory/disk hits, misses (compiles), compile seconds."""
    return _kcache.counters.as_dict()


def clear_kernel_cache(disk: bool = False) -> None:
    """Forget compiled kernels (in memory; on disk too when `disk`)."""
    for be in list(_backends.values()):
        k = getattr(be, "kernels", None)
        if k is not None:
            k.mem.clear()
    if disk:
        _kcache.clear_disk()
