"""NumPy's errors for arrays that cannot exist: a dimension or a byte size past intp
(``ValueError``) and more bytes than the device has (``MemoryError``), raised at the call
that asks for the array, before anything is allocated."""
from __future__ import annotations

import math
import operator
import os

import numpy as np

from ._device import backend

MAX_INTP = 2**63 - 1
TOO_BIG = ("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
           "possible size.")
_CAPACITY: dict = {}


def capacity(device) -> int:
    """Bytes of memory `device` has (host RAM for the CPU backend, the GPU's global memory
    for CUDA); 0 when unknown (then only NumPy's intp limit applies)."""
    c = _CAPACITY.get(device)
    if c is None:
        c = 0
        try:
            if device.kind == "cpu":
                c = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
            else:
                be = backend(device)
                err, _free, total = be._driver.cuMemGetInfo()
                if int(err) == 0:
                    c = int(total)
        except Exception:
            c = 0
        _CAPACITY[device] = c
    return c


def dimension(d) -> int:
    """`d` as an array dimension: an integer (``__index__``), not a bool, Python's or
    NumPy's (NumPy's TypeError: a bool is no dimension there)."""
    if type(d) is bool or type(d) is np.bool_:
        raise TypeError("an integer is required")
    return operator.index(d)


def dims(shape, lone=False) -> tuple:
    """A shape argument as a tuple of Python ints: a sequence of dimensions (a tuple, a
    list, an array; each read by ``dimension``) or a single one.  A bool alone is NumPy's
    TypeError, in the words of NumPy's shape parser, or of its dimension parser where
    `lone` (``broadcast_to`` and ``resize`` read a lone value as a dimension); a tuple of
    Python ints is taken as it is (a loop's ``np.empty((n, m))``: no call per dimension)."""
    if type(shape) is tuple and list(map(type, shape)).count(int) == len(shape):
        return shape
    if type(shape) is int:
        return (shape,)
    if not lone and (type(shape) is bool or type(shape) is np.bool_):
        raise TypeError(f"expected a sequence of integers or a single integer, got "
                        f"'{shape!r}'")
    if not isinstance(shape, (tuple, list)):
        try:
            shape = list(shape)
        except TypeError:
            return (dimension(shape),)
    return tuple(dimension(d) for d in shape)


def check_shape(shape) -> None:
    """NumPy's ValueErrors for a shape no array can have: a dimension past intp, or
    ``size * itemsize`` past intp even for itemsize 1 (checked with the dtype by
    ``check_nbytes``)."""
    for d in shape:
        if d > MAX_INTP:
            raise ValueError("Maximum allowed dimension exceeded")
        if d < 0:
            raise ValueError("negative dimensions are not allowed")


def check_nbytes(shape, dtype, device) -> None:
    """NumPy's errors for a new array of `shape` and `dtype` that cannot be allocated, at
    the call that asks for it: ValueError when ``size * itemsize`` (zero dimensions left
    out, as NumPy counts) passes intp, MemoryError when it passes the device's memory."""
    check_shape(shape)
    nb = dtype.itemsize * math.prod(d for d in shape if d)
    if nb > MAX_INTP:
        raise ValueError(TOO_BIG)
    if 0 in shape:
        return
    cap = capacity(device)
    if cap and nb > cap:
        raise MemoryError(f"Unable to allocate {_fmt_bytes(nb)} for an array with shape "
                          f"{tuple(shape)} and data type {dtype} (the {device} has "
                          f"{_fmt_bytes(cap)})")


def _fmt_bytes(n) -> str:
    """Bytes as NumPy's MemoryError writes them (``8.00 TiB``)."""
    units = ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")
    i = 0
    v = float(n)
    while v >= 1024 and i < len(units) - 1:
        v /= 1024
        i += 1
    return f"{int(v)} bytes" if i == 0 else f"{v:.3g} {units[i]}" if v >= 100 else \
        f"{v:.2f} {units[i]}" if v < 10 else f"{v:.1f} {units[i]}"
