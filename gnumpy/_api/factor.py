"""Matrix factorizations from gnumpy ops, on every backend: LU with partial pivoting (for
``solve``, ``inv``, ``det``, ``slogdet``) and Cholesky.

Both are the textbook right-looking algorithms over a batch of matrices: step k is one
pivot search (argmax on the device, no sync), one row-swap gather and ONE fused
elementwise kernel that writes the k-th column of L and the rank-1 update of the trailing
block, so an n x n factorization is about 3n kernels, with no host round trip until the
end (one check for a zero pivot, which NumPy reports as LinAlgError).  Substitutions for
``solve`` are n + n fused steps the same way.

# Note: unblocked algorithms: O(n^3) work like LAPACK's but about 3n kernel launches,
# so they suit the small and medium matrices array code uses; large dense factorizations
# want a blocked or vendor kernel (cuSOLVER is not reachable from cuda.core).
"""
from __future__ import annotations

import numpy as np

from .. import _dtypes as D
from ._common import evaluated as _m

__all__ = ["lu_factor", "lu_solve", "cholesky_lower", "work_dtype"]

LinAlgError = np.linalg.LinAlgError


def work_dtype(*dts) -> np.dtype:
    """NumPy linalg's computation type: float32/float64/complex64/complex128 (ints and
    bools compute in float64; float16 is refused as NumPy refuses it)."""
    for dt in dts:
        if dt == D.float16:
            raise TypeError("array type float16 is unsupported in linalg")
    r = D.result_type(*dts)
    if r.kind in "biu":
        return np.dtype(np.float64)
    return r


def square(x, name="array"):
    if x.ndim < 2:
        raise LinAlgError(f"{x.ndim}-dimensional array given. Array must be at least "
                          f"two-dimensional")
    if x.shape[-1] != x.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")


def _take_rows(x, idx):
    """x[b, idx[b, i], :] for the batch x (B, n, m) and row indices idx (B, n)."""
    from .advanced import take_along_axis
    b, n = idx.shape
    return take_along_axis(x, idx.reshape(b, n, 1), axis=1)


def lu_factor(a):
    """(LU, row permutation (B, n) int64, number of row swaps (B,) int64, smallest |pivot|
    (B,)) of the batch `a` (B, n, n) (already in the working dtype): P A = L U with L unit
    lower triangular (below the diagonal of LU) and U upper (on and above it)."""
    from .creation import arange, zeros
    from .elementwise import apply, where
    from .reductions import argmax
    b, n, _ = a.shape
    dev = a.device
    ar = arange(n, dtype=D.int64, device=dev)
    rows = ar.reshape(1, n, 1)
    cols = ar.reshape(1, 1, n)
    perm = _m(apply("add", zeros((b, 1), dtype=D.int64, device=dev), ar.reshape(1, n)))
    swaps = None
    piv_min = None
    lu = _m(a)
    for k in range(n):
        p = apply("add", argmax(apply("absolute", lu[:, k:, k]), axis=1), k)   # (B,)
        pk = p.reshape(b, 1)
        idx = where(apply("equal", ar.reshape(1, n), k), pk,
                    where(apply("equal", ar.reshape(1, n), pk), k, ar.reshape(1, n)))
        lu = _take_rows(lu, idx)                                     # rows k <-> p
        perm = _take_rows(perm.reshape(b, n, 1), idx).reshape(b, n)
        moved = apply("not_equal", p, k).astype(D.int64)
        swaps = moved if swaps is None else apply("add", swaps, moved)
        piv = lu[:, k, k]                                            # (B,)
        mag = apply("absolute", piv)
        piv_min = mag if piv_min is None else apply("minimum", piv_min, mag)
        colk = lu[:, :, k:k + 1]                                     # (B, n, 1)
        rowk = lu[:, k:k + 1, :]                                     # (B, 1, n)
        safe = where(apply("equal", piv, 0), 1, piv).reshape(b, 1, 1)
        l = apply("divide", colk, safe)                              # L's column k
        below = apply("greater", rows, k)
        upd = where(apply("logical_and", below, apply("greater", cols, k)),
                    apply("subtract", lu, apply("multiply", l, rowk)), lu)
        lu, perm, swaps, piv_min = _m(                               # one schedule per step
            where(apply("logical_and", below, apply("equal", cols, k)), l, upd), perm, swaps,
            piv_min)
    return lu, perm, swaps, piv_min


def lu_solve(lu, perm, rhs):
    """Solve A X = RHS for the batch (B, n, n) factored by ``lu_factor``; `rhs` (B, n, r)."""
    from .creation import arange
    from .elementwise import apply, where
    b, n, _ = lu.shape
    rows = arange(n, dtype=D.int64, device=lu.device).reshape(1, n, 1)
    y = _m(_take_rows(rhs, perm))                                    # P RHS
    for k in range(n - 1):                                           # L y = P RHS
        lk = lu[:, :, k:k + 1]
        upd = apply("subtract", y, apply("multiply", lk, y[:, k:k + 1, :]))
        y = _m(where(apply("greater", rows, k), upd, y))
    for k in range(n - 1, -1, -1):                                   # U x = y
        xk = apply("divide", y[:, k:k + 1, :], lu[:, k:k + 1, k:k + 1])
        uk = lu[:, :, k:k + 1]
        upd = apply("subtract", y, apply("multiply", uk, xk))
        y = _m(where(apply("less", rows, k), upd, where(apply("equal", rows, k), xk, y)))
    return y


def cholesky_lower(a):
    """(L, ok (B,) bool) with A = L L^H for the batch (B, n, n), reading A's lower
    triangle as LAPACK's potrf does; ok is False where a pivot is <= 0 (NaNs propagate)."""
    from .creation import arange
    from .elementwise import apply, where
    b, n, _ = a.shape
    ar = arange(n, dtype=D.int64, device=a.device)
    rows, cols = ar.reshape(1, n, 1), ar.reshape(1, 1, n)
    cplx = a.dtype.kind == "c"
    w = _m(where(apply("greater_equal", rows, cols), a, 0))          # lower triangle
    ok = None
    for k in range(n):
        d = apply("real", w[:, k:k + 1, k:k + 1]) if cplx else w[:, k:k + 1, k:k + 1]
        # a pivot <= 0 fails; a NaN one propagates without failing, as NumPy's LAPACK does
        good = apply("logical_not", apply("less_equal", d, 0))
        ok = good.reshape(b) if ok is None else apply("logical_and", ok, good.reshape(b))
        s = apply("sqrt", where(good, d, 1)).astype(a.dtype)
        col = apply("divide", w[:, :, k:k + 1], s)                   # rows > k of L[:, k]
        col = where(apply("greater", rows, k), col, where(apply("equal", rows, k), s, 0))
        colh = apply("conjugate", col) if cplx else col
        trail = apply("logical_and", apply("greater", rows, k), apply("greater", cols, k))
        upd = where(trail, apply("subtract", w, apply("multiply", col,
                                                      colh.reshape(b, 1, n))), w)
        w, ok = _m(where(apply("equal", cols, k), col, upd), ok)
    return _m(where(apply("greater_equal", rows, cols), w, 0)), ok
