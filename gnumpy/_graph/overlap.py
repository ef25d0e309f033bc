"""Where a write's value reads the memory it writes: the bytes a layout touches, layouts
of one buffer that touch disjoint elements, and a deferred write's value put in place of
its destination's reads (``fold_write``: ``x[k] = e`` then ``x[k] = f(x[k])`` is
``x[k] = f(e)``)."""
from __future__ import annotations

from .._config import config
from . import layout as L
from .ir import BARRIER, EW, IOTA, LEAF, SCALAR, same_place, with_srcs


def byte_span(n) -> tuple:
    """(first, last) byte of LEAF `n`'s buffer that its layout touches."""
    a, b = L.span(n.shape, n.strides, n.offset)
    it = n.dtype.itemsize
    return a * it, b * it + it - 1


def interleaved(n, dest) -> bool:
    """Do LEAFs `n` and `dest` (one buffer, overlapping spans) touch disjoint elements of
    one stride, like two columns of a matrix?  Only the case of one axis longer than 1 in
    both, with the same stride and itemsize, is decided; anything else answers False."""
    it = n.dtype.itemsize
    if dest.dtype.itemsize != it:
        return False
    ax = [(d, s) for d, s in zip(n.shape, n.strides) if d > 1]
    bx = [(d, s) for d, s in zip(dest.shape, dest.strides) if d > 1]
    if len(ax) != 1 or len(bx) != 1 or ax[0][1] != bx[0][1] or ax[0][1] == 0:
        return False
    s = abs(ax[0][1])
    return (n.offset - dest.offset) % s != 0


class Overlap(Exception):
    pass


def fold_update(value, d, v):
    """``substitute(value, d, v)`` for an elementwise `value` reading d's memory only as d
    (``x op= y``, ``x[...] = y``) or, d an element, as other elements beside it; its other
    sources checked in one loop; else None."""
    if value.kind != EW:
        return None
    new = list(value.srcs)
    db, hit = d.buf, False
    for i, s in enumerate(value.srcs):
        k = s.kind
        if k == LEAF:
            if s.buf is db:
                if not same_place(s, d):
                    if s.shape or d.shape or s.offset == d.offset or \
                            s.dtype.itemsize != d.dtype.itemsize:
                        return None
                    continue        # another element (``a[i, j] /= a[j, j]``): apart
                new[i] = v
                hit = True
            continue
        if k == SCALAR or k == IOTA:
            continue
        stack = [s]
        while stack:
            n = stack.pop()
            k = n.kind
            if k == LEAF:
                if n.buf is db:
                    return None
            elif k == BARRIER:
                return None
            elif k != SCALAR:
                stack += n.srcs
    return with_srcs(value, tuple(new)) if hit else value


def substitute(n, d, v, memo):
    """`n` with every LEAF at d's layout replaced by `v` (new nodes along the way; shared
    ones untouched); Overlap when it reads d's memory otherwise, or holds a barrier."""
    k = n.kind
    if k == LEAF:
        if n.buf is d.buf:
            if same_place(n, d):
                return v
            a, b = byte_span(n)
            lo, hi = byte_span(d)
            if a <= hi and lo <= b and not interleaved(n, d):
                raise Overlap
        return n
    if k == SCALAR or k == IOTA:
        return n
    if k == BARRIER:
        raise Overlap
    r = memo.get(id(n))
    if r is None:
        srcs = n.srcs
        new = None
        db = d.buf
        for i, s in enumerate(srcs):
            sk = s.kind
            if sk == SCALAR or sk == LEAF and s.buf is not db:
                continue
            t = substitute(s, d, v, memo)
            if t is not s:
                if new is None:
                    new = list(srcs)
                new[i] = t
        r = n if new is None else with_srcs(n, tuple(new))
        memo[id(n)] = r
    return r


def fold_write(p, dest, value):
    """Deferred write `p`, ``(d, v)``, folded into the write of `value` into `dest`: the
    value that writes both, ``value`` with `v` in place of its reads of d, or None where
    they do not fold.  They fold when dest is d, element for element, and `value` reads
    that memory only there or apart from it (``realize.write``: ``x[k] = e`` then ``x[k]
    = f(x[k])`` is ``x[k] = f(e)``), within the backend's graph size."""
    d, v = p
    if not same_place(dest, d):
        return None
    cap = getattr(d.device._be, "fold_nodes", None)     # (not backend(): it settles)
    if cap is None:
        cap = config.max_graph_nodes
    if value.size > cap:        # (the substitution only grows it)
        return None
    new = fold_update(value, d, v)
    if new is None:
        try:
            new = substitute(value, d, v, {})
        except Overlap:
            return None
    return new if new.size <= cap else None
