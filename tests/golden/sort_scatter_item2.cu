
GN_KERNEL(256) gn_kernel(const unsigned short* x, const long long* idx, const bool* mask, unsigned short* out,
    long long n) {
  gn_scatter<unsigned short >(x, idx, mask, out, n);
}
