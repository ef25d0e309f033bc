"""The op table: every elementwise and reduction op described once.

Each ``EwOp`` row gives the op's name (also its IR op name), arity, the dtypes it has loops
for (NumPy type characters, searched in order like NumPy's ufunc type resolution), the output
rule, the NumPy implementation (the reference meaning, used by the CPU backend), the public
aliases, and NumPy quirks.  Public functions, ndarray dunders, both backends and the tests'
parametrisation read this table; adding an op is one row here (plus the CUDA expression in
``gnumpy/kernels/ops_cuda.py``) and tests.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

# loop sets, in NumPy's search order
ALL = "?bBhHiIlLefdFD"
NUM = "bBhHiIlLefdFD"
INTB = "?bBhHiIlL"
INT = "bBhHiIlL"
FLT = "efdFD"
RFLT = "efd"
REAL = "?bBhHiIlLefd"
REALNB = "bBhHiIlLefd"


@dataclass(frozen=True)
class EwOp:
    name: str
    nin: int
    loops: str
    np_impl: Callable
    out: str = "same"            # 'same' | 'bool' | 'real' (complex -> its real dtype)
    aliases: tuple = ()
    bool_error: str | None = None   # NumPy refuses bool inputs with this TypeError message
    int_loop: str | None = None     # integer/bool inputs use this loop (divide: 'd')
    cast_all: str | None = None     # every input is cast to this loop (logical ops: '?')
    identity: object = None         # the ufunc's identity (for ufunc.identity / reduce)
    reduce_op: str | None = None    # reduction IR op used by ufunc.reduce
    extra: dict = field(default_factory=dict)
    dunder: str | None = None       # ndarray's operator: __<dunder>__ (arithmetic ops also
                                    # __r<dunder>__ and __i<dunder>__)


def _np_int_power(a, b):
    """Integer power with NumPy's wraparound; negative exponents give the truncated result.

    The API layer raises NumPy's ValueError for negative integer exponents (one device
    check of a signed exponent array at the call; ``where=`` replaces masked-off exponents
    by 0), so only an IR node built directly reaches them: trunc(a**b) there, as the CUDA
    kernels' ``gn_power`` (the sources share one signed dtype).
    """
    if a.dtype.kind == "i" and b.dtype.kind == "i":
        neg = b < 0
        if neg.any():
            r = np.power(a, np.where(neg, 0, b))
            one = np.ones_like(a)
            alt = np.where(a == 1, one, np.where(a == -1, np.where(b % 2 == 0, one, -one),
                                                 np.zeros_like(a)))
            return np.where(neg, alt, r)
    return np.power(a, b)


def _np_real(x):
    return np.real(x).copy() if x.dtype.kind == "c" else x.copy()


def _np_imag(x):
    return np.imag(x).copy() if x.dtype.kind == "c" else np.zeros_like(x)


def _np_modf_frac(x):
    return np.modf(x)[0]


def _np_frexp_mant(x):
    return np.frexp(x)[0]


def _np_frexp_exp(x):
    return np.frexp(x)[1]


_ROWS = [
    # ---- arithmetic
    EwOp("add", 2, ALL, np.add, identity=0, reduce_op="sum", dunder="add"),
    EwOp("subtract", 2, NUM, np.subtract, dunder="sub",
         bool_error="numpy boolean subtract, the `-` operator, is not supported, use the "
                    "bitwise_xor, the `^` operator, or the logical_xor function instead."),
    EwOp("multiply", 2, ALL, np.multiply, identity=1, reduce_op="prod", dunder="mul"),
    EwOp("divide", 2, FLT, np.divide, aliases=("true_divide",), int_loop="d", dunder="truediv"),
    EwOp("floor_divide", 2, REALNB, np.floor_divide, dunder="floordiv"),
    EwOp("remainder", 2, REALNB, np.remainder, aliases=("mod",), dunder="mod"),
    EwOp("fmod", 2, REALNB, np.fmod),
    EwOp("power", 2, NUM, _np_int_power, aliases=("pow",), dunder="pow"),
    EwOp("float_power", 2, "dD", np.float_power),
    EwOp("negative", 1, NUM, np.negative, dunder="neg",
         bool_error="The numpy boolean negative, the `-` operator, is not supported, use the "
                    "`~` operator or the logical_not function instead."),
    EwOp("positive", 1, NUM, np.positive, bool_error="The numpy boolean positive is not "
                                                      "supported (use astype).", dunder="pos"),
    EwOp("absolute", 1, ALL, np.absolute, out="real", aliases=("abs",), dunder="abs"),
    EwOp("fabs", 1, RFLT, np.fabs),
    EwOp("sign", 1, NUM, np.sign, bool_error="ufunc 'sign' did not contain a loop with "
                                             "signature matching types bool"),
    EwOp("square", 1, NUM, np.square),
    EwOp("reciprocal", 1, NUM, np.reciprocal),
    EwOp("conjugate", 1, NUM, np.conjugate, aliases=("conj",)),
    EwOp("real", 1, ALL, _np_real, out="real"),
    EwOp("imag", 1, ALL, _np_imag, out="real"),
    EwOp("maximum", 2, ALL, np.maximum, reduce_op="max"),
    EwOp("minimum", 2, ALL, np.minimum, reduce_op="min"),
    EwOp("fmax", 2, ALL, np.fmax),
    EwOp("fmin", 2, ALL, np.fmin),
    EwOp("heaviside", 2, RFLT, np.heaviside),
    EwOp("gcd", 2, INT, np.gcd, identity=0,
         bool_error="ufunc 'gcd' did not contain a loop with signature matching types bool"),
    EwOp("lcm", 2, INT, np.lcm,
         bool_error="ufunc 'lcm' did not contain a loop with signature matching types bool"),
    # ---- exponents, logs, roots
    EwOp("sqrt", 1, FLT, np.sqrt),
    EwOp("cbrt", 1, RFLT, np.cbrt),
    EwOp("exp", 1, FLT, np.exp),
    EwOp("exp2", 1, FLT, np.exp2),
    EwOp("expm1", 1, FLT, np.expm1),
    EwOp("log", 1, FLT, np.log),
    EwOp("log2", 1, FLT, np.log2),
    EwOp("log10", 1, FLT, np.log10),
    EwOp("log1p", 1, FLT, np.log1p),
    EwOp("logaddexp", 2, RFLT, np.logaddexp, identity=-np.inf),
    EwOp("logaddexp2", 2, RFLT, np.logaddexp2, identity=-np.inf),
    # ---- trigonometric and hyperbolic
    EwOp("sin", 1, FLT, np.sin),
    EwOp("cos", 1, FLT, np.cos),
    EwOp("tan", 1, FLT, np.tan),
    EwOp("arcsin", 1, FLT, np.arcsin, aliases=("asin",)),
    EwOp("arccos", 1, FLT, np.arccos, aliases=("acos",)),
    EwOp("arctan", 1, FLT, np.arctan, aliases=("atan",)),
    EwOp("arctan2", 2, RFLT, np.arctan2, aliases=("atan2",)),
    EwOp("hypot", 2, RFLT, np.hypot, identity=0),
    EwOp("sinh", 1, FLT, np.sinh),
    EwOp("cosh", 1, FLT, np.cosh),
    EwOp("tanh", 1, FLT, np.tanh),
    EwOp("arcsinh", 1, FLT, np.arcsinh, aliases=("asinh",)),
    EwOp("arccosh", 1, FLT, np.arccosh, aliases=("acosh",)),
    EwOp("arctanh", 1, FLT, np.arctanh, aliases=("atanh",)),
    EwOp("deg2rad", 1, RFLT, np.deg2rad, aliases=("radians",)),
    EwOp("rad2deg", 1, RFLT, np.rad2deg, aliases=("degrees",)),
    # ---- rounding and floating-point functions
    EwOp("floor", 1, REAL, np.floor),
    EwOp("ceil", 1, REAL, np.ceil),
    EwOp("trunc", 1, REAL, np.trunc),
    EwOp("rint", 1, FLT, np.rint),
    EwOp("copysign", 2, RFLT, np.copysign),
    EwOp("nextafter", 2, RFLT, np.nextafter),
    EwOp("spacing", 1, RFLT, np.spacing),
    EwOp("signbit", 1, RFLT, np.signbit, out="bool"),
    EwOp("modf_frac", 1, RFLT, _np_modf_frac),
    EwOp("frexp_mant", 1, RFLT, _np_frexp_mant),
    EwOp("frexp_exp", 1, RFLT, _np_frexp_exp, out="int32"),
    EwOp("ldexp", 2, RFLT, np.ldexp, extra={"special": True}),
    # ---- predicates
    EwOp("isfinite", 1, ALL, np.isfinite, out="bool"),
    EwOp("isinf", 1, ALL, np.isinf, out="bool"),
    EwOp("isnan", 1, ALL, np.isnan, out="bool"),
    # ---- comparisons
    EwOp("equal", 2, ALL, np.equal, out="bool", dunder="eq"),
    EwOp("not_equal", 2, ALL, np.not_equal, out="bool", dunder="ne"),
    EwOp("less", 2, ALL, np.less, out="bool", dunder="lt"),
    EwOp("less_equal", 2, ALL, np.less_equal, out="bool", dunder="le"),
    EwOp("greater", 2, ALL, np.greater, out="bool", dunder="gt"),
    EwOp("greater_equal", 2, ALL, np.greater_equal, out="bool", dunder="ge"),
    # ---- logical
    EwOp("logical_and", 2, ALL, np.logical_and, out="bool", identity=True, reduce_op="all", cast_all="?"),
    EwOp("logical_or", 2, ALL, np.logical_or, out="bool", identity=False, reduce_op="any", cast_all="?"),
    EwOp("logical_xor", 2, ALL, np.logical_xor, out="bool", identity=False, cast_all="?"),
    EwOp("logical_not", 1, ALL, np.logical_not, out="bool", cast_all="?"),
    # ---- bitwise
    EwOp("bitwise_and", 2, INTB, np.bitwise_and, identity=-1, dunder="and"),
    EwOp("bitwise_or", 2, INTB, np.bitwise_or, identity=0, dunder="or"),
    EwOp("bitwise_xor", 2, INTB, np.bitwise_xor, identity=0, dunder="xor"),
    EwOp("invert", 1, INTB, np.invert, aliases=("bitwise_invert", "bitwise_not"), dunder="invert"),
    EwOp("left_shift", 2, INT, np.left_shift, aliases=("bitwise_left_shift",), dunder="lshift"),
    EwOp("right_shift", 2, INT, np.right_shift, aliases=("bitwise_right_shift",), dunder="rshift"),
    EwOp("bitwise_count", 1, INT, np.bitwise_count, out="B"),
]

EW_OPS: dict[str, EwOp] = {r.name: r for r in _ROWS}

# Ops that are IR nodes but not public functions under their own name.
INTERNAL_EW = ("modf_frac", "frexp_mant", "frexp_exp")

# IR ops outside the table rows: 'astype' (cast) and 'where' (select), evaluated by backends.


@dataclass(frozen=True)
class ReduceOp:
    name: str
    np_impl: Callable            # numpy reduction taking (x, axis=tuple, keepdims=bool)
    # the value of an empty reduction (NumPy's), None where empty is an error; the CUDA
    # accumulators of sum, prod, any and all start from it (kernels/reduce_ops.py), and
    # tests/test_reductions.py checks it against NumPy for every dtype
    identity: object


def _np_argreduce(f):
    def impl(x, axis, keepdims):
        # axis is a tuple: one axis, or all axes (flattened index in C order)
        if len(axis) == x.ndim and x.ndim != 1:
            r = f(x.reshape(-1), axis=0)
            return r.reshape((1,) * x.ndim) if keepdims else r
        return f(x, axis=axis[0], keepdims=keepdims)
    return impl


REDUCE_OPS: dict[str, ReduceOp] = {r.name: r for r in [
    ReduceOp("sum", np.sum, 0),
    ReduceOp("prod", np.prod, 1),
    ReduceOp("max", np.max, None),
    ReduceOp("min", np.min, None),
    ReduceOp("any", np.any, False),
    ReduceOp("all", np.all, True),
    ReduceOp("argmax", _np_argreduce(np.argmax), None),
    ReduceOp("argmin", _np_argreduce(np.argmin), None),
    # population variance of real floats in one pass (var/std build on it)
    ReduceOp("var0", lambda x, axis, keepdims: np.var(x, axis=axis, keepdims=keepdims),
             np.nan),
]}


def public_names():
    """(public name, op row) for every elementwise op and alias that is a plain ufunc
    (rows marked special have hand-written public functions)."""
    for r in _ROWS:
        if r.name in INTERNAL_EW or r.extra.get("special"):
            continue
        yield r.name, r
        for a in r.aliases:
            yield a, r
