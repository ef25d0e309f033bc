"""Binomial and logarithmic-series draws of ``Generator``, in rounds on the device like
``_rejection`` (whose helpers they use), with NumPy's parameter checks.

Binomial: p is folded to min(p, 1 - p); sequential search (inversion) when n min(p, 1-p)
is below 10, Hoermann's BTRS (transformed rejection with squeeze) above.  Logseries:
Kemp's method.

# Note: n is carried as a float64 in the draw, so counts above 2**53 are rounded.
"""
from __future__ import annotations

import math

import numpy as np

from .._api.elementwise import apply, where
from ._args import Params, isnan
from ._rejection import _full, _log_factorial, _open, _rounds, _unit


def _search(gen, p, n, q):
    """The least k with u < F(k) for Binomial(n, q), q <= 1/2 and n q < 10."""
    from .. import evaluate
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

    from .._api.creation import zeros
    return _rounds(p, propose, _full(p, 0.0), zeros(p.shape, dtype=np.bool_,
                                                    device=p.device))


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
            k = _search(self, q, n, _full(q, qv))
        else:
            k = _btrs(self, q, _full(q, n), _full(q, qv))
    else:
        small = mean < 10.0
        k = where(small, _search(self, q, where(small, n, 0.0), where(small, qv, 0.0)),
                  _btrs(self, q, where(small, 100.0, n), where(small, 0.5, qv)))
    k = where(flip, n - k, k) if hasattr(flip, "shape") else (n - k if flip else k)
    return k.astype(np.int64)


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

    from .._api.creation import zeros
    k = _rounds(q, propose, _full(q, 1.0), zeros(q.shape, dtype=np.bool_, device=q.device))
    return k.astype(np.int64)


READY = (binomial, logseries)
