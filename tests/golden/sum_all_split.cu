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
  const float e3 = fin.v; \
  q1[0] = e3; \
} while (0)
extern "C" __global__ void __launch_bounds__(1024) gn_kernel(const float* __restrict__ p0, float* __restrict__ q1, float s0, int M, int K, char* __restrict__ gn_part, unsigned int* __restrict__ gn_ctr, int chunk) {
  __shared__ gn_acc_t gn_sm[32];
  __shared__ bool gn_last;
  const int gn_total = M * (long long)gridDim.x;
  { const int rg = blockIdx.y; const int sp = blockIdx.x;
    const int m = rg * 1 + (threadIdx.x / 1024);
    gn_acc_t acc = gn_acc_t{(float)0};
    if (m < M) {
      const int b0 = 0;
      #pragma unroll 4
      for (int kv = sp * chunk + (threadIdx.x & 1023); kv < min(((int)(K / 4)), sp * chunk + chunk); kv += 1024) {
        const gn_vec<float, 4> vv0 = gn_ldh(reinterpret_cast<const gn_vec<float, 4>*>(p0 + b0) + kv);
        #pragma unroll
        for (int e = 0; e < 4; ++e) {
          const float v0 = vv0.v[e];
          const float v1 = s0;
          const float v2 = ((float)(v0 * v1));
          acc = gn_acc_t{(acc.v + gn_acc_t{(float)(v2)}.v)};
        }
      }
      if (sp == gridDim.x - 1) for (int kk = (K / 4) * 4 + (threadIdx.x & 1023); kk < K; kk += 1024) {
        const int ri0 = kk;
        const float a0 = p0[(b0 + ri0)];
        const float a1 = s0;
        const float a2 = ((float)(a0 * a1));
        acc = gn_acc_t{(acc.v + gn_acc_t{(float)(a2)}.v)};
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
    if (threadIdx.x == 0) {
      { char* gp_ = gn_part;
        ((float*)gp_)[m * gridDim.x + sp] = acc.v;
        gp_ += (sizeof(float) * (size_t)gn_total + 15) & ~(size_t)15;
      }
      __threadfence();
      gn_last = atomicAdd(&gn_ctr[m], 1u) == gridDim.x - 1u;
    }
    __syncthreads();
    if (!gn_last) return;
    __threadfence();
    acc = gn_acc_t{(float)0};
    for (int s = threadIdx.x; s < gridDim.x; s += 1024) {
      gn_acc_t part_ = gn_acc_t{(float)0};
      { char* gp_ = gn_part;
        part_.v = ((volatile float*)gp_)[m * gridDim.x + s];
        gp_ += (sizeof(float) * (size_t)gn_total + 15) & ~(size_t)15;
      }
      acc = gn_acc_t{(acc.v + part_.v)};
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
    if (threadIdx.x == 0) { gn_ctr[m] = 0u; GN_EPILOGUE(m, acc); }
  }
}