
extern "C" __global__ void __launch_bounds__(256) gn_kernel(
    const unsigned char* __restrict__ mk, long long n, long long* __restrict__ counts,
    long long ntiles) {
  for (long long t = blockIdx.x; t < ntiles; t += gridDim.x) {
    const long long base = t * 2048;
    int c = 0;
    #pragma unroll
    for (int j = 0; j < 8; ++j) {
      const long long idx = base + j * 256 + threadIdx.x;
      c += __syncthreads_count(idx < n && mk[idx] != 0);
    }
    if (threadIdx.x == 0) counts[t] = c;
  }
}