"""CUDA source of the random-number barrier: Philox4x32-10 counter-based bits.

One kernel, no dtype variants: it writes a stream of 32-bit words.  Word ``w`` is word
``w % 4`` of the Philox4x32-10 block ``philox(counter + w // 4, key)`` (Salmon et al.,
SC'11; the algorithm of Random123 and cuRAND's Philox), the 128-bit counter taken as
``(c0, c1, c2, c3)`` low word first.  A ``uint64`` output is the same word stream read as
little-endian pairs (element i = ``w[2i] | w[2i+1] << 32``), so both output dtypes share
the kernel.  ``gnumpy/backends/random_ops.py`` holds the NumPy twin of this code (the CPU
backend), which must produce the same bits.

``draw_source`` is a whole draw in one kernel (``gnumpy/backends/random_ops.py``): each
thread computes the Philox block(s) holding the words of a few consecutive outputs and
applies the draw's transform (an elementwise expression over those words, lowered like any
fused kernel's) to them, so the bits never go through memory.  A draw's words come from
one of two bit generators (``source``): Philox4x32-10 as above, or PCG64 (NumPy's default
bit generator: a 128-bit LCG with the XSL-RR output), where each thread jumps the LCG to
its first word (``gn_pcg_jump``) and then by the grid's stride.
"""
from __future__ import annotations

from . import codegen as C
from . import render_ziggurat as Z
from .types import STORAGE, param_decls, store_value

BLOCK = 256

# Philox4x32 multipliers and Weyl key increments (Random123's PHILOX_M4x32_*, PHILOX_W32_*)
M0, M1 = 0xD2511F53, 0xCD9E8D57
W0, W1 = 0x9E3779B9, 0xBB67AE85
ROUNDS = 10
# PCG64's LCG multiplier (O'Neill's PCG_DEFAULT_MULTIPLIER_128, NumPy's PCG64)
PCG_MULT = 0x2360ED051FC65DA44385DF649FCCF645


def _rounds(pad: str) -> str:
    """The ten rounds on block ``lo``/``ctr_hi`` + carry: c0..c3 hold the words after
    them (the source lines, each indented by `pad`)."""
    body = f"""const unsigned long long hi = ctr_hi + (lo < b ? 1ull : 0ull);
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
}}"""
    return "\n".join(pad + ln for ln in body.splitlines())


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
{_rounds('    ')}
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


def _block_fn() -> str:
    """``gn_philox_block(b, ...)``: the four words of block ``counter + b``."""
    return f"""__device__ __forceinline__ uint4 gn_philox_block(
    unsigned long long b, unsigned long long ctr_lo, unsigned long long ctr_hi,
    unsigned int k0, unsigned int k1) {{
  const unsigned long long lo = ctr_lo + b;
{_rounds('  ')}
  return make_uint4(c0, c1, c2, c3);
}}
// words w .. w + 3 of the stream: one block, or two when w is not a multiple of 4
__device__ __forceinline__ void gn_philox_words(
    unsigned int* o, unsigned long long w, unsigned long long ctr_lo,
    unsigned long long ctr_hi, unsigned int k0, unsigned int k1) {{
  const uint4 a = gn_philox_block(w >> 2, ctr_lo, ctr_hi, k0, k1);
  const unsigned int r = (unsigned int)(w & 3ull);
  if (r == 0u) {{ o[0] = a.x; o[1] = a.y; o[2] = a.z; o[3] = a.w; return; }}
  const uint4 c = gn_philox_block((w >> 2) + 1ull, ctr_lo, ctr_hi, k0, k1);
  if (r == 1u) {{ o[0] = a.y; o[1] = a.z; o[2] = a.w; o[3] = c.x; }}
  else if (r == 2u) {{ o[0] = a.z; o[1] = a.w; o[2] = c.x; o[3] = c.y; }}
  else {{ o[0] = a.w; o[1] = c.x; o[2] = c.y; o[3] = c.z; }}
}}
"""


def _u128(v: int) -> str:
    return f"gn_u128{{0x{v & (1 << 64) - 1:016X}ull, 0x{v >> 64:016X}ull}}"


def pcg_fns() -> str:
    """PCG64's device functions (128-bit arithmetic on two 64-bit halves, low first):
    ``gn_pcg_step`` (one LCG step), ``gn_pcg_out`` (XSL-RR), ``gn_pcg_coef`` (the
    multiplier and increment of `d` steps, Brown's jump-ahead as in PCG's
    ``pcg_advance_lcg_128``) and ``gn_pcg_words`` (four 32-bit words of the stream)."""
    return f"""struct gn_u128 {{ unsigned long long lo, hi; }};
__device__ __forceinline__ gn_u128 gn_mul128(gn_u128 a, gn_u128 b) {{
  return gn_u128{{a.lo * b.lo, __umul64hi(a.lo, b.lo) + a.lo * b.hi + a.hi * b.lo}};
}}
__device__ __forceinline__ gn_u128 gn_add128(gn_u128 a, gn_u128 b) {{
  const unsigned long long lo = a.lo + b.lo;
  return gn_u128{{lo, a.hi + b.hi + (lo < a.lo ? 1ull : 0ull)}};
}}
__device__ __forceinline__ gn_u128 gn_pcg_step(gn_u128 s, gn_u128 inc) {{
  return gn_add128(gn_mul128(s, {_u128(PCG_MULT)}), inc);
}}
__device__ __forceinline__ unsigned long long gn_pcg_out(gn_u128 s) {{
  const unsigned long long x = s.hi ^ s.lo;
  const unsigned int r = (unsigned int)(s.hi >> 58);
  return (x >> r) | (x << ((64u - r) & 63u));
}}
// state -> a * state + c is `d` steps of the LCG
__device__ __noinline__ void gn_pcg_coef(gn_u128* a, gn_u128* c, gn_u128 inc,
                                         unsigned long long d) {{
  gn_u128 m = {_u128(PCG_MULT)}, p = inc, am = gn_u128{{1ull, 0ull}}, ac = gn_u128{{0ull, 0ull}};
  while (d) {{
    if (d & 1ull) {{ am = gn_mul128(am, m); ac = gn_add128(gn_mul128(ac, m), p); }}
    p = gn_mul128(gn_add128(m, gn_u128{{1ull, 0ull}}), p);
    m = gn_mul128(m, m);
    d >>= 1;
  }}
  *a = am; *c = ac;
}}
__device__ __forceinline__ gn_u128 gn_pcg_jump(gn_u128 s, gn_u128 inc, unsigned long long d) {{
  gn_u128 a, c;
  gn_pcg_coef(&a, &c, inc, d);
  return gn_add128(gn_mul128(a, s), c);
}}
// the 32-bit words 2 k + r .. 2 k + r + 3 of the stream (k: the word after state s; a
// 64-bit word is its low half, then its high half, as NumPy's buffered next_uint32)
__device__ __forceinline__ void gn_pcg_words(unsigned int* o, gn_u128 s, gn_u128 inc,
                                             unsigned int r) {{
  s = gn_pcg_step(s, inc);
  const unsigned long long a = gn_pcg_out(s);
  s = gn_pcg_step(s, inc);
  const unsigned long long b = gn_pcg_out(s);
  if (r == 0u) {{
    o[0] = (unsigned int)a; o[1] = (unsigned int)(a >> 32);
    o[2] = (unsigned int)b; o[3] = (unsigned int)(b >> 32);
    return;
  }}
  const unsigned long long c = gn_pcg_out(gn_pcg_step(s, inc));
  o[0] = (unsigned int)(a >> 32); o[1] = (unsigned int)b;
  o[2] = (unsigned int)(b >> 32); o[3] = (unsigned int)c;
}}
"""


LEMIRE_TAG = 0x1E41         # the side stream's fourth counter word for bounded integers


def lemire_fns() -> str:
    """``gn_lemire(w, r, i, k0, k1)``: an integer in ``[0, r)`` (``r <= 2**32``) from 32-bit
    word `w` by Lemire's multiply-shift, NumPy's ``buffered_bounded_lemire_uint32``; the
    rare rejected word (its low product half below ``2**32 mod r``) is replaced by the
    first words of side-stream blocks (output `i`, attempt a; key ``k1:k0``)."""
    return f"""__device__ __noinline__ unsigned long long gn_lemire_slow(
    unsigned long long r, unsigned long long t, unsigned long long i, unsigned int k0,
    unsigned int k1) {{
  for (unsigned int a = 0u;; ++a) {{
    const uint4 b = gn_philox_block(0ull, i, (0x{LEMIRE_TAG:X}ull << 32) | a, k0, k1);
    const unsigned long long m = (unsigned long long)b.x * r;
    if ((m & 0xFFFFFFFFull) >= t) return m >> 32;
  }}
}}
__device__ __forceinline__ unsigned long long gn_lemire(
    unsigned int w, unsigned long long r, unsigned long long i, unsigned int k0,
    unsigned int k1) {{
  const unsigned long long m = (unsigned long long)w * r;
  if ((m & 0xFFFFFFFFull) < r) {{
    const unsigned long long t = (0x100000000ull - r) % r;
    if ((m & 0xFFFFFFFFull) < t) return gn_lemire_slow(r, t, i, k0, k1);
  }}
  return m >> 32;
}}
"""


def _base_fns(base: str, wide: bool) -> str:
    if base == "zig":
        return Z.normal_fns(8 if wide else 4)
    return lemire_fns() if base == "lemire" else ""


def draw_source(spec, parts: int, wide: bool, part_of: tuple, block: int = BLOCK, *,
                name: str, source: str = "philox", base: str = "") -> str:
    """The kernel of a whole draw: ``name(q, n, ctr_lo, ctr_hi, k0, k1, scalars...)``
    (Philox), or ``name(q, n, s_lo, s_hi, inc_lo, inc_hi, u, h, scalars...)`` (`source`
    ``"pcg64"``: the LCG state one step before the draw when ``h``, NumPy's buffered 32-bit
    half ``u`` then being the draw's first 32-bit word).

    `spec` (a ``plan.SpecKey``) is the draw's transform lowered over its bits: operand k
    is part ``part_of[k]`` of the bits, whose element i is stream word ``(part * n + i)``
    (``uint32``, `wide` False) or words ``2 (part * n + i)`` and the next, low first
    (``uint64``; PCG64: 64-bit word ``part * n + i``).  A thread takes the ``G`` outputs
    (4, or 2 when `wide`) that share one block of words per part and stores them as one
    vector when all are in range.  `base` ``"zig"`` (PCG64): the operand is the ziggurat
    normal of the word instead (``render_ziggurat``), with the side stream's key ``pk1:pk0``
    as two more parameters; ``"lemire"``: the bounded integer of the word
    (``lemire_fns``), the range ``pr`` a third."""
    wpe = 2 if wide else 1
    G = 4 // wpe
    root, out = spec.outputs[0]
    T = STORAGE[out.dtype]
    pcg = source == "pcg64"
    if pcg:
        decls = [f"{T}* __restrict__ q", "unsigned long long n", "unsigned long long s_lo",
                 "unsigned long long s_hi", "unsigned long long inc_lo",
                 "unsigned long long inc_hi", "unsigned int u", "unsigned int h"]
        if base:
            decls += ["unsigned int pk0", "unsigned int pk1"]
        if base == "lemire":
            decls.append("unsigned long long pr")
    else:
        decls = [f"{T}* __restrict__ q", "unsigned long long n", "unsigned long long ctr_lo",
                 "unsigned long long ctr_hi", "unsigned int k0", "unsigned int k1"]
    for k, dt in enumerate(spec.scalar_dtypes):
        decls.extend(param_decls(dt, f"s{k}"))
    body, setup = [], ""
    for p in range(parts):
        if pcg:
            body.append(f"unsigned int w{p}[4]; gn_pcg_words(w{p}, pst{p}, pinc, pr{p}); "
                        f"pst{p} = gn_add128(gn_mul128(pa, pst{p}), pc);")
        else:
            body.append(f"unsigned int w{p}[4]; gn_philox_words(w{p}, {p}ull * n * {wpe}ull"
                        " + g * 4ull, ctr_lo, ctr_hi, k0, k1);")
    if pcg:
        # part p's 32-bit word k is word k + h of the stream from state s; a group takes
        # 64-bit words from (off >> 1) + 2 g (its first word's 64-bit index), the grid
        # stride moves them by 2 T
        setup = ["const gn_u128 ps0 = gn_u128{s_lo, s_hi}, pinc = gn_u128{inc_lo, inc_hi};",
                 "gn_u128 pa, pc;",
                 f"gn_pcg_coef(&pa, &pc, pinc, 2ull * (unsigned long long)gridDim.x * {block}ull);"]
        for p in range(parts):
            off = f"{p}ull * n" if wide else f"({p}ull * n + h)"
            parity = "0u" if wide else f"(unsigned int)({off} & 1ull)"
            setup.append(f"const unsigned int pr{p} = {parity};")
            setup.append(f"gn_u128 pst{p} = gn_pcg_jump(ps0, pinc, ({off} >> {0 if wide else 1}) "
                         f"+ 2ull * g0);")
        if not wide:
            body.insert(1, "if (h != 0u && g == 0ull) w0[0] = u;")
        setup = "\n  ".join(setup)
    for j in range(G):
        def word(k, j=j):
            p = part_of[k]
            w = f"w{p}[{j}]" if not wide else (f"((unsigned long long)w{p}[{2 * j}] | "
                                               f"((unsigned long long)w{p}[{2 * j + 1}] << 32))")
            if base == "lemire":
                return f"gn_lemire({w}, pr, g * {G}ull + {j}ull, pk0, pk1)"
            return f"gn_zig_normal({w}, g * {G}ull + {j}ull, pk0, pk1)" if base else w
        lines, names = C.body(spec, [root], word, None, prefix=f"e{j}_")
        body.append("{ " + "\n        ".join(lines)
                    + f"\n        v.v[{j}] = {store_value(out.dtype, names[root])}; }}")
    what = "PCG64" if pcg else f"Philox4x32-{ROUNDS}"
    return f"""{C.preamble(spec)}
// a whole random draw: {what} words and the transform (gnumpy/kernels/render_random.py)
{_block_fn() if base or not pcg else ""}{pcg_fns() if pcg else ""}{_base_fns(base, wide)}
extern "C" __global__ void __launch_bounds__({block}) {name}({", ".join(decls)}) {{
  const unsigned long long groups = (n + {G - 1}ull) / {G}ull;
  const unsigned long long g0 = (unsigned long long)blockIdx.x * {block}ull + threadIdx.x;
  if (g0 >= groups) return;
  {setup}
  for (unsigned long long g = g0; g < groups; g += (unsigned long long)gridDim.x * {block}ull) {{
    gn_vec<{T}, {G}> v;
    {(chr(10) + "    ").join(body)}
    if (g * {G}ull + {G}ull <= n) {{
      reinterpret_cast<gn_vec<{T}, {G}>*>(q)[g] = v;
    }} else {{
      for (int j = 0; j < {G}; ++j)
        if (g * {G}ull + j < n) q[g * {G}ull + j] = v.v[j];
    }}
  }}
}}
"""


def pcg_draw_source(spec, parts: int, wide: bool, part_of: tuple, block: int = BLOCK,
                    base: str = "", *, name: str) -> str:
    """``draw_source`` with PCG64's words (the kernel key of a PCG64 draw)."""
    return draw_source(spec, parts, wide, part_of, block, name=name, source="pcg64",
                       base=base)
