/* gnumpy helper headers */

extern "C" __global__ void __launch_bounds__(512) gn_kernel(const float* __restrict__ p0, const float* __restrict__ p1, float* __restrict__ q2, int n, int d1, int st0_0, int st0_1, int st2_0) {
  const int step = (int)gridDim.x * 512;
  for (int i = (int)blockIdx.x * 512 + threadIdx.x; i < n; i += step) {
      int r_ = i;
      const int i1 = r_ % d1; r_ /= d1;
      const int i0 = r_;
      const int o0 = i0 * st0_0 + i1 * st0_1;
      const int o1 = i1;
      const int o2 = i0 * st2_0 + i1;
      const float t0 = p0[o0];
      const float t1 = p1[o1];
      const float t2 = ((float)(t0 + t1));
      q2[o2] = t2;
  }
}