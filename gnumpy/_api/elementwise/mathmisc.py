"""Mathematical odds and ends built from fused elementwise ops, slices and scans: nan_to_num,
angle, fix, sinc, i0, trapezoid, gradient, ediff1d, unwrap, polyval, vander, geomspace.

Each follows NumPy's algorithm step for step (same operation order, same dtype rules), so
results agree to rounding; elementwise parts fuse into single kernels.
"""
from __future__ import annotations

import operator

import numpy as np

from ... import _dtypes as D
from ..._graph import ir
from ..._sizes import dimension
from .._common import as_node, is_array, normalize_axis, scalar_result, wrap
from .elementwise import apply, astype
from .elementwise import where as where_
from ..outargs import finish
from ..shape.manipulation import stack, concat, ravel, broadcast_to, moveaxis
from ..._config import config
from ..reductions.reductions import sum as sum_, all as all_, any as any_
from ..reductions.scans import diff, cumsum, cumulative_prod
from ..creation.creation import zeros_like, ones, zeros, logspace


def _arr(x, device=None):
    return x if is_array(x) else wrap(as_node(x, device=device))


def _const(value, dt, dev):
    """A 0-d constant of dtype `dt` (C-style conversion, like NumPy's copyto)."""
    return wrap(ir.scalar(value, dt, (), dev))


def complex_from_parts(re, im, cdt):
    """The complex array ``re + 1j * im`` of dtype `cdt`, exact for every value (inf and NaN
    parts included): the parts are stacked and the buffer reinterpreted."""
    rdt = D.real_dtype(cdt)
    shape = re.shape
    pair = stack([astype(re, rdt, copy=False), astype(im, rdt, copy=False)], axis=-1)
    return pair.view(cdt).reshape(shape)


# ------------------------------------------------------------------ elementwise

def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """Replace NaN with `nan`, +inf with `posinf` (default: the largest finite value) and
    -inf with `neginf` (default: the most negative finite value); one fused kernel.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.nan_to_num(gp.asarray([gp.nan, gp.inf, 1.0]))
    array([0.00000000e+000, 1.79769313e+308, 1.00000000e+000])
    """
    a = _arr(x)
    if not copy and a._sc:      # (NumPy's scalar: copy=False cannot be honoured)
        raise ValueError("Unable to avoid copy while creating an array as requested.")
    if a.dtype.kind not in "fc":
        return scalar_result(a._copy()) if copy else a if a.shape else a[()]
    rdt = D.real_dtype(a.dtype)
    fi = np.finfo(rdt)
    hi = float(fi.max) if posinf is None else posinf
    lo = float(fi.min) if neginf is None else neginf
    dev = a.device

    def fix(d):
        isinf = apply("isinf", d)
        neg = apply("signbit", d)
        r = where_(apply("isnan", d), _const(nan, rdt, dev), d)
        r = where_(apply("logical_and", isinf, apply("logical_not", neg)),
                   _const(hi, rdt, dev), r)
        return where_(apply("logical_and", isinf, neg), _const(lo, rdt, dev), r)

    if a.dtype.kind == "c":
        r = complex_from_parts(fix(apply("real", a)), fix(apply("imag", a)), a.dtype)
    else:
        r = fix(a)
    if not copy and is_array(x):
        x._assign_from(r)
        return x[()] if not x.shape else x      # (NumPy's x[()])
    return scalar_result(r)


def angle(z, deg=False):
    """The counterclockwise angle of complex `z` from the positive real axis (radians, or
    degrees with `deg`).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.angle(gp.asarray([1j, -1.0]))
    array([1.57079633, 3.14159265])
    """
    z = _arr(z)
    if z.dtype.kind == "c":
        a = apply("arctan2", apply("imag", z), apply("real", z))
    else:
        a = apply("arctan2", 0, z)
    if deg:
        a = astype(apply("multiply", a, 180 / np.pi), a.dtype, copy=False)
    return a


def fix(x, out=None):
    """Round to the nearest integer towards zero (the dtype is kept).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fix(gp.asarray([2.1, -2.9]))
    array([ 2., -2.])
    """
    x = _arr(x)
    r = where_(apply("greater_equal", x, 0), apply("floor", x), apply("ceil", x))
    return finish("floor", r, out)


def sinc(x):
    """The normalized sinc function ``sin(pi x) / (pi x)`` (1 at 0).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.sinc(gp.asarray([0.0, 0.5]))
    array([1.        , 0.63661977])
    """
    x = apply("multiply", np.pi, _arr(x))
    eps = float(np.finfo(x.dtype).eps) if x.dtype.kind == "f" else 1e-20
    y = where_(apply("not_equal", x, 0), x, eps)
    return apply("divide", apply("sin", y), y)


# NumPy's Chebyshev coefficients for i0 (Cephes), on [0, 8] and (8, inf)
_I0A = [-4.4153416464793395e-18, 3.3307945188222384e-17, -2.431279846547955e-16,
        1.715391285555133e-15, -1.1685332877993451e-14, 7.676185498604936e-14,
        -4.856446783111929e-13, 2.95505266312964e-12, -1.726826291441556e-11,
        9.675809035373237e-11, -5.189795601635263e-10, 2.6598237246823866e-09,
        -1.300025009986248e-08, 6.046995022541919e-08, -2.670793853940612e-07,
        1.1173875391201037e-06, -4.4167383584587505e-06, 1.6448448070728896e-05,
        -5.754195010082104e-05, 0.00018850288509584165, -0.0005763755745385824,
        0.0016394756169413357, -0.004324309995050576, 0.010546460394594998,
        -0.02373741480589947, 0.04930528423967071, -0.09490109704804764,
        0.17162090152220877, -0.3046826723431984, 0.6767952744094761]
_I0B = [-7.233180487874754e-18, -4.830504485944182e-18, 4.46562142029676e-17,
        3.461222867697461e-17, -2.8276239805165836e-16, -3.425485619677219e-16,
        1.7725601330565263e-15, 3.8116806693526224e-15, -9.554846698828307e-15,
        -4.150569347287222e-14, 1.54008621752141e-14, 3.8527783827421426e-13,
        7.180124451383666e-13, -1.7941785315068062e-12, -1.3215811840447713e-11,
        -3.1499165279632416e-11, 1.1889147107846439e-11, 4.94060238822497e-10,
        3.3962320257083865e-09, 2.266668990498178e-08, 2.0489185894690638e-07,
        2.8913705208347567e-06, 6.889758346916825e-05, 0.0033691164782556943,
        0.8044904110141088]


def _chbevl(x, vals):
    b0 = vals[0]
    b1 = 0.0
    b2 = 0.0
    for v in vals[1:]:
        b2 = b1
        b1 = b0
        b0 = apply("add", apply("subtract", apply("multiply", x, b1), b2), v)
    return apply("multiply", 0.5, apply("subtract", b0, b2))


def i0(x):
    """Modified Bessel function of the first kind, order 0 (NumPy's Chebyshev expansion;
    both branches in one fused kernel).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.i0(gp.asarray([0.0, 1.0]))
    array([1.        , 1.26606588])
    """
    x = _arr(x)
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if x.dtype.kind != "f":
        x = astype(x, D.float64)
    x = apply("absolute", x)
    # The recurrence reads each term twice, so the graph's tree size (what
    # config.max_graph_nodes bounds) grows like Fibonacci although it has ~250 distinct
    # nodes: lift the bound while building it so that i0 stays one kernel.
    with config.override(max_graph_nodes=1 << 62):
        small = apply("multiply", apply("exp", x),
                      _chbevl(apply("subtract", apply("divide", x, 2.0), 2), _I0A))
        large = apply("divide", apply("multiply", apply("exp", x), _chbevl(
            apply("subtract", apply("divide", 32.0, x), 2.0), _I0B)), apply("sqrt", x))
        return where_(apply("less_equal", x, 8.0), small, large)


# ------------------------------------------------------------------ differences and integrals

def _axis_slice(nd, axis, sl):
    idx = [slice(None)] * nd
    idx[axis] = sl
    return tuple(idx)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """Integrate along `axis` with the composite trapezoidal rule.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.trapezoid(gp.asarray([1.0, 2.0, 3.0]))
    array(4.)
    """
    y = _arr(y)
    if x is None:
        d = dx
    else:
        x = _arr(x, y.device)
        if x.ndim == 1:
            d = diff(x)
            shape = [1] * y.ndim
            shape[axis] = d.shape[0]
            d = d.reshape(shape)
        else:
            d = diff(x, axis=axis)
    nd = y.ndim
    s1 = _axis_slice(nd, axis, slice(1, None))
    s2 = _axis_slice(nd, axis, slice(None, -1))
    t = apply("divide", apply("multiply", d, apply("add", y[s1], y[s2])), 2.0)
    return sum_(t, axis=axis)


def gradient(f, *varargs, axis=None, edge_order=1):
    """Gradient of `f` by second-order central differences inside and first- or
    second-order one-sided differences at the edges (spacing: scalars or coordinates).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.gradient(gp.asarray([1.0, 2.0, 4.0, 7.0]))
    array([1. , 1.5, 2.5, 3. ])
    """
    f = _arr(f)
    N = f.ndim
    if axis is None:
        axes = tuple(range(N))
    else:
        axes = tuple(normalize_axis(a, N) for a in
                     (axis if isinstance(axis, (tuple, list)) else (axis,)))
        if len(set(axes)) != len(axes):
            raise ValueError("repeated axis")
    n = len(varargs)
    if n == 0:
        dx = [1.0] * len(axes)
    elif n == 1 and np.ndim(varargs[0]) == 0:
        dx = list(varargs) * len(axes)
    elif n == len(axes):
        dx = list(varargs)
        for i, distances in enumerate(dx):
            if np.ndim(distances) == 0:
                continue
            distances = _arr(distances, f.device)
            if distances.ndim != 1:
                raise ValueError("distances must be either scalars or 1d")
            if len(distances) != f.shape[axes[i]]:
                raise ValueError("when 1d, distances must match the length of the "
                                 "corresponding dimension")
            if distances.dtype.kind in "iu":
                distances = astype(distances, D.float64)
            diffx = diff(distances)
            # as NumPy: constant spacing takes the scalar formulas (one device check)
            if diffx.shape[0] and bool(all_(apply("equal", diffx, diffx[0]))):
                diffx = diffx[0]
            dx[i] = diffx
    else:
        raise TypeError("invalid number of arguments")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = f.dtype
    if otype.kind not in "fc":
        if otype.kind in "iu":
            f = astype(f, D.float64)
        otype = D.float64
    outvals = [_gradient_axis(f, ax, ax_dx, edge_order, otype) for ax, ax_dx in zip(axes, dx)]
    if len(axes) == 1:
        return outvals[0]
    return tuple(outvals)


def _gradient_axis(f, axis, ax_dx, edge_order, otype):
    N = f.ndim
    if f.shape[axis] < edge_order + 1:
        raise ValueError("Shape of array too small to calculate a numerical gradient, at "
                         "least (edge_order + 1) elements are required.")

    def F(sl):
        return f[_axis_slice(N, axis, sl)]

    def lin(a, b, c, s2, s3, s4):      # a * f[s2] + b * f[s3] + c * f[s4]
        return apply("add", apply("add", apply("multiply", a, F(s2)),
                                  apply("multiply", b, F(s3))), apply("multiply", c, F(s4)))

    mul, sub, div, add = (lambda p, q: apply("multiply", p, q)), \
        (lambda p, q: apply("subtract", p, q)), (lambda p, q: apply("divide", p, q)), \
        (lambda p, q: apply("add", p, q))
    uniform = np.ndim(ax_dx) == 0
    if uniform:
        inner = div(sub(F(slice(2, None)), F(slice(None, -2))), mul(2.0, ax_dx))
    else:
        dx1, dx2 = ax_dx[0:-1], ax_dx[1:]
        shape = [1] * N
        shape[axis] = -1
        a = div(apply("negative", dx2), mul(dx1, add(dx1, dx2))).reshape(shape)
        b = div(sub(dx2, dx1), mul(dx1, dx2)).reshape(shape)
        c = div(dx1, mul(dx2, add(dx1, dx2))).reshape(shape)
        inner = lin(a, b, c, slice(None, -2), slice(1, -1), slice(2, None))
    first, last = slice(0, 1), slice(-1, None)
    if edge_order == 1:
        d0 = ax_dx if uniform else ax_dx[0]
        dn = ax_dx if uniform else ax_dx[-1]
        lo = div(sub(F(slice(1, 2)), F(first)), d0)
        hi = div(sub(F(last), F(slice(-2, -1))), dn)
    else:
        if uniform:
            a, b, c = div(-1.5, ax_dx), div(2.0, ax_dx), div(-0.5, ax_dx)
        else:
            dx1, dx2 = ax_dx[0], ax_dx[1]
            a = div(apply("negative", add(mul(2.0, dx1), dx2)), mul(dx1, add(dx1, dx2)))
            b = div(add(dx1, dx2), mul(dx1, dx2))
            c = div(apply("negative", dx1), mul(dx2, add(dx1, dx2)))
        lo = lin(a, b, c, first, slice(1, 2), slice(2, 3))
        if uniform:
            a, b, c = div(0.5, ax_dx), div(-2.0, ax_dx), div(1.5, ax_dx)
        else:
            dx1, dx2 = ax_dx[-2], ax_dx[-1]
            a = div(dx2, mul(dx1, add(dx1, dx2)))
            b = div(apply("negative", add(dx2, dx1)), mul(dx1, dx2))
            c = div(add(mul(2.0, dx2), dx1), mul(dx2, add(dx1, dx2)))
        hi = lin(a, b, c, slice(-3, -2), slice(-2, -1), last)
    parts = [astype(_arr(p, f.device), otype, copy=False) for p in (lo, inner, hi)]
    return concat(parts, axis=axis)


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences between consecutive elements of the flattened array, with optional
    values prepended/appended (NumPy's ``same_kind`` rule for them).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.ediff1d(gp.asarray([1, 2, 4, 7]), to_begin=0)
    array([0, 1, 2, 3])
    """
    a = ravel(_arr(ary))
    dt = a.dtype
    d = apply("subtract", a[1:], a[:-1])
    if to_begin is None and to_end is None:
        return d
    parts = []
    for extra, name in ((to_begin, "to_begin"), (to_end, "to_end")):
        if extra is None:
            parts.append(None)
            continue
        e = _arr(extra, a.device)
        if not D.can_cast(e.dtype, dt, "same_kind"):
            raise TypeError(f"dtype of `{name}` must be compatible with input `ary` under "
                            f"the `same_kind` rule.")
        parts.append(astype(ravel(e), dt, copy=False))
    seq = [p for p in (parts[0], astype(d, dt, copy=False), parts[1]) if p is not None]
    return concat(seq)


def unwrap(p, discont=None, axis=-1, *, period=2 * np.pi):
    """Unwrap by taking the complement of large deltas with respect to `period` along `axis`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.unwrap(gp.asarray([0.0, 3.0, 6.5]))
    array([0.        , 3.        , 0.21681469])
    """
    p = _arr(p)
    nd = p.ndim
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    axis = normalize_axis(axis, nd)
    dtype = D.result_type(dd, period)
    if dtype.kind in "iu":
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = apply("add", apply("remainder", apply("subtract", dd, interval_low), period),
                  interval_low)
    if boundary_ambiguous:
        m = apply("logical_and", apply("equal", ddmod, interval_low), apply("greater", dd, 0))
        ddmod = where_(m, astype(_arr(interval_high, p.device), ddmod.dtype), ddmod)
    ph = apply("subtract", ddmod, dd)
    ph = where_(apply("less", apply("absolute", dd), discont), 0, ph)
    head = astype(p[_axis_slice(nd, axis, slice(0, 1))], dtype)
    tail = astype(apply("add", p[_axis_slice(nd, axis, slice(1, None))], cumsum(ph, axis)),
                  dtype, copy=False)
    return concat([head, tail], axis=axis)


# ------------------------------------------------------------------ polynomials and spacing

def polyval(p, x):
    """Evaluate the polynomial with coefficients `p` (highest power first) at `x`
    (Horner's scheme, fused into one kernel).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.polyval(gp.asarray([3.0, 0.0, 1.0]), gp.asarray([5.0]))
    array([76.])
    """
    p = _arr(p)
    x = _arr(x, p.device)
    y = zeros_like(x)
    for pv in p:
        y = apply("add", apply("multiply", y, x), pv)
    return y


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of `x` (powers by repeated multiplication, as NumPy).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.vander(gp.asarray([1, 2, 3]), 3)
    array([[1, 1, 1],
           [4, 2, 1],
           [9, 3, 1]])
    """
    x = _arr(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = x.shape[0]
    N = n if N is None else dimension(N)
    dt = D.promote(x.dtype, D.int64)
    if N <= 0:
        return zeros((n, max(N, 0)), dtype=dt, device=x.device)
    if N == 1:
        return ones((n, 1), dtype=dt, device=x.device)
    cols = broadcast_to(astype(x, dt, copy=False).reshape(n, 1), (n, N - 1))
    v = cumulative_prod(cols, axis=1, include_initial=True)
    return v if increasing else v[:, ::-1]


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """`num` numbers spaced evenly on a log scale from `start` to `stop` (negative and
    complex endpoints allowed, as in NumPy).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.geomspace(1, 1000, num=4)
    array([   1.,   10.,  100., 1000.])
    """
    s, e = _arr(start), _arr(stop)
    if bool(any_(apply("equal", s, 0))) or bool(any_(apply("equal", e, 0))):
        raise ValueError("Geometric sequence cannot include zero")
    dt = D.result_type(s, e, float(num), D.float64 if dtype is None else D.to_dtype(dtype))
    odt = dt if dtype is None else D.to_dtype(dtype)
    s, e = astype(s, dt), astype(e, dt)
    sign = apply("sign", s)
    s = apply("divide", s, sign)
    e = apply("divide", e, sign)
    r = logspace(apply("log10", s), apply("log10", e), num=num, endpoint=endpoint, base=10.0,
                 dtype=dt)
    num = operator.index(num)
    if num > 0:
        nd = r.ndim - 1
        idx = wrap(ir.axis_iota((num,), 0, r.device)).reshape((num,) + (1,) * nd)
        r = where_(apply("equal", idx, 0), s, r)
        if num > 1 and endpoint:
            r = where_(apply("equal", idx, num - 1), e, r)
    r = apply("multiply", r, sign)
    if axis != 0:
        r = moveaxis(r, 0, axis)
    return astype(r, odt, copy=False)
