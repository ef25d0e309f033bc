/* gnumpy helper headers */

namespace gn_ph0 {
struct gn_acc_t { double v; };

__device__ __forceinline__ gn_acc_t gn_shfl(gn_acc_t a, int m) {
  gn_acc_t r = a;
  r.v = __shfl_xor_sync(0xffffffffu, a.v, m);
  return r;
}
__device__ __forceinline__ gn_acc_t ident() { return gn_acc_t{(double)0}; }
__device__ __forceinline__ gn_acc_t comb(gn_acc_t a, gn_acc_t b) { return gn_acc_t{(a.v + b.v)}; }
template <class V> __device__ __forceinline__ gn_acc_t push(gn_acc_t a, V x, long long i) { return gn_acc_t{(a.v + gn_acc_t{(double)(x)}.v)}; }
// the warp's total in every lane
__device__ __forceinline__ gn_acc_t all(gn_acc_t a) {
  a = comb(a, gn_shfl(a, 16));
  a = comb(a, gn_shfl(a, 8));
  a = comb(a, gn_shfl(a, 4));
  a = comb(a, gn_shfl(a, 2));
  a = comb(a, gn_shfl(a, 1));
  return a;
}
}
extern "C" __global__ void __launch_bounds__(256) gn_kernel(const double* __restrict__ p0, double* __restrict__ q1, int M, int K, int ks0_0, int ks1_0) {
  for (int m = blockIdx.x * 8 + threadIdx.x / 32; m < M; m += gridDim.x * 8) {
    const int mi0 = m;
    const int b0 = mi0 * ks0_0;
    const int b1 = mi0 * ks1_0;
    gn_vec<double, 2> cv0[4];
    #pragma unroll
    for (int r = 0; r < 4; ++r) {
      const int kv = (threadIdx.x & 31) + r * 32;
      if (kv < K / 2) cv0[r] = reinterpret_cast<const gn_vec<double, 2>*>(p0 + b0)[kv];
    }
    gn_ph0::gn_acc_t acc0 = gn_ph0::ident();
    #pragma unroll
    for (int r = 0; r < 4; ++r) {
      const int kv = (threadIdx.x & 31) + r * 32;
      if (kv < K / 2) {

        #pragma unroll
        for (int e = 0; e < 2; ++e) {
          const int kk = kv * 2 + e;
          const double a0_0 = cv0[r].v[e];
          const double a0_1 = ((double)(a0_0 * a0_0));
          acc0 = gn_ph0::push(acc0, a0_1, kk);
        }
      }
    }
    acc0 = gn_ph0::all(acc0);
    const double ph0 = acc0.v;
    #pragma unroll
    for (int r = 0; r < 4; ++r) {
      const int kv = (threadIdx.x & 31) + r * 32;
      if (kv < K / 2) {
        gn_vec<double, 2> ov1;
        #pragma unroll
        for (int e = 0; e < 2; ++e) {
          const int kk = kv * 2 + e;
          const double o0 = cv0[r].v[e];
          const double o2 = ph0;
          const double o3 = gn_sqrt(o2);
          const double o4 = (o0 / o3);
          ov1.v[e] = o4;
        }
        reinterpret_cast<gn_vec<double, 2>*>(q1 + b1)[kv] = ov1;
      }
    }
  }
}