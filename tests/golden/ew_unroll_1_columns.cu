/* gnumpy helper headers */

extern "C" __global__ void __launch_bounds__(512) gn_kernel(const float* __restrict__ p0, const float* __restrict__ p1, const float* __restrict__ p2, float* __restrict__ q3, int n, int d1, int st0_0, int st3_0) {
  const int nvc = d1 / 4, nrow = n / d1;
  const int cv = (int)blockIdx.x * 128 + threadIdx.x % 128;
  if (cv >= nvc) return;
  const int i1 = cv * 4;
  const int rstep = (int)gridDim.y * 4;
  const gn_vec<float, 4> h1 = *reinterpret_cast<const gn_vec<float, 4>*>(p1 + i1);
  for (int rb = (int)blockIdx.y * 4 + threadIdx.x / 128; rb < nrow; rb += rstep * 1) {
    gn_vec<float, 4> v0[1];
    int oo0[1];
    int oo2[1];
    int oo3[1];
    #pragma unroll
    for (int u = 0; u < 1; ++u) {
      const int i0 = rb + u * rstep;
      if (i0 < nrow) {
        oo0[u] = i0 * st0_0 + i1;
        oo2[u] = i0;
        oo3[u] = i0 * st3_0 + i1;
        v0[u] = *reinterpret_cast<const gn_vec<float, 4>*>(p0 + oo0[u]);
      }
    }
    #pragma unroll
    for (int u = 0; u < 1; ++u) {
      if (rb + u * rstep < nrow) {
        gn_vec<float, 4> w3;
        #pragma unroll
        for (int e = 0; e < 4; ++e) {
          const float u0 = v0[u].v[e];
          const float u1 = h1.v[e];
          const float u2 = ((float)(u0 * u1));
          const float u3 = p2[oo2[u]];
          const float u4 = ((float)(u2 - u3));
          w3.v[e] = u4;
        }
        *reinterpret_cast<gn_vec<float, 4>*>(q3 + oo3[u]) = w3;
      }
    }
  }
}