
__device__ __forceinline__ double gn_at_f(double cur, const double* __restrict__ val, long long vi) {
  const double a0 = cur;
  const double a1 = a0;
  const double b1 = val[vi];
  const double r = ((double)(a1 - b1));
  return r;
}
extern "C" __global__ void __launch_bounds__(256) gn_kernel(double* __restrict__ dst,
    const long long* __restrict__ off, const double* __restrict__ val, long long n,
    long long vstep, long long s0) {
  for (long long i = (long long)blockIdx.x * 256 + threadIdx.x; i < n;
       i += (long long)gridDim.x * 256) {
      long long r = off[i];
      long long m = 0;
      m += r * s0;
      const long long vi = i * vstep;
      const double v = val[vi];
      atomicAdd(&dst[m], -v);
  }
}