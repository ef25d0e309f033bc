"""The ``random_bits`` barrier op: Philox4x32-10 random bits on both backends.

``random_bits`` has no sources; its argument is ``(key, counter, shape)``: a 64-bit key
(``k0`` = low 32 bits, ``k1`` = high 32 bits), a 128-bit start counter and the output
shape.  The output (``uint32`` or ``uint64``, C order) is the Philox word stream described
in ``gnumpy/kernels/render_random.py``: word ``w`` is word ``w % 4`` of the block
``philox(counter + w // 4, key)``; a ``uint64`` element is two consecutive words, low
first.  The NumPy implementation here (the CPU backend) computes exactly the bits of the
CUDA kernel, so one seed gives one stream on every backend.
"""
from __future__ import annotations

import sys

import numpy as np

from .._graph import layout as L
from ..kernels import render_random as RR
from . import barriers

OP = "random_bits"
MASK32 = 0xFFFFFFFF
MASK64 = (1 << 64) - 1


def words_needed(dtype, size: int) -> int:
    """Number of 32-bit Philox words an output of `size` elements of `dtype` uses."""
    return size * (np.dtype(dtype).itemsize // 4)


def blocks_needed(dtype, size: int) -> int:
    """Number of 128-bit Philox blocks (counter values) such an output uses."""
    return -(-words_needed(dtype, size) // 4)


def philox_words(key: int, counter: int, nwords: int) -> np.ndarray:
    """The first `nwords` uint32 words of the Philox4x32-10 stream (vectorized NumPy).

    Examples
    --------
    >>> hex(int(philox_words(0, 0, 4)[0]))      # Random123 known-answer vector
    '0x6627e8d5'
    """
    nblocks = -(-nwords // 4)
    b = np.arange(nblocks, dtype=np.uint64)
    with np.errstate(over="ignore"):
        lo = b + np.uint64(counter & MASK64)                      # wraps mod 2**64
        hi = (lo < b).astype(np.uint64) + np.uint64((counter >> 64) & MASK64)
    c = [(lo & np.uint64(MASK32)).astype(np.uint32), (lo >> np.uint64(32)).astype(np.uint32),
         (hi & np.uint64(MASK32)).astype(np.uint32), (hi >> np.uint64(32)).astype(np.uint32)]
    k0, k1 = key & MASK32, (key >> 32) & MASK32
    m0, m1 = np.uint64(RR.M0), np.uint64(RR.M1)
    s32 = np.uint64(32)
    for r in range(RR.ROUNDS):
        if r:
            k0, k1 = (k0 + RR.W0) & MASK32, (k1 + RR.W1) & MASK32
        p0 = c[0].astype(np.uint64) * m0
        p1 = c[2].astype(np.uint64) * m1
        hi0, lo0 = (p0 >> s32).astype(np.uint32), p0.astype(np.uint32)
        hi1, lo1 = (p1 >> s32).astype(np.uint32), p1.astype(np.uint32)
        c = [hi1 ^ c[1] ^ np.uint32(k0), lo1, hi0 ^ c[3] ^ np.uint32(k1), lo0]
    return np.stack(c, axis=1).reshape(-1)[:nwords]


def _cpu(srcs, arg, dtype) -> np.ndarray:
    key, counter, shape = arg
    n = L.prod(shape)
    words = philox_words(key, counter, words_needed(dtype, n))
    if dtype.itemsize == 8:
        if sys.byteorder != "little":           # the stream is defined little-endian
            words = words.reshape(-1, 2)[:, ::-1].copy()
        words = words.view(np.uint64)
    return words.reshape(shape)


def _kernels(node):
    return [(("random_bits", "philox4x32", RR.ROUNDS, RR.BLOCK),
             lambda name: RR.philox_source(name, RR.BLOCK))]


def _cuda(backend, node, buf) -> None:
    key, counter, shape = node.arg
    nwords = words_needed(node.dtype, L.prod(shape))
    if nwords == 0:
        return
    (kkey, render), = _kernels(node)
    k = backend._misc_kernel(kkey, render)
    nblocks = -(-nwords // 4)
    grid = max(1, min(-(-nblocks // RR.BLOCK), backend.sm_count * 16))
    args = [buf.ptr, np.uint64(nwords), np.uint64(counter & MASK64),
            np.uint64((counter >> 64) & MASK64), np.uint32(key & MASK32),
            np.uint32((key >> 32) & MASK32)]
    backend._go(k, grid, RR.BLOCK, args)


barriers.register(OP, cpu=_cpu, cuda=_cuda, kernels=_kernels)
