
GN_KERNEL(256) gn_kernel(const float* x, const double* w, double* out, long long n,
    long long nb, float lo, float hi, float denom, float enb, float step, float delta, int step0) {
  gn_hist_uniform<float, double>(x, w, out, n, nb, lo, hi, denom, enb, step, delta, step0);
}
