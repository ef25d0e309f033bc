"""The CPU backend: interprets groups with a per-IR-op NumPy table.

This is the living definition of every IR op: each elementwise op runs its op-table NumPy
implementation, views are NumPy views, reductions NumPy reductions, and non-fusible ops
(barriers) the NumPy functions registered in ``barriers``.  Buffers are flat NumPy arrays; a LEAF is a
strided view over one (strides in elements).

# Note: floating-point warnings (divide by zero, overflow, invalid) are not emitted, as on
# the GPU; results are NumPy's.
"""
from __future__ import annotations

import numpy as np

from .. import _dtypes as D
from .._config import config
from .._graph import layout as L
from .._graph.fuse import Group, schedule
from .._graph.ir import BARRIER, EW, IOTA, LEAF, REDUCE, SCALAR, SMALL_MATMUL, VIEW, leaf
from .._hostvals import compute
from .._ops import EW_OPS, REDUCE_OPS
from . import barriers
from .base import Backend
from .cpu_arrays import (_fresh, _use_counts, count_bools, counted, leaf_array, loud, quiet,
                         view_array)
from .cpu_fast import CpuFast


def _element(n):
    """The NumPy scalar at 0-d LEAF `n`."""
    b = n.buf
    if b.dtype is n.dtype and b.ndim == 1:
        return b[n.offset]
    return leaf_array(n)[()]


def iota_array(node) -> np.ndarray:
    out = np.asarray(np.int64(node.offset))
    for d, (n, s) in enumerate(zip(node.shape, node.strides)):
        if s:
            shp = [1] * len(node.shape)
            shp[d] = n
            out = out + (np.arange(n, dtype=np.int64) * s).reshape(shp)
    return np.broadcast_to(out, node.shape)


def _cumulative(f):
    def impl(x, arg, dtype):
        axis, include_initial = arg
        r = f(x, axis=axis, dtype=dtype)
        if include_initial:
            shp = list(r.shape)
            shp[axis] = 1
            init = np.full(shp, 0 if f is np.cumsum else 1, dtype=dtype)
            r = np.concatenate([init, r], axis=axis)
        return r
    return impl


barriers.register("cumsum", cpu=lambda srcs, arg, dt: _cumulative(np.cumsum)(srcs[0], arg, dt))
barriers.register("cumprod",
                  cpu=lambda srcs, arg, dt: _cumulative(np.cumprod)(srcs[0], arg, dt))
barriers.register("matmul", cpu=lambda srcs, arg, dt: np.matmul(srcs[0], srcs[1]) if arg is None
                  else np.matmul(srcs[0], srcs[1]) * dt.type(arg))       # arg: alpha


class CpuBackend(Backend):
    name = "cpu"
    # Folding saves a NumPy call per statement here, not a launch: long folded chains
    # (a row updated in a loop) evaluate slower than their statements one by one.
    # Measured: perf-notes, "Deferred writes".
    fold_nodes = 16
    writes_elements = True

    def __init__(self, device) -> None:
        super().__init__(device)
        self.fast = CpuFast(self)

    def write_elements(self, dests, values) -> None:
        """``Backend.write_elements``: every value computed before any is stored (on this
        backend only where ``writes_elements`` is turned off: tests of chained writes)."""
        if config.check_kernels:    # the CUDA kernel of these writes
            # loaded on first use: only config.check_kernels needs kernels.check (~40 ms)
            from ..kernels.check import check_group
            check_group(Group("elementwise", list(values), dests[0].device, 0), list(dests))
        vals = [compute(v, _element) for v in values]
        if any(x is None for x in vals):
            todo = [v for v in values if v.kind != LEAF]
            for g in schedule(todo):
                self.run(g)
            vals = [leaf_array(v)[()] for v in values]
        for d, x in zip(dests, vals):
            leaf_array(d)[()] = x

    def write_element(self, dest, value) -> bool:
        """``dest[()] = value`` now, for 0-d LEAF `dest` and `value` an expression of
        elements (a scalar loop's statement, as NumPy runs it: no deferred write to fold
        and replay), computed as the CPU backend computes it; False for any other
        value."""
        v = compute(value, _element)
        if v is None:
            return False
        if config.check_kernels:    # the CUDA kernel of this write
            # loaded on first use: only config.check_kernels needs kernels.check (~40 ms)
            from ..kernels.check import check_group
            check_group(Group("elementwise", [value], dest.device, 0), dest)
        b = dest.buf
        if b.dtype is dest.dtype and b.ndim == 1:
            b[dest.offset] = v
        else:
            leaf_array(dest)[()] = v
        return True

    # ---- data movement
    def from_numpy(self, arr: np.ndarray, copy: bool = True):
        """A LEAF of `arr`'s values: a C-ordered copy, or with `copy` False `arr`'s own
        memory (at its strides, when they are whole elements; else a copy)."""
        if not copy and not arr.flags.c_contiguous:
            n = _shared_leaf(arr, self.device)
            if n is not None:
                return n
        a = arr if not copy and arr.flags.c_contiguous else np.array(arr, order="C",
                                                                      copy=True)
        flat = a.reshape(-1)
        return leaf(flat, D.to_dtype(a.dtype), a.shape, L.c_strides(a.shape), 0, self.device)

    def to_numpy(self, node) -> np.ndarray:
        return leaf_array(node).copy()

    def nonzero_node(self, mask):
        from .index_ops import nonzero_node      # (barrier modules load on first use)
        return nonzero_node(mask, int(np.count_nonzero(leaf_array(mask))))

    def dlpack_device(self):
        return (1, 0)   # kDLCPU

    def dlpack_export(self, node, stream=None, max_version=None, dl_device=None, copy=None,
                      readonly=False):
        kw = {} if max_version is None else {"max_version": max_version}
        a = leaf_array(node)
        if readonly:                # NumPy's export says so, or refuses where it cannot
            a = a.view()
            a.flags.writeable = False
        return a.__dlpack__(**kw)

    def host_view(self, node) -> np.ndarray:
        """A read-only NumPy view of a LEAF (CPU only; used for printing and DLPack)."""
        return leaf_array(node)

    # ---- evaluation
    def _eval(self, node, memo, uses):
        r = memo.get(id(node))
        if r is not None:
            return r[0]
        k = node.kind
        owned = False
        if k == LEAF:
            r = leaf_array(node)
        elif k == SCALAR:
            r = np.asarray(node.arg, dtype=node.dtype)       # broadcasts where used
        elif k == IOTA:
            r = iota_array(node)
        elif k == EW:
            vals = [self._eval(s, memo, uses) for s in node.srcs]
            r, owned = self._ew(node, vals, memo, uses)
        elif k == VIEW:
            r = view_array(self._full(node.srcs[0], self._eval(node.srcs[0], memo, uses)),
                           node)
        elif k == REDUCE:
            rop, axes, keepdims = node.arg
            s = node.srcs[0]
            if counted(node):       # a mask's count (count_nonzero, mask.sum()): NumPy's
                s, f = s.srcs[0], count_bools   # count of the bools, no integer copy
            else:
                f = REDUCE_OPS[rop].np_impl
            r = np.asarray(f(self._full(s, self._eval(s, memo, uses)), axis=axes,
                             keepdims=keepdims))
            owned = True
        elif k == BARRIER:
            vals = [self._full(s, self._eval(s, memo, uses)) for s in node.srcs]
            r = np.asarray(barriers.cpu_impl(node.op)(vals, node.arg, node.dtype))
            owned = True
        else:
            raise AssertionError(node)
        if r.dtype != node.dtype:
            r = r.astype(node.dtype)
            owned = True
        memo[id(node)] = (r, owned)
        return r

    @staticmethod
    def _full(node, v):
        return v if v.shape == node.shape else np.broadcast_to(v, node.shape)

    def _ew(self, node, vals, memo, uses):
        op = node.op
        if op == "astype":
            v = vals[0]
            if v.dtype.kind == "c" and node.dtype.kind not in "cb":
                v = v.real      # (the API layer warned at the call: ComplexWarning)
            return v.astype(node.dtype), True
        if op == "where":
            return np.where(vals[0], vals[1], vals[2]), True
        if op == SMALL_MATMUL:
            a, b = node.srcs
            return np.matmul(self._full(a, vals[0]), self._full(b, vals[1])), True
        impl = EW_OPS[op].np_impl
        if isinstance(impl, np.ufunc) and impl.nout == 1:
            # reuse a temporary nothing else reads as the output (NumPy's temporary elision)
            for s, v in zip(node.srcs, vals):
                ent = memo.get(id(s))
                if ent is not None and ent[1] and uses.get(id(s), 0) == 1 and \
                        v.dtype == node.dtype and v.shape == node.shape:
                    memo[id(s)] = (v, False)
                    return impl(*vals, out=v), True
        return np.asarray(impl(*vals)), True

    def run(self, group) -> None:
        if config.check_kernels:
            # loaded on first use: only config.check_kernels needs kernels.check (~40 ms)
            from ..kernels.check import check_group
            check_group(group)
        memo = {}
        uses = _use_counts(group.outputs)
        t = quiet()
        try:
            vals = [self._eval(o, memo, uses) for o in group.outputs]
        finally:
            loud(t)
        for o, v in zip(group.outputs, vals):
            ent = memo.get(id(o))
            if not (ent[1] and _fresh(v, o)):
                v = np.array(self._full(o, v), dtype=o.dtype, order="C", copy=True)
            memo[id(o)] = (v, False)      # two outputs never share one buffer
            o.realize(v.reshape(-1), L.c_strides(o.shape), 0)

    def write(self, dest, value, group=None) -> None:
        if config.check_kernels:
            # loaded on first use: only config.check_kernels needs kernels.check (~40 ms)
            from ..kernels.check import check_group
            check_group(group if group is not None else
                        Group("elementwise", [value], dest.device, 0), dest)
        t = quiet()
        try:
            leaf_array(dest)[...] = self._eval(value, {}, {})
        finally:
            loud(t)


def _shared_leaf(arr: np.ndarray, device):
    """A LEAF over the memory of strided `arr`, or None when its strides are not whole
    elements (or it is empty): the buffer is a 1-D view from the lowest address `arr`
    touches to the highest, `arr` at its offset and element strides in it."""
    it = arr.itemsize
    if not arr.size or any(s % it for s in arr.strides):
        return None
    low = arr[tuple(slice(d - 1, d) if s < 0 else slice(0, 1)      # (a view, not a
                    for d, s in zip(arr.shape, arr.strides))]           # scalar)
    lo, hi = L.span(arr.shape, tuple(s // it for s in arr.strides), 0)
    flat = np.lib.stride_tricks.as_strided(low, shape=(hi - lo + 1,), strides=(it,))
    return leaf(flat, D.to_dtype(arr.dtype), arr.shape, tuple(s // it for s in arr.strides),
                -lo, device)
