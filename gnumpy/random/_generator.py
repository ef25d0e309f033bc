"""``Generator`` and ``default_rng``: NumPy's modern random API over a gnumpy bit generator
(``PCG64``, NumPy's default, or ``Philox``), drawing on the device.

# Note: where NumPy returns a Python/NumPy scalar (``size=None`` with scalar parameters),
# gnumpy returns a 0-d gnumpy array that acts as NumPy's scalar (``ndarray._sc``; no
# device-to-host sync); ``float(x)``/``int(x)`` work.
# Note: ``random`` and ``uniform`` give NumPy's numbers for the same seed (PCG64's words,
# NumPy's transform); the other draws use other transforms (``_transforms``), so their
# numbers, and the state after them, differ from NumPy's.  A fixed seed gives the same
# numbers on every run and on every backend.
"""
from __future__ import annotations

import functools
import inspect

import numpy as np

from . import _continuous, _discrete, _rejection
from . import _distributions as Dist
from . import _sampling as S
from . import _transforms as T
from .._array import ndarray
from ._args import Params, check_out, finish, float_dtype, notfinite, shape_of
from ._integers import integers as _integers
from ._bitgen import BitGenerator
from ._pcg64 import PCG64


_affine = T.affine


def _scalars(*values) -> bool:
    """Whether every value is a Python float (then an affine step folds into the draw)."""
    return all(type(v) is float for v in values)


def _shape_out(size, out, dt):
    shape = shape_of(size)
    if out is not None:
        return check_out(out, shape, dt), out.device
    return (() if shape is None else shape), None


class Generator:
    """Random numbers drawn on the device from a gnumpy bit generator (``PCG64`` or
    ``Philox``).

    Create one with ``default_rng(seed)``.  Methods follow ``numpy.random.Generator``.

    Examples
    --------
    >>> import gnumpy as gp
    >>> rng = gp.random.default_rng(42)
    >>> x = rng.normal(size=(2, 3))
    >>> x.shape, x.dtype
    ((2, 3), dtype('float64'))
    """

    def __init__(self, bit_generator):
        if not isinstance(bit_generator, BitGenerator):
            if isinstance(bit_generator, np.random.BitGenerator):
                bit_generator = PCG64(bit_generator)
            else:
                raise TypeError("Generator takes a gnumpy.random bit generator (PCG64, "
                                f"Philox), not {type(bit_generator).__name__}")
        self._bg = bit_generator

    @property
    def bit_generator(self):
        """The bit generator this generator draws from."""
        return self._bg

    def __repr__(self) -> str:
        return f"Generator({self._bg!r})"

    def spawn(self, n_children):
        """`n_children` independent generators (``SeedSequence.spawn`` of this seed).

        Examples
        --------
        >>> import gnumpy as gp
        >>> a, b = gp.random.default_rng(0).spawn(2)
        """
        return [Generator(bg) for bg in self._bg.spawn(n_children)]

    # ------------------------------------------------------------------ uniform bits
    def random(self, size=None, dtype=np.float64, out=None):
        """Uniform floats in [0, 1).

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.default_rng(0).random(3, dtype=gp.float32).dtype
        dtype('float32')
        """
        dt = float_dtype(dtype, "random")
        shape, dev = _shape_out(size, out, dt)
        return finish(self._bg.draw("random", shape, dt, dev), out)

    def bytes(self, length):
        """`length` random bytes (a host ``bytes`` object, as in NumPy).

        Examples
        --------
        >>> import gnumpy as gp
        >>> len(gp.random.default_rng(0).bytes(5))
        5
        """
        n = int(length)
        if n < 0:
            raise ValueError("negative dimensions are not allowed")
        words = self._bg.bits((-(-n // 4),), np.uint32)
        return words.get().astype("<u4").tobytes()[:n]

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        """Uniform integers in [low, high) ([low, high] when `endpoint`).

        Examples
        --------
        >>> import gnumpy as gp
        >>> x = gp.random.default_rng(0).integers(0, 10, size=5)
        >>> bool((x >= 0).all() and (x < 10).all())
        True
        """
        return _integers(self._bg, low, high, size, dtype, endpoint)

    def uniform(self, low=0.0, high=1.0, size=None):
        """Uniform floats in [low, high).

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.default_rng(0).uniform(-1, 1, size=4).shape
        (4,)
        """
        p = Params(size, [low, high])
        p.check(lambda lo, hi: notfinite(hi - lo), OverflowError,   # (first, as NumPy)
                "high - low range exceeds valid bounds")
        p.check(lambda lo, hi: hi - lo < 0, ValueError, "high - low < 0")
        lo, hi = p.ops
        if _scalars(lo, hi):
            return self._bg.draw("random", p.shape, np.float64, p.device, (lo, hi - lo))
        return _affine(lo, hi - lo, self._bg.draw("random", p.shape, np.float64, p.device))

    # ------------------------------------------------------------------ normal
    def standard_normal(self, size=None, dtype=np.float64, out=None):
        """Standard normal floats (Box-Muller).

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.default_rng(0).standard_normal((2, 2)).shape
        (2, 2)
        """
        dt = float_dtype(dtype, "standard_normal")
        shape, dev = _shape_out(size, out, dt)
        return finish(self._bg.draw("standard_normal", shape, dt, dev), out)

    def normal(self, loc=0.0, scale=1.0, size=None):
        """Normal floats with mean `loc` and standard deviation `scale`.

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.default_rng(0).normal(10, 2, size=3).shape
        (3,)
        """
        p = Params(size, [loc, scale])
        p.check(lambda loc, scale: scale < 0, ValueError, "scale < 0")
        loc, scale = p.ops
        if _scalars(loc, scale):
            return self._bg.draw("standard_normal", p.shape, np.float64, p.device,
                                 (loc, scale))
        return _affine(loc, scale, self._std_normal(p))

    def _std_normal(self, p, dt=np.float64):
        return self._bg.draw("standard_normal", p.shape, dt, p.device)

    def _std_exponential(self, p, dt=np.float64):
        return self._bg.draw("standard_exponential", p.shape, dt, p.device)

    def _unit(self, p, open_low=False):
        return self._bg.draw("random_open_low" if open_low else "random", p.shape,
                             np.float64, p.device)

    # ------------------------------------------------------------------ exponential
    def standard_exponential(self, size=None, dtype=np.float64, method="zig", out=None):
        """Standard exponential floats (inversion).

        # Note: ``method`` is accepted and ignored: both 'zig' and 'inv' use inversion.

        Examples
        --------
        >>> import gnumpy as gp
        >>> float(gp.random.default_rng(0).standard_exponential(1000).min()) >= 0
        True
        """
        dt = float_dtype(dtype, "standard_exponential")
        shape, dev = _shape_out(size, out, dt)
        return finish(self._bg.draw("standard_exponential", shape, dt, dev), out)

    def exponential(self, scale=1.0, size=None):
        """Exponential floats with mean `scale`.

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.default_rng(0).exponential(2.0, size=3).shape
        (3,)
        """
        p = Params(size, [scale])
        p.check(lambda s: s < 0, ValueError, "scale < 0")
        if _scalars(p.ops[0]):
            return self._bg.draw("standard_exponential", p.shape, np.float64, p.device,
                                 (0.0, p.ops[0]))
        return _affine(0.0, p.ops[0], self._std_exponential(p))

    # ------------------------------------------------------------------ sampling
    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """A random sample from `a` (an int n means ``arange(n)``).

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.default_rng(0).choice(10, 3, replace=False).shape
        (3,)
        """
        return S.choice(self, a, size, replace, p, axis, shuffle)

    def permutation(self, x, axis=0):
        """A randomly permuted copy of `x` (an int n means ``arange(n)``).

        Examples
        --------
        >>> import gnumpy as gp
        >>> sorted(gp.random.default_rng(0).permutation(4).tolist())
        [0, 1, 2, 3]
        """
        return S.permutation(self, x, axis)

    def shuffle(self, x, axis=0):
        """Shuffle `x` in place along `axis`.

        Examples
        --------
        >>> import gnumpy as gp
        >>> x = gp.arange(5); gp.random.default_rng(0).shuffle(x)
        """
        return S.shuffle(self, x, axis)

    def permuted(self, x, axis=None, out=None):
        """`x` with every slice along `axis` shuffled independently (all elements when
        `axis` is None).

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.random.default_rng(0).permuted(gp.arange(6).reshape(2, 3), axis=1).shape
        (2, 3)
        """
        return S.permuted(self, x, axis, out)


def _install(cls) -> None:
    """Add the distributions of the modules beside this one to `cls` as methods."""
    for f in Dist.READY + _rejection.READY + _discrete.READY + _continuous.READY:
        setattr(cls, f.__name__, f)
    for name, f in list(vars(cls).items()):
        if callable(f) and not name.startswith("_") and \
                "size" in inspect.signature(f).parameters:
            setattr(cls, name, _scalar_draw(f))
    for name in Dist.MISSING:
        setattr(cls, name, Dist.missing(name))


def _scalar_draw(f):
    """Draw method `f` as NumPy's: with ``size=None`` a 0-d draw is NumPy's scalar (a
    Python number there; ``ndarray._sc``), with ``size=()`` a 0-d array (an ``out=``
    array is returned as it is)."""
    names = list(inspect.signature(f).parameters)
    at, out_at = names.index("size"), names.index("out") if "out" in names else None

    @functools.wraps(f)
    def draw(*args, **kw):
        r = f(*args, **kw)
        if type(r) is ndarray and not r._node.shape and kw.get("out") is None and \
                (out_at is None or len(args) <= out_at or args[out_at] is None):
            r._sc = (kw["size"] if "size" in kw else args[at] if len(args) > at
                     else None) is None
        return r
    return draw


_install(Generator)


def default_rng(seed=None):
    """A ``Generator`` over ``PCG64`` seeded from `seed` as NumPy's ``default_rng`` (None:
    fresh OS entropy; an int, a sequence of ints, a ``SeedSequence``, a bit generator, or
    a Generator, which is returned as it is).

    Examples
    --------
    >>> import gnumpy as gp
    >>> rng = gp.random.default_rng(12345)
    >>> rng.integers(0, 10, size=3).dtype
    dtype('int64')
    """
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, BitGenerator):
        return Generator(seed)
    return Generator(PCG64(seed))

