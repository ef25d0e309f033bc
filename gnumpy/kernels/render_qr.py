"""CUDA source of the small QR kernel: ``qr`` of a stack of matrices of at most a few
dozen rows and columns, one thread block per matrix, in one launch, with reference
LAPACK's Householder steps (``xgeqr2``, then ``xorg2r`` / ``xung2r`` for Q), so that Q, R
and the raw factors are NumPy's.  cuSOLVER's geqrf and orgqr are several launches per
matrix and are called once per matrix of a stack (``linalg/_small.py`` decides which
calls take this kernel).  The types and helpers are the LU kernel's
(``render_linalg``).
"""
from __future__ import annotations

import numpy as np

from .codegen import headers
from .render_linalg import _helpers, _types


def _qr_helpers(d) -> str:
    t = d["t"]
    return f"""__device__ __forceinline__ {t} lu_add({t} a, {t} b) {{ return {d["add"]}; }}
__device__ __forceinline__ double lu_im({t} v) {{ return {d["im"]}; }}
__device__ __forceinline__ {t} lu_make(double r, double i) {{ return {d["make"]}; }}
__device__ __forceinline__ {t} lu_scale({t} v, double r) {{ return {d["scale"]}; }}
"""


def qr_source(dt, nm: int, nt: int, name: str) -> str:
    """The small QR kernel of dtype `dt` for matrices of at most `nm` rows and columns,
    `nt` threads per block: one block per matrix, Householder QR in shared memory in
    double precision with reference LAPACK's steps and conventions, so the factors are
    NumPy's: ``xgeqr2`` (each reflector by ``xlarfg``: beta = -sign(re alpha) * norm,
    a complex diagonal made real, tiny columns rescaled; applied as ``xlarf`` does, over
    the rows to the reflector's last non-zero entry and the columns to the last non-zero
    one), then Q by ``xorg2r`` / ``xung2r`` from the reflectors.  A column's reflector is
    made by one warp (its norm scaled by the largest entry); the trailing columns are
    updated a thread per column."""
    d = _types(dt)
    st, t, load, store = d["st"], d["t"], d["load"], d["store"]
    zero, one = d["zero"], d["one"]
    cplx = np.dtype(dt).kind == "c"
    # |beta|: LAPACK's dlapy2(alpha, xnorm) for real columns (a NaN wins over an
    # infinity, where C's hypot gives the infinity), dlapy3(re, im, xnorm) for complex
    lapy = "qr_lapy3(ar, ai, xn)" if cplx else "(xn != xn ? xn : ar != ar ? ar : hypot(ar, xn))"
    # x scaled by 1 / (alpha - beta): dscal by the reciprocal, zscal by zladiv(1, .)
    recip = f"lu_div({one}, lu_sub(alpha, lu_from_re(beta)))" if cplx else \
        "1.0 / (alpha - beta)"
    return headers(dt) + _helpers(d) + _qr_helpers(d) + f"""
__device__ __forceinline__ double qr_lapy3(double x, double y, double z) {{
  const double w = fmax(fabs(x), fmax(fabs(y), fabs(z)));
  if (w == 0 || w != w || isinf(w)) return fabs(x) + fabs(y) + fabs(z);
  return w * sqrt((x / w) * (x / w) + (y / w) * (y / w) + (z / w) * (z / w));
}}

// the 2-norm of a warp's entries x0, x1 (every lane gets it): scaled by the largest part
__device__ double qr_norm({t} x0, {t} x1) {{
  double mx = fmax(fmax(fabs(lu_re(x0)), fabs(lu_im(x0))), fmax(fabs(lu_re(x1)), fabs(lu_im(x1))));
  const bool nan = lu_re(x0) != lu_re(x0) || lu_im(x0) != lu_im(x0) ||
                   lu_re(x1) != lu_re(x1) || lu_im(x1) != lu_im(x1);
  for (int off = 16; off > 0; off >>= 1) mx = fmax(mx, __shfl_xor_sync(0xffffffffu, mx, off));
  if (__any_sync(0xffffffffu, nan)) return gn_nan();
  if (mx == 0 || isinf(mx)) return mx;
  double q = 0, v;
  v = lu_re(x0) / mx; q += v * v;
  v = lu_im(x0) / mx; q += v * v;
  v = lu_re(x1) / mx; q += v * v;
  v = lu_im(x1) / mx; q += v * v;
  for (int off = 16; off > 0; off >>= 1) q += __shfl_xor_sync(0xffffffffu, q, off);
  return mx * sqrt(q);
}}

// xlarf from the left: rows i..m-1 of the columns c0..c1-1 of s -= tc v (v^H C), v the
// reflector in column i below row i (v_i = 1, its last non-zero entry at row lastv);
// only columns up to the last one with a non-zero entry in those rows (``iladlc``).
// Every thread of the block calls it.
__device__ void qr_apply({t}* s, int i, int c0, int c1, int lastv, {t} tc, int* last) {{
  const int tid = threadIdx.x;
  if (tid == 0) *last = c0 - 1;
  __syncthreads();
  for (int c = c0 + tid; c < c1; c += {nt}) {{
    bool nz = false;
    for (int r = i; r <= lastv && !nz; ++r) nz = lu_nonzero(s[r * {nm} + c]);
    if (nz) atomicMax(last, c);
  }}
  __syncthreads();
  const int lastc = *last;
  for (int c = c0 + tid; c <= lastc; c += {nt}) {{
    {t} w = s[i * {nm} + c];
    for (int r = i + 1; r <= lastv; ++r)
      w = lu_add(w, lu_mul(lu_conj(s[r * {nm} + i]), s[r * {nm} + c]));
    const {t} tw = lu_mul(tc, w);
    s[i * {nm} + c] = lu_sub(s[i * {nm} + c], tw);
    for (int r = i + 1; r <= lastv; ++r)
      s[r * {nm} + c] = lu_sub(s[r * {nm} + c], lu_mul(s[r * {nm} + i], tw));
  }}
  __syncthreads();
}}

// one block per matrix (blockIdx.x) of the row-major stack a (m x n); each output may be
// null: h gets the factored matrix as LAPACK leaves it, column-major (NumPy's raw h), tau
// the reflectors' scalars (k = min(m, n)), r the upper triangle of the first mc rows
// (mc x n, row-major), q the first mc columns of Q (m x mc, row-major)
extern "C" __global__ void __launch_bounds__({nt}) {name}(const {st}* __restrict__ a,
    {st}* __restrict__ h, {st}* __restrict__ tau, {st}* __restrict__ r,
    {st}* __restrict__ q, long long m_, long long n_, long long mc_) {{
  __shared__ {t} s[{nm} * {nm}];
  __shared__ {t} tau_s[{nm}];
  __shared__ int lastv_s[{nm}], last_s;
  const int m = (int)m_, n = (int)n_, mc = (int)mc_, k = m < n ? m : n;
  const int tid = threadIdx.x, lane = tid & 31;
  const long long b = blockIdx.x;
  const {st}* A = a + b * m * n;
  for (int p = tid; p < m * n; p += {nt}) s[(p / n) * {nm} + p % n] = {load.format("A[p]")};
  __syncthreads();
  for (int i = 0; i < k; ++i) {{
    if (tid < 32) {{                  // xlarfg: the reflector of column i, by warp 0
      const int r0 = i + 1 + lane, r1 = r0 + 32;
      {t} x0 = r0 < m ? s[r0 * {nm} + i] : {zero};
      {t} x1 = r1 < m ? s[r1 * {nm} + i] : {zero};
      {t} alpha = s[i * {nm} + i], tv = {zero};
      double xn = qr_norm(x0, x1), ar = lu_re(alpha), ai = lu_im(alpha);
      if (xn != 0 || ai != 0) {{      // else H = I (tau 0)
        double beta = -copysign({lapy}, ar);
        const double safmin = 2.2250738585072014e-308 / 1.1102230246251565e-16;
        int knt = 0;
        if (fabs(beta) < safmin) {{   // a tiny column: scaled up, its norm taken again
          do {{
            ++knt;
            x0 = lu_scale(x0, 1 / safmin);
            x1 = lu_scale(x1, 1 / safmin);
            beta *= 1 / safmin;
            ar *= 1 / safmin;
            ai *= 1 / safmin;
          }} while (fabs(beta) < safmin && knt < 20);
          xn = qr_norm(x0, x1);
          alpha = lu_make(ar, ai);
          beta = -copysign({lapy}, ar);
        }}
        tv = lu_make((beta - ar) / beta, -ai / beta);
        const {t} sc = {recip};
        x0 = lu_mul(x0, sc);
        x1 = lu_mul(x1, sc);
        for (int j = 0; j < knt; ++j) beta *= safmin;
        alpha = lu_from_re(beta);
        if (r0 < m) s[r0 * {nm} + i] = x0;
        if (r1 < m) s[r1 * {nm} + i] = x1;
      }}
      const unsigned b0 = __ballot_sync(0xffffffffu, r0 < m && lu_nonzero(x0));
      const unsigned b1 = __ballot_sync(0xffffffffu, r1 < m && lu_nonzero(x1));
      __syncwarp();                   // (every lane read alpha before lane 0 writes it)
      if (lane == 0) {{
        s[i * {nm} + i] = alpha;
        tau_s[i] = tv;
        lastv_s[i] = b1 ? i + 64 - __clz((int)b1) : b0 ? i + 32 - __clz((int)b0) : i;
      }}
    }}
    __syncthreads();
    if (i + 1 < n && lu_nonzero(tau_s[i]))      // H(i)^H on the trailing columns (xgeqr2)
      qr_apply(s, i, i + 1, n, lastv_s[i], lu_conj(tau_s[i]), &last_s);
  }}
  const {st} sz = {store.format(zero)};
  if (tau) for (int p = tid; p < k; p += {nt}) tau[b * k + p] = {store.format("tau_s[p]")};
  if (h)
    for (int p = tid; p < m * n; p += {nt})
      h[b * m * n + p] = {store.format("s[(p % m) * " + str(nm) + " + p / m]")};
  if (r)
    for (int p = tid; p < mc * n; p += {nt}) {{
      const int i = p / n, c = p % n;
      r[b * mc * n + p] = c >= i ? {store.format("s[i * " + str(nm) + " + c]")} : sz;
    }}
  if (!q) return;
  __syncthreads();
  for (int p = tid; p < m * (mc - k); p += {nt}) {{   // columns k..mc-1: the unit matrix's
    const int i = p / (mc - k), c = k + p % (mc - k);
    s[i * {nm} + c] = i == c ? {one} : {zero};
  }}
  __syncthreads();
  for (int i = k - 1; i >= 0; --i) {{                 // xorg2r / xung2r
    const {t} ti = tau_s[i];
    if (i + 1 < mc && lu_nonzero(ti)) qr_apply(s, i, i + 1, mc, lastv_s[i], ti, &last_s);
    const {t} nt_ = lu_make(-lu_re(ti), -lu_im(ti));     // (-tau: -0 where tau is 0)
    for (int p = i + 1 + tid; p < m; p += {nt}) s[p * {nm} + i] = lu_mul(nt_, s[p * {nm} + i]);
    for (int p = tid; p < i; p += {nt}) s[p * {nm} + i] = {zero};
    if (tid == 0) s[i * {nm} + i] = lu_sub({one}, ti);
    __syncthreads();
  }}
  for (int p = tid; p < m * mc; p += {nt})
    q[b * m * mc + p] = {store.format("s[(p / mc) * " + str(nm) + " + p % mc]")};
}}
"""
