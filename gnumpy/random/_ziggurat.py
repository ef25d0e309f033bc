"""The CPU backend's ziggurat normals (``gnumpy/kernels/render_ziggurat.py`` has the method
and the CUDA twin): the fast path on every word in vectorized NumPy, then the rare wedges
and tail on side-stream Philox blocks, all rejected outputs of a chunk together, one
attempt a round.
"""
from __future__ import annotations

import numpy as np

from ..kernels import render_random as RR
from ..kernels import render_ziggurat as Z

_U32, _U64 = np.dtype(np.uint32), np.dtype(np.uint64)
M32 = 0xFFFFFFFF
_M52 = np.uint64(0x000FFFFFFFFFFFFF)


def _signed(itemsize):
    """(ki, wi, fi) with ki and wi doubled to 512 entries: index ``w & 0x1ff`` takes the
    layer (low 8 bits) and the sign (bit 8), so ``wi`` carries the sign."""
    ki, wi, fi = Z.tables(itemsize)
    return np.concatenate([ki, ki]), np.concatenate([wi, -wi]), fi


_TABLES = {}


def _tables(itemsize):
    t = _TABLES.get(itemsize)
    if t is None:
        t = _TABLES[itemsize] = _signed(itemsize)
    return t


def philox_blocks(key: int, i: np.ndarray, a: int, tag: int = Z.TAG):
    """Philox4x32-10 blocks at counters ``(i, a | tag << 32)`` (`i` uint64 array) with the
    64-bit key: four uint64 arrays holding the 32-bit words (``gn_philox_block``)."""
    c0 = i & np.uint64(M32)
    c1 = i >> np.uint64(32)
    c2 = np.full(i.shape, a, _U64)
    c3 = np.full(i.shape, tag, _U64)
    k0, k1 = key & M32, (key >> 32) & M32
    m0, m1, mask = np.uint64(RR.M0), np.uint64(RR.M1), np.uint64(M32)
    for r in range(RR.ROUNDS):
        if r:
            k0, k1 = (k0 + RR.W0) & M32, (k1 + RR.W1) & M32
        p0, p1 = c0 * m0, c2 * m1
        c0, c1, c2, c3 = ((p1 >> np.uint64(32)) ^ c1 ^ np.uint64(k0), p1 & mask,
                          (p0 >> np.uint64(32)) ^ c3 ^ np.uint64(k1), p0 & mask)
    return c0, c1, c2, c3


def normal(words: np.ndarray, start: int, key: int, dtype) -> np.ndarray:
    """Standard normals of `words` (uint64 for float64, uint32 for float32), outputs
    ``start, start + 1, ...`` of a draw whose side stream has `key`."""
    dt = np.dtype(dtype)
    x, bad, idx, rabs = fast(words, dt)
    if bad.size:
        x[bad] = slow(bad.astype(_U64) + np.uint64(start), idx, rabs, x[bad], key, dt)
    return x


def fast(words: np.ndarray, dt: np.dtype) -> tuple:
    """The fast path: (normals, where it rejected, those words' layers and positions);
    the rejected outputs' values are their layer's ``x``, for `slow`."""
    ki, wi, _ = _tables(dt.itemsize)
    j = (words & words.dtype.type(0x1FF)).view(words.dtype.str.replace("u", "i"))
    if dt.itemsize == 8:
        rabs = (words >> np.uint64(9)) & _M52
        x = rabs * wi.take(j)
    else:
        rabs = (words >> np.uint32(9)) & np.uint32(0x7FFFFF)
        x = rabs.astype(np.float32) * wi.take(j)
    bad = np.flatnonzero(rabs >= ki.take(j))
    return x, bad, j[bad] & 0xFF, rabs[bad]


def slow(i, idx, rabs, x, key, dt):
    """The wedges and the tail of rejected outputs `i` (uint64; their layer, position and
    value), one side-stream attempt a round for all of them (``gn_zig_slow``)."""
    ki, wi, fi = _tables(dt.itemsize)
    f = dt.type
    out = np.empty(i.shape, dt)
    at = np.arange(i.size)          # where each pending output goes in `out`
    one, half = f(1.0), f(0.5)
    a = 0
    with np.errstate(all="ignore"):
        while at.size:
            b = philox_blocks(key, i, a)
            if dt.itemsize == 8:
                w1 = b[0] | (b[1] << np.uint64(32))
                w2 = b[2] | (b[3] << np.uint64(32))
                u1 = (w1 >> np.uint64(11)).astype(dt) * f(2.0 ** -53)
                u2 = (w2 >> np.uint64(11)).astype(dt) * f(2.0 ** -53)
            else:
                w2 = b[2].astype(_U32)
                u1 = (b[0] >> np.uint64(8)).astype(dt) * f(2.0 ** -24)
                u2 = (b[1] >> np.uint64(8)).astype(dt) * f(2.0 ** -24)
            tail = idx == 0
            xx = f(-Z.INV_R) * np.log(one - u1)
            yy = -np.log(one - u2)
            tail_ok = tail & (yy + yy > xx * xx)
            r = f(Z.R) + xx
            neg = ((rabs >> rabs.dtype.type(8)) & rabs.dtype.type(1)) != 0
            done = np.where(tail_ok, np.where(neg, -r, r), x)
            i1 = np.maximum(idx - 1, 0)
            wedge_ok = ~tail & ((fi[i1] - fi[idx]) * u1 + fi[idx] < np.exp(-half * x * x))
            # a wedge that fails takes the block's third word as a fresh try
            j = (w2 & w2.dtype.type(0x1FF)).astype(np.intp)
            nrabs = (w2 >> w2.dtype.type(9)) & (_M52 if dt.itemsize == 8
                                                 else np.uint32(0x7FFFFF))
            nx = nrabs * wi.take(j) if dt.itemsize == 8 else \
                nrabs.astype(dt) * wi.take(j)
            renew = ~tail & ~wedge_ok
            fresh_ok = renew & (nrabs < ki.take(j))
            ok = tail_ok | wedge_ok | fresh_ok
            done = np.where(fresh_ok, nx, done)
            out[at[ok]] = done[ok]
            keep = ~ok
            idx = np.where(renew, j & 0xFF, idx)[keep]
            rabs = np.where(renew, nrabs, rabs)[keep]
            x = np.where(renew, nx, x)[keep]
            i, at = i[keep], at[keep]
            a += 1
    return out
