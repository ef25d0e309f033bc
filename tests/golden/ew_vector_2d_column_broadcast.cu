/* gnumpy helper headers */

extern "C" __global__ void __launch_bounds__(512) gn_kernel(const float* __restrict__ p0, const float* __restrict__ p1, float* __restrict__ q2, int n, int d1, int st0_0, int st2_0) {
  const int step = (int)gridDim.x * 512;
  const int nv = n / 4;
  for (int vb = (int)blockIdx.x * 2048 + threadIdx.x; vb < nv; vb += step * 4) {
      gn_vec<float, 4> v0[4];
      int oo0[4];
      int oo1[4];
      int oo2[4];
      #pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int vi = vb + u * 512;
        if (vi < nv) {
          int r_ = vi * 4;
          const int i1 = r_ % d1; r_ /= d1;
          const int i0 = r_;
          oo0[u] = i0 * st0_0 + i1;
          oo1[u] = i0;
          oo2[u] = i0 * st2_0 + i1;
          v0[u] = *reinterpret_cast<const gn_vec<float, 4>*>(p0 + oo0[u]);
        }
      }
      #pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int vi = vb + u * 512;
        if (vi < nv) {
          gn_vec<float, 4> w2;
          #pragma unroll
          for (int e = 0; e < 4; ++e) {
            const float u0 = v0[u].v[e];
            const float u1 = p1[oo1[u]];
            const float u2 = ((float)(u0 + u1));
            w2.v[e] = u2;
          }
          *reinterpret_cast<gn_vec<float, 4>*>(q2 + oo2[u]) = w2;
        }
      }
  }
  for (int i = nv * 4 + (int)blockIdx.x * 512 + threadIdx.x; i < n; i += step) {
      int r_ = i;
      const int i1 = r_ % d1; r_ /= d1;
      const int i0 = r_;
      const int o0 = i0 * st0_0 + i1;
      const int o1 = i0;
      const int o2 = i0 * st2_0 + i1;
      const float t0 = p0[o0];
      const float t1 = p1[o1];
      const float t2 = ((float)(t0 + t1));
      q2[o2] = t2;
  }
}