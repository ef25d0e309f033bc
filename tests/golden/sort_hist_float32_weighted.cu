
GN_KERNEL(256) gn_kernel(const float* x, const double* w, double* out, long long n,
    long long nb, float lo, float hi, double denom, double fnb, double first, double step,
    double delta, double enb, int step0) {
  gn_accumulate<double>(gn_bins_uniform<float, double, double>{x, nb, lo, hi, denom, fnb, first,
                                                     step, delta, enb, step0}, w, out, n, nb);
}
