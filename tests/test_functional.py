"""apply_along_axis and apply_over_axes against NumPy: scalar, vector and matrix results,
every axis, extra arguments, dtype of the first result, non-contiguous input, errors."""
import numpy as np
import pytest
from numpy.exceptions import AxisError

import gnumpy as gp
from helpers import check, sample, strided_pair


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
@pytest.mark.parametrize("kind", ["scalar", "vector", "matrix", "cumsum"])
def test_apply_along_axis(axis, kind):
    a = sample(np.float64, (3, 4, 5), np.random.default_rng(axis + 5), special=False)
    f = {"scalar": lambda m, v, k: m.sum(v) * k,
         "vector": lambda m, v, k: m.stack([v.min(), v.max()]) * k,
         "matrix": lambda m, v, k: m.outer(v, v)[:2, :3] * k,
         "cumsum": lambda m, v, k: m.cumsum(v) * k}[kind]
    check(gp.apply_along_axis(lambda v, k: f(gp, v, k), axis, gp.asarray(a), 2.0),
          np.apply_along_axis(lambda v, k: f(np, v, k), axis, a, 2.0))


def test_apply_along_axis_dtypes_views_and_kwargs():
    a = np.array([[1, 2], [3, 4]])
    g = gp.asarray(a)
    pick = lambda v: 1 if v[0] > 1 else 2.5         # noqa: E731 - NumPy's own example shape
    check(gp.apply_along_axis(pick, 1, g), np.apply_along_axis(pick, 1, a))
    first_int = lambda v: 2 if v[0] < 2 else 2.5    # noqa: E731 - later results are cast
    check(gp.apply_along_axis(first_int, 1, g), np.apply_along_axis(first_int, 1, a))
    h, s = strided_pair(np.arange(24.0).reshape(4, 6))
    check(gp.apply_along_axis(gp.sort, 0, s), np.apply_along_axis(np.sort, 0, h))
    check(gp.apply_along_axis(gp.mean, 1, s, keepdims=True),
          np.apply_along_axis(np.mean, 1, h, keepdims=True))
    check(gp.apply_along_axis(gp.sum, 0, gp.asarray([1.5, 2.5])),
          np.apply_along_axis(np.sum, 0, np.array([1.5, 2.5])))


def test_apply_along_axis_errors():
    with pytest.raises(ValueError, match="iteration dimensions are 0"):
        gp.apply_along_axis(gp.sum, 1, gp.ones((0, 3)))
    with pytest.raises(AxisError):
        gp.apply_along_axis(gp.sum, 2, gp.ones((2, 3)))
    with pytest.raises(ValueError, match="could not broadcast"):
        gp.apply_along_axis(lambda v: v[:int(v[0])], 0, gp.asarray([[1, 2], [3, 4]]))


@pytest.mark.parametrize("axes", [0, [0, 2], (1,), [-1, 0], []])
def test_apply_over_axes(axes):
    a = sample(np.float32, (2, 3, 4), np.random.default_rng(9), special=False)
    check(gp.apply_over_axes(gp.sum, gp.asarray(a), axes), np.apply_over_axes(np.sum, a, axes))
    check(gp.apply_over_axes(gp.max, gp.asarray(a), axes), np.apply_over_axes(np.max, a, axes))


def test_apply_over_axes_bad_function():
    with pytest.raises(ValueError, match="correct shape"):
        gp.apply_over_axes(lambda x, ax: x.sum(), gp.ones((2, 3, 4)), [0])
