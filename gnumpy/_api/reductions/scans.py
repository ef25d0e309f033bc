"""Scans and differences: ``cumsum``, ``cumprod``, the Array API's ``cumulative_sum`` and
``cumulative_prod`` (one ``cumsum``/``cumprod`` barrier each: CUB's scan on CUDA, NumPy's
on the CPU backend) and ``diff`` (lazy views, fused)."""
from __future__ import annotations

import operator

from ... import _dtypes as D
from ..._graph import ir
from .._common import axis_int, normalize_axis, wrap
from ..elementwise.elementwise import apply
from ..outargs import finish
from .reductions import _arr, _sum_dtype


def _cumulative(bop, x, axis, dtype, include_initial, flatten_none):
    """A scan along `axis`: NumPy's ``cumsum`` (`flatten_none`: no axis scans the flat
    array) or ``cumulative_sum``; a 0-d array scans as one element (a 1-d result, as
    NumPy's both)."""
    x = _arr(x)
    if axis is None:
        if x.ndim > 1 and not flatten_none:
            raise ValueError("For arrays which have more than one dimension ``axis`` "
                             "argument is required.")
        flat = x.ndim != 1
        axis = 0
    else:
        if isinstance(axis, tuple) and not flatten_none:    # (as NumPy's ufunc.accumulate:
            for a in axis:                  # each axis read, then one axis required)
                normalize_axis(axis_int(a, "an integer is required"), x.ndim or 1)
            if len(axis) != 1:
                raise ValueError("accumulate does not allow multiple axes")
            axis = axis[0]
        axis = axis_int(axis, "an integer is required for the axis" if flatten_none else
                         "an integer is required")
        flat = x.ndim == 0
    if flat:
        # loaded on first use: import gnumpy does not load shape.manipulation (~4 ms)
        from ..shape.manipulation import reshape
        x = reshape(x, (-1,))
    ax = normalize_axis(axis, x.ndim)
    dt = _sum_dtype(x.dtype) if dtype is None else D.to_dtype(dtype)
    shape = list(x.shape)
    if include_initial:
        shape[ax] += 1
    D.warn_complex_to_real(x.dtype, dt, 4)
    src = ir.cast(x._node, dt)
    return wrap(ir.barrier(bop, (src,), (ax, bool(include_initial)), dt, tuple(shape)))


_WRONG_OUT = "provided out is the wrong size for the accumulation."


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """Cumulative sum along `axis` (Array API; NumPy's `out=` too, which takes the result
    cast unsafely and must have its shape, as ``add.accumulate``'s)."""
    r = _cumulative("cumsum", x, axis, dtype, include_initial, False)
    return finish("add", r, out, casting="unsafe", exact=_WRONG_OUT)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """Cumulative product along `axis` (Array API; NumPy's `out=` too, as in
    ``cumulative_sum``)."""
    r = _cumulative("cumprod", x, axis, dtype, include_initial, False)
    return finish("multiply", r, out, casting="unsafe", exact=_WRONG_OUT)


def cumsum(a, axis=None, dtype=None, out=None):
    """NumPy ``cumsum`` (flattens when axis is None; `out` as ``cumulative_sum``'s)."""
    return finish("add", _cumulative("cumsum", a, axis, dtype, False, True), out,
                  casting="unsafe", exact=_WRONG_OUT)


def cumprod(a, axis=None, dtype=None, out=None):
    """NumPy ``cumprod`` (flattens when axis is None; `out` as ``cumulative_sum``'s)."""
    return finish("multiply", _cumulative("cumprod", a, axis, dtype, False, True), out,
                  casting="unsafe", exact=_WRONG_OUT)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """n-th discrete difference along `axis` (lazy views, fused).

    # Note: the array is NumPy's positional-or-keyword `a` (``diff(a=x)``).
    """
    x = _arr(a)
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if x.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    ax = normalize_axis(axis, x.ndim)
    if prepend is not None or append is not None:
        # loaded on first use: import gnumpy does not load shape.manipulation (~4 ms)
        from ..shape.manipulation import broadcast_to, concat
        one = x.shape[:ax] + (1,) + x.shape[ax + 1:]    # (a scalar's place: one slice)
        parts = []
        for extra in (prepend, x, append):
            if extra is not None:
                e = _arr(extra)
                parts.append(broadcast_to(e, one) if e.ndim == 0 else e)
        x = concat(parts, axis=ax)
    op = "not_equal" if x.dtype.kind == "b" else "subtract"
    for _ in range(n):
        hi = [slice(None)] * x.ndim
        lo = [slice(None)] * x.ndim
        hi[ax] = slice(1, None)
        lo[ax] = slice(None, -1)
        x = apply(op, x[tuple(hi)], x[tuple(lo)])
    return x
