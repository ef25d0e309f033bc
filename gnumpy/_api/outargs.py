"""NumPy's ``out=``, ``where=``, ``casting=`` and ``order=`` arguments of ufuncs, reductions and
the other functions that take them: the checks (with NumPy's errors, before anything is
written) and ``finish``, which applies them to a lazy result.
"""
from __future__ import annotations

from .. import _dtypes as D
from ._common import as_node, is_array, wrap
from .elementwise.elementwise import where as where_
from .._broadcast import broadcast_shapes, fmt


CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


def check_casting(casting) -> None:
    """NumPy's errors for a `casting=` that is not one of its five rules."""
    if not isinstance(casting, str):
        raise TypeError(f"casting must be str, not {type(casting).__name__}")
    if casting not in CASTINGS:
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', "
                         f"'unsafe' (got {casting!r})")


def check_order(order, new=False) -> None:
    """NumPy's check of `order`: None or a string of C, F, A or K in either case (a
    TypeError for a non-string); `new` (an array made from a shape alone): C or F only.
    (gnumpy's results are in C order whatever is asked: the layout shows only in
    ``flags``.)"""
    if order is None:
        return
    if not isinstance(order, str):
        raise TypeError(f"order must be str, not {type(order).__name__}")
    o = order.upper()
    if o not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if new and o not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")


def check_out_shape(name, shape, out, exact=None) -> None:
    """NumPy's ValueError when `out` cannot hold a result of `shape`: a ufunc's `out` may
    be larger (the result broadcasts into it); a reduction's (`exact` = 'reduce') and
    other ops' (`exact` = their message) must have the result's shape."""
    oshape = out.shape
    if oshape == shape:
        return
    if exact == "reduce":
        if len(oshape) != len(shape):
            raise ValueError(f"output parameter for reduction operation {name} has the wrong "
                             f"number of dimensions: Found {len(oshape)} but expected "
                             f"{len(shape)}")
        raise ValueError(f"operands could not be broadcast together with remapped shapes: "
                         f"output {oshape} and result {shape}")
    if exact is not None:
        raise ValueError(exact)
    try:
        b = broadcast_shapes(shape, oshape)
    except ValueError:
        b = None
    if b != oshape:
        raise ValueError(f"non-broadcastable output operand with shape {fmt(oshape)} "
                         f"doesn't match the broadcast shape {fmt(shape)}")


def check_out_cast(name, dt, out, casting):
    if not D.can_cast(dt, out.dtype, casting):
        raise TypeError(f"Cannot cast ufunc '{name}' output from {dt!r} to {out.dtype!r} with "
                        f"casting rule {casting!r}")


def single_out(out):
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        out = out[0]
    if out is not None:
        if not is_array(out):
            raise TypeError("return arrays must be of ArrayType (a gnumpy ndarray)")
        if out._ro:
            raise ValueError("output array is read-only")
    return out


def finish(name, r, out=None, where=True, casting="same_kind", exact=None):
    """Apply ufunc `out=`/`where=` semantics to the lazy result `r` (`exact`: see
    ``check_out_shape``); every check runs before anything is written."""
    out = single_out(out)
    if out is not None:         # NumPy checks the cast, then the shape
        check_out_cast(name, r.dtype, out, casting)
        check_out_shape(name, r.shape, out, exact)
    if where is not True:
        mask = where if is_array(where) else wrap(as_node(where))
        if out is not None:
            # cast first: out's masked-off elements stay exactly as they are
            r = where_(mask, r.astype(out.dtype, copy=False), out)
        # Note: without out=, NumPy leaves masked-off elements uninitialized; gnumpy
        # returns the computed values there.
    if out is None:
        return r
    check_out_cast(name, r.dtype, out, casting)
    out._assign_from(r)
    return out
