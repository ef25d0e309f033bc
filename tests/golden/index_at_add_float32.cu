
__device__ __forceinline__ float gn_at_f(float cur, const float* __restrict__ val, long long vi) {
  const float a0 = cur;
  const float a1 = a0;
  const float b1 = val[vi];
  const float r = ((float)(a1 + b1));
  return r;
}
extern "C" __global__ void __launch_bounds__(256) gn_kernel(float* __restrict__ dst,
    const long long* __restrict__ off, const float* __restrict__ val, long long n,
    long long vstep, long long s0) {
  for (long long i = (long long)blockIdx.x * 256 + threadIdx.x; i < n;
       i += (long long)gridDim.x * 256) {
      long long r = off[i];
      long long m = 0;
      m += r * s0;
      const long long vi = i * vstep;
      const float v = val[vi];
      atomicAdd(&dst[m], v);
  }
}