/* gnumpy helper headers */

extern "C" __global__ void __launch_bounds__(1024) gn_kernel(const float* __restrict__ p1, float* __restrict__ q2, float s0, float s1, long long io0_off, int n) {
  const int step = (int)gridDim.x * 1024;
  const int nv = n / 4;
  for (int vb = (int)blockIdx.x * 1024 + threadIdx.x; vb < nv; vb += step * 1) {
      gn_vec<float, 4> v1[1];
      #pragma unroll
      for (int u = 0; u < 1; ++u) {
        const int vi = vb + u * 1024;
        if (vi < nv) {
          v1[u] = reinterpret_cast<const gn_vec<float, 4>*>(p1)[vi];
        }
      }
      #pragma unroll
      for (int u = 0; u < 1; ++u) {
        const int vi = vb + u * 1024;
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
            const float u6 = v1[u].v[e];
            const float u7 = ((float)(u5 + u6));
            w2.v[e] = u7;
          }
          reinterpret_cast<gn_vec<float, 4>*>(q2)[vi] = w2;
        }
      }
  }
  for (int i = nv * 4 + (int)blockIdx.x * 1024 + threadIdx.x; i < n; i += step) {
      const int i0 = i;
      const int o1 = i0;
      const int o2 = i0;
      const float t0 = s0;
      const long long t1 = (io0_off + (long long)i0);
      const float t2 = gn_cast<float>(t1);
      const float t3 = s1;
      const float t4 = ((float)(t2 * t3));
      const float t5 = ((float)(t0 + t4));
      const float t6 = p1[o1];
      const float t7 = ((float)(t5 + t6));
      q2[o2] = t7;
  }
}