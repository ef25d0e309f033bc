"""The distributions of ``Generator`` that need rejection or sequential search: the gamma
family (standard_gamma, gamma, chisquare, beta, f, standard_t), poisson and
negative_binomial, with NumPy's parameter checks and broadcasting.

They are drawn in rounds on the device.  Every round proposes a candidate for every
position (fused elementwise kernels over fresh random bits), keeps the accepted ones for
positions still open, and one reduction and device-to-host sync asks whether any position
is still open.  The methods accept with probability above 0.9 (Marsaglia and Tsang's gamma,
Hoermann's PTRS for Poisson), so a million draws take a handful of rounds.

# Note: the draws differ from NumPy's for the same seed (another bit generator, and gamma
# for shape < 1 boosts a shape + 1 draw by U ** (1 / shape) instead of NumPy's method).

``_generator`` adds them (``READY``) to ``Generator`` as methods.
"""
from __future__ import annotations

import math

import numpy as np

from .._api._common import evaluate
from .._api.creation.creation import full, zeros
from .._api.elementwise.elementwise import apply, where
from .._api.reductions.reductions import any as any_
from .._graph import layout as L
from ._args import Params, check_out, finish, float_dtype, isnan, shape_of
from ._distributions import _unit as unit

_MAX_ROUNDS = 200
_POISSON_LAM_MAX = float(np.iinfo(np.int64).max - np.sqrt(np.iinfo(np.int64).max) * 10)


def _unit(gen, p):
    """Uniform float64 draws strictly inside (0, 1)."""
    return unit(gen, p, open_=True)


def _full(p, value, dtype=np.float64):
    return full(p.shape, value, dtype=dtype, device=p.device)


def _open(done):
    return bool(any_(~done))


def _rounds(p, propose, fill=0.0):
    """Rejection in rounds: `propose()` -> (candidates, accepted) over p.shape; every
    position takes its first accepted candidate (`fill` where nothing is drawn).  Returns
    the filled array."""
    value = _full(p, fill)
    if L.prod(p.shape) == 0:
        return value
    done = zeros(p.shape, dtype=np.bool_, device=p.device)
    for _ in range(_MAX_ROUNDS):
        cand, ok = propose()
        value = where(ok & ~done, cand, value)
        done = done | ok
        evaluate(value, done)
        if not _open(done):
            return value
    raise RuntimeError("gnumpy.random: rejection sampling did not finish in "
                       f"{_MAX_ROUNDS} rounds (parameters outside the method's range?)")


# ------------------------------------------------------------------ gamma family

def _gamma_parts(gen, p, k):
    """(G, boost) with G a gamma(k') draw for k' = k, or k + 1 where k < 1, and boost the
    log of the factor U ** (1 / k) taking a gamma(k + 1) draw to a gamma(k) one (0 where
    k >= 1, -inf where k == 0).  NaN shapes give NaN, infinite ones inf."""
    arr = hasattr(k, "shape")
    if arr:
        small = k < 1.0
        kk = where(small, k + 1.0, k)
        kk = where(isnan(k) | (k == math.inf), 1.0, kk)
    elif k != k or k == math.inf:
        return _full(p, k), 0.0
    else:
        small = k < 1.0
        kk = k + 1.0 if small else k
    d = kk - 1.0 / 3.0
    c = 1.0 / (apply("sqrt", d * 9.0) if arr else math.sqrt(9.0 * d))

    def propose():
        x = gen._std_normal(p)
        u = _unit(gen, p)
        t = x * c + 1.0
        v = t * t * t
        pos = v > 0.0
        lv = apply("log", where(pos, v, 1.0))
        ok = pos & (apply("log", u) < x * x * 0.5 + d - d * v + d * lv)
        return d * v, ok

    g = _rounds(p, propose)
    if arr:
        g = where(isnan(k), math.nan, where(k == math.inf, math.inf, g))
        lu = apply("log", _unit(gen, p))
        boost = where(small, where(k == 0.0, -math.inf, lu / where(k == 0.0, 1.0, k)), 0.0)
    elif small:
        boost = (_full(p, -math.inf) if k == 0.0 else apply("log", _unit(gen, p)) / k)
    else:
        boost = 0.0
    return g, boost


def _std_gamma(gen, p, k):
    g, boost = _gamma_parts(gen, p, k)
    return g if isinstance(boost, float) else g * apply("exp", boost)


def _log_std_gamma(gen, p, k):
    g, boost = _gamma_parts(gen, p, k)
    return apply("log", g) + boost


def standard_gamma(self, shape, size=None, dtype=np.float64, out=None):
    """Standard gamma floats (Marsaglia and Tsang's method; shape < 1 by boosting).

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.random.default_rng(0).standard_gamma(2.0, size=1000)
    >>> bool(abs(float(x.mean()) - 2.0) < 0.3)
    True
    """
    dt = float_dtype(dtype, "standard_gamma")
    if out is not None:
        size = check_out(out, shape_of(size), dt)
    p = Params(size, [shape])
    p.check(lambda k: k < 0, ValueError, "shape < 0")
    r = _std_gamma(self, p, p.ops[0])
    return finish(r if dt == np.float64 else r.astype(dt), out)


def gamma(self, shape, scale=1.0, size=None):
    """Gamma floats with `shape` and `scale`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).gamma(2.0, 3.0, size=4).shape
    (4,)
    """
    p = Params(size, [shape, scale])
    p.check(lambda k, s: k < 0, ValueError, "shape < 0")
    p.check(lambda k, s: s < 0, ValueError, "scale < 0")
    k, s = p.ops
    return _std_gamma(self, p, k) * s


def _chisq(gen, p, df):
    return _std_gamma(gen, p, df * 0.5) * 2.0


def chisquare(self, df, size=None):
    """Chi-square floats: 2 x gamma(df / 2).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).chisquare(3.0, size=4).shape
    (4,)
    """
    p = Params(size, [df])
    p.check(lambda d: d <= 0, ValueError, "df <= 0")
    return _chisq(self, p, p.ops[0])


def beta(self, a, b, size=None):
    """Beta floats: X / (X + Y) for X, Y gamma(a), gamma(b), formed in log space so that
    small shapes do not underflow to 0 / 0.

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.random.default_rng(0).beta(2.0, 5.0, size=1000)
    >>> bool((x >= 0).all() and (x <= 1).all())
    True
    """
    p = Params(size, [a, b])
    p.check(lambda a, b: a <= 0, ValueError, "a <= 0")
    p.check(lambda a, b: b <= 0, ValueError, "b <= 0")
    a, b = p.ops
    lx = _log_std_gamma(self, p, a)
    ly = _log_std_gamma(self, p, b)
    return 1.0 / (apply("exp", ly - lx) + 1.0)


def f(self, dfnum, dfden, size=None):
    """F (Fisher-Snedecor) floats: (chi2(dfnum) / dfnum) / (chi2(dfden) / dfden).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).f(3.0, 7.0, size=4).shape
    (4,)
    """
    p = Params(size, [dfnum, dfden])
    p.check(lambda n, d: n <= 0, ValueError, "dfnum <= 0")
    p.check(lambda n, d: d <= 0, ValueError, "dfden <= 0")
    n, d = p.ops
    return (_chisq(self, p, n) * d) / (_chisq(self, p, d) * n)


def standard_t(self, df, size=None):
    """Student's t floats: N / sqrt(chi2(df) / df).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).standard_t(5.0, size=4).shape
    (4,)
    """
    p = Params(size, [df])
    p.check(lambda d: d <= 0, ValueError, "df <= 0")
    df = p.ops[0]
    return self._std_normal(p) / apply("sqrt", _chisq(self, p, df) / df)


# ------------------------------------------------------------------ Poisson

_STIRLING = (8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04,
             -5.952380952380952e-04, 8.417508417508418e-04, -1.917526917526918e-03,
             6.410256410256410e-03, -2.955065359477124e-02, 1.796443723688307e-01,
             -1.392432216905900e+00)     # B_2j / (2j (2j - 1)), the Stirling series


def _log_factorial(k):
    """log(k!) of non-negative integer-valued floats: Stirling's series at x = k + 1
    shifted up to at least 7, then the shift's factors divided out."""
    x = k + 1.0
    n = where(x < 7.0, apply("floor", 7.0 - x), 0.0)
    x0 = x + n
    x2 = 1.0 / (x0 * x0)
    s = _STIRLING[9]
    for a in _STIRLING[8::-1]:
        s = s * x2 + a
    gl = s / x0 + 0.5 * 1.8378770664093453 + (x0 - 0.5) * apply("log", x0) - x0
    for j in range(1, 7):
        gl = gl - where(n >= j, apply("log", apply("maximum", x0 - j, 1.0)), 0.0)
    return where(x <= 2.0, 0.0, gl)


def _poisson_search(gen, p, lam):
    """Inversion by sequential search (lam < 10): the least k with u < F(k)."""
    u = _unit(gen, p)
    pk = u * 0.0 + (apply("exp", -lam) if hasattr(lam, "shape") else math.exp(-lam))
    F = pk
    k = u * 0.0
    done = u < F
    for _ in range(16):                  # 16 x 16 terms: F(255) is 1 for lam < 10
        for _ in range(16):
            k1 = k + 1.0
            pk = pk * lam / k1
            F = F + pk
            k = where(done, k, k1)
            done = done | (u < F)
        evaluate(k, pk, F, done)
        if not _open(done):
            break
    return k


def _poisson_ptrs(gen, p, lam):
    """Hoermann's transformed rejection with squeeze (PTRS), lam >= 10."""
    arr = hasattr(lam, "shape")
    sq = apply("sqrt", lam) if arr else math.sqrt(lam)
    loglam = apply("log", lam) if arr else math.log(lam)
    b = sq * 2.53 + 0.931
    a = b * 0.02483 - 0.059
    inv_alpha = 1.1328 / (b - 3.4) + 1.1239
    vr = 0.9277 - 3.6224 / (b - 2.0)
    log_ia = apply("log", inv_alpha) if arr else math.log(inv_alpha)

    def propose():
        U = _unit(gen, p) - 0.5
        V = _unit(gen, p)
        us = 0.5 - apply("absolute", U)
        k = apply("floor", (a * 2.0 / us + b) * U + lam + 0.43)
        quick = (us >= 0.07) & (V <= vr)
        reject = (k < 0.0) | ((us < 0.013) & (V > us))
        kk = apply("maximum", k, 0.0)
        tail = (apply("log", V) + log_ia - apply("log", a / (us * us) + b)
                <= -lam + kk * loglam - _log_factorial(kk))
        return k, quick | (~reject & tail)

    return _rounds(p, propose)


def _poisson(gen, p, lam):
    """int64 Poisson draws for float `lam` (a Python float or an array of p.shape)."""
    if not hasattr(lam, "shape"):
        if lam == 0:
            return _full(p, 0, np.int64)
        k = _poisson_search(gen, p, lam) if lam < 10 else _poisson_ptrs(gen, p, lam)
        return k.astype(np.int64)
    small = lam < 10.0
    k = where(small, _poisson_search(gen, p, where(small, lam, 0.0)),
              _poisson_ptrs(gen, p, where(small, 10.0, lam)))
    return k.astype(np.int64)


def poisson(self, lam=1.0, size=None):
    """Poisson integers: sequential search for lam < 10, PTRS (transformed rejection)
    above.

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.random.default_rng(0).poisson(4.0, size=1000)
    >>> x.dtype, bool(abs(float(x.mean()) - 4.0) < 0.5)
    (dtype('int64'), True)
    """
    p = Params(size, [lam])
    if p.raw[0].ndim == 0:          # NumPy's messages differ for scalar and array lam
        p.check(lambda m: (m < 0) | isnan(m), ValueError, "lam < 0 or lam is NaN")
        p.check(lambda m: m > _POISSON_LAM_MAX, ValueError, "lam value too large")
    else:
        p.check(lambda m: m < 0, ValueError, "lam < 0 or lam contains NaNs")
        p.check(lambda m: (m > _POISSON_LAM_MAX) | isnan(m), ValueError,
                "lam value too large")
    return _poisson(self, p, p.ops[0])


def negative_binomial(self, n, p, size=None):
    """Negative binomial integers (failures before the n-th success): Poisson draws with
    gamma(n, (1 - p) / p) distributed means.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.random.default_rng(0).negative_binomial(3, 0.5, size=4).dtype
    dtype('int64')
    """
    q = Params(size, [n, p])
    q.check(lambda n, p: isnan(n), ValueError, "n must not be NaN")
    q.check(lambda n, p: n <= 0, ValueError, "n <= 0")
    q.check(lambda n, p: (p <= 0) | (p > 1) | isnan(p), ValueError,
            "p <= 0, p > 1 or p contains NaNs")
    n, pv = q.ops
    return _poisson(self, q, _std_gamma(self, q, n) * ((1.0 - pv) / pv))


READY = (standard_gamma, gamma, chisquare, beta, f, standard_t, poisson, negative_binomial)
