"""``solve``, ``inv``, ``det``, ``slogdet``, ``cholesky`` and ``qr`` of small matrices on
CUDA: gnumpy's one-launch kernels (``kernels/render_linalg.py``, ``kernels/render_qr.py``:
one block per matrix, the factorization in shared memory) instead of cuSOLVER's getrf and
getrs, potrf, or geqrf and orgqr, per matrix.

Orders up to ``config.linalg_small_n`` (and the kernel's shared-memory bound for the
dtype) take it; larger ones stay with cuSOLVER (``_cusolver``).  Results are row-major
stacks; the statuses are read once, as cuSOLVER's are.
"""
from __future__ import annotations

import numpy as np

from .. import _dtypes as D
from .._config import config
from .._graph import layout as L
from .._graph.ir import LEAF, leaf
from .._graph.realize import write
from ..backends.cuda_libs import libs
from ..backends.cuda_memory import leaf_ptr
from ..kernels import render_linalg as RL
from ..kernels import render_qr
from ..kernels.plan import FixedKey

LinAlgError = np.linalg.LinAlgError
_I32, _I64 = np.int32, np.int64


def fits(a, k=None) -> bool:
    """Does the stack of square matrices `a` (LEAF or lazy node), with `k` right-hand
    sides (None: the factorization alone), take the small kernel?  Every order up to the
    bound but one matrix past order 32 with right-hand sides a thread each, where
    cuSOLVER measured faster (H100, a 50 x 50 complex128 system of 150 columns: 0.22
    against 0.30 ms a call; docs/perf-notes.md, "Small matrices in one launch"), and a
    few matrices of very many columns."""
    n, batch = a.shape[-1], L.prod(a.shape[:-2])
    if not 0 < n <= min(config.linalg_small_n, RL.nmax(a.dtype)) or batch >= 1 << 31:
        return False
    if k is not None and k > _MANY_COLUMNS and batch < _MANY_MATRICES:
        return False                # (one block a matrix would leave the GPU idle)
    if k is None or n <= 32 or batch > 1:
        return True
    return RL.warp_columns(n, k, RL.threads(RL.nmax_class(n, a.dtype)))


# A few matrices with many right-hand sides go to cuSOLVER: the kernel solves a matrix's
# columns in one block (not measured: a bound, not a tuned threshold)
_MANY_COLUMNS = 1024
_MANY_MATRICES = 128


def _compact(be, node):
    """`node` as a LEAF over a compact row-major stack: itself when it is one, else a
    fresh copy (a lazy operand is computed straight into it)."""
    if node.kind == LEAF and node.strides == L.c_strides(node.shape):
        return node
    buf = be.pool.alloc(max(L.prod(node.shape), 1) * node.dtype.itemsize)
    dest = leaf(buf, node.dtype, node.shape, L.c_strides(node.shape), 0, be.device)
    if node.kind == LEAF:
        be.write(dest, node)
    else:
        write(dest, node)
    return dest


def _new(be, dt, shape):
    buf = be.pool.alloc(max(L.prod(shape), 1) * np.dtype(dt).itemsize)
    return leaf(buf, np.dtype(dt), tuple(shape), L.c_strides(shape), 0, be.device)


def _launch(be, source, a, ptrs, scalars, order=None, status=True):
    """Launch kernel `source` (``render_linalg``, ``render_qr``) over the stack `a` with
    the arrays `ptrs` (None: a null pointer), the statuses' buffer (with `status`) and
    ``scalars(nt)`` (`nt`: the block's threads) as parameters, compiled for matrices of
    `order` (default: a's last dimension); (the statuses' buffer, one int32 a matrix, or
    None, the number of matrices)."""
    batch = L.prod(a.shape[:-2])
    nm = RL.nmax_class(a.shape[-1] if order is None else order, a.dtype)
    nt = RL.threads(nm)
    kern = be._misc_kernel(FixedKey(source, (a.dtype, nm, nt)))
    info = be.pool.alloc(4 * batch) if status else None
    be._go(kern, batch, nt, [0 if v is None else leaf_ptr(v) for v in ptrs] +
           ([info.ptr] if status else []) + scalars(nt))
    return info, batch


def _run(be, a, b=None, k=0, ident=False, x=None, sign=None, logdet=None, det=None):
    """The LU kernel over the stack `a` (``_launch``'s answer)."""
    n = a.shape[-1]
    return _launch(be, RL.lu_source, a, (a, b, x, sign, logdet, det), lambda nt: [
        _I64(n), _I64(k), _I32(1 if ident else 0), _I32(RL.warp_columns(n, k, nt))])


def _check(be, info, batch, message="Singular matrix") -> None:
    """LinAlgError(`message`) when a matrix's status is positive (one device-to-host
    read)."""
    if (libs(be).read_info(info, batch) > 0).any():
        raise LinAlgError(message)


def solve(be, a, b):
    a, b = _compact(be, a), _compact(be, b)
    k = b.shape[-1]
    x = _new(be, a.dtype, b.shape)
    info, batch = _run(be, a, b, k, x=x if k else None)
    _check(be, info, batch)
    return (x,)


def inv(be, a, check=True):
    a = _compact(be, a)
    x = _new(be, a.dtype, a.shape)
    info, batch = _run(be, a, None, a.shape[-1], ident=True, x=x)
    if check:
        _check(be, info, batch)
    return (x,)


def slogdet(be, a):
    """NumPy's (sign, logdet) of each matrix: (0, -inf) for a singular one."""
    a = _compact(be, a)
    sign = _new(be, a.dtype, a.shape[:-2])
    logdet = _new(be, D.real_dtype(a.dtype), a.shape[:-2])
    _run(be, a, sign=sign, logdet=logdet)
    return sign, logdet


def det(be, a):
    """NumPy's det of each matrix, ``sign * exp(logdet)`` in double precision."""
    a = _compact(be, a)
    d = _new(be, a.dtype, a.shape[:-2])
    _run(be, a, det=d)
    return (d,)


def cholesky(be, a, upper=False):
    """The lower (or `upper`) Cholesky factor of each matrix; LinAlgError when one is not
    positive definite."""
    a = _compact(be, a)
    out = _new(be, a.dtype, a.shape)
    info, batch = _launch(be, RL.chol_source, a, (a, out),
                          lambda nt: [_I64(a.shape[-1]), _I32(1 if upper else 0)])
    _check(be, info, batch, "Matrix is not positive definite")
    return (out,)


def fits_qr(a) -> bool:
    """Does the stack `a` (m x n matrices) take the small QR kernel?  Both sides up to the
    bound; one matrix only up to ``_QR_ALONE`` rows and columns (one block factors a
    larger one slower than cuSOLVER's launches on an H100: float64 48 x 48, 0.23 against
    0.22 ms a call; docs/perf-notes.md, "`qr` of small matrices in one launch")."""
    m, n = a.shape[-2:]
    batch = L.prod(a.shape[:-2])
    big = max(m, n)
    return 0 < min(m, n) and big <= min(config.linalg_small_n, RL.nmax(a.dtype)) and \
        batch < 1 << 31 and (batch > 1 or big <= _QR_ALONE)


_QR_ALONE = 32


def qr(be, a, mode="reduced"):
    """NumPy's qr of each matrix (LAPACK's Householder steps, ``render_qr.qr_source``):
    (h, tau) for 'raw', (r,) for 'r', else (q, r)."""
    a = _compact(be, a)
    batch, (m, n) = a.shape[:-2], a.shape[-2:]
    k = min(m, n)
    mc = m if mode == "complete" and m > n else k
    h = tau = r = q = None
    if mode == "raw":
        h, tau = _new(be, a.dtype, batch + (n, m)), _new(be, a.dtype, batch + (k,))
    else:
        r = _new(be, a.dtype, batch + (mc, n))
        if mode != "r":
            q = _new(be, a.dtype, batch + (m, mc))
    _launch(be, render_qr.qr_source, a, (a, h, tau, r, q),
            lambda nt: [_I64(m), _I64(n), _I64(mc)], order=max(m, n), status=False)
    return (h, tau) if mode == "raw" else (r,) if mode == "r" else (q, r)
