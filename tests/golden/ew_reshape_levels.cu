/* gnumpy helper headers */

#define gn_unravel0(lin) gn_unravel0_f(lin, l0_0_d0, l0_0_d1, l0_0_s0, l0_0_s1, l0_0_off)
__device__ __forceinline__ long long gn_unravel0_f(long long lin, long long l0_0_d0, long long l0_0_d1, long long l0_0_s0, long long l0_0_s1, long long l0_0_off) {
  long long pos = lin;
  { long long r = pos; long long acc = 0;
    acc += (r % l0_0_d1) * l0_0_s1; r /= l0_0_d1;
    acc += (r % l0_0_d0) * l0_0_s0; r /= l0_0_d0;
    pos = acc + l0_0_off; }
  return pos;
}
extern "C" __global__ void __launch_bounds__(512) gn_kernel(const float* __restrict__ p0, const float* __restrict__ p1, float* __restrict__ q2, float s0, long long n, long long off0, long long l0_0_d0, long long l0_0_d1, long long l0_0_s0, long long l0_0_s1, long long l0_0_off) {
  const long long step = (long long)gridDim.x * 512;
  for (long long i = (long long)blockIdx.x * 512 + threadIdx.x; i < n; i += step) {
      const long long i0 = i;
      const long long o0 = gn_unravel0((long long)(i0) + off0);
      const long long o1 = i0;
      const long long o2 = i0;
      const float t0 = p0[o0];
      const float t1 = s0;
      const float t2 = ((float)(t0 + t1));
      const float t3 = p1[o1];
      const float t4 = ((float)(t2 * t3));
      q2[o2] = t4;
  }
}