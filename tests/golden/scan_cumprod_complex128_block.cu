
__device__ __forceinline__ gn_c128 gn_scan_shfl_up(gn_c128 v, int d) {
  return gn_c128{__shfl_up_sync(0xffffffffu, v.re, d), __shfl_up_sync(0xffffffffu, v.im, d)};
}
extern "C" __global__ void __launch_bounds__(256) gn_kernel(const gn_c128* __restrict__ x,
    gn_c128* __restrict__ y, long long outer, long long L, long long inner) {
  __shared__ gn_c128 wsum[8];
  __shared__ gn_c128 carry_s;
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  for (long long o = blockIdx.x; o < outer; o += gridDim.x) {
    const gn_c128* xr = x + o * L;
    gn_c128* yr = y + o * (L + 0);
    
    gn_c128 carry = gn_c128{1, 0};
    for (long long base = 0; base < L; base += 256) {
      const long long l = base + threadIdx.x;
      gn_c128 v = l < L ? (gn_c128)xr[l] : gn_c128{1, 0};
      #pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        const gn_c128 u = gn_scan_shfl_up(v, d);
        if (lane >= d) v = gn_multiply(u, v);
      }
      if (lane == 31) wsum[w] = v;
      __syncthreads();
      if (w == 0) {
        gn_c128 s = lane < 8 ? wsum[lane] : gn_c128{1, 0};
        #pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
          const gn_c128 u = gn_scan_shfl_up(s, d);
          if (lane >= d) s = gn_multiply(u, s);
        }
        if (lane < 8) wsum[lane] = s;
      }
      __syncthreads();
      if (w > 0) v = gn_multiply(wsum[w - 1], v);
      if (base > 0) v = gn_multiply(carry, v);    // NumPy never combines with the identity
      if (l < L) yr[l + 0] = v;
      if (threadIdx.x == 256 - 1) carry_s = v;
      __syncthreads();
      carry = carry_s;
      __syncthreads();
    }
  }
}