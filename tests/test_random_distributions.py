"""gnumpy.random's distributions: statistics, errors, permutations and choice.

* statistics on 10**5 samples with loose bounds (moments, buckets, ranges);
* errors: the exception type NumPy raises for the same call, raised at the call;
* multivariate_normal, permutation, shuffle, permuted, choice.

Streams differ from NumPy's by design, so values are never compared with NumPy's.
The bits, streams, shapes and dtypes and the legacy API: test_random.py.
"""
import math
import warnings

import numpy as np
import pytest
from numpy.exceptions import AxisError

import gnumpy as gp
from test_random import N


# ------------------------------------------------------------------ statistics

def _moments(x):
    x = x.get().astype(np.float64)
    return x.mean(), x.var()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_uniform_statistics(dtype):
    rng = gp.random.default_rng(11)
    x = rng.random(N, dtype=dtype)
    v = x.get()
    assert v.dtype == dtype and v.min() >= 0 and v.max() < 1
    m, var = _moments(x)
    assert abs(m - 0.5) < 0.01 and abs(var - 1 / 12) < 0.005
    counts = np.bincount((v * 100).astype(int), minlength=100)
    chi2 = (((counts - N / 100) ** 2) / (N / 100)).sum()
    assert chi2 < 200            # 99 degrees of freedom: mean 99, sd 14
    assert len(np.unique(v)) > 0.99 * N if dtype == np.float64 else True
    u = rng.uniform(-3.0, 5.0, N).get()
    assert u.min() >= -3 and u.max() < 5 and abs(u.mean() - 1.0) < 0.05


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_normal_statistics(dtype):
    rng = gp.random.default_rng(12)
    z = rng.standard_normal(N, dtype=dtype)
    assert z.dtype == dtype
    m, var = _moments(z)
    assert abs(m) < 0.02 and abs(var - 1) < 0.03
    v = z.get()
    assert abs(np.mean(np.abs(v) < 1) - 0.6827) < 0.01
    assert abs(np.mean(np.abs(v) < 2) - 0.9545) < 0.005
    assert np.isfinite(v).all()
    x = rng.normal(3.0, 0.5, N)
    m, var = _moments(x)
    assert abs(m - 3) < 0.01 and abs(var - 0.25) < 0.01


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_exponential_statistics(dtype):
    rng = gp.random.default_rng(13)
    e = rng.standard_exponential(N, dtype=dtype)
    m, var = _moments(e)
    assert abs(m - 1) < 0.02 and abs(var - 1) < 0.05
    assert e.get().min() >= 0
    m, var = _moments(rng.exponential(2.5, N))
    assert abs(m - 2.5) < 0.05 and abs(var - 6.25) < 0.4


@pytest.mark.parametrize("low,high,dtype", [(-3, 7, np.int64), (0, 2, np.bool_),
                                            (-128, 128, np.int8), (0, 256, np.uint8),
                                            (10, 13, np.uint32), (-2 ** 31, 2 ** 31, np.int32)])
def test_integers_cover_range(low, high, dtype):
    rng = gp.random.default_rng(14)
    k = rng.integers(low, high, size=N, dtype=dtype).get()
    assert k.dtype == np.dtype(dtype)
    ki = k.astype(np.int64)
    assert ki.min() >= low and ki.max() < high
    r = high - low
    if r <= 256:
        counts = np.bincount(ki - low, minlength=r)
        assert (counts > 0).all()
        chi2 = (((counts - N / r) ** 2) / (N / r)).sum()
        assert chi2 < r + 6 * math.sqrt(2 * r) + 10
    else:
        assert abs(ki.mean() - (low + high - 1) / 2) < 0.02 * r
    ke = rng.integers(low, high - 1, size=N, dtype=dtype, endpoint=True).get()
    assert ke.astype(np.int64).max() == high - 1 if r <= 256 else True


def test_other_distributions_statistics():
    rng = gp.random.default_rng(15)
    g = np.euler_gamma

    def mean(x):
        return float(x.get().mean())
    assert abs(mean(rng.gumbel(1.0, 2.0, N)) - (1 + 2 * g)) < 0.05
    assert abs(float(rng.laplace(0.0, 1.5, N).get().var()) - 2 * 1.5 ** 2) < 0.2
    assert abs(float(rng.logistic(0.0, 1.0, N).get().var()) - np.pi ** 2 / 3) < 0.15
    assert abs(mean(rng.lognormal(0.0, 0.5, N)) - np.exp(0.125)) < 0.02
    assert abs(mean(rng.rayleigh(2.0, N)) - 2 * np.sqrt(np.pi / 2)) < 0.03
    assert abs(float(np.median(rng.standard_cauchy(N).get()))) < 0.03
    assert abs(mean(rng.pareto(3.0, N)) - 0.5) < 0.03
    assert abs(mean(rng.power(2.0, N)) - 2 / 3) < 0.01
    assert abs(mean(rng.weibull(2.0, N)) - math.gamma(1.5)) < 0.01
    t = rng.triangular(0.0, 1.0, 3.0, N).get()
    assert t.min() >= 0 and t.max() <= 3 and abs(t.mean() - 4 / 3) < 0.02
    geo = rng.geometric(0.25, N).get()
    assert geo.min() >= 1 and abs(geo.mean() - 4) < 0.1
    assert (rng.geometric(1.0, 10).get() == 1).all()
    w = rng.wald(1.5, 2.0, N).get()
    assert w.min() > 0 and abs(w.mean() - 1.5) < 0.05
    assert (rng.weibull(np.array([0.0, 1.0]), size=(5, 2)).get()[:, 0] == 0).all()


@pytest.mark.parametrize("k", [0.05, 0.5, 1.0, 3.5, 40.0])
def test_gamma_family_statistics(k):
    # mean and variance within ~5 standard errors (N draws; the 4th moments bound them)
    rng = gp.random.default_rng(17)
    m, v = _moments(rng.standard_gamma(k, N))
    assert abs(m - k) < 5 * math.sqrt(k / N) and abs(v - k) < 5 * math.sqrt((6 * k + 2 * k * k) / N)
    m, v = _moments(rng.gamma(k, 2.0, N))
    assert abs(m - 2 * k) < 10 * math.sqrt(k / N) and abs(v / (4 * k) - 1) < 0.1
    a, b = k, 2.0
    m, v = _moments(rng.beta(a, b, N))
    assert abs(m - a / (a + b)) < 0.01 and abs(v - a * b / ((a + b) ** 2 * (a + b + 1))) < 0.01


def test_chisquare_f_t_statistics():
    rng = gp.random.default_rng(18)
    m, v = _moments(rng.chisquare(3.0, N))
    assert abs(m - 3) < 0.05 and abs(v - 6) < 0.3
    m, v = _moments(rng.f(5.0, 12.0, N))
    assert abs(m - 12 / 10) < 0.03
    m, v = _moments(rng.standard_t(6.0, N))
    assert abs(m) < 0.03 and abs(v - 6 / 4) < 0.1
    small = rng.beta(0.01, 0.02, N).get()     # log-space ratio: no 0 / 0
    assert np.isfinite(small).all() and small.min() >= 0 and small.max() <= 1


@pytest.mark.parametrize("lam", [0.0, 0.3, 4.0, 9.9, 10.0, 55.0, 1e7])
def test_poisson_statistics(lam):
    rng = gp.random.default_rng(19)
    x = rng.poisson(lam, N)
    assert x.dtype == np.int64
    h = x.get()
    assert h.min() >= 0
    if lam == 0:
        assert (h == 0).all()
        return
    se = math.sqrt(lam / N)
    assert abs(h.mean() - lam) < 5 * se
    assert abs(h.var() / lam - 1) < 5 * math.sqrt(2 / N) + 1 / lam / 10
    if lam < 60:                  # the whole law: P(X = j) against the pmf
        j = np.arange(int(lam + 6 * math.sqrt(lam)) + 2)
        pmf = np.exp(-lam + j * math.log(lam) - np.array([math.lgamma(t + 1) for t in j]))
        freq = np.bincount(h, minlength=len(j))[:len(j)] / N
        assert np.all(np.abs(freq - pmf) < 5 * np.sqrt(pmf / N) + 2e-4)


@pytest.mark.parametrize("n,p", [(0, 0.5), (12, 0.0), (12, 1.0), (10, 0.3), (40, 0.25),
                                 (500, 0.7), (3 * 10 ** 9, 0.4)])
def test_binomial_statistics(n, p):
    h = gp.random.default_rng(21).binomial(n, p, N).get()
    assert h.dtype == np.int64 and h.min() >= 0 and h.max() <= n
    mean, var = n * p, n * p * (1 - p)
    if var == 0:
        assert (h == mean).all()
        return
    assert abs(h.mean() - mean) < 5 * math.sqrt(var / N)
    assert abs(h.var() / var - 1) < 0.03
    if n <= 500:                  # the whole law against the pmf
        j = np.arange(n + 1)
        lp = np.array([math.lgamma(n + 1) - math.lgamma(t + 1) - math.lgamma(n - t + 1)
                       for t in j]) + j * math.log(p) + (n - j) * math.log1p(-p)
        pmf = np.exp(lp)
        freq = np.bincount(h, minlength=n + 1) / N
        assert np.all(np.abs(freq - pmf) < 5 * np.sqrt(pmf / N) + 2e-4)


def test_logseries_dirichlet_noncentral_vonmises_statistics():
    rng = gp.random.default_rng(22)
    for p in (0.2, 0.9):
        h = rng.logseries(p, N).get()
        j = np.arange(1, 12)
        pmf = -p ** j / (j * math.log1p(-p))
        freq = np.bincount(h, minlength=13)[1:12] / N
        assert h.min() >= 1 and np.all(np.abs(freq - pmf) < 5 * np.sqrt(pmf / N) + 2e-4)
    d = rng.dirichlet([0.5, 1.0, 3.0], N).get()
    assert d.shape == (N, 3) and np.allclose(d.sum(axis=1), 1)
    assert np.all(np.abs(d.mean(axis=0) - np.array([0.5, 1.0, 3.0]) / 4.5) < 0.005)
    tiny = rng.dirichlet([0.01, 0.02, 0.0], 100).get()
    assert np.isfinite(tiny).all() and np.allclose(tiny.sum(axis=1), 1) and (tiny[:, 2] == 0).all()
    m, v = _moments(rng.noncentral_chisquare(3.0, 2.0, N))
    assert abs(m - 5) < 0.06 and abs(v / (2 * (3 + 4)) - 1) < 0.05
    m, v = _moments(rng.noncentral_chisquare(0.5, 1.5, N))
    assert abs(m - 2) < 0.04 and abs(v / (2 * (0.5 + 3)) - 1) < 0.05
    m, _ = _moments(rng.noncentral_f(3.0, 12.0, 1.5, N))
    assert abs(m - 12 * 4.5 / (3 * 10)) < 0.03
    for mu, k, r in ((0.5, 4.0, 0.8635226110245504), (-3.0, 0.5, 0.24249961258080202)):
        x = rng.vonmises(mu, k, N).get()
        assert x.min() >= -np.pi and x.max() <= np.pi
        assert abs(np.cos(x - mu).mean() - r) < 0.01 and abs(np.sin(x - mu).mean()) < 0.01
    assert (np.abs(rng.vonmises(1.0, 1e7, 100).get() - 1.0) < 0.01).all()
    u = rng.vonmises(0.0, 0.0, N).get()
    assert abs(u.mean()) < 0.03 and abs(u.var() - np.pi ** 2 / 3) < 0.05
    assert np.isnan(rng.vonmises(np.nan, 1.0, 3).get()).all()
    assert np.isnan(rng.noncentral_chisquare(1.0, np.nan, 3).get()).all()
    assert np.isnan(rng.dirichlet([np.nan, 1.0], 2).get()).all()


def test_multinomial_and_zipf():
    rng = gp.random.default_rng(23)
    nrng = np.random.default_rng(0)
    for args, kw in (((20, [0.2, 0.3, 0.5]), {}), (([3, 50], [0.5, 0.25, 0.25]), {}),
                     ((10, [[0.5, 0.5], [0.1, 0.9]]), {"size": (4, 2)}),
                     ((10, [0.2, 0.3, 0.6]), {"size": 5}), ((7, [1.0]), {"size": (0,)})):
        r = rng.multinomial(*args, **kw)
        e = nrng.multinomial(*args, **kw)
        assert r.shape == e.shape and r.dtype == e.dtype
        n = np.broadcast_to(np.asarray(args[0]), r.shape[:-1])
        assert (r.get().sum(axis=-1) == n).all() and r.get().min(initial=0) >= 0
    x = rng.multinomial(20, [0.2, 0.3, 0.5], size=N).get()
    assert np.all(np.abs(x.mean(axis=0) - [4, 6, 10]) < 0.05)
    assert abs(np.cov(x.T)[0, 1] + 20 * 0.2 * 0.3) < 0.05
    assert (rng.multinomial(10, [0.2, 0.3, 0.6], size=100).get()[:, 2] >= 0).all()
    for a in (1.5, 4.0):
        z = rng.zipf(a, N).get()
        j = np.arange(1, 8)
        zeta = sum(k ** -a for k in range(1, 200000)) + 200000 ** (1 - a) / (a - 1)
        pmf = j ** -a / zeta
        freq = np.bincount(z[z < 8], minlength=8)[1:8] / N
        assert z.min() >= 1 and np.all(np.abs(freq - pmf) < 5 * np.sqrt(pmf / N) + 2e-4)


@pytest.mark.parametrize("good,bad,nsample", [(5, 5, 3), (30, 70, 20), (700, 300, 600),
                                             (10, 990, 500), (5, 0, 3), (0, 5, 3),
                                             (5, 5, 0), (50, 50, 99)])
def test_hypergeometric_law(good, bad, nsample):
    h = gp.random.default_rng(24).hypergeometric(good, bad, nsample, N).get()
    assert h.dtype == np.int64
    lc = lambda n, k: math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)  # noqa: E731
    j = np.arange(max(0, nsample - bad), min(good, nsample) + 1)
    pmf = np.exp([lc(good, k) + lc(bad, nsample - k) - lc(good + bad, nsample) for k in j])
    assert h.min() >= j[0] and h.max() <= j[-1]
    freq = np.bincount(h - j[0], minlength=len(j))[:len(j)] / N
    assert np.all(np.abs(freq - pmf) < 5 * np.sqrt(pmf / N) + 2e-4)
    x = gp.random.default_rng(25).hypergeometric(np.array([10, 700]), np.array([990, 300]),
                                                 np.array([500, 600]), size=(20000, 2)).get()
    assert np.all(np.abs(x.mean(axis=0) - [5, 420]) < [0.06, 0.3])


def test_rejection_array_parameters_and_edges():
    rng = gp.random.default_rng(20)
    lam = np.array([0.0, 2.0, 9.5, 10.0, 200.0])
    for lp in (lam, gp.asarray(lam)):
        x = rng.poisson(lp, size=(20000, 5)).get()
        assert (x[:, 0] == 0).all()
        assert np.all(np.abs(x[:, 1:].mean(axis=0) - lam[1:]) < 5 * np.sqrt(lam[1:] / 20000))
    k = np.array([np.nan, 0.0, 0.5, np.inf, 4.0])
    g = rng.standard_gamma(k, size=(20000, 5)).get()
    assert np.isnan(g[:, 0]).all() and (g[:, 1] == 0).all() and np.isinf(g[:, 3]).all()
    assert np.all(np.abs(g[:, [2, 4]].mean(axis=0) - [0.5, 4.0]) < [0.03, 0.1])
    assert np.isnan(rng.standard_gamma(np.nan, 3).get()).all()
    assert (rng.standard_gamma(0.0, 3).get() == 0).all()
    nb = rng.negative_binomial(np.array([1.0, 5.0]), np.array([[0.5], [1.0]]),
                               size=(3000, 2, 2)).get()
    assert (nb[:, 1, :] == 0).all()
    assert np.all(np.abs(nb[:, 0, :].mean(axis=0) - [1.0, 5.0]) < [0.15, 0.35])
    out = gp.empty((4, 3))
    r = rng.standard_gamma(2.0, out=out)
    assert r is out and (out.get() > 0).all()
    f32 = rng.standard_gamma(2.0, size=1000, dtype=np.float32)
    assert f32.dtype == np.float32 and float(f32.mean()) > 1.5
    for name, args in (("standard_gamma", (1.0,)), ("poisson", (3.0,)), ("beta", (1.0, 2.0)),
                       ("negative_binomial", (2, 0.5))):
        e = getattr(gp.random, name)(*args, size=7)
        assert e.shape == (7,)


def test_integer_and_float_zero_dim_and_empty():
    rng = gp.random.default_rng(16)
    for r in (rng.random(), rng.integers(5), rng.normal(), rng.standard_normal(),
              rng.exponential()):
        assert isinstance(r, gp.ndarray) and r.shape == ()
    assert 0 <= float(rng.random()) < 1
    assert rng.integers(4, 5).item() == 4               # one possible value
    assert rng.integers(0, 0, endpoint=True, size=3).get().tolist() == [0, 0, 0]
    assert rng.integers(np.array([], dtype=np.int64), 3).shape == (0,)
    assert rng.normal(np.zeros((0, 2)), 1.0).shape == (0, 2)


def test_bytes():
    a = gp.random.default_rng(7).bytes(10)
    assert isinstance(a, bytes) and len(a) == 10
    assert a == gp.random.default_rng(7).bytes(10)
    assert gp.random.default_rng(7).bytes(0) == b""


# ------------------------------------------------------------------ errors, as NumPy

ERRORS = [
    ("random", (), {"dtype": np.float16}), ("random", (), {"dtype": np.int32}),
    ("random", (), {"size": -1}), ("random", (), {"size": (2, -1)}),
    ("random", (), {"size": 2.0}), ("random", (), {"size": (2.0, 3)}),
    ("random", (), {"size": True}), ("random", (), {"size": "a"}),
    ("standard_normal", (), {"dtype": np.float16}),
    ("standard_exponential", (), {"dtype": np.int64}),
    ("integers", (5, 5), {}), ("integers", (5, 3), {}), ("integers", (5, 3),
                                                        {"endpoint": True}),
    ("integers", (0,), {}), ("integers", (-3,), {}), ("integers", (-1,), {"endpoint": True}),
    ("integers", (-1, 5), {"dtype": np.uint8}), ("integers", (0, 257), {"dtype": np.uint8}),
    ("integers", (0, 256), {"dtype": np.uint8, "endpoint": True}),
    ("integers", (0, 3), {"dtype": np.bool_}), ("integers", (0, 3), {"dtype": np.float64}),
    ("integers", (0, 2 ** 64), {}), ("integers", (0, 2 ** 64 + 1), {"dtype": np.uint64}),
    ("integers", ([0, 5], [3, 4]), {}), ("integers", ([0, 1], [3, 4]), {"size": 3}),
    ("integers", (np.array([-1]), 5), {"dtype": np.uint64}),
    ("integers", (np.array([np.nan]), 3), {}), ("integers", (0, np.nan), {}),
    ("normal", (0, -1), {}), ("normal", (0, [1, -1]), {}), ("normal", ([0, 1], 1),
                                                          {"size": 3}),
    ("uniform", (1, 0), {}), ("uniform", (0, np.inf), {}), ("uniform", (np.nan, 1), {}),
    ("exponential", (-1,), {}), ("gumbel", (0, -1), {}), ("laplace", (0, -1), {}),
    ("logistic", (0, -1), {}), ("lognormal", (0, -1), {}), ("rayleigh", (-1,), {}),
    ("pareto", (0,), {}), ("power", (-1,), {}), ("weibull", (-1,), {}),
    ("triangular", (1, 0, 2), {}), ("triangular", (0, 3, 2), {}), ("triangular", (1, 1, 1),
                                                                   {}),
    ("geometric", (0,), {}), ("geometric", (1.5,), {}), ("geometric", (np.nan,), {}),
    ("wald", (0, 1), {}), ("wald", (1, 0), {}),
    ("standard_gamma", (-1,), {}), ("standard_gamma", (1.0,), {"dtype": np.int32}),
    ("gamma", (-1, 1), {}), ("gamma", (1, -1), {}), ("chisquare", (0,), {}),
    ("beta", (0, 1), {}), ("beta", (1, -2), {}), ("f", (0, 1), {}), ("f", (1, 0), {}),
    ("standard_t", (0,), {}), ("poisson", (-1,), {}), ("poisson", (np.nan,), {}),
    ("poisson", (1e19,), {}), ("poisson", ([1.0, -1.0],), {}), ("poisson", ([np.nan],), {}),
    ("negative_binomial", (0, 0.5), {}), ("negative_binomial", (np.nan, 0.5), {}),
    ("negative_binomial", (1, 0), {}), ("negative_binomial", (1, 1.5), {}),
    ("binomial", (-1, 0.5), {}), ("binomial", (1, -0.1), {}), ("binomial", (1, np.nan), {}),
    ("binomial", (1, [0.5, np.nan]), {}), ("binomial", ([1, -1], 0.5), {}),
    ("logseries", (1.0,), {}), ("logseries", (-0.1,), {}), ("logseries", ([0.5, 1.0],), {}),
    ("dirichlet", ([-1.0, 1.0],), {}), ("dirichlet", ([[1.0, 1.0]],), {}),
    ("noncentral_chisquare", (0, 1), {}), ("noncentral_chisquare", (1, -1), {}),
    ("noncentral_f", (0, 1, 1), {}), ("noncentral_f", (1, 0, 1), {}),
    ("noncentral_f", (1, 1, -1), {}), ("vonmises", (0, -1), {}),
    ("zipf", (1.0,), {}), ("zipf", (np.nan,), {}), ("zipf", ([2.0, 1.0],), {}),
    ("multinomial", (10, [0.2, 0.9, 0.6]), {}), ("multinomial", (10, [-0.1, 0.5, 0.6]), {}),
    ("multinomial", (-1, [0.5, 0.5]), {}), ("multinomial", (10, [0.5, np.nan]), {}),
    ("multinomial", (10, 0.5), {}), ("multinomial", (10, []), {}),
    ("hypergeometric", (-1, 5, 3), {}), ("hypergeometric", (5, -1, 3), {}),
    ("hypergeometric", (5, 5, -1), {}), ("hypergeometric", (5, 5, 11), {}),
    ("hypergeometric", (10 ** 9, 5, 3), {}), ("hypergeometric", (5, 5, [3, 11]), {}),
    ("multivariate_normal", ([[0.0, 0.0]], np.eye(2)), {}),
    ("multivariate_normal", ([0.0, 0.0], [1.0, 1.0]), {}),
    ("multivariate_normal", ([0.0, 0.0, 0.0], np.eye(2)), {}),
    ("multivariate_normal", ([0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]]), {"check_valid": "raise"}),
    ("multivariate_normal", ([0.0, 0.0], np.eye(2)), {"method": "bad"}),
    ("multivariate_normal", ([0.0, 0.0], np.eye(2)), {"check_valid": "bad"}),
    ("choice", (0, 3), {}), ("choice", (-1, 3), {}), ("choice", ([], 3), {}),
    ("choice", (5, 6), {"replace": False}), ("choice", (5.0, 2), {}),
    ("choice", (5, 3), {"p": [0.1, 0.2, 0.3, 0.4]}),
    ("choice", (5, 3), {"p": [0.1, 0.2, 0.3, 0.4, 0.1]}),
    ("choice", (5, 3), {"p": [0.1, 0.2, 0.3, 0.5, -0.1]}),
    ("choice", (5, 3), {"p": [[0.1, 0.2, 0.3, 0.4, 0.0]]}),
    ("choice", (5, 3), {"p": [0.5, 0.5, np.nan, 0, 0]}),
    ("choice", (5, 3), {"replace": False, "p": [0.5, 0.5, 0, 0, 0]}),
    ("choice", (5, -1), {}),
    ("permutation", (np.arange(12).reshape(3, 4),), {"axis": 3}),
    ("permutation", (np.array(5),), {}),
    ("permuted", (np.arange(6).reshape(2, 3),), {"axis": 2}),
    ("permuted", (np.array(5),), {}),
]


def _np_exception(name, args, kw):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            getattr(np.random.default_rng(0), name)(*args, **kw)
    except Exception as e:        # noqa: BLE001
        return e
    raise AssertionError(f"NumPy accepts {name}{args}{kw}")


@pytest.mark.parametrize("name,args,kw", ERRORS, ids=[f"{e[0]}-{i}" for i, e in
                                                       enumerate(ERRORS)])
def test_errors_like_numpy(name, args, kw):
    e = _np_exception(name, args, kw)
    with pytest.raises(type(e)) as info:
        getattr(gp.random.default_rng(0), name)(*args, **kw)
    if name not in ("choice", "permutation", "permuted") or isinstance(e, ValueError):
        if "shape mismatch" not in str(e):
            assert str(info.value) == str(e)


def test_gnumpy_array_parameters_are_checked():
    rng = gp.random.default_rng(0)
    with pytest.raises(ValueError, match="scale < 0"):
        rng.normal(0, gp.asarray([1.0, -1.0]))
    with pytest.raises(ValueError, match="low >= high"):
        rng.integers(gp.asarray([0, 5]), gp.asarray([3, 4]))
    with pytest.raises(ValueError, match="high is out of bounds"):
        rng.integers(0, gp.asarray([300]), dtype=np.uint8)
    with pytest.raises(OverflowError):
        rng.uniform(gp.asarray([0.0]), np.inf)


def test_multivariate_hypergeometric_not_implemented():
    with pytest.raises(NotImplementedError):
        gp.random.default_rng(0).multivariate_hypergeometric([3, 4], 2)


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal(method):
    rng = gp.random.default_rng(26)
    mean = np.array([1.0, -2.0, 0.5])
    cov = np.array([[2.0, 0.6, 0.1], [0.6, 1.0, -0.3], [0.1, -0.3, 0.5]])
    x = rng.multivariate_normal(mean, gp.asarray(cov), size=N, method=method)
    assert x.shape == (N, 3) and x.dtype == np.float64
    h = x.get()
    assert np.all(np.abs(h.mean(axis=0) - mean) < 5 * np.sqrt(np.diag(cov) / N))
    assert np.all(np.abs(np.cov(h.T) - cov) < 0.03)
    for size in (None, 4, (2, 3)):
        e = np.random.default_rng(0).multivariate_normal(mean, cov, size=size, method=method)
        assert rng.multivariate_normal(mean, cov, size=size, method=method).shape == e.shape
    assert gp.random.multivariate_normal(mean, cov, 5).shape == (5, 3)
    bad = ([0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]])
    if method == "cholesky":            # NumPy's factorization refuses it, as here
        with pytest.raises(np.linalg.LinAlgError):
            rng.multivariate_normal(*bad, method=method)
    else:
        with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
            rng.multivariate_normal(*bad, method=method)


# ------------------------------------------------------------------ permutations, choice

def _needs_sort_and_take():
    try:
        from gnumpy._api.indexing import advanced  # noqa: F401
        from gnumpy._api.sorting import sorting  # noqa: F401
    except ImportError:
        pytest.skip("needs gnumpy/_api/sorting/sorting.py (argsort) and "
                    "gnumpy/_api/indexing/advanced.py (take)")


def test_permutation_is_a_permutation():
    _needs_sort_and_take()
    rng = gp.random.default_rng(20)
    p = rng.permutation(1000)
    assert p.dtype == np.int64 and sorted(p.get().tolist()) == list(range(1000))
    assert p.get().tolist() != list(range(1000))
    assert rng.permutation(0).shape == (0,) and rng.permutation(-1).shape == (0,)
    a = np.arange(24.0).reshape(4, 6)
    for axis, g in ((0, gp.asarray(a)), (1, gp.asarray(a)), (-1, gp.asarray(a.T).T)):
        r = rng.permutation(g, axis=axis).get()
        assert r.shape == a.shape
        ax = axis % 2
        cols = np.moveaxis(r, ax, 0)
        ref = np.moveaxis(np.asarray(g.get()), ax, 0)
        assert sorted(map(tuple, cols.tolist())) == sorted(map(tuple, ref.tolist()))
    s = rng.permutation([3.5, 1.5, 2.5]).get()
    assert s.dtype == np.float64 and sorted(s.tolist()) == [1.5, 2.5, 3.5]


def test_permutation_is_uniform():
    _needs_sort_and_take()
    rng = gp.random.default_rng(21)
    first = np.array([int(rng.permutation(4)[0]) for _ in range(400)])
    counts = np.bincount(first, minlength=4)
    assert (counts > 60).all()


def test_shuffle_in_place():
    _needs_sort_and_take()
    rng = gp.random.default_rng(22)
    v = np.random.default_rng(0).standard_normal(50)
    x = gp.asarray(v)
    assert rng.shuffle(x) is None
    got = x.get()
    assert sorted(got.tolist()) == sorted(v.tolist()) and not np.array_equal(got, v)
    m = np.arange(12).reshape(3, 4)
    g = gp.asarray(m)
    rng.shuffle(g, axis=1)
    assert sorted(map(tuple, g.get().T.tolist())) == sorted(map(tuple, m.T.tolist()))
    big = gp.asarray(np.arange(20))
    view = big[::2]                             # a strided view: shuffles the base's memory
    rng.shuffle(view)
    b = big.get()
    assert (b[1::2] == np.arange(1, 20, 2)).all()
    assert sorted(b[::2].tolist()) == list(range(0, 20, 2))
    lst = list(range(10))
    rng.shuffle(lst)
    assert sorted(lst) == list(range(10))
    with pytest.raises(TypeError):
        rng.shuffle(gp.asarray(5))
    with pytest.raises(AxisError):
        rng.shuffle(gp.asarray(m), axis=-3)


def test_permuted():
    _needs_sort_and_take()
    rng = gp.random.default_rng(23)
    m = np.arange(30).reshape(5, 6)
    r = rng.permuted(gp.asarray(m), axis=1).get()
    assert all(sorted(row) == sorted(mr) for row, mr in zip(r.tolist(), m.tolist()))
    r = rng.permuted(gp.asarray(m)).get()
    assert r.shape == m.shape and sorted(r.reshape(-1).tolist()) == list(range(30))
    out = gp.zeros((5, 6), dtype=np.int64)
    assert rng.permuted(gp.asarray(m), axis=0, out=out) is out
    assert sorted(out.get()[:, 0].tolist()) == m[:, 0].tolist()
    with pytest.raises(ValueError):
        rng.permuted(gp.asarray(m), out=gp.zeros(4, dtype=np.int64))


def test_choice():
    _needs_sort_and_take()
    rng = gp.random.default_rng(24)
    c = rng.choice(10, size=N)
    v = c.get()
    assert v.dtype == np.int64 and v.min() >= 0 and v.max() < 10
    assert (np.bincount(v, minlength=10) > N / 10 * 0.9).all()
    u = rng.choice(1000, size=(20, 30), replace=False).get()
    assert u.shape == (20, 30) and len(np.unique(u)) == 600 and u.max() < 1000
    assert rng.choice(5, 5, replace=False).get().tolist() != [] and \
        sorted(rng.choice(5, 5, replace=False).get().tolist()) == [0, 1, 2, 3, 4]
    a = np.arange(12.0).reshape(3, 4)
    assert rng.choice(gp.asarray(a), 2).shape == (2, 4)
    s = rng.choice(gp.asarray(a), (2, 5), axis=1).get()
    assert s.shape == (3, 2, 5) and set(s[0].reshape(-1)) <= set(a[0])
    assert rng.choice(a).shape == (4,)
    assert rng.choice(5).shape == ()
    assert rng.choice([1.5, 2.5], 3).dtype == np.float64
    assert rng.choice(0, 0).shape == (0,)
    p = [0.1, 0.0, 0.6, 0.3]
    w = rng.choice(4, N, p=p).get()
    freq = np.bincount(w, minlength=4) / N
    np.testing.assert_allclose(freq, p, atol=0.01)
    w = rng.choice(4, N, p=gp.asarray(np.array(p))).get()
    np.testing.assert_allclose(np.bincount(w, minlength=4) / N, p, atol=0.01)
    firsts = np.array([rng.choice(4, 2, replace=False, p=p).get() for _ in range(300)])
    assert (firsts[:, 0] != firsts[:, 1]).all() and not (firsts == 1).any()
    assert np.mean(firsts[:, 0] == 2) > 0.45       # the heaviest item comes first most
