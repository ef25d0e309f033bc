"""CUDA source of the random-number barrier: Philox4x32-10 counter-based bits.

One kernel, no dtype variants: it writes a stream of 32-bit words.  Word ``w`` is word
``w % 4`` of the Philox4x32-10 block ``philox(counter + w // 4, key)`` (Salmon et al.,
SC'11; the algorithm of Random123 and cuRAND's Philox), the 128-bit counter taken as
``(c0, c1, c2, c3)`` low word first.  A ``uint64`` output is the same word stream read as
little-endian pairs (element i = ``w[2i] | w[2i+1] << 32``), so both output dtypes share
the kernel.  ``gnumpy/backends/random_ops.py`` holds the NumPy twin of this code (the CPU
backend), which must produce the same bits.
"""
from __future__ import annotations

BLOCK = 256

# Philox4x32 multipliers and Weyl key increments (Random123's PHILOX_M4x32_*, PHILOX_W32_*)
M0, M1 = 0xD2511F53, 0xCD9E8D57
W0, W1 = 0x9E3779B9, 0xBB67AE85
ROUNDS = 10


def philox_source(block: int = BLOCK, *, name: str) -> str:
    """The kernel ``name(out, nwords, ctr_lo, ctr_hi, k0, k1)``: ``out[w]`` for ``w <
    nwords`` from the 128-bit start counter ``ctr_hi:ctr_lo`` and the 64-bit key."""
    return f"""// Philox4x32-{ROUNDS} random bits (gnumpy/kernels/render_random.py)
extern "C" __global__ void __launch_bounds__({block}) {name}(
    unsigned int* __restrict__ out, unsigned long long nwords, unsigned long long ctr_lo,
    unsigned long long ctr_hi, unsigned int k0, unsigned int k1) {{
  const unsigned long long nblocks = (nwords + 3ull) >> 2;
  const bool vec = (((unsigned long long)out) & 15ull) == 0ull;
  for (unsigned long long b = (unsigned long long)blockIdx.x * {block}ull + threadIdx.x;
       b < nblocks; b += (unsigned long long)gridDim.x * {block}ull) {{
    const unsigned long long lo = ctr_lo + b;                  // 128-bit counter + b
    const unsigned long long hi = ctr_hi + (lo < b ? 1ull : 0ull);
    unsigned int c0 = (unsigned int)lo, c1 = (unsigned int)(lo >> 32);
    unsigned int c2 = (unsigned int)hi, c3 = (unsigned int)(hi >> 32);
    unsigned int key0 = k0, key1 = k1;
    #pragma unroll
    for (int r = 0; r < {ROUNDS}; ++r) {{
      if (r > 0) {{ key0 += 0x{W0:08X}u; key1 += 0x{W1:08X}u; }}
      const unsigned int hi0 = __umulhi(0x{M0:08X}u, c0), lo0 = 0x{M0:08X}u * c0;
      const unsigned int hi1 = __umulhi(0x{M1:08X}u, c2), lo1 = 0x{M1:08X}u * c2;
      c0 = hi1 ^ c1 ^ key0;
      c1 = lo1;
      c2 = hi0 ^ c3 ^ key1;
      c3 = lo0;
    }}
    const unsigned long long w = b << 2;
    if (vec && w + 4ull <= nwords) {{
      reinterpret_cast<uint4*>(out)[b] = make_uint4(c0, c1, c2, c3);
    }} else {{
      if (w < nwords) out[w] = c0;
      if (w + 1ull < nwords) out[w + 1ull] = c1;
      if (w + 2ull < nwords) out[w + 2ull] = c2;
      if (w + 3ull < nwords) out[w + 3ull] = c3;
    }}
  }}
}}
"""
