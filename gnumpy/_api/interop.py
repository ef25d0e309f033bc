"""Zero-copy import of foreign CUDA arrays (DLPack and ``__cuda_array_interface__``).

The imported array shares the producer's memory; the producer object is kept alive for
as long as any gnumpy node refers to the memory.
"""
from __future__ import annotations

from .. import _dtypes as D
from .._device import Device, as_device, backend
from .._graph import ir
from .._graph import layout as L
from ._common import wrap


def _from_view(view, device, copy):
    from ..backends.cuda_memory import DeviceBuffer
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
