"""Binomial, multinomial, hypergeometric, logarithmic-series and Zipf draws of
``Generator``, in rounds on the device like ``_rejection`` (whose helpers they use), with
NumPy's parameter checks.

Binomial: p is folded to min(p, 1 - p); sequential search (inversion) when n min(p, 1-p)
is below 10, Hoermann's BTRS (transformed rejection with squeeze) above.  Logseries:
Kemp's method.

# Note: n is carried as a float64 in the draw, so counts above 2**53 are rounded.
"""
from __future__ import annotations

import math

import numpy as np

from .._api._common import evaluate
from .._api.creation.creation import asarray
from .._api.elementwise.elementwise import apply, where
from .._api.reductions.reductions import any as any_
from .._api.shape.manipulation import stack
from .._broadcast import broadcast_shapes
from ._args import Params, isnan, shape_of
from ._rejection import _full, _log_factorial, _open, _rounds, _unit


def _search(gen, p, n, q):
    """The least k with u < F(k) for Binomial(n, q), q <= 1/2 and n q < 10."""
    u = _unit(gen, p)
    r = q / (1.0 - q)
    pk = u * 0.0 + apply("exp", n * apply("log1p", -q))
    F = pk
    k = u * 0.0
    done = u < F
    for _ in range(16):                  # 16 x 16 terms: far past the mean for n q < 10
        for _ in range(16):
            k1 = k + 1.0
            pk = pk * r * (n - k) / k1
            F = F + pk
            k = where(done, k, k1)
            done = done | (u < F) | (k1 >= n)
        evaluate(k, pk, F, done)
        if not _open(done):
            break
    return k


def _btrs(gen, p, n, q):
    """Hoermann's BTRS for Binomial(n, q), q <= 1/2 and n q >= 10."""
    spq = apply("sqrt", n * q * (1.0 - q))
    b = spq * 2.53 + 1.15
    a = b * 0.0248 + q * 0.01 - 0.0873
    c = n * q + 0.5
    vr = 0.92 - 4.2 / b
    alpha = (5.1 / b + 2.83) * spq
    lpq = apply("log", q / (1.0 - q))
    m = apply("floor", (n + 1.0) * q)
    h = _log_factorial(m) + _log_factorial(n - m)

    def propose():
        U = _unit(gen, p) - 0.5
        V = _unit(gen, p)
        us = 0.5 - apply("absolute", U)
        k = apply("floor", (a * 2.0 / us + b) * U + c)
        valid = (k >= 0.0) & (k <= n)
        kk = apply("minimum", apply("maximum", k, 0.0), n)
        quick = (us >= 0.07) & (V <= vr)
        tail = apply("log", V * alpha / (a / (us * us) + b)) <= \
            h - _log_factorial(kk) - _log_factorial(n - kk) + (kk - m) * lpq
        return kk, valid & (quick | tail)

    return _rounds(p, propose)


def binomial(self, n, p, size=None):
    """Binomial integers: successes in `n` trials of probability `p`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.random.default_rng(0).binomial(40, 0.25, size=1000)
    >>> x.dtype, bool(abs(float(x.mean()) - 10) < 1)
    (dtype('int64'), True)
    """
    q = Params(size, [n, p])
    scalar = q.raw[1].ndim == 0
    q.check(lambda n, p: n < 0, ValueError, "n < 0")
    q.check(lambda n, p: (p < 0) | (p > 1) | isnan(p), ValueError,
            "p < 0, p > 1 or p is NaN" if scalar else "p < 0, p > 1 or p contains NaNs")
    n, pv = q.ops
    return _binomial(self, q, n, pv).astype(np.int64)


def _binomial(gen, q, n, pv):
    """Float64 binomial draws over q.shape for count `n` and probability `pv` (Python
    floats or arrays), both already checked."""
    if not hasattr(n, "shape"):
        n = float(math.floor(n))
    else:
        n = apply("floor", n)
    flip = pv > 0.5
    qv = where(flip, 1.0 - pv, pv) if hasattr(pv, "shape") else min(pv, 1.0 - pv)
    mean = n * qv
    if not hasattr(mean, "shape"):
        if mean == 0:
            k = _full(q, 0.0)
        elif mean < 10:
            k = _search(gen, q, n, _full(q, qv))
        else:
            k = _btrs(gen, q, _full(q, n), _full(q, qv))
    else:
        small = mean < 10.0
        k = where(small, _search(gen, q, where(small, n, 0.0), where(small, qv, 0.0)),
                  _btrs(gen, q, where(small, 100.0, n), where(small, 0.5, qv)))
    return where(flip, n - k, k) if hasattr(flip, "shape") else (n - k if flip else k)


def logseries(self, p, size=None):
    """Logarithmic-series integers >= 1 (Kemp's method).

    Examples
    --------
    >>> import gnumpy as gp
    >>> int(gp.random.default_rng(0).logseries(0.6, size=100).min())
    1
    """
    q = Params(size, [p])
    msg = "p < 0, p >= 1 or p is NaN" if q.raw[0].ndim == 0 else \
        "p < 0, p >= 1 or p contains NaNs"
    q.check(lambda p: (p < 0) | (p >= 1) | isnan(p), ValueError, msg)
    pv = q.ops[0]
    r = apply("log1p", -pv) if hasattr(pv, "shape") else math.log1p(-pv)

    def propose():
        V = _unit(self, q)
        U = _unit(self, q)
        t = -apply("expm1", U * r)
        body = apply("floor", apply("log", V) / apply("log", t) + 1.0)
        res = where(V >= pv, 1.0, where(V <= t * t, body, where(V >= t, 1.0, 2.0)))
        return res, res >= 1.0

    k = _rounds(q, propose, 1.0)
    return k.astype(np.int64)


def multinomial(self, n, pvals, size=None):
    """Multinomial count vectors: one binomial draw per category on what the earlier
    categories left (the last category takes the rest), as NumPy draws them.

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.random.default_rng(0).multinomial(20, [0.2, 0.3, 0.5], size=4)
    >>> x.shape, int(x.sum(axis=1).min())
    ((4, 3), 20)
    """
    pv = pvals.get() if hasattr(pvals, "_node") else np.asarray(pvals, dtype=np.float64)
    pv = pv.astype(np.float64)
    if pv.ndim < 1 or pv.shape[-1] == 0:
        raise ValueError("pvals must have at least 1 dimension and the last dimension of "
                         "pvals must be greater than 0.")
    if np.any(pv < 0) or np.any(pv > 1) or np.any(np.isnan(pv)):
        raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
    if np.any(pv[..., :-1].sum(axis=-1) > 1.0 + 1e-12):
        raise ValueError("sum(pvals[:-1]) > 1.0")
    nn = n if hasattr(n, "_node") else np.asarray(n)
    shape = shape_of(size)
    if shape is None:
        shape = tuple(broadcast_shapes(nn.shape, pv.shape[:-1]))
    q = Params(shape, [nn, np.zeros(pv.shape[:-1])])
    q.check(lambda n, z: n < 0, ValueError, "n < 0")
    rest = q.ops[0] + _full(q, 0.0)
    rest = apply("floor", rest)
    left = np.ones(pv.shape[:-1])
    outs = []
    for i in range(pv.shape[-1] - 1):
        with np.errstate(divide="ignore", invalid="ignore"):
            prob = np.clip(np.where(left > 0, pv[..., i] / left, 0.0), 0.0, 1.0)
        prob = float(prob) if prob.ndim == 0 else asarray(prob, device=q.device)
        x = _binomial(self, q, rest, prob)
        outs.append(x)
        rest = rest - x
        left = left - pv[..., i]
    outs.append(rest)
    return stack(outs, axis=-1).astype(np.int64)


def zipf(self, a, size=None):
    """Zipf integers >= 1 (Devroye's rejection).

    Examples
    --------
    >>> import gnumpy as gp
    >>> int(gp.random.default_rng(0).zipf(2.0, size=100).min())
    1
    """
    q = Params(size, [a])
    msg = "a <= 1 or a is NaN" if q.raw[0].ndim == 0 else "a <= 1 or a contains NaNs"
    q.check(lambda a: (a <= 1) | isnan(a), ValueError, msg)
    am1 = q.ops[0] - 1.0
    b = 2.0 ** am1

    def propose():
        U = _unit(self, q)
        V = _unit(self, q)
        X = apply("floor", U ** (-1.0 / am1))
        T = (1.0 / X + 1.0) ** am1
        ok = (X >= 1.0) & (X <= 9.2e18) & (V * X * (T - 1.0) / (b - 1.0) <= T / b)
        return X, ok

    k = _rounds(q, propose, 1.0)
    return k.astype(np.int64)


def _hyper_search(gen, q, mn, mx, cs):
    """Inversion for draws of fewer than 10 (the least k with u < F(k))."""
    lf = _log_factorial
    pop = mn + mx
    k = apply("maximum", cs - mx, 0.0)
    kmax = apply("minimum", cs, mn)
    pk = apply("exp", lf(mn) - lf(k) - lf(mn - k) + lf(mx) - lf(cs - k) - lf(mx - cs + k)
               - lf(pop) + lf(cs) + lf(pop - cs))
    u = _unit(gen, q)
    F = pk
    done = (u < F) | (k >= kmax)
    for _ in range(10):                  # at most 9 steps: cs < 10
        k1 = k + 1.0
        pk = pk * (mn - k) * (cs - k) / (k1 * (mx - cs + k1))
        F = F + pk
        k = where(done, k, k1)
        done = done | (u < F) | (k1 >= kmax)
    return k


def _hyper_hrua(gen, q, mn, mx, cs):
    """Stadlober's ratio-of-uniforms method (HRUA) for draws of 10 or more."""
    lf = _log_factorial
    pop = mn + mx
    mu = cs * mn / pop
    a = mu + 0.5
    var = (pop - cs) * cs * (mn / pop) * (mx / pop) / (pop - 1.0)
    c = apply("sqrt", var + 0.5)
    h = c * 1.7155277699214135 + 0.8989161620588988      # 2 sqrt(2/e), 3 - 2 sqrt(3/e)
    m = apply("floor", (cs + 1.0) * (mn + 1.0) / (pop + 2.0))
    g = lf(m) + lf(mn - m) + lf(cs - m) + lf(mx - cs + m)
    top = apply("minimum", apply("minimum", cs, mn) + 1.0, apply("floor", a + c * 16.0))

    def propose():
        U = _unit(gen, q)
        X = a + h * (_unit(gen, q) - 0.5) / U
        K = apply("floor", apply("minimum", apply("maximum", X, 0.0), top - 1.0))
        T = g - (lf(K) + lf(mn - K) + lf(cs - K) + lf(mx - cs + K))
        return K, (X >= 0.0) & (X < top) & (apply("log", U) * 2.0 <= T)

    return _rounds(q, propose)


def hypergeometric(self, ngood, nbad, nsample, size=None):
    """Hypergeometric integers: good items in `nsample` drawn without replacement from
    `ngood` good and `nbad` bad ones (inversion below 10 draws, HRUA above; the smaller
    of the sample and its complement is drawn, as NumPy does).

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.random.default_rng(0).hypergeometric(30, 70, 20, size=1000)
    >>> bool(abs(float(x.mean()) - 6) < 0.5)
    True
    """
    q = Params(size, [ngood, nbad, nsample])
    q.check(lambda g, b, s: g < 0, ValueError, "ngood < 0")
    q.check(lambda g, b, s: b < 0, ValueError, "nbad < 0")
    q.check(lambda g, b, s: s < 0, ValueError, "nsample < 0")
    q.check(lambda g, b, s: (g >= 1e9) | (b >= 1e9), ValueError,
            "both ngood and nbad must be less than 1000000000")
    q.check(lambda g, b, s: apply("floor", g) + apply("floor", b) < apply("floor", s)
            if hasattr(g, "_node") else np.floor(g) + np.floor(b) < np.floor(s),
            ValueError, "ngood + nbad < nsample")
    z = _full(q, 0.0)
    g, b, s = (apply("floor", v + z) for v in q.ops)
    cs = apply("minimum", s, g + b - s)
    mn, mx = apply("minimum", g, b), apply("maximum", g, b)
    small = cs < 10.0
    k = z
    if bool(any_(small)):
        k = _hyper_search(self, q, where(small, mn, 0.0), where(small, mx, 1.0),
                          where(small, cs, 0.0))
    if bool(any_(~small)):
        big = _hyper_hrua(self, q, where(small, 50.0, mn), where(small, 50.0, mx),
                          where(small, 20.0, cs))
        k = where(small, k, big)
    k = where(g > b, cs - k, k)
    k = where(cs < s, g - k, k)
    return k.astype(np.int64)


READY = (binomial, logseries, multinomial, zipf, hypergeometric)
