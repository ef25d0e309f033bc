"""A product's ReLU as the library call's epilogue: ``np.maximum(x @ w + b, 0)`` (a dense
layer, NPBench's mlp and lenet) becomes one ``matmul_relu`` barrier, which the CUDA
backend can run as one cuBLASLt call with its ReLU (and bias) epilogue instead of a
product and an elementwise pass (``backends/cuda_epilogue``); the CPU backend computes
NumPy's expression.

``fold(r)`` rewrites node `r` in place when it is ``maximum(p + c, 0)`` or ``maximum(p,
0)``: `p` a float32/float64 product of two matrices (``matmul``), `c` a bias row broadcast
over the product's rows, the constant a +0, and the product and the sum seen by nothing
but `r` (no array or other node holds them: their values are never needed apart, so the
call computes them inside; a product kept as an array is computed once, as before).  The
scheduler asks it for every ``maximum`` node it walks (``fuse._structure``), before the
node's structure is read, so a schedule is of the rewritten graph; only with
``config.lt_epilogue`` (an opt-in until Lt's handling of a -0.0 product is checked on a
GPU: ``bench/lt_epilogue.py``).

Only ``maximum(x, 0)`` is taken: NumPy's ``maximum(-0.0, 0)`` is +0.0 but ``maximum(0,
-0.0)`` is -0.0, and an epilogue has one answer.
"""
from __future__ import annotations

import sys

import numpy as np

from .ir import BARRIER, EW, LEAF, SCALAR, VIEW, Node, _size, leaf, reshape

_getrefcount = sys.getrefcount
_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _unseen_refs() -> int:
    """References to an object held only by a tuple, as ``fold`` counts them: the tuple,
    the unpacked local and ``getrefcount``'s argument (measured, not assumed: the count
    differs between Python versions)."""
    held = (object(), 0)
    v, _ = held
    return _getrefcount(v)


_UNSEEN = _unseen_refs()


def fold(r: Node) -> bool:
    """Rewrite ``maximum(p + c, 0)`` / ``maximum(p, 0)`` node `r` into a ``matmul_relu``
    barrier (see the module docstring); False, `r` untouched, for anything else."""
    v, z = r.srcs
    dt = r.dtype
    if z.kind != SCALAR or dt not in _DTYPES or z.arg != 0 or np.signbit(z.arg) or \
            len(r.shape) != 2:
        return False
    if v.kind == BARRIER:
        if _getrefcount(v) > _UNSEEN:
            return False
        p, c = v, None
    elif v.kind == EW and v.op == "add" and v.dtype == dt:
        if _getrefcount(v) > _UNSEEN:
            return False
        p, c = v.srcs
        if p.kind != BARRIER:
            p, c = c, p
        if p.kind != BARRIER or _getrefcount(p) > _UNSEEN:
            return False
    else:
        return False
    if p.op != "matmul" or p.dtype != dt:
        return False
    a, b = p.srcs
    if len(a.shape) != 2 or len(b.shape) != 2:
        return False
    srcs = (a, b)
    if c is not None:
        bias = _bias_row(c)
        if bias is None:
            return False
        srcs = (a, b, bias)
    r.kind = BARRIER
    r.op = "matmul_relu"
    r.arg = p.arg               # the product's alpha (a scale folded into it), or None
    r.srcs = srcs
    r.size = _size(srcs)
    r.sig = r.rb = None
    return True


def _bias_row(c: Node):
    """The (n,) row that `c`, of the product's shape (m, n), repeats down its rows; None
    when `c` is not such a broadcast (a LEAF with row stride 0, or a broadcast view of a
    row)."""
    m, n = c.shape
    if c.kind == LEAF:
        if c.strides[0] != 0 and m != 1:
            return None
        return leaf(c.buf, c.dtype, (n,), (c.strides[1],), c.offset, c.device)
    if c.kind == VIEW and c.op == "broadcast":
        s = c.srcs[0]
        if s.shape == (n,):
            return s
        if s.shape == (1, n):
            return reshape(s, (n,))
    return None
