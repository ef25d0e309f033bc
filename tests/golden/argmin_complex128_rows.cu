/* gnumpy helper headers */

struct gn_acc_t { gn_c128 v; long long i; };
__device__ __forceinline__ gn_acc_t gn_arg_pick_argmin(gn_acc_t a, gn_acc_t b) {
  const bool take_a = gn_isnan(a.v) ? (!gn_isnan(b.v) || a.i < b.i) : (gn_isnan(b.v) ? false : (gn_less(a.v, b.v) || (gn_equal(a.v, b.v) && a.i < b.i)));
  return take_a ? a : b;
}
// accumulator value type: gn_c128
__device__ __forceinline__ gn_acc_t gn_shfl(gn_acc_t a, int m) {
  gn_acc_t r = a;
  r.v.re = __shfl_xor_sync(0xffffffffu, a.v.re, m);
  r.v.im = __shfl_xor_sync(0xffffffffu, a.v.im, m);
  r.i = __shfl_xor_sync(0xffffffffu, a.i, m);
  return r;
}
#define GN_EPILOGUE(m_, fin) do { \
  const int ei0 = m_; \
  const long long e1 = fin.i; \
  q1[ei0] = e1; \
} while (0)
extern "C" __global__ void __launch_bounds__(512) gn_kernel(const gn_c128* __restrict__ p0, long long* __restrict__ q1, int M, int K, int ks0_0) {
  __shared__ gn_acc_t gn_sm[16];
  for (int rg = blockIdx.x; rg * 16 < M; rg += gridDim.x) {
    const int m = rg * 16 + (threadIdx.x / 32);
    gn_acc_t acc = gn_acc_t{gn_c128{__longlong_as_double(0x7ff0000000000000LL), __longlong_as_double(0x7ff0000000000000LL)}, 0x7fffffffffffffffLL};
    if (m < M) {
      const int mi0 = m;
      const int b0 = mi0 * ks0_0;
      for (int kk = (threadIdx.x & 31); kk < K; kk += 32) {
        const int ri0 = kk;
        const gn_c128 a0 = p0[(b0 + ri0)];
        acc = gn_arg_pick_argmin(acc, gn_acc_t{a0, (long long)(kk)});
      }
    }
    acc = gn_arg_pick_argmin(acc, gn_shfl(acc, 16));
    acc = gn_arg_pick_argmin(acc, gn_shfl(acc, 8));
    acc = gn_arg_pick_argmin(acc, gn_shfl(acc, 4));
    acc = gn_arg_pick_argmin(acc, gn_shfl(acc, 2));
    acc = gn_arg_pick_argmin(acc, gn_shfl(acc, 1));
    if ((threadIdx.x & 31) == 0 && m < M) GN_EPILOGUE(m, acc);
  }
}