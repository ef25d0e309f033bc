"""Constants of a loop's dtype: a Python or NumPy scalar converted to a NumPy scalar of the
dtype the way C converts it (``scalar_value``), without warnings, cached for the constants
a loop repeats."""
from __future__ import annotations

import warnings

import numpy as np


_FMAX = {np.dtype(np.float16): 65504.0, np.dtype(np.float32): 3.4028234663852886e38,
         np.dtype(np.complex64): 3.4028234663852886e38}


_SCALARS: dict = {}     # (value, type, dtype) -> NumPy scalar, for repeated Python scalars


def scalar_value(value, dtype: np.dtype):
    """`value` converted to a NumPy scalar of `dtype` (C-style conversion, no warnings)."""
    t = type(value)
    if t is dtype.type:                         # a NumPy scalar of the loop's type
        return value
    if t is float or t is int:
        r = _SCALARS.get((value, t, dtype))     # loops repeat their constants (x * 0.99)
        if r is not None:
            return r
        if value and value == value:            # not zeros (the key would lose their sign)
            r = _SCALARS[(value, t, dtype)] = _scalar_value(value, dtype, t)    # nor NaN
            if len(_SCALARS) > 4096:
                _SCALARS.clear()
            return r
    return _scalar_value(value, dtype, t)


def _scalar_value(value, dtype, t):
    k = dtype.kind
    if t is float and k in "fc":
        m = _FMAX.get(dtype)
        if m is None or -m <= value <= m or value != value:
            return dtype.type(value)
    elif t is int and k in "iu":
        info = _IBOUNDS.get(dtype)
        if info[0] <= value <= info[1]:
            return dtype.type(value)
    elif t is bool or (t is int and k in "fc" and -65504 <= value <= 65504):
        return dtype.type(value)
    elif t is complex and k == "c":
        m = _FMAX.get(dtype)
        if m is None or -m <= value.real <= m and -m <= value.imag <= m:
            return dtype.type(value)
    elif isinstance(value, np.generic):
        vd = value.dtype
        if vd == dtype:
            return value
        safe = _SAFE.get((vd, dtype))
        if safe is None:
            safe = _SAFE[(vd, dtype)] = bool(np.can_cast(vd, dtype, "safe"))
        if safe:            # (a float32 scalar in a float64 loop: no rounding, no warning)
            return dtype.type(value)
    return _scalar_value_slow(value, dtype)


_SAFE: dict = {}        # (NumPy scalar dtype, loop dtype) -> a safe cast?


_IBOUNDS = {np.dtype(t): (int(np.iinfo(t).min), int(np.iinfo(t).max))
            for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                      np.uint64)}


def _scalar_value_slow(value, dtype: np.dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            if dtype.kind in "iub" and isinstance(value, (float, complex, np.floating,
                                                          np.complexfloating)):
                return np.array(value).astype(dtype)[()]
            if dtype.kind in "iu" and isinstance(value, int) and not isinstance(value, bool):
                # wrap out-of-range ints like a C cast (callers range-check weak ints first)
                info = np.iinfo(dtype)
                span = int(info.max) - int(info.min) + 1
                value = (value - int(info.min)) % span + int(info.min)
            return dtype.type(value)
