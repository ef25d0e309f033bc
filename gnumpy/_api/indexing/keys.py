"""Index keys: NumPy's basic indices (ints, slices, Ellipsis, None) parsed against a shape
into view ops, and the test for an advanced component (arrays, lists, booleans)."""
from __future__ import annotations

import operator

import numpy as np

from ..._graph.layout import normalize_slice
from .._common import is_array

_VALID = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer "
          "or boolean arrays are valid indices")
_INT_OR_BOOL = "arrays used as indices must be of integer (or boolean) type"


# ====================================================================== basic indexing

def _is_advanced(k) -> bool:
    if is_array(k) or isinstance(k, (np.ndarray, list, tuple)):
        return True
    return isinstance(k, (bool, np.bool_))


def parse_basic(shape, key):
    """-> (starts_steps, sliced_shape, final_shape) for a basic index `key`."""
    if not isinstance(key, tuple):
        key = (key,)
    n_ell = sum(1 for k in key if k is Ellipsis)
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
    ndim = len(shape)
    if n_real > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, but "
                         f"{n_real} were indexed")
    expanded = []
    for k in key:
        if k is Ellipsis:
            expanded.extend([slice(None)] * (ndim - n_real))
        else:
            expanded.append(k)
    if n_ell == 0:
        expanded.extend([slice(None)] * (ndim - n_real))
    starts_steps, sliced, final = [], [], []
    dim = 0
    for k in expanded:
        if k is None:
            final.append(1)
            continue
        size = shape[dim]
        if isinstance(k, slice):
            start, step, n = normalize_slice(k, size)
            starts_steps.append((start, step))
            sliced.append(n)
            final.append(n)
        else:
            try:
                i = operator.index(k)
            except TypeError:
                raise IndexError(_VALID) from None
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for axis {dim} with size {size}")
            starts_steps.append((i % size, 1))
            sliced.append(1)
        dim += 1
    return starts_steps, tuple(sliced), tuple(final)


def view_ops(shape, key):
    """The view ops [(vkind, arg, shape)] of basic index `key` on an array of `shape`."""
    starts_steps, sliced, final = parse_basic(shape, key)
    ops = []
    if sliced != tuple(shape) or any(st != (0, 1) for st in starts_steps):
        ops.append(("slice", tuple(starts_steps), sliced))
    if final != sliced:
        ops.append(("reshape", None, final))
    return ops


def _has_advanced(key) -> bool:
    if isinstance(key, tuple):
        return any(_is_advanced(k) for k in key)
    return _is_advanced(key)
