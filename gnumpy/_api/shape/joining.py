"""Joining and splitting: atleast_1d/2d/3d, vstack/hstack/dstack/column_stack/row_stack,
block, append, split/array_split/hsplit/vsplit/dsplit and unstack.

Joins are one ``concat`` barrier over views of their inputs; splits and ``atleast_*`` return
views sharing memory with their input, as NumPy's do.
"""
from __future__ import annotations

import operator
import warnings

import numpy as np

from .._common import is_array, normalize_axis
from ._views import arr as _arr
from .manipulation import concatenate, ravel, reshape


# ------------------------------------------------------------------ at least n dimensions

def _atleast(arys, shape_of):
    res = []
    for a in arys:
        x = _arr(a)
        shp = shape_of(x.shape)
        res.append(x if shp == x.shape else x._view([("reshape", None, shp)]))
    return res[0] if len(res) == 1 else tuple(res)


def atleast_1d(*arys):
    """Arrays with at least one dimension (views; a 0-d array becomes shape (1,)).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.atleast_1d(1.0).shape
    (1,)
    """
    return _atleast(arys, lambda s: s if len(s) >= 1 else (1,))


def atleast_2d(*arys):
    """Arrays with at least two dimensions (views; (N,) becomes (1, N)).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.atleast_2d(gp.arange(3)).shape
    (1, 3)
    """
    return _atleast(arys, lambda s: s if len(s) >= 2 else (1,) * (2 - len(s)) + s)


def atleast_3d(*arys):
    """Arrays with at least three dimensions (views; (N,) becomes (1, N, 1) and (M, N)
    becomes (M, N, 1)).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.atleast_3d(gp.ones((2, 3))).shape
    (2, 3, 1)
    """
    def shp(s):
        if len(s) == 0:
            return (1, 1, 1)
        if len(s) == 1:
            return (1,) + s + (1,)
        if len(s) == 2:
            return s + (1,)
        return s
    return _atleast(arys, shp)


def _seq(tup):
    if is_array(tup) or isinstance(tup, np.ndarray):
        return list(tup)
    if not isinstance(tup, (list, tuple)):
        raise TypeError('arrays to stack must be passed as a "sequence" type such as list '
                        'or tuple.')
    return list(tup)


def _tuple(r):
    return r if isinstance(r, tuple) else (r,)


# ------------------------------------------------------------------ stacks

def vstack(tup, *, dtype=None, casting="same_kind"):
    """Stack arrays vertically (row-wise): concatenate along axis 0 after atleast_2d.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.vstack([gp.arange(2), gp.arange(2)])
    array([[0, 1],
           [0, 1]])
    """
    arrs = _tuple(atleast_2d(*_seq(tup)))
    return concatenate(arrs, 0, dtype=dtype, casting=casting)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    """Deprecated alias of :func:`vstack` (as in NumPy 2).

    Examples
    --------
    >>> import gnumpy as gp
    >>> import warnings; warnings.simplefilter("ignore")
    >>> gp.row_stack([gp.arange(2), gp.arange(2)]).shape
    (2, 2)
    """
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.",
                  DeprecationWarning, stacklevel=2)
    return vstack(tup, dtype=dtype, casting=casting)


def hstack(tup, *, dtype=None, casting="same_kind"):
    """Stack arrays horizontally (column-wise): along axis 1, or axis 0 for 1-D arrays.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.hstack([gp.arange(2), gp.arange(3)])
    array([0, 1, 0, 1, 2])
    """
    arrs = _tuple(atleast_1d(*_seq(tup)))
    axis = 0 if arrs and arrs[0].ndim == 1 else 1
    return concatenate(arrs, axis, dtype=dtype, casting=casting)


def dstack(tup):
    """Stack arrays depth-wise (along axis 2, after atleast_3d).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.dstack([gp.arange(2), gp.arange(2)]).shape
    (1, 2, 2)
    """
    return concatenate(_tuple(atleast_3d(*_seq(tup))), 2)


def column_stack(tup):
    """Stack 1-D arrays as columns of a 2-D array (2-D arrays are stacked as they are).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.column_stack([gp.arange(2), gp.arange(2)])
    array([[0, 0],
           [1, 1]])
    """
    arrays = []
    for v in _seq(tup):
        a = _arr(v)
        if a.ndim < 2:
            a = reshape(a, (-1, 1)) if a.ndim == 1 else reshape(a, (1, 1))
        arrays.append(a)
    return concatenate(arrays, 1)


def append(arr, values, axis=None):
    """`values` appended to the end of `arr` (flattened when `axis` is None); a new array.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.append(gp.asarray([1, 2]), [[3], [4]])
    array([1, 2, 3, 4])
    """
    a = _arr(arr)
    if axis is None:
        if a.ndim != 1:
            a = ravel(a)
        values = ravel(_arr(values))
        axis = a.ndim - 1
    else:
        values = _arr(values)
    if a.ndim != values.ndim:
        raise ValueError("all the input arrays must have same number of dimensions, but the "
                         f"array at index 0 has {a.ndim} dimension(s) and the array at "
                         f"index 1 has {values.ndim} dimension(s)")
    return concatenate((a, values), axis=axis)


# ------------------------------------------------------------------ block

def _fmt_index(index):
    return "arrays" + "".join(f"[{i}]" for i in index)


def _check_depths(arrays, parent=()):
    """-> (index of the first bottom element, max array ndim)  (NumPy's checks)."""
    if isinstance(arrays, tuple):
        raise TypeError(f"{_fmt_index(parent)} is a tuple. Only lists can be used to arrange "
                        "blocks, and np.block does not allow implicit conversion from tuple "
                        "to ndarray.")
    if isinstance(arrays, list):
        if not arrays:
            return parent + (None,), 0
        first, max_nd = None, 0
        for i, a in enumerate(arrays):
            index, nd = _check_depths(a, parent + (i,))
            max_nd = max(max_nd, nd)
            if first is None:
                first = index
            elif len(index) != len(first):
                raise ValueError("List depths are mismatched. First element was at depth "
                                 f"{len(first)}, but there is an element at depth "
                                 f"{len(index)} ({_fmt_index(index)})")
            if index[-1] is None:
                first = index
        return first, max_nd
    return parent, (arrays.ndim if is_array(arrays) else np.ndim(arrays))


def _block(arrays, depth, list_ndim, result_ndim):
    if depth < list_ndim:
        arrs = [_block(a, depth + 1, list_ndim, result_ndim) for a in arrays]
        return concatenate(arrs, axis=-(list_ndim - depth))
    a = _arr(arrays)
    return a if a.ndim >= result_ndim else reshape(a, (1,) * (result_ndim - a.ndim) + a.shape)


def block(arrays):
    """Assemble an array from nested lists of blocks (the innermost lists join along the
    last axis, the outer ones along earlier axes).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.block([[gp.eye(2), gp.zeros((2, 1))]]).shape
    (2, 3)
    """
    bottom, arr_ndim = _check_depths(arrays)
    if bottom and bottom[-1] is None:
        raise ValueError(f"List at {_fmt_index(bottom[:-1])} cannot be empty")
    list_ndim = len(bottom)
    result_ndim = max(arr_ndim, list_ndim)
    r = _block(arrays, 0, list_ndim, result_ndim)
    return r._copy() if list_ndim == 0 else r


# ------------------------------------------------------------------ split

def array_split(ary, indices_or_sections, axis=0):
    """Split `ary` into sub-arrays along `axis` (views); `indices_or_sections` is a number
    of (possibly unequal) sections or a list of split points.

    Examples
    --------
    >>> import gnumpy as gp
    >>> [p.shape for p in gp.array_split(gp.arange(5), 2)]
    [(3,), (2,)]
    """
    a = _arr(ary)
    axis = _split_axis(axis, a.ndim)
    n = a.shape[axis]
    ios = indices_or_sections.get() if is_array(indices_or_sections) else indices_or_sections
    try:
        points = list(ios)
    except TypeError:
        sections = int(ios)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.") from None
        each, extras = divmod(n, sections)
        sizes = [0] + extras * [each + 1] + (sections - extras) * [each]
        bounds = np.cumsum(sizes).tolist()
    else:
        bounds = [0] + points + [n]
    pre = (slice(None),) * axis
    return [a[pre + (slice(bounds[i], bounds[i + 1]),)] for i in range(len(bounds) - 1)]


def _split_axis(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise IndexError("tuple index out of range")    # NumPy's error: ary.shape[axis]
    return axis % ndim


def split(ary, indices_or_sections, axis=0):
    """Split `ary` into equal sections (or at the given indices) along `axis`; views.

    Examples
    --------
    >>> import gnumpy as gp
    >>> [p.tolist() for p in gp.split(gp.arange(4), 2)]
    [[0, 1], [2, 3]]
    """
    ios = indices_or_sections
    try:
        len(ios)
    except TypeError:
        a = _arr(ary)
        n = a.shape[_split_axis(axis, a.ndim)]
        if n % int(ios):
            raise ValueError("array split does not result in an equal division") from None
    return array_split(ary, ios, axis)


def hsplit(ary, indices_or_sections):
    """Split horizontally (along axis 1, or axis 0 for 1-D arrays); views.

    Examples
    --------
    >>> import gnumpy as gp
    >>> len(gp.hsplit(gp.ones((2, 4)), 2))
    2
    """
    a = _arr(ary)
    if a.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(a, indices_or_sections, 1 if a.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    """Split vertically (along axis 0) an array of at least 2 dimensions; views.

    Examples
    --------
    >>> import gnumpy as gp
    >>> len(gp.vsplit(gp.ones((4, 2)), 2))
    2
    """
    a = _arr(ary)
    if a.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(a, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    """Split depth-wise (along axis 2) an array of at least 3 dimensions; views.

    Examples
    --------
    >>> import gnumpy as gp
    >>> len(gp.dsplit(gp.ones((1, 1, 4)), 2))
    2
    """
    a = _arr(ary)
    if a.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(a, indices_or_sections, 2)


def unstack(x, /, *, axis=0):
    """The slices of `x` along `axis`, as a tuple of views.

    Examples
    --------
    >>> import gnumpy as gp
    >>> [u.tolist() for u in gp.unstack(gp.asarray([[1, 2], [3, 4]]), axis=1)]
    [[1, 3], [2, 4]]
    """
    x = _arr(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    axis = normalize_axis(axis, x.ndim)
    pre = (slice(None),) * axis
    return tuple(x[pre + (i,)] for i in range(x.shape[axis]))

