
__device__ __forceinline__ long long gn_at_f(long long cur, const long long* __restrict__ val, long long vi) {
  const long long a0 = cur;
  const long long a1 = a0;
  const long long b1 = val[vi];
  const long long r = gn_multiply(a1, b1);
  return r;
}
extern "C" __global__ void __launch_bounds__(256) gn_kernel(long long* __restrict__ dst,
    const long long* __restrict__ off, const long long* __restrict__ val, long long n,
    long long vstep, long long s0) {
  for (long long i = (long long)blockIdx.x * 256 + threadIdx.x; i < n;
       i += (long long)gridDim.x * 256) {
      long long r = off[i];
      long long m = 0;
      m += r * s0;
      const long long vi = i * vstep;
      unsigned long long* wp = (unsigned long long*)&dst[m];
      unsigned long long old = *wp, as;
      do {
        as = old;
        const long long nv = gn_at_f((long long)(as), val, vi);
        old = atomicCAS(wp, as, (unsigned long long)(nv));
      } while (old != as);
  }
}