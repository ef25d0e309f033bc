"""Argument handling of gnumpy.random: ``size``, distribution parameters (broadcast with
``size``, validated with NumPy's errors), ``dtype=`` and ``out=``.

Parameters given as Python scalars, lists or NumPy arrays are checked on the host (they
are the user's own host data); parameters given as gnumpy arrays are checked on the device
with one reduction and one device-to-host sync of its boolean result.
"""
from __future__ import annotations

import operator

import numpy as np

from .. import _dtypes as D
from .._api.creation.creation import asarray
from .._api.elementwise.elementwise import apply
from .._api.reductions.reductions import any as any_
from .._array import ndarray
from .._broadcast import broadcast_shapes
from .._device import default_device
from .._graph import layout as L
from .._sizes import dimension

F64 = np.dtype(np.float64)
F32 = np.dtype(np.float32)


def shape_of(size):
    """NumPy's ``size`` argument -> a shape tuple (None stays None)."""
    if size is None:
        return None
    if not isinstance(size, (bool, np.bool_)):
        try:
            return _dims((operator.index(size),))
        except TypeError:
            pass
    if isinstance(size, str):
        raise TypeError("'str' object cannot be interpreted as an integer")
    try:
        items = list(size)
    except TypeError:
        items = None
    if items is None or isinstance(size, (bool, np.bool_)):
        raise TypeError(f"expected a sequence of integers or a single integer, got "
                        f"'{size!r}'")
    return _dims(tuple(dimension(d) for d in items))


def _dims(shape):
    if any(d < 0 for d in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape


def float_dtype(dtype, fname):
    """The dtype of a ``dtype=`` float argument (float32 or float64) or NumPy's TypeError."""
    dt = np.dtype(dtype)
    if dt not in (F32, F64):
        raise TypeError(f"Unsupported dtype {dt!r} for {fname}")
    return dt


def check_out(out, shape, dtype):
    """Validate ``out=`` like NumPy (type, shape vs size, contiguity); -> the result shape."""
    if not isinstance(out, ndarray):
        raise TypeError(f"out must be a gnumpy array, not {type(out).__name__}")
    if out.dtype != dtype:
        raise TypeError(f"Supplied output array has the wrong type. Expected {dtype}, got "
                        f"{out.dtype}")
    if shape is not None and tuple(shape) != out.shape:
        raise ValueError("size must match out.shape when used together")
    if out._base is not None and not L.is_c_contiguous(out.shape, out._leaf().strides) \
            and not _fortran(out):
        raise ValueError("Supplied output array must be contiguous, writable, aligned, and "
                         "in machine byte-order.")
    return out.shape


def _fortran(out) -> bool:
    """Is `out` a Fortran-ordered view that is not also C-contiguous?"""
    st = out._leaf().strides
    return out._base is not None and not L.is_c_contiguous(out.shape, st) and \
        L.is_c_contiguous(out.shape[::-1], st[::-1])


def finish(result, out):
    """`result` into ``out=`` (when given) in `out`'s memory order, as NumPy fills it."""
    if out is None:
        return result
    if out.ndim > 1 and _fortran(out):
        result = result.reshape(out.shape[::-1]).T
    out._assign_from(result)
    return out


def result_shape(size, shapes) -> tuple:
    """The output shape of a draw: `size`, which every parameter shape must broadcast to,
    or the parameters' broadcast shape when `size` is None."""
    shape = shape_of(size)
    if shape is None:
        return tuple(broadcast_shapes(*shapes)) if shapes else ()
    for s in shapes:
        try:
            ok = broadcast_shapes(shape, s) == shape
        except ValueError:
            ok = False
        if not ok:
            raise ValueError(f"shape mismatch: objects cannot be broadcast to a single shape.  "
                             f"Mismatch is between the size {shape} and a parameter of shape "
                             f"{s}.")
    return shape


class Params:
    """Distribution parameters broadcast against ``size``.

    ``raw[i]`` is each parameter as a NumPy array (host values) or a gnumpy array (all
    gnumpy when any is); ``ops[i]`` is what the transforms compute with: a Python scalar
    for a host scalar, else a gnumpy array.  ``shape`` is the output shape."""

    def __init__(self, size, values, dtype=F64):
        cls = ndarray
        self.dtype = dtype
        on_dev = [v for v in values if isinstance(v, cls)]
        self.device = on_dev[0].device if on_dev else default_device()
        raw = []
        for v in values:
            if isinstance(v, cls):
                raw.append(v if v.dtype == dtype else v.astype(dtype))
            else:
                raw.append(np.asarray(v, dtype=dtype))
        self.host = not on_dev
        if not self.host:
            raw = [r if isinstance(r, cls) else asarray(r, device=self.device) for r in raw]
        self.raw = raw
        self.shape = result_shape(size, [r.shape for r in raw])
        self.ops = [self._op(r) for r in raw]

    def _op(self, r):
        if isinstance(r, np.ndarray):
            if r.ndim == 0:
                v = r[()]
                return int(v) if r.dtype.kind in "iu" else (
                    bool(v) if r.dtype.kind == "b" else float(v))
            return asarray(r, device=self.device)
        return r

    def violated(self, cond) -> bool:
        """Does ``cond(*raw)`` (a boolean expression) hold anywhere?"""
        if not self.raw:
            return False
        with np.errstate(all="ignore"):     # (a range overflowing: its own check says so)
            c = cond(*self.raw)
        if isinstance(c, ndarray):
            return bool(any_(c))
        return bool(np.any(c))

    def check(self, cond, exc, message) -> None:
        if self.violated(cond):
            raise exc(message)


def isnan(x):
    if isinstance(x, (np.ndarray, np.generic)):     # (host values: NumPy's own, no kernel)
        return np.isnan(x)
    return apply("isnan", x)


def notfinite(x):
    if isinstance(x, (np.ndarray, np.generic)):
        return ~np.isfinite(x)
    return apply("logical_not", apply("isfinite", x))


def int_dtype(dtype, fname="integers"):
    """The dtype of ``integers(dtype=)`` (bool and integer types) or NumPy's TypeError."""
    dt = np.dtype(dtype)
    if dt.kind not in "biu" or dt not in D.SUPPORTED:
        raise TypeError(f"Unsupported dtype {dt!r} for {fname}")
    return dt
