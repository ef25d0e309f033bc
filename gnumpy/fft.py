"""gnumpy.fft: NumPy's ``numpy.fft`` and the Array API FFT extension.

``fftfreq``, ``rfftfreq``, ``fftshift`` and ``ifftshift`` are built from gnumpy's ops and
run on every backend.  The transforms run NumPy's pocketfft on the CPU backend's memory
(float32/complex64 stay single precision, as in NumPy 2) and raise NotImplementedError at
the call on the CUDA backend (no device FFT yet: cuFFT is not reachable from cuda.core).
"""
from __future__ import annotations

import operator

import numpy as np

from ._api._common import is_array


def _gp():
    import gnumpy
    return gnumpy


def _run(name, a, out, **kwargs):
    gp = _gp()
    a = a if is_array(a) else gp.asarray(a)
    if a.device.kind != "cpu":
        raise NotImplementedError(
            f"gnumpy.fft.{name} is not implemented on the CUDA backend yet (no device FFT); "
            f"arrays on device='cpu' work")
    r = gp.asarray(getattr(np.fft, name)(a.get(), **kwargs), device=a.device)
    if out is None:
        return r
    if out.shape != r.shape or out.dtype != r.dtype:
        raise ValueError(f"out has shape {out.shape} and dtype {out.dtype}; the result has "
                         f"{r.shape} and {r.dtype}")
    out[...] = r
    return out


def fft(a, n=None, axis=-1, norm=None, out=None):
    """NumPy's ``fft.fft`` (CPU backend; NotImplementedError on CUDA)."""
    return _run("fft", a, out, n=n, axis=axis, norm=norm)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """NumPy's ``fft.ifft`` (CPU backend; NotImplementedError on CUDA)."""
    return _run("ifft", a, out, n=n, axis=axis, norm=norm)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """NumPy's ``fft.rfft`` (CPU backend; NotImplementedError on CUDA)."""
    return _run("rfft", a, out, n=n, axis=axis, norm=norm)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """NumPy's ``fft.irfft`` (CPU backend; NotImplementedError on CUDA)."""
    return _run("irfft", a, out, n=n, axis=axis, norm=norm)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """NumPy's ``fft.hfft`` (CPU backend; NotImplementedError on CUDA)."""
    return _run("hfft", a, out, n=n, axis=axis, norm=norm)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """NumPy's ``fft.ihfft`` (CPU backend; NotImplementedError on CUDA)."""
    return _run("ihfft", a, out, n=n, axis=axis, norm=norm)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """NumPy's ``fft.fft2`` (CPU backend; NotImplementedError on CUDA)."""
    return _run("fft2", a, out, s=s, axes=axes, norm=norm)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """NumPy's ``fft.ifft2`` (CPU backend; NotImplementedError on CUDA)."""
    return _run("ifft2", a, out, s=s, axes=axes, norm=norm)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """NumPy's ``fft.rfft2`` (CPU backend; NotImplementedError on CUDA)."""
    return _run("rfft2", a, out, s=s, axes=axes, norm=norm)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """NumPy's ``fft.irfft2`` (CPU backend; NotImplementedError on CUDA)."""
    return _run("irfft2", a, out, s=s, axes=axes, norm=norm)


def fftn(a, s=None, axes=None, norm=None, out=None):
    """NumPy's ``fft.fftn`` (CPU backend; NotImplementedError on CUDA)."""
    return _run("fftn", a, out, s=s, axes=axes, norm=norm)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """NumPy's ``fft.ifftn`` (CPU backend; NotImplementedError on CUDA)."""
    return _run("ifftn", a, out, s=s, axes=axes, norm=norm)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """NumPy's ``fft.rfftn`` (CPU backend; NotImplementedError on CUDA)."""
    return _run("rfftn", a, out, s=s, axes=axes, norm=norm)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """NumPy's ``fft.irfftn`` (CPU backend; NotImplementedError on CUDA)."""
    return _run("irfftn", a, out, s=s, axes=axes, norm=norm)


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
    x = x if is_array(x) else gp.asarray(x)
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
