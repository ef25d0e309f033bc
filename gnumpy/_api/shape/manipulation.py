"""Shape manipulation: reshape, transpose and friends as views; stack/concat as a barrier.

View-producing functions return arrays that share memory with their input (NumPy
semantics); ``reshape`` copies only when the layout cannot be expressed with strides.
"""
from __future__ import annotations

import math

from ... import _dtypes as D
from ..._broadcast import broadcast_args, broadcast_to_check, fmt
from ..._graph import ir
from ..._graph.ir import LEAF
from ..._graph import layout as L
from ..._sizes import MAX_INTP, dims
from .._common import (as_node, axis_int, axis_tuple, check_device_match, is_array,
                       multi_axis, normalize_axis, wrap)
from ._views import folds, fortran_only, layout_of
from ..elementwise.resolution import _operand
from ..outargs import check_casting


def _arr(x):
    return x if is_array(x) else wrap(as_node(x))


def _resolve_shape(shape, size):
    if type(shape) is tuple:            # the common call: a tuple of sizes that fits
        for d in shape:
            if type(d) is not int or d < 0:
                break
        else:
            if size and math.prod(shape) == size:
                return shape
    shape = dims(shape)
    neg = [i for i, d in enumerate(shape) if d < 0]
    if len(neg) > 1:
        raise ValueError("can only specify one unknown dimension")
    if neg:
        if shape[neg[0]] != -1:
            raise ValueError("negative dimensions not allowed")
        known = L.prod(d for d in shape if d >= 0)
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of size {size} into shape "
                             f"{fmt(shape)}")
        shape = shape[:neg[0]] + (size // known,) + shape[neg[0] + 1:]
    if L.prod(shape) != size or math.prod(d for d in shape if d) > MAX_INTP:
        raise ValueError(f"cannot reshape array of size {size} into shape {fmt(shape)}")
    return shape


# Note: NumPy's parameter names and kinds: the array argument of ravel, transpose,
# permute_dims, swapaxes, moveaxis, expand_dims and squeeze is NumPy's `a` (broadcast_to's
# `array`, stack's `arrays`), positional or keyword, where the Array API's is positional-only
# (a positional call satisfies both); reshape takes `order` positionally; broadcast_to and
# broadcast_arrays take `subok` and ignore it, as ``array`` and the ``*_like`` functions do
# (their results are gnumpy arrays).
def reshape(x, /, shape, order="C", *, copy=None, newshape=None):
    """Give `x` a new shape (a view when the layout allows, else a copy).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.arange(6).reshape(2, 3).shape
    (2, 3)
    """
    x = _arr(x)
    if newshape is not None:
        shape = newshape
    shape = _resolve_shape(shape, x.size)
    if order not in ("C", "F", "A", None):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if order == "A":
        order = "F" if fortran_only(x) else "C"
    if order == "F":
        return transpose(reshape(transpose(x), shape[::-1], copy=copy))
    if copy:
        x = x._copy()
    if shape == x.shape:
        return x if copy else x._view(())
    n = x._node
    root = x._base if x._base is not None else x
    if n.kind == LEAF and root._node.kind == LEAF and n.buf is root._node.buf:
        st = L.fold_reshape(n.shape, n.strides, shape)  # (memory: the view at once)
        if st is not None:
            return x._strided_view(shape, st, n.offset)
    elif x._base is None or folds(x, [("reshape", None, shape)]):   # (a lazy array of
        return x._view([("reshape", None, shape)])      # its own lands C-ordered: it folds)
    if copy is False:
        raise ValueError("Unable to avoid creating a copy while reshaping.")
    return wrap(ir.reshape(x._node, shape))


def ravel(a, order="C"):
    """The elements of `a` as a 1-D array, read in `order` ('C', 'F', 'A' or 'K'); a view
    when the layout allows, else a copy.

    'A' reads in Fortran order when `a` is Fortran- but not C-contiguous; 'K' in the order
    the elements lie in memory (axes sorted by stride, negative strides kept), as NumPy.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.ravel(gp.arange(6).reshape(2, 3), order="F")
    array([0, 3, 1, 4, 2, 5])
    """
    x = _arr(a)
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    # Note: 'K' and 'A' follow the layout gnumpy gives `a`: results of elementwise ops
    # materialize C-contiguous, where NumPy's ufuncs keep their input's layout (so the
    # 'K'/'A' order of e.g. ``x.T + 1`` differs; views of memory behave as in NumPy)
    st = layout_of(x)[0]
    if order == "A":
        order = "F" if fortran_only(x) else "C"
    if order == "K":
        perm = _keep_order(x.shape, st) if x.ndim > 1 else list(range(x.ndim))
        y = transpose(x, perm) if x.ndim > 1 else x
        pst = tuple(st[a] for a in perm)
        view = L.is_c_contiguous(y.shape, pst) and all(s >= 0 for s in pst)
        r = reshape(y, (-1,))
    else:
        view = L.is_c_contiguous(x.shape, st) if order == "C" else \
            L.is_c_contiguous(x.shape[::-1], st[::-1])
        r = reshape(x, (-1,), order=order)
    # NumPy: a view only when the elements lie contiguously in the requested order (as
    # every array of at most one element does)
    return r if view or x.size <= 1 or r._base is None else r._copy()


def _keep_order(shape, strides):
    """Axes outermost first in memory order: NumPy's iterator axis ordering (a stable
    insertion sort by absolute stride, where a zero stride compares as ambiguous)."""
    perm = list(range(len(shape) - 1, -1, -1))       # innermost first
    st = [0 if d == 1 else s for d, s in zip(shape, strides)]
    for i0 in range(1, len(perm)):
        ax0 = perm[i0]
        ipos = i0
        for i1 in range(i0 - 1, -1, -1):
            s0, s1 = st[ax0], st[perm[i1]]
            if s0 != 0 and s1 != 0:
                if abs(s1) <= abs(s0):
                    break
                ipos = i1
        if ipos != i0:
            del perm[i0]
            perm.insert(ipos, ax0)
    return perm[::-1]


def transpose(a, axes=None):
    """Permute the axes of `a` (reversed when `axes` is None); a view."""
    x = _arr(a)
    sh = x._node.shape
    nd = len(sh)
    if axes is None:
        axes = tuple(range(nd - 1, -1, -1))
    elif type(axes) is tuple and len(axes) == nd and \
            list(map(type, axes)).count(int) == nd and sorted(axes) == list(range(nd)):
        pass                    # the common case: a permutation of the axes, as ints
    else:
        axes = tuple(normalize_axis(axis_int(a, "an integer is required"), nd) for a in axes)
        if len(axes) != nd or len(set(axes)) != nd:
            raise ValueError("axes don't match array")
    if axes == tuple(range(nd)):
        return x._view(())
    return x._view([("permute", axes, tuple([sh[a] for a in axes]))])


def permute_dims(a, axes):
    """`a` with its axes permuted to `axes` (a view; the Array API's ``transpose``).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.permute_dims(gp.ones((2, 3, 4)), (2, 0, 1)).shape
    (4, 2, 3)
    """
    return transpose(a, axes)


def swapaxes(a, axis1, axis2):
    """`a` with axes `axis1` and `axis2` interchanged (a view).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.swapaxes(gp.ones((2, 3)), 0, 1).shape
    (3, 2)
    """
    x = _arr(a)
    i, j = normalize_axis(axis1, x.ndim), normalize_axis(axis2, x.ndim)
    axes = list(range(x.ndim))
    axes[i], axes[j] = axes[j], axes[i]
    return transpose(x, axes)


def matrix_transpose(x, /):
    """`x` with its last two axes swapped (a view).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.matrix_transpose(gp.ones((2, 3, 4))).shape
    (2, 4, 3)
    """
    x = _arr(x)
    if x.ndim < 2:
        raise ValueError("matrix_transpose requires an array of at least 2 dimensions")
    return swapaxes(x, -1, -2)


def moveaxis(a, source, destination):
    """`a` with axes `source` moved to positions `destination` (a view).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.moveaxis(gp.ones((2, 3, 4)), 0, -1).shape
    (3, 4, 2)
    """
    x = _arr(a)
    src = axis_tuple(source, x.ndim, "source")
    dst = axis_tuple(destination, x.ndim, "destination")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of "
                         "elements")
    order = [n for n in range(x.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(x, order)


def expand_dims(a, axis=0):
    """Insert axes of length one at `axis` (int or tuple); a view."""
    x = _arr(a)
    axes = axis if type(axis) in (tuple, list) else (axis,)     # (NumPy's reading)
    nd = x.ndim + len(axes)
    ax = axis_tuple(axes, nd)
    it = iter(x.shape)
    shape = tuple(1 if i in ax else next(it) for i in range(nd))
    return x._view([("reshape", None, shape)])


def squeeze(a, axis=None):
    """Remove axes of length one; a view."""
    x = _arr(a)
    if axis is None:
        axes = tuple(i for i, d in enumerate(x.shape) if d == 1)
    else:
        axes = multi_axis(axis, x.ndim)
        if any(x.shape[a] != 1 for a in axes):
            raise ValueError("cannot select an axis to squeeze out which has size not equal "
                             "to one")
    shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
    return x._view([("reshape", None, shape)] if shape != x.shape else [])


def broadcast_to(array, shape, subok=False):
    """Broadcast `array` to `shape`; a read-only view (as NumPy's).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.broadcast_to(gp.arange(3), (2, 3)).flags.writeable
    False
    """
    r = _broadcast_view(array, shape)
    r._ro, r._sc = True, False      # (a read-only array, of a scalar too)
    return r


def _broadcast_view(x, shape):
    x = _arr(x)
    shape = dims(shape, lone=True)
    if any(d < 0 for d in shape):
        raise ValueError("all elements of broadcast shape must be non-negative")
    if math.prod(d for d in shape if d) > MAX_INTP:
        raise ValueError("iterator is too large")
    broadcast_to_check(x.shape, shape)
    return x._view([("broadcast", None, shape)] if shape != x.shape else [])


def broadcast_arrays(*arrays, subok=False):
    """`arrays` broadcast against each other: views (writeable, as NumPy's; a write
    through a broadcast axis writes one element many times)."""
    arrays = [_arr(a) for a in arrays]
    shape = broadcast_args(*[a.shape for a in arrays])
    out = tuple(_broadcast_view(a, shape) for a in arrays)
    for r in out:
        r._sc = False       # (arrays, of NumPy's scalars too)
    return out


def concat(arrays, /, *, axis=0):
    """Join arrays along an existing axis (`axis=None` flattens them first)."""
    arrays = [_arr(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        arrays = [ravel(a) for a in arrays]
        axis = 0
    else:                       # (NumPy reads the axis first)
        axis = axis_int(axis, "an integer is required for the axis")
    nd = arrays[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    for a in arrays:
        if a.ndim != nd:
            raise ValueError("all the input array dimensions except for the concatenation "
                             "axis must match exactly, but along dimension 0, the array at "
                             f"index 0 has {nd} dimension(s) and another has {a.ndim}")
    ax = normalize_axis(axis, nd)
    for a in arrays[1:]:
        for d in range(nd):
            if d != ax and a.shape[d] != arrays[0].shape[d]:
                raise ValueError("all the input array dimensions except for the concatenation "
                                 f"axis must match exactly, but along dimension {d}, the array "
                                 f"at index 0 has size {arrays[0].shape[d]} and another has "
                                 f"size {a.shape[d]}")
    dt = _common_dtype(arrays)
    check_device_match([a._node for a in arrays])
    shape = list(arrays[0].shape)
    shape[ax] = sum(a.shape[ax] for a in arrays)
    srcs = [ir.cast(a._node, dt) for a in arrays]
    return wrap(ir.barrier("concat", srcs, ax, dt, tuple(shape)))


def _sequence(x) -> bool:
    """Does `x` hold the pieces of a join as NumPy takes them (a list, a tuple or an array,
    not an iterator)?"""
    return isinstance(x, (list, tuple)) or is_array(x) or hasattr(x, "__array__") and \
        hasattr(x, "__len__")


def _check_casting(arrays, target, casting) -> None:
    """NumPy's TypeError when a piece does not cast to `target` (the result's dtype when
    None: a promotion is a safe cast, so only 'no' and 'equiv' are checked then) under
    `casting`."""
    if target is None:
        if casting not in ("no", "equiv"):
            return
        target = _common_dtype(arrays)
    for a in arrays:
        if not D.can_cast(a.dtype, target, casting):
            raise TypeError(f"Cannot cast array data from {a.dtype!r} to {target!r} "
                            f"according to the rule {casting!r}")


def _common_dtype(arrays):
    """NumPy's result dtype of joining `arrays`: their dtype when they share one (a list of
    a loop's elements: no promotion over each), else ``result_type``'s."""
    dt = arrays[0]._node.dtype
    for a in arrays:
        if a._node.dtype is not dt:
            return D.result_type(*arrays)
    return dt


def concatenate(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """Join arrays along an existing axis (NumPy's keywords: out, dtype, casting).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.concatenate([gp.zeros(2), gp.ones(1)])
    array([0., 0., 1.])
    """
    check_casting(casting)
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but both "
                        "were provided.")
    if not _sequence(arrays):
        raise TypeError("The first input argument needs to be a sequence")
    arrays = [_arr(a) for a in arrays]
    target = D.to_dtype(dtype) if dtype is not None else (out.dtype if out is not None
                                                          else None)
    _check_casting(arrays, target, casting)
    if dtype is not None:
        arrays = [a.astype(target, copy=False) for a in arrays]
    r = concat(arrays, axis=axis)
    if out is not None:
        if out.shape != r.shape:
            raise ValueError(f"Output array has wrong shape: {out.shape} != {r.shape}")
        out._assign_from(r)
        return out
    return r


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """Join arrays along a new axis."""
    check_casting(casting)
    if not _sequence(arrays):
        raise TypeError('arrays to stack must be passed as a "sequence" type such as list '
                        'or tuple.')
    arrays = [_arr(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to stack")
    shapes = {a.shape for a in arrays}
    if len(shapes) != 1:
        raise ValueError("all input arrays must have the same shape")
    ax = normalize_axis(axis, arrays[0].ndim + 1)
    if out is None and dtype is None:
        # each piece's node itself, not a view of it: a reduction's result is not copied
        # before the stack; an element's copy is read from its memory (the stack is a
        # pending reader of it, as the copy is)
        _check_casting(arrays, None, casting)
        sh = arrays[0].shape
        dt = _common_dtype(arrays)
        check_device_match([a._node for a in arrays])
        return wrap(ir.barrier("stack", [ir.cast(_operand(a._node), dt) for a in arrays],
                               ax, dt, sh[:ax] + (len(arrays),) + sh[ax:]))
    return concatenate([expand_dims(a, ax) for a in arrays], axis=ax, out=out, dtype=dtype,
                       casting=casting)
