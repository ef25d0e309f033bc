"""A Python bool given as an array dimension, compared against NumPy.

NumPy 2.x raises TypeError for a bool in a shape (``operator.index`` alone takes it as 1):
every shape parser (broadcast_to, resize, ndarray.resize, random sizes, eye/identity,
indices, broadcast_shapes, unravel_index, ravel_multi_index, vander's N) must too, with
NumPy's message, for Python's bools and NumPy's.  Where NumPy reads a bool as the
integer 0 or 1 (tile's reps, arange, linspace's num, repeat, tri) gnumpy must give the
same array; an array of integers is a shape where NumPy takes one.
(zeros/empty/ones/full/reshape: test_creation.py::test_a_bool_is_no_dimension.)
"""
import numpy as np
import pytest

import gnumpy as gp
from helpers import check


def _resize_method(xp, *shape):
    a = xp.ones(2)
    a.resize(*shape, refcheck=False)
    return a


REJECTED = {
    "broadcast_to": lambda xp: xp.broadcast_to(1.0, (True, 2)),
    "broadcast_to-bool": lambda xp: xp.broadcast_to(1.0, True),
    "broadcast_to-list": lambda xp: xp.broadcast_to(1.0, [2, False]),
    "resize": lambda xp: xp.resize(xp.ones(2), (True, 2)),
    "resize-bool": lambda xp: xp.resize(xp.ones(2), True),
    "ndarray.resize-tuple": lambda xp: _resize_method(xp, (True,)),
    "ndarray.resize-bool": lambda xp: _resize_method(xp, True),
    "ndarray.resize-args": lambda xp: _resize_method(xp, True, 2),
    "ndarray.resize-list": lambda xp: _resize_method(xp, [2, True]),
    "broadcast_shapes": lambda xp: xp.broadcast_shapes((True, 2), (2,)),
    "rng.random": lambda xp: xp.random.default_rng(0).random((True, 2)),
    "rng.random-bool": lambda xp: xp.random.default_rng(0).random(True),
    "rng.normal": lambda xp: xp.random.default_rng(0).normal(size=(True, 2)),
    "rng.normal-list": lambda xp: xp.random.default_rng(0).normal(size=[2, True]),
    "rng.standard_normal": lambda xp: xp.random.default_rng(0).standard_normal((True,)),
    "rng.integers": lambda xp: xp.random.default_rng(0).integers(5, size=(True, 2)),
    "random.random": lambda xp: xp.random.random((2, True)),
    "random.random-bool": lambda xp: xp.random.random(True),
    "random.rand": lambda xp: xp.random.rand(True),
    "random.rand-2": lambda xp: xp.random.rand(2, True),
    "random.randn": lambda xp: xp.random.randn(True),
    "random.randint": lambda xp: xp.random.randint(5, size=(True,)),
    "random.normal": lambda xp: xp.random.normal(size=(True,)),
    "eye": lambda xp: xp.eye(True),
    "eye-False": lambda xp: xp.eye(False),
    "eye-M": lambda xp: xp.eye(2, True),
    "identity": lambda xp: xp.identity(True),
    "indices": lambda xp: xp.indices((True, 2)),
    "indices-list": lambda xp: xp.indices([2, False]),
    "unravel_index": lambda xp: xp.unravel_index(0, (True, 2)),
    "ravel_multi_index": lambda xp: xp.ravel_multi_index((0, 0), (True, 2)),
    "vander": lambda xp: xp.vander(xp.ones(2), True),
    "unravel_index-bool": lambda xp: xp.unravel_index(0, True),
    "ravel_multi_index-bool": lambda xp: xp.ravel_multi_index((0,), True),
    "reshape-bool": lambda xp: xp.ones(1).reshape(True),
    "reshape-function-bool": lambda xp: xp.reshape(xp.ones(1), True),
    "broadcast_shapes-bool": lambda xp: xp.broadcast_shapes(True),
    "zeros-np.bool": lambda xp: xp.zeros((np.True_, 2)),
    "empty-np.bool": lambda xp: xp.empty(np.True_),
    "reshape-np.bool": lambda xp: xp.ones(2).reshape(np.True_, 2),
    "rng.random-np.bool": lambda xp: xp.random.default_rng(0).random((np.True_, 2)),
    "broadcast_to-np.bool": lambda xp: xp.broadcast_to(1.0, (np.True_,)),
    "eye-np.bool": lambda xp: xp.eye(np.True_),
}


@pytest.mark.parametrize("call", REJECTED.values(), ids=list(REJECTED))
def test_a_bool_is_no_dimension(call):
    """NumPy's TypeError, with NumPy's message."""
    with pytest.raises(TypeError) as np_err:
        call(np)
    with pytest.raises(TypeError) as gp_err:
        call(gp)
    assert str(gp_err.value) == str(np_err.value)


ACCEPTED = {
    "tile": lambda xp: xp.tile(xp.arange(3), (True, 2)),
    "tile-bool": lambda xp: xp.tile(xp.arange(3), True),
    "tile-False": lambda xp: xp.tile(xp.arange(3), [False, True]),
    "arange": lambda xp: xp.arange(True),
    "arange-start-stop": lambda xp: xp.arange(False, 3),
    "linspace": lambda xp: xp.linspace(0, 1, True),
    "linspace-False": lambda xp: xp.linspace(0, 1, False),
    "repeat": lambda xp: xp.arange(3).repeat(True),
    "repeat-each": lambda xp: xp.repeat(xp.arange(3), [True, False, True]),
    "tri": lambda xp: xp.tri(True),
    "tri-M": lambda xp: xp.tri(2, True),
    "eye-k": lambda xp: xp.eye(2, k=True),
    "zeros-array-shape": lambda xp: xp.zeros(np.array([2, 3])),
    "reshape-array-shape": lambda xp: xp.arange(6).reshape(np.array([3, 2])),
    "broadcast_to-array-shape": lambda xp: xp.broadcast_to(xp.arange(3), np.array([2, 3])),
    "unravel_index-array-shape": lambda xp: xp.stack(xp.unravel_index(1, np.array([2, 3]))),
    "ravel_multi_index-array-shape": lambda xp: xp.ravel_multi_index((xp.asarray([0]),
                                                                      xp.asarray([1])),
                                                                     np.array([2, 3])),
}


@pytest.mark.parametrize("call", ACCEPTED.values(), ids=list(ACCEPTED))
def test_a_bool_as_an_integer(call):
    """Where NumPy reads a bool as 0 or 1, the same shape, dtype and values."""
    check(call(gp), call(np), exact=True)
