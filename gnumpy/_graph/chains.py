"""Chains of writes: a loop's writes of one buffer, waiting together as one kernel.

``realize.write`` defers a statement's write (the deferred write, ``_device.deferred``).
A write of another element of the same buffer that reads a chained element, or writes one
again, joins the chain here (``extend``): its reads of chained elements take their values
(``_substitute``), so the values read no chained memory, and ``realize.settle`` runs the
whole chain (``take``) as one kernel of one thread, one output per element
(``Backend.write_elements``).

Writes of one shape do the same where each reads the ones before lane for lane
(``extend_vectors``: NPBench deriche's ``y1[:, j] = a1 * x[:, j] + ... + b1 * y1[:, j - 1]
+ b2 * y1[:, j - 2]``): position k of every chained destination is computed by one
thread, so a value may read a chained destination at its own layout (it takes that
write's value) and memory apart from every destination, and nothing else of the buffer.
"""
from __future__ import annotations

from .ir import EW, IOTA, LEAF, SCALAR, VIEW, same_place, with_srcs
from .overlap import byte_span, interleaved


# A loop's writes of single elements (``A[i, j] += A[i, j - 1]; A[i, j] /= 9.0`` for j in
# a row: NPBench seidel_2d) chain while they wait.  A chain holds at
# most ELEMENTS_MAX elements and values of at most ELEMENT_NODES nodes (tree size).  A chain
# starts at a write apart from the one before (a loop's first element of a row) and is cut
# every ELEMENTS_MAX elements, in the same places each time the loop runs the row: a
# statement pattern compiles a full chain's kernel and one per length of the rest (at most
# ELEMENTS_MAX kernels, where rows of many lengths meet it), and launches once per
# ELEMENTS_MAX elements.
ELEMENTS_MAX = 32
ELEMENT_NODES = 512
elements = {}           # offset -> (dest, value): the chain, in write order; the last one
                        # is the deferred write (``_device.deferred[0]``)


# A chain of writes of one shape holds at most VECTORS_MAX writes, whose values hold at
# most VECTOR_NODES nodes, each counted once (the values share their chained reads, so
# their tree sizes grow as Fibonacci's numbers in deriche's two-term recurrence).  16, not
# 32: NVRTC takes ~0.4 s for a chain of 32 of deriche's writes, ~0.18 s for 16, and
# the longer chain saves ~3 % of deriche's warm call (perf-notes, session AD).
VECTORS_MAX = 16
VECTOR_NODES = 256
# A layout whose writes failed to start a chain MISSES times in a row (NPBench seidel_2d's
# row stencil reads the row before one lane over, 960 times a call) tries again only
# every RETRY-th write: a failed start walks the value (4-8 us a statement).
MISSES = 8
RETRY = 64
_misses: dict = {}          # (buffer id, shape, strides) -> failed starts in a row
_vector = [[], 0, None]     # the chain of one shape: its values' reads of its buffer
                            # from memory (LEAFs), its nodes, and its destinations'
                            # (shape, strides, itemsize, stride and length of their one
                            # axis longer than 1), or None when they have more than one


def take() -> list:
    """The chain's writes, [(dest, value)] in write order; the chain is left empty."""
    out = list(elements.values())
    elements.clear()
    return out


def extend(p, dest, value):
    """Chain the write of `value` into 0-d LEAF `dest` after deferred element write `p`
    and give the write that is to wait in p's place, (dest, value), or None when it cannot:
    possible when both are elements of one buffer and dtype, the backend writes several
    elements in one kernel (``Backend.write_elements``), every value is an elementwise
    expression of elements that reads the chained elements only as the chain's values
    (substituted here) and other memory apart from them, and the write depends on the
    chain: it reads a chained element or writes one again (then it replaces its entry).
    A write apart from the chain starts a new one: a loop's chains then take one shape
    each time (a row of 48: 32 elements, then 16), not one per phase of the loop, and each
    shape is a kernel to compile.  (The kernel loads everything before it stores, through
    pointers that may alias: a value reading an element another entry writes reads it
    first.)"""
    d = p[0]
    if dest.buf is not d.buf or dest.dtype != d.dtype:
        return None
    els = elements
    started = not els
    if started:
        if dest.offset == d.offset:
            return None                 # a fold of one element (``realize._fold``)
        be = d.device._be
        if be is None or be.write_elements is None:
            return None
        els[d.offset] = p
    elif dest.offset not in els and len(els) >= ELEMENTS_MAX:
        return None
    new = _substitute(value, d.buf, d.dtype, els, {})
    if new is None or new.size > ELEMENT_NODES or new is value and dest.offset not in els \
            or started and not _simple(p[1], d.buf, d.dtype):
        if started:
            els.clear()
        return None
    if dest.offset != d.offset:
        els.pop(dest.offset, None)      # (its value is in `new` where `value` read it)
    e = els[dest.offset] = (dest, new)
    return e


def _simple(n, buf, dtype) -> bool:
    """Is `n` an elementwise expression of elements and constants (0-d), reading `buf`
    only as single elements of `dtype`?"""
    stack = [n]
    seen = set()
    while stack:
        m = stack.pop()
        k = m.kind
        if k == SCALAR:
            continue
        if m.shape:
            return False
        if k == LEAF:
            if m.buf is buf:
                if m.dtype != dtype:
                    return False
            continue
        if k != EW:
            return False
        if id(m) not in seen:
            seen.add(id(m))
            stack.extend(m.srcs)
    return True


def _substitute(n, buf, dtype, els, memo):
    """`n` (an elementwise expression of elements) with each read of a chained element
    replaced by its chained value (`n` itself when it reads none); None for anything
    else: another node kind, or a read of `buf` other than as one element of `dtype`."""
    k = n.kind
    if k == LEAF:
        if n.buf is buf:
            if n.dtype != dtype:
                return None
            e = els.get(n.offset)
            if e is not None:
                return e[1]
        return n
    if k == SCALAR:
        return n
    if k != EW or n.shape:
        return None
    r = memo.get(id(n))
    if r is not None:
        return r
    srcs = n.srcs
    new = None
    for i, s in enumerate(srcs):
        sk = s.kind
        if sk == SCALAR:
            continue
        if sk == LEAF:
            if s.buf is not buf:
                continue
            if s.dtype != dtype:
                return None
            t = els.get(s.offset)
            if t is None:
                continue
            t = t[1]
        elif sk == EW:
            t = _substitute(s, buf, dtype, els, memo)
            if t is None:
                return None
        else:
            return None
        if t is not s:
            if new is None:
                new = list(srcs)
            new[i] = t
    r = n if new is None else with_srcs(n, tuple(new))
    memo[id(n)] = r
    return r


# ------------------------------------------------------------------ writes of one shape

def extend_vectors(p, dest, value):
    """``extend`` for writes of one shape: chain the write of lazy `value` into LEAF `dest`
    after deferred write `p` of dest's buffer, dtype, shape and strides, and give the write
    that is to wait in p's place, or None when it cannot.  It can where the backend runs
    such chains (``Backend.vector_chains``), every value is elementwise over that shape
    (views only of what reads nothing of the buffer), reads chained destinations only at
    their own layouts (their values are substituted) and the rest of the buffer apart
    from every destination (or at its own destination's place: the same lane, loaded
    before it is stored), and the write reads a chained destination or writes one again."""
    k = value.kind
    if k != EW and k != LEAF:           # (a reduction written into a row: resnet's conv)
        return None
    d = p[0]
    if dest.buf is not d.buf or dest.shape != d.shape or dest.strides != d.strides or \
            dest.dtype is not d.dtype and dest.dtype != d.dtype:
        return None
    els = elements
    started = not els
    if started:
        if dest.offset == d.offset:
            return None                 # a fold (``realize._fold``)
        miss = (id(d.buf), d.shape, d.strides)
        m = _misses.get(miss, 0)
        if m >= MISSES:
            _misses[miss] = m + 1
            if m % RETRY:
                return None
        be = d.device._be
        if be is None or not be.vector_chains or be.write_elements is None or 0 in d.shape:
            return None
        ax = sorted(((abs(st), n) for n, st in zip(d.shape, d.strides) if n > 1),
                    reverse=True) or [(1, 1)]
        _vector[:] = [], 0, (d.shape, d.strides, d.dtype.itemsize) + (
            ax[0] if len(ax) == 1 else (None, tuple(ax))) if ax[-1][0] else None
        els[d.offset] = p
    new = None
    if dest.offset in els or len(els) < VECTORS_MAX and _clear_of_dests(dest) and \
            all(same_place(r, dest) or _apart(r, dest) for r in _vector[0]):
        reads, memo = [], {}
        new = _lanes(value, dest, reads, memo)      # (first: a write that cannot join
    if started and new is not None and new is not value:    # fails here, not in p's)
        del els[d.offset]           # p's own value, read from memory as it is
        first, fmemo = [], {}
        if _lanes(p[1], d, first, fmemo) is not p[1] or \
                not all(same_place(r, dest) or _apart(r, dest) for r in first):
            new = None
        els[d.offset] = p
        _vector[0], _vector[1] = first, len(fmemo)
    if new is None or new is value and dest.offset not in els or \
            _vector[1] + len(memo) > VECTOR_NODES:
        if started:
            els.clear()
            if len(_misses) >= 4096:
                _misses.clear()
            _misses[miss] = _misses.get(miss, 0) + (m < MISSES)
        return None
    if started:
        _misses.pop(miss, None)
    _vector[0] += reads
    _vector[1] += len(memo)
    els.pop(dest.offset, None)          # (its value is in `new` where `value` read it)
    e = els[dest.offset] = (dest, new)
    return e


def _clear_of_dests(n) -> bool:
    """Does LEAF `n` of the chain's buffer touch no element of a chained destination?"""
    lay = _vector[2]
    if lay is None or n.shape != lay[0] or n.strides != lay[1] or \
            n.dtype.itemsize != lay[2]:
        return all(_apart(n, e[0]) for e in elements.values())
    s, m = lay[3], lay[4]
    o = n.offset
    if s is None:                       # (several axes)
        return not any(_meets(o - k, m) for k in elements)
    m *= s                              # (one axis: offsets q apart overlap where q is a
    for k in elements:                  # multiple of its stride within it)
        q = o - k
        if q % s == 0 and -m < q < m:
            return False
    return True


def _apart(a, b) -> bool:
    """Do LEAFs `a` and `b` of one buffer touch no common element?"""
    lay = _vector[2]
    if lay is not None and a.shape == b.shape == lay[0] and a.strides == b.strides == \
            lay[1] and a.dtype.itemsize == b.dtype.itemsize == lay[2]:
        s, m = lay[3], lay[4]           # (the chain's layout, as above)
        q = a.offset - b.offset
        if s is None:
            return not _meets(q, m)
        return q % s != 0 or not -m * s < q < m * s
    a0, a1 = byte_span(a)
    b0, b1 = byte_span(b)
    return a1 < b0 or b1 < a0 or interleaved(a, b)


def _meets(q, axes) -> bool:
    """Do two layouts of one shape and strides, their offsets `q` apart, share an element:
    is `q` a sum of k * s over `axes` ((s, n), s > 0, by s descending) with |k| < n?
    True also where the search would branch widely (it only keeps a write out of a
    chain)."""
    if not axes:
        return q == 0
    s, n = axes[0]
    rest = axes[1:]
    span = 0
    for t, m in rest:
        span += (m - 1) * t
    lo = max(-(-(q - span) // s), 1 - n)    # the k that leave q - k * s within the
    hi = min((q + span) // s, n - 1)        # inner axes' reach
    if hi - lo > 3:
        return True
    return any(_meets(q - k * s, rest) for k in range(lo, hi + 1))


def _lanes(n, dest, reads, memo):
    """`n`, an elementwise value of dest's shape, with its reads of chained destinations
    replaced by their values; None where it reads dest's buffer otherwise than as
    ``extend_vectors`` allows, or holds another kind of node.  `reads` gets its LEAFs of
    the buffer read from memory; `memo` its inner nodes (and their new nodes)."""
    k = n.kind
    if k == LEAF:
        return n if n.buf is not dest.buf else _read(n, dest, reads)
    if k == SCALAR or k == IOTA:
        return n
    return _inner(n, dest, dest.buf, dest.shape, reads, memo)


def _read(n, dest, reads):
    """``_lanes`` of LEAF `n` of dest's buffer."""
    if n.shape == dest.shape and n.strides == dest.strides and (n.dtype is dest.dtype or
                                                                n.dtype == dest.dtype):
        e = elements.get(n.offset)
        if e is not None:
            return e[1]
    if not (same_place(n, dest) or _apart(n, dest)) or not _clear_of_dests(n):
        return None
    reads.append(n)
    return n


def _inner(n, dest, buf, shape, reads, memo):
    """``_lanes`` of an inner node (the walk of a statement's value)."""
    r = memo.get(id(n))
    if r is not None:
        return r
    k = n.kind
    if k == VIEW:               # (an index map: it reads other lanes than its own)
        if _reads_buffer(n, buf):
            return None
        memo[id(n)] = n
        return n
    if k != EW or n.shape != shape:
        return None
    srcs = n.srcs
    new = None
    i = -1
    for s in srcs:
        i += 1
        sk = s.kind
        if sk == LEAF:
            if s.buf is not buf:
                continue
            t = _read(s, dest, reads)
        elif sk == EW or sk == VIEW:
            t = _inner(s, dest, buf, shape, reads, memo)
        elif sk == SCALAR or sk == IOTA:
            continue
        else:
            return None
        if t is None:
            return None
        if t is not s:
            if new is None:
                new = list(srcs)
            new[i] = t
    r = memo[id(n)] = n if new is None else with_srcs(n, tuple(new))
    return r


def _reads_buffer(n, buf) -> bool:
    """Does the graph of `n` read `buf` (or hold a node other than elementwise ops and
    views, which the chain's kernel cannot compute)?"""
    stack, seen = [n], set()
    while stack:
        m = stack.pop()
        k = m.kind
        if k == LEAF:
            if m.buf is buf:
                return True
            continue
        if k == SCALAR or k == IOTA or id(m) in seen:
            continue
        if k != EW and k != VIEW:
            return True
        seen.add(id(m))
        stack.extend(m.srcs)
    return False
