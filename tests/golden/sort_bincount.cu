
GN_KERNEL(256) gn_kernel(const long long* x, const double* w, double* wsum, long long n,
    long long nbins) {
  gn_bincount(x, w, wsum, n, nbins);
}
