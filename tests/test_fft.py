"""gnumpy.fft against numpy.fft: frequencies and shifts on every backend; the transforms on
the CPU backend, and NotImplementedError at the call on CUDA."""
import numpy as np
import pytest

import gnumpy as gp
from helpers import sample

ON_CPU = gp.asarray(0).device.kind == "cpu"


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
    if not ON_CPU:
        with pytest.raises(NotImplementedError, match="CUDA backend"):
            f(gp.asarray(x), **kw)
        return
    r = f(gp.asarray(x), **kw)
    e = getattr(np.fft, name)(x, **kw)
    assert isinstance(r, gp.ndarray) and r.shape == e.shape and r.dtype == e.dtype
    tol = 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(r.get(), e, rtol=tol, atol=tol * 10)
    r2 = getattr(np.fft, name)(gp.asarray(x), **kw)     # through __array_function__
    assert isinstance(r2, gp.ndarray)


@pytest.mark.skipif(not ON_CPU, reason="transforms run on the CPU backend only")
def test_out_and_errors():
    x = _data((8,), np.complex128)
    out = gp.empty(8, dtype=np.complex128)
    assert gp.fft.fft(gp.asarray(x), out=out) is out
    np.testing.assert_allclose(out.get(), np.fft.fft(x))
    with pytest.raises(ValueError):
        gp.fft.fft(gp.asarray(x), out=gp.empty(4, dtype=np.complex128))
    with pytest.raises(ValueError):
        gp.fft.fft(gp.asarray(x), norm="bad")
    with pytest.raises(ValueError):
        gp.fft.fft(gp.asarray(x), n=0)
