"""Singular values (and right singular vectors) from gnumpy ops, on every backend: the
one-sided Jacobi method (Hestenes) with the parallel round-robin ordering of
``gnumpy._api.jacobi``.

Each round rotates n / 2 disjoint column pairs (p, q) of U (initially A) so that columns
p and q become orthogonal: the rotation is the Hermitian 2 x 2 eigen-rotation of their
Gram block [[|u_p|^2, u_p^H u_q], [u_q^H u_p, |u_q|^2]], applied to U and to V.  At
convergence (a sweep that rotates nothing) the singular values are the column norms of U,
V holds the right singular vectors, and U's columns divided by them are the left ones.
Matrices are scaled to max |A| = 1 first and single precision is computed in double, as
for ``eigh``.
"""
from __future__ import annotations

import numpy as np

from .. import _dtypes as D
from .jacobi import (MAX_SWEEPS, _m, _schedule, eye_batch, rotate_cols, rotation_round,
                     working)

__all__ = ["svd_jacobi"]


def svd_jacobi(a):
    """(AV (B, m, n), singular values (B, n) descending, V (B, n, n)) of the batch `a`
    (B, m, n), m >= n, in the working dtype of `a` (double for single precision inputs;
    the caller rounds).  Column j of AV is s_j times the j-th left singular vector."""
    from .advanced import take, take_along_axis
    from .creation import arange, asarray
    from .elementwise import apply, where
    from .reductions import any as any_, max as amax, sum as sum_
    from .sorting import argsort
    a, cplx, real_dt, eps = working(a)
    b, m, n = a.shape
    dev = a.device
    v = eye_batch(a, n)
    if m == 0 or n == 0:
        return a, asarray(np.zeros((b, n), real_dt), device=dev), v
    bad = _m(any_(apply("isnan", a), axis=(1, 2)))
    u = where(bad.reshape(b, 1, 1), 0, a)
    norm = amax(apply("absolute", u), axis=(1, 2))
    norm = _m(where(apply("equal", norm, 0), 1, norm))
    u = _m(apply("divide", u, norm.reshape(b, 1, 1)))

    def sq(x):
        return apply("real", apply("multiply", x, apply("conjugate", x))) if cplx else \
            apply("multiply", x, x)

    if n > 1:
        partner, first = _schedule(n, dev)
        ar = arange(n, dtype=D.int64, device=dev)
        for _sweep in range(MAX_SWEEPS):
            moved = None
            for r in range(partner.shape[0]):
                pr, fr = partner[r], first[r]
                idle = apply("equal", pr, ar)
                alpha = sum_(sq(u), axis=1)                                 # |u_i|^2
                up = take(u, pr, axis=2)
                g = sum_(apply("multiply", apply("conjugate", u) if cplx else u, up), axis=1)
                gpq = where(fr, g, apply("conjugate", g)) if cplx else g    # u_p^H u_q
                apart = take(alpha, pr, axis=1)
                aa = where(fr, alpha, apart)
                dd = where(fr, apart, alpha)
                sc, pc, moved = rotation_round(aa, dd, gpq, fr, idle, real_dt, cplx, eps, eps,
                                               moved)
                u = rotate_cols(u, up, sc, pc)
                v = rotate_cols(v, take(v, pr, axis=2), sc, pc)
            if not bool(moved):
                break
    s = apply("sqrt", sum_(sq(u), axis=1))                                  # (B, n)
    order = argsort(apply("negative", s), axis=1)
    s = take_along_axis(s, order, axis=1)
    idx = order.reshape(b, 1, n)
    u = take_along_axis(u, idx + 0 * arange(m, dtype=D.int64, device=dev).reshape(1, m, 1),
                        axis=2)
    v = take_along_axis(v, idx + 0 * arange(n, dtype=D.int64, device=dev).reshape(1, n, 1),
                        axis=2)
    s = where(bad.reshape(b, 1), np.nan, apply("multiply", s, norm.reshape(b, 1)))
    u = apply("multiply", u, norm.reshape(b, 1, 1))
    return u, s, v
