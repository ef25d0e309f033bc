
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

// one block per matrix (blockIdx.x) of the row-major stack a (n x n): out gets the factor
// (row-major, the other triangle zero), info LAPACK's status
extern "C" __global__ void __launch_bounds__(64) gn_kernel(const gn_c128* __restrict__ a,
    gn_c128* __restrict__ out, int* __restrict__ info, long long n_, int upper) {
  __shared__ gn_c128 s[16 * 16];
  __shared__ int info_s;
  const int n = (int)n_, tid = threadIdx.x;
  const long long b = blockIdx.x;
  const gn_c128* A = a + b * n * n;
  for (int q = tid; q < n * n; q += 64) {
    const int i = q / n, c = q % n;         // (upper: the conjugate transpose's lower part)
    if (c <= i) s[i * 16 + c] = upper ? lu_conj(A[c * n + i])
                                        : A[q];
  }
  if (tid == 0) info_s = 0;
  __syncthreads();
  for (int j = 0; j < n; ++j) {
    if (tid == 0) {
      const double ajj = lu_re(s[j * 16 + j]);
      if (ajj <= 0) info_s = j + 1;         // (a NaN goes on, as NumPy's OpenBLAS does)
      else s[j * 16 + j] = lu_from_re(sqrt(ajj));
    }
    __syncthreads();
    if (info_s) break;
    const double r = lu_re(s[j * 16 + j]);
    for (int i = j + 1 + tid; i < n; i += 64) s[i * 16 + j] = lu_rdiv(s[i * 16 + j], r);
    __syncthreads();
    const int m = n - j - 1;          // the trailing lower triangle's update
    for (int q = tid; q < m * m; q += 64) {
      const int i = j + 1 + q / m, c = j + 1 + q % m;
      if (c <= i)
        s[i * 16 + c] = lu_sub(s[i * 16 + c],
                                 lu_mul(s[i * 16 + j], lu_conj(s[c * 16 + j])));
    }
    __syncthreads();
  }
  if (tid == 0) info[b] = info_s;
  if (info_s) return;
  gn_c128* O = out + b * n * n;
  for (int q = tid; q < n * n; q += 64) {
    const int i = q / n, c = q % n;
    const int li = upper ? c : i, lc = upper ? i : c;     // U[i][c] = conj(L[c][i])
    const gn_c128 w = s[li * 16 + lc];                       // (the diagonal stays +0j)
    const gn_c128 v = lc < li ? (upper ? lu_conj(w) : w) : lc == li ? w : gn_cx<gn_c128, double>(0, 0);
    O[q] = v;
  }
}
