"""Small NumPy programs run with xp = numpy and xp = gnumpy (emulated CUDA device).

Each program is f(xp, A, B, ...) over arrays made by xp.asarray from the inputs its
INPUTS entry makes; it returns the arrays (or scalars) to compare."""
import numpy as np

PROGRAMS = {}


def prog(*inputs):
    def deco(f):
        PROGRAMS[f.__name__] = (f, inputs)
        return f
    return deco


def r(*shape, dtype=np.float64, seed=0, lo=None):
    def make(seed2):
        g = np.random.default_rng(seed * 1000 + seed2)
        if np.dtype(dtype).kind in "iu":
            return g.integers(-50 if np.dtype(dtype).kind == "i" else 0, 50, shape).astype(dtype)
        if np.dtype(dtype).kind == "b":
            return g.random(shape) < 0.5
        if np.dtype(dtype).kind == "c":
            return (g.standard_normal(shape) + 1j * g.standard_normal(shape)).astype(dtype)
        a = g.standard_normal(shape)
        if lo is not None:
            a = np.abs(a) + lo
        return a.astype(dtype)
    return make


def spd(n, seed=0):
    def make(seed2):
        g = np.random.default_rng(seed * 1000 + seed2)
        a = g.standard_normal((n, n))
        return a @ a.T + n * np.eye(n)
    return make


# ------------------------------------------------------------------ stencils and loops
@prog(r(40), r(40))
def jacobi_1d(xp, A, B):
    for t in range(5):
        B[1:-1] = 0.33333 * (A[:-2] + A[1:-1] + A[2:])
        A[1:-1] = 0.33333 * (B[:-2] + B[1:-1] + B[2:])
    return [A, B]


@prog(r(12, 12), r(12, 12))
def jacobi_2d(xp, A, B):
    for t in range(3):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1] + B[:-2, 1:-1])
    return [A, B]


@prog(r(8, 8, 8), r(8, 8, 8))
def heat_3d(xp, A, B):
    for t in range(2):
        B[1:-1, 1:-1, 1:-1] = (0.125 * (A[2:, 1:-1, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[:-2, 1:-1, 1:-1])
                               + 0.125 * (A[1:-1, 2:, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, :-2, 1:-1])
                               + 0.125 * (A[1:-1, 1:-1, 2:] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, 1:-1, :-2])
                               + A[1:-1, 1:-1, 1:-1])
        A[1:-1, 1:-1, 1:-1] = (0.125 * (B[2:, 1:-1, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[:-2, 1:-1, 1:-1])
                               + 0.125 * (B[1:-1, 2:, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, :-2, 1:-1])
                               + 0.125 * (B[1:-1, 1:-1, 2:] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, 1:-1, :-2])
                               + B[1:-1, 1:-1, 1:-1])
    return [A, B]


@prog(r(10, 10))
def seidel_2d(xp, A):
    N = A.shape[0]
    for t in range(2):
        for i in range(1, N - 1):
            A[i, 1:-1] += (A[i - 1, :-2] + A[i - 1, 1:-1] + A[i - 1, 2:] + A[i, 2:]
                           + A[i + 1, :-2] + A[i + 1, 1:-1] + A[i + 1, 2:])
            for j in range(1, N - 1):
                A[i, j] += A[i, j - 1]
                A[i, j] /= 9.0
    return [A]


@prog(r(6, 9))
def elem_chain(xp, A):
    for j in range(1, 9):
        A[3, j] += A[3, j - 1]
        A[3, j] /= 9.0
    for j in range(1, 9):
        A[1, j] = A[1, j - 1] * 0.5 + A[2, j]
    A[0, 0] = 7.0
    A[0, 1] = A[0, 0] + 1
    A[5, :] = A[0, 1]
    return [A]


@prog(spd(8))
def cholesky(xp, A):
    n = A.shape[0]
    A[0, 0] = xp.sqrt(A[0, 0])
    for i in range(1, n):
        for j in range(i):
            A[i, j] -= xp.dot(A[i, :j], A[j, :j])
            A[i, j] /= A[j, j]
        A[i, i] -= xp.dot(A[i, :i], A[i, :i])
        A[i, i] = xp.sqrt(A[i, i])
    return [xp.tril(A)]


@prog(spd(7, seed=3))
def lu(xp, A):
    n = A.shape[0]
    for i in range(n):
        for j in range(i):
            A[i, j] -= A[i, :j] @ A[:j, j]
            A[i, j] /= A[j, j]
        for j in range(i, n):
            A[i, j] -= A[i, :i] @ A[:i, j]
    return [A]


@prog(r(8, 8, lo=3.0, seed=2), r(8))
def trisolv(xp, L, b):
    n = L.shape[0]
    x = xp.zeros_like(b)
    for i in range(n):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
    return [x]


@prog(r(12, seed=4))
def durbin(xp, r_):
    n = r_.shape[0]
    y = xp.empty_like(r_)
    alpha = -r_[0]
    beta = 1.0
    y[0] = -r_[0]
    for k in range(1, n):
        beta *= 1.0 - alpha * alpha
        alpha = -(r_[k] + xp.dot(xp.flip(r_[:k]), y[:k])) / beta
        y[:k] += alpha * xp.flip(y[:k])
        y[k] = alpha
    return [y]


@prog(r(7, 6, seed=5))
def gramschmidt(xp, A):
    m, n = A.shape
    Q = xp.zeros_like(A)
    R = xp.zeros((n, n), dtype=A.dtype)
    for k in range(n):
        nrm = xp.dot(A[:, k], A[:, k])
        R[k, k] = xp.sqrt(nrm)
        Q[:, k] = A[:, k] / R[k, k]
        for j in range(k + 1, n):
            R[k, j] = xp.dot(Q[:, k], A[:, j])
            A[:, j] -= Q[:, k] * R[k, j]
    return [Q, R, A]


@prog(r(9, 9, seed=6))
def floyd_warshall(xp, path):
    path = xp.abs(path) * 10
    for k in range(path.shape[0]):
        path[:] = xp.minimum(path[:], xp.add.outer(path[:, k], path[k, :]))
    return [path]


@prog(r(8, 6, seed=7), r(6, 5, seed=8), r(8, 5, seed=9))
def gemm(xp, A, B, C):
    alpha, beta = 1.5, 1.2
    C[:] = alpha * A @ B + beta * C
    return [C]


@prog(r(10, 10, seed=10))
def syrk_like(xp, A):
    C = xp.zeros((10, 10))
    for i in range(10):
        C[i, :i + 1] *= 1.3
        C[i, :i + 1] += 0.7 * A[:i + 1, :] @ A[i, :]
    return [C]


@prog(r(9, 7, seed=11))
def covariance(xp, data):
    n = data.shape[0]
    mean = xp.mean(data, axis=0)
    data -= mean
    cov = xp.zeros((data.shape[1], data.shape[1]))
    for i in range(data.shape[1]):
        cov[i:, i] = cov[i, i:] = data[:, i] @ data[:, i:] / (n - 1.0)
    return [mean, cov]


@prog(r(9, 7, seed=12))
def correlation(xp, data):
    n = data.shape[0]
    mean = xp.mean(data, axis=0)
    stddev = xp.std(data, axis=0)
    stddev[stddev <= 0.1] = 1.0
    data -= mean
    data /= xp.sqrt(n) * stddev
    corr = xp.eye(data.shape[1], dtype=data.dtype)
    for i in range(data.shape[1] - 1):
        corr[i + 1:, i] = corr[i, i + 1:] = data[:, i] @ data[:, i + 1:]
    return [corr]


@prog(r(8, 8, seed=13), r(8, seed=14), r(8, seed=15))
def atax_bicg_mvt(xp, A, x, y):
    a = (A @ x) @ A
    b = A.T @ y
    x1 = x + A @ y
    x2 = y + A.T @ x
    return [a, b, x1, x2, xp.dot(x, y)]


@prog(r(6, 8, seed=16))
def adi_like(xp, u):
    v = xp.empty_like(u)
    p = xp.empty_like(u)
    q = xp.empty_like(u)
    v[0, 1:-1] = 1.0
    p[1:-1, 0] = 0.0
    q[1:-1, 0] = v[0, 1:-1][:4]
    for j in range(1, u.shape[1] - 1):
        p[1:-1, j] = -0.5 / (0.3 * p[1:-1, j - 1] + 2.0)
        q[1:-1, j] = (-0.25 * u[j % 6, 0:4] + 1.5 * u[1:-1, j] - q[1:-1, j - 1] * 0.3) / (0.3 * p[1:-1, j - 1] + 2.0)
    return [p[1:-1, :-1], q[1:-1, :-1]]


# ------------------------------------------------------------------ fused expressions
@prog(r(5, 7), r(7), r(5, 1))
def broadcast_fused(xp, A, b, c):
    return [A * b + c, xp.exp(-(A - b) ** 2) / (1 + c * c), xp.sin(A) * xp.cos(b) - xp.tanh(c),
            xp.where(A > b, A, c), xp.maximum(A, 0.1) ** 0.5, (A - A.mean()) / A.std()]


@prog(r(6, 5, dtype=np.float32), r(5, dtype=np.float32))
def float32_mix(xp, A, b):
    return [A * b + np.float32(2.5), (A * 1.5).astype(xp.float64) + b, xp.sqrt(xp.abs(A)),
            A.sum(axis=0), A.max(axis=1), (A / (b + 3)).astype(xp.float16),
            xp.floor(A * 4).astype(xp.int32)]


@prog(r(4, 9, dtype=np.int64), r(9, dtype=np.int32))
def ints(xp, A, b):
    return [A * b + 3, A // (xp.abs(b) + 1), A % 7, (A << 2) ^ b, A.sum(axis=1), A.max(axis=0),
            A.astype(xp.int8), (A > b).astype(xp.int64).sum(), xp.where(A % 2 == 0, A, -b),
            A.min(), A.prod(axis=1)]


@prog(r(5, 6, dtype=np.complex128), r(6, dtype=np.complex64))
def complex_ops(xp, A, b):
    return [A * b + 1j, xp.abs(A), A.conj() * A, A.sum(axis=0), xp.exp(A / 4), A.real + b.imag]


@prog(r(7, 5, dtype=np.float16), r(5, dtype=np.float16))
def half_ops(xp, A, b):
    return [A + b, A * b - np.float16(1.5), A.astype(xp.float32) * 2, xp.maximum(A, b)]


@prog(r(6, 7), r(6, 7, dtype=bool))
def where_casts(xp, A, M):
    return [xp.where(M, A, -A), (A > 0) & M, A.astype(xp.int16), M.astype(xp.float32) * A,
            xp.logical_not(M) | (A < -0.5), A.astype(xp.uint8), xp.isnan(A / (A > 0))]


# ------------------------------------------------------------------ reductions
@prog(r(13, 17), r(3, 4, 5))
def reductions(xp, A, C):
    return [A.sum(), A.sum(axis=0), A.sum(axis=1), A.max(axis=0), A.min(axis=1), A.mean(axis=1),
            A.std(axis=0), A.var(), A.prod(axis=1), xp.argmax(A, axis=1), xp.argmin(A, axis=0),
            C.sum(axis=(0, 2)), C.max(axis=1), C.mean(axis=(1, 2)), xp.any(A > 2, axis=0),
            xp.all(A > -3, axis=1), xp.count_nonzero(A > 0), xp.linalg.norm(A)]


@prog(r(300, 70, seed=21), r(5000, seed=22))
def reductions_big(xp, A, v):
    return [A.sum(), A.sum(axis=0), A.sum(axis=1), A.max(axis=0), v.sum(), v.max(), v.mean(),
            A.T.sum(axis=1), (A * A).sum(axis=0) / A.shape[0], xp.argmax(v), A.std(axis=0)]


@prog(r(64, 33, seed=23))
def softmax_rows(xp, X):
    m = X.max(axis=1, keepdims=True)
    e = xp.exp(X - m)
    s = e / e.sum(axis=1, keepdims=True)
    return [s, (X - X.mean(0)) / X.std(0), X / X.max()]


@prog(r(50, seed=24))
def scans(xp, v):
    return [xp.cumsum(v), xp.cumprod(v / 2 + 1), xp.cumsum(v.reshape(5, 10), axis=1),
            xp.cumsum(v.reshape(5, 10), axis=0)]


# ------------------------------------------------------------------ indexing, copies
@prog(r(10, 8, seed=25))
def gathers(xp, A):
    idx = xp.asarray(np.array([3, 1, 7, 0, 3]))
    return [A[idx], A[:, idx], A[A > 0.5], A[::2, ::-1], A.T.copy(), A[2:7:2, 1::3] * 2,
            xp.take(A, idx, axis=1), A.reshape(-1)[idx * 3], xp.flip(A, axis=0)]


@prog(r(10, 8, seed=26))
def scatters(xp, A):
    B = A.copy()
    idx = xp.asarray(np.array([3, 1, 7, 0]))
    B[idx] = 0.0
    B[:, 2] = B[:, 5] * 2
    B[B < -1] = -1.0
    B[::3, ::2] += 10
    C = xp.zeros(8)
    C[2:6] = A[0, :4]
    return [B, C]


@prog(r(4, 5, seed=27), r(3, 5, seed=28))
def manip(xp, A, B):
    return [xp.concatenate([A, B], axis=0), xp.stack([A[0], B[0]]), A.T @ A, xp.tile(B, (2, 1)),
            xp.transpose(A.reshape(2, 2, 5), (2, 0, 1)) + 1, xp.repeat(A[:, 0], 2),
            xp.outer(A[0], B[1]), xp.diag(A @ A.T), xp.triu(A @ A.T)]


@prog(r(16, seed=29))
def scalar_loop(xp, v):
    s = 0.0
    acc = xp.zeros(16)
    for i in range(16):
        s = s + v[i] * 2
        acc[i] = s
        if float(v[i]) > 1.0:
            acc[i] += 100
    return [acc, s]


@prog(r(6, 6, seed=30), r(6, 6, seed=31))
def matmul_variants(xp, A, B):
    Af = A.astype(xp.float32)
    return [A @ B, A.T @ B, A @ B.T, A[::2] @ B[:, ::2], Af @ B.astype(xp.float32), A @ B[0],
            B[1] @ A, xp.einsum("ij,jk->ik", A, B), (A.reshape(2, 3, 6) @ B),
            A.astype(xp.int64) @ B.astype(xp.int64)]


@prog(r(5, 5, seed=32))
def inplace_self(xp, A):
    A[1:] += A[:-1]
    A[:, 1:] = A[:, :-1] * 2
    A[::-1] += A
    A.T[...] = A + 1
    return [A]


@prog(r(200, seed=33))
def medium_ew(xp, v):
    w = v.copy()
    for k in range(5):
        w[1:-1] = 0.25 * w[:-2] + 0.5 * w[1:-1] + 0.25 * w[2:]
        w[0] = w[-1]
    return [w, (w ** 2).sum(), xp.sort(w)]


# ------------------------------------------------------------------ libraries
@prog(r(40, 30, seed=40), r(30, 50, seed=41), r(3, 20, 10, seed=42), r(10, 7, seed=43))
def gemm_big(xp, A, B, C, D):
    Af, Bf = A.astype(xp.float32), B.astype(xp.float32)
    return [A @ B, Af @ Bf, A.T[:, :20] @ B[:20, :10], C @ D, 2.5 * (A @ B),
            (A[:, :10] @ D).T, xp.tensordot(A, B, axes=1)]


@prog(spd(6, seed=44), r(6, 3, seed=45))
def linalg_small(xp, S, b):
    return [xp.linalg.solve(S, b), xp.linalg.cholesky(S), xp.linalg.inv(S), xp.linalg.det(S),
            xp.linalg.eigvalsh(S), xp.abs(xp.linalg.qr(S)[1])]


@prog(r(7, 5, 5, seed=60), r(7, 5, 2, seed=61), r(3, 5, seed=62))
def lu_stacks(xp, A, B, v):
    # gnumpy's small LU kernel (linalg/_small.py): a stack, a broadcast batch, a vector
    A = A + 3 * xp.eye(5)
    s, ld = xp.linalg.slogdet(A)
    return [xp.linalg.solve(A, B), xp.linalg.inv(A), xp.linalg.det(A), s, ld,
            xp.linalg.solve(A[0], B), xp.linalg.solve(A[:3], v[:, :, None]),
            xp.linalg.solve(A[2], v[1]), xp.linalg.inv(A[:, ::2, ::2].swapaxes(1, 2))]


@prog(r(4, 9, 9, dtype=np.float32, seed=63), r(3, 6, 6, dtype=np.complex64, seed=64),
      r(2, 20, 20, dtype=np.complex128, seed=65), r(2, 20, 3, dtype=np.complex128, seed=66),
      r(1, 1, seed=67), r(2, 33, 33, seed=68), r(2, 33, 40, seed=69), r(36, 36, seed=71))
def lu_dtypes(xp, F, C, Z, ZB, one, G, GB, H):
    F, C, Z, G = F + 4 * xp.eye(9, dtype=F.dtype), C + 4 * xp.eye(6, dtype=C.dtype), \
        Z + 6 * xp.eye(20), G + 8 * xp.eye(33)
    return [xp.linalg.inv(F), xp.linalg.det(F), xp.linalg.solve(C, C[..., :2]),
            xp.linalg.slogdet(C)[0], xp.linalg.solve(Z, ZB), xp.linalg.det(Z),
            xp.linalg.inv(one), xp.linalg.solve(G, GB), xp.linalg.det(G / 4),
            xp.linalg.solve(H + 8 * xp.eye(36), H[:, :2]), xp.linalg.inv(H + 8 * xp.eye(36))]


@prog(r(6, 5, 5, seed=72), r(3, 7, 7, dtype=np.complex128, seed=73),
      r(2, 40, 40, dtype=np.float32, seed=74), r(4, 4, seed=75))
def chol_stacks(xp, A, C, F, N):
    # gnumpy's small Cholesky kernel: lower and upper factors of stacks (only that triangle
    # read: the other holds junk), complex, float32 in double precision, not definite
    S = A @ A.swapaxes(1, 2) + 5 * xp.eye(5)
    H = C @ xp.conj(C.swapaxes(1, 2)) + 7 * xp.eye(7)
    P = F @ F.swapaxes(1, 2) / 40 + xp.eye(40, dtype=F.dtype)
    junk = xp.triu(A, 1) * 100
    errs = []
    for M in (N, N - 10 * xp.eye(4), xp.full((2, 3, 3), xp.nan)):
        try:
            xp.linalg.cholesky(M)
            errs.append(0)
        except np.linalg.LinAlgError:
            errs.append(1)
    U = xp.linalg.cholesky(H, upper=True)
    return [xp.linalg.cholesky(S + junk), xp.linalg.cholesky(S + junk.swapaxes(1, 2),
                                                             upper=True),
            xp.linalg.cholesky(H), U, xp.signbit(xp.imag(U)), xp.linalg.cholesky(P), errs]


@prog(r(5, 6, 4, seed=76), r(3, 4, 7, dtype=np.complex128, seed=77),
      r(2, 9, 9, dtype=np.float32, seed=78), r(4, 5, 5, dtype=np.complex64, seed=79),
      r(2, 40, 33, seed=80), r(7, 7, seed=81), r(2, 54, 54, dtype=np.complex128, seed=82))
def qr_stacks(xp, T, W, F, C, B, S, L):
    # gnumpy's small QR kernel: tall, wide and square stacks in every mode, float32 and
    # complex64 in double precision, a zero column (no reflector: tau 0), complex columns
    # zero below the diagonal (the diagonal made real), one matrix alone, the largest order
    Z = T * 1
    Z[:, :, 1] = 0
    U = C * 1
    U[:, 1:, 0] = 0
    U[:, 4, 3] = 0
    out = []
    for M in (T, W, Z):
        for mode in ("reduced", "complete"):
            out += list(xp.linalg.qr(M, mode=mode))
        out.append(xp.linalg.qr(M, mode="r"))
        out += list(xp.linalg.qr(M, mode="raw"))
    N = T[:2] * 1
    N[1, 2, 1] = xp.nan         # NaN spreads as LAPACK spreads it (its scans of non-zeros)
    out += list(xp.linalg.qr(T[:3] * 1e-300)) + list(xp.linalg.qr(N))   # tiny: rescaled
    inf, nan = xp.inf, xp.nan   # a NaN beats an infinity in |beta| (dlapy2); rows below a
    E = xp.asarray([[[-inf, 1.0], [nan, 2.0], [1.0, 0.0]],     # reflector's last non-zero
                    [[1.0, 1.0], [2.0, 1.0], [0.0, inf]],      # entry and columns zero
                    [[nan, 0.0], [1.0, 0.0], [2.0, 0.0]]])     # there are left alone
    out += list(xp.linalg.qr(E)) + list(xp.linalg.qr(E, "raw"))
    return out + list(xp.linalg.qr(F)) + list(xp.linalg.qr(U)) + list(xp.linalg.qr(U, "raw")) \
        + list(xp.linalg.qr(B, mode="complete")) + list(xp.linalg.qr(S)) + \
        list(xp.linalg.qr(L))


@prog(r(50, seed=83), r(6, 7, seed=84), r(6, 7, dtype=np.float32, seed=85))
def concat_pieces(xp, v, M, F):
    # pieces of one shape written by kernels of many outputs (backends/cuda.py, _concat):
    # elements of a vector, lazy pieces, views, a repeated piece, more pieces than one
    # kernel takes (40 > 32), mixed dtypes, stacks along inner axes, pieces of two shapes
    els = [v[i] for i in range(40)]
    return [xp.array(els), xp.stack(els[:5]), xp.asarray([v.sum(), v.max(), v[3] * 2]),
            xp.stack([M, M * 2, M[::-1]], axis=1),
            xp.stack([M[0], F[0], M[1] + F[1]], axis=-1), xp.concatenate([v[i:i + 5] for i in
                                                                         range(0, 40, 5)]),
            xp.concatenate([M, M[:2], F[1:3] * 2, M[3:5]]), xp.stack([M[:, 2]] * 3),
            xp.array([v[1:4], v[4:7] * v[0]])] + _stack_then_write(xp, v)


def _stack_then_write(xp, v):
    # a stack of elements read from their memory keeps their values when it is written
    # after (the stack is a pending reader of it, as the elements' copies are)
    e = [v[i] for i in range(3)]
    s, t = xp.stack(e), xp.array(e[1:])
    v[0:3] = -1.0
    v[1] += 5
    return [s, t, e[1], v[:4]]


@prog(r(50, seed=86), r(6, 9, seed=87))
def argsort_index(xp, x, M):
    # an argsort's indices index with no bounds check (index_bounds.known) until written:
    # an out-of-range index written into them, or into a view's base, then raises
    i = xp.argsort(x)
    j = xp.argsort(M, axis=0)
    out = [x[i], x[i[::-1][:7]], xp.take_along_axis(M, j, axis=0), M[j[:, 1], 2]]
    errs = []
    for k, bad in enumerate((lambda t: t.__setitem__(0, 50), lambda t: t.__iadd__(25),
                             lambda t: t.__setitem__(slice(3, 4), -51))):
        t = xp.argsort(x)
        v = t[:10]
        if k != 1:
            out.append(x[t])        # (materialized, in bounds, before the write)
        bad(t)
        try:
            out.append(x[t if k == 1 else v])
            errs.append(0)
        except IndexError:
            errs.append(1)
    return out + [errs]


@prog(r(3, 4, 4, seed=70))
def lu_singular(xp, A):
    S = A * 1                   # a stack whose middle matrix is singular (two equal rows)
    S[1, 2] = S[1, 0]
    Z = A * 0
    Z[:, 0, 0] = 1.0
    N = A + 3 * xp.eye(4)
    N[0, 1, 2] = xp.nan
    errs = []
    for f in (lambda: xp.linalg.solve(S, A), lambda: xp.linalg.inv(S[1]),
              lambda: xp.linalg.solve(A[0] * 0, A[0])):
        try:
            f()
            errs.append(0)
        except np.linalg.LinAlgError:
            errs.append(1)
    return [errs, xp.linalg.det(Z), xp.linalg.slogdet(Z)[0], xp.linalg.slogdet(Z)[1],
            xp.linalg.solve(N, A[:, :, :1]), xp.linalg.inv(N)]


@prog(r(37, seed=46), r(5, 8, dtype=np.int32, seed=47))
def sorting(xp, v, M):
    return [xp.sort(v), xp.argsort(v), xp.sort(M, axis=1), xp.unique(M), xp.searchsorted(xp.sort(v), v[:5]),
            xp.median(v), xp.percentile(v, 30)]


@prog(r(2000, 3, seed=48), r(3000, seed=49))
def multiblock(xp, A, v):
    w = v.copy()
    for k in range(3):
        w[1:-1] = 0.5 * w[1:-1] + 0.25 * (w[:-2] + w[2:])
    return [A.sum(axis=0), A.sum(axis=1), A.max(), (A * 2 - 1).mean(axis=0), w, xp.cumsum(v),
            v[v > 0].sum(), xp.where(v > 0, v, 0).sum(), (A[:, 0] @ A[:, 1])]


@prog(r(16, 300, seed=50), r(300, 200, seed=51), r(200, seed=52), r(200, 90, seed=53),
      r(90, seed=54))
def dense_layers(xp, x, w1, b1, w2, b2):
    h = xp.maximum(x @ w1 + b1, 0)              # a library call, then the bias and ReLU
    y = xp.maximum(h @ w2 + b2, 0)
    z = x @ w1                                  # a product kept and read again
    return [y, xp.maximum(z + b1, 0), z, xp.maximum(h.T[:, :9].T @ w2[:, ::2], 0)]


@prog(r(40, 70, seed=55), r(70, 33, seed=56), r(33, seed=57))
def empty_kept_positions(xp, x, w, b):
    e = xp.zeros((100, 0, 3)) + x[0, 0]         # reductions keeping no position over a
    return [e.sum(axis=0), e.var(axis=0), (x[:0] @ w + b), xp.maximum(x[:0] @ w + b, 0),
            xp.zeros((5000, 0, 8)).max(axis=0)]  # long axis (a column plan of no blocks)


@prog(r(300, seed=58), r(300, seed=59), r(50, 60, seed=60))
def several_roots_replayed(xp, A, B, M):
    # materializations of several roots at once, met again each iteration (replayed as the
    # one group a schedule made of them, without a schedule): a mask over pending state
    # (computed with the arrays it reads, mandelbrot's ``Z[I]``), and two pending readers
    # sharing a node, flushed together before their memory is written (vadv's Thomas step)
    out = []
    Z, C = A * 0.5, B * 0.25
    for i in range(4):
        Z = Z * Z + C
        I = xp.abs(Z) < 1.0
        out.append(Z[I])
        s = A[1:] - A[:-1]
        d = 1.0 / (s * s + 2.0)
        e = s * d
        del s                                   # (d and e share it: flushed together)
        A[1:] = A[:-1] * 0.5 + e[0]             # reads and writes A: d, e flushed first
        out += [d, e]
    for i in range(3):                          # the same, over strided and 2-D layouts
        S = M[:, ::2] if i % 2 else M[::2, :]
        t = S * 2.0 - 1.0
        u, w = t * t + S, t - S
        del t
        M[:] = M * 0.9                          # flushes u and w (one node under both)
        out += [u, w, M[S.shape[0] // 2] if i % 2 else M[:, 1]]
    return out + [A, Z]


@prog(r(6, 5, 8, seed=61), r(40, 3, 3, seed=62))
def view_offsets_replayed(xp, A, G):
    # statements replayed at a new offset each iteration where the kernel reads its operand
    # at a constant from the leaf's own offset: a reshape of a non-contiguous slice (an
    # operand read through reshape levels, its offset a level parameter) and elements and
    # rows of small matrices broadcast into a product's terms (scattering_self_energies)
    out = []
    for i in range(5):
        v = A[i, 1:, 2:6]                       # (4, 4) of a (5, 8) plane: not contiguous
        out.append(v.reshape(2, 8) * 2.0 + 1.0)
        out.append(v.T.reshape(16)[3:11] - A[i, 0, 0])
    for k in range(6):
        acc = G[k] @ G[k + 7] + G[2 * k + 1] * G[k + 20][1, 2]
        out.append(acc)
        G[k + 30] += acc
    F = A.reshape(-1)
    for k in (0, 4, 8):                         # two views of one buffer whose reads meet
        x, y = F[k:k + 4], F[2 * k + 1:2 * k + 5]       # at one element only at k = 0:
        out.append((x * 2.0)[1:] + (y * 3.0)[:3])       # one operand there, two after
        out.append((y * 3.0)[:3] + (x * 2.0)[1:])
    for k, m in ((0, 1), (16, 33), (32, 65)):   # the same through reshape levels
        x, y = F[k:k + 8].reshape(2, 4), F[m:m + 8].reshape(2, 4)
        out.append((x * 2.0)[:, 1:3].reshape(4) + (y * 3.0)[:, 0:2].reshape(4))
    return out + [G]


@prog(r(6, 6, seed=90), r(3, 3, seed=91), r(4, 3, 3, dtype=np.complex128, seed=92),
      r(3, 2, 2, dtype=np.float32, seed=93), r(5, 5, dtype=np.int64, seed=94),
      r(16, 4, 4, seed=95))
def small_products_aliased(xp, A, B, C, F, I, X):
    # few-term products (one small_matmul node each, read across positions) written over
    # memory they read elsewhere: NumPy's values, the product computed before the write
    out = [(A[:3, :3].sum(0, keepdims=True) @ B) * 2.0,        # a product of a reduction
           (A[:3, :3] @ B).sum(0), C @ B, C[1:3] @ (B * 2.0),   # broadcast batches, views
           X[::-1] @ (X - X.max(2, keepdims=True))]     # row maxima read in other rows
    A[:3, :3] = A[:3, :3] @ B
    A[1:4, 1:4] = A[:3, :3] @ B             # shifted: reads rows it overwrites
    A[:3, 3:] += A[:3, :3] @ A[:3, 3:]      # reads the block it updates and its left
    A[:2, :2] = A[:2, :2].T @ A[:2, :2]     # a transposed operand
    V = A[3:, 3:]
    V @= B                                  # in place, through a view
    xp.matmul(A[:3, 3:], A[:3, 3:], out=A[:3, 3:])
    for k in range(3):                      # scattering_self_energies' statement
        C[k + 1] += (C[k] @ B) @ (C[(k + 2) % 4] * A[k, k])
    F[1:] = F[:-1] @ F[1:]                  # a stack over the stack shifted by one
    I[1:, :4] = I[:4, :4] @ I[:4, :4]
    return out + [A, C, F, I]


def counts(n, hi, dtype, seed=0):
    """Non-negative integers below `hi` of `dtype` (bins for bincount, read as they are)."""
    return lambda seed2: np.random.default_rng(seed * 1000 + seed2).integers(
        0, hi, n).astype(dtype)


@prog(r(3000, seed=63), r(3000, seed=64, lo=0.0), r(500, dtype=np.int64, seed=65),
      counts(900, 40, np.int64, seed=66), counts(700, 5000, np.int32, seed=67),
      counts(600, 200, np.uint8, seed=68))
def weighted_counts(xp, R, W, K, B64, B32, B8):
    # the fixed-function kernels that accumulate (atomics): histograms and bincount with
    # and without weights, NPBench azimint_hist's two histograms and their ratio, more bins
    # than a block sums in shared memory, integer data (its bins by the fused index), and
    # bins in memory: int64 and int32 read as they are (a strided view copied), uint8 cast
    hu = xp.histogram(R, 40)[0]
    hw = xp.histogram(R, 40, weights=W)[0]
    k = xp.abs(K) % 17
    return [hu, hw, hw / xp.maximum(hu, 1), xp.bincount(k, weights=W[:500]),
            xp.bincount(k[::3], weights=W[1000:1500:3], minlength=20), xp.bincount(k),
            xp.bincount(k, minlength=5000), xp.histogram(K, 9)[0],
            xp.histogram(K, 9, weights=W[:500])[0], xp.bincount(B64),
            xp.bincount(B64[::2], weights=W[:450]), xp.bincount(B32, minlength=10),
            xp.bincount(B32, weights=W[:700]), xp.bincount(B8), xp.bincount(B8[5:])]


def near_edges(dtype, bins, rng=None, n=600, seed=0):
    """Random values of `dtype` with the edges of ``np.histogram(values, bins, rng)`` and
    their neighbours one ulp apart (those of the outer edges inside the data's range where
    the range is the data's): the values NumPy's edge corrections move between bins."""
    def make(seed2):
        g = np.random.default_rng(seed * 1000 + seed2)
        x = (g.standard_normal(n) * 3).astype(dtype)
        e = np.histogram_bin_edges(x, bins, rng)
        up, down = np.nextafter(e, np.inf), np.nextafter(e, -np.inf)
        if rng is None:
            up, down = up[:-1], down[1:]
        v = np.concatenate([x, e.astype(dtype), up.astype(dtype), down.astype(dtype)])
        return g.permutation(v).astype(dtype)
    return make


@prog(near_edges(np.float64, 7, seed=66), near_edges(np.float32, 10, seed=67),
      near_edges(np.float64, 49, (0.0, 1.0), seed=68),
      near_edges(np.float32, 37, (0.1, 0.7), seed=69), r(900, seed=70, lo=0.0))
def histogram_edges(xp, A, B, C, D, W):
    # the equal-bins histogram kernel (bin, edge corrections, count or weight sum in one
    # pass) on values at the edges and one ulp either side: float64 and float32 data,
    # ranges of the data, of Python floats (edges in float64, values in float32) and of
    # ints, NaN and infinities outside a given range, more bins than a block sums in
    # shared memory, a strided view, no values
    C = xp.concatenate([C, xp.asarray([np.nan, np.inf, -np.inf, 0.5])])
    out = list(xp.histogram(A, 7)) + list(xp.histogram(B, 10, weights=W[:B.shape[0]] - 1.0))
    out += [xp.histogram(C, 49, range=(0.0, 1.0))[0], xp.histogram(D, 37, range=(0.1, 0.7))[0],
            xp.histogram(D, 37, range=(0.1, 0.7), weights=W[:D.shape[0]])[0],
            xp.histogram(B, 30, range=(0, 3))[0], xp.histogram(A, 5000)[0],
            xp.histogram(A, 3000, weights=W[:A.shape[0]] - 0.5)[0],
            xp.histogram(A[::3], 5)[0], xp.histogram(C[:0], 4, range=(0, 1))[0],
            xp.histogram(B, 6, weights=W[:B.shape[0]] > 1.0)[0]]
    return out


@prog(r(13, 13), r(13, 13), r(13, 13, dtype=np.complex128))
def boundary_writes(xp, P, B, Z):
    # cavity_flow's pressure loop: a snapshot copy indexed at once (its views are its
    # memory), the stencil into the interior, then the boundary rows and columns as
    # copies of their neighbours and constants; the constants of every kind of scalar
    kept = []
    for q in range(3):
        pn = P.copy()
        P[1:-1, 1:-1] = 0.25 * (pn[1:-1, 2:] + pn[1:-1, :-2] + pn[2:, 1:-1] + pn[:-2, 1:-1]) \
            - B[1:-1, 1:-1]
        P[:, -1] = P[:, -2]
        P[0, :] = P[1, :]
        P[:, 0] = P[:, 1]
        P[-1, :] = 0
        kept.append(pn[2:5, ::2] * 1.0)
    B[:-1:2, 1] = B[1::2, 1]
    B[:, 3] = float("nan")
    B[2, :] = -0.0
    Z[1, :] = 2.5
    Z[:, 2] = Z[:, 3]
    Z[3, 1:] = -7
    B[0, :] = B[0, 3] * 2.0         # one element of the written row, broadcast
    B[1:, 4] = B[5, 5]
    return [P, B, Z] + kept


@prog(r(5000, seed=67))
def mask_compactions(xp, Y):
    # boolean masks on either side of the compaction's tiles (2048 elements), with none,
    # one and all set: the count is the scan's total (more than 1024 tiles, the scan's
    # chunk: tests/test_indexing_masks.py on a GPU)
    out = []
    for n in (0, 1, 2047, 2048, 2049, 5000):
        y = Y[:n]
        for m in (y > 0, y > 9.0, y > -9.0, y[::-1] < 0.5):
            out += [y[m], xp.flatnonzero(m), xp.count_nonzero(m)]
            z = y.copy()
            z[m] = -1.0
            out.append(z)
    w = xp.argwhere(Y.reshape(50, 100) > 1.0)
    return out + [w, xp.asarray(3.0)[xp.asarray(True)], xp.asarray(3.0)[xp.asarray(False)]]


@prog(r(5, 4, dtype=np.float32, seed=68), r(5, 4, seed=69), r(5, 4, dtype=np.int8, seed=70),
      r(5, 4, dtype=np.int64, seed=71))
def cast_temporaries(xp, A, B, I, J):
    # a[k] = t, t a lazy temporary of another dtype or shape: the write computes its cast
    # or broadcast, reading the written memory shifted, reversed, broadcast from one row
    # or through a reduction (a conv step's float64 sum into float32 output)
    out = []
    for a, b in ((A, B), (I, J)):
        a[1:] = a[:-1] * b[1:]
        a[:, :] = a[0] * b[0] + a[:, ::-1]
        a[:] = a[::-1] + b
        a[1:4, 1:] = xp.sum(a[:, :, None] * b[:, None, :4], axis=0)[1:, 1:]
        a[:, 0] = a[:, 1] + b[:, 0]
        a[:, 1] = a[:, 0] - b[:, 1]
        t = a[1:3] * b[1:3]
        a[1:3] = t
        a[0] = t[0]
        out += [a.copy(), t]
    return out


@prog(r(12, 160, seed=72), r(12, 160, dtype=np.float32, seed=73),
      r(12, 160, dtype=np.int16, seed=74), r(12, 160, dtype=np.int8, seed=75))
def many_views(xp, A, B, I, J):
    # elementwise kernels of many aligned shifted views: within config.ew_held_regs they
    # unroll less and load narrower vectors (render_ew._within_registers; hdiff's 31 views)
    out = []
    for a in (A, B, I, J):
        for n in (3, 5, 9, 17, 31):
            acc = None
            for k in range(n):
                di, dj = k % 4, 16 * (k // 4)
                t = a[di:di + 8, dj:dj + 32] * (k % 3 + 1)
                acc = t if acc is None else (acc - t if k % 2 else acc + t)
            out.append(acc)
        if a.dtype.kind == "f":
            lap = 4.0 * a[1:11, 1:-1] - (a[2:12, 1:-1] + a[0:10, 1:-1] + a[1:11, 2:] +
                                         a[1:11, :-2])
            res = lap[1:, 1:-1] - lap[:-1, 1:-1]
            flx = xp.where(res * (a[2:11, 2:-2] - a[1:10, 2:-2]) > 0, 0, res)
            out.append(a[2:10, 2:-2] - 0.5 * (flx[1:] - flx[:-1]))
    return out


@prog(r(16, 3, seed=76), r(3, 300, seed=77), r(300, seed=78), r(300, 90, seed=79),
      spd(5, seed=80), r(5, 2, seed=81), r(300, seed=82), r(30, dtype=np.float32, seed=83))
def library_programs(xp, X, W1, b1, W2, S, B, v, f):
    # materializations with library calls inside, met again each iteration (replayed as a
    # whole, cuda_program: the calls made on the new graph's nodes, their lazy operands
    # computed into slots and realized): more iterations than a reader needs to be made
    out = []
    ev = getattr(xp, "evaluate", lambda *a: None)
    for i in range(20):
        h = xp.maximum(X @ W1 + b1 * (i % 3), 0)        # kept: realized as the call's operand
        z = h @ W2 + 0.5 * i
        m = xp.max(z, axis=-1, keepdims=True)
        y = xp.exp(z - m) / xp.sum(xp.exp(z - m), axis=-1, keepdims=True)
        ev(y)
        t = S * (1.0 + 0.1 * (i % 4))                   # one lazy operand of two calls
        u = (t @ B) + (t.T @ B)
        ev(u)
        w = (W2 * (i - 10)).T @ (v + 1.0)               # a call as the root
        ev(w)
        s = xp.sort(f * (i - 7)) * 2 + xp.cumsum(v[:30] * i)
        ev(s)
        c = xp.concatenate([v[:10] * i, v[20:] + 1]) * 3
        ev(c)
        x = xp.linalg.solve(S + i * xp.eye(5), B - i)
        ev(x)
        out += [h, y, u, w, s, c, x] if i % 6 == 5 else [y, w]
    # writes whose values hold library calls (a program whose last kernel writes the
    # destination): read element for element (nbody's ``vel += hstack(...) * dt``),
    # shifted (the general path's own buffer first), a call as the value (a copy), a
    # reduction of a product into one element
    H = xp.maximum(X @ W1, 0)
    V = xp.zeros((16, 180))
    Y = v[:60].copy()
    R = xp.zeros(4)
    for i in range(20):
        V[2:] += xp.hstack(((H[2:] + i) @ W2, (H[2:] - i) @ W2)) * 0.5
        ev(V)
        Y[1:] = Y[:-1] * 0.5 + (W2.T[:59] + i) @ b1
        ev(Y)
        Y[:30] = xp.sort(Y[30:] * (i - 9))
        ev(Y)
        R[i % 4] = ((W2[:, :5] * (i + 2)) @ v[:5]).sum()
        ev(R)
    # constants: one node read in two places, then two nodes in those places (which
    # constants are one node is part of the signature; a call's constant operand is
    # realized into memory, the other stays a kernel parameter)
    for i in range(20):
        z = xp.full((3,), 1.0 + i)
        q = xp.concatenate([z, z])
        ev(q)
        t = xp.full((5,), 2.0 + i)
        e = xp.cumsum(t) + t
        ev(e)
    a, b = xp.full((3,), 7.0), xp.full((3,), 9.0)
    c, d = xp.full((5,), 1.0), xp.full((5,), 100.0)
    q2, e2 = xp.concatenate([a, b]), xp.cumsum(c) + d
    ev(q2)
    ev(e2)
    for i in range(20):                 # and the other way round
        e3 = xp.cumsum(xp.full((5,), 1.0 + i)) + xp.full((5,), 100.0)
        ev(e3)
    t = xp.full((5,), 2.0)
    e4 = xp.cumsum(t) + t
    ev(e4)
    return out + [V, Y, R, q, e, q2, e2, a, b, c, d, e3, e4]


@prog(spd(30, seed=90), r(40, 40, lo=3.0, seed=91), r(40, seed=92))
def ordered_element_writes(xp, S, L, b):
    # solver loops whose element statements read, through vectors, what the statements
    # before them wrote (one warp runs a sequence of them in order: cuda_sequence):
    # sequences longer than one launch's words, float32 ones, and other work between
    A = S.copy()
    n = A.shape[0]
    A[0, 0] = xp.sqrt(A[0, 0])
    for i in range(1, n):                       # cholesky: two types of entry a row
        for j in range(i):
            A[i, j] -= xp.dot(A[i, :j], A[j, :j])
            A[i, j] /= A[j, j]
        A[i, i] -= xp.dot(A[i, :i], A[i, :i])
        A[i, i] = xp.sqrt(A[i, i])
    F = S[:12, :12].astype(xp.float32)
    for i in range(1, 12):                      # float32, a constant in the sum
        for j in range(i):
            F[i, j] = (F[i, j] - xp.dot(F[i, :j], 0.5 * F[j, :j])) / F[j, j]
    x = xp.zeros_like(b)
    for i in range(40):                         # trisolv, then its reversed twin
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
    y = xp.zeros_like(b)
    for i in range(39, -1, -1):
        y[i] = (b[i] - xp.dot(xp.flip(L[i, i + 1:]), xp.flip(y[i + 1:]))) / L[i, i]
    z = b.copy()
    seen = []
    for i in range(1, 40):                      # sums (the vector itself), a sum reading
        z[i] = z[:i].sum() * 0.25 + z[i]        # the element it writes, host reads and
        if i % 7 == 0:                          # vector writes between entries, a lazy
            seen.append(float(z[i - 1]))        # reader kept across the writes
        if i % 11 == 0:
            z[i:i + 3] *= 0.5
        if i == 20:
            keep = z[:25] * 2.0
    w = xp.zeros(40)
    u = xp.zeros(40)
    for i in range(1, 40):                      # two buffers, each reading the other
        w[i] = xp.dot(u[:i], b[:i]) + 1.0
        u[i] = w[i] - xp.dot(w[:i], b[:i]) * 0.01
    return [A, F, x, y, z, xp.asarray(seen), keep, w, u]


@prog(r(10, 10, seed=93), r(20000, seed=94))
def ordered_writes_special(xp, A, big):
    # NaN, inf and -0.0 through sequenced entries, an empty sum, and a reduction too long
    # for one warp (its own kernel) among short ones
    B = A.copy()
    B[2, 3] = np.nan
    B[4, 1] = np.inf
    B[5, 0] = -0.0
    for i in range(10):
        for j in range(10):
            B[i, j] = B[i, j] - xp.dot(B[i, :j], B[j, :j]) * 1e-3
    v = xp.zeros(6)
    for i in range(6):
        v[i] = xp.dot(big[:0], big[:0]) - 0.0 * i
        v[i] += xp.dot(big[: 3 + i], big[3: 6 + 2 * i: 1][: 3 + i])
        if i == 3:
            v[i] += big.sum()                   # 20,000 elements: not a sequence entry
    return [B, v]


@prog(r(50, 50, seed=95), r(300, seed=96), r(70, 60, seed=97), r(40, 30, seed=98,
                                                               dtype=np.float32))
def ordered_vector_writes(xp, A, rr, G, F):
    # rows, columns and reversed vectors written in order by one warp (each value computed
    # whole before it is stored: it may read its destination shifted), between element
    # writes; vectors longer than a warp's share (VECTOR_MAX) take kernels of their own
    M = A.copy()
    for t in range(2):
        for i in range(1, 49):                  # seidel's rows, then its elements
            M[i, 1:-1] += (M[i - 1, :-2] + M[i - 1, 1:-1] + M[i - 1, 2:] + M[i, 2:] +
                           M[i + 1, :-2] + M[i + 1, 1:-1] + M[i + 1, 2:])
            M[i, 1:-1] *= 0.1
            if i % 16 == 0:
                for j in range(1, 49):
                    M[i, j] += M[i, j - 1]
                    M[i, j] /= 9.0
    rr = rr * 0.02                              # (a well-conditioned system)
    y = xp.zeros(300)                           # durbin: a vector write reading itself
    y[0] = -rr[0]                               # reversed, scaled by an element value
    beta, alpha = 1.0, -rr[0]                   # holding a reduction
    for k in range(1, 300):
        beta = beta * (1.0 - alpha * alpha)
        alpha = -(rr[k] + xp.dot(xp.flip(rr[:k]), y[:k])) / beta
        y[:k] += alpha * xp.flip(y[:k])
        y[k] = alpha
    Q = xp.zeros_like(G)                        # gramschmidt: columns (strided), their
    R = xp.zeros((60, 60))                      # norms and dots as elements
    H = G.copy()
    for k in range(60):
        nrm = xp.dot(H[:, k], H[:, k])
        R[k, k] = xp.sqrt(nrm)
        Q[:, k] = H[:, k] / R[k, k]
        for j in range(k + 1, 60):
            R[k, j] = xp.dot(Q[:, k], H[:, j])
            H[:, j] -= Q[:, k] * R[k, j]
    E = F.copy()                                # float32 columns, reversed destinations
    for j in range(1, 30):
        E[:, j] = E[:, j - 1] * 0.5 + E[::-1, j] - xp.sum(E[:, j - 1]) * 0.01
        E[::-1, j - 1][:20] += 1.0
    return [M, y, Q, R, H, E]


@prog(r(60, 50), r(30, 30), r(30, 30))
def ordered_library_writes(xp, D, A, E):
    # a library call's result written twice (covariance's and correlation's chained
    # assignments): the call runs ahead of the sequence's waiting writes, which read and
    # write other memory; one that reads a row a waiting write changes runs after it
    cov = xp.zeros((50, 50))
    for i in range(50):
        cov[i:, i] = cov[i, i:] = D[:, i] @ D[:, i:] / 59.0
    corr = xp.eye(50)
    for i in range(49):
        corr[i + 1:, i] = corr[i, i + 1:] = D[:, i] @ D[:, i + 1:]
    B = A.copy()
    C = xp.zeros((30, 30))
    for i in range(1, 30):
        B[i, :] = (B[i - 1, :] @ A) * 0.2
        C[i, :] = (B[i, :] @ E) * 0.02
    return [cov, corr, B, C]


@prog(r(300, 240), r(240), r(300), r(260, 280, dtype=np.float32, lo=0.5),
      r(280, dtype=np.float32, lo=0.5), r(260, dtype=np.float32, lo=0.5), r(700))
def matvec_pairs(xp, A, p, r, B, q, s, v):
    # ``x @ A`` and ``A @ y`` of one matrix materialized together: one pass over A, the
    # blocks' row dots and column sums added in a fixed order; transposed and sliced
    # matrices, strided and reversed vectors, scaled operands, float32 (positive: its sums
    # in another order than NumPy's, without cancellation); two products of one form stay
    # the library's
    def both(x, y):
        if hasattr(xp, "evaluate"):
            xp.evaluate(x, y)
        return [x, y]
    out = both((2.0 * r) @ A, A @ (p * 0.5))
    out += both(A.T @ v[:600:2], p[::-1] @ A.T)
    out += both(A[:290, 1:] @ p[1:], r[:290] @ A[:290, 1:])
    out += both(s @ B, B @ q)
    out += both(A @ p, A @ v[:240])
    return out


@prog(r(300, 240), r(240), r(300), r(300), r(240))
def matvec_pair_writes(xp, A, y1, y2, x1, x2):
    # mvt's ``x1 += A @ y1; x2 += y2 @ A``: both statements' products in one pass over A,
    # each added to its destination (a view, reversed, scaled); a statement reading what
    # the one before it wrote, or products with lazy operands, run one after the other
    def ev(*a):
        if hasattr(xp, "evaluate"):
            xp.evaluate(*a)
    x1, x2 = x1.copy(), x2.copy()
    X = xp.zeros((2, 300))
    ev(x1, x2, X)
    for k in range(2):
        x1 += A @ y1                    # roots: one materialization (a program replay)
        x2 += y2 @ A
        ev(x1, x2)
        X[k % 2, :] = 0.5 * X[k % 2, :] + (A * 0.5) @ x2     # writes into views
        x2[::-1] += (2.0 * x1) @ A
        X[1, :] = A @ y1
        x2[:] += X[1, :] @ A            # reads the row just written: not paired
        x1 += A @ (x2 * 0.01)           # a lazy operand
        x2 = x2 + x1[:240] @ A.T[:, :240]
    return [x1, x2, X]
