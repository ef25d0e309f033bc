"""Strided layouts: shapes, element strides and offsets, and folding view ops into them.

A materialized array (or an index-valued ``iota`` node) is a strided layout over memory:
element ``i`` lives at ``offset + sum(i[d] * strides[d])`` (strides in elements, not bytes).
View ops (broadcast, permute, slice, reshape) fold into a new layout without copying; a
reshape that cannot be expressed with strides returns None (the caller then copies).
"""
from __future__ import annotations


def prod(shape) -> int:
    p = 1
    for d in shape:
        p *= d
    return p


def c_strides(shape) -> tuple:
    """C-order element strides of `shape`."""
    out = [0] * len(shape)
    acc = 1
    for i in range(len(shape) - 1, -1, -1):
        out[i] = acc
        acc *= shape[i] if shape[i] > 0 else 1
    return tuple(out)


def is_c_contiguous(shape, strides) -> bool:
    acc = 1
    for d, s in zip(reversed(shape), reversed(strides)):
        if d == 0:
            return True
        if d != 1 and s != acc:
            return False
        acc *= d
    return True


def span(shape, strides, offset) -> tuple:
    """(first, last) element positions a layout touches (last inclusive; (0, -1) when
    empty)."""
    lo = hi = offset
    for d, s in zip(shape, strides):
        if d == 0:
            return 0, -1
        if s > 0:
            hi += (d - 1) * s
        else:
            lo += (d - 1) * s
    return lo, hi


def _matrix_index(shape, strides, offset, key):
    """``basic_index`` of a 2-D layout and a key of two ints or slices, without a loop
    or a call per axis; False for other keys."""
    k0, k1 = key
    t0 = type(k0)
    t1 = type(k1)
    n0, n1 = shape
    s0, s1 = strides
    if t0 is int:
        if k0 < 0:
            k0 += n0
        if k0 < 0 or k0 >= n0:
            return None
        offset += k0 * s0
        if t1 is int:
            if k1 < 0:
                k1 += n1
            if k1 < 0 or k1 >= n1:
                return None
            return (), (), offset + k1 * s1, True
        if t1 is not slice:
            return False
        try:
            a, b, c = k1.indices(n1)
        except (TypeError, ValueError):
            return None
        m = (b - a + c - 1) // c if c > 0 else (a - b - c - 1) // -c
        if m > 0:
            return (m,), (c * s1,), offset + a * s1, False
        return (0,), (c * s1,), offset, False          # (an empty axis starts at 0)
    if t0 is not slice:
        return False
    try:
        a, b, c = k0.indices(n0)
    except (TypeError, ValueError):
        return None
    m = (b - a + c - 1) // c if c > 0 else (a - b - c - 1) // -c
    if m > 0:
        offset += a * s0
    if t1 is int:
        if k1 < 0:
            k1 += n1
        if k1 < 0 or k1 >= n1:
            return None
        return (m if m > 0 else 0,), (c * s0,), offset + k1 * s1, False
    if t1 is not slice:
        return False
    try:
        a, b, d = k1.indices(n1)
    except (TypeError, ValueError):
        return None
    q = (b - a + d - 1) // d if d > 0 else (a - b - d - 1) // -d
    return (m if m > 0 else 0, q if q > 0 else 0), (c * s0, d * s1), \
        offset + a * s1 if q > 0 else offset, False


def basic_index(shape, strides, offset, key):
    """The layout ``(shape, strides, offset, element)`` that a key of Python ints, slices,
    None (a new axis of length 1, stride 0) and one Ellipsis selects from a strided layout
    (no arrays; NumPy's rules); element: every axis is indexed by an int, with no None or
    Ellipsis (NumPy's scalar).  None for any other key, or one that raises (the general
    indexing path then gives NumPy's error)."""
    tk = type(key)
    if tk is slice and len(shape) == 1:        # a[i:j] of a vector: the loop statement
        try:
            start, stop, step = key.indices(shape[0])
        except (TypeError, ValueError):
            return None
        n = (stop - start + step - 1) // step if step > 0 else \
            (start - stop - step - 1) // -step
        if n > 0:
            return (n,), (step * strides[0],), offset + start * strides[0], False
        return (0,), (step * strides[0],), offset, False     # (an empty axis starts at 0)
    if tk is not tuple:
        key = (key,)
    nk = len(key)
    nd = len(shape)
    if nk == 2 and nd == 2:     # a[i, :j], a[:i, j], a[1:-1, 1:-1]: a matrix's loop statement
        r = _matrix_index(shape, strides, offset, key)
        if r is not False:
            return r
    if nk == nd:            # an element (a[i, j]): ints only, the common loop statement
        off = offset
        for k, n, st in zip(key, shape, strides):
            if type(k) is not int:
                break
            if k < 0:
                k += n
            if k < 0 or k >= n:
                return None
            off += k * st
        else:
            return (), (), off, True
    fill = 0                # the axes an Ellipsis stands for (counted once seen)
    for k in key:
        if k is None or k is Ellipsis:
            fill = -1
            break
    if fill:
        real = 0
        ells = 0
        for k in key:
            if k is Ellipsis:
                ells += 1
            elif k is not None:
                real += 1
        if ells > 1 or real > nd:
            return None
        fill = nd - real
        nk = real
    elif nk > nd:
        return None
    osh = []
    ost = []
    d = 0
    for k in key:
        t = type(k)
        if t is slice:
            if k.start is None and k.stop is None and k.step is None:     # a[:, ...]
                osh.append(shape[d])
                ost.append(strides[d])
                d += 1
                continue
            try:
                start, stop, step = k.indices(shape[d])
            except (TypeError, ValueError):
                return None
            n = (stop - start + step - 1) // step if step > 0 else \
                (start - stop - step - 1) // -step      # (normalize_slice, inlined)
            osh.append(n if n > 0 else 0)
            ost.append(step * strides[d])
            if n > 0:               # (an empty axis starts at 0: nothing is read there)
                offset += start * strides[d]
        elif t is int:
            n = shape[d]
            if k < 0:
                k += n
            if k < 0 or k >= n:
                return None
            offset += k * strides[d]
        elif k is None:
            osh.append(1)
            ost.append(0)
            continue
        elif k is Ellipsis:
            osh += shape[d:d + fill]
            ost += strides[d:d + fill]
            d += fill
            fill = 0
            continue
        else:
            return None
        d += 1
    if d < nd:
        return tuple(osh) + shape[d:], tuple(ost) + strides[d:], offset, False
    return tuple(osh), tuple(ost), offset, not osh and nk == len(key)


def fold_broadcast(shape, strides, newshape):
    """Strides of a layout broadcast to `newshape`: 0 on new leading axes and on axes of
    length 1 stretched."""
    k = len(newshape) - len(shape)
    st = tuple([0 if d == 1 and m != 1 else s
                for d, s, m in zip(shape, strides, newshape[k:] if k else newshape)])
    return (0,) * k + st if k else st


def fold_permute(strides, axes):
    return tuple(strides[a] for a in axes)


def fold_slice(strides, offset, starts_steps):
    """starts_steps: one (start, step) per dim; returns (strides, offset)."""
    off = offset
    out = []
    for s, (start, step) in zip(strides, starts_steps):
        off += start * s
        out.append(s * step)
    return tuple(out), off


_RESHAPES: dict = {}     # (shape, strides, newshape) -> fold_reshape's answer


def fold_reshape(shape, strides, newshape):
    """New strides for a C-order reshape without copying, or None (NumPy's algorithm).
    Loops reshape the same layouts again and again: answers are remembered."""
    key = (shape, strides, newshape)
    try:
        return _RESHAPES[key]
    except KeyError:
        pass
    except TypeError:           # (a list, not a tuple)
        return _fold_reshape(shape, strides, newshape)
    r = _fold_reshape(shape, strides, newshape)
    if len(_RESHAPES) >= 4096:
        _RESHAPES.clear()
    _RESHAPES[key] = r
    return r


def _fold_reshape(shape, strides, newshape):
    if prod(shape) == 0 or prod(shape) == 1:
        return c_strides(newshape) if prod(shape) == 0 else tuple(0 for _ in newshape)
    old = [(d, s) for d, s in zip(shape, strides) if d != 1]
    oshape = [d for d, _ in old]
    ostr = [s for _, s in old]
    on, nn = len(oshape), len(newshape)
    nstr = [0] * nn
    oi, oj, ni, nj = 0, 1, 0, 1
    while ni < nn and oi < on:
        np_, op_ = newshape[ni], oshape[oi]
        while np_ != op_:
            if np_ < op_:
                np_ *= newshape[nj]
                nj += 1
            else:
                op_ *= oshape[oj]
                oj += 1
        for ok in range(oi, oj - 1):
            if ostr[ok] != oshape[ok + 1] * ostr[ok + 1]:
                return None
        nstr[nj - 1] = ostr[oj - 1]
        for nk in range(nj - 1, ni, -1):
            nstr[nk - 1] = nstr[nk] * newshape[nk]
        ni, nj = nj, nj + 1
        oi, oj = oj, oj + 1
    last = nstr[ni - 1] if ni >= 1 else 1
    for nk in range(ni, nn):
        nstr[nk] = last
    return tuple(nstr)


def fold(shape, strides, offset, vkind, arg, newshape):
    """Apply one view op to a strided layout: (strides, offset) or None if impossible."""
    if vkind == "broadcast":
        return fold_broadcast(shape, strides, newshape), offset
    if vkind == "permute":
        return fold_permute(strides, arg), offset
    if vkind == "slice":
        return fold_slice(strides, offset, arg)
    if vkind == "reshape":
        st = fold_reshape(shape, strides, newshape)
        return None if st is None else (st, offset)
    raise ValueError(vkind)


def compose(base_shape, strides, offset, chain):
    """Levels of a strided base read through the view chain (outermost view first)."""
    shape, st, off = tuple(base_shape), tuple(strides), offset
    inner = []
    for v in reversed(chain):
        r = fold(shape, st, off, v.op, v.arg, v.shape)
        if r is None:                 # a reshape strides cannot express: unravel level
            inner.append((shape, st, off))
            st, off = c_strides(v.shape), 0
        else:
            st, off = r
        shape = v.shape
    return [(shape, st, off)] + inner[::-1]




def normalize_slice(sl: slice, size: int):
    """(start, step, length) of a slice over an axis of `size` (Python semantics)."""
    start, stop, step = sl.indices(size)
    if step > 0:
        n = max(0, (stop - start + step - 1) // step)
    else:
        n = max(0, (start - stop - step - 1) // (-step))
    return (start if n else 0), step, n         # (an empty axis starts at 0)


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


LAST_KEYS = [(None,) * 5] * 2   # the last two keys key_layout read, with their layouts
_FIXED = frozenset((int, type(None)))


def fixed_key(key) -> bool:
    """Does `key` (of ints, slices, None and Ellipsis) select the same elements each time
    it is read?  Not where a slice bound is an object whose value may change meanwhile
    (a 0-d array): its layout is then read again, not taken from ``LAST_KEYS``."""
    for k in key if type(key) is tuple else (key,):
        if type(k) is slice and not (type(k.start) in _FIXED and type(k.stop) in _FIXED
                                     and type(k.step) in _FIXED):
            return False
    return True


def key_layout(n, key):
    """The layout (shape, strides, offset, element) that a key of ints and slices selects
    of LEAF `n` (``basic_index``), or None for any other key: ``ndarray``'s indexing hot
    path.  The last two keys' answers are kept: ``a[k] += b`` passes one key object to
    both calls, and ``a[i, j] += a[i, j - 1]`` another key between."""
    last = LAST_KEYS[0]
    if last[0] is key and last[1] is n.shape and last[2] is n.strides and \
            last[3] == n.offset and (last[4][3] or fixed_key(key)):   # (an element's
        return last[4]                          # key holds ints alone: fixed)
    prev = LAST_KEYS[1]
    if prev[0] is key and prev[1] is n.shape and prev[2] is n.strides and \
            prev[3] == n.offset and (prev[4][3] or fixed_key(key)):
        lay = prev[4]
    else:
        lay = _matrix_index(n.shape, n.strides, n.offset, key) if type(key) is tuple \
            and len(key) == 2 and len(n.shape) == 2 else False   # (a matrix's loop
        if lay is False:                                        # statement, direct)
            lay = basic_index(n.shape, n.strides, n.offset, key)
        if lay is None:
            return None
    LAST_KEYS[1] = last
    LAST_KEYS[0] = (key, n.shape, n.strides, n.offset, lay)
    return lay
