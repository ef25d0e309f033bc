/* gnumpy helper headers */

struct gn_acc_t { long long v; };

__device__ __forceinline__ gn_acc_t gn_shfl(gn_acc_t a, int m) {
  gn_acc_t r = a;
  r.v = __shfl_xor_sync(0xffffffffu, a.v, m);
  return r;
}
#define GN_EPILOGUE(m_, fin) do { \
  const int ei0 = m_; \
  const long long e1 = fin.v; \
  q1[ei0] = e1; \
} while (0)
extern "C" __global__ void __launch_bounds__(512) gn_kernel(const long long* __restrict__ p0, long long* __restrict__ q1, int M, int K, int rs0_0) {
  const int tx = threadIdx.x % 256, ty = threadIdx.x / 256;
  const int m = ((int)blockIdx.x * 256 + tx) * 2;
  gn_acc_t acc[2];
  #pragma unroll
  for (int e = 0; e < 2; ++e) acc[e] = gn_acc_t{(long long)1};
  if (m < M) {
    const int mi0 = m;
    const int b0 = mi0;
    #pragma unroll 4
    for (int kk = 0 + ty; kk < K; kk += 2) {
      const int ri0 = kk;
      const gn_vec<long long, 2> cv0 = *reinterpret_cast<const gn_vec<long long, 2>*>(p0 + b0 + ri0 * rs0_0);
      #pragma unroll
      for (int e = 0; e < 2; ++e) {
        const long long v0 = cv0.v[e];
        acc[e] = gn_acc_t{(acc[e].v * gn_acc_t{(long long)(v0)}.v)};
      }
    }
  }
  __shared__ gn_acc_t gn_cs[2][256];
  #pragma unroll 1
  for (int e = 0; e < 2; ++e) {
    gn_cs[ty][tx] = acc[e];
    __syncthreads();
    for (int h = 1; h > 0; h >>= 1) {
      if (ty < h) gn_cs[ty][tx] = gn_acc_t{(gn_cs[ty][tx].v * gn_cs[ty + h][tx].v)};
      __syncthreads();
    }
    acc[e] = gn_cs[0][tx];
    __syncthreads();
  }
  if (ty == 0 && m < M) {
    #pragma unroll
    for (int e = 0; e < 2; ++e) if (m + e < M) GN_EPILOGUE(m + e, acc[e]);
  }
}