"""The pending readers of memory: every array whose value is still lazy is remembered
(weakly), and a write into existing memory first materializes those whose graphs read it
(``flush_readers``), so each keeps the values it had when it was made.  Also the arrays a
mask's count computes with it (``held_inside``)."""
from __future__ import annotations

import itertools
import weakref

from .._device import deferred as _deferred
from .._memstate import (born, forget_all, note_write, realizations, shared, shared_ids,
                         write_epoch)
from .ir import EW, IOTA, LEAF, SCALAR, VIEW, Node, leaf, reads_any
from . import chains
from .realize import chain_element, join_sequence, materialize, materialize_one
from . import sequence
from .running import lock, stats


_pending = {}        # id -> weakref of an array whose node was lazy when last set
_prune_at = [4096]


def track(arr) -> None:
    """Remember a lazy array: a later write to a buffer it reads must materialize it first.
    The entry goes last, as a new key would (a dead array's entry at a reused id is moved):
    the readers a write flushes come in the order they were made, every run of a program
    the same (one schedule, one replayed signature, not one per order)."""
    k = id(arr)
    _pending.pop(k, None)
    _pending[k] = weakref.ref(arr)
    if len(_pending) > _prune_at[0] or _SHARED:
        tracked(arr)


_SHARED = shared_ids()


def tracked(arr) -> None:
    """After lazy `arr` was tracked: prune the dead entries now and then, and compute `arr`
    now if its graph reads memory seen outside gnumpy (the other side may write it without
    asking, and NumPy's value is the one at the call)."""
    if len(_pending) > _prune_at[0]:
        _prune()
    if not _SHARED:
        return
    n = arr._node
    if n.kind != LEAF and not _SHARED.keys().isdisjoint(read_set(n)[0]) and \
            reads_any(n, _SHARED, shared):      # (a freed buffer's id may stay listed)
        materialize_one(n)


def _drop(k, r) -> None:
    """Forget entry `k` if it still holds `r`: an entry another thread set meanwhile (a
    new array at a reused id) is kept.  Pop and put back, each atomic: two live arrays
    never share an id, so what is put back is `k`'s current array or nothing."""
    v = _pending.pop(k, None)
    if v is not None and v is not r:
        _pending.setdefault(k, v)


def _prune() -> None:
    with lock:
        for k, r in list(_pending.items()):
            a = r()
            if a is None or a._node.kind == LEAF:
                _drop(k, r)
        _prune_at[0] = max(4096, 2 * len(_pending))


def _pending_arrays():
    out = []
    for k, r in list(_pending.items()):
        a = r()
        if a is None or id(a) != k:
            _drop(k, r)
        else:
            out.append(a)
    return out


def held_inside(node) -> list:
    """The lazy nodes under `node` that live base arrays hold as their values: computed in
    the same schedule as `node` (one kernel more output), a loop's state does not grow one
    graph per iteration under a value read each iteration (a mask over ``Z``).  A 0-d
    elementwise expression of memory and constants is left out: recomputing it costs a
    kernel nothing, and an output more would cost the loop (NPBench azimint_naive's
    bounds ``rmax * i / npt``) a schedule and a buffer every iteration."""
    held = {}
    for a in _pending_arrays():
        n = a._node
        if n.kind != LEAF and a._base is None:
            held[id(n)] = n
    out = []
    if not held:
        return out
    seen = set()
    stack = list(node.srcs)
    while stack:
        n = stack.pop()
        if n.kind == LEAF or id(n) in seen:
            continue
        seen.add(id(n))
        if id(n) in held and (n.shape or not _elementwise_only(n)):
            out.append(n)
        stack.extend(n.srcs)
    return out


def _elementwise_only(node, limit=16) -> bool:
    """Is lazy `node` elementwise and view work over leaves and constants alone (no
    reduction nor library call below it), within `limit` nodes?"""
    stack = [node]
    while stack:
        n = stack.pop()
        k = n.kind
        if k == LEAF or k == SCALAR or k == IOTA:
            continue
        if k != EW and k != VIEW:
            return False
        limit -= 1
        if limit < 0:
            return False
        stack.extend(n.srcs)
    return True


def read_set(node) -> tuple:
    """(ids of the buffers the graph of lazy `node` reads, the number of realizations
    when they were read), kept on the node: a write's scan of the pending arrays then
    skips, without a walk, the graphs that cannot read its buffer.  A set taken before an
    inner node was realized into buffer X lacks X, which X's realization number
    (``_memstate.born``) past the set's shows; nodes realized (or folded to constants)
    after it read less than it says, so an older set that holds the buffer is checked by
    a walk (``_reads``), while one taken since the last realization is exact.  Sets of
    inner nodes taken before (a loop's pending chain) are reused."""
    bufs = set()
    at = realizations()
    for s in node.srcs:     # an operator's node over memory and constants (a loop's
        k = s.kind          # ``A[a] * 2.0``): no walk
        if k == LEAF:
            bufs.add(id(s.buf))
        elif k != SCALAR and k != IOTA:
            bufs.clear()
            break
    else:
        m = node.rb = (bufs, at)
        return m
    seen = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if n.kind == LEAF:
            bufs.add(id(n.buf))
            continue
        i = id(n)
        if i in seen:
            continue
        seen.add(i)
        m = n.rb
        if m is not None:
            bufs |= m[0]
            if m[1] < at:
                at = m[1]
            continue
        stack.extend(n.srcs)
    m = node.rb = (bufs, at)
    return m


def _reads(node, bid, clean) -> bool:
    """``reads_any(node, {bid})``, skipping the nodes in `clean` (known to read nothing
    of the buffer) and adding to it the nodes of a graph found to read nothing of it: the
    pending arrays of a loop share most of their graphs."""
    seen = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if n.kind == LEAF:
            if id(n.buf) == bid:
                return True
            continue
        i = id(n)
        if i in seen or i in clean:
            continue
        seen.add(i)
        stack.extend(n.srcs)
    clean |= seen
    return False


def _apart(nodes):
    """`nodes` in an order where every node comes after the others of `nodes` its graph
    reads (stockham's twiddled input, then its butterfly product), when their graphs share
    no lazy node but those: each can then run alone through the launch fast path.  None
    when two of them share a lazy node (they are scheduled together, computing it once)."""
    ids = {id(n) for n in nodes}
    owner, deps = {}, []
    for k, n in enumerate(nodes):
        d, stack = set(), list(n.srcs)
        while stack:
            m = stack.pop()
            i = id(m)
            if m.kind == LEAF or i in d:
                continue
            if i in ids:
                d.add(i)
                continue
            if owner.setdefault(i, k) != k:
                return None
            d.add(i)
            stack.extend(m.srcs)
        deps.append(d & ids)
    order, done = [], set()
    while len(order) < len(nodes):
        ready = [n for n, d in zip(nodes, deps) if id(n) not in done and d <= done]
        if not ready:
            return None
        order.extend(ready)
        done.update(id(n) for n in ready)
    return order


# Marks of the last scans (a write's scan of the pending arrays, ``flush_readers``): for a
# recently written buffer, a sentinel entry in ``_pending`` (a negative key, a dead
# reference) placed before that scan took its keys, so every entry it examined comes
# before it and every entry made or moved since (by any thread: ``track`` takes no lock)
# comes after it.  The entries examined either were materialized or do not read the
# buffer, and keep not reading it while no realization writes into it (its ``born``
# number), so the next write into it examines only the entries after its sentinel (and
# those the scan had to leave: the write's own operands).  Code that drops dead entries
# drops a sentinel too; the next scan is then a full one.
_MARKS: dict = {}       # id(buffer) -> (sentinel key, born number, keys left to examine)
_MARK_KEYS = 8          # buffers marked at once (the least recently written loses its mark)
_MARK_FROM = 64         # pending entries from which a scan uses and leaves marks (below,
                        # a scan of them all costs less, and drops the dead ones: a loop's
                        # temporaries die after its write examined them)
_DEAD = weakref.ref(type("_Sentinel", (), {})())
_KEYS = itertools.count(-1, -1)


def _to_examine(bid, since) -> list:
    """Put a new sentinel for buffer `bid` last in ``_pending`` and return the keys before
    it that a scan for `bid` must examine, in ``_pending``'s order: all of them, or those
    its old mark leaves (see ``_MARKS``)."""
    key = next(_KEYS)
    _pending[key] = _DEAD       # (one insertion: what another thread adds comes after it)
    m = _MARKS.pop(bid, None)
    if m is None and len(_MARKS) >= _MARK_KEYS:
        _pending.pop(_MARKS.pop(next(iter(_MARKS)))[0], None)
    _MARKS[bid] = (key, since, ())
    if m is None:
        return list(_pending)
    old = m[0]
    if m[1] != since or _pending.get(old) is not _DEAD:
        _pending.pop(old, None)
        return list(_pending)
    new = []
    try:
        it = reversed(_pending)
        for k in it:
            if k == key:
                break
        for k in it:
            if k == old:
                break
            new.append(k)
    except RuntimeError:        # another thread made a lazy array meanwhile: a full
        new = None              # scan, of a snapshot
    _pending.pop(old, None)
    if new is None:
        return list(_pending)
    new.reverse()
    if not m[2]:
        return new
    fresh = set(new)            # (a left entry moved since is among the new ones)
    return [k for k in m[2] if k in _pending and k not in fresh] + new


def _mark(bid, left) -> None:
    """Keep the keys a scan for buffer `bid` left unexamined with its mark."""
    m = _MARKS.get(bid)
    if m is not None and left:
        _MARKS[bid] = (m[0], m[1], tuple(left))


def _unmark(bid) -> None:
    m = _MARKS.pop(bid, None)
    if m is not None:
        _pending.pop(m[0], None)


def flush_readers(buf, skip=None, also=None) -> None:
    """Materialize every pending array that reads `buf` (before `buf` is overwritten),
    except `skip` and `also` (the write's own destination and a value the write computes
    itself, whose caller takes care of it; a view's base too: the caller holds it alone).

    Views of a materialized base are folded into leaves (they keep sharing memory); other
    readers are materialized one by one when their graphs share nothing (`_apart`), else
    together in one schedule.  The arrays examined are those made or changed since the
    last write into `buf` (``_MARKS``): a loop writing one array while it keeps many lazy
    results does not scan them all at every write."""
    with lock:
        write_epoch[0] += 1             # (under the lock: every write moves it)
        note_write(buf)
        views = None            # (made at the first other live array: a loop's statement
        bid = id(buf)           # usually finds only its own value pending)
        since = born(bid)       # a read set taken before this may lack buf
        also_base = also._base if also is not None else None    # (a view's lazy base)
        pop, get = _pending.pop, _pending.get
        left = []
        big = len(_pending) > _MARK_FROM
        for k in _to_examine(bid, since) if big else list(_pending):
            r = get(k)
            if r is None or k < 0:
                continue
            arr = r()
            if arr is None or id(arr) != k or arr._node.kind == LEAF or \
                    arr._node.kind == SCALAR and not arr._node.shape:   # (a constant)
                v = pop(k, None)                # (_drop, inlined)
                if v is not None and v is not r:
                    _pending.setdefault(k, v)
                continue
            if arr is skip or arr is also or arr is also_base:
                left.append(k)
                continue
            if views is None:
                views, others = [], []
                clean = set()   # nodes whose graphs read nothing of buf (walked once)
                now = realizations()
            n = arr._node
            m = n.rb or read_set(n)
            if bid in m[0]:     # a set taken since the last realization is exact; an
                if m[1] != now and not _reads(n, bid, clean):   # older one may hold
                    continue                    # memory its graph no longer reads
            elif m[1] >= since or not _reads(n, bid, clean):
                continue
            (views if arr._base is not None else others).append(arr)
        if big:
            _mark(bid, left)
        if views is None:
            return
        try:
            _flush(bid, views, others, clean)
        except BaseException:
            _unmark(bid)        # (readers may be left: the next scan is a full one)
            raise


def _flush(bid, views, others, clean) -> None:
    """Materialize the readers `others` and bind the pending views `views` of memory
    `bid` (``flush_readers``)."""
    if others:
        nodes = [a._node for a in others]
        order = _apart(nodes) if len(nodes) > 1 else nodes
        if order is None:
            materialize(nodes)
        else:       # each alone, through the launch fast path; one that read buf
            for k, n in enumerate(order):   # only through readers computed before
                if k and not _reads(n, bid, clean):     # it stays lazy (stockham's
                    continue                            # product of its twiddled input)
                if not n.shape and defer_reader(n):     # (computed in the sequence)
                    continue
                materialize([n])
            others = [a for a in others if a._node.kind == LEAF]
    for a in views:
        a._leaf()
    for a in views + others:
        _drop(id(a), _pending.get(id(a)))


def write_element_alone(dest, value, vn) -> bool:
    """A loop's element statement, ``a[i, j] op= <0-d expression>`` with `value` (node
    `vn`) its temporary: when a chain of element writes grows, or the backend writes
    elements at once (the CPU's) and no write is deferred, and `value` is the only
    pending reader among a few (the others dead or in memory), no reader needs
    flushing, and the write joins the chain or runs now (``realize.chain_element``)
    with the flush's bookkeeping.  False: take ``flush_readers`` and ``realize.write``.
    Under the lock."""
    if not chains.elements:     # (no chain grows: the general path starts one, or not)
        be = dest.device._be
        if be is None or not be.writes_elements or _deferred[0] is not None or \
                len(_pending) > _MARK_FROM:
            return False
    vid = id(value)
    for k, r in list(_pending.items()):
        if k == vid:
            continue
        a = r()
        if a is not None and id(a) == k and a._node.kind != LEAF and \
                (a._node.kind != SCALAR or a._node.shape):
            return False        # (dead entries and arrays in memory are no readers: a
                                # reused id or the next scan drops them)
    if not chain_element(dest, vn):
        return False
    write_epoch[0] += 1
    note_write(dest.buf)
    return True


def flush_readers_of(bufs: dict) -> None:
    """Materialize every pending array that reads one of `bufs` ({id: buffer}), before
    they are all overwritten at once (a CUDA graph replay)."""
    with lock:
        forget_all()        # (the captured work may write memory outside `bufs`)
        readers = [a for a in _pending_arrays()
                   if a._node.kind != LEAF and reads_any(a._node, bufs)]
        if readers:
            materialize([a._node for a in readers])
            for a in readers:
                if a._base is not None:
                    a._leaf()


def defer_reader(node) -> bool:
    """Compute lazy 0-d `node`, a pending reader of memory a write is about to change
    (``_flush``) or a scalar chain past its bound (``bounds.bounded``), into an element
    of its own as a write that waits in the sequence after the deferred write
    (``sequence.join``), instead of launching it now: durbin's ``alpha`` (a sum over the
    vector the next statement rewrites) and ``beta`` then run in the sequence with the
    writes around them.  The node is realized at once into that element, whose value
    lands when the sequence runs (anything that reads it settles first).  False, with
    nothing done, where the deferred write is not one a sequence takes."""
    with lock:
        p = _deferred[0]
        if p is None or node.shape or node.kind == LEAF or chains.elements:
            return False
        ps = p[0].shape
        if ps and (len(ps) != 1 or ps[0] > sequence.VECTOR_MAX) or \
                node.device is not p[0].device:
            return False
        be = p[0].device._be
        if be is None or be.sequences is None:
            return False
        expr = Node(node.kind, node.op, node.dtype, (), node.srcs, node.arg, node.device,
                    node.size)      # (node itself becomes the element)
        buf = be.pool.alloc(node.dtype.itemsize)
        dest = leaf(buf, node.dtype, (), (), 0, node.device)
        if not join_sequence(p, dest, expr):
            return False
        _deferred[0] = (dest, expr)         # ([1], the function that runs it, stays)
        stats.materializations += 1
        node.realize(buf, (), 0)
        return True
