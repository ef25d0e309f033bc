/* gnumpy helper headers */

extern "C" __global__ void __launch_bounds__(512) gn_kernel(const bool* __restrict__ p0, const signed char* __restrict__ p1, bool* __restrict__ q2, signed char s0, int n) {
  const int step = (int)gridDim.x * 512;
  const int nv = n / 16;
  for (int vb = (int)blockIdx.x * 2048 + threadIdx.x; vb < nv; vb += step * 4) {
      gn_vec<bool, 16> v0[4];
      gn_vec<signed char, 16> v1[4];
      #pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int vi = vb + u * 512;
        if (vi < nv) {
          v0[u] = reinterpret_cast<const gn_vec<bool, 16>*>(p0)[vi];
          v1[u] = reinterpret_cast<const gn_vec<signed char, 16>*>(p1)[vi];
        }
      }
      #pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int vi = vb + u * 512;
        if (vi < nv) {
          gn_vec<bool, 16> w2;
          #pragma unroll
          for (int e = 0; e < 16; ++e) {
            const bool u0 = v0[u].v[e];
            const signed char u1 = v1[u].v[e];
            const signed char u2 = s0;
            const bool u3 = (u1 > u2);
            const bool u4 = ((bool)u0 != (bool)u3);
            const bool u5 = (!u0);
            const bool u6 = ((bool)(u4 & u5));
            w2.v[e] = u6;
          }
          reinterpret_cast<gn_vec<bool, 16>*>(q2)[vi] = w2;
        }
      }
  }
  for (int i = nv * 16 + (int)blockIdx.x * 512 + threadIdx.x; i < n; i += step) {
      const int i0 = i;
      const int o0 = i0;
      const int o1 = i0;
      const int o2 = i0;
      const bool t0 = p0[o0];
      const signed char t1 = p1[o1];
      const signed char t2 = s0;
      const bool t3 = (t1 > t2);
      const bool t4 = ((bool)t0 != (bool)t3);
      const bool t5 = (!t0);
      const bool t6 = ((bool)(t4 & t5));
      q2[o2] = t6;
  }
}