"""Is a CUDA GPU usable here?  (A driver call that never raises; the answer is cached.)"""
from __future__ import annotations

_result = None


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
