"""``ufunc.at`` and the index functions against NumPy: take, take_along_axis,
put_along_axis, put, compress, extract, place, putmask, the nonzero family, ix_, choose,
ravel_multi_index / unravel_index, diag_indices.

Every function is compared on shape, dtype and values, and its errors on exception type.
The index strategies and indexing itself: test_indexing.py.
"""
import numpy as np
import pytest
from numpy.exceptions import AxisError

import gnumpy as gp
from helpers import check, sample, strided_pair
from test_indexing import LAYOUTS, np_key, variant


# ====================================================================== ufunc.at

AT_CASES = [("add", t) for t in (np.float64, np.float32, np.float16, np.int64, np.int32,
                                  np.int8, np.uint8, np.uint32, np.uint64, np.complex64,
                                  np.complex128, np.bool_)] + \
    [("subtract", t) for t in (np.float32, np.int32, np.uint64, np.complex128, np.int16)] + \
    [("multiply", t) for t in (np.float64, np.int16, np.complex64, np.complex128)] + \
    [("minimum", t) for t in (np.float32, np.int32, np.uint64, np.int8, np.float16)] + \
    [("maximum", t) for t in (np.float64, np.int64, np.uint32, np.uint16)] + \
    [("bitwise_xor", np.int32), ("bitwise_or", np.bool_), ("divide", np.float32),
     ("fmax", np.float64), ("logical_and", np.bool_)]


@pytest.mark.parametrize("op,dtype", AT_CASES, ids=[f"{o}-{np.dtype(t)}" for o, t in AT_CASES])
def test_ufunc_at(op, dtype):
    rng = np.random.default_rng(5)
    base = sample(dtype, (6, 4), rng, special=False)
    if np.dtype(dtype).kind in "iu":
        base = base % 7
    idx = (np.array([0, 0, 5, 2, 0, 5]), slice(None))
    vals = sample(dtype, (6, 4), rng, special=False)
    if np.dtype(dtype).kind in "iu":
        vals = vals % 5
    a, g = base.copy(), gp.asarray(base)
    getattr(np, op).at(a, idx, vals)
    getattr(gp, op).at(g, (gp.asarray(idx[0]), idx[1]), gp.asarray(vals))
    check(g, a, rtol=1e-2 if np.dtype(dtype).itemsize <= 2 and dtype != np.int16 else None)


def test_ufunc_at_forms():
    a = np.arange(6.0)
    g = gp.asarray(a)
    np.add.at(a, [0, 0, 1], 1)              # through __array_ufunc__
    np.add.at(g, [0, 0, 1], 1)
    gp.multiply.at(g, 2, 10)                # a basic index
    np.multiply.at(a, 2, 10)
    gp.add.at(g, g > 3, gp.asarray(0.5))    # a mask
    np.add.at(a, a > 3, 0.5)
    gp.negative.at(g, [1, 1, 5])            # unary, applied once per index
    np.negative.at(a, [1, 1, 5])
    check(g, a)
    b = np.zeros(3, np.int8)
    gb = gp.asarray(b)
    np.add.at(b, [0, 0], 1.7)               # unsafe cast back, as NumPy
    gp.add.at(gb, [0, 0], 1.7)
    check(gb, b)
    x = gp.zeros((2, 3))
    z = x + 1
    gp.add.at(x, ([0, 0], [1, 1]), 1.0)
    check(z, np.ones((2, 3)))
    with pytest.raises(IndexError):
        gp.add.at(g, [6], 1)
    with pytest.raises(TypeError):
        gp.add.at(g, [0])
    with pytest.raises(ValueError):
        gp.add.at(g, [0, 1], gp.ones(3))


# ====================================================================== take / put

@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex128, np.bool_])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_take(dtype, layout):
    a, g = variant(sample(dtype, (3, 4), np.random.default_rng(6)), layout)
    check(gp.take(g, [0, 5, -1]), np.take(a, [0, 5, -1]))
    check(gp.take(g, [[0, 2]], axis=1), np.take(a, [[0, 2]], axis=1))
    check(gp.take(g, gp.asarray([7, -9]), axis=1, mode="wrap"),
          np.take(a, [7, -9], axis=1, mode="wrap"))
    check(gp.take(g, [7, -9], axis=0, mode="clip"), np.take(a, [7, -9], axis=0, mode="clip"))
    check(gp.take(g, gp.asarray([-7, 2]), axis=-2, mode="clip"),
          np.take(a, [-7, 2], axis=-2, mode="clip"))
    check(g.take(1), a.take(1))
    check(g.take([], axis=0), a.take([], axis=0))
    out = gp.empty((2, 4), dtype=dtype)
    r = gp.take(g, [2, 0], axis=0, out=out)
    assert r is out
    check(out, np.take(a, [2, 0], axis=0))


def test_take_errors():
    g = gp.arange(6).reshape(2, 3)
    with pytest.raises(IndexError):
        gp.take(g, [6])
    with pytest.raises(IndexError):
        gp.take(g, gp.asarray([3]), axis=1)
    with pytest.raises(IndexError):
        gp.take(gp.zeros((0,)), [0])
    with pytest.raises(AxisError):
        gp.take(g, [0], axis=2)
    with pytest.raises(ValueError):
        gp.take(g, [0], mode="bad")
    with pytest.raises(TypeError):
        gp.take(g, [1.5])


def test_take_along_axis_and_put_along_axis():
    rng = np.random.default_rng(7)
    a = sample(np.float64, (3, 4), rng)
    g = gp.asarray(a)
    i = np.argsort(a, axis=1)
    check(gp.take_along_axis(g, gp.asarray(i), axis=1), np.take_along_axis(a, i, axis=1))
    check(gp.take_along_axis(g, [[1, 0, 2, -1]], axis=0),
          np.take_along_axis(a, np.array([[1, 0, 2, -1]]), axis=0))
    check(gp.take_along_axis(g, gp.asarray([[1], [0], [3]]), axis=-1),
          np.take_along_axis(a, np.array([[1], [0], [3]]), axis=-1))
    check(gp.take_along_axis(g, [5, 0], axis=None),
          np.take_along_axis(a, np.array([5, 0]), axis=None))
    col = np.array([[1], [0], [3]])
    x, xa = g.copy(), a.copy()
    gp.put_along_axis(x, gp.asarray(col), 99.0, axis=1)
    np.put_along_axis(xa, col, 99.0, axis=1)
    check(x, xa)
    gp.put_along_axis(x, [2, 11], gp.asarray([-1.0, -2.0]), axis=None)
    np.put_along_axis(xa, np.array([2, 11]), [-1.0, -2.0], axis=None)
    check(x, xa)
    t = gp.asarray(a.T.copy()).T            # non-contiguous target, flattened access
    ta = a.copy()
    gp.put_along_axis(t, [0, 5], 7.0, axis=None)
    np.put_along_axis(ta, np.array([0, 5]), 7.0, axis=None)
    check(t, ta)
    with pytest.raises(IndexError):
        gp.take_along_axis(g, [[1.0]], axis=1)
    with pytest.raises(ValueError):
        gp.take_along_axis(g, [1], axis=1)
    with pytest.raises(ValueError):
        gp.take_along_axis(g, [[1]], axis=None)
    with pytest.raises(IndexError):
        gp.take_along_axis(g, [[4]], axis=1)


def test_put():
    a = np.arange(12).reshape(3, 4)
    for ind, v, mode in [([0, -1, 2], [7, 8], "raise"), (gp.asarray([0, 20]), 5, "wrap"),
                         ([-30, 30], [1, 2], "clip"), ([1, 2, 3], [9, 8, 7, 6], "raise"),
                         ([], [1], "raise"), ([0, 1], [], "raise")]:
        x, xa = gp.asarray(a), a.copy()
        gp.put(x, ind, v, mode=mode)
        np.put(xa, np_key(ind), v, mode=mode)
        check(x, xa)
    t = gp.asarray(a.T.copy()).T
    t.put([0, 5], [-1, -2])
    xa = a.copy()
    xa.put([0, 5], [-1, -2])
    check(t, xa)
    with pytest.raises(TypeError):
        gp.put([1, 2], [0], 1)
    with pytest.raises(IndexError):
        gp.put(gp.asarray(a), [12], 1)


# ====================================================================== masks

def test_compress_extract():
    a = np.arange(12.0).reshape(3, 4)
    g = gp.asarray(a)
    check(gp.compress([True, False, True], g, axis=0), np.compress([True, False, True], a,
                                                                     axis=0))
    check(g.compress(gp.asarray([0, 1, 1, 0]), axis=1), a.compress([0, 1, 1, 0], axis=1))
    check(gp.compress([False, True], g), np.compress([False, True], a))
    check(gp.compress([True, False], g, axis=1), np.compress([True, False], a, axis=1))
    check(gp.extract(g % 3 == 0, g), np.extract(a % 3 == 0, a))
    check(gp.extract(np.array([[1, 0], [0, 3]]), gp.arange(4).reshape(2, 2)),
          np.extract(np.array([[1, 0], [0, 3]]), np.arange(4).reshape(2, 2)))
    with pytest.raises(ValueError):
        gp.compress([[True]], g)
    with pytest.raises(IndexError):
        gp.compress([True, False, True, True], g, axis=0)


def test_place_putmask():
    a = np.arange(12).reshape(3, 4)
    x, xa = gp.asarray(a), a.copy()
    gp.place(x, x > 5, [44, 55])
    np.place(xa, xa > 5, [44, 55])
    check(x, xa)
    gp.place(x, np.zeros((3, 4), bool), [])       # nothing to place: no error
    with pytest.raises(ValueError):
        gp.place(x, x > 0, [])
    with pytest.raises(ValueError):
        gp.place(x, [True, False], [1])
    for vals in ([1, 2, 3], 7.9, list(range(100, 112)), []):
        x, xa = gp.asarray(a), a.copy()
        gp.putmask(x, x % 2 == 1, vals)
        np.putmask(xa, xa % 2 == 1, vals)
        check(x, xa)
    x, xa = gp.asarray(a), a.copy()
    gp.putmask(x, x > 5, x ** 2)
    np.putmask(xa, xa > 5, xa ** 2)
    check(x, xa)
    with pytest.raises(ValueError):
        gp.putmask(x, [True], [1])
    with pytest.raises(TypeError):
        gp.putmask([1, 2], [True, False], 1)


@pytest.mark.parametrize("dtype", [np.float64, np.int8, np.bool_, np.complex64, np.float16])
def test_nonzero_family(dtype):
    rng = np.random.default_rng(8)
    a = sample(dtype, (3, 5, 2), rng)
    a[0] = 0
    if np.dtype(dtype).kind == "f":
        a[1, 0, 0] = -0.0
    g = gp.asarray(a)
    check(gp.nonzero(g), np.nonzero(a))
    check(g.nonzero(), a.nonzero())
    check(gp.where(g), np.where(a))
    check(gp.argwhere(g), np.argwhere(a))
    check(gp.flatnonzero(g), np.flatnonzero(a))
    check(gp.nonzero(g[0, :, 0]), np.nonzero(a[0, :, 0]))
    s, gs = strided_pair(a)
    check(gp.nonzero(gs.T), np.nonzero(s.T))
    check(gp.argwhere(gp.asarray(a[0, 0])), np.argwhere(a[0, 0]))
    for v in (0, 5):
        check(gp.argwhere(gp.asarray(v)), np.argwhere(v))
        check(gp.flatnonzero(gp.asarray(v)), np.flatnonzero(v))
    with pytest.raises(ValueError):
        gp.nonzero(gp.asarray(1))
    with pytest.raises(ValueError):
        gp.where(True)


# ====================================================================== index tricks

def test_ix_choose():
    a = np.arange(12).reshape(3, 4)
    g = gp.asarray(a)
    check(gp.ix_([0, 2], [True, False, True, True]), np.ix_([0, 2], [True, False, True, True]))
    check(gp.ix_(gp.asarray([1]), gp.asarray([False, True, False, True]), []),
          np.ix_([1], [False, True, False, True], []))
    check(g[gp.ix_([0, 2], [1, 3])], a[np.ix_([0, 2], [1, 3])])
    with pytest.raises(ValueError):
        gp.ix_([[1]])
    ch = [[1, 2, 3], [10, 20, 30], [100, 200, 300]]
    check(gp.choose(gp.asarray([2, 0, 1]), ch), np.choose([2, 0, 1], ch))
    check(gp.choose([5, -1, 1], [[1, 2, 3], [10, 20, 30]], mode="wrap"),
          np.choose([5, -1, 1], [[1, 2, 3], [10, 20, 30]], mode="wrap"))
    check(gp.choose(gp.asarray([5, -1, 1]), gp.asarray(np.array(ch[:2])), mode="clip"),
          np.choose([5, -1, 1], np.array(ch[:2]), mode="clip"))
    f = np.float32(1.5)
    c2 = np.arange(2, dtype=np.int16)
    check(gp.choose(gp.asarray([[0], [1]], dtype=np.int8), [f, gp.asarray(c2)]),
          np.choose(np.array([[0], [1]], np.int8), [f, c2]))
    with pytest.raises(ValueError):
        gp.choose(gp.asarray([0, 3]), ch)
    with pytest.raises(TypeError):
        gp.choose(gp.asarray([0.0, 1.0]), ch)


def test_ravel_unravel():
    check(gp.ravel_multi_index(([3, 6, 6], [4, 5, 1]), (7, 6)),
          np.ravel_multi_index(([3, 6, 6], [4, 5, 1]), (7, 6)))
    check(gp.ravel_multi_index((gp.asarray([3, 6, 6]), [4, 5, 1]), (7, 6), order="F"),
          np.ravel_multi_index(([3, 6, 6], [4, 5, 1]), (7, 6), order="F"))
    check(gp.ravel_multi_index(([0, 5], [1, 1]), (3, 2), mode=("clip", "wrap")),
          np.ravel_multi_index(([0, 5], [1, 1]), (3, 2), mode=("clip", "wrap")))
    check(gp.ravel_multi_index((gp.asarray([[-1], [2]]), [0, 1]), (3, 2), mode="wrap"),
          np.ravel_multi_index(([[-1], [2]], [0, 1]), (3, 2), mode="wrap"))
    check(gp.unravel_index(gp.asarray([22, 41, 37]), (7, 6)),
          np.unravel_index([22, 41, 37], (7, 6)))
    check(gp.unravel_index([22, 41, 37], (7, 6), order="F"),
          np.unravel_index([22, 41, 37], (7, 6), order="F"))
    check(gp.unravel_index(gp.asarray([[5], [0]], dtype=np.int32), (2, 1, 3)),
          np.unravel_index(np.array([[5], [0]], np.int32), (2, 1, 3)))
    check(gp.unravel_index(4, (2, 3)), tuple(np.asarray(v) for v in np.unravel_index(4, (2, 3))))
    for bad in (([0, 3], [1, 1]), (gp.asarray([0, -1]), [1, 1])):
        with pytest.raises(ValueError):
            gp.ravel_multi_index(bad, (3, 2))
    with pytest.raises(ValueError):
        gp.unravel_index([6], (2, 3))
    with pytest.raises(ValueError):
        gp.unravel_index(gp.asarray([-1]), (2, 3))
    with pytest.raises(TypeError):
        gp.unravel_index([1.0], (2, 3))


def test_diag_indices():
    check(gp.diag_indices(3), np.diag_indices(3))
    check(gp.diag_indices(2, 3), np.diag_indices(2, 3))
    check(gp.diag_indices_from(gp.zeros((2, 2, 2))), np.diag_indices_from(np.zeros((2, 2, 2))))
    x = gp.zeros((3, 3))
    x[gp.diag_indices_from(x)] = 1.0
    check(x, np.eye(3))
    with pytest.raises(ValueError):
        gp.diag_indices_from(gp.zeros(3))
    with pytest.raises(ValueError):
        gp.diag_indices_from(gp.zeros((2, 3)))
