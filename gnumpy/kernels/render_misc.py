"""Kernels of non-fusible ops: scans (cumulative sum/product) and matrix products.

Their inputs are materialized contiguous arrays, so these kernels are templates over
dtypes only (a few variants each), rendered here and cached like the fused ones.
"""
from __future__ import annotations

from .. import _dtypes as D
from .codegen import headers
from .types import COMPUTE, STORAGE, load, store_value


def scan_source(op: str, dt, line_kind: str, include_initial: bool, block: int,
                name: str) -> str:
    """Inclusive scan along the middle axis of a contiguous (outer, L, inner) array.

    line_kind 'thread': one thread per (outer, inner) line (inner > 1, coalesced);
    'block': one block per row (inner == 1), chunked block scan with a running carry."""
    preamble = headers(dt)
    ct = "float" if dt == D.float16 else COMPUTE[dt]
    st = STORAGE[dt]
    cplx = dt.kind == "c"
    if op == "cumsum":
        ident = f"{ct}{{0, 0}}" if cplx else f"({ct})0"
        comb = "gn_add({a}, {b})" if cplx else "(({ct})({a} + {b}))"
    else:
        ident = f"{ct}{{1, 0}}" if cplx else f"({ct})1"
        comb = "gn_multiply({a}, {b})" if cplx else "(({ct})({a} * {b}))"

    def c(a, b):
        r = comb.format(a=a, b=b, ct=ct)
        return f"gn_rh({r})" if dt == D.float16 else r

    shift = 1 if include_initial else 0
    ld = load(dt, "x", "{}")
    if line_kind == "thread":
        body = f"""
extern "C" __global__ void __launch_bounds__({block}) {name}(const {st}* __restrict__ x,
    {st}* __restrict__ y, long long outer, long long L, long long inner) {{
  const long long nl = outer * inner;
  for (long long t = (long long)blockIdx.x * {block} + threadIdx.x; t < nl;
       t += (long long)gridDim.x * {block}) {{
    const long long o = t / inner, i = t % inner;
    const long long xb = o * L * inner + i, yb = o * (L + {shift}) * inner + i;
    {ct} acc = {ident};
    {"y[yb] = " + store_value(dt, "acc") + ";" if shift else ""}
    for (long long l = 0; l < L; ++l) {{
      const {ct} x_ = ({ct}){ld.format("xb + l * inner")};
      acc = l == 0 ? x_ : {c("acc", "x_")};     // the first element is not combined
      y[yb + (l + {shift}) * inner] = {store_value(dt, "acc")};
    }}
  }}
}}"""
        return preamble + body
    nw = block // 32
    shfl = _shfl_struct(ct, cplx)
    body = f"""
{shfl}
extern "C" __global__ void __launch_bounds__({block}) {name}(const {st}* __restrict__ x,
    {st}* __restrict__ y, long long outer, long long L, long long inner) {{
  __shared__ {ct} wsum[{nw}];
  __shared__ {ct} carry_s;
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  for (long long o = blockIdx.x; o < outer; o += gridDim.x) {{
    const {st}* xr = x + o * L;
    {st}* yr = y + o * (L + {shift});
    {"if (threadIdx.x == 0) yr[0] = " + store_value(dt, ident) + ";" if shift else ""}
    {ct} carry = {ident};
    for (long long base = 0; base < L; base += {block}) {{
      const long long l = base + threadIdx.x;
      {ct} v = l < L ? ({ct}){load(dt, "xr", "l")} : {ident};
      #pragma unroll
      for (int d = 1; d < 32; d <<= 1) {{
        const {ct} u = gn_scan_shfl_up(v, d);
        if (lane >= d) v = {c("u", "v")};
      }}
      if (lane == 31) wsum[w] = v;
      __syncthreads();
      if (w == 0) {{
        {ct} s = lane < {nw} ? wsum[lane] : {ident};
        #pragma unroll
        for (int d = 1; d < 32; d <<= 1) {{
          const {ct} u = gn_scan_shfl_up(s, d);
          if (lane >= d) s = {c("u", "s")};
        }}
        if (lane < {nw}) wsum[lane] = s;
      }}
      __syncthreads();
      if (w > 0) v = {c("wsum[w - 1]", "v")};
      if (base > 0) v = {c("carry", "v")};    // NumPy never combines with the identity
      if (l < L) yr[l + {shift}] = {store_value(dt, "v")};
      if (threadIdx.x == {block} - 1) carry_s = v;
      __syncthreads();
      carry = carry_s;
      __syncthreads();
    }}
  }}
}}"""
    return preamble + body


def _shfl_struct(ct, cplx):
    if cplx:
        return (f"__device__ __forceinline__ {ct} gn_scan_shfl_up({ct} v, int d) {{\n"
                f"  return {ct}{{__shfl_up_sync(0xffffffffu, v.re, d), "
                f"__shfl_up_sync(0xffffffffu, v.im, d)}};\n}}")
    if ct in ("signed char", "short", "unsigned char", "unsigned short", "bool"):
        return (f"__device__ __forceinline__ {ct} gn_scan_shfl_up({ct} v, int d) {{\n"
                f"  return ({ct})__shfl_up_sync(0xffffffffu, (int)v, d);\n}}")
    return (f"__device__ __forceinline__ {ct} gn_scan_shfl_up({ct} v, int d) {{\n"
            f"  return __shfl_up_sync(0xffffffffu, v, d);\n}}")


def matmul_source(dt, name: str, tile: int = 16) -> str:
    """Batched C[b] = A[b] @ B[b] with 16x16 shared-memory tiles (strided operands), for
    the integer and bool dtypes (floating and complex products run cuBLAS); integers wrap
    around as NumPy's do."""
    preamble = headers()
    ct = COMPUTE[dt]
    st = STORAGE[dt]
    if dt.kind == "b":
        zero, fma = "false", "acc = acc || (a_s[ty][q] && b_s[q][tx]);"
    else:
        zero = f"({ct})0"
        fma = f"acc = ({ct})(acc + ({ct})a_s[ty][q] * ({ct})b_s[q][tx]);"
    T = tile
    return preamble + f"""
extern "C" __global__ void __launch_bounds__({T * T}) {name}(
    const {st}* __restrict__ A, const {st}* __restrict__ B, {st}* __restrict__ Cm,
    long long nb, long long n, long long m, long long kk,
    long long a_b, long long a_r, long long a_c, long long b_b, long long b_r, long long b_c,
    long long nbatch_dims, long long bd1, long long bd2, long long a_b1, long long a_b2,
    long long b_b1, long long b_b2) {{
  __shared__ {ct} a_s[{T}][{T}];
  __shared__ {ct} b_s[{T}][{T}];
  const int tx = threadIdx.x % {T}, ty = threadIdx.x / {T};
  const long long row = (long long)blockIdx.y * {T} + ty, col = (long long)blockIdx.x * {T} + tx;
  for (long long bi = blockIdx.z; bi < nb; bi += gridDim.z) {{
    long long r_ = bi;
    const long long i2 = nbatch_dims > 2 ? r_ % bd2 : 0; if (nbatch_dims > 2) r_ /= bd2;
    const long long i1 = nbatch_dims > 1 ? r_ % bd1 : 0; if (nbatch_dims > 1) r_ /= bd1;
    const long long i0 = r_;
    const {st}* Ab = A + i0 * a_b + i1 * a_b1 + i2 * a_b2;
    const {st}* Bb = B + i0 * b_b + i1 * b_b1 + i2 * b_b2;
    {ct} acc = {zero};
    for (long long k0 = 0; k0 < kk; k0 += {T}) {{
      a_s[ty][tx] = (row < n && k0 + tx < kk) ? ({ct}){load(dt, "Ab", "row * a_r + (k0 + tx) * a_c")} : ({ct}){zero};
      b_s[ty][tx] = (k0 + ty < kk && col < m) ? ({ct}){load(dt, "Bb", "(k0 + ty) * b_r + col * b_c")} : ({ct}){zero};
      __syncthreads();
      #pragma unroll
      for (int q = 0; q < {T}; ++q) {{ {fma} }}
      __syncthreads();
    }}
    if (row < n && col < m) Cm[bi * n * m + row * m + col] = {store_value(dt, "acc")};
  }}
}}"""
