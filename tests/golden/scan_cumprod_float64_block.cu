
__device__ __forceinline__ double gn_scan_shfl_up(double v, int d) {
  return __shfl_up_sync(0xffffffffu, v, d);
}
extern "C" __global__ void __launch_bounds__(256) gn_kernel(const double* __restrict__ x,
    double* __restrict__ y, long long outer, long long L, long long inner) {
  __shared__ double wsum[8];
  __shared__ double carry_s;
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  for (long long o = blockIdx.x; o < outer; o += gridDim.x) {
    const double* xr = x + o * L;
    double* yr = y + o * (L + 0);
    
    double carry = (double)1;
    for (long long base = 0; base < L; base += 256) {
      const long long l = base + threadIdx.x;
      double v = l < L ? (double)xr[l] : (double)1;
      #pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        const double u = gn_scan_shfl_up(v, d);
        if (lane >= d) v = ((double)(u * v));
      }
      if (lane == 31) wsum[w] = v;
      __syncthreads();
      if (w == 0) {
        double s = lane < 8 ? wsum[lane] : (double)1;
        #pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
          const double u = gn_scan_shfl_up(s, d);
          if (lane >= d) s = ((double)(u * s));
        }
        if (lane < 8) wsum[lane] = s;
      }
      __syncthreads();
      if (w > 0) v = ((double)(wsum[w - 1] * v));
      if (base > 0) v = ((double)(carry * v));    // NumPy never combines with the identity
      if (l < L) yr[l + 0] = v;
      if (threadIdx.x == 256 - 1) carry_s = v;
      __syncthreads();
      carry = carry_s;
      __syncthreads();
    }
  }
}