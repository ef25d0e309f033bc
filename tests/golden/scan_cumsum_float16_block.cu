
__device__ __forceinline__ float gn_scan_shfl_up(float v, int d) {
  return __shfl_up_sync(0xffffffffu, v, d);
}
extern "C" __global__ void __launch_bounds__(256) gn_kernel(const unsigned short* __restrict__ x,
    unsigned short* __restrict__ y, long long outer, long long L, long long inner) {
  __shared__ float wsum[8];
  __shared__ float carry_s;
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  for (long long o = blockIdx.x; o < outer; o += gridDim.x) {
    const unsigned short* xr = x + o * L;
    unsigned short* yr = y + o * (L + 1);
    if (threadIdx.x == 0) yr[0] = gn_f2h((float)0);
    float carry = (float)0;
    for (long long base = 0; base < L; base += 256) {
      const long long l = base + threadIdx.x;
      float v = l < L ? (float)gn_h2f(xr[l]) : (float)0;
      #pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        const float u = gn_scan_shfl_up(v, d);
        if (lane >= d) v = gn_rh(((float)(u + v)));
      }
      if (lane == 31) wsum[w] = v;
      __syncthreads();
      if (w == 0) {
        float s = lane < 8 ? wsum[lane] : (float)0;
        #pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
          const float u = gn_scan_shfl_up(s, d);
          if (lane >= d) s = gn_rh(((float)(u + s)));
        }
        if (lane < 8) wsum[lane] = s;
      }
      __syncthreads();
      if (w > 0) v = gn_rh(((float)(wsum[w - 1] + v)));
      if (base > 0) v = gn_rh(((float)(carry + v)));    // NumPy never combines with the identity
      if (l < L) yr[l + 1] = gn_f2h(v);
      if (threadIdx.x == 256 - 1) carry_s = v;
      __syncthreads();
      carry = carry_s;
      __syncthreads();
    }
  }
}