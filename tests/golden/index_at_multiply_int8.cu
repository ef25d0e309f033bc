
__device__ __forceinline__ signed char gn_at_f(signed char cur, const signed char* __restrict__ val, long long vi) {
  const signed char a0 = cur;
  const signed char a1 = a0;
  const signed char b1 = val[vi];
  const signed char r = gn_multiply(a1, b1);
  return r;
}
extern "C" __global__ void __launch_bounds__(256) gn_kernel(signed char* __restrict__ dst,
    const long long* __restrict__ off, const signed char* __restrict__ val, long long n,
    long long vstep, long long s0) {
  for (long long i = (long long)blockIdx.x * 256 + threadIdx.x; i < n;
       i += (long long)gridDim.x * 256) {
      long long r = off[i];
      long long m = 0;
      m += r * s0;
      const long long vi = i * vstep;
      unsigned int* wp = (unsigned int*)((unsigned long long)&dst[m] & ~3ull);
      const unsigned int sh = (unsigned int)(((unsigned long long)&dst[m] & 3ull) * 8ull);
      const unsigned int mk = 0xffu << sh;
      unsigned int old = *wp, as;
      do {
        as = old;
        const signed char nv = gn_at_f((signed char)(unsigned char)(((as & mk) >> sh)), val, vi);
        old = atomicCAS(wp, as, (as & ~mk) | ((((unsigned int)(unsigned char)(nv)) << sh) & mk));
      } while (old != as);
  }
}