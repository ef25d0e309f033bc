"""matvec, vecmat and N-d dot against NumPy: dtypes, broadcasting of the batch axes,
non-contiguous operands, out=, and NumPy's error messages."""
import numpy as np
import pytest

import gnumpy as gp
from gnumpy._graph import ir
from helpers import check, sample
from test_fast_path import fake  # noqa: F401 - the fake CUDA backend fixture

DTYPES = [np.int32, np.float32, np.float64, np.complex64, np.complex128]


def _pair(dtype, shape, seed):
    a = sample(dtype, shape, np.random.default_rng(seed), special=False)
    return a, gp.asarray(a)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("sa,sb", [((3, 4), (4,)), ((2, 3, 4), (4,)), ((3, 4), (5, 4)),
                                   ((1, 3, 4), (2, 1, 4)), ((0, 4), (4,)), ((3, 0), (0,))])
def test_matvec_vecmat(dtype, sa, sb):
    a, ga = _pair(dtype, sa, 1)
    b, gb = _pair(dtype, sb, 2)
    # a sum of products: the table's tolerance of the dtype, scaled by the terms' size
    sc = float(np.abs(a).max(initial=0)) * float(np.abs(b).max(initial=0)) * sa[-1]
    check(gp.matvec(ga, gb), np.matvec(a, b), scale=sc)
    at = np.swapaxes(a, -1, -2)                      # (..., n, m): a non-contiguous view
    gat = gp.swapaxes(ga, -1, -2)
    check(gp.vecmat(gb, gat), np.vecmat(b, at), scale=sc)


def test_vecmat_conjugates_and_out_dtype():
    a = np.array([1 + 2j, 3 - 1j])
    m = np.arange(6).reshape(2, 3) + 1j
    check(gp.vecmat(gp.asarray(a), gp.asarray(m)), np.vecmat(a, m))
    check(gp.matvec(gp.asarray(m.T), gp.asarray(a)), np.matvec(m.T, a))   # no conjugate
    out = gp.zeros(3, dtype=np.complex128)
    r = gp.vecmat(gp.asarray(a), gp.asarray(m), out=out)
    assert r is out
    check(out, np.vecmat(a, m))
    check(gp.matvec(gp.ones((2, 3), dtype=np.int32), gp.ones(3, dtype=np.int32),
                    dtype=np.float32), np.matvec(np.ones((2, 3), np.int32),
                                                 np.ones(3, np.int32), dtype=np.float32))


def test_matvec_vecmat_errors():
    for f in ("matvec", "vecmat"):
        for x, y in (((2, 3), (4,)), ((3,), (3,)), ((), (2, 2))):
            if f == "vecmat":
                x, y = y, x
            with pytest.raises(ValueError) as e:
                getattr(np, f)(np.ones(x), np.ones(y))
            with pytest.raises(ValueError) as g:
                getattr(gp, f)(gp.ones(x), gp.ones(y))
            assert str(g.value) == str(e.value)


@pytest.mark.parametrize("sa,sb", [((2, 3, 4), (4,)), ((2, 3, 4), (5, 4, 6)), ((4,), (2, 4, 3)),
                                   ((3, 4), (2, 4, 5)), ((2, 1, 3), (3, 2))])
def test_dot_nd(sa, sb):
    a, ga = _pair(np.float64, sa, 3)
    b, gb = _pair(np.float64, sb, 4)
    check(gp.dot(ga, gb), np.dot(a, b))
    check(gp.dot(ga[..., ::-1], gb), np.dot(a[..., ::-1], b))


def test_dot_nd_errors_and_out():
    for x, y in (((2, 3, 4), (5, 3)), ((2, 3, 4), (5,))):
        with pytest.raises(ValueError) as e:
            np.dot(np.ones(x), np.ones(y))
        with pytest.raises(ValueError) as g:
            gp.dot(gp.ones(x), gp.ones(y))
        assert str(g.value) == str(e.value)
    out = gp.zeros((2, 3, 5))
    assert gp.dot(gp.ones((2, 3, 4)), gp.ones(((4, 5))), out=out) is out
    check(out, np.full((2, 3, 5), 4.0))


def test_small_matmul_is_a_fused_reduction():
    """Products of small blocks (NPBench's scattering: 3x3 blocks in a loop) are fused with
    their operands and consumer, no library call; larger ones call the library.  Values
    are NumPy's either way (single precision accumulates in double)."""
    from gnumpy._api.products.matmul import SMALL_MATMUL
    rng = np.random.default_rng(5)
    for dt in (np.float32, np.float64, np.complex64, np.int64):
        a = (rng.standard_normal((4, 3, 3)) * 4).astype(dt)
        b = (rng.standard_normal((3, 3)) * 4).astype(dt)
        c = (rng.standard_normal((3, 3)) * 4).astype(dt)
        ga, gb, gc = gp.asarray(a), gp.asarray(b), gp.asarray(c)
        gp.evaluate(ga, gb, gc)
        gp.stats.reset()
        r = (ga[1] @ gb) @ (gc * gb)
        e = (a[1] @ b) @ (c * b)
        check(r, e, rtol=1e-5 if dt in (np.float32, np.complex64) else None)
        assert gp.stats.by_kind["barrier"] == 0, gp.stats.by_kind
        check(ga @ gb, a @ b, rtol=1e-5 if dt in (np.float32, np.complex64) else None)
        # lazy operands of a batch: columns and rows taken as views of the expressions,
        # the shorter operand's reshaped to the batch and broadcast
        tol = 1e-5 if dt in (np.float32, np.complex64) else None
        check((ga * 2) @ (gb - gc), (a * 2) @ (b - c), rtol=tol)
        check((gb - gc) @ (ga * 2), (b - c) @ (a * 2), rtol=tol)
        check((ga - 1)[:, None] @ (ga * gb), (a - 1)[:, None] @ (a * b), rtol=tol)
    n = int(round((2 * SMALL_MATMUL) ** (1 / 3))) + 1      # past the bound: the library
    a = rng.standard_normal((n, n))
    gp.stats.reset()
    check(gp.asarray(a) @ gp.asarray(a), a @ a)
    assert gp.stats.by_kind["barrier"] == 1


@pytest.mark.parametrize("k", [1, 3, 4, 5])
def test_products_of_few_terms_are_elementwise(fake, k):
    """A product over at most UNROLL_K terms is elementwise: NPBench's scattering statement,
    ``Sigma[i] += (G[j] @ dH) @ (dH * d)`` with 3x3 blocks, is one kernel with its write on
    CUDA (a product over more terms is a reduction: more kernels).  Values and signed zeros
    are NumPy's (real inputs as complex: imaginary parts that are sums of -0 products)."""
    from gnumpy._api.products.matmul import UNROLL_K
    from gnumpy._graph import realize
    dev, be = fake
    rng = np.random.default_rng(k)
    for dt in (np.complex128, np.float64):
        G = rng.standard_normal((3, 3, k)).astype(dt)
        dH = rng.standard_normal((k, k)).astype(dt)
        dH[0, 0] = -0.0
        S = np.zeros((2, 3, k), dt)
        gG, gH, gS = (gp.asarray(x, device=dev) for x in (G, dH, S))
        gp.evaluate(gG, gH, gS)
        realize.settle()
        be.launches.clear()
        gS[1] += (gG[2] @ gH) @ (gH * -0.5)
        gp.evaluate(gS)
        realize.settle()
        if k <= 3:                  # (scattering's blocks)
            assert len(be.launches) == 1, (k, len(be.launches))
        if k > UNROLL_K:
            assert len(be.launches) > 1, (k, len(be.launches))
    for dt in (np.complex64, np.float32, np.int64):     # values, on the default device
        a = (rng.standard_normal((2, 4, k)) * 3).astype(dt)
        b = (rng.standard_normal((k, 3)) * 3).astype(dt)
        ga, gb = gp.asarray(a), gp.asarray(b)
        tol = 1e-5 if dt in (np.float32, np.complex64) else None
        check(ga @ gb, a @ b, rtol=tol)
        check((ga[1] @ gb) @ (gb.T * 2), (a[1] @ b) @ (b.T * 2), rtol=tol)
        check(ga[:, ::-1].swapaxes(0, 1)[:, :, :k] @ gb, a[:, ::-1].swapaxes(0, 1) @ b,
              rtol=tol)
        check(gb.T[::-1] @ ga[1, ::-1].T, b.T[::-1] @ a[1, ::-1].T, rtol=tol)  # strided
    # past SMALL_MATMUL, few terms stay elementwise (stockham's butterfly, dft @ (R, N/R))
    a = rng.standard_normal((2, k)) + 1j * rng.standard_normal((2, k))
    b = rng.standard_normal((k, 40000)) + 1j * rng.standard_normal((k, 40000))
    gp.stats.reset()
    check(gp.asarray(a) @ gp.asarray(b), a @ b)
    assert gp.stats.by_kind["barrier"] == (0 if k <= 4 else 1)


def test_a_lazy_operand_read_by_fused_products_again_is_computed_once(fake):  # noqa: F811
    """A lazy array (no view) that a fused product reads a second time is materialized
    then (one launch), so a loop's later products read its memory and their graphs hold
    no copy of its expression (NPBench stockham's DFT matrix); one read once stays lazy."""
    from gnumpy._graph import realize
    dev, be = fake
    x = gp.asarray(np.arange(4.0).reshape(2, 2), device=dev)
    y = gp.asarray(np.arange(16.0).reshape(2, 8), device=dev)
    gp.evaluate(x, y)
    m = gp.exp(x * 0.5)
    once = gp.sin(x)
    z = once @ y
    assert once._node.kind != ir.LEAF and "sin" in str(_tree(z._node))
    z = m @ y
    assert m._node.kind != ir.LEAF and "exp" in str(_tree(z._node))
    realize.settle()
    be.launches.clear()
    for _ in range(3):
        z = m @ y
        assert m._node.kind == ir.LEAF and "exp" not in str(_tree(z._node))
    assert len(be.launches) == 1        # m's, at its second product
    mt = m.T                            # a view: read as it is
    assert (mt @ y)._node.kind != ir.LEAF


def test_lazy_operands_of_products_in_a_loop_keep_numpys_values():
    """Lazy operands read by fused products again and again (a matrix, a view of it, a
    stacked operand, the general path's int product): NumPy's values."""
    rng = np.random.default_rng(11)
    x, y = rng.standard_normal((2, 2)), rng.standard_normal((2, 6))
    s = rng.standard_normal((3, 2, 2))
    for xp in (gp, np):
        m, st = xp.exp(xp.asarray(x) * 0.5), xp.asarray(s) * 2.0
        ints = xp.arange(4).reshape(2, 2) * 3
        v = xp.asarray(y)
        out = []
        for _ in range(3):
            v = m @ v + m.T @ v
            out += [v, st @ st, ints @ ints, xp.asarray(x) @ m]
        if xp is gp:
            got = out
        else:
            for g, e in zip(got, out):
                check(g, e)


def _tree(n):
    """A node's structure (kinds, ops, dtypes, shapes, arguments), leaves by layout."""
    if n.kind == 0:
        return ("leaf", n.dtype, n.shape, n.strides, n.offset)
    return (n.kind, n.op, n.dtype, n.shape, n.arg, tuple(_tree(s) for s in n.srcs))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int32", "int64"])
@pytest.mark.parametrize("n", [0, 1, 7])
@pytest.mark.parametrize("func", ["dot", "matmul"])
def test_vector_dot_fast_path_is_the_general_node(dtype, n, func):
    """dot/matmul of two 1-D arrays of one dtype (a solver's inner step) builds, without
    the general checks, the node the general path builds; values are NumPy's, with
    strided views, NaN, inf and -0 among the inputs."""
    rng = np.random.default_rng(n)
    x = (rng.standard_normal(2 * n + 1) * 4).astype(dtype)
    y = (rng.standard_normal(n) * 4).astype(dtype)
    if n == 1 and x.dtype.kind in "fc":
        x[0] = np.nan
    elif n and x.dtype.kind == "f":     # (complex -0 and inf: BLAS's cdotu and a plain
        x[0], y[-1] = -0.0, np.inf      # multiply-and-sum differ in signs of zero and in
                                        # NaN/inf parts, on either path)
    a = gp.asarray(x)[::2][:n]          # a strided view
    b = gp.asarray(y)
    f = getattr(gp, func)
    fast = f(a, b)
    general = gp.matmul(a, b, dtype=np.dtype(dtype))    # (dtype= takes the general path)
    assert _tree(fast._node) == _tree(general._node)
    check(fast, getattr(np, func)(x[::2][:n], y))


def test_vector_dot_fast_path_leaves_other_cases():
    """Different lengths, dtypes or float16 go the general way (NumPy's error, promotion,
    float32 accumulation of float16)."""
    a = gp.asarray(np.arange(3.0))
    with pytest.raises(ValueError):
        gp.dot(a, gp.asarray(np.arange(4.0)))
    with pytest.raises(ValueError):
        gp.matmul(a, gp.asarray(np.arange(4.0)))
    check(gp.dot(a, gp.asarray(np.arange(3, dtype=np.int32))),
          np.dot(np.arange(3.0), np.arange(3, dtype=np.int32)))
    h = np.linspace(-2, 2, 9).astype(np.float16)
    check(gp.dot(gp.asarray(h), gp.asarray(h[::-1].copy())), np.dot(h, h[::-1]))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "int32"])
@pytest.mark.parametrize("shapes", [((40, 50), (50, 30)), ((3, 4), (4, 5)), ((300, 2), (2, 80)),
                                    ((0, 7), (7, 9)), ((6, 0), (0, 4)), ((40, 50), (50,)),
                                    ((50,), (50, 30)), ((0, 3), (3,)), ((3,), (3, 0)),
                                    ((5, 0), (0,)), ((4, 40, 50), (4, 50, 30)),
                                    ((2, 3, 3, 4), (2, 3, 4, 5)), ((3, 0, 4), (3, 4, 2)),
                                    ((4, 40, 50), (1, 50, 30))])
def test_matrix_product_fast_path_is_the_general_node(dtype, shapes):
    """``a @ b`` of two 2-D arrays, stacked matrices, or a matrix and a vector, of one
    dtype builds, without
    matmul's general checks, the node the general path builds (a library call, or the
    fused small product); values are NumPy's, with a transposed operand and a strided
    vector among the layouts."""
    rng = np.random.default_rng(7)
    sa, sb = shapes
    x = (rng.standard_normal(sa) * 3).astype(dtype)
    y = (rng.standard_normal(sb[::-1]) * 3).astype(dtype).T      # a transposed view
    a, b = gp.asarray(x), gp.asarray(np.ascontiguousarray(y.T)).T
    if len(sa) == 1:                                  # a strided vector
        x2 = np.repeat(x, 2)
        a, x = gp.asarray(x2)[::2], x2[::2]
    fast = a @ b
    general = gp.matmul(a, b, dtype=np.dtype(dtype))    # (dtype= takes the general path)
    assert _tree(fast._node) == _tree(general._node)
    # a sum of products: the dtype's tolerance scaled by the terms' size (cuBLAS and
    # NumPy's BLAS sum in different orders; an entry near zero is all rounding)
    sc = float(np.abs(x).max(initial=0)) * float(np.abs(y).max(initial=0)) * sa[-1]
    check(fast, x @ y, scale=sc)
    with pytest.raises(ValueError):
        a @ gp.asarray(np.ones((sa[-1] + 1, 2), dtype))
    with pytest.raises(ValueError):
        a @ gp.asarray(np.ones(sa[-1] + 1, dtype))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int64"])
@pytest.mark.parametrize("shapes", [((40, 50), (50, 30)), ((40, 50), (50,)), ((50,), (50, 30))])
def test_scaled_operands_of_a_library_product(dtype, shapes):
    """``s * A @ B``, ``A @ (B * s)`` and both scaled: NumPy's values, whether the scale is
    folded into the library call (CUDA) or not; a scale of 0, inf or NaN is NumPy's
    elementwise pass (0 * inf is NaN in A, not a skipped product)."""
    rng = np.random.default_rng(3)
    sa, sb = shapes
    x = (rng.standard_normal(sa) * 3).astype(dtype)
    y = (rng.standard_normal(sb) * 3).astype(dtype)
    if dtype.startswith("float"):     # (complex inf: BLAS and NumPy's product differ in
        x.flat[0] = np.inf              # NaN parts, folded or not)
    a, b = gp.asarray(x), gp.asarray(y)
    sc = float(np.abs(x[np.isfinite(x)]).max()) * float(np.abs(y).max()) * sa[-1] * 4
    with np.errstate(all="ignore"):
        for f in (lambda p, q: 2.5 * p @ q, lambda p, q: p @ (q * -1.5),
                  lambda p, q: (0.5 * p) @ (q * 4), lambda p, q: 0.0 * p @ q,
                  lambda p, q: p @ (q * np.nan), lambda p, q: np.inf * p @ q):
            if dtype == "int64" and f.__code__.co_consts[1:2] != (2.5,):
                continue
            # (a zero sum's sign follows the library's order: cuBLAS's complex product of
            # a zero matrix gave -0 imaginary parts where NumPy's gave +0 on the H200)
            check(f(a, b), f(x, y), scale=sc, signed_zero=False)


@pytest.fixture
def cublas_calls(monkeypatch):
    """The cuBLAS calls made, as (name, args), in place of the library (the fake CUDA
    backend's buffers are no device memory)."""
    from gnumpy.backends import cuda_libs
    calls = []

    class Record:
        def __getattr__(self, name):
            return lambda *args: calls.append((name, args))
    monkeypatch.setitem(cuda_libs._BINDINGS, "cublas", Record())
    return calls


@pytest.fixture
def schedules(monkeypatch):
    """The root lists ``realize`` (and a program replay's first run) schedules, recorded
    (the scheduler still runs)."""
    from gnumpy._graph import fuse, realize
    from gnumpy.backends import cuda_program
    roots = []
    real = fuse.schedule

    def counted(r):
        roots.append(r)
        return real(r)
    monkeypatch.setattr(realize, "schedule", counted)
    monkeypatch.setattr(cuda_program, "schedule", counted)
    return roots


def test_a_scale_is_the_library_calls_alpha(fake, cublas_calls):
    """On CUDA the scale of an operand is the cuBLAS call's alpha (no elementwise pass over
    the operand); zero, inf, a product of arrays and integer products are not folded."""
    import ctypes
    from gnumpy._graph.ir import BARRIER, LEAF
    dev, be = fake
    calls = cublas_calls
    A = gp.asarray(np.ones((40, 50)), device=dev)
    B = gp.asarray(np.ones((50, 60)), device=dev)
    x = gp.asarray(np.ones(50), device=dev)
    cases = [(lambda: 2.5 * A @ B, 2.5, "dgemm", 6), (lambda: A @ (B * -3.0), -3.0, "dgemm", 6),
             (lambda: (0.5 * A) @ (4.0 * B), 2.0, "dgemm", 6),
             (lambda: (2.0 * A) @ x, 2.0, "dgemv", 4)]
    for expr, alpha, name, at in cases:
        e = expr()
        n = e._node
        assert n.kind == BARRIER and n.arg == alpha and all(s.kind == LEAF for s in n.srcs)
        calls.clear()
        gp.evaluate(e)
        got = [c for c in calls if c[0] == name]
        assert len(got) == 1 and ctypes.c_double.from_address(got[0][1][at]).value == alpha
    for e in (0.0 * A @ B, np.inf * A @ B, (A * A) @ B,
              gp.asarray(np.ones((40, 50), np.int64), device=dev) * 2 @
              gp.asarray(np.ones((50, 60), np.int64), device=dev)):
        assert e._node.arg is None


def test_cov_centres_once_and_scales_in_the_call(fake, cublas_calls):
    """``cov(X)`` on CUDA: the centred data is computed once (X and X.T read one buffer)
    and 1 / (n - 1) is the cuBLAS call's alpha: no pass over the product."""
    import ctypes
    from gnumpy._graph import realize as R
    dev, be = fake
    x = np.random.default_rng(5).random((40, 70))
    g = gp.asarray(x, device=dev)
    gp.evaluate(g)
    k0 = dict(R.stats.by_kind)
    cublas_calls.clear()
    gp.evaluate(gp.cov(g))
    ran = {k: v - k0.get(k, 0) for k, v in R.stats.by_kind.items() if v != k0.get(k, 0)}
    assert ran.get("barrier") == 1 and ran.get("elementwise", 0) + ran.get("rows", 0) == 1
    got = [c for c in cublas_calls if c[0] == "dgemm"]
    assert len(got) == 1 and ctypes.c_double.from_address(got[0][1][6]).value == 1 / 69


_UPDATES = {     # statement on C (m x n), A (m x k), B (k x n), y (m,), x (k,)
    "gemm": lambda C, A, B, y, x: C.__setitem__(slice(None), 1.5 * A @ B + 1.2 * C),
    "plus C": lambda C, A, B, y, x: C.__setitem__(slice(None), A @ B + C),
    "C first": lambda C, A, B, y, x: C.__setitem__(slice(None), C * -0.5 + A @ B),
    "rows": lambda C, A, B, y, x: C.__setitem__(slice(1, 3), A[1:3] @ B + C[1:3]),
    "columns": lambda C, A, B, y, x: C.__setitem__((slice(None), slice(0, 5)),
                                                   A @ B[:, :5] + C[:, :5]),
    "beta 0": lambda C, A, B, y, x: C.__setitem__(slice(None), A @ B + 0.0 * C),
    "reads C": lambda C, A, B, y, x: C.__setitem__(slice(None), C[:, :A.shape[1]] @ B + C),
    "gemv": lambda C, A, B, y, x: y.__setitem__(slice(None), A @ x + 2.0 * y),
}


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("name", list(_UPDATES))
def test_product_accumulated_into_its_destination(name, dtype):
    """``C[...] = A @ B + beta * C`` (the library call writes C with beta on CUDA) and the
    forms it must not take that way: NumPy's values, NaN and inf in C included."""
    rng = np.random.default_rng(5)
    arrs = [(rng.standard_normal(s) * 2).astype(dtype)     # (a product too large to fuse)
            for s in ((40, 60), (40, 50), (50, 60), (40,), (50,))]
    if dtype != "complex128":
        arrs[0][0, 1], arrs[0][2, 3], arrs[3][1] = np.nan, np.inf, -np.inf
    g = [gp.asarray(a) for a in arrs]
    _UPDATES[name](*g)
    with np.errstate(all="ignore"):
        _UPDATES[name](*arrs)
    check(g[0], arrs[0], scale=400.0)
    check(g[3], arrs[3], scale=400.0)


_INTO_VIEWS = {   # statement on Z (40 x 70), A (40 x 50), B (50 x 60), x (50,), w (50,)
    "column": lambda Z, A, B, x, w: Z.__setitem__((slice(None), 3), A @ x),
    "part of a row": lambda Z, A, B, x, w: Z.__setitem__((5, slice(10, 70)), w @ B),
    "rows apart": lambda Z, A, B, x, w: Z.__setitem__((slice(None), slice(5, 65)), A @ B),
    "every other": lambda Z, A, B, x, w: Z.__setitem__((slice(None, None, 2), 7),
                                                       A[:20] @ x),
    "reversed": lambda Z, A, B, x, w: Z.__setitem__((slice(None, None, -1), 3), A @ x),
    "reads Z": lambda Z, A, B, x, w: Z.__setitem__((slice(None), 2), Z[:, :50] @ x),
    "columns apart": lambda Z, A, B, x, w: Z.__setitem__((slice(None), slice(5, 65, 2)),
                                                         A @ B[:, :30]),
    "lazy operand": lambda Z, A, B, x, w: Z.__setitem__((slice(None), 3), (A + 1.0) @ x),
}


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
@pytest.mark.parametrize("name", list(_INTO_VIEWS))
def test_product_written_into_a_view(name, dtype):
    """``Z[view] = A @ B`` (the library call writes the view where it lies on CUDA when
    its strides allow): NumPy's values, the rest of Z untouched, NaN and inf included."""
    rng = np.random.default_rng(7)
    arrs = [(rng.standard_normal(s) * 2).astype(dtype)
            for s in ((40, 70), (40, 50), (50, 60), (50,), (50,))]
    if dtype != "complex64":
        arrs[0][0, 3], arrs[0][6, 7], arrs[1][2, 4] = np.nan, np.inf, -np.inf
    g = [gp.asarray(a) for a in arrs]
    _INTO_VIEWS[name](*g)
    with np.errstate(all="ignore"):
        _INTO_VIEWS[name](*arrs)
    check(g[0], arrs[0], scale=200.0)


def test_correlation_columns_and_rows():
    """NPBench's correlation loop: ``S[i + 1:, i] = S[i, i + 1:] = D[:, i] @ D[:, i + 1:]``
    (the product written into a column, then the column copied into the row)."""
    rng = np.random.default_rng(3)
    d = rng.standard_normal((30, 12))
    s = np.eye(12)
    D, S = gp.asarray(d), gp.asarray(s)
    for i in range(11):
        S[i + 1:, i] = S[i, i + 1:] = D[:, i] @ D[:, i + 1:]
        s[i + 1:, i] = s[i, i + 1:] = d[:, i] @ d[:, i + 1:]
    check(S, s, scale=30.0)


def test_product_into_a_view_is_one_library_call(fake, cublas_calls):
    """On CUDA, a product written into a strided view is one cuBLAS call writing the view:
    a vector at any positive stride (the GEMV's incy), rows apart (the GEMM's ldc); views
    no call describes (reversed, columns apart, or a product reading the view's memory)
    go through a temporary and a kernel, and so does a product of an operand not yet in
    memory (its layout is known only once computed)."""
    dev, be = fake
    calls = cublas_calls
    arrs = [gp.asarray(np.ones(s), device=dev)
            for s in ((40, 70), (40, 50), (50, 60), (50,), (50,))]
    Z = arrs[0]
    base = Z._node.buf.ptr
    for name, call, at, inc, offset, step in [("column", "dgemv", 10, 11, 3, 70),
                                              ("part of a row", "dgemv", 10, 11, 5 * 70 + 10, 1),
                                              ("every other", "dgemv", 10, 11, 7, 140),
                                              ("rows apart", "dgemm", 12, 13, 5, 70)]:
        calls.clear()
        be.launches.clear()
        _INTO_VIEWS[name](*arrs)
        gp.evaluate(Z)
        got = [c for c in calls if c[0] == call]
        assert len(got) == 1 and not be.launches, name
        args = got[0][1]
        assert (args[at], args[inc]) == (base + offset * 8, step), name
    for name in ("reversed", "columns apart", "reads Z", "lazy operand"):
        calls.clear()
        be.launches.clear()
        _INTO_VIEWS[name](*arrs)
        gp.evaluate(Z)
        assert len([c for c in calls if c[0] in ("dgemv", "dgemm")]) == 1 and \
            be.launches, name


def test_product_into_its_destination_is_one_library_call(fake, cublas_calls):
    """On CUDA, ``C[:] = alpha * A @ B + beta * C`` is one cuBLAS call writing C (alpha and
    beta its scalars, no kernel); forms that cannot be (beta 0, a product reading C,
    columns of C) launch kernels."""
    import ctypes
    dev, be = fake
    calls = cublas_calls
    arrs = [gp.asarray(np.ones(s), device=dev)
            for s in ((40, 60), (40, 50), (50, 60), (40,), (50,))]
    C, y = arrs[0], arrs[3]

    def f64(p):
        return ctypes.c_double.from_address(p).value
    for name, call, at, ab, out in [("gemm", "dgemm", 6, 11, 12), ("plus C", "dgemm", 6, 11, 12),
                                    ("C first", "dgemm", 6, 11, 12),
                                    ("gemv", "dgemv", 4, 9, 10)]:
        calls.clear()
        be.launches.clear()
        _UPDATES[name](*arrs)
        gp.evaluate(C, y)
        got = [c for c in calls if c[0] == call]
        assert len(got) == 1 and not be.launches, name
        args = got[0][1]
        alpha, beta = {"gemm": (1.5, 1.2), "plus C": (1.0, 1.0), "C first": (1.0, -0.5),
                       "gemv": (1.0, 2.0)}[name]
        dest = y if name == "gemv" else C
        assert (f64(args[at]), f64(args[ab])) == (alpha, beta), name
        assert args[out] == dest._node.buf.ptr + dest._node.offset * 8, name
    for name in ("beta 0", "reads C", "columns"):
        be.launches.clear()
        _UPDATES[name](*arrs)
        gp.evaluate(C)
        assert be.launches, name


@pytest.mark.parametrize("write", ["block", "source", "none"])
def test_a_product_of_an_indexed_block_keeps_numpys_values(write):
    """A few-term product over an advanced index's block (``G[k, e, idx[a, b]] @ dH``, a
    copy) reads the block's memory directly: it keeps the values of the statement whether
    the copy or the memory it came from is written afterwards."""
    rng = np.random.default_rng(5)
    gn = rng.standard_normal((2, 3, 4, 3, 3)) + 1j * rng.standard_normal((2, 3, 4, 3, 3))
    hn = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))
    g, h = gp.asarray(gn), gp.asarray(hn)
    idx = gp.asarray(np.array(2))
    t = g[1, 0, idx]                    # a copy (advanced indexing)
    p = t @ h
    q = (t @ h) @ t                     # a product of products over the copy
    tn = gn[1, 0, 2].copy()
    pn, qn = tn @ hn, (tn @ hn) @ tn
    if write == "block":
        t[0, 0] = 99.0
        tn[0, 0] = 99.0
    elif write == "source":
        g[1, 0, 2] = -1.0
        gn[1, 0, 2] = -1.0
    check(p, pn)
    check(q, qn)
    check(t, tn)
    check(g, gn)


def test_few_term_products_of_one_structure_keep_their_operands_shapes():
    """Writes of ``full((3, k), c) @ Y[:k]`` for k of 1 to 4 share their graph's structure
    but not their operands' shapes (a replayed write broadcasts a constant operand to its
    shape): each is NumPy's, and so is a product of lazy operands of each length."""
    rng = np.random.default_rng(11)
    Y = rng.standard_normal((4, 4))
    gY = gp.asarray(Y)
    for k in (2, 3, 2, 4, 1, 3, 4):
        for _ in range(2):
            out = gp.zeros((3, 4))
            out[...] = gp.full((3, k), -1.5) @ gY[:k]
            check(out, np.full((3, k), -1.5) @ Y[:k])
            out[...] = (gY[:3, :k] * 2.0) @ (gY[:k] - 1.0)
            check(out, (Y[:3, :k] * 2.0) @ (Y[:k] - 1.0))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int64])
@pytest.mark.parametrize("write", ["left", "right", "left's root", "other"])
def test_a_small_product_of_memory_is_read_before_its_operands_are_written(dtype, write):
    """A few-term product of two blocks of memory knows the buffers it reads when made
    (``readers.read_set`` does not walk it): a write into either operand's memory, through
    the block, its root or an element, first computes the pending product and the
    products over it; a write elsewhere changes none of their values."""
    rng = np.random.default_rng(9)
    an = sample(dtype, (4, 3, 3), rng)
    bn = sample(dtype, (3, 3), rng)
    cn = sample(dtype, (3, 3), rng)
    a, b, c = gp.asarray(an), gp.asarray(bn), gp.asarray(cn)
    p = a[1] @ b
    q = (a[2] @ b) @ (a[1] @ c)         # a product of products
    r = a[0, 1, 2] * (b @ c)           # an element times a product
    want = [an[1] @ bn, (an[2] @ bn) @ (an[1] @ cn), an[0, 1, 2] * (bn @ cn)]
    if write == "left":
        a[1][0, 0] = 7
        a[2] += 1
    elif write == "right":
        b[:, 1] = 5
        c[2, 2] = -3
    elif write == "left's root":
        a[...] = 2
    else:
        d = gp.asarray(sample(dtype, (3, 3), rng))
        d[1] = 4
    for got, w in zip((p, q, r), want):
        check(got, w)


def test_a_write_of_a_library_call_replays_without_a_schedule(fake, cublas_calls, schedules):
    """``y[:] = A @ x / c`` in a loop (NPBench covariance): the library call runs on its own
    (its operands are in memory) and what is left of the value replays as one kernel; no
    schedule after the first statement built the replay."""
    dev, be = fake
    A = gp.asarray(np.ones((40, 50)), device=dev)
    x = gp.asarray(np.ones(50), device=dev)
    y = gp.asarray(np.ones(40), device=dev)
    gp.evaluate(A, x, y)
    for i in range(5):
        cublas_calls.clear()
        be.launches.clear()
        y[:] = A @ x / (3.0 + i)
        gp.evaluate(y)
        assert [c[0] for c in cublas_calls if c[0].endswith("gemv")] == ["dgemv"]
        assert len(be.launches) == 1
    assert len(schedules) <= 1


@pytest.mark.parametrize("form", ["scaled", "reads y", "plus y", "two products"])
def test_a_write_of_library_calls_keeps_numpys_values(form):
    """The library calls of a written value run before the rest of it, also when they read
    the memory written (NumPy's statement reads it first)."""
    rng = np.random.default_rng(8)
    an, xn, yn = rng.standard_normal((30, 30)), rng.standard_normal(30), rng.standard_normal(40)
    A, x, y = gp.asarray(an), gp.asarray(xn), gp.asarray(yn)
    f = {"scaled": lambda A, x, y: y.__setitem__(slice(0, 30), A @ x / 7.0),
         "reads y": lambda A, x, y: y.__setitem__(slice(5, 35), A @ y[0:30] * 0.5),
         "plus y": lambda A, x, y: y.__setitem__(slice(1, 31), A @ x / 3.0 + y[0:30]),
         "two products": lambda A, x, y: y.__setitem__(slice(10, 40),
                                                       A @ x - A.T @ y[:30])}[form]
    for _ in range(3):
        f(A, x, y)
        f(an, xn, yn)
    check(y, yn, scale=100.0)


@pytest.mark.parametrize("form", ["chain", "shared", "gemv", "mixed"])
def test_a_chain_of_products_keeps_numpys_values(form):
    """Products of products (NPBench k3mm's ``A @ B @ C @ D``), a product read twice, and
    a chain with an elementwise operand: NumPy's values."""
    rng = np.random.default_rng(11)
    ns = [rng.standard_normal(s)        # (products too large to fuse: library calls)
          for s in ((200, 240), (240, 260), (260, 180), (180, 200))]
    xn = rng.standard_normal(200)
    g = [gp.asarray(a) for a in ns]
    x = gp.asarray(xn)
    f = {"chain": lambda A, B, C, D, x: A @ B @ C @ D,
         "shared": lambda A, B, C, D, x: (lambda r: r @ r)(A @ B @ C @ D),
         "gemv": lambda A, B, C, D, x: D.T @ (C.T @ (B.T @ (A.T @ x))),
         "mixed": lambda A, B, C, D, x: (A @ B) @ (C + 1.0) @ D}[form]
    check(f(*g, x), f(*ns, xn), scale=1e6)


def test_a_chain_of_products_runs_call_by_call(fake, cublas_calls, schedules):
    """On CUDA a chain of library calls over memory runs its calls in order, without a
    schedule; a chain with an elementwise operand is scheduled."""
    dev, be = fake
    A, B, C, D = (gp.asarray(np.ones(s), device=dev)     # (too large to fuse)
                  for s in ((200, 240), (240, 260), (260, 180), (180, 200)))
    x = gp.asarray(np.ones(200), device=dev)
    gp.evaluate(A, B, C, D, x)
    for expr, names in ((lambda: A @ B @ C @ D, ["dgemm"] * 3),
                        (lambda: (lambda r: r @ r)(A @ B @ C @ D), ["dgemm"] * 4),
                        (lambda: D.T @ (C.T @ (B.T @ (A.T @ x))), ["dgemv"] * 4)):
        cublas_calls.clear()
        gp.evaluate(expr())
        assert [c[0] for c in cublas_calls if c[0] in ("dgemm", "dgemv")] == names
    assert not schedules
    gp.evaluate((A @ B) @ (C + 1.0))
    assert len(schedules) == 1
