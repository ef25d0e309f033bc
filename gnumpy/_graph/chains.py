"""Element chains: a loop's writes of single elements of one buffer, waiting together.

``realize.write`` defers a statement's write (the deferred write, ``_device.deferred``).
A write of another element of the same buffer that reads a chained element, or writes one
again, joins the chain here (``extend``): its reads of chained elements take their values
(``_substitute``), so the values read no chained memory, and ``realize.settle`` runs the
whole chain (``take``) as one kernel of one thread, one output per element
(``Backend.write_elements``).
"""
from __future__ import annotations

from .ir import EW, LEAF, SCALAR, with_srcs


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
    if dest.buf is not d.buf or dest.dtype is not d.dtype and dest.dtype != d.dtype:
        return None
    els = elements
    started = not els
    if started:
        if dest.offset == d.offset:
            return None                 # a fold of one element (``overlap.fold_write``)
        be = d.device._be
        if be is None or be.write_elements is None:
            return None
        els[d.offset] = p
    elif dest.offset not in els and len(els) >= ELEMENTS_MAX:
        return None
    try:
        new = _substitute(value, d.buf, d.dtype, els, None)
    except BaseException:       # (a value too deep to walk, an interrupt): a chain just
        if started:             # started holds p unchecked (``_simple``); it ends here,
            els.clear()         # and p stays the deferred write
        raise
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
    else: another node kind, or a read of `buf` other than as one element of `dtype`.
    `memo` (id -> result) is made at the first inner node met (None before: a loop's
    statement reads elements and constants alone)."""
    k = n.kind
    if k == LEAF:
        if n.buf is buf:
            if n.dtype is not dtype and n.dtype != dtype:
                return None
            e = els.get(n.offset)
            if e is not None:
                return e[1]
        return n
    if k == SCALAR:
        return n
    if k != EW or n.shape:
        return None
    if memo is not None:
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
            if s.dtype is not dtype and s.dtype != dtype:
                return None
            t = els.get(s.offset)
            if t is None:
                continue
            t = t[1]
        elif sk == EW:
            if memo is None:
                memo = {}
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
    if memo is not None:
        memo[id(n)] = r
    return r
