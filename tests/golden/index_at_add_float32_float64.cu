
__device__ __forceinline__ float gn_at_f(float cur, const double* __restrict__ val, long long vi) {
  const float a0 = cur;
  const double a1 = gn_cast<double>(a0);
  const double b1 = val[vi];
  const double r = ((double)(a1 + b1));
  return gn_cast<float>(r);
}
extern "C" __global__ void __launch_bounds__(256) gn_kernel(float* __restrict__ dst,
    const long long* __restrict__ off, const double* __restrict__ val, long long n,
    long long vstep, long long s0) {
  for (long long i = (long long)blockIdx.x * 256 + threadIdx.x; i < n;
       i += (long long)gridDim.x * 256) {
      long long r = off[i];
      long long m = 0;
      m += r * s0;
      const long long vi = i * vstep;
      unsigned int* wp = (unsigned int*)&dst[m];
      unsigned int old = *wp, as;
      do {
        as = old;
        const float nv = gn_at_f(__uint_as_float(as), val, vi);
        old = atomicCAS(wp, as, __float_as_uint(nv));
      } while (old != as);
  }
}