
__device__ __forceinline__ long long gn_scan_shfl_up(long long v, int d) {
  return __shfl_up_sync(0xffffffffu, v, d);
}
extern "C" __global__ void __launch_bounds__(256) gn_kernel(const long long* __restrict__ x,
    long long* __restrict__ y, long long outer, long long L, long long inner) {
  __shared__ long long wsum[8];
  __shared__ long long carry_s;
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  for (long long o = blockIdx.x; o < outer; o += gridDim.x) {
    const long long* xr = x + o * L;
    long long* yr = y + o * (L + 0);
    
    long long carry = (long long)0;
    for (long long base = 0; base < L; base += 256) {
      const long long l = base + threadIdx.x;
      long long v = l < L ? (long long)xr[l] : (long long)0;
      #pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        const long long u = gn_scan_shfl_up(v, d);
        if (lane >= d) v = ((long long)(u + v));
      }
      if (lane == 31) wsum[w] = v;
      __syncthreads();
      if (w == 0) {
        long long s = lane < 8 ? wsum[lane] : (long long)0;
        #pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
          const long long u = gn_scan_shfl_up(s, d);
          if (lane >= d) s = ((long long)(u + s));
        }
        if (lane < 8) wsum[lane] = s;
      }
      __syncthreads();
      if (w > 0) v = ((long long)(wsum[w - 1] + v));
      if (base > 0) v = ((long long)(carry + v));    // NumPy never combines with the identity
      if (l < L) yr[l + 0] = v;
      if (threadIdx.x == 256 - 1) carry_s = v;
      __syncthreads();
      carry = carry_s;
      __syncthreads();
    }
  }
}