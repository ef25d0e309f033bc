"""gnumpy.fft: NumPy's ``numpy.fft`` and the Array API FFT extension, on every backend.

Each transform, N-d ones included, is one library call: a lazy barrier node
(``backends/fft_ops.py``) that runs NumPy's pocketfft on the CPU backend and cuFFT on CUDA
(complex64 for single-precision inputs, complex128 otherwise, as NumPy 2).  Padding or
truncation to ``n``/``s`` and conjugations are gnumpy ops around it that fuse with the
copies and kernels next to it; so is the norm's scale on CUDA (pocketfft applies it in
its call).  ``fftfreq``, ``rfftfreq``, ``fftshift`` and ``ifftshift`` are plain gnumpy ops.
"""
from __future__ import annotations

from ._helper import fftfreq, fftshift, ifftshift, rfftfreq
from ._transforms import (fft, fft2, fftn, hfft, ifft, ifft2, ifftn, ihfft, irfft, irfft2,
                          irfftn, rfft, rfft2, rfftn)

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2",
           "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift",
           "ifftshift"]


def __dir__():
    return sorted(__all__)
