"""The CPU backend's PCG64 draws: NumPy's own generator makes the words (in C), and NumPy's
``Generator.random`` the uniform floats, which are exactly the transform
``_transforms.unit`` of those words; other draws apply their transform (``_transforms``)
to the words chunk by chunk while they sit in the cache, as ``_host.draw`` does for
Philox.  The words are those of the CUDA draw kernel (``render_random.pcg_fns``).
"""
from __future__ import annotations

import sys
import threading

import numpy as np

from . import _transforms as T
from . import _ziggurat as zig
from ..kernels import render_random as RR
from ..kernels import render_ziggurat as Z

CHUNK = 1 << 16             # outputs per chunk of words
FN_CHUNK = 1 << 13          # outputs per transform step (its temporaries stay in the cache)
LEMIRE_CHUNK = 1 << 16      # bounded integers a step
ZIG_CHUNK = 1 << 15         # ziggurat outputs per fast-path step (2M float64 normals:
                            # 14.0 ms; 2^13: 15.0, 2^18: 16.9)
_U32, _U64 = np.dtype(np.uint32), np.dtype(np.uint64)
_LITTLE = sys.byteorder == "little"
_spare: list = []               # NumPy PCG64 objects not in use (a fresh one costs ~6 us)
_lock = threading.Lock()


def _bitgen(state: int, inc: int, h: int = 0, u: int = 0):
    with _lock:
        bg = _spare.pop() if _spare else None
    if bg is None:
        bg = np.random.PCG64(0)
    bg.state = {"bit_generator": "PCG64", "state": {"state": state, "inc": inc},
                "has_uint32": h, "uinteger": u}
    return bg


def _give(*bgs) -> None:
    with _lock:
        for bg in bgs:
            if len(_spare) < 8:
                _spare.append(bg)


def _halves(w: np.ndarray) -> np.ndarray:
    """uint64 words as their 32-bit halves, low first (NumPy's ``next_uint32`` order)."""
    if _LITTLE:
        return w.view(_U32)
    return np.stack([(w & 0xFFFFFFFF).astype(_U32), (w >> 32).astype(_U32)], 1).reshape(-1)


class _Words32:
    """The 32-bit words of a stream from 32-bit index `start` on (index 0 being the
    buffered half `u` when `h`), read in order."""

    def __init__(self, state, inc, h, u, start):
        k = start - h
        if k < 0:                       # the buffered half comes first
            self.bg, self.pending = _bitgen(state, inc), np.array([u], _U32)
            return
        self.bg = _bitgen(state, inc)
        if k >> 1:
            self.bg.advance(k >> 1)     # (drops the buffer: the state is set without one)
        self.pending = _halves(self.bg.random_raw(1))[1:] if k & 1 else None

    def read(self, m: int) -> np.ndarray:
        p = self.pending
        have = 0 if p is None else p.shape[0]
        if m <= have:
            self.pending = p[m:]
            return p[:m]
        w = _halves(self.bg.random_raw((m - have + 1) // 2))
        out = w if p is None or not have else np.concatenate([p, w])
        self.pending = out[m:]
        return out[:m]


class _Words64:
    """The 64-bit words of a stream from word `start` on, read in order."""

    def __init__(self, state, inc, start):
        self.bg = _bitgen(state, inc)
        if start:
            self.bg.advance(start)

    def read(self, m: int) -> np.ndarray:
        return self.bg.random_raw(m)


def draw(state, inc, h, u, kind, shape, dtype, args) -> np.ndarray:
    """The PCG64 draw ``T.draw_plan(kind, dtype, args)`` of `shape` from NumPy state
    (`state`, `inc`, `h`, `u`) (see ``PCG64.draw``)."""
    plan = T.draw_plan(kind, dtype, args)
    n = 1
    for d in shape:
        n *= d
    if plan.base == "lemire":
        res = _numpy_integers(state, inc, h, u, shape, n, plan.dtype, args)
        if res is not None:
            return res
    res = np.empty(shape, plan.dtype)
    if n == 0:
        return res
    out = res.reshape(-1)
    if kind == "random":                # NumPy's next_double/next_float: T.unit exactly
        bg = _bitgen(state, inc, h, u)
        gen = np.random.Generator(bg)
        if not args or args == (0.0, 1.0):
            gen.random(out=out, dtype=plan.dtype)
        else:
            loc, scale = args
            with np.errstate(all="ignore"):
                for i in range(0, n, FN_CHUNK):
                    o = out[i:i + FN_CHUNK]
                    gen.random(out=o, dtype=plan.dtype)
                    out[i:i + FN_CHUNK] = T.affine(loc, scale, o)
        _give(bg)
        return res
    wide = plan.bits_dtype == _U64
    streams = [(_Words64(state, inc, k * n) if wide else _Words32(state, inc, h, u, k * n))
               for k in range(plan.parts)]
    if plan.base:
        (_zig if plan.base == "zig" else _lemire)(streams[0], out, Z.side_key(state, inc),
                                                  plan, args)
        _give(*(s.bg for s in streams))
        return res
    with np.errstate(all="ignore"):
        for i in range(0, n, CHUNK):
            j = min(n, i + CHUNK)
            parts = [s.read(j - i) for s in streams]
            for a in range(i, j, FN_CHUNK):
                b = min(j, a + FN_CHUNK)
                sub = [x[a - i:b - i] for x in parts]
                out[a:b] = plan.fn(sub if plan.parts > 1 else sub[0])
    _give(*(s.bg for s in streams))
    return res


def _zig(stream, out, key, plan, args) -> None:
    """Ziggurat normals into `out` (then the draw's affine step): the fast path chunk by
    chunk, the rare rest in one vectorized pass over the whole draw (its cost per call is
    ~0.1 ms of NumPy calls, whatever the number of outputs)."""
    n, dt = out.shape[0], plan.dtype
    bad, idx, rabs = [], [], []
    for i in range(0, n, ZIG_CHUNK):
        j = min(n, i + ZIG_CHUNK)
        out[i:j], b, d, r = zig.fast(stream.read(j - i), dt)
        if b.size:
            bad.append(b + i)
            idx.append(d)
            rabs.append(r)
    if bad:
        b = np.concatenate(bad)
        out[b] = zig.slow(b.astype(_U64), np.concatenate(idx), np.concatenate(rabs), out[b],
                          key, dt)
    if args:
        with np.errstate(all="ignore"):
            for a in range(0, n, FN_CHUNK):
                out[a:a + FN_CHUNK] = plan.fn(out[a:a + FN_CHUNK])


_NUMPY_INTS = {np.dtype(t) for t in (np.int32, np.int64, np.uint32, np.uint64)}


def _numpy_integers(state, inc, h, u, shape, n, odt, args):
    """NumPy's own ``integers`` for a draw ``_lemire`` makes, when NumPy rejects no word
    (then its numbers are ``_lemire``'s, and it leaves the state the draw leaves: which the
    state after the call tells); None when it did, or is likely to (half a rejection or
    more expected), or uses other words (8- and 16-bit dtypes buffer their own)."""
    r, low = args
    t = ((1 << 32) - r) % r
    if odt not in _NUMPY_INTS or 2 * n * t >= 1 << 32:
        return None
    bg = _bitgen(state, inc, h, u)
    res = np.random.Generator(bg).integers(low, low + r, size=shape, dtype=odt)
    m = n - h if n else 0                       # 32-bit words past the buffered half
    want = _bitgen(state, inc)
    if m > 0:
        want.advance((m + 1) // 2)
    got, exp = bg.state, want.state
    _give(bg, want)
    if got["state"] != exp["state"] or got["has_uint32"] != ((m & 1) if n else h):
        return None
    return res


def _lemire(stream, out, key, plan, args) -> None:
    """Lemire's bounded integers in ``[0, r)`` of 32-bit words (``render_random.lemire_fns``)
    plus ``low``, cast to the draw's dtype (its transform: every value is in range, so one
    add in int64, or uint64 past it, is the same); the rare rejected words replaced in one
    vectorized pass over the draw."""
    r, low = args
    n = out.shape[0]
    t = ((1 << 32) - r) % r                     # reject a low product half below this
    ru = np.uint64(r)
    odt = plan.dtype
    if odt.kind in "iu" and np.iinfo(odt).min <= low and low + r - 1 <= np.iinfo(odt).max:
        acc = odt                               # (r - 1 fits too: low >= min, low >= 0 for u)
    else:
        acc = np.dtype(np.int64) if low + r <= 1 << 63 else _U64
    lowv = acc.type(low)
    bad = []
    m = np.empty(min(n, LEMIRE_CHUNK), _U64)
    with np.errstate(all="ignore"):
        for i in range(0, n, LEMIRE_CHUNK):
            j = min(n, i + LEMIRE_CHUNK)
            mm = m[:j - i]
            np.multiply(stream.read(j - i), ru, out=mm, dtype=_U64)
            if _LITTLE:
                lo, hi = mm.view(_U32)[0::2], mm.view(_U32)[1::2]
            else:
                lo, hi = mm & np.uint64(0xFFFFFFFF), mm >> np.uint64(32)
            if t:
                b = np.flatnonzero(lo < t)
                if b.size:
                    bad.append(b + i)
            np.add(hi, lowv, out=out[i:j], dtype=acc, casting="unsafe")
        if bad:
            b = np.concatenate(bad)
            out[b] = plan.fn(_lemire_slow(b.astype(_U64), ru, t, key))


def _lemire_slow(i, ru, t, key):
    """``gn_lemire_slow`` for rejected outputs `i`, one side-stream attempt a round."""
    out = np.empty(i.shape, _U64)
    at = np.arange(i.size)
    a = 0
    while at.size:
        m = zig.philox_blocks(key, i, a, RR.LEMIRE_TAG)[0] * ru
        ok = (m & np.uint64(0xFFFFFFFF)) >= t
        out[at[ok]] = m[ok] >> np.uint64(32)
        i, at = i[~ok], at[~ok]
        a += 1
    return out
