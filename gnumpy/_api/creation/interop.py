"""Arrays in and out of other libraries: ``from_dlpack`` (any DLPack producer), zero-copy
import of foreign CUDA arrays (DLPack and ``__cuda_array_interface__``), and the
``__cuda_array_interface__`` of gnumpy's own.

An imported array shares the producer's memory; the producer object is kept alive for
as long as any gnumpy node refers to the memory.
"""
from __future__ import annotations

import numpy as np

from ... import _dtypes as D
from ..._array import ndarray
from ..._device import Device, as_device, backend
from ..._graph import ir
from ..._graph import layout as L

wrap = ndarray._from_node


def _from_view(view, device, copy):
    # loaded on first use: import gnumpy does not load the CUDA memory module
    from ...backends.cuda_memory import DeviceBuffer
    dev = Device("cuda", view.device_id)
    be = backend(dev)
    dt = D.to_dtype(view.dtype)
    shape = tuple(view.shape)
    strides = tuple(view.strides) if view.strides is not None else L.c_strides(shape)
    buf = DeviceBuffer(None, 0)
    buf.ptr = int(view.ptr)
    buf._buf = view                       # keeps the producer's memory alive
    node = ir.leaf(buf, dt, shape, strides, 0, dev)
    x = wrap(node)
    x._mark_shared()
    if copy:
        x = x._copy()
    if device is not None and as_device(device) != dev:
        x = x.to_device(device)
    del be
    return x


def from_dlpack(x, /, *, device=None, copy=None):
    """Import an array from any DLPack producer (zero-copy where the device allows)."""
    if isinstance(x, ndarray):
        r = x._view(()) if not copy else x._copy()
        return r if device is None else r.to_device(device)
    dev_type, dev_id = x.__dlpack_device__()
    if int(dev_type) in (1, 3):   # kDLCPU, kDLCUDAHost
        arr = np.from_dlpack(x) if copy is not True else np.array(np.from_dlpack(x))
        target = as_device(device) if device is not None else as_device("cpu")
        if target.kind == "cpu":
            r = wrap(backend(target).from_numpy(arr, copy=bool(copy)))
            if not copy:
                r._mark_shared()        # the producer's memory: writes go to it
            return r
        return wrap(backend(target).from_numpy(arr, copy=True))
    if int(dev_type) in (2, 13):  # kDLCUDA, kDLCUDAManaged
        return from_cuda_dlpack(x, device=device, copy=copy)
    raise BufferError(f"unsupported DLPack device type {dev_type}")


def from_cuda_dlpack(obj, device=None, copy=None):
    """Import a CUDA DLPack producer (torch, CuPy, JAX, ...) as a gnumpy array."""
    from cuda.core.utils import StridedMemoryView
    be = backend(Device("cuda", obj.__dlpack_device__()[1]))
    view = StridedMemoryView.from_dlpack(obj, stream_ptr=int(be.stream.handle))
    return _from_view(view, device, copy)


def from_cuda_array_interface(obj, device=None, copy=None):
    """Import an object exposing ``__cuda_array_interface__`` (v3) as a gnumpy array."""
    from cuda.core.utils import StridedMemoryView
    be = backend(Device("cuda", 0))
    view = StridedMemoryView.from_cuda_array_interface(obj, stream_ptr=int(be.stream.handle))
    return _from_view(view, device, copy)


def cuda_array_interface(arr) -> dict:
    """The ``__cuda_array_interface__`` (v3) dict of a CUDA gnumpy array."""
    n = arr._write_target(skip=False)     # the consumer may write into it
    arr._mark_shared()
    be = backend(n.device)
    it = n.dtype.itemsize
    contiguous = L.is_c_contiguous(n.shape, n.strides)
    return {
        "shape": tuple(n.shape),
        "typestr": n.dtype.str,
        "data": (n.buf.ptr + n.offset * it, False),
        "strides": None if contiguous else tuple(s * it for s in n.strides),
        "version": 3,
        "stream": int(be.stream.handle) or None,
    }
