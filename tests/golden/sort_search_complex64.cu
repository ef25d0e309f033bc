
GN_KERNEL(256) gn_kernel(const gn_c64* a, long long as, const long long* sorter, long long na,
    const gn_c64* v, long long* out, long long nv, int right) {
  gn_search<gn_ord_cpx<gn_c64> >(a, as, sorter, na, v, out, nv, right);
}
