"""cuSOLVER implementations of the linear-algebra library calls (``_common.call``) on the
CUDA backend.

Each function takes the backend and LEAF nodes (stacks validated by ``gnumpy.linalg``: one
batch shape, a working dtype, never empty), copies its operand into a fresh buffer in the
layout the routine wants (cuSOLVER overwrites its input; the caller's array is never
touched), calls cuSOLVER through ``nvmath.bindings.cusolverDn`` once per matrix of the
stack (the 64-bit ``x*`` API, one function for float32/64 and complex64/128;
``xsyev_batched`` for stacks of small Hermitian matrices; ``orgqr``/``ungqr`` typed),
reads the statuses back once (one sync, ``Libs.read_info``) and returns LEAF nodes.

cuSOLVER is column-major.  A C-order copy of a row-major matrix A is the column-major
A^T; a copy in per-matrix Fortran order is A itself.  The choice per routine:

* ``solve``, ``inv``, ``det``, ``slogdet``: C copy, LU of A^T (``xgetrf``).  ``solve``
  copies B to Fortran order and runs ``xgetrs`` with trans=T, (A^T)^T X = B: X comes back
  column-major and is returned as a Fortran-strided view.  ``inv`` solves A^T X = I
  (trans=N): the column-major (A^T)^-1 is A^-1 in row-major order.  det A^T = det A.
* ``cholesky``: Fortran copy and ``xpotrf`` with NumPy's own triangle (it reads A's
  lower triangle, or the upper one for ``upper``); the factor comes back column-major, a
  Fortran-strided view, the triangle potrf leaves alone zeroed.  potrf's lower factor is
  twice as fast as its upper one, which the C copy's A^T would need (H100, f64 4096²:
  2.5-2.6 ms against 5.3, CuPy's upper 5.2; 1024²: 0.55-0.63 against 1.06-1.16).
* ``qr``: Fortran copy; ``xgeqrf``'s result read row-major is NumPy's raw ``h``; R is
  taken from it before ``orgqr``/``ungqr`` overwrites it with Q (in place, or in an m x m
  buffer for mode 'complete' of a tall matrix).
* ``eigh``, ``eig``: Fortran copy; the eigenvectors (columns) come back column-major and
  are returned as Fortran-strided views.  ``xgeev`` of real input returns complex
  eigenvalues and real vectors in LAPACK's conjugate-pair format, assembled here.
* ``svd``: in ``_cusolver_svd``.
"""
from __future__ import annotations

import numpy as np

from .. import _dtypes as D
from .._api._common import wrap as _wrap
from .._api.creation.creation import arange, eye, tril, triu, zeros
from .._api.shape.diagonals import diagonal
from .._api.elementwise.elementwise import apply, where
from .._api.shape.manipulation import broadcast_to, concat
from .._api.reductions.reductions import any as any_, count_nonzero, prod as prod_, sum as sum_
from .._graph import layout as L
from .._graph.ir import LEAF, leaf
from .._graph.realize import materialize, write
from ..backends.cuda_libs import DATA_TYPE, TYPE_PREFIX, bindings, libs
from ..backends.cuda_memory import leaf_ptr as _ptr
from . import _small

LinAlgError = np.linalg.LinAlgError

_LOWER, _UPPER = 0, 1               # cublasFillMode_t
_OP_N, _OP_T = 0, 1                 # cublasOperation_t
_NOVECTOR, _VECTOR = 0, 1           # cusolverEigMode_t
_ORGQR = {dt: p + ("ungqr" if dt.kind == "c" else "orgqr")
          for dt, p in TYPE_PREFIX.items()}
_COMPLEX = {np.dtype(np.float32): np.dtype(np.complex64),
            np.dtype(np.float64): np.dtype(np.complex128)}
# Whether this NumPy's eig returns complex results for real input with real eigenvalues
# (newer releases always do; older ones return the real dtype then): gnumpy follows it.
_EIG_ALWAYS_COMPLEX = np.linalg.eigvals(np.eye(1)).dtype.kind == "c"
_SYEV_BATCHED_N = 32                # xsyev_batched for stacks of matrices up to this order
_INT32_MAX = 2**31 - 1


# ------------------------------------------------------------------ layouts (pure)

def stack_strides(shape, fortran: bool) -> tuple:
    """Element strides of a compact stack of matrices of `shape` (..., m, n): row-major
    matrices, or column-major ones when `fortran`; matrix i starts at i * m * n."""
    m, n = shape[-2:]
    batch = L.c_strides(tuple(shape[:-2]) + (m * n,))[:-1]
    return tuple(batch) + ((1, m) if fortran else (n, 1))


# ------------------------------------------------------------------ helpers

def _leaves(*arrays) -> tuple:
    """The LEAF nodes of gnumpy arrays (materialized now, one schedule)."""
    nodes = [x._node for x in arrays]
    materialize(nodes)
    return tuple(nodes)


def _new(be, dtype, shape, fortran=False):
    """A LEAF over a fresh compact buffer of a stack of matrices (or of vectors)."""
    dtype = np.dtype(dtype)
    buf = be.pool.alloc(max(L.prod(shape), 1) * dtype.itemsize)
    strides = stack_strides(shape, fortran) if len(shape) >= 2 else L.c_strides(shape)
    return leaf(buf, dtype, tuple(shape), strides, 0, be.device)


def _copy(be, node, fortran: bool):
    """A fresh copy of the stack `node`, each matrix row-major or column-major (a lazy
    `node`, an operand the call left unmaterialized, is computed straight into it)."""
    dest = _new(be, node.dtype, node.shape, fortran)
    if L.prod(node.shape):
        if node.kind == LEAF:
            be.write(dest, node)
        else:
            write(dest, node)
    return dest


def _view(node, shape, fortran: bool):
    """Another LEAF over `node`'s compact buffer (a result read in another layout)."""
    return leaf(node.buf, node.dtype, tuple(shape), stack_strides(shape, fortran),
                node.offset, node.device)


def _columns(node, cols: int):
    """The first `cols` columns of each column-major matrix of the stack `node`."""
    return leaf(node.buf, node.dtype, node.shape[:-1] + (cols,), node.strides, node.offset,
                node.device)


_NO_HOST_WORK = (np.zeros(1, np.uint8),)        # the host workspace of a routine that
_NO_HOST_WORK += (_NO_HOST_WORK[0].ctypes.data,)  # asks for none, and its address


class _Solver:
    """The cuSOLVER module, handle, params and workspaces of one operation (kept alive
    until its statuses are read)."""

    def __init__(self, be, dtype) -> None:
        self.be = be
        self.cus = bindings("cusolverDn")
        self.lb = libs(be)
        self.h = self.lb.solver()
        self.p = self.lb.solver_params()
        self.T = DATA_TYPE[np.dtype(dtype)]
        self.keep = []
        self.host_work = False

    def work(self, sizes):
        """(device pointer, device bytes, host pointer, host bytes) of workspaces of the
        sizes an ``x*_buffer_size`` query returned."""
        dbytes, hbytes = int(sizes[0]), int(sizes[1])
        d = self.lb.workspace(dbytes)
        if not hbytes:          # (the usual case: one shared byte, no array a call)
            self.keep.append(d)
            return d.ptr, dbytes, _NO_HOST_WORK[1], 0
        hw = np.empty(hbytes, np.uint8)
        self.keep += [d, hw]
        self.host_work = True
        return d.ptr, dbytes, hw.ctypes.data, hbytes

    def finish(self) -> None:
        """End an operation that reads no status: wait for the stream only when a routine
        was given host workspace (it must outlive the routine's host part)."""
        if self.host_work:
            self.be.stream.sync()
        self.keep.clear()

    def info(self, n):
        buf = self.be.pool.alloc(4 * max(n, 1))
        self.keep.append(buf)
        return buf

    def check(self, info, n, routine, message, nan=None):
        """Raise LinAlgError(`message`) when one of the `n` statuses at `info` is positive
        or, with `nan` (a stack of n results), when a result holds NaN (LAPACK's failure
        on NaN input, which NumPy reports); RuntimeError when cuSOLVER refused an
        argument.  One device-to-host read."""
        count = n
        if nan is not None:             # the NaN flags go behind the statuses
            flags = any_(apply("isnan", _wrap(nan).reshape(n, -1)), axis=-1).astype(np.int32)
            dest = leaf(info, np.dtype(np.int32), (n,), (1,), n, self.be.device)
            write(dest, flags._node)         # schedules the reduction, then the copy
            count = 2 * n
        st = self.lb.read_info(info, count).tolist()
        self.keep.clear()
        for v in st[:n]:
            if v < 0:
                raise RuntimeError(f"cuSOLVER {routine} refused its argument {-v} "
                                   f"(a gnumpy bug)")
        for v in st:
            if v > 0:
                raise LinAlgError(message)


def _batch(node) -> int:
    return L.prod(node.shape[:-2])


# ------------------------------------------------------------------ LU family

def _getrf(s, a, info):
    """LU factorization in place of each matrix of the fresh stack `a` (column-major
    ``xgetrf``; statuses at `info`); the pivots (int64, 1-based) as a LEAF."""
    n, B, it = a.shape[-1], _batch(a), a.dtype.itemsize
    piv = _new(s.be, np.int64, a.shape[:-1])
    pa, pp = _ptr(a), _ptr(piv)
    w = s.work(s.cus.xgetrf_buffer_size(s.h, s.p, n, n, s.T, pa, n, s.T))
    for i in range(B):
        s.cus.xgetrf(s.h, s.p, n, n, s.T, pa + i * n * n * it, n, pp + i * n * 8, s.T, *w,
                     info.ptr + 4 * i)
    return piv


def _getrs(s, lu, piv, x, trans, info, first):
    """Solve with the factored stack `lu` for the column-major right-hand sides `x`
    (n x k each, overwritten); statuses at `info` from entry `first`."""
    n, k, B = x.shape[-2], x.shape[-1], _batch(x)
    it = x.dtype.itemsize
    pa, pp, px = _ptr(lu), _ptr(piv), _ptr(x)
    for i in range(B):
        s.cus.xgetrs(s.h, s.p, trans, n, k, s.T, pa + i * n * n * it, n, pp + i * n * 8,
                     s.T, px + i * n * k * it, n, info.ptr + 4 * (first + i))


def solve(be, a, b):
    if _small.fits(a, b.shape[-1]):
        return _small.solve(be, a, b)
    s = _Solver(be, a.dtype)
    B = _batch(a)
    lu = _copy(be, a, False)                      # column-major A^T
    x = _copy(be, b, True)                        # column-major B, overwritten with X
    info = s.info(2 * B)
    piv = _getrf(s, lu, info)
    count = B
    if x.shape[-1]:
        _getrs(s, lu, piv, x, _OP_T, info, B)     # (A^T)^T X = B
        count = 2 * B
    s.check(info, count, "getrf/getrs", "Singular matrix")
    return (x,)


def inv(be, a, check=True):
    if _small.fits(a, a.shape[-1]):
        return _small.inv(be, a, check)
    s = _Solver(be, a.dtype)
    B, n = _batch(a), a.shape[-1]
    lu = _copy(be, a, False)                      # column-major A^T
    ident = broadcast_to(eye(n, dtype=a.dtype, device=be.device), a.shape)
    x = _copy(be, ident._node, False)             # I (either order)
    info = s.info(2 * B)
    piv = _getrf(s, lu, info)
    _getrs(s, lu, piv, x, _OP_N, info, B)         # A^T X = I: X^T = A^-1, row-major X^T
    if check:
        s.check(info, 2 * B, "getrf/getrs", "Singular matrix")
    else:
        s.finish()
    return (x,)


def _lu_parts(be, a):
    """(U's diagonals (..., n), odd row permutation (...)) of the LU of each matrix:
    a singular matrix has a zero on its diagonal (getrf's positive status, not read)."""
    s = _Solver(be, a.dtype)
    lu = _copy(be, a, False)                      # det A^T = det A
    piv = _getrf(s, lu, s.info(_batch(a)))
    s.finish()
    n = a.shape[-1]
    d = diagonal(_wrap(lu), axis1=-2, axis2=-1)
    moved = count_nonzero(_wrap(piv) != arange(1, n + 1, device=be.device), axis=-1)
    return d, (moved % 2) == 1


def _sign_logdet(d, odd):
    """NumPy's slogdet of the LU diagonals `d` with the permutation's parity `odd`: the
    product of d / |d| and the sum of log |d|; (0, -inf) for a zero on the diagonal."""
    mag = apply("absolute", d)
    zero = mag == 0
    unit = d / where(zero, 1, mag).astype(d.dtype)
    sign = where(odd, -1.0, 1.0).astype(d.dtype) * prod_(unit, axis=-1)
    sign = where(any_(zero, axis=-1), 0, sign).astype(d.dtype)
    return sign, sum_(apply("log", mag), axis=-1)


def det(be, a):
    """NumPy's det: ``sign * exp(logdet)`` in double precision, cast to the input's
    precision (an overflow of it is an infinity, a singular matrix +0.0)."""
    if _small.fits(a):
        return _small.det(be, a)
    d, odd = _lu_parts(be, a)
    sign, logdet = _sign_logdet(d.astype(D.promote(d.dtype, D.float64)), odd)
    return _leaves((sign * apply("exp", logdet)).astype(d.dtype))


def slogdet(be, a):
    if _small.fits(a):
        return _small.slogdet(be, a)
    return _leaves(*_sign_logdet(*_lu_parts(be, a)))


# ------------------------------------------------------------------ Cholesky, QR

def cholesky(be, a, upper=False):
    if _small.fits(a):
        return _small.cholesky(be, a, upper)
    s = _Solver(be, a.dtype)
    n, B, it = a.shape[-1], _batch(a), a.dtype.itemsize
    c = _copy(be, a, True)                        # column-major A
    uplo = _UPPER if upper else _LOWER            # NumPy's triangle (see the docstring)
    info = s.info(B)
    pa = _ptr(c)
    w = s.work(s.cus.xpotrf_buffer_size(s.h, s.p, uplo, n, s.T, pa, n, s.T))
    for i in range(B):
        s.cus.xpotrf(s.h, s.p, uplo, n, s.T, pa + i * n * n * it, n, s.T, *w,
                     info.ptr + 4 * i)
    s.check(info, B, "potrf", "Matrix is not positive definite")
    x = _wrap(c)        # the triangle stays lazy: it fuses into what reads the factor
    return ((triu(x) if upper else tril(x))._node,)     # (cholesky2's L + triu(A, 1))


def qr(be, a, mode="reduced"):
    if _small.fits_qr(a):
        return _small.qr(be, a, mode)
    s = _Solver(be, a.dtype)
    dt, it = a.dtype, a.dtype.itemsize
    batch, (m, n) = a.shape[:-2], a.shape[-2:]
    k, B = min(m, n), _batch(a)
    h = _copy(be, a, True)                        # column-major A, lda = m
    tau = _new(be, dt, batch + (k,))
    info = s.info(B)                              # geqrf/orgqr report bad arguments only
    ph, pt = _ptr(h), _ptr(tau)
    w = s.work(s.cus.xgeqrf_buffer_size(s.h, s.p, m, n, s.T, ph, m, s.T, pt, s.T))
    for i in range(B):
        s.cus.xgeqrf(s.h, s.p, m, n, s.T, ph + i * m * n * it, m, s.T, pt + i * k * it,
                     s.T, *w, info.ptr + 4 * i)
    if mode == "raw":                             # NumPy's h: the result read row-major
        s.finish()
        return _view(h, batch + (n, m), False), tau
    mc = m if mode == "complete" and m > n else k
    r, = _leaves(triu(_wrap(h)[..., :mc, :]))   # before orgqr overwrites h
    if mode == "r":
        return (r,)
    q = h
    if mc > n:                                    # Q is m x m: room for the other columns
        q = _new(be, dt, batch + (m, m), True)
        be.write(_columns(q, n), h)
    pq, qstep = _ptr(q), m * q.shape[-1] * it
    name = _ORGQR[dt]
    lwork = int(getattr(s.cus, name + "_buffer_size")(s.h, m, mc, k, pq, m, pt))
    work = s.lb.workspace(lwork * it)
    for i in range(B):
        getattr(s.cus, name)(s.h, m, mc, k, pq + i * qstep, m, pt + i * k * it, work.ptr,
                             lwork, info.ptr + 4 * i)
    s.keep.append(work)
    s.finish()
    return _columns(q, mc), r


# ------------------------------------------------------------------ eigenvalues

def eigh(be, a, UPLO="L", vectors=True):
    s = _Solver(be, a.dtype)
    batch, n, B = a.shape[:-2], a.shape[-1], _batch(a)
    rdt = np.dtype(a.dtype.char.lower())
    v = _copy(be, a, True)                        # column-major A
    wv = _new(be, rdt, batch + (n,))
    TW = DATA_TYPE[rdt]
    uplo = _LOWER if UPLO == "L" else _UPPER
    jobz = _VECTOR if vectors else _NOVECTOR
    info = s.info(B)
    pv, pw, it = _ptr(v), _ptr(wv), a.dtype.itemsize
    if 1 < B and n <= _SYEV_BATCHED_N and n * n * B <= _INT32_MAX:
        w = s.work(s.cus.xsyev_batched_buffer_size(s.h, s.p, jobz, uplo, n, s.T, pv, n, TW,
                                                   pw, s.T, B))
        s.cus.xsyev_batched(s.h, s.p, jobz, uplo, n, s.T, pv, n, TW, pw, s.T, *w, info.ptr,
                            B)
    else:
        w = s.work(s.cus.xsyevd_buffer_size(s.h, s.p, jobz, uplo, n, s.T, pv, n, TW, pw,
                                            s.T))
        for i in range(B):
            s.cus.xsyevd(s.h, s.p, jobz, uplo, n, s.T, pv + i * n * n * it, n, TW,
                         pw + i * n * rdt.itemsize, s.T, *w, info.ptr + 4 * i)
    s.check(info, B, "syevd", "Eigenvalues did not converge")
    return (wv, v) if vectors else (wv,)


def assemble_pairs(vr, wi):
    """Complex eigenvectors from LAPACK's real format (gnumpy arrays): for a pair
    w_j, w_j+1 = x +- iy (y > 0 first), columns j and j+1 of `vr` are the real and
    imaginary parts of v_j, and v_j+1 is its conjugate."""
    pos = (wi > 0)[..., None, :]
    neg = (wi < 0)[..., None, :]
    zero = zeros(vr.shape[:-1] + (1,), dtype=vr.dtype, device=vr.device)
    nxt = concat([vr[..., 1:], zero], axis=-1)      # column j + 1 at j
    prv = concat([zero, vr[..., :-1]], axis=-1)     # column j - 1 at j
    re = where(neg, prv, vr)
    im = where(pos, nxt, where(neg, -vr, 0))
    cdt = _COMPLEX[vr.dtype]
    return re.astype(cdt) + im.astype(cdt) * 1j


def eig(be, a, vectors=True):
    s = _Solver(be, a.dtype)
    dt, it = a.dtype, a.dtype.itemsize
    batch, n, B = a.shape[:-2], a.shape[-1], _batch(a)
    real = dt.kind == "f"
    cdt = _COMPLEX[dt] if real else dt
    x = _copy(be, a, True)                        # column-major A
    wv = _new(be, cdt, batch + (n,))
    vr = _new(be, dt, a.shape, True) if vectors else x      # x: a pointer geev ignores
    TW = DATA_TYPE[cdt]
    jobvr = _VECTOR if vectors else _NOVECTOR
    info = s.info(B)
    px, pw, pv = _ptr(x), _ptr(wv), _ptr(vr)
    w = s.work(s.cus.xgeev_buffer_size(s.h, s.p, _NOVECTOR, jobvr, n, s.T, px, n, TW, pw,
                                       s.T, pv, n, s.T, pv, n, s.T))
    for i in range(B):
        pvi = pv + i * n * n * it
        s.cus.xgeev(s.h, s.p, _NOVECTOR, jobvr, n, s.T, px + i * n * n * it, n, TW,
                    pw + i * n * cdt.itemsize, s.T, pvi, n, s.T, pvi, n, s.T, *w,
                    info.ptr + 4 * i)
    s.check(info, B, "geev", "Eigenvalues did not converge")
    if not real:
        return (wv, vr) if vectors else (wv,)
    wa = _wrap(wv)
    if not _EIG_ALWAYS_COMPLEX and not bool(any_(apply("imag", wa) != 0)):
        # all real: NumPy's real dtypes (NumPy releases that always return complex
        # results skip this)
        return _leaves(apply("real", wa)) + ((vr,) if vectors else ())
    if not vectors:
        return (wv,)
    return (wv,) + _leaves(assemble_pairs(_wrap(vr), apply("imag", wa)))
