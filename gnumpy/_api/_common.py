"""Shared argument handling of the API layer: turning operands into IR nodes, axes.

Everything NumPy and the Array API promise about arguments is checked here, eagerly, with
NumPy's exception types.
"""
from __future__ import annotations

import operator

import numpy as np
from numpy.exceptions import AxisError

from .. import _dtypes as D
from .._device import as_device, backend, default_device
from .._graph import ir


_ndarray = None


def _cls():
    global _ndarray
    if _ndarray is None:
        from .._array import ndarray
        _ndarray = ndarray
    return _ndarray


def is_array(x) -> bool:
    return isinstance(x, _ndarray or _cls())


def wrap(node, base=None):
    return (_ndarray or _cls())._from_node(node, base)


def evaluated(*xs):
    """Materialize `xs` now (``gnumpy.evaluate``: one schedule for all of them) and return
    them (one array, or the tuple): a step of a loop that must not grow a graph."""
    import gnumpy
    gnumpy.evaluate(*xs)
    return xs[0] if len(xs) == 1 else xs


def host_to_node(obj, dtype=None, device=None, copy=True):
    """Host data (NumPy array, scalar, nested sequence) -> LEAF node on `device`."""
    if dtype is not None:
        dtype = D.to_dtype(dtype)
    try:
        arr = np.asarray(obj, dtype=dtype)
    except (ValueError, TypeError, OverflowError):
        raise
    if arr.dtype not in D.SUPPORTED:
        if arr.dtype.kind == "b" or arr.dtype.byteorder == ">":
            arr = arr.astype(arr.dtype.newbyteorder("="))
        else:
            raise TypeError(f"gnumpy does not support dtype {arr.dtype} (from "
                            f"{type(obj).__name__})")
    dev = as_device(device)
    return backend(dev).from_numpy(arr, copy=copy or arr is obj)


def as_node(x, device=None):
    """A gnumpy array's node, or host data converted (strong dtype)."""
    if is_array(x):
        return x._node
    if hasattr(x, "__dlpack__") and not isinstance(x, np.ndarray):
        from .creation import from_dlpack
        return from_dlpack(x, device=device)._node
    return host_to_node(x, device=device)


def normalize_axis(axis, ndim: int) -> int:
    try:
        a = operator.index(axis)
    except TypeError:
        raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as an "
                        f"integer") from None
    if not -ndim <= a < ndim:
        raise AxisError(a, ndim)
    return a % ndim if ndim else a


def normalize_axes(axis, ndim: int) -> tuple:
    """axis=None | int | tuple -> sorted tuple of distinct non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        axes = tuple(normalize_axis(a, ndim) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
        return tuple(sorted(axes))
    return (normalize_axis(axis, ndim),)


def check_device_match(nodes) -> object:
    dev = None
    for n in nodes:
        if dev is None:
            dev = n.device
        elif n.device != dev:
            raise ValueError(f"arrays are on different devices ({dev} and {n.device}); "
                             f"move one with to_device()")
    return dev if dev is not None else default_device()


def scalar_node(value, dtype, shape, device):
    return ir.scalar(value, dtype, shape, device)
