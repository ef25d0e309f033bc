"""The further distributions of ``Generator``: those with closed-form transforms of
uniform, normal or exponential draws (Gumbel, Laplace, logistic, lognormal, Rayleigh,
Cauchy, Pareto, power, Weibull, triangular, geometric, Wald), with NumPy's parameter
checks and broadcasting; the gamma family and Poisson (``_rejection``), binomial,
multinomial, hypergeometric, logseries and zipf (``_discrete``), Dirichlet, noncentral chi-square and F and von Mises
(``_continuous``); and the rest, which raise NotImplementedError.

``_generator`` adds each module's ``READY`` functions to ``Generator`` as methods (and
``missing(name)`` for the names in ``MISSING``), so the class module stays small.
"""
from __future__ import annotations

import math

import numpy as np

from .._api.elementwise.elementwise import apply, where
from ._args import Params, isnan

_INT64_CAP = float(2 ** 63 - 1024)     # the largest float64 below 2**63


def _unit(gen, p, open_=False):
    return gen.bit_generator.draw("open_unit" if open_ else "random", p.shape, np.float64,
                                  p.device)


def gumbel(self, loc=0.0, scale=1.0, size=None):
    """Gumbel floats: ``loc - scale * log(E)`` with E standard exponential.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).gumbel(size=3).shape
    (3,)
    """
    p = Params(size, [loc, scale])
    p.check(lambda lo, s: s < 0, ValueError, "scale < 0")
    loc, scale = p.ops
    return loc - scale * apply("log", self._std_exponential(p))


def laplace(self, loc=0.0, scale=1.0, size=None):
    """Laplace (double exponential) floats.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).laplace(size=3).shape
    (3,)
    """
    p = Params(size, [loc, scale])
    p.check(lambda lo, s: s < 0, ValueError, "scale < 0")
    loc, scale = p.ops
    u = _unit(self, p, open_=True)
    return where(u >= 0.5, loc - scale * apply("log", 2.0 - u - u),
                 loc + scale * apply("log", u + u))


def logistic(self, loc=0.0, scale=1.0, size=None):
    """Logistic floats: ``loc + scale * log(u / (1 - u))``.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).logistic(size=3).shape
    (3,)
    """
    p = Params(size, [loc, scale])
    p.check(lambda lo, s: s < 0, ValueError, "scale < 0")
    loc, scale = p.ops
    u = _unit(self, p, open_=True)
    return loc + scale * apply("log", u / (1.0 - u))


def lognormal(self, mean=0.0, sigma=1.0, size=None):
    """Log-normal floats: ``exp(mean + sigma * N)``.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).lognormal(size=3).shape
    (3,)
    """
    p = Params(size, [mean, sigma])
    p.check(lambda m, s: s < 0, ValueError, "sigma < 0")
    mean, sigma = p.ops
    return apply("exp", mean + sigma * self._std_normal(p))


def rayleigh(self, scale=1.0, size=None):
    """Rayleigh floats: ``scale * sqrt(2 E)``.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).rayleigh(2.0, size=3).shape
    (3,)
    """
    p = Params(size, [scale])
    p.check(lambda s: s < 0, ValueError, "scale < 0")
    return p.ops[0] * apply("sqrt", self._std_exponential(p) * 2.0)


def standard_cauchy(self, size=None):
    """Standard Cauchy floats: ``tan(pi (u - 1/2))``.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).standard_cauchy(3).shape
    (3,)
    """
    p = Params(size, [])
    return apply("tan", (_unit(self, p, open_=True) - 0.5) * math.pi)


def pareto(self, a, size=None):
    """Pareto II (Lomax) floats: ``expm1(E / a)``.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).pareto(3.0, size=3).shape
    (3,)
    """
    p = Params(size, [a])
    p.check(lambda a: a <= 0, ValueError, "a <= 0")
    return apply("expm1", self._std_exponential(p) / p.ops[0])


def power(self, a, size=None):
    """Power-distribution floats in [0, 1]: ``(1 - exp(-E)) ** (1 / a)``.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).power(2.0, size=3).shape
    (3,)
    """
    p = Params(size, [a])
    p.check(lambda a: a <= 0, ValueError, "a <= 0")
    return (-apply("expm1", -self._std_exponential(p))) ** (1.0 / p.ops[0])


def weibull(self, a, size=None):
    """Weibull floats: ``E ** (1 / a)`` (0 where ``a == 0``).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).weibull(1.5, size=3).shape
    (3,)
    """
    p = Params(size, [a])
    p.check(lambda a: a < 0, ValueError, "a < 0")
    a = p.ops[0]
    e = self._std_exponential(p)
    if not hasattr(a, "shape"):
        return e * 0.0 if a == 0 else e ** (1.0 / a)
    return where(a == 0, 0.0, e ** (1.0 / a))


def triangular(self, left, mode, right, size=None):
    """Triangular floats on [left, right] with peak at `mode` (inversion).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).triangular(0, 1, 3, size=3).shape
    (3,)
    """
    p = Params(size, [left, mode, right])
    p.check(lambda lo, m, r: lo > m, ValueError, "left > mode")
    p.check(lambda lo, m, r: m > r, ValueError, "mode > right")
    p.check(lambda lo, m, r: lo == r, ValueError, "left == right")
    lo, m, r = p.ops
    base = r - lo
    left_base = m - lo
    u = _unit(self, p)
    return where(u <= left_base / base, lo + apply("sqrt", u * left_base * base),
                 r - apply("sqrt", (1.0 - u) * (r - m) * base))


def geometric(self, p, size=None):
    """Geometric integers >= 1 (trials to the first success): ``ceil(E / -log1p(-p))``.

    # Note: counts beyond 2**63 (only for p below about 1e-18) are capped.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).geometric(0.5, size=3).dtype
    dtype('int64')
    """
    q = Params(size, [p])
    q.check(lambda p: (p <= 0) | (p > 1) | isnan(p), ValueError,
            "p <= 0, p > 1 or p contains NaNs")
    pv = q.ops[0]
    if hasattr(pv, "shape"):
        denom = -apply("log1p", -pv)
    else:
        with np.errstate(divide="ignore"):
            denom = -float(np.log1p(-pv))
    k = apply("ceil", self._std_exponential(q) / denom)
    k = apply("minimum", apply("maximum", k, 1.0), _INT64_CAP)
    return k.astype(np.int64)


def wald(self, mean, scale, size=None):
    """Wald (inverse Gaussian) floats (Michael, Schucany and Haas).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).wald(1.0, 2.0, size=3).shape
    (3,)
    """
    p = Params(size, [mean, scale])
    p.check(lambda m, s: m <= 0, ValueError, "mean <= 0")
    p.check(lambda m, s: s <= 0, ValueError, "scale <= 0")
    m, s = p.ops
    n = self._std_normal(p)
    y = m * n * n
    x = m + (m / (2.0 * s)) * (y - apply("sqrt", 4.0 * s * y + y * y))
    u = _unit(self, p)
    return where(u <= m / (m + x), x, m * m / x)


READY = (gumbel, laplace, logistic, lognormal, rayleigh, standard_cauchy, pareto, power,
         weibull, triangular, geometric, wald)

# distributions that need other rejection methods or linear algebra: not implemented yet
MISSING = ("multivariate_hypergeometric",)


def missing(name):
    """A method raising NotImplementedError for distribution `name`."""
    def method(self, *args, **kwargs):
        raise NotImplementedError(f"gnumpy.random: Generator.{name} is not implemented yet "
                                  f"(it needs rejection sampling on the device)")
    method.__name__ = name
    method.__doc__ = "Not implemented yet: raises NotImplementedError."
    return method

