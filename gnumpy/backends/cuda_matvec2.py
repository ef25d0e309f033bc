"""Two matrix-vector products of one matrix in one pass over it (``render_matvec2``):
a materialization of ``A @ u`` and ``w @ A`` together, bicg's ``return r @ A, A @ p``,
reads A once where two GEMVs read it twice.

``pair(be, n1, n2)`` runs the two library nodes (``matmul`` barriers whose operands are in
memory) as the two kernels and realizes both, or answers False before any work: other
dtypes than float32 and float64, another matrix, two products of one form, a matrix
whose rows or columns are not of unit stride, one smaller than ``MIN_SIZE`` elements, or
one of ``WIDE_FROM`` elements or more whose rows (in the layout's order) are shorter than
a block's ``THREADS * Q`` columns: most of each block's threads would idle (20,000 x 300
float64 on an H100: 65 us against the library's 54; 4,000 x 5,000: 86 against 134;
300 x 240: 24 against 41).
"""
from __future__ import annotations

import numpy as np

from .._graph.ir import LEAF
from ..kernels import render_matvec2 as R
from ..kernels.plan import FixedKey
from .cuda_memory import leaf_ptr as _ptr

MIN_SIZE = 1 << 16          # a smaller matrix: the library's two calls
WIDE_FROM = 1 << 20         # a larger one needs a row of at least a block's columns
_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _form(n):
    """(matrix, vector, True for ``A @ v``, False for ``v @ A``, alpha) of matmul node
    `n` over leaves, else None."""
    if n.op != "matmul" or len(n.srcs) != 2:
        return None
    a, b = n.srcs
    if a.kind != LEAF or b.kind != LEAF:
        return None
    alpha = 1.0 if n.arg is None else n.arg
    if type(alpha) not in (int, float):
        return None
    if len(a.shape) == 2 and len(b.shape) == 1:
        return a, b, True, float(alpha)
    if len(a.shape) == 1 and len(b.shape) == 2:
        return b, a, False, float(alpha)
    return None


def pair(be, n1, n2, out1=None, out2=None) -> bool:
    """Compute matmul nodes `n1` and `n2` (``A @ u`` and ``w @ A``, either order) in one
    pass over A and realize both; or, given `out1` and `out2` (``(dest, beta)``: a 1-D
    LEAF of the product's shape and dtype, a float), store each product plus beta times
    what dest holds into dest instead.  False, before any work, where it does not apply."""
    dt = n1.dtype
    if dt not in _DTYPES or n2.dtype != dt:
        return False
    f1, f2 = _form(n1), _form(n2)
    if f1 is None or f2 is None or f1[2] == f2[2]:
        return False
    if not f1[2]:                               # n1 = A @ u, n2 = w @ A
        n1, n2, f1, f2, out1, out2 = n2, n1, f2, f1, out2, out1
    A, u, _, a1 = f1
    A2, w, _, a2 = f2
    if A2.buf is not A.buf or A2.offset != A.offset or A2.shape != A.shape or \
            A2.strides != A.strides or A.dtype != dt or u.dtype != dt or w.dtype != dt:
        return False
    m, n = A.shape
    if m * n < MIN_SIZE:
        return False
    s0, s1 = A.strides
    if s1 == 1 and s0 >= n:             # row-major: A @ u are row dots, w @ A column sums
        rows, cols, lda, uk, wk, ar, ac, flip = m, n, s0, u, w, a1, a2, False
    elif s0 == 1 and s1 >= m:           # column-major: the same over the transpose
        rows, cols, lda, uk, wk, ar, ac, flip = n, m, s1, w, u, a2, a1, True
    else:
        return False
    if m * n >= WIDE_FROM and cols < R.THREADS * R.Q:
        return False
    if out1 is None:
        b1, b2 = be.pool.alloc(m * dt.itemsize), be.pool.alloc(n * dt.itemsize)
        o1, o2 = (b1.ptr, 1, 0.0), (b2.ptr, 1, 0.0)
    else:
        o1, o2 = _out(out1, n1), _out(out2, n2)
        if o1 is None or o2 is None:
            return False
    yr, yc = (o2, o1) if flip else (o1, o2)
    tiles = -(-cols // (R.THREADS * R.Q))
    groups = -(-rows // R.RB)
    wr = be.pool.alloc(tiles * rows * dt.itemsize)      # (partial sums in the compute
    wc = be.pool.alloc(groups * cols * dt.itemsize)     # type: the dtype itself here)
    i64 = np.int64
    k1 = be._misc_kernel(FixedKey(R.pass1_source, (dt,)))
    be._go(k1, (tiles, groups), R.THREADS,
           [_ptr(A), i64(lda), _ptr(uk), i64(uk.strides[0]), _ptr(wk), i64(wk.strides[0]),
            wr.ptr, wc.ptr, i64(rows), i64(cols)])
    k2 = be._misc_kernel(FixedKey(R.pass2_source, (dt,)))
    be._go(k2, -(-(rows + cols) // R.THREADS), R.THREADS,
           [wr.ptr, wc.ptr, yr[0], i64(yr[1]), yc[0], i64(yc[1]), i64(rows),
            i64(cols), i64(tiles), i64(groups), np.float64(ar), np.float64(ac),
            np.float64(yr[2]), np.float64(yc[2])])
    if out1 is None:
        n1.realize(b1, (1,), 0)
        n2.realize(b2, (1,), 0)
    return True


def _out(out, n):
    """(address, stride, beta) of ``(dest, beta)`` for product node `n`, or None."""
    d, beta = out
    if d.kind != LEAF or d.dtype != n.dtype or d.shape != n.shape or \
            type(beta) not in (int, float):
        return None
    return _ptr(d), d.strides[0], float(beta)
