"""Dirichlet, noncentral chi-square and F, von Mises and multivariate normal draws of
``Generator``, built on the gamma, Poisson and normal draws (von Mises by Best and Fisher's
rejection), with NumPy's parameter checks.  NaN parameters give NaN, as in NumPy.
"""
from __future__ import annotations

import math

import numpy as np

from .._api.creation.creation import asarray
from .._api.elementwise.elementwise import apply, where
from .._api.products.matmul import matmul
from ._args import Params, isnan, shape_of
from ._rejection import _chisq, _full, _log_std_gamma, _poisson, _rounds, _unit


def dirichlet(self, alpha, size=None):
    """Dirichlet vectors: gamma(alpha_i) draws normalized along the last axis (formed in
    log space, so that small alphas do not underflow to 0 / 0).

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.random.default_rng(0).dirichlet([1.0, 2.0, 3.0], size=4)
    >>> x.shape, bool(abs(float(x.sum(axis=1).min()) - 1) < 1e-12)
    ((4, 3), True)
    """
    a = alpha if hasattr(alpha, "_node") else np.asarray(alpha, dtype=np.float64)
    if a.ndim != 1:
        raise ValueError("setting an array element with a sequence. The requested array "
                         "would exceed the maximum number of dimension of 1." if a.ndim > 1
                         else "object of too small depth for desired array")
    shape = shape_of(size)
    p = Params(((() if shape is None else shape) + (a.shape[0],)), [a])
    p.check(lambda a: a < 0, ValueError, "alpha < 0")
    lg = _log_std_gamma(self, p, p.ops[0])
    top = lg.max(axis=-1, keepdims=True)
    top = where(top == -math.inf, 0.0, top)
    e = apply("exp", lg - top)
    total = e.sum(axis=-1, keepdims=True)
    return where(total == 0.0, 0.0, e / total)


def _noncentral_chisq(gen, p, df, nonc):
    if not hasattr(df, "shape") and not hasattr(nonc, "shape"):
        if df != df or nonc != nonc:
            return _full(p, math.nan)
        if nonc == 0:
            return _chisq(gen, p, df)
        if df > 1:
            n = gen._std_normal(p) + math.sqrt(nonc)
            return _chisq(gen, p, df - 1.0) + n * n
        i = _poisson(gen, p, _full(p, nonc * 0.5))
        return _chisq(gen, p, i.astype(np.float64) * 2.0 + df)
    df = df + _full(p, 0.0)
    nonc = nonc + _full(p, 0.0)
    bad = isnan(df) | isnan(nonc)
    df = where(bad, 2.0, df)
    nonc = where(bad, 0.0, nonc)
    big = df > 1.0
    n = gen._std_normal(p) + apply("sqrt", nonc)
    r1 = _chisq(gen, p, where(big, df - 1.0, 1.0)) + n * n
    i = _poisson(gen, p, where(big, 0.0, nonc * 0.5))
    r2 = _chisq(gen, p, i.astype(np.float64) * 2.0 + df)
    r = where(nonc == 0.0, _chisq(gen, p, df), where(big, r1, r2))
    return where(bad, math.nan, r)


def noncentral_chisquare(self, df, nonc, size=None):
    """Noncentral chi-square floats: chi2(df - 1) + (N + sqrt(nonc))**2 for df > 1, else a
    Poisson(nonc / 2) mixture of chi2(df + 2 i).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).noncentral_chisquare(3.0, 2.0, size=4).shape
    (4,)
    """
    p = Params(size, [df, nonc])
    p.check(lambda d, n: d <= 0, ValueError, "df <= 0")
    p.check(lambda d, n: n < 0, ValueError, "nonc < 0")
    return _noncentral_chisq(self, p, *p.ops)


def noncentral_f(self, dfnum, dfden, nonc, size=None):
    """Noncentral F floats: (noncentral chi2(dfnum, nonc) / dfnum) / (chi2(dfden) / dfden).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).noncentral_f(3.0, 7.0, 1.5, size=4).shape
    (4,)
    """
    p = Params(size, [dfnum, dfden, nonc])
    p.check(lambda a, b, c: a <= 0, ValueError, "dfnum <= 0")
    p.check(lambda a, b, c: b <= 0, ValueError, "dfden <= 0")
    p.check(lambda a, b, c: c < 0, ValueError, "nonc < 0")
    dfnum, dfden, nonc = p.ops
    t = _noncentral_chisq(self, p, dfnum, nonc) * dfden
    return t / (_chisq(self, p, dfden) * dfnum)


def vonmises(self, mu, kappa, size=None):
    """von Mises floats on [-pi, pi] (Best and Fisher's rejection; a uniform angle for
    kappa < 1e-8 and a wrapped normal above kappa = 1e6, as NumPy).

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.random.default_rng(0).vonmises(0.5, 4.0, size=1000)
    >>> bool(float(abs(x).max()) <= 3.15)
    True
    """
    p = Params(size, [mu, kappa])
    p.check(lambda m, k: k < 0, ValueError, "kappa < 0")
    mu, kappa = p.ops
    kappa = kappa + _full(p, 0.0)
    bad = isnan(kappa)
    tiny = kappa < 1e-8
    huge = kappa > 1e6
    k = where(bad | tiny | huge, 1.0, kappa)
    r = apply("sqrt", k * k * 4.0 + 1.0) + 1.0
    rho = (r - apply("sqrt", r * 2.0)) / (k * 2.0)
    s = where(k < 1e-5, 1.0 / k + k, (rho * rho + 1.0) / (rho * 2.0))

    def propose():
        z = apply("cos", _unit(self, p) * math.pi)
        W = (s * z + 1.0) / (s + z)
        Y = k * (s - W)
        V = _unit(self, p)
        ok = (Y * (2.0 - Y) - V >= 0.0) | \
            (apply("log", apply("maximum", Y, 1e-300) / V) + 1.0 - Y >= 0.0)
        return W, ok

    W = _rounds(p, propose)
    U = _unit(self, p)
    angle = apply("arccos", apply("minimum", apply("maximum", W, -1.0), 1.0))
    res = where(U < 0.5, -angle, angle)
    res = where(tiny, (U * 2.0 - 1.0) * math.pi, res)
    wide = self._std_normal(p) * apply("sqrt", 1.0 / where(huge, kappa, 1.0))
    res = where(huge, wide, res) + mu
    mod = apply("fmod", apply("absolute", res) + math.pi, 2.0 * math.pi) - math.pi
    res = where(tiny, res, where(res < 0.0, -mod, mod))
    return where(bad, math.nan, res)


def _host_param(v):
    """A small parameter array on the host (a gnumpy array is copied back: one sync)."""
    return np.asarray(v.get() if hasattr(v, "_node") else v, dtype=np.float64)


def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *,
                        method="svd"):
    """Multivariate normal vectors: standard normals times a factor of `cov`, plus `mean`.

    The k x k covariance is a parameter: it is factored on the host (NumPy's LAPACK, as
    NumPy does, by `method`), and the draws, one matrix product with the factor, run on
    the device.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).multivariate_normal([0, 1], [[1, 0.5], [0.5, 2]], 4).shape
    (4, 2)
    """
    import warnings

    m, c = _host_param(mean), _host_param(cov)
    if m.ndim != 1:
        raise ValueError("mean must be 1 dimensional")
    if c.ndim != 2 or c.shape[0] != c.shape[1]:
        raise ValueError("cov must be 2 dimensional and square")
    if m.shape[0] != c.shape[0]:
        raise ValueError("mean and cov must have same length")
    if method not in ("svd", "eigh", "cholesky"):
        raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
    if check_valid not in ("warn", "raise", "ignore"):
        raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
    psd = True
    if method == "cholesky":
        factor = np.linalg.cholesky(c).T
    elif method == "eigh":
        s, u = np.linalg.eigh(c)
        psd = not np.any(s < -tol)
        factor = (u * np.sqrt(np.maximum(s, 0.0))).T
    else:
        _, s, vh = np.linalg.svd(c)
        psd = np.allclose((vh.T * s) @ vh, c, rtol=tol, atol=tol)
        factor = np.sqrt(s)[:, None] * vh
    if not psd and check_valid != "ignore":
        msg = "covariance is not symmetric positive-semidefinite."
        if check_valid == "raise":
            raise ValueError(msg)
        warnings.warn(msg, RuntimeWarning, stacklevel=2)
    shape = shape_of(size)
    p = Params((() if shape is None else shape) + (m.shape[0],), [])
    dev = p.device
    z = self._std_normal(p)
    return matmul(z, asarray(factor, device=dev)) + asarray(m, device=dev)


READY = (dirichlet, noncentral_chisquare, noncentral_f, vonmises, multivariate_normal)
