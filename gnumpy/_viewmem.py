"""Where a view lies in its root's memory: the ``at`` records of ``ndarray`` views.

A view of an array remembers its place in its root's memory as one ``at`` record
``("at", (strides, offset, dtype, root node), shape)``, so a chain of views costs O(1) per
view.  Every view is one: the API makes a view only through ops that strides express (a
reshape that does not fold is a copy, as NumPy's), and a lazy root materializes
C-contiguous at offset 0.  Views made while their root was lazy are registered here and
bound to the root's memory at its first write (``ndarray._write_target``).
"""
from __future__ import annotations

from math import prod

from ._graph import ir
from ._graph import layout as L
from ._graph.ir import LEAF


# Views made while their root was lazy: id(root) -> (weakref(root), [weakref(view)]).  Their
# nodes may not read the root's memory once it has some (a folded constant, a chain over
# the root's sources, a copy a barrier made of a view node), so the root's first write
# binds them to it (``_write_target``).
_LAZY_VIEWS: dict = {}
_LAZY_PRUNE = [1024]
# A root viewed this many times while lazy is materialized at its next view: a loop over
# the columns of a lazy array would otherwise recompute the array in every view's kernel,
# and a chain of views never stacks more than a few view nodes over a lazy graph.  A root
# of at most _SMALL_ROOT elements is materialized at its third view: a loop over small
# arrays is bound by host time, and each view's kernel over the lazy graph is planned anew
# (its offsets are in the graph), while one over memory replays (NPBench lenet's and
# resnet's pooling loops, stockham_fft: docs/perf-notes.md, "small lazy roots").
_LAZY_VIEWS_MAX = 8
_LAZY_VIEWS_MAX_SMALL = 2
_SMALL_ROOT = 1 << 16


def _viewed_enough(ent, rn) -> bool:
    """Has the lazy root of node `rn` been viewed often enough (`ent`, its _LAZY_VIEWS
    entry) to be materialized at this view?"""
    n = len(ent[1])
    return n >= _LAZY_VIEWS_MAX or n >= _LAZY_VIEWS_MAX_SMALL and prod(rn.shape) <= _SMALL_ROOT


def _bind_views(ent) -> None:
    """The lazy views of a root just materialized (`ent`, its _LAZY_VIEWS entry) folded
    into its memory: no kernel, and they leave the pending readers a write scans."""
    for w in ent[1]:
        v = w()
        if v is not None and v._node.kind != LEAF:
            v._leaf()


def _snapshot(rn) -> bool:
    """Is lazy node `rn` a small copy of memory (``pn = p.copy()``, made to keep values
    that later writes into p change)?  Indexing materializes such a root at its first
    view: its kernel runs anyway (p's next write flushes it), and each view then folds
    into its memory at once rather than through the lazy views' bookkeeping."""
    if rn.op != "astype" or not rn.shape:
        return False
    s = rn.srcs[0]
    return s.kind == LEAF and s.dtype is rn.dtype and prod(rn.shape) <= _SMALL_ROOT


def _prune_lazy_views() -> None:
    for k in [k for k, (r, _) in _LAZY_VIEWS.items() if r() is None or
              r()._node.kind == LEAF and all(w() is None for w in _LAZY_VIEWS[k][1])]:
        del _LAZY_VIEWS[k]
    _LAZY_PRUNE[0] = max(1024, 2 * len(_LAZY_VIEWS))


def _at_ops(x, ops):
    """The ``at`` record, as a one-element tuple ``(("at", (strides, offset, dtype, root
    node), shape),)``, of a view of `x` through view ops `ops`: folded into the layout x
    has (or, lazy, will have) in its root's memory.  The root node is the one the view was
    made from (a resized root gets a new one; its old views keep the old memory, as
    NumPy's).  An op strides cannot express is a bug in the caller (it must copy)."""
    if x._base is None:
        n = rn = x._node
        st, off = (n.strides, n.offset) if n.kind == LEAF else (L.c_strides(n.shape), 0)
    else:
        (_, (st, off, _, rn), _), = x._vops
    shape = x._node.shape
    for vkind, arg, shp in ops:
        r = L.fold(shape, st, off, vkind, arg, shp)
        if r is None:
            raise AssertionError(f"view op {vkind} {arg!r} to {shp} does not fold into "
                                 f"strides {st} of shape {shape}: the caller must copy")
        st, off = r
        shape = shp
    return (("at", (tuple(st), off, x._node.dtype, rn), shape),)


def _derived(v, root) -> bool:
    """Was view `v` made from root's current node (not from one a resize replaced)?"""
    o = v._vops
    return not o or o[0][1][3] is root._node


def _at_part(x, k, rdt):
    """The ``at`` record of the real (k=0) or imaginary (k=1) part of complex `x`."""
    (_, (st, off, _, rn), _), = _at_ops(x, ())
    return (("at", (tuple(2 * s for s in st), 2 * off + k, rdt, rn), x.shape),)


def _apply_vops(m, vops):
    """Node of a view: root LEAF `m` read through the view's ``at`` record."""
    (_, (st, off, dt, _), shape), = vops
    return ir.leaf(m.buf, dt, shape, st, off, m.device)
