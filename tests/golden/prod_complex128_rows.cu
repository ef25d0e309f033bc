/* gnumpy helper headers */

struct gn_acc_t { gn_c128 v; };

__device__ __forceinline__ gn_acc_t gn_shfl(gn_acc_t a, int m) {
  gn_acc_t r = a;
  r.v.re = __shfl_xor_sync(0xffffffffu, a.v.re, m);
  r.v.im = __shfl_xor_sync(0xffffffffu, a.v.im, m);
  return r;
}
#define GN_EPILOGUE(m_, fin) do { \
  const int ei0 = m_; \
  const gn_c128 e1 = fin.v; \
  q1[ei0] = e1; \
} while (0)
extern "C" __global__ void __launch_bounds__(512) gn_kernel(const gn_c128* __restrict__ p0, gn_c128* __restrict__ q1, int M, int K, int ks0_0) {
  __shared__ gn_acc_t gn_sm[16];
  for (int rg = blockIdx.x; rg * 16 < M; rg += gridDim.x) {
    const int m = rg * 16 + (threadIdx.x / 32);
    gn_acc_t acc = gn_acc_t{gn_c128{1, 0}};
    if (m < M) {
      const int mi0 = m;
      const int b0 = mi0 * ks0_0;
      for (int kk = (threadIdx.x & 31); kk < K; kk += 32) {
        const int ri0 = kk;
        const gn_c128 a0 = p0[(b0 + ri0)];
        acc = gn_acc_t{gn_multiply(acc.v, gn_acc_t{a0}.v)};
      }
    }
    acc = gn_acc_t{gn_multiply(acc.v, gn_shfl(acc, 16).v)};
    acc = gn_acc_t{gn_multiply(acc.v, gn_shfl(acc, 8).v)};
    acc = gn_acc_t{gn_multiply(acc.v, gn_shfl(acc, 4).v)};
    acc = gn_acc_t{gn_multiply(acc.v, gn_shfl(acc, 2).v)};
    acc = gn_acc_t{gn_multiply(acc.v, gn_shfl(acc, 1).v)};
    if ((threadIdx.x & 31) == 0 && m < M) GN_EPILOGUE(m, acc);
  }
}