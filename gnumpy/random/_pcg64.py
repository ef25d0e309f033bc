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

The host state is a NumPy ``PCG64`` (its C ``advance``); a draw is one lazy
``pcg64_draw`` barrier holding the state it starts at.  The CPU backend draws with NumPy's
own generator (``_pcg_host``), the CUDA kernel jumps each thread's LCG to its words
(``render_random.pcg_fns``).
"""
from __future__ import annotations

import numpy as np

from .._api._common import wrap
from .._device import as_device
from .._graph import ir
from .._graph import layout as L
from . import _transforms as T
from ._bitgen import BitGenerator, as_seed_sequence

NAME = "PCG64"
DRAW_OP = "pcg64_draw"
MASK32 = 0xFFFFFFFF
MASK64 = (1 << 64) - 1
MASK128 = (1 << 128) - 1
_U32, _U64 = np.dtype(np.uint32), np.dtype(np.uint64)


def output(s: int) -> int:
    """PCG64's XSL-RR output of 128-bit state `s`."""
    hi, lo = s >> 64, s & MASK64
    x, r = hi ^ lo, hi >> 58
    return ((x >> r) | (x << ((64 - r) & 63))) & MASK64


def consumed(state: dict, n32: int) -> tuple:
    """(64-bit words, new has_uint32) of `n32` 32-bit draws from NumPy state dict `state`
    (the buffered half first)."""
    h = state["has_uint32"]
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
            self._np = np.random.PCG64(0)
            self._np.state = seed.state
            ss = seed.seed_seq
            self._seed_seq = ss if isinstance(ss, np.random.SeedSequence) else None
            return
        ss = as_seed_sequence(seed)
        self._seed_seq = ss
        self._np = np.random.PCG64(ss)

    # ------------------------------------------------------------------ state
    @property
    def state(self) -> dict:
        """NumPy's PCG64 state dict: ``{'bit_generator': 'PCG64', 'state': {'state': int,
        'inc': int}, 'has_uint32': int, 'uinteger': int}``."""
        return self._np.state

    @state.setter
    def state(self, value) -> None:
        if not isinstance(value, dict) or value.get("bit_generator") != NAME:
            raise ValueError(f"state must be a dict for a {NAME} bit generator")
        self._np.state = value

    def advance(self, delta):
        """Advance the state as if `delta` 64-bit words had been drawn (NumPy's
        ``PCG64.advance``: the buffered 32-bit half is dropped); returns self."""
        self._np.advance(delta)
        return self

    def jumped(self, jumps=1):
        """A copy advanced by ``jumps`` times NumPy's PCG64 jump (a far-away stream)."""
        c = PCG64.__new__(PCG64)
        c._np = self._np.jumped(jumps)
        c._seed_seq = self._seed_seq
        return c

    def __repr__(self) -> str:
        return "PCG64"

    # ------------------------------------------------------------------ drawing bits
    def _take(self, words: int, n32: int | None = None) -> dict:
        """The state a draw starts at; the state moves past its `words` 64-bit words, or
        past its `n32` 32-bit words (through the buffered half)."""
        st = self._np.state
        if n32 is None:
            if words:
                self._np.advance(words)         # (NumPy's advance drops the buffer;
                if st["has_uint32"] or st["uinteger"]:      # a 64-bit draw keeps it)
                    new = self._np.state
                    new["has_uint32"], new["uinteger"] = st["has_uint32"], st["uinteger"]
                    self._np.state = new
            return st
        words, h = consumed(st, n32)
        if n32:
            if words:
                self._np.advance(words)
            new = self._np.state
            new["has_uint32"] = h
            # (as NumPy: the last word's high half, also once taken again; a buffered
            # half only taken leaves it in place)
            new["uinteger"] = (output(new["state"]["state"]) >> 32) if words else \
                st["uinteger"]
            self._np.state = new
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
        s = st["state"]
        node = ir.Node(ir.BARRIER, DRAW_OP, plan.dtype, shape, (),
                       (s["state"], s["inc"], st["has_uint32"], st["uinteger"], kind, shape,
                        np.dtype(dtype), args,
                        T.draw_program(kind, dtype, args, dev, "pcg64")), dev, 1)
        return wrap(node)
