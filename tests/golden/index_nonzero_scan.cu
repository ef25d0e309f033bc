
extern "C" __global__ void __launch_bounds__(1024) gn_kernel(long long* __restrict__ c,
    long long nt) {
  __shared__ long long ws[32];
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  long long carry = 0;
  for (long long base = 0; base < nt; base += 1024) {
    const long long i = base + threadIdx.x;
    const long long x = i < nt ? c[i] : 0;
    long long v = x;
    #pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const long long u = __shfl_up_sync(0xffffffffu, v, d);
      if (lane >= d) v += u;
    }
    if (lane == 31) ws[w] = v;
    __syncthreads();
    if (w == 0) {
      long long s = lane < 32 ? ws[lane] : 0;
      #pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        const long long u = __shfl_up_sync(0xffffffffu, s, d);
        if (lane >= d) s += u;
      }
      if (lane < 32) ws[lane] = s;
    }
    __syncthreads();
    if (w > 0) v += ws[w - 1];
    if (i < nt) c[i] = carry + v - x;
    carry += ws[31];
    __syncthreads();
  }
  if (threadIdx.x == 0) c[nt] = carry;
}