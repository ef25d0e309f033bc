"""Sample frequencies and spectrum shifts of ``numpy.fft`` (``fftfreq``, ``rfftfreq``,
``fftshift``, ``ifftshift``): plain gnumpy ops (an index ramp, a cyclic roll) that fuse
into their consumers.  The Array API's ``device=`` and ``dtype=`` keywords are accepted.
"""
from __future__ import annotations

import numpy as np

from .. import _dtypes as D
from .._api.shape._views import arr
from .._api.creation.creation import arange
from .._api.elementwise.elementwise import where
from .._api.shape.shaping import roll

__all__ = ["fftfreq", "rfftfreq", "fftshift", "ifftshift"]


def _check_n(n):
    if not isinstance(n, (int, np.integer)):
        raise ValueError("n should be an integer")
    if n < 0:
        raise ValueError("negative dimensions are not allowed")


def fftfreq(n, d=1.0, device=None, *, dtype=None):
    """The sample frequencies of an n-point DFT with sample spacing `d`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.fftfreq(4).tolist()
    [0.0, 0.25, -0.5, -0.25]
    """
    _check_n(n)
    val = 1.0 / (n * d)
    k = arange(int(n), dtype=D.int64, device=device)
    k = where(k < (n - 1) // 2 + 1, k, k - int(n))
    r = k * val
    return r if dtype is None else r.astype(dtype)


def rfftfreq(n, d=1.0, device=None, *, dtype=None):
    """The sample frequencies of an n-point real DFT (the non-negative ones).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.rfftfreq(4).tolist()
    [0.0, 0.25, 0.5]
    """
    _check_n(n)
    val = 1.0 / (n * d)
    r = arange(int(n) // 2 + 1, dtype=D.int64, device=device) * val
    return r if dtype is None else r.astype(dtype)


def _shift(x, axes, sign):
    x = arr(x)
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [sign * (d // 2) for d in x.shape]
    elif isinstance(axes, (int, np.integer)):
        shift = sign * (x.shape[axes] // 2)
    else:
        shift = [sign * (x.shape[ax] // 2) for ax in axes]
    if isinstance(axes, tuple) and not axes:
        return x.copy()
    return roll(x, shift, axes)


def fftshift(x, axes=None):
    """Move the zero-frequency term to the centre (a roll by n // 2 along `axes`).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.fftshift(gp.fft.fftfreq(4)).tolist()
    [-0.5, -0.25, 0.0, 0.25]
    """
    return _shift(x, axes, 1)


def ifftshift(x, axes=None):
    """The inverse of ``fftshift``.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.ifftshift(gp.fft.fftshift(gp.fft.fftfreq(4))).tolist()
    [0.0, 0.25, -0.5, -0.25]
    """
    return _shift(x, axes, -1)
