"""The bit generator: Philox4x32-10 state (a 64-bit key and a 128-bit counter) and the
``random_bits`` barrier nodes that draw from it.

Every draw takes the next ``k`` counter values (128-bit blocks) and advances the counter by
``k``, so consecutive draws never overlap and one seed gives one stream on every backend.
The bits are computed on the device (``gnumpy/backends/random_ops.py``).  ``draw`` is a
whole draw (bits and transform, ``_transforms.draw_plan``): one lazy ``random_draw``
barrier, computed chunk by chunk on the CPU backend (``_host.draw``) and in one kernel on
CUDA; both give the values of the lazy graph (``random_bits`` and the transform's
elementwise ops), which ``FUSED = False`` builds instead.

# Note: seeds go through NumPy's ``SeedSequence`` (same accepted values and errors), but the
# stream is Philox4x32-10's, not that of NumPy's ``PCG64``/``MT19937`` (nor of NumPy's
# ``Philox``, which is Philox4x64-10).
"""
from __future__ import annotations

import operator

import numpy as np

from .._api._common import wrap
from .._device import as_device
from .._graph import ir
from .._graph import layout as L
from . import _transforms as T
from ._bitgen import BitGenerator, as_seed_sequence

MASK64 = (1 << 64) - 1
MASK128 = (1 << 128) - 1
NAME = "Philox4x32"
OP = "random_bits"
DRAW_OP = "random_draw"
FUSED = True            # draws as one fused barrier (False: random_bits and elementwise ops)


def _blocks(dtype, size: int) -> int:
    return -(-(size * (np.dtype(dtype).itemsize // 4)) // 4)


class Philox(BitGenerator):
    """The Philox4x32-10 counter-based bit generator (Salmon et al., SC'11).

    Parameters
    ----------
    seed : None, int, sequence of int or SeedSequence, optional
        Entropy for the key and the high half of the counter (fresh OS entropy when None).
    counter : int, optional
        The 128-bit start counter (overrides the seeded one).
    key : int, optional
        The 64-bit key; cannot be used together with `seed`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> bg = gp.random.Philox(key=0, counter=0)
    >>> hex(int(bg.random_raw(2, dtype=gp.uint32)[0]))        # Random123 known answer
    '0x6627e8d5'
    """

    def __init__(self, seed=None, *, counter=None, key=None):
        if key is not None:
            if seed is not None:
                raise ValueError("seed and key cannot be both used")
            self._seed_seq = None
            self._key = self._int(key, 64, "key")
            self._counter = 0
        else:
            ss = as_seed_sequence(seed)
            w = [int(v) for v in ss.generate_state(4, np.uint32)]
            self._seed_seq = ss
            self._key = w[0] | (w[1] << 32)
            self._counter = (w[2] | (w[3] << 32)) << 64
        if counter is not None:
            self._counter = self._int(counter, 128, "counter")

    @staticmethod
    def _int(v, bits, name) -> int:
        v = operator.index(v)
        if not 0 <= v < (1 << bits):
            raise ValueError(f"{name} must be an integer in [0, 2**{bits})")
        return v

    # ------------------------------------------------------------------ state
    @property
    def state(self) -> dict:
        """``{'bit_generator': 'Philox4x32', 'state': {'key': int, 'counter': int}}``."""
        return {"bit_generator": NAME, "state": {"key": self._key, "counter": self._counter}}

    @state.setter
    def state(self, value) -> None:
        if not isinstance(value, dict) or value.get("bit_generator") != NAME:
            raise ValueError(f"state must be a dict for a {NAME} bit generator")
        st = value["state"]
        self._key = self._int(st["key"], 64, "key")
        self._counter = self._int(st["counter"], 128, "counter")

    def advance(self, delta):
        """Advance the counter by `delta` 128-bit blocks (mod 2**128); returns self."""
        self._counter = (self._counter + operator.index(delta)) & MASK128
        return self

    def jumped(self, jumps=1):
        """A copy advanced by ``jumps * 2**64`` blocks (a far-away, non-overlapping stream)."""
        c = Philox(key=self._key, counter=(self._counter + (operator.index(jumps) << 64))
                   & MASK128)
        c._seed_seq = self._seed_seq
        return c

    def __repr__(self) -> str:
        return f"Philox(key={self._key:#x}, counter={self._counter:#x})"

    # ------------------------------------------------------------------ drawing bits
    def bits(self, shape, dtype=np.uint64, device=None):
        """A lazy gnumpy array of `shape` of uniformly random `dtype` (uint32/uint64) bits,
        taken from the next counter values (the counter advances past them)."""
        dt = np.dtype(dtype)
        if dt not in (np.dtype(np.uint32), np.dtype(np.uint64)):
            raise TypeError(f"random bits are uint32 or uint64, not {dt}")
        shape = tuple(shape)
        n = L.prod(shape)
        node = ir.Node(ir.BARRIER, OP, dt, shape, (), (self._key, self._counter, shape),
                       as_device(device), 1)
        self.advance(_blocks(dt, n))
        return wrap(node)

    def draw(self, kind, shape, dtype, device=None, args=()):
        """A lazy draw of `kind` (``_transforms.draw_plan(kind, dtype, args)``) of `shape`,
        taking the same bits from the stream on every backend (the counter advances past
        them).

        Examples
        --------
        >>> import gnumpy as gp
        >>> bg = gp.random.Philox(key=0, counter=0)
        >>> bg.draw("standard_normal", (3,), gp.float64).shape, bg.state["state"]["counter"]
        ((3,), 3)
        """
        plan = T.draw_plan(kind, dtype, args)
        shape = tuple(shape)
        dev = as_device(device)
        if not FUSED:
            bshape = ((plan.parts,) if plan.parts > 1 else ()) + shape
            return plan.fn(self.bits(bshape, plan.bits_dtype, dev))
        args = tuple(args)
        node = ir.Node(ir.BARRIER, DRAW_OP, plan.dtype, shape, (),
                       (self._key, self._counter, kind, shape, np.dtype(dtype), args,
                        T.draw_program(kind, dtype, args, dev)), dev, 1)
        self.advance(_blocks(plan.bits_dtype, plan.parts * L.prod(shape)))
        return wrap(node)
