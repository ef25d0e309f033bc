
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

// one block per matrix (blockIdx.x): a and bm are row-major stacks (n x n, n x k); x gets
// X = A^-1 B (row-major n x k; the identity's columns for B when ident), dsign and dlog
// slogdet, ddet det (each may be null), info LAPACK's status; the right-hand sides are
// solved a warp per column when `warps`, else a thread per column
extern "C" __global__ void __launch_bounds__(32) gn_kernel(const double* __restrict__ a,
    const double* __restrict__ bm, double* __restrict__ x, double* __restrict__ dsign,
    double* __restrict__ dlog, double* __restrict__ ddet, int* __restrict__ info, long long n_,
    long long k, int ident, int warps) {
  __shared__ double s[8 * 8];
  __shared__ int perm[8], sig[8];
  __shared__ int pivot_s, info_s;
  const int n = (int)n_, tid = threadIdx.x, lane = tid & 31;
  const long long b = blockIdx.x;
  const double* A = a + b * n * n;
  for (int q = tid; q < n * n; q += 32) s[(q / n) * 8 + q % n] = A[q];
  if (tid == 0) info_s = 0;
  __syncthreads();
  for (int j = 0; j < n; ++j) {
    if (tid < 32) {                    // the pivot: LAPACK's first largest |re| + |im|
      double best = -1;
      int bi = n;
      for (int i = j + lane; i < n; i += 32) {
        const double v = lu_abs1(s[i * 8 + j]);
        if (v > best) { best = v; bi = i; }           // (a NaN never compares greater)
      }
      for (int off = 16; off > 0; off >>= 1) {
        const double ob = __shfl_down_sync(0xffffffffu, best, off);
        const int oi = __shfl_down_sync(0xffffffffu, bi, off);
        if (ob > best || (ob == best && oi < bi)) { best = ob; bi = oi; }
      }
      if (lane == 0) {
        const double v0 = lu_abs1(s[j * 8 + j]);
        if (v0 != v0 || bi == n) bi = j;   // a NaN first stays (nothing compares greater)
        pivot_s = bi;
        perm[j] = bi;
        if (!lu_nonzero(s[bi * 8 + j]) && info_s == 0) info_s = j + 1;
      }
    }
    __syncthreads();
    const int p = pivot_s;
    if (p != j)
      for (int c = tid; c < n; c += 32) {
        const double w = s[j * 8 + c];
        s[j * 8 + c] = s[p * 8 + c];
        s[p * 8 + c] = w;
      }
    __syncthreads();
    const double d = s[j * 8 + j];
    if (lu_nonzero(d)) {
      for (int i = j + 1 + tid; i < n; i += 32) s[i * 8 + j] = lu_div(s[i * 8 + j], d);
      __syncthreads();
    }
    const int m = n - j - 1;          // the rank-one update of the trailing block
    for (int q = tid; q < m * m; q += 32) {
      const int i = j + 1 + q / m, c = j + 1 + q % m;
      s[i * 8 + c] = lu_sub(s[i * 8 + c], lu_mul(s[i * 8 + j], s[j * 8 + c]));
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
      double sg = odd ? (double)-1 : (double)1;
      double ld = 0;
      bool singular = false;
      for (int j = 0; j < n; ++j) {
        const double d = s[j * 8 + j];
        const double m = lu_abs(d);
        singular = singular || m == 0;
        sg = d < 0 ? -sg : sg;
        ld += log(m);
      }
      if (singular) {
        sg = (double)0;
        ld = -gn_inf();
      }
      if (dsign) {
        dsign[b] = sg;
        dlog[b] = (double)ld;
      }
      if (ddet) {
        const double e = exp(ld);
        ddet[b] = sg * e;
      }
    }
  }
  if (!x) return;
  __syncthreads();
  const double* B = bm + b * n * k;
  double* X = x + b * n * k;
#define LU_RHS(i, c) (ident ? ((i) == (c) ? (double)1 : (double)0) : B[(i) * k + (c)])
  if (warps) {          // a warp per column: lane l holds rows l and l + 32
    for (long long c = tid >> 5; c < k; c += 1) {
      double x0 = (double)0, x1 = (double)0;
      if (lane < n) x0 = LU_RHS(sig[lane], c);
      if (lane + 32 < n) x1 = LU_RHS(sig[lane + 32], c);
      for (int j = 0; j < n - 1; ++j) {       // forward, the unit lower factor
        const double xj = lu_shfl(j < 32 ? x0 : x1, j & 31);
        if (lane > j && lane < n) x0 = lu_sub(x0, lu_mul(s[lane * 8 + j], xj));
        if (lane + 32 > j && lane + 32 < n)
          x1 = lu_sub(x1, lu_mul(s[(lane + 32) * 8 + j], xj));
      }
      for (int j = n - 1; j >= 0; --j) {       // back, the upper factor
        const double xj = lu_div(lu_shfl(j < 32 ? x0 : x1, j & 31), s[j * 8 + j]);
        if (lane == j) x0 = xj;
        if (lane + 32 == j) x1 = xj;
        if (lane < j) x0 = lu_sub(x0, lu_mul(s[lane * 8 + j], xj));
        if (lane + 32 < j) x1 = lu_sub(x1, lu_mul(s[(lane + 32) * 8 + j], xj));
      }
      if (lane < n) X[lane * k + c] = x0;
      if (lane + 32 < n) X[(lane + 32) * k + c] = x1;
    }
    return;
  }
  for (long long c = tid; c < k; c += 32) {
    double v[8];
    for (int i = 0; i < n; ++i) v[i] = LU_RHS(sig[i], c);
    for (int j = 0; j < n - 1; ++j) {        // forward, column by column: the updates of
      const double xj = v[j];                      // one column are independent (no chain)
      for (int i = j + 1; i < n; ++i) v[i] = lu_sub(v[i], lu_mul(s[i * 8 + j], xj));
    }
    for (int j = n - 1; j >= 0; --j) {
      const double xj = v[j] = lu_div(v[j], s[j * 8 + j]);
      for (int i = 0; i < j; ++i) v[i] = lu_sub(v[i], lu_mul(s[i * 8 + j], xj));
    }
    for (int i = 0; i < n; ++i) X[i * k + c] = v[i];
  }
}
