/* gnumpy helper headers */

struct gn_acc_t { gn_c128 v; };

__device__ __forceinline__ gn_acc_t gn_shfl(gn_acc_t a, int m) {
  gn_acc_t r = a;
  r.v.re = __shfl_xor_sync(0xffffffffu, a.v.re, m);
  r.v.im = __shfl_xor_sync(0xffffffffu, a.v.im, m);
  return r;
}
#define GN_EPILOGUE(m_, fin) do { \
  const gn_c128 e1 = fin.v; \
  q1[0] = e1; \
} while (0)
extern "C" __global__ void __launch_bounds__(1024) gn_kernel(const gn_c128* __restrict__ p0, gn_c128* __restrict__ q1, int M, int K) {
  __shared__ gn_acc_t gn_sm[32];
  for (int rg = blockIdx.x; rg * 1 < M; rg += gridDim.x) {
    const int m = rg * 1 + (threadIdx.x / 1024);
    gn_acc_t acc = gn_acc_t{gn_c128{__longlong_as_double(0xfff0000000000000LL), __longlong_as_double(0xfff0000000000000LL)}};
    if (m < M) {
      const int b0 = 0;
      for (int kk = (threadIdx.x & 1023); kk < K; kk += 1024) {
        const int ri0 = kk;
        const gn_c128 a0 = p0[(b0 + ri0)];
        acc = gn_acc_t{gn_maximum(acc.v, gn_acc_t{a0}.v)};
      }
    }
    acc = gn_acc_t{gn_maximum(acc.v, gn_shfl(acc, 16).v)};
    acc = gn_acc_t{gn_maximum(acc.v, gn_shfl(acc, 8).v)};
    acc = gn_acc_t{gn_maximum(acc.v, gn_shfl(acc, 4).v)};
    acc = gn_acc_t{gn_maximum(acc.v, gn_shfl(acc, 2).v)};
    acc = gn_acc_t{gn_maximum(acc.v, gn_shfl(acc, 1).v)};
    __syncthreads();
    if ((threadIdx.x & 31) == 0) gn_sm[threadIdx.x >> 5] = acc;
    __syncthreads();
    if ((threadIdx.x & 1023) < 32) {
      const int gw_ = (threadIdx.x / 1024) * 32;
      acc = ((threadIdx.x & 31) < 32) ? gn_sm[gw_ + (threadIdx.x & 31)] : gn_acc_t{gn_c128{__longlong_as_double(0xfff0000000000000LL), __longlong_as_double(0xfff0000000000000LL)}};
      acc = gn_acc_t{gn_maximum(acc.v, gn_shfl(acc, 16).v)};
      acc = gn_acc_t{gn_maximum(acc.v, gn_shfl(acc, 8).v)};
      acc = gn_acc_t{gn_maximum(acc.v, gn_shfl(acc, 4).v)};
      acc = gn_acc_t{gn_maximum(acc.v, gn_shfl(acc, 2).v)};
      acc = gn_acc_t{gn_maximum(acc.v, gn_shfl(acc, 1).v)};
    }
    if ((threadIdx.x & 1023) == 0 && m < M) GN_EPILOGUE(m, acc);
    __syncthreads();
  }
}