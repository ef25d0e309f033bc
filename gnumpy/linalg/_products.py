"""Products and norms of gnumpy.linalg, built from gnumpy ops on every backend (they fuse
like any other array code): ``matmul``, ``matrix_transpose``, ``vecdot``, ``tensordot``,
``outer``, ``trace``, ``diagonal``, ``cross``, ``multi_dot``, ``matrix_power`` (repeated
squaring; ``inv`` for negative powers), ``vector_norm``, ``matrix_norm`` and ``norm``
(the 2-, -2- and nuclear matrix norms through the singular values, ``_svd.svd_norm``).
"""
from __future__ import annotations

import math
import operator

import numpy as np

from ._common import arr as _arr
from ._common import assert_stacked_square, gp


def matmul(x1, x2, /):
    """Matrix product of the last two axes, broadcasting the rest (``gnumpy.matmul``)."""
    return gp().matmul(x1, x2)


def matrix_transpose(x, /):
    """Transpose of the last two axes (a view)."""
    return gp().matrix_transpose(_arr(x))


def vecdot(x1, x2, /, *, axis=-1):
    """Dot product of vectors along `axis` (conjugating `x1`), broadcasting the rest."""
    return gp().vecdot(_arr(x1), _arr(x2), axis=axis)


def tensordot(x1, x2, /, *, axes=2):
    """Sum of products over `axes` (``gnumpy.tensordot``, keyword-only `axes`)."""
    return gp().tensordot(x1, x2, axes=axes)


def outer(x1, x2, /):
    """Outer product of two vectors (both must be 1-D, as in NumPy's ``linalg.outer``)."""
    x1, x2 = _arr(x1), _arr(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are "
                         f"x1.ndim={x1.ndim} and x2.ndim={x2.ndim}.")
    return gp().outer(x1, x2)


def trace(x, /, *, offset=0, dtype=None):
    """Sum along the diagonals of the last two axes."""
    return gp().trace(_arr(x), offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def diagonal(x, /, *, offset=0):
    """Diagonals of the last two axes."""
    return gp().diagonal(_arr(x), offset=offset, axis1=-2, axis2=-1)


def cross(x1, x2, /, *, axis=-1):
    """Cross product of 3-element vectors along `axis`."""
    x1, x2 = _arr(x1), _arr(x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(f"Both input arrays must be (arrays of) 3-dimensional vectors, but "
                         f"they are {x1.shape[axis]} and {x2.shape[axis]} dimensional "
                         f"instead.")
    return gp().cross(x1, x2, axis=axis)


def _inexact(x):
    x = _arr(x)
    return x if x.dtype.kind in "fc" else x.astype(np.float64)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """Vector p-norms over `axis` (all elements when None)."""
    g = gp()
    x = _inexact(x)
    if axis is None:
        ax = tuple(range(x.ndim))
    elif isinstance(axis, tuple):
        ax = axis
    else:
        ax = (operator.index(axis),)
    a = g.abs(x)
    if ord == math.inf:
        r = g.max(a, axis=ax, keepdims=True)
    elif ord == -math.inf:
        r = g.min(a, axis=ax, keepdims=True)
    elif ord == 0:
        r = g.sum(a != 0, axis=ax, keepdims=True).astype(a.dtype)
    elif ord == 1:
        r = g.sum(a, axis=ax, keepdims=True)
    elif ord == 2:
        r = g.sqrt(g.sum(a * a, axis=ax, keepdims=True))
    elif isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    else:
        r = g.sum(a ** float(ord), axis=ax, keepdims=True) ** (1.0 / float(ord))
    if not keepdims:
        r = g.squeeze(r, axis=tuple(d % x.ndim for d in ax)) if x.ndim else r
    return r


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """Matrix norms over the last two axes: 'fro', 1, -1, inf, -inf from gnumpy ops,
    'nuc', 2, -2 from the singular values."""
    return _matrix_norm(_inexact(x), (-2, -1), keepdims, ord)


def _matrix_norm(x, axes, keepdims, ord):
    g = gp()
    if x.ndim < 2:
        raise ValueError("Improper number of dimensions to norm.")
    r0, c0 = (d % x.ndim for d in axes)
    if r0 == c0:
        raise ValueError("Duplicate axes given.")
    a = g.abs(x)
    if ord in ("fro", "f"):
        r = g.sqrt(g.sum(a * a, axis=(r0, c0), keepdims=True))
    elif ord in (1, -1):
        s = g.sum(a, axis=r0, keepdims=True)
        r = (g.max if ord == 1 else g.min)(s, axis=c0, keepdims=True)
    elif ord in (math.inf, -math.inf):
        s = g.sum(a, axis=c0, keepdims=True)
        r = (g.max if ord == math.inf else g.min)(s, axis=r0, keepdims=True)
    elif ord in ("nuc", 2, -2):
        from ._svd import svd_norm
        r = svd_norm(x, (r0, c0), ord)
        r = g.expand_dims(r, axis=tuple(sorted((r0, c0))))
    else:
        raise ValueError("Invalid norm order for matrices.")
    return r if keepdims else g.squeeze(r, axis=(r0, c0))


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
    g = gp()
    a = _arr(a)
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError("exponent must be an integer") from None
    assert_stacked_square(a)
    if n == 0:
        eye = g.eye(a.shape[-1], dtype=a.dtype, device=a.device)
        return g.broadcast_to(eye, a.shape) + g.zeros(a.shape, dtype=a.dtype,
                                                        device=a.device)
    if n < 0:
        from ._factor import inv
        a, n = inv(a), -n
    result = None
    base = a
    while n:
        if n & 1:
            result = base if result is None else g.matmul(result, base)
        n >>= 1
        if n:
            base = g.matmul(base, base)
    return result


def multi_dot(arrays, *, out=None):
    """The matrix product of a sequence (left to right; a 1-D first or last array is a row
    or column vector, as in ``matmul``)."""
    g = gp()
    arrays = [_arr(a) for a in arrays]
    if len(arrays) < 2:
        raise ValueError("Expecting at least two arrays.")
    r = arrays[0]
    for a in arrays[1:]:
        r = g.matmul(r, a)
    if out is not None:
        out[...] = r
        return out
    return r
