"""Hermitian eigendecomposition from gnumpy ops, on every backend: the cyclic Jacobi method
with the parallel (round-robin) ordering.

A sweep is n - 1 rounds (n rounded up to even); a round rotates n / 2 disjoint index pairs
(p, q) at once, each rotation chosen to zero A[p, q] (Golub & Van Loan's symmetric Schur
step, after a phase that makes A[p, q] real for complex matrices).  Because the pairs are
disjoint, a round is a row update, a column update and an eigenvector update, each one
gather of the partner rows/columns fused with the rotation's arithmetic.  Sweeps repeat
until one rotates nothing: every A[p, q] below eps sqrt(|A[p, p] A[q, q]|) (one sync per
sweep);
Jacobi converges quadratically, typically in 6 to 10 sweeps, and is accurate to the
working precision in every eigenvalue.

# Note: about 5 kernels per round, 5 (n - 1) per sweep: suited to small and medium
# matrices (the batched case is as cheap as one matrix); large dense problems want a
# tridiagonal reduction or a vendor solver (cuSOLVER is not reachable from cuda.core).
"""
from __future__ import annotations

import functools
import math

import numpy as np

from .. import _dtypes as D
from ._common import evaluated as _m

__all__ = ["eigh_jacobi", "hermitian", "working", "eye_batch", "rotation_round",
           "rotate_cols"]

MAX_SWEEPS = 30


@functools.lru_cache(maxsize=64)
def _schedule(n: int, dev):
    """(partner, is_first) of every round, on `dev`: (rounds, n) int64 and bool arrays.
    The circle method over n rounded up to even; an index paired with the phantom one is
    its own partner (idle)."""
    from .creation import asarray
    m = n + (n & 1)
    players = list(range(m))
    partner = np.empty((m - 1, n), np.int64)
    first = np.zeros((m - 1, n), bool)
    for r in range(m - 1):
        for k in range(m // 2):
            p, q = players[k], players[m - 1 - k]
            p, q = min(p, q), max(p, q)
            if q >= n:                       # paired with the phantom: idle
                partner[r, p] = p
                continue
            partner[r, p], partner[r, q] = q, p
            first[r, p] = True
        players = [players[0]] + [players[-1]] + players[1:-1]
    return asarray(partner, device=dev), asarray(first, device=dev)


def _take(x, idx, axis):
    """x[b, idx[b], :] (axis 1) or x[b, :, idx[b]] (axis 2) for idx (n,)."""
    from .advanced import take
    return take(x, idx, axis=axis)


def _rotation(a, d, b, first, idle, real_dt, cplx, eps, scale):
    """Per index: the column coefficients (self, partner) of the rotation of its pair."""
    from .elementwise import apply, where
    mag = apply("absolute", b)
    # threshold Jacobi: A[p, q] below eps (sqrt(|A[p, p] A[q, q]|) + max |A|) is rounding
    # (max |A| is 1: the matrix is scaled)
    # noise, left alone (rotating it would only add rounding to the eigenvectors)
    geo = apply("multiply", apply("sqrt", apply("absolute", a)),
                apply("sqrt", apply("absolute", d)))            # sqrt|a d| without overflow
    tiny = apply("less_equal", mag, apply("multiply", apply("add", geo, scale), eps))
    zero = apply("logical_or", apply("logical_or", apply("equal", mag, 0), tiny), idle)
    safe = where(zero, 1, mag)
    tau = apply("divide", apply("subtract", d, a), apply("multiply", safe, 2))
    sgn = where(apply("less", tau, 0), -1.0, 1.0).astype(real_dt)
    t = apply("divide", sgn, apply("add", apply("absolute", tau),
                                    apply("sqrt", apply("add", apply("multiply", tau, tau),
                                                        1))))
    c = apply("divide", 1, apply("sqrt", apply("add", apply("multiply", t, t), 1)))
    s = apply("multiply", t, c)
    c = where(zero, 1, c).astype(real_dt)
    s = where(zero, 0, s).astype(real_dt)
    # the phase e^{i phi} of A[p, q] (its sign when real) makes the 2 x 2 problem real
    ph = where(zero, 1, apply("divide", b, safe.astype(b.dtype)))
    emi = apply("conjugate", ph) if cplx else ph
    self_c = where(first, c.astype(b.dtype), apply("multiply", c, emi))
    part_c = where(first, apply("multiply", apply("negative", s), emi), s.astype(b.dtype))
    self_c = where(idle, 1, self_c)
    part_c = where(idle, 0, part_c)
    return self_c, part_c, apply("logical_not", zero)


def eigh_jacobi(a):
    """(eigenvalues ascending (B, n) real, eigenvectors (B, n, n) as columns) of the
    Hermitian batch `a` (B, n, n) (both triangles filled), in `a`'s dtype; single
    precision is computed in double (the rotations' rounding accumulates in the
    eigenvectors) and rounded at the end."""
    out_dt = a.dtype
    from .creation import arange, asarray
    from .elementwise import apply, where
    from .reductions import max as amax
    from .sorting import argsort
    from .advanced import take_along_axis
    a, cplx, real_dt, eps = working(a)
    b, n, _ = a.shape
    dev = a.device
    v = eye_batch(a, n)
    # a matrix with a NaN gives NaNs (as NumPy's LAPACK does); it is zeroed meanwhile
    bad = None
    if n:
        from .reductions import any as any_
        bad = _m(any_(apply("isnan", a), axis=(1, 2)))
        a = where(bad.reshape(b, 1, 1), 0, a)
    # scaled to max |A| = 1 (as LAPACK scales into the safe range): no overflow or underflow
    norm = amax(apply("absolute", a), axis=(1, 2)) if n else None
    norm = _m(where(apply("equal", norm, 0), 1, norm)) if n else None
    a = _m(apply("divide", a, norm.reshape(b, 1, 1)) if n else a)
    if n > 1:
        partner, first = _schedule(n, dev)
        ar = arange(n, dtype=D.int64, device=dev)
        scale = 1.0
        for _sweep in range(MAX_SWEEPS):
            moved = None
            for r in range(partner.shape[0]):
                pr, fr = partner[r], first[r]
                idle = apply("equal", pr, ar)
                dg = apply("real", _take_diag(a)) if cplx else _take_diag(a)   # (B, n)
                dpart = _take(dg, pr, 1)
                # A[p, q] for both members of each pair, read from the same place (rounding
                # leaves A slightly non-Hermitian; the two must compute one rotation)
                bij = _take_diag(_take(a, pr, 2))                          # A[i, pr[i]]
                bji = _take_diag(_take(a, pr, 1))                          # A[pr[i], i]
                bpq = where(fr, bij, bji)
                aa = where(fr, dg, dpart)
                dd = where(fr, dpart, dg)
                sc, pc, moved = rotation_round(aa, dd, bpq, fr, idle, real_dt, cplx, eps,
                                               scale, moved)
                rs = apply("conjugate", sc) if cplx else sc
                rp = apply("conjugate", pc) if cplx else pc
                a1 = apply("add", apply("multiply", a, rs.reshape(b, n, 1)),
                           apply("multiply", _take(a, pr, 1), rp.reshape(b, n, 1)))
                a1 = _m(a1)
                a = rotate_cols(a1, _take(a1, pr, 2), sc, pc)
                v = rotate_cols(v, _take(v, pr, 2), sc, pc)
            # re-symmetrize once per sweep: rounding drift never accumulates
            ah = apply("conjugate", _transpose(a)) if cplx else _transpose(a)
            a = _m(apply("multiply", apply("add", a, ah), 0.5))
            if not bool(moved):              # a sweep without a rotation: converged
                break
    w = apply("real", _take_diag(a)) if cplx else _take_diag(a)
    if n:
        w = where(bad.reshape(b, 1), np.nan, apply("multiply", w, norm.reshape(b, 1)))
        v = where(bad.reshape(b, 1, 1), np.nan, v)
    order = argsort(w, axis=1)
    w = take_along_axis(w, order, axis=1)
    v = take_along_axis(v, order.reshape(b, 1, n) + 0 * asarray(
        np.zeros((1, n, 1), np.int64), device=dev), axis=2)
    return w.astype(D.real_dtype(out_dt)), v.astype(out_dt)


def rotation_round(a, d, b, first, idle, real_dt, cplx, eps, scale, moved):
    """(self and partner column coefficients of this round's rotations, whether any pair so
    far in the sweep rotated), materialized."""
    from .elementwise import apply
    sc, pc, act = _rotation(a, d, b, first, idle, real_dt, cplx, eps, scale)
    act = act.any()
    moved = act if moved is None else apply("logical_or", moved, act)
    return _m(sc, pc, moved)


def rotate_cols(x, xp, sc, pc):
    """x's columns rotated: x * sc + xp * pc per column (xp: the partner columns)."""
    from .elementwise import apply
    b, n = sc.shape
    return _m(apply("add", apply("multiply", x, sc.reshape(b, 1, n)),
                    apply("multiply", xp, pc.reshape(b, 1, n))))


def working(a):
    """(`a` in working precision: double for single precision inputs, complex?, its real
    dtype, that dtype's eps): the rotations' rounding accumulates, so single precision
    is computed in double and rounded at the end."""
    if a.dtype in (D.float32, D.complex64):
        a = a.astype(D.complex128 if a.dtype == D.complex64 else D.float64)
    cplx = a.dtype.kind == "c"
    real_dt = D.real_dtype(a.dtype)
    return a, cplx, real_dt, float(np.finfo(real_dt).eps)


def eye_batch(a, n):
    """A fresh (B, n, n) identity in `a`'s dtype and batch size (the rotations' product)."""
    from .creation import eye
    from .manipulation import broadcast_to
    return _m(broadcast_to(eye(n, dtype=a.dtype, device=a.device), (a.shape[0], n, n)) + 0)


def hermitian(a, UPLO):
    """(the (B, n, n) Hermitian batch built from `a`'s UPLO triangle, the batch shape);
    the other triangle and the imaginary part of the diagonal are ignored, as LAPACK."""
    import gnumpy as gp
    from . import factor as F
    if not isinstance(UPLO, str) or UPLO.upper() not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    F.square(a)
    dt = F.work_dtype(a.dtype)
    batch = a.shape[:-2]
    a2 = a.astype(dt, copy=False).reshape((math.prod(batch),) + a.shape[-2:])
    if UPLO.upper() == "U":
        a2 = gp.conj(gp.matrix_transpose(a2))
    lo = gp.tril(a2, -1)
    n = a2.shape[-1]
    eye = gp.eye(n, dtype=bool, device=a.device)
    herm = gp.where(eye, gp.real(a2).astype(dt), lo + gp.conj(gp.matrix_transpose(lo)))
    return herm, batch


def _transpose(a):
    from .manipulation import matrix_transpose
    return matrix_transpose(a)


def _take_diag(a):
    from .diagonals import diagonal
    return diagonal(a, axis1=1, axis2=2)
