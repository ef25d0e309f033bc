"""Products and norms of gnumpy.linalg, built from gnumpy ops on every backend (they fuse
like any other array code): ``matmul``, ``matrix_transpose``, ``vecdot``, ``tensordot``,
``outer``, ``trace``, ``diagonal``, ``cross``, ``multi_dot``, ``matrix_power`` (repeated
squaring; ``inv`` for negative powers), ``vector_norm``, ``matrix_norm`` and ``norm``
(the 2-, -2- and nuclear matrix norms through the singular values, ``_svd.svd_norm``) and
``cond`` (the singular values' ratio, or ``norm(x) * norm(inv(x))``).
"""
from __future__ import annotations

import math
import operator

import numpy as np

# The wrappers of gnumpy.tensordot, outer, trace, diagonal and cross import them where
# used: loading _api.products.products and _api.shape.diagonals with gnumpy.linalg costs ~6 ms.
from .._api._common import axis_index, axis_int, normalize_axis, scalar_result
from .._api.creation.creation import eye, zeros
from .._api.elementwise.elementwise import apply, where
from .._api.shape.manipulation import broadcast_to, expand_dims, squeeze
from .._api.shape.manipulation import matrix_transpose as _matrix_transpose
from .._api.products.matmul import matmul as _matmul, vecdot as _vecdot
from .._api.products.products import tensordot as _tensordot, outer as _outer, cross as _cross
from .._api.reductions.reductions import any as any_, max as max_, min as min_, sum as sum_
from .._api.shape.diagonals import trace as _trace, diagonal as _diagonal
from ._common import LinAlgError, assert_stacked_square, call, empty, real_of, result_dtype
from ._common import arr as _arr
from ._factor import inv
from ._svd import svd, svd_norm


def matmul(x1, x2, /):
    """Matrix product of the last two axes, broadcasting the rest (``gnumpy.matmul``)."""
    return _matmul(x1, x2)


def matrix_transpose(x, /):
    """Transpose of the last two axes (a view)."""
    return _matrix_transpose(_arr(x))


def vecdot(x1, x2, /, *, axis=-1):
    """Dot product of vectors along `axis` (conjugating `x1`), broadcasting the rest."""
    return _vecdot(_arr(x1), _arr(x2), axis=axis)


def tensordot(x1, x2, /, *, axes=2):
    """Sum of products over `axes` (``gnumpy.tensordot``, keyword-only `axes`)."""
    return _tensordot(x1, x2, axes=axes)


def outer(x1, x2, /):
    """Outer product of two vectors (both must be 1-D, as in NumPy's ``linalg.outer``)."""
    x1, x2 = _arr(x1), _arr(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are "
                         f"x1.ndim={x1.ndim} and x2.ndim={x2.ndim}.")
    return _outer(x1, x2)


def trace(x, /, *, offset=0, dtype=None):
    """Sum along the diagonals of the last two axes."""
    return _trace(_arr(x), offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def diagonal(x, /, *, offset=0):
    """Diagonals of the last two axes."""
    return _diagonal(_arr(x), offset=offset, axis1=-2, axis2=-1)


def cross(x1, x2, /, *, axis=-1):
    """Cross product of 3-element vectors along `axis`."""
    x1, x2 = _arr(x1), _arr(x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(f"Both input arrays must be (arrays of) 3-dimensional vectors, but "
                         f"they are {x1.shape[axis]} and {x2.shape[axis]} dimensional "
                         f"instead.")
    return _cross(x1, x2, axis=axis)


def _inexact(x):
    x = _arr(x)
    return x if x.dtype.kind in "fc" else x.astype(np.float64)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """Vector p-norms over `axis` (all elements when None)."""
    x = _inexact(x)
    if axis is None:
        ax = tuple(range(x.ndim))
    elif isinstance(axis, tuple):
        ax = axis
    else:
        ax = (operator.index(axis),)
    a = apply("absolute", x)
    if ord == math.inf:
        r = max_(a, axis=ax, keepdims=True)
    elif ord == -math.inf:
        r = min_(a, axis=ax, keepdims=True)
    elif ord == 0:
        r = sum_(a != 0, axis=ax, keepdims=True).astype(a.dtype)
    elif ord == 1:
        r = sum_(a, axis=ax, keepdims=True)
    elif ord == 2:
        r = apply("sqrt", sum_(a * a, axis=ax, keepdims=True))
    elif isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    else:
        r = sum_(a ** float(ord), axis=ax, keepdims=True) ** (1.0 / float(ord))
    if not keepdims:
        r = squeeze(r, axis=tuple(d % x.ndim for d in ax)) if x.ndim else r
    return scalar_result(r)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """Matrix norms over the last two axes: 'fro', 1, -1, inf, -inf from gnumpy ops,
    'nuc', 2, -2 from the singular values."""
    return scalar_result(_matrix_norm(_inexact(x), (-2, -1), keepdims, ord))


def _matrix_norm(x, axes, keepdims, ord):
    if x.ndim < 2:
        raise ValueError("Improper number of dimensions to norm.")
    r0, c0 = (d % x.ndim for d in axes)
    if r0 == c0:
        raise ValueError("Duplicate axes given.")
    a = apply("absolute", x)
    if ord in ("fro", "f"):
        r = apply("sqrt", sum_(a * a, axis=(r0, c0), keepdims=True))
    elif ord in (1, -1):
        s = sum_(a, axis=r0, keepdims=True)
        r = (max_ if ord == 1 else min_)(s, axis=c0, keepdims=True)
    elif ord in (math.inf, -math.inf):
        s = sum_(a, axis=c0, keepdims=True)
        r = (max_ if ord == math.inf else min_)(s, axis=r0, keepdims=True)
    elif ord in ("nuc", 2, -2):
        r = svd_norm(x, (r0, c0), ord)
        r = expand_dims(r, axis=tuple(sorted((r0, c0))))
    else:
        raise ValueError("Invalid norm order for matrices.")
    return r if keepdims else squeeze(r, axis=(r0, c0))


def norm(x, ord=None, axis=None, keepdims=False):
    """NumPy's ``linalg.norm``: vector norms over one axis, matrix norms over two, the
    2-norm of all elements when `ord` and `axis` are None."""
    return scalar_result(_norm(_inexact(x), ord, axis, keepdims))


def _norm(x, ord, axis, keepdims):
    if axis is None:
        if ord is None:
            return vector_norm(x, axis=None, keepdims=keepdims) if not keepdims else \
                vector_norm(x, axis=tuple(range(x.ndim)), keepdims=True)
        if x.ndim == 1:
            return vector_norm(x, axis=0, keepdims=keepdims, ord=ord)
        if x.ndim == 2:
            return _matrix_norm(x, (0, 1), keepdims, ord)
        raise ValueError("Improper number of dimensions to norm.")
    if not isinstance(axis, tuple):
        try:                    # (NumPy's norm: int(axis), so 1.0 and "1" are axis 1)
            axis = (int(axis),)
        except Exception as e:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from e
    if len(axis) == 2:          # (NumPy: normalize_axis_index of each, then its checks)
        axes = tuple(axis_index(a, x.ndim) for a in axis)
        if x.ndim < 2:
            raise ValueError("Duplicate axes given.")
        return _matrix_norm(x, axes, keepdims, "fro" if ord is None else ord)
    if len(axis) != 1:
        raise ValueError("Improper number of dimensions to norm.")
    ax = normalize_axis(axis_int(axis[0], "an integer is required"), x.ndim)    # (its
    return vector_norm(x, axis=ax, keepdims=keepdims,                 # reduction's reading)
                       ord=2 if ord is None else ord)


def matrix_power(a, n):
    """``a`` to the integer power `n` by repeated squaring (negative powers invert with
    ``inv``)."""
    a = _arr(a)
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError("exponent must be an integer") from None
    assert_stacked_square(a)
    if n == 0:
        ident = eye(a.shape[-1], dtype=a.dtype, device=a.device)
        return broadcast_to(ident, a.shape) + zeros(a.shape, dtype=a.dtype, device=a.device)
    if n < 0:
        a, n = inv(a), -n
    result = None
    base = a
    while n:
        if n & 1:
            result = base if result is None else _matmul(result, base)
        n >>= 1
        if n:
            base = _matmul(base, base)
    return result


def multi_dot(arrays, *, out=None):
    """The matrix product of a sequence (left to right; a 1-D first or last array is a row
    or column vector, as in ``matmul``)."""
    arrays = [_arr(a) for a in arrays]
    if len(arrays) < 2:
        raise ValueError("Expecting at least two arrays.")
    r = arrays[0]
    for a in arrays[1:]:
        r = _matmul(r, a)
    if out is not None:
        out[...] = r
        return out
    return r


def cond(x, p=None):
    """Condition number in the norm `p` (None, 2, -2 from the singular values; 'fro',
    'nuc', 1, -1, inf, -inf from ``norm(x) * norm(inv(x))``); inf for a singular matrix.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.linalg.cond(gp.asarray([[2.0, 0.0], [0.0, 0.5]]))
    array(4.)
    """
    x = _arr(x)
    if x.size == 0 and math.prod(x.shape[-2:]) == 0:
        raise LinAlgError("cond is not defined on empty arrays")
    if p is None or (not isinstance(p, str) and p in (2, -2)):
        s = svd(x, compute_uv=False)
        r = s[..., -1] / s[..., 0] if p == -2 else s[..., 0] / s[..., -1]
    else:
        assert_stacked_square(x)
        dt = result_dtype(x)
        xd = x.astype(dt, copy=False)
        if x.size == 0:
            invx = empty(x.shape, dt, x.device)
        else:                       # an inverse that does not raise: inf/NaN when singular
            invx, = call("inv", [xd], check=False)
        r = norm(xd, p, axis=(-2, -1)) * norm(invx, p, axis=(-2, -1))
        r = r.astype(real_of(dt))
    nan = apply("isnan", r) & ~any_(apply("isnan", x), axis=(-2, -1))
    return scalar_result(where(nan, np.inf, r).astype(r.dtype))
