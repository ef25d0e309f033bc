
extern "C" __global__ void __launch_bounds__(256) gn_kernel(unsigned int* __restrict__ dst,
    const long long* __restrict__ off, const long long* __restrict__ perm,
    const unsigned int* __restrict__ val, long long n, long long vstep, long long s0) {
  for (long long i = (long long)blockIdx.x * 256 + threadIdx.x; i < n;
       i += (long long)gridDim.x * 256) {
      long long r = off[i];
      bool later = false;
      for (long long j = i + 1; j < n; ++j) later |= (off[j] == r);
      if (later) continue;
      const long long src = i;
      long long m = 0;
      m += r * s0;
      dst[m] = val[src * vstep];
  }
}