"""The LU, Cholesky and QR family of gnumpy.linalg: ``solve``, ``inv``, ``det``,
``slogdet``, ``cholesky``, ``qr``, and NumPy's ``tensorsolve`` / ``tensorinv`` on them.

Each checks its arguments as NumPy does, picks NumPy's result dtype, broadcasts the batch
dimensions, answers empty inputs itself, and makes ONE library call (``_common.call``):
NumPy's LAPACK on the CPU backend, cuSOLVER on CUDA.

# Note: on the CUDA backend float32 and complex64 inputs past the small kernels' bounds
# (``linalg/_small.py``: order ``config.linalg_small_n``, 64, and the dtype's shared-memory
# bound; for ``qr`` one matrix past 32 rows or columns) are factored in single precision
# by cuSOLVER; NumPy computes them in double and rounds the result, as the small kernels
# do.
"""
from __future__ import annotations

import math
import warnings

from .._api._common import scalar_result
from .._api.creation.creation import ones, zeros
from .._api.shape.manipulation import broadcast_to, matrix_transpose
from .._api.shape.shaping import broadcast_shapes
from ._common import (LinAlgError, QRResult, SlogdetResult, arr, assert_stacked_2d,
                      assert_stacked_square, call, empty, eye_stack, nbatch, real_of,
                      result_dtype)


def solve(a, b):
    """Solve ``a @ x = b`` for `x` (LU with partial pivoting).

    `b` is one vector when it is 1-D, else a stack of matrices (NumPy 2); the batch
    dimensions broadcast.  LinAlgError when a matrix is singular.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.linalg.solve(gp.asarray([[3.0, 1.0], [1.0, 2.0]]), gp.asarray([9.0, 8.0]))
    array([2., 3.])
    """
    a, b = arr(a), arr(b)
    assert_stacked_square(a)
    dt = result_dtype(a, b)
    n = a.shape[-1]
    vector = b.ndim == 1
    if vector:
        if b.shape[0] != n:
            raise ValueError(f"solve1: Input operand 1 has a mismatch in its core dimension "
                             f"0, with gufunc signature (m,m),(m)->(m) (size {b.shape[0]} "
                             f"is different from {n})")
        b = b[:, None]
    elif b.shape[-2] != n:
        raise ValueError(f"solve: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature (m,m),(m,n)->(m,n) (size {b.shape[-2]} is "
                         f"different from {n})")
    batch = tuple(broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    k = b.shape[-1]
    if n == 0 or nbatch(batch) == 0:
        x = empty(batch + (n, k), dt, a.device)
    else:
        x, = call("solve", [_as(a, dt, batch + (n, n)), _as(b, dt, batch + (n, k))])
    return x[..., 0] if vector else x


def _as(a, dt, shape):
    """`a` in dtype `dt` broadcast to `shape` (itself when it is both already: a call of
    small matrices pays for neither)."""
    if a.dtype != dt:
        a = a.astype(dt, copy=False)
    return a if a.shape == shape else broadcast_to(a, shape)


def inv(a):
    """The inverse of each matrix of the stack (LU with partial pivoting); LinAlgError
    when one is singular.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.linalg.inv(gp.asarray([[2.0, 0.0], [0.0, 4.0]]))
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    a = arr(a)
    assert_stacked_square(a)
    dt = result_dtype(a)
    if a.size == 0:
        return empty(a.shape, dt, a.device)
    r, = call("inv", [a.astype(dt, copy=False)], check=True)
    return r


def _det_input(x):
    a = arr(x)
    assert_stacked_square(a)
    return a, result_dtype(a)


def det(a):
    """Determinants of the stack, from an LU factorization (0 for a singular matrix).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.linalg.det(gp.asarray([[1.0, 2.0], [3.0, 4.0]]))
    array(-2.)
    """
    a, dt = _det_input(a)
    batch = a.shape[:-2]
    if a.shape[-1] == 0 or nbatch(batch) == 0:
        return scalar_result(ones(batch, dtype=dt, device=a.device))
    r, = call("det", [a.astype(dt, copy=False)])
    return scalar_result(r)


def slogdet(a):
    """``SlogdetResult(sign, logabsdet)`` of the determinants of the stack; (0, -inf)
    for a singular matrix.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.linalg.slogdet(gp.asarray([[1.0, 2.0], [3.0, 4.0]])).sign
    array(-1.)
    """
    a, dt = _det_input(a)
    batch = a.shape[:-2]
    if a.shape[-1] == 0 or nbatch(batch) == 0:
        return SlogdetResult(scalar_result(ones(batch, dtype=dt, device=a.device)),
                             scalar_result(zeros(batch, dtype=real_of(dt), device=a.device)))
    sign, logabs = call("slogdet", [a.astype(dt, copy=False)])
    return SlogdetResult(scalar_result(sign), scalar_result(logabs))


def cholesky(x, /, *, upper=False):
    """Cholesky factor of Hermitian positive-definite matrices: lower ``L`` with
    ``A = L L^H``, or upper ``U`` with ``A = U^H U`` when `upper`.  Only that triangle of
    `x` is read, as LAPACK does; LinAlgError when a matrix is not positive definite.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.linalg.cholesky(gp.asarray([[4.0, 2.0], [2.0, 5.0]]))
    array([[2., 0.],
           [1., 2.]])
    """
    a = arr(x)
    assert_stacked_square(a)
    dt = result_dtype(a)
    if a.size == 0:
        return empty(a.shape, dt, a.device)
    r, = call("cholesky", [a.astype(dt, copy=False)], upper=bool(upper))
    return r


_MODES = ("reduced", "complete", "r", "raw")


def qr(a, mode="reduced"):
    """QR factorization by Householder reflections (LAPACK's ``geqrf`` and
    ``orgqr``/``ungqr``): ``QRResult(Q, R)`` for modes 'reduced' and 'complete', R for
    'r', ``(h, tau)`` for 'raw' (h is the transposed factored matrix, as NumPy's).

    Examples
    --------
    >>> import gnumpy as gp
    >>> q, r = gp.linalg.qr(gp.asarray([[3.0, 0.0], [4.0, 5.0]]))
    >>> q.shape, r.shape
    ((2, 2), (2, 2))
    """
    if mode not in _MODES:
        if mode in ("f", "full"):
            warnings.warn("The 'full' option is deprecated in favor of 'reduced'.\n"
                          "For backward compatibility let mode default.",
                          DeprecationWarning, stacklevel=2)
            mode = "reduced"
        elif mode in ("e", "economic"):
            warnings.warn("The 'economic' option is deprecated.", DeprecationWarning,
                          stacklevel=2)
            mode = "economic"
        else:
            raise ValueError(f"Unrecognized mode '{mode}'")
    a = arr(a)
    assert_stacked_2d(a)
    dt = result_dtype(a)
    if mode == "economic":                    # the factored matrix as LAPACK leaves it
        return matrix_transpose(qr(a, "raw")[0])
    batch, (m, n) = a.shape[:-2], a.shape[-2:]
    k = min(m, n)
    mc = m if mode == "complete" and m > n else k
    if a.size == 0:
        dev = a.device
        if mode == "raw":
            return empty(batch + (n, m), dt, dev), empty(batch + (k,), dt, dev)
        r = empty(batch + ((k if mode == "r" else mc), n), dt, dev)
        if mode == "r":
            return r
        q = eye_stack(m, mc, dt, batch, dev) if mode == "complete" else \
            empty(batch + (m, k), dt, dev)
        return QRResult(q, r)
    out = call("qr", [a.astype(dt, copy=False)], mode=mode)
    if mode == "r":
        return out[0]
    if mode == "raw":
        return out[0], out[1]
    return QRResult(out[0], out[1])


def tensorinv(a, ind=2):
    """The inverse of an N-d array for ``tensordot`` with `ind` leading axes (NumPy's
    reshape to one square matrix and ``inv``).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.linalg.tensorinv(gp.eye(4).reshape(4, 2, 2), ind=1).shape
    (2, 2, 4)
    """
    a = arr(a)
    oldshape = a.shape
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    invshape = oldshape[ind:] + oldshape[:ind]
    prod = math.prod(oldshape[ind:])
    return inv(a.reshape(prod, -1)).reshape(invshape)


def tensorsolve(a, b, axes=None):
    """The x with ``tensordot(a, x, axes=x.ndim) == b`` (NumPy's reshape to one square
    system and ``solve``).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.linalg.tensorsolve(gp.eye(6).reshape(6, 2, 3), gp.ones(6)).shape
    (2, 3)
    """
    a, b = arr(a), arr(b)
    an = a.ndim
    if axes is not None:
        allaxes = list(range(an))
        for k in axes:
            allaxes.remove(k)
            allaxes.insert(an, k)
        a = a.transpose(allaxes)
    oldshape = a.shape[-(an - b.ndim):]
    prod = math.prod(oldshape)
    if a.size != prod ** 2:
        raise LinAlgError("Input arrays must satisfy the requirement "
                          "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    return solve(a.reshape(prod, prod), b.reshape(-1)).reshape(oldshape)
