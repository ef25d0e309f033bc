/* gnumpy helper headers */

extern "C" __global__ void __launch_bounds__(512) gn_kernel(const signed char* __restrict__ p0, signed char* __restrict__ q1, signed char s0, signed char s1, int n) {
  const int step = (int)gridDim.x * 512;
  const int nv = n / 16;
  for (int vb = (int)blockIdx.x * 2048 + threadIdx.x; vb < nv; vb += step * 4) {
      gn_vec<signed char, 16> v0[4];
      #pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int vi = vb + u * 512;
        if (vi < nv) {
          v0[u] = reinterpret_cast<const gn_vec<signed char, 16>*>(p0)[vi];
        }
      }
      #pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int vi = vb + u * 512;
        if (vi < nv) {
          gn_vec<signed char, 16> w1;
          #pragma unroll
          for (int e = 0; e < 16; ++e) {
            const signed char u0 = v0[u].v[e];
            const signed char u1 = s0;
            const signed char u2 = gn_left_shift(u0, u1);
            const signed char u3 = s1;
            const signed char u4 = ((signed char)(u0 & u3));
            const signed char u5 = ((signed char)(u2 ^ u4));
            w1.v[e] = u5;
          }
          reinterpret_cast<gn_vec<signed char, 16>*>(q1)[vi] = w1;
        }
      }
  }
  for (int i = nv * 16 + (int)blockIdx.x * 512 + threadIdx.x; i < n; i += step) {
      const int i0 = i;
      const int o0 = i0;
      const int o1 = i0;
      const signed char t0 = p0[o0];
      const signed char t1 = s0;
      const signed char t2 = gn_left_shift(t0, t1);
      const signed char t3 = s1;
      const signed char t4 = ((signed char)(t0 & t3));
      const signed char t5 = ((signed char)(t2 ^ t4));
      q1[o1] = t5;
  }
}