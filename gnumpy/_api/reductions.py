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

from .. import _dtypes as D
from .._graph import ir
from .._graph import layout as L
from ._common import as_node, is_array, normalize_axes, normalize_axis, wrap
from .elementwise import apply, astype
from .elementwise import where as where_
from .ufunc import finish

_NAMES = {"max": "maximum", "min": "minimum", "argmax": "argmax", "argmin": "argmin"}


def _arr(x):
    return x if is_array(x) else wrap(as_node(x))


def _axes(axis, x):
    """Normalized reduction axes; NumPy lets 0-d arrays take axis 0 or -1 (as no axis)."""
    if x.ndim == 0 and axis is not None:
        ax = axis if isinstance(axis, (tuple, list)) else (axis,)
        if builtins.all(type(a) is int and a in (0, -1) for a in ax):
            return ()
    return normalize_axes(axis, x.ndim)


def _out(name, r, out):
    # Note: reductions cast into out= unsafely, as NumPy's ufunc.reduce does
    return finish(name, r, out, casting="unsafe")


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
    out_size = L.prod(d for i, d in enumerate(x.shape) if i not in axes)
    if _reduced_count(x.shape, axes) == 0 and (out_size > 0 or not axes):
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
    arg = rop in ("argmax", "argmin")
    node = x._node if arg else ir.cast(x._node, dtype)
    out_dt = D.int64 if arg else dtype
    if not axes:  # a reduction over no axes: identity op value, in a new array
        if arg:
            return wrap(ir.scalar(0, D.int64, x.shape, x.device))
        if rop in ("sum", "prod") and out_dt.kind in "fc":   # 0 + x, 1 * x (as NumPy)
            one = ir.scalar(0 if rop == "sum" else 1, out_dt, x.shape, x.device)
            return wrap(ir.ew("add" if rop == "sum" else "multiply", out_dt, (one, node)))
        return wrap(ir.ew("astype", out_dt, (node,)))
    return wrap(ir.reduce(rop, node, axes, keepdims, out_dt))


def sum(x, /, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Sum of elements over `axis` (NumPy's dtype rules: small ints accumulate in int64).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.sum(gp.asarray([[1, 2], [3, 4]]), axis=0)
    array([4, 6])
    """
    return _sum_or_prod("sum", x, axis, dtype, out, keepdims, initial, where)


def prod(x, /, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Product of elements over `axis`."""
    return _sum_or_prod("prod", x, axis, dtype, out, keepdims, initial, where)


def _sum_or_prod(rop, x, axis, dtype, out, keepdims, initial, where):
    ufunc = "add" if rop == "sum" else "multiply"
    x = _arr(x)
    axes = _axes(axis, x)
    dt = _sum_dtype(x.dtype) if dtype is None else D.to_dtype(dtype)
    x = _mask(x, where, 0 if rop == "sum" else 1)
    r = _reduce(rop, x, axes, keepdims, dt)
    if initial is not None:
        r = astype(apply(ufunc, r, initial), dt, copy=False)
    return _out(ufunc, r, out)


def _minmax(rop, x, axis, out, keepdims, initial, where):
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
        from .creation import full
        return _out(_NAMES[rop], full(shape, initial, dtype=x.dtype, device=x.device), out)
    r = _reduce(rop, x, axes, keepdims, x.dtype)
    if initial is not None:
        r = astype(apply(_NAMES[rop], r, initial), x.dtype, copy=False)
    return _out(_NAMES[rop], r, out)


def max(x, /, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Maximum over `axis` (NaN propagates, as in NumPy)."""
    return _minmax("max", x, axis, out, keepdims, initial, where)


def min(x, /, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Minimum over `axis` (NaN propagates, as in NumPy)."""
    return _minmax("min", x, axis, out, keepdims, initial, where)


def _argreduce(rop, x, axis, out, keepdims):
    x = _arr(x)
    if axis is None:
        axes = tuple(range(x.ndim))
    elif x.ndim == 0 and type(axis) is int and axis in (0, -1):
        axes = ()
    else:
        axes = (normalize_axis(axis, x.ndim),)
    _check_nonempty(x, axes, rop)
    if x.ndim == 0:
        r = wrap(ir.scalar(0, D.int64, (), x.device))
    else:
        r = _reduce(rop, x, axes, keepdims, x.dtype)
    return _out(rop, r, out)


def argmax(x, /, axis=None, out=None, *, keepdims=False):
    """Index of the first maximum over `axis` (flattened when axis is None)."""
    return _argreduce("argmax", x, axis, out, keepdims)


def argmin(x, /, axis=None, out=None, *, keepdims=False):
    """Index of the first minimum over `axis` (flattened when axis is None)."""
    return _argreduce("argmin", x, axis, out, keepdims)


def _bool_reduce(rop, x, axis, out, keepdims, where):
    x = _arr(x)
    axes = _axes(axis, x)
    b = astype(x, D.bool_, copy=False)
    b = _mask(b, where, rop == "all")
    r = _reduce(rop, b, axes, keepdims, D.bool_)
    return _out("logical_or" if rop == "any" else "logical_and", r, out)


def any(x, /, axis=None, out=None, keepdims=False, *, where=True):
    """Whether any element over `axis` is true."""
    return _bool_reduce("any", x, axis, out, keepdims, where)


def all(x, /, axis=None, out=None, keepdims=False, *, where=True):
    """Whether all elements over `axis` are true."""
    return _bool_reduce("all", x, axis, out, keepdims, where)


def count_nonzero(x, /, axis=None, *, keepdims=False):
    """Number of non-zero elements over `axis`.

    # Note: returns a 0-d array (not a Python int) for axis=None, as CuPy does.
    """
    x = _arr(x)
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
    from .manipulation import broadcast_to
    m = broadcast_to(m, x.shape)
    return sum(m, axis=axes, keepdims=keepdims, dtype=cdt)


def mean(x, /, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Arithmetic mean over `axis` (ints in float64, float16 accumulated in float32).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.mean(gp.asarray([1, 2, 3, 4]))
    array(2.5)
    """
    x = _arr(x)
    axes = normalize_axes(axis, x.ndim)
    cdt, rdt = _float_dtypes(x.dtype, dtype)
    xc = _mask(astype(x, cdt, copy=False), where, 0)
    s = _reduce("sum", xc, axes, keepdims, cdt)
    n = _count(x, axes, where, keepdims, cdt)
    r = apply("divide", s, n) if cdt.kind in "fc" else apply("floor_divide", s, n)
    return finish("divide", astype(r, rdt, copy=False), out)


def var(x, /, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
        mean=None, correction=None):
    """Variance over `axis` with `ddof` (or the Array API's `correction`)."""
    x = _arr(x)
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    axes = normalize_axes(axis, x.ndim)
    cdt, rdt = _float_dtypes(x.dtype, dtype)
    rdt = D.real_dtype(rdt)
    xc = astype(x, cdt, copy=False)
    if mean is None and where is True and cdt.kind == "f" and axes and x.size:
        # one pass (Welford/Chan accumulator), then the ddof correction in the epilogue
        n = _reduced_count(x.shape, axes)
        r = _reduce("var0", xc, axes, keepdims, cdt)
        if ddof != 0:
            r = apply("multiply", r, n / builtins.max(n - ddof, 0) if n - ddof > 0
                      else (float("inf") if n else float("nan")))
        return finish("divide", astype(r, rdt, copy=False), out)
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
    return finish("divide", astype(r, rdt, copy=False), out)


def std(x, /, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
        mean=None, correction=None):
    """Standard deviation over `axis` (square root of ``var``)."""
    v = var(x, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims, where=where, mean=mean,
            correction=correction)
    return finish("sqrt", apply("sqrt", v), out)


# ------------------------------------------------------------------ scans

def _cumulative(bop, x, axis, dtype, include_initial, flatten_none):
    x = _arr(x)
    if axis is None:
        if x.ndim > 1 and not flatten_none:
            raise ValueError("axis must be specified for arrays with more than one dimension")
        if x.ndim != 1:
            from .manipulation import reshape
            x = reshape(x, (-1,))
        axis = 0
    if x.ndim == 0:
        raise ValueError("cumulative functions need an array with at least one dimension")
    ax = normalize_axis(axis, x.ndim)
    dt = _sum_dtype(x.dtype) if dtype is None else D.to_dtype(dtype)
    shape = list(x.shape)
    if include_initial:
        shape[ax] += 1
    src = ir.cast(x._node, dt)
    return wrap(ir.barrier(bop, (src,), (ax, bool(include_initial)), dt, tuple(shape)))


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """Cumulative sum along `axis` (Array API)."""
    return _cumulative("cumsum", x, axis, dtype, include_initial, False)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """Cumulative product along `axis` (Array API)."""
    return _cumulative("cumprod", x, axis, dtype, include_initial, False)


def cumsum(a, axis=None, dtype=None, out=None):
    """NumPy ``cumsum`` (flattens when axis is None)."""
    return finish("add", _cumulative("cumsum", a, axis, dtype, False, True), out)


def cumprod(a, axis=None, dtype=None, out=None):
    """NumPy ``cumprod`` (flattens when axis is None)."""
    return finish("multiply", _cumulative("cumprod", a, axis, dtype, False, True), out)


def diff(x, /, n=1, axis=-1, prepend=None, append=None):
    """n-th discrete difference along `axis` (lazy views, fused)."""
    x = _arr(x)
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if x.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    ax = normalize_axis(axis, x.ndim)
    if prepend is not None or append is not None:
        from .manipulation import broadcast_to, concat
        parts = []
        for extra in (prepend,):
            if extra is not None:
                e = _arr(extra)
                if e.ndim == 0:
                    shp = list(x.shape)
                    shp[ax] = 1
                    e = broadcast_to(e, tuple(shp))
                parts.append(e)
        parts.append(x)
        if append is not None:
            e = _arr(append)
            if e.ndim == 0:
                shp = list(x.shape)
                shp[ax] = 1
                e = broadcast_to(e, tuple(shp))
            parts.append(e)
        x = concat(parts, axis=ax)
    op = "not_equal" if x.dtype.kind == "b" else "subtract"
    for _ in range(n):
        hi = [slice(None)] * x.ndim
        lo = [slice(None)] * x.ndim
        hi[ax] = slice(1, None)
        lo[ax] = slice(None, -1)
        x = apply(op, x[tuple(hi)], x[tuple(lo)])
    return x
