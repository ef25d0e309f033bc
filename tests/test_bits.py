"""packbits / unpackbits against NumPy: axes, bit orders, counts, padding, every integer
dtype and bool, 0-d, empty and non-contiguous inputs, and NumPy's errors."""
import numpy as np
import pytest
from numpy.exceptions import AxisError

import gnumpy as gp
from helpers import check, strided_pair

INTB = [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64, np.uint64]


@pytest.mark.parametrize("dtype", INTB)
@pytest.mark.parametrize("shape,axis", [((13,), None), ((3, 11), 1), ((3, 11), 0),
                                        ((2, 3, 9), -1), ((2, 3, 9), None), ((), None),
                                        ((0, 5), 0), ((4, 0), 1), ((16,), 0)])
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_packbits(dtype, shape, axis, bitorder):
    rng = np.random.default_rng(abs(hash((shape, axis))) % 2**32)
    a = (rng.integers(-3, 3, shape) * rng.integers(0, 2, shape)).astype(dtype)
    check(gp.packbits(gp.asarray(a), axis=axis, bitorder=bitorder),
          np.packbits(a, axis=axis, bitorder=bitorder))


@pytest.mark.parametrize("shape,axis", [((5,), None), ((3, 4), 1), ((3, 4), 0), ((2, 2, 3), 1),
                                        ((), None), ((0, 3), 0), ((2, 0), 1)])
@pytest.mark.parametrize("count", [None, 0, 3, 8, 13, 40, -1, -5])
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_unpackbits(shape, axis, count, bitorder):
    a = np.random.default_rng(7).integers(0, 256, shape).astype(np.uint8)
    n = 8 * (a.size if axis is None else a.shape[axis])
    if count is not None and count < -n:
        with pytest.raises(ValueError, match="-count larger"):
            gp.unpackbits(gp.asarray(a), axis=axis, count=count)
        return
    got = gp.unpackbits(gp.asarray(a), axis=axis, count=count, bitorder=bitorder)
    exp = np.unpackbits(a, axis=axis, count=count, bitorder=bitorder)
    if n == 0 and count:
        # NumPy leaves the padding of an empty axis uninitialized; gnumpy pads with zeros
        exp = np.zeros_like(exp)
    check(got, exp)


def test_round_trip_and_strided_views():
    a = np.random.default_rng(3).integers(0, 2, (6, 20)).astype(bool)
    h, g = strided_pair(a)
    check(gp.packbits(g, axis=1), np.packbits(h, axis=1))
    p = np.packbits(a, axis=0)
    check(gp.unpackbits(gp.asarray(p), axis=0, count=6).astype(bool), a)
    hp, gp_ = strided_pair(np.random.default_rng(4).integers(0, 256, (5, 6)).astype(np.uint8))
    check(gp.unpackbits(gp_, axis=1, bitorder="little"), np.unpackbits(hp, axis=1,
                                                                         bitorder="little"))


def test_errors():
    for f, good, bad, msg in ((gp.packbits, np.ones(3, np.int32), np.ones(3), "integer or "
                               "boolean"), (gp.unpackbits, np.ones(3, np.uint8),
                                            np.ones(3, np.int8), "unsigned byte")):
        with pytest.raises(TypeError, match=msg):
            f(gp.asarray(bad))
        with pytest.raises(ValueError, match="'order' must be"):
            f(gp.asarray(good), bitorder="middle")
        with pytest.raises(AxisError):
            f(gp.asarray(good), axis=1)
