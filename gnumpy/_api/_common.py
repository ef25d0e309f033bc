"""Shared argument handling of the API layer: turning operands into IR nodes, axes.

Everything NumPy and the Array API promise about arguments is checked here, eagerly, with
NumPy's exception types.
"""
from __future__ import annotations

import operator
import warnings

import numpy as np
from numpy.exceptions import AxisError
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from .. import _dtypes as D
from .._device import as_device, backend, default_device
from .._array import ndarray
from .._graph import ir, realize
from .creation.interop import from_dlpack


def is_array(x) -> bool:
    return isinstance(x, ndarray)


wrap = ndarray._from_node       # a new array over `node` (and `base`, for a view)


def scalar_result(r):
    """`r`, a new result of a function (never one of its arguments), as NumPy returns it:
    a scalar (``ndarray._sc``) where it is 0-d."""
    if not r._node.shape:
        r._sc = True
    return r


def fetch_scalars(nodes) -> np.ndarray:
    """The values of 0-d `nodes` (one dtype and device) with one device-to-host transfer:
    an elementwise gather of them into one vector, fetched as a NumPy array."""
    k = len(nodes)
    dev = nodes[0].device
    pos = ir.axis_iota((k,), 0, dev)
    acc = None
    for i, n in enumerate(nodes):
        r = ir.broadcast(n, (k,))
        acc = r if acc is None else \
            ir.where(ir.ew("equal", D.bool_, (pos, ir.scalar(i, D.int64, (k,), dev))), r, acc)
    return wrap(acc).get()


def evaluate(*arrays) -> None:
    """Materialize `arrays` now, fusing their pending work into as few kernels as possible
    (``gnumpy.evaluate``; a step of a loop that must not grow a graph).

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.arange(5.0); y = x * 2; z = y.sum()
    >>> gp.evaluate(y, z)
    """
    realize.settle()            # the last statement's deferred write, if any
    if len(arrays) == 1 and type(arrays[0]) is ndarray and arrays[0]._base is None:
        n = arrays[0]._node
        if n.kind != ir.LEAF:
            realize.materialize_one(n)
        return
    nodes, views = [], []
    for a in arrays:
        if not isinstance(a, ndarray):
            raise TypeError(f"evaluate() takes gnumpy arrays, not {type(a).__name__}")
        if a._base is not None and a._node.kind == ir.VIEW:
            nodes.append(a._base._node)
            views.append(a)
        else:
            nodes.append(a._node)
    realize.materialize(nodes)
    for v in views:
        v._leaf()


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
        return from_dlpack(x, device=device)._node
    return host_to_node(x, device=device)


def axis_int(axis, bool_msg) -> int:
    """One integer `axis` as NumPy's C functions read it (PyArray_PyIntAsInt_ErrMsg): a
    bool is a TypeError with `bool_msg`, the message NumPy's function gives; anything
    else goes through operator.index (its TypeError is NumPy's: "'float' object cannot be
    interpreted as an integer") into a C long, then a C int."""
    if isinstance(axis, (bool, np.bool_)):
        raise TypeError(bool_msg)
    a = operator.index(axis)
    if not -_INT_MAX - 1 <= a <= _INT_MAX:
        if not -_LONG_MAX - 1 <= a <= _LONG_MAX:
            raise OverflowError("Python int too large to convert to C long")
        raise ValueError("integer won't fit into a C int")
    return a


_INT_MAX, _LONG_MAX = 2**31 - 1, 2**63 - 1


def normalize_axis(axis, ndim: int) -> int:
    """One integer `axis` (operator.index; a bool is an integer) in range(-ndim, ndim),
    made non-negative (AxisError out of range), as NumPy's ufuncs and C functions read it."""
    a = operator.index(axis)
    if not -ndim <= a < ndim:
        raise AxisError(a, ndim)
    return a % ndim if ndim else a


# NumPy's own argument checks, for the functions NumPy routes through them (its sorts,
# its mean/var/std item count; normalize_axis_tuple: the Python functions, median, flip,
# moveaxis, expand_dims, average): its exact exception types and messages
# ("integer argument expected, got float", "repeated axis", ...).  Host ints only.
axis_index = normalize_axis_index
axis_tuple = normalize_axis_tuple


def int_axes(axis: tuple, ndim: int):
    """Tuple `axis` of Python ints in range, each once (the common case), as a sorted
    tuple of non-negative axes, in one pass; None for any other tuple."""
    out = []
    for a in axis:
        if type(a) is not int or not -ndim <= a < ndim:
            return None
        out.append(a % ndim)
    if len(set(out)) != len(out):
        return None
    out.sort()
    return tuple(out)


def normalize_axes(axis, ndim: int) -> tuple:
    """axis=None | int | tuple -> sorted tuple of distinct non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    if type(axis) is tuple:
        axes = int_axes(axis, ndim)
        if axes is not None:
            return axes
    if isinstance(axis, (tuple, list)):
        axes = tuple(normalize_axis(a, ndim) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
        return tuple(sorted(axes))
    return (normalize_axis(axis, ndim),)


def multi_axis(axis, ndim: int) -> tuple:
    """`axis` as NumPy's PyArray_ConvertMultiAxis reads it (``squeeze``): None (every
    axis), an integer (0 and -1 name no axis of a 0-d array) or a tuple of integers, each
    converted, range-checked and checked for a repeat in turn; a bool or a list is a
    TypeError."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, tuple):
        out = []
        for a in axis:
            a = normalize_axis(axis_int(a, "integers are required for the axis tuple "
                                           "elements"), ndim)
            if a in out:
                raise ValueError("duplicate value in 'axis'")
            out.append(a)
        return tuple(out)
    a = axis_int(axis, "an integer is required for the axis")
    if ndim == 0 and a in (0, -1):
        return ()
    return (normalize_axis(a, ndim),)


def check_device_match(nodes) -> object:
    dev = None
    for n in nodes:
        if dev is None:
            dev = n.device
        elif n.device != dev:
            raise ValueError(f"arrays are on different devices ({dev} and {n.device}); "
                             f"move one with to_device()")
    return dev if dev is not None else default_device()


def store_scalar(value, dtype):
    """`value` (a Python or NumPy scalar) converted as NumPy converts a scalar stored into
    an element of `dtype` (``a[i] = value``, ``a.fill(value)``): NumPy's value and NumPy's
    errors (NaN or inf into an integer, out-of-bounds integers)."""
    tmp = np.empty((), dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tmp[()] = value
    return tmp[()]


def value_node(value, dtype, device):
    """Host `value` (Python or NumPy scalar, sequence, NumPy array or foreign array) as a
    node of `dtype`, converted as NumPy converts a value assigned into an array of `dtype`:
    scalars and sequences element by element with NumPy's errors, arrays unsafely."""
    k = D.weak_kind(value)
    if k is not None:
        if k == "i":
            if dtype.kind in "iu":
                D.check_weak_int(value, dtype)
        elif (k == "f" and dtype.kind in "iu") or (k == "c" and dtype.kind != "c"):
            value = store_scalar(value, dtype)
        return ir.scalar(value, dtype, (), device)
    if isinstance(value, np.generic):
        return ir.scalar(store_scalar(value, dtype), dtype, (), device)
    if value is None or isinstance(value, (str, bytes)):
        # NumPy's conversion of one object: "1.5" -> 1.5, None -> nan in a float array,
        # its ValueError or TypeError otherwise
        return ir.scalar(np.array(value, dtype=dtype)[()], dtype, (), device)
    if isinstance(value, (list, tuple)) and not any(is_array(v) for v in value):
        return host_to_node(value, dtype=dtype, device=device)
    return ir.cast(as_node(value, device=device), dtype)
