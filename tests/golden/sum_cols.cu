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
  const int m = (int)blockIdx.x * 512 + threadIdx.x;
  gn_acc_t acc = gn_acc_t{(float)0};
  __shared__ bool gn_last;
  const int gn_total = M * (long long)2;
  if (m < M) {
    const int mi0 = m;
    const int b0 = mi0;
    #pragma unroll 4
    for (int kk = blockIdx.y * chunk; kk < min(K, blockIdx.y * chunk + chunk); ++kk) {
      const int ri0 = kk;
      const float a0 = p0[(b0 + ri0 * rs0_0)];
      acc = gn_acc_t{(acc.v + gn_acc_t{(float)(a0)}.v)};
    }
  }
  if (m < M) {
    { char* gp_ = gn_part;
      ((float*)gp_)[blockIdx.y * M + m] = acc.v;
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
    acc = gn_acc_t{(float)0};
    for (int s = 0; s < 2; ++s) {
      gn_acc_t part_ = gn_acc_t{(float)0};
      { char* gp_ = gn_part;
        part_.v = ((volatile float*)gp_)[s * M + m];
        gp_ += sizeof(float) * (size_t)gn_total;
      }
      acc = gn_acc_t{(acc.v + part_.v)};
    }
    GN_EPILOGUE(m, acc);
  }
  if (threadIdx.x == 0) gn_ctr[blockIdx.x] = 0u;
}