"""The SVD and what NumPy's linalg builds on it, from ``svd_jacobi`` (every backend):
``svd``, singular values, ``matrix_rank``, ``pinv``, ``lstsq``, ``cond`` and the 2- and
nuclear norms.

Each follows NumPy's own definition in ``numpy/linalg/_linalg.py`` (tolerances, empty
inputs, NaN handling); only the factorization underneath differs.  The left singular
vectors are never needed in full: where NumPy uses U it only touches the columns of the
singular values it keeps, which are AV / s.
"""
from __future__ import annotations

import math

import numpy as np

from .. import _dtypes as D

LinAlgError = np.linalg.LinAlgError

__all__ = ["singular_values", "matrix_rank", "pinv", "lstsq", "cond", "svd"]


def _gp():
    import gnumpy
    return gnumpy


def _stack(x):
    """(working dtype, batch shape, m, n) of the matrix stack `x` (LinAlgError below 2-D)."""
    from . import factor as F
    if x.ndim < 2:
        raise LinAlgError(f"{x.ndim}-dimensional array given. Array must be at least "
                          f"two-dimensional")
    return (F.work_dtype(x.dtype), x.shape[:-2]) + tuple(x.shape[-2:])


def _check_finite(a, msg="SVD did not converge"):
    """LAPACK's SVD fails on NaN input, and NumPy raises LinAlgError: so do we (one sync)."""
    if bool(_gp().isnan(a).any()):
        raise LinAlgError(msg)


def _factor(a):
    """(AV, s, V, transposed) of the batch `a` (B, m, n) in its working dtype: the
    conjugate transpose is factored when m < n (A^H = V S U^H)."""
    from .svd_jacobi import svd_jacobi
    gp = _gp()
    t = a.shape[-2] < a.shape[-1]
    if t:
        a = gp.conj(gp.matrix_transpose(a))
    us, s, v = svd_jacobi(a)
    return us, s, v, t


def singular_values(x, hermitian=False):
    """The singular values of the stack `x` (..., m, n), descending, in its real dtype."""
    from . import factor as F
    gp = _gp()
    dt, batch, m, n = _stack(x)
    if hermitian:
        F.square(x)
        w = gp.linalg.eigvalsh(x)
        return gp.flip(gp.sort(gp.abs(w), axis=-1), axis=-1)
    a = x.astype(dt, copy=False).reshape((math.prod(batch), m, n))
    _check_finite(a)
    _, s, _, _ = _factor(a)
    return s.astype(D.real_dtype(dt)).reshape(batch + (min(m, n),))


def matrix_rank(x, tol=None, hermitian=False, rtol=None):
    gp = _gp()
    if x.ndim < 2:
        return int(bool(gp.any(x != 0)))
    s = singular_values(x, hermitian)
    if tol is None:
        if rtol is None:
            rtol = max(x.shape[-2:]) * np.finfo(s.dtype).eps
        else:
            rtol = gp.asarray(rtol)[..., None]
        smax = gp.max(s, axis=-1, keepdims=True, initial=0)
        tol = smax * rtol
    else:
        tol = gp.asarray(tol)[..., None]
    return gp.count_nonzero(s > tol, axis=-1)


def _pinv_batch(a, rcond):
    """pinv of the batch (B, m, n) (working dtype), rcond broadcast against (B, 1)."""
    gp = _gp()
    us, s, v, t = _factor(a)
    cutoff = rcond * gp.max(s, axis=-1, keepdims=True)
    large = s > cutoff
    w = gp.where(large, 1.0 / gp.where(large, s * s, 1.0), 0.0)          # 1 / s^2 kept
    p = gp.matmul(v * w[:, None, :].astype(v.dtype), gp.conj(gp.matrix_transpose(us)))
    return gp.conj(gp.matrix_transpose(p)) if t else p


def pinv(x, rcond, rtol, hermitian, novalue):
    """NumPy's ``pinv`` (rcond/rtol defaults and the empty case included)."""
    gp = _gp()
    if rcond is None:
        if rtol is novalue:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(x.shape[-2:]) * np.finfo(x.dtype if x.dtype.kind in "fc"
                                                  else np.float64).eps
        else:
            rcond = rtol
    elif rtol is not novalue:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    dt, batch, m, n = _stack(x)
    if m == 0 or n == 0:
        return gp.empty(batch + (n, m), dtype=x.dtype if x.dtype.kind in "fc" else dt,
                        device=x.device)
    rc = gp.broadcast_to(gp.asarray(rcond, device=x.device), batch)
    rc = rc.reshape((math.prod(batch), 1))
    a = x.astype(dt, copy=False)
    if hermitian:
        from .jacobi import eigh_jacobi, hermitian as herm
        h, _ = herm(a, "L")
        w, v = eigh_jacobi(h)
        aw = gp.abs(w)
        large = aw > rc * gp.max(aw, axis=-1, keepdims=True)
        inv_w = gp.where(large, 1.0 / gp.where(large, w, 1.0), 0.0)
        p = gp.matmul(v * inv_w[:, None, :].astype(v.dtype), gp.conj(gp.matrix_transpose(v)))
    else:
        _check_finite(a)
        p = _pinv_batch(a.reshape((math.prod(batch), m, n)), rc)
    return p.astype(dt).reshape(batch + (n, m))


def lstsq(a, b, rcond):
    """NumPy's ``lstsq``: (x, residuals, rank, s) of the minimum-norm least-squares
    solution, rank from the singular values above rcond * max(s)."""
    from . import factor as F
    gp = _gp()
    vector = b.ndim == 1
    if vector:
        b = b[:, None]
    for t in (a, b):
        if t.ndim != 2:
            raise LinAlgError(f"{t.ndim}-dimensional array given. Array must be "
                              f"two-dimensional")
    m, n = a.shape
    m2, nrhs = b.shape
    if m != m2:
        raise LinAlgError("Incompatible dimensions")
    rdt = F.work_dtype(a.dtype, b.dtype)
    wdt = np.dtype(np.complex128 if rdt.kind == "c" else np.float64)
    if rcond is None:
        rcond = np.finfo(np.float64).eps * max(n, m)
    aw, bw = a.astype(wdt), b.astype(wdt)
    _check_finite(aw, "SVD did not converge in Linear Least Squares")
    k = min(m, n)
    if k == 0:
        x = gp.zeros((n, nrhs), dtype=wdt, device=a.device)
        s = gp.zeros((0,), dtype=D.real_dtype(rdt), device=a.device)
        rank = gp.asarray(np.int32(0), device=a.device)
    else:
        us, s, v, t = _factor(aw[None])
        large = s > rcond * gp.max(s, axis=-1, keepdims=True)
        w = gp.where(large, 1.0 / gp.where(large, s * s, 1.0), 0.0)
        if t:   # A^H = (us / s) S V^H, so A = V S (us / s)^H: pinv(A) = us diag(1/s^2) V^H
            p = gp.matmul(us * w[:, None, :].astype(wdt), gp.conj(gp.matrix_transpose(v)))
        else:
            p = gp.matmul(v * w[:, None, :].astype(wdt), gp.conj(gp.matrix_transpose(us)))
        x = gp.matmul(p[0], bw)
        rank = gp.count_nonzero(large[0]).astype(np.int32)
        s = s[0].astype(D.real_dtype(rdt))
    resids = gp.zeros((0,), dtype=D.real_dtype(rdt), device=a.device)
    if m > n and int(rank) == n:
        r = bw - gp.matmul(aw, x)
        resids = gp.sum(gp.abs(r) ** 2, axis=0).astype(D.real_dtype(rdt))
    x = x.astype(rdt)
    return (x[:, 0] if vector else x), resids, rank, s


def cond(x, p):
    """NumPy's ``cond``: s_max / s_min for p in (None, 2, -2), else norm(x) norm(inv x)
    with an inverse that does not raise (singular: inf); NaN results become inf unless
    the matrix holds a NaN."""
    from . import factor as F
    gp = _gp()
    if x.ndim >= 2 and (x.shape[-1] == 0 or x.shape[-2] == 0):
        raise LinAlgError("cond is not defined on empty arrays")
    if p is None or p == 2 or p == -2:
        s = singular_values(x)
        r = s[..., -1] / s[..., 0] if p == -2 else s[..., 0] / s[..., -1]
    else:
        F.square(x)
        dt = F.work_dtype(x.dtype)
        batch, n = x.shape[:-2], x.shape[-1]
        a = x.astype(dt, copy=False).reshape((math.prod(batch), n, n))
        lu, perm, _, _ = F.lu_factor(a)
        eye = gp.broadcast_to(gp.eye(n, dtype=dt, device=x.device), a.shape)
        inv = F.lu_solve(lu, perm, eye).reshape(x.shape)
        r = (gp.linalg.norm(x, p, axis=(-2, -1)) * gp.linalg.norm(inv, p, axis=(-2, -1)))
        r = r.astype(D.real_dtype(dt))
    nan = gp.isnan(r) & ~gp.isnan(x).any(axis=(-2, -1))
    return gp.where(nan, np.inf, r)


def svd(x, full_matrices, hermitian, result_cls):
    """NumPy's ``svd`` with the factors: V from one-sided Jacobi, U = AV / s where s > 0,
    completed to an orthonormal basis (the zero singular values, ``full_matrices``) by the
    complete Householder QR of AV; ``hermitian`` as NumPy, through ``eigh``."""
    from . import factor as F
    from .qr import geqrf, orgqr
    gp = _gp()
    dt, batch, m, n = _stack(x)
    if hermitian:
        F.square(x)
        w, u = gp.linalg.eigh(x)
        sgn = gp.sign(w)
        s = gp.abs(w)
        order = gp.flip(gp.argsort(s, axis=-1), axis=-1)
        s = gp.take_along_axis(s, order, axis=-1)
        sgn = gp.take_along_axis(sgn, order, axis=-1)
        u = gp.take_along_axis(u, order[..., None, :], axis=-1)
        vt = gp.conj(gp.matrix_transpose(u * sgn[..., None, :]))
        return result_cls(u, s, vt)
    k = min(m, n)
    a = x.astype(dt, copy=False).reshape((math.prod(batch), m, n))
    if k == 0:
        u = gp.broadcast_to(gp.eye(m, m if full_matrices else 0, dtype=dt, device=x.device),
                            batch + (m, m if full_matrices else 0)) + 0
        v = gp.broadcast_to(gp.eye(n, n if full_matrices else 0, dtype=dt, device=x.device),
                            batch + (n, n if full_matrices else 0)) + 0
        return result_cls(u, gp.zeros(batch + (0,), dtype=D.real_dtype(dt), device=x.device),
                          gp.conj(gp.matrix_transpose(v)))
    _check_finite(a)
    us, s, v, t = _factor(a)                 # (B, p, k), (B, k), (B, k, k); p = max(m, n)
    p = us.shape[1]
    wdt = us.dtype
    h, tau = geqrf(us)
    q = orgqr(h, tau, p if full_matrices else k)                   # orthonormal completion
    big = s > gp.max(s, axis=-1, keepdims=True) * (np.finfo(D.real_dtype(wdt)).eps * p)
    left = us / gp.where(big, s, 1)[:, None, :].astype(wdt)
    if full_matrices and p > k:
        left = gp.concat([left, q[:, :, k:]], axis=2)
        big = gp.concat([big, gp.zeros(big.shape[:1] + (p - k,), dtype=bool,
                                       device=x.device)], axis=1)
    u = gp.where(big[:, None, :], left, q)
    s = s.astype(D.real_dtype(dt)).reshape(batch + (k,))
    u = u.astype(dt)
    v = v.astype(dt)
    if t:                                     # A^H = U S V^H  ->  A = V S U^H
        u, v = v, u
    uu = u.reshape(batch + u.shape[1:])
    vh = gp.conj(gp.matrix_transpose(v)).reshape(batch + (v.shape[2], v.shape[1]))
    return result_cls(uu, s, vh)
