"""gnumpy takes NumPy's parameter names and kinds (from a signature sweep against NumPy 2.x):
each call below passes an argument by NumPy's keyword (or positionally where NumPy takes
it positionally and the Array API spelling did not) and compares the result with NumPy's
on random input: values, dtype and shape.  The Array API's positional-only first argument
is still taken positionally (``test_array_api_spelling_still_works``).
"""
import inspect

import numpy as np
import pytest

import gnumpy as gp
from helpers import check

_rng = np.random.default_rng(20240611)
A = _rng.standard_normal((3, 4))                      # a general matrix
SQ = _rng.standard_normal((3, 3)) + 3 * np.eye(3)     # well conditioned, square
SPD = SQ @ SQ.T                                       # symmetric positive definite
V = _rng.standard_normal(3)
INTS = _rng.integers(-2, 3, (3, 4))
C = _rng.standard_normal((3, 4)) + 1j * _rng.standard_normal((3, 4))
T = _rng.standard_normal((2, 3, 3))                   # a stack of square matrices
_NDMAX = "ndmax" in inspect.signature(np.array).parameters    # (NumPy 2.4)


def _x(xp, a):
    return xp.asarray(a)


# name -> a call that works in NumPy; xp is numpy or gnumpy
CASES = {
    # reductions: NumPy's `a` (gnumpy's Array API `x, /`)
    "count_nonzero(a=)": lambda xp: xp.count_nonzero(a=_x(xp, INTS), axis=1),
    "sum(a=)": lambda xp: xp.sum(a=_x(xp, A), axis=1),
    "prod(a=)": lambda xp: xp.prod(a=_x(xp, A), axis=0),
    "max(a=)": lambda xp: xp.max(a=_x(xp, A), axis=0),
    "min(a=)": lambda xp: xp.min(a=_x(xp, A), axis=1),
    "amax(a=)": lambda xp: xp.amax(a=_x(xp, A), axis=1),
    "amin(a=)": lambda xp: xp.amin(a=_x(xp, A), axis=0),
    "argmax(a=)": lambda xp: xp.argmax(a=_x(xp, A), axis=1),
    "argmin(a=)": lambda xp: xp.argmin(a=_x(xp, A), axis=0),
    "any(a=)": lambda xp: xp.any(a=_x(xp, INTS) > 1, axis=0),
    "all(a=)": lambda xp: xp.all(a=_x(xp, INTS) > -2, axis=1),
    "mean(a=)": lambda xp: xp.mean(a=_x(xp, A), axis=1),
    "var(a=)": lambda xp: xp.var(a=_x(xp, A), axis=0, ddof=1),
    "std(a=)": lambda xp: xp.std(a=_x(xp, A), axis=1),
    "diff(a=)": lambda xp: xp.diff(a=_x(xp, A), axis=1),
    "cumulative_sum(out=)": lambda xp: xp.cumulative_sum(
        _x(xp, A), axis=1, out=xp.zeros((3, 4))),
    "cumulative_sum(out= of another kind)": lambda xp: xp.cumulative_sum(   # (unsafe cast)
        _x(xp, A * 10), axis=0, out=xp.zeros((3, 4), dtype=xp.int64)),
    "cumulative_prod(out=, include_initial=)": lambda xp: xp.cumulative_prod(
        _x(xp, A), axis=0, include_initial=True, out=xp.zeros((4, 4))),
    # elementwise
    "round(a=)": lambda xp: xp.round(a=_x(xp, A), decimals=2),
    "around(a=)": lambda xp: xp.around(a=_x(xp, A), decimals=1),
    "clip(a=, a_min=, a_max=)": lambda xp: xp.clip(a=_x(xp, A), a_min=-0.5, a_max=0.5),
    "clip(a=, min=, max=)": lambda xp: xp.clip(a=_x(xp, A), min=-0.5, max=0.5),
    "real(val=)": lambda xp: xp.real(val=_x(xp, C)),
    "imag(val=)": lambda xp: xp.imag(val=_x(xp, C)),
    "real(val=) of a real array": lambda xp: xp.real(val=_x(xp, A)),
    "imag(val=) of a real array": lambda xp: xp.imag(val=_x(xp, INTS)),
    # ufuncs of two outputs: out= a tuple (an array or None each), or the outputs positionally
    "modf(out=)": lambda xp: xp.modf(_x(xp, A * 3), out=(xp.zeros((3, 4)), xp.zeros((3, 4)))),
    "modf(x, out1, out2)": lambda xp: xp.modf(_x(xp, A * 3), xp.zeros((3, 4)),
                                              xp.zeros((3, 4))),
    "modf(out= of another kind, None)": lambda xp: xp.modf(
        _x(xp, A * 3), out=(xp.zeros((3, 4), dtype=xp.float32), None)),
    "modf(out= broadcast, dtype=)": lambda xp: xp.modf(
        _x(xp, A * 3), out=(None, xp.zeros((2, 3, 4))), dtype=xp.float32),
    "modf(out=, where=)": lambda xp: xp.modf(
        _x(xp, A * 3), out=(xp.ones((3, 4)), xp.ones((3, 4))), where=_x(xp, INTS) > 0),
    "divmod(out=)": lambda xp: xp.divmod(_x(xp, A * 3), 0.7,
                                         out=(xp.zeros((3, 4)), xp.zeros((3, 4)))),
    "divmod(x1, x2, out1)": lambda xp: xp.divmod(_x(xp, INTS), 3, xp.zeros((3, 4), xp.int8)),
    "divmod(out= with an unsafe cast)": lambda xp: xp.divmod(
        _x(xp, A * 3), 0.7, out=(xp.zeros((3, 4), xp.int64), None), casting="unsafe"),
    "frexp(out=)": lambda xp: xp.frexp(_x(xp, A), out=(xp.zeros((3, 4)),
                                                       xp.zeros((3, 4), xp.int64))),
    "frexp(x, None, out2)": lambda xp: xp.frexp(_x(xp, A), None, xp.zeros((3, 4), xp.int32)),
    # creation
    "asarray(a=)": lambda xp: xp.asarray(a=A),
    "array(object=)": lambda xp: xp.array(object=A, dtype=xp.float32),
    "zeros_like(a=)": lambda xp: xp.zeros_like(a=_x(xp, A)),
    "ones_like(a=)": lambda xp: xp.ones_like(a=_x(xp, INTS)),
    "full_like(a=)": lambda xp: xp.full_like(a=_x(xp, A), fill_value=2.5),
    "empty_like(prototype=)": lambda xp: xp.zeros_like(   # (its values are unspecified)
        xp.empty_like(prototype=_x(xp, A), dtype=xp.float32)),
    "empty_like(prototype, dtype, order, subok, shape)": lambda xp: xp.zeros_like(
        xp.empty_like(_x(xp, A), xp.int16, "C", True, (2, 5))),
    "zeros_like(a, dtype, order, subok, shape)": lambda xp: xp.zeros_like(
        _x(xp, A), xp.int8, "K", True, (5,)),
    "ones_like(a=, shape=)": lambda xp: xp.ones_like(a=_x(xp, A), shape=(2, 2)),
    "full_like(a, fill_value, dtype)": lambda xp: xp.full_like(_x(xp, A), 7, xp.int32),
    "tril(m=)": lambda xp: xp.tril(m=_x(xp, A), k=1),
    "triu(m=)": lambda xp: xp.triu(m=_x(xp, A), k=-1),
    "linspace(start=, stop=)": lambda xp: xp.linspace(start=V[0], stop=V[1], num=7),
    "linspace(start, stop, num, endpoint, retstep, dtype, axis)": lambda xp: xp.linspace(
        _x(xp, V), 5.0, 4, False, True, xp.float32, 1)[0],
    # products
    "vecdot(out=)": lambda xp: xp.vecdot(_x(xp, A), _x(xp, A), out=xp.zeros(3)),
    "vecdot(x1, x2, out)": lambda xp: xp.vecdot(_x(xp, A.T), _x(xp, V), xp.zeros(4)),
    "vecdot(out= broadcast, of another kind)": lambda xp: xp.vecdot(
        _x(xp, A), _x(xp, A), out=xp.zeros((2, 3), xp.float32)),
    "vecdot(axis=) of each operand's own axes": lambda xp: xp.vecdot(
        _x(xp, SQ), _x(xp, T), axis=1),
    "vecdot(axis=0)": lambda xp: xp.vecdot(_x(xp, A), _x(xp, A[:, :1]), axis=0),
    "vecdot(axis=, keepdims=)": lambda xp: xp.vecdot(_x(xp, SQ), _x(xp, T), axis=-2,
                                                     keepdims=True),
    "vecdot(dtype=) of complex": lambda xp: xp.vecdot(_x(xp, C), _x(xp, C),
                                                      dtype=xp.complex64),
    "linalg.vecdot(axis=)": lambda xp: xp.linalg.vecdot(_x(xp, SQ), _x(xp, T), axis=1),
    # shape manipulation
    "ravel(a=)": lambda xp: xp.ravel(a=_x(xp, A), order="F"),
    "reshape(a, shape, order)": lambda xp: xp.reshape(_x(xp, A), (2, 6), "F"),
    "transpose(a=)": lambda xp: xp.transpose(a=_x(xp, A)),
    "permute_dims(a=)": lambda xp: xp.permute_dims(a=_x(xp, A), axes=(1, 0)),
    "swapaxes(a=)": lambda xp: xp.swapaxes(a=_x(xp, A), axis1=0, axis2=1),
    "moveaxis(a=, source=, destination=)": lambda xp: xp.moveaxis(
        a=_x(xp, A[None]), source=0, destination=-1),
    "expand_dims(a=)": lambda xp: xp.expand_dims(a=_x(xp, A), axis=1),
    "squeeze(a=)": lambda xp: xp.squeeze(a=_x(xp, A[:, None])),
    "broadcast_to(array=, shape=, subok=)": lambda xp: xp.broadcast_to(
        array=_x(xp, V), shape=(2, 3), subok=False),
    "broadcast_to(array, shape, subok)": lambda xp: xp.broadcast_to(_x(xp, V), (4, 3), False),
    "broadcast_arrays(subok=)": lambda xp: xp.broadcast_arrays(
        _x(xp, A), _x(xp, A[:1]), subok=False)[1],
    "stack(arrays=)": lambda xp: xp.stack(arrays=[_x(xp, A), _x(xp, -A)], axis=1),
    "concat(arrays, axis)": lambda xp: xp.concat([_x(xp, A), _x(xp, INTS)], 1),
    "concat(dtype=, casting=)": lambda xp: xp.concat(
        [_x(xp, A), _x(xp, A)], dtype=xp.float32, casting="same_kind"),
    "concat(out=)": lambda xp: xp.concat([_x(xp, A), _x(xp, -A)], out=xp.zeros((6, 4))),
    "append(arr=)": lambda xp: xp.append(arr=_x(xp, A), values=_x(xp, A[:1]), axis=0),
    "delete(arr=)": lambda xp: xp.delete(arr=_x(xp, A), obj=[0, 2], axis=1),
    "insert(arr=)": lambda xp: xp.insert(arr=_x(xp, A), obj=1, values=V, axis=1),
    "apply_along_axis(arr=)": lambda xp: xp.apply_along_axis(
        lambda r: r * r[0], 1, arr=_x(xp, A)),
    # dtype information, compared as 0-d float64/int64 arrays (gnumpy's finfo gives Python
    # floats, the Array API's, where NumPy's are float32 scalars)
    "finfo(dtype=)": lambda xp: xp.asarray(float(xp.finfo(dtype=xp.float32).eps)),
    "iinfo(int_type=)": lambda xp: xp.asarray(xp.iinfo(int_type=xp.int16).min),
    # linalg: NumPy's `a`/`b`/`A`/`n`/`x` (gnumpy's Array API `x, /` or `x1, x2, /`)
    "linalg.det(a=)": lambda xp: xp.linalg.det(a=_x(xp, SQ)),
    "linalg.inv(a=)": lambda xp: xp.linalg.inv(a=_x(xp, SQ)),
    "linalg.slogdet(a=)": lambda xp: xp.linalg.slogdet(a=_x(xp, SQ))[1],
    "linalg.solve(a=, b=)": lambda xp: xp.linalg.solve(a=_x(xp, SQ), b=_x(xp, V)),
    "linalg.qr(a=)": lambda xp: xp.abs(xp.linalg.qr(a=_x(xp, SQ), mode="r")),
    "linalg.eig(a=)": lambda xp: xp.sort(xp.linalg.eig(a=_x(xp, SPD))[0].real),
    "linalg.eigvals(a=)": lambda xp: xp.sort(xp.linalg.eigvals(a=_x(xp, SPD)).real),
    "linalg.eigh(a=)": lambda xp: xp.linalg.eigh(a=_x(xp, SPD), UPLO="U")[0],
    "linalg.eigvalsh(a=)": lambda xp: xp.linalg.eigvalsh(a=_x(xp, SPD)),
    "linalg.svd(a=)": lambda xp: xp.linalg.svd(a=_x(xp, A), compute_uv=False),
    "linalg.pinv(a=)": lambda xp: xp.linalg.pinv(a=_x(xp, A)),
    "linalg.matrix_rank(A=)": lambda xp: xp.asarray(xp.linalg.matrix_rank(A=_x(xp, A))),
    "linalg.lstsq(a=, b=)": lambda xp: xp.linalg.lstsq(
        a=_x(xp, SQ), b=_x(xp, V), rcond=None)[0],
    "linalg.matrix_power(a=, n=)": lambda xp: xp.linalg.matrix_power(a=_x(xp, SQ), n=3),
    "linalg.cond(x=)": lambda xp: xp.linalg.cond(x=_x(xp, SQ), p=1),
    "linalg.tensorinv(a=)": lambda xp: xp.linalg.tensorinv(a=_x(xp, SQ), ind=1),
    "linalg.tensorsolve(a=, b=)": lambda xp: xp.linalg.tensorsolve(a=_x(xp, SQ),
                                                                   b=_x(xp, V)),
}

if _NDMAX:
    CASES["array(ndmax=)"] = lambda xp: xp.array([[1.5, 2.5]], ndmax=2, dtype=xp.float32)
    CASES["array(ndmin=, ndmax=)"] = lambda xp: xp.array(object=[1, 2], ndmin=2, ndmax=2)
    CASES["array(array, ndmax=)"] = lambda xp: xp.array(_x(xp, A), ndmax=1)

# results computed by a factorization: within a few ulps of the matrix's scale
_SCALED = {"linalg.det(a=)", "linalg.inv(a=)", "linalg.slogdet(a=)", "linalg.solve(a=, b=)",
           "linalg.qr(a=)", "linalg.eig(a=)", "linalg.eigvals(a=)", "linalg.eigh(a=)",
           "linalg.eigvalsh(a=)", "linalg.svd(a=)", "linalg.pinv(a=)",
           "linalg.lstsq(a=, b=)", "linalg.matrix_power(a=, n=)", "linalg.cond(x=)",
           "linalg.tensorinv(a=)", "linalg.tensorsolve(a=, b=)"}


@pytest.mark.parametrize("name", list(CASES))
def test_numpy_keyword(name):
    call = CASES[name]
    expected = call(np)
    actual = call(gp)
    check(actual, expected, scale=1e3 if name in _SCALED else None)


def test_array_api_spelling_still_works():
    """The Array API's positional-only spellings and its keyword-only ones keep working."""
    x = gp.asarray(A)
    check(gp.count_nonzero(x, axis=1), np.count_nonzero(A, axis=1))
    check(gp.concat([x, x], axis=1), np.concat([A, A], axis=1))
    check(gp.linspace(0.0, 1.0, 5, endpoint=False), np.linspace(0.0, 1.0, 5, endpoint=False))
    check(gp.moveaxis(x, 0, 1), np.moveaxis(A, 0, 1))
    check(gp.linalg.solve(gp.asarray(SQ), gp.asarray(V)), np.linalg.solve(SQ, V),
          scale=1e3)
    check(gp.cumulative_sum(x, axis=0), np.cumulative_sum(A, axis=0))
    check(gp.reshape(x, (4, 3), order="F"), np.reshape(A, (4, 3), order="F"))


def test_out_arrays_are_returned_and_checked_as_numpys():
    """The ufuncs of two outputs and vecdot return the out arrays they wrote (an out array
    that is an input is read before it is written) and raise NumPy's exception types:
    an out tuple of the wrong length or a lone array, out given both ways, an output cast
    the casting rule refuses, out arrays whose shapes do not fit the loop's."""
    def outs(xp):
        return xp.zeros((3, 4)), xp.zeros((3, 4))

    for f, args in [("modf", (A * 3,)), ("divmod", (A * 3, 0.7)), ("frexp", (A,))]:
        for xp in (np, gp):
            o1, o2 = outs(xp)
            if f == "frexp":
                o2 = xp.zeros((3, 4), xp.int32)
            xs = [_x(xp, a) if isinstance(a, np.ndarray) else a for a in args]
            r = getattr(xp, f)(*xs, out=(o1, o2))
            assert r[0] is o1 and r[1] is o2
            r = getattr(xp, f)(*xs, o1)
            assert r[0] is o1 and r[1] is not o2
            x = _x(xp, args[0]) * 1
            r = getattr(xp, f)(x, *xs[1:], out=(x, None))     # the input, overwritten
            assert r[0] is x
            if xp is gp:
                check(r, getattr(np, f)(*args))
            bad = [({"out": (o1,)}, ValueError), ({"out": (o1, o2, o1)}, ValueError),
                   ({"out": o1}, TypeError), ({"out": [o1, o2]}, TypeError),
                   ({"out": (1, o2)}, TypeError),
                   ({"out": (xp.zeros((3, 4), xp.bool_), o2)}, TypeError),
                   ({"out": (xp.zeros((3, 4)), xp.zeros(4))}, ValueError),
                   ({"out": (xp.zeros((2, 3, 4)), xp.zeros((4, 3, 4)))}, ValueError),
                   ({"out": (o1, o2), "casting": "bogus"}, ValueError)]
            for kw, exc in bad:
                with pytest.raises(exc):
                    getattr(xp, f)(*xs, **kw)
            with pytest.raises(TypeError):
                getattr(xp, f)(*xs, o1, out=(o1, o2))
            with pytest.raises(TypeError):
                getattr(xp, f)(*xs, o1, o2, o1)
    for xp in (np, gp):
        o = xp.zeros(3)
        assert xp.vecdot(_x(xp, A), _x(xp, A), out=o) is o
        assert xp.vecdot(_x(xp, A), _x(xp, A), o) is o
        for kw, exc in [({"out": xp.zeros(3, xp.int64)}, TypeError),
                        ({"out": xp.zeros(4)}, ValueError), ({"axis": 2}, np.exceptions.AxisError),
                        ({"dtype": xp.int64}, TypeError)]:
            with pytest.raises(exc):
                xp.vecdot(_x(xp, A), _x(xp, A), **kw)
        with pytest.raises(ValueError):     # core dimensions of different lengths
            xp.vecdot(_x(xp, A), _x(xp, V))


def test_real_and_imag_of_val_are_numpys_views():
    """NumPy's real and imag (functions of `val`, not ufuncs): views of a complex array's
    parts that writes go through; a real array's real part is the array itself."""
    for xp in (np, gp):
        c = _x(xp, C) * 1
        re, im = xp.real(val=c), xp.imag(c)
        assert xp.shares_memory(re, c) and xp.shares_memory(im, c)
        re[0, 0] = 5.0
        im[0, 1] = -2.0
        assert complex(c[0, 0].item()) == 5.0 + C[0, 0].imag * 1j
        assert complex(c[0, 1].item()) == C[0, 1].real - 2j
        a = _x(xp, A)
        assert xp.real(val=a) is a
    check(gp.real([1 + 2j, 3]), np.real(np.array([1 + 2j, 3])))
    check(gp.imag(val=[1.5, 2]), np.imag(np.array([1.5, 2])))
