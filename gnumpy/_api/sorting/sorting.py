"""Sorting and searching: sort, argsort, sort_complex, lexsort, partition, argpartition,
searchsorted, and the primitives the set and statistics functions build on (sorting along
an axis, gathers along rows, compaction by a boolean mask).

Sorts are barrier ops (``backends/sort_ops.py``): the axis is moved last with a view, the
backend sorts contiguous rows (NumPy's ``np.sort`` on the CPU backend; CUB's radix sort or
gnumpy's tile and merge kernels on CUDA), and the result is moved back with a view (the
public functions copy that view into a new C-contiguous array, as NumPy returns).  Every
sort is stable; NaN sorts last as in NumPy (first when descending).
"""
from __future__ import annotations

import math
import operator

import numpy as np
from numpy.exceptions import AxisError

from ... import _dtypes as D
from ..._graph import ir
from ..._graph import layout as L
from .._common import (as_node, axis_index, axis_int, check_device_match, is_array,
                       normalize_axis, wrap)
from ..creation.creation import zeros
from ..elementwise.elementwise import apply, astype
from ..shape.manipulation import moveaxis, ravel, reshape, broadcast_to
from ..reductions.reductions import max as max_, min as min_
from ..reductions.scans import cumsum
from ..shape._views import layout_of
from ..indexing.index_bounds import known as known_bounds


def _arr(x):
    return x if is_array(x) else wrap(as_node(x))


def _check_kind(kind, stable):
    if kind is not None and stable is not None:
        raise ValueError("`kind` and keyword parameters can't be provided at the same time. "
                         "Use only one of them.")
    if kind is None:
        return
    if not isinstance(kind, str):
        raise TypeError(f"sort kind must be str, not {type(kind).__name__}")
    if not kind or kind[0].lower() not in "qhms":
        raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' (got {kind!r})")


def _check_order(order):
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")


# ------------------------------------------------------------------ primitives

def sort_last(x, descending=False, op="sort"):
    """Stable sort (op='sort') or argsort (op='argsort') of `x` along its last axis."""
    dt = x.dtype if op == "sort" else D.int64
    return wrap(ir.barrier(op, (_radix_keys(x, op)._node,), bool(descending), dt, x.shape))


def _radix_keys(x, op):
    """The sort's input.  CUB's radix sort (long rows on CUDA) orders float bits: NaNs get
    one bit pattern (NumPy puts every NaN last, in their original order), and argsort keys
    +0.0 for -0.0 (equal values keep their order).  A fused elementwise pass, free when `x`
    is a pending expression; other sorts take `x` as it is.

    # Note: NaN payloads and signs are not kept in sorted values on that path."""
    if x.dtype.kind != "f" or x.device.kind != "cuda" or x.ndim == 0:
        return x
    # loaded on first use: CUDA float sorts only (the CUDA sort modules: ~20 ms, 10 modules)
    from ...backends.cuda_cub import canonical
    from ...backends.sort_ops import use_cub_sort
    n = x.shape[-1]
    if not use_cub_sort(x.dtype, x.size // n if n else 0, n):
        return x
    return wrap(canonical(x._node, zeros=op == "argsort"))


def sort_axis(x, axis, descending=False, op="sort"):
    """Stable sort / argsort of `x` along the normalized `axis`."""
    last = x.ndim - 1
    if axis == last:
        return sort_last(x, descending, op)
    return moveaxis(sort_last(moveaxis(x, axis, -1), descending, op), -1, axis)


def c_order(r):
    """`r` itself when it is (or will be) a C-contiguous array of its own, else a lazy
    C-contiguous copy: NumPy's sorts return a new array, whose layout is C for C-ordered
    input (a sort along another axis is otherwise a view of the sorted rows).

    # Note: NumPy's sort and partition keep the layout of non-C-ordered input (a copy in
    # order 'K'); gnumpy's results are C-contiguous, as its other new arrays are."""
    st, off = layout_of(r)
    return r if off == 0 and st == L.c_strides(r.shape) else r._copy()


def gather_rows(x, idx):
    """out[r, j] = x[r, idx[r, j]] for 2-D `x` (R1, n) and int64 `idx` (R2, m), R1 and R2
    each 1 or R (broadcast)."""
    R = max(x.shape[0], idx.shape[0])
    return wrap(ir.barrier("sort_gather", (x._node, ir.cast(idx._node, D.int64)), None,
                           x.dtype, (R, idx.shape[1])))


def take_last(x, idx):
    """take_along_axis(x, idx, -1) for same-rank `x`, `idx` whose leading dimensions are
    equal or 1 (in-range non-negative indices)."""
    lead = tuple(max(a, b) for a, b in zip(x.shape[:-1], idx.shape[:-1]))
    if x.shape[:-1] != lead and x.shape[:-1] != (1,) * len(lead):
        x = broadcast_to(x, lead + x.shape[-1:])
    if idx.shape[:-1] != lead and idx.shape[:-1] != (1,) * len(lead):
        idx = broadcast_to(idx, lead + idx.shape[-1:])
    x2 = reshape(x, (-1, x.shape[-1]))
    i2 = reshape(idx, (-1, idx.shape[-1]))
    if x.shape[-1] == 0 or i2.shape[0] * i2.shape[1] == 0:
        return zeros(lead + idx.shape[-1:], dtype=x.dtype, device=x.device)
    return reshape(gather_rows(x2, i2), lead + idx.shape[-1:])


def take_along(x, idx, axis):
    """take_along_axis(x, idx, axis) for in-range non-negative indices."""
    last = x.ndim - 1
    if axis == last:
        return take_last(x, idx)
    return moveaxis(take_last(moveaxis(x, axis, -1), moveaxis(idx, axis, -1)), -1, axis)


def take1d(x, idx):
    """x[idx] for 1-D `x` and an int index array of any shape (in range, non-negative)."""
    flat = reshape(idx, (1, -1))
    if x.shape[0] == 0 or flat.shape[1] == 0:
        return zeros(idx.shape, dtype=x.dtype, device=x.device)
    return reshape(gather_rows(reshape(x, (1, -1)), flat), idx.shape)


class Compactor:
    """Compaction of 1-D arrays by one boolean mask: ``c(x)`` is ``x[mask]``.

    The positions (an inclusive cumsum of the mask) and the count are computed once; the
    count costs one device-to-host sync."""

    def __init__(self, mask) -> None:
        self.mask = mask
        n = mask.shape[0]
        if n == 0:
            self.pos, self.count = None, 0
            return
        self.pos = cumsum(astype(mask, D.int64, copy=False))
        self.count = int(self.pos[n - 1])

    def __call__(self, x):
        if self.count == 0:
            return zeros((0,), dtype=x.dtype, device=x.device)
        idx = apply("subtract", self.pos, 1)
        return wrap(ir.barrier("sort_scatter", (x._node, idx._node, self.mask._node),
                               (self.count,), x.dtype, (self.count,)))


def compress(x, mask):
    """x[mask] for 1-D `x` and boolean `mask` (one device-to-host sync)."""
    return Compactor(mask)(x)


def scatter(x, idx, n):
    """out[idx[t]] = x[t] (1-D; `idx` a permutation of range(n))."""
    if n == 0:
        return zeros((0,), dtype=x.dtype, device=x.device)
    return wrap(ir.barrier("sort_scatter", (x._node, ir.cast(idx._node, D.int64)), (n,),
                           x.dtype, (n,)))


def search(a, v, side="left", sorter=None):
    """searchsorted of gnumpy arrays `a` (1-D) and `v` of the same dtype."""
    srcs = (a._node, v._node) + (() if sorter is None else (sorter._node,))
    return wrap(ir.barrier("searchsorted", srcs, side, D.int64, v.shape))


# ------------------------------------------------------------------ public functions

def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """A sorted copy of `a` along `axis` (flattened when None).

    # Note: every sort is stable (NaN last); ``descending`` (the Array API's keyword) is
    # also accepted, keeping equal elements in their original order.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.sort(gp.asarray([3, 1, 2]))
    array([1, 2, 3])
    """
    x = _arr(a)
    _check_kind(kind, stable)
    _check_order(order)
    if axis is None:
        x, axis = ravel(x), -1
    # (NumPy's sort reads `axis` as its normalize_axis_index does: a float is "integer
    # argument expected", a bool an integer)
    return c_order(sort_axis(x, axis_index(axis, x.ndim), descending, "sort"))


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """Indices that sort `a` along `axis` (int64; stable, so equal elements keep their order).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.argsort(gp.asarray([3, 1, 2]))
    array([1, 2, 0])
    """
    x = _arr(a)
    _check_kind(kind, stable)
    _check_order(order)
    if axis is not None:        # (NumPy's PyArray_AxisConverter: a bool is refused)
        axis = axis_int(axis, "an integer is required for the axis")
    if axis is None or x.ndim == 0:     # (a 0-d array sorts as 1-d)
        x = ravel(x)
        axis = -1 if axis is None else axis
    ax = normalize_axis(axis, x.ndim)
    r = c_order(sort_axis(x, ax, descending, "argsort"))
    if x.shape[ax] and r._base is None:
        known_bounds(r._node, 0, x.shape[ax] - 1)     # (indexing with it: no bounds check)
    return r


def sort_complex(a):
    """Sort along the last axis as complex numbers (real part first, then imaginary).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.sort_complex(gp.asarray([3, 1, 2]))
    array([1.+0.j, 2.+0.j, 3.+0.j])
    """
    b = sort(a)
    if b.dtype.kind == "c":
        return b
    small = b.dtype in (D.int8, D.int16, D.uint8, D.uint16)
    return astype(b, D.complex64 if small else D.complex128)


def lexsort(keys, axis=-1):
    """Indirect stable sort by several keys; the last key is the primary one.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.lexsort((gp.asarray([1, 0, 1]), gp.asarray([2, 2, 1])))
    array([2, 1, 0])
    """
    if is_array(keys) or isinstance(keys, np.ndarray):
        k = _arr(keys)
        ks = [k[i] for i in range(k.shape[0])] if k.ndim else []
    elif isinstance(keys, (tuple, list)):
        ks = [_arr(k) for k in keys]
    else:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    if not ks:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    check_device_match([k._node for k in ks])
    shape = ks[0].shape
    if any(k.shape != shape for k in ks):
        raise ValueError("all keys need to be the same shape")
    if len(shape) == 0:
        if type(axis) is int and axis in (0, -1):
            return wrap(ir.scalar(0, D.int64, (), ks[0].device))
        raise AxisError(operator.index(axis), 0)
    ax = normalize_axis(axis, len(shape))
    if 0 in shape:                      # (nothing to order)
        return zeros(shape, dtype=D.int64, device=ks[0].device)
    # least significant key first, then stable sorts by the more significant ones
    idx = sort_axis(ks[0], ax, False, "argsort")
    for k in ks[1:]:
        order = sort_axis(take_along(k, idx, ax), ax, False, "argsort")
        idx = take_along(idx, order, ax)
    return c_order(idx)


def _check_kth(kth, n, empty=False):
    k = np.asarray(kth.get() if is_array(kth) else kth)
    if k.dtype == np.bool_:
        raise ValueError("Booleans unacceptable as partition index")
    if k.dtype.kind not in "iu":
        raise TypeError("Partition index must be integer")
    if k.ndim > 1:
        raise ValueError("object too deep for desired array")
    if empty:           # (NumPy does not bound kth for an array of no elements)
        return
    for v in k.ravel().tolist():
        vv = v + n if v < 0 else v
        if not 0 <= vv < n:
            raise ValueError(f"kth(={vv}) out of bounds ({n})")


def _partition_args(x, kth, axis, kind, order):
    if kind != "introselect":
        raise ValueError(f"select kind must be 'introselect' (got {kind!r})")
    _check_order(order)
    if axis is None:
        x, axis = ravel(x), -1
    ax = axis_index(axis, x.ndim)   # (NumPy's partition reads `axis` as its sort does)
    _check_kth(kth, x.shape[ax], x.size == 0)
    return x, ax


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """A copy of `a` with the element at each `kth` in its sorted place, smaller ones before
    it and larger ones after.

    # Note: implemented as a full (stable) sort, which is one valid partition.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.partition(gp.asarray([3, 4, 1, 2]), 1)[1]
    array(2)
    """
    x, ax = _partition_args(_arr(a), kth, axis, kind, order)
    return c_order(sort_axis(x, ax, False, "sort"))


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """Indices that partition `a` around `kth` along `axis` (a full stable argsort).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.argpartition(gp.asarray([3, 4, 1, 2]), 1)[1]
    array(3)
    """
    x = _arr(a)
    if x.ndim == 0:
        x = ravel(x)
    if axis is not None:    # (NumPy's C method: a bool is no axis; partition's takes it)
        axis = axis_int(axis, "an integer is required for the axis")
    x, ax = _partition_args(x, kth, axis, kind, order)
    return c_order(sort_axis(x, ax, False, "argsort"))


def _host_dtype(v):
    """The dtype NumPy's searchsorted gives a host value (Python scalars as default dtypes)."""
    if isinstance(v, (bool, np.bool_)):
        return D.bool_
    if isinstance(v, int):
        return D.int64
    if isinstance(v, float):
        return D.float64
    if isinstance(v, complex):
        return D.complex128
    return D.to_dtype(np.asarray(v).dtype)


def searchsorted(a, v, side="left", sorter=None):
    """Indices where the elements of `v` would be inserted into sorted 1-D `a`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.searchsorted(gp.asarray([1, 2, 3]), gp.asarray([2, 5]), side="right")
    array([2, 3])
    """
    a = _arr(a)
    if isinstance(side, bytes):
        side = side.decode("latin-1")       # (NumPy takes bytes too)
    if not isinstance(side, str):
        raise TypeError(f"search side must be str, not {type(side).__name__}")
    if side not in ("left", "right"):
        raise ValueError(f"search side must be 'left' or 'right' (got {side!r})")
    if a.ndim == 0:
        raise ValueError("object of too small depth for desired array")
    if a.ndim > 1:
        raise ValueError("object too deep for desired array")
    if is_array(v):
        vdt = v.dtype
    else:
        if type(v) is int and not -2**63 <= v < 2**63:      # past int64, as NumPy reads it
            if a.dtype.kind in "fc":
                v = float(v) if abs(v) < 2**1023 else math.inf if v > 0 else -math.inf
            elif not (a.dtype == D.uint64 and 0 <= v < 2**64):
                # every element of an integer array is below it (or above it)
                return wrap(ir.scalar(a.shape[0] if v > 0 else 0, D.int64, (), a.device))
        vdt = D.uint64 if type(v) is int and v >= 2**63 else _host_dtype(v)
        v = wrap(as_node(np.asarray(v, dtype=vdt), device=a.device))
    check_device_match([a._node, v._node])
    dt = D.promote(a.dtype, vdt)
    s = None
    if sorter is not None:
        s = _arr(sorter)
        if s.dtype.kind not in "iu":
            raise TypeError("sorter must only contain integers")
        if s.ndim != 1:
            raise TypeError("could not parse sorter argument")
        if s.dtype == D.uint64:
            raise ValueError("could not parse sorter argument")
        if s.size != a.size:
            raise ValueError("sorter.size must equal a.size")
        s = astype(s, D.int64, copy=False)
        if s.size:
            # Note: NumPy raises only when the search meets a bad index; gnumpy checks all
            # (one device-to-host sync)
            if int(min_(s)) < 0 or int(max_(s)) >= a.size:
                raise ValueError("Sorter index out of range.")
    return search(astype(a, dt, copy=False), astype(v, dt, copy=False), side, s)
