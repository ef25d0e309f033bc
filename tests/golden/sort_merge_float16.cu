
GN_KERNEL(256) gn_kernel(const unsigned short* sv, const long long* si, unsigned short* dv, long long* di,
    long long rows, long long n, long long w, int desc) {
  gn_sort_merge<gn_ord_f16 >(sv, si, dv, di, rows, n, w, desc);
}
