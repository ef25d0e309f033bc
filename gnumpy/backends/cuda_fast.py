"""The CUDA launch fast path: replay a materialization or a write without scheduling,
lowering or planning again.

A cheap walk of the expression (``cuda_signature.walk``; for a shape met before, the
reader generated for it, ``cuda_signature.recall``) computes its signature (structure,
dtypes, shapes, leaf layouts and buffer-identity pattern, pointer alignment; not buffer
addresses or scalar values).  The first time a signature is seen the general
path builds the kernel and an argument template (``cuda_replay.stage``, with a launcher
from ``cuda_launchers``); afterwards the template is filled with the new buffers and
scalars and launched.  An expression of a few groups replays as stages
(``cuda_replay.Stages``: a reduction, then the kernels reading it).
"""
from __future__ import annotations

import threading

from .._config import config
from .._graph import layout as L
from .._graph.fuse import Group, schedule, writes_into
from .._graph.ir import LEAF
from ..kernels import render_ew
from . import cuda_program
from .cuda_replay import STATIC as _STATIC, Replay, Slot as _Slot, Stages, stage as _stage
from .cuda_signature import layout_id, recall as _recall, roots_hint


_MAX_SIGNATURES = 8192     # replays kept per device; a program of more shapes starts over


class FastPath:
    def __init__(self, backend) -> None:
        self.be = backend
        self.cache = {}
        self.copied = {}    # writes whose value reads dest's memory: see _overlapping
        self.generation = config._generation
        self.ran = ()       # the kinds a build launched before it gave up (realize counts them)
        self.grouped = set()    # hints of roots scheduled as one group of them (``roots``)

    def __call__(self, root):
        """Run `root` (a lazy node) as one replayed kernel and return the kind of its group
        ('elementwise', 'reduce', 'rows'); False to take the general path."""
        sig, leaves, scalars, ok = _recall(root)
        if not ok:          # a library call in it
            return config.fast_programs and cuda_program.run(self, root)
        if self.generation != config._generation:   # options changed: plans may differ
            self._options_changed()
        rp = self.cache.get(sig)
        if type(rp) is dict:        # offsets baked into the kernel's arguments
            offs = tuple([n.offset for n in leaves])
            by, rp = rp, rp.get(offs)
            if rp is None:
                if len(by) >= _MAX_SIGNATURES:
                    by.clear()
                rp = by[offs] = self._build(root, leaves, scalars, False)
                return rp is not False and rp.kind
        if rp is None:
            if len(self.cache) >= _MAX_SIGNATURES:
                self.cache.clear()
            rp = self._build(root, leaves, scalars)     # runs it when it can
            if rp is _STATIC:
                self.cache[sig] = {}
                return self(root)
            if rp is False and config.fast_stages > 1:
                rp = self._build_stages(root, leaves, scalars)
            self.cache[sig] = rp
            return rp is not False and rp.kind
        if rp is False:
            return False
        if type(rp) is Stages:
            self._replay_stages(rp, root, leaves, scalars)
        elif rp.split or rp.launch is None:
            self._replay(rp, root, leaves, scalars)
        else:                   # the common case, inlined (each call level costs ~0.1 us)
            out = self.be.pool.alloc(rp.outs[0])
            with rp.lock:       # one parameter block per signature
                rp.launch(leaves, scalars, out, None, None)
            root.realize(out, rp.strides, 0)
        return rp.kind

    def _options_changed(self) -> None:
        self.cache.clear()
        self.copied.clear()
        self.generation = config._generation

    def group(self, g):
        """Run scheduled group `g` of several outputs (sibling elementwise roots, a
        reduction with its epilogue) as one replayed kernel writing a fresh buffer per
        output; its kind, or False to plan it."""
        outs = g.outputs
        sig, leaves, scalars, ok = _recall(None, outs)
        if not ok:
            return False
        if self.generation != config._generation:
            self._options_changed()
        key = (len(outs), sig)
        st = self.cache.get(key)
        if st is None:
            if len(self.cache) >= _MAX_SIGNATURES:
                self.cache.clear()
            run = self._slot_stages([g], leaves, scalars)   # runs it when it can
            self.ran = ()
            if run is None or run is _STATIC:
                self.cache[key] = False
                return False
            st, slot_of, sizes, _ = run
            st.sizes = tuple(sizes)
            st.root_slot = tuple(slot_of[id(o)] - len(leaves) for o in outs)
            st.strides = tuple(L.c_strides(o.shape) for o in outs)
            st.kind = g.kind
            st.lock = threading.Lock()
            self.cache[key] = st
            return g.kind
        if st is False:
            return False
        return self._replay_group(st, outs, leaves, scalars)

    def roots(self, nodes):
        """Run `nodes`, the lazy roots of one materialization of several
        (``realize.materialize``), without scheduling them, when a group of exactly these
        roots (by signature, in this order) was replayed before: ``group`` keeps it under
        the same key.  A graph of that signature computes the same values from the same
        memory whatever its schedule, so the group's kernel computes them; a schedule of
        several groups realized inner nodes first, and its groups' signatures hold those
        as memory, never matching its roots'.  Only roots of a hint a schedule made one
        such group of before (``one_group``) are walked here; others replay as a program
        (``cuda_program``).  Its kind, or False to schedule them."""
        h = roots_hint(nodes)
        if h not in self.grouped:       # a schedule of several groups: a program
            return config.fast_programs and cuda_program.run(self, None, nodes)
        sig, leaves, scalars, ok = _recall(None, nodes)
        if not ok:
            return False
        if self.generation != config._generation:
            self._options_changed()
        st = self.cache.get((len(nodes), sig))
        if st is None:
            return False
        if st is False:                 # (a group that does not replay: its hint's roots
            self.grouped.discard(h)     # are not walked here again)
            return False
        return self._replay_group(st, nodes, leaves, scalars)

    def one_group(self, nodes) -> None:
        """Note that a schedule of lazy roots `nodes` made one group of exactly them (its
        hint: ``roots`` then walks roots of that hint)."""
        if len(self.grouped) >= _MAX_SIGNATURES:
            self.grouped.clear()
        self.grouped.add(roots_hint(nodes))

    def _replay_group(self, st, outs, leaves, scalars):
        pool = self.be.pool
        bufs = [pool.alloc(n) for n in st.sizes]
        with st.lock:                       # the stage's parameter block is shared
            self._launch(st.stages[0], leaves + [_Slot(b) for b in bufs], scalars)
        for o, i, strides in zip(outs, st.root_slot, st.strides):
            o.realize(bufs[i], strides, 0)
        return st.kind

    def write(self, dest, value, overlaps):
        """Run ``dest[...] = value`` (LEAF `dest`, lazy `value`) as replayed kernels: 1
        when done in one kernel, the kinds of its kernels when several (a tuple; a value
        with library calls in it: a program, ``cuda_program.write``), 0 to take the
        general path, 2 when `value` reads dest's memory other than element for element
        (``overlaps(value, dest)``, asked only when a leaf of `value` is in dest's
        buffer): it must be materialized first."""
        sig, leaves, scalars, ok = _recall(value)
        if not ok:          # a library call in it
            return config.fast_programs and cuda_program.write(self, dest, value,
                                                               overlaps) or 0
        if self.generation != config._generation:
            self._options_changed()
        db = dest.buf
        alias = -1                  # the first leaf in dest's buffer, and whether it is
        for i, n in enumerate(leaves):      # at dest's offset
            if n.buf is db:
                alias = 2 * i + (n.offset == dest.offset)
                break
        ds = dest.sig
        key = (sig, layout_id(dest) if ds is None else ds, alias)
        if alias >= 0 and overlaps is not None:
            r = self._overlapping(dest, value, leaves, scalars, key, overlaps)
            if r is not None:
                return r
        rp = self.cache.get(key)
        if type(rp) is dict:        # offsets baked into the kernel's arguments
            offs = (dest.offset, *[n.offset for n in leaves])
            by, rp = rp, rp.get(offs)
            if rp is None:
                if len(by) >= _MAX_SIGNATURES:
                    by.clear()
                rp = by[offs] = self._build_write(dest, value, leaves, scalars, False)
                return _done(rp)
        if rp is None:
            if len(self.cache) >= _MAX_SIGNATURES:
                self.cache.clear()
            rp = self._build_write(dest, value, leaves, scalars)
            if rp is _STATIC:
                self.cache[key] = {}
                return self.write(dest, value, None)
            self.cache[key] = rp
            return _done(rp)
        if rp is False:
            return 0
        if type(rp) is Stages:
            self._replay_write_stages(rp, dest, leaves, scalars)
            return rp.kind
        elif rp.launch is None:
            self._launch(rp, leaves, scalars, dest)
        else:
            with rp.lock:           # one parameter block per signature
                rp.launch(leaves, scalars, dest, None, None)
        return 1

    def write_elements(self, dests, values) -> bool:
        """Run ``Backend.write_elements`` as one replayed kernel (its template reads the
        k-th output's pointer from ``dests[k]``, placed after the leaves); False to plan
        it."""
        sig, leaves, scalars, ok = _recall(None, values)
        if not ok:
            return False
        if self.generation != config._generation:
            self._options_changed()
        key = ("elements", sig, tuple(layout_id(d) if d.sig is None else d.sig
                                      for d in dests))
        rp = self.cache.get(key)
        L_ext = leaves + dests
        if rp is None:
            if len(self.cache) >= _MAX_SIGNATURES:
                self.cache.clear()
            leaf_index = {id(n): i for i, n in enumerate(leaves)}
            scalar_index = {id(n): i for i, n in enumerate(scalars)}
            out_at = {id(d): i for i, d in enumerate(dests, len(leaves))}
            rp = _stage(self.be, Group("elementwise", list(values), dests[0].device, 0),
                        self.be._ptr_of({}), lambda n: leaf_index.get(id(n)),
                        lambda n: scalar_index.get(id(n)), False, list(dests),
                        out_index=lambda n: out_at.get(id(n)))
            if rp is None or rp is _STATIC:
                rp = False
            else:
                rp.lock = threading.Lock()
            self.cache[key] = rp
            if rp is False:
                return False
        elif rp is False:
            return False
        with rp.lock:               # one parameter block per signature
            self._launch(rp, L_ext, scalars)
        return True

    def _overlapping(self, dest, value, leaves, scalars, key, overlaps):
        """``dest[...] = value`` where `value` reads dest's buffer: None when it reads it
        element for element (the one-kernel replay goes on), else the kinds of a replay
        that computes the value into a slot, then copies it into dest (NumPy's temporary),
        or 2 when that cannot replay.  Whether the reads overlap follows from the key and
        the offsets of those reads relative to dest's, so it is asked once per pattern:
        a stencil row ``A[i, 1:-1] += A[i, 2:] + ...`` replays at every i."""
        db, o = dest.buf, dest.offset
        okey = (key, tuple([n.offset - o for n in leaves if n.buf is db]))
        st = self.copied.get(okey)
        if st is None:
            if len(self.copied) >= _MAX_SIGNATURES:
                self.copied.clear()
            if not overlaps(value, dest):
                st = self.copied[okey] = _APART
                return None
            groups = schedule([value])
            st = self._build_synced(dest, value, leaves, scalars, groups)
            if st is None:
                st = self._build_write_stages(dest, value, leaves, scalars, groups,
                                              copy=True)
                if st is _STATIC:
                    st = False
            self.copied[okey] = st
            return 2 if st is False else 1 if type(st) is Replay else st.kind
        if st is _APART:
            return None
        if st is False:
            return 2
        if type(st) is Replay:
            with st.lock:
                self._launch(st, leaves, scalars, dest)
            return 1
        self._replay_write_stages(st, dest, leaves, scalars)
        return st.kind

    def _build_synced(self, dest, value, leaves, scalars, groups):
        """The one-block kernel (``render_ew.SYNC_MAX``) of a write whose value reads dest's
        memory, run once: its Replay, or None when the write is larger or takes more than
        one elementwise group."""
        if len(groups) != 1 or groups[0].kind != "elementwise" or \
                groups[0].outputs != [value] or L.prod(dest.shape) > render_ew.SYNC_MAX:
            return None
        rp = self._write_replay(groups[0], dest, leaves, scalars, sync=True)
        return None if rp is _STATIC else rp

    def _write_replay(self, g, dest, leaves, scalars, dynamic=True, sync=False):
        """The Replay of elementwise group `g` writing into `dest`, run once; None or
        _STATIC (``_stage``'s answers) when it cannot replay."""
        leaf_index = {id(n): i for i, n in enumerate(leaves)}
        scalar_index = {id(n): i for i, n in enumerate(scalars)}
        rp = _stage(self.be, g, self.be._ptr_of({}), lambda n: leaf_index.get(id(n)),
                    lambda n: scalar_index.get(id(n)), True, dest, dynamic, sync=sync)
        if rp is None or rp is _STATIC:
            return rp
        rp.lock = threading.Lock()
        self._launch(rp, leaves, scalars, dest)
        return rp

    def _build_write(self, dest, value, leaves, scalars, dynamic=True):
        groups = schedule([value]) if value.kind != LEAF else \
            [Group("elementwise", [value], value.device, 0)]     # a copy
        if len(groups) != 1 or groups[0].kind != "elementwise" or \
                groups[0].outputs != [value]:   # (at most config.fast_stages kernels)
            return self._build_write_stages(dest, value, leaves, scalars, groups,
                                            dynamic=dynamic)
        rp = self._write_replay(groups[0], dest, leaves, scalars, dynamic)
        return False if rp is None else rp

    def _build(self, root, leaves, scalars, dynamic=True):
        groups = schedule([root])
        if len(groups) != 1 or groups[0].kind == "barrier" or groups[0].outputs != [root]:
            return False
        g = groups[0]
        be = self.be
        outs = {id(root): be.pool.alloc(L.prod(root.shape) * root.dtype.itemsize)}
        ptr_of = be._ptr_of(outs)
        leaf_index = {id(n): i for i, n in enumerate(leaves)}
        scalar_index = {id(n): i for i, n in enumerate(scalars)}
        rp = _stage(be, g, ptr_of, lambda n: leaf_index.get(id(n)),
                    lambda n: scalar_index.get(id(n)), True, None, dynamic)
        if rp is None or rp is _STATIC:
            return rp if rp is _STATIC else False
        rp.outs = (root.dtype.itemsize * L.prod(root.shape),)
        rp.strides = L.c_strides(root.shape)
        rp.lock = threading.Lock()
        self._replay(rp, root, leaves, scalars, outs[id(root)])
        return rp

    def _replay(self, rp, root, leaves, scalars, out=None) -> None:
        if out is None:
            out = self.be.pool.alloc(rp.outs[0])
        with rp.lock:                       # one parameter block per signature
            self._launch(rp, leaves, scalars, out)
        root.realize(out, rp.strides, 0)

    # ---------------------------------------------------------------- several kernels
    def _build_stages(self, root, leaves, scalars):
        """Like `_build` for an expression of a few groups (a reduction and the
        elementwise pass reading it: standardization): each group's kernel and argument
        template are kept; the buffers between them are slots allocated per call."""
        groups = schedule([root])
        if not 1 < len(groups) <= config.fast_stages or \
                any(g.kind == "barrier" for g in groups) or groups[-1].outputs != [root]:
            return False
        run = self._slot_stages(groups, leaves, scalars)
        if run is None or run is _STATIC:
            return False
        st, slot_of, sizes, _ = run
        st.sizes = tuple(sizes)
        st.root_slot = slot_of[id(root)] - len(leaves)
        st.kind = tuple(g.kind for g in groups)
        st.strides = L.c_strides(root.shape)
        st.lock = threading.Lock()
        self.ran = ()
        return st

    def _slot_stages(self, groups, leaves, scalars, run=None, dynamic=True):
        """Stage and run `groups` as the general path would, each output into a slot
        buffer that later stages read: (Stages with their replays, slot index of each
        output id, slot sizes, this run's slot buffers), going on from `run` (such a
        tuple) when given; None when a group cannot replay (an operand the signature does
        not track, or, `dynamic`, an offset that is not a launch argument: _STATIC when
        that is the first group, before anything ran)."""
        be = self.be
        leaf_index = {id(n): i for i, n in enumerate(leaves)}
        scalar_index = {id(n): i for i, n in enumerate(scalars)}
        if run is None:
            st = Stages()
            st.stages = []
            slot_of = {}        # id(node) -> index into leaves + slots
            sizes, bufs = [], []
        else:
            st, slot_of, sizes, bufs = run
        for g in groups:
            outs = {}
            for o in g.outputs:
                nbytes = L.prod(o.shape) * o.dtype.itemsize
                outs[id(o)] = be.pool.alloc(nbytes)
                slot_of[id(o)] = len(leaves) + len(sizes)
                sizes.append(nbytes)
                bufs.append(outs[id(o)])
            rp = _stage(be, g, be._ptr_of(outs),
                        lambda n: leaf_index.get(id(n), slot_of.get(id(n))),
                        lambda n: scalar_index.get(id(n)), False, dynamic=dynamic)
            if rp is _STATIC and not st.stages:
                return _STATIC
            if rp is None or rp is _STATIC:
                return None
            st.stages.append(rp)
            self._launch(rp, leaves + [_Slot(b) for b in bufs], scalars)
            self.ran += (g.kind,)       # until the build completes: the general path
            for o in g.outputs:         # goes on from these realized outputs
                o.realize(outs[id(o)], L.c_strides(o.shape), 0)
        return st, slot_of, sizes, bufs

    def _build_write_stages(self, dest, value, leaves, scalars, groups, copy=False,
                            dynamic=True):
        """Like `_build_stages` for a write whose value takes a few groups (a solver's
        ``A[i, j] -= dot(A[i, :j], A[j, :j])``: the reduction, then the write): every group
        but the last runs into per-call slots; the last writes into dest (or, when it
        does not compute the value alone or `copy` asks for it, a last copy kernel
        does).  _STATIC, before anything ran, for a first kernel whose offsets cannot be
        launch arguments (a reduction over a slice of a lazy expression, lenet's pooling
        of ``relu(conv + bias)``): the caller keeps one replay per offsets."""
        if not groups or len(groups) > config.fast_stages or \
                any(g.kind == "barrier" for g in groups):
            return False
        last = groups[-1]
        run = self._slot_stages(groups[:-1], leaves, scalars, dynamic=dynamic)
        if run is _STATIC:
            return _STATIC
        if run is None:
            return False
        # (earlier groups' outputs are realized by now)
        direct = not copy and writes_into(last, value, dest)
        if not direct:
            run = self._slot_stages([last], leaves, scalars, run, dynamic=dynamic)
        if run is None or run is _STATIC:
            return _STATIC if run is _STATIC else False
        st, slot_of, sizes, bufs = run
        leaf_index = {id(n): i for i, n in enumerate(leaves)}
        scalar_index = {id(n): i for i, n in enumerate(scalars)}
        be = self.be
        g = last if direct else Group("elementwise", [value], value.device, 0)
        rp = _stage(be, g, be._ptr_of({}),
                    lambda n: leaf_index.get(id(n), slot_of.get(id(n))),
                    lambda n: scalar_index.get(id(n)), True, dest, dynamic)
        if rp is _STATIC and not st.stages:
            return _STATIC
        if rp is None or rp is _STATIC:
            return False
        st.stages.append(rp)
        self._launch(rp, leaves + [_Slot(b) for b in bufs], scalars, dest)
        st.sizes = tuple(sizes)
        st.root_slot = -1
        st.kind = tuple(g.kind for g in groups) + (() if direct else ("copy",))
        st.strides = None
        st.lock = threading.Lock()
        self.ran = ()
        return st

    def _replay_write_stages(self, st, dest, leaves, scalars) -> None:
        pool = self.be.pool
        bufs = [pool.alloc(n) for n in st.sizes]
        L_ext = leaves + [_Slot(b) for b in bufs]
        stages = st.stages
        with st.lock:                       # the stages' parameter blocks are shared
            for rp in stages[:-1]:
                self._launch(rp, L_ext, scalars)
            self._launch(stages[-1], L_ext, scalars, dest)

    def _launch(self, rp, L, scalars, out=None) -> None:
        """One kernel of a replay: its partials (split reductions), then the launch with
        the template filled from leaves (and slots) `L`, `scalars` and `out`."""
        be = self.be
        part = ctr = keep = None
        if rp.split:
            keep = be.pool.alloc(rp.part_bytes)
            part = keep.ptr
            ctr = be._counter_ptr(rp.counters_n)
        if rp.launch is not None:
            rp.launch(L, scalars, out, part, ctr)
        elif rp.n:
            be._go(rp.kernel, rp.grid, rp.block, rp.fill(L, scalars, out, part, ctr))
        del keep        # freed in stream order, after the kernel

    def _replay_stages(self, st, root, leaves, scalars) -> None:
        pool = self.be.pool
        bufs = [pool.alloc(n) for n in st.sizes]
        L_ext = leaves + [_Slot(b) for b in bufs]
        with st.lock:                       # the stages' parameter blocks are shared
            for rp in st.stages:
                self._launch(rp, L_ext, scalars)
        root.realize(bufs[st.root_slot], st.strides, 0)


def _done(rp):
    """FastPath.write's answer for a write just built: 0 (not replayable), 1 (one kernel)
    or the kinds of its kernels."""
    if rp is False:
        return 0
    return rp.kind if type(rp) is Stages else 1


_APART = object()       # _overlapping's answer for reads of dest's memory that do not overlap
