"""gnumpy.fft against numpy.fft on every backend (GNUMPY_DEVICE=cuda runs it on cuFFT):
frequencies and shifts, the 14 transforms over every axis choice, n/s shorter and longer
than the input, odd/prime/power-of-two lengths, every norm, float32/float64/complex64/
complex128/int (and float16/bool) inputs, empty and one-point edge cases, views, out= and
NumPy's errors; and, on the host, the cuFFT plan schedule of ``backends/fft_ops`` run
through an emulation of cuFFT's advanced data layout."""
import warnings

import numpy as np
import pytest
from numpy.exceptions import AxisError

import gnumpy as gp
from gnumpy._graph import layout as L
from gnumpy._graph.ir import BARRIER
from gnumpy.backends import fft_ops as F
from helpers import sample, strided_pair

REAL_IN = ("rfft", "ihfft", "rfft2", "rfftn")
ONE_D = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
N_D = ("fftn", "ifftn", "fft2", "ifft2", "rfftn", "irfftn", "rfft2", "irfft2")
DTYPES = (np.float32, np.float64, np.complex64, np.complex128, np.int64)


def _data(shape, dtype, seed=0):
    return sample(dtype, shape, np.random.default_rng(seed), special=False)


def _same(r, e, tol=None):
    assert isinstance(r, gp.ndarray)
    h = r.get()
    assert h.shape == e.shape and h.dtype == e.dtype, (h.shape, e.shape, h.dtype, e.dtype)
    tol = tol or {np.float16: 2e-3, np.float32: 2e-5, np.complex64: 2e-5}.get(e.dtype.type,
                                                                               1e-12)
    scale = max(1.0, float(np.max(np.abs(e)))) if e.size else 1.0
    np.testing.assert_allclose(h, e, rtol=tol, atol=tol * scale)


def _both(name, x, **kw):
    """gnumpy's and NumPy's `name` of host array `x` (a view stays a view in both)."""
    h, g = (x, gp.asarray(x)) if isinstance(x, np.ndarray) else x
    _same(getattr(gp.fft, name)(g, **kw), getattr(np.fft, name)(h, **kw))


# ------------------------------------------------------------------ frequencies and shifts

@pytest.mark.parametrize("n", [1, 2, 5, 8, np.int32(7)])
@pytest.mark.parametrize("d", [1.0, 0.25, np.float32(0.5)])
def test_frequencies(n, d):
    for name in ("fftfreq", "rfftfreq"):
        r = getattr(gp.fft, name)(n, d)
        e = getattr(np.fft, name)(n, d)
        assert r.dtype == e.dtype and r.shape == e.shape
        np.testing.assert_allclose(r.get(), e, rtol=1e-15)
        dev = gp.asarray(0).device
        r = getattr(gp.fft, name)(n, d=d, device=dev, dtype=np.float32)
        assert r.dtype == np.float32 and r.device == dev
    with pytest.raises(ZeroDivisionError):
        gp.fft.fftfreq(0)
    with pytest.raises(ValueError, match="n should be an integer"):
        gp.fft.rfftfreq(2.5)


@pytest.mark.parametrize("axes", [None, 0, (1,), (0, 2), -1, ()])
def test_shifts(axes):
    x = _data((4, 5, 3), np.float32)
    for h, g in ((x, gp.asarray(x)), (x[:, ::-1], gp.asarray(x)[:, ::-1])):
        for name in ("fftshift", "ifftshift"):
            r = getattr(gp.fft, name)(g, axes=axes)
            e = getattr(np.fft, name)(h, axes=axes)
            assert r.shape == e.shape and r.dtype == e.dtype
            assert (r.get() == e).all()
    assert (gp.fft.fftshift([1, 2, 3]).get() == np.fft.fftshift([1, 2, 3])).all()


# ------------------------------------------------------------------ one-dimensional

_CASES_1D = [(-1, None, None), (0, None, "ortho"), (-2, 4, "forward"), (1, 11, "backward"),
             (0, 2, None), (-1, 13, "ortho")]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ONE_D)
def test_1d(name, dtype):
    x = _data((5, 7), dtype, seed=3)
    if name in REAL_IN and np.dtype(dtype).kind == "c":
        with pytest.raises(TypeError):
            getattr(gp.fft, name)(gp.asarray(x))
        return
    for axis, n, norm in _CASES_1D:
        _both(name, x, n=n, axis=axis, norm=norm)


@pytest.mark.parametrize("n", [2, 3, 4, 7, 16, 17, 30, 97, 243, 1000, 1024, 4099])
def test_lengths(n):
    x = _data((2, n), np.complex128, seed=n)
    for dt in (np.complex128, np.complex64):
        y = x.astype(dt)
        _both("fft", y)
        _both("ifft", y, norm="ortho")
        _both("irfft", y)
        _both("rfft", y.real.copy())
        _both("irfft", y, n=n)      # odd n: no Nyquist term


def test_one_point_and_other_dtypes():
    for dtype in (np.float16, np.bool_, np.int8, np.uint8, np.int32):
        x = _data((3, 8), dtype)
        for name in ONE_D + ("fftn", "rfftn", "irfftn"):
            _both(name, x)
    x = _data((3, 1), np.complex128)
    for name in ("fft", "ifft", "fftn", "ifftn"):
        _both(name, x)
    _both("irfft", x, n=1)
    _both("hfft", x, n=1)
    _both("rfft", x.real.copy())
    _both("irfftn", x, s=(3, 1), axes=(0, 1))
    _both("rfftn", x.real.copy(), s=(4, 1), axes=(0, 1), norm="ortho")
    _both("fft", x[0], n=1, norm="forward")
    g = gp.asarray(x)
    y = gp.fft.fft(g)                           # a one-point transform is a new array
    y[...] = 0
    assert (g.get() == x).all()


def test_hermitian_parts_are_ignored():
    # NumPy ignores the imaginary parts of the zero and Nyquist terms (after the other
    # axes' inverse transforms); cuFFT's c2r needs them made Hermitian first
    x = _data((6, 5, 4), np.complex128, seed=7)
    for kw in ({}, {"n": 7}, {"axis": 0}, {"axis": 1, "n": 8}):
        _both("irfft", x, **kw)
        _both("hfft", x, **kw)
    for kw in ({}, {"axes": (0, 2)}, {"axes": (2, 0)}, {"s": (5, 6, 7), "axes": (0, 1, 2)},
               {"axes": (1,)}):
        _both("irfftn", x, **kw)
        _both("irfftn", x.astype(np.complex64), **kw)
    # the c2r source the API layer builds is Hermitian-consistent (what cuFFT's c2r
    # assumes): the real transform of its inverse gives it back
    from gnumpy.fft._core import _hermitian
    for axes, n in (((2,), (6,)), ((2,), (7,)), ((0, 2), (6, 6)), ((1, 0, 2), (5, 6, 7)),
                    ((0, 1), (6, 8))):
        m = [x.shape[a] for a in axes[:-1]] + [n[-1] // 2 + 1]
        y = x[tuple(slice(0, m[axes.index(d)]) if d in axes else slice(None)
                    for d in range(3))]
        h = gp.fft._core.wrap(_hermitian(gp.asarray(y)._node, list(axes), list(n))).get()
        again = np.fft.rfftn(np.fft.irfftn(h, s=n, axes=axes), axes=axes)
        np.testing.assert_allclose(again, h, atol=1e-12)
        np.testing.assert_allclose(np.fft.irfftn(h, s=n, axes=axes),
                                   np.fft.irfftn(y, s=n, axes=axes), atol=1e-12)


@pytest.mark.parametrize("name", ONE_D + N_D)
def test_cuda_graph_on_the_cpu(name, monkeypatch):
    # the graph the CUDA backend runs (the library call unscaled, the norm's scale an
    # elementwise multiply, c2r sources made Hermitian, axes moved last where one plan
    # cannot cover them), built and run on the CPU backend
    monkeypatch.setattr(gp.fft._core, "_numpy_scales", lambda *a: False)
    for dtype in (np.float32, np.complex128, np.int64, np.float16):
        if name in REAL_IN and np.dtype(dtype).kind == "c":
            continue
        x = _data((4, 5, 6), dtype, seed=6)
        if name in ONE_D:
            cases = [{"axis": 1, "norm": "ortho"}, {"axis": 0, "n": 7, "norm": "forward"},
                     {"n": 11}, {"axis": -2, "n": 1, "norm": "forward"}]
        elif name.endswith("2"):
            cases = [{"norm": "ortho"}, {"axes": (0, 2), "s": (3, 7), "norm": "forward"}]
        else:
            cases = [{"norm": "ortho"}, {"axes": (2, 0), "s": (3, 7), "norm": "forward"},
                     {"axes": (1,)}, {"axes": (0, 1), "s": (1, 4), "norm": "ortho"}]
        for kw in cases[:2] if dtype == np.float16 else cases:
            _both(name, x, **kw)


# ------------------------------------------------------------------ N-dimensional

_AXES_3D = [None, (0, 2), (2, 0), (1,), (-1, -3), (0, 1, 2), (1, 2), (0, 1), (2, 1, 0)]


@pytest.mark.parametrize("name", N_D)
def test_nd(name):
    if name.endswith("2"):
        cases = [{}, {"axes": (0, 2)}, {"axes": (2, 0), "norm": "ortho"},
                 {"s": (3, 8), "norm": "forward"}, {"axes": (-3, -2)}]
    else:
        cases = [{"axes": a} for a in _AXES_3D] + [
            {"s": (3, 8), "axes": (1, 2), "norm": "ortho"},
            {"s": (5, -1, 4), "axes": (0, 1, 2), "norm": "forward"},
            {"s": (2, 9), "axes": (2, 0), "norm": "backward"}]
    for dtype in DTYPES:
        x = _data((4, 6, 5), dtype, seed=1)
        if name in REAL_IN and np.dtype(dtype).kind == "c":
            with pytest.raises(TypeError):
                getattr(gp.fft, name)(gp.asarray(x))
            continue
        # every case in double and single precision, a few for integer input
        for kw in (cases if dtype in (np.float32, np.complex128) else cases[:3]):
            _both(name, x, **kw)


def test_many_axes():
    x = _data((3, 4, 2, 5, 3), np.complex64, seed=4)
    for name in ("fftn", "ifftn", "irfftn"):
        for axes in (None, (0, 1, 2, 3), (1, 2, 3, 4), (4, 0, 2, 1), (0, 1, 3, 4)):
            _both(name, x, axes=axes, norm="ortho")
    r = x.real.copy()
    for axes in (None, (1, 2, 3, 4), (4, 0, 2, 1)):
        _both("rfftn", r, axes=axes)


def test_repeated_axes_compose_like_numpy():
    x = _data((4, 6), np.complex128, seed=5)
    _both("fftn", x, axes=(0, 0))
    _both("fftn", x, s=(4, 6), axes=(0, 0))
    _both("ifftn", x, s=(3, 5, 4), axes=(1, 0, 1))
    _both("rfftn", x.real.copy(), axes=(0, 0))
    _both("irfftn", x, axes=(1, 1))


def test_views():
    x = _data((4, 6, 5), np.complex128, seed=2)
    h, g = strided_pair(x)
    for name, kw in (("fft", {}), ("fft", {"axis": 0}), ("ifft", {"axis": 1, "n": 9}),
                     ("fftn", {}), ("fftn", {"axes": (0, 2)}), ("irfft", {"axis": 0}),
                     ("irfftn", {"s": (5, 7), "axes": (0, 2)}), ("hfft", {"axis": 1})):
        _both(name, (h, g), **kw)
    r = x.real.copy()
    hr, gr = strided_pair(r)
    for name, kw in (("rfft", {}), ("rfft", {"axis": 1}), ("rfftn", {"axes": (2, 0)}),
                     ("ihfft", {"axis": 0})):
        _both(name, (hr, gr), **kw)
    g = gp.asarray(x)
    views = [(x.transpose(2, 0, 1), g.transpose(2, 0, 1)), (x[::-1, :, 1:], g[::-1, :, 1:]),
             (x[:, 1], g[:, 1]), (x[..., 1:4], g[..., 1:4]),
             (np.broadcast_to(x[:1], (3, 6, 5)), gp.broadcast_to(g[:1], (3, 6, 5)))]
    for v in views:
        for axis in (0, -1):
            _both("fft", v, axis=axis)
            _both("irfft", v, axis=axis)
        _both("fftn", v)
        _both("rfftn", (v[0].real.copy(), v[1].real), axes=(0, 1))
    f32 = _data((4, 9), np.float32)
    _both("rfft", (f32[:, 1:], gp.asarray(f32)[:, 1:]))     # an odd element offset
    _both("fft", (f32[1:, 1:], gp.asarray(f32)[1:, 1:]), axis=0)


# ------------------------------------------------------------------ edges, out= and errors

def test_empty():
    for shape, kw in (((0, 8), {}), ((0, 8), {"n": 5}), ((3, 0), {"n": 5}),
                      ((0, 3), {"axis": 0, "n": 4})):
        e = np.zeros(shape, np.complex128)
        for name in ONE_D:
            h = e.real.copy() if name in REAL_IN else e
            _both(name, h, **kw)
    e = np.zeros((0, 4, 3))
    for name in N_D:
        _both(name, e, axes=(1, 2))
    z = _data((3, 0, 4), np.float32)
    _both("fftn", z, s=(3, 2, 4), axes=(0, 1, 2))
    _both("rfftn", z, s=(2, 3), axes=(1, 2))


def test_round_trip_and_dispatch():
    x = _data((5, 12), np.float64)
    g = gp.asarray(x)
    _same(gp.fft.irfft(gp.fft.rfft(g), n=12), x)
    _same(gp.fft.ifftn(gp.fft.fftn(g)).real, x)
    _same(gp.fft.hfft(gp.fft.ihfft(g), n=12), x)
    for name in ("fft", "rfftn", "irfft2"):
        r = getattr(np.fft, name)(g)            # through __array_function__
        assert isinstance(r, gp.ndarray)
        _same(r, getattr(np.fft, name)(x))
    assert gp.fft.fftn(g, axes=()) is g
    s = gp.asarray(2.0)
    assert gp.fft.fftn(s) is s


def test_contiguous_transform_is_one_library_call():
    rows = _data((8, 16), np.complex64)
    for name, x, g in (("fft", _data((1024,), np.complex64), None),
                       ("rfft", _data((4, 64), np.float32), None),
                       ("fft2", _data((16, 32), np.complex128), None),
                       ("fft", rows[:, :12], gp.asarray(rows)[:, :12])):    # padded rows
        g = gp.asarray(x) if g is None else g
        r = getattr(gp.fft, name)(g)
        assert r._node.kind == BARRIER and r._node.srcs[0] is g._node
        gp.stats.reset()
        gp.evaluate(r)
        assert gp.stats.by_kind["barrier"] == 1 and gp.stats.groups == 1, gp.stats
        _same(r, getattr(np.fft, name)(x))


@pytest.mark.parametrize("name", ONE_D + N_D)
def test_a_call_again_equals_the_first(name):
    """A call whose arguments and input signature were seen makes its barrier from the
    first call's (``_transforms._SIMPLE``): same values as NumPy for new data, lazy
    inputs, other dtypes of the same shape, lengths, axes, norms and out=."""
    real = name in REAL_IN
    for seed in range(3):           # the first call works the node out, the next reuse it
        for dt in ((np.float32, np.float64) if real else (np.complex64, np.complex128)):
            x = _data((6, 10), dt, seed)
            _both(name, x)
            if name in ONE_D:
                _both(name, x, n=7, axis=0, norm="ortho")
                _both(name, x, axis=-1, norm="forward")
            else:
                _both(name, x, axes=(1, 0), norm="ortho")
                _both(name, x, axes=(0,), norm="forward")
            g = gp.asarray(x)
            _same(getattr(gp.fft, name)(g * 2), getattr(np.fft, name)(x * 2))   # lazy input
            _same(getattr(gp.fft, name)(g[:, ::2]), getattr(np.fft, name)(x[:, ::2]))
            e = getattr(np.fft, name)(x)
            out = gp.empty(e.shape, dtype=e.dtype)
            assert getattr(gp.fft, name)(g, out=out) is out
            _same(out, e)
    with pytest.raises(ValueError, match="Invalid number"):     # errors stay errors
        getattr(gp.fft, name)(gp.asarray(_data((6, 10), np.float64)),
                              **({"n": 0} if name in ONE_D else {"s": (0, 4)}))


@pytest.mark.parametrize("name", ONE_D + N_D)
def test_out(name):
    x = _data((4, 6), np.float64 if name in REAL_IN else np.complex128)
    e = getattr(np.fft, name)(x)
    out = gp.empty(e.shape, dtype=e.dtype)
    assert getattr(gp.fft, name)(gp.asarray(x), out=out) is out
    _same(out, e)
    low = gp.empty(e.shape, dtype=np.complex64 if e.dtype.kind == "c" else np.float32)
    getattr(gp.fft, name)(gp.asarray(x), out=low)
    _same(low, e.astype(low.dtype))
    with pytest.raises(ValueError, match="wrong shape"):
        getattr(gp.fft, name)(gp.asarray(x), out=gp.empty((4, 7), dtype=e.dtype))
    if e.dtype.kind == "c":
        with pytest.raises(TypeError):
            getattr(gp.fft, name)(gp.asarray(x), out=gp.empty(e.shape, dtype=np.float64))


def test_errors():
    x = gp.asarray(_data((8,), np.complex128))
    for bad in (lambda: gp.fft.fft(x, n=0), lambda: gp.fft.irfft(x[:1]),
                lambda: gp.fft.fftn(x, s=(0,), axes=(0,)), lambda: gp.fft.hfft(x[:1])):
        with pytest.raises(ValueError, match="Invalid number of FFT data points"):
            bad()
    x2 = gp.asarray(_data((4, 4), np.complex128))
    for name in ONE_D + N_D:
        arg = x2.real if name in REAL_IN else x2
        with pytest.raises(ValueError, match="Invalid norm value"):
            getattr(gp.fft, name)(arg, norm="bad")
    with pytest.raises(ValueError, match="different lengths"):
        gp.fft.fftn(x, s=(2, 3), axes=(0,))
    with pytest.raises(IndexError):
        gp.fft.fft(x, axis=1)
    with pytest.raises(AxisError):
        gp.fft.fft(x, n=4, axis=1)
    with pytest.raises(IndexError):
        gp.fft.fft(gp.asarray(1.0))
    with pytest.raises(IndexError):
        gp.fft.fftn(gp.ones((2, 3)), axes=(0, 5))
    with pytest.raises(IndexError):
        gp.fft.rfftn(gp.ones((2, 3)), axes=())
    with pytest.raises(TypeError):
        gp.fft.fft(x, n=4.0)
    with pytest.raises(TypeError):
        gp.fft.rfftn(x)
    with pytest.warns(DeprecationWarning):
        r = gp.fft.fftn(gp.asarray(_data((4, 6, 5), np.complex128)), s=(3, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        _same(r, np.fft.fftn(_data((4, 6, 5), np.complex128), s=(3, 4)))
        y = _data((4, 6), np.complex128)
        _same(gp.fft.fftn(gp.asarray(y), s=(None, 3), axes=(0, 1)),
              np.fft.fftn(y, s=(None, 3), axes=(0, 1)))


# ------------------------------------------------------------------ the cuFFT schedule

def _cufft_exec(typ, params, direction, ibuf, ip, obuf, op):
    """One cuFFT execution on flat host buffers (element offsets `ip`, `op`), read and
    written through the advanced data layout exactly as cuFFT documents it, checking the
    plan's constraints on the way."""
    rank, n, inembed, istride, idist, onembed, ostride, odist, batch = params
    kind = F.KIND_OF[typ]
    assert rank == len(n) <= 3 and min(n) >= 2 and batch >= 1
    assert min(istride, idist, ostride, odist) >= 1
    il, ol = list(n), list(n)
    if kind == "r2c":
        ol[-1] = n[-1] // 2 + 1
    if kind == "c2r":
        il[-1] = n[-1] // 2 + 1
    if inembed is None:             # the basic layout: densely packed signals
        assert onembed is None and idist == L.prod(il) and odist == L.prod(ol)
        inembed, onembed, istride, ostride = il, ol, 1, 1
    assert all(m >= k for m, k in zip(inembed[1:], il[1:]))
    assert all(m >= k for m, k in zip(onembed[1:], ol[1:]))

    def index(lens, embed, stride, dist):
        g = np.indices((batch,) + tuple(lens))
        return g[0] * dist + sum(g[i + 1] * L.prod(embed[i + 1:]) * stride
                                 for i in range(rank))
    ii = ip + index(il, inembed, istride, idist)
    oi = op + index(ol, onembed, ostride, odist)
    assert ii.min() >= 0 and ii.max() < ibuf.size and oi.min() >= 0
    assert oi.max() < obuf.size and len(np.unique(oi)) == oi.size
    ax = tuple(range(1, rank + 1))
    x = ibuf[ii]
    if kind == "r2c":
        y = np.fft.rfftn(x, axes=ax)
    elif kind == "c2r":
        y = np.fft.irfftn(x, s=n, axes=ax, norm="forward")
    elif direction == F.FORWARD:
        y = np.fft.fftn(x, axes=ax)
    else:
        assert direction == F.INVERSE
        y = np.fft.ifftn(x, axes=ax, norm="forward")
    obuf[oi] = y


def _emulate_exec(e, ibuf, ip, obuf, op):
    for a, b in F.offsets(e.plan.loops):
        _cufft_exec(e.type, e.plan.params, e.direction, ibuf, ip + a, obuf, op + b)


def _emulate(kind, flat, off, shape, strides, axes, lengths, forward, owned):
    """A barrier's CUDA implementation with cuFFT emulated: the source is the view
    (flat, off, shape, strides); the axes are moved last first when the API layer would."""
    src = np.lib.stride_tricks.as_strided(flat[off:], shape,
                                          [s * flat.itemsize for s in strides])
    out_shape = list(shape)
    for a, n in zip(axes, lengths):
        out_shape[a] = n
    if kind == "r2c":
        out_shape[axes[-1]] = lengths[-1] // 2 + 1
    perm = None
    if not F.natural(kind, tuple(shape), tuple(out_shape), tuple(axes)):
        order = F.plan_order(kind, axes)
        perm = [d for d in range(len(shape)) if d not in axes] + list(order)
        lengths = [dict(zip(axes, lengths))[d] for d in order]
        axes = list(range(len(shape) - len(order), len(shape)))
        src = np.ascontiguousarray(src.transpose(perm))      # a lazy view, materialized
        flat, off, shape, strides, owned = src.ravel(), 0, src.shape, src.strides, True
        strides = [s // src.itemsize for s in strides]
        out_shape = [out_shape[d] for d in perm]
    copy, execs = F.schedule(kind, True, tuple(shape), tuple(strides), True, owned,
                             tuple(out_shape), tuple(axes), tuple(lengths), forward)
    if copy:
        ibuf, ip = np.ascontiguousarray(src).ravel(), 0
    else:
        ibuf, ip = flat.copy(), off
    obuf = np.full(L.prod(out_shape), np.nan, np.float64 if kind == "c2r" else np.complex128)
    bufs = {"in": (ibuf, ip), "out": (obuf, 0)}
    for e in execs:
        _emulate_exec(e, *bufs[e.src], *bufs[e.dst])
    out = obuf.reshape(out_shape)
    if perm is not None:
        out = out.transpose(np.argsort(perm))
    return out, copy, execs


def _random_case(rng):
    nd = int(rng.integers(1, 6))
    shape = [int(rng.integers(1, 6)) for _ in range(nd)]
    k = int(rng.integers(1, nd + 1))
    axes = [int(a) for a in rng.permutation(nd)[:k]]
    for a in axes:
        shape[a] = max(shape[a], 2)
    kind = ("c2c", "r2c", "c2r")[int(rng.integers(0, 3))]
    # a view of a bigger buffer: steps, reversed axes, a transposition
    steps = [int(rng.choice([1, 1, 2, -1])) for _ in range(nd)]
    base = [abs(s) * d + 1 for s, d in zip(steps, shape)]
    bst = L.c_strides(base)
    perm = rng.permutation(nd)
    strides = [bst[perm[i]] * steps[i] for i in range(nd)]
    off = sum((d - 1) * -s for d, s in zip(shape, strides) if s < 0)
    size = off + sum((d - 1) * s for d, s in zip(shape, strides) if s > 0) + 1
    if kind == "c2r":
        n = shape[axes[-1]]
        lengths = [shape[a] for a in axes[:-1]] + [2 * n - 2 + int(rng.integers(0, 2))]
    else:
        lengths = [shape[a] for a in axes]
    return kind, shape, strides, off, size, axes, lengths, bool(rng.integers(0, 2))


def test_cufft_schedule_emulated():
    rng = np.random.default_rng(1234)
    for _ in range(300):
        kind, shape, strides, off, size, axes, lengths, forward = _random_case(rng)
        flat = rng.standard_normal(size)
        if kind != "r2c":
            flat = flat + 1j * rng.standard_normal(size)
        src = np.lib.stride_tricks.as_strided(flat[off:], shape,
                                              [s * flat.itemsize for s in strides])
        owned = bool(rng.integers(0, 2))
        if kind == "c2r":       # the API layer makes it Hermitian-consistent
            src[...] = np.fft.rfftn(np.fft.irfftn(src, s=lengths, axes=axes), axes=axes)
        got, _, _ = _emulate(kind, flat, off, shape, strides, axes, lengths, forward, owned)
        if kind == "c2c":
            want = np.fft.fftn(src, axes=axes) if forward else \
                np.fft.ifftn(src, axes=axes, norm="forward")
        elif kind == "r2c":
            want = np.fft.rfftn(src, axes=axes)
        else:
            want = np.fft.irfftn(src, s=lengths, axes=axes, norm="forward")
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10 * max(1, L.prod(shape)))


def test_cufft_schedule_reads_in_place():
    # a transform along the last axes of C-ordered (or row-padded) data is one execution
    # reading the caller's buffer (in cuFFT's basic layout when densely packed, as CuPy
    # plans it); other axes use strides rather than copies
    sched = F.schedule
    for kind, shape, st, out, axes, lengths, basic in (
            ("c2c", (1 << 24,), (1,), (1 << 24,), (0,), (1 << 24,), True),
            ("r2c", (1 << 24,), (1,), ((1 << 23) + 1,), (0,), (1 << 24,), True),
            ("c2c", (4096, 4096), (4096, 1), (4096, 4096), (0, 1), (4096, 4096), True),
            ("r2c", (7, 9), (9, 1), (7, 5), (1,), (9,), True),
            ("c2r", (8, 5), (5, 1), (8, 8), (0, 1), (8, 8), True),
            ("c2c", (8, 12), (16, 1), (8, 12), (1,), (12,), False),
            ("c2c", (64, 8), (8, 1), (64, 8), (0,), (64,), False),
            ("c2c", (6, 4, 5), (20, 5, 1), (6, 4, 5), (0, 2), (6, 5), False)):
        copy, execs = sched(kind, False, shape, st, True, True, out, axes, lengths, True)
        assert not copy and len(execs) == 1 and not execs[0].plan.loops
        assert (execs[0].plan.params[2] is None) == basic
    copy, _ = sched("c2r", False, (8, 5), (5, 1), True, False, (8, 8), (0, 1), (8, 8), True)
    assert copy                                 # c2r overwrites: never the caller's data
    copy, _ = sched("c2c", False, (8,), (1,), False, False, (8,), (0,), (8,), True)
    assert copy                                 # not aligned to the complex type


class _Device:
    """A fake CUDA backend for ``fft_ops``'s CUDA implementation: device memory is one
    host byte array (256-byte aligned blocks), cuFFT is emulated (``_cufft_exec``) on it,
    with nvmath.bindings.cufft's signatures and a check of every call's preconditions."""

    def __init__(self):
        self.mem = np.zeros(1 << 22, np.uint8)
        self.top = 256
        self.pool = self
        self.plans, self.cache, self.calls = {}, {}, []

    # ---- backend and Libs
    def alloc(self, nbytes):
        b = type("Buf", (), {})()
        b.ptr, self.top = self.top, self.top + ((max(nbytes, 1) + 255) & ~255)
        assert self.top <= self.mem.size
        return b

    def typed(self, dtype):
        return self.mem.view(dtype)

    def leaf(self, values, strides=None, offset=0):
        strides = L.c_strides(values.shape) if strides is None else strides
        span = offset + sum((d - 1) * s for d, s in zip(values.shape, strides) if s > 0) + 1
        buf = self.alloc(span * values.itemsize)
        base = self.typed(values.dtype)[buf.ptr // values.itemsize + offset:]
        np.lib.stride_tricks.as_strided(base, values.shape, [s * values.itemsize
                                                             for s in strides])[...] = values
        return gp._graph.ir.leaf(buf, values.dtype, values.shape, strides, offset,
                                 gp.asarray(0).device)

    def read(self, node):
        isz = node.dtype.itemsize
        base = self.typed(node.dtype)[node.buf.ptr // isz + node.offset:]
        return np.lib.stride_tricks.as_strided(base, node.shape,
                                               [s * isz for s in node.strides]).copy()

    def _contiguous_copy(self, node):
        return self.leaf(self.read(node))

    def fft_plan(self, key, make):
        if key not in self.cache:
            self.cache[key] = make()
        return self.cache[key]

    def workspace(self, nbytes):
        return self.alloc(nbytes)

    # ---- nvmath.bindings.cufft
    def create(self):
        h = len(self.plans) + 1
        self.plans[h] = {}
        return h

    def set_auto_allocation(self, plan, auto_allocate):
        assert auto_allocate == 0
        self.plans[plan]["auto"] = auto_allocate

    def make_plan_many64(self, plan, rank, n, inembed, istride, idist, onembed, ostride,
                         odist, type, batch):
        assert self.plans[plan].get("auto") == 0 and "params" not in self.plans[plan]
        emb = [None if e == 0 else tuple(e) for e in (inembed, onembed)]
        self.plans[plan]["params"] = (type, (rank, tuple(n), emb[0], istride, idist, emb[1],
                                             ostride, odist, batch))
        return 4096

    def set_stream(self, plan, stream):
        pass

    def set_work_area(self, plan, work_area):
        self.plans[plan]["work"] = work_area

    def destroy(self, plan):
        del self.plans[plan]

    def _exec(self, name, plan, idata, odata, direction=None):
        typ, params = self.plans[plan]["params"]
        assert F._EXEC[typ] == name and self.plans[plan].get("work")
        kind, double = F.KIND_OF[typ], typ in (0x69, 0x6a, 0x6c)
        c = np.dtype(np.complex128 if double else np.complex64)
        r = np.dtype(np.float64 if double else np.float32)
        idt, odt = (r if kind == "r2c" else c), (r if kind == "c2r" else c)
        assert idata % c.itemsize == 0 and odata % c.itemsize == 0   # cuFFT's alignment
        _cufft_exec(typ, params, direction, self.typed(idt), idata // idt.itemsize,
                    self.typed(odt), odata // odt.itemsize)
        self.calls.append((name, idata, odata))

    def exec_c2c(self, plan, idata, odata, direction):
        self._exec("exec_c2c", plan, idata, odata, direction)

    def exec_z2z(self, plan, idata, odata, direction):
        self._exec("exec_z2z", plan, idata, odata, direction)

    def exec_r2c(self, plan, idata, odata):
        self._exec("exec_r2c", plan, idata, odata)

    def exec_d2z(self, plan, idata, odata):
        self._exec("exec_d2z", plan, idata, odata)

    def exec_c2r(self, plan, idata, odata):
        self._exec("exec_c2r", plan, idata, odata)

    def exec_z2d(self, plan, idata, odata):
        self._exec("exec_z2d", plan, idata, odata)


def test_cuda_implementation_on_emulated_cufft(monkeypatch):
    from gnumpy.backends import barriers
    dev = _Device()
    monkeypatch.setattr(F, "bindings", lambda name: dev)
    monkeypatch.setattr(F, "libs", lambda be: dev)
    rng = np.random.default_rng(9)

    def data(shape, dt):
        v = rng.standard_normal(shape)
        return (v + 1j * rng.standard_normal(shape) if np.dtype(dt).kind == "c" else v
                ).astype(dt)

    def herm(x, axes, lengths):
        return np.fft.rfftn(np.fft.irfftn(x, s=lengths, axes=axes), axes=axes).astype(x.dtype)

    x2 = data((6, 8), np.complex128)
    cases = [  # kind, values, strides, offset, axes, lengths, forward, executions, in place
        ("c2c", data((64,), np.complex64), None, 0, (0,), (64,), True, 1, True),
        ("c2c", data((64,), np.complex64), None, 1, (0,), (64,), False, 1, True),
        ("r2c", data((4, 30), np.float32), None, 0, (1,), (30,), True, 1, True),
        ("r2c", data((4, 31), np.float64), None, 0, (1,), (31,), True, 1, True),
        ("r2c", data((4, 31), np.float64), None, 1, (1,), (31,), True, 1, False),  # unaligned
        ("c2c", x2, None, 0, (0,), (6,), True, 1, True),
        ("c2c", x2, (1, 6), 0, (1,), (8,), False, 1, True),         # a transposed view
        ("c2c", x2[:, :5], (8, 1), 0, (1,), (5,), True, 1, True),   # padded rows
        ("c2c", data((2, 3, 4, 5), np.complex64), None, 0, (0, 1, 2, 3), (2, 3, 4, 5),
         True, 2, True),
        ("c2c", data((2, 3, 4, 5, 2), np.complex64), None, 0, (1, 2, 3, 4), (3, 4, 5, 2),
         False, 3, True),
        ("r2c", data((3, 2, 4, 6), np.float32), None, 0, (0, 1, 2, 3), (3, 2, 4, 6), True,
         2, True),
        ("c2c", data((3, 4, 5), np.complex128), (-20, 5, 1), 40, (0, 2), (3, 5), True, 1,
         False),                                                    # a reversed axis
    ]
    for x, axes, n in (((5, 5), (0, 1), (5, 8)), ((4, 3), (1,), (5,)),
                       ((3, 2, 4, 3), (0, 1, 2, 3), (3, 2, 4, 4))):
        v = herm(data(x, np.complex64), axes, n)
        cases.append(("c2r", v, None, 0, axes, n, False, 1 + (len(axes) > 3), False))
    for kind, v, strides, off, axes, n, forward, count, in_place in cases + cases:
        # (each case twice: the second call runs the executions its first one kept)
        src = dev.leaf(v, strides, off)
        h = dev.read(src)
        if kind == "c2c":
            want = np.fft.fftn(h, axes=axes) if forward else \
                np.fft.ifftn(h, axes=axes, norm="forward")
        elif kind == "r2c":
            want = np.fft.rfftn(h, axes=axes)
        else:
            want = np.fft.irfftn(h, s=n, axes=axes, norm="forward")
        norm = "forward" if kind == "c2r" or (kind == "c2c" and not forward) else "backward"
        node = gp._graph.ir.barrier("fft_" + kind, (src,), (axes, n, forward, False, norm),
                                    want.dtype, want.shape)
        out = dev.alloc(want.nbytes)
        dev.calls.clear()
        barriers.cuda_impl("fft_" + kind)(dev, node, out)
        got = dev.read(gp._graph.ir.leaf(out, want.dtype, want.shape,
                                         L.c_strides(want.shape), 0, None))
        tol = 1e-4 if want.dtype in (np.complex64, np.float32) else 1e-10
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.abs(want).max())
        assert len(dev.calls) == count, (kind, v.shape, axes, dev.calls)
        src_ptr = src.buf.ptr + src.offset * v.itemsize
        assert (dev.calls[0][1] == src_ptr) == in_place
        assert (dev.read(src) == h).all()           # the caller's data is never written


def test_plans_are_bound_to_a_new_stream_and_evicted_in_lru_order(monkeypatch):
    """``Libs.fft_plan``: a plan is made once per key, bound to the current stream at its
    first use and again only when the stream changed, and the least recently used plan
    is destroyed (after a sync) past ``FFT_PLANS``."""
    cuda_libs = pytest.importorskip("gnumpy.backends.cuda_libs")
    log = []

    class Cufft:
        def set_stream(self, plan, stream):
            log.append(("bind", plan, stream))

        def destroy(self, plan):
            log.append(("destroy", plan))

    class Stream:
        def sync(self):
            log.append(("sync",))

    be = type("Be", (), {"stream_int": 7, "stream": Stream()})()
    monkeypatch.setitem(cuda_libs._BINDINGS, "cufft", Cufft())
    libs = cuda_libs.Libs(be)
    libs.FFT_PLANS = 2
    made = []

    def maker(plan):
        return lambda: made.append(plan) or (plan, 64 * plan)

    assert libs.fft_plan("a", maker(1)) == (1, 64)
    assert libs.fft_plan("a", maker(9)) == (1, 64)          # kept: not made again
    assert log == [("bind", 1, 7)] and made == [1]
    be.stream_int = 8                                       # another current stream
    libs.fft_plan("a", maker(9))
    libs.fft_plan("a", maker(9))
    assert log == [("bind", 1, 7), ("bind", 1, 8)]
    libs.fft_plan("b", maker(2))
    libs.fft_plan("a", maker(9))                            # a is now the most recent
    log.clear()
    libs.fft_plan("c", maker(3))                            # evicts b, not a
    assert log == [("sync",), ("destroy", 2), ("bind", 3, 8)] and made == [1, 2, 3]
    log.clear()
    assert libs.fft_plan("b", maker(4)) == (4, 256)         # b is made anew
    assert log == [("sync",), ("destroy", 1), ("bind", 4, 8)]


def test_emulated_cufft_has_nvmaths_signatures():
    cufft = pytest.importorskip("nvmath.bindings.cufft")
    import inspect
    for name in ("create", "set_auto_allocation", "make_plan_many64", "set_stream",
                 "set_work_area", "destroy") + tuple(F._EXEC.values()):
        doc = getattr(cufft, name).__doc__.splitlines()[0]
        want = [p.split()[-1] for p in doc[doc.index("(") + 1:doc.index(")")].split(",") if p]
        assert list(inspect.signature(getattr(_Device, name)).parameters)[1:] == want, doc
