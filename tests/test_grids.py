"""mgrid, ogrid, r_, c_, s_, index_exp against NumPy's."""
import numpy as np
import pytest

import gnumpy as gp
from helpers import check

KEYS = [np.s_[0:5], np.s_[-1:1:0.5], np.s_[0:1:5j], np.s_[0:5, 0:3], np.s_[0:4:2, 1:2:3j],
        np.s_[-2.0:2.0:5j, 0:3, 1:7:2], np.s_[0:0, 0:3], np.s_[3:0:-1], np.s_[:4]]


def _int_keys(n=150, seed=7):
    """Random tuples of one to three slices of small ints (None parts, negative steps,
    empty and negative lengths)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        key = []
        for _ in range(int(rng.integers(1, 4))):
            start = None if rng.random() < 0.3 else int(rng.integers(-5, 6))
            step = None if rng.random() < 0.3 else int(rng.choice([-3, -2, -1, 1, 2, 3]))
            key.append(slice(start, int(rng.integers(-6, 7)), step))
        out.append(tuple(key))
    return out


@pytest.mark.parametrize("name", ["mgrid", "ogrid"])
def test_grids_of_int_slices_are_numpys(name):
    """Tuples of int slices take the lazy arange path; values, dtype, shape and errors
    (mgrid's ValueError for a negative length) are NumPy's."""
    for key in _int_keys() + [np.s_[3:0, 0:2], np.s_[0:2, 3:0], np.s_[5:0]]:
        try:
            want = getattr(np, name)[key]
        except ValueError as e:
            with pytest.raises(ValueError, match=str(e)):
                getattr(gp, name)[key]
            continue
        got = getattr(gp, name)[key]
        if isinstance(want, tuple):
            assert isinstance(got, tuple) and len(got) == len(want)
            for g, w in zip(got, want):
                check(g, w)
        else:
            check(got, want)


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_mgrid(key):
    check(gp.mgrid[key], np.mgrid[key])


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_ogrid(key):
    got, want = gp.ogrid[key], np.ogrid[key]
    if isinstance(want, np.ndarray):
        check(got, want)
    else:
        assert len(got) == len(want)
        for g, w in zip(got, want):
            check(g, w)


R_CASES = [
    lambda m: m.r_[1:4, 0, 0, [5.5, 6]],
    lambda m: m.r_[-1:1:6j, [0] * 3, 5, 6],
    lambda m: m.r_["-1", m.arange(6).reshape(2, 3), m.arange(6).reshape(2, 3)],
    lambda m: m.r_["0,2", [1, 2, 3], [4, 5, 6]],
    lambda m: m.r_["0,2,0", [1, 2, 3], [4, 5, 6]],
    lambda m: m.r_["1,2,0", [1, 2, 3], [4, 5, 6]],
    lambda m: m.r_[np.int8(3), m.asarray(np.arange(3, dtype=np.int8))],
    lambda m: m.c_[[1, 2, 3], [4, 5, 6]],
    lambda m: m.c_[m.asarray(np.array([[1, 2, 3]])), 0, 0, m.asarray(np.array([[4, 5, 6]]))],
    lambda m: m.r_[m.asarray(np.array([1.5, np.nan, -0.0])), 2],
]


@pytest.mark.parametrize("case", range(len(R_CASES)))
def test_r_c(case):
    check(R_CASES[case](gp), R_CASES[case](np))


def test_directive_errors():
    with pytest.raises(ValueError):
        gp.r_[1, "0,2"]
    with pytest.raises(ValueError):
        gp.r_["bogus", [1]]
    with pytest.raises(NotImplementedError):
        gp.r_["r", [1, 2]]


def test_index_expressions():
    x = np.arange(24).reshape(4, 6)
    g = gp.asarray(x)
    check(g[gp.s_[1:3, ::2]], x[np.s_[1:3, ::2]])
    check(g[gp.index_exp[::-1]], x[np.index_exp[::-1]])
