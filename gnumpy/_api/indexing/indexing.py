"""Indexing: ``a[key]`` and ``a[key] = value`` for every NumPy index kind.

Basic indices (ints, slices with steps, Ellipsis, None) give views (IR view nodes) sharing
memory with their base, as in NumPy.  Advanced indices (integer and boolean arrays, lists,
0-d booleans, mixed with basic ones) give copies: the basic part becomes a view ``V`` of the
source, the advanced part an int64 array of logical flat offsets into ``V`` built lazily
(``index_plan.plan``; basic keys are parsed by ``keys``), then one ``gather`` barrier
reads ``V`` at those offsets.  Assignment scatters into ``V``'s memory in place
(``scatter``), after the pending lazy readers of that memory are materialized.

Boolean masks become flat indices by a device compaction (``nonzero``, one sync for the
count); out-of-bounds integer arrays raise IndexError eagerly (one device min/max sync, or none
for a slice of an array whose bounds are known: ``index_bounds``).
"""
from __future__ import annotations

import numpy as np

from ... import _dtypes as D
from ..._broadcast import broadcast_to_check
from ..._graph import ir
from ..._graph import layout as L
from ..._graph import realize as R
from ..._graph import readers as RD
from ..._memstate import write_epoch
from .._common import as_node, host_to_node, is_array, ndarray, wrap
from .._common import value_node as _common_value_node, store_scalar
from .index_bounds import bounds as _bounds
from .index_bounds import derived as _derived
from .index_plan import _entry, _fmt, _oob, minmax, normalize, plan
from .keys import _has_advanced, _is_advanced, index_int, simple_view_ops, view_ops
from .masks import mask_offsets, src_node

I64 = D.int64
_WHOLE = slice(None)


def _scalar_indices(a, key):
    """(`key` as a tuple with its 0-d integer arrays read as Python ints, whether every
    one of them was NumPy's scalar (``ndarray._sc``)), or None when the key holds another
    advanced index or no such array.  NumPy indexes with its integer scalars
    (``G[k, E - w, idx[a, b]]`` in a loop) as with ints: a view.  A 0-d array is an
    advanced index, selecting what the int selects (NumPy broadcasts the advanced
    indices to shape ()) as a copy: one element read replaces a bounds check and a
    gather kernel either way.  One pass over the key: a loop's statement pays it."""
    ks = key if type(key) is tuple else (key,)
    out = None
    scalars = True
    dev = a._node.device
    for i, k in enumerate(ks):
        tk = type(k)
        if tk is int or tk is slice or k is None or k is Ellipsis:
            continue
        if is_array(k):
            n = k._node
            if n.shape or n.dtype.kind not in "iu" or n.device is not dev and n.device != dev:
                return None
            scalars = scalars and k._sc
        elif isinstance(k, np.ndarray):
            if k.ndim or k.dtype.kind not in "iu":
                return None
            scalars = False
        elif _is_advanced(k):
            return None
        else:
            continue
        if out is None:
            out = list(ks)
        out[i] = index_int(k)
    return None if out is None else (tuple(out), scalars)


def getitem(a, key):
    """``a[key]``: a view of `a` for basic indices, a new array for advanced ones.  An
    element (every axis indexed by an integer, no Ellipsis) is a new 0-d array: NumPy
    returns a scalar there, which later writes into `a` do not change."""
    if a._sc and not (type(key) is tuple and not key):
        a = a._copy()           # (``s[...]``, ``s[None]`` of NumPy's scalar: new arrays)
    if isinstance(key, ndarray):    # a vector's gather, ``x[cols]`` in a row loop: first
        kn = key._node
        an = a._node
        if kn.shape and kn.dtype.kind in "iu" and len(an.shape) == 1 and \
                (kn.device is an.device or kn.device == an.device):
            return _take1(a, key)
    ops = simple_view_ops(a._node.shape, key)  # ints and slices (a lazy array's a[1:-1],
    if ops is None:                             # a[i, :k]): one pass
        ints = _scalar_indices(a, key)
        if ints is not None:
            r = a[ints[0]]
            if ints[1]:             # NumPy's scalars index as ints: a view (an element
                return r            # read is a scalar already)
            if r._base is not None:     # a copy, as advanced indexing gives; NumPy's
                r = r._copy()           # scalar where it selects one element
            r._sc = not r._node.shape and not _has_ellipsis(key)    # (a[i, ...]: a 0-d
            return r                                                # array)
        if _has_advanced(key):
            kn, an = key._node if is_array(key) else None, a._node
            whole = kn is not None and kn.dtype == D.bool_ and kn.shape == an.shape and \
                kn.shape and (kn.device is an.device or kn.device == an.device)
            if whole:   # ``a[m]``, a mask of a's shape: its flat offsets, as plan gives them
                flat = mask_offsets(key)
                return gather(a, (), flat, flat.shape, ("mask", key._node, write_epoch[0]))
            p = plan(a, key)
            return gather(a, p.vops, p.off, p.shape)
        ops = view_ops(a.shape, key)
    if (ops[-1][2] if ops else a.shape) == () and not _has_ellipsis(key):
        node = a._node
        for vk, arg, shp in ops:
            node = ir.view(node, vk, arg, shp)
        r = wrap(ir.ew("astype", node.dtype, (node,)))
        r._sc = True                # (NumPy's scalar: see ndarray._sc)
        return r
    return a._view(ops)


def _take1(a, idx):
    """``a[idx]`` for 1-D `a` and an integer array `idx` on its device (a row loop's
    ``x[cols]``): what ``plan`` and ``gather`` give, in fewer steps."""
    an = a._node
    size = an.shape[0]
    raw = src_node(idx)
    node = ir.cast(raw, I64)
    if not L.prod(node.shape):
        return wrap(ir.scalar(0, an.dtype, node.shape, an.device))
    (lo, hi), = _bounds([(node, idx, size)], minmax)
    if hi >= size or lo < -size:
        raise _oob(hi if hi >= size else lo, 0, size)
    if lo < 0:
        return gather(a, (), normalize(node, size), node.shape)
    return gather(a, (), raw if raw.kind == ir.LEAF else node, node.shape)   # offsets in
    # memory, in range: read as they lie (uint32 ``cols`` of a CSR loop: no cast kernel)


def _element_sequence(value, dtype):
    """An array or sequence assigned to one element: NumPy's error (ValueError "setting
    an array element with a sequence.", a TypeError for complex elements) or, where NumPy
    accepts it (bool elements), NumPy's element (the store is done on the host)."""
    return store_scalar(value.get() if is_array(value) else value, dtype)


def _sequence(v) -> bool:
    """Is `v` an array or sequence of at least one dimension (not a scalar)?"""
    if is_array(v) or isinstance(v, np.ndarray):
        return v.ndim > 0
    return isinstance(v, (list, tuple))


def _has_ellipsis(key) -> bool:
    return key is Ellipsis or (isinstance(key, tuple) and any(k is Ellipsis for k in key))


def setitem(a, key, value):
    """``a[key] = value`` (NumPy's broadcasting and casting of `value`)."""
    if a._sc:   # NumPy's scalar refuses item assignment; code that tells scalars from
        a._sc = False   # arrays by numbers.Number writes into gnumpy's as into an array
        try:            # (dask's moments: ``d[d < 0] = nan``): it writes, as there
            a[key] = value
            return
        finally:
            a._sc = True
    if a._ro:
        raise ValueError("assignment destination is read-only")
    if is_array(value) and value._node.device is not a._node.device and \
            value.device != a.device:
        raise ValueError(f"cannot assign an array on {value.device} into one on {a.device}")
    whole = type(key) is slice and key == _WHOLE and a._node.shape   # a[:]: no key to parse
    if not whole and _has_advanced(key):
        ints = _scalar_indices(a, key)
        key = key if ints is None else ints[0]
    if whole or not _has_advanced(key):
        ops = [] if whole else view_ops(a.shape, key)
        if not (ops[-1][2] if ops else a.shape) and not _has_ellipsis(key) and \
                _sequence(value):       # one element: NumPy's errors (or element)
            value = _element_sequence(value, a.dtype)
        if not ops and a._base is None and not a._has_views and a._node.kind != ir.LEAF \
                and (is_array(value) and value._node.kind != ir.LEAF or
                     isinstance(value, (int, float, complex, np.generic))):
            a._assign_from(value, strip=True)   # a lazy array replaced whole by a lazy
            return      # value (D[:] = v after np.empty): no memory written; a value in
                        # memory is copied (below)
        a._view(ops)._assign_from(value, strip=True)
        return
    an = a._node
    if isinstance(value, np.generic):     # converted as an array (NumPy's fancy setitem)
        vnode = host_to_node(value, dtype=an.dtype, device=an.device)
    else:
        vnode = value_node(an.dtype, value, an.device)
    _check_full_mask(a, key, vnode)
    if _mask_where(a, key, vnode):
        return
    p = plan(a, key, lambda shape: fit_value(vnode, shape))
    vnode = fit_value(vnode, p.shape)
    if _gathered_where(a, key, p, vnode):
        return
    scatter(a, p.vops, p.off, vnode, unique=p.unique)


# ====================================================================== gather and scatter

def gather(a, vops, off, shape, mask=None):
    """New array of `shape`: the elements of view `vops` of `a` at logical flat offsets
    `off` (int64 node of `shape`; None when the result is empty).  `mask`: ("mask", node,
    write count) when they are the elements a boolean mask of a's shape selects (``a[m]``),
    kept as the barrier's argument: a sum of them made before any write needs no
    compaction (``reductions._reduce``)."""
    dt = a._node.dtype
    if off is None or L.prod(shape) == 0:
        return wrap(ir.scalar(0, dt, shape, a._node.device))
    node = src_node(a)
    for vk, arg, shp in vops:
        node = ir.view(node, vk, arg, shp)
    r = ir.barrier("gather", (node, off), mask, dt, shape)
    if dt.kind in "iu":
        _derived(r, a)          # its values are a's: so are their bounds
    return wrap(r)


def value_node(dtype, value, device):
    """`value` as a node of `dtype` (NumPy's assignment casting: scalars and sequences
    converted element by element with NumPy's errors, arrays unsafely)."""
    if is_array(value):
        node = src_node(value)
        if node.device != device:
            raise ValueError(f"cannot write an array on {node.device} into one on {device}")
        return ir.cast(node, dtype)
    node = _common_value_node(value, dtype, device)
    if node.device != device:
        raise ValueError(f"cannot write an array on {node.device} into one on {device}")
    return node


def fit_value(vnode, shape):
    """`vnode` broadcast to the indexing result `shape` (leading 1s dropped as NumPy
    does), or reshaped to (1,) when it holds one value (the scatter then repeats it)."""
    vs = vnode.shape
    while len(vs) > len(shape) and vs[0] == 1:
        vs = vs[1:]
    if len(vs) > len(shape) and 0 in vs and 0 in shape and \
            vs[len(vs) - len(shape):] == tuple(shape):
        vs = tuple(shape)       # NumPy drops any leading axes of an empty matching value
        #                         (into an empty result: (0, 2) into (2,) is its ValueError)
    try:
        broadcast_to_check(vs, shape)
    except ValueError:
        raise ValueError(f"shape mismatch: value array of shape {_fmt(vnode.shape)} could "
                         f"not be broadcast to indexing result of shape {_fmt(shape)}") \
            from None
    if L.prod(vnode.shape) == 1:
        return ir.reshape(vnode, (1,))
    return ir.broadcast(ir.reshape(vnode, vs), shape)


def scatter(a, vops, off, vnode, at=None, unique=False):
    """Write `vnode` (fit_value'd) into view `vops` of `a` at logical flat offsets `off`,
    in place; `at` = (ufunc name, nin, output dtype) accumulates like ``ufunc.at``;
    `unique`: the offsets are known to be distinct (no search for repeated ones)."""
    if a._ro:
        raise ValueError("assignment destination is read-only")
    if off is None or L.prod(off.shape) == 0:
        return
    dest = a._write_target(skip=False)
    for vk, arg, shp in vops:
        dest = ir.view(dest, vk, arg, shp)
    pend = [n for n in (off, vnode) if n.kind != ir.LEAF]
    if pend:
        R.materialize(pend)
    if off.buf is dest.buf:
        off = _copied(off)
    if vnode.buf is dest.buf:
        vnode = _copied(vnode)
    RD.flush_readers(dest.buf)
    # loaded on first use: import gnumpy does not load index_ops (~10 ms, 8 modules)
    from ...backends import index_ops
    vstep = 0 if L.prod(vnode.shape) == 1 else 1
    if at is None:
        R.run_inplace(index_ops.SCATTER, dest, (off, vnode), (vstep, unique))
    else:
        name, nin, odt = at
        R.run_inplace(index_ops.SCATTER_AT, dest, (off, vnode), (name, nin, vstep, odt))


def _copied(leaf):
    n = ir.ew("astype", leaf.dtype, (leaf,))
    R.materialize([n])
    return n


def _check_full_mask(a, key, vnode):
    """NumPy's TypeError for ``a[mask] = v`` with one boolean mask of a's every axis and a
    value of two or more dimensions."""
    k = key[0] if isinstance(key, tuple) and len(key) == 1 else key
    if isinstance(k, tuple):
        return
    kind, v = _entry(k)
    if kind == "mask" and v[1].ndim == a.ndim and len(vnode.shape) > 1:
        raise TypeError(f"NumPy boolean array indexing assignment requires a 0 or "
                        f"1-dimensional input, input has {len(vnode.shape)} dimensions")


def _gathered_where(a, key, p, vnode) -> bool:
    """``a[m] = f(x[m], y[m], ...)``: one boolean mask over all of a's axes, and a value
    computed elementwise from scalars and gathers through the same mask offsets (the
    mask's offsets are reused, see `masks.mask_offsets`) of arrays of a's shape.  Then it is
    ``where(m, f(x, y, ...), a)``, lazy and fused: no gather and no scatter run (NPBench's
    mandelbrot: ``Z[I] = Z[I]**2 + C[I]``).  True if done."""
    k = key[0] if isinstance(key, tuple) and len(key) == 1 else key
    if p.vops or p.off is None or p.off.kind != ir.BARRIER or not is_array(k) or \
            k.dtype != D.bool_ or k.shape != a.shape:
        return False
    off, shape, dev = p.off, a.shape, a.device
    memo = {}

    def full(n):        # n of the value's shape (count,) -> the same values over `shape`
        r = memo.get(id(n))
        if r is None:
            kd = n.kind
            if kd == ir.BARRIER and n.op == "gather" and n.srcs[1] is off and \
                    n.srcs[0].shape == shape:
                r = n.srcs[0]
            elif kd == ir.SCALAR:
                r = ir.scalar(n.arg, n.dtype, shape, dev)
            elif kd == ir.EW:
                srcs = [full(s) for s in n.srcs]
                r = None if None in srcs else ir.ew(n.op, n.dtype, srcs, n.arg)
            memo[id(n)] = r
        return r
    val = full(vnode)
    if val is None:
        return False
    a._set_node(ir.where(k._node, ir.cast(val, a.dtype), src_node(a)))
    return True


def _mask_where(a, key, vnode) -> bool:
    """``a[mask] = v`` with one boolean mask over a's leading dims and `v` independent of
    the mask's count: ``where(mask, v, a)``, lazy and fused, no sync.  True if done."""
    if isinstance(key, tuple):
        if len(key) != 1 or isinstance(key[0], tuple):
            return False
        key = key[0]
    kind, v = _entry(key)
    if kind != "mask":
        return False
    m = v[1]
    k = m.ndim
    if k > a.ndim or m.shape != a.shape[:k]:
        return False            # plan() raises NumPy's IndexError
    vs = vnode.shape
    while vs and vs[0] == 1 and len(vs) > a.ndim - k:
        vs = vs[1:]
    if len(vs) > a.ndim - k:
        return False
    try:
        broadcast_to_check(vs, a.shape[k:])
    except ValueError:
        return False
    mnode = as_node(m, device=a.device) if v[0] == "h" else m._node
    if mnode.device != a.device:
        raise ValueError(f"index array on {mnode.device} for an array on {a.device}")
    mnode = ir.broadcast(ir.reshape(mnode, m.shape + (1,) * (a.ndim - k)), a.shape)
    val = ir.broadcast(ir.reshape(vnode, vs), a.shape)
    a._set_node(ir.where(mnode, val, src_node(a)))
    return True
