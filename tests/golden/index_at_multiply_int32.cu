
__device__ __forceinline__ int gn_at_f(int cur, const int* __restrict__ val, long long vi) {
  const int a0 = cur;
  const int a1 = a0;
  const int b1 = val[vi];
  const int r = gn_multiply(a1, b1);
  return r;
}
extern "C" __global__ void __launch_bounds__(256) gn_kernel(int* __restrict__ dst,
    const long long* __restrict__ off, const int* __restrict__ val, long long n,
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
        const int nv = gn_at_f((int)(as), val, vi);
        old = atomicCAS(wp, as, (unsigned int)(nv));
      } while (old != as);
  }
}