/* gnumpy helper headers */

extern "C" __global__ void __launch_bounds__(512) gn_kernel(const float* __restrict__ p0, float* __restrict__ q1, float s0, long long n, long long d1, long long st1_0) {
  const long long nvc = d1 / 4, nrow = n / d1;
  const long long cv = (long long)blockIdx.x * 128 + threadIdx.x % 128;
  if (cv >= nvc) return;
  const long long i1 = cv * 4;
  const long long rstep = (long long)gridDim.y * 4;
  const gn_vec<float, 4> h0 = *reinterpret_cast<const gn_vec<float, 4>*>(p0 + i1);
  for (long long rb = (long long)blockIdx.y * 4 + threadIdx.x / 128; rb < nrow; rb += rstep * 4) {
    long long oo1[4];
    #pragma unroll
    for (int u = 0; u < 4; ++u) {
      const long long i0 = rb + u * rstep;
      if (i0 < nrow) {
        oo1[u] = i0 * st1_0 + i1;
      }
    }
    #pragma unroll
    for (int u = 0; u < 4; ++u) {
      if (rb + u * rstep < nrow) {
        gn_vec<float, 4> w1;
        #pragma unroll
        for (int e = 0; e < 4; ++e) {
          const float u0 = h0.v[e];
          const float u1 = s0;
          const float u2 = ((float)(u0 * u1));
          w1.v[e] = u2;
        }
        *reinterpret_cast<gn_vec<float, 4>*>(q1 + oo1[u]) = w1;
      }
    }
  }
}