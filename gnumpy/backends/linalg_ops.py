"""The CPU implementations of ``gnumpy.linalg``'s library calls (``_api/libcall``):
NumPy's ``numpy.linalg``.  On CUDA the same ops run cuSOLVER (``linalg/_cusolver``).

Every op takes stacks already validated by ``gnumpy.linalg`` (working dtype float32,
float64, complex64 or complex128; square where the op needs it; equal batch shapes; no
empty stack) and returns exactly what NumPy's function returns for them, as a tuple:

======== ============================= =========================================
op       operands, keywords            results
======== ============================= =========================================
solve    a (..., n, n), b (..., n, k)  x (..., n, k)
inv      a; check (False: inf/NaN       a^-1
         for a singular matrix, as
         NumPy's ``cond`` wants)
det      a                             det (...)
slogdet  a                             sign (...), logabsdet (...)
cholesky a; upper                      L (or U)
qr       a (..., m, n); mode           (Q, R) | (R,) | (h, tau)
eigh     a; UPLO, vectors              (w, v) | (w,)
eig      a; vectors                    (w, v) | (w,), real when every w is real
svd      a; full_matrices, compute_uv  (U, S, Vh) | (S,)
lstsq    a (m, n), b (m, k); rcond     x, residuals, rank, s  (CPU only: CUDA
                                       builds it from svd in gnumpy.linalg)
======== ============================= =========================================

NumPy's errors (LinAlgError and its messages) come from NumPy on the CPU backend and from
the status cuSOLVER reports on CUDA.
"""
from __future__ import annotations

import numpy as np


def _solve(a, b):
    return (np.linalg.solve(a, b),)


def _inv(a, check=True):
    if check:
        return (np.linalg.inv(a),)
    # NumPy's cond: the gufunc under ignored errors gives NaN for a singular matrix
    from numpy.linalg import _umath_linalg
    sig = "D->D" if a.dtype.kind == "c" else "d->d"
    with np.errstate(all="ignore"):
        return (_umath_linalg.inv(a, signature=sig).astype(a.dtype),)


def _det(a):
    return (np.linalg.det(a),)


def _slogdet(a):
    return tuple(np.linalg.slogdet(a))


def _cholesky(a, upper=False):
    return (np.linalg.cholesky(a, upper=upper),)


def _qr(a, mode="reduced"):
    r = np.linalg.qr(a, mode=mode)
    return (r,) if mode == "r" else tuple(r)


def _eigh(a, UPLO="L", vectors=True):
    if vectors:
        return tuple(np.linalg.eigh(a, UPLO=UPLO))
    return (np.linalg.eigvalsh(a, UPLO=UPLO),)


def _eig(a, vectors=True):
    if vectors:
        return tuple(np.linalg.eig(a))
    return (np.linalg.eigvals(a),)


def _svd(a, full_matrices=True, compute_uv=True):
    if compute_uv:
        return tuple(np.linalg.svd(a, full_matrices=full_matrices))
    return (np.linalg.svd(a, compute_uv=False),)


def _lstsq(a, b, rcond=None):
    return tuple(np.linalg.lstsq(a, b, rcond=rcond))


# NumPy's routine of each op, the CPU implementation of ``gnumpy.linalg``'s library calls
CPU = {"solve": _solve, "inv": _inv, "det": _det, "slogdet": _slogdet, "cholesky": _cholesky,
       "qr": _qr, "eigh": _eigh, "eig": _eig, "svd": _svd, "lstsq": _lstsq}
