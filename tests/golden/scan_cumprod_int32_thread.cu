
extern "C" __global__ void __launch_bounds__(256) gn_kernel(const int* __restrict__ x,
    int* __restrict__ y, long long outer, long long L, long long inner) {
  const long long nl = outer * inner;
  for (long long t = (long long)blockIdx.x * 256 + threadIdx.x; t < nl;
       t += (long long)gridDim.x * 256) {
    const long long o = t / inner, i = t % inner;
    const long long xb = o * L * inner + i, yb = o * (L + 0) * inner + i;
    int acc = (int)1;
    
    for (long long l = 0; l < L; ++l) {
      const int x_ = (int)x[xb + l * inner];
      acc = l == 0 ? x_ : ((int)(acc * x_));     // the first element is not combined
      y[yb + (l + 0) * inner] = acc;
    }
  }
}