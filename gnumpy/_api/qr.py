"""QR factorization from gnumpy ops, on every backend: LAPACK's Householder algorithm
(``geqrf`` with ``larfg``'s reflector conventions, then ``orgqr``/``ungqr`` for Q), so Q and R
are NumPy's own, signs included.

Step j is one reduction (the column norm below the diagonal), one reduction for v^H A and
ONE fused elementwise kernel that writes the reflector, the new diagonal and the update
of the trailing columns; Q is accumulated backwards the same way.  Computed in double (as
NumPy does) for every input type; the caller rounds.
"""
from __future__ import annotations

from ._common import evaluated as _m

__all__ = ["geqrf", "orgqr"]


def geqrf(a):
    """(the factored batch (B, m, n): R on and above the diagonal, the reflectors' tails
    below it; tau (B, k)) of the float64/complex128 batch `a`, k = min(m, n)."""
    import gnumpy as gp
    b, m, n = a.shape
    k = min(m, n)
    cplx = a.dtype.kind == "c"
    rows = gp.arange(m, device=a.device).reshape(1, m, 1)
    cols = gp.arange(n, device=a.device).reshape(1, 1, n)
    rows1 = rows.reshape(1, m)
    taus = []
    a = _m(a + 0)
    for j in range(k):
        x = a[:, :, j]                                              # (B, m)
        alpha = a[:, j, j]
        below = rows1 > j
        ax = gp.abs(x)
        xnorm = gp.sqrt(gp.sum(gp.where(below, ax * ax, 0), axis=1))
        alphr = gp.real(alpha) if cplx else alpha
        alphi = gp.imag(alpha) if cplx else 0 * alpha
        zero = (xnorm == 0) & (alphi == 0)
        mag = gp.sqrt(alphr * alphr + alphi * alphi + xnorm * xnorm)
        beta = gp.where(alphr < 0, mag, -mag)          # -SIGN(dlapy3(...), alphr)
        sbeta = gp.where(zero, 1, beta)
        tau = (sbeta - alphr) / sbeta
        if cplx:
            tau = tau - 1j * (alphi / sbeta)
        tau = gp.where(zero, 0, tau).astype(a.dtype)
        scal = 1 / gp.where(zero, 1, alpha - beta)
        v = gp.where(rows1 == j, 1, gp.where(below, gp.where(zero[:, None], x,
                                                             x * scal[:, None]), 0))
        v = v.astype(a.dtype)
        vc = gp.conj(v) if cplx else v
        w = gp.sum(vc[:, :, None] * a, axis=1)                       # v^H A  (B, n)
        ct = gp.conj(tau) if cplx else tau                           # H^H from the left
        upd = a - ct[:, None, None] * v[:, :, None] * w[:, None, :]
        colj = gp.where(rows == j, gp.where(zero, alpha, beta).astype(a.dtype)[:, None, None],
                        gp.where(rows > j, v[:, :, None], a))
        a = _m(gp.where(cols > j, upd, gp.where(cols == j, colj, a)))
        taus.append(tau)
    tau = gp.stack(taus, axis=1) if taus else gp.zeros((b, 0), dtype=a.dtype, device=a.device)
    return a, _m(tau)


def orgqr(h, tau, mc):
    """The first `mc` columns of Q = H(0) H(1) ... H(k-1) (B, m, mc) from ``geqrf``'s output,
    H(i) = I - tau_i v_i v_i^H."""
    import gnumpy as gp
    b, m, n = h.shape
    k = tau.shape[1]
    cplx = h.dtype.kind == "c"
    rows1 = gp.arange(m, device=h.device).reshape(1, m)
    q = _m(gp.broadcast_to(gp.eye(m, mc, dtype=h.dtype, device=h.device), (b, m, mc)) + 0)
    for i in range(k - 1, -1, -1):
        v = gp.where(rows1 == i, 1, gp.where(rows1 > i, h[:, :, i], 0)).astype(h.dtype)
        vc = gp.conj(v) if cplx else v
        w = gp.sum(vc[:, :, None] * q, axis=1)                       # v^H Q  (B, mc)
        q = _m(q - tau[:, i][:, None, None] * v[:, :, None] * w[:, None, :])
    return q



def qr(x, mode, result_cls):
    """NumPy's ``linalg.qr`` with its modes ('reduced', 'complete', 'r', 'raw' and the
    deprecated 'full'/'economic')."""
    import math
    import warnings
    import gnumpy as gp
    from . import factor as F
    if mode not in ("reduced", "complete", "r", "raw"):
        if mode in ("f", "full"):
            warnings.warn("The 'full' option is deprecated in favor of 'reduced'.\nFor "
                          "backward compatibility let mode default.", DeprecationWarning,
                          stacklevel=3)
            mode = "reduced"
        elif mode in ("e", "economic"):
            warnings.warn("The 'economic' option is deprecated.", DeprecationWarning,
                          stacklevel=3)
            mode = "economic"
        else:
            raise ValueError(f"Unrecognized mode '{mode}'")
    if x.ndim < 2:
        raise F.LinAlgError(f"{x.ndim}-dimensional array given. Array must be at least "
                            f"two-dimensional")
    rdt = F.work_dtype(x.dtype)
    t = gp.complex128 if rdt.kind == "c" else gp.float64
    batch, (m, n) = x.shape[:-2], x.shape[-2:]
    mn = min(m, n)
    a = x.astype(t).reshape((math.prod(batch), m, n))
    h, tau = geqrf(a)
    h, tau = h.reshape(batch + (m, n)), tau.reshape(batch + (mn,))
    if mode == "r":
        return gp.triu(h[..., :mn, :]).astype(rdt)
    if mode == "raw":
        return gp.matrix_transpose(h).astype(rdt), tau.astype(rdt)
    if mode == "economic":
        return h.astype(rdt)
    mc = m if mode == "complete" and m > n else mn
    q = orgqr(h.reshape((math.prod(batch), m, n)), tau.reshape((math.prod(batch), mn)), mc)
    r = gp.triu(h[..., :mc, :])
    return result_cls(q.reshape(batch + (m, mc)).astype(rdt), r.astype(rdt))
