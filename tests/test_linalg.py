"""gnumpy.linalg against numpy.linalg on the device under test (GNUMPY_DEVICE): every
function for float32, float64, complex64, complex128 and integer input, stacks (batch
broadcasting in ``solve``), non-contiguous views, empty matrices and NumPy's errors.

Values are compared where they are unique (solutions, inverses, determinants, singular
values and eigenvalues); factors unique only up to signs or phases through invariants
(Q R = A, U S Vh = A, V diag(w) V^H = A, A V = V diag(w), orthonormal columns).
Tolerances are per dtype: on CUDA single precision is factored in single precision,
where NumPy computes in double and rounds.

On the CPU backend every factorization test runs twice (the ``path`` fixture): through
NumPy (the CPU backend's library) and through gnumpy's cuSOLVER code with an emulated
cuSOLVER (``cusolver_host``: LAPACK from SciPy behind nvmath's argument lists), so
CPU-only CI checks the CUDA layout logic too.
"""
import math

import numpy as np
import pytest

import cusolver_host
import gnumpy as gp
from gnumpy.linalg import _cusolver, _cusolver_svd
from gnumpy.linalg import _svd
from helpers import sample, strided_pair

ON_CPU = gp.asarray(0).device.kind == "cpu"
DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
SINGLE = (np.dtype(np.float32), np.dtype(np.complex64))
LinAlgError = np.linalg.LinAlgError


@pytest.fixture(params=["native", "emulated"])
def path(request):
    if request.param == "native":
        yield "native"
        return
    if not ON_CPU:
        pytest.skip("the cuSOLVER emulation runs on the CPU backend")
    with cusolver_host.emulated():
        yield "emulated"


def _tol(dtype):
    return 1e-3 if np.dtype(dtype) in SINGLE else 1e-9


def _data(shape, dtype, seed=0):
    dt = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    if dt.kind in "iub":
        return rng.integers(-5, 6, shape).astype(dt)
    return sample(dt, shape, rng, special=False) / 10


def _wellcond(shape, dtype, seed=0):
    n = shape[-1]
    return (_data(shape, dtype, seed) + 2 * n * np.eye(n)).astype(dtype)


def _spd(n, dtype, batch=(), seed=3):
    a = _data(batch + (n, n), dtype, seed)
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dtype)


def _same(r, e, dtype=np.float64, k=1.0):
    """gnumpy `r` equals NumPy `e`: type, shape, dtype and values (within tolerance)."""
    if isinstance(e, tuple):
        assert isinstance(r, tuple) and len(r) == len(e)
        for a, b in zip(r, e):
            _same(a, b, dtype, k)
        return
    if not isinstance(e, (np.ndarray, np.generic)):
        assert r == e
        return
    assert isinstance(r, gp.ndarray), type(r)
    h, e = r.get(), np.asarray(e)
    assert h.shape == e.shape and h.dtype == e.dtype, (h.shape, e.shape, h.dtype, e.dtype)
    if e.dtype.kind in "fc":
        t = _tol(dtype) * k
        fin = np.isfinite(e)
        scale = max(1.0, float(np.abs(e[fin]).max())) if fin.any() else 1.0
        np.testing.assert_allclose(h, e, rtol=t, atol=t * scale)
    else:
        np.testing.assert_array_equal(h, e)


def _ct(x):
    return np.conj(np.swapaxes(x, -1, -2))


def _orthonormal(m, dtype):
    """The columns of the stack `m` are orthonormal."""
    eye = np.broadcast_to(np.eye(m.shape[-1]), m.shape[:-2] + (m.shape[-1],) * 2)
    np.testing.assert_allclose(_ct(m) @ m, eye, atol=_tol(dtype) * 10)


def _raises_like(f, *args, **kw):
    """gnumpy's f raises what NumPy's raises, with NumPy's message."""
    with pytest.raises(Exception) as e:
        getattr(np.linalg, f)(*args, **kw)
    with pytest.raises(type(e.value)) as g:
        getattr(gp.linalg, f)(*[gp.asarray(a) for a in args], **kw)
    assert str(g.value) == str(e.value)


# ------------------------------------------------------------------ products and norms

@pytest.mark.parametrize("dtype", DTYPES)
def test_vector_norms(dtype):
    x = _data((3, 4, 5), dtype)
    x[0, 0, 0] = 0
    for ord in (2, 1, math.inf, -math.inf, 0, 3, -1.5):
        for axis in (None, 1, -1, (0, 2)):
            if axis is None and ord in (-1.5,):
                continue
            for keepdims in (False, True):
                with np.errstate(divide="ignore"):      # NumPy: 0 ** -1.5
                    e = np.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord)
                _same(gp.linalg.vector_norm(gp.asarray(x), axis=axis, keepdims=keepdims,
                                            ord=ord), e, dtype)
    _same(gp.linalg.vector_norm(gp.asarray(np.arange(6))), np.linalg.vector_norm(np.arange(6)))
    with pytest.raises(ValueError):
        gp.linalg.vector_norm(gp.asarray(x), ord="fro")


@pytest.mark.parametrize("dtype", DTYPES)
def test_matrix_and_numpy_norms(dtype):
    x = _data((2, 3, 4), dtype)
    xt = x.transpose(0, 2, 1)[:, ::-1]           # a non-contiguous view
    for a in (x, xt):
        for ord in ("fro", 1, -1, math.inf, -math.inf):
            for keepdims in (False, True):
                _same(gp.linalg.matrix_norm(gp.asarray(a), ord=ord, keepdims=keepdims),
                      np.linalg.matrix_norm(a, ord=ord, keepdims=keepdims), dtype)
    m = x[0]
    for ord in (None, "fro", 1, -1, math.inf, -math.inf):
        _same(gp.linalg.norm(gp.asarray(m), ord=ord), np.linalg.norm(m, ord=ord), dtype)
        _same(np.linalg.norm(gp.asarray(m), ord=ord), np.linalg.norm(m, ord=ord), dtype)
    _same(gp.linalg.norm(gp.asarray(x)), np.linalg.norm(x), dtype)
    _same(gp.linalg.norm(gp.asarray(x), keepdims=True), np.linalg.norm(x, keepdims=True), dtype)
    _same(gp.linalg.norm(gp.asarray(x), axis=1, ord=3), np.linalg.norm(x, axis=1, ord=3), dtype)
    _same(gp.linalg.norm(gp.asarray(x), axis=(2, 0), ord=1),
          np.linalg.norm(x, axis=(2, 0), ord=1), dtype)
    for bad in ({"ord": 3}, {"ord": "nope"}):
        with pytest.raises(ValueError):
            gp.linalg.norm(gp.asarray(m), **bad)
    with pytest.raises(ValueError):
        gp.linalg.norm(gp.asarray(x), ord=1)
    with pytest.raises(ValueError):
        gp.linalg.norm(gp.asarray(m[0]), ord="fro")


def test_products_and_views():
    a, b = _data((2, 3, 4), np.float64), _data((2, 4, 5), np.float64, 1)
    _same(gp.linalg.matmul(gp.asarray(a), gp.asarray(b)), np.linalg.matmul(a, b))
    _same(gp.linalg.matrix_transpose(gp.asarray(a)), np.linalg.matrix_transpose(a))
    _same(gp.linalg.vecdot(gp.asarray(a), gp.asarray(a), axis=1),
          np.linalg.vecdot(a, a, axis=1))
    _same(gp.linalg.tensordot(gp.asarray(a), gp.asarray(b), axes=([2], [1])),
          np.linalg.tensordot(a, b, axes=([2], [1])))
    _same(gp.linalg.outer(gp.asarray(a[0, 0]), gp.asarray(b[0, 0])),
          np.linalg.outer(a[0, 0], b[0, 0]))
    _same(gp.linalg.trace(gp.asarray(a), offset=1), np.linalg.trace(a, offset=1))
    _same(gp.linalg.diagonal(gp.asarray(a), offset=-1), np.linalg.diagonal(a, offset=-1))
    u, v = _data((4, 3), np.float64), _data((4, 3), np.float64, 2)
    _same(gp.linalg.cross(gp.asarray(u), gp.asarray(v)), np.linalg.cross(u, v))
    c = _data((3, 3), np.float64)
    _same(gp.linalg.multi_dot([gp.asarray(c[0]), gp.asarray(c), gp.asarray(c),
                               gp.asarray(c[:, 1])]),
          np.linalg.multi_dot([c[0], c, c, c[:, 1]]))
    for n in (0, 1, 2, 3, 6):
        _same(gp.linalg.matrix_power(gp.asarray(a[:, :3, :3]), n),
              np.linalg.matrix_power(a[:, :3, :3], n))
    with pytest.raises(ValueError):
        gp.linalg.outer(gp.asarray(a), gp.asarray(b))
    with pytest.raises(ValueError):
        gp.linalg.cross(gp.asarray(a), gp.asarray(a))
    with pytest.raises(ValueError):
        gp.linalg.multi_dot([gp.asarray(c)])
    with pytest.raises(TypeError):
        gp.linalg.matrix_power(gp.asarray(c), 1.5)
    with pytest.raises(LinAlgError):
        gp.linalg.matrix_power(gp.asarray(a), 2)


# ------------------------------------------------------------------ LU family

@pytest.mark.parametrize("dtype", DTYPES + [np.int64])
def test_solve(dtype, path):
    a = _wellcond((2, 1, 3, 3), dtype)
    b = _data((4, 3, 2), dtype, 1)
    _same(gp.linalg.solve(gp.asarray(a), gp.asarray(b)), np.linalg.solve(a, b), dtype)
    v = _data((3,), dtype, 2)
    _same(gp.linalg.solve(gp.asarray(a), gp.asarray(v)), np.linalg.solve(a, v), dtype)
    at = np.swapaxes(a, -1, -2)                           # non-contiguous views
    bs, gbs = strided_pair(b[0])
    _same(gp.linalg.solve(gp.swapaxes(gp.asarray(a), -1, -2), gbs), np.linalg.solve(at, bs),
          dtype)
    one = _wellcond((5, 5), dtype, 3)
    _same(gp.linalg.solve(gp.asarray(one), gp.asarray(b[0, :, :1].repeat(5, 0)[:5])),
          np.linalg.solve(one, b[0, :, :1].repeat(5, 0)[:5]), dtype)
    for aa, bb in ((np.zeros((0, 0), dtype), np.zeros(0, dtype)),          # empty
                   (np.zeros((2, 0, 0), dtype), np.zeros((2, 0, 3), dtype)),
                   (np.zeros((0, 2, 2), dtype), np.zeros((0, 2, 3), dtype)),
                   (a[0, 0], np.zeros((3, 0), dtype))):
        _same(gp.linalg.solve(gp.asarray(aa), gp.asarray(bb)), np.linalg.solve(aa, bb))


def test_solve_mixed_dtypes_and_errors(path):
    a, b = _wellcond((3, 3), np.float32), _data((3,), np.float64)
    _same(gp.linalg.solve(gp.asarray(a), gp.asarray(b)), np.linalg.solve(a, b))
    _same(gp.linalg.solve(gp.asarray(a.astype(np.int32)), gp.asarray(a[0])),
          np.linalg.solve(a.astype(np.int32), a[0]), np.float32)
    _raises_like("solve", np.ones((2, 3)), np.ones(2))
    _raises_like("solve", np.eye(2), np.ones(3))
    _raises_like("solve", np.eye(2)[None].repeat(3, 0), np.ones((3, 2)))
    _raises_like("solve", np.zeros((2, 2)), np.ones(2))                    # singular
    _raises_like("solve", np.stack([np.eye(2), np.zeros((2, 2))]), np.ones((2, 2, 1)))
    _raises_like("solve", np.zeros((2, 2)), np.zeros((2, 0)))              # no rhs
    _raises_like("solve", np.eye(2, dtype=np.float16), np.ones(2))


@pytest.mark.parametrize("dtype", DTYPES + [np.int64])
def test_inv_det_slogdet(dtype, path):
    perm = np.array([[0.0, 1, 0, 0], [0, 0, 0, 2], [3, 0, 0, 0], [0, 0, 4, 0]])  # swaps
    mats = [perm, _wellcond((4, 4), dtype, 1), np.triu(_data((4, 4), dtype, 2)) + 4 * np.eye(4),
            _wellcond((2, 3, 3, 3), dtype, 4)]
    for a in mats:
        a = a.astype(dtype)
        for name in ("det", "inv"):
            _same(getattr(gp.linalg, name)(gp.asarray(a)), getattr(np.linalg, name)(a), dtype)
        _same(tuple(gp.linalg.slogdet(gp.asarray(a))), tuple(np.linalg.slogdet(a)), dtype)
    t = np.swapaxes(mats[3], -1, -2).astype(dtype)       # a transposed view
    _same(gp.linalg.det(gp.swapaxes(gp.asarray(mats[3].astype(dtype)), -1, -2)),
          np.linalg.det(t), dtype)
    _same(gp.linalg.inv(gp.swapaxes(gp.asarray(mats[3].astype(dtype)), -1, -2)),
          np.linalg.inv(t), dtype)
    s = np.array([[[1, 2], [2, 4]], [[1, 0], [0, 2]]]).astype(dtype)      # one singular
    _same(gp.linalg.det(gp.asarray(s)), np.linalg.det(s), dtype)
    _same(tuple(gp.linalg.slogdet(gp.asarray(s))), tuple(np.linalg.slogdet(s)), dtype)
    with pytest.raises(LinAlgError, match="Singular matrix"):
        gp.linalg.inv(gp.asarray(s))
    for e in (np.zeros((3, 0, 0), dtype), np.zeros((0, 2, 2), dtype), np.zeros((0, 0), dtype)):
        for name in ("det", "inv"):
            _same(getattr(gp.linalg, name)(gp.asarray(e)), getattr(np.linalg, name)(e))
        _same(tuple(gp.linalg.slogdet(gp.asarray(e))), tuple(np.linalg.slogdet(e)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_det_is_numpys_sign_times_exp_logdet(dtype, path):
    """NumPy's det is ``sign * exp(logdet)`` in double precision, cast: a singular matrix
    gives +0.0 whatever its rows' permutation (a product of the pivots would give -0.0),
    and a determinant past the single-precision range an infinity (not NaN)."""
    s = np.array([[[1, 2], [2, 4]], [[2, 4], [1, 2]], [[0, 1], [0, 3]]]).astype(dtype)
    r, e = gp.linalg.det(gp.asarray(s)).get(), np.linalg.det(s)
    assert r.dtype == e.dtype and not np.signbit(r.real).any() and (r == 0).all()
    big = (_data((2, 40, 40), dtype, 5) * 40 + 30 * np.eye(40)).astype(dtype)
    with np.errstate(over="ignore"):        # (NumPy's cast warns; gnumpy's CPU backend
        e = np.linalg.det(big)                  # is NumPy)
        r = gp.linalg.det(gp.asarray(big)).get()
    if np.dtype(dtype) in SINGLE:
        assert not np.isfinite(e).any()         # (the case this test is about)
        np.testing.assert_array_equal(np.isinf(r.real), np.isinf(e.real))
        np.testing.assert_array_equal(np.signbit(r.real), np.signbit(e.real))
        assert not np.isnan(r).any()
    else:
        _same(gp.asarray(r), e, dtype)


def test_lu_family_errors():
    for args in ((np.zeros((3, 3)),), (np.ones((2, 3)),), (np.ones(3),),
                 (np.array([[1.0, 2.0], [2.0, 4.0]]),), (np.ones((2, 2), np.float16),)):
        _raises_like("inv", *args)
    _raises_like("det", np.ones(3))
    _raises_like("slogdet", np.ones((2, 3)))
    _raises_like("det", np.ones((2, 2), np.float16))


# ------------------------------------------------------------------ Cholesky

@pytest.mark.parametrize("dtype", DTYPES + [np.int64])
def test_cholesky(dtype, path):
    a = _spd(4, dtype, (2,))
    junk = a + np.triu(np.full((4, 4), 7), 1).astype(dtype)     # the unread triangle
    _same(gp.linalg.cholesky(gp.asarray(junk)), np.linalg.cholesky(junk), dtype)
    junk_u = a + np.tril(np.full((4, 4), 7), -1).astype(dtype)
    _same(gp.linalg.cholesky(gp.asarray(junk_u), upper=True),
          np.linalg.cholesky(junk_u, upper=True), dtype)
    v, gv = strided_pair(a[1])
    _same(gp.linalg.cholesky(gv), np.linalg.cholesky(v), dtype)
    _same(gp.linalg.cholesky(gp.asarray(np.zeros((2, 0, 0), dtype))),
          np.linalg.cholesky(np.zeros((2, 0, 0), dtype)))
    bad = np.stack([a[0], -a[1]])                          # one not positive definite
    _raises_like("cholesky", bad)
    _raises_like("cholesky", np.array([[1.0, 2.0], [2.0, 1.0]]).astype(dtype), upper=True)


@pytest.mark.parametrize("dtype", [np.float64, np.complex64])
def test_lazy_operands_are_copied_straight_into_the_call(dtype, path):
    """solve, inv, det, slogdet and cholesky of lazy operands (an expression, one with a
    reduction, a broadcast batch, a cast) equal NumPy's; on cuSOLVER the operand is
    computed into the library's copy and stays lazy, keeping its value, and a pending
    write into the memory it reads is seen first."""
    a0, s0 = _wellcond((3, 3), dtype, 5), _spd(3, dtype, (), 6)
    b0, st0 = _data((3, 2), dtype, 7), _data((2, 3, 3), dtype, 8)
    ga, gs, gb, gst = (gp.asarray(x) for x in (a0, s0, b0, st0))
    cases = [("solve", (ga * 2.0 - gs, gb + 1.0), (a0 * 2.0 - s0, b0 + 1.0)),
             ("solve", (gst.sum(0) + ga, gb), (st0.sum(0) + a0, b0)),
             ("solve", (ga * 1.0, gst[..., :2] * 0.5), (a0 * 1.0, st0[..., :2] * 0.5)),
             ("inv", (gs - gst * 0.01,), (s0 - st0 * 0.01,)),
             ("det", (ga + ga.T,), (a0 + a0.T,)),
             ("slogdet", (gs * 3.0,), (s0 * 3.0,)),
             ("cholesky", (gs * 2.0 + gs.conj().T,), (s0 * 2.0 + s0.conj().T,)),
             ("solve", (gp.asarray((a0.real * 4).astype(np.int64)), gb),
              ((a0.real * 4).astype(np.int64), b0))]
    for name, gargs, nargs in cases:
        lazy = [g._node.kind != 0 for g in gargs]          # (0: a LEAF, memory)
        r = getattr(gp.linalg, name)(*gargs)
        if name == "slogdet":
            r, e = tuple(r), tuple(np.linalg.slogdet(*nargs))
        else:
            e = getattr(np.linalg, name)(*nargs)
        _same(r, e, dtype)
        if path == "emulated":          # (the CPU backend's own path materializes them)
            assert [g._node.kind != 0 for g in gargs] == lazy, name
        for g, n in zip(gargs, nargs):
            _same(g, n, dtype)                      # the operands keep their values
    w = gp.asarray(a0)
    before = w * 1.0
    w[0, 0] = 100.0                                 # a pending write into what it reads
    e = a0.copy()
    e[0, 0] = 100.0
    _same(gp.linalg.solve(before, gb), np.linalg.solve(a0, b0), dtype)
    _same(gp.linalg.solve(w + 0.0, gb), np.linalg.solve(e, b0), dtype)
    _same(before, a0, dtype)
    w = gp.asarray(a0)                              # a waiting write into memory the call
    w[1, :] = gp.asarray(a0)[1, :] * 2.0 + 1.0      # copies as it is (no lazy operand)
    e = a0.copy()
    e[1, :] = a0[1, :] * 2.0 + 1.0
    _same(gp.linalg.det(w), np.linalg.det(e), dtype)
    _same(gp.linalg.inv(w), np.linalg.inv(e), dtype)


def test_cholesky_errors_and_nan():
    _raises_like("cholesky", np.ones((2, 3)))
    _raises_like("cholesky", np.ones(3))
    _raises_like("cholesky", np.eye(2, dtype=np.float16))
    if ON_CPU:          # NaN propagates without an error (OpenBLAS's potrf in NumPy)
        for a in ([[np.nan, 0.0], [0.0, 1.0]], [[1.0, 0.0], [np.nan, 1.0]]):
            a = np.array(a)
            _same(gp.linalg.cholesky(gp.asarray(a)), np.linalg.cholesky(a))


# ------------------------------------------------------------------ QR

@pytest.mark.parametrize("dtype", DTYPES + [np.int64])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 6, 3), (2, 3, 6), (1, 1)])
def test_qr(dtype, shape, path):
    a = _data(shape, dtype, 4)
    wdt = np.float64 if np.dtype(dtype).kind == "i" else dtype
    g = gp.asarray(a)
    exact = ON_CPU and path == "native"          # NumPy's own numbers
    for mode in ("reduced", "complete"):
        q, r = gp.linalg.qr(g, mode=mode)
        eq, er = np.linalg.qr(a, mode=mode)
        assert type(gp.linalg.qr(g, mode=mode)).__name__ == "QRResult"
        if exact:
            _same((q, r), (eq, er), wdt)
            continue
        for x, y in ((q, eq), (r, er)):
            assert x.shape == y.shape and x.dtype == y.dtype
        qh, rh = q.get(), r.get()
        np.testing.assert_allclose(qh @ rh, a, atol=_tol(wdt) * 10 * np.abs(a).max())
        _orthonormal(qh, wdt)
        assert np.array_equal(rh, np.triu(rh))
        _same(gp.abs(r), np.abs(er), wdt, 10)            # R is unique up to row phases
    rr = gp.linalg.qr(g, mode="r")
    _same(gp.abs(rr), np.abs(np.linalg.qr(a, mode="r")), wdt, 10)
    h, tau = gp.linalg.qr(g, mode="raw")
    eh, etau = np.linalg.qr(a, mode="raw")
    assert h.shape == eh.shape and h.dtype == eh.dtype and tau.shape == etau.shape
    if exact:
        _same((h, tau), (eh, etau), wdt)
    k = min(shape[-2:])
    _same(gp.abs(gp.triu(gp.matrix_transpose(h)[..., :k, :])),
          np.abs(np.triu(np.swapaxes(eh, -1, -2)[..., :k, :])), wdt, 10)


def test_qr_views_empty_and_errors(path):
    a = _data((4, 3), np.float64, 5)
    v, gv = strided_pair(a)
    q, r = gp.linalg.qr(gv.T)
    np.testing.assert_allclose(q.get() @ r.get(), v.T, atol=1e-12)
    for shape in ((0, 3), (3, 0), (2, 0, 3), (0, 2, 2)):
        e = np.zeros(shape)
        for mode in ("reduced", "complete", "r", "raw"):
            _same(gp.linalg.qr(gp.asarray(e), mode=mode), np.linalg.qr(e, mode=mode))
    h = np.array([[0.0, 1.0], [0.0, 2.0], [0.0, 0.0]])        # a zero column: tau = 0
    _same(gp.linalg.qr(gp.asarray(h), mode="raw"), np.linalg.qr(h, mode="raw"))
    with pytest.warns(DeprecationWarning):
        q = gp.linalg.qr(gp.asarray(a), mode="full")[0]
    np.testing.assert_allclose(np.abs(q.get()), np.abs(np.linalg.qr(a)[0]), atol=1e-12)
    with pytest.raises(ValueError, match="Unrecognized mode"):
        gp.linalg.qr(gp.asarray(a), mode="bogus")
    _raises_like("qr", np.ones(3))
    _raises_like("qr", np.ones((2, 2), np.float16))


# ------------------------------------------------------------------ Hermitian eigenproblems

_EIGH_CASES = [(dt, n, batch) for dt in DTYPES + [np.int32]
               for n, batch in [(1, (3,)), (5, (3,)), (16, ())]] + \
    [(np.float64, 40, (2,))]    # the loop over syevd: one dtype


@pytest.mark.parametrize("dtype,n,batch", _EIGH_CASES,
                         ids=[f"{np.dtype(d)}-{n}-{b}" for d, n, b in _EIGH_CASES])
def test_eigh(dtype, n, batch, path):
    wdt = np.float64 if np.dtype(dtype).kind == "i" else dtype
    x = _data(batch + (n, n), dtype, n)
    junk = np.triu(np.full((n, n), 9), 1).astype(dtype)          # the unread triangle
    for uplo, a in (("L", x + junk), ("U", x + junk.T)):
        w, v = gp.linalg.eigh(gp.asarray(a), UPLO=uplo)
        e = np.linalg.eigh(a, UPLO=uplo)
        _same(w, e.eigenvalues, wdt, 10)
        assert v.dtype == e.eigenvectors.dtype and v.shape == e.eigenvectors.shape
        h = e.eigenvectors @ (e.eigenvalues[..., None] * _ct(e.eigenvectors))
        vv, ww = v.get(), w.get()
        tol = _tol(wdt) * 10 * max(1.0, float(np.abs(h).max()))
        np.testing.assert_allclose(vv @ (ww[..., None] * _ct(vv)), h, atol=tol)
        _orthonormal(vv, wdt)
        _same(gp.linalg.eigvalsh(gp.asarray(a), UPLO=uplo), e.eigenvalues, wdt, 10)


def test_eigh_edges_and_errors(path):
    for a in (np.zeros((3, 3)), np.eye(4) * 1e200, np.diag([1e-300, 2e-300, -1e-300]),
              np.zeros((2, 0, 0)), np.array([[2.0, 1.0], [1.0, 2.0]]), np.ones((5, 5))):
        w, v = gp.linalg.eigh(gp.asarray(a))
        e = np.linalg.eigh(a)
        _same(w, e.eigenvalues)
        assert v.shape == e.eigenvectors.shape and v.dtype == e.eigenvectors.dtype
    nan = np.array([[1.0, np.nan], [np.nan, 2.0]])
    if ON_CPU and path == "native":
        _same(gp.linalg.eigh(gp.asarray(nan))[0], np.linalg.eigh(nan)[0])
    with pytest.raises(ValueError, match="UPLO"):
        gp.linalg.eigh(gp.eye(2), UPLO="X")
    _raises_like("eigh", np.ones((2, 3)))
    _raises_like("eigvalsh", np.ones(3))
    _raises_like("eigvalsh", np.eye(2, dtype=np.float16))


# ------------------------------------------------------------------ general eigenproblems

def _eig_order(w, atol):
    """Eigenvalues of each matrix in a rounding-proof order (real part rounded to the
    tolerance, then imaginary part): LAPACK and cuSOLVER list conjugate pairs in either
    order and tiny real parts would decide a plain complex sort."""
    w = w.reshape(-1, w.shape[-1]).astype(np.complex128)
    q = max(atol, 1e-300) * 10
    out = np.empty_like(w)
    for i, row in enumerate(w):
        out[i] = row[np.lexsort((np.round(row.imag / q), np.round(row.real / q)))]
    return out


def _check_eig(a, dtype, w, v=None):
    e = np.linalg.eigvals(a)
    assert w.dtype == e.dtype and w.shape == e.shape, (w.dtype, e.dtype)
    wh = w.get()
    atol = _tol(dtype) * 10 * max(1.0, np.abs(e).max())
    np.testing.assert_allclose(_eig_order(wh, atol), _eig_order(e, atol), atol=atol)
    if v is not None:
        vh = v.get()
        assert vh.dtype == e.dtype and vh.shape == a.shape
        np.testing.assert_allclose(np.linalg.norm(vh, axis=-2), 1.0, atol=_tol(dtype) * 10)
        np.testing.assert_allclose(a @ vh, vh * wh[..., None, :],
                                   atol=_tol(dtype) * 10 * max(1.0, np.abs(a).max()))


@pytest.mark.parametrize("dtype", DTYPES + [np.int64])
def test_eig(dtype, path):
    wdt = np.float64 if np.dtype(dtype).kind == "i" else dtype
    rot = np.array([[0, -2, 0], [2, 0, 0], [0, 0, 3]])              # complex pair + real
    sym = np.array([[2, 1, 0], [1, 3, 1], [0, 1, 4]])               # every eigenvalue real
    gen = _data((2, 4, 4), dtype, 7)
    for a in (rot, sym, np.stack([sym, rot]), np.stack([sym, sym.T + 1]), gen, gen[0].T):
        a = np.asarray(a).astype(dtype)
        w, v = gp.linalg.eig(gp.asarray(a))
        assert type(gp.linalg.eig(gp.asarray(a))).__name__ == "EigResult"
        _check_eig(a.astype(wdt), wdt, w, v)
        _check_eig(a.astype(wdt), wdt, gp.linalg.eigvals(gp.asarray(a)))
    for e in (np.zeros((0, 0), dtype), np.zeros((2, 0, 0), dtype)):
        _same(tuple(gp.linalg.eig(gp.asarray(e))), tuple(np.linalg.eig(e)))
        _same(gp.linalg.eigvals(gp.asarray(e)), np.linalg.eigvals(e))


def test_eig_errors():
    for f in ("eig", "eigvals"):
        _raises_like(f, np.array([[1.0, np.nan], [0.0, 1.0]]))
        _raises_like(f, np.array([[1.0, np.inf], [0.0, 1.0]]))
        _raises_like(f, np.ones((2, 3)))
        _raises_like(f, np.ones(3))
        _raises_like(f, np.eye(2, dtype=np.float16))


# ------------------------------------------------------------------ SVD

@pytest.mark.parametrize("dtype", DTYPES + [np.int64])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 6, 3), (2, 3, 6), (1, 1),
                                   (7, 4)])
def test_svd(dtype, shape, path):
    wdt = np.float64 if np.dtype(dtype).kind == "i" else dtype
    a = _data(shape, dtype, 6)
    if shape == (7, 4):
        a[:, 3] = a[:, 0] * 2                             # a zero singular value
    g = gp.asarray(a)
    tol = _tol(wdt) * 10 * max(1.0, float(np.abs(a).max()))
    for full in (True, False):
        u, s, vh = gp.linalg.svd(g, full_matrices=full)
        eu, es, evh = np.linalg.svd(a, full_matrices=full)
        for x, y in ((u, eu), (s, es), (vh, evh)):
            assert x.shape == y.shape and x.dtype == y.dtype, (x.shape, y.shape)
        _same(s, es, wdt, 10)
        uh, sh, vhh = u.get(), s.get(), vh.get()
        k = sh.shape[-1]
        np.testing.assert_allclose((uh[..., :k] * sh[..., None, :]) @ vhh[..., :k, :], a,
                                   atol=tol)
        _orthonormal(uh, wdt)
        _orthonormal(_ct(vhh), wdt)
    _same(gp.linalg.svd(g, compute_uv=False), np.linalg.svd(a, compute_uv=False), wdt, 10)
    _same(gp.linalg.svdvals(g), np.linalg.svdvals(a), wdt, 10)
    v, gv = strided_pair(a)                               # a non-contiguous view
    _same(gp.linalg.svdvals(gv), np.linalg.svdvals(v), wdt, 10)


def test_svd_empty_hermitian_and_errors(path):
    for shape in ((0, 3), (3, 0), (2, 3, 0), (0, 2, 2)):
        e = np.zeros(shape)
        for full in (True, False):
            _same(tuple(gp.linalg.svd(gp.asarray(e), full_matrices=full)),
                  tuple(np.linalg.svd(e, full_matrices=full)))
        _same(gp.linalg.svdvals(gp.asarray(e)), np.linalg.svdvals(e))
    h = _spd(4, np.complex128) - 3 * np.eye(4)           # eigenvalues of both signs
    u, s, vh = gp.linalg.svd(gp.asarray(h), hermitian=True)
    e = np.linalg.svd(h, hermitian=True)
    _same(s, e.S)
    np.testing.assert_allclose((u.get() * s.get()) @ vh.get(), h, atol=1e-10)
    assert u.dtype == e.U.dtype and vh.shape == e.Vh.shape
    _same(gp.linalg.svd(gp.asarray(h), compute_uv=False, hermitian=True),
          np.linalg.svd(h, compute_uv=False, hermitian=True))
    nan = np.array([[1.0, np.nan], [0.0, 1.0]])
    for f, args in (("svd", (nan,)), ("svdvals", (nan,)), ("pinv", (nan,)),
                    ("matrix_rank", (nan,)), ("cond", (nan,))):
        _raises_like(f, *args)
    _raises_like("svd", np.ones(3))
    _raises_like("svd", np.eye(2, dtype=np.float16))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 6, 2)])
def test_svd_family(dtype, shape, path):
    a = _data(shape, dtype, sum(shape))
    deficient = a.copy()
    deficient[..., -1] = deficient[..., 0] * 2              # rank-deficient
    for x in (a, deficient):
        g = gp.asarray(x)
        _same(gp.linalg.matrix_rank(g), np.linalg.matrix_rank(x))
        _same(gp.linalg.matrix_rank(g, rtol=1e-3), np.linalg.matrix_rank(x, rtol=1e-3))
        _same(gp.linalg.matrix_rank(g, tol=0.5), np.linalg.matrix_rank(x, tol=0.5))
        noisy = x is deficient and np.dtype(dtype) in SINGLE and not (ON_CPU and
                                                                      path == "native")
        for kw in ({"rcond": 0.3},) if noisy else ({}, {"rtol": None}, {"rcond": 0.3}):
            # (single precision leaves the zero singular value at ~eps32 * s_max, far
            # above NumPy's default cutoff 1e-15 * s_max, which assumes double)
            _same(gp.linalg.pinv(g, **kw), np.linalg.pinv(x, **kw), dtype, 10)
        for p in (None, 2, -2):
            if x is a:                      # a deficient matrix's s_min is rounding noise
                _same(gp.linalg.cond(g, p), np.linalg.cond(x, p), dtype, 10)
            else:
                assert np.array_equal(gp.linalg.cond(g, p).get() > 1e4,
                                      np.linalg.cond(x, p) > 1e4)
        if x.shape[-1] == x.shape[-2] and x is a:
            for p in ("fro", "nuc", 1, -1, np.inf, -np.inf):
                _same(gp.linalg.cond(g, p), np.linalg.cond(x, p), dtype, 10)
        for o in (2, -2, "nuc"):
            _same(gp.linalg.matrix_norm(g, ord=o, keepdims=True),
                  np.linalg.matrix_norm(x, ord=o, keepdims=True), dtype, 10)
            if x.ndim == 2:
                _same(gp.linalg.norm(g, o), np.linalg.norm(x, o), dtype, 10)
    h = _spd(4, dtype)
    _same(gp.linalg.pinv(gp.asarray(h), hermitian=True), np.linalg.pinv(h, hermitian=True),
          dtype, 10)
    _same(gp.linalg.matrix_rank(gp.asarray(h), hermitian=True),
          np.linalg.matrix_rank(h, hermitian=True))


def test_svd_family_edges(path):
    s = np.array([[1.0, 2.0], [2.0, 4.0]])
    for p in (1, "fro", np.inf):
        _same(gp.linalg.cond(gp.asarray(s), p), np.linalg.cond(s, p))    # singular: inf
    nan = np.array([[1.0, np.nan], [0.0, 1.0]])
    _same(gp.linalg.cond(gp.asarray(nan), 1), np.linalg.cond(nan, 1))
    _same(gp.linalg.pinv(gp.asarray(np.zeros((2, 0, 3)))), np.linalg.pinv(np.zeros((2, 0, 3))))
    _same(gp.linalg.pinv(gp.asarray(np.zeros((0, 3), np.int64))),
          np.linalg.pinv(np.zeros((0, 3), np.int64)))
    _same(gp.linalg.svdvals(gp.asarray(np.zeros((3, 3)))), np.linalg.svdvals(np.zeros((3, 3))))
    assert gp.linalg.matrix_rank(gp.asarray([0.0, 1.0])) == np.linalg.matrix_rank([0.0, 1.0])
    _same(gp.linalg.matrix_rank(gp.asarray(np.zeros((0, 2, 2)))),
          np.linalg.matrix_rank(np.zeros((0, 2, 2))))
    with pytest.raises(ValueError, match="both set"):
        gp.linalg.pinv(gp.eye(2), rcond=0.1, rtol=0.1)
    with pytest.raises(ValueError, match="both set"):
        gp.linalg.matrix_rank(gp.eye(2), tol=0.1, rtol=0.1)
    _raises_like("cond", np.zeros((0, 0)))
    _raises_like("cond", np.ones((2, 3)), p=1)


# ------------------------------------------------------------------ least squares

def _lstsq_cases(dtype):
    rng = np.random.default_rng(9)
    full = _data((6, 3), dtype, 1)
    deficient = full.copy()
    deficient[:, 2] = deficient[:, 0]
    for a in (full, deficient, _data((3, 5), dtype, 2), _data((4, 4), dtype, 3)):
        for b in (_data((a.shape[0],), dtype, 4), _data((a.shape[0], 2), dtype, 5),
                  np.zeros((a.shape[0], 0), dtype)):
            yield a, b, None
    yield full, _data((6,), dtype, 6), 0.5
    yield full, _data((6,), dtype, 6), -1.0
    del rng
    for m, n in ((0, 3), (3, 0)):                       # empty: NumPy's conventions
        yield np.ones((m, n), dtype), np.arange(2.0 * m).reshape(m, 2).astype(dtype), None


@pytest.mark.parametrize("dtype", DTYPES + [np.int64])
def test_lstsq(dtype, path):
    wdt = np.float64 if np.dtype(dtype).kind == "i" else dtype
    for a, b, rcond in _lstsq_cases(dtype):
        e = np.linalg.lstsq(a, b, rcond=rcond)
        results = [gp.linalg.lstsq(gp.asarray(a), gp.asarray(b), rcond=rcond)]
        # the CUDA route (SVD), which gnumpy.linalg.lstsq takes on the CUDA backend
        ga, gb = gp.asarray(a).astype(wdt), gp.asarray(b).astype(wdt)
        eps = np.finfo(np.float64 if ON_CPU and path == "native" else ga.real.dtype).eps
        x, *rest = _svd.lstsq_svd(ga, gb if b.ndim == 2 else gb[:, None],
                                  eps * max(a.shape) if rcond is None else rcond)
        results.append((x if b.ndim == 2 else x[:, 0], *rest))
        for r in results:
            _same(r[0], e[0], wdt, 10)
            _same(r[1], e[1], wdt, 10)
            assert int(r[2]) == e[2] and r[2].dtype == np.int32
            _same(r[3], e[3], wdt, 10)


def test_lstsq_errors():
    _raises_like("lstsq", np.ones((3, 2)), np.ones(4))
    _raises_like("lstsq", np.ones((2, 3, 2)), np.ones((2, 3)))
    _raises_like("lstsq", np.array([[1.0, np.nan], [0.0, 1.0]]), np.ones(2))
    _raises_like("lstsq", np.eye(2, dtype=np.float16), np.ones(2))
    with pytest.raises(LinAlgError, match="Linear Least Squares"):
        _svd.lstsq_svd(gp.asarray([[1.0, np.nan], [0.0, 1.0]]), gp.ones((2, 1)), 1e-15)


# ------------------------------------------------------------------ built on the above

def test_tensor_solve_inv_and_negative_powers(path):
    rng = np.random.default_rng(11)
    a = rng.standard_normal((6, 2, 3)) + 3 * np.eye(6).reshape(6, 2, 3)
    b = rng.standard_normal(6)
    _same(gp.linalg.tensorsolve(gp.asarray(a), gp.asarray(b)), np.linalg.tensorsolve(a, b))
    a2 = rng.standard_normal((2, 3, 4, 6, 4)) + 4 * np.eye(24).reshape(2, 3, 4, 6, 4)
    b2 = rng.standard_normal((6, 4))
    _same(gp.linalg.tensorsolve(gp.asarray(a2), gp.asarray(b2), axes=(0, 1, 2)),
          np.linalg.tensorsolve(a2, b2, axes=(0, 1, 2)))
    a3 = rng.standard_normal((3, 4, 12))
    _same(gp.linalg.tensorinv(gp.asarray(a3), ind=2), np.linalg.tensorinv(a3, ind=2))
    _same(gp.linalg.tensorinv(gp.asarray(a3.reshape(12, 3, 4)), ind=1),
          np.linalg.tensorinv(a3.reshape(12, 3, 4), ind=1))
    with pytest.raises(LinAlgError):
        gp.linalg.tensorsolve(gp.ones((2, 3)), gp.ones(2))
    with pytest.raises(ValueError, match="Invalid ind"):
        gp.linalg.tensorinv(gp.ones((2, 2)), ind=0)
    m = rng.standard_normal((2, 3, 3)) + 2 * np.eye(3)
    _same(gp.linalg.matrix_power(gp.asarray(m), -3), np.linalg.matrix_power(m, -3))


def test_dispatch_and_namespace():
    a = _wellcond((3, 3), np.float64)
    _same(np.linalg.inv(gp.asarray(a)), np.linalg.inv(a))       # __array_function__
    _same(np.linalg.svd(gp.asarray(a), compute_uv=False), np.linalg.svd(a, compute_uv=False))
    assert gp.linalg.LinAlgError is np.linalg.LinAlgError
    assert set(np.linalg.__all__) <= set(gp.linalg.__all__)
    for name in gp.linalg.__all__:
        assert "(CPU backend" not in (getattr(gp.linalg, name).__doc__ or ""), name


# ------------------------------------------------------------------ cuSOLVER layouts

def test_stack_strides_and_svd_plan():
    assert _cusolver.stack_strides((2, 3, 4), False) == (12, 4, 1)
    assert _cusolver.stack_strides((2, 3, 4), True) == (12, 1, 3)
    assert _cusolver.stack_strides((3, 4), True) == (1, 3)
    p = _cusolver_svd.svd_plan(5, 3, True)        # tall, full: gesvd of A, U 5 x 5, V^H 3 x 3
    assert (p["routine"], p["flip"], p["rows"], p["cols"], p["ucols"]) == \
        ("gesvd", False, 5, 3, 5)
    assert p["u"] == ((5, 5), True) and p["vh"] == ((3, 3), True)
    p = _cusolver_svd.svd_plan(5, 3, False)       # tall, reduced: gesvdp's V read row-major
    assert (p["routine"], p["ucols"], p["u"], p["vh"]) == \
        ("gesvdp", 3, ((5, 3), True), ((3, 3), False))
    for dt in (np.float32, np.complex64, np.complex128):      # gesvd: see svd_plan
        assert _cusolver_svd.svd_plan(5, 3, False, dtype=dt)["routine"] == "gesvd"
    p = _cusolver_svd.svd_plan(5, 3, True, uv=False)    # values only: gesvdp
    assert p["routine"] == "gesvdp" and p["ucols"] == 3
    p = _cusolver_svd.svd_plan(3, 3, True, batch=2)     # a stack of small matrices
    assert p["routine"] == "gesvdj_batched"
    p = _cusolver_svd.svd_plan(33, 3, True, batch=2)    # a stack of larger ones: gesvd
    assert p["routine"] == "gesvd"
    p = _cusolver_svd.svd_plan(3, 5, False, batch=2)    # gesvdj_batched's U is 5 x 5
    assert (p["routine"], p["ucols"], p["u_from"], p["u"]) == \
        ("gesvdj_batched", 3, "vt", ((3, 3), True))
    p = _cusolver_svd.svd_plan(4, 4, True)        # square, full = reduced: gesvdp
    assert p["routine"] == "gesvdp" and p["ucols"] == 4
    p = _cusolver_svd.svd_plan(3, 5, True)        # wide, full: gesvd of A^T, the buffers swap
    assert (p["routine"], p["flip"], p["rows"], p["cols"], p["ucols"], p["u_from"]) == \
        ("gesvd", True, 5, 3, 5, "vt")
    assert p["u"] == ((3, 3), False) and p["vh"] == ((5, 5), False)
    p = _cusolver_svd.svd_plan(3, 5, False)       # wide, reduced: gesvdp's V' read Fortran
    assert (p["routine"], p["flip"], p["ucols"], p["u_from"]) == ("gesvdp", True, 3, "vt")
    assert p["u"] == ((3, 3), True) and p["vh"] == ((3, 5), False)


def test_gesvdp_leaves_doubtful_answers_to_gesvd():
    """gesvdp answers a well-conditioned matrix alone; gesvd decides where it failed (NaN
    input) or its smallest singular value is near the rank cutoff (on an H100 gesvdp's
    few-eps error turned a rank-2 5 x 3 matrix into rank 3)."""
    if not ON_CPU:
        pytest.skip("CPU backend only")
    rng = np.random.default_rng(3)
    deficient = rng.standard_normal((5, 3))
    deficient[:, 2] = 2 * deficient[:, 0]
    cases = [(rng.standard_normal((6, 3)), ["xgesvdp"]),
             (deficient, ["xgesvdp", "xgesvd"]),
             (np.array([[1.0, np.nan], [0.0, 1.0]]), ["xgesvdp", "xgesvd"])]
    for a, routines in cases:
        with cusolver_host.emulated() as cus:
            try:
                got = gp.linalg.svd(gp.asarray(a), compute_uv=False).get()
            except np.linalg.LinAlgError:
                got = None
        assert [c for c in cus.calls if not c.endswith("_size")] == routines
        if got is None:
            with pytest.raises(np.linalg.LinAlgError):
                np.linalg.svd(a, compute_uv=False)
        else:
            np.testing.assert_allclose(got, np.linalg.svd(a, compute_uv=False), atol=1e-12)
    with cusolver_host.emulated():
        assert int(gp.linalg.matrix_rank(gp.asarray(deficient))) == 2


def test_emulation_reaches_cusolver():
    """The emulated path really runs _cusolver's calls (a guard on the harness)."""
    if not ON_CPU:
        pytest.skip("CPU backend only")
    with cusolver_host.emulated() as cus:
        gp.linalg.solve(gp.eye(3), gp.ones(3))
        gp.linalg.svd(gp.ones((2, 3)))
        gp.linalg.eigh(gp.ones((3, 2, 2)))
        gp.linalg.qr(gp.ones((4, 2)), mode="complete")
        gp.linalg.svd(gp.ones((2, 3)), full_matrices=False)     # gesvdp
        gp.linalg.svd(gp.arange(12.0).reshape(2, 2, 3) ** 2)   # gesvdj_batched
    assert {"xgetrf", "xgetrs", "xgesvdp", "xgesvd", "dgesvdj_batched", "xsyev_batched",
            "xgeqrf", "dorgqr"} <= set(cus.calls)


def test_small_kernel_routing():
    """Which CUDA calls take the small LU/Cholesky kernels (``linalg/_small.fits``): orders
    up to the dtype's bound and ``linalg_small_n``; a single matrix past order 32 with
    right-hand sides a thread each, and a few matrices of very many columns, go to
    cuSOLVER.  The QR kernel (``fits_qr``): both sides within the bound, a single matrix
    only up to 32 rows and columns."""
    from types import SimpleNamespace
    from gnumpy.linalg import _small

    def m(shape, dt=np.float64):
        return SimpleNamespace(shape=shape, dtype=np.dtype(dt))
    assert _small.fits(m((64, 64))) and not _small.fits(m((65, 65)))
    assert _small.fits(m((54, 54), np.complex64)) and not _small.fits(m((55, 55), np.complex128))
    assert _small.fits(m((1000, 4, 4)), 1) and _small.fits(m((3, 3)), 3)
    assert not _small.fits(m((50, 50), np.complex128), 150)       # cuSOLVER measured faster
    assert _small.fits(m((2, 50, 50), np.complex128), 150)        # a stack: one launch
    assert _small.fits(m((64, 64)), 1)                            # a warp a column
    assert not _small.fits(m((8, 8)), 5000) and _small.fits(m((500, 8, 8)), 5000)
    assert not _small.fits(m((0, 0)))
    assert _small.fits_qr(m((100, 64, 64))) and not _small.fits_qr(m((100, 65, 64)))
    assert _small.fits_qr(m((2, 54, 10), np.complex64))
    assert not _small.fits_qr(m((2, 10, 55), np.complex128))
    assert _small.fits_qr(m((32, 32))) and _small.fits_qr(m((32, 3)))
    assert not _small.fits_qr(m((33, 33))) and not _small.fits_qr(m((3, 40)))  # cuSOLVER
    assert not _small.fits_qr(m((5, 0, 3)))
    with gp.config.override(linalg_small_n=0):
        assert not _small.fits(m((3, 3))) and not _small.fits_qr(m((9, 3, 3)))
