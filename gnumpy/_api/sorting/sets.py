"""Set functions: unique (and the Array API's unique_all, unique_counts, unique_inverse,
unique_values), isin, intersect1d, union1d, setdiff1d, setxor1d.

``unique`` and its Array API family are one library call (``libcall``): ``np.unique``
on the CPU backend (``backends/sort_numpy``); on CUDA a radix sort and CUB's unique-by-key
(``backends/cuda_cub``), or for complex values and ``axis`` NumPy's sort-based algorithm on
gnumpy ops (sort, mark the first element of each run, compact by the mark).  One
device-to-host sync for the size.  The other set functions follow NumPy's algorithms on
``unique`` and the sort barriers; membership (isin) is a binary search in the sorted test
values, with no sync.
"""
from __future__ import annotations

import operator
from typing import NamedTuple

from numpy.exceptions import AxisError

from ... import _dtypes as D
from ...backends import sort_numpy, sort_ops
from .. import libcall
from .._common import as_node, check_device_match, is_array, normalize_axis, wrap
from ..creation.creation import arange, full, ones, zeros
from ..elementwise.elementwise import apply, astype
from ..shape.manipulation import concat, ravel, reshape, moveaxis
from .sorting import Compactor, compress, scatter, search, sort_last, take1d, lexsort, take_last
from ..reductions.reductions import any as any_


class UniqueAllResult(NamedTuple):
    values: object
    indices: object
    inverse_indices: object
    counts: object


class UniqueCountsResult(NamedTuple):
    values: object
    counts: object


class UniqueInverseResult(NamedTuple):
    values: object
    inverse_indices: object


def _arr(x):
    return x if is_array(x) else wrap(as_node(x))


def _first_of_runs(aux, equal_nan):
    """Mask of the first element of every run of equal values in sorted 1-D `aux` (with
    equal_nan, all NaNs form one run, as NumPy's unique)."""
    head = ones((1,), dtype=D.bool_, device=aux.device)
    mask = concat([head, apply("not_equal", aux[1:], aux[:-1])])
    if equal_nan and aux.dtype.kind in "fc":
        nan = apply("isnan", aux)
        first_nan = apply("logical_and", nan, concat([head, apply("logical_not", nan[:-1])]))
        mask = apply("logical_or", apply("logical_and", mask, apply("logical_not", nan)),
                     first_nan)
    return mask


def _unique1d_ops(ar, return_index, return_inverse, return_counts, equal_nan):
    """NumPy's sort-based unique of flattened `ar` from gnumpy ops: (values, index,
    inverse (1-D), counts), None where not asked for."""
    ar = ravel(ar)
    n = ar.shape[0]
    if n == 0:
        empty = zeros((0,), dtype=D.int64, device=ar.device)
        return (ar._copy(), empty if return_index else None,
                empty if return_inverse else None, empty if return_counts else None)
    perm = None
    if return_index or return_inverse:
        perm = sort_last(ar, op="argsort")
        aux = take1d(ar, perm)
    else:
        aux = sort_last(ar)
    c = Compactor(_first_of_runs(aux, equal_nan))     # the one sync: the number of values
    index = c(perm) if return_index else None
    inverse = scatter(apply("subtract", c.pos, 1), perm, n) if return_inverse else None
    counts = None
    if return_counts:
        starts = c(arange(n, device=ar.device))
        ends = concat([starts[1:], full((1,), n, dtype=D.int64, device=ar.device)])
        counts = apply("subtract", ends, starts)
    return c(aux), index, inverse, counts


def unique_by_ops(x, axis, return_index, return_inverse, return_counts, equal_nan):
    """``unique`` from gnumpy ops, (values, index, inverse, counts) with None where not
    asked for: what the CUDA backend runs for complex values (radix sort has no complex
    keys) and for ``axis`` (``backends/cuda_cub.unique``; CUB takes the rest)."""
    if axis is None:
        return _unique1d_ops(x, return_index, return_inverse, return_counts, equal_nan)
    return _unique_axis(x, axis, return_index, return_inverse, return_counts)


def _unique1d(ar, return_index=False, return_inverse=False, return_counts=False, *,
              equal_nan=True, inverse_shape=None, axis=None):
    """``np.unique`` through the library call: NumPy's own on the CPU backend, CUB on CUDA
    (``backends/sort_numpy``), else gnumpy ops; the requested results in NumPy's order."""
    flags = (bool(return_index), bool(return_inverse), bool(return_counts))
    r = libcall.call("unique", [ar], cpu=sort_numpy.np_unique, cuda=sort_ops.cuda_unique,
                     return_index=flags[0], return_inverse=flags[1], return_counts=flags[2],
                     equal_nan=bool(equal_nan), axis=axis)
    if r is NotImplemented:
        r = unique_by_ops(ar, axis, *flags, bool(equal_nan))
    vals, index, inverse, counts = r
    ret = (vals,)
    if return_index:
        ret += (index,)
    if return_inverse:
        ret += (inverse if inverse_shape is None else reshape(inverse, inverse_shape),)
    if return_counts:
        ret += (counts,)
    return ret


def _unpack(ret):
    return ret[0] if len(ret) == 1 else ret


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None,
           *, equal_nan=True, sorted=True):
    """The sorted unique elements of `ar`, and optionally the indices of their first
    occurrences, the inverse indices (shaped like `ar`) and the counts.

    # Note: the result is always sorted (``sorted=False`` allows any order).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.unique(gp.asarray([3, 1, 3, 2]))
    array([1, 2, 3])
    """
    x = _arr(ar)
    if axis is not None:
        if isinstance(axis, (tuple, list)):
            _sequence_axis(axis, x.ndim)
        ax = normalize_axis(axis, x.ndim)
        if x.ndim != 1:
            return _unpack(_unique1d(x, return_index, return_inverse, return_counts,
                                     equal_nan=equal_nan, axis=ax))
    return _unpack(_unique1d(x, return_index, return_inverse, return_counts,
                             equal_nan=equal_nan, inverse_shape=x.shape))


def _sequence_axis(axis, ndim) -> None:
    """NumPy's errors for a sequence as unique's axis (its ``moveaxis(ar, axis, 0)``
    refuses them all): AxisError out of range, ValueError else."""
    axes = [operator.index(a) for a in axis]
    if any(not -ndim <= a < ndim for a in axes):
        raise AxisError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    if len({a % ndim for a in axes}) != len(axes):
        raise ValueError("repeated axis in `source` argument")
    if len(axes) == 1:      # (moved, then used as an index of the shape list)
        raise TypeError(f"list indices must be integers or slices, not "
                        f"{type(axis).__name__}")
    raise ValueError("`source` and `destination` arguments must have the same number of "
                     "elements")


def _unique_axis(x, axis, return_index, return_inverse, return_counts):
    """unique sub-arrays along `axis` from gnumpy ops: NumPy compares them as records,
    field by field (lexicographically, NaN last), and never merges NaNs.  (values, index,
    inverse, counts), None where not asked for."""
    xm = moveaxis(x, axis, 0)
    n0, rest = xm.shape[0], xm.shape[1:]
    k = 1
    for d in rest:
        k *= d
    x2 = reshape(xm, (n0, k))
    dev = x.device
    if n0 == 0 or k == 0:
        m = min(n0, 1)
        vals = moveaxis(reshape(xm[:m], (m,) + rest), 0, axis)
        return (vals, zeros((m,), dtype=D.int64, device=dev) if return_index else None,
                zeros((n0,), dtype=D.int64, device=dev) if return_inverse else None,
                full((m,), n0, dtype=D.int64, device=dev) if return_counts else None)
    cols = [x2[:, j] for j in range(k - 1, -1, -1)]       # the first column is primary
    perm = lexsort(cols)
    aux = take_last(x2.T, reshape(perm, (1, n0))).T
    head = ones((1,), dtype=D.bool_, device=dev)
    mask = concat([head, any_(apply("not_equal", aux[1:], aux[:-1]), axis=1)])
    c = Compactor(mask)
    rows = c(arange(n0, device=dev))
    vals = take_last(x2.T, reshape(c(perm), (1, c.count))).T
    vals = moveaxis(reshape(vals, (c.count,) + rest), 0, axis)
    index = c(perm) if return_index else None
    inverse = scatter(apply("subtract", c.pos, 1), perm, n0) if return_inverse else None
    counts = None
    if return_counts:
        ends = concat([rows[1:], full((1,), n0, dtype=D.int64, device=dev)])
        counts = apply("subtract", ends, rows)
    return vals, index, inverse, counts


def unique_all(x, /):
    """Array API: unique values, first indices, inverse indices and counts (NaNs distinct).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.unique_all(gp.asarray([2, 1, 2])).counts
    array([1, 2])
    """
    x = _arr(x)
    return UniqueAllResult(*_unique1d(x, True, True, True, equal_nan=False,
                                      inverse_shape=x.shape))


def unique_counts(x, /):
    """Array API: unique values and their counts (NaNs distinct).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.unique_counts(gp.asarray([2, 1, 2])).values
    array([1, 2])
    """
    x = _arr(x)
    return UniqueCountsResult(*_unique1d(x, False, False, True, equal_nan=False))


def unique_inverse(x, /):
    """Array API: unique values and the inverse indices (shaped like `x`; NaNs distinct).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.unique_inverse(gp.asarray([2, 1, 2])).inverse_indices
    array([1, 0, 1])
    """
    x = _arr(x)
    return UniqueInverseResult(*_unique1d(x, False, True, False, equal_nan=False,
                                          inverse_shape=x.shape))


def unique_values(x, /):
    """Array API: the unique values of `x` (NaNs distinct).

    # Note: sorted (NumPy returns them in hash order; the standard leaves it unspecified).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.unique_values(gp.asarray([2, 1, 2]))
    array([1, 2])
    """
    return _unique1d(_arr(x), equal_nan=False)[0]


def _member(e, t):
    """Whether each element of `e` is in 1-D `t` (no sync): binary search in sorted t."""
    dt = D.promote(e.dtype, t.dtype)
    ev = astype(ravel(e), dt, copy=False)
    m = t.shape[0]
    if m == 0:
        return zeros(e.shape, dtype=D.bool_, device=e.device)
    st = sort_last(astype(t, dt, copy=False))
    pos = search(st, ev)
    hit = apply("equal", take1d(st, apply("minimum", pos, m - 1)), ev)
    return reshape(apply("logical_and", apply("less", pos, m), hit), e.shape)


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """Whether each element of `element` is in `test_elements` (shape of `element`).

    # Note: kind='table' is accepted for integer inputs and runs the sort-based search.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.isin(gp.asarray([1, 2, 3]), [2, 5])
    array([False,  True, False])
    """
    e, t = _arr(element), _arr(test_elements)
    check_device_match([e._node, t._node])
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    if kind == "table" and not (e.dtype.kind in "uib" and t.dtype.kind in "uib"):
        raise ValueError("The 'table' method is only supported for boolean or integer arrays. "
                         "Please select 'sort' or None for kind.")
    r = _member(e, ravel(t))
    return apply("logical_not", r) if invert else r


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """Sorted unique values present in both arrays (and optionally their first indices).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.intersect1d(gp.asarray([1, 3, 4, 3]), gp.asarray([3, 1, 2, 1]))
    array([1, 3])
    """
    ar1, ar2 = _arr(ar1), _arr(ar2)
    if not assume_unique:
        if return_indices:
            ar1, ind1 = unique(ar1, return_index=True)
            ar2, ind2 = unique(ar2, return_index=True)
        else:
            ar1, ar2 = unique(ar1), unique(ar2)
    else:
        ar1, ar2 = ravel(ar1), ravel(ar2)
    aux = concat([ar1, ar2])
    if aux.shape[0] == 0:
        empty = zeros((0,), dtype=D.int64, device=aux.device)
        return (aux, empty, empty) if return_indices else aux
    if return_indices:
        order = sort_last(aux, op="argsort")
        aux = take1d(aux, order)
    else:
        aux = sort_last(aux)
    c = Compactor(apply("equal", aux[1:], aux[:-1]))
    int1d = c(aux[:-1])
    if not return_indices:
        return int1d
    i1 = c(order[:-1])
    i2 = apply("subtract", c(order[1:]), ar1.shape[0])
    if not assume_unique:
        i1, i2 = take1d(ind1, i1), take1d(ind2, i2)
    return int1d, i1, i2


def union1d(ar1, ar2):
    """Sorted unique values in either array.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.union1d(gp.asarray([-1, 0, 1]), gp.asarray([-2, 0, 2]))
    array([-2, -1,  0,  1,  2])
    """
    return unique(concat([_arr(ar1), _arr(ar2)], axis=None))


def setdiff1d(ar1, ar2, assume_unique=False):
    """Unique values of `ar1` not in `ar2` (sorted unless `assume_unique`).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.setdiff1d(gp.asarray([1, 2, 3, 2, 4, 1]), gp.asarray([3, 4, 5, 6]))
    array([1, 2])
    """
    ar1, ar2 = _arr(ar1), _arr(ar2)
    if assume_unique:
        ar1 = ravel(ar1)
    else:
        ar1, ar2 = unique(ar1), unique(ar2)
    return compress(ar1, apply("logical_not", _member(ar1, ravel(ar2))))


def setxor1d(ar1, ar2, assume_unique=False):
    """Sorted unique values in exactly one of the arrays.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.setxor1d(gp.asarray([1, 2, 3, 2, 4]), gp.asarray([2, 3, 5, 7, 5]))
    array([1, 4, 5, 7])
    """
    ar1, ar2 = _arr(ar1), _arr(ar2)
    if not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    aux = concat([ar1, ar2], axis=None)
    if aux.shape[0] == 0:
        return aux
    aux = sort_last(aux)
    t = ones((1,), dtype=D.bool_, device=aux.device)
    flag = concat([t, apply("not_equal", aux[1:], aux[:-1]), t])
    return compress(aux, apply("logical_and", flag[1:], flag[:-1]))
