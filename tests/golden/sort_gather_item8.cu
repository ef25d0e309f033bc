
GN_KERNEL(256) gn_kernel(const unsigned long long* x, const long long* idx, unsigned long long* out, long long rows,
    long long m, long long xrs, long long irs) {
  gn_gather<unsigned long long >(x, idx, out, rows, m, xrs, irs);
}
