"""NaN-ignoring reductions and scans: nansum, nanprod, nanmean, nanvar, nanstd, nanmin,
nanmax, nanargmin, nanargmax, nancumsum, nancumprod.

Each is the plain reduction over an elementwise prologue that neutralizes NaNs, so it fuses
into the reduction's kernel: ``nansum(x)`` is ``sum(where(isnan(x), 0, x))``, one kernel.

Two reductions of a real array are packed into one complex reduction so that they still
run as one kernel:

* ``nanmean`` sums ``x + 1j`` over the non-NaN elements: the real part is the sum, the
  imaginary part the count (``nanvar``: the centred squares and the count, second pass).
* ``nanmax`` maximizes ``x + 1j`` with NaN encoded as ``-inf + 0j`` (``nanmin``: ``x - 1j``
  and ``+inf + 0j``).  Complex comparison is lexicographic, so a real value (even ``-inf``)
  beats an encoded NaN, and an imaginary part of 0 in the result means "all NaN".

Integer and boolean inputs behave as the plain reductions (NumPy's rules).
"""
from __future__ import annotations

from ... import _dtypes as D
from ..._graph import layout as L
from . import reductions as R
from . import scans as S
from .._common import as_node, is_array, wrap
from ..elementwise.elementwise import apply, astype
from ..elementwise.elementwise import where as where_
from ..outargs import single_out

_ALL_NAN = "All-NaN slice encountered"


def _arr(x):
    return x if is_array(x) else wrap(as_node(x))


def _inexact(x) -> bool:
    return x.dtype.kind in "fc"


def _nan_to(x, fill):
    """`x` with NaNs replaced by `fill` (inexact arrays only; others are returned as is)."""
    if not _inexact(x):
        return x
    return where_(apply("isnan", x), fill, x)


def _wmask(where, x):
    """The ``where=`` argument as a boolean gnumpy array (True when not given)."""
    if where is True:
        return True
    return where if is_array(where) else wrap(as_node(where, device=x.device))


def _ok(x, where):
    """Elements that take part: not NaN and selected by ``where=``."""
    ok = apply("logical_not", apply("isnan", x))
    return ok if where is True else apply("logical_and", ok, _wmask(where, x))


def _check_inexact(dtype, out):
    if dtype is not None and D.to_dtype(dtype).kind not in "fc":
        raise TypeError("If a is inexact, then dtype must be inexact")
    if out is not None and out.dtype.kind not in "fc":
        raise TypeError("If a is inexact, then out must be inexact")


# ------------------------------------------------------------------ sums and products

def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Sum over `axis`, treating NaNs as zero (one fused kernel).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.nansum(gp.asarray([1.0, gp.nan, 2.0]))
    array(3.)
    """
    x = _nan_to(_arr(a), 0)
    return R.sum(x, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial,
                 where=where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Product over `axis`, treating NaNs as one (one fused kernel).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.nanprod(gp.asarray([2.0, gp.nan, 3.0]))
    array(6.)
    """
    x = _nan_to(_arr(a), 1)
    return R.prod(x, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial,
                  where=where)


def nancumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum over `axis` (flattened when None), treating NaNs as zero.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.nancumsum(gp.asarray([1.0, gp.nan, 2.0]))
    array([1., 1., 3.])
    """
    return S.cumsum(_nan_to(_arr(a), 0), axis=axis, dtype=dtype, out=out)


def nancumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product over `axis` (flattened when None), treating NaNs as one.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.nancumprod(gp.asarray([2.0, gp.nan, 3.0]))
    array([2., 2., 6.])
    """
    return S.cumprod(_nan_to(_arr(a), 1), axis=axis, dtype=dtype, out=out)


# ------------------------------------------------------------------ mean, var, std

def _packed_sum(values, ok, axes, keepdims, cdt):
    """One complex sum reduction: real part sum of `values` where `ok`, imaginary part the
    number of such elements."""
    packed = where_(ok, apply("add", astype(values, cdt, copy=False), 1j), 0j)
    s = R._reduce("sum", packed, axes, keepdims, cdt)
    return apply("real", s), apply("imag", s)


def _real_compute(tdt):
    """Real compute dtype for a real float accumulation dtype (float16 runs in float32)."""
    return D.float32 if tdt == D.float16 else tdt


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Mean over `axis` ignoring NaNs (NaN for an all-NaN slice); one fused kernel for real
    inputs.

    # Note: NumPy warns "Mean of empty slice" for all-NaN slices; gnumpy emits no warning.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.nanmean(gp.asarray([1.0, gp.nan, 3.0]))
    array(2.)
    """
    x = _arr(a)
    if not _inexact(x):     # (NumPy's mean: the axis is checked before keepdims)
        return R.mean(x, axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where)
    keepdims = R._kd(keepdims)
    _check_inexact(dtype, out)
    axes = R._axes(axis, x)
    tdt = x.dtype if dtype is None else D.to_dtype(dtype)
    ok = _ok(x, where)
    if tdt != x.dtype and tdt.kind == "f" and x.dtype.kind == "f":
        x = astype(x, tdt, copy=False)      # NumPy sums the elements cast to `dtype`
    if x.dtype.kind == "f" and tdt.kind == "f":
        rc = _real_compute(tdt)
        tot, cnt = _packed_sum(x, ok, axes, keepdims, D.complex_dtype(rc))
        if rc != tdt:       # NumPy's total is a float16 (it may overflow) before dividing
            tot = astype(tot, tdt, copy=False)
    else:
        tot = R._reduce("sum", where_(ok, astype(x, tdt, copy=False), 0), axes, keepdims, tdt)
        # NumPy divides by an intp count: complex64 / int64 runs in complex128
        cnt = R._reduce("sum", astype(ok, D.int64, copy=False), axes, keepdims, D.int64)
    r = astype(apply("divide", tot, cnt), tdt, copy=False)
    return R._out("divide", r, out)


def _nanvar(a, axis, dtype, out, ddof, keepdims, where, mean, correction, name):
    x = _arr(a)
    if not _inexact(x):
        f = R.var if name == "var" else R.std
        return f(x, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims,
                 where=where, mean=mean, correction=correction)
    _check_inexact(dtype, out)
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    axes = R._axes(axis, x)
    single_out(out)     # NumPy: keepdims is read by the sum into out=, which checks out first
    keepdims = R._kd(keepdims)
    tdt = x.dtype if dtype is None else D.to_dtype(dtype)
    ok = _ok(x, where)
    if tdt != x.dtype and tdt.kind == "f" and x.dtype.kind == "f":
        x = astype(x, tdt, copy=False)      # NumPy sums the elements cast to `dtype`
    if x.dtype.kind == "f" and tdt.kind == "f":
        rc = _real_compute(tdt)
        cdt = D.complex_dtype(rc)
        xr = astype(x, rc, copy=False)
        if mean is None:
            tot, cnt = _packed_sum(xr, ok, axes, True, cdt)
            avg = apply("divide", tot, cnt)
        else:
            avg = _arr(mean)
        d = apply("subtract", xr, avg)
        s, cnt = _packed_sum(apply("multiply", d, d), ok, axes, keepdims, cdt)
        rdt = tdt
    else:
        cdt = tdt if tdt.kind == "c" else D.complex_dtype(tdt)
        rc = D.real_dtype(cdt)
        xc = where_(ok, astype(x, cdt, copy=False), 0)
        cnt1 = R._reduce("sum", astype(ok, D.int64, copy=False), axes, True, D.int64)
        avg = _arr(mean) if mean is not None else \
            astype(apply("divide", R._reduce("sum", xc, axes, True, cdt), cnt1), cdt,
                   copy=False)
        d = where_(ok, apply("subtract", xc, avg), 0)
        sq = apply("add", apply("square", apply("real", d)), apply("square", apply("imag", d)))
        s = R._reduce("sum", sq, axes, keepdims, rc)
        cnt = R._reduce("sum", astype(ok, rc, copy=False), axes, keepdims, rc)
        rdt = tdt if dtype is not None else D.real_dtype(x.dtype)
    dof = apply("subtract", cnt, ddof)
    # Note: NumPy warns "Degrees of freedom <= 0 for slice."; gnumpy returns NaN silently.
    v = where_(apply("less_equal", dof, 0), float("nan"), apply("divide", s, dof))
    if name == "std":
        v = apply("sqrt", v)
    return R._out("sqrt" if name == "std" else "divide", astype(v, rdt, copy=False), out)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           mean=None, correction=None):
    """Variance over `axis` ignoring NaNs, with `ddof` (two passes, two kernels for real
    inputs: the mean, then the centred squares with their count).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.nanvar(gp.asarray([1.0, gp.nan, 3.0]))
    array(1.)
    """
    return _nanvar(a, axis, dtype, out, ddof, keepdims, where, mean, correction, "var")


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           mean=None, correction=None):
    """Standard deviation over `axis` ignoring NaNs (square root of ``nanvar``).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.nanstd(gp.asarray([1.0, gp.nan, 3.0]))
    array(1.)
    """
    return _nanvar(a, axis, dtype, out, ddof, keepdims, where, mean, correction, "std")


# ------------------------------------------------------------------ min, max, argmin, argmax

def _nan_extreme(rop, a, axis, out, keepdims, initial, where):
    single_out(out)             # a read-only out first, as NumPy's fmax.reduce
    keepdims = R._kd(keepdims)
    x = _arr(a)
    name = "fmax" if rop == "max" else "fmin"
    axes = R._axes(axis, x)
    if where is not True and initial is None:
        raise ValueError(f"reduction operation '{name}' does not have an identity, so to use "
                         f"a where mask one has to specify 'initial'")
    n = L.prod(x.shape[i] for i in axes)
    if n == 0 and initial is None:     # NumPy: any empty reduced axis, whatever the output
        raise ValueError(f"zero-size array to reduction operation {name} which has no "
                         f"identity")
    f = R.max if rop == "max" else R.min
    if x.dtype.kind != "f" or n == 0:
        if x.dtype.kind == "c" and n:
            return _complex_extreme(rop, x, axes, out, keepdims, initial, where)
        return f(x, axis=axis, out=out, keepdims=keepdims,
                 **({} if initial is None else {"initial": initial}), where=where)
    cdt = D.complex_dtype(_real_compute(x.dtype))
    hi = rop == "max"
    nan_code = complex(float("-inf") if hi else float("inf"), 0.0)
    # x - (0 -+ 1j): the real part is x itself (x + 1j would turn -0.0 into +0.0)
    enc = where_(_ok(x, where), apply("subtract", astype(x, cdt, copy=False),
                                      complex(0.0, -1.0) if hi else complex(0.0, 1.0)),
                 nan_code)
    r = R._reduce(rop, enc, axes, keepdims, cdt)
    v = where_(apply("equal", apply("imag", r), 0), float("nan"), apply("real", r))
    v = astype(v, x.dtype, copy=False)
    if initial is not None:
        v = astype(apply(name, v, initial), x.dtype, copy=False)
    return R._out(name, v, out)


def _complex_extreme(rop, x, axes, out, keepdims, initial, where):
    """nanmax/nanmin of complex input: the extreme of the non-NaN values; for an all-NaN
    slice the slice's first element (the NaN NumPy's fmax/fmin reduction keeps)."""
    name = "fmax" if rop == "max" else "fmin"
    inf = float("inf")
    fill = complex(-inf, -inf) if rop == "max" else complex(inf, inf)
    ok = _ok(x, where)
    r = R._reduce(rop, where_(ok, x, fill), axes, keepdims, x.dtype)
    some = R._reduce("any", ok, axes, keepdims, D.bool_)
    first = x[tuple(slice(0, 1) if i in axes else slice(None) for i in range(x.ndim))]
    v = where_(some, r, first.reshape(r.shape))
    if initial is not None:
        v = astype(apply(name, v, initial), x.dtype, copy=False)
    return R._out(name, v, out)


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Maximum over `axis` ignoring NaNs (NaN for an all-NaN slice); one fused kernel.

    # Note: NumPy warns "All-NaN slice encountered"; gnumpy returns NaN silently.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.nanmax(gp.asarray([1.0, gp.nan, 3.0]))
    array(3.)
    """
    return _nan_extreme("max", a, axis, out, keepdims, initial, where)


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Minimum over `axis` ignoring NaNs (NaN for an all-NaN slice); one fused kernel.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.nanmin(gp.asarray([1.0, gp.nan, 3.0]))
    array(1.)
    """
    return _nan_extreme("min", a, axis, out, keepdims, initial, where)


def _nan_arg(rop, a, axis, out, keepdims):
    x = _arr(a)
    if _inexact(x):
        nan = apply("isnan", x)
        if x.size:
            # one device check: NumPy raises for any all-NaN slice
            allnan = R.all(nan, axis=axis)
            if bool(R.any(allnan)):
                raise ValueError(_ALL_NAN)
        x = where_(nan, float("inf") if rop == "argmin" else float("-inf"), x)
    f = R.argmin if rop == "argmin" else R.argmax
    return f(x, axis=axis, out=out, keepdims=keepdims)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """Index of the maximum over `axis` ignoring NaNs; ValueError for an all-NaN slice
    (one device-to-host check).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.nanargmax(gp.asarray([1.0, gp.nan, 3.0]))
    array(2)
    """
    return _nan_arg("argmax", a, axis, out, keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """Index of the minimum over `axis` ignoring NaNs; ValueError for an all-NaN slice.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.nanargmin(gp.asarray([1.0, gp.nan, 3.0]))
    array(0)
    """
    return _nan_arg("argmin", a, axis, out, keepdims)
