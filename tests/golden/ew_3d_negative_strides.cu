/* gnumpy helper headers */

extern "C" __global__ void __launch_bounds__(512) gn_kernel(const double* __restrict__ p0, const double* __restrict__ p1, double* __restrict__ q2, int n, int d1, int d2, int st0_0, int st0_1, int st0_2, int st1_0, int st1_1, int st2_0, int st2_1) {
  const int step = (int)gridDim.x * 512;
  for (int i = (int)blockIdx.x * 512 + threadIdx.x; i < n; i += step) {
      int r_ = i;
      const int i2 = r_ % d2; r_ /= d2;
      const int i1 = r_ % d1; r_ /= d1;
      const int i0 = r_;
      const int o0 = i0 * st0_0 + i1 * st0_1 + i2 * st0_2;
      const int o1 = i0 * st1_0 + i1 * st1_1 + i2;
      const int o2 = i0 * st2_0 + i1 * st2_1 + i2;
      const double t0 = p0[o0];
      const double t1 = p1[o1];
      const double t2 = ((double)(t0 + t1));
      q2[o2] = t2;
  }
}