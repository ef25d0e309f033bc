struct alignas(16) gn_b16 { unsigned long long lo, hi; };

extern "C" __global__ void __launch_bounds__(256) gn_kernel(gn_b16* __restrict__ dst,
    const long long* __restrict__ off, const long long* __restrict__ perm,
    const gn_b16* __restrict__ val, long long n, long long vstep, long long s0) {
  for (long long i = (long long)blockIdx.x * 256 + threadIdx.x; i < n;
       i += (long long)gridDim.x * 256) {
      long long r = off[i];
      if (i + 1 < n && off[i + 1] == r) continue;
      const long long src = perm[i];
      long long m = 0;
      m += r * s0;
      dst[m] = val[src * vstep];
  }
}