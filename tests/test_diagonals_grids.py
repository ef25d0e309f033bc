"""Diagonals and index grids against NumPy: diagonal (a view: writes to the base show
through it), diag, diagflat, trace, fill_diagonal, triangle indices, mask_indices,
indices, fromfunction, broadcast_shapes; on several dtypes and layouts.

The layouts and the rest of array manipulation: test_manipulation.py.
"""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.exceptions import AxisError

import gnumpy as gp
from helpers import check
from test_manipulation import DET, DT_IDS, DTYPES, LAYOUTS, pair, rand


# ====================================================================== diagonals

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
def test_diagonal_2d(dtype, layout):
    a, g = pair(rand((4, 5), dtype, 3), layout)
    for offset in [0, 1, -2, 5, -4]:
        check(gp.diagonal(g, offset), np.diagonal(a, offset))
        check(g.diagonal(offset), a.diagonal(offset))
        check(gp.diag(g, offset), np.diag(a, offset))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("offset,axis1,axis2", [(0, 0, 1), (1, 1, 2), (-1, 2, 0), (2, -1, -3),
                                                (0, 2, 1), (-3, 0, 2)])
def test_diagonal_nd(offset, axis1, axis2, layout):
    a, g = pair(rand((3, 4, 5), np.float32, 2), layout)
    check(gp.diagonal(g, offset, axis1, axis2), np.diagonal(a, offset, axis1, axis2))
    check(gp.trace(g, offset, axis1, axis2), np.trace(a, offset, axis1, axis2))


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "lazy"])
def test_diagonal_is_a_view(layout):
    a, g = pair(rand((4, 4), np.float64, 1), layout)
    a = a.copy()
    d = gp.diagonal(g, 1)
    g[0, 1] = 42.0
    a[0, 1] = 42.0
    g[...] = g * 2
    a *= 2
    check(d, np.diagonal(a, 1))
    e = gp.diagonal(gp.asarray(np.arange(24.0).reshape(2, 3, 4)), 0, 1, 2)
    assert e._base is not None           # the last two axes: always a view


def test_diagonal_errors():
    for args, exc in [((np.arange(3),), ValueError), ((np.ones((2, 2)), 0, 0, 0), ValueError),
                      ((np.ones((2, 2)), 0, 0, -2), ValueError),
                      ((np.ones((2, 2)), 0, 0, 2), AxisError),
                      ((np.ones((2, 2)), 1.5), TypeError)]:
        with pytest.raises(exc):
            np.diagonal(*args)
        with pytest.raises(exc):
            gp.diagonal(gp.asarray(args[0]), *args[1:])
    with pytest.raises(ValueError):
        gp.diag(gp.ones((2, 2, 2)))
    with pytest.raises(ValueError):
        gp.diag(gp.asarray(1.0))
    with pytest.raises(ValueError):
        gp.trace(gp.arange(3))


@pytest.mark.parametrize("dtype", DTYPES, ids=DT_IDS)
@pytest.mark.parametrize("k", [0, 1, -2, 3])
@pytest.mark.parametrize("n", [0, 1, 4])
def test_diag_diagflat_build(dtype, k, n):
    v = rand((n,), dtype, 4)
    g = gp.asarray(v)
    check(gp.diag(g, k), np.diag(v, k))
    check(gp.diag(g + gp.zeros((), dtype) if dtype != np.bool_ else g, k), np.diag(v, k))
    m = rand((2, 2), dtype, 5)
    check(gp.diagflat(gp.asarray(m), k), np.diagflat(m, k))
    check(gp.diagflat([1, 2], k), np.diagflat([1, 2], k))


@pytest.mark.parametrize("dtype", [None, np.float32, np.int8, np.complex128], ids=str)
def test_trace_dtype_out(dtype):
    a = rand((3, 4, 4), np.int16, 3)
    g = gp.asarray(a)
    check(gp.trace(g, dtype=dtype), np.trace(a, dtype=dtype))
    check(g.trace(1, 1, 2, dtype=dtype), a.trace(1, 1, 2, dtype=dtype))
    out = gp.zeros(4, np.float64)
    r = gp.trace(g, axis1=1, axis2=0, out=out)
    assert r is out
    check(out, np.trace(a, axis1=1, axis2=0).astype(np.float64))
    b = rand((4, 4), np.bool_, 1)
    check(gp.trace(gp.asarray(b)), np.trace(b))


@pytest.mark.parametrize("layout", ["contiguous", "strided", "transposed", "lazy"])
@pytest.mark.parametrize("shape,wrap", [((4, 4), False), ((5, 3), False), ((7, 3), True),
                                        ((3, 5), True), ((3, 3, 3), False), ((2, 2, 2, 2), True),
                                        ((1, 1), False), ((0, 3), False)])
@pytest.mark.parametrize("val", [5, np.arange(10)], ids=["5", "arange"])
def test_fill_diagonal(shape, wrap, val, layout):
    a, g = pair(rand(shape, np.float32, 2), layout)
    a = a.copy()
    np.fill_diagonal(a, val, wrap=wrap)
    r = gp.fill_diagonal(g, val, wrap=wrap)
    assert r is None
    check(g, a)


def test_fill_diagonal_views_dtypes_errors():
    a = np.zeros((6, 6), np.int32)
    g = gp.asarray(a)
    np.fill_diagonal(a[::2, 1:4], 7)
    gp.fill_diagonal(g[::2, 1:4], 7)
    check(g, a)
    np.fill_diagonal(a[1:].T, gp.asarray([1, 2]).get())
    gp.fill_diagonal(g[1:].T, gp.asarray([1, 2]))
    check(g, a)
    for dt in DTYPES:
        b = rand((3, 3), dt, 6)
        h = gp.asarray(b)
        np.fill_diagonal(b, b[0])
        gp.fill_diagonal(h, gp.asarray(b[0]))
        check(h, b)
    with pytest.raises(ValueError):
        gp.fill_diagonal(gp.zeros(3), 1)
    with pytest.raises(ValueError):
        gp.fill_diagonal(gp.zeros((2, 3, 2)), 1)
    with pytest.raises(OverflowError):
        gp.fill_diagonal(gp.zeros((2, 2), np.int8), 300)


# ====================================================================== index grids

@pytest.mark.parametrize("n", [0, 1, 5, 9])
@pytest.mark.parametrize("m", [None, 0, 1, 3, 8])
def test_tri_indices(n, m):
    for k in [-10, -3, -1, 0, 1, 2, 7]:
        check(gp.tril_indices(n, k, m), np.tril_indices(n, k, m))
        check(gp.triu_indices(n, k, m), np.triu_indices(n, k, m))


@DET
@given(n=st.integers(0, 60), k=st.integers(-70, 70), m=st.integers(0, 60))
def test_tri_indices_hypothesis(n, k, m):
    check(gp.tril_indices(n, k, m), np.tril_indices(n, k, m))
    check(gp.triu_indices(n, k, m), np.triu_indices(n, k, m))


def test_tri_indices_from_and_mask_indices():
    a = np.ones((4, 6))
    g = gp.asarray(a)
    for k in (-1, 0, 2):
        check(gp.tril_indices_from(g, k), np.tril_indices_from(a, k))
        check(gp.triu_indices_from(g, k), np.triu_indices_from(a, k))
        check(gp.mask_indices(4, gp.triu, k), np.mask_indices(4, np.triu, k))
        check(gp.mask_indices(4, np.tril, k), np.mask_indices(4, np.tril, k))
    check(gp.tril_indices(3, k=1.5), np.tril_indices(3, k=1.5))
    with pytest.raises(ValueError):
        gp.tril_indices_from(gp.arange(3))
    with pytest.raises(ValueError):
        gp.triu_indices_from(gp.ones((2, 2, 2)))


def test_mask_indices_general():
    if not hasattr(gp, "nonzero"):
        with pytest.raises(NotImplementedError):
            gp.mask_indices(3, lambda m, k: m * 2, 0)
        return
    check(gp.mask_indices(3, lambda m, k: gp.fliplr(gp.triu(m, k)), 1),
          np.mask_indices(3, lambda m, k: np.fliplr(np.triu(m, k)), 1))


@pytest.mark.parametrize("dims", [(2, 3), (4,), (), (2, 0, 3), (1, 2, 3, 2)], ids=str)
@pytest.mark.parametrize("dtype", [int, np.float32, np.int8, np.uint16], ids=str)
@pytest.mark.parametrize("sparse", [False, True])
def test_indices(dims, dtype, sparse):
    check(gp.indices(dims, dtype=dtype, sparse=sparse), np.indices(dims, dtype=dtype,
                                                                   sparse=sparse))


def test_indices_fromfunction_broadcast_shapes():
    with pytest.raises(ValueError):
        gp.indices((2, -3))
    f = lambda i, j, c=1: i * 10 + j + c  # noqa: E731
    check(gp.fromfunction(f, (3, 4)), np.fromfunction(f, (3, 4)))
    check(gp.fromfunction(f, (3, 4), dtype=int, c=5), np.fromfunction(f, (3, 4), dtype=int,
                                                                      c=5))
    for shapes in [((2, 1), (3,)), (1, (2, 3)), (), ((0,), (1,)), ((4, 1, 2), (3, 1))]:
        assert gp.broadcast_shapes(*shapes) == np.broadcast_shapes(*shapes)
    with pytest.raises(ValueError):
        gp.broadcast_shapes((2,), (3,))
    with pytest.raises(ValueError):
        gp.broadcast_shapes((-1,))
