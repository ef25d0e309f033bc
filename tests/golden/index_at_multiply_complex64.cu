
__device__ __forceinline__ gn_c64 gn_at_f(gn_c64 cur, const gn_c64* __restrict__ val, long long vi) {
  const gn_c64 a0 = cur;
  const gn_c64 a1 = a0;
  const gn_c64 b1 = val[vi];
  const gn_c64 r = gn_multiply(a1, b1);
  return r;
}
extern "C" __global__ void __launch_bounds__(256) gn_kernel(gn_c64* __restrict__ dst,
    const long long* __restrict__ off, const gn_c64* __restrict__ val, long long n,
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
        const gn_c64 nv = gn_at_f(gn_c64{__uint_as_float((unsigned int)(as)), __uint_as_float((unsigned int)((as) >> 32))}, val, vi);
        old = atomicCAS(wp, as, ((unsigned long long)__float_as_uint((nv).re) | ((unsigned long long)__float_as_uint((nv).im) << 32)));
      } while (old != as);
  }
}