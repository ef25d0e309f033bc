
extern "C" __global__ void __launch_bounds__(256) gn_kernel(const unsigned int* __restrict__ src,
    const long long* __restrict__ off, unsigned int* __restrict__ out, long long n, long long d1, long long s0, long long s1) {
  for (long long i = (long long)blockIdx.x * 256 + threadIdx.x; i < n;
       i += (long long)gridDim.x * 256) {
      long long r = off[i];
      long long m = 0;
      { const long long q = r / d1; m += (r - q * d1) * s1; r = q; }
      m += r * s0;
      out[i] = src[m];
  }
}