"""The FFT engine behind ``gnumpy.fft``: a complex-to-complex forward transform along the
last axis, built from gnumpy ops so it runs on every backend (GPU kernels on CUDA).

* n a power of two: radix-2 decimation in frequency, Stockham style.  Stage s turns the
  (B, P, 2, L/2) view of the data into sums and twiddled differences in ONE fused
  elementwise kernel (P sub-transforms of length L become 2P of length L/2); after
  log2(n) stages one transpose of the log2(n) bit axes undoes the bit reversal.
* any other n: Bluestein's chirp-z algorithm, a circular convolution of power-of-two
  length M >= 2n - 1 (three power-of-two transforms; the chirp's transform is cached).

Everything is computed in complex128 (the callers cast the result, so complex64 results are
at least as accurate as NumPy's single-precision pocketfft).  Twiddles and chirps are
computed on the host in float64 with exact integer phase reduction, uploaded once per
(length, device) and cached.  The inverse transform is conj(fft(conj(x))), scaled by the
caller.

# Note: this is O(n log n) work in log2(n) + 1 kernels per transform (three times that
# for Bluestein), each reading and writing the whole array: correct everywhere and far
# from cuFFT's speed on the GPU (cuFFT is not reachable from cuda.core).
"""
from __future__ import annotations

import functools

import numpy as np

from ._common import evaluated as _m

__all__ = ["forward_last"]


@functools.lru_cache(maxsize=256)
def _twiddles(n: int, dev):
    """exp(-2 pi i j / n) for j < n / 2, on `dev` (complex128)."""
    from .creation import asarray
    j = np.arange(n // 2)
    return asarray(np.exp(-2j * np.pi * j / n), device=dev)


@functools.lru_cache(maxsize=64)
def _chirp(n: int, m: int, dev):
    """(w, FFT_m(b)) for Bluestein: w_j = exp(-i pi j^2 / n) for j < n (the phase j^2 is
    reduced mod 2n exactly), b the circular sequence conj(w_|k|) for |k| < n."""
    from .creation import asarray
    j = np.arange(n, dtype=np.int64)
    w = np.exp(-1j * np.pi * ((j * j) % (2 * n)) / n)
    b = np.zeros(m, np.complex128)
    b[:n] = np.conj(w)
    b[m - n + 1:] = np.conj(w[1:][::-1])
    bh = _pow2(asarray(b.reshape(1, m), device=dev))
    return asarray(w, device=dev), _m(bh)


def _pow2(x):
    """Forward FFT along the last axis of the (B, n) complex128 array `x`, n = 2^k."""
    from .creation import asarray
    from .elementwise import apply, where
    from .manipulation import reshape, transpose
    b, n = x.shape
    k = n.bit_length() - 1
    if n == 1:
        return x
    dev = x.device
    sel = asarray(np.array([True, False]).reshape(1, 1, 2, 1), device=dev)
    z = reshape(x, (b, 1, n))
    p, half = 1, n // 2
    while half >= 1:
        v = reshape(z, (b, p, 2, half))
        lo, hi = v[:, :, 0:1, :], v[:, :, 1:2, :]
        tw = reshape(_twiddles(2 * half, dev), (1, 1, 1, half))
        s = apply("add", lo, hi)
        d = apply("multiply", apply("subtract", lo, hi), tw)
        z = _m(where(sel, s, d))          # (b, p, 2, half): one fused kernel
        p, half = 2 * p, half // 2
    # z is (b, n, 1) with the sub-transform index p = bit-reversed output index
    bits = reshape(z, (b,) + (2,) * k)
    return reshape(transpose(bits, (0,) + tuple(range(k, 0, -1))), (b, n))


def _bluestein(x):
    """Forward FFT along the last axis of the (B, n) complex128 array `x`, any n."""
    from .elementwise import apply
    from .padding import pad
    b, n = x.shape
    m = 1 << (2 * n - 2).bit_length()
    w, bh = _chirp(n, m, x.device)
    a = pad(apply("multiply", x, w), [(0, 0), (0, m - n)])
    ah = _pow2(_m(a))
    c = _pow2(_m(apply("conjugate", apply("multiply", ah, bh))))
    # inverse transform by conjugation: ifft(y) = conj(fft(conj(y))) / m
    conv = apply("multiply", apply("conjugate", c[:, :n]), 1.0 / m)
    return apply("multiply", conv, w)


def forward_last(x):
    """The forward DFT along the last axis of complex128 gnumpy array `x` (any shape)."""
    from .manipulation import reshape
    n = x.shape[-1]
    if n <= 1 or x.size == 0:
        return x
    lead = x.shape[:-1]
    flat = _m(reshape(x, (-1, n)))
    y = _pow2(flat) if n & (n - 1) == 0 else _bluestein(flat)
    return reshape(y, lead + (n,))

