"""gnumpy.fft against numpy.fft on every backend: frequencies, shifts and the 14 transforms
(power-of-two, prime and composite lengths, norms, n and s resizing, axes, dtypes, out=,
non-contiguous and empty inputs, NumPy's errors)."""
import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gnumpy as gp
from helpers import sample, strided_pair


def _data(shape, dtype, seed=0):
    return sample(dtype, shape, np.random.default_rng(seed), special=False)


@pytest.mark.parametrize("n", [1, 2, 5, 8, 0])
@pytest.mark.parametrize("d", [1.0, 0.25])
def test_frequencies(n, d):
    if n == 0:
        with pytest.raises(ZeroDivisionError):
            np.fft.fftfreq(n, d)
        return
    for name in ("fftfreq", "rfftfreq"):
        r = getattr(gp.fft, name)(n, d)
        e = getattr(np.fft, name)(n, d)
        assert r.dtype == e.dtype and r.shape == e.shape
        np.testing.assert_allclose(r.get(), e, rtol=1e-15)
    assert gp.fft.fftfreq(n, d, dtype=np.float32).dtype == np.float32


@pytest.mark.parametrize("axes", [None, 0, (1,), (0, 2), -1])
def test_shifts(axes):
    x = _data((4, 5, 3), np.float32)
    v = x[:, ::-1]                                  # a view
    for a in (x, v):
        for name in ("fftshift", "ifftshift"):
            r = getattr(gp.fft, name)(gp.asarray(a), axes=axes)
            e = getattr(np.fft, name)(a, axes=axes)
            assert r.shape == e.shape and r.dtype == e.dtype
            assert (r.get() == e).all()


TRANSFORMS = [("fft", {}), ("ifft", {"n": 7, "norm": "ortho"}), ("fft2", {}),
              ("ifft2", {"axes": (0, 1)}), ("fftn", {"s": (3, 4), "axes": (0, 1)}), ("ifftn", {}),
              ("rfft", {"axis": 0}), ("irfft", {"n": 10}), ("rfft2", {}), ("irfft2", {}),
              ("rfftn", {"norm": "forward"}), ("irfftn", {}), ("hfft", {}), ("ihfft", {})]


@pytest.mark.parametrize("name,kw", TRANSFORMS, ids=[t[0] for t in TRANSFORMS])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_transforms(name, kw, dtype):
    if name in ("rfft", "rfft2", "rfftn", "ihfft") and np.dtype(dtype).kind == "c":
        return                                      # real input only, as in NumPy
    x = _data((6, 5), dtype)
    f = getattr(gp.fft, name)
    _same(f(gp.asarray(x), **kw), getattr(np.fft, name)(x, **kw))
    r2 = getattr(np.fft, name)(gp.asarray(x), **kw)     # through __array_function__
    assert isinstance(r2, gp.ndarray)


def _same(r, e, tol=None):
    assert isinstance(r, gp.ndarray)
    h = r.get()
    assert h.shape == e.shape and h.dtype == e.dtype, (h.shape, e.shape, h.dtype, e.dtype)
    single = e.dtype in (np.float32, np.complex64, np.float16)
    tol = tol or (2e-5 if single else 1e-12)
    scale = max(1.0, float(np.max(np.abs(e)))) if e.size else 1.0
    np.testing.assert_allclose(h, e, rtol=tol, atol=tol * scale)


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 70), m=st.integers(0, 3),
       name=st.sampled_from(["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]),
       norm=st.sampled_from([None, "backward", "ortho", "forward"]),
       resize=st.sampled_from([None, -3, 2, 9]), axis=st.sampled_from([0, -1]))
def test_1d_transforms_random(seed, n, m, name, norm, resize, axis):
    rng = np.random.default_rng(seed)
    real = name in ("rfft", "ihfft")
    shape = (n, m) if axis == 0 else (m, n)
    x = rng.standard_normal(shape)
    if not real:
        x = x + 1j * rng.standard_normal(shape)
    npts = None if resize is None else max(1, n + resize)
    if name in ("irfft", "hfft") and npts is None and n == 1:
        npts = 1                                   # the default 2 (n - 1) would be 0
    _same(getattr(gp.fft, name)(gp.asarray(x), n=npts, axis=axis, norm=norm),
          getattr(np.fft, name)(x, n=npts, axis=axis, norm=norm))


@pytest.mark.parametrize("n", [1, 2, 3, 4, 7, 16, 17, 30, 64, 97, 128, 243, 1000, 1024, 4096])
def test_lengths(n):
    x = _data((2, n), np.complex128, seed=n)
    _same(gp.fft.fft(gp.asarray(x)), np.fft.fft(x))
    _same(gp.fft.ifft(gp.asarray(x)), np.fft.ifft(x))
    _same(gp.fft.irfft(gp.asarray(x)), np.fft.irfft(x)) if n > 1 else None


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.int64,
                                   np.uint8, np.bool_, np.complex64, np.complex128])
def test_dtypes(dtype):
    x = _data((3, 8), dtype)
    for name in ("fft", "ifft", "irfft", "hfft", "fftn") + (() if np.dtype(dtype).kind == "c"
                                                            else ("rfft", "ihfft", "rfftn")):
        tol = 2e-3 if np.dtype(dtype) == np.float16 and name in ("irfft", "hfft") else None
        _same(getattr(gp.fft, name)(gp.asarray(x)), getattr(np.fft, name)(x), tol)
    if np.dtype(dtype).kind == "c":
        with pytest.raises(TypeError):
            gp.fft.rfft(gp.asarray(x))


def test_nd_shapes_axes_and_views():
    x = _data((4, 6, 5), np.complex128)
    h, g = strided_pair(x)
    for name, kw in (("fftn", {}), ("fftn", {"axes": (0, 2)}), ("ifftn", {"s": (3, 8),
                                                                         "axes": (1, 2)}),
                     ("fft2", {"s": (2, 9)}), ("ifft2", {"axes": (2, 0)}),
                     ("fftn", {"s": (-1, 4), "axes": (0, 1)}), ("irfftn", {}),
                     ("irfftn", {"s": (5, 7), "axes": (0, 2)}), ("irfft2", {"s": (4, 9)})):
        _same(getattr(gp.fft, name)(g, **kw), getattr(np.fft, name)(h, **kw))
    r = h.real.copy()
    for name, kw in (("rfftn", {}), ("rfftn", {"axes": (2, 0)}), ("rfft2", {"s": (3, 4)})):
        _same(getattr(gp.fft, name)(gp.asarray(r), **kw), getattr(np.fft, name)(r, **kw))
    for name in ("fft", "rfft", "ihfft"):
        _same(getattr(gp.fft, name)(gp.asarray(r)[:, ::2, :], axis=1),
              getattr(np.fft, name)(r[:, ::2, :], axis=1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        _same(gp.fft.fftn(gp.asarray(x), s=(3, 4)), np.fft.fftn(x, s=(3, 4)))
    with pytest.warns(DeprecationWarning):
        gp.fft.fftn(gp.asarray(x), s=(3, 4))


def test_empty_and_round_trip():
    e = np.zeros((0, 8), np.complex128)
    _same(gp.fft.fft(gp.asarray(e)), np.fft.fft(e))
    _same(gp.fft.rfft(gp.asarray(e.real)), np.fft.rfft(e.real))
    x = _data((5, 12), np.float64)
    g = gp.asarray(x)
    _same(gp.fft.irfft(gp.fft.rfft(g), n=12), x.astype(np.float64))
    _same(gp.fft.ifftn(gp.fft.fftn(g)).real, x)


def test_out_and_errors():
    x = _data((8,), np.complex128)
    out = gp.empty(8, dtype=np.complex128)
    assert gp.fft.fft(gp.asarray(x), out=out) is out
    np.testing.assert_allclose(out.get(), np.fft.fft(x))
    with pytest.raises(ValueError):
        gp.fft.fft(gp.asarray(x), out=gp.empty(4, dtype=np.complex128))
    with pytest.raises(ValueError):
        gp.fft.fft(gp.asarray(x), norm="bad")
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        gp.fft.fft(gp.asarray(x), n=0)
    with pytest.raises(ValueError, match="Invalid norm value"):
        gp.fft.ihfft(gp.asarray(x.real), norm="bad")
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        gp.fft.irfft(gp.asarray(x[:1]))
    with pytest.raises(ValueError, match="different lengths"):
        gp.fft.fftn(gp.asarray(x), s=(2, 3), axes=(0,))
    with pytest.raises(IndexError):
        gp.fft.fft(gp.asarray(x), axis=1)
    with pytest.raises(IndexError):
        gp.fft.fft(gp.asarray(1.0))
