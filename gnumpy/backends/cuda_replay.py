"""The records of the CUDA replay fast path and how one kernel becomes one: ``stage``
plans a scheduled group, gets its kernel and turns the plan's argument template into a
``Replay``'s (pointers as leaf or slot indices, scalars as scalar indices, offsets read at
launch or baked in), with the launcher ``cuda_launchers`` compiles for it.  ``Stages``
chains the Replays of a few kernels over per-call ``Slot`` buffers.  ``cuda_fast.FastPath``
keeps them per signature and replays them.
"""
from __future__ import annotations

from ..kernels import build
from ..kernels.compile import KERNEL_NAME
from ..kernels.launch import COUNTERS, PARTIALS, LevelOff, Ptr, Scalar
from .cuda_launchers import compile_fill


class Replay:
    """One replayed kernel: its launch dims, argument template and launcher (``stage``)."""
    __slots__ = ("kernel", "grid", "block", "template", "fill", "outs", "split",
                 "part_bytes", "counters_n", "n", "strides", "launch", "lock", "slots", "kind")


STATIC = object()       # stage's answer when an offset cannot be a launch argument


def stage(be, g, ptr_of, index_of, scalar_of, with_out, dest=None, dynamic=True,
          out_index=None, sync=False):
    """Plan group `g` (writing into LEAF `dest` when given, or a list of one LEAF per
    output), get its kernel and turn its argument template into a Replay's: pointers
    become ("in", index_of(node), offset) (with `with_out`, the output pointer stays ("out",
    0, offset): the one output buffer of a single-kernel replay, or dest's; with
    `out_index`, the outputs' are ("in", out_index(node), ...) in output order), scalars
    ("scv"/"scc", scalar_of(node), ...).
    None when an index is missing.  With `dynamic`, offsets are read from the leaves
    (and dest) at each launch ("ino"/"outo", plus the constant a view chain adds to a
    leaf's offset; an operand read through reshape levels gets its buffer's base pointer
    and its offset in its innermost level's parameter, "lvo"), or STATIC is returned where
    an offset does not travel with its node (an output's); without, the offsets of this
    graph are constants of the template.  (What a view adds is fixed by the signature,
    which holds every VIEW node's op and argument.)  `sync`: build.plan_group's."""
    _, plan = build.plan_group(g, ptr_of, be.sm_count, be.blocks_per_sm, dest, sync)
    kernel = be.kernels.get(plan.key, lambda: plan.source(KERNEL_NAME))
    if plan.spec.kind == "reduce":
        plan.fit(be.resident(kernel, plan.block), be.sm_count)
    tmpl = []
    for t in plan.template():
        c = type(t)
        if c is Ptr:
            o = t.op
            n = o.node
            it = n.dtype.itemsize
            levels = len(o.levels) > 1 and o.kind == "in"   # (its offset: a LevelOff)
            delta = 0 if levels else t.off - n.offset * it  # (a view's, structural)
            if dynamic and (levels and t.off or o.kind == "out" and delta):
                return STATIC
            if with_out and o.kind == "out":
                # a fresh buffer (offset 0) or the written LEAF, whose offset is its own
                tmpl.append(("out", 0, t.off) if dest is None else
                            ("outo", 0, it) if dynamic else ("outs", 0, t.off))
                continue
            i = out_index(n) if out_index is not None and o.kind == "out" else index_of(n)
            if i is None:
                return None
            if not dynamic:
                tmpl.append(("in", i, t.off))
            elif levels:
                tmpl.append(("in", i, 0))
            else:
                tmpl.append(("ino", i, it, delta) if delta else ("ino", i, it))
        elif c is LevelOff:
            n = t.op.node
            if not dynamic:
                tmpl.append(("c", t.value, 0))
                continue
            i = index_of(n)
            if i is None:
                return None
            tmpl.append(("lvo", i, int(t.value) - n.offset))
        elif c is Scalar:
            j = scalar_of(plan.spec.scalar_nodes[t.idx])
            if j is None:
                return None
            dt = t.dtype
            tmpl.append(("scc" if dt.kind == "c" else "scv", j, t.part, dt))
        elif t is PARTIALS or t is COUNTERS:
            tmpl.append(("part" if t is PARTIALS else "ctr", 0, 0))
        else:
            tmpl.append(("c", t, 0))
    rp = Replay()
    rp.kind = g.kind
    rp.kernel = kernel
    rp.template = tmpl
    rp.fill = None
    rp.launch = None
    if plan.spec.kind == "ew":
        rp.n = plan.n
        rp.grid, rp.block = plan.launch_dims(be.sm_count, be.blocks_per_sm)
        rp.split = False
    else:
        rp.n = plan.M
        rp.grid, rp.block = plan.grid, plan.block
        rp.split = plan.S > 1
        rp.part_bytes = plan.partial_bytes() if rp.split else 0
        rp.counters_n = plan.counters_needed() if rp.split else 0
    packed = getattr(be, "packed_launcher", None)
    if packed is not None and rp.n:
        rp.launch = packed(kernel, rp.grid, rp.block, tmpl)
    else:
        rp.fill = compile_fill(tmpl)
    return rp


class Stages:
    """A replay of several kernels: per-stage Replays over leaves + per-call slots."""
    __slots__ = ("stages", "sizes", "root_slot", "kind", "strides", "lock")


class Slot:
    """A per-call buffer standing where a template reads ``L[i].buf`` (at offset 0)."""
    __slots__ = ("buf", "offset")

    def __init__(self, buf):
        self.buf = buf
        self.offset = 0
