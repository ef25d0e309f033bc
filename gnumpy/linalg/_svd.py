"""The singular value decomposition and what NumPy builds on it: ``svd``, ``svdvals``,
``pinv``, ``matrix_rank``, ``lstsq`` and the 2-, -2- and nuclear norms (``cond`` and the
norms themselves are in ``_products``).

``svd`` is ONE library call (LAPACK's ``gesdd`` through NumPy on the CPU backend,
cuSOLVER's ``xgesvd`` on CUDA); ``svd(hermitian=True)`` goes through ``eigh`` as NumPy's
does.  The others follow NumPy's own definitions (``numpy/linalg/_linalg.py``: tolerances,
empty inputs, NaN handling) with gnumpy ops on those results.  ``lstsq`` calls NumPy's
``gelsd`` on the CPU backend (faster there than an SVD) and is built from ``svd`` on CUDA
(``lstsq_svd``, which the CPU tests run too).
"""
from __future__ import annotations

import math

import numpy as np

from .._api._common import scalar_result
from .._api.creation.creation import asarray, zeros
from .._api.elementwise.elementwise import apply, where
from .._api.indexing.advanced import take_along_axis
from .._api.shape.manipulation import matrix_transpose, moveaxis
from .._api.products.matmul import matmul
from .._api.reductions.reductions import all as all_, count_nonzero
from .._api.reductions.reductions import max as max_, min as min_, sum as sum_
from .._api.shape.shaping import flip
from .._api.sorting.sorting import argsort, sort
from ._common import (LinAlgError, SVDResult, arr, assert_2d, assert_stacked_2d, call,
                      empty, eye_stack, real_of, result_dtype)
from ._eig import eigh, eigvalsh

_NOVALUE = object()        # pinv's rtol left out (NumPy's default differs from None)


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """Singular value decomposition ``SVDResult(U, S, Vh)`` with ``a = (U * S) @ Vh``; S
    descending.  The singular vectors are unique up to phase, as LAPACK's.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.linalg.svd(gp.asarray([[3.0, 0.0], [0.0, -4.0]])).S
    array([4., 3.])
    """
    a = arr(a)
    if hermitian:                       # NumPy's: eigenvalues by magnitude, signs into V
        if not compute_uv:
            return flip(sort(apply("absolute", eigvalsh(a)), axis=-1), axis=-1)
        s, u = eigh(a)
        sgn = apply("copysign", 1.0, s)
        s = apply("absolute", s)
        sidx = flip(argsort(s, axis=-1), axis=-1)
        sgn = take_along_axis(sgn, sidx, axis=-1)
        s = take_along_axis(s, sidx, axis=-1)
        u = take_along_axis(u, sidx[..., None, :], axis=-1)
        vt = apply("conjugate", matrix_transpose(u * sgn[..., None, :]))
        return SVDResult(u, s, vt)
    assert_stacked_2d(a)
    dt = result_dtype(a)
    batch, (m, n) = a.shape[:-2], a.shape[-2:]
    k = min(m, n)
    if a.size == 0:
        s = empty(batch + (k,), real_of(dt), a.device)
        if not compute_uv:
            return s
        if full_matrices:
            return SVDResult(eye_stack(m, m, dt, batch, a.device), s,
                             eye_stack(n, n, dt, batch, a.device))
        return SVDResult(empty(batch + (m, k), dt, a.device), s,
                         empty(batch + (k, n), dt, a.device))
    out = call("svd", [a.astype(dt, copy=False)], full_matrices=bool(full_matrices),
               compute_uv=bool(compute_uv))
    return SVDResult(*out) if compute_uv else out[0]


def svdvals(x, /):
    """Singular values of the stack, descending.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.linalg.svdvals(gp.asarray([[3.0, 0.0], [0.0, -4.0]]))
    array([4., 3.])
    """
    return svd(x, compute_uv=False, hermitian=False)


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """Rank: the number of singular values above the tolerance (NumPy's defaults).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.linalg.matrix_rank(gp.asarray([[1.0, 2.0], [2.0, 4.0]]))
    array(1)
    """
    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    A = arr(A)
    if A.ndim < 2:
        return int(not bool(all_(A == 0)))
    S = svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * float(np.finfo(S.dtype).eps)
        else:
            rtol = asarray(rtol, device=A.device)[..., None]
        tol = max_(S, axis=-1, keepdims=True, initial=0) * rtol
    else:
        tol = asarray(tol, device=A.device)[..., None]
    return count_nonzero(S > tol, axis=-1)


def pinv(a, rcond=None, hermitian=False, *, rtol=_NOVALUE):
    """Moore-Penrose pseudo-inverse from the SVD, with NumPy's cutoffs (`rcond`, or
    `rtol` of the Array API).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.linalg.pinv(gp.asarray([[2.0, 0.0], [0.0, 0.0]]))
    array([[0.5, 0. ],
           [0. , 0. ]])
    """
    a = arr(a)
    if rcond is None:
        if rtol is _NOVALUE:
            rcond = 1e-15
        elif rtol is None:
            eps_dt = a.dtype if a.dtype.kind in "fc" else np.float64
            rcond = max(a.shape[-2:]) * float(np.finfo(eps_dt).eps)
        else:
            rcond = rtol
    elif rtol is not _NOVALUE:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    rcond = asarray(rcond, device=a.device)
    if a.size == 0 and math.prod(a.shape[-2:]) == 0:
        m, n = a.shape[-2:]
        return zeros(a.shape[:-2] + (n, m), dtype=a.dtype, device=a.device)
    u, s, vt = svd(apply("conjugate", a), full_matrices=False, hermitian=hermitian)
    cutoff = rcond[..., None] * max_(s, axis=-1, keepdims=True, initial=0)
    large = s > cutoff
    s = where(large, 1 / where(large, s, 1), 0).astype(s.dtype)
    return matmul(matrix_transpose(vt), s[..., None] * matrix_transpose(u))


def lstsq(a, b, rcond=None):
    """Least-squares solution ``(x, residuals, rank, s)`` of ``a @ x = b`` (minimum norm
    when `a` is rank deficient); NumPy's rules for residuals, rank and `rcond`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.linalg.lstsq(gp.asarray([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]),
    ...                 gp.asarray([1.0, 2.0, 3.0]))[0]
    array([1., 2.])
    """
    a, b = arr(a), arr(b)
    vector = b.ndim == 1
    if vector:
        b = b[:, None]
    assert_2d(a, b)
    m, n = a.shape
    if b.shape[0] != m:
        raise LinAlgError("Incompatible dimensions")
    dt = result_dtype(a, b)
    cpu = a.device.kind == "cpu"
    if rcond is None:
        # Note: NumPy's default is its computing precision (double) times max(m, n);
        # CUDA computes float32 and complex64 in single precision, whose epsilon it uses.
        rcond = float(np.finfo(np.float64 if cpu else real_of(dt)).eps) * max(n, m)
    a, b = a.astype(dt, copy=False), b.astype(dt, copy=False)
    if cpu:
        x, resids, rank, s = call("lstsq", [a, b], rcond=rcond)
    else:
        x, resids, rank, s = lstsq_svd(a, b, rcond)
    return (x[:, 0] if vector else x), resids, scalar_result(rank), s   # (NumPy's int32)


def lstsq_svd(a, b, rcond):
    """``lstsq`` of the 2-D `a` (m, n) and `b` (m, k) in their working dtype from
    ``svd``: x = V diag(1/s, s > rcond * max(s)) U^H b, as LAPACK's ``gelsd`` defines
    it; residuals when `a` has full column rank n < m."""
    m, n = a.shape
    if rcond < 0:                   # gelsd: machine precision instead
        rcond = float(np.finfo(np.float64).eps)
    rdt = real_of(a.dtype)
    dev = a.device
    k = min(m, n)
    no = zeros((0,), dtype=rdt, device=dev)
    if k == 0:
        x = zeros((n, b.shape[1]), dtype=a.dtype, device=dev)
        rank = asarray(np.int32(0), device=dev)
        resids = (sum_(apply("absolute", b) ** 2, axis=0).astype(rdt) if m > n and b.shape[1] else no)
        return x, resids, rank, no
    try:
        u, s, vh = svd(a, full_matrices=False)
    except LinAlgError:
        raise LinAlgError("SVD did not converge in Linear Least Squares") from None
    large = s > rcond * max_(s)
    w = where(large, 1 / where(large, s, 1), 0).astype(rdt)
    v = apply("conjugate", matrix_transpose(vh))
    x = matmul(v * w[None, :], matmul(apply("conjugate", matrix_transpose(u)), b))
    rank = count_nonzero(large).astype(np.int32)
    resids = no
    if m > n and b.shape[1] and int(rank) == n:
        r = b - matmul(a, x)
        resids = sum_(apply("absolute", r) ** 2, axis=0).astype(rdt)
    return x, resids, rank, s


def svd_norm(x, axes, op):
    """`op` ('nuc', 2, -2) of the singular values of the matrices on `axes` of `x`."""
    s = svd(moveaxis(x, axes, (-2, -1)), compute_uv=False)
    if op == "nuc":
        return sum_(s, axis=-1)
    if op == 2:
        return max_(s, axis=-1, initial=0)
    return min_(s, axis=-1)

