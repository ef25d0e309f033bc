/* gnumpy helper headers */

extern "C" __global__ void __launch_bounds__(1024) gn_kernel(const float* __restrict__ p0, const float* __restrict__ p1, float* __restrict__ q2, float* __restrict__ q3, float s0, int n) {
  const int step = (int)gridDim.x * 1024;
  const int nv = n / 4;
  for (int vb = (int)blockIdx.x * 1024 + threadIdx.x; vb < nv; vb += step * 1) {
      gn_vec<float, 4> v0[1];
      gn_vec<float, 4> v1[1];
      #pragma unroll
      for (int u = 0; u < 1; ++u) {
        const int vi = vb + u * 1024;
        if (vi < nv) {
          v0[u] = reinterpret_cast<const gn_vec<float, 4>*>(p0)[vi];
          v1[u] = reinterpret_cast<const gn_vec<float, 4>*>(p1)[vi];
        }
      }
      #pragma unroll
      for (int u = 0; u < 1; ++u) {
        const int vi = vb + u * 1024;
        if (vi < nv) {
          gn_vec<float, 4> w2;
          gn_vec<float, 4> w3;
          #pragma unroll
          for (int e = 0; e < 4; ++e) {
            const float u0 = v0[u].v[e];
            const float u1 = s0;
            const float u2 = ((float)(u0 * u1));
            const float u3 = v1[u].v[e];
            const float u4 = ((float)(u2 + u3));
            const float u5 = ((float)(u0 - u3));
            w2.v[e] = u4;
            w3.v[e] = u5;
          }
          reinterpret_cast<gn_vec<float, 4>*>(q2)[vi] = w2;
          reinterpret_cast<gn_vec<float, 4>*>(q3)[vi] = w3;
        }
      }
  }
  for (int i = nv * 4 + (int)blockIdx.x * 1024 + threadIdx.x; i < n; i += step) {
      const int i0 = i;
      const int o0 = i0;
      const int o1 = i0;
      const int o2 = i0;
      const int o3 = i0;
      const float t0 = p0[o0];
      const float t1 = s0;
      const float t2 = ((float)(t0 * t1));
      const float t3 = p1[o1];
      const float t4 = ((float)(t2 + t3));
      const float t5 = ((float)(t0 - t3));
      q2[o2] = t4;
      q3[o3] = t5;
  }
}