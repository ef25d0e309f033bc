"""The CUDA expression of every op-table row, per dtype class: one table, ``CODE_FOR_OP``.

Each entry maps an IR op name to a function ``(in_dt, out_dt, *args) -> str`` building the
C++ expression from the argument expressions (compute types, ``types.COMPUTE``); ``in_dt``
is the op's loop dtype and ``out_dt`` its result dtype.  An op without an entry, or whose
entry leaves a dtype class to the default, calls the ``gn_<name>`` helper overloaded in the
hand-written headers (gn_math.cuh for real types, gn_complex.cuh for complex); the table
holds the hottest ops on real types, which render inline, and the dtype classes whose
meaning differs.  A float16 result is rounded to half after every op (``gn_rh``, applied by
the caller), as NumPy rounds each op's result.  Adding an op is a row in
``gnumpy/_ops.py`` plus, when the default ``gn_<name>(...)`` call is not right, an entry
here.
"""
from __future__ import annotations

from typing import Callable

from .. import _dtypes as D
from .types import COMPUTE


def _call(op: str, *args: str) -> str:
    """The default: the ``gn_<op>`` helper of the headers."""
    return f"gn_{op}({', '.join(args)})"


def _binary(op: str, sym: str, *, wrap_int: bool = False, bool_sym: str | None = None):
    """``a sym b`` cast to the result's compute type on real dtypes; `wrap_int` calls the
    helper on integers instead (it wraps without C++ signed-overflow UB); `bool_sym` is the
    operator used on bool inputs."""
    def code(dt, out, a, b):
        if dt.kind == "c" or (wrap_int and dt.kind in "iu"):
            return _call(op, a, b)
        if bool_sym and dt.kind == "b":
            return f"({a} {bool_sym} {b})"
        return f"(({COMPUTE[out]})({a} {sym} {b}))"
    return code


def _compare(op: str, sym: str):
    """A comparison on real dtypes is the bare C++ operator (a bool)."""
    def code(dt, out, a, b):
        return _call(op, a, b) if dt.kind == "c" else f"({a} {sym} {b})"
    return code


def _logical(sym: str):
    """Logical ops compare truth values: ``(bool)x`` on real dtypes, ``gn_truth`` on complex."""
    def code(dt, out, a, b):
        if dt.kind == "c":
            return f"(gn_truth({a}) {sym} gn_truth({b}))"
        return f"((bool){a} {sym} (bool){b})"
    return code


def _half_variant(op: str):
    """float16 ops whose NumPy semantics differ from the float version (ties, ulp of half)."""
    def code(dt, out, *args):
        return _call(op + "_h" if dt == D.float16 else op, *args)
    return code


def _identity_on(kinds: str, op: str):
    """The argument itself for dtype kinds `kinds` (floor of an integer), else the helper."""
    def code(dt, out, a):
        return a if dt.kind in kinds else _call(op, a)
    return code


def _astype(dt, out, a):
    return a if dt == out else f"gn_cast<{COMPUTE[out]}>({a})"


def _divide(dt, out, a, b):
    return _call("divide", a, b) if dt.kind == "c" else f"({a} / {b})"


def _negative(dt, out, a):
    if dt.kind in "iuc":
        return _call("negative", a)
    return f"(({COMPUTE[out]})(-{a}))"


def _positive(dt, out, a):
    return _call("positive", a) if dt.kind == "c" else a


def _square(dt, out, a):
    if dt.kind in "iuc":
        return _call("square", a)
    return f"(({COMPUTE[out]})({a} * {a}))"


def _real(dt, out, a):
    return f"{a}.re" if dt.kind == "c" else a


def _imag(dt, out, a):
    return f"{a}.im" if dt.kind == "c" else f"(({COMPUTE[out]})0)"


def _conjugate(dt, out, a):
    return _call("conjugate", a) if dt.kind == "c" else a


def _logical_not(dt, out, a):
    return f"(!gn_truth({a}))" if dt.kind == "c" else f"(!{a})"


def _invert(dt, out, a):
    return f"(!{a})" if dt.kind == "b" else _call("invert", a)


CODE_FOR_OP: dict[str, Callable[..., str]] = {
    # IR ops outside the op table
    "where": lambda dt, out, c, a, b: f"({c} ? {a} : {b})",
    "astype": _astype,
    # arithmetic
    "add": _binary("add", "+", wrap_int=True, bool_sym="||"),
    "subtract": _binary("subtract", "-", wrap_int=True),
    "multiply": _binary("multiply", "*", wrap_int=True, bool_sym="&&"),
    "divide": _divide,
    "negative": _negative,
    "positive": _positive,
    "square": _square,
    "absolute": _identity_on("b", "absolute"),
    "real": _real,
    "imag": _imag,
    "conjugate": _conjugate,
    # float16 variants
    "maximum": _half_variant("maximum"),
    "minimum": _half_variant("minimum"),
    "fmax": _half_variant("fmax"),
    "fmin": _half_variant("fmin"),
    "nextafter": _half_variant("nextafter"),
    "spacing": _half_variant("spacing"),
    # rounding an integer or bool is the identity
    "floor": _identity_on("biu", "floor"),
    "ceil": _identity_on("biu", "ceil"),
    "trunc": _identity_on("biu", "trunc"),
    # comparisons
    "equal": _compare("equal", "=="),
    "not_equal": _compare("not_equal", "!="),
    "less": _compare("less", "<"),
    "less_equal": _compare("less_equal", "<="),
    "greater": _compare("greater", ">"),
    "greater_equal": _compare("greater_equal", ">="),
    # logical
    "logical_and": _logical("&&"),
    "logical_or": _logical("||"),
    "logical_xor": _logical("!="),
    "logical_not": _logical_not,
    # bitwise
    "bitwise_and": _binary("bitwise_and", "&"),
    "bitwise_or": _binary("bitwise_or", "|"),
    "bitwise_xor": _binary("bitwise_xor", "^"),
    "invert": _invert,
}


def render(op: str, in_dt, out_dt, args) -> str:
    """C++ expression computing `op` on argument expressions `args` (compute types)."""
    code = CODE_FOR_OP.get(op)
    if code is None:
        return _call(op, *args)
    return code(in_dt, out_dt, *args)
