"""DLPack export in pure Python (ctypes): typed, strided capsules over device memory.

cuda.core's Buffer exports raw bytes only, so gnumpy builds the DLManagedTensor (legacy
``dltensor``) or DLManagedTensorVersioned (``dltensor_versioned``, DLPack >= 1.0) itself.
The struct and the array owner stay alive in ``_live`` until the consumer calls the
deleter.

# Note: the capsules have no destructor.  A consumer that refuses a capsule (NumPy given
# CUDA memory) drops it while its exception is pending, and Python code run then (a ctypes
# callback) cannot call anything without destroying that exception (NumPy then raised
# SystemError instead of its BufferError).  A capsule that dies unconsumed therefore keeps
# its array alive in ``_live``: a small leak on a failed exchange, never a wrong result.
"""
from __future__ import annotations

import ctypes


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


_Deleter = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                            ("deleter", _Deleter)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p),
                ("deleter", _Deleter), ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]


_CODES = {"b": 6, "i": 0, "u": 1, "f": 2, "c": 5}
_READ_ONLY = 1       # DLPACK_FLAG_BITMASK_READ_ONLY
_live: dict = {}
_PyCapsule_New = ctypes.pythonapi.PyCapsule_New
_PyCapsule_New.restype = ctypes.py_object
_PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


@_Deleter
def _deleter(addr):
    _live.pop(addr, None)


def export(node, data_ptr: int, device: tuple, owner, max_version=None, readonly=False):
    """A DLPack capsule viewing the LEAF `node` (data at data_ptr + offset); `readonly`
    memory is flagged so (DLPack 1.0), or refused where the consumer's version cannot say
    so, as NumPy refuses."""
    dt = node.dtype
    nd = len(node.shape)
    versioned = max_version is not None and tuple(max_version)[0] >= 1
    if readonly and not versioned:
        raise BufferError("Cannot export readonly array since signalling readonly is "
                          "unsupported by DLPack (supported by newer DLPack version).")
    shape = (ctypes.c_int64 * max(nd, 1))(*node.shape)
    strides = (ctypes.c_int64 * max(nd, 1))(*node.strides)
    m = DLManagedTensorVersioned() if versioned else DLManagedTensor()
    t = m.dl_tensor
    t.data = data_ptr + node.offset * dt.itemsize
    t.device = DLDevice(*device)
    t.ndim = nd
    t.dtype = DLDataType(_CODES[dt.kind], dt.itemsize * 8, 1)
    t.shape = ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64))
    t.strides = ctypes.cast(strides, ctypes.POINTER(ctypes.c_int64))
    t.byte_offset = 0
    m.deleter = _deleter
    if versioned:
        m.version = DLPackVersion(1, 0)
        m.flags = _READ_ONLY if readonly else 0
    addr = ctypes.addressof(m)
    _live[addr] = (m, shape, strides, owner, node)
    return _PyCapsule_New(addr, b"dltensor_versioned" if versioned else b"dltensor", None)

