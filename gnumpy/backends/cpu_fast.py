"""The CPU backend's write replay: ``dest[...] = value`` for a known graph runs a Python
function generated once per signature (NumPy calls in order) instead of the scheduler
and the backend's general evaluator.

The signature is the graph's structure (``cpu_signature``: a walk, or the reader generated
for a graph of that shape).  A graph with a barrier or index-valued node takes the general
path, and so does one with a reduction while ``config.check_kernels`` compiles the CUDA
kernels the schedule would run.  The generated code computes what ``CpuBackend._eval``
computes, op by op.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._config import config
from .._graph import layout as L
from .._graph.fuse import Group
from .._graph.ir import EW, LEAF, REDUCE, SCALAR, SMALL_MATMUL, VIEW
from .._ops import EW_OPS, REDUCE_OPS
from .cpu_arrays import (_fresh, _use_counts, count_bools, counted, leaf_array, loud,
                         quiet, view_array)
from .cpu_signature import recall, walk as _walk


class _View(NamedTuple):
    """What ``view_array`` reads of a VIEW node, kept by a compiled function (the node
    itself is realized, and changes, once its graph runs)."""
    op: str
    arg: object
    shape: tuple


def _compile(root):
    """A function f(L, S) of the leaves' NumPy views and the scalars' NumPy values that
    returns `root`'s value, numbering leaves and scalars as `_walk` lists them."""
    lines, ns = [], {"np": np, "view_array": view_array}
    names = {}
    count = {"L": 0, "S": 0, "t": 0, "n": 0}
    uses = _use_counts([root])
    owned = set()       # temporaries this function allocated (element-wise results)
    full = set()        # names whose NumPy value has its node's shape (a scalar is a 0-d
                        # value whatever its node's shape; NumPy broadcasts it)

    def const(obj):
        c = f"c{count['n']}"
        count["n"] += 1
        ns[c] = obj
        return c

    def visit(n):
        k = n.kind
        if k == LEAF:
            count["L"] += 1
            full.add(f"L[{count['L'] - 1}]")
            return f"L[{count['L'] - 1}]"
        if k == SCALAR:
            count["S"] += 1
            if not n.shape:
                full.add(f"S[{count['S'] - 1}]")
            return f"S[{count['S'] - 1}]"
        v = names.get(id(n))
        if v is not None:
            return v
        nz = k == REDUCE and counted(n)     # (a mask's count: NumPy's count_nonzero of
        args = [visit(n.srcs[0].srcs[0] if nz else s) for s in n.srcs]     # the bools)
        t = f"t{count['t']}"
        count["t"] += 1
        names[id(n)] = t
        dt = const(n.dtype)
        if k != EW or any(a in full for a in args):
            full.add(t)     # (a view or reduction has its shape; an op, its largest input's)
        if k == VIEW:
            src = args[0]
            if n.op == "broadcast":     # (an element times a row): NumPy's operations
                full.discard(t)         # broadcast the value themselves, and a view or a
                lines.append(f"{t} = {src}")    # reduction of it broadcasts it first
                return t
            if src not in full:
                src = f"np.broadcast_to({src}, {const(n.srcs[0].shape)})"
            lines.append(f"{t} = view_array({src}, {const(_View(n.op, n.arg, n.shape))})")
            return t
        if k == REDUCE:
            rop, axes, keepdims = n.arg
            src = args[0] if args[0] in full else \
                f"np.broadcast_to({args[0]}, {const(n.srcs[0].shape)})"
            f = count_bools if nz else REDUCE_OPS[rop].np_impl
            lines.append(f"{t} = np.asarray({const(f)}({src}, "
                         f"axis={axes!r}, keepdims={keepdims!r}))")
            lines.append(f"if {t}.dtype != {dt}:\n        {t} = {t}.astype({dt})")
            return t
        if n.op == "astype":
            a = args[0]
            if n.srcs[0].dtype.kind == "c" and n.dtype.kind not in "cb":
                a = f"{a}.real"
            lines.append(f"{t} = np.asarray({a}).astype({dt})")
        elif n.op == "where":
            lines.append(f"{t} = np.where({', '.join(args)})")
        elif n.op == SMALL_MATMUL:
            a, b = (x if x in full else f"np.broadcast_to({x}, {const(s.shape)})"
                    for x, s in zip(args, n.srcs))
            full.add(t)
            lines.append(f"{t} = np.matmul({a}, {b})")
        else:
            impl = EW_OPS[n.op].np_impl
            call = f"{const(impl)}({', '.join(args)}"
            # reuse a temporary nothing else reads as the output, as the general evaluator
            # does (without it a chain keeps every intermediate alive until it returns)
            reuse = [a for s, a in zip(n.srcs, args) if a in owned and
                     uses.get(id(s), 0) == 1 and s.dtype == n.dtype]
            if reuse and reuse[0] in full and isinstance(impl, np.ufunc) and impl.nout == 1:
                lines.append(f"{t} = {call}, out={reuse[0]})")
            else:
                lines.append(f"{t} = np.asarray({call}))")
        lines.append(f"if {t}.dtype != {dt}:\n        {t} = {t}.astype({dt})")
        owned.add(t)
        return t

    out = visit(root)
    src = "def f(L, S):\n    " + "\n    ".join(lines + [f"return {out}"]) + "\n"
    exec(src, ns)       # noqa: S102 - generated from our own graph, no user text
    return ns["f"]


# Materializations replay a compiled function from a signature's third time, for graphs of
# signatures up to this long: every graph under the default graph bound (384 nodes, about
# 5 items a node), a loop's lazy chain materialized at that bound included.  Compiling
# costs ~30 us a node once (12 ms for a chain of 381 nodes of `0.99 * x + y`); its
# materialization then took 1.1-1.9 ms against 3-5 ms node by node (this 2-core machine).
_MAX_COMPILED = 2048
_RECALLED = 40          # graphs of at most this tree size are recalled (``cpu_signature``),
                        # larger ones walked to the bound above (about 5 items a node)


class CpuFast:
    """``be.fast`` of the CPU backend: writes, and materializations of one elementwise
    group, replay a compiled function per signature."""

    ran = ()            # nothing runs before the general path takes over

    def __init__(self, backend) -> None:
        self.be = backend
        self.cache = {}
        self.seen = {}      # signature -> materializations by the general path so far

    def _value(self, sig, root, leaves, scalars):
        """`root`'s value through the function compiled for `sig` (compiled now if new),
        under the caller's ``quiet``."""
        f = self.cache.get(sig)
        if f is None:
            f = self.cache[sig] = _compile(root)
            if len(self.cache) > 4096:
                self.cache.clear()
                self.cache[sig] = f
        return f([leaf_array(n) for n in leaves],
                 [np.asarray(s.arg, dtype=s.dtype) for s in scalars])

    def __call__(self, root):
        """Materialize `root`, a graph without reductions or barriers (one elementwise
        group, as the scheduler would make it): 'elementwise', or False for the general
        path."""
        sig, leaves, scalars, ok = recall(root) if root.size <= _RECALLED else \
            _walk(root, _MAX_COMPILED)      # (a long chain's walk stops at the bound)
        if ok is not True or len(sig) > _MAX_COMPILED:
            return False
        if sig not in self.cache:   # compiled the third time a signature is seen
            n = self.seen.get(sig, 0)
            if n < 2:
                if len(self.seen) > 4096:
                    self.seen.clear()
                self.seen[sig] = n + 1
                return False
        if config.check_kernels:    # the CUDA kernel of this group
            # loaded on first use: only config.check_kernels needs kernels.check (~40 ms)
            from ..kernels.check import check_group
            check_group(Group("elementwise", [root], root.device, 0))
        t = quiet()
        try:
            v = self._value(sig, root, leaves, scalars)
        finally:
            loud(t)
        if not _fresh(v, root):
            v = np.array(np.broadcast_to(v, root.shape), dtype=root.dtype, order="C")
        root.realize(v.reshape(-1), L.c_strides(root.shape), 0)
        return "elementwise"

    def group(self, g):
        return False

    def roots(self, nodes):
        return False

    def one_group(self, nodes) -> None:
        pass

    def write(self, dest, value, overlaps) -> int:
        """1 when ``dest[...] = value`` ran here, 0 for the general path (the CPU backend
        computes the whole value before it assigns: no overlap to resolve first)."""
        if value.kind == LEAF:
            return 0
        sig, leaves, scalars, ok = recall(value)
        if ok is False or ok is None and config.check_kernels:
            return 0            # (with a reduction, the kernel check wants the schedule)
        if config.check_kernels:    # the CUDA kernel of this write (its layouts count)
            # loaded on first use: only config.check_kernels needs kernels.check (~40 ms)
            from ..kernels.check import check_group
            check_group(Group("elementwise", [value], dest.device, 0), dest)
        t = quiet()
        try:
            leaf_array(dest)[...] = self._value(sig, value, leaves, scalars)
        finally:
            loud(t)
        return 1
