"""NumPy's ``out=``, ``where=``, ``casting=`` and ``order=`` arguments of ufuncs, reductions and
the other functions that take them: the checks (with NumPy's errors, before anything is
written) and ``finish``, which applies them to a lazy result.
"""
from __future__ import annotations

from .. import _dtypes as D
from .._graph import ir
from ._common import as_node, is_array, scalar_result, wrap
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


def multi_out(name, nin, outs, out, nout=2) -> tuple:
    """The outputs of a ufunc with `nout` outputs (``modf``, ``divmod``, ``frexp``), from its
    positional ones `outs` or its `out=` (a tuple of one array or None per output), as a
    tuple of `nout` entries, with NumPy's errors.

    # Note: NumPy refuses an explicit ``out=None`` for several outputs; gnumpy takes it
    # as no output arrays (the default)."""
    if outs:
        if len(outs) > nout:
            raise TypeError(f"{name}() takes from {nin} to {nin + nout} positional arguments "
                            f"but {nin + len(outs)} were given")
        if out is not None:
            raise TypeError("cannot specify 'out' as both a positional and keyword argument")
        out = tuple(outs) + (None,) * (nout - len(outs))
    elif out is None:
        return (None,) * nout
    elif not isinstance(out, tuple):
        raise TypeError("'out' must be a tuple of arrays")
    if len(out) != nout:
        raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
    for o in out:
        if o is not None:
            if not is_array(o):
                raise TypeError("return arrays must be of ArrayType (a gnumpy ndarray)")
            single_out(o)           # (read-only: NumPy's ValueError)
    return out


def finish_multi(name, nin, results, outs, where=True, casting="same_kind") -> tuple:
    """``finish`` for the `results` of a ufunc with several outputs: every output's cast,
    then every output's shape, is checked before anything is written; the written out
    arrays are returned (the results where no out array was given)."""
    for i, (r, o) in enumerate(zip(results, outs)):
        if o is not None and not D.can_cast(r.dtype, o.dtype, casting):
            raise TypeError(f"Cannot cast ufunc '{name}' output {nin + i} from {r.dtype!r} to "
                            f"{o.dtype!r} with casting rule {casting!r}")
    shapes = [o.shape for o in outs if o is not None]
    if shapes:      # the loop's shape: the inputs' and every out array's, broadcast
        shape = results[0].shape
        try:
            full = broadcast_shapes(shape, *shapes)
        except ValueError:
            raise ValueError("operands could not be broadcast together with shapes " +
                             " ".join(fmt(s) for s in [shape] + shapes) + " ") from None
        for o in outs:
            if o is not None and o.shape != full:
                raise ValueError(f"non-broadcastable output operand with shape "
                                 f"{fmt(o.shape)} doesn't match the broadcast shape "
                                 f"{fmt(full)}")
        if full != shape:       # an output without an out array has the loop's shape
            results = [wrap(ir.copy(ir.broadcast(r._node, full))) for r in results]
    # (the results are lazy: writing one output leaves the others' values as they were,
    # though an out array be an input)
    return tuple(finish(name, r, o, where, casting) for r, o in zip(results, outs))


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
        return scalar_result(r)     # (a 0-d result without out=: NumPy's scalar)
    out._assign_from(r)         # (its cast checked above; where= casts to out's dtype)
    return out
