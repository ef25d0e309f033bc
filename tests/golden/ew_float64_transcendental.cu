/* gnumpy helper headers */

extern "C" __global__ void __launch_bounds__(512) gn_kernel(const double* __restrict__ p0, double* __restrict__ q1, int n) {
  const int step = (int)gridDim.x * 512;
  const int nv = n / 2;
  for (int vb = (int)blockIdx.x * 2048 + threadIdx.x; vb < nv; vb += step * 4) {
      gn_vec<double, 2> v0[4];
      #pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int vi = vb + u * 512;
        if (vi < nv) {
          v0[u] = reinterpret_cast<const gn_vec<double, 2>*>(p0)[vi];
        }
      }
      #pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int vi = vb + u * 512;
        if (vi < nv) {
          gn_vec<double, 2> w1;
          #pragma unroll
          for (int e = 0; e < 2; ++e) {
            const double u0 = v0[u].v[e];
            const double u1 = gn_exp(u0);
            const double u2 = gn_absolute(u0);
            const double u3 = gn_log1p(u2);
            const double u4 = ((double)(u1 * u3));
            const double u5 = gn_sin(u0);
            const double u6 = ((double)(u4 - u5));
            w1.v[e] = u6;
          }
          reinterpret_cast<gn_vec<double, 2>*>(q1)[vi] = w1;
        }
      }
  }
  for (int i = nv * 2 + (int)blockIdx.x * 512 + threadIdx.x; i < n; i += step) {
      const int i0 = i;
      const int o0 = i0;
      const int o1 = i0;
      const double t0 = p0[o0];
      const double t1 = gn_exp(t0);
      const double t2 = gn_absolute(t0);
      const double t3 = gn_log1p(t2);
      const double t4 = ((double)(t1 * t3));
      const double t5 = gn_sin(t0);
      const double t6 = ((double)(t4 - t5));
      q1[o1] = t6;
  }
}