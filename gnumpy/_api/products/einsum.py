"""``einsum`` (Einstein summation) and ``einsum_path``.

Subscripts are parsed as NumPy does (explicit ``->`` or implicit output, ``...``
broadcasting, the interleaved operand/sublist form).  The contraction is built from existing
ops: a repeated label inside one operand (a diagonal) is a ``where`` mask on index equality
plus a sum; two operands that share a contracted label and both keep free labels meet in one
``matmul`` (after transposes and reshapes, as ``tensordot``); everything else is a broadcast
multiply and a sum, which fuse into one reduction kernel.  More than two operands are
contracted left to right.
"""
from __future__ import annotations

import numpy as np

from ... import _dtypes as D
from ..._graph import ir
from .._common import as_node, check_device_match, is_array, wrap
from ..elementwise.elementwise import apply, astype
from ..elementwise.elementwise import where as where_
from ..shape.manipulation import broadcast_to
from ..reductions.reductions import sum as sum_
from .matmul import matmul
from ..outargs import finish

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _arr(x, device=None):
    return x if is_array(x) else wrap(as_node(x, device=device))


def _from_sublists(operands):
    """The interleaved form ``einsum(a, [0, 1], b, [1, 2], [0, 2])`` as a string."""
    def letters(sub):
        out = []
        for s in sub:
            if s is Ellipsis:
                out.append("...")
            else:
                i = int(s)
                if not 0 <= i < len(_LETTERS):
                    raise ValueError("subscript is not within the valid range [0, 52)")
                out.append(_LETTERS[i])
        return "".join(out)
    ops = list(operands[0::2])
    subs = [letters(s) for s in operands[1::2]]
    out = None
    if len(operands) % 2 == 1:
        out = letters(operands[-1])
        ops = ops[:-1]
    return ",".join(subs[:len(ops)]) + ("" if out is None else "->" + out), ops


def _term(term, ndim, i):
    """Labels of one operand's subscripts (the ellipsis as the marker '.')."""
    if "." in term:
        if term.count(".") != 3 or "..." not in term:
            raise ValueError("invalid subscript '.' in einstein sum subscripts string, "
                             "subscripts must be letters")
        before, after = term.split("...")
    else:
        before, after = term, None
    for c in before + (after or ""):
        if c not in _LETTERS:
            raise ValueError(f"invalid subscript '{c}' in einstein sum subscripts string, "
                             f"subscripts must be letters")
    named = len(before) + len(after or "")
    if named > ndim:
        raise ValueError(f"einstein sum subscripts string contains too many subscripts for "
                         f"operand {i}")
    if after is None:
        if named < ndim:
            raise ValueError("operand has more dimensions than subscripts given in einstein "
                             "sum, but no '...' ellipsis provided to broadcast the extra "
                             "dimensions.")
        return list(before), 0
    return list(before) + ["."] * (ndim - named) + list(after), ndim - named


def parse(subscripts, ndims):
    """-> (labels per operand, output labels); ellipsis dims get labels '0', '1', ..."""
    subscripts = subscripts.replace(" ", "")
    if subscripts.count("->") > 1:
        raise ValueError("einstein sum subscript string does not contain proper '->' output "
                         "specified")
    lhs, arrow, rhs = subscripts.partition("->")
    terms = lhs.split(",")
    if len(terms) > len(ndims):
        raise ValueError("fewer operands provided to einstein sum function than specified in "
                         "the subscripts string")
    if len(terms) < len(ndims):
        raise ValueError("more operands provided to einstein sum function than specified in "
                         "the subscripts string")
    parsed = [_term(t, n, i) for i, (t, n) in enumerate(zip(terms, ndims))]
    n_ell = max((k for _, k in parsed), default=0)
    ell = [str(k) for k in range(n_ell)]
    labels = []
    for lab, k in parsed:
        it = iter(ell[n_ell - k:])
        labels.append([next(it) if c == "." else c for c in lab])
    counts = {}
    for lab in labels:
        for c in lab:
            counts[c] = counts.get(c, 0) + 1
    if arrow:
        if "." in rhs:
            if rhs.count(".") != 3 or "..." not in rhs:
                raise ValueError("output subscript string contains a '.' that is not part of "
                                 "an ellipsis ('...')")
            before, after = rhs.split("...")
            out = list(before) + ell + list(after)
        else:
            if n_ell:
                raise ValueError("output has more dimensions than subscripts given in "
                                 "einstein sum, but no '...' ellipsis provided to broadcast "
                                 "the extra dimensions.")
            out = list(rhs)
        for c in out:
            if c not in ell and c not in _LETTERS:
                raise ValueError(f"invalid subscript '{c}' in einstein sum subscripts string, "
                                 f"subscripts must be letters")
            if c not in counts:
                raise ValueError(f"einstein sum subscripts string included output subscript "
                                 f"'{c}' which never appeared in an input")
            if out.count(c) > 1:
                raise ValueError(f"einstein sum subscripts string includes output subscript "
                                 f"'{c}' multiple times")
    else:
        out = ell + sorted(c for c, k in counts.items() if k == 1 and c not in ell)
    return labels, out


def _sizes(ops, labels):
    sizes = {}
    for x, lab in zip(ops, labels):
        for c, d in zip(lab, x.shape):
            s = sizes.get(c)
            if s is None or s == 1:
                sizes[c] = d
            elif d != 1 and d != s:
                raise ValueError(f"operands could not be broadcast together with remapped "
                                 f"shapes [original->remapped]: dimension for subscript "
                                 f"'{c}' has sizes {s} and {d}")
    return sizes


def _unique(x, lab, sizes):
    """Take the diagonal of repeated labels; returns (array, labels without repeats)."""
    if len(set(lab)) == len(lab):
        return x, lab
    x = broadcast_to(x, tuple(sizes[c] for c in lab))
    first = {}
    mask = None
    drop = []
    for i, c in enumerate(lab):
        if c not in first:
            first[c] = i
            continue
        eq = ir.ew("equal", D.bool_, (ir.axis_iota(x.shape, first[c], x.device),
                                      ir.axis_iota(x.shape, i, x.device)))
        mask = wrap(eq) if mask is None else apply("logical_and", mask, wrap(eq))
        drop.append(i)
    zero = wrap(ir.scalar(0, x.dtype, (), x.device))
    x = sum_(where_(mask, x, zero), axis=tuple(drop), dtype=x.dtype)
    return x, [c for i, c in enumerate(lab) if i not in drop]


def _general(ops, labels, out, sizes, dt):
    """Broadcast multiply of every operand over all labels, then one sum (fused)."""
    order = []
    for lab in labels:
        order += [c for c in lab if c not in order]
    prod = None
    for x, lab in zip(ops, labels):
        perm = sorted(range(len(lab)), key=lambda i: order.index(lab[i]))
        x = x.transpose(perm) if perm != list(range(len(lab))) else x
        present = [lab[i] for i in perm]
        x = x.reshape(tuple(x.shape[present.index(c)] if c in present else 1 for c in order))
        prod = x if prod is None else apply("multiply", prod, x)
    full = tuple(sizes[c] for c in order)
    prod = broadcast_to(prod, full)
    summed = tuple(i for i, c in enumerate(order) if c not in out)
    kept = [c for c in order if c in out]
    r = sum_(prod, axis=summed, dtype=dt) if summed else prod
    perm = [kept.index(c) for c in out]
    return r.transpose(perm) if perm != list(range(len(perm))) else r


def _pair(a, la, b, lb, out, sizes, dt):
    """Contract two operands (unique labels each) to labels `out`."""

    def presum(x, lab, other):
        axes = tuple(i for i, c in enumerate(lab) if c not in other and c not in out)
        if not axes:
            return x, lab
        return sum_(x, axis=axes, dtype=dt), [c for c in lab if c in other or c in out]
    a, la = presum(a, la, lb)
    b, lb = presum(b, lb, la)
    batch = [c for c in la if c in lb and c in out]
    contr = [c for c in la if c in lb and c not in out]
    a_free = [c for c in la if c not in lb]
    b_free = [c for c in lb if c not in la]

    def size(labs):
        n = 1
        for c in labs:
            n *= sizes[c]
        return n
    if not contr or size(a_free) <= 1 or size(b_free) <= 1 or size(contr) <= 1:
        return _general([a, b], [la, lb], out, sizes, dt)
    a = broadcast_to(a, tuple(sizes[c] for c in la))
    b = broadcast_to(b, tuple(sizes[c] for c in lb))
    at = a.transpose([la.index(c) for c in batch + a_free + contr])
    bt = b.transpose([lb.index(c) for c in batch + contr + b_free])
    at = at.reshape(size(batch), size(a_free), size(contr))
    bt = bt.reshape(size(batch), size(contr), size(b_free))
    r = matmul(at, bt).reshape(tuple(sizes[c] for c in batch + a_free + b_free))
    cur = batch + a_free + b_free
    perm = [cur.index(c) for c in out]
    return r.transpose(perm) if perm != list(range(len(perm))) else r


def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """Einstein summation over the operands' labelled axes.

    # Note: `optimize` and `order` are accepted and ignored (operands are contracted left to
    # right); a 0-d result is a 0-d array where NumPy returns a scalar.

    Examples
    --------
    >>> import gnumpy as gp
    >>> a = gp.arange(6.0).reshape(2, 3)
    >>> gp.einsum("ij,j->i", a, gp.ones(3))
    array([ 3., 12.])
    """
    if not operands:
        raise ValueError("No input operands")
    if isinstance(operands[0], str):
        subscripts, ops = operands[0], list(operands[1:])
    else:
        subscripts, ops = _from_sublists(operands)
    ops = [_arr(o) for o in ops]
    if ops:
        check_device_match([o._node for o in ops])
    labels, out_labels = parse(subscripts, [o.ndim for o in ops])
    if dtype is not None:
        dt = D.to_dtype(dtype)
        for o in ops:
            if not D.can_cast(o.dtype, dt, casting):
                raise TypeError(f"Cannot cast array data from {o.dtype!r} to {dt!r} according "
                                f"to the rule '{casting}'")
    else:
        dt = D.result_type(*ops)
    sizes = _sizes(ops, labels)
    pairs = [_unique(astype(o, dt, copy=False), lab, sizes) for o, lab in zip(ops, labels)]
    x, lab = pairs[0]
    for i, (y, ly) in enumerate(pairs[1:], start=1):
        later = set(out_labels)
        for _, lz in pairs[i + 1:]:
            later.update(lz)
        keep = [c for c in lab + [c for c in ly if c not in lab] if c in later]
        x = _pair(x, lab, y, ly, keep, sizes, dt)
        lab = keep
    if len(pairs) == 1 or lab != out_labels:
        x = _general([x], [lab], out_labels, sizes, dt)
    return finish("einsum", x, out, casting=casting)


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """NumPy's contraction-order planner for `operands` (it needs their shapes only).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.einsum_path("ij,jk,kl->il", gp.ones((2, 3)), gp.ones((3, 4)), gp.ones((4, 5)))[0]
    ['einsum_path', (1, 2), (0, 1)]
    """
    def stand_in(o):
        if is_array(o):
            return np.broadcast_to(np.zeros((), dtype=o.dtype), o.shape)
        return o
    return np.einsum_path(*[stand_in(o) for o in operands], optimize=optimize,
                          einsum_call=einsum_call)
