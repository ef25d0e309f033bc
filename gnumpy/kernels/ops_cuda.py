"""The CUDA expression of every op-table row, per dtype class.

Most ops call a ``gn_<name>`` helper overloaded in the hand-written headers
(gn_math.cuh for real types, gn_complex.cuh for complex); the hottest ops on real types
render inline.  A float16 result is rounded to half after every op (``gn_rh``), as NumPy
rounds each op's result.  Adding an op is a row in ``gnumpy/_ops.py`` plus, when the
default ``gn_<name>(...)`` call is not right, an entry here.
"""
from __future__ import annotations

from .. import _dtypes as D
from .types import COMPUTE

_INFIX = {
    "add": "+", "subtract": "-", "multiply": "*", "equal": "==", "not_equal": "!=",
    "less": "<", "less_equal": "<=", "greater": ">", "greater_equal": ">=",
    "bitwise_and": "&", "bitwise_or": "|", "bitwise_xor": "^",
}
# float16 ops whose NumPy semantics differ from the float versions (ties, ulp of half)
_HALF_VARIANTS = {"spacing", "nextafter", "maximum", "minimum", "fmax", "fmin"}
_PREDICATES = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
               "isnan", "isinf", "isfinite", "signbit", "logical_and", "logical_or",
               "logical_xor", "logical_not"}


def render(op: str, in_dt, out_dt, args) -> str:
    """C++ expression computing `op` on argument expressions `args` (compute types)."""
    ct = COMPUTE[out_dt]
    cplx = in_dt.kind == "c"
    if op == "where":
        return f"({args[0]} ? {args[1]} : {args[2]})"
    if op == "astype":
        if in_dt == out_dt:
            return args[0]
        return f"gn_cast<{ct}>({args[0]})"
    if not cplx:
        if in_dt == D.float16 and op in _HALF_VARIANTS:
            return f"gn_{op}_h({', '.join(args)})"
        if op in _INFIX:
            a, b = args
            sym = _INFIX[op]
            if in_dt.kind == "b" and op in ("add", "multiply"):
                return f"({a} {'||' if op == 'add' else '&&'} {b})"
            if op in _PREDICATES:
                return f"({a} {sym} {b})"
            if in_dt.kind in "iu" and op in ("add", "subtract", "multiply"):
                return f"gn_{op}({a}, {b})"     # wraps without C++ signed-overflow UB
            return f"(({ct})({a} {sym} {b}))"
        if op == "divide":
            return f"({args[0]} / {args[1]})"
        if op == "negative":
            if in_dt.kind in "iu":
                return f"gn_negative({args[0]})"
            return f"(({ct})(-{args[0]}))"
        if op == "positive":
            return args[0]
        if op == "logical_not":
            return f"(!{args[0]})"
        if op == "logical_and":
            return f"((bool){args[0]} && (bool){args[1]})"
        if op == "logical_or":
            return f"((bool){args[0]} || (bool){args[1]})"
        if op == "logical_xor":
            return f"((bool){args[0]} != (bool){args[1]})"
        if op == "square":
            if in_dt.kind in "iu":
                return f"gn_square({args[0]})"
            return f"(({ct})({args[0]} * {args[0]}))"
        if op in ("real", "conjugate"):
            return args[0]
        if op == "imag":
            return f"(({ct})0)"
        if op == "absolute" and in_dt.kind == "b":
            return args[0]
        if op == "invert" and in_dt.kind == "b":
            return f"(!{args[0]})"
        if op in ("floor", "ceil", "trunc") and in_dt.kind in "biu":
            return args[0]
    else:
        if op == "real":
            return f"{args[0]}.re"
        if op == "imag":
            return f"{args[0]}.im"
        if op in ("logical_and", "logical_or", "logical_xor"):
            a, b = (f"gn_truth({x})" for x in args)
            sym = {"logical_and": "&&", "logical_or": "||", "logical_xor": "!="}[op]
            return f"({a} {sym} {b})"
        if op == "logical_not":
            return f"(!gn_truth({args[0]}))"
    return f"gn_{op}({', '.join(args)})"

