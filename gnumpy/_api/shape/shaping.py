"""Rearranging elements: rollaxis, flip, roll, rot90, tile, repeat, resize, and the memory
layout requests (ascontiguousarray, asfortranarray, require).

Everything here is a view or an index map made of views (``_views.cyclic``, broadcast +
reshape), so the results fuse into their consumers; only ``repeat`` with per-element counts
gathers (``take``) or joins (``concat``) pieces.
"""
from __future__ import annotations

import operator

import numpy as np
from numpy.exceptions import AxisError

from ... import _broadcast
from ..._graph import ir
from ..._graph import layout as L
from ..._sizes import MAX_INTP, check_nbytes, dims
from .._common import axis_int, axis_tuple, host_to_node, is_array, normalize_axis, wrap
from ..indexing.advanced import take
from ._views import arr, cyclic, fresh, int_tuple, is_f_contiguous, layout_of, repeat_each
from .manipulation import concat, ravel, reshape, transpose


def rollaxis(a, axis, start=0):
    """Roll `axis` backwards until it lies before position `start` (a view).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.rollaxis(gp.ones((3, 4, 5)), 2).shape
    (5, 3, 4)
    """
    a = arr(a)
    n = a.ndim
    axis = normalize_axis(axis, n)
    start = operator.index(start)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but {start} was "
                        "passed in")
    if axis < start:
        start -= 1
    if axis == start:
        return a._view(())
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return transpose(a, axes)


def flip(m, axis=None):
    """Reverse the order of elements along `axis` (None: all axes); a view with negative
    strides.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.flip(gp.arange(4))
    array([3, 2, 1, 0])
    """
    m = arr(m)
    if axis is None and m.ndim == 1:
        return m[_REVERSED]             # (a loop's flip of a vector: one slice)
    axes = tuple(range(m.ndim)) if axis is None else axis_tuple(axis, m.ndim)
    return m[tuple(_REVERSED if d in axes else slice(None) for d in range(m.ndim))]


_REVERSED = slice(None, None, -1)


def fliplr(m):
    """Reverse the order of columns (axis 1); a view.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fliplr(gp.eye(2))
    array([[0., 1.],
           [1., 0.]])
    """
    m = arr(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return m[:, ::-1]


def flipud(m):
    """Reverse the order of rows (axis 0); a view.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.flipud(gp.arange(3))
    array([2, 1, 0])
    """
    m = arr(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return m[::-1]


def _host(v):
    return v.get() if is_array(v) else v


def roll(a, shift, axis=None):
    """Roll elements along `axis` (None: the flattened array), wrapping around; a new array
    computed as an index map (no copy until it is consumed).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.roll(gp.arange(5), 2)
    array([3, 4, 0, 1, 2])
    """
    a = arr(a)
    if type(shift) is int and a.ndim == 1 and (axis is None or type(axis) is int and
                                                -1 <= axis <= 0):
        n = a.shape[0]          # the common case: a vector by one int (a periodic stencil)
        return fresh(cyclic(a._node, 0, -shift, n) if n and shift % n else a._node, a)
    if axis is None:
        return reshape(roll(ravel(a), shift, 0), a.shape)
    axes = axis_tuple(axis, a.ndim, allow_duplicate=True)
    b = np.broadcast(np.asarray(_host(shift)), np.asarray(axes))
    if b.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    shifts = dict.fromkeys(range(a.ndim), 0)
    for sh, ax in b:
        shifts[int(ax)] += int(sh)
    node = a._node
    for ax, sh in shifts.items():
        n = a.shape[ax]
        if n and sh % n:
            node = cyclic(node, ax, -sh, n)
    return fresh(node, a)


def rot90(m, k=1, axes=(0, 1)):
    """Rotate by 90 degrees `k` times in the plane of `axes` (a view).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.rot90(gp.asarray([[1, 2], [3, 4]]))
    array([[2, 4],
           [1, 3]])
    """
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    m = arr(m)
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if not (-m.ndim <= axes[0] < m.ndim and -m.ndim <= axes[1] < m.ndim):
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    k %= 4
    if k == 0:
        return m[:]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    axes_list = list(range(m.ndim))
    a0, a1 = axes[0] % m.ndim, axes[1] % m.ndim
    axes_list[a0], axes_list[a1] = axes_list[a1], axes_list[a0]
    if k == 1:
        return transpose(flip(m, axes[1]), axes_list)
    return flip(transpose(m, axes_list), axes[1])


def tile(A, reps):
    """Repeat the whole of `A` `reps` times along each axis (a broadcast + reshape index
    map, copied when consumed).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.tile(gp.asarray([1, 2]), (2, 2))
    array([[1, 2, 1, 2],
           [1, 2, 1, 2]])
    """
    tup = int_tuple(reps)
    a = arr(A)
    nd = max(len(tup), a.ndim)
    shape = (1,) * (nd - a.ndim) + a.shape
    tup = (1,) * (nd - len(tup)) + tup
    if any(r < 0 for r in tup):
        raise ValueError("negative dimensions are not allowed")
    n = a.size
    if n:       # NumPy repeats one axis at a time: its errors come from those steps
        for dim_in, nrep in zip(shape, tup):
            if nrep != 1:
                check_nbytes((n * nrep,), a.dtype, a.device)
                n *= nrep
    node = ir.reshape(a._node, shape)
    if any(r != 1 for r in tup):
        inter = tuple(v for d in shape for v in (1, d))
        node = ir.reshape(node, inter)
        node = ir.broadcast(node, tuple(v for d, r in zip(shape, tup) for v in (r, d)))
        node = ir.reshape(node, tuple(d * r for d, r in zip(shape, tup)))
    return fresh(node, a)


def repeat(a, repeats, axis=None):
    """Repeat each element of `a` along `axis` (None: of the flattened array).

    A scalar count is a broadcast + reshape index map; per-element counts are host
    metadata: the result gathers with ``take`` when the runs of equal counts are many, else
    joins them with ``concat``.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.repeat(gp.asarray([1, 2]), [1, 3])
    array([1, 2, 2, 2])
    """
    a = arr(a)
    if axis is None:
        a = ravel(a)
        axis = 0
    else:
        axis = axis_int(axis, "an integer is required for the axis")
        if a.ndim == 0:         # (NumPy's PyArray_CheckAxis reads a 0-d array as 1-d)
            a = reshape(a, (1,))
        axis = normalize_axis(axis, a.ndim)
    if type(repeats) is int and repeats >= 0:       # the common case: one count
        return fresh(repeat_each(a._node, axis, repeats), a)
    reps = np.asarray(_host(repeats))
    if reps.ndim > 1:
        raise ValueError("setting an array element with a sequence. The requested array "
                         "would exceed the maximum number of dimension of 1.")
    reps = reps.astype(np.int64)
    n = a.shape[axis]
    if reps.ndim == 1 and reps.size == 1:
        reps = reps.reshape(())
    if reps.ndim == 0:
        r = int(reps)
        if r < 0 and n:         # (NumPy repeats an empty axis any number of times)
            raise ValueError("negative dimensions are not allowed")
        r = max(r, 0)
        return fresh(repeat_each(a._node, axis, r), a)
    if reps.size != n:
        raise ValueError(f"operands could not be broadcast together with shape ({n},) "
                         f"({reps.size},)")
    if (reps < 0).any():
        raise ValueError("repeats may not contain negative values.")
    return _repeat_counts(a, axis, reps)


def _repeat_counts(a, axis, reps):
    # runs of equal counts: each run is one broadcast + reshape piece
    cuts = [0] + [i for i in range(1, len(reps)) if reps[i] != reps[i - 1]] + [len(reps)]
    runs = [(s, e, int(reps[s])) for s, e in zip(cuts[:-1], cuts[1:]) if e > s and reps[s] > 0]
    total = int(reps.sum())
    if len(runs) > 8:
        # the gather indices are host metadata derived from the user's counts
        idx = np.repeat(np.arange(len(reps), dtype=np.int64), reps)
        return take(a, _index_array(idx, a.device), axis=axis)
    if not runs:
        shp = list(a.shape)
        shp[axis] = 0
        return wrap(ir.scalar(0, a.dtype, tuple(shp), a.device))
    pieces = []
    for s, e, r in runs:
        part = a[(slice(None),) * axis + (slice(s, e),)]
        pieces.append(wrap(repeat_each(part._node, axis, r)))
    if len(pieces) == 1:
        return fresh(pieces[0]._node, a)
    out = concat(pieces, axis=axis)
    assert out.shape[axis] == total
    return out


def _index_array(idx, device):
    return wrap(host_to_node(idx, device=device))


def resize(a, new_shape):
    """A new array of `new_shape` filled with the elements of `a` repeated cyclically (an
    index map over `a`).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.resize(gp.asarray([1, 2, 3]), (2, 2))
    array([[1, 2],
           [3, 1]])
    """
    shape = dims(new_shape, lone=True)
    a = ravel(arr(a))
    if any(d < 0 for d in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    size = L.prod(shape)
    if size > MAX_INTP and a.size:      # NumPy: (a,) * repeats past intp
        raise OverflowError("cannot fit 'int' into an index-sized integer")
    if a.size == 0 or size == 0:
        return wrap(ir.scalar(0, a.dtype, shape, a.device))
    return fresh(ir.reshape(cyclic(a._node, 0, 0, size), shape), a)


# ---------------------------------------------------------------- memory layout requests

def ascontiguousarray(a, dtype=None, *, like=None):
    """`a` as a C-contiguous array of at least one dimension (`a` itself when it already
    is one).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.ascontiguousarray(gp.ones((2, 3)).T).shape
    (3, 2)
    """
    x = arr(a) if dtype is None else arr(a).astype(dtype, copy=False)
    if x.ndim == 0:
        return reshape(x, (1,))
    st, _ = layout_of(x)
    return x if L.is_c_contiguous(x.shape, st) else x._copy()


def asfortranarray(a, dtype=None, *, like=None):
    """`a` as a Fortran-contiguous array of at least one dimension (`a` itself when it
    already is one; else the transposed view of a C-contiguous copy of ``a.T``, whose
    strides are Fortran strides).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.asfortranarray(gp.ones((2, 3))).strides
    (8, 16)
    """
    x = arr(a) if dtype is None else arr(a).astype(dtype, copy=False)
    if x.ndim == 0:
        return reshape(x, (1,))
    st, _ = layout_of(x)
    if is_f_contiguous(x.shape, st):
        return x
    # Note: gnumpy materializes C-contiguous buffers only; the Fortran-ordered result is
    # the transposed view of a C-contiguous copy of ``a.T``
    return transpose(transpose(x)._copy())


_REQ = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F",
        "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O",
        "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """`a` as an array of `dtype` meeting `requirements` ('C', 'F', 'A', 'W', 'O', 'E' and
    their long names); copies only when needed.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.require(gp.ones((2, 3)).T, requirements="C").shape
    (3, 2)
    """
    x = arr(a) if dtype is None else arr(a).astype(dtype, copy=False)
    if not requirements:
        return x
    reqs = {_REQ[r.upper()] for r in requirements}     # a string is a sequence of flags
    if "C" in reqs and "F" in reqs:
        raise ValueError('Cannot specify both "C" and "F" order')
    if "O" in reqs and x._base is not None:
        x = x._copy()
    st, _ = layout_of(x)
    if "C" in reqs and not L.is_c_contiguous(x.shape, st):
        return x._copy()
    if "F" in reqs and not is_f_contiguous(x.shape, st):
        return transpose(transpose(x)._copy())
    # Note: gnumpy arrays are always aligned and writeable ('A', 'W'), and always gnumpy
    # arrays ('E')
    return x


def broadcast_shapes(*args):
    """The shape that arrays of the given shapes (tuples or ints) broadcast to.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.broadcast_shapes((3, 1), (4,))
    (3, 4)
    """
    shapes = [dims(s) for s in args]
    for s in shapes:
        if any(d < 0 for d in s):
            raise ValueError("negative dimensions are not allowed")
    if not shapes:
        return ()
    return _broadcast.broadcast_args(*shapes)

