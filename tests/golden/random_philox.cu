// Philox4x32-10 random bits (gnumpy/kernels/render_random.py)
extern "C" __global__ void __launch_bounds__(256) gn_kernel(
    unsigned int* __restrict__ out, unsigned long long nwords, unsigned long long ctr_lo,
    unsigned long long ctr_hi, unsigned int k0, unsigned int k1) {
  const unsigned long long nblocks = (nwords + 3ull) >> 2;
  const bool vec = (((unsigned long long)out) & 15ull) == 0ull;
  for (unsigned long long b = (unsigned long long)blockIdx.x * 256ull + threadIdx.x;
       b < nblocks; b += (unsigned long long)gridDim.x * 256ull) {
    const unsigned long long lo = ctr_lo + b;                  // 128-bit counter + b
    const unsigned long long hi = ctr_hi + (lo < b ? 1ull : 0ull);
    unsigned int c0 = (unsigned int)lo, c1 = (unsigned int)(lo >> 32);
    unsigned int c2 = (unsigned int)hi, c3 = (unsigned int)(hi >> 32);
    unsigned int key0 = k0, key1 = k1;
    #pragma unroll
    for (int r = 0; r < 10; ++r) {
      if (r > 0) { key0 += 0x9E3779B9u; key1 += 0xBB67AE85u; }
      const unsigned int hi0 = __umulhi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
      const unsigned int hi1 = __umulhi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
      c0 = hi1 ^ c1 ^ key0;
      c1 = lo1;
      c2 = hi0 ^ c3 ^ key1;
      c3 = lo0;
    }
    const unsigned long long w = b << 2;
    if (vec && w + 4ull <= nwords) {
      reinterpret_cast<uint4*>(out)[b] = make_uint4(c0, c1, c2, c3);
    } else {
      if (w < nwords) out[w] = c0;
      if (w + 1ull < nwords) out[w + 1ull] = c1;
      if (w + 2ull < nwords) out[w + 2ull] = c2;
      if (w + 3ull < nwords) out[w + 3ull] = c3;
    }
  }
}
