
GN_KERNEL(256) gn_kernel(const unsigned char* a, long long as, const long long* sorter, long long na,
    const unsigned char* v, long long* out, long long nv, int right) {
  gn_search<gn_ord_int<unsigned char> >(a, as, sorter, na, v, out, nv, right);
}
