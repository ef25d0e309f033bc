/* gnumpy helper headers */
template <class V> __device__ __forceinline__ V gn_ldh(const V* p) {
  V r; unsigned int* u = reinterpret_cast<unsigned int*>(&r);
  if constexpr (sizeof(V) == 16)
    asm("ld.global.nc.L2::128B.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(u[0]), "=r"(u[1]), "=r"(u[2]), "=r"(u[3]) : "l"(p));
  else if constexpr (sizeof(V) == 8)
    asm("ld.global.nc.L2::128B.v2.u32 {%0, %1}, [%2];" : "=r"(u[0]), "=r"(u[1]) : "l"(p));
  else if constexpr (sizeof(V) == 4)
    asm("ld.global.nc.L2::128B.u32 %0, [%1];" : "=r"(u[0]) : "l"(p));
  else
    r = *p;
  return r;
}

struct gn_acc_t { float v; };

__device__ __forceinline__ gn_acc_t gn_shfl(gn_acc_t a, int m) {
  gn_acc_t r = a;
  r.v = __shfl_xor_sync(0xffffffffu, a.v, m);
  return r;
}
#define GN_EPILOGUE(m_, fin) do { \
  const int ei0 = m_; \
  const float e1 = fin.v; \
  const double e2 = gn_cast<double>(e1); \
  const double e3 = s0; \
  const double e4 = (e2 / e3); \
  const float e5 = gn_cast<float>(e4); \
  q1[ei0] = e5; \
} while (0)
extern "C" __global__ void __launch_bounds__(512) gn_kernel(const float* __restrict__ p0, float* __restrict__ q1, double s0, int M, int K, int ks0_0) {
  __shared__ gn_acc_t gn_sm[16];
  for (int rg = blockIdx.x; rg * 16 < M; rg += gridDim.x) {
    const int m = rg * 16 + (threadIdx.x / 32);
    gn_acc_t acc = gn_acc_t{(float)0};
    if (m < M) {
      const int mi0 = m;
      const int b0 = mi0 * ks0_0;
      #pragma unroll 4
      for (int kv = 0 + (threadIdx.x & 31); kv < (K / 4); kv += 32) {
        const gn_vec<float, 4> vv0 = gn_ldh(reinterpret_cast<const gn_vec<float, 4>*>(p0 + b0) + kv);
        #pragma unroll
        for (int e = 0; e < 4; ++e) {
          const float v0 = vv0.v[e];
          acc = gn_acc_t{(acc.v + gn_acc_t{(float)(v0)}.v)};
        }
      }
      if (true) for (int kk = (K / 4) * 4 + (threadIdx.x & 31); kk < K; kk += 32) {
        const int ri0 = kk;
        const float a0 = p0[(b0 + ri0)];
        acc = gn_acc_t{(acc.v + gn_acc_t{(float)(a0)}.v)};
      }
    }
    acc = gn_acc_t{(acc.v + gn_shfl(acc, 16).v)};
    acc = gn_acc_t{(acc.v + gn_shfl(acc, 8).v)};
    acc = gn_acc_t{(acc.v + gn_shfl(acc, 4).v)};
    acc = gn_acc_t{(acc.v + gn_shfl(acc, 2).v)};
    acc = gn_acc_t{(acc.v + gn_shfl(acc, 1).v)};
    if ((threadIdx.x & 31) == 0 && m < M) GN_EPILOGUE(m, acc);
  }
}