"""The CPU backend's random numbers: Philox4x32-10 words in vectorized NumPy, and fused
draws (bits and transform computed chunk by chunk while they sit in the cache).

``philox_into`` writes the word stream of ``gnumpy/kernels/render_random.py`` (word ``w``
is word ``w % 4`` of ``philox(counter + w // 4, key)``) into a ``(nblocks, 4)`` uint32
array, the same bits as the CUDA kernel.  The blocks are cut into chunks of ``CHUNK``
blocks that never cross a multiple of ``2**32`` in the counter, so inside a chunk only the
lowest counter word varies: counter words 1 to 3 are Python ints, and so is every state
word computed from them alone in the first rounds.  The rounds run in place on five
``uint64`` scratch arrays holding 32-bit values (``hi``/``lo`` are a shift and a mask).

``draw`` computes a whole draw (``_transforms.DRAWS``) on the CPU: for each chunk of
outputs, the Philox words of its bits and then the shared transform code applied to NumPy
arrays, so each value is exactly what the lazy graph (``random_bits`` and elementwise ops)
gives on the CPU backend.

``pcg_draw`` is the CPU backend's PCG64 draw (``_pcg_host``): this module is the
backend's one entry to the random package.

Everything runs in the calling thread: NumPy releases the GIL in its loops, but these
loops are short (tens of microseconds), and a second thread spends its gain waiting for
the GIL (docs/perf-notes.md has the measurement).
"""
from __future__ import annotations

import sys
import threading

import numpy as np

from ..kernels import render_random as RR
from . import _transforms as T
from ._pcg_host import draw as pcg_draw  # noqa: F401  (the backend's PCG64 draws)

M32 = 0xFFFFFFFF
M128 = (1 << 128) - 1
CHUNK = 1 << 15             # blocks per chunk: five 256 KiB scratch arrays
DRAW_CHUNK = 1 << 16        # output elements per chunk of a fused draw (its bits at once)
FN_CHUNK = 1 << 13          # outputs per transform step: its temporaries (64 KiB) stay
                            # in the cache
SPARE = 4                   # scratch sets kept for later calls (one per concurrent caller)
_U32, _U64 = np.dtype(np.uint32), np.dtype(np.uint64)
_MASK, _SHIFT = np.uint64(M32), np.uint64(32)
_LITTLE = sys.byteorder == "little"


def key_schedule(key: int) -> list:
    """The ten round keys ``(k0, k1)`` of a 64-bit key (Weyl increments)."""
    k0, k1 = key & M32, (key >> 32) & M32
    out = []
    for r in range(RR.ROUNDS):
        if r:
            k0, k1 = (k0 + RR.W0) & M32, (k1 + RR.W1) & M32
        out.append((k0, k1))
    return out


class _Scratch:
    """Five uint64 arrays of CHUNK elements, a 0, 1, 2, ... ramp and the word buffers of a
    fused draw: one set per concurrent call, kept for later calls (fresh memory costs a
    page fault per 4 KiB on first touch, about as much as the arithmetic on it)."""

    def __init__(self):
        self.chunk = CHUNK
        self.bufs = [np.empty(CHUNK, _U64) for _ in range(5)]
        self.ramp = np.arange(CHUNK, dtype=_U64)
        self.words = []

    def word_bufs(self, parts: int, nblocks: int) -> list:
        """`parts` uint32 arrays of (nblocks, 4)."""
        if len(self.words) < parts or self.words[0].shape[0] < nblocks:
            self.words = [np.empty((nblocks, 4), _U32) for _ in range(max(2, parts))]
        return self.words[:parts]


_spare: list = []              # scratch sets not in use, kept for the next call
_spare_lock = threading.Lock()


def _take() -> _Scratch:
    with _spare_lock:
        while _spare:
            s = _spare.pop()
            if s.chunk == CHUNK:
                return s
    return _Scratch()


def _give(s: _Scratch) -> None:
    with _spare_lock:
        if len(_spare) < SPARE:
            _spare.append(s)


def _mul(c, m: int):
    if type(c) is int:
        return c * m
    np.multiply(c, np.uint64(m), out=c)
    return c


def _lo(p):
    if type(p) is int:
        return p & M32
    np.bitwise_and(p, _MASK, out=p)
    return p


def _hixor(p, c, k: int, free: list):
    """``hi(p) ^ c ^ k`` (the new word 0 or 2); consumes `c` when it is an array, takes a
    scratch array from `free` when it needs one."""
    if type(p) is int:
        if type(c) is int:
            return (p >> 32) ^ c ^ k
        np.bitwise_xor(c, np.uint64((p >> 32) ^ k), out=c)
        return c
    t = free.pop()[:p.shape[0]]
    np.right_shift(p, _SHIFT, out=t)
    if type(c) is int:
        np.bitwise_xor(t, np.uint64(c ^ k), out=t)
        return t
    np.bitwise_xor(c, t, out=c)
    np.bitwise_xor(c, np.uint64(k), out=c)
    free.append(t.base)
    return c


def _chunk(out4, ctr: int, keys, s: _Scratch) -> None:
    """Blocks ``ctr, ctr + 1, ...`` into `out4` ((m, 4) uint32, m <= CHUNK); the low 32
    bits of the counter must not wrap inside the chunk."""
    m = out4.shape[0]
    free = list(s.bufs)
    c0 = free.pop()[:m]
    np.add(s.ramp[:m], np.uint64(ctr & M32), out=c0)
    c1, c2, c3 = (ctr >> 32) & M32, (ctr >> 64) & M32, (ctr >> 96) & M32
    last = len(keys) - 1
    for r, (k0, k1) in enumerate(keys):
        p0 = _mul(c0, RR.M0)
        p1 = _mul(c2, RR.M1)
        n0 = _hixor(p1, c1, k0, free)
        n2 = _hixor(p0, c3, k1, free)
        if r < last:                    # the last round's store truncates to 32 bits
            p1, p0 = _lo(p1), _lo(p0)
        c0, c1, c2, c3 = n0, p1, n2, p0
    for j, c in enumerate((c0, c1, c2, c3)):
        out4[:, j] = (c & M32) if type(c) is int else c


def _blocks(out4, counter: int, keys, s: _Scratch, start: int = 0) -> None:
    """Blocks ``counter + start, ...`` into `out4`, chunk by chunk."""
    nb = out4.shape[0]
    b = 0
    while b < nb:
        ctr = (counter + start + b) & M128
        m = min(nb - b, CHUNK, (1 << 32) - (ctr & M32))
        _chunk(out4[b:b + m], ctr, keys, s)
        b += m


def philox_into(out4: np.ndarray, key: int, counter: int) -> None:
    """Fill `out4` ((nblocks, 4) uint32, rows contiguous) with the Philox4x32-10 blocks of
    `key` at counters ``counter, counter + 1, ...`` (mod 2**128)."""
    s = _take()
    _blocks(out4, counter, key_schedule(key), s)
    _give(s)


def philox_words(key: int, counter: int, nwords: int) -> np.ndarray:
    """The first `nwords` uint32 words of the Philox4x32-10 stream.

    Examples
    --------
    >>> hex(int(philox_words(0, 0, 4)[0]))      # Random123 known-answer vector
    '0x6627e8d5'
    """
    out = np.empty((-(-nwords // 4), 4), _U32)
    philox_into(out, key, counter)
    return out.reshape(-1)[:nwords]


def bits(key: int, counter: int, shape, dtype) -> np.ndarray:
    """The ``random_bits`` barrier on the CPU: `shape` uint32/uint64 elements, C order."""
    dt = np.dtype(dtype)
    out = np.empty(shape, dt)
    if not _LITTLE and dt.itemsize == 8:
        out[...] = _as_u64(philox_words(key, counter, out.size * 2)).reshape(shape)
        return out
    words = out.reshape(-1).view(_U32)          # the stream is little-endian
    nb = words.size // 4
    philox_into(words[:4 * nb].reshape(nb, 4), key, counter)
    if words.size > 4 * nb:
        words[4 * nb:] = philox_words(key, (counter + nb) & M128, words.size - 4 * nb)
    return out


def _as_u64(words):
    """Consecutive word pairs as uint64, low word first (the stream is little-endian)."""
    if not _LITTLE:
        words = words.reshape(-1, 2)[:, ::-1].copy()
    return words.view(np.uint64)


def _word_range(counter: int, w0: int, w1: int, keys, s: _Scratch, buf) -> np.ndarray:
    """Words [w0, w1) of the stream, computed from the enclosing whole blocks into `buf`."""
    b0 = w0 // 4
    blocks = buf[:-(-w1 // 4) - b0]
    _blocks(blocks, counter, keys, s, b0)
    return blocks.reshape(-1)[w0 - 4 * b0:w1 - 4 * b0]


def draw(key: int, counter: int, kind: str, shape, dtype, args) -> np.ndarray:
    """The fused CPU draw ``T.DRAWS[kind]`` of `shape` (see ``Philox.draw``)."""
    plan = T.draw_plan(kind, dtype, args)
    n = 1
    for d in shape:
        n *= d
    res = np.empty(shape, plan.dtype)
    if n == 0:
        return res
    out = res.reshape(-1)
    keys = key_schedule(key)
    wpe = plan.bits_dtype.itemsize // 4             # words per bits element
    s = _take()
    bufs = s.word_bufs(plan.parts, DRAW_CHUNK * wpe // 4 + 2)
    with np.errstate(all="ignore"):
        for i in range(0, n, DRAW_CHUNK):
            j = min(n, i + DRAW_CHUNK)
            parts = []
            for k in range(plan.parts):
                w = _word_range(counter, (k * n + i) * wpe, (k * n + j) * wpe, keys, s,
                                bufs[k])
                parts.append(_as_u64(w) if wpe == 2 else w)
            for a in range(i, j, FN_CHUNK):
                b = min(j, a + FN_CHUNK)
                sub = [x[a - i:b - i] for x in parts]
                out[a:b] = plan.fn(sub if plan.parts > 1 else sub[0])
    _give(s)
    return res
