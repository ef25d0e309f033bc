"""Materialization: schedule lazy nodes into groups and run them on their backends.

``materialize(nodes)`` is the single entry point every materialization point goes through
(host conversion, printing, DLPack export, non-fusible ops, aliasing writes, explicit
``gnumpy.evaluate`` and the graph-size bound).  ``stats`` counts the groups that ran, which
tests use to check fusion.
"""
from __future__ import annotations

from threading import get_ident

import numpy as np

from .._config import config
from ..backends import barriers
from .. import _device
from .._memstate import shared, shared_ids
from .._device import backend
from . import chains, pairs, sequence
from . import layout as L
from .fuse import Group, library_group, schedule, writes_into
from .overlap import byte_span, fold_write, interleaved
from .forms import product_form
from .ir import BARRIER, EW, LEAF, REDUCE, crossed, reads_any, same_place
from .ir import barrier as ir_barrier, copy as ir_copy
from .ranges import group_name, label, node_name, span
from .running import lock, stats

_SHARED = shared_ids()  # the shared-memory dict itself: empty, it answers the hot path
_VMAX = sequence.VECTOR_MAX


def materialize(nodes) -> None:
    """Realize every lazy node in `nodes` (each becomes a LEAF holding a buffer)."""
    with lock:
        if _deferred[0] is not None:    # (gnumpy.evaluate of arrays whose memory the
            settle()                    # deferred write changes runs it too)
        todo = [n for n in nodes if n.kind != LEAF]
        if not todo:
            return
        if len(todo) == 1:
            materialize_one(todo[0])
            return
        stats.materializations += 1
        dev = todo[0].device
        fast = backend_here(dev).fast   # several roots met before as one group: replayed
        if config.nvtx or [n for n in todo if n.device is not dev]:   # without a schedule
            fast = None                                             # (``FastPath.roots``)
        elif fast is not None:
            kind = fast.roots(todo)
            if kind:
                _count(kind)
                return
            if fast.ran:                # groups a program's build ran before it gave up
                _count(fast.ran)
                fast.ran = ()
        groups = schedule(todo)
        if fast is not None and len(groups) == 1 and groups[0].outputs == todo:
            fast.one_group(todo)
        paired = None       # two library calls in a row, each on memory: maybe one pass
        for g, h in zip(groups, groups[1:] + [None]):
            if g is paired:
                continue
            if h is not None and g.kind == h.kind == "barrier" and \
                    pairs.run_pair(dev, g.barrier, h.barrier):
                _count(("barrier", "barrier"))
                paired = h
                continue
            _run(g)


def materialize_one(node, _in_range=False) -> None:
    """``materialize([node])`` for one lazy node: the backend's launch fast path first."""
    with lock:
        if node.kind != LEAF:
            _materialize_one(node, _in_range)


def _materialize_one(node, _in_range) -> None:
    if config.nvtx and not _in_range:   # profiling: the same work inside an NVTX range
        with span(node_name(node)):
            return _materialize_one(node, True)
    stats.materializations += 1
    if node.kind == BARRIER and _library_chain(node):     # library calls over memory:
        return                                              # their groups, no fast path
    be = backend_here(node.device)
    fast = be.fast if not _in_range else None     # profiling: every group gets its range
    kind = fast(node) if fast is not None else False
    if kind:
        _count(kind)
        return
    if fast is not None and fast.ran:   # stages it ran before it gave up
        _count(fast.ran)
        fast.ran = ()
    for g in schedule([node]):
        _run(g)


def _library_chain(node, limit=32) -> bool:
    """Run `node`, a library call whose operands are in memory or library calls over
    memory in turn (one call; a chain of products, ``A @ B @ C @ D``), call by call,
    operands first, without a schedule (each is a group of its own in any schedule);
    False, with nothing run, when an operand is anything else or the calls are more than
    `limit`."""
    calls, stack = [], list(node.srcs)
    while stack:
        n = stack.pop()
        k = n.kind
        if k == LEAF:
            continue
        if k != BARRIER or len(calls) >= limit:
            return False
        calls.append(n)
        stack.extend(n.srcs)
    for n in reversed(calls):   # (depth-first order, reversed: operands before users;
        if n.kind != LEAF:      # a call met twice has run at its first turn)
            _run(library_group(n))
    _run(library_group(node))
    return True


def backend_here(dev):
    """`dev`'s backend, bound to the calling thread (under the lock); the deferred write
    runs first."""
    if _deferred[0] is not None:
        settle()
    be = dev._be or backend(dev)
    if be.thread != get_ident():
        be.bind_thread()
    return be


def _count(kind) -> None:
    """Count replayed work: one kernel of `kind`, or a tuple of several kinds."""
    for k in ((kind,) if type(kind) is str else kind):
        stats.groups += 1
        stats.by_kind[k] += 1


def _run(g) -> None:
    be = backend_here(g.device)
    fast = be.fast              # a group of a larger schedule replays like a statement
    if fast is not None and g.kind != "barrier" and not config.nvtx:
        if len(g.outputs) > 1:
            kind = fast.group(g)
            if kind:
                _count(kind)
                return
            return _run_planned(be, g)
        kind = fast(g.outputs[0])
        if kind:
            _count(kind)
            return
        if fast.ran:            # it ran stages, then gave up: the rest, planned anew
            _count(fast.ran)
            fast.ran = ()
            if g.outputs[0].kind != LEAF:
                for g2 in schedule(g.outputs):
                    _run_planned(be, g2)
            return
    _run_planned(be, g)


def _run_planned(be, g) -> None:
    stats.groups += 1
    stats.by_kind[g.kind] += 1
    if config.nvtx:                     # profiling: the group inside an NVTX range
        with span(group_name(g)):
            return be.run(g)
    be.run(g)


def run_inplace(op: str, dest, srcs, arg) -> None:
    """Run in-place barrier op `op` (``index_ops``' ``scatter``/``scatter_at``) now: writes
    into LEAF `dest`, reading the LEAF nodes `srcs` (materialized; pending readers of dest
    already flushed)."""
    node = ir_barrier(op, (dest,) + tuple(srcs), arg, dest.dtype, dest.shape)
    with lock:
        be = backend_here(dest.device)
        stats.groups += 1
        stats.by_kind["barrier"] += 1
        if be.name == "cpu":
            if config.check_kernels:
                from ..kernels.check import check_group  # import gnumpy does not load it
                check_group(Group("barrier", [node], dest.device, 0, barrier=node))
            from ..backends.cpu import leaf_array    # import gnumpy loads no backend
            with np.errstate(all="ignore"):
                barriers.cpu_impl(op)([leaf_array(dest)] + [leaf_array(s) for s in srcs],
                                      arg, dest.dtype)
        else:
            barriers.cuda_impl(op)(be, node, dest.buf)


def _overlaps_unaligned(value, dest) -> bool:
    """True when `value` reads memory dest writes other than element-for-element (one
    element written, or memory apart from dest's span, cannot conflict)."""
    if L.prod(dest.shape) <= 1:
        return False
    lo, hi = byte_span(dest)
    seen = set()
    stack = [(value, True)]
    while stack:
        n, aligned = stack.pop()
        if n.kind == LEAF:
            if n.buf is dest.buf and not (aligned and n.shape == dest.shape and
                                          n.strides == dest.strides and
                                          n.offset == dest.offset):
                a, b = byte_span(n)
                if a <= hi and lo <= b and not interleaved(n, dest):
                    return True
            continue
        if n.kind == REDUCE or n.kind == BARRIER:
            continue   # realized by an earlier group, before the write
        if (id(n), aligned) in seen:
            continue
        seen.add((id(n), aligned))
        child_aligned = aligned and n.kind == EW and not crossed(n)
        stack.extend((s, child_aligned) for s in n.srcs)
    return False


def _own(value):
    """`value` materialized into memory of its own (a LEAF of other memory is copied)."""
    if value.kind == LEAF:
        value = ir_copy(value)
    materialize([value])
    return value


def write(dest, value, _in_range=False, defer=False) -> None:
    """Write lazy `value` (dest's shape and dtype) into the memory of LEAF `dest`.

    `defer` (a statement's write, ``a[k] = e`` or ``a[k] += e``): the write may wait,
    as the deferred write, until the next statement or anything else that runs work; a
    next statement writing the same memory folds it into its own value."""
    with lock:
        p = _deferred[0]
        if defer and not dest.shape and not config.nvtx:
            be = dest.device._be        # (not backend(): it settles)
            if be is not None and be.writes_elements:   # an element: written now
                if p is not None:
                    settle()
                    p = None
                if be.write_element(dest, value):
                    _count("elementwise")
                    return
        if defer and _SHARED and _reads_shared(value):
            defer = False       # the other side may change that memory before a deferred
                                # write read it: NumPy's statement reads it now
        if p is not None:
            if defer:
                e = chains.extend(p, dest, value) if not dest.shape and not p[0].shape \
                    else None
                if e is not None:
                    _deferred[0], _deferred[1] = e, settle
                    return
                if not chains.elements and dest.offset == p[0].offset and \
                        (v := fold_write(p, dest, value)) is not None:  # (another place:
                    _deferred[0], _deferred[1] = (p[0], v), settle      # no fold, no call)
                    return
                if not chains.elements and not sequence.entries and \
                        pairs.write_pair(p, dest, value):
                    _count(("barrier", "barrier"))
                    _deferred[0] = None
                    return
                sh, ps = dest.shape, p[0].shape         # (elements and short vectors)
                if not chains.elements and (not sh or len(sh) == 1 and sh[0] <= _VMAX) \
                        and (not ps or len(ps) == 1 and ps[0] <= _VMAX) and \
                        join_sequence(p, dest, value):
                    _deferred[0], _deferred[1] = (dest, value), settle
                    return
            settle()
        if defer and _in_range is False and value.kind != LEAF and not config.nvtx and \
                not capturing[0] and not (_SHARED and shared(dest.buf)):
            _deferred[0], _deferred[1] = (dest, value), settle
            return
        _write(dest, value, _in_range)


def chain_element(dest, value) -> bool:
    """``write(dest, value, defer=True)`` of lazy 0-d `value` into element `dest` where it
    joins the waiting element chain (``chains.extend``) or, on a backend that writes
    elements at once (the CPU's) with no write deferred, is written now, as ``write``
    writes it; under the lock.  False where ``write`` would do anything else (no chain
    waits, or it cannot take this write)."""
    p = _deferred[0]
    if config.nvtx or capturing[0] or _SHARED and _reads_shared(value):
        return False
    be = dest.device._be
    if be is None:
        return False
    if be.writes_elements:
        if p is not None or not be.write_element(dest, value):
            return False
        _count("elementwise")
        return True
    if p is None or p[0].shape:
        return False
    e = chains.extend(p, dest, value)
    if e is None:
        return False
    _deferred[0], _deferred[1] = e, settle
    return True


def _reads_shared(value) -> bool:
    """Does lazy `value` read memory visible outside gnumpy (a freed buffer's id aside)?"""
    return bool(_SHARED) and reads_any(value, _SHARED, shared)


# ------------------------------------------------------------------ the deferred write

_deferred = _device.deferred
capturing = [0]         # CUDA graph captures in progress: writes run at once


def settle() -> None:
    """Run the deferred write now (with the element writes chained before it).  Out of
    memory, it waits again: the MemoryError reaches the caller, and the write runs once
    memory is freed (the statement that made it had returned; its write is not lost)."""
    if _deferred[0] is None:
        return
    with lock:
        p = _deferred[0]
        if p is not None:
            _deferred[0] = None
            entries = chains.take() if chains.elements else ()
            try:
                if sequence.entries and run_sequence(p, not entries):
                    return
                if len(entries) > 1:
                    return _write_elements(entries)
                _write(p[0], p[1], False)
            except MemoryError:
                if _deferred[0] is None:
                    for d, v in entries:
                        chains.elements[d.offset] = (d, v)
                    _deferred[0], _deferred[1] = p, settle
                raise


def join_sequence(p, dest, value) -> bool:
    """Deferred write `p` waits in the sequence (``sequence.join``), the write of `value`
    into `dest` after it (the caller makes that the deferred write); a sequence with no
    room left for p runs first, and p starts the next one.  (No sequence under a CUDA
    graph capture: nothing waits then.)"""
    be = p[0].device._be            # (not backend(): it settles)
    seq = be.sequences if be is not None else None
    if seq is None or config.nvtx:
        return False
    if be.thread != get_ident():    # (a library call may run: ``sequence.join``)
        be.bind_thread()
    r = sequence.join(p, dest, value, seq, _library_sources)
    if r is None:                   # no room: the entries run, p waits alone
        run_sequence(p, False)
        r = sequence.join(p, dest, value, seq, _library_sources)
    return bool(r)


def run_sequence(p, with_p) -> bool:
    """Run the sequence's entries in one launch, and deferred write `p` in it when
    `with_p` (no element chain ends with it) and it fits: True when p ran.  Out of
    memory, the entries wait again (``settle``)."""
    be = p[0].device._be
    if be.thread != get_ident():
        be.bind_thread()
    seq = be.sequences
    encs, pe, kept = sequence.take(p, seq if with_p else None)
    if pe is not None:
        encs.append(pe)
    try:
        seq.run(encs)
    except MemoryError:
        sequence.restore(kept)
        raise
    _count("sequence")
    return pe is not None


def _write_elements(entries) -> None:
    """Run a chain of element writes, [(dest, value)], as one kernel."""
    be = backend_here(entries[0][0].device)
    be.write_elements([d for d, _ in entries], [v for _, v in entries])
    _count("elementwise")


def _product_write(be, dest, value) -> bool:
    """``dest[...] = a @ b``, ``a @ b + dest`` or ``+ beta * dest`` (beta a finite nonzero
    constant; the product's operands apart from dest's memory): the library call writes
    dest itself, with beta (NPBench's gemm, ``C[:] = alpha * A @ B + beta * C``: no
    temporary, no elementwise pass; correlation's ``corr[i + 1:, i] = x @ Y``: no
    temporary, no copy).  False when the value has another form or the backend cannot
    (``Backend.product_into``)."""
    f = product_form(dest, value)
    if f is None or reads_any(f[0], {id(dest.buf)}):
        return False
    p, beta = f
    todo = [s for s in p.srcs if s.kind != LEAF]
    if todo:                # (asked before the operands are computed for nothing)
        if not be.product_into(dest, p, beta, True):
            return False
        materialize(todo)
    if not be.product_into(dest, p, beta):  # (False before any work: the caller writes
        return False                        # through a temporary)
    _count("barrier")
    return True


def _library_sources(value, entries=None) -> bool:
    """Run the library calls among `value`'s sources (or `value`, one itself) whose
    operands are in memory (``y[:] = A @ x / c``, ``vals @ x[cols]``): each is one call
    whatever else is pending, and the rest of the value replays as one kernel or joins a
    sequence (`entries`: its writes, not run yet; then only calls apart from the memory
    they change run, the deferred write left waiting).  True when one ran."""
    ran = False
    for s in value.srcs if value.kind != BARRIER else (value,):
        if s.kind == BARRIER and (g := library_group(s)) is not None:
            if entries is None:
                _run(g)
            elif any(t.buf is d.buf for d, _, _ in entries for t in s.srcs):
                continue
            else:
                _run_planned(s.device._be, g)       # (not backend(): it settles)
            ran = True
    return ran


def _write(dest, value, _in_range) -> None:
    src = value.srcs[0] if value.kind == EW and value.op == "astype" else value
    if src.kind == LEAF and same_place(src, dest) and value.dtype == dest.dtype:
        return      # the memory already holds it (a[k] += b on a view; a[i, j] = a[i, j],
                    # a copy of the element itself, from max(a[i, j], b) in a loop)
    if config.nvtx and not _in_range:   # profiling: the write inside an NVTX range
        with span(label("write", [value])):
            return _write(dest, value, True)
    be = backend_here(dest.device)
    if (value.kind == BARRIER or value.kind == EW and value.op == "add" and
            (value.srcs[0].kind == BARRIER or value.srcs[1].kind == BARRIER)) and \
            be.product_into is not None and not _in_range and _product_write(be, dest, value):
        return
    if value.kind == LEAF and value.dtype == dest.dtype and value.shape == dest.shape \
            and be.copy_leaf(dest, value):
        _count("copy")
        return
    fast = None if _in_range else be.fast
    if fast is not None:            # replayed: one kernel of a known signature
        v = value.srcs[0] if value.kind == REDUCE else value     # (a sum of a product
        if v.kind == EW:                                # with a gather: spmv's ``y[i] =
            for s in v.srcs:                            # vals @ x[cols]``)
                if s.kind == BARRIER:
                    _library_sources(v)
                    break
        r = fast.write(dest, value, _overlaps_unaligned)
        if r == 2:                  # the value reads the memory it overwrites: first
            value = _own(value)     # its own buffer, then a copy (replayed too)
            r = fast.write(dest, value, None)
        if r:                       # 1: one kernel; a tuple: the kinds of several
            _count(("copy" if value.kind == LEAF else "elementwise") if r == 1 else r)
            return
        if fast.ran:                # stages it ran before it gave up
            _count(fast.ran)
            fast.ran = ()
    if be.name != "cpu" and _overlaps_unaligned(value, dest):
        value = _own(value)     # (the CPU backend computes the whole value before it
                                # assigns, and NumPy's assignment copies overlapping memory)
    groups = schedule([value]) if value.kind != LEAF else []
    last = groups[-1] if groups else None
    for g in groups[:-1]:
        _run(g)
    if fast is not None and len(groups) > 1:    # what is left may replay now
        r = fast.write(dest, value, None)       # (an overlap was resolved above)
        if r:
            _count("elementwise" if r == 1 else r)
            return
        if fast.ran:                            # it ran stages, then gave up
            _count(fast.ran)
            fast.ran = ()
            groups = schedule([value]) if value.kind != LEAF else []
            for g in groups[:-1]:
                _run(g)
            last = groups[-1] if groups else None
    fused = last is not None and writes_into(last, value, dest)
    if last is not None and not fused:
        _run(last)
    stats.groups += 1
    stats.by_kind[last.kind if fused else "copy"] += 1
    be.write(dest, value, last if fused else None)
