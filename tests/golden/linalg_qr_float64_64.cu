
__device__ __forceinline__ double lu_abs1(double v) { return fabs(v); }
__device__ __forceinline__ double lu_abs(double v) { return fabs(v); }
__device__ __forceinline__ bool lu_nonzero(double v) { return (v != 0); }
__device__ __forceinline__ double lu_mul(double a, double b) { return a * b; }
__device__ __forceinline__ double lu_sub(double a, double b) { return a - b; }
__device__ __forceinline__ double lu_div(double a, double b) { return a / b; }
__device__ __forceinline__ double lu_conj(double v) { return v; }
__device__ __forceinline__ double lu_rdiv(double v, double r) { return v / r; }
__device__ __forceinline__ double lu_re(double v) { return v; }
__device__ __forceinline__ double lu_from_re(double r) { return r; }
__device__ __forceinline__ double lu_shfl(double v, int src) { return __shfl_sync(0xffffffffu, v, src); }
__device__ __forceinline__ double lu_add(double a, double b) { return a + b; }
__device__ __forceinline__ double lu_im(double v) { return 0.0; }
__device__ __forceinline__ double lu_make(double r, double i) { return r; }
__device__ __forceinline__ double lu_scale(double v, double r) { return v * r; }

__device__ __forceinline__ double qr_lapy3(double x, double y, double z) {
  const double w = fmax(fabs(x), fmax(fabs(y), fabs(z)));
  if (w == 0 || w != w || isinf(w)) return fabs(x) + fabs(y) + fabs(z);
  return w * sqrt((x / w) * (x / w) + (y / w) * (y / w) + (z / w) * (z / w));
}

// the 2-norm of a warp's entries x0, x1 (every lane gets it): scaled by the largest part
__device__ double qr_norm(double x0, double x1) {
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
__device__ void qr_apply(double* s, int i, int c0, int c1, int lastv, double tc, int* last) {
  const int tid = threadIdx.x;
  if (tid == 0) *last = c0 - 1;
  __syncthreads();
  for (int c = c0 + tid; c < c1; c += 256) {
    bool nz = false;
    for (int r = i; r <= lastv && !nz; ++r) nz = lu_nonzero(s[r * 64 + c]);
    if (nz) atomicMax(last, c);
  }
  __syncthreads();
  const int lastc = *last;
  for (int c = c0 + tid; c <= lastc; c += 256) {
    double w = s[i * 64 + c];
    for (int r = i + 1; r <= lastv; ++r)
      w = lu_add(w, lu_mul(lu_conj(s[r * 64 + i]), s[r * 64 + c]));
    const double tw = lu_mul(tc, w);
    s[i * 64 + c] = lu_sub(s[i * 64 + c], tw);
    for (int r = i + 1; r <= lastv; ++r)
      s[r * 64 + c] = lu_sub(s[r * 64 + c], lu_mul(s[r * 64 + i], tw));
  }
  __syncthreads();
}

// one block per matrix (blockIdx.x) of the row-major stack a (m x n); each output may be
// null: h gets the factored matrix as LAPACK leaves it, column-major (NumPy's raw h), tau
// the reflectors' scalars (k = min(m, n)), r the upper triangle of the first mc rows
// (mc x n, row-major), q the first mc columns of Q (m x mc, row-major)
extern "C" __global__ void __launch_bounds__(256) gn_kernel(const double* __restrict__ a,
    double* __restrict__ h, double* __restrict__ tau, double* __restrict__ r,
    double* __restrict__ q, long long m_, long long n_, long long mc_) {
  __shared__ double s[64 * 64];
  __shared__ double tau_s[64];
  __shared__ int lastv_s[64], last_s;
  const int m = (int)m_, n = (int)n_, mc = (int)mc_, k = m < n ? m : n;
  const int tid = threadIdx.x, lane = tid & 31;
  const long long b = blockIdx.x;
  const double* A = a + b * m * n;
  for (int p = tid; p < m * n; p += 256) s[(p / n) * 64 + p % n] = A[p];
  __syncthreads();
  for (int i = 0; i < k; ++i) {
    if (tid < 32) {                  // xlarfg: the reflector of column i, by warp 0
      const int r0 = i + 1 + lane, r1 = r0 + 32;
      double x0 = r0 < m ? s[r0 * 64 + i] : (double)0;
      double x1 = r1 < m ? s[r1 * 64 + i] : (double)0;
      double alpha = s[i * 64 + i], tv = (double)0;
      double xn = qr_norm(x0, x1), ar = lu_re(alpha), ai = lu_im(alpha);
      if (xn != 0 || ai != 0) {      // else H = I (tau 0)
        double beta = -copysign((xn != xn ? xn : ar != ar ? ar : hypot(ar, xn)), ar);
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
          beta = -copysign((xn != xn ? xn : ar != ar ? ar : hypot(ar, xn)), ar);
        }
        tv = lu_make((beta - ar) / beta, -ai / beta);
        const double sc = 1.0 / (alpha - beta);
        x0 = lu_mul(x0, sc);
        x1 = lu_mul(x1, sc);
        for (int j = 0; j < knt; ++j) beta *= safmin;
        alpha = lu_from_re(beta);
        if (r0 < m) s[r0 * 64 + i] = x0;
        if (r1 < m) s[r1 * 64 + i] = x1;
      }
      const unsigned b0 = __ballot_sync(0xffffffffu, r0 < m && lu_nonzero(x0));
      const unsigned b1 = __ballot_sync(0xffffffffu, r1 < m && lu_nonzero(x1));
      __syncwarp();                   // (every lane read alpha before lane 0 writes it)
      if (lane == 0) {
        s[i * 64 + i] = alpha;
        tau_s[i] = tv;
        lastv_s[i] = b1 ? i + 64 - __clz((int)b1) : b0 ? i + 32 - __clz((int)b0) : i;
      }
    }
    __syncthreads();
    if (i + 1 < n && lu_nonzero(tau_s[i]))      // H(i)^H on the trailing columns (xgeqr2)
      qr_apply(s, i, i + 1, n, lastv_s[i], lu_conj(tau_s[i]), &last_s);
  }
  const double sz = (double)0;
  if (tau) for (int p = tid; p < k; p += 256) tau[b * k + p] = tau_s[p];
  if (h)
    for (int p = tid; p < m * n; p += 256)
      h[b * m * n + p] = s[(p % m) * 64 + p / m];
  if (r)
    for (int p = tid; p < mc * n; p += 256) {
      const int i = p / n, c = p % n;
      r[b * mc * n + p] = c >= i ? s[i * 64 + c] : sz;
    }
  if (!q) return;
  __syncthreads();
  for (int p = tid; p < m * (mc - k); p += 256) {   // columns k..mc-1: the unit matrix's
    const int i = p / (mc - k), c = k + p % (mc - k);
    s[i * 64 + c] = i == c ? (double)1 : (double)0;
  }
  __syncthreads();
  for (int i = k - 1; i >= 0; --i) {                 // xorg2r / xung2r
    const double ti = tau_s[i];
    if (i + 1 < mc && lu_nonzero(ti)) qr_apply(s, i, i + 1, mc, lastv_s[i], ti, &last_s);
    const double nt_ = lu_make(-lu_re(ti), -lu_im(ti));     // (-tau: -0 where tau is 0)
    for (int p = i + 1 + tid; p < m; p += 256) s[p * 64 + i] = lu_mul(nt_, s[p * 64 + i]);
    for (int p = tid; p < i; p += 256) s[p * 64 + i] = (double)0;
    if (tid == 0) s[i * 64 + i] = lu_sub((double)1, ti);
    __syncthreads();
  }
  for (int p = tid; p < m * mc; p += 256)
    q[b * m * mc + p] = s[(p / mc) * 64 + p % mc];
}
