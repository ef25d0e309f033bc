/* gnumpy helper headers */

extern "C" __global__ void __launch_bounds__(512) gn_kernel(const float* __restrict__ p1, float* __restrict__ q2, float s0, float s1, long long io0_off, long long io0_st1, int n, int d1, int st1_0, int st2_0) {
  const int step = (int)gridDim.x * 512;
  for (int i = (int)blockIdx.x * 512 + threadIdx.x; i < n; i += step) {
      int r_ = i;
      const int i1 = r_ % d1; r_ /= d1;
      const int i0 = r_;
      const int o1 = i0 * st1_0 + i1;
      const int o2 = i0 * st2_0 + i1;
      const float t0 = s0;
      const long long t1 = (io0_off + (long long)i0 + (long long)i1 * io0_st1);
      const float t2 = gn_cast<float>(t1);
      const float t3 = s1;
      const float t4 = ((float)(t2 * t3));
      const float t5 = ((float)(t0 + t4));
      const float t6 = p1[o1];
      const float t7 = ((float)(t5 + t6));
      q2[o2] = t7;
  }
}