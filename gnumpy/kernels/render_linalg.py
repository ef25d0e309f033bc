"""CUDA sources of the small LU and Cholesky kernels: ``solve``, ``inv``, ``det``,
``slogdet`` and ``cholesky`` of matrices up to a few dozen rows, one thread block per
matrix of a stack, in one launch.

The block loads its matrix into shared memory and factors it there in double precision
for every input dtype, as NumPy's linalg computes (single-precision results are rounded
when stored), with reference LAPACK's partial pivoting (``xgetf2``: the pivot is the
first row of largest |re| + |im| in the column, a NaN in the first place stays, a zero
pivot is recorded as the status and the factorization goes on; NumPy's OpenBLAS may
pivot past a NaN, so results of matrices holding NaN can differ).  It then solves for
the right-hand sides (the rows permuted, forward substitution with the unit lower factor,
back substitution with the upper one) a warp per column when they are few, each step a
shuffle of the finished entry and every row's update at once, else a thread per column
updating column by column.  It writes X (row-major, n x k per matrix), or the identity's
columns when ``ident`` (the inverse), or NumPy's ``slogdet`` of the factored diagonal (in
its order) and ``det``, its ``sign * exp(logdet)``; the status of each matrix goes to
``info``.

cuSOLVER's getrf and getrs (or potrf) are several launches per matrix and are called
once per matrix of a stack; these are one launch for the whole stack
(``linalg/_small.py`` decides which calls take them).  The Cholesky kernel:
``chol_source``; the Householder QR kernel: ``render_qr.py``.
"""
from __future__ import annotations

import numpy as np

from .. import _dtypes as D
from .codegen import headers
from .types import STORAGE

# The largest order per dtype: the matrix lives in static shared memory (48 KiB) in the
# double-precision compute type.
NMAX = {"f": 64, "c": 54}


def nmax(dt) -> int:
    """The largest order the kernel takes for dtype `dt`."""
    return NMAX[np.dtype(dt).kind]


def nmax_class(n: int, dt) -> int:
    """The shared-memory order a kernel for matrices of order `n` is compiled for."""
    for c in (4, 8, 16, 32):
        if n <= c:
            return c
    return nmax(dt)


def threads(nm: int) -> int:
    """Threads per block of the kernel of order class `nm`."""
    return 32 if nm <= 8 else 64 if nm <= 16 else 128 if nm <= 32 else 256


def warp_columns(n: int, k: int, nt: int) -> bool:
    """Does the kernel solve `k` right-hand sides of order `n` a warp per column (few
    columns: each of n steps a shuffle and an update of every row at once) rather than a
    thread per column (n^2 updates each)?  The cheaper by rounds times steps."""
    return -(-k * 32 // nt) * n * 25 < -(-k // nt) * n * n * 2


def _types(dt) -> dict:
    """The pieces of CUDA a kernel of dtype `dt` is written with: storage and compute
    types (double precision), constants, format strings of loads and stores, and the
    expressions of the helpers ``_helpers`` (and ``render_qr._qr_helpers``) define."""
    dt = np.dtype(dt)
    st, t = STORAGE[dt], STORAGE[D.promote(dt, D.float64)]
    d = dict(st=st, t=t, rst=STORAGE[D.real_dtype(dt)])
    if dt.kind == "c":
        cx = f"gn_cx<{t}, double>"
        cast = "gn_cx<{0}, {1}>(({1}){2}.re, ({1}){2}.im)"
        d.update(abs1="fabs(v.re) + fabs(v.im)", absv="gn_hypot(v.re, v.im)",
                 unit_step=f"m == 0 ? sg : gn_multiply(sg, {cx}(d.re / m, d.im / m))",
                 det_expr=f"{cx}(sg.re * e, sg.im * e)", minus_one=f"{cx}(-1, 0)",
                 nonzero="(v.re != 0 || v.im != 0)", mul="gn_multiply(a, b)",
                 sub="gn_subtract(a, b)", div="gn_divide(a, b)", zero=f"{cx}(0, 0)",
                 add="gn_add(a, b)", im="v.im", make=f"{cx}(r, i)",
                 scale=f"{cx}(v.re * r, v.im * r)",
                 one=f"{cx}(1, 0)", conj=f"{cx}(v.re, -v.im)",
                 rdiv=f"{cx}(v.re / r, v.im / r)", re="v.re", from_re=f"{cx}(r, 0)",
                 shfl=f"return {cx}(__shfl_sync(0xffffffffu, v.re, src), "
                      f"__shfl_sync(0xffffffffu, v.im, src));",
                 load=cast.format(t, "double", "{0}"), store=cast.format(st, "float", "{0}"))
    else:
        d.update(abs1="fabs(v)", absv="fabs(v)", unit_step="d < 0 ? -sg : sg",
                 det_expr="sg * e", minus_one=f"({t})-1", nonzero="(v != 0)", mul="a * b",
                 sub="a - b", div="a / b", zero=f"({t})0", one=f"({t})1", conj="v",
                 add="a + b", im="0.0", make="r", scale="v * r",
                 rdiv="v / r", re="v", from_re="r",
                 shfl="return __shfl_sync(0xffffffffu, v, src);", load="(double){0}",
                 store="(float){0}")
    if st == t:
        d["load"] = d["store"] = "{0}"
    return d


def _helpers(d) -> str:
    t = d["t"]
    return f"""
__device__ __forceinline__ double lu_abs1({t} v) {{ return {d["abs1"]}; }}
__device__ __forceinline__ double lu_abs({t} v) {{ return {d["absv"]}; }}
__device__ __forceinline__ bool lu_nonzero({t} v) {{ return {d["nonzero"]}; }}
__device__ __forceinline__ {t} lu_mul({t} a, {t} b) {{ return {d["mul"]}; }}
__device__ __forceinline__ {t} lu_sub({t} a, {t} b) {{ return {d["sub"]}; }}
__device__ __forceinline__ {t} lu_div({t} a, {t} b) {{ return {d["div"]}; }}
__device__ __forceinline__ {t} lu_conj({t} v) {{ return {d["conj"]}; }}
__device__ __forceinline__ {t} lu_rdiv({t} v, double r) {{ return {d["rdiv"]}; }}
__device__ __forceinline__ double lu_re({t} v) {{ return {d["re"]}; }}
__device__ __forceinline__ {t} lu_from_re(double r) {{ return {d["from_re"]}; }}
__device__ __forceinline__ {t} lu_shfl({t} v, int src) {{ {d["shfl"]} }}
"""


def lu_source(dt, nm: int, nt: int, name: str) -> str:
    """The small LU kernel of dtype `dt` (float32/64, complex64/128) for orders up to `nm`,
    `nt` threads per block."""
    d = _types(dt)
    st, t, rst, load, store = d["st"], d["t"], d["rst"], d["load"], d["store"]
    zero, one, minus_one = d["zero"], d["one"], d["minus_one"]
    unit_step, det_expr = d["unit_step"], d["det_expr"]
    return headers(dt) + _helpers(d) + f"""
// one block per matrix (blockIdx.x): a and bm are row-major stacks (n x n, n x k); x gets
// X = A^-1 B (row-major n x k; the identity's columns for B when ident), dsign and dlog
// slogdet, ddet det (each may be null), info LAPACK's status; the right-hand sides are
// solved a warp per column when `warps`, else a thread per column
extern "C" __global__ void __launch_bounds__({nt}) {name}(const {st}* __restrict__ a,
    const {st}* __restrict__ bm, {st}* __restrict__ x, {st}* __restrict__ dsign,
    {rst}* __restrict__ dlog, {st}* __restrict__ ddet, int* __restrict__ info, long long n_,
    long long k, int ident, int warps) {{
  __shared__ {t} s[{nm} * {nm}];
  __shared__ int perm[{nm}], sig[{nm}];
  __shared__ int pivot_s, info_s;
  const int n = (int)n_, tid = threadIdx.x, lane = tid & 31;
  const long long b = blockIdx.x;
  const {st}* A = a + b * n * n;
  for (int q = tid; q < n * n; q += {nt}) s[(q / n) * {nm} + q % n] = {load.format("A[q]")};
  if (tid == 0) info_s = 0;
  __syncthreads();
  for (int j = 0; j < n; ++j) {{
    if (tid < 32) {{                    // the pivot: LAPACK's first largest |re| + |im|
      double best = -1;
      int bi = n;
      for (int i = j + lane; i < n; i += 32) {{
        const double v = lu_abs1(s[i * {nm} + j]);
        if (v > best) {{ best = v; bi = i; }}           // (a NaN never compares greater)
      }}
      for (int off = 16; off > 0; off >>= 1) {{
        const double ob = __shfl_down_sync(0xffffffffu, best, off);
        const int oi = __shfl_down_sync(0xffffffffu, bi, off);
        if (ob > best || (ob == best && oi < bi)) {{ best = ob; bi = oi; }}
      }}
      if (lane == 0) {{
        const double v0 = lu_abs1(s[j * {nm} + j]);
        if (v0 != v0 || bi == n) bi = j;   // a NaN first stays (nothing compares greater)
        pivot_s = bi;
        perm[j] = bi;
        if (!lu_nonzero(s[bi * {nm} + j]) && info_s == 0) info_s = j + 1;
      }}
    }}
    __syncthreads();
    const int p = pivot_s;
    if (p != j)
      for (int c = tid; c < n; c += {nt}) {{
        const {t} w = s[j * {nm} + c];
        s[j * {nm} + c] = s[p * {nm} + c];
        s[p * {nm} + c] = w;
      }}
    __syncthreads();
    const {t} d = s[j * {nm} + j];
    if (lu_nonzero(d)) {{
      for (int i = j + 1 + tid; i < n; i += {nt}) s[i * {nm} + j] = lu_div(s[i * {nm} + j], d);
      __syncthreads();
    }}
    const int m = n - j - 1;          // the rank-one update of the trailing block
    for (int q = tid; q < m * m; q += {nt}) {{
      const int i = j + 1 + q / m, c = j + 1 + q % m;
      s[i * {nm} + c] = lu_sub(s[i * {nm} + c], lu_mul(s[i * {nm} + j], s[j * {nm} + c]));
    }}
    __syncthreads();
  }}
  if (tid == 0) {{
    info[b] = info_s;
    for (int i = 0; i < n; ++i) sig[i] = i;         // the pivots' row permutation: row i
    for (int j = 0; j < n; ++j) {{                    // of P B is row sig[i] of B
      const int q = perm[j], w = sig[j];
      sig[j] = sig[q];
      sig[q] = w;
    }}
    if (dsign || ddet) {{       // NumPy's slogdet of the diagonal, in its order; det is
      int odd = 0;              // sign * exp(logdet)
      for (int j = 0; j < n; ++j) odd ^= perm[j] != j;
      {t} sg = odd ? {minus_one} : {one};
      double ld = 0;
      bool singular = false;
      for (int j = 0; j < n; ++j) {{
        const {t} d = s[j * {nm} + j];
        const double m = lu_abs(d);
        singular = singular || m == 0;
        sg = {unit_step};
        ld += log(m);
      }}
      if (singular) {{
        sg = {zero};
        ld = -gn_inf();
      }}
      if (dsign) {{
        dsign[b] = {store.format("sg")};
        dlog[b] = ({rst})ld;
      }}
      if (ddet) {{
        const double e = exp(ld);
        ddet[b] = {store.format(det_expr)};
      }}
    }}
  }}
  if (!x) return;
  __syncthreads();
  const {st}* B = bm + b * n * k;
  {st}* X = x + b * n * k;
#define LU_RHS(i, c) (ident ? ((i) == (c) ? {one} : {zero}) : {load.format("B[(i) * k + (c)]")})
  if (warps) {{          // a warp per column: lane l holds rows l and l + 32
    for (long long c = tid >> 5; c < k; c += {nt // 32}) {{
      {t} x0 = {zero}, x1 = {zero};
      if (lane < n) x0 = LU_RHS(sig[lane], c);
      if (lane + 32 < n) x1 = LU_RHS(sig[lane + 32], c);
      for (int j = 0; j < n - 1; ++j) {{       // forward, the unit lower factor
        const {t} xj = lu_shfl(j < 32 ? x0 : x1, j & 31);
        if (lane > j && lane < n) x0 = lu_sub(x0, lu_mul(s[lane * {nm} + j], xj));
        if (lane + 32 > j && lane + 32 < n)
          x1 = lu_sub(x1, lu_mul(s[(lane + 32) * {nm} + j], xj));
      }}
      for (int j = n - 1; j >= 0; --j) {{       // back, the upper factor
        const {t} xj = lu_div(lu_shfl(j < 32 ? x0 : x1, j & 31), s[j * {nm} + j]);
        if (lane == j) x0 = xj;
        if (lane + 32 == j) x1 = xj;
        if (lane < j) x0 = lu_sub(x0, lu_mul(s[lane * {nm} + j], xj));
        if (lane + 32 < j) x1 = lu_sub(x1, lu_mul(s[(lane + 32) * {nm} + j], xj));
      }}
      if (lane < n) X[lane * k + c] = {store.format("x0")};
      if (lane + 32 < n) X[(lane + 32) * k + c] = {store.format("x1")};
    }}
    return;
  }}
  for (long long c = tid; c < k; c += {nt}) {{
    {t} v[{nm}];
    for (int i = 0; i < n; ++i) v[i] = LU_RHS(sig[i], c);
    for (int j = 0; j < n - 1; ++j) {{        // forward, column by column: the updates of
      const {t} xj = v[j];                      // one column are independent (no chain)
      for (int i = j + 1; i < n; ++i) v[i] = lu_sub(v[i], lu_mul(s[i * {nm} + j], xj));
    }}
    for (int j = n - 1; j >= 0; --j) {{
      const {t} xj = v[j] = lu_div(v[j], s[j * {nm} + j]);
      for (int i = 0; i < j; ++i) v[i] = lu_sub(v[i], lu_mul(s[i * {nm} + j], xj));
    }}
    for (int i = 0; i < n; ++i) X[i * k + c] = {store.format("v[i]")};
  }}
}}
"""


def chol_source(dt, nm: int, nt: int, name: str) -> str:
    """The small Cholesky kernel of dtype `dt` for orders up to `nm`, `nt` threads per
    block: one block per matrix, the lower factor of the lower triangle (``upper``: the
    upper factor of the upper triangle, the conjugate transpose of the lower one of its
    conjugate transpose), factored in shared memory in double precision, right-looking
    (LAPACK's ``xpotf2`` steps: a diagonal entry's real part not positive is the status,
    and the factorization stops there; a NaN goes on, as in NumPy's OpenBLAS)."""
    d = _types(dt)
    st, t, load, store, zero = d["st"], d["t"], d["load"], d["store"], d["zero"]
    return headers(dt) + _helpers(d) + f"""
// one block per matrix (blockIdx.x) of the row-major stack a (n x n): out gets the factor
// (row-major, the other triangle zero), info LAPACK's status
extern "C" __global__ void __launch_bounds__({nt}) {name}(const {st}* __restrict__ a,
    {st}* __restrict__ out, int* __restrict__ info, long long n_, int upper) {{
  __shared__ {t} s[{nm} * {nm}];
  __shared__ int info_s;
  const int n = (int)n_, tid = threadIdx.x;
  const long long b = blockIdx.x;
  const {st}* A = a + b * n * n;
  for (int q = tid; q < n * n; q += {nt}) {{
    const int i = q / n, c = q % n;         // (upper: the conjugate transpose's lower part)
    if (c <= i) s[i * {nm} + c] = upper ? lu_conj({load.format("A[c * n + i]")})
                                        : {load.format("A[q]")};
  }}
  if (tid == 0) info_s = 0;
  __syncthreads();
  for (int j = 0; j < n; ++j) {{
    if (tid == 0) {{
      const double ajj = lu_re(s[j * {nm} + j]);
      if (ajj <= 0) info_s = j + 1;         // (a NaN goes on, as NumPy's OpenBLAS does)
      else s[j * {nm} + j] = lu_from_re(sqrt(ajj));
    }}
    __syncthreads();
    if (info_s) break;
    const double r = lu_re(s[j * {nm} + j]);
    for (int i = j + 1 + tid; i < n; i += {nt}) s[i * {nm} + j] = lu_rdiv(s[i * {nm} + j], r);
    __syncthreads();
    const int m = n - j - 1;          // the trailing lower triangle's update
    for (int q = tid; q < m * m; q += {nt}) {{
      const int i = j + 1 + q / m, c = j + 1 + q % m;
      if (c <= i)
        s[i * {nm} + c] = lu_sub(s[i * {nm} + c],
                                 lu_mul(s[i * {nm} + j], lu_conj(s[c * {nm} + j])));
    }}
    __syncthreads();
  }}
  if (tid == 0) info[b] = info_s;
  if (info_s) return;
  {st}* O = out + b * n * n;
  for (int q = tid; q < n * n; q += {nt}) {{
    const int i = q / n, c = q % n;
    const int li = upper ? c : i, lc = upper ? i : c;     // U[i][c] = conj(L[c][i])
    const {t} w = s[li * {nm} + lc];                       // (the diagonal stays +0j)
    const {t} v = lc < li ? (upper ? lu_conj(w) : w) : lc == li ? w : {zero};
    O[q] = {store.format("v")};
  }}
}}
"""

