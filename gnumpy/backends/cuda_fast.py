"""The CUDA launch fast path: replay a single-kernel materialization without scheduling,
lowering or planning again.

A cheap walk of the expression computes its signature (structure, dtypes, shapes, leaf
layouts and buffer-identity pattern, pointer alignment; not buffer addresses or scalar
values).  The first time a signature is seen the general path builds the kernel and an
argument template; afterwards the template is filled with the new buffers and scalars and
launched.  Expressions needing several groups are left to the general path.
"""
from __future__ import annotations

import numpy as np

from .._config import config
from .._graph import layout as L
from .._graph.fuse import schedule
from .._graph.ir import EW, IOTA, LEAF, REDUCE, SCALAR, VIEW
from ..kernels import build
from ..kernels.compile import KERNEL_NAME
from ..kernels.launch import COUNTERS, PARTIALS, Ptr, Scalar
from ..kernels.types import PARAM_NP


def _walk(root):
    """(signature, leaves, scalars, ok) of the expression under `root`, in one DFS."""
    sig = []
    ids = {}
    bufs = {}
    leaves = []
    scalars = []
    ok = [True]
    ids_get = ids.get
    append = sig.append

    def visit(n):
        i = ids_get(id(n))
        if i is not None:
            return i
        k = n.kind
        if k == LEAF:
            buf = n.buf
            b = bufs.get(id(buf))
            if b is None:
                b = bufs[id(buf)] = len(bufs)
            leaves.append(n)
            item = (0, n.dtype, n.shape, n.strides, n.offset, b,
                    (buf.ptr + n.offset * n.dtype.itemsize) & 15)
        elif k == EW:
            item = (3, n.op, n.dtype, n.arg, tuple([visit(s) for s in n.srcs]))
        elif k == SCALAR:
            scalars.append(n)
            item = (1, n.dtype, n.shape)
        elif k == VIEW:
            item = (4, n.op, n.arg, n.shape, visit(n.srcs[0]))
        elif k == IOTA:
            item = (2, n.shape, n.strides, n.offset)
        elif k == REDUCE:
            item = (5, n.dtype, n.arg, visit(n.srcs[0]))
        else:
            ok[0] = False
            item = (9,)
        i = len(sig)
        append(item)
        ids[id(n)] = i
        return i

    visit(root)
    return tuple(sig), leaves, scalars, ok[0]


class _Walk:
    __slots__ = ("leaves", "scalars")

    def __init__(self, leaves, scalars):
        self.leaves = leaves
        self.scalars = scalars


class Replay:
    __slots__ = ("kernel", "grid", "block", "template", "fill", "outs", "split",
                 "part_bytes", "counters_n", "n")


class FastPath:
    def __init__(self, backend) -> None:
        self.be = backend
        self.cache = {}

    def __call__(self, root) -> bool:
        """Run `root` (a lazy node) as one replayed kernel; False to take the general path."""
        sig, leaves, scalars, ok = _walk(root)
        if not ok:
            return False
        w = _Walk(leaves, scalars)
        key = (sig, config._codegen)
        rp = self.cache.get(key)
        if rp is None:
            rp = self.cache[key] = self._build(root, w)     # runs it when it can
            return rp is not False
        if rp is False:
            return False
        self._replay(rp, root, w)
        return True

    def _build(self, root, w):
        groups = schedule([root])
        if len(groups) != 1 or groups[0].kind == "barrier" or groups[0].outputs != [root]:
            return False
        g = groups[0]
        be = self.be
        outs = {id(root): be.pool.alloc(L.prod(root.shape) * root.dtype.itemsize)}
        ptr_of = be._ptr_of(outs)
        mod, plan = build.plan_group(g, ptr_of, be.sm_count, be.blocks_per_sm)
        kernel = be.kernels.get(plan.key, lambda: mod.source(plan, KERNEL_NAME))
        leaf_index = {id(n): i for i, n in enumerate(w.leaves)}
        scalar_index = {id(n): i for i, n in enumerate(w.scalars)}
        tmpl = []
        for t in mod.template(plan):
            c = type(t)
            if c is Ptr:
                if t.op.kind == "out":
                    tmpl.append(("out", 0, t.off))
                else:
                    tmpl.append(("in", leaf_index[id(t.op.node)], t.off))
            elif c is Scalar:
                node = plan.spec.scalar_nodes[t.idx]
                dt = t.dtype
                kind = "scc" if dt.kind == "c" else "scv"
                tmpl.append((kind, scalar_index[id(node)], t.part, dt))
            elif t is PARTIALS or t is COUNTERS:
                tmpl.append(("part" if t is PARTIALS else "ctr", 0, 0))
            else:
                tmpl.append(("c", t, 0))
        rp = Replay()
        rp.kernel = kernel
        rp.template = tmpl
        rp.fill = _compile_fill(tmpl)
        rp.outs = (root.dtype.itemsize * L.prod(root.shape),)
        if plan.spec.kind == "ew":
            rp.n = plan.n
            rp.grid, rp.block = mod.launch_dims(plan, be.sm_count, be.blocks_per_sm)
            rp.split = False
        else:
            rp.n = plan.M
            rp.grid, rp.block = plan.grid, plan.block
            rp.split = plan.S > 1
            rp.part_bytes = mod.partial_bytes(plan) if rp.split else 0
            rp.counters_n = mod.counters_needed(plan) if rp.split else 0
        self._replay(rp, root, w, outs[id(root)])
        return rp

    def _replay(self, rp, root, w, out=None) -> None:
        be = self.be
        if out is None:
            out = be.pool.alloc(rp.outs[0])
        part = ctr = keep = None
        if rp.split:
            keep = be.pool.alloc(rp.part_bytes)
            part = keep.ptr
            ctr = be._counter_ptr(rp.counters_n)
        args = rp.fill(w.leaves, w.scalars, out, part, ctr)
        if rp.n:
            be._go(rp.kernel, rp.grid, rp.block, args)
        del keep
        root.realize(out, L.c_strides(root.shape), 0)


_DIRECT = (np.dtype(np.float32), np.dtype(np.float64))


def _conv(sn):
    conv = PARAM_NP[sn.dtype]          # the scalar type cuda.core accepts
    v = sn.arg
    return v if type(v) is conv else conv(v)


def _compile_fill(tmpl):
    """A generated function building a launch's argument list from a template:
    fill(leaves, scalars, out buffer, partials pointer, counters pointer)."""
    consts, parts = [], []
    for entry in tmpl:
        kind, a, b = entry[:3]
        if kind == "c":
            consts.append(a)
            parts.append(f"C[{len(consts) - 1}]")
        elif kind == "in":
            parts.append(f"L[{a}].buf.ptr + {b}" if b else f"L[{a}].buf.ptr")
        elif kind == "out":
            parts.append(f"O.ptr + {b}" if b else "O.ptr")
        elif kind == "scc":
            parts.append(f"S[{a}].arg.{'real' if b == 0 else 'imag'}")
        elif kind == "scv":
            parts.append(f"S[{a}].arg" if entry[3] in _DIRECT else f"_conv(S[{a}])")
        elif kind == "part":
            parts.append("P")
        else:
            parts.append("T")
    src = "def fill(L, S, O, P, T):\n    return [" + ", ".join(parts) + "]\n"
    ns = {"C": consts, "_conv": _conv}
    exec(src, ns)       # noqa: S102 - generated from our own template, no user text
    return ns["fill"]
