
GN_KERNEL(256) gn_kernel(const double* sv, const long long* si, double* dv, long long* di,
    long long rows, long long n, long long w, int desc) {
  gn_sort_merge<gn_ord_flt<double> >(sv, si, dv, di, rows, n, w, desc);
}
