"""The cuBLAS matmul path's layout logic, run on the host.

``gnumpy.backends.cuda_blas`` turns row-major operands with arbitrary strides into cuBLAS's
column-major (op, leading dimension, batch stride) arguments.  Here cuBLAS is replaced by a
NumPy emulation of the same calls on host memory (column-major, BLAS's argument checks), so
every shape/stride case of that translation is checked against ``numpy.matmul`` on CPU-only
CI; the GPU suite runs the real library.
"""
import ctypes

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gnumpy._graph.ir import LEAF
from gnumpy.backends import cuda_blas


class _Buf:
    def __init__(self, arr):
        self.arr = arr                  # keeps the memory alive
        self.ptr = arr.ctypes.data


class _Leaf:
    def __init__(self, base, offset, shape, strides, dtype):
        self.buf, self.offset = base, offset
        self.shape, self.strides, self.dtype = tuple(shape), tuple(strides), np.dtype(dtype)

    @property
    def ndim(self):
        return len(self.shape)


def _host(ptr, dtype, shape, strides):
    """A NumPy view of host memory at `ptr` (strides in elements)."""
    dt = np.dtype(dtype)
    if 0 in shape:
        return np.empty(shape, dt)
    span = 1 + sum((n - 1) * abs(s) for n, s in zip(shape, strides))
    raw = (ctypes.c_char * (span * dt.itemsize)).from_address(ptr)
    flat = np.frombuffer(raw, dtype=dt)
    return np.lib.stride_tricks.as_strided(flat, shape, [s * dt.itemsize for s in strides])


def _leaf_view(node):
    return _host(node.buf.ptr + node.offset * node.dtype.itemsize, node.dtype, node.shape,
                 node.strides)


class FakeCublas:
    """cuBLAS's gemm / gemv / strided-batched gemm on host memory, column-major."""

    def __init__(self, dtype):
        self.dt = np.dtype(dtype)
        self.calls = []

    def _mat(self, ptr, rows, cols, ld):
        assert ld >= max(1, rows), f"ld {ld} < rows {rows}"
        return _host(ptr, self.dt, (rows, cols), (1, ld))

    def _op(self, M, t):
        return M if t == 0 else M.T

    def _scalar(self, ptr):
        return _host(ptr, self.dt, (1,), (1,))[0]

    def _gemm(self, t1, t2, m, n, k, p1, ld1, p2, ld2, pc, ldc, alpha=None, beta=None):
        A = self._op(self._mat(p1, *((m, k) if t1 == 0 else (k, m)), ld1), t1)
        B = self._op(self._mat(p2, *((k, n) if t2 == 0 else (n, k)), ld2), t2)
        C = self._mat(pc, m, n, ldc)
        C[...] = self._scaled(A.astype(np.complex128 if self.dt.kind == "c" else np.float64)
                              @ B, C, alpha, beta)

    def _scaled(self, ab, c, alpha, beta):
        """alpha * ab + beta * c as BLAS computes it (c not read when beta is 0)."""
        if alpha is not None:
            ab = self._scalar(alpha) * ab
        if beta is not None and self._scalar(beta) != 0:
            ab = ab + self._scalar(beta) * c
        return ab

    def __getattr__(self, name):
        if name.endswith("gemm_strided_batched"):
            def f(h, t1, t2, m, n, k, alpha, p1, ld1, s1, p2, ld2, s2, beta, pc, ldc, sc, cnt):
                self.calls.append(("gemm_batched", cnt))
                it = self.dt.itemsize
                for i in range(cnt):
                    self._gemm(t1, t2, m, n, k, p1 + i * s1 * it, ld1, p2 + i * s2 * it, ld2,
                               pc + i * sc * it, ldc)
            return f
        if name.endswith("gemm"):
            def f(h, t1, t2, m, n, k, alpha, p1, ld1, p2, ld2, beta, pc, ldc):
                self.calls.append(("gemm",))
                self._gemm(t1, t2, m, n, k, p1, ld1, p2, ld2, pc, ldc, alpha, beta)
            return f
        if name.endswith("gemv"):
            def f(h, t, m, n, alpha, p, ld, px, incx, beta, py, incy):
                self.calls.append(("gemv",))
                M = self._op(self._mat(p, m, n, ld), t)
                x = _host(px, self.dt, (M.shape[1],), (incx,))
                y = _host(py, self.dt, (M.shape[0],), (incy,))
                assert incx >= 1 and incy >= 1, (incx, incy)
                y[...] = self._scaled(M @ x, y, alpha, beta)
            return f
        raise AttributeError(name)


class FakeLibs:
    def blas(self):
        return 0

    def __init__(self):
        self.keep = []

    def host_scalar(self, value, dtype):       # an address, as cuda_libs gives it
        a = np.full(1, value, dtype)
        self.keep.append(a)
        return a.ctypes.data


class FakeBackend:
    device = None

    def __init__(self):
        self.keep = []

    def _contiguous_copy(self, node):
        a = np.ascontiguousarray(_leaf_view(node))
        buf = _Buf(a)
        self.keep.append(buf)
        strides = [s // a.itemsize for s in a.strides]
        return _Leaf(buf, 0, a.shape, strides, a.dtype)


def _operand(x, rng, layout):
    """A strided host view holding `x`'s values, laid out as `layout` says."""
    pad = rng.integers(0, 3)
    if layout == "c" or x.ndim < 2:
        step = 1 if layout != "strided" else 2
        big = np.zeros(x.shape[:-1] + (x.shape[-1] * step + pad,), x.dtype)
        v = big[..., : x.shape[-1] * step: step]
    elif layout == "t":                       # stored transposed (a .T view)
        big = np.zeros(x.shape[:-2] + (x.shape[-1], x.shape[-2] + pad), x.dtype)
        v = np.swapaxes(big[..., : x.shape[-2]], -1, -2)
    else:                                      # strided in both matrix dims
        big = np.zeros(x.shape[:-2] + (2 * x.shape[-2], 2 * x.shape[-1]), x.dtype)
        v = big[..., ::2, ::2]
    v[...] = x
    buf = _Buf(big)
    it = x.dtype.itemsize
    offset = (v.ctypes.data - big.ctypes.data) // it
    return _Leaf(buf, offset, v.shape, [s // it for s in v.strides], x.dtype), buf


def _run(monkeypatch, a, b, la, lb, rng):
    dt = np.result_type(a, b)
    fake = FakeCublas(dt)
    monkeypatch.setattr(cuda_blas, "bindings", lambda name: fake)
    monkeypatch.setattr(cuda_blas, "libs", lambda be: FakeLibs())
    na, ka = _operand(a.astype(dt), rng, la)
    nb, kb = _operand(b.astype(dt), rng, lb)
    want = np.matmul(a.astype(dt), b.astype(dt))
    out = np.full(want.shape, np.nan, dt)

    class Node:
        dtype = dt
        shape = want.shape
        srcs = (na, nb)
        arg = None          # (no scale folded into the call)
    cuda_blas.matmul(FakeBackend(), Node, _Buf(out))
    return out, want, fake


_DT = [np.float32, np.float64, np.complex64, np.complex128]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_matmul_layouts_match_numpy(data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31)))
    dt = data.draw(st.sampled_from(_DT))
    n, k, m = (data.draw(st.integers(1, 5)) for _ in range(3))
    batch_a = data.draw(st.sampled_from([(), (1,), (3,), (2, 3), (2, 1)]))
    batch_b = data.draw(st.sampled_from([(), (1,), (3,), (2, 3), (1, 3)]))
    vec_a, vec_b = data.draw(st.booleans()), data.draw(st.booleans())
    sa = (k,) if vec_a else batch_a + (n, k)
    sb = (k,) if vec_b else batch_b + (k, m)
    a = rng.standard_normal(sa).astype(dt)
    b = rng.standard_normal(sb).astype(dt)
    if dt in (np.complex64, np.complex128):
        a = a + 1j * rng.standard_normal(sa)
        b = b + 1j * rng.standard_normal(sb)
    la = data.draw(st.sampled_from(["c", "t", "strided"]))
    lb = data.draw(st.sampled_from(["c", "t", "strided"]))
    with pytest.MonkeyPatch.context() as mp:
        out, want, _ = _run(mp, a, b, la, lb, rng)
    tol = 1e-5 if np.dtype(dt) in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(out, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("la,lb,calls", [
    ("c", "c", [("gemm",)]),
    ("t", "t", [("gemm",)]),          # transposed views pass as transpose ops, no copy
])
def test_matmul_no_copy_for_transposes(monkeypatch, la, lb, calls):
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((3, 5))
    out, want, fake = _run(monkeypatch, a, b, la, lb, rng)
    np.testing.assert_allclose(out, want, rtol=1e-12)
    assert fake.calls == calls


def test_batched_uses_one_strided_call(monkeypatch):
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((2, 3, 4, 5)), rng.standard_normal((5, 6))   # b broadcast
    out, want, fake = _run(monkeypatch, a, b, "t", "c", rng)    # (a's matrices transposed)
    np.testing.assert_allclose(out, want, rtol=1e-12)
    assert fake.calls == [("gemm_batched", 6)]


@pytest.mark.parametrize("sa", [(2, 3, 4, 5), (6, 1, 5), (3, 2, 1, 5)])
@pytest.mark.parametrize("lb", ["c", "t"])
def test_stack_against_one_matrix_is_one_gemm(monkeypatch, sa, lb):
    """A C-ordered stack times one shared matrix is a single GEMM of the stacked rows
    (doitgen's ``(NR, NQ, 1, NP) @ (NP, NP)``); rows padded apart keep their stride."""
    rng = np.random.default_rng(len(sa))
    a, b = rng.standard_normal(sa), rng.standard_normal((5, 4))
    out, want, fake = _run(monkeypatch, a, b, "c", lb, rng)
    np.testing.assert_allclose(out, want, rtol=1e-12)
    assert fake.calls == [("gemm",)]


def test_a_stack_whose_row_stride_passes_int32_stays_a_batch():
    """Row vectors 2**31 elements apart: the stride fits a batch stride (64-bit), not a
    leading dimension (cuBLAS's int), so the product stays a strided batch."""
    dt = np.dtype(np.float16)
    p = cuda_blas._plan(dt, (2, 1, 4), (2**31, 4, 1), (4, 5), (5, 1), (2, 1, 5))
    assert p[0] == "gemm" and p[1][0][8] == 2 and p[1][0][4] == (0, 4)
    p = cuda_blas._plan(dt, (2, 1, 4), (2**31 - 1, 4, 1), (4, 5), (5, 1), (2, 1, 5))
    assert p[1][0][8] == 1 and p[1][0][4] == (0, 2**31 - 1)


def test_stack_of_padded_row_vectors_is_one_gemm(monkeypatch):
    """Row vectors (n == 1) a batch stride apart that exceeds k: the stride is the GEMM's
    leading dimension."""
    rng = np.random.default_rng(7)
    big = rng.standard_normal((6, 1, 9))
    b = rng.standard_normal((5, 3))
    a = _Leaf(_Buf(big), 2, (6, 1, 5), (9, 9, 1), np.float64)
    fake = FakeCublas(np.float64)
    monkeypatch.setattr(cuda_blas, "bindings", lambda name: fake)
    monkeypatch.setattr(cuda_blas, "libs", lambda be: FakeLibs())
    nb, kb = _operand(b, rng, "c")
    out = np.full((6, 1, 3), np.nan)

    class Node:
        dtype = np.dtype(np.float64)
        shape = out.shape
        srcs = (a, nb)
        arg = None
    cuda_blas.matmul(FakeBackend(), Node, _Buf(out))
    np.testing.assert_allclose(out, big[:, :, 2:7] @ b, rtol=1e-12)
    assert fake.calls == [("gemm",)]


def test_matrix_vector_uses_gemv(monkeypatch):
    rng = np.random.default_rng(2)
    a, x = rng.standard_normal((7, 5)).astype(np.float32), rng.standard_normal(5)
    for la in ("c", "t"):
        out, want, fake = _run(monkeypatch, a, x.astype(np.float32), la, "c", rng)
        np.testing.assert_allclose(out, want, rtol=1e-5)
        assert fake.calls == [("gemv",)]
        out, want, fake = _run(monkeypatch, x.astype(np.float32)[:5], a.T.copy(), "c", la, rng)
        np.testing.assert_allclose(out, want, rtol=1e-5)
        assert fake.calls == [("gemv",)]


def test_operand_needs_copy():
    assert cuda_blas._operand(3, 4, 8, 2) is None          # doubly strided
    assert cuda_blas._operand(3, 4, 0, 1) is None          # a broadcast row
    assert cuda_blas._operand(3, 4, 4, 1) == (0, 4)
    assert cuda_blas._operand(3, 4, 1, 3) == (1, 3)
    assert cuda_blas._operand(1, 4, 99, 1) == (0, 4)


def test_batch_dims_that_do_not_merge_loop(monkeypatch):
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((2, 3, 4, 5)), rng.standard_normal((3, 5, 6))   # b: (0, 30)
    out, want, fake = _run(monkeypatch, a, b, "c", "c", rng)
    np.testing.assert_allclose(out, want, rtol=1e-12)
    assert fake.calls == [("gemm_batched", 3)] * 2


def test_plans_are_kept_per_layout_and_replayed_with_new_pointers(monkeypatch):
    """The cuBLAS calls of a product are planned once per (dtype, operand layouts); a later
    product of that layout (other memory, other values) replays the plan with its own
    pointers, and gets its own values."""
    cuda_blas._PLANS.clear()
    for seed in (3, 4, 5):
        rng = np.random.default_rng(seed)
        a, b = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 4, 5))
        out, want, fake = _run(monkeypatch, a, b, "c", "t", np.random.default_rng(0))
        np.testing.assert_allclose(out, want, rtol=1e-12)
    assert len(cuda_blas._PLANS) == 1
    (plan,) = cuda_blas._PLANS.values()
    assert plan[0] == "gemm" and len(plan[1]) == 1          # one strided-batched call


_DESTS = ["c", "vector apart", "rows apart", "reversed", "columns apart"]


def _dest(shape, dt, rng, layout):
    """A view of a larger host buffer (random values, NaN in its first element) for the
    product's result, laid out as `layout` says, and that buffer."""
    def rand(*sh):
        return rng.standard_normal(sh).astype(dt)
    if layout == "c":
        big = rand(*shape)
        v = big[...]
    elif len(shape) == 1:
        if layout == "reversed":
            big = rand(shape[0])
            v = big[::-1]
        elif layout == "columns apart":         # a column of a matrix
            big = rand(shape[0], 2)
            v = big[:, 1]
        else:
            big = rand(3 * shape[0] + 2)
            v = big[1:1 + 3 * shape[0]:3]
    elif layout == "reversed":
        big = rand(*shape)
        v = big[::-1]
    elif layout == "columns apart":
        big = rand(shape[0], 2 * shape[1])
        v = big[:, ::2]
    else:                                       # rows apart (a block of a wider matrix)
        big = rand(shape[0], shape[1] + 3)
        v = big[:, 2:2 + shape[1]]
    big.reshape(-1)[0] = np.nan
    return v, big


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_product_into_a_strided_destination_matches_numpy(data):
    """``cuda_blas.product_into``: ``dest = a @ b + beta * dest`` written where dest lies
    (a GEMV's incy, a GEMM's ldc) on emulated cuBLAS; dest's other memory untouched; the
    layouts no call describes refused before any work."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31)))
    dt = np.dtype(data.draw(st.sampled_from(_DT)))
    n, k, m = (data.draw(st.integers(1, 5)) for _ in range(3))
    vec_a, vec_b = data.draw(st.booleans()), data.draw(st.booleans())
    a = rng.standard_normal((k,) if vec_a else (n, k)).astype(dt)
    b = rng.standard_normal((k,) if vec_b else (k, m)).astype(dt)
    want = a @ b
    if want.ndim == 0:
        return
    layout = data.draw(st.sampled_from(_DESTS))
    beta = data.draw(st.sampled_from([0, 1.0, -0.5]))
    v, big = _dest(want.shape, dt, rng, layout)
    before = big.copy()
    with pytest.MonkeyPatch.context() as mp:
        fake = FakeCublas(dt)
        mp.setattr(cuda_blas, "bindings", lambda name: fake)
        mp.setattr(cuda_blas, "libs", lambda be: FakeLibs())
        na, keep_a = _operand(a, rng, data.draw(st.sampled_from(["c", "t", "strided"])))
        nb, keep_b = _operand(b, rng, data.draw(st.sampled_from(["c", "t", "strided"])))
        it = dt.itemsize
        buf = _Buf(big)
        dest = _Leaf(buf, (v.ctypes.data - big.ctypes.data) // it, v.shape,
                     [s // it for s in v.strides], dt)
        dest.kind = na.kind = nb.kind = LEAF

        class Node:
            dtype = dt
            shape = want.shape
            srcs = (na, nb)
            arg = None
        old = v.copy()
        ok = cuda_blas.product_into(FakeBackend(), dest, Node, beta, True)
        if not ok:
            np.testing.assert_array_equal(big, before)
            assert layout in ("reversed", "columns apart") or fake.calls == [], layout
            return
        assert cuda_blas.product_into(FakeBackend(), dest, Node, beta)
    assert len(fake.calls) == 1
    exp = want + beta * old if beta else want
    tol = 1e-5 if dt in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(v, exp, rtol=tol, atol=tol)
    rest = np.ones(big.shape, bool)
    rest[np.unravel_index(((v.ctypes.data - big.ctypes.data) // it
                           + np.indices(v.shape).reshape(v.ndim, -1).T
                           @ (np.array(v.strides) // it)), big.shape)] = False
    np.testing.assert_array_equal(big[rest], before[rest])
