"""Index keys: NumPy's basic indices (ints, slices, Ellipsis, None) parsed against a shape
into view ops, and the test for an advanced component (arrays, lists, booleans)."""
from __future__ import annotations

import operator

import numpy as np

from ..._graph.layout import normalize_slice
from ..._array import ndarray

_VALID = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer "
          "or boolean arrays are valid indices")
_INT_OR_BOOL = "arrays used as indices must be of integer (or boolean) type"


# ====================================================================== basic indexing

_ADVANCED = (ndarray, np.ndarray, list, tuple, bool, np.bool_)


def _is_advanced(k) -> bool:
    return isinstance(k, _ADVANCED)


def index_int(k) -> int:
    """Integer index `k` (an int, NumPy's integer scalar, a 0-d integer array) as a Python
    int, with NumPy's errors: IndexError for a non-integer, OverflowError for a NumPy
    integer past int64 (a uint64 index NumPy cannot take as intp)."""
    try:
        i = operator.index(k)
    except TypeError:
        raise IndexError(_VALID) from None
    if i >= 1 << 63 and type(k) is not int:
        raise OverflowError("Python int too large to convert to C long")
    return i


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
            i = index_int(k)
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for axis {dim} with size {size}")
            starts_steps.append((i % size, 1))
            sliced.append(1)
        dim += 1
    return starts_steps, tuple(sliced), tuple(final)


def simple_view_ops(shape, key):
    """``view_ops(shape, key)`` for a key of Python ints and slices only, at most one per
    axis (a lazy array's ``a[1:-1]``, ``a[i, :k]``), in one pass; None for any other
    key, or one that raises (``view_ops`` then gives the answer or NumPy's error)."""
    ks = key if type(key) is tuple else (key,)
    nd = len(shape)
    if len(ks) > nd:
        return None
    ss, sliced, final = [], [], []
    plain = True
    for k, n in zip(ks, shape):
        tk = type(k)
        if tk is slice:
            try:
                a, b, c = k.indices(n)
            except (TypeError, ValueError):
                return None
            m = (b - a + c - 1) // c if c > 0 else (a - b - c - 1) // -c
            if m <= 0:
                m = a = 0           # (an empty axis starts at 0: nothing is read there)
            if a or c != 1 or m != n:
                plain = False
            ss.append((a, c))
            sliced.append(m)
            final.append(m)
        elif tk is int:
            if k < 0:
                k += n
            if k < 0 or k >= n:
                return None
            ss.append((k, 1))
            sliced.append(1)
            if k or n != 1:
                plain = False
        else:
            return None
    rest = shape[len(ks):]
    sliced = tuple(sliced) + rest
    final = tuple(final) + rest
    ops = []
    if not plain:
        ops.append(("slice", tuple(ss) + ((0, 1),) * len(rest), sliced))
    if final != sliced:
        ops.append(("reshape", None, final))
    return ops


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
        for k in key:
            if isinstance(k, _ADVANCED):
                return True
        return False
    return isinstance(key, _ADVANCED)
