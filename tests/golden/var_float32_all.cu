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
  const float e1 = ((fin.q - fin.s * (fin.s / fin.n)) / fin.n); \
  q1[0] = e1; \
} while (0)
extern "C" __global__ void __launch_bounds__(1024) gn_kernel(const float* __restrict__ p0, float* __restrict__ q1, int M, int K) {
  __shared__ gn_acc_t gn_sm[32];
  for (int rg = blockIdx.x; rg * 1 < M; rg += gridDim.x) {
    const int m = rg * 1 + (threadIdx.x / 1024);
    gn_acc_t acc = gn_acc_t{0.0, 0.0, 0.0, 0.0};
    if (m < M) {
      const int b0 = 0;
      #pragma unroll 4
      for (int kv = 0 + (threadIdx.x & 1023); kv < (K / 4); kv += 1024) {
        const gn_vec<float, 4> vv0 = gn_ldh(reinterpret_cast<const gn_vec<float, 4>*>(p0 + b0) + kv);
        #pragma unroll
        for (int e = 0; e < 4; ++e) {
          const float v0 = vv0.v[e];
          acc = gn_var_push(acc, (double)(v0));
        }
      }
      if (true) for (int kk = (K / 4) * 4 + (threadIdx.x & 1023); kk < K; kk += 1024) {
        const int ri0 = kk;
        const float a0 = p0[(b0 + ri0)];
        acc = gn_var_push(acc, (double)(a0));
      }
    }
    acc = gn_settle(acc);
    acc = gn_var_combine(acc, gn_shfl(acc, 16));
    acc = gn_var_combine(acc, gn_shfl(acc, 8));
    acc = gn_var_combine(acc, gn_shfl(acc, 4));
    acc = gn_var_combine(acc, gn_shfl(acc, 2));
    acc = gn_var_combine(acc, gn_shfl(acc, 1));
    __syncthreads();
    if ((threadIdx.x & 31) == 0) gn_sm[threadIdx.x >> 5] = acc;
    __syncthreads();
    if ((threadIdx.x & 1023) < 32) {
      const int gw_ = (threadIdx.x / 1024) * 32;
      acc = ((threadIdx.x & 31) < 32) ? gn_sm[gw_ + (threadIdx.x & 31)] : gn_acc_t{0.0, 0.0, 0.0, 0.0};
      acc = gn_var_combine(acc, gn_shfl(acc, 16));
      acc = gn_var_combine(acc, gn_shfl(acc, 8));
      acc = gn_var_combine(acc, gn_shfl(acc, 4));
      acc = gn_var_combine(acc, gn_shfl(acc, 2));
      acc = gn_var_combine(acc, gn_shfl(acc, 1));
    }
    if ((threadIdx.x & 1023) == 0 && m < M) GN_EPILOGUE(m, acc);
    __syncthreads();
  }
}