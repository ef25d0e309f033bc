
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

// one block per matrix (blockIdx.x): a and bm are row-major stacks (n x n, n x k); x gets
// X = A^-1 B (row-major n x k; the identity's columns for B when ident), dsign and dlog
// slogdet, ddet det (each may be null), info LAPACK's status; the right-hand sides are
// solved a warp per column when `warps`, else a thread per column
extern "C" __global__ void __launch_bounds__(256) gn_kernel(const gn_c64* __restrict__ a,
    const gn_c64* __restrict__ bm, gn_c64* __restrict__ x, gn_c64* __restrict__ dsign,
    float* __restrict__ dlog, gn_c64* __restrict__ ddet, int* __restrict__ info, long long n_,
    long long k, int ident, int warps) {
  __shared__ gn_c128 s[54 * 54];
  __shared__ int perm[54], sig[54];
  __shared__ int pivot_s, info_s;
  const int n = (int)n_, tid = threadIdx.x, lane = tid & 31;
  const long long b = blockIdx.x;
  const gn_c64* A = a + b * n * n;
  for (int q = tid; q < n * n; q += 256) s[(q / n) * 54 + q % n] = gn_cx<gn_c128, double>((double)A[q].re, (double)A[q].im);
  if (tid == 0) info_s = 0;
  __syncthreads();
  for (int j = 0; j < n; ++j) {
    if (tid < 32) {                    // the pivot: LAPACK's first largest |re| + |im|
      double best = -1;
      int bi = n;
      for (int i = j + lane; i < n; i += 32) {
        const double v = lu_abs1(s[i * 54 + j]);
        if (v > best) { best = v; bi = i; }           // (a NaN never compares greater)
      }
      for (int off = 16; off > 0; off >>= 1) {
        const double ob = __shfl_down_sync(0xffffffffu, best, off);
        const int oi = __shfl_down_sync(0xffffffffu, bi, off);
        if (ob > best || (ob == best && oi < bi)) { best = ob; bi = oi; }
      }
      if (lane == 0) {
        const double v0 = lu_abs1(s[j * 54 + j]);
        if (v0 != v0 || bi == n) bi = j;   // a NaN first stays (nothing compares greater)
        pivot_s = bi;
        perm[j] = bi;
        if (!lu_nonzero(s[bi * 54 + j]) && info_s == 0) info_s = j + 1;
      }
    }
    __syncthreads();
    const int p = pivot_s;
    if (p != j)
      for (int c = tid; c < n; c += 256) {
        const gn_c128 w = s[j * 54 + c];
        s[j * 54 + c] = s[p * 54 + c];
        s[p * 54 + c] = w;
      }
    __syncthreads();
    const gn_c128 d = s[j * 54 + j];
    if (lu_nonzero(d)) {
      for (int i = j + 1 + tid; i < n; i += 256) s[i * 54 + j] = lu_div(s[i * 54 + j], d);
      __syncthreads();
    }
    const int m = n - j - 1;          // the rank-one update of the trailing block
    for (int q = tid; q < m * m; q += 256) {
      const int i = j + 1 + q / m, c = j + 1 + q % m;
      s[i * 54 + c] = lu_sub(s[i * 54 + c], lu_mul(s[i * 54 + j], s[j * 54 + c]));
    }
    __syncthreads();
  }
  if (tid == 0) {
    info[b] = info_s;
    for (int i = 0; i < n; ++i) sig[i] = i;         // the pivots' row permutation: row i
    for (int j = 0; j < n; ++j) {                    // of P B is row sig[i] of B
      const int q = perm[j], w = sig[j];
      sig[j] = sig[q];
      sig[q] = w;
    }
    if (dsign || ddet) {       // NumPy's slogdet of the diagonal, in its order; det is
      int odd = 0;              // sign * exp(logdet)
      for (int j = 0; j < n; ++j) odd ^= perm[j] != j;
      gn_c128 sg = odd ? gn_cx<gn_c128, double>(-1, 0) : gn_cx<gn_c128, double>(1, 0);
      double ld = 0;
      bool singular = false;
      for (int j = 0; j < n; ++j) {
        const gn_c128 d = s[j * 54 + j];
        const double m = lu_abs(d);
        singular = singular || m == 0;
        sg = m == 0 ? sg : gn_multiply(sg, gn_cx<gn_c128, double>(d.re / m, d.im / m));
        ld += log(m);
      }
      if (singular) {
        sg = gn_cx<gn_c128, double>(0, 0);
        ld = -gn_inf();
      }
      if (dsign) {
        dsign[b] = gn_cx<gn_c64, float>((float)sg.re, (float)sg.im);
        dlog[b] = (float)ld;
      }
      if (ddet) {
        const double e = exp(ld);
        ddet[b] = gn_cx<gn_c64, float>((float)gn_cx<gn_c128, double>(sg.re * e, sg.im * e).re, (float)gn_cx<gn_c128, double>(sg.re * e, sg.im * e).im);
      }
    }
  }
  if (!x) return;
  __syncthreads();
  const gn_c64* B = bm + b * n * k;
  gn_c64* X = x + b * n * k;
#define LU_RHS(i, c) (ident ? ((i) == (c) ? gn_cx<gn_c128, double>(1, 0) : gn_cx<gn_c128, double>(0, 0)) : gn_cx<gn_c128, double>((double)B[(i) * k + (c)].re, (double)B[(i) * k + (c)].im))
  if (warps) {          // a warp per column: lane l holds rows l and l + 32
    for (long long c = tid >> 5; c < k; c += 8) {
      gn_c128 x0 = gn_cx<gn_c128, double>(0, 0), x1 = gn_cx<gn_c128, double>(0, 0);
      if (lane < n) x0 = LU_RHS(sig[lane], c);
      if (lane + 32 < n) x1 = LU_RHS(sig[lane + 32], c);
      for (int j = 0; j < n - 1; ++j) {       // forward, the unit lower factor
        const gn_c128 xj = lu_shfl(j < 32 ? x0 : x1, j & 31);
        if (lane > j && lane < n) x0 = lu_sub(x0, lu_mul(s[lane * 54 + j], xj));
        if (lane + 32 > j && lane + 32 < n)
          x1 = lu_sub(x1, lu_mul(s[(lane + 32) * 54 + j], xj));
      }
      for (int j = n - 1; j >= 0; --j) {       // back, the upper factor
        const gn_c128 xj = lu_div(lu_shfl(j < 32 ? x0 : x1, j & 31), s[j * 54 + j]);
        if (lane == j) x0 = xj;
        if (lane + 32 == j) x1 = xj;
        if (lane < j) x0 = lu_sub(x0, lu_mul(s[lane * 54 + j], xj));
        if (lane + 32 < j) x1 = lu_sub(x1, lu_mul(s[(lane + 32) * 54 + j], xj));
      }
      if (lane < n) X[lane * k + c] = gn_cx<gn_c64, float>((float)x0.re, (float)x0.im);
      if (lane + 32 < n) X[(lane + 32) * k + c] = gn_cx<gn_c64, float>((float)x1.re, (float)x1.im);
    }
    return;
  }
  for (long long c = tid; c < k; c += 256) {
    gn_c128 v[54];
    for (int i = 0; i < n; ++i) v[i] = LU_RHS(sig[i], c);
    for (int j = 0; j < n - 1; ++j) {        // forward, column by column: the updates of
      const gn_c128 xj = v[j];                      // one column are independent (no chain)
      for (int i = j + 1; i < n; ++i) v[i] = lu_sub(v[i], lu_mul(s[i * 54 + j], xj));
    }
    for (int j = n - 1; j >= 0; --j) {
      const gn_c128 xj = v[j] = lu_div(v[j], s[j * 54 + j]);
      for (int i = 0; i < j; ++i) v[i] = lu_sub(v[i], lu_mul(s[i * 54 + j], xj));
    }
    for (int i = 0; i < n; ++i) X[i * k + c] = gn_cx<gn_c64, float>((float)v[i].re, (float)v[i].im);
  }
}
