"""What gnumpy's bit generators share: seeding through NumPy's ``SeedSequence`` and the
``BitGenerator`` base class (``PCG64``, NumPy's default, and ``Philox``)."""
from __future__ import annotations

import numpy as np

from ._args import shape_of


def as_seed_sequence(seed):
    """`seed` (None, int, sequence of ints, SeedSequence, a NumPy BitGenerator/Generator)
    -> a NumPy ``SeedSequence`` (NumPy's errors for bad seeds)."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        seed = seed.bit_generator
    if isinstance(seed, np.random.BitGenerator):
        # Note: NumPy's bit generators seed gnumpy's through their SeedSequence
        ss = seed.seed_seq
        if not isinstance(ss, np.random.SeedSequence):
            raise TypeError(f"{type(seed).__name__} has no SeedSequence to seed gnumpy from")
        return ss
    return np.random.SeedSequence(seed)


class BitGenerator:
    """The base of gnumpy's bit generators.  A subclass draws lazily on the device:
    ``bits(shape, dtype, device)`` (raw uint32/uint64 bits) and ``draw(kind, shape, dtype,
    device, args)`` (a whole draw of ``_transforms.draw_plan``), each advancing the state
    past the bits it takes."""

    _seed_seq = None

    @property
    def seed_seq(self):
        """The SeedSequence this generator was seeded from (None when it has none)."""
        return self._seed_seq

    def spawn(self, n_children):
        """`n_children` independent bit generators seeded from ``seed_seq.spawn``."""
        if self._seed_seq is None:
            raise TypeError("spawn requires a bit generator seeded from a SeedSequence")
        return [type(self)(ss) for ss in self._seed_seq.spawn(n_children)]

    def random_raw(self, size=None, dtype=np.uint64):
        """Raw random bits as a gnumpy array (a 0-d array when `size` is None).

        # Note: NumPy returns a Python int for ``size=None`` and has no ``dtype``; here
        # ``dtype=uint32`` gives 32-bit words of the stream.
        """
        shape = shape_of(size)
        return self.bits(() if shape is None else shape, dtype)
