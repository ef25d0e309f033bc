"""Forms the library calls recognize in a graph: an operand scaled by a constant (its
alpha or beta) and a write of a matrix product into memory it may accumulate into."""
from __future__ import annotations

import cmath

from .ir import BARRIER, EW, LEAF, SCALAR, same_place


def scaled(n):
    """(X, s) when `n` is ``s * X`` or ``X * s``: a multiply by a constant s, finite and
    nonzero (a Python float, or complex for a complex `n`), of an X of n's dtype and shape
    that is no constant; else (n, None).  A library call takes s as its alpha or beta."""
    if n.kind != EW or n.op != "multiply":
        return n, None
    x, y = n.srcs
    if x.kind == SCALAR:
        s, x = x.arg, y
    elif y.kind == SCALAR:
        s = y.arg
    else:
        return n, None
    if x.dtype is not n.dtype or x.shape != n.shape or x.kind == SCALAR:
        return n, None
    s = complex(s) if n.dtype.kind == "c" else float(s)
    return (x, s) if s != 0 and cmath.isfinite(s) else (n, None)


def product_form(dest, value):
    """(p, beta) when `value`, written into LEAF `dest`, is ``p`` (beta 0), ``p + dest`` or
    ``p + beta * dest`` (``scaled``) for matmul node p (a library call): the call can
    write dest itself, with beta; else None."""
    if value.kind == BARRIER:
        return (value, 0) if value.op == "matmul" else None
    if value.kind != EW or value.op != "add":
        return None
    p, q = value.srcs
    if p.kind != BARRIER or p.op != "matmul":
        p, q = q, p
        if p.kind != BARRIER or p.op != "matmul":
            return None
    t, beta = scaled(q)
    if t.kind != LEAF or not same_place(t, dest):
        return None
    return p, 1 if beta is None else beta
