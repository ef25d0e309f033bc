"""``distributed``'s serializers for gnumpy arrays: the ``dask`` family (a header and one host
frame) and the ``cuda`` family (the device buffer itself, for UCX), and the count of what
they moved (``transfers``)."""
from __future__ import annotations

import numpy as np

import gnumpy as gp
from gnumpy._api._common import wrap
from gnumpy._device import backend, default_device

from ._locking import locked

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
        if dev.kind == "cpu" and h.flags.writeable:     # the received frame becomes this
            return wrap(backend(dev).from_numpy(h, copy=False))     # array's own memory
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

