"""gnumpy.fft: NumPy's ``numpy.fft`` and the Array API FFT extension, on every backend.

The transforms are built on one engine (``gnumpy._api.fftcore``): a complex128 forward
transform along the last axis made of gnumpy ops (radix-2 stages for powers of two,
Bluestein otherwise), so the same code runs as GPU kernels on CUDA and is checked against
NumPy's pocketfft on the CPU backend.  Inverse, real and Hermitian transforms and the
N-d ones are NumPy's own reductions to it (conjugation, Hermitian extension, one axis at a
time).  Result dtypes are NumPy 2's: single-precision inputs give complex64/float32
(computed in double, then rounded), everything else complex128/float64.
``fftfreq``, ``rfftfreq``, ``fftshift`` and ``ifftshift`` are plain gnumpy ops.
"""
from __future__ import annotations

import functools
import math
import operator
import warnings

import numpy as np

from ._api._common import normalize_axis
from ._api._views import arr as _arr


def _gp():
    import gnumpy
    return gnumpy


@functools.lru_cache(maxsize=None)
def _result_dtype(name: str, dtype) -> np.dtype:
    """NumPy's result dtype of ``numpy.fft.<name>`` for inputs of `dtype` (and its
    TypeError for dtypes it refuses), from a 4-point probe on the host."""
    return getattr(np.fft, name)(np.zeros(4, dtype)).dtype


def _scale(norm, n: int, inverse: bool) -> float:
    if norm is None or norm == "backward":
        return 1.0 / n if inverse else 1.0
    if norm == "ortho":
        return 1.0 / math.sqrt(n)
    if norm == "forward":
        return 1.0 if inverse else 1.0 / n
    raise ValueError(f'Invalid norm value {norm}; should be "backward","ortho" or "forward".')


def _swap(norm):
    return {None: "forward", "backward": "forward", "ortho": "ortho",
            "forward": "backward"}.get(norm, norm)


def _points(n) -> int:
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return n


def _resize(x, n: int, axis: int):
    """`x` truncated or zero-padded to length `n` along `axis`."""
    gp = _gp()
    m = x.shape[axis]
    if m == n:
        return x
    if m > n:
        return x[(slice(None),) * axis + (slice(0, n),)]
    pads = [(0, 0)] * x.ndim
    pads[axis] = (0, n - m)
    return gp.pad(x, pads)


def _c2c(x, n, axis, inverse, norm):
    """The (inverse) DFT of complex128 array `x` along `axis`, resized to `n` points."""
    gp = _gp()
    from ._api.fftcore import forward_last
    axis = normalize_axis(axis, x.ndim)
    n = _points(x.shape[axis] if n is None else n)
    f = _scale(norm, n, inverse)
    x = gp.moveaxis(_resize(x, n, axis), axis, -1)
    if inverse:
        x = gp.conj(x)
    y = forward_last(x)
    if inverse:
        y = gp.conj(y)
    if f != 1.0:
        y = y * f
    return gp.moveaxis(y, -1, axis)


def _finish(r, dt, out):
    r = r.astype(dt, copy=False)
    if out is None:
        return r
    if out.shape != r.shape or out.dtype != r.dtype:
        raise ValueError(f"out has shape {out.shape} and dtype {out.dtype}; the result has "
                         f"{r.shape} and {r.dtype}")
    out[...] = r
    return out


def fft(a, n=None, axis=-1, norm=None, out=None):
    """The one-dimensional discrete Fourier transform along `axis` (NumPy's ``fft.fft``).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.fft(gp.asarray([1.0, 0.0, 0.0, 0.0])).tolist()
    [(1+0j), (1+0j), (1+0j), (1+0j)]
    """
    a = _arr(a)
    dt = _result_dtype("fft", a.dtype)
    return _finish(_c2c(a.astype(np.complex128), n, axis, False, norm), dt, out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """The one-dimensional inverse discrete Fourier transform (NumPy's ``fft.ifft``)."""
    a = _arr(a)
    dt = _result_dtype("ifft", a.dtype)
    return _finish(_c2c(a.astype(np.complex128), n, axis, True, norm), dt, out)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """The DFT of real input: the n // 2 + 1 non-negative frequency terms."""
    a = _arr(a)
    dt = _result_dtype("rfft", a.dtype)
    ax = normalize_axis(axis, a.ndim)
    n = _points(a.shape[ax] if n is None else n)
    r = _c2c(a.astype(np.complex128), n, ax, False, norm)
    return _finish(r[(slice(None),) * ax + (slice(0, n // 2 + 1),)], dt, out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of ``rfft``: `n` real points (default 2 (m - 1)) from m Hermitian terms;
    the imaginary parts of the zero and Nyquist terms are ignored, as NumPy does."""
    gp = _gp()
    a = _arr(a)
    dt = _result_dtype("irfft", a.dtype)
    ax = normalize_axis(axis, a.ndim)
    n = _points(2 * (a.shape[ax] - 1) if n is None else n)
    h = _resize(a.astype(np.complex128), n // 2 + 1, ax)
    tail = gp.conj(gp.flip(h[(slice(None),) * ax + (slice(1, n - n // 2),)], axis=ax))
    full = gp.concat([h, tail], axis=ax) if tail.shape[ax] else h
    return _finish(gp.real(_c2c(full, n, ax, True, norm)), dt, out)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """The DFT of a Hermitian-symmetric signal given by its first half (real result)."""
    a = _arr(a)
    ax = normalize_axis(axis, a.ndim)
    if n is None:
        n = (a.shape[ax] - 1) * 2
    _scale(norm, 1, False)
    return irfft(_gp().conj(a), n, ax, norm=_swap(norm), out=out)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of ``hfft``: the first half of the Hermitian DFT of a real signal."""
    a = _arr(a)
    ax = normalize_axis(axis, a.ndim)
    if n is None:
        n = a.shape[ax]
    _scale(norm, 1, False)
    r = rfft(a, n, ax, norm=_swap(norm))
    return _finish(_gp().conj(r), r.dtype, out)


def _cook_nd_args(a, s=None, axes=None, invreal=False):
    """NumPy's ``_cook_nd_args``: the lengths and axes of an N-d transform."""
    shapeless = s is None
    if s is None:
        s = list(a.shape) if axes is None else [a.shape[ax] for ax in axes]
    s = list(s)
    if axes is None:
        if not shapeless:
            warnings.warn("`axes` should not be `None` if `s` is not `None`. (Deprecated in "
                          "NumPy 2.0). In a future version of NumPy, this will raise an "
                          "error and `s[i]` will correspond to the size along the "
                          "transformed axis specified by `axes[i]`. To retain current "
                          "behaviour, pass a sequence [0, ..., k-1] to `axes` for an array "
                          "of dimension k.", DeprecationWarning, stacklevel=3)
        axes = list(range(-len(s), 0))
    axes = list(axes)
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if invreal and shapeless:
        s[-1] = (a.shape[axes[-1]] - 1) * 2
    if None in s:
        warnings.warn("Passing an array containing `None` values to `s` is deprecated in "
                      "NumPy 2.0 and will raise an error in a future version of NumPy. To "
                      "use the default behaviour of the corresponding 1-D transform, pass "
                      "the value matching the default for its `n` parameter. To use the "
                      "default behaviour for every axis, the `s` argument can be omitted.",
                      DeprecationWarning, stacklevel=3)
    s = [a.shape[ax] if n == -1 else n for n, ax in zip(s, axes)]
    return s, axes


def _raw_nd(a, s, axes, function, norm, out):
    a = _arr(a)
    s, axes = _cook_nd_args(a, s, axes)
    for ii in reversed(range(len(axes))):
        a = function(a, n=s[ii], axis=axes[ii], norm=norm)
    return _finish(a, a.dtype, out)


def fftn(a, s=None, axes=None, norm=None, out=None):
    """The N-dimensional DFT over `axes` (all axes by default)."""
    return _raw_nd(a, s, axes, fft, norm, out)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """The N-dimensional inverse DFT over `axes` (all axes by default)."""
    return _raw_nd(a, s, axes, ifft, norm, out)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The two-dimensional DFT over `axes`."""
    return _raw_nd(a, s, axes, fft, norm, out)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The two-dimensional inverse DFT over `axes`."""
    return _raw_nd(a, s, axes, ifft, norm, out)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """The N-dimensional DFT of real input (the last axis halved, as ``rfft``)."""
    a = _arr(a)
    s, axes = _cook_nd_args(a, s, axes)
    a = rfft(a, s[-1], axes[-1], norm)
    for ii in range(len(axes) - 2, -1, -1):
        a = fft(a, s[ii], axes[ii], norm)
    return _finish(a, a.dtype, out)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """The inverse of ``rfftn``."""
    a = _arr(a)
    s, axes = _cook_nd_args(a, s, axes, invreal=True)
    for ii in range(len(axes) - 1):
        a = ifft(a, s[ii], axes[ii], norm)
    a = irfft(a, s[-1], axes[-1], norm)
    return _finish(a, a.dtype, out)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The two-dimensional DFT of real input."""
    return rfftn(a, s, axes, norm, out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The inverse of ``rfft2``."""
    return irfftn(a, s, axes, norm, out)


def _n(n) -> int:
    try:
        return operator.index(n)
    except TypeError:
        raise ValueError("n should be an integer") from None


def fftfreq(n, /, d=1.0, *, dtype=None, device=None):
    """Sample frequencies of an n-point FFT with sample spacing `d`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.fftfreq(4).tolist()
    [0.0, 0.25, -0.5, -0.25]
    """
    gp = _gp()
    n = _n(n)
    dt = np.float64 if dtype is None else dtype
    k = gp.concat([gp.arange(0, (n - 1) // 2 + 1, device=device),
                   gp.arange(-(n // 2), 0, device=device)])
    return (k * (1.0 / (n * d))).astype(dt)


def rfftfreq(n, /, d=1.0, *, dtype=None, device=None):
    """Sample frequencies of an n-point real FFT (non-negative ones).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.rfftfreq(4).tolist()
    [0.0, 0.25, 0.5]
    """
    gp = _gp()
    n = _n(n)
    dt = np.float64 if dtype is None else dtype
    return (gp.arange(0, n // 2 + 1, device=device) * (1.0 / (n * d))).astype(dt)


def _shift(x, axes, sign):
    gp = _gp()
    x = _arr(x)
    if axes is None:
        axes = tuple(range(x.ndim))
    elif not isinstance(axes, (tuple, list)):
        axes = (operator.index(axes),)
    shifts = tuple(sign * (x.shape[ax] // 2) for ax in axes)
    return gp.roll(x, shifts, axis=tuple(axes)) if axes else x


def fftshift(x, /, axes=None):
    """Move the zero-frequency term to the centre (a roll by n // 2 along `axes`)."""
    return _shift(x, axes, 1)


def ifftshift(x, /, axes=None):
    """The inverse of ``fftshift``."""
    return _shift(x, axes, -1)


__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2",
           "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift",
           "ifftshift"]
