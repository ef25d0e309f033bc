"""The 14 transforms of ``numpy.fft`` (NumPy 2's signatures, dtypes, norms and errors).

Each call is one FFT barrier node (``_core.transform``): an N-d transform over distinct
axes is one complex, real-to-complex or complex-to-real transform of all of them, not one
per axis; repeated axes fall back to NumPy's own axis-by-axis composition.  Scales are
NumPy's (``1/n``, ``1/sqrt(n)`` in the input's real dtype); ``hfft`` and ``ihfft`` are
``irfft``/``rfft`` of the conjugate with the norm swapped, as in NumPy.
"""
# Note: ``out=`` is honoured by every transform; NumPy 2 ignores it in ``hfft``, ``ifft2``
# and ``irfft2`` (it returns a new array there and leaves ``out`` untouched).
from __future__ import annotations

from .. import _dtypes as D
from .._api._common import normalize_axis, wrap
from .._api.shape._views import arr
from .._array import ndarray
from .._graph import ir
from . import _core as C

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "ifftn", "fft2",
           "ifft2", "rfftn", "irfftn", "rfft2", "irfft2"]


# A transform whose result is one barrier node over its input, by the call's arguments
# and the input's shape, dtype and device: the barrier's (op, arg, dtype, shape).  A call
# in a loop then makes its node at once (the checks, dtypes and plan axes were worked out
# by the first call, and depend on nothing else).
_SIMPLE: dict = {}


def _again(key, a, out, name):
    """The transform of a call seen before (`key`), or None."""
    b = _SIMPLE.get(key)
    if b is None:
        return None
    node = a._node
    return C.finish(wrap(ir.barrier(b[0], (node,), b[1], b[2], b[3])), out, name)


def _remember(key, a, r) -> None:
    rn = r._node
    if rn.kind == ir.BARRIER and rn.srcs == (a._node,):
        if len(_SIMPLE) >= 1024:
            _SIMPLE.clear()
        _SIMPLE[key] = (rn.op, rn.arg, rn.dtype, rn.shape)


def _one(name, a, n, axis, kind, forward, norm, out, conj_in=False, conj_out=False):
    """A 1-D transform; `norm` is the keyword of NumPy's function of that kind (``hfft``
    and ``ihfft`` call irfft and rfft with theirs swapped)."""
    key = None
    if type(a) is ndarray and (n is None or type(n) is int) and type(axis) is int:
        node = a._node
        key = (name, node.shape, node.dtype, node.device, n, axis, norm, kind, forward,
               conj_in, conj_out)
        r = _again(key, a, out, name)
        if r is not None:
            return r
    a = arr(a)
    if n is None:
        n = a.shape[axis]
        if kind == "c2r":
            n = (n - 1) * 2
    n = C.points(n)
    ax = normalize_axis(axis, a.ndim)
    rdt = C.result_dtype(name, a.dtype)
    fct = C.scale(C.forward_norm(kind, forward, norm), n, a.dtype)
    r = C.transform(kind, a, [ax], [n], forward, norm, fct, rdt, conj_in, conj_out)
    if key is not None:
        _remember(key, a, r)
    return C.finish(r, out, name)


def fft(a, n=None, axis=-1, norm=None, out=None):
    """The one-dimensional discrete Fourier transform along `axis` (NumPy's ``fft.fft``).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.fft(gp.asarray([1.0, 0.0, 0.0, 0.0])).tolist()
    [(1+0j), (1+0j), (1+0j), (1+0j)]
    """
    return _one("fft", a, n, axis, "c2c", True, C.check_norm(norm), out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """The one-dimensional inverse discrete Fourier transform (NumPy's ``fft.ifft``).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.ifft(gp.asarray([4.0, 0.0, 0.0, 0.0])).tolist()
    [(1+0j), (1+0j), (1+0j), (1+0j)]
    """
    return _one("ifft", a, n, axis, "c2c", False, C.check_norm(norm), out)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """The DFT of real input: its n // 2 + 1 non-negative frequency terms.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.rfft(gp.asarray([1.0, 1.0, 1.0, 1.0])).tolist()
    [(4+0j), 0j, 0j]
    """
    return _one("rfft", a, n, axis, "r2c", True, C.check_norm(norm), out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of ``rfft``: `n` real points (default 2 (m - 1)) from m Hermitian terms
    (the imaginary parts of the zero and Nyquist terms are ignored, as in NumPy).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.irfft(gp.asarray([4.0, 0.0, 0.0])).tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    return _one("irfft", a, n, axis, "c2r", False, C.check_norm(norm), out)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """The DFT of a Hermitian-symmetric signal given by its first half (a real result).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.hfft(gp.asarray([1.0, 0.0, 0.0])).tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    return _one("hfft", a, n, axis, "c2r", False, C.swap(norm), out, conj_in=True)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of ``hfft``: the first half of the Hermitian spectrum of a real signal.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.ihfft(gp.asarray([4.0, 4.0, 4.0, 4.0])).real.tolist()
    [4.0, 0.0, 0.0]
    """
    return _one("ihfft", a, n, axis, "r2c", True, C.swap(norm), out, conj_out=True)


# ------------------------------------------------------------------ N-d

def _nd(name, a, s, axes, norm, out, kind, forward):
    """An N-d transform over `axes` (NumPy's defaults and checks) as one barrier."""
    key = None
    if type(a) is ndarray and s is None and (axes is None or type(axes) is tuple and
                                             all(type(x) is int for x in axes)):
        node = a._node
        key = (name, node.shape, node.dtype, node.device, axes, norm, kind, forward)
        r = _again(key, a, out, name)
        if r is not None:
            return r
    a = arr(a)
    s, axes = C.cook_nd_args(a, s, axes, invreal=kind == "c2r")
    if not axes:
        if kind == "c2c":
            return a            # NumPy returns its input unchanged
        raise IndexError("list index out of range")
    ax = [normalize_axis(x, a.ndim) for x in axes]
    if len(set(ax)) != len(ax):
        return C.finish(_sequential(a, s, axes, norm, kind, forward), out, name)
    lens = []
    for i, (d, n) in enumerate(zip(ax, s)):
        if n is None:
            n = a.shape[d]
            if kind == "c2r" and i == len(ax) - 1:
                n = (n - 1) * 2
        lens.append(C.points(n))
    norm = C.check_norm(norm)
    eff = C.forward_norm(kind, forward, norm)
    rdt = C.result_dtype(name, a.dtype)
    # NumPy scales one axis at a time, the first in the input's real dtype
    first = 0 if kind == "c2r" else len(ax) - 1
    later = D.complex64 if rdt in C.SINGLE else D.complex128
    fct = 1.0
    for i, n in enumerate(lens):
        fct *= C.scale(eff, n, a.dtype if i == first else later)
    r = C.transform(kind, a, ax, lens, forward, norm, fct, rdt)
    if key is not None:
        _remember(key, a, r)
    return C.finish(r, out, name)


def _sequential(a, s, axes, norm, kind, forward):
    """NumPy's axis-by-axis composition (repeated axes transform more than once)."""
    if kind == "c2c":
        f = fft if forward else ifft
        for ii in reversed(range(len(axes))):
            a = f(a, n=s[ii], axis=axes[ii], norm=norm)
        return a
    if kind == "r2c":
        a = rfft(a, s[-1], axes[-1], norm)
        for ii in range(len(axes) - 2, -1, -1):
            a = fft(a, s[ii], axes[ii], norm)
        return a
    for ii in range(len(axes) - 1):
        a = ifft(a, s[ii], axes[ii], norm)
    return irfft(a, s[-1], axes[-1], norm)


def fftn(a, s=None, axes=None, norm=None, out=None):
    """The N-dimensional DFT over `axes` (all axes by default).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.fftn(gp.ones((2, 2))).tolist()
    [[(4+0j), 0j], [0j, 0j]]
    """
    return _nd("fftn", a, s, axes, norm, out, "c2c", True)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """The N-dimensional inverse DFT over `axes` (all axes by default).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.ifftn(gp.asarray([[4.0, 0.0], [0.0, 0.0]])).tolist()
    [[(1+0j), (1+0j)], [(1+0j), (1+0j)]]
    """
    return _nd("ifftn", a, s, axes, norm, out, "c2c", False)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The two-dimensional DFT over `axes`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.fft2(gp.ones((2, 2))).tolist()
    [[(4+0j), 0j], [0j, 0j]]
    """
    return _nd("fft2", a, s, axes, norm, out, "c2c", True)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The two-dimensional inverse DFT over `axes`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.ifft2(gp.asarray([[4.0, 0.0], [0.0, 0.0]])).tolist()
    [[(1+0j), (1+0j)], [(1+0j), (1+0j)]]
    """
    return _nd("ifft2", a, s, axes, norm, out, "c2c", False)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """The N-dimensional DFT of real input (the last axis halved, as in ``rfft``).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.rfftn(gp.ones((2, 2))).tolist()
    [[(4+0j), 0j], [0j, 0j]]
    """
    return _nd("rfftn", a, s, axes, norm, out, "r2c", True)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """The inverse of ``rfftn``.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.irfftn(gp.asarray([[4.0, 0.0], [0.0, 0.0]])).tolist()
    [[1.0, 1.0], [1.0, 1.0]]
    """
    return _nd("irfftn", a, s, axes, norm, out, "c2r", False)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The two-dimensional DFT of real input.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.rfft2(gp.ones((2, 2))).tolist()
    [[(4+0j), 0j], [0j, 0j]]
    """
    return _nd("rfft2", a, s, axes, norm, out, "r2c", True)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The inverse of ``rfft2``.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fft.irfft2(gp.asarray([[4.0, 0.0], [0.0, 0.0]])).tolist()
    [[1.0, 1.0], [1.0, 1.0]]
    """
    return _nd("irfft2", a, s, axes, norm, out, "c2r", False)
