
GN_KERNEL(256) gn_kernel(const int* x, const double* w, unsigned long long* out, long long n,
    long long nb) {
  gn_accumulate<unsigned long long>(gn_bins_of<int>{x}, w, out, n, nb);
}
