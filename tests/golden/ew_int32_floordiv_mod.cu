/* gnumpy helper headers */

extern "C" __global__ void __launch_bounds__(512) gn_kernel(const int* __restrict__ p0, int* __restrict__ q1, int s0, int s1, int n) {
  const int step = (int)gridDim.x * 512;
  const int nv = n / 4;
  for (int vb = (int)blockIdx.x * 2048 + threadIdx.x; vb < nv; vb += step * 4) {
      gn_vec<int, 4> v0[4];
      #pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int vi = vb + u * 512;
        if (vi < nv) {
          v0[u] = reinterpret_cast<const gn_vec<int, 4>*>(p0)[vi];
        }
      }
      #pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int vi = vb + u * 512;
        if (vi < nv) {
          gn_vec<int, 4> w1;
          #pragma unroll
          for (int e = 0; e < 4; ++e) {
            const int u0 = v0[u].v[e];
            const int u1 = s0;
            const int u2 = gn_floor_divide(u0, u1);
            const int u3 = s1;
            const int u4 = gn_remainder(u2, u3);
            const int u5 = gn_subtract(u4, u0);
            w1.v[e] = u5;
          }
          reinterpret_cast<gn_vec<int, 4>*>(q1)[vi] = w1;
        }
      }
  }
  for (int i = nv * 4 + (int)blockIdx.x * 512 + threadIdx.x; i < n; i += step) {
      const int i0 = i;
      const int o0 = i0;
      const int o1 = i0;
      const int t0 = p0[o0];
      const int t1 = s0;
      const int t2 = gn_floor_divide(t0, t1);
      const int t3 = s1;
      const int t4 = gn_remainder(t2, t3);
      const int t5 = gn_subtract(t4, t0);
      q1[o1] = t5;
  }
}