"""Statistical and utility reductions: sum, prod, min, max, mean, var, std, any, all, argmin,
argmax, count_nonzero, cumulative sums and products, diff.

Each reduction is one REDUCE node whose elementwise prologue (casts, ``where=`` masks, the
expression being reduced) and epilogue (``mean`` = sum / n, ``std`` = sqrt(var)) fuse into
the same kernel.  ``var``/``std`` take two passes (mean, then the centred sum of squares),
which keeps NumPy's accuracy.
"""
from __future__ import annotations

import builtins
import operator

from ... import _dtypes as D
from ..._graph import ir
from ..._graph import layout as L
from ..._memstate import write_epoch
from .._common import (as_node, axis_index, axis_int, int_axes, is_array, ndarray,
                       normalize_axis, scalar_result, wrap)
from ..elementwise.elementwise import apply, apply2, astype
from ..elementwise.elementwise import where as where_
from ..elementwise.resolution import loop_dtype
from ..outargs import single_out, check_out_shape, finish
from ..._ops import EW_OPS

# Note: the reductions take NumPy's positional-or-keyword `a` (``sum(a=x)``), where the Array
# API has a positional-only `x`: a positional call satisfies both.
_NAMES = {"max": "maximum", "min": "minimum", "argmax": "argmax", "argmin": "argmin"}


def _arr(x):
    return x if is_array(x) else wrap(as_node(x))


def _axes(axis, x, count=False):
    """The axes of a reduction as NumPy's ``ufunc.reduce`` reads `axis`: None, an integer
    (0 and -1 name no axis of a 0-d array) or a tuple of integers (a list, a bool or a
    float is a TypeError), normalized.  With `count` (``mean``/``var``/``std`` without a
    `where`), each axis first passes NumPy's ``normalize_axis_index``, as its
    ``_count_reduce_items`` counts the items before it sums (a bool is an integer there,
    a NumPy bool or a float is not)."""
    if axis is None:
        return tuple(range(x.ndim))
    if count:
        for a in (axis if isinstance(axis, tuple) else (axis,)):
            axis_index(a, x.ndim)
    if isinstance(axis, tuple):     # each read and range-checked in turn, then repeats
        nd = x.ndim
        axes = int_axes(axis, nd)
        if axes is not None:
            return axes
        axes = [normalize_axis(axis_int(a, "an integer is required"), nd) for a in axis]
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
        return tuple(sorted(axes))
    a = axis_int(axis, "an integer is required")
    if x.ndim == 0 and a in (0, -1):
        return ()
    return (normalize_axis(a, x.ndim),)


def _out(name, r, out):
    # Note: reductions cast into out= unsafely, as NumPy's ufunc.reduce does
    return finish(name, r, out, casting="unsafe", exact="reduce")


def _kd(keepdims) -> bool:
    """`keepdims` as NumPy reads it (an int; TypeError for anything else)."""
    if keepdims is False or keepdims is True:
        return keepdims
    return bool(operator.index(keepdims))


def _sum_dtype(dt):
    if dt.kind in "bi" and dt.itemsize < 8:
        return D.int64
    if dt.kind == "u" and dt.itemsize < 8:
        return D.uint64
    return dt


def _reduced_count(shape, axes) -> int:
    return L.prod(shape[a] for a in axes)


def _check_nonempty(x, axes, name, initial=None):
    if initial is not None:
        return
    if _reduced_count(x.shape, axes) == 0:      # even when the result is empty
        if name.startswith("arg"):
            raise ValueError(f"attempt to get {name} of an empty sequence")
        raise ValueError(f"zero-size array to reduction operation {_NAMES[name]} which has no "
                         f"identity")


def _mask(x, where, fill):
    if where is True:
        return x
    m = where if is_array(where) else wrap(as_node(where, device=x.device))
    return where_(m, x, fill)


def _reduce(rop, x, axes, keepdims, dtype):
    """The reduction `rop` of `x` over `axes`, a new array (a 0-d one NumPy's scalar)."""
    return scalar_result(wrap(_reduce_node(rop, x, axes, keepdims, dtype)))


def _reduce_node(rop, x, axes, keepdims, dtype):
    arg = rop in ("argmax", "argmin")
    if not arg:
        D.warn_complex_to_real(x.dtype, dtype, 4)
    n = x._node
    if rop == "sum" and n.kind == ir.BARRIER and n.op == "gather" and \
            type(n.arg) is tuple and len(axes) == len(n.shape) and \
            n.arg[2] == write_epoch[0]:
        # the sum of a[m] (a boolean mask of a's shape) with nothing written since a[m]
        # was taken (the mask's node may read memory a write changes; the gather reads
        # offsets computed before): the sum of where(m, a, 0), with no compaction
        # (azimint's `data[mask].mean()` in a loop; a sum starts from +0, in NumPy and in
        # the kernels, so the zeros added change nothing)
        src = ir.cast(n.srcs[0], dtype)
        r = ir.reduce("sum", ir.where(n.arg[1], src, ir.scalar(0, dtype, src.shape,
                                                                src.device)),
                      tuple(range(len(src.shape))), False, dtype)
        return ir.reshape(r, (1,) * len(n.shape)) if keepdims else r
    node = x._node if arg else ir.cast(x._node, dtype)
    out_dt = D.int64 if arg else dtype
    if not axes:  # a reduction over no axes: identity op value, in a new array
        if arg:
            return ir.scalar(0, D.int64, x.shape, x.device)
        if rop in ("sum", "prod") and out_dt.kind in "fc":   # 0 + x, 1 * x (as NumPy)
            one = ir.scalar(0 if rop == "sum" else 1, out_dt, x.shape, x.device)
            return ir.ew("add" if rop == "sum" else "multiply", out_dt, (one, node))
        return ir.ew("astype", out_dt, (node,))
    return ir.reduce(rop, node, axes, keepdims, out_dt)


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Sum of elements over `axis` (NumPy's dtype rules: small ints accumulate in int64).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.sum(gp.asarray([[1, 2], [3, 4]]), axis=0)
    array([4, 6])
    """
    if type(a) is ndarray and dtype is None and out is None and type(keepdims) is bool \
            and initial is None and where is True:
        r = _hot("sum", a._node, axis, keepdims)
        if r is not None:
            return r
    return _sum_or_prod("sum", a, axis, dtype, out, keepdims, initial, where)


def _hot(rop, n, axis, keepdims):
    """A loop statement's reduction (a conv step's sum, a max-pool's max, softmax's) of
    node `n` of floats, no axis empty, over `axis` (None, an int or a tuple of ints, in
    range), with no keyword but `keepdims`: the new array of its REDUCE node, built
    directly; else None (a gather's sum, over its mask, is ``_reduce_node``'s)."""
    sh = n.shape
    if n.kind == ir.BARRIER or n.dtype.kind not in "fc" or not sh or 0 in sh:
        return None
    t = type(axis)
    axes = tuple(range(len(sh))) if axis is None else int_axes(axis, len(sh)) if \
        t is tuple else (axis % len(sh),) if t is int and -len(sh) <= axis < len(sh) \
        else None
    return scalar_result(wrap(ir.reduce(rop, n, axes, keepdims, n.dtype))) if axes else None


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Product of elements over `axis`."""
    return _sum_or_prod("prod", a, axis, dtype, out, keepdims, initial, where)


def _sum_or_prod(rop, x, axis, dtype, out, keepdims, initial, where):
    ufunc = "add" if rop == "sum" else "multiply"
    single_out(out)             # a read-only out first, as ufunc.reduce
    keepdims = _kd(keepdims)
    x = _arr(x)
    axes = _axes(axis, x)
    dt = _sum_dtype(x.dtype) if dtype is None else D.to_dtype(dtype)
    x = _mask(x, where, 0 if rop == "sum" else 1)
    r = _reduce(rop, x, axes, keepdims, dt)
    if initial is not None:
        r = astype(apply(ufunc, r, initial), dt, copy=False)
    return _out(ufunc, r, out)


def _minmax(rop, x, axis, out, keepdims, initial, where):
    single_out(out)             # a read-only out first, as ufunc.reduce
    keepdims = _kd(keepdims)
    x = _arr(x)
    axes = _axes(axis, x)
    if where is not True and initial is None:
        raise ValueError(f"reduction operation '{_NAMES[rop]}' does not have an identity, so "
                         f"to use a where mask one has to specify 'initial'")
    _check_nonempty(x, axes, rop, initial)
    if where is not True:
        x = _mask(x, where, initial)
    if initial is not None and _reduced_count(x.shape, axes) == 0:
        shape = tuple((1 if i in axes else d) for i, d in enumerate(x.shape)
                      if keepdims or i not in axes)
        # loaded on first use: import gnumpy does not load creation (~8 ms, 4 modules)
        from ..creation.creation import full
        return _out(_NAMES[rop], full(shape, initial, dtype=x.dtype, device=x.device), out)
    r = _reduce(rop, x, axes, keepdims, x.dtype)
    if initial is not None:
        r = astype(apply(_NAMES[rop], r, initial), x.dtype, copy=False)
    return _out(_NAMES[rop], r, out)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Maximum over `axis` (NaN propagates, as in NumPy)."""
    if type(a) is ndarray and out is None and type(keepdims) is bool and initial is None \
            and where is True:
        r = _hot("max", a._node, axis, keepdims)
        if r is not None:
            return r
    return _minmax("max", a, axis, out, keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Minimum over `axis` (NaN propagates, as in NumPy)."""
    if type(a) is ndarray and out is None and type(keepdims) is bool and initial is None \
            and where is True:
        r = _hot("min", a._node, axis, keepdims)
        if r is not None:
            return r
    return _minmax("min", a, axis, out, keepdims, initial, where)


def _argreduce(rop, x, axis, out, keepdims):
    keepdims = bool(keepdims)       # NumPy's argmax/argmin take any truth value
    x = _arr(x)
    if axis is None:
        axes = tuple(range(x.ndim))
    else:
        a = axis_int(axis, "an integer is required for the axis")
        # (a 0-d array is read as 1-d, as NumPy's PyArray_CheckAxis does)
        axes = () if x.ndim == 0 and a in (0, -1) else (normalize_axis(a, x.ndim or 1),)
    _check_nonempty(x, axes, rop)
    if x.ndim == 0:
        r = wrap(ir.scalar(0, D.int64, (), x.device))
    else:
        r = _reduce(rop, x, axes, keepdims, x.dtype)
    if is_array(out):
        if out.shape != r.shape:
            raise ValueError(f"output array does not match result of np.{rop}.")
        if not D.can_cast(out.dtype, D.int64, "safe"):
            raise TypeError(f"Cannot cast array data from {out.dtype!r} to "
                            f"{D.int64!r} according to the rule 'safe'")
    return _out(rop, r, out)


def argmax(a, axis=None, out=None, *, keepdims=False):
    """Index of the first maximum over `axis` (flattened when axis is None)."""
    return _argreduce("argmax", a, axis, out, keepdims)


def argmin(a, axis=None, out=None, *, keepdims=False):
    """Index of the first minimum over `axis` (flattened when axis is None)."""
    return _argreduce("argmin", a, axis, out, keepdims)


def _bool_reduce(rop, x, axis, out, keepdims, where):
    single_out(out)             # a read-only out first, as ufunc.reduce
    keepdims = _kd(keepdims)
    x = _arr(x)
    axes = _axes(axis, x)
    b = astype(x, D.bool_, copy=False)
    b = _mask(b, where, rop == "all")
    r = _reduce(rop, b, axes, keepdims, D.bool_)
    return _out("logical_or" if rop == "any" else "logical_and", r, out)


def any(a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether any element over `axis` is true."""
    return _bool_reduce("any", a, axis, out, keepdims, where)


def all(a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether all elements over `axis` are true."""
    return _bool_reduce("all", a, axis, out, keepdims, where)


def count_nonzero(a, axis=None, *, keepdims=False):
    """Number of non-zero elements over `axis`.

    # Note: returns a 0-d array (not a Python int) for axis=None, as CuPy does.
    """
    # as NumPy reads it: no axis and a false keepdims count the whole array
    keepdims = False if axis is None and not keepdims else _kd(keepdims)
    x = _arr(a)
    axes = _axes(axis, x)
    nz = astype(astype(x, D.bool_, copy=False), D.int64, copy=False)
    return _reduce("sum", nz, axes, keepdims, D.int64)


def _float_dtypes(dt, dtype):
    """(compute dtype, result dtype) of mean/var/std, as NumPy picks them."""
    if dtype is not None:
        d = D.to_dtype(dtype)
        return d, d
    if dt.kind in "biu":
        return D.float64, D.float64
    if dt == D.float16:
        return D.float32, D.float16
    return dt, dt


def _count(x, axes, where, keepdims, cdt):
    if where is True:
        return _reduced_count(x.shape, axes)
    m = where if is_array(where) else wrap(as_node(where, device=x.device))
    # loaded on first use: import gnumpy does not load shape.manipulation (~4 ms)
    from ..shape.manipulation import broadcast_to
    m = broadcast_to(m, x.shape)
    return sum(m, axis=axes, keepdims=keepdims, dtype=cdt)


def _np_sum(x, axes, keepdims, dt):
    """NumPy's ``add.reduce(x, dtype=dt)``: elements cast to `dt`, summed in `dt` (with
    wraparound for integers; a logical or for bool)."""
    if dt.kind == "b":
        return _reduce("any", astype(x, D.bool_, copy=False), axes, keepdims, D.bool_)
    return _reduce("sum", x, axes, keepdims, dt)


def _div_into(s, n):
    """NumPy's ``true_divide(s, n, out=s, casting='unsafe')`` with `n` the item count (an
    intp, or an int64 array under `where=`): the quotient cast back to s's dtype."""
    if (s.dtype == D.float64 or s.dtype == D.complex128) and not is_array(n):
        return apply("divide", s, n)    # a double / the count: NumPy's one division
    # (a single or half precision sum divides in double, then rounds once: NumPy's
    # true_divide of it by an intp count, exact where the count is not a float32)
    nn = n if is_array(n) else wrap(ir.scalar(n, D.float64 if isinstance(n, float) else
                                              D.int64, (), s.device))
    return astype(apply("divide", s, nn), s.dtype, copy=False)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Arithmetic mean over `axis` (ints in float64, float16 accumulated in float32; an
    integer or bool `dtype` sums and divides in that dtype, as NumPy).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.mean(gp.asarray([1, 2, 3, 4]))
    array(2.5)
    """
    x = _arr(a)
    axes = _axes(axis, x, where is True)
    single_out(out)
    keepdims = _kd(keepdims)        # (after the axes and out, as NumPy's _mean)
    dt = x.dtype
    if dtype is None and out is None and where is True and dt == D.float64:
        # the common case: a sum and one division by the count
        n = _reduced_count(x.shape, axes)
        if n:
            r = apply2("divide", _reduce("sum", x, axes, keepdims, dt), n)
            if r is not None:
                return r
    cdt, rdt = _float_dtypes(dt, dtype)
    s = _np_sum(_mask(x, where, 0), axes, keepdims, cdt)
    if is_array(out):       # NumPy sums into `out`, then divides there
        s = astype(s, out.dtype, copy=False)
    n = _count(x, axes, where, keepdims, D.int64)
    r = _div_into(s, n)
    if not is_array(out):
        r = astype(r, rdt, copy=False)
    return finish("add", r, out, casting="unsafe", exact="reduce")


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
        mean=None, correction=None, _into=None):
    """Variance over `axis` with `ddof` (or the Array API's `correction`)."""
    if is_array(out):
        _into = out.dtype       # NumPy sums the squares into `out` and divides there
    x = _arr(a)
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    axes = _axes(axis, x, where is True)
    single_out(out)
    keepdims = _kd(keepdims)        # (after the axes and out, as NumPy's _var)
    cdt, rdt = _float_dtypes(x.dtype, dtype)
    if dtype is not None:
        # NumPy's steps and dtypes exactly
        # Note: without dtype=, float16 input is accumulated in float32 (NumPy sums its
        # float16 squares in float16: 10% off over 4096 rows, inf past 65504)
        r = _var_numpy(x, axes, cdt, ddof, keepdims, where, mean, _into)
        return finish("add", r, out, casting="unsafe", exact="reduce")
    rdt = D.real_dtype(rdt)
    xc = astype(x, cdt, copy=False)
    if mean is None and where is True and cdt.kind == "f" and axes and x.size:
        # one pass (Welford/Chan accumulator), then the ddof correction in the epilogue
        n = _reduced_count(x.shape, axes)
        r = _reduce("var0", xc, axes, keepdims, cdt)
        if ddof != 0:
            r = apply("multiply", r, n / builtins.max(n - ddof, 0) if n - ddof > 0
                      else (float("inf") if n else float("nan")))
        return finish("add", astype(r, rdt, copy=False), out, casting="unsafe",
                      exact="reduce")
    if mean is not None:
        m = _arr(mean)
    else:
        m = globals()["mean"](xc, axis=axes, keepdims=True, where=where)
    d = apply("subtract", xc, m)
    if cdt.kind == "c":
        sq = apply("add", apply("square", apply("real", d)), apply("square", apply("imag", d)))
    else:
        sq = apply("multiply", d, d)
    sq = _mask(sq, where, 0)
    s = _reduce("sum", sq, axes, keepdims, sq.dtype)
    n = _count(x, axes, where, keepdims, D.real_dtype(cdt))
    if is_array(n):
        denom = apply("maximum", apply("subtract", n, ddof), 0)
    else:
        denom = builtins.max(n - ddof, 0)
    r = apply("divide", s, denom)
    return finish("add", astype(r, rdt, copy=False), out, casting="unsafe", exact="reduce")


def _var_numpy(x, axes, dt, ddof, keepdims, where, mean, out_dt=None):
    """NumPy's ``_var`` step by step for an integer, bool or complex `dtype` (or complex
    input with a `dtype`): the mean summed and divided in `dt`, the deviations in the
    promotion of x and `dt`, squared (|d|^2 for complex deviations of complex input),
    summed in `dt` and divided in place."""
    n = _count(x, axes, where, True, D.int64)
    if mean is not None:
        m = _arr(mean)
    else:
        m = _div_into(_np_sum(_mask(x, where, 0), axes, True, dt), n)
    d = apply("subtract", x, m)
    if x.dtype.kind in "fiu" or d.dtype.kind != "c":
        sq = apply("multiply", d, d)
    else:
        sq = apply("add", apply("square", apply("real", d)), apply("square", apply("imag", d)))
    ret = _np_sum(_mask(sq, where, 0), axes, keepdims, dt)
    if out_dt is not None:      # summed into `out`: divided in its dtype
        ret = astype(ret, out_dt, copy=False)
    n = _count(x, axes, where, keepdims, D.int64)
    if is_array(n):
        denom = apply("maximum", apply("subtract", n, ddof), 0)
    else:
        denom = builtins.max(n - ddof, 0)
    return _div_into(ret, denom)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
        mean=None, correction=None):
    """Standard deviation over `axis` (square root of ``var``, in var's dtype)."""
    x = _arr(a)
    _axes(axis, x, where is True)
    single_out(out)                # (NumPy's order: the axes, out, then the rest)
    v = var(x, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims, where=where, mean=mean,
            correction=correction, _into=out.dtype if is_array(out) else None)
    tgt = out.dtype if is_array(out) else v.dtype
    if is_array(out):
        check_out_shape("add", v.shape, out, "reduce")
    if tgt.kind in "biu" and (out is not None or v.ndim):
        # NumPy: sqrt(var, out=var) on an integer or bool array (its 0-d result is a
        # NumPy scalar, converted without the ufunc's casting check)
        raise TypeError(f"Cannot cast ufunc 'sqrt' output from "
                        f"{loop_dtype(EW_OPS['sqrt'], tgt)!r} to {tgt!r} with casting rule "
                        f"'same_kind'")
    if is_array(out):           # NumPy takes the root in `out` (var wrote into it)
        v = astype(v, out.dtype, copy=False)
    r = apply("sqrt", v)
    if r.dtype != v.dtype:      # NumPy: sqrt(ret, out=ret) for an integer or bool var
        r = astype(r, v.dtype, copy=False)
    return finish("add", r, out, casting="unsafe", exact="reduce")
