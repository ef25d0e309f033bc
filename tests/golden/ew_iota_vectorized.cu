/* gnumpy helper headers */

extern "C" __global__ void __launch_bounds__(512) gn_kernel(const float* __restrict__ p1, float* __restrict__ q2, float s0, float s1, float s2, long long io0_off, int n) {
  const int step = (int)gridDim.x * 512;
  const int nv = n / 4;
  for (int vb = (int)blockIdx.x * 2048 + threadIdx.x; vb < nv; vb += step * 4) {
      gn_vec<float, 4> v1[4];
      #pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int vi = vb + u * 512;
        if (vi < nv) {
          v1[u] = reinterpret_cast<const gn_vec<float, 4>*>(p1)[vi];
        }
      }
      #pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int vi = vb + u * 512;
        if (vi < nv) {
          gn_vec<float, 4> w2;
          #pragma unroll
          for (int e = 0; e < 4; ++e) {
            const float u0 = s0;
            const long long u1 = (io0_off + (long long)(vi * 4 + e));
            const float u2 = gn_cast<float>(u1);
            const float u3 = s1;
            const float u4 = ((float)(u2 * u3));
            const float u5 = ((float)(u0 + u4));
            const float u6 = s2;
            const float u7 = ((float)(u5 * u6));
            const float u8 = v1[u].v[e];
            const float u9 = ((float)(u7 + u8));
            w2.v[e] = u9;
          }
          reinterpret_cast<gn_vec<float, 4>*>(q2)[vi] = w2;
        }
      }
  }
  for (int i = nv * 4 + (int)blockIdx.x * 512 + threadIdx.x; i < n; i += step) {
      const int i0 = i;
      const int o1 = i0;
      const int o2 = i0;
      const float t0 = s0;
      const long long t1 = (io0_off + (long long)i0);
      const float t2 = gn_cast<float>(t1);
      const float t3 = s1;
      const float t4 = ((float)(t2 * t3));
      const float t5 = ((float)(t0 + t4));
      const float t6 = s2;
      const float t7 = ((float)(t5 * t6));
      const float t8 = p1[o1];
      const float t9 = ((float)(t7 + t8));
      q2[o2] = t9;
  }
}