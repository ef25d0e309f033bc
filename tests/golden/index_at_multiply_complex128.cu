
__device__ __forceinline__ gn_c128 gn_at_f(gn_c128 cur, const gn_c128* __restrict__ val, long long vi) {
  const gn_c128 a0 = cur;
  const gn_c128 a1 = a0;
  const gn_c128 b1 = val[vi];
  const gn_c128 r = gn_multiply(a1, b1);
  return r;
}
extern "C" __global__ void __launch_bounds__(256) gn_kernel(gn_c128* __restrict__ dst,
    const long long* __restrict__ off, const gn_c128* __restrict__ val, long long n,
    long long vstep, long long d1, long long d2, long long s0, long long s1, long long s2) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  for (long long i = 0; i < n; ++i) {
    long long r = off[i];
    long long m = 0;
      { const long long q = r / d2; m += (r - q * d2) * s2; r = q; }
      { const long long q = r / d1; m += (r - q * d1) * s1; r = q; }
      m += r * s0;
    dst[m] = gn_at_f(dst[m], val, i * vstep);
  }
}