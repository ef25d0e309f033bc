"""gnumpy.linalg against numpy.linalg: the functions built from gnumpy ops on every backend;
the factorizations on the CPU backend, and NotImplementedError at the call on CUDA."""
import math

import numpy as np
import pytest

import gnumpy as gp
from helpers import sample

ON_CPU = gp.asarray(0).device.kind == "cpu"
DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def _data(shape, dtype, seed=0):
    return sample(dtype, shape, np.random.default_rng(seed), special=False)


def _tol(dtype):
    return 2e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10


def _same(r, e, dtype=np.float64):
    if isinstance(e, tuple):
        assert type(r).__name__ == type(e).__name__ or isinstance(r, tuple)
        for a, b in zip(r, e):
            _same(a, b, dtype)
        return
    if not isinstance(e, (np.ndarray, np.generic)):
        assert r == e
        return
    assert isinstance(r, gp.ndarray)
    h = r.get()
    e = np.asarray(e)
    assert h.shape == e.shape and h.dtype == e.dtype, (h.shape, e.shape, h.dtype, e.dtype)
    np.testing.assert_allclose(h, e, rtol=_tol(dtype), atol=_tol(dtype))


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
    with pytest.raises(np.linalg.LinAlgError):
        gp.linalg.matrix_power(gp.asarray(a), 2)


def _spd(n, dtype, batch=()):
    a = _data(batch + (n, n), dtype, 3)
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dtype)


FACTORIZATIONS = [
    ("cholesky", lambda d: (_spd(4, d, (2,)),), {}),
    ("cholesky", lambda d: (_spd(3, d),), {"upper": True}),
    ("qr", lambda d: (_data((5, 3), d),), {}),
    ("qr", lambda d: (_data((2, 5, 3), d),), {"mode": "complete"}),
    ("svd", lambda d: (_data((4, 3), d),), {"full_matrices": False}),
    ("svdvals", lambda d: (_data((2, 4, 3), d),), {}),
    ("eigh", lambda d: (_spd(4, d),), {}),
    ("eigvalsh", lambda d: (_spd(4, d, (3,)),), {"UPLO": "U"}),
    ("eigvals", lambda d: (_spd(3, d),), {}),
    ("solve", lambda d: (_spd(4, d), _data((4, 2), d)), {}),
    ("inv", lambda d: (_spd(3, d, (2,)),), {}),
    ("pinv", lambda d: (_data((4, 3), d),), {}),
    ("det", lambda d: (_data((3, 3), d),), {}),
    ("slogdet", lambda d: (_data((2, 3, 3), d),), {}),
    ("matrix_rank", lambda d: (_data((4, 3), d),), {}),
    ("lstsq", lambda d: (_data((5, 3), d), _data((5, 2), d)), {"rcond": None}),
    ("cond", lambda d: (_spd(3, d),), {}),
]


DEVICE_FACTORS = ("cholesky", "solve", "inv", "det", "slogdet", "eigh", "eigvalsh", "svdvals", "qr", "svd",
                  "pinv", "matrix_rank", "lstsq", "cond")


@pytest.mark.parametrize("name,make,kw", FACTORIZATIONS,
                         ids=[f"{f[0]}-{i}" for i, f in enumerate(FACTORIZATIONS)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_factorizations(name, make, kw, dtype):
    args = make(dtype)
    f = getattr(gp.linalg, name)
    if not ON_CPU and name not in DEVICE_FACTORS:
        with pytest.raises(NotImplementedError, match="CUDA backend"):
            f(*[gp.asarray(a) for a in args], **kw)
        return
    r = f(*[gp.asarray(a) for a in args], **kw)
    e = getattr(np.linalg, name if name != "svdvals" else "svd")(
        *args, **(kw if name != "svdvals" else {"compute_uv": False}))
    if name in ("qr", "svd", "eigh"):        # factors are unique up to signs: compare
        e_parts, r_parts = tuple(e), tuple(r)   # the products and the invariant parts
        assert [type(p) for p in r_parts] == [gp.ndarray] * len(e_parts)
        if name == "qr":
            q, rr = (p.get() for p in r_parts)
            np.testing.assert_allclose(q @ rr, args[0], rtol=_tol(dtype), atol=_tol(dtype))
            assert q.dtype == e_parts[0].dtype and rr.shape == e_parts[1].shape
        elif name == "svd":
            u, s, vh = (p.get() for p in r_parts)
            _same(r.S, e.S, dtype)
            np.testing.assert_allclose((u * s) @ vh, args[0], rtol=_tol(dtype) * 10,
                                       atol=_tol(dtype) * 10)
        else:
            _same(r.eigenvalues, e.eigenvalues, dtype)
        assert type(r).__name__ == type(e).__name__
        return
    if name == "eigvals":
        r = np.sort_complex(r.get())
        np.testing.assert_allclose(r, np.sort_complex(e), rtol=_tol(dtype), atol=_tol(dtype))
        return
    _same(r, e, dtype)


def _raises_like(f, *args):
    """f(gp args) raises what f(np args) raises, with NumPy's message."""
    with pytest.raises(Exception) as e:
        getattr(np.linalg, f)(*args)
    with pytest.raises(type(e.value)) as g:
        getattr(gp.linalg, f)(*[gp.asarray(a) for a in args])
    assert str(g.value) == str(e.value)


def test_lu_family_errors():
    for args in ((np.zeros((3, 3)),), (np.ones((2, 3)),), (np.ones(3),),
                 (np.array([[1.0, 2.0], [2.0, 4.0]]),), (np.ones((2, 2), np.float16),)):
        _raises_like("inv", *args)
    _raises_like("cholesky", -np.eye(2))
    _raises_like("cholesky", np.array([[1.0, 2.0], [2.0, 1.0]]))
    _raises_like("solve", np.ones((2, 3)), np.ones(2))
    _raises_like("solve", np.eye(2), np.ones(3))
    _raises_like("solve", np.eye(2)[None].repeat(3, 0), np.ones((3, 2)))
    _raises_like("solve", np.zeros((2, 2)), np.ones(2))
    _raises_like("det", np.ones(3))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128,
                                   np.int64])
def test_lu_family_pivoting_batches_and_views(dtype):
    rng = np.random.default_rng(5)
    perm = np.array([[0.0, 1, 0, 0], [0, 0, 0, 2], [3, 0, 0, 0], [0, 0, 4, 0]])  # needs swaps
    mats = [perm, _data((4, 4), dtype, 1), np.triu(_data((4, 4), dtype, 2)) + 4 * np.eye(4)]
    for a in mats:
        a = a.astype(dtype)
        for name in ("det", "inv"):
            _same(getattr(gp.linalg, name)(gp.asarray(a)), getattr(np.linalg, name)(a), dtype)
        _same(gp.linalg.slogdet(gp.asarray(a)), np.linalg.slogdet(a), dtype)
    a = (rng.standard_normal((2, 1, 3, 3)) * 3).astype(dtype)
    b = (rng.standard_normal((4, 3, 2)) * 3).astype(dtype)
    _same(gp.linalg.solve(gp.asarray(a), gp.asarray(b)), np.linalg.solve(a, b), dtype)
    v = (rng.standard_normal(3) * 3).astype(dtype)
    _same(gp.linalg.solve(gp.asarray(a), gp.asarray(v)), np.linalg.solve(a, v), dtype)
    t = np.swapaxes(a, -1, -2)                          # non-contiguous views
    _same(gp.linalg.det(gp.swapaxes(gp.asarray(a), -1, -2)), np.linalg.det(t), dtype)
    _same(gp.linalg.inv(gp.swapaxes(gp.asarray(a), -1, -2)), np.linalg.inv(t), dtype)


def test_lu_family_singular_and_empty():
    s = np.array([[1.0, 2.0], [2.0, 4.0]])
    _same(gp.linalg.det(gp.asarray(s)), np.linalg.det(s))
    _same(gp.linalg.slogdet(gp.asarray(np.zeros((2, 2)))), np.linalg.slogdet(np.zeros((2, 2))))
    for name in ("det", "inv"):
        e = np.zeros((3, 0, 0))
        _same(getattr(gp.linalg, name)(gp.asarray(e)), getattr(np.linalg, name)(e))
    _same(gp.linalg.slogdet(gp.asarray(np.zeros((0, 0)))), np.linalg.slogdet(np.zeros((0, 0))))
    _same(gp.linalg.solve(gp.asarray(np.zeros((0, 0))), gp.asarray(np.zeros(0))),
          np.linalg.solve(np.zeros((0, 0)), np.zeros(0)))
    _same(gp.linalg.cholesky(gp.asarray(np.zeros((2, 0, 0)))),
          np.linalg.cholesky(np.zeros((2, 0, 0))))
    for a in ([[np.nan, 0.0], [0.0, 1.0]], [[1.0, 0.0], [np.nan, 1.0]], [[np.inf, 0], [0, 1]]):
        a = np.array(a)                            # NaN propagates, no LinAlgError
        _same(gp.linalg.cholesky(gp.asarray(a)), np.linalg.cholesky(a))


def test_tensor_solve_inv_and_negative_powers():
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
    with pytest.raises(np.linalg.LinAlgError):
        gp.linalg.tensorsolve(gp.ones((2, 3)), gp.ones(2))
    with pytest.raises(ValueError, match="Invalid ind"):
        gp.linalg.tensorinv(gp.ones((2, 2)), ind=0)
    m = rng.standard_normal((2, 3, 3)) + 2 * np.eye(3)
    _same(gp.linalg.matrix_power(gp.asarray(m), -3), np.linalg.matrix_power(m, -3))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128,
                                   np.int32])
@pytest.mark.parametrize("n", [1, 2, 5, 16])
def test_eigh(dtype, n):
    rng = np.random.default_rng(n)
    x = _data((3, n, n), dtype, n)
    junk = np.triu(np.full((n, n), 9), 1).astype(dtype)          # the ignored triangle
    for uplo, a in (("L", x + junk), ("U", x + junk.T)):
        w, v = gp.linalg.eigh(gp.asarray(a), UPLO=uplo)
        e = np.linalg.eigh(a, UPLO=uplo)
        _same(w, e.eigenvalues, dtype)
        assert v.dtype == e.eigenvectors.dtype and v.shape == e.eigenvectors.shape
        h = np.linalg.eigh(a, UPLO=uplo).eigenvectors @ (e.eigenvalues[..., None] *
                                                          np.conj(np.swapaxes(
                                                              e.eigenvectors, -1, -2)))
        vv, ww = v.get(), w.get()
        tol = _tol(dtype) * 10 * max(1.0, float(np.abs(h).max()))
        np.testing.assert_allclose(vv @ (ww[..., None] * np.conj(np.swapaxes(vv, -1, -2))),
                                   h, atol=tol)                     # V diag(w) V^H = A
        np.testing.assert_allclose(np.conj(np.swapaxes(vv, -1, -2)) @ vv,
                                   np.broadcast_to(np.eye(n), vv.shape), atol=_tol(dtype) * 10)
        _same(gp.linalg.eigvalsh(gp.asarray(a), UPLO=uplo), e.eigenvalues, dtype)
    del rng


def test_eigh_edge_cases():
    for a in (np.zeros((3, 3)), np.eye(4) * 1e200, np.diag([1e-300, 2e-300, -1e-300]),
              np.array([[1.0, np.nan], [np.nan, 2.0]]), np.zeros((2, 0, 0)),
              np.array([[2.0, 1.0], [1.0, 2.0]]), np.ones((5, 5))):
        w, v = gp.linalg.eigh(gp.asarray(a))
        e = np.linalg.eigh(a)
        _same(w, e.eigenvalues)
        assert v.shape == e.eigenvectors.shape
    with pytest.raises(ValueError, match="UPLO"):
        gp.linalg.eigh(gp.eye(2), UPLO="X")
    _raises_like("eigh", np.ones((2, 3)))
    _raises_like("eigvalsh", np.ones(3))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 6, 2), (1, 1), (7, 1)])
def test_svd_family(dtype, shape):
    a = _data(shape, dtype, sum(shape))
    deficient = a.copy()
    if min(shape[-2:]) > 1:
        deficient[..., -1] = deficient[..., 0] * 2              # rank-deficient
    for x in (a, deficient):
        g = gp.asarray(x)
        _same(gp.linalg.svdvals(g), np.linalg.svd(x, compute_uv=False), dtype)
        _same(gp.linalg.svd(g, compute_uv=False), np.linalg.svd(x, compute_uv=False), dtype)
        _same(gp.linalg.matrix_rank(g), np.linalg.matrix_rank(x))
        _same(gp.linalg.matrix_rank(g, rtol=1e-3), np.linalg.matrix_rank(x, rtol=1e-3))
        _same(gp.linalg.pinv(g), np.linalg.pinv(x), dtype)
        _same(gp.linalg.pinv(g, rtol=None), np.linalg.pinv(x, rtol=None), dtype)
        _same(gp.linalg.pinv(g, rcond=0.3), np.linalg.pinv(x, rcond=0.3), dtype)
        for p in (None, 2, -2):
            if x is a:                      # a deficient matrix's s_min is rounding noise
                _same(gp.linalg.cond(g, p), np.linalg.cond(x, p), dtype)
            elif min(shape[-2:]) > 1:
                assert np.array_equal(gp.linalg.cond(g, p).get() > 1e5,
                                      np.linalg.cond(x, p) > 1e5)
        if x.ndim == 2:
            for o in (2, -2, "nuc"):
                _same(gp.linalg.norm(g, o), np.linalg.norm(x, o), dtype)
                _same(gp.linalg.matrix_norm(g, ord=o, keepdims=True),
                      np.linalg.matrix_norm(x, ord=o, keepdims=True), dtype)
            for b in (_data((x.shape[0],), dtype, 1), _data((x.shape[0], 2), dtype, 2)):
                r, e = gp.linalg.lstsq(g, gp.asarray(b)), np.linalg.lstsq(x, b)
                _same(r[0], e[0], dtype)
                _same(r[1], e[1], dtype)
                assert int(r[2]) == e[2]
                _same(r[3], e[3], dtype)
    h = _spd(4, dtype)
    _same(gp.linalg.pinv(gp.asarray(h), hermitian=True), np.linalg.pinv(h, hermitian=True),
          dtype)
    _same(gp.linalg.matrix_rank(gp.asarray(h), hermitian=True),
          np.linalg.matrix_rank(h, hermitian=True))


def test_svd_family_edges():
    s = np.array([[1.0, 2.0], [2.0, 4.0]])
    for p in (1, "fro", np.inf):
        _same(gp.linalg.cond(gp.asarray(s), p), np.linalg.cond(s, p))    # singular: inf
    nan = np.array([[1.0, np.nan], [0.0, 1.0]])
    _same(gp.linalg.cond(gp.asarray(nan), 1), np.linalg.cond(nan, 1))
    for f, args in (("cond", (nan,)), ("svdvals", (nan,)), ("pinv", (nan,)),
                    ("lstsq", (nan, np.ones(2))), ("matrix_rank", (nan,))):
        _raises_like(f, *args)
    _same(gp.linalg.pinv(gp.asarray(np.zeros((2, 0, 3)))), np.linalg.pinv(np.zeros((2, 0, 3))))
    _same(gp.linalg.svdvals(gp.asarray(np.zeros((3, 3)))), np.linalg.svdvals(np.zeros((3, 3))))
    assert gp.linalg.matrix_rank(gp.asarray([0.0, 1.0])) == np.linalg.matrix_rank([0.0, 1.0])
    with pytest.raises(ValueError, match="both set"):
        gp.linalg.pinv(gp.eye(2), rcond=0.1, rtol=0.1)
    _raises_like("cond", np.zeros((0, 0)))
    _raises_like("lstsq", np.ones((3, 2)), np.ones(4))
    _raises_like("lstsq", np.ones((2, 3, 2)), np.ones((2, 3)))
    x = np.ones((0, 3))
    r, e = gp.linalg.lstsq(gp.asarray(x), gp.asarray(np.ones((0, 2)))), np.linalg.lstsq(
        x, np.ones((0, 2)))
    _same(r[0], e[0])
    assert int(r[2]) == e[2]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_cholesky_reads_the_lower_triangle(dtype):
    a = _spd(4, dtype, (2,))
    junk = a + np.triu(np.full((4, 4), 7.0), 1).astype(dtype)      # upper ignored, as LAPACK
    _same(gp.linalg.cholesky(gp.asarray(junk)), np.linalg.cholesky(junk), dtype)
    _same(gp.linalg.cholesky(gp.asarray(junk), upper=True), np.linalg.cholesky(junk, upper=True),
          dtype)


@pytest.mark.skipif(not ON_CPU, reason="the other factorizations run on the CPU backend only")
def test_factorization_errors_and_dispatch():
    a = _data((3, 3), np.float64)
    _same(np.linalg.inv(gp.asarray(a)), np.linalg.inv(a))       # through __array_function__
    _same(gp.linalg.matrix_power(gp.asarray(a), -2), np.linalg.matrix_power(a, -2))
    _same(gp.linalg.matrix_norm(gp.asarray(a), ord="nuc"), np.linalg.matrix_norm(a, ord="nuc"))
    _same(gp.linalg.norm(gp.asarray(a), ord=2), np.linalg.norm(a, ord=2))
    assert gp.linalg.LinAlgError is np.linalg.LinAlgError


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128,
                                   np.int64])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 6, 2), (1, 1), (0, 3), (3, 0)])
def test_qr_modes_match_lapack(dtype, shape):
    """Householder with LAPACK's reflector conventions: NumPy's Q, R, h and tau exactly
    (to rounding), signs included."""
    a = _data(shape, dtype, 4)
    g = gp.asarray(a)
    for mode in ("reduced", "complete", "r", "raw"):
        r, e = gp.linalg.qr(g, mode=mode), np.linalg.qr(a, mode=mode)
        if mode == "r":
            _same(r, e, dtype)
        else:
            for x, y in zip(r, e):
                _same(x, y, dtype)
        if mode in ("reduced", "complete"):
            assert type(r).__name__ == "QRResult"
    with pytest.warns(DeprecationWarning):
        _same(gp.linalg.qr(g, mode="full")[0], np.linalg.qr(a)[0], dtype)
    with pytest.raises(ValueError, match="Unrecognized mode"):
        gp.linalg.qr(g, mode="bogus")
    _raises_like("qr", np.ones(3))
    h = np.array([[0.0, 1.0], [0.0, 2.0], [0.0, 0.0]])       # a zero column: tau = 0
    for x, y in zip(gp.linalg.qr(gp.asarray(h), mode="raw"), np.linalg.qr(h, mode="raw")):
        _same(x, y)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 6, 3), (1, 1), (0, 3), (3, 0),
                                   (7, 4)])
@pytest.mark.parametrize("full", [True, False])
def test_svd_factors(dtype, shape, full):
    a = _data(shape, dtype, 6)
    if shape == (7, 4):
        a[:, 3] = a[:, 0] * 2                                 # a zero singular value
    u, s, vh = gp.linalg.svd(gp.asarray(a), full_matrices=full)
    eu, es, evh = np.linalg.svd(a, full_matrices=full)
    for g, e in ((u, eu), (s, es), (vh, evh)):
        assert g.shape == e.shape and g.dtype == e.dtype, (g.shape, e.shape)
    _same(s, es, dtype)
    uh, sh, vhh = u.get(), s.get(), vh.get()
    k = sh.shape[-1]
    tol = _tol(dtype) * 10
    np.testing.assert_allclose((uh[..., :k] * sh[..., None, :]) @ vhh[..., :k, :], a,
                               atol=tol * max(1.0, float(np.abs(a).max(initial=0))))
    for m in (uh, np.conj(np.swapaxes(vhh, -1, -2))):        # orthonormal columns
        np.testing.assert_allclose(np.conj(np.swapaxes(m, -1, -2)) @ m,
                                   np.broadcast_to(np.eye(m.shape[-1]),
                                                   m.shape[:-2] + (m.shape[-1],) * 2),
                                   atol=tol)


def test_svd_hermitian():
    h = _spd(4, np.complex128) - 3 * np.eye(4)                # eigenvalues of both signs
    u, s, vh = gp.linalg.svd(gp.asarray(h), hermitian=True)
    e = np.linalg.svd(h, hermitian=True)
    _same(s, e.S)                       # the vectors are unique up to phase: the product
    np.testing.assert_allclose((u.get() * s.get()) @ vh.get(), h, atol=1e-10)
    assert u.dtype == e.U.dtype and vh.shape == e.Vh.shape
