"""Window functions for signal processing: bartlett, blackman, hamming, hanning, kaiser.

Each is NumPy's formula over an ``arange``, computed on the device as one fused kernel
(float64, on the default device, as NumPy's take no device argument).
"""
from __future__ import annotations

import numpy as np

from ... import _dtypes as D
from .creation import arange, ones, zeros
from ..elementwise.elementwise import apply, power_operator
from ..elementwise.elementwise import where as where_
from ..elementwise.mathmisc import i0


def _size(M):
    """NumPy's conversion of `M` (through a float64 array) and the trivial cases."""
    m = np.array([0.0, M])[1]
    if m < 1:
        return m, zeros((0,), dtype=D.float64)
    if m == 1:
        return m, ones((1,), dtype=D.float64)
    return m, None


def _cos_term(n, m, k=1.0):
    """cos(k * pi * n / (M - 1)), in NumPy's operation order."""
    t = apply("multiply", np.pi, n) if k == 1.0 else apply("multiply", k * np.pi, n)
    return apply("cos", apply("divide", t, m - 1))


def bartlett(M):
    """The Bartlett (triangular) window of `M` points.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.bartlett(5)
    array([0. , 0.5, 1. , 0.5, 0. ])
    """
    m, trivial = _size(M)
    if trivial is not None:
        return trivial
    n = arange(1 - m, m, 2)
    r = apply("divide", n, m - 1)
    return where_(apply("less_equal", n, 0), apply("add", 1, r), apply("subtract", 1, r))


def blackman(M):
    """The Blackman window of `M` points.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.blackman(3)
    array([-1.38777878e-17,  1.00000000e+00, -1.38777878e-17])
    """
    m, trivial = _size(M)
    if trivial is not None:
        return trivial
    n = arange(1 - m, m, 2)
    return apply("add", apply("add", 0.42, apply("multiply", 0.5, _cos_term(n, m))),
                 apply("multiply", 0.08, _cos_term(n, m, 2.0)))


def hamming(M):
    """The Hamming window of `M` points.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.hamming(3)
    array([0.08, 1.  , 0.08])
    """
    m, trivial = _size(M)
    if trivial is not None:
        return trivial
    n = arange(1 - m, m, 2)
    return apply("add", 0.54, apply("multiply", 0.46, _cos_term(n, m)))


def hanning(M):
    """The Hann window of `M` points.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.hanning(3)
    array([0., 1., 0.])
    """
    m, trivial = _size(M)
    if trivial is not None:
        return trivial
    n = arange(1 - m, m, 2)
    return apply("add", 0.5, apply("multiply", 0.5, _cos_term(n, m)))


def kaiser(M, beta):
    """The Kaiser window of `M` points with shape parameter `beta`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.kaiser(3, 5.0)
    array([0.03671089, 1.        , 0.03671089])
    """
    values = np.array([0.0, M, beta])
    m, b = values[1], values[2]
    if m == 1:
        return ones((1,), dtype=D.float64)
    n = arange(0, m)
    alpha = (m - 1) / 2.0
    t = apply("divide", apply("subtract", n, alpha), alpha)
    arg = apply("multiply", b, apply("sqrt", apply("subtract", 1, power_operator(t, 2.0))))
    return apply("divide", i0(arg), i0(b))
