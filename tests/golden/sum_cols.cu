/* gnumpy helper headers */

struct gn_acc_t { float v; };

__device__ __forceinline__ gn_acc_t gn_shfl(gn_acc_t a, int m) {
  gn_acc_t r = a;
  r.v = __shfl_xor_sync(0xffffffffu, a.v, m);
  return r;
}
#define GN_EPILOGUE(m_, fin) do { \
  const int ei0 = m_; \
  const float e1 = fin.v; \
  q1[ei0] = e1; \
} while (0)
extern "C" __global__ void __launch_bounds__(512) gn_kernel(const float* __restrict__ p0, float* __restrict__ q1, int M, int K, int rs0_0, char* __restrict__ gn_part, unsigned int* __restrict__ gn_ctr, int chunk) {
  const int m = ((int)blockIdx.x * 512 + threadIdx.x) * 4;
  gn_acc_t acc[4];
  #pragma unroll
  for (int e = 0; e < 4; ++e) acc[e] = gn_acc_t{(float)0};
  __shared__ bool gn_last;
  const int gn_total = M * (long long)2;
  if (m < M) {
    const int mi0 = m;
    const int b0 = mi0;
    #pragma unroll 4
    for (int kk = blockIdx.y * chunk; kk < min(K, blockIdx.y * chunk + chunk); ++kk) {
      const int ri0 = kk;
      const gn_vec<float, 4> cv0 = *reinterpret_cast<const gn_vec<float, 4>*>(p0 + b0 + ri0 * rs0_0);
      #pragma unroll
      for (int e = 0; e < 4; ++e) {
        const float v0 = cv0.v[e];
        acc[e] = gn_acc_t{(acc[e].v + gn_acc_t{(float)(v0)}.v)};
      }
    }
  }
  if (m < M) {
    for (int e = 0; e < 4; ++e)
      { char* gp_ = gn_part;
        ((float*)gp_)[blockIdx.y * M + m + e] = acc[e].v;
        gp_ += sizeof(float) * (size_t)gn_total;
      }
  }
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) gn_last = atomicAdd(&gn_ctr[blockIdx.x], 1u) == 1u;
  __syncthreads();
  if (!gn_last) return;
  __threadfence();
  if (m < M) {
    for (int e = 0; e < 4; ++e) {
      gn_acc_t a_ = gn_acc_t{(float)0};
      for (int s = 0; s < 2; ++s) {
        gn_acc_t part_ = gn_acc_t{(float)0};
        { char* gp_ = gn_part;
          part_.v = ((volatile float*)gp_)[s * M + m + e];
          gp_ += sizeof(float) * (size_t)gn_total;
        }
        a_ = gn_acc_t{(a_.v + part_.v)};
      }
      GN_EPILOGUE(m + e, a_);
    }
  }
  if (threadIdx.x == 0) gn_ctr[blockIdx.x] = 0u;
}