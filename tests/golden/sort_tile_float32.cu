
GN_KERNEL(1024) gn_kernel(const float* x, float* ov, long long* oi, long long rows,
    long long n, int P, int desc) {
  gn_sort_tile<gn_ord_flt<float> >(x, ov, oi, rows, n, P, desc);
}
