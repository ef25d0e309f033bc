"""Eigenvalue problems of gnumpy.linalg: ``eigh`` and ``eigvalsh`` (Hermitian, LAPACK's
``syevd``/``heevd``), ``eig`` and ``eigvals`` (general, LAPACK's ``geev``).

Arguments are checked as NumPy checks them, then ONE library call is made: NumPy's LAPACK
on the CPU backend, cuSOLVER on CUDA (``xsyevd``, ``xsyev_batched``, ``xgeev``).  ``eig``
of real input returns real arrays when every eigenvalue of the stack is real, as NumPy
does (one device-to-host read on CUDA decides the dtype).
"""
from __future__ import annotations

import numpy as np

from .._api.elementwise.elementwise import apply
from .._api.reductions.reductions import all as all_
from ._common import (EigResult, EighResult, LinAlgError, arr, assert_stacked_square, call,
                      empty, real_of, result_dtype, uplo)


def _eigh(x, UPLO, vectors):
    u = uplo(UPLO)
    a = arr(x)
    assert_stacked_square(a)
    dt = result_dtype(a)
    if a.size == 0:
        w = empty(a.shape[:-1], real_of(dt), a.device)
        return (w, empty(a.shape, dt, a.device)) if vectors else (w,)
    return call("eigh", [a.astype(dt, copy=False)], UPLO=u, vectors=vectors)


def eigh(a, UPLO="L"):
    """Eigenvalues (ascending) and eigenvectors (columns) of Hermitian matrices, from the
    `UPLO` triangle of `a` (the other one is not read).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.linalg.eigh(gp.asarray([[2.0, 1.0], [1.0, 2.0]])).eigenvalues
    array([1., 3.])
    """
    w, v = _eigh(a, UPLO, True)
    return EighResult(w, v)


def eigvalsh(a, UPLO="L"):
    """Eigenvalues of Hermitian matrices, ascending, from the `UPLO` triangle.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.linalg.eigvalsh(gp.asarray([[2.0, 1.0], [1.0, 2.0]]))
    array([1., 3.])
    """
    return _eigh(a, UPLO, False)[0]


def _eig(x, vectors):
    a = arr(x)
    assert_stacked_square(a)
    if a.dtype.kind in "fc" and not bool(all_(apply("isfinite", a))):
        raise LinAlgError("Array must not contain infs or NaNs")
    dt = result_dtype(a)
    if a.size == 0:                    # the dtypes the installed NumPy gives an empty stack
        wdt = np.linalg.eigvals(np.zeros((0, 0), dt)).dtype
        w = empty(a.shape[:-1], wdt, a.device)
        return (w, empty(a.shape, wdt, a.device)) if vectors else (w,)
    return call("eig", [a.astype(dt, copy=False)], vectors=vectors)


def eig(a):
    """Eigenvalues and right eigenvectors (columns, unit norm) of square matrices.

    Real input gives real results when every eigenvalue is real, complex ones otherwise
    (NumPy's rule); LinAlgError for infinite or NaN entries.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.linalg.eig(gp.asarray([[2.0, 0.0], [0.0, 1.0]])).eigenvalues
    array([2., 1.])
    """
    w, v = _eig(a, True)
    return EigResult(w, v)


def eigvals(a):
    """Eigenvalues of square matrices (real when all are real and the input is real).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.linalg.eigvals(gp.asarray([[0.0, -1.0], [1.0, 0.0]]))
    array([0.+1.j, 0.-1.j])
    """
    return _eig(a, False)[0]
