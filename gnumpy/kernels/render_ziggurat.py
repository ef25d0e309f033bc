"""The ziggurat for standard normals (Marsaglia and Tsang, 2000; NumPy's 256-layer layout):
its tables and its CUDA device functions.

A normal takes one word of the stream: 8 bits pick a layer ``idx``, one bit the sign, the
rest a position ``rabs`` in the layer; ``x = rabs * wi[idx]`` is the normal whenever
``rabs < ki[idx]`` (98.5 % of words), exactly as NumPy's ``random_standard_normal``.  The
rare rest (the wedges and the tail) is decided by words of a side stream, Philox4x32-10
blocks keyed per draw and counted by the output's index and attempt, so every output
takes exactly one word of the main stream and any thread computes any output alone.  The
CPU backend's twin is ``gnumpy/random/_ziggurat.py``; both read the tables below.

Layer ``i`` (``1 <= i <= 255``) spans ``[0, x[i])`` with ``x[255] = R`` and ``x[i - 1]``
from ``x[i]`` by equal areas ``V``; layer 0 is the base strip with the tail past ``R``.
``ki[i] = x[i - 1] / x[i]`` scaled to the position's bits (``ki[1] = 0``: the top layer
is all wedge), ``wi[i] = x[i]`` over that scale, ``fi[i] = exp(-x[i]**2 / 2)``.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

R = 3.6541528853610087963519472518          # the tail's start (256 layers)
INV_R = 1.0 / R
TAG = 0x5A16                # the side stream's fourth counter word
BITS = {8: 52, 4: 23}       # position bits, by the output's itemsize


def side_key(state: int, inc: int) -> int:
    """The side stream's 64-bit Philox key of a PCG64 draw starting at `state`, `inc`."""
    return (state ^ (state >> 64) ^ inc ^ (inc >> 64)) & ((1 << 64) - 1)


@lru_cache(maxsize=2)
def tables(itemsize: int) -> tuple:
    """(ki, wi, fi) for float64 (`itemsize` 8: uint64, float64, float64) or float32 (4:
    uint32, float32, float32), 256 entries each."""
    f = lambda t: math.exp(-0.5 * t * t)            # noqa: E731
    v = R * f(R) + math.sqrt(math.pi / 2) * math.erfc(R / math.sqrt(2))   # each layer's area
    q = v / f(R)                    # the base strip's width (its tail folded in)
    x = [0.0] * 256
    x[255] = R
    for i in range(254, 0, -1):
        x[i] = math.sqrt(-2.0 * math.log(v / x[i + 1] + f(x[i + 1])))
    m = float(1 << BITS[itemsize])
    ki = [int(R / q * m), 0] + [int(x[i - 1] / x[i] * m) for i in range(2, 256)]
    wi = [q / m] + [x[i] / m for i in range(1, 256)]
    fi = [1.0] + [f(x[i]) for i in range(1, 256)]
    if itemsize == 8:
        return np.array(ki, np.uint64), np.array(wi), np.array(fi)
    return np.array(ki, np.uint32), np.array(wi, np.float32), np.array(fi, np.float32)


def _array(ctype: str, name: str, vals) -> str:
    if ctype == "double":
        items = [float(v).hex() for v in vals]
    elif ctype == "float":
        items = [float(v).hex() + "f" for v in vals]
    else:
        items = [f"{int(v)}ull" if ctype.endswith("long long") else f"{int(v)}u" for v in vals]
    rows = [", ".join(items[k:k + 6]) for k in range(0, len(items), 6)]
    return (f"static __device__ const {ctype} {name}[256] = {{\n  " + ",\n  ".join(rows)
            + "};\n")


def normal_fns(itemsize: int) -> str:
    """``gn_zig_normal(w, i, k0, k1)``: the standard normal of word `w` (uint64 for
    float64, uint32 for float32), output `i` of the draw whose side stream has key
    ``k1:k0``.  Needs ``gn_philox_block`` (``render_random``).  The arithmetic is
    written with round-to-nearest intrinsics (no contraction into FMAs), as NumPy
    computes it."""
    ki, wi, fi = tables(itemsize)
    if itemsize == 8:
        F, U, one, half, sfx = "double", "unsigned long long", "1.0", "0.5", ""
        mul, add, sub = "__dmul_rn", "__dadd_rn", "__dsub_rn"
        split = ("const unsigned int idx0 = (unsigned int)(w & 0xffull);\n"
                 "  const unsigned long long r0 = w >> 8;\n"
                 "  const unsigned long long rabs0 = (r0 >> 1) & 0x000fffffffffffffull;\n"
                 "  const bool neg0 = (r0 & 1ull) != 0ull;")
        unit1 = "(double)(w1 >> 11) * 0x1p-53"
        unit2 = "(double)(w2 >> 11) * 0x1p-53"
        words = ("const unsigned long long w1 = (unsigned long long)b.x | "
                 "((unsigned long long)b.y << 32);\n"
                 "    const unsigned long long w2 = (unsigned long long)b.z | "
                 "((unsigned long long)b.w << 32);")
        renew = ("idx = (unsigned int)(w2 & 0xffull);\n"
                 "      const unsigned long long r = w2 >> 8;\n"
                 "      rabs = (r >> 1) & 0x000fffffffffffffull;\n"
                 "      x = (double)rabs * gn_zig_wi[idx]; if (r & 1ull) x = -x;")
        ln, ex = "log", "exp"
    else:
        F, U, one, half, sfx = "float", "unsigned int", "1.0f", "0.5f", "f"
        mul, add, sub = "__fmul_rn", "__fadd_rn", "__fsub_rn"
        split = ("const unsigned int idx0 = w & 0xffu;\n"
                 "  const unsigned int rabs0 = (w >> 9) & 0x7fffffu;\n"
                 "  const bool neg0 = ((w >> 8) & 1u) != 0u;")
        unit1 = "(float)(b.x >> 8) * 0x1p-24f"
        unit2 = "(float)(b.y >> 8) * 0x1p-24f"
        words = "const unsigned int w2 = b.z;"
        renew = ("idx = w2 & 0xffu;\n"
                 "      rabs = (w2 >> 9) & 0x7fffffu;\n"
                 "      x = (float)rabs * gn_zig_wi[idx]; if ((w2 >> 8) & 1u) x = -x;")
        ln, ex = "logf", "expf"
    ku = "unsigned long long" if itemsize == 8 else "unsigned int"
    return f"""{_array(ku, "gn_zig_ki", ki)}{_array(F, "gn_zig_wi", wi)}{_array(F, "gn_zig_fi", fi)}
// the wedges and the tail: attempts on side-stream blocks (output i, attempt a)
__device__ __noinline__ {F} gn_zig_slow(unsigned long long i, unsigned int idx, {U} rabs,
                                        {F} x, unsigned int k0, unsigned int k1) {{
  for (unsigned int a = 0u;; ++a) {{
    const uint4 b = gn_philox_block(0ull, i, ((unsigned long long){TAG}u << 32) | a, k0, k1);
    {words}
    if (idx == 0u) {{
      const {F} xx = {mul}(-{INV_R.hex()}{sfx}, {ln}({sub}({one}, {unit1})));
      const {F} yy = -{ln}({sub}({one}, {unit2}));
      if ({add}(yy, yy) > {mul}(xx, xx))
        return ((rabs >> 8) & 1u) ? -{add}({R.hex()}{sfx}, xx) : {add}({R.hex()}{sfx}, xx);
    }} else {{
      if ({add}({mul}({sub}(gn_zig_fi[idx - 1u], gn_zig_fi[idx]), {unit1}), gn_zig_fi[idx]) <
          {ex}({mul}({mul}(-{half}, x), x)))
        return x;
      {renew}
      if (rabs < gn_zig_ki[idx]) return x;
    }}
  }}
}}
__device__ __forceinline__ {F} gn_zig_normal({U} w, unsigned long long i, unsigned int k0,
                                             unsigned int k1) {{
  {split}
  {F} x = ({F})rabs0 * gn_zig_wi[idx0];
  if (neg0) x = -x;
  if (rabs0 < gn_zig_ki[idx0]) return x;
  return gn_zig_slow(i, idx0, rabs0, x, k0, k1);
}}
"""
