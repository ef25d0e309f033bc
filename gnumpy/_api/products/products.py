"""Products and sliding sums: dot, inner, outer, vdot, kron, tensordot, cross, convolve and
correlate.

Vector-sized products are fused reductions (``vdot`` is one kernel); contractions of
higher-dimensional operands go through ``matmul`` after transposes and reshapes, as NumPy's
``tensordot`` does.  ``convolve``/``correlate`` read a zero-padded copy of the longer input
through a Toeplitz-shaped view (a broadcast, a reshape and a slice: index arithmetic, no
copy) and reduce it against the shorter one: one concat and one reduction kernel.
"""
from __future__ import annotations

import math
import operator
import warnings

from ... import _dtypes as D
from ..._graph import ir
from ..._broadcast import broadcast_shapes, fmt as _fmt
from .._common import as_node, check_device_match, is_array, normalize_axis, wrap
from ..creation.creation import zeros
from ..elementwise.elementwise import apply, astype
from ..shape.manipulation import broadcast_to, concat, expand_dims, moveaxis, stack
from .matmul import matmul, vector_dot
from ..reductions.reductions import sum as sum_
from ..outargs import finish


def _arr(x, device=None):
    return x if is_array(x) else wrap(as_node(x, device=device))


def _pair(a, b):
    a = _arr(a)
    b = _arr(b, a.device)
    check_device_match([a._node, b._node])
    return a, b


def dot(a, b, out=None):
    """NumPy ``dot`` for operands of at most two dimensions (and scalars)."""
    if out is None:
        r = vector_dot(a, b)
        if r is not None:
            return r
    a = _arr(a)
    b = _arr(b, a.device)
    if a.ndim == 0 or b.ndim == 0:
        return finish("multiply", a * b, out)
    # NumPy: a sum product over the last axis of a and the second-to-last of b
    kb = b.ndim - 2 if b.ndim >= 2 else 0
    if a.shape[-1] != b.shape[kb]:
        raise ValueError(f"shapes {_fmt(a.shape)} and {_fmt(b.shape)} not aligned: "
                         f"{a.shape[-1]} (dim {a.ndim - 1}) != {b.shape[kb]} (dim {kb})")
    if a.ndim > 2 or b.ndim > 2:
        return finish("multiply", tensordot(a, b, axes=([a.ndim - 1], [kb])), out)
    return matmul(a, b, out=out)


def outer(a, b, out=None):
    """Outer product of two vectors (inputs are flattened).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.outer(gp.asarray([1, 2]), gp.asarray([1, 10, 100]))
    array([[  1,  10, 100],
           [  2,  20, 200]])
    """
    a, b = _pair(a, b)
    a = a if _vector(a) else a.ravel()
    b = b if _vector(b) else b.ravel()
    r = apply("multiply", a[:, None], b[None, :])   # as NumPy's
    return finish("multiply", r, out)


def _vector(x) -> bool:
    """Is `x` a vector ravel would return as it is (a contiguous one in memory, or a lazy
    value)?  Others are ravelled: NumPy copies them first (and a copy too large for the
    device is its MemoryError)."""
    n = x._node
    return x.ndim == 1 and (n.strides == (1,) if n.kind == ir.LEAF else x._base is None)


def vdot(a, b, /):
    """Dot product of the flattened arrays, conjugating the first (one fused reduction).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.vdot(gp.asarray([1 + 2j, 3 + 4j]), gp.asarray([5 + 6j, 7 + 8j]))
    array(70.-8.j)
    """
    a, b = _pair(a, b)
    if a.size != b.size:
        raise ValueError("vectors have different lengths")
    if a.dtype.kind == "c":
        a = apply("conjugate", a)
    dt = D.result_type(a, b)
    return sum_(apply("multiply", a.reshape(-1), b.reshape(-1)), dtype=dt)


def inner(a, b, /):
    """Inner product over the last axes of `a` and `b` (a fused reduction for vectors, a
    matrix product otherwise).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.inner(gp.asarray([1, 2, 3]), gp.asarray([0, 1, 0]))
    array(2)
    """
    a, b = _pair(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return apply("multiply", a, b)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"shapes {a.shape} and {b.shape} not aligned: {a.shape[-1]} (dim "
                         f"{a.ndim - 1}) != {b.shape[-1]} (dim {b.ndim - 1})")
    dt = D.result_type(a, b)
    if a.ndim == 1 and b.ndim == 1:
        return sum_(apply("multiply", a, b), dtype=dt)
    k = a.shape[-1]
    r = matmul(astype(a, dt, copy=False).reshape(-1, k),
               astype(b, dt, copy=False).reshape(-1, k).T)
    return r.reshape(a.shape[:-1] + b.shape[:-1])


def tensordot(a, b, axes=2):
    """Sum products over the given axes of `a` and `b` (transposes + one matrix product).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.tensordot(gp.ones((2, 3, 4)), gp.ones((3, 4, 5))).shape
    (2, 5)
    """
    try:
        iter(axes)
    except Exception:
        n = operator.index(axes)
        axes_a, axes_b = list(range(-n, 0)), list(range(0, n))
    else:
        axes_a, axes_b = axes
    try:
        na = len(axes_a)
        axes_a = list(axes_a)
    except TypeError:
        axes_a, na = [axes_a], 1
    try:
        nb = len(axes_b)
        axes_b = list(axes_b)
    except TypeError:
        axes_b, nb = [axes_b], 1
    if len(set(axes_a)) != len(axes_a) or len(set(axes_b)) != len(axes_b):
        raise ValueError("duplicate axes are not allowed in tensordot")
    a, b = _pair(a, b)
    as_, bs = a.shape, b.shape
    nda, ndb = a.ndim, b.ndim
    equal = na == nb
    if equal:
        for k in range(na):
            if as_[axes_a[k]] != bs[axes_b[k]]:
                equal = False
                break
            axes_a[k] %= nda
            axes_b[k] %= ndb
    if not equal:
        raise ValueError("shape-mismatch for sum")
    notin_a = [k for k in range(nda) if k not in axes_a]
    notin_b = [k for k in range(ndb) if k not in axes_b]
    n2 = math.prod(as_[ax] for ax in axes_a)
    at = a.transpose(notin_a + axes_a).reshape(math.prod(as_[ax] for ax in notin_a), n2)
    bt = b.transpose(axes_b + notin_b).reshape(n2, math.prod(bs[ax] for ax in notin_b))
    dt = D.result_type(a, b)
    res = matmul(astype(at, dt, copy=False), astype(bt, dt, copy=False))
    return res.reshape([as_[ax] for ax in notin_a] + [bs[ax] for ax in notin_b])


def kron(a, b):
    """Kronecker product (one fused broadcast multiply and reshape).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.kron(gp.asarray([1, 10]), gp.asarray([1, 2, 3]))
    array([ 1,  2,  3, 10, 20, 30])
    """
    b = _arr(b)
    a = _arr(a, b.device)
    if a.ndim < b.ndim:
        a = a.reshape((1,) * (b.ndim - a.ndim) + a.shape)
    nda, ndb = a.ndim, b.ndim
    nd = max(nda, ndb)
    if nda == 0 or ndb == 0:
        return apply("multiply", a, b)
    as_ = (1,) * max(0, ndb - nda) + a.shape
    bs = (1,) * max(0, nda - ndb) + b.shape
    a_arr = expand_dims(a, axis=tuple(range(ndb - nda))) if ndb > nda else a
    b_arr = expand_dims(b, axis=tuple(range(nda - ndb))) if nda > ndb else b
    a_arr = expand_dims(a_arr, axis=tuple(range(1, nd * 2, 2)))
    b_arr = expand_dims(b_arr, axis=tuple(range(0, nd * 2, 2)))
    r = apply("multiply", a_arr, b_arr)
    return r.reshape(tuple(p * q for p, q in zip(as_, bs)))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Cross product of (arrays of) 2- or 3-element vectors.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.cross(gp.asarray([1, 0, 0]), gp.asarray([0, 1, 0]))
    array([0, 0, 1])
    """
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = _pair(a, b)
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    a = moveaxis(a, normalize_axis(axisa, a.ndim), -1)
    b = moveaxis(b, normalize_axis(axisb, b.ndim), -1)
    na, nb = a.shape[-1], b.shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or "
                         "3)")
    if na == 2 or nb == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                      "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                      DeprecationWarning, stacklevel=2)
    shape = broadcast_shapes(a.shape[:-1], b.shape[:-1])
    if na == 3 or nb == 3:
        axisc = normalize_axis(axisc, len(shape) + 1)
    dt = D.promote(a.dtype, b.dtype)
    a, b = astype(a, dt), astype(b, dt)
    mul, sub = (lambda p, q: apply("multiply", p, q)), (lambda p, q: apply("subtract", p, q))
    a0, a1, b0, b1 = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    if na == 2 and nb == 2:
        return sub(mul(a0, b1), mul(a1, b0))
    if na == 2:
        b2 = b[..., 2]
        cp = [mul(a1, b2), apply("negative", mul(a0, b2)), sub(mul(a0, b1), mul(a1, b0))]
    elif nb == 2:
        a2 = a[..., 2]
        cp = [apply("negative", mul(a2, b1)), mul(a2, b0), sub(mul(a0, b1), mul(a1, b0))]
    else:
        a2, b2 = a[..., 2], b[..., 2]
        cp = [sub(mul(a1, b2), mul(a2, b1)), sub(mul(a2, b0), mul(a0, b2)),
              sub(mul(a0, b1), mul(a1, b0))]
    cp = [astype(broadcast_to(c, shape), dt, copy=False) for c in cp]
    return moveaxis(stack(cp, axis=-1), -1, axisc)


# ------------------------------------------------------------------ convolution

def _full_convolution(a, v, dt):
    """Full discrete convolution of 1-D `a` (length n) and `v` (length m <= n):
    ``out[k] = sum_j a[k - j] v[j]``, length n + m - 1, one reduction kernel.

    With ``p = concat(a, zeros(m))`` (length n + m), row j of the (m, n + m - 1) view
    ``broadcast(p, (m, n+m)).reshape(-1)[:m*(n+m-1)].reshape(m, n+m-1)`` is p shifted right
    by j with wrap-around into the zero padding: element (j, k) is ``p[(k - j) mod (n+m)]``.
    """
    n, m = a.shape[0], v.shape[0]
    p = concat([astype(a, dt, copy=False), zeros((m,), dtype=dt, device=a.device)])
    width = n + m
    rows = broadcast_to(p, (m, width)).reshape(-1)[:m * (width - 1)].reshape(m, width - 1)
    return sum_(apply("multiply", rows, astype(v, dt, copy=False).reshape(m, 1)), axis=0,
                dtype=dt)


def _mode_slice(full, n, m, mode):
    if mode == "full":
        return full
    if mode == "same":
        start = (min(n, m) - 1) // 2
        return full[start:start + max(n, m)]
    if mode == "valid":
        return full[min(n, m) - 1:max(n, m)]
    raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")


def _vectors(a, v):
    a, v = _pair(a, v)
    a = a.reshape(1) if a.ndim == 0 else a
    v = v.reshape(1) if v.ndim == 0 else v
    if a.ndim > 1 or v.ndim > 1:
        raise ValueError("object too deep for desired array")
    if a.shape[0] == 0:
        raise ValueError("a cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("v cannot be empty")
    return a, v


def _check_mode(mode):
    if mode not in ("full", "same", "valid"):
        if isinstance(mode, int) and mode in (0, 1, 2):
            return ("valid", "same", "full")[mode]
        raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
    return mode


def convolve(a, v, mode="full"):
    """Discrete linear convolution of two 1-D sequences (modes full, same, valid).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.convolve(gp.asarray([1.0, 2.0, 3.0]), gp.asarray([0.0, 1.0, 0.5]))
    array([0. , 1. , 2.5, 4. , 1.5])
    """
    mode = _check_mode(mode)
    a, v = _vectors(a, v)
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    dt = D.result_type(a, v)
    n, m = a.shape[0], v.shape[0]
    return _mode_slice(_full_convolution(a, v, dt), n, m, mode)


def correlate(a, v, mode="valid"):
    """Cross-correlation of two 1-D sequences: ``c[k] = sum_n a[n + k] * conj(v[n])``
    (modes valid, same, full; NumPy's output alignment).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.correlate(gp.asarray([1.0, 2.0, 3.0]), gp.asarray([0.0, 1.0, 0.5]))
    array([3.5])
    """
    mode = _check_mode(mode)
    a, v = _vectors(a, v)
    dt = D.result_type(a, v)
    n, m = a.shape[0], v.shape[0]
    if v.dtype.kind == "c":
        v = apply("conjugate", v)
    if m <= n:
        return _mode_slice(_full_convolution(a, v[::-1], dt), n, m, mode)
    # NumPy swaps the inputs, correlates, and reverses (and conjugates) the result
    r = _mode_slice(_full_convolution(v, a[::-1], dt), m, n, mode)[::-1]
    return r
