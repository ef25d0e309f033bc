"""One thread at a time: the lock every gnumpy use of ``gnumpy.dask`` on a worker runs under,
held on a thread whose CUDA context is current (``locked``)."""
from __future__ import annotations

import contextlib
import threading

import gnumpy as gp
from gnumpy._device import default_device

# gnumpy's lazy graph, memory pool and streams belong to one thread at a time.  A Dask worker
# touches arrays from its task thread and from its comm threads (event loop, offload), so
# every gnumpy use ``gnumpy.dask`` makes on a worker runs under this lock, on a thread whose CUDA
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
    """Hold gnumpy for this thread: this package's lock, with the device's context current."""
    with _LOCK:
        _bind_thread()
        yield
