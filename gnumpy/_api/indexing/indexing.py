"""Indexing: ``a[key]`` and ``a[key] = value`` for every NumPy index kind.

Basic indices (ints, slices with steps, Ellipsis, None) give views (IR view nodes) sharing
memory with their base, as in NumPy.  Advanced indices (integer and boolean arrays, lists,
0-d booleans, mixed with basic ones) give copies: the basic part becomes a view ``V`` of the
source, the advanced part an int64 array of logical flat offsets into ``V`` built lazily
with elementwise ops (negative indices normalized, times ``V``'s C strides, plus an iota
over the remaining slice dimensions), then one ``gather`` barrier reads ``V`` at those
offsets.  Assignment scatters into ``V``'s memory in place (``scatter``), after the
pending lazy readers of that memory are materialized.

Boolean masks become flat indices by a device compaction (``nonzero``, one sync for the
count); out-of-bounds integer arrays raise IndexError eagerly (one device min/max sync, or none
for a slice of an array whose bounds are known: ``index_bounds``).
"""
from __future__ import annotations

import operator

import numpy as np

from ... import _dtypes as D
from ..._broadcast import broadcast_shapes, broadcast_to_check
from ..._graph import ir
from ..._graph import layout as L
from ..._graph import realize as R
from ..._graph import readers as RD
from ..._graph.layout import normalize_slice
from ..._memstate import write_epoch
from .._common import as_node, fetch_scalars, host_to_node, is_array, wrap
from .._common import value_node as _common_value_node, store_scalar
from .index_bounds import bounds as _bounds
from .index_bounds import derived as _derived
from .masks import mask_offsets, src_node

_VALID = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer "
          "or boolean arrays are valid indices")
_INT_OR_BOOL = "arrays used as indices must be of integer (or boolean) type"
I64 = D.int64


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


def _scalar_indices(a, key):
    """`key` (as a tuple) with its advanced indices read as Python ints when every one is a
    0-d integer array (``G[k, E - w, idx[a, b]]`` in a loop), else None (also for a key
    with no array).  Such an index selects what the ints select (NumPy broadcasts the
    advanced indices to shape ()), so one element read replaces a bounds check and a
    gather kernel.  One pass over the key: a loop's statement pays it."""
    ks = key if type(key) is tuple else (key,)
    out = None
    dev = a._node.device
    for i, k in enumerate(ks):
        tk = type(k)
        if tk is int or tk is slice or k is None or k is Ellipsis:
            continue
        if is_array(k):
            n = k._node
            if n.shape or n.dtype.kind not in "iu" or n.device is not dev and n.device != dev:
                return None
        elif isinstance(k, np.ndarray):
            if k.ndim or k.dtype.kind not in "iu":
                return None
        elif _is_advanced(k):
            return None
        else:
            continue
        if out is None:
            out = list(ks)
        out[i] = int(k)
    return None if out is None else tuple(out)


def getitem(a, key):
    """``a[key]``: a view of `a` for basic indices, a new array for advanced ones.  An
    element (every axis indexed by an integer, no Ellipsis) is a new 0-d array: NumPy
    returns a scalar there, which later writes into `a` do not change."""
    ints = _scalar_indices(a, key)
    if ints is not None:                # a copy, as advanced indexing gives
        r = a[ints]
        return r if r._base is None else r._copy()
    if _has_advanced(key):
        if len(a.shape) == 1 and is_array(key) and key.ndim and key.dtype.kind in "iu" \
                and key.device == a.device:
            return _take1(a, key)
        whole = is_array(key) and key.dtype == D.bool_ and key.shape == a.shape and \
            key.ndim and key.device == a.device
        if whole:       # ``a[m]``, a mask of a's shape: its flat offsets, as plan gives them
            flat = mask_offsets(key)
            return gather(a, (), flat, flat.shape, ("mask", key._node, write_epoch[0]))
        p = plan(a, key)
        return gather(a, p.vops, p.off, p.shape)
    ops = view_ops(a.shape, key)
    if (ops[-1][2] if ops else a.shape) == () and not _has_ellipsis(key):
        node = a._node
        for vk, arg, shp in ops:
            node = ir.view(node, vk, arg, shp)
        return wrap(ir.ew("astype", node.dtype, (node,)))
    return a._view(ops)


def _take1(a, idx):
    """``a[idx]`` for 1-D `a` and an integer array `idx` on its device (a row loop's
    ``x[cols]``): what ``plan`` and ``gather`` give, in fewer steps."""
    size = a.shape[0]
    node = ir.cast(src_node(idx), I64)
    if not L.prod(node.shape):
        return wrap(ir.scalar(0, a.dtype, node.shape, a.device))
    (lo, hi), = _bounds([(node, idx, size)], minmax)
    if hi >= size or lo < -size:
        raise _oob(hi if hi >= size else lo, 0, size)
    return gather(a, (), normalize(node, size) if lo < 0 else node, node.shape)


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
    if a._ro:
        raise ValueError("assignment destination is read-only")
    if is_array(value) and value.device != a.device:
        raise ValueError(f"cannot assign an array on {value.device} into one on {a.device}")
    if _has_advanced(key):
        key = _scalar_indices(a, key) or key
    if not _has_advanced(key):
        ops = view_ops(a.shape, key)
        if not ops and a._base is None and not a._has_views and a._node.kind != ir.LEAF \
                and (is_array(value) and value._node.kind != ir.LEAF or
                     isinstance(value, (int, float, complex, np.generic))):
            a._assign_from(value, strip=True)   # a lazy array replaced whole by a lazy
            return      # value (D[:] = v after np.empty): no memory written; a value in
                        # memory is copied (below)
        t = a._view(ops)
        if not t.shape and not _has_ellipsis(key) and _sequence(value):
            value = _element_sequence(value, a.dtype)
        t._assign_from(value, strip=True)
        return
    if isinstance(value, np.generic):     # converted as an array (NumPy's fancy setitem)
        vnode = host_to_node(value, dtype=a.dtype, device=a.device)
    else:
        vnode = value_node(a.dtype, value, a.device)
    _check_full_mask(a, key, vnode)
    if _mask_where(a, key, vnode):
        return
    p = plan(a, key, lambda shape: fit_value(vnode, shape))
    vnode = fit_value(vnode, p.shape)
    if _gathered_where(a, key, p, vnode):
        return
    scatter(a, p.vops, p.off, vnode, unique=p.unique)


# ====================================================================== advanced: the plan

class Plan:
    """An advanced index resolved against an array: view ops of its basic part (giving
    ``V``), the result shape, the int64 node of logical flat offsets into ``V``, and
    whether those offsets are distinct (no index array of integers: masks, which select
    each element once, and scalars)."""

    __slots__ = ("vops", "vshape", "shape", "off", "unique")

    def __init__(self, vops, vshape, shape, off, unique=False):
        self.vops, self.vshape, self.shape, self.off = vops, vshape, shape, off
        self.unique = unique


def _entry(k):
    """One key component -> (kind, value); kinds: none, ell, slice, int, bool0, arr, mask.
    Array values are ('g', gnumpy array) or ('h', numpy array)."""
    if k is None:
        return "none", None
    if k is Ellipsis:
        return "ell", None
    if isinstance(k, slice):
        return "slice", k
    if isinstance(k, (bool, np.bool_)):
        return "bool0", bool(k)
    if is_array(k):
        kind = k.dtype.kind
        if kind == "b":
            return ("bool0", bool(k)) if k.ndim == 0 else ("mask", ("g", k))
        if kind in "iu":
            return "arr", ("g", k)
        raise IndexError(_INT_OR_BOOL)
    if isinstance(k, (list, tuple)):
        try:
            h = np.asarray(k)
        except (ValueError, TypeError):
            raise IndexError(_VALID) from None
        if h.size == 0 and h.dtype.kind == "f":
            h = h.astype(np.int64)
        if h.dtype.kind not in "biu":
            raise IndexError(_VALID)
    elif isinstance(k, np.ndarray):
        h = k
        if h.dtype.kind not in "biu":
            raise IndexError(_INT_OR_BOOL)
    else:
        try:
            return "int", operator.index(k)
        except TypeError:
            raise IndexError(_VALID) from None
    if h.dtype.kind == "b":
        return ("bool0", bool(h)) if h.ndim == 0 else ("mask", ("h", h))
    return "arr", ("h", h)


def _consumed(kind, value) -> int:
    if kind in ("int", "slice", "arr"):
        return 1
    if kind == "mask":
        return value[1].ndim
    return 0


def _oob(i, axis, size):
    return IndexError(f"index {i} is out of bounds for axis {axis} with size {size}")


def plan(a, key, value_check=None) -> Plan:
    """Resolve advanced index `key` against array `a` (raises NumPy's IndexErrors);
    `value_check(result shape)` runs before index arrays are bounds-checked (NumPy
    refuses a value that does not broadcast first)."""
    shape, dev = a.shape, a.device
    ents = [_entry(k) for k in (key if isinstance(key, tuple) else (key,))]
    if sum(1 for k, _ in ents if k == "ell") > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(_consumed(k, v) for k, v in ents)
    if used > len(shape):
        raise IndexError(f"too many indices for array: array is {len(shape)}-dimensional, "
                         f"but {used} were indexed")
    vkey, groups, positions = [], [], []
    vd = sd = 0
    for pos, (kind, v) in enumerate(ents):
        if kind == "ell":
            n = len(shape) - used
            vkey.extend([slice(None)] * n)
            vd += n
            sd += n
            continue
        if kind in ("none", "slice"):
            vkey.append(v)
            vd += 1
            sd += kind == "slice"
            continue
        positions.append(pos)
        if kind == "bool0":
            vkey.append(None)
            groups.append(("bool0", v, vd, 1, 1, sd))
            vd += 1
            continue
        k = _consumed(kind, v)
        if kind == "mask":
            mshape = v[1].shape
            for j in range(k):      # NumPy lets an empty mask through whatever its shape
                if mshape[j] != shape[sd + j] and L.prod(mshape) != 0:
                    raise IndexError(f"boolean index did not match indexed array along axis "
                                     f"{sd + j}; size of axis is {shape[sd + j]} but size of "
                                     f"corresponding boolean axis is {mshape[j]}")
        elif kind == "int" and not -shape[sd] <= v < shape[sd]:
            raise _oob(v, sd, shape[sd])
        vkey.extend([slice(None)] * k)
        groups.append((kind, v, vd, k, shape[sd], sd))
        vd += k
        sd += k
    vops = view_ops(shape, tuple(vkey))
    vshape = vops[-1][2] if vops else tuple(shape)
    vcs = L.c_strides(vshape)
    parts, late = _group_offsets(groups, vcs, dev)
    try:
        bshape = broadcast_shapes(*[s for _, s in parts])
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together "
                         "with shapes " + " ".join(_fmt(s) for _, s in parts)) from None
    adv_dims = {g[2] + j for g in groups for j in range(g[3])}
    basic = [d for d in range(len(vshape)) if d not in adv_dims]
    contiguous = all(q == p + 1 for p, q in zip(positions, positions[1:]))
    first = min(adv_dims)
    before = [d for d in basic if d < first] if contiguous else []
    after = [d for d in basic if d not in before]
    rshape = tuple(vshape[d] for d in before) + bshape + tuple(vshape[d] for d in after)
    if value_check is not None:
        value_check(rshape)
    if L.prod(bshape):      # NumPy checks index arrays' bounds only when they select
        late()
    if L.prod(rshape) == 0:
        return Plan(vops, vshape, rshape, None)
    off = None
    for node, s in parts:
        if node is None:
            continue
        node = ir.broadcast(node, bshape)
        off = node if off is None else ir.ew("add", I64, (off, node))
    if off is None:
        off = ir.scalar(0, I64, bshape, dev)
    b_in_r = (1,) * len(before) + bshape + (1,) * len(after)
    off = ir.broadcast(ir.reshape(off, b_in_r), rshape)
    st = [0] * len(rshape)
    for j, d in enumerate(before):
        st[j] = vcs[d]
    for j, d in enumerate(after):
        st[len(before) + len(bshape) + j] = vcs[d]
    if any(st):
        off = ir.ew("add", I64, (off, ir.iota(rshape, st, 0, dev)))
    return Plan(vops, vshape, rshape, off, all(g[0] != "arr" for g in groups))


def _fmt(shape) -> str:
    return "(" + ",".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _times(node, c):
    if c == 1:
        return node
    return ir.ew("multiply", I64, (node, ir.scalar(c, I64, node.shape, node.device)))


def _group_offsets(groups, vcs, dev):
    """([(int64 node or None, index shape)], check): each advanced group's offset
    contribution, and the bounds check of its index arrays (run when they select some
    element; it may normalize negative indices of device arrays in `parts`)."""
    parts = [None] * len(groups)
    checks = []
    errors = []
    for gi, (kind, v, vd, k, size, sd) in enumerate(groups):
        mult = vcs[vd + k - 1]
        if kind == "bool0":
            parts[gi] = (None, (1,) if v else (0,))
        elif kind == "int":
            parts[gi] = (ir.scalar((v % size) * mult, I64, (), dev), ())
        elif kind == "mask":
            flat = host_to_node(np.flatnonzero(v[1]), device=dev) if v[0] == "h" else \
                mask_offsets(v[1])
            parts[gi] = (_times(flat, mult), flat.shape)
        elif v[0] == "h":
            h = v[1].astype(np.int64)      # as NumPy: uint64 indices wrap to intp
            if h.size:
                lo, hi = int(h.min()), int(h.max())
                if hi >= size or lo < -size:
                    errors.append(_oob(hi if hi >= size else lo, sd, size))
                if lo < 0:
                    h = np.where(h < 0, h + size, h)
            parts[gi] = (_times(host_to_node(h, device=dev), mult), h.shape)
        else:
            if v[1].device != dev:
                raise ValueError(f"index array on {v[1].device} for an array on {dev}")
            node = ir.cast(src_node(v[1]), I64)
            parts[gi] = (_times(node, mult), node.shape)
            if L.prod(node.shape):
                checks.append((gi, node, size, sd, mult, v[1]))

    def check():
        if errors:
            raise errors[0]
        if checks:
            found = _bounds([(c[1], c[5], c[2]) for c in checks], minmax)
            for (gi, node, size, sd, mult, _), (lo, hi) in zip(checks, found):
                if hi >= size or lo < -size:
                    raise _oob(hi if hi >= size else lo, sd, size)
                if lo < 0:
                    parts[gi] = (_times(normalize(node, size), mult), node.shape)
    return parts, check


def normalize(node, size):
    """int64 `node` with negative entries wrapped once (i + size)."""
    zero = ir.scalar(0, I64, node.shape, node.device)
    neg = ir.ew("less", D.bool_, (node, zero))
    return ir.where(neg, ir.ew("add", I64, (node, ir.scalar(size, I64, node.shape,
                                                            node.device))), node)


def minmax(nodes):
    """[(min, max)] of int64 nodes (each non-empty), with one device->host transfer: the
    reductions and an elementwise gather of their results into one vector (no barrier:
    a loop of fancy indexing replays them)."""
    red = []
    for n in nodes:
        flat = ir.reshape(n, (L.prod(n.shape),))
        red += [ir.reduce(rop, flat, (0,), False, I64) for rop in ("min", "max")]
    vals = fetch_scalars(red).tolist()
    return [(vals[2 * i], vals[2 * i + 1]) for i in range(len(nodes))]


# ====================================================================== gather and scatter

def gather(a, vops, off, shape, mask=None):
    """New array of `shape`: the elements of view `vops` of `a` at logical flat offsets
    `off` (int64 node of `shape`; None when the result is empty).  `mask`: ("mask", node,
    write count) when they are the elements a boolean mask of a's shape selects (``a[m]``),
    kept as the barrier's argument: a sum of them made before any write needs no
    compaction (``reductions._reduce``)."""
    if off is None or L.prod(shape) == 0:
        return wrap(ir.scalar(0, a.dtype, shape, a.device))
    node = src_node(a)
    for vk, arg, shp in vops:
        node = ir.view(node, vk, arg, shp)
    r = ir.barrier("gather", (node, off), mask, a.dtype, shape)
    if a.dtype.kind in "iu":
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
    if len(vs) > len(shape) and 0 in vs and vs[len(vs) - len(shape):] == tuple(shape):
        vs = tuple(shape)       # NumPy drops any leading axes of an empty matching value
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
