
extern "C" __global__ void __launch_bounds__(256) gn_kernel(
    const unsigned char* __restrict__ mk, long long n, const long long* __restrict__ starts,
    long long ntiles, long long* __restrict__ out) {
  __shared__ int wc[8];
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  for (long long t = blockIdx.x; t < ntiles; t += gridDim.x) {
    long long pos = starts[t];
    for (int j = 0; j < 8; ++j) {
      const long long idx = t * 2048 + j * 256 + threadIdx.x;
      const bool f = idx < n && mk[idx] != 0;
      const unsigned int bal = __ballot_sync(0xffffffffu, f);
      if (lane == 0) wc[w] = __popc(bal);
      __syncthreads();
      int before = 0, total = 0;
      #pragma unroll
      for (int q = 0; q < 8; ++q) {
        const int cq = wc[q];
        total += cq;
        if (q < w) before += cq;
      }
      if (f) out[pos + before + __popc(bal & ((1u << lane) - 1u))] = idx;
      pos += total;
      __syncthreads();
    }
  }
}