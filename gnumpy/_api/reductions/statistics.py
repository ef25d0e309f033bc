"""Order statistics: median, percentile, quantile and their NaN-ignoring variants.

Quantiles sort along the reduced axis (a barrier) and gather the needed order statistics
along rows; NumPy's method formulas (virtual index, gamma, lerp) run as lazy elementwise
ops, so results match NumPy's to the rounding of its own formulas.  The NaN-ignoring
variants count the non-NaN elements per row (NaN sorts last) and use that count in place
of the row length.  No device-to-host syncs (q is host metadata).
"""
from __future__ import annotations

import warnings

import numpy as np

from ... import _dtypes as D
from .._common import as_node, axis_tuple, is_array, scalar_result, wrap
from ..creation.creation import full
from ..elementwise.elementwise import apply, astype, where
from ..shape.manipulation import concat, moveaxis, reshape
from .reductions import count_nonzero, mean
from ..sorting.sorting import sort_last, take_last


def _arr(x):
    return x if is_array(x) else wrap(as_node(x))


def _host(v):
    """A host NumPy scalar/array of `v` (gnumpy arrays are fetched: small metadata)."""
    return v.get()[()] if is_array(v) else v


# ------------------------------------------------------------------ reduction layout

def _to_rows(a, axis):
    """(array with the reduced axes flattened into the last one, kept shape, axes) as
    NumPy's _ureduce lays them out."""
    # (NumPy's _ureduce: normalize_axis_tuple's reading, errors and order of checks)
    axes = tuple(range(a.ndim)) if axis is None else tuple(sorted(axis_tuple(axis, a.ndim)))
    keep = [i for i in range(a.ndim) if i not in axes]
    x = a if not keep or keep == list(range(len(keep))) else \
        moveaxis(a, keep, list(range(len(keep))))
    kshape = tuple(a.shape[i] for i in keep)
    n = 1
    for i in axes:
        n *= a.shape[i]
    return reshape(x, kshape + (n,)), kshape, axes


def _finish(r, a, axes, keepdims, out, lead=()):
    if keepdims:
        r = reshape(r, lead + tuple(1 if i in axes else d for i, d in enumerate(a.shape)))
    if out is not None:
        out._assign_from(r)
        return out
    return scalar_result(r)


def _nan_result(shape, dt, device):
    """nanmean of an empty selection (what NumPy's nan-quantiles return for empty input)."""
    warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=3)
    rdt = dt if dt.kind in "fc" else D.float64
    return full(shape, np.nan, dtype=rdt, device=device)


def _take_k(s, idx, k):
    """s[..., idx] with idx int64 (..., m); negative idx count from k (row length / valid
    count); clamped into the row so the gather stays in bounds."""
    n = s.shape[-1]
    idx = where(apply("less", idx, 0), apply("add", idx, k), idx)
    idx = apply("minimum", apply("maximum", idx, 0), n - 1)
    return take_last(s, idx)


# ------------------------------------------------------------------ median

def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """Median along `axis` (NaN when the slice holds a NaN).

    # Note: overwrite_input is accepted and ignored (the input is never modified).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.median(gp.asarray([3.0, 1.0, 4.0, 2.0]))
    array(2.5)
    """
    a = _arr(a)
    x, kshape, axes = _to_rows(a, axis)
    n = x.shape[-1]
    s = sort_last(x)
    if n == 0:
        r = mean(s, axis=-1)
    else:
        lo = n // 2 - (1 - n % 2)
        r = mean(s[..., lo:n // 2 + 1], axis=-1)
        if a.dtype.kind in "fc":
            last = s[..., n - 1]
            r = where(apply("isnan", last), astype(last, r.dtype, copy=False), r)
    return _finish(r, a, axes, keepdims, out)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """Median along `axis` ignoring NaNs (NaN for all-NaN slices).

    # Note: all-NaN slices give NaN without NumPy's RuntimeWarning (it would need a sync).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.nanmedian(gp.asarray([3.0, gp.nan, 1.0]))
    array(2.)
    """
    a = _arr(a)
    if a.dtype.kind not in "fc":
        return median(a, axis, out, overwrite_input, keepdims)
    x, kshape, axes = _to_rows(a, axis)
    if a.size == 0:
        return _finish(_nan_result(kshape, a.dtype, a.device), a, axes, keepdims, out)
    s = sort_last(x)
    k = count_nonzero(apply("logical_not", apply("isnan", s)), axis=-1, keepdims=True)
    lo = apply("floor_divide", apply("subtract", k, 1), 2)
    hi = apply("floor_divide", k, 2)
    v = _take_k(s, concat([lo, hi], axis=-1), k)
    m = mean(v, axis=-1)
    odd = apply("equal", apply("remainder", k[..., 0], 2), 1)
    r = where(odd, astype(v[..., 0], m.dtype, copy=False), m)
    r = where(apply("equal", k[..., 0], 0), np.nan, r)
    # + 0.0: NumPy's median is a mean, whose sum starts from +0.0 (a -0.0 median is +0.0)
    return _finish(apply("add", r, 0.0), a, axes, keepdims, out)


# ------------------------------------------------------------------ quantiles

def _floor(x):
    return apply("floor", x)


def _compute_virtual_index(n, q, alpha, beta):
    return apply("subtract", apply("add", apply("multiply", n, q),
                                   apply("add", alpha, apply("multiply", q, 1 - alpha - beta))), 1)


def _to_boundaries(index, cond):
    prev = _floor(index)
    nxt = apply("add", prev, 1)
    gamma = apply("subtract", index, prev)
    res = astype(where(cond(gamma, index), prev, nxt), D.int64)
    return apply("maximum", res, 0)


def _closest_observation(n, q):
    def cond(g, i):
        return apply("logical_and", apply("equal", g, 0),
                     apply("equal", apply("remainder", _floor(i), 2), 1))
    return _to_boundaries(apply("subtract", apply("subtract", apply("multiply", n, q), 1), 0.5),
                          cond)


def _gamma_mask(like, default, conditioned, cond):
    base = full(like.shape, default, device=like.device) if not is_array(default) else default
    return where(cond, conditioned, base)


def _minus1(n):
    return apply("subtract", n, 1) if is_array(n) else n - 1


def _nm1q(n, q):
    return apply("multiply", _minus1(n), q)


def _cvi(alpha, beta):
    return lambda n, q: _compute_virtual_index(n, q, alpha, beta)


_KEEP = (lambda g, i: g)
_METHODS = {
    "inverted_cdf": (lambda n, q: _to_boundaries(
        apply("subtract", apply("multiply", n, q), 1), lambda g, i: apply("equal", g, 0)),
        None),
    "averaged_inverted_cdf": (lambda n, q: apply("subtract", apply("multiply", n, q), 1),
                              lambda g, i: _gamma_mask(g, 1.0, 0.5, apply("equal", g, 0))),
    "closest_observation": (_closest_observation, None),
    "interpolated_inverted_cdf": (_cvi(0, 1), _KEEP),
    "hazen": (_cvi(0.5, 0.5), _KEEP),
    "weibull": (_cvi(0, 0), _KEEP),
    "linear": (_nm1q, _KEEP),
    "median_unbiased": (_cvi(1 / 3.0, 1 / 3.0), _KEEP),
    "normal_unbiased": (_cvi(3 / 8.0, 3 / 8.0), _KEEP),
    "lower": (lambda n, q: astype(_floor(_nm1q(n, q)), D.int64), None),
    "higher": (lambda n, q: astype(apply("ceil", _nm1q(n, q)), D.int64), None),
    "midpoint": (lambda n, q: apply("multiply", 0.5, apply("add", _floor(_nm1q(n, q)),
                                                           apply("ceil", _nm1q(n, q)))),
                 lambda g, i: _gamma_mask(g, 0.5, 0.0,
                                          apply("equal", apply("remainder", i, 1), 0))),
    "nearest": (lambda n, q: astype(apply("rint", _nm1q(n, q)), D.int64), None),
}


def _check_q(q, percent):
    qh = np.asanyarray(_host(q))
    if percent:
        qh = np.true_divide(qh, 100)
    qh = np.asanyarray(qh)
    ok = (all(0.0 <= qh[i] <= 1.0 for i in range(qh.size)) if qh.ndim == 1 and qh.size < 10
          else bool(qh.min() >= 0 and qh.max() <= 1) if qh.size else True)
    if not ok:
        raise ValueError("Percentiles must be in the range [0, 100]" if percent else
                         "Quantiles must be in the range [0, 1]")
    return qh


def _lerp(a, b, t, t1, cond):
    diff = apply("subtract", b, a)
    lo = apply("add", a, apply("multiply", diff, t))
    hi = astype(apply("subtract", b, apply("multiply", diff, t1)), lo.dtype, copy=False)
    return where(cond, hi, lo)


def _quantile_rows(s, q, method, k, nan_rows, weak):
    """Quantiles of sorted rows `s` (..., n) for host q (shape Q): result (..., size of Q).

    `k` is the number of values per row: a Python int, or an int64 array (..., 1) for the
    NaN-ignoring variants (NaNs sorted last).  `weak`: q was a Python scalar."""
    qflat = np.ascontiguousarray(q.reshape(-1))
    qd = wrap(as_node(qflat, device=s.device))
    if not is_array(k):
        nq = k                               # a Python int: weak, like NumPy's row length
    elif qd.dtype.kind in "iuf":
        nq = astype(k, qd.dtype)             # emulate the weak row length of NumPy's loop
    else:
        nq = k
    vfun, fix = _METHODS[method]
    vi = vfun(nq, qd)
    if fix is None or (method == "linear" and vi.dtype.kind in "iu"):
        res = _take_k(s, vi if is_array(k) else reshape(vi, (1,) * (s.ndim - 1) + (-1,)), k)
    else:
        prev = _floor(vi)
        nxt = apply("add", prev, 1)
        above = apply("greater_equal", vi, _minus1(k))
        below = apply("less", vi, 0)
        bad = apply("logical_or", above, apply("isnan", vi)) if s.dtype.kind in "fc" else above
        prev = where(below, 0, where(bad, -1, prev))
        nxt = where(below, 0, where(bad, -1, nxt))
        prev, nxt = astype(prev, D.int64), astype(nxt, D.int64)
        gamma = astype(fix(apply("subtract", vi, prev), vi), vi.dtype, copy=False)
        lead = (1,) * (s.ndim - 1) if not is_array(k) else ()
        idx = concat([reshape(prev, lead + prev.shape[-1:]) if lead else prev,
                      reshape(nxt, lead + nxt.shape[-1:]) if lead else nxt], axis=-1)
        v = _take_k(s, idx, k)
        m = qflat.size
        a, b = v[..., :m], v[..., m:]
        g = gamma if not lead else reshape(gamma, lead + gamma.shape[-1:])
        t1 = apply("subtract", 1, g)
        cond = apply("greater_equal", g, 0.5)
        if weak:
            # a Python-scalar q: gamma acts as a weak Python float (stays in a's precision)
            wdt = D.apply_weak(apply("subtract", b, a).dtype, "f")
            g, t1 = astype(g, wdt), astype(t1, wdt)
        res = _lerp(a, b, g, t1, cond)
    if nan_rows:
        last = s[..., -1:]
        res = where(apply("isnan", last), astype(last, res.dtype, copy=False), res)
    return res


def _quantile(a, q, axis, out, method, keepdims, weights, percent, nan):
    a = _arr(a)
    if a.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    weak = type(q) in (int, float)
    qh = _check_q(q, percent)
    if weights is not None:
        if method != "inverted_cdf":
            raise ValueError(f"Only method 'inverted_cdf' supports weights. Got: {method}.")
        raise NotImplementedError("quantiles with weights are not implemented")
    if qh.ndim > 2:
        raise ValueError("q must be a scalar or 1d")
    if method not in _METHODS:
        raise ValueError(f"{method!r} is not a valid method. Use one of: {_METHODS.keys()}")
    x, kshape, axes = _to_rows(a, axis)
    n = x.shape[-1]
    inexact = a.dtype.kind == "f"
    if nan and a.size == 0:         # (NumPy: nanmean of it, float64 for integer input)
        return _finish(_nan_result(kshape, a.dtype, a.device), a, axes, keepdims, out)
    if n == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    if a.size == 0:     # no rows: an empty result, of the dtype NumPy's method gives
        dt = np.quantile(np.zeros(1, a.dtype), float(qh) if weak else qh,
                         method=method).dtype
        res = full(qh.shape + kshape, 0, dtype=dt, device=a.device)
        return _finish(res, a, axes, keepdims, out, lead=qh.shape)
    s = sort_last(x)
    if nan and inexact:
        k = count_nonzero(apply("logical_not", apply("isnan", s)), axis=-1, keepdims=True)
    else:
        k = n
    res = _quantile_rows(s, qh, method, k, inexact and not nan, weak)
    if is_array(k):
        res = where(apply("equal", k, 0), np.nan, res) if res.dtype.kind == "f" else res
    # (..., Q) -> Q + (...)
    res = reshape(res, kshape + qh.shape)
    if qh.ndim:
        res = moveaxis(res, list(range(len(kshape), res.ndim)), list(range(qh.ndim)))
    if out is not None and not nan and not D.can_cast(res.dtype, out.dtype, "same_kind"):
        raise TypeError(f"Cannot cast ufunc 'add' output from {res.dtype!r} to "
                        f"{out.dtype!r} with casting rule 'same_kind'")     # (NumPy's)
    return _finish(res, a, axes, keepdims, out, lead=qh.shape)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False, *, weights=None):
    """The q-th quantiles of `a` along `axis` (NumPy's 13 methods; default 'linear').

    # Note: weights= is not implemented; overwrite_input is accepted and ignored.  Where
    # NumPy returns a 0-d result from a NaN slice it returns that NaN in the input's dtype
    # (a data-dependent dtype); gnumpy keeps the computed result's dtype.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.quantile(gp.asarray([1.0, 2.0, 3.0, 4.0]), 0.5)
    array(2.5)
    """
    return _quantile(a, q, axis, out, method, keepdims, weights, False, False)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False, *, weights=None):
    """The q-th percentiles (q in [0, 100]) of `a` along `axis`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.percentile(gp.asarray([1.0, 2.0, 3.0, 4.0]), 50)
    array(2.5)
    """
    return _quantile(a, q, axis, out, method, keepdims, weights, True, False)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=False, *, weights=None):
    """quantile ignoring NaNs (NaN for all-NaN slices).

    # Note: all-NaN slices give NaN in the result dtype, without NumPy's RuntimeWarning.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.nanquantile(gp.asarray([1.0, gp.nan, 3.0]), 0.5)
    array(2.)
    """
    return _quantile(a, q, axis, out, method, keepdims, weights, False, True)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=False, *, weights=None):
    """percentile ignoring NaNs (NaN for all-NaN slices).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.nanpercentile(gp.asarray([1.0, gp.nan, 3.0]), 50)
    array(2.)
    """
    return _quantile(a, q, axis, out, method, keepdims, weights, True, True)

