"""``Generator.integers``: uniform integers in [low, high) (or [low, high] with
``endpoint``) of any integer or bool dtype, with NumPy's argument checks.

Scalar bounds are checked on the host; array bounds (broadcast with ``size``) are checked
like the parameters of other distributions (``_args``).  Values are ``low + below(r)``
computed in uint64 with wraparound and cast to the dtype (``_transforms.below``).
"""
from __future__ import annotations

import numpy as np

from .._api.creation.creation import full, asarray
from .._api.reductions.reductions import any as any_
from .._array import ndarray
from . import _transforms as T
from ._args import int_dtype, result_shape, shape_of

MASK64 = (1 << 64) - 1
U64 = np.dtype(np.uint64)


def _bounds(dt):
    if dt.kind == "b":
        return 0, 1
    info = np.iinfo(dt)
    return int(info.min), int(info.max)


def _order_error(high_none, endpoint):
    if high_none:
        return ValueError("high < 0" if endpoint else "high <= 0")
    return ValueError("low > high" if endpoint else "low >= high")


def integers(bg, low, high=None, size=None, dtype=np.int64, endpoint=False, device=None,
             fname="integers"):
    """Random integers from `bg` (see ``Generator.integers``)."""
    dt = int_dtype(dtype, fname)
    high_none = high is None
    if high_none:
        low, high = 0, low
    cls = ndarray
    if not isinstance(low, cls) and not isinstance(high, cls) and np.ndim(low) == 0 \
            and np.ndim(high) == 0:
        return _scalar_bounds(bg, int(low), int(high), size, dt, endpoint, high_none, device)
    return _array_bounds(bg, low, high, size, dt, endpoint, high_none, device)


def _scalar_bounds(bg, lo, hi, size, dt, endpoint, high_none, device):
    mn, mx = _bounds(dt)
    hi_incl = hi if endpoint else hi - 1
    if lo < mn:
        raise ValueError(f"low is out of bounds for {dt}")
    if hi_incl > mx:
        raise ValueError(f"high is out of bounds for {dt}")
    if lo > hi_incl:
        raise _order_error(high_none, endpoint)
    shape = shape_of(size)
    shape = () if shape is None else shape
    r = hi_incl - lo + 1
    if r == 1:
        return full(shape, lo, dtype=dt, device=device)
    return bg.draw("integers", shape, dt, device, (r, lo))


def _host(v):
    """A host bound: a Python int when 0-d (exact at any size), else a NumPy array."""
    if np.ndim(v) == 0:
        return int(v)
    a = np.asarray(v)
    if a.dtype.kind == "b":
        a = a.astype(np.int64)
    if a.dtype.kind not in "iuf":
        np.asarray(a.reshape(-1)[:1], dtype=np.int64)     # NumPy's conversion error
        raise TypeError(f"integers: bounds of dtype {a.dtype} are not supported")
    return a


def _array_bounds(bg, low, high, size, dt, endpoint, high_none, device):
    cls = ndarray
    lo, hi = (v if isinstance(v, cls) else _host(v) for v in (low, high))
    on_dev = [v for v in (lo, hi) if isinstance(v, cls)]
    if on_dev:
        device = on_dev[0].device
        lo, hi = (asarray(v, device=device) if isinstance(v, np.ndarray) else v
                  for v in (lo, hi))
        lo, hi = (v.astype(np.int64) if isinstance(v, cls) and v.dtype.kind == "b" else v
                  for v in (lo, hi))

    def anywhere(c):
        return bool(any_(c)) if isinstance(c, cls) else bool(np.any(c))

    for v in (lo, hi):
        if not isinstance(v, int) and v.dtype.kind == "f" and anywhere(v != v):
            raise ValueError("cannot convert float NaN to integer")
    mn, mx = _bounds(dt)
    if anywhere(lo < mn):
        raise ValueError(f"low is out of bounds for {dt}")
    if anywhere(hi > (mx if endpoint else mx + 1)):
        raise ValueError(f"high is out of bounds for {dt}")
    lo, hi = _trunc_ints(lo, dt), _trunc_ints(hi, dt)
    if anywhere(lo > hi if endpoint else lo >= hi):
        raise _order_error(high_none, endpoint)
    lo_u, hi_u = _to_u64(lo), _to_u64(hi)
    shape = result_shape(size, [getattr(v, "shape", ()) for v in (lo, hi)])
    lo_u, hi_u = (asarray(v, device=device) if isinstance(v, np.ndarray) else v
                  for v in (lo_u, hi_u))
    r = hi_u - lo_u
    if endpoint:
        r = r + 1
    small = dt.itemsize <= 4
    bits = bg.bits(shape if small else (2,) + shape, U64, device)
    return (lo_u + T.below_array(bits, r, small)).astype(dt)


def _trunc_ints(v, dt):
    """Bounds as integers (floats truncated toward zero, like NumPy's conversion)."""
    if isinstance(v, int) or v.dtype.kind != "f":
        return v
    return v.astype(np.uint64 if dt.kind == "u" else np.int64)


def _to_u64(v):
    """Integer bounds as uint64 two's complement (the transform's wraparound arithmetic)."""
    if isinstance(v, int):
        return v & MASK64
    if v.dtype.kind == "u":
        return v.astype(U64)
    return v.astype(np.int64).astype(U64)
