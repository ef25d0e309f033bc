
extern "C" __global__ void __launch_bounds__(256) gn_kernel(
    const bool* __restrict__ A, const bool* __restrict__ B, bool* __restrict__ Cm,
    long long nb, long long n, long long m, long long kk,
    long long a_b, long long a_r, long long a_c, long long b_b, long long b_r, long long b_c,
    long long nbatch_dims, long long bd1, long long bd2, long long a_b1, long long a_b2,
    long long b_b1, long long b_b2) {
  __shared__ bool a_s[16][16];
  __shared__ bool b_s[16][16];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const long long row = (long long)blockIdx.y * 16 + ty, col = (long long)blockIdx.x * 16 + tx;
  for (long long bi = blockIdx.z; bi < nb; bi += gridDim.z) {
    long long r_ = bi;
    const long long i2 = nbatch_dims > 2 ? r_ % bd2 : 0; if (nbatch_dims > 2) r_ /= bd2;
    const long long i1 = nbatch_dims > 1 ? r_ % bd1 : 0; if (nbatch_dims > 1) r_ /= bd1;
    const long long i0 = r_;
    const bool* Ab = A + i0 * a_b + i1 * a_b1 + i2 * a_b2;
    const bool* Bb = B + i0 * b_b + i1 * b_b1 + i2 * b_b2;
    bool acc = false;
    for (long long k0 = 0; k0 < kk; k0 += 16) {
      a_s[ty][tx] = (row < n && k0 + tx < kk) ? (bool)Ab[row * a_r + (k0 + tx) * a_c] : (bool)false;
      b_s[ty][tx] = (k0 + ty < kk && col < m) ? (bool)Bb[(k0 + ty) * b_r + col * b_c] : (bool)false;
      __syncthreads();
      #pragma unroll
      for (int q = 0; q < 16; ++q) { acc = acc || (a_s[ty][q] && b_s[q][tx]); }
      __syncthreads();
    }
    if (row < n && col < m) Cm[bi * n * m + row * m + col] = acc;
  }
}