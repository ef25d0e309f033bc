"""Advanced indices resolved against an array (``plan``): the view ops of the key's basic
part (giving ``V``), the result shape, and the lazy int64 node of logical flat offsets
into ``V`` (negative indices normalized, times ``V``'s C strides, plus an iota over the
remaining slice dimensions; boolean masks compacted by ``masks.mask_offsets``).
Out-of-bounds integer arrays raise IndexError here, with one device min/max read or none
(``index_bounds``).  ``indexing.getitem``/``setitem`` gather and scatter at the offsets."""
from __future__ import annotations

import numpy as np

from ... import _dtypes as D
from ..._broadcast import broadcast_shapes, fmt as _fmt
from ..._graph import ir
from ..._graph import layout as L
from .._common import fetch_scalars, host_to_node, is_array
from .index_bounds import bounds as _bounds
from .keys import _INT_OR_BOOL, _VALID, index_int, view_ops
from .masks import mask_offsets, src_node

I64 = D.int64

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
        kind = k._node.dtype.kind
        if kind == "b":
            return ("bool0", bool(k)) if not k._node.shape else ("mask", ("g", k))
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
        return "int", index_int(k)
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
    shape, dev = a._node.shape, a._node.device
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
            if v[1]._node.device is not dev and v[1].device != dev:
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
