/* gnumpy helper headers */

struct gn_acc_t { double n; double k; double s; double q; };
__device__ __forceinline__ gn_acc_t gn_settle(gn_acc_t a) {
  // (n, k, s, q) -> (n, mean, 0, M2); a no-op (no division) when settled
  if (a.s != 0.0) {
    const double m = a.s / a.n;
    a.k += m; a.q -= a.s * m; a.s = 0.0;
  }
  return a;
}
__device__ __forceinline__ gn_acc_t gn_var_combine(gn_acc_t a, gn_acc_t b) {
  if (a.n == 0.0) return b;
  if (b.n == 0.0) return a;
  a = gn_settle(a); b = gn_settle(b);
  const double n = a.n + b.n, d = b.k - a.k, r = b.n / n;
  return gn_acc_t{n, a.k + d * r, 0.0, a.q + b.q + d * d * a.n * r};
}
__device__ __forceinline__ gn_acc_t gn_var_push(gn_acc_t a, double x) {
  const double k = a.n == 0.0 ? x : a.k;   // a select, not a branch
  const double d = x - k;
  return gn_acc_t{a.n + 1.0, k, a.s + d, a.q + d * d};
}
__device__ __forceinline__ gn_acc_t gn_shfl(gn_acc_t a, int m) {
  gn_acc_t r = a;
  r.n = __shfl_xor_sync(0xffffffffu, a.n, m);
  r.k = __shfl_xor_sync(0xffffffffu, a.k, m);
  r.s = __shfl_xor_sync(0xffffffffu, a.s, m);
  r.q = __shfl_xor_sync(0xffffffffu, a.q, m);
  return r;
}
#define GN_EPILOGUE(m_, fin) do { \
  const int ei0 = m_; \
  const float e1 = ((fin.q - fin.s * (fin.s / fin.n)) / fin.n); \
  const float e2 = gn_sqrt(e1); \
  q1[ei0] = e2; \
} while (0)
extern "C" __global__ void __launch_bounds__(512, 2) gn_kernel(const float* __restrict__ p0, float* __restrict__ q1, int M, int K, int rs0_0) {
  const int tx = threadIdx.x % 128, ty = threadIdx.x / 128;
  const int m = ((int)blockIdx.x * 128 + tx) * 4;
  gn_acc_t acc[4];
  #pragma unroll
  for (int e = 0; e < 4; ++e) acc[e] = gn_acc_t{0.0, 0.0, 0.0, 0.0};
  if (m < M) {
    const int mi0 = m;
    const int b0 = mi0;
    const int k0_ = 0 + ty, hi_ = K;
    float kd_[4];
    double s_[4], q_[4];
    #pragma unroll
    for (int e = 0; e < 4; ++e) { kd_[e] = 0; s_[e] = 0.0; q_[e] = 0.0; }
    if (k0_ < hi_) {
      const int kk = k0_;
      const int ri0 = kk;
      const gn_vec<float, 4> cv0 = *reinterpret_cast<const gn_vec<float, 4>*>(p0 + b0 + ri0 * rs0_0);
      #pragma unroll
      for (int e = 0; e < 4; ++e) {
        const float v0 = cv0.v[e];
        kd_[e] = (float)(v0);
      }
    }
    #pragma unroll 4
    for (int kk = k0_; kk < hi_; kk += 4) {
      const int ri0 = kk;
      const gn_vec<float, 4> cv0 = *reinterpret_cast<const gn_vec<float, 4>*>(p0 + b0 + ri0 * rs0_0);
      #pragma unroll
      for (int e = 0; e < 4; ++e) {
        const float v0 = cv0.v[e];
        const float x_ = (float)(v0);
        const double d_ = (double)(x_ - kd_[e]);
        s_[e] += d_;
        q_[e] = fma(d_, d_, q_[e]);
      }
    }
    const double n_ = k0_ < hi_ ? (double)((hi_ - k0_ + 3) / 4) : 0.0;
    #pragma unroll
    for (int e = 0; e < 4; ++e) acc[e] = gn_acc_t{n_, (double)kd_[e], s_[e], q_[e]};
  }
  #pragma unroll
  for (int e = 0; e < 4; ++e) acc[e] = gn_settle(acc[e]);
  __shared__ gn_acc_t gn_cs[4][128];
  #pragma unroll 1
  for (int e = 0; e < 4; ++e) {
    gn_cs[ty][tx] = acc[e];
    __syncthreads();
    for (int h = 2; h > 0; h >>= 1) {
      if (ty < h) gn_cs[ty][tx] = gn_var_combine(gn_cs[ty][tx], gn_cs[ty + h][tx]);
      __syncthreads();
    }
    acc[e] = gn_cs[0][tx];
    __syncthreads();
  }
  if (ty == 0 && m < M) {
    #pragma unroll
    for (int e = 0; e < 4; ++e) if (m + e < M) GN_EPILOGUE(m + e, acc[e]);
  }
}