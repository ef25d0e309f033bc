"""The ``matmul`` barrier on the CUDA backend: cuBLAS for float16/32/64 and complex, gnumpy's
own tiled kernel for integer and bool products (cuBLAS has none that NumPy's wraparound
semantics allow).

Every product NumPy spells differently reaches this one op: ``matmul``/``@``, ``dot``,
``inner``, ``tensordot``, ``matvec``/``vecmat``, ``einsum`` contractions and
``linalg.multi_dot`` build a ``matmul`` node (after transposes and reshapes).

cuBLAS is column-major: the row-major product ``C = A @ B`` is computed as the column-major
``C^T = B^T A^T``, so a row-major operand is passed as it lies, and a transposed view
(``X.T``) as the transpose op: neither is copied.  A matrix whose strides neither layout
describes (a broadcast row, a reversed or doubly strided view) is copied to C order first.
Stacked products use the strided-batched GEMM when every operand's batch dimensions merge
into one stride (broadcast batches have stride 0); otherwise the outer batch dimensions loop
in Python.  Matrix-vector products of one matrix go to GEMV.
"""
from __future__ import annotations

import numpy as np

from .._graph import layout as L
from .._graph.ir import LEAF, leaf, scalar
from ..kernels import render_misc
from ..kernels.plan import FixedKey
from . import barriers
from .cuda_libs import DATA_TYPE, TYPE_PREFIX, bindings, libs
from .cuda_memory import leaf_ptr as _ptr

_N, _T = 0, 1                       # cublasOperation_t
_COMPUTE_32F = 68                   # cublasComputeType_t (float16 products accumulate in fp32)
_GEMM = {dt: p + "gemm" for dt, p in TYPE_PREFIX.items()}
_INT32_MAX = 2**31 - 1


def _operand(rows, cols, s_r, s_c):
    """How cuBLAS reads a row-major rows x cols matrix with element strides (s_r, s_c):
    ``(op, ld)`` of the column-major cols x rows matrix it is, or None when no leading
    dimension describes it (it needs a copy)."""
    if rows == 1 and cols == 1:
        return _N, 1
    if rows == 1:                       # the row stride is free: pick the case that fits
        if s_c == 1:
            return _N, max(cols, 1)
        return (_T, s_c) if s_c >= 1 else None
    if cols == 1:                       # the column stride is free
        return (_N, s_r) if s_r >= 1 else None
    if s_c == 1 and s_r >= cols:
        return _N, s_r
    if s_r == 1 and s_c >= rows:
        return _T, s_c
    return None


def _batch_dims(batch, a_sh, a_st, b_sh, b_st, n, m):
    """Merged batch dimensions ``[(count, stride_a, stride_b, stride_c)]`` (outermost
    first; broadcast dimensions have stride 0; the output is C-contiguous)."""
    def strides(sh, st):
        off = len(batch) - (len(sh) - 2)
        out = [0] * len(batch)
        for i, (d, s) in enumerate(zip(sh[:-2], st[:-2])):
            out[off + i] = 0 if d == 1 else s
        return out
    sa, sb = strides(a_sh, a_st), strides(b_sh, b_st)
    sc = L.c_strides(tuple(batch) + (n, m))[:len(batch)]
    dims = [(d, x, y, z) for d, x, y, z in zip(batch, sa, sb, sc) if d != 1]
    merged = []
    for d, x, y, z in dims:
        if merged:
            d0, x0, y0, z0 = merged[-1]
            if x0 == x * d and y0 == y * d and z0 == z * d:
                merged[-1] = (d0 * d, x, y, z)
                continue
        merged.append((d, x, y, z))
    return merged or [(1, 0, 0, 0)]


def _stacked_rows(dims, n, k, m, opa):
    """A's operand ``(op, ld)`` as one (count * n) x k matrix when a batch of products
    against one shared B (batch stride 0) is a single GEMM: A's matrices lie one under
    the other at one row stride (doitgen's ``(NR, NQ, 1, NP) @ (NP, NP)``, a stack of
    row vectors; any C-ordered ``(..., n, k) @ (k, m)``), and C's do (C order).  None
    otherwise."""
    if len(dims) != 1 or opa[0] != _N:
        return None
    count, sa, sb, sc = dims[0]
    if count == 1 or sb != 0 or sc != n * m or n * count > _INT32_MAX:
        return None
    lda = sa if n == 1 else opa[1]     # (a row vector's row stride is free)
    return (_N, lda) if sa == n * lda and max(k, 1) <= lda <= _INT32_MAX else None


_PLANS: dict = {}        # (dtype, operand layouts) -> _plan's result


def _plan(dt, a_sh, a_st, b_sh, b_st, shape):
    """The cuBLAS calls of one product, from its layouts alone (pointers are added at each
    call): ("none",) for an empty result, ("zero", nbytes) for k == 0, ("gemv", args),
    ("gemm", [calls: (m, n, k, opb, opa, sb, sa, sc, count, offsets b/a/c)]), or ("copy",
    a?, b?) when an operand's strides fit no leading dimension (it needs a C-ordered copy
    first; the copy's layout has a plan of its own)."""
    a_nd, b_nd = len(a_sh), len(b_sh)
    if a_nd < 2:
        a_sh, a_st = (1,) + a_sh, (0,) + a_st
    if b_nd < 2:
        b_sh, b_st = b_sh + (1,), b_st + (0,)
    n, k = a_sh[-2], a_sh[-1]
    m = b_sh[-1]
    batch = tuple(shape[:len(shape) - (a_nd >= 2) - (b_nd >= 2)])
    if n * m * L.prod(batch) == 0:
        return ("none",)
    if k == 0:
        return ("zero", L.prod(shape) * dt.itemsize)
    if max(n, m, k) > _INT32_MAX:
        raise NotImplementedError("matmul: dimensions past 2**31 - 1 are not supported on the "
                                  "CUDA backend")
    opa = _operand(n, k, a_st[-2], a_st[-1])
    opb = _operand(k, m, b_st[-2], b_st[-1])
    if opa is None or opb is None:
        return ("copy", opa is None, opb is None)
    dims = _batch_dims(batch, a_sh, a_st, b_sh, b_st, n, m)
    if len(dims) == 1 and dims[0][0] == 1 and (m == 1 or n == 1) and dt in _GEMM:
        return ("gemv", (n, k, m, opa, opb, a_st, b_st))
    rows = _stacked_rows(dims, n, k, m, opa)
    if rows is not None:
        return ("gemm", [(m, n * dims[0][0], k, opb, rows, 0, 0, 0, 1, 0, 0, 0)])
    *outer, (count, sa, sb, sc) = dims
    calls = []
    idx = [0] * len(outer)
    while True:
        oa = sum(i * d[1] for i, d in zip(idx, outer))
        ob = sum(i * d[2] for i, d in zip(idx, outer))
        oc = sum(i * d[3] for i, d in zip(idx, outer))
        calls.append((m, n, k, opb, opa, sb, sa, sc, count, ob, oa, oc))
        for d in range(len(outer) - 1, -1, -1):      # odometer over the outer dims
            idx[d] += 1
            if idx[d] < outer[d][0]:
                break
            idx[d] = 0
        else:
            return ("gemm", calls)


def _plan_of(dt, node):
    """``_plan`` of matmul `node`, remembered by its operands' layouts."""
    a, b = node.srcs
    key = (dt, a.shape, a.strides, b.shape, b.strides)
    p = _PLANS.get(key)
    if p is None:
        p = _plan(dt, a.shape, a.strides, b.shape, b.strides, node.shape)
        if len(_PLANS) >= 4096:
            _PLANS.clear()
        _PLANS[key] = p
    return p


def matmul(be, node, buf) -> None:
    if node.dtype not in DATA_TYPE:
        return _matmul_kernel(be, node, buf)
    _product(be, node, buf.ptr, 0)


def product_into(be, dest, node, beta, check=False) -> bool:
    """``dest[...] = node + beta * dest`` for matmul `node` (operands realized unless
    `check`) as one cuBLAS call with beta, writing 1-D or 2-D LEAF `dest` where it lies
    (NPBench's gemm, ``C[:] = alpha * A @ B + beta * C``; correlation's column,
    ``corr[i + 1:, i] = x @ Y``): a C-contiguous dest, a vector of any positive stride (the
    GEMV's increment) or rows of unit stride apart (the GEMM's leading dimension).  False,
    before any work, when the call cannot (another dtype or layout, a batch, k == 0)."""
    dt = node.dtype
    a, b = node.srcs
    if dt not in _GEMM or dest.dtype != dt or dest.shape != node.shape or \
            len(node.shape) not in (1, 2) or not a.shape[-1] or a.ndim > 2 or b.ndim > 2:
        return False
    out = None if L.is_c_contiguous(dest.shape, dest.strides) else _strided_out(dt, node, dest)
    if out is False:
        return False
    if not check:
        _product(be, node, _ptr(dest), beta, out)
    return True


def _strided_out(dt, node, dest):
    """How the one cuBLAS call of `node`'s product writes non-contiguous `dest`: ``("inc",
    k)``, a GEMV's output increment, or ``("ld", k)``, a GEMM's leading dimension; False
    when neither describes dest's layout, or an operand is not in memory yet (its layout
    is not known)."""
    a, b = node.srcs
    if a.kind != LEAF or b.kind != LEAF:
        return False
    p = _plan_of(dt, node)
    sh, st = dest.shape, dest.strides
    if p[0] == "gemv":
        n, k, m, opa, opb, a_st, b_st = p[1]
        inc = (b_st[-2] if m == 1 else a_st[-1]) if k > 1 else 1
        s = [x for d, x in zip(sh, st) if d != 1]
        if inc < 1 or len(s) != 1 or s[0] < 1:      # (the GEMM fallback writes C order)
            return False
        return "inc", s[0]
    if p[0] == "gemm" and len(p[1]) == 1 and p[1][0][8] == 1 and len(sh) == 2 and \
            (st[1] == 1 or sh[1] == 1) and st[0] >= max(sh[1], 1):
        return "ld", st[0]
    return False


def _product(be, node, pc, beta, out=None) -> None:
    """The cuBLAS calls of matmul `node` writing C-ordered output at `pc` as
    ``node + beta * output`` (`out`: ``_strided_out``'s layout of a strided output)."""
    a, b = node.srcs
    dt = node.dtype
    p = _plan_of(dt, node)
    kind = p[0]
    if kind == "copy":
        a = be._contiguous_copy(a) if p[1] else a
        b = be._contiguous_copy(b) if p[2] else b
        p = _plan(dt, a.shape, a.strides, b.shape, b.strides, node.shape)
        kind = p[0]
    if kind == "none":
        return
    if kind == "zero":          # (product_into takes no k == 0)
        be._check(be._driver.cuMemsetD8Async(pc, 0, p[1], be.stream.handle))
        return
    pa, pb = _ptr(a), _ptr(b)
    alpha = node.arg if node.arg is not None else 1     # a scale folded into the call
    if kind == "gemv":
        return _gemv(be, dt, *p[1], pa, pb, pc, alpha, beta, out[1] if out else 1)
    it = dt.itemsize
    for m, n, k, opb, opa, sb, sa, sc, count, ob, oa, oc in p[1]:
        _gemm(be, dt, m, n, k, opb, opa, pb + ob * it, sb, pa + oa * it, sa, pc + oc * it,
              sc, count, alpha, beta, out[1] if out else None)


def _gemm(be, dt, m, n, k, op1, op2, p1, s1, p2, s2, pc, sc, count, alpha=1,
          beta=0, ldc=None) -> None:
    """C (column-major m x n, leading dimension `ldc`, m when None) = op1(M1) @ op2(M2),
    `count` times with the given batch strides (elements)."""
    cublas = bindings("cublas")
    lb = libs(be)
    h = lb.blas()
    (t1, ld1), (t2, ld2) = op1, op2
    ldc = m if ldc is None else ldc
    if dt == np.float16:
        one = lb.host_scalar(alpha, np.float32)
        zero = lb.host_scalar(beta, np.float32)
        T = DATA_TYPE[dt]
        if count == 1:
            cublas.gemm_ex(h, t1, t2, m, n, k, one, p1, T, ld1, p2, T, ld2, zero, pc, T, ldc,
                           _COMPUTE_32F, -1)
        else:
            cublas.gemm_strided_batched_ex(h, t1, t2, m, n, k, one, p1, T, ld1, s1, p2, T,
                                           ld2, s2, zero, pc, T, m, sc, count, _COMPUTE_32F,
                                           -1)
        return
    one = lb.host_scalar(alpha, dt)
    zero = lb.host_scalar(beta, dt)
    name = _GEMM[dt]
    if count == 1:
        getattr(cublas, name)(h, t1, t2, m, n, k, one, p1, ld1, p2, ld2, zero, pc, ldc)
    else:
        getattr(cublas, name + "_strided_batched")(h, t1, t2, m, n, k, one, p1, ld1, s1, p2,
                                                   ld2, s2, zero, pc, m, sc, count)


def _gemv(be, dt, n, k, m, opa, opb, a_st, b_st, pa, pb, pc, alpha=1, beta=0,
          incy=1) -> None:
    """One matrix-vector product: ``A @ x`` (m == 1) or ``x @ B`` (n == 1), its output
    `incy` elements apart."""
    cublas = bindings("cublas")
    lb = libs(be)
    h = lb.blas()
    one = lb.host_scalar(alpha, dt)
    zero = lb.host_scalar(beta, dt)
    f = getattr(cublas, _GEMM[dt][0] + "gemv")
    if m == 1:          # y (n) = A (n x k) x (k): A stored as opa describes
        t, ld = opa
        inc = b_st[-2] if k > 1 else 1
        if inc < 1:
            return _gemm(be, dt, m, n, k, opb, opa, pb, 0, pa, 0, pc, 0, 1, alpha, beta)
        if t == _N:     # stored: A^T, column-major k x n
            f(h, _T, k, n, one, pa, ld, pb, inc, zero, pc, incy)
        else:           # stored: A, column-major n x k
            f(h, _N, n, k, one, pa, ld, pb, inc, zero, pc, incy)
        return
    t, ld = opb         # y (m) = x (k) B (k x m) = B^T x
    inc = a_st[-1] if k > 1 else 1
    if inc < 1:
        return _gemm(be, dt, m, n, k, opb, opa, pb, 0, pa, 0, pc, 0, 1, alpha, beta)
    if t == _N:         # stored: B^T, column-major m x k
        f(h, _N, m, k, one, pb, ld, pa, inc, zero, pc, incy)
    else:               # stored: B, column-major k x m
        f(h, _T, k, m, one, pb, ld, pa, inc, zero, pc, incy)


# ------------------------------------------------------------------ integer and bool products

def _matmul_kernel(be, node, buf) -> None:
    """gnumpy's 16 x 16 tiled kernel: integer and bool matmul (wraparound as NumPy)."""
    a, b = node.srcs
    dt = node.dtype
    a_nd, b_nd = a.ndim, b.ndim
    ash = a.shape if a_nd >= 2 else (1,) + a.shape
    ast = a.strides if a_nd >= 2 else (0,) + a.strides
    bsh = b.shape if b_nd >= 2 else b.shape + (1,)
    bst = b.strides if b_nd >= 2 else b.strides + (0,)
    n, kk, m = ash[-2], ash[-1], bsh[-1]
    batch = tuple(node.shape[:len(node.shape) - (a_nd >= 2) - (b_nd >= 2)])
    nbd = len(batch)
    if nbd > 3:
        raise NotImplementedError("integer matmul with more than 3 batch dimensions is not "
                                  "implemented on the CUDA backend yet")

    def bstrides(sh, st):
        off = nbd - (len(sh) - 2)
        out = [0] * nbd
        for i, (d, s) in enumerate(zip(sh[:-2], st[:-2])):
            out[off + i] = 0 if d == 1 else s
        return out + [0] * (3 - nbd)
    abs_, bbs = bstrides(ash, ast), bstrides(bsh, bst)
    bd = list(batch) + [1] * (3 - nbd)
    nb = L.prod(batch)
    if n * m * nb == 0:
        return
    if kk == 0:
        be.write(leaf(buf, dt, node.shape, L.c_strides(node.shape), 0, be.device),
                 scalar(0, dt, node.shape, be.device))
        return
    k = be._misc_kernel(FixedKey(render_misc.matmul_source, (dt,)))
    T = 16
    grid = (-(-m // T), -(-n // T), max(1, min(nb, 65535)))
    i64 = np.int64
    args = [_ptr(a), _ptr(b), buf.ptr, i64(nb), i64(n), i64(m), i64(kk),
            i64(abs_[0]), i64(ast[-2]), i64(ast[-1]), i64(bbs[0]), i64(bst[-2]),
            i64(bst[-1]), i64(nbd), i64(bd[1]), i64(bd[2]), i64(abs_[1]), i64(abs_[2]),
            i64(bbs[1]), i64(bbs[2])]
    be._go(k, grid, T * T, args)


def _kernels(node):
    """The kernels the CUDA implementation would compile for `node` (CPU-only CI compiles
    them): only integer and bool products use a kernel of gnumpy's own."""
    dt = node.dtype
    if dt in DATA_TYPE:
        return []
    return [FixedKey(render_misc.matmul_source, (dt,))]


barriers.register("matmul", cuda=matmul, kernels=_kernels, into=product_into)
