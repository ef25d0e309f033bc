
GN_KERNEL(256) gn_kernel(const float* x, const double* w, double* out, long long n,
    long long nb, float lo, float hi, float denom, float enb, float step, float delta, int step0) {
  gn_accumulate<double>(gn_bins_uniform<float>{x, nb, lo, hi, denom, enb, step, delta, step0},
                    w, out, n, nb);
}
