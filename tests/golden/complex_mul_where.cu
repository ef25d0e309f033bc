/* gnumpy helper headers */

extern "C" __global__ void __launch_bounds__(512) gn_kernel(const gn_c64* __restrict__ p0, gn_c64* __restrict__ q1, float s0, int n) {
  const int step = (int)gridDim.x * 512;
  const int nv = n / 2;
  for (int vb = (int)blockIdx.x * 2048 + threadIdx.x; vb < nv; vb += step * 4) {
      gn_vec<gn_c64, 2> v0[4];
      #pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int vi = vb + u * 512;
        if (vi < nv) {
          v0[u] = reinterpret_cast<const gn_vec<gn_c64, 2>*>(p0)[vi];
        }
      }
      #pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int vi = vb + u * 512;
        if (vi < nv) {
          gn_vec<gn_c64, 2> w1;
          #pragma unroll
          for (int e = 0; e < 2; ++e) {
            const gn_c64 u0 = v0[u].v[e];
            const float u1 = u0.re;
            const float u2 = s0;
            const bool u3 = (u1 > u2);
            const gn_c64 u4 = gn_multiply(u0, u0);
            const gn_c64 u5 = gn_negative(u0);
            const gn_c64 u6 = (u3 ? u4 : u5);
            w1.v[e] = u6;
          }
          reinterpret_cast<gn_vec<gn_c64, 2>*>(q1)[vi] = w1;
        }
      }
  }
  for (int i = nv * 2 + (int)blockIdx.x * 512 + threadIdx.x; i < n; i += step) {
      const int i0 = i;
      const int o0 = i0;
      const int o1 = i0;
      const gn_c64 t0 = p0[o0];
      const float t1 = t0.re;
      const float t2 = s0;
      const bool t3 = (t1 > t2);
      const gn_c64 t4 = gn_multiply(t0, t0);
      const gn_c64 t5 = gn_negative(t0);
      const gn_c64 t6 = (t3 ? t4 : t5);
      q1[o1] = t6;
  }
}