
extern "C" __global__ void __launch_bounds__(256) gn_kernel(unsigned short* __restrict__ dst,
    const long long* __restrict__ off, const long long* __restrict__ perm,
    const unsigned short* __restrict__ val, long long n, long long vstep, long long d1, long long s0, long long s1) {
  for (long long i = (long long)blockIdx.x * 256 + threadIdx.x; i < n;
       i += (long long)gridDim.x * 256) {
      long long r = off[i];
      if (i + 1 < n && off[i + 1] == r) continue;
      const long long src = perm[i];
      long long m = 0;
      { const long long q = r / d1; m += (r - q * d1) * s1; r = q; }
      m += r * s0;
      dst[m] = val[src * vstep];
  }
}