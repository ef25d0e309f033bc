"""Odd `axis=` arguments of the reductions, scans, sorts and axis-taking manipulations,
compared against NumPy on 0-d, 1-d and 2-d float arrays: the same exception type and
message, raised at the call, or (where NumPy takes the axis) the same result.

NumPy reads `axis` several ways, and gnumpy mirrors each (gnumpy/_api/_common.py):
ufunc.reduce's C reading (sum, min, any, the nan-reductions: a bool, a float or a list is
a TypeError; 0 and -1 name no axis of a 0-d array), NumPy's ``normalize_axis_index``
(mean/var/std count the items with it first; sort), ``normalize_axis_tuple`` (median,
quantile, average, flip, moveaxis, expand_dims: a list or an integer array is taken),
``PyArray_ConvertMultiAxis`` (squeeze) and ``PyArray_AxisConverter`` (argmax, cumsum,
argsort: a 0-d array is read as 1-d).
"""
import warnings

import numpy as np
import pytest

import gnumpy as gp
from helpers import check

_OBJ = object()
# (id, axis): the odd values, and a few ordinary ones next to them
AXES = [("2", 2), ("-3", -3), ("5", 5), ("1.0", 1.0), ("1.5", 1.5),
        ("f64_1", np.float64(1)), ("i64_1", np.int64(1)), ("i32_-1", np.int32(-1)),
        ("True", True), ("False", False), ("np_True", np.bool_(True)), ("str0", "0"),
        ("None", None), ("()", ()), ("(0,)", (0,)), ("(0,0)", (0, 0)), ("(0,-2)", (0, -2)),
        ("(0,1.0)", (0, 1.0)), ("[0]", [0]), ("[0,1]", [0, 1]), ("(True,)", (True,)),
        ("(np_True,)", (np.bool_(True),)), ("(5,True)", (5, True)), ("object", _OBJ),
        ("0", 0), ("-1", -1), ("(1,0)", (1, 0)), ("(0,0,5)", (0, 0, 5)),
        ("arr0", np.array(0)), ("arr[0]", np.array([0])), ("2**40", 2**40),
        ("-2**70", -2**70), ("(2**40,)", (2**40,))]

# the functions that take keepdims= (run with and without it)
KEEPDIMS = {"sum", "prod", "mean", "std", "var", "min", "max", "amin", "amax", "argmin",
            "argmax", "all", "any", "nansum", "nanprod", "nanmean", "nanstd", "nanvar",
            "nanmin", "nanmax", "nanargmin", "nanargmax", "median", "nanmedian", "ptp",
            "count_nonzero", "average", "quantile", "percentile", "nanquantile",
            "nanpercentile", "linalg.norm"}
FUNCTIONS = ["sum", "prod", "mean", "std", "var", "min", "max", "amin", "amax", "argmin",
             "argmax", "all", "any", "nansum", "nanprod", "nanmean", "nanstd", "nanvar",
             "nanmin", "nanmax", "nanargmin", "nanargmax", "median", "nanmedian", "ptp",
             "count_nonzero", "cumsum", "cumprod", "nancumsum", "nancumprod",
             "cumulative_sum", "cumulative_prod", "average", "quantile", "percentile",
             "nanquantile", "nanpercentile", "sort", "argsort", "flip", "squeeze",
             "expand_dims", "moveaxis", "concatenate", "concat", "append", "take",
             "repeat", "partition", "argpartition", "vecdot", "linalg.norm"]
METHODS = ["sum", "prod", "mean", "std", "var", "min", "max", "argmin", "argmax", "all",
           "any", "cumsum", "cumprod", "sort", "argsort", "squeeze", "take", "repeat",
           "partition", "argpartition"]
METHOD_KEEPDIMS = {"sum", "prod", "mean", "std", "var", "min", "max", "argmin", "argmax",
                   "all", "any"}

_BASE = np.array([[1.5, -2.0, 3.25], [0.5, 4.0, -1.0]])
ARRAYS = {0: np.array(2.5), 1: _BASE[0].copy(), 2: _BASE}


def _function(xp, name, a, axis, kw):
    if name == "linalg.norm":
        return xp.linalg.norm(a, axis=axis, **kw)
    f = getattr(xp, name)
    if name in ("concatenate", "concat", "append", "vecdot"):
        return f(*((a, a) if name != "concatenate" and name != "concat" else ([a, a],)),
                 axis=axis, **kw)
    if name in ("take", "repeat", "partition", "argpartition"):
        return f(a, {"take": [0], "repeat": 2}.get(name, 0), axis=axis, **kw)
    if name in ("quantile", "nanquantile"):
        return f(a, 0.5, axis=axis, **kw)
    if name in ("percentile", "nanpercentile"):
        return f(a, 50, axis=axis, **kw)
    if name == "moveaxis":
        return f(a, axis, 0)
    if name == "expand_dims":
        return f(a, axis)
    return f(a, axis=axis, **kw)


def _method(xp, name, a, axis, kw):
    if name in ("sort", "partition"):   # in place: the sorted array is the result
        a = a.copy()
        if name == "sort":
            a.sort(axis=axis)
        else:
            a.partition(0, axis=axis)
        return a
    if name in ("take", "repeat", "argpartition"):
        return getattr(a, name)({"take": [0], "repeat": 2}.get(name, 0), axis=axis, **kw)
    return getattr(a, name)(axis=axis, **kw)


def _outcome(call):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return call(), None
    except Exception as e:      # the exception type is what is compared
        return None, e


def _compare(call, name, nd, axis, keepdims):
    kw = {"keepdims": True} if keepdims else {}
    a = ARRAYS[nd]
    want, np_err = _outcome(lambda: call(np, name, a, axis, kw))
    got, gp_err = _outcome(lambda: call(gp, name, gp.asarray(a), axis, kw))
    where = f"{name}(ndim={nd}, axis={axis!r}{', keepdims=True' if keepdims else ''})"
    if np_err is not None:
        assert gp_err is not None, \
            f"{where}: NumPy raises {type(np_err).__name__}({np_err}), gnumpy does not"
        assert type(gp_err) is type(np_err), \
            f"{where}: gnumpy raises {type(gp_err).__name__}({gp_err}), NumPy " \
            f"{type(np_err).__name__}({np_err})"
        assert str(gp_err) == str(np_err), f"{where}: message {gp_err!s} != {np_err!s}"
    else:
        assert gp_err is None, \
            f"{where}: NumPy accepts the axis, gnumpy raises {type(gp_err).__name__}({gp_err})"
        check(got, want)


def _params(names, keepdims_of):
    return [pytest.param(n, kd, id=f"{n}{'-keepdims' if kd else ''}")
            for n in names for kd in ((False, True) if n in keepdims_of else (False,))]


AXIS_PARAMS = [pytest.param(v, id=i) for i, v in AXES]


@pytest.mark.parametrize("axis", AXIS_PARAMS)
@pytest.mark.parametrize("name, keepdims", _params(FUNCTIONS, KEEPDIMS))
def test_function_axis_as_numpy(name, keepdims, axis):
    for nd in (0, 1, 2):
        _compare(_function, name, nd, axis, keepdims)


@pytest.mark.parametrize("axis", AXIS_PARAMS)
@pytest.mark.parametrize("name, keepdims", _params(METHODS, METHOD_KEEPDIMS))
def test_method_axis_as_numpy(name, keepdims, axis):
    for nd in (0, 1, 2):
        _compare(_method, name, nd, axis, keepdims)


@pytest.mark.parametrize("name", ["mean", "var", "std"])
@pytest.mark.parametrize("axis", [0, -1, np.bool_(True), True, (True,), 1.0])
def test_mean_with_where_reads_axis_as_the_ufunc(name, axis):
    """With where=, NumPy's mean counts with a sum (ufunc.reduce's reading: 0 and -1 name no
    axis of a 0-d array); without it, normalize_axis_index reads each axis first."""
    for nd in (0, 1, 2):
        def call(xp, name, a, axis, kw):
            return getattr(xp, name)(a, axis=axis, where=xp.asarray(True), **kw)
        _compare(call, name, nd, axis, False)


def test_cumulative_sum_of_2d_without_axis():
    a = np.ones((2, 3))
    for f in ("cumulative_sum", "cumulative_prod"):
        with pytest.raises(ValueError, match="``axis`` argument is required"):
            getattr(np, f)(a)
        with pytest.raises(ValueError, match="``axis`` argument is required"):
            getattr(gp, f)(gp.asarray(a))
