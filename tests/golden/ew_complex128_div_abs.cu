/* gnumpy helper headers */

extern "C" __global__ void __launch_bounds__(512) gn_kernel(const gn_c128* __restrict__ p0, gn_c128* __restrict__ q1, double s0_re, double s0_im, int n) {
  const int step = (int)gridDim.x * 512;
  for (int i = (int)blockIdx.x * 512 + threadIdx.x; i < n; i += step) {
      const int i0 = i;
      const int o0 = i0;
      const int o1 = i0;
      const gn_c128 t0 = p0[o0];
      const gn_c128 t1 = gn_c128{s0_re, s0_im};
      const gn_c128 t2 = gn_add(t0, t1);
      const gn_c128 t3 = gn_divide(t0, t2);
      const double t4 = gn_absolute(t0);
      const gn_c128 t5 = gn_cast<gn_c128>(t4);
      const gn_c128 t6 = gn_add(t3, t5);
      q1[o1] = t6;
  }
}