
__device__ __forceinline__ double lu_abs1(gn_c128 v) { return fabs(v.re) + fabs(v.im); }
__device__ __forceinline__ double lu_abs(gn_c128 v) { return gn_hypot(v.re, v.im); }
__device__ __forceinline__ bool lu_nonzero(gn_c128 v) { return (v.re != 0 || v.im != 0); }
__device__ __forceinline__ gn_c128 lu_mul(gn_c128 a, gn_c128 b) { return gn_multiply(a, b); }
__device__ __forceinline__ gn_c128 lu_sub(gn_c128 a, gn_c128 b) { return gn_subtract(a, b); }
__device__ __forceinline__ gn_c128 lu_div(gn_c128 a, gn_c128 b) { return gn_divide(a, b); }
__device__ __forceinline__ gn_c128 lu_conj(gn_c128 v) { return gn_cx<gn_c128, double>(v.re, -v.im); }
__device__ __forceinline__ gn_c128 lu_rdiv(gn_c128 v, double r) { return gn_cx<gn_c128, double>(v.re / r, v.im / r); }
__device__ __forceinline__ double lu_re(gn_c128 v) { return v.re; }
__device__ __forceinline__ gn_c128 lu_from_re(double r) { return gn_cx<gn_c128, double>(r, 0); }
__device__ __forceinline__ gn_c128 lu_shfl(gn_c128 v, int src) { return gn_cx<gn_c128, double>(__shfl_sync(0xffffffffu, v.re, src), __shfl_sync(0xffffffffu, v.im, src)); }
__device__ __forceinline__ gn_c128 lu_add(gn_c128 a, gn_c128 b) { return gn_add(a, b); }
__device__ __forceinline__ double lu_im(gn_c128 v) { return v.im; }
__device__ __forceinline__ gn_c128 lu_make(double r, double i) { return gn_cx<gn_c128, double>(r, i); }
__device__ __forceinline__ gn_c128 lu_scale(gn_c128 v, double r) { return gn_cx<gn_c128, double>(v.re * r, v.im * r); }

__device__ __forceinline__ double qr_lapy3(double x, double y, double z) {
  const double w = fmax(fabs(x), fmax(fabs(y), fabs(z)));
  if (w == 0 || w != w || isinf(w)) return fabs(x) + fabs(y) + fabs(z);
  return w * sqrt((x / w) * (x / w) + (y / w) * (y / w) + (z / w) * (z / w));
}

// the 2-norm of a warp's entries x0, x1 (every lane gets it): scaled by the largest part
__device__ double qr_norm(gn_c128 x0, gn_c128 x1) {
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
}

// xlarf from the left: rows i..m-1 of the columns c0..c1-1 of s -= tc v (v^H C), v the
// reflector in column i below row i (v_i = 1, its last non-zero entry at row lastv);
// only columns up to the last one with a non-zero entry in those rows (``iladlc``).
// Every thread of the block calls it.
__device__ void qr_apply(gn_c128* s, int i, int c0, int c1, int lastv, gn_c128 tc, int* last) {
  const int tid = threadIdx.x;
  if (tid == 0) *last = c0 - 1;
  __syncthreads();
  for (int c = c0 + tid; c < c1; c += 32) {
    bool nz = false;
    for (int r = i; r <= lastv && !nz; ++r) nz = lu_nonzero(s[r * 8 + c]);
    if (nz) atomicMax(last, c);
  }
  __syncthreads();
  const int lastc = *last;
  for (int c = c0 + tid; c <= lastc; c += 32) {
    gn_c128 w = s[i * 8 + c];
    for (int r = i + 1; r <= lastv; ++r)
      w = lu_add(w, lu_mul(lu_conj(s[r * 8 + i]), s[r * 8 + c]));
    const gn_c128 tw = lu_mul(tc, w);
    s[i * 8 + c] = lu_sub(s[i * 8 + c], tw);
    for (int r = i + 1; r <= lastv; ++r)
      s[r * 8 + c] = lu_sub(s[r * 8 + c], lu_mul(s[r * 8 + i], tw));
  }
  __syncthreads();
}

// one block per matrix (blockIdx.x) of the row-major stack a (m x n); each output may be
// null: h gets the factored matrix as LAPACK leaves it, column-major (NumPy's raw h), tau
// the reflectors' scalars (k = min(m, n)), r the upper triangle of the first mc rows
// (mc x n, row-major), q the first mc columns of Q (m x mc, row-major)
extern "C" __global__ void __launch_bounds__(32) gn_kernel(const gn_c64* __restrict__ a,
    gn_c64* __restrict__ h, gn_c64* __restrict__ tau, gn_c64* __restrict__ r,
    gn_c64* __restrict__ q, long long m_, long long n_, long long mc_) {
  __shared__ gn_c128 s[8 * 8];
  __shared__ gn_c128 tau_s[8];
  __shared__ int lastv_s[8], last_s;
  const int m = (int)m_, n = (int)n_, mc = (int)mc_, k = m < n ? m : n;
  const int tid = threadIdx.x, lane = tid & 31;
  const long long b = blockIdx.x;
  const gn_c64* A = a + b * m * n;
  for (int p = tid; p < m * n; p += 32) s[(p / n) * 8 + p % n] = gn_cx<gn_c128, double>((double)A[p].re, (double)A[p].im);
  __syncthreads();
  for (int i = 0; i < k; ++i) {
    if (tid < 32) {                  // xlarfg: the reflector of column i, by warp 0
      const int r0 = i + 1 + lane, r1 = r0 + 32;
      gn_c128 x0 = r0 < m ? s[r0 * 8 + i] : gn_cx<gn_c128, double>(0, 0);
      gn_c128 x1 = r1 < m ? s[r1 * 8 + i] : gn_cx<gn_c128, double>(0, 0);
      gn_c128 alpha = s[i * 8 + i], tv = gn_cx<gn_c128, double>(0, 0);
      double xn = qr_norm(x0, x1), ar = lu_re(alpha), ai = lu_im(alpha);
      if (xn != 0 || ai != 0) {      // else H = I (tau 0)
        double beta = -copysign(qr_lapy3(ar, ai, xn), ar);
        const double safmin = 2.2250738585072014e-308 / 1.1102230246251565e-16;
        int knt = 0;
        if (fabs(beta) < safmin) {   // a tiny column: scaled up, its norm taken again
          do {
            ++knt;
            x0 = lu_scale(x0, 1 / safmin);
            x1 = lu_scale(x1, 1 / safmin);
            beta *= 1 / safmin;
            ar *= 1 / safmin;
            ai *= 1 / safmin;
          } while (fabs(beta) < safmin && knt < 20);
          xn = qr_norm(x0, x1);
          alpha = lu_make(ar, ai);
          beta = -copysign(qr_lapy3(ar, ai, xn), ar);
        }
        tv = lu_make((beta - ar) / beta, -ai / beta);
        const gn_c128 sc = lu_div(gn_cx<gn_c128, double>(1, 0), lu_sub(alpha, lu_from_re(beta)));
        x0 = lu_mul(x0, sc);
        x1 = lu_mul(x1, sc);
        for (int j = 0; j < knt; ++j) beta *= safmin;
        alpha = lu_from_re(beta);
        if (r0 < m) s[r0 * 8 + i] = x0;
        if (r1 < m) s[r1 * 8 + i] = x1;
      }
      const unsigned b0 = __ballot_sync(0xffffffffu, r0 < m && lu_nonzero(x0));
      const unsigned b1 = __ballot_sync(0xffffffffu, r1 < m && lu_nonzero(x1));
      __syncwarp();                   // (every lane read alpha before lane 0 writes it)
      if (lane == 0) {
        s[i * 8 + i] = alpha;
        tau_s[i] = tv;
        lastv_s[i] = b1 ? i + 64 - __clz((int)b1) : b0 ? i + 32 - __clz((int)b0) : i;
      }
    }
    __syncthreads();
    if (i + 1 < n && lu_nonzero(tau_s[i]))      // H(i)^H on the trailing columns (xgeqr2)
      qr_apply(s, i, i + 1, n, lastv_s[i], lu_conj(tau_s[i]), &last_s);
  }
  const gn_c64 sz = gn_cx<gn_c64, float>((float)gn_cx<gn_c128, double>(0, 0).re, (float)gn_cx<gn_c128, double>(0, 0).im);
  if (tau) for (int p = tid; p < k; p += 32) tau[b * k + p] = gn_cx<gn_c64, float>((float)tau_s[p].re, (float)tau_s[p].im);
  if (h)
    for (int p = tid; p < m * n; p += 32)
      h[b * m * n + p] = gn_cx<gn_c64, float>((float)s[(p % m) * 8 + p / m].re, (float)s[(p % m) * 8 + p / m].im);
  if (r)
    for (int p = tid; p < mc * n; p += 32) {
      const int i = p / n, c = p % n;
      r[b * mc * n + p] = c >= i ? gn_cx<gn_c64, float>((float)s[i * 8 + c].re, (float)s[i * 8 + c].im) : sz;
    }
  if (!q) return;
  __syncthreads();
  for (int p = tid; p < m * (mc - k); p += 32) {   // columns k..mc-1: the unit matrix's
    const int i = p / (mc - k), c = k + p % (mc - k);
    s[i * 8 + c] = i == c ? gn_cx<gn_c128, double>(1, 0) : gn_cx<gn_c128, double>(0, 0);
  }
  __syncthreads();
  for (int i = k - 1; i >= 0; --i) {                 // xorg2r / xung2r
    const gn_c128 ti = tau_s[i];
    if (i + 1 < mc && lu_nonzero(ti)) qr_apply(s, i, i + 1, mc, lastv_s[i], ti, &last_s);
    const gn_c128 nt_ = lu_make(-lu_re(ti), -lu_im(ti));     // (-tau: -0 where tau is 0)
    for (int p = i + 1 + tid; p < m; p += 32) s[p * 8 + i] = lu_mul(nt_, s[p * 8 + i]);
    for (int p = tid; p < i; p += 32) s[p * 8 + i] = gn_cx<gn_c128, double>(0, 0);
    if (tid == 0) s[i * 8 + i] = lu_sub(gn_cx<gn_c128, double>(1, 0), ti);
    __syncthreads();
  }
  for (int p = tid; p < m * mc; p += 32)
    q[b * m * mc + p] = gn_cx<gn_c64, float>((float)s[(p / mc) * 8 + p % mc].re, (float)s[(p / mc) * 8 + p % mc].im);
}
