/* gnumpy helper headers */

extern "C" __global__ void __launch_bounds__(512) gn_kernel(const double* __restrict__ p0, const double* __restrict__ p1, double* __restrict__ q2, double* __restrict__ q3, double s0, int n, int d1, int st0_0, int st1_0, int st2_0, int st3_0) {
  const int step = (int)gridDim.x * 512;
  const int nv = n / 2;
  for (int vb = (int)blockIdx.x * 2048 + threadIdx.x; vb < nv; vb += step * 4) {
      gn_vec<double, 2> v0[4];
      gn_vec<double, 2> v1[4];
      int oo0[4];
      int oo1[4];
      int oo2[4];
      int oo3[4];
      #pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int vi = vb + u * 512;
        if (vi < nv) {
          int r_ = vi * 2;
          const int i1 = r_ % d1; r_ /= d1;
          const int i0 = r_;
          oo0[u] = i0 * st0_0 + i1;
          oo1[u] = i0 * st1_0 + i1;
          oo2[u] = i0 * st2_0 + i1;
          oo3[u] = i0 * st3_0 + i1;
          v0[u] = *reinterpret_cast<const gn_vec<double, 2>*>(p0 + oo0[u]);
          v1[u] = *reinterpret_cast<const gn_vec<double, 2>*>(p1 + oo1[u]);
        }
      }
      #pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int vi = vb + u * 512;
        if (vi < nv) {
          gn_vec<double, 2> w2;
          gn_vec<double, 2> w3;
          #pragma unroll
          for (int e = 0; e < 2; ++e) {
            const double u0 = v0[u].v[e];
            const double u1 = s0;
            const double u2 = ((double)(u0 * u1));
            const double u3 = v1[u].v[e];
            const double u4 = ((double)(u0 - u3));
            w2.v[e] = u2;
            w3.v[e] = u4;
          }
          *reinterpret_cast<gn_vec<double, 2>*>(q2 + oo2[u]) = w2;
          *reinterpret_cast<gn_vec<double, 2>*>(q3 + oo3[u]) = w3;
        }
      }
  }
  for (int i = nv * 2 + (int)blockIdx.x * 512 + threadIdx.x; i < n; i += step) {
      int r_ = i;
      const int i1 = r_ % d1; r_ /= d1;
      const int i0 = r_;
      const int o0 = i0 * st0_0 + i1;
      const int o1 = i0 * st1_0 + i1;
      const int o2 = i0 * st2_0 + i1;
      const int o3 = i0 * st3_0 + i1;
      const double t0 = p0[o0];
      const double t1 = s0;
      const double t2 = ((double)(t0 * t1));
      const double t3 = p1[o1];
      const double t4 = ((double)(t0 - t3));
      q2[o2] = t2;
      q3[o3] = t4;
  }
}