"""NumPy's polynomial functions on coefficient arrays (highest power first): poly, roots,
polyadd, polysub, polymul, polyder, polyint, polydiv and polyfit (polyval is in mathmisc).

Each follows NumPy's algorithm step for step (same operations in the same order, same dtype
rules) with gnumpy ops, so it runs on every backend: ``poly`` and ``polydiv`` are fused
elementwise recurrences over the degree (shifted views and index masks where NumPy writes
slices in place); trimming leading zeros reads a few integers back.  ``polyfit`` solves
with gnumpy.linalg's SVD least squares (every backend).  ``roots`` and ``poly`` of a
matrix need general eigenvalues, CPU backend only: on CUDA they raise NotImplementedError
at the call.

# Note: numpy.poly1d objects are not supported (TypeError); pass their ``coeffs``.
"""
from __future__ import annotations

import warnings

import numpy as np

from ... import _dtypes as D
from .._common import as_node, check_device_match, is_array, wrap
from ..elementwise.elementwise import apply, astype
from ..elementwise.elementwise import where as where_
from ..creation.creation import ones, arange, asarray, eye, zeros
from ..shape.manipulation import concat, stack, broadcast_to
from ..reductions.reductions import argmax, all as all_, sum as sum_
from ..sorting.sorting import sort
from .products import convolve, outer
from ..elementwise.logic import isclose
from .matmul import matmul
from ..elementwise.mathmisc import vander

__all__ = ["poly", "roots", "polyadd", "polysub", "polymul", "polyder", "polyint", "polydiv",
           "polyfit"]


def _arr(x, device=None):
    return x if is_array(x) else wrap(as_node(x, device=device))


def _atleast_1d(x, device=None):
    x = _arr(x, device)
    return x.reshape(1) if x.ndim == 0 else x


def _no_poly1d(name, *args):
    if any(isinstance(a, np.poly1d) for a in args):
        raise TypeError(f"gnumpy.{name} does not support numpy.poly1d objects; pass the "
                        f"coefficient array (p.coeffs) instead")


def _sequence(name, x):
    """`x` as an array of at least one dimension; 0-d is a TypeError as in NumPy (its
    dispatcher for poly and roots iterates over the argument)."""
    x = _arr(x)
    if x.ndim == 0:
        raise TypeError(f"gnumpy.{name} expects a sequence, not a 0-d array or scalar")
    return x


def _cpu_only(name, what, *arrays):
    if any(a.device.kind != "cpu" for a in arrays):
        raise NotImplementedError(
            f"gnumpy.{name} is not implemented on the CUDA backend yet (it needs {what}, "
            f"which gnumpy.linalg provides on the CPU backend only); arrays on "
            f"device='cpu' work")


def _leading_zeros(*arrays):
    """The number of leading zeros of each 1-D array (its length when all are zero), read
    back from the device in one transfer."""
    firsts = [argmax(concat([apply("not_equal", a, 0),
                             ones((1,), dtype=D.bool_, device=a.device)])) for a in arrays]
    return [int(v) for v in stack(firsts).tolist()]


# ------------------------------------------------------------------ construction and roots

def poly(seq_of_zeros):
    """Coefficients of the monic polynomial with the given roots (or, for a non-empty square
    matrix, with its eigenvalues as roots: CPU backend only).

    # Note: an empty sequence gives a 0-d float64 array 1.0 where NumPy returns the Python
    # float 1.0.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.poly(gp.asarray([1.0, 2.0]))
    array([ 1., -3.,  2.])
    """
    _no_poly1d("poly", seq_of_zeros)
    z = _sequence("poly", seq_of_zeros)
    sh = z.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        _cpu_only("poly", "eigenvalues for a matrix argument", z)
        # loaded on first use: only poly, roots and polyfit need gnumpy.linalg (~17 ms, 12 modules)
        from ...linalg import eigvals
        z = eigvals(z)
    elif len(sh) == 1:     # NumPy's mintypecode: float32/64, complex stay; all else float64
        keep = z.dtype.kind == "c" or z.dtype in (D.float32, D.float64)
        z = astype(z, z.dtype if keep else D.float64, copy=False)
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    n = z.shape[0]
    dev = z.device
    if n == 0:
        return asarray(1.0, device=dev)
    dt = z.dtype
    # c holds a (the coefficients so far, i + 1 of them) at offset n - i in zeros of length
    # 2n + 1 - i; a step is NumPy's convolve(a, [1, -z_i]), end terms one product only.
    c = astype(apply("equal", arange(2 * n + 1, device=dev), n), dt)
    for i in range(n):
        nz = apply("negative", z[i])
        k = apply("add", arange(2 * n - i, device=dev), i + 1 - n)  # index into new a
        x, y = c[1:], c[:-1]                                         # a[k], a[k - 1]
        # the end terms: adding -0.0 leaves every value (signed zeros, NaN) as it is
        new = apply("add", where_(apply("equal", k, i + 1), -0.0, x),
                    where_(apply("equal", k, 0), -0.0, apply("multiply", y, nz)))
        inside = apply("logical_and", apply("greater_equal", k, 0),
                       apply("less_equal", k, i + 1))
        c = where_(inside, new, 0)
    if dt.kind == "c":      # if complex roots are all complex conjugates, the roots are real
        r = astype(z, D.complex128, copy=False)
        if bool(all_(apply("equal", sort(r), sort(apply("conjugate", r))))):
            c = apply("real", c)._copy()
    return c


def roots(p):
    """The roots of the polynomial with coefficients `p`: eigenvalues of its companion
    matrix (CPU backend only; NotImplementedError on CUDA).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.roots(gp.asarray([1.0, -3.0, 2.0]))
    array([2., 1.])
    """
    # loaded on first use: only poly, roots and polyfit need gnumpy.linalg (~17 ms, 12 modules)
    from ...linalg import eigvals
    _no_poly1d("roots", p)
    p = _sequence("roots", p)
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    _cpu_only("roots", "the eigenvalues of the companion matrix", p)
    dev = p.device
    lead, trail = _leading_zeros(p, p[::-1])
    if lead == p.shape[0]:
        return zeros((0,), dtype=D.float64, device=dev)
    p = p[lead:p.shape[0] - trail]
    if p.dtype.kind not in "fc":
        p = astype(p, D.float64)
    N = p.shape[0]
    if N > 1:
        row = apply("divide", apply("negative", p[1:]), p[0]).reshape(1, N - 1)
        A = concat([row, eye(N - 2, N - 1, dtype=p.dtype, device=dev)], axis=0)
        r = eigvals(A)
    else:
        r = zeros((0,), dtype=D.float64, device=dev)
    return concat([r, zeros((trail,), dtype=r.dtype, device=dev)])


# ------------------------------------------------------------------ arithmetic

def _aligned(name, a1, a2):
    """`a1` and `a2` (at least 1-D) with the shorter one left-padded with zeros of its own
    dtype, as NumPy's polyadd/polysub."""
    _no_poly1d(name, a1, a2)
    a1 = _atleast_1d(a1)
    a2 = _atleast_1d(a2, a1.device)
    check_device_match([a1._node, a2._node])
    n = max(len(a1), len(a2))
    return tuple(a if len(a) == n else concat([zeros((n - len(a),), dtype=a.dtype,
                                                     device=a.device), a]) for a in (a1, a2))


def polyadd(a1, a2):
    """The sum of two polynomials (the shorter is padded with leading zeros).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.polyadd(gp.asarray([1, 2]), gp.asarray([9, 5, 4]))
    array([9, 6, 6])
    """
    return apply("add", *_aligned("polyadd", a1, a2))


def polysub(a1, a2):
    """The difference ``a1 - a2`` of two polynomials.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.polysub(gp.asarray([2, 10, -2]), gp.asarray([3, 10, -4]))
    array([-1,  0,  2])
    """
    return apply("subtract", *_aligned("polysub", a1, a2))


def polymul(a1, a2):
    """The product of two polynomials (leading zeros of the factors trimmed first, as NumPy
    does; one convolution).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.polymul(gp.asarray([1, 2, 3]), gp.asarray([9, 5, 1]))
    array([ 9, 23, 38, 17,  3])
    """
    _no_poly1d("polymul", a1, a2)
    a1 = _atleast_1d(a1)
    a2 = _atleast_1d(a2, a1.device)
    if a1.ndim > 1 or a2.ndim > 1:      # NumPy's poly1d(a1), poly1d(a2)
        raise ValueError("Polynomial must be 1d only.")
    check_device_match([a1._node, a2._node])
    a1, a2 = (zeros((1,), dtype=a.dtype, device=a.device) if lead == a.shape[0] else a[lead:]
              for a, lead in zip((a1, a2), _leading_zeros(a1, a2)))
    return convolve(a1, a2)


# ------------------------------------------------------------------ calculus

def polyder(p, m=1):
    """The `m`-th derivative of a polynomial.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.polyder(gp.asarray([1, 1, 1, 1]))
    array([3, 2, 1])
    """
    _no_poly1d("polyder", p)
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    p = _arr(p)
    n = len(p) - 1      # as NumPy: a 0-d p is a TypeError whatever m is
    for _ in range(m):
        p = apply("multiply", p[:-1], arange(n, 0, -1, device=p.device))
        n = len(p) - 1
    return p


def polyint(p, m=1, k=None):
    """The `m`-th antiderivative of a polynomial, with integration constants `k` (a scalar
    or one per order, lowest order first; zeros by default).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.polyint(gp.asarray([3.0, 2.0, 1.0]))
    array([1., 1., 1., 0.])
    """
    _no_poly1d("polyint", p, k)
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    p = _arr(p)
    dev = p.device
    if k is None:
        k = zeros((m,), dtype=D.float64, device=dev)
    k = _atleast_1d(k, dev)
    if len(k) == 1 and m > 1:
        k = apply("multiply", k[0], ones((m,), dtype=D.float64, device=dev))
    if len(k) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    for i in range(m):
        y = apply("divide", p, arange(len(p), 0, -1, device=dev))
        p = concat([y, k[i:i + 1]])
    return p


# ------------------------------------------------------------------ division and fitting

def polydiv(u, v):
    """Quotient and remainder ``(q, r)`` of the polynomial division ``u / v`` (NumPy's
    long division; leading remainder terms with ``|r| <= 1e-8`` are dropped, as NumPy's
    ``allclose(r[0], 0, rtol=1e-14)`` does, keeping at least one).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.polydiv(gp.asarray([3.0, 5.0, 2.0]), gp.asarray([2.0, 1.0]))
    (array([1.5 , 1.75]), array([0.25]))
    """
    _no_poly1d("polydiv", u, v)
    u = apply("add", _atleast_1d(u), 0.0)
    v = apply("add", _atleast_1d(v, u.device), 0.0)
    check_device_match([u._node, v._node])
    wdt = apply("add", u[0], v[0]).dtype    # the common type (IndexError when empty)
    dev = u.device
    m, n = len(u) - 1, len(v) - 1
    scale = apply("divide", 1.0, v[0])
    K = m - n + 1
    q = zeros((max(K, 1),), dtype=wdt, device=dev)
    r = astype(u, wdt)
    if K > 0:
        # row j of V is v shifted right by j in zeros of len(u) (a Toeplitz view of one
        # padded copy, as in convolve); step j updates r[j:j+n+1] only, as NumPy does
        pad = concat([v, zeros((K,), dtype=v.dtype, device=dev)])
        width = m + 2
        V = broadcast_to(pad, (K, width)).reshape(-1)[:K * (width - 1)].reshape(K, m + 1)
        cols = arange(m + 1, device=dev)
        for j in range(K):
            d = apply("multiply", scale, r[j])
            q = where_(apply("equal", cols[:K], j), d, q)
            inside = apply("logical_and", apply("greater_equal", cols, j),
                           apply("less_equal", cols, j + n))
            # subtracting +0.0 outside the slice leaves r's values (signed zeros, NaN)
            r = apply("subtract", r, where_(inside, apply("multiply", d, V[j]), 0.0))
    small = apply("logical_not", isclose(r, 0, rtol=1e-14))
    lead, = _leading_zeros(small)
    return q, r[min(lead, r.shape[0] - 1):]


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares polynomial fit of degree `deg` to points ``(x, y)`` (``y`` may hold
    several data sets as columns), through ``gnumpy.linalg.lstsq``.

    Returns the coefficients, with ``(residuals, rank, singular_values, rcond)`` when
    `full`, or with the covariance matrix when `cov` (``'unscaled'``: not scaled by the
    residuals); RankWarning when the fit is poorly conditioned.

    # Note: ``rank`` comes back as a 0-d int32 array where NumPy returns a NumPy scalar.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.polyfit(gp.asarray([0.0, 1.0, 2.0]), gp.asarray([1.0, 3.0, 5.0]), 1)
    array([2., 1.])
    """
    # loaded on first use: only poly, roots and polyfit need gnumpy.linalg (~17 ms, 12 modules)
    from ...linalg import inv, lstsq
    _no_poly1d("polyfit", x, y, w)
    order = int(deg) + 1
    x = apply("add", _arr(x), 0.0)
    y = apply("add", _arr(y, x.device), 0.0)
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = len(x) * np.finfo(x.dtype).eps
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = apply("add", _arr(w, x.device), 0.0)
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs *= w[:, None]
        if rhs.ndim == 2:
            rhs *= w[:, None]
        else:
            rhs *= w
    scale = apply("sqrt", sum_(apply("multiply", lhs, lhs), axis=0))
    lhs /= scale
    c, resids, rank, s = lstsq(lhs, rhs, rcond=rcond)
    c = apply("divide", c.T, scale).T
    if int(rank) != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", np.exceptions.RankWarning,
                      stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if not cov:
        return c
    Vbase = inv(matmul(lhs.T, lhs))
    Vbase /= outer(scale, scale)
    if cov == "unscaled":
        fac = 1
    else:
        if len(x) <= order:
            raise ValueError("the number of data points must exceed order to scale the "
                             "covariance matrix")
        fac = apply("divide", resids, len(x) - order)
    if y.ndim == 1:
        return c, apply("multiply", Vbase, fac)
    return c, apply("multiply", Vbase[:, :, None], fac)
