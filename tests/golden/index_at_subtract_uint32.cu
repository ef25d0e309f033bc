
__device__ __forceinline__ unsigned int gn_at_f(unsigned int cur, const unsigned int* __restrict__ val, long long vi) {
  const unsigned int a0 = cur;
  const unsigned int a1 = a0;
  const unsigned int b1 = val[vi];
  const unsigned int r = gn_subtract(a1, b1);
  return r;
}
extern "C" __global__ void __launch_bounds__(256) gn_kernel(unsigned int* __restrict__ dst,
    const long long* __restrict__ off, const unsigned int* __restrict__ val, long long n,
    long long vstep, long long s0) {
  for (long long i = (long long)blockIdx.x * 256 + threadIdx.x; i < n;
       i += (long long)gridDim.x * 256) {
      long long r = off[i];
      long long m = 0;
      m += r * s0;
      const long long vi = i * vstep;
      const unsigned int v = val[vi];
      atomicAdd((unsigned int*)&dst[m], 0u - (unsigned int)v);
  }
}