"""The CUDA driver seen without cuda.core: is a GPU usable here (a driver call that never
raises; the answer is cached), and libcuda's functions through ctypes (``libcuda``)."""
from __future__ import annotations

import ctypes

_result = None
_LIBCUDA: dict = {}         # name -> ctypes function, or None where libcuda does not load


def device_count():
    """(number of CUDA devices, reason string).  0 devices when there is no usable driver."""
    global _result
    if _result is None:
        try:
            from cuda.bindings import driver
            (err,) = driver.cuInit(0)
            if err != driver.CUresult.CUDA_SUCCESS:
                _result = (0, err.name)
            else:
                err, n = driver.cuDeviceGetCount()
                _result = (n, "ok") if err == driver.CUresult.CUDA_SUCCESS else (0, err.name)
        except Exception as e:  # no cuda-bindings, no libcuda, ...: all mean "no GPU"
            _result = (0, f"{type(e).__name__}: {e}")
    return _result


def libcuda(name, argtypes=None):
    """libcuda's function `name` through ctypes, returning its C int status: a ``PyDLL``
    function (the GIL held: these calls are short and never re-enter Python), about a
    microsecond a call less than cuda.bindings' wrappers; None where libcuda does not load
    that way.  Made once per name."""
    try:
        return _LIBCUDA[name]
    except KeyError:
        pass
    try:
        f = getattr(ctypes.PyDLL("libcuda.so.1"), name)
        if argtypes is not None:
            f.argtypes = argtypes
        f.restype = ctypes.c_int
    except (OSError, AttributeError):
        f = None
    _LIBCUDA[name] = f
    return f
