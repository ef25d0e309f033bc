/* gnumpy helper headers */

extern "C" __global__ void __launch_bounds__(1024) gn_kernel(const unsigned int* __restrict__ p0, unsigned int* __restrict__ q1, unsigned int s0, unsigned int s1, int n) {
  const int step = (int)gridDim.x * 1024;
  const int nv = n / 4;
  for (int vb = (int)blockIdx.x * 1024 + threadIdx.x; vb < nv; vb += step * 1) {
      gn_vec<unsigned int, 4> v0[1];
      #pragma unroll
      for (int u = 0; u < 1; ++u) {
        const int vi = vb + u * 1024;
        if (vi < nv) {
          v0[u] = reinterpret_cast<const gn_vec<unsigned int, 4>*>(p0)[vi];
        }
      }
      #pragma unroll
      for (int u = 0; u < 1; ++u) {
        const int vi = vb + u * 1024;
        if (vi < nv) {
          gn_vec<unsigned int, 4> w1;
          #pragma unroll
          for (int e = 0; e < 4; ++e) {
            const unsigned int u0 = v0[u].v[e];
            const unsigned int u1 = s0;
            const bool u2 = (u0 > u1);
            const unsigned int u3 = s1;
            const unsigned int u4 = gn_multiply(u0, u3);
            const unsigned int u5 = (u2 ? u0 : u4);
            w1.v[e] = u5;
          }
          reinterpret_cast<gn_vec<unsigned int, 4>*>(q1)[vi] = w1;
        }
      }
  }
  for (int i = nv * 4 + (int)blockIdx.x * 1024 + threadIdx.x; i < n; i += step) {
      const int i0 = i;
      const int o0 = i0;
      const int o1 = i0;
      const unsigned int t0 = p0[o0];
      const unsigned int t1 = s0;
      const bool t2 = (t0 > t1);
      const unsigned int t3 = s1;
      const unsigned int t4 = gn_multiply(t0, t3);
      const unsigned int t5 = (t2 ? t0 : t4);
      q1[o1] = t5;
  }
}