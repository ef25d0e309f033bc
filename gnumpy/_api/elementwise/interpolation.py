"""One-dimensional piecewise-linear interpolation: ``interp``.

The interval of each point comes from ``searchsorted`` on the sample points, the endpoints of
the interval from ``take`` (gathers); the interpolation itself, NumPy's special cases (exact
hits, the last sample point, NaN slopes, left/right fill values) are one fused elementwise
expression.
"""
from __future__ import annotations

from ... import _dtypes as D
from .._common import as_node, is_array, scalar_result, wrap
from .elementwise import apply, astype
from .elementwise import where as where_
from ..indexing.advanced import take
from ..shape.manipulation import concat
from ..sorting.sorting import argsort, searchsorted
from .mathmisc import complex_from_parts


def _arr(x, device=None):
    return x if is_array(x) else wrap(as_node(x, device=device))


def _line(x, xj, xj1, fj, fj1):
    """NumPy's interpolation between (xj, fj) and (xj1, fj1) for one real component."""
    slope = apply("divide", apply("subtract", fj1, fj), apply("subtract", xj1, xj))
    r = apply("add", apply("multiply", slope, apply("subtract", x, xj)), fj)
    # NaN one way (an infinite slope or value): try from the other end, then the flat case
    r2 = apply("add", apply("multiply", slope, apply("subtract", x, xj1)), fj1)
    r = where_(apply("isnan", r), r2, r)
    flat = apply("logical_and", apply("isnan", r), apply("equal", fj, fj1))
    return where_(flat, fj, r)


def interp(x, xp, fp, left=None, right=None, period=None):
    """Piecewise-linear interpolant of the points (`xp`, `fp`) evaluated at `x` (`xp`
    increasing; `left`/`right` outside it; `period` for periodic coordinates).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.interp(gp.asarray([0.5, 2.5, 4.0]), gp.asarray([0.0, 1.0, 3.0]),
    ...           gp.asarray([0.0, 10.0, 30.0]))
    array([ 5., 25., 30.])
    """
    fp = _arr(fp)
    x = astype(_arr(x, fp.device), D.float64, copy=False)
    xp = astype(_arr(xp, fp.device), D.float64, copy=False)
    cplx = fp.dtype.kind == "c"
    fp = astype(fp, D.complex128 if cplx else D.float64, copy=False)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("object too deep for desired array" if max(xp.ndim, fp.ndim) > 1
                         else "object of too small depth for desired array")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if xp.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        x = apply("remainder", x, period)
        xp = apply("remainder", xp, period)
        order = argsort(xp)
        xp = take(xp, order, mode="clip")
        fp = take(fp, order, mode="clip")
        xp = concat([apply("subtract", xp[-1:], period), xp, apply("add", xp[0:1], period)])
        fp = concat([fp[-1:], fp, fp[0:1]])
    n = xp.shape[0]
    lval = fp[0] if left is None else left
    rval = fp[n - 1] if right is None else right
    x0, xn, f0 = xp[0], xp[n - 1], fp[0]
    if n == 1:
        r = where_(apply("less", x, x0), lval, where_(apply("greater", x, x0), rval, f0))
        return scalar_result(astype(r, fp.dtype, copy=False))
    j = apply("subtract", searchsorted(xp, x, side="right"), 1)
    jc = apply("minimum", apply("maximum", j, 0), n - 2)
    j1 = apply("add", jc, 1)
    xj, xj1 = take(xp, jc, mode="clip"), take(xp, j1, mode="clip")
    fj, fj1 = take(fp, jc, mode="clip"), take(fp, j1, mode="clip")
    if cplx:
        parts = [_line(x, xj, xj1, apply(p, fj), apply(p, fj1)) for p in ("real", "imag")]
        r = complex_from_parts(parts[0], parts[1], D.complex128)
    else:
        r = _line(x, xj, xj1, fj, fj1)
    r = where_(apply("equal", xj, x), fj, r)
    r = where_(apply("equal", j, n - 1), fp[n - 1], r)
    r = where_(apply("less", x, x0), lval, r)
    r = where_(apply("greater", x, xn), rval, r)
    r = where_(apply("isnan", x), x, r)
    return scalar_result(astype(r, fp.dtype, copy=False))

