
extern "C" __global__ void __launch_bounds__(256) gn_kernel(const gn_c64* __restrict__ x,
    gn_c64* __restrict__ y, long long outer, long long L, long long inner) {
  const long long nl = outer * inner;
  for (long long t = (long long)blockIdx.x * 256 + threadIdx.x; t < nl;
       t += (long long)gridDim.x * 256) {
    const long long o = t / inner, i = t % inner;
    const long long xb = o * L * inner + i, yb = o * (L + 1) * inner + i;
    gn_c64 acc = gn_c64{0, 0};
    y[yb] = acc;
    for (long long l = 0; l < L; ++l) {
      const gn_c64 x_ = (gn_c64)x[xb + l * inner];
      acc = l == 0 ? x_ : gn_add(acc, x_);     // the first element is not combined
      y[yb + (l + 1) * inner] = acc;
    }
  }
}