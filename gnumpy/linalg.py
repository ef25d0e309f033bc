"""gnumpy.linalg: NumPy's ``numpy.linalg`` and the Array API linear-algebra extension.

Two kinds of functions:

* built from gnumpy's own ops, so they run on every backend: the products and norms
  (``matmul``, ``vecdot``, ``tensordot``, ``outer``, ``trace``, ``diagonal``, ``cross``,
  ``vector_norm``, ``matrix_norm``, ``norm``, ``matrix_power``, ``multi_dot``); LU with
  partial pivoting and Cholesky (``gnumpy._api.factor``: ``solve``, ``inv``, ``det``,
  ``slogdet``, ``cholesky``, ``tensorsolve``, ``tensorinv``); Householder ``qr``
  (``_api.qr``, LAPACK's conventions); ``eigh``/``eigvalsh`` by parallel Jacobi
  (``_api.jacobi``); singular values by one-sided Jacobi (``_api.svd_jacobi``) and what
  NumPy builds on them (``_api.svdops``: ``svdvals``, ``svd(compute_uv=False)``,
  ``pinv``, ``matrix_rank``, ``lstsq``, ``cond``, the 2- and nuclear norms) and ``svd``;
* ``eig`` and ``eigvals``: on the CPU backend through NumPy's
  LAPACK on the backend's own memory; on the CUDA backend they raise NotImplementedError
  at the call (no device kernels for them yet: cuSOLVER is not reachable from cuda.core).

Errors are NumPy's (``LinAlgError`` for singular or non-square input, ...).

# Note: where NumPy returns a scalar (``det`` of one matrix), gnumpy returns a 0-d array.
"""
from __future__ import annotations

import math
import operator
from collections import namedtuple

import numpy as np

from ._api._common import is_array

LinAlgError = np.linalg.LinAlgError

EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
QRResult = namedtuple("QRResult", ["Q", "R"])
SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])

_RESULTS = {"EighResult": EighResult, "EigResult": EigResult, "QRResult": QRResult,
            "SlogdetResult": SlogdetResult, "SVDResult": SVDResult}


def _gp():
    import gnumpy
    return gnumpy


def _arr(x):
    return x if is_array(x) else _gp().asarray(x)


# ------------------------------------------------------------------ factorizations (CPU)

def _host(name, fn, arrays, *args, **kwargs):
    """Run NumPy's `fn` on the CPU backend's memory of `arrays`; NotImplementedError, at
    the call, on the CUDA backend."""
    gp = _gp()
    arrays = [_arr(a) for a in arrays]
    dev = arrays[0].device
    for a in arrays:
        if a.device.kind != "cpu":
            raise NotImplementedError(
                f"gnumpy.linalg.{name} is not implemented on the CUDA backend yet (it needs "
                f"a matrix factorization on the device); arrays on device='cpu' work")
    r = fn(*[a.get() for a in arrays], *args, **kwargs)
    return _wrap(r, dev, gp)


def _wrap(r, dev, gp):
    if isinstance(r, (np.ndarray, np.generic)):
        return gp.asarray(r, device=dev)
    if isinstance(r, tuple):
        parts = [_wrap(v, dev, gp) for v in r]
        cls = _RESULTS.get(type(r).__name__)
        return cls(*parts) if cls is not None else tuple(parts)
    return r


def cholesky(x, /, *, upper=False):
    """Cholesky factor (lower, or upper with ``upper=True``) of Hermitian positive-definite
    matrices; only that triangle of `x` is read, as LAPACK does.  LinAlgError when a matrix
    is not positive definite."""
    from ._api import factor as F
    a = _arr(x)
    F.square(a)
    dt = F.work_dtype(a.dtype)
    gp = _gp()
    a2, batch = _batched(a.astype(dt, copy=False))
    if a2.shape[-1] == 0:
        return a.astype(dt)
    if upper:                        # the upper triangle of A is the lower one of A^H
        a2 = gp.conj(gp.matrix_transpose(a2))
    lo, ok = F.cholesky_lower(a2)
    if not bool(ok.all()):
        raise LinAlgError("Matrix is not positive definite")
    lo = lo.reshape(batch + lo.shape[-2:])
    return gp.conj(gp.matrix_transpose(lo)) if upper else lo


def qr(x, /, mode="reduced"):
    """QR factorization by Householder reflections (every backend; NumPy's modes)."""
    from ._api import qr as Q
    return Q.qr(_arr(x), mode, QRResult)


def svd(x, /, full_matrices=True, compute_uv=True, hermitian=False):
    """Singular value decomposition ``SVDResult(U, S, Vh)`` by one-sided Jacobi (every
    backend); the singular vectors are unique up to phase, as LAPACK's."""
    from ._api import svdops
    if not compute_uv:
        return svdops.singular_values(_arr(x), hermitian)
    return svdops.svd(_arr(x), full_matrices, hermitian, SVDResult)


def svdvals(x, /):
    """Singular values, descending (every backend: one-sided Jacobi)."""
    from ._api import svdops
    return svdops.singular_values(_arr(x))


def eigh(x, /, UPLO="L"):
    """Eigenvalues (ascending) and eigenvectors (columns) of Hermitian matrices, from the
    `UPLO` triangle, by parallel cyclic Jacobi (every backend; ``gnumpy._api.jacobi``)."""
    from ._api.jacobi import eigh_jacobi, hermitian
    herm, batch = hermitian(_arr(x), UPLO)
    n = herm.shape[-1]
    w, v = eigh_jacobi(herm)
    return EighResult(w.reshape(batch + (n,)), v.reshape(batch + (n, n)))


def eigvalsh(x, /, UPLO="L"):
    """Eigenvalues of Hermitian matrices, ascending (every backend, as ``eigh``)."""
    return eigh(x, UPLO).eigenvalues


def eig(x, /):
    """Eigenvalues and right eigenvectors of square matrices (CPU backend)."""
    return _host("eig", np.linalg.eig, [x])


def eigvals(x, /):
    """Eigenvalues of square matrices (CPU backend)."""
    return _host("eigvals", np.linalg.eigvals, [x])


def _batched(a):
    """(a as a (B, n, n) batch, the batch shape)."""
    batch = a.shape[:-2]
    return a.reshape((math.prod(batch),) + a.shape[-2:]), batch


def _lu(a):
    """LU of the batch `a` (B, n, n); LinAlgError("Singular matrix") on a zero pivot."""
    from ._api import factor as F
    lu, perm, swaps, piv_min = F.lu_factor(a)
    if bool((piv_min == 0).any()):
        raise LinAlgError("Singular matrix")
    return lu, perm


def solve(x1, x2, /):
    """Solution of ``x1 @ x = x2`` by LU with partial pivoting (every backend); `x2` is one
    vector when it is 1-D, else a stack of matrices (NumPy 2).  LinAlgError when singular."""
    from ._api import factor as F
    gp = _gp()
    a, b = _arr(x1), _arr(x2)
    F.square(a)
    m = a.shape[-1]
    dt = F.work_dtype(a.dtype, b.dtype)
    vector = b.ndim == 1
    if vector:
        if b.shape[0] != m:
            raise ValueError(f"solve1: Input operand 1 has a mismatch in its core dimension "
                             f"0, with gufunc signature (m,m),(m)->(m) (size {b.shape[0]} "
                             f"is different from {m})")
        b = b[:, None]
    elif b.shape[-2] != m:
        raise ValueError(f"solve: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature (m,m),(m,n)->(m,n) (size {b.shape[-2]} is "
                         f"different from {m})")
    batch = gp.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    r = b.shape[-1]
    nb = math.prod(batch)
    A = gp.broadcast_to(a.astype(dt, copy=False), batch + (m, m)).reshape(nb, m, m)
    B = gp.broadcast_to(b.astype(dt, copy=False), batch + (m, r)).reshape(nb, m, r)
    if m == 0 or nb == 0 or r == 0:
        out = gp.zeros(batch + (m, r), dtype=dt, device=a.device)
    else:
        from ._api import factor as F2
        lu, perm = _lu(A)
        out = F2.lu_solve(lu, perm, B).reshape(batch + (m, r))
    return out[..., 0] if vector else out


def inv(x, /):
    """Matrix inverse by LU with partial pivoting (every backend); LinAlgError when
    singular."""
    from ._api import factor as F
    gp = _gp()
    a = _arr(x)
    F.square(a)
    dt = F.work_dtype(a.dtype)
    n = a.shape[-1]
    eye = gp.eye(n, dtype=dt, device=a.device)
    return solve(a.astype(dt, copy=False), gp.broadcast_to(eye, a.shape))


def _det_parts(x):
    """(the batch's LU diagonals (B..., n), row-swap parity sign (B...,), dtype)."""
    from ._api import factor as F
    gp = _gp()
    a = _arr(x)
    F.square(a)
    dt = F.work_dtype(a.dtype)
    a2, batch = _batched(a.astype(dt, copy=False))
    n = a.shape[-1]
    if n == 0 or a2.shape[0] == 0:
        return gp.ones(batch + (0,), dtype=dt, device=a.device), \
            gp.ones(batch, dtype=dt, device=a.device), dt
    lu, perm, swaps, _ = F.lu_factor(a2)
    diag = gp.diagonal(lu, axis1=1, axis2=2).reshape(batch + (n,))
    sign = (1 - 2 * (swaps % 2)).astype(dt).reshape(batch)
    return diag, sign, dt


def det(x, /):
    """Determinants from an LU factorization (every backend): the product of U's
    diagonal with the sign of the row permutation; 0 for singular matrices."""
    gp = _gp()
    diag, sign, dt = _det_parts(x)
    return (sign * gp.prod(diag, axis=-1)).astype(dt)


def slogdet(x, /):
    """``SlogdetResult(sign, logabsdet)`` of the determinants from an LU factorization
    (every backend); (0, -inf) for singular matrices."""
    gp = _gp()
    diag, sign, dt = _det_parts(x)
    mag = gp.abs(diag)
    zero = (mag == 0).any(axis=-1)
    unit = gp.where(mag == 0, 1, diag / gp.where(mag == 0, 1, mag))
    s = gp.where(zero, 0, sign * gp.prod(unit, axis=-1)).astype(dt)
    logabs = gp.sum(gp.log(mag), axis=-1).astype(mag.dtype)
    return SlogdetResult(s, logabs)


_NOVALUE = object()


def pinv(x, /, rcond=None, hermitian=False, *, rtol=_NOVALUE):
    """Moore-Penrose pseudo-inverse from the SVD (every backend), NumPy's cutoffs."""
    from ._api import svdops
    return svdops.pinv(_arr(x), rcond, rtol, hermitian, _NOVALUE)


def matrix_rank(x, /, tol=None, hermitian=False, *, rtol=None):
    """Rank: the number of singular values above the tolerance (every backend)."""
    from ._api import svdops
    return svdops.matrix_rank(_arr(x), tol, hermitian, rtol)


def lstsq(a, b, /, rcond=None):
    """Least-squares solution ``(x, residuals, rank, s)`` from the SVD (every backend);
    `rank` is a 0-d int32 array."""
    from ._api import svdops
    return svdops.lstsq(_arr(a), _arr(b), rcond)


def cond(x, /, p=None):
    """Condition number in the norm `p` (every backend)."""
    from ._api import svdops
    return svdops.cond(_arr(x), p)


def tensorinv(a, /, ind=2):
    """The inverse of an N-d array for ``tensordot`` with `ind` leading axes (NumPy's
    reshape to a square matrix and ``inv``; every backend)."""
    a = _arr(a)
    oldshape = a.shape
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    invshape = oldshape[ind:] + oldshape[:ind]
    prod = math.prod(oldshape[ind:])
    return inv(a.reshape(prod, -1)).reshape(invshape)


def tensorsolve(a, b, /, axes=None):
    """The x with ``tensordot(a, x, axes=x.ndim) == b`` (NumPy's reshape to one square
    system and ``solve``; every backend)."""
    a, b = _arr(a), _arr(b)
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


# ------------------------------------------------------------------ built from gnumpy ops

def matmul(x1, x2, /):
    return _gp().matmul(x1, x2)


def matrix_transpose(x, /):
    return _gp().matrix_transpose(_arr(x))


def vecdot(x1, x2, /, *, axis=-1):
    return _gp().vecdot(_arr(x1), _arr(x2), axis=axis)


def tensordot(x1, x2, /, *, axes=2):
    return _gp().tensordot(x1, x2, axes=axes)


def outer(x1, x2, /):
    """Outer product of two vectors (both must be 1-D, as in NumPy's ``linalg.outer``)."""
    x1, x2 = _arr(x1), _arr(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are "
                         f"x1.ndim={x1.ndim} and x2.ndim={x2.ndim}.")
    return _gp().outer(x1, x2)


def trace(x, /, *, offset=0, dtype=None):
    """Sum along the diagonals of the last two axes."""
    return _gp().trace(_arr(x), offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def diagonal(x, /, *, offset=0):
    """Diagonals of the last two axes."""
    return _gp().diagonal(_arr(x), offset=offset, axis1=-2, axis2=-1)


def cross(x1, x2, /, *, axis=-1):
    """Cross product of 3-element vectors along `axis`."""
    x1, x2 = _arr(x1), _arr(x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(f"Both input arrays must be (arrays of) 3-dimensional vectors, but "
                         f"they are {x1.shape[axis]} and {x2.shape[axis]} dimensional "
                         f"instead.")
    return _gp().cross(x1, x2, axis=axis)


def _inexact(x):
    x = _arr(x)
    return x if x.dtype.kind in "fc" else x.astype(np.float64)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """Vector p-norms over `axis` (all elements when None)."""
    gp = _gp()
    x = _inexact(x)
    if axis is None:
        ax = tuple(range(x.ndim))
    elif isinstance(axis, tuple):
        ax = axis
    else:
        ax = (operator.index(axis),)
    a = gp.abs(x)
    if ord == math.inf:
        r = gp.max(a, axis=ax, keepdims=True)
    elif ord == -math.inf:
        r = gp.min(a, axis=ax, keepdims=True)
    elif ord == 0:
        r = gp.sum(a != 0, axis=ax, keepdims=True).astype(a.dtype)
    elif ord == 1:
        r = gp.sum(a, axis=ax, keepdims=True)
    elif ord == 2:
        r = gp.sqrt(gp.sum(a * a, axis=ax, keepdims=True))
    elif isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    else:
        r = gp.sum(a ** float(ord), axis=ax, keepdims=True) ** (1.0 / float(ord))
    if not keepdims:
        r = gp.squeeze(r, axis=tuple(d % x.ndim for d in ax)) if x.ndim else r
    return r


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """Matrix norms over the last two axes ('fro', 1, -1, inf, -inf on every backend;
    'nuc', 2, -2 through singular values, CPU backend)."""
    return _matrix_norm(_inexact(x), (-2, -1), keepdims, ord)


def _matrix_norm(x, axes, keepdims, ord):
    gp = _gp()
    if x.ndim < 2:
        raise ValueError("Improper number of dimensions to norm.")
    r0, c0 = (d % x.ndim for d in axes)
    if r0 == c0:
        raise ValueError("Duplicate axes given.")
    a = gp.abs(x)
    if ord in ("fro", "f"):
        r = gp.sqrt(gp.sum(a * a, axis=(r0, c0), keepdims=True))
    elif ord in (1, -1):
        s = gp.sum(a, axis=r0, keepdims=True)
        r = (gp.max if ord == 1 else gp.min)(s, axis=c0, keepdims=True)
    elif ord in (math.inf, -math.inf):
        s = gp.sum(a, axis=c0, keepdims=True)
        r = (gp.max if ord == math.inf else gp.min)(s, axis=r0, keepdims=True)
    elif ord in ("nuc", 2, -2):
        from ._api import svdops
        sv = svdops.singular_values(gp.moveaxis(x, (r0, c0), (-2, -1)))
        r = {"nuc": gp.sum, 2: gp.max, -2: gp.min}[ord](sv, axis=-1)
        r = gp.expand_dims(r, axis=tuple(sorted((r0, c0))))
    else:
        raise ValueError("Invalid norm order for matrices.")
    return r if keepdims else gp.squeeze(r, axis=(r0, c0))


def norm(x, ord=None, axis=None, keepdims=False):
    """NumPy's ``linalg.norm``: vector norms over one axis, matrix norms over two, the
    2-norm of all elements when `ord` and `axis` are None."""
    x = _inexact(x)
    if axis is None:
        if ord is None:
            return vector_norm(x, axis=None, keepdims=keepdims) if not keepdims else \
                vector_norm(x, axis=tuple(range(x.ndim)), keepdims=True)
        if x.ndim == 1:
            return vector_norm(x, axis=0, keepdims=keepdims, ord=ord)
        if x.ndim == 2:
            return _matrix_norm(x, (0, 1), keepdims, ord)
        raise ValueError("Improper number of dimensions to norm.")
    if isinstance(axis, tuple) and len(axis) == 2:
        return _matrix_norm(x, axis, keepdims, "fro" if ord is None else ord)
    if isinstance(axis, tuple) and len(axis) != 1:
        raise ValueError("Improper number of dimensions to norm.")
    ax = axis[0] if isinstance(axis, tuple) else operator.index(axis)
    if not -x.ndim <= ax < x.ndim:
        from numpy.exceptions import AxisError
        raise AxisError(ax, x.ndim)
    return vector_norm(x, axis=ax, keepdims=keepdims, ord=2 if ord is None else ord)


def matrix_power(a, n, /):
    """``a`` to the integer power `n` by repeated squaring (negative powers invert with
    ``inv``)."""
    gp = _gp()
    a = _arr(a)
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError("exponent must be an integer") from None
    from ._api import factor as F
    F.square(a)
    if n == 0:
        eye = gp.eye(a.shape[-1], dtype=a.dtype, device=a.device)
        return gp.broadcast_to(eye, a.shape) + gp.zeros(a.shape, dtype=a.dtype,
                                                         device=a.device)
    if n < 0:
        a, n = inv(a), -n
    result = None
    base = a
    while n:
        if n & 1:
            result = base if result is None else gp.matmul(result, base)
        n >>= 1
        if n:
            base = gp.matmul(base, base)
    return result


def multi_dot(arrays, *, out=None):
    """The matrix product of a sequence (left to right; a 1-D first or last array is a row
    or column vector, as in ``matmul``)."""
    gp = _gp()
    arrays = [_arr(a) for a in arrays]
    if len(arrays) < 2:
        raise ValueError("Expecting at least two arrays.")
    r = arrays[0]
    for a in arrays[1:]:
        r = gp.matmul(r, a)
    if out is not None:
        out[...] = r
        return out
    return r


__all__ = ["LinAlgError", "cholesky", "cond", "cross", "det", "diagonal", "eig", "eigh",
           "eigvals", "eigvalsh", "inv", "lstsq", "matmul", "matrix_norm", "matrix_power",
           "matrix_rank", "matrix_transpose", "multi_dot", "norm", "outer", "pinv", "qr",
           "slogdet", "solve", "svd", "svdvals", "tensordot", "tensorinv", "tensorsolve",
           "trace", "vecdot", "vector_norm"]
