"""View-building helpers shared by the manipulation modules (shaping, joining, padding,
diagonals, editing): operands as arrays, views that must fold into strides, cyclic index
maps made of views, and fresh (non-aliasing) results.

A cyclic map (``cyclic``) is a reshape of a broadcast followed by a slice: element ``i``
along an axis reads ``x[(start + i) % n]``.  It is an index map, never a copy, so ``roll``,
``tile``, ``resize`` and ``pad(mode='wrap')`` fuse into whatever consumes them.
"""
from __future__ import annotations

import operator

from ..._graph import ir
from ..._graph import layout as L
from ..._graph.ir import LEAF
from .._common import as_node, is_array, wrap


def arr(x):
    """`x` as a gnumpy array (host data is uploaded)."""
    return x if is_array(x) else wrap(as_node(x))


def int_tuple(v) -> tuple:
    """An int or a sequence of ints as a tuple of Python ints (``tile``'s `reps`, which
    NumPy reads as integers: a bool there is 0 or 1; a shape is ``_sizes.dims``)."""
    if not isinstance(v, (tuple, list)):
        try:
            v = list(v)
        except TypeError:
            return (operator.index(v),)
    return tuple(operator.index(d) for d in v)


def _own_layout(node):
    # a LEAF has its strides; anything else materializes into a new C-contiguous buffer
    if node.kind == LEAF:
        return node.strides, node.offset
    return L.c_strides(node.shape), 0


def true_layout(x):
    """(strides, offset) x has or will have once materialized.  A view's layout is its
    place in its root's memory (the ``at`` record of its view ops; its own node may be a
    constant that forgot it, or a lazy view chain); anything else materializes
    C-contiguous unless it is a LEAF.  None when strides cannot express it."""
    if x._base is None:
        return _own_layout(x._node)
    v = x._vops
    if len(v) == 1 and v[0][0] == "at":
        return v[0][1][:2]
    if x._node.kind == LEAF:
        return x._node.strides, x._node.offset
    b = x._base
    return _fold_ops(b.shape, _own_layout(b._node), v)


def _fold_ops(shape, layout, ops):
    st, off = layout
    for vkind, arg, shp in ops:
        if vkind == "at":
            st, off = arg[:2]
            shape = shp
            continue
        if vkind == "part":
            return None
        r = L.fold(shape, st, off, vkind, arg, shp)
        if r is None:
            return None
        st, off = r
        shape = shp
    return st, off


def folds(x, ops) -> bool:
    """Do the view ops [(vkind, arg, shape)] fold into the layout x has (or will have)?"""
    vl = true_layout(x)
    return vl is not None and _fold_ops(x.shape, vl, ops) is not None


def apply_ops(node, ops):
    for vkind, arg, shp in ops:
        node = ir.view(node, vkind, arg, shp)
    return node


def fresh(node, *sources):
    """A new array over `node` that never aliases memory of `sources`: a node that folded
    into a source's memory (or is a source's node) is copied lazily."""
    if node.kind == LEAF or any(node is s._node for s in sources):
        node = ir.ew("astype", node.dtype, (node,))
    return wrap(node)


def slice_axis(node, axis, start, step, length):
    """`node` sliced along `axis` (start, step, length explicit; no bounds logic)."""
    if start == 0 and step == 1 and length == node.shape[axis]:
        return node
    ss = [(0, 1)] * node.ndim
    ss[axis] = (start, step)
    shp = list(node.shape)
    shp[axis] = length
    return ir.view(node, "slice", tuple(ss), tuple(shp))


def cyclic(node, axis, start, length):
    """Node whose element i along `axis` is node's element (start + i) % n (n > 0): the
    source repeated by a broadcast, flattened by a reshape, then sliced (all views)."""
    shp = node.shape
    n = shp[axis]
    start %= n
    k = L.ceil_div(start + length, n)
    if k > 1:
        head, tail = shp[:axis], shp[axis + 1:]
        node = ir.reshape(node, head + (1, n) + tail)
        node = ir.broadcast(node, head + (k, n) + tail)
        node = ir.reshape(node, head + (k * n,) + tail)
    return slice_axis(node, axis, start, 1, length)


def repeat_each(node, axis, r):
    """Every element along `axis` repeated `r` times (broadcast + reshape views)."""
    shp = node.shape
    n = shp[axis]
    head, tail = shp[:axis + 1], shp[axis + 1:]
    node = ir.reshape(node, head + (1,) + tail)
    node = ir.broadcast(node, head + (r,) + tail)
    return ir.reshape(node, shp[:axis] + (n * r,) + tail)


def is_f_contiguous(shape, strides) -> bool:
    return L.is_c_contiguous(tuple(reversed(shape)), tuple(reversed(strides)))


def layout_of(x):
    """(strides, offset) x has or will have (C-contiguous for lazy copies)."""
    vl = true_layout(x)
    return vl if vl is not None else (L.c_strides(x.shape), 0)


def fortran_only(x) -> bool:
    """NumPy's ``flags.fnc``: F-contiguous and not C-contiguous."""
    if x.ndim < 2:
        return False
    st, _ = layout_of(x)
    return is_f_contiguous(x.shape, st) and not L.is_c_contiguous(x.shape, st)
