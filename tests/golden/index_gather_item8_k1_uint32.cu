
extern "C" __global__ void __launch_bounds__(256) gn_kernel(const unsigned long long* __restrict__ src,
    const unsigned int* __restrict__ off, unsigned long long* __restrict__ out, long long n, long long s0) {
  for (long long i = (long long)blockIdx.x * 256 + threadIdx.x; i < n;
       i += (long long)gridDim.x * 256) {
      long long r = off[i];
      long long m = 0;
      m += r * s0;
      out[i] = src[m];
  }
}