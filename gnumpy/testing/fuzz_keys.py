"""Random index keys for the fuzzer's programs (fuzz_gen): basic keys (integers, slices
with steps, None, Ellipsis, an out-of-range integer now and then), integer index arrays
(lists or NumPy arrays of several dtypes, some out of bounds) and boolean masks, mixed with
slices.  Each function takes the generator `g` (fuzz_gen.Gen) for its random numbers.
"""
from __future__ import annotations

import numpy as np

from .fuzz_prog import Host, Ref


def basic_key(g, shape):
    """A basic index for an array of `shape` (one entry per axis, maybe None or
    Ellipsis inserted; a lone entry sometimes bare).  An integer entry, or a slice's
    bound, is now and then a 0-d integer result of the program: NumPy's scalar (an
    element read, ``argmax``) indexes as an int does, a 0-d array is an advanced index
    (a copy); both bound slices."""
    ints = [Ref(i) for i, v in enumerate(g.env) if isinstance(v, np.ndarray) and
            not v.ndim and v.dtype.kind in "iu"]
    key = []
    for d in shape:
        if g.p(0.25) and d:
            key.append(g.choice(ints) if ints and g.p(0.2) else
                       int(g.rng.integers(-d, d)))
        elif g.p(0.02):
            key.append(d + 1)                       # IndexError
        else:
            step = g.choice([None, None, 1, 2, -1, -2, 3])
            lo = g.choice(ints) if ints and g.p(0.1) else g.choice([None, 0, 1, -1, -2])
            hi = g.choice(ints) if ints and g.p(0.1) else g.choice([None, None, -1, 2, d])
            key.append(slice(lo, hi, step))
    if g.p(0.15):
        key.insert(int(g.rng.integers(len(key) + 1)), None)
    if g.p(0.15) and key:
        j = int(g.rng.integers(len(key) + 1))
        key = key[:j] + [Ellipsis] + key[j + 1:]
    if len(key) == 1 and g.p(0.5):
        return key[0]
    return tuple(key)


def index_array(g, d):
    """An integer index array for an axis of length `d`: a list or a Host array."""
    n = int(g.rng.integers(0, 5))
    lo = -d if g.p(0.97) else -d - 2
    hi = d if g.p(0.97) else d + 2
    if hi <= lo:
        return [] if g.p(0.5) else Host(np.zeros((0,), np.int64))
    v = g.rng.integers(lo, hi, size=n)
    if g.p(0.4):
        return [int(x) for x in v]
    dt = g.choice([np.int64, np.int32, np.uint8, np.int8]) if v.min(initial=0) >= 0 \
        else g.choice([np.int64, np.int32, np.int8])
    return Host(v.astype(dt))


def fancy_key(g, shape):
    """An advanced index for an array of `shape`: a boolean mask of its leading axes, or
    index arrays mixed with integers and slices (a basic key when none came out)."""
    if shape and g.p(0.35):
        k = int(g.rng.integers(1, len(shape) + 1))
        m = g.rng.random(shape[:k]) < 0.5
        return Host(m) if g.p(0.7) else tuple([Host(m)])
    key = []
    for d in shape:
        r = g.rng.random()
        if r < 0.4:
            key.append(index_array(g, d))
        elif r < 0.6 and d:
            key.append(int(g.rng.integers(-d, d)))
        else:
            key.append(slice(None, None, g.choice([None, 2, -1])))
    if not any(isinstance(k, (list, Host)) for k in key):
        return basic_key(g, shape)
    return tuple(key) if len(key) != 1 or g.p(0.5) else key[0]
