"""Ufunc loop and dtype resolution of elementwise ops (NumPy's rules): operands
classified (arrays strong, Python scalars weak), promoted with the one ``result_type``
lattice (NEP 50), the op's loop picked like NumPy's ufunc type resolution, and NumPy's
errors for Python ints a loop cannot hold.  ``elementwise.apply`` builds the IR node from
what this module resolves."""
from __future__ import annotations

import numpy as np

from ... import _dtypes as D
from ..._graph import ir
from ..._ops import EW_OPS
from .._common import as_node, check_device_match, is_array

_LOOP_CACHE: dict = {}

_CMP_OUT_OF_RANGE = {  # op -> (result when the weak int is above max, below min)
    "equal": (False, False), "not_equal": (True, True),
    "less": (True, False), "less_equal": (True, False),
    "greater": (False, True), "greater_equal": (False, True),
}
_SWAPPED = {"less": "greater", "less_equal": "greater_equal", "greater": "less",
            "greater_equal": "less_equal", "equal": "equal", "not_equal": "not_equal"}


def loop_dtype(op, dts) -> np.dtype:
    """The loop an op runs for input dtypes `dts` (a dtype or a tuple of them): the first
    of the op's loops every input casts to safely, as NumPy's ufunc type resolution."""
    if isinstance(dts, np.dtype):
        dts = (dts,)
    key = (op.name, dts)
    r = _LOOP_CACHE.get(key)
    if r is not None:
        return r
    if op.bool_error and all(d.kind == "b" for d in dts):
        raise TypeError(op.bool_error)
    r = None
    if op.cast_all:
        r = np.dtype(op.cast_all)
    elif op.int_loop and all(d.kind in "biu" for d in dts):
        r = np.dtype(op.int_loop)
    else:
        for c in op.loops:
            cand = np.dtype(c)
            if all(D.can_cast(d, cand, "safe") for d in dts):
                r = cand
                break
    if r is None:
        raise TypeError(f"ufunc '{op.name}' not supported for the input types, and the inputs "
                        f"could not be safely coerced to any supported types according to the "
                        f"casting rule ''safe''")
    _LOOP_CACHE[key] = r
    return r


def out_dtype(op, loop: np.dtype) -> np.dtype:
    rule = op.out
    if rule == "same":
        return loop
    if rule == "bool":
        return D.bool_
    if rule == "real":
        return D.real_dtype(loop)
    return np.dtype(rule)


def _operand(n):
    """Node `n` as an op's operand: an element's copy (``a[i, j]``, astype to its own
    dtype of a 0-d LEAF) is read from its memory (the op's result is itself a pending
    reader, materialized before that memory is written, as the copy would be)."""
    if n.kind == ir.EW and n.op == "astype":
        s = n.srcs[0]
        if s.kind == ir.LEAF and s.dtype is n.dtype and not s.shape:
            return s
    return n


def _classify(args):
    """-> (list of (node|None, weak_kind|None, value), device)."""
    items = []
    host = []
    for a in args:
        if is_array(a):
            items.append([_operand(a._node), None, None])
            continue
        k = D.weak_kind(a)
        if k is not None:
            items.append([None, k, a])
        elif isinstance(a, np.generic):
            items.append([None, "strong", a])
        else:
            items.append([None, "host", a])
            host.append(len(items) - 1)
    arrays = [it[0] for it in items if it[0] is not None]
    dev = check_device_match(arrays) if arrays else None
    for i in host:
        items[i] = [as_node(items[i][2], device=dev), None, None]
    if dev is None:
        arrays = [it[0] for it in items if it[0] is not None]
        dev = check_device_match(arrays)
    return items, dev


def _promote(items) -> np.dtype:
    strongs = _strong_dtypes(items)
    weak = [k for node, k, v in items if node is None and k != "strong"]
    if not strongs:
        return D.result_type(*[v for _, _, v in items])
    strong = D.promote_many(strongs)
    for k in weak:
        strong = D.apply_weak(strong, k)
    return strong


def _strong_dtypes(items):
    out = []
    for node, k, v in items:
        if node is not None:
            out.append(node.dtype)
        elif k == "strong":
            out.append(D.to_dtype(v.dtype))
    return out


def resolve(op, items, dtype=None):
    """(loop dtype, output dtype) of `op` on classified operands."""
    if dtype is not None:
        loop = loop_dtype(op, (D.to_dtype(dtype),))
    else:
        strongs = _strong_dtypes(items)
        pdt = _promote(items)
        if not strongs:
            dts = (pdt,)
        elif len(strongs) == len(items):
            dts = tuple(strongs)
        else:
            # weak Python scalars only matter when they change the kind (int array + 1.5)
            dts = tuple(strongs) + ((pdt,) if pdt != D.promote_many(strongs) else ())
        loop = loop_dtype(op, dts)
    return loop, out_dtype(op, loop)


def _mixed_u64(items) -> bool:
    """A signed integer operand beside a uint64 one (NumPy 2 compares them exactly)?"""
    kinds = [(D.to_dtype(v.dtype) if k == "strong" else node.dtype) for node, k, v in items
             if node is not None or k == "strong"]
    return len(kinds) == 2 and D.uint64 in kinds and any(d.kind == "i" for d in kinds)


def _signed_exponents(loop, items) -> bool:
    """Can the exponent array of an integer power be negative in the loop's type (a
    signed exponent, or an unsigned one the loop reads as signed)?"""
    e = items[1][0]
    if loop.kind != "i" or e is None:
        return False
    return e.dtype.kind == "i" or (e.dtype.kind == "u" and e.dtype.itemsize >= loop.itemsize)


def scalar_errors(name, items, loop) -> None:
    """NumPy's errors converting the Python ints of classified operands for `loop` (raised
    before the output cast is checked)."""
    strongs = _strong_dtypes(items)
    for node, k, v in items:
        if node is None and k == "i" and loop.kind == "b" and not -2**63 <= v < 2**63:
            raise OverflowError("Python int too large to convert to C long")
        if node is None and k == "i" and loop.kind in "iu":
            if not -2**63 <= v < 2**63 and loop == D.int64 and strongs and \
                    all(d.kind == "b" for d in strongs):
                raise OverflowError("Python int too large to convert to C long")
            if name not in _CMP_OUT_OF_RANGE:
                D.check_weak_int(v, loop)


def result_dtype(name: str, *args):
    """The dtype `apply(name, *args)` would produce (no graph is built)."""
    items, _ = _classify(args)
    return resolve(EW_OPS[name], items)[1]
