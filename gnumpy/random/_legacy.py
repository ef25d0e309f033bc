"""The legacy API: ``RandomState`` and the module-level functions of ``numpy.random``
(``seed``, ``rand``, ``randn``, ``randint``, ``random_sample``, ...), as thin wrappers over
a ``Generator``; the module functions share one global ``RandomState``.

# Note: ``RandomState`` draws from PCG64 on the device, not from MT19937: seeds are accepted
# and checked as NumPy does, but give other numbers.  ``get_state`` returns the bit
# generator's state dict (NumPy's ``get_state(legacy=False)`` form) whatever ``legacy``
# says, and ``set_state`` takes that dict only (MT19937 tuples raise ValueError).
"""
from __future__ import annotations

import warnings

import numpy as np

from .._sizes import dimension
from . import _sampling as S
from ._args import Params, notfinite
from ._generator import Generator
from ._integers import integers as _integers
from ._bitgen import BitGenerator
from ._pcg64 import PCG64

_LEGACY_SEED_ERROR = "Seed must be between 0 and 2**32 - 1"


def _legacy_seed(seed):
    """NumPy's legacy seed checks (int or sequence of ints in [0, 2**32)) -> PCG64."""
    if seed is None:
        return PCG64()
    if isinstance(seed, BitGenerator):
        return seed
    if isinstance(seed, np.random.BitGenerator):
        return PCG64(seed)
    arr = np.asarray(seed)
    if arr.ndim and arr.size == 0:
        raise ValueError("Seed must be non-empty")
    if arr.dtype.kind not in "iu" and not (arr.dtype.kind == "b"):
        raise TypeError(f"Cannot cast scalar from {arr.dtype!r} to dtype('int64') according "
                        f"to the rule 'safe'")
    if arr.ndim == 0:
        v = int(arr)
        if not 0 <= v < 2 ** 32:
            raise ValueError(_LEGACY_SEED_ERROR)
        return PCG64(v)
    vals = [int(v) for v in arr.reshape(-1)]
    if not vals:
        raise ValueError("Seed must be non-empty")
    if any(not 0 <= v < 2 ** 32 for v in vals):
        raise ValueError(_LEGACY_SEED_ERROR)
    return PCG64(vals)


def _dims(args):
    shape = tuple(dimension(d) for d in args)
    if any(d < 0 for d in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape


class RandomState:
    """NumPy's legacy random API over a device PCG64 generator.

    Examples
    --------
    >>> import gnumpy as gp
    >>> rs = gp.random.RandomState(0)
    >>> rs.rand(2, 3).shape
    (2, 3)
    """

    def __init__(self, seed=None):
        self._gen = Generator(_legacy_seed(seed))

    def __repr__(self) -> str:
        return f"RandomState({self._gen.bit_generator!r})"

    def seed(self, seed=None):
        """Reseed: None (fresh entropy), an int or a sequence of ints in [0, 2**32).

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.seed(0); a = gp.random.rand(2); gp.random.seed(0)
        >>> bool((gp.random.rand(2) == a).all())
        True
        """
        self._gen = Generator(_legacy_seed(seed))

    def get_state(self, legacy=True):
        """The bit generator's state dict (see the module note).

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.get_state()["bit_generator"]
        'PCG64'
        """
        return self._gen.bit_generator.state

    def set_state(self, state):
        """Restore a state from ``get_state``.

        Examples
        --------
        >>> import gnumpy as gp
        >>> st = gp.random.get_state(); a = gp.random.rand(); gp.random.set_state(st)
        """
        if not isinstance(state, dict):
            raise ValueError("set_state can only be used with a gnumpy bit generator's state "
                             "dict")
        self._gen.bit_generator.state = state

    # ------------------------------------------------------------------ uniform
    def random_sample(self, size=None):
        """Uniform floats in [0, 1).

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.RandomState(0).random_sample(3).shape
        (3,)
        """
        return self._gen.random(size)

    random = random_sample

    def rand(self, *args):
        """Uniform floats in [0, 1) of shape `args` (NumPy's scalar without arguments).

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.rand(2, 3).shape
        (2, 3)
        """
        return self._gen.random(_dims(args) if args else None)

    def randn(self, *args):
        """Standard normal floats of shape `args`.

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.randn(4).dtype
        dtype('float64')
        """
        return self._gen.standard_normal(_dims(args) if args else None)

    def randint(self, low, high=None, size=None, dtype=int):
        """Uniform integers in [low, high) (or [0, low) when `high` is None).

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.randint(5, size=3).dtype
        dtype('int64')
        """
        return _integers(self._gen.bit_generator, low, high, size, dtype, False,
                         fname="randint")

    def random_integers(self, low, high=None, size=None):
        """Uniform integers in [low, high] ([1, low] without `high`; deprecated, as in
        NumPy).

        Examples
        --------
        >>> import gnumpy as gp
        >>> x = gp.random.random_integers(1, 6, size=3)  # doctest: +SKIP
        """
        if high is None:
            low, high = 1, low
        warnings.warn(f"This function is deprecated. Please call randint({low}, {high} + 1) "
                      f"instead", DeprecationWarning, stacklevel=2)
        return _integers(self._gen.bit_generator, low, high, size, np.int64, True,
                         fname="random_integers")

    def tomaxint(self, size=None):
        """Uniform integers in [0, 2**63 - 1].

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.RandomState(0).tomaxint(2).shape
        (2,)
        """
        return _integers(self._gen.bit_generator, 0, 2 ** 63 - 1, size, np.int64, True)

    def uniform(self, low=0.0, high=1.0, size=None):
        """Uniform floats in [low, high) (`high` < `low` allowed, as in NumPy's legacy).

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.uniform(-1, 1, size=2).shape
        (2,)
        """
        p = Params(size, [low, high])
        p.check(lambda lo, hi: notfinite(hi - lo), OverflowError, "Range exceeds valid bounds")
        lo, hi = p.ops
        return lo + (hi - lo) * self._gen._unit(p)

    def bytes(self, length):
        """`length` random bytes (a host ``bytes`` object).

        Examples
        --------
        >>> import gnumpy as gp
        >>> len(gp.random.bytes(4))
        4
        """
        return self._gen.bytes(length)

    # ------------------------------------------------------------------ other draws
    def standard_normal(self, size=None):
        """Standard normal floats.

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.standard_normal((2, 2)).shape
        (2, 2)
        """
        return self._gen.standard_normal(size)

    def normal(self, loc=0.0, scale=1.0, size=None):
        """Normal floats with mean `loc` and standard deviation `scale`.

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.normal(5.0, 0.1, size=3).shape
        (3,)
        """
        return self._gen.normal(loc, scale, size)

    def standard_exponential(self, size=None):
        """Standard exponential floats.

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.standard_exponential(3).shape
        (3,)
        """
        return self._gen.standard_exponential(size)

    def exponential(self, scale=1.0, size=None):
        """Exponential floats with mean `scale`.

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.exponential(2.0, size=3).shape
        (3,)
        """
        return self._gen.exponential(scale, size)

    def choice(self, a, size=None, replace=True, p=None):
        """A random sample from `a` (an int n means ``arange(n)``).

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.choice(5, 3, replace=False).shape
        (3,)
        """
        return self._gen.choice(a, size, replace, p)

    def permutation(self, x):
        """A randomly permuted copy of `x` (or of ``arange(x)``).

        Examples
        --------
        >>> import gnumpy as gp
        >>> sorted(gp.random.permutation(3).tolist())
        [0, 1, 2]
        """
        return self._gen.permutation(x)

    def shuffle(self, x):
        """Shuffle `x` in place along its first axis.

        Examples
        --------
        >>> import gnumpy as gp
        >>> x = gp.arange(4); gp.random.shuffle(x)
        """
        return S.shuffle(self._gen, x, 0)


def _forward(name):
    def method(self, *args, **kwargs):
        return getattr(self._gen, name)(*args, **kwargs)
    method.__name__ = name
    method.__doc__ = getattr(Generator, name).__doc__
    return method


_FORWARDED = ("gumbel", "laplace", "logistic", "lognormal", "rayleigh", "standard_cauchy",
              "pareto", "power", "weibull", "triangular", "geometric", "wald", "beta",
              "binomial", "chisquare", "dirichlet", "f", "gamma", "hypergeometric",
              "logseries", "multinomial", "multivariate_normal", "negative_binomial",
              "noncentral_chisquare", "noncentral_f", "poisson", "standard_gamma",
              "standard_t", "vonmises", "zipf")
for _n in _FORWARDED:
    setattr(RandomState, _n, _forward(_n))
del _n

# ---- the module-level functions, bound to one global RandomState
_global = RandomState()

MODULE_FUNCTIONS = (
    "seed", "get_state", "set_state", "rand", "randn", "randint", "random_integers",
    "random_sample", "random", "uniform", "normal", "standard_normal", "exponential",
    "standard_exponential", "choice", "permutation", "shuffle", "bytes") + _FORWARDED


def _module_function(name):
    def f(*args, **kwargs):
        return getattr(_global, name)(*args, **kwargs)
    f.__name__ = name
    f.__doc__ = getattr(RandomState, name).__doc__
    return f


def get_bit_generator():
    """The bit generator behind the module-level functions."""
    return _global._gen.bit_generator


def set_bit_generator(bitgen):
    """Make the module-level functions draw from `bitgen` (a gnumpy ``PCG64`` or
    ``Philox``)."""
    if not isinstance(bitgen, BitGenerator):
        raise TypeError("set_bit_generator takes a gnumpy.random bit generator (PCG64, "
                        "Philox)")
    _global._gen = Generator(bitgen)
