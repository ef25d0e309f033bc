/* gnumpy helper headers */

extern "C" __global__ void __launch_bounds__(512) gn_kernel(const float* __restrict__ p0, float* __restrict__ q1, float s0, long long n, long long d1, long long st1_0) {
  const long long step = (long long)gridDim.x * 512;
  const long long nv = n / 4;
  for (long long vb = (long long)blockIdx.x * 2048 + threadIdx.x; vb < nv; vb += step * 4) {
      long long oo0[4];
      long long oo1[4];
      #pragma unroll
      for (int u = 0; u < 4; ++u) {
        const long long vi = vb + u * 512;
        if (vi < nv) {
          long long r_ = vi * 4;
          const long long i1 = r_ % d1; r_ /= d1;
          const long long i0 = r_;
          oo0[u] = i0;
          oo1[u] = i0 * st1_0 + i1;
        }
      }
      #pragma unroll
      for (int u = 0; u < 4; ++u) {
        const long long vi = vb + u * 512;
        if (vi < nv) {
          gn_vec<float, 4> w1;
          #pragma unroll
          for (int e = 0; e < 4; ++e) {
            const float u0 = p0[oo0[u]];
            const float u1 = s0;
            const float u2 = ((float)(u0 - u1));
            w1.v[e] = u2;
          }
          *reinterpret_cast<gn_vec<float, 4>*>(q1 + oo1[u]) = w1;
        }
      }
  }
  for (long long i = nv * 4 + (long long)blockIdx.x * 512 + threadIdx.x; i < n; i += step) {
      long long r_ = i;
      const long long i1 = r_ % d1; r_ /= d1;
      const long long i0 = r_;
      const long long o0 = i0;
      const long long o1 = i0 * st1_0 + i1;
      const float t0 = p0[o0];
      const float t1 = s0;
      const float t2 = ((float)(t0 - t1));
      q1[o1] = t2;
  }
}