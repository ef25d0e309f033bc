
GN_KERNEL(1024) gn_kernel(const long long* x, long long* ov, long long* oi, long long rows,
    long long n, int P, int desc) {
  gn_sort_tile<gn_ord_int<long long> >(x, ov, oi, rows, n, P, desc);
}
