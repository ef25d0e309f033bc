"""PCG64, NumPy's default bit generator, drawing on the device.

The state, seeding and stream are ``numpy.random.PCG64``'s (O'Neill's PCG XSL RR 128/64: a
128-bit LCG whose output is the xor of its halves rotated), and so is the buffered 32-bit
half of NumPy's ``next_uint32``: a 64-bit draw takes the next words, a 32-bit draw takes
the buffered half first and then each word's low half, then its high half, leaving the
last high half buffered.  So ``random`` (and ``uniform``) draws give NumPy's numbers for
the same seed and state, and so do ``integers`` in ranges up to ``2**32`` (NumPy's Lemire
method on the same 32-bit words) until a word is rejected (rarely: ``r`` in ``2**32``
words for a range ``r``), where a side stream takes over (``render_random.lemire_fns``).
Normals take NumPy's ziggurat on one word each, with the same side stream for the rare
rest (``render_ziggurat``); other draws take other transforms of the words
(``_transforms``).  Every draw leaves the state where its words end.

The host state is four Python ints (NumPy's state dict's values; a draw advances it by
Brown's jump-ahead, its coefficients cached by length); a draw is one lazy ``pcg64_draw``
barrier holding the state it starts at.  The CPU backend draws with NumPy's
own generator (``_pcg_host``), the CUDA kernel jumps each thread's LCG to its words
(``render_random.pcg_fns``).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from .._api._common import wrap
from .._device import as_device
from .._graph import ir
from .._graph import layout as L
from ..kernels import render_random as RR
from . import _transforms as T
from ._bitgen import BitGenerator, as_seed_sequence

NAME = "PCG64"
DRAW_OP = "pcg64_draw"
MASK32 = 0xFFFFFFFF
MASK64 = (1 << 64) - 1
MASK128 = (1 << 128) - 1
MULT = RR.PCG_MULT      # the LCG's multiplier (NumPy's PCG64)
_U32, _U64 = np.dtype(np.uint32), np.dtype(np.uint64)


def output(s: int) -> int:
    """PCG64's XSL-RR output of 128-bit state `s`."""
    hi, lo = s >> 64, s & MASK64
    x, r = hi ^ lo, hi >> 58
    return ((x >> r) | (x << ((64 - r) & 63))) & MASK64


@lru_cache(maxsize=256)
def _coef(inc: int, d: int) -> tuple:
    """(a, c): `d` steps of the LCG of increment `inc` are ``s -> a s + c`` (mod 2**128;
    Brown's jump-ahead, as PCG's ``pcg_advance_lcg_128``)."""
    m, p, am, ac = MULT, inc, 1, 0
    while d:
        if d & 1:
            am, ac = am * m & MASK128, (ac * m + p) & MASK128
        p, m = (m + 1) * p & MASK128, m * m & MASK128
        d >>= 1
    return am, ac


def jump(s: int, inc: int, d: int) -> int:
    """The LCG state `d` steps after `s`."""
    a, c = _coef(inc, d)
    return (a * s + c) & MASK128


def consumed(h: int, n32: int) -> tuple:
    """(64-bit words, new has_uint32) of `n32` 32-bit draws from a state whose buffered
    half flag is `h` (the buffered half first)."""
    if n32 == 0:
        return 0, h
    m = n32 - h
    return (m + 1) // 2, m & 1


class PCG64(BitGenerator):
    """NumPy's ``PCG64`` bit generator, drawing on the device.

    Parameters
    ----------
    seed : None, int, sequence of int, SeedSequence, or a NumPy BitGenerator, optional
        Seeded as NumPy's ``PCG64(seed)`` (fresh OS entropy when None); a NumPy ``PCG64``
        gives its own state.

    Examples
    --------
    >>> import numpy
    >>> import gnumpy as gp
    >>> a = gp.random.Generator(gp.random.PCG64(7)).random(3)
    >>> b = numpy.random.Generator(numpy.random.PCG64(7)).random(3)
    >>> bool((a.get() == b).all())
    True
    """

    def __init__(self, seed=None):
        if isinstance(seed, np.random.Generator):
            seed = seed.bit_generator
        if isinstance(seed, np.random.PCG64):
            ss = seed.seed_seq
            self._seed_seq = ss if isinstance(ss, np.random.SeedSequence) else None
            self._set(seed.state)
            return
        ss = as_seed_sequence(seed)
        self._seed_seq = ss
        self._set(np.random.PCG64(ss).state)

    def _set(self, st: dict) -> None:
        """Take NumPy's state dict (checked by NumPy: its errors for a bad one)."""
        bg = np.random.PCG64(0)
        bg.state = st
        st = bg.state
        self._s, self._inc = st["state"]["state"], st["state"]["inc"]
        self._h, self._u = st["has_uint32"], st["uinteger"]

    # ------------------------------------------------------------------ state
    @property
    def state(self) -> dict:
        """NumPy's PCG64 state dict: ``{'bit_generator': 'PCG64', 'state': {'state': int,
        'inc': int}, 'has_uint32': int, 'uinteger': int}``."""
        return {"bit_generator": NAME, "state": {"state": self._s, "inc": self._inc},
                "has_uint32": self._h, "uinteger": self._u}

    @state.setter
    def state(self, value) -> None:
        if not isinstance(value, dict):
            raise TypeError("state must be a dict")
        if value.get("bit_generator") != NAME:
            raise ValueError(f"state must be for a {NAME} PRNG")
        self._set(value)

    def advance(self, delta):
        """Advance the state as if `delta` 64-bit words had been drawn (NumPy's
        ``PCG64.advance``: the buffered 32-bit half is dropped); returns self."""
        bg = np.random.PCG64(0)
        bg.state = self.state
        bg.advance(delta)
        self._set(bg.state)
        return self

    def jumped(self, jumps=1):
        """A copy advanced by ``jumps`` times NumPy's PCG64 jump (a far-away stream)."""
        bg = np.random.PCG64(0)
        bg.state = self.state
        c = PCG64.__new__(PCG64)
        c._seed_seq = self._seed_seq
        c._set(bg.jumped(jumps).state)
        return c

    def __repr__(self) -> str:
        return "PCG64"

    # ------------------------------------------------------------------ drawing bits
    def _take(self, words: int, n32: int | None = None) -> tuple:
        """(state, inc, has_uint32, uinteger) a draw starts at; the state moves past its
        `words` 64-bit words (the buffered half stays), or past its `n32` 32-bit words
        (through the buffered half, as NumPy's ``next_uint32``)."""
        h0 = 1 if self._h else 0        # (NumPy's flag: any nonzero value buffers a half)
        st = (self._s, self._inc, h0, self._u)
        if n32 is not None:
            words, h = consumed(h0, n32)
            if n32:
                self._h = h
                if words:       # (as NumPy: the last word's high half, also once taken
                    # again; a buffered half only taken leaves it in place)
                    self._s = jump(self._s, self._inc, words)
                    self._u = output(self._s) >> 32
            return st
        if words:
            self._s = jump(self._s, self._inc, words)
        return st

    def bits(self, shape, dtype=np.uint64, device=None):
        """A lazy gnumpy array of `shape` of uniformly random `dtype` (uint32/uint64) bits:
        NumPy's ``random_raw`` words, or its buffered 32-bit halves."""
        dt = np.dtype(dtype)
        if dt not in (_U32, _U64):
            raise TypeError(f"random bits are uint32 or uint64, not {dt}")
        return self.draw("raw", tuple(shape), dt, device)

    def draw(self, kind, shape, dtype, device=None, args=()):
        """A lazy draw of `kind` (``_transforms.draw_plan(kind, dtype, args)``) of `shape`,
        taking the same words on every backend (the state moves past them).

        Examples
        --------
        >>> import gnumpy as gp
        >>> bg = gp.random.PCG64(0)
        >>> bg.draw("random", (3,), gp.float64).shape
        (3,)
        """
        if kind == "standard_normal":
            kind = "zig_normal"         # (one word a normal: the ziggurat)
        elif kind == "integers" and args[0] <= 1 << 32:
            kind = "lemire_integers"    # (one 32-bit word an integer, NumPy's method)
        plan = T.draw_plan(kind, dtype, args)
        shape = tuple(shape)
        dev = as_device(device)
        n = plan.parts * L.prod(shape)
        st = self._take(n) if plan.bits_dtype == _U64 else self._take(0, n)
        args = tuple(args)
        node = ir.Node(ir.BARRIER, DRAW_OP, plan.dtype, shape, (),
                       st + (kind, shape, np.dtype(dtype), args,
                             T.draw_program(kind, dtype, args, dev, "pcg64")), dev, 1)
        return wrap(node)
