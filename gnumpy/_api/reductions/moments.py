"""Weighted averages, covariance and correlation: average, cov, corrcoef, ptp.

``average`` is fused reductions (the weighted sum and the sum of weights); ``cov`` centres
the data (fused) and multiplies it by its conjugate transpose (one matrix product), as
NumPy does.
"""
from __future__ import annotations

import builtins
import warnings

import numpy as np

from ... import _dtypes as D
from .._common import as_node, axis_tuple, is_array, scalar_result, wrap
from ..elementwise.elementwise import apply, astype
from ..elementwise.elementwise import where as where_
from ..outargs import check_out_shape, finish, single_out
from .reductions import max as max_, min as min_, any as any_, mean, sum as sum_, all as all_
from ..shape.manipulation import broadcast_to, concat, squeeze
from ..creation.creation import full, zeros, eye
from ..elementwise.ewspecial import round_, clip
from ..products.matmul import matmul, scaled_product
from ..elementwise.mathmisc import complex_from_parts


def _arr(x, device=None):
    return x if is_array(x) else wrap(as_node(x, device=device))


def ptp(a, axis=None, out=None, keepdims=False):
    """Range of values (maximum - minimum) over `axis`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.ptp(gp.asarray([[4, 9], [1, 5]]), axis=1)
    array([5, 4])
    """
    a = _arr(a)
    if out is not None:
        single_out(out)     # NumPy's maximum.reduce checks a read-only out first
    mx = max_(a, axis=axis, keepdims=keepdims)
    if out is not None:      # NumPy reduces the maximum into `out`, then subtracts
        check_out_shape("maximum", mx.shape, out, "reduce")
        mx = astype(mx, out.dtype, copy=False)
    r = apply("subtract", mx, min_(a, axis=axis, keepdims=keepdims))
    return finish("subtract", r, out, exact="reduce")


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """Weighted average over `axis` (and, with `returned`, the sum of the weights).

    Raises ZeroDivisionError when the weights of a slice sum to zero (one device check).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.average(gp.asarray([1.0, 2.0, 3.0]), weights=[3, 1, 0])
    array(1.25)
    """
    a = _arr(a)
    if axis is not None:
        axis = axis_tuple(axis, a.ndim, argname="axis")
    if weights is None:
        avg = mean(a, axis=axis, keepdims=keepdims)
        scl = full(avg.shape, a.size / avg.size, dtype=avg.dtype, device=a.device)
    else:
        wgt = _arr(weights, a.device)
        if a.shape != wgt.shape:
            if axis is None:
                raise TypeError("Axis must be specified when shapes of a and weights differ.")
            if wgt.shape != tuple(a.shape[ax] for ax in axis):
                raise ValueError("Shape of weights must be consistent with shape of a along "
                                 "specified axis.")
            wgt = wgt.transpose(tuple(int(i) for i in np.argsort(axis)))
            wgt = wgt.reshape(tuple((s if ax in axis else 1) for ax, s in enumerate(a.shape)))
        if a.dtype.kind in "biu":
            rdt = D.result_type(a.dtype, wgt.dtype, D.float64)
        else:
            rdt = D.result_type(a.dtype, wgt.dtype)
        scl = sum_(wgt, axis=axis, dtype=rdt, keepdims=keepdims)
        if builtins.bool(any_(apply("equal", scl, 0.0))):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = apply("divide", sum_(apply("multiply", a, wgt, dtype=rdt), axis=axis,
                                   keepdims=keepdims), scl)
    if returned:
        if scl.shape != avg.shape:
            scl = broadcast_to(scl, avg.shape)._copy()
        return avg, scalar_result(scl)      # (NumPy's scalar where 0-d)
    return avg


def _as_2d(x, dtype):
    x = astype(x, dtype, copy=False)
    if x.ndim < 2:
        x = x.reshape((1,) * (2 - x.ndim) + x.shape)
    return x


def _check_weights(w, name, nobs, integer):
    w = astype(_arr(w), D.float64, copy=False)
    if integer and not builtins.bool(all_(apply("equal", w, round_(w)))):
        raise TypeError("fweights must be integer")
    if w.ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {name}")
    if w.shape[0] != nobs:
        raise RuntimeError(f"incompatible numbers of samples and {name}")
    if builtins.bool(any_(apply("less", w, 0))):
        raise ValueError(f"{name} cannot be negative")
    return w


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    """Covariance matrix of the variables in the rows (or columns) of `m` (and `y`).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.cov(gp.asarray([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
    array([[ 1., -1.],
           [-1.,  1.]])
    """
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    m = _arr(m)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = _arr(y, m.device)
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = D.result_type(m, D.float64) if y is None else D.result_type(m, y, D.float64)
    elif D.to_dtype(dtype).kind in "biu":   # (NumPy subtracts the float mean in place)
        raise TypeError(f"Cannot cast ufunc 'subtract' output from dtype('float64') to "
                        f"{D.to_dtype(dtype)!r} with casting rule 'same_kind'")
    X = _as_2d(m, D.to_dtype(dtype))
    if not rowvar and m.ndim != 1:
        X = X.T
    if X.shape[0] == 0:
        return zeros((0, 0), dtype=D.float64, device=m.device)
    if y is not None:
        Y = _as_2d(y, D.to_dtype(dtype))
        if not rowvar and Y.shape[0] != 1:
            Y = Y.T
        X = concat([X, Y], axis=0)
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    w = aw = None
    if fweights is not None:
        w = _check_weights(fweights, "fweights", X.shape[1], True)
    if aweights is not None:
        aw = _check_weights(aweights, "aweights", X.shape[1], False)
        w = aw if w is None else apply("multiply", w, aw)
    if w is None:
        avg = mean(X, axis=1)
    else:
        avg, w_sum = average(X, axis=1, weights=w, returned=True)
        w_sum = w_sum[0]
    if w is None:
        fact = X.shape[1] - ddof
        if fact <= 0:
            warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
            fact = 0.0
        with np.errstate(divide="ignore"):
            scale = float(np.true_divide(1, fact))
    else:
        if ddof == 0:
            fact = w_sum
        elif aw is None:
            fact = apply("subtract", w_sum, ddof)
        else:
            fact = apply("subtract", w_sum, apply("divide", apply(
                "multiply", ddof, sum_(apply("multiply", w, aw))), w_sum))
        # Note: NumPy warns "Degrees of freedom <= 0"; here the check stays on the device.
        fact = where_(apply("less_equal", fact, 0), 0.0, fact)
        scale = apply("divide", 1, fact)
    X = wrap(apply("subtract", X, avg[:, None])._leaf())     # (once: X.T reads it too)
    XT = X.T if w is None else apply("multiply", X, w).T
    if XT.dtype.kind == "c":
        XT = apply("conjugate", XT)
    if w is None:
        return squeeze(scaled_product(X, XT, scale))
    c = matmul(X, XT)
    return squeeze(astype(apply("multiply", c, scale), c.dtype, copy=False))


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """Pearson correlation coefficients (``cov`` normalized by the standard deviations,
    clipped to [-1, 1]).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.corrcoef(gp.asarray([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
    array([[ 1., -1.],
           [-1.,  1.]])
    """
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return apply("divide", c, c)
    n = c.shape[0]
    d = sum_(where_(eye(n, dtype=D.bool_, device=c.device), c, 0), axis=1, dtype=c.dtype)
    stddev = apply("sqrt", apply("real", d))
    c = apply("divide", c, stddev[:, None])
    c = apply("divide", c, stddev[None, :])
    if c.dtype.kind == "c":
        return complex_from_parts(clip(apply("real", c), -1, 1), clip(apply("imag", c), -1, 1),
                                  c.dtype)
    return astype(clip(c, -1, 1), c.dtype, copy=False)
