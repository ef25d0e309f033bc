
__device__ __forceinline__ bool gn_at_f(bool cur, const bool* __restrict__ val, long long vi) {
  const bool a0 = cur;
  const bool a1 = a0;
  const bool b1 = val[vi];
  const bool r = gn_maximum(a1, b1);
  return r;
}
extern "C" __global__ void __launch_bounds__(256) gn_kernel(bool* __restrict__ dst,
    const long long* __restrict__ off, const bool* __restrict__ val, long long n,
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
        const bool nv = gn_at_f(((((as & mk) >> sh)) != 0u), val, vi);
        old = atomicCAS(wp, as, (as & ~mk) | ((((unsigned int)((nv) ? 1u : 0u)) << sh) & mk));
      } while (old != as);
  }
}