/* gnumpy helper headers */
template <class V> __device__ __forceinline__ V gn_ldh(const V* p) {
  V r; unsigned int* u = reinterpret_cast<unsigned int*>(&r);
  if constexpr (sizeof(V) == 16)
    asm("ld.global.cs.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(u[0]), "=r"(u[1]), "=r"(u[2]), "=r"(u[3]) : "l"(p));
  else if constexpr (sizeof(V) == 8)
    asm("ld.global.cs.L2::256B.v2.u32 {%0, %1}, [%2];" : "=r"(u[0]), "=r"(u[1]) : "l"(p));
  else if constexpr (sizeof(V) == 4)
    asm("ld.global.cs.L2::256B.u32 %0, [%1];" : "=r"(u[0]) : "l"(p));
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
  const float e4 = fin.v; \
  q2[0] = e4; \
} while (0)
extern "C" __global__ void __launch_bounds__(1024) gn_kernel(const float* __restrict__ p0, const float* __restrict__ p1, float* __restrict__ q2, int M, int K) {
  __shared__ gn_acc_t gn_sm[32];
  for (int rg = blockIdx.x; rg * 1 < M; rg += gridDim.x) {
    const int m = rg * 1 + (threadIdx.x / 1024);
    gn_acc_t acc = gn_acc_t{(float)0};
    if (m < M) {
      const int b0 = 0;
      const int b1 = 0;
      #pragma unroll 4
      for (int kv = 0 + (threadIdx.x & 1023); kv < (K / 4); kv += 1024) {
        const gn_vec<float, 4> vv0 = gn_ldh(reinterpret_cast<const gn_vec<float, 4>*>(p0 + b0) + kv);
        const gn_vec<float, 4> vv1 = gn_ldh(reinterpret_cast<const gn_vec<float, 4>*>(p1 + b1) + kv);
        #pragma unroll
        for (int e = 0; e < 4; ++e) {
          const float v0 = vv0.v[e];
          const float v1 = vv1.v[e];
          const float v2 = ((float)(v0 - v1));
          const float v3 = ((float)(v2 * v2));
          acc = gn_acc_t{(acc.v + gn_acc_t{(float)(v3)}.v)};
        }
      }
      if (true) for (int kk = (K / 4) * 4 + (threadIdx.x & 1023); kk < K; kk += 1024) {
        const int ri0 = kk;
        const float a0 = p0[(b0 + ri0)];
        const float a1 = p1[(b1 + ri0)];
        const float a2 = ((float)(a0 - a1));
        const float a3 = ((float)(a2 * a2));
        acc = gn_acc_t{(acc.v + gn_acc_t{(float)(a3)}.v)};
      }
    }
    acc = gn_acc_t{(acc.v + gn_shfl(acc, 16).v)};
    acc = gn_acc_t{(acc.v + gn_shfl(acc, 8).v)};
    acc = gn_acc_t{(acc.v + gn_shfl(acc, 4).v)};
    acc = gn_acc_t{(acc.v + gn_shfl(acc, 2).v)};
    acc = gn_acc_t{(acc.v + gn_shfl(acc, 1).v)};
    __syncthreads();
    if ((threadIdx.x & 31) == 0) gn_sm[threadIdx.x >> 5] = acc;
    __syncthreads();
    if ((threadIdx.x & 1023) < 32) {
      const int gw_ = (threadIdx.x / 1024) * 32;
      acc = ((threadIdx.x & 31) < 32) ? gn_sm[gw_ + (threadIdx.x & 31)] : gn_acc_t{(float)0};
      acc = gn_acc_t{(acc.v + gn_shfl(acc, 16).v)};
      acc = gn_acc_t{(acc.v + gn_shfl(acc, 8).v)};
      acc = gn_acc_t{(acc.v + gn_shfl(acc, 4).v)};
      acc = gn_acc_t{(acc.v + gn_shfl(acc, 2).v)};
      acc = gn_acc_t{(acc.v + gn_shfl(acc, 1).v)};
    }
    if ((threadIdx.x & 1023) == 0 && m < M) GN_EPILOGUE(m, acc);
    __syncthreads();
  }
}