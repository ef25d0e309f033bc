"""CUDA sources of the sorting and searching barriers: a shared-memory bitonic tile sort,
a merge pass for rows longer than a tile, binary search (``searchsorted``), and the small
data-movement kernels the set and statistics functions build on (gather along rows,
masked scatter for compaction, and counting: bincount and the histogram of equal bins
(NumPy's bin of each value), counts or float64 weight sums with atomics, per block in
shared memory first).

Long rows are sorted by CUB's radix sort instead (``backends/cuda_cub.py``; the switch is
``sort_ops.use_cub_sort``).  What stays here wins or has no CUB counterpart: the tile and
merge kernels for many short rows and for complex values (radix sort has no complex keys);
binary search (``searchsorted``, within 10% of CuPy's); the masked scatter of boolean-mask
compaction (faster than CuPy's); counting, faster than CUB's histogram, whose calls cost
two host calls a count (bench/libs.py ``histogram`` and ``bincount``, 2^26 values on an
H100: 0.84 and 1.22 ms, CUB's path 1.48 and 1.68, CuPy 1.51 and 1.67).  bench/libs.py
measures each against CuPy; the numbers are in docs/perf-notes.md.

Ordering is NumPy's: NaN sorts last (complex: NumPy's lexicographic order with its NaN
classes), -0.0 equals 0.0.  Sorting compares (value, original index) pairs, which makes
the networks stable in both directions (descending keeps equal elements in their original
order, as the Array API's stable descending sort).

Every kernel is a thin ``extern "C"`` wrapper around a template in the common block.  The
common block also compiles as host C++ (g++): its thread, block and barrier macros then
become sequential loops, which run the same code phase by phase (every phase is free of
data races), so CPU-only tests run these exact kernels against NumPy.
"""
from __future__ import annotations

from .. import _dtypes as D
from .codegen import header
from .types import STORAGE

TILE = 2048        # elements a block sorts in shared memory
TILE_THREADS = 1024
THREADS = 256      # block size of the grid-stride kernels
HIST_SMEM = 4096   # bins a block of the counting kernels sums in shared memory first (32 KiB)
HIST_ITEMS = 16    # their grid: each thread takes at least this many items, in at most
HIST_BLOCKS = 1024  # this many blocks (each adds its sums to the result once; ~8 an SM)

# ordering traits per dtype kind (the template argument of the sort/search kernels)
_ORDER = {"b": "gn_ord_int<bool>", "f16": "gn_ord_f16"}

# itemsize -> moved type of the byte-moving kernels (gather, scatter)
MOVE_TYPE = {1: "unsigned char", 2: "unsigned short", 4: "unsigned int",
             8: "unsigned long long", 16: "gn_u128"}

COMMON = r"""
#ifndef GN_SORT_COMMON
#define GN_SORT_COMMON
#ifdef __CUDACC__
#define GN_KERNEL(NT) extern "C" __global__ void __launch_bounds__(NT)
#define GN_DEV __device__ __forceinline__
#define GN_SHARED __shared__
#define GN_SYNC() __syncthreads()
// the block's threads share the iterations of a phase; a block handles items b, b + grid, ...
#define GN_THREADS(t, N, NT) for (int t = threadIdx.x; t < (N); t += (NT))
#define GN_BLOCKS(b, N) for (long long b = blockIdx.x; b < (N); b += gridDim.x)
#define GN_GRID(t, N, NT) \
  for (long long t = (long long)blockIdx.x * (NT) + threadIdx.x; t < (N); \
       t += (long long)gridDim.x * (NT))
#define GN_ATOMIC_ADD(p, v) atomicAdd(p, v)
#else   // host C++: one thread runs every phase in turn
#define GN_KERNEL(NT) extern "C" void
#define GN_DEV inline
#define GN_SHARED static
#define GN_SYNC()
#define GN_THREADS(t, N, NT) for (int t = 0; t < (N); ++t)
#define GN_BLOCKS(b, N) for (long long b = 0; b < (N); ++b)
#define GN_GRID(t, N, NT) for (long long t = 0; t < (N); ++t)
#define GN_ATOMIC_ADD(p, v) (*(p) += (v))
#endif
#define GN_TILE %(tile)d

struct alignas(16) gn_u128 { unsigned long long a, b; };

// ---- NumPy's sort order: lt(a, b) is "a sorts before b" ------------------------------------
template <class S> struct gn_ord_int {      // bool and the integers
  typedef S T;
  static GN_HD bool lt(S a, S b) { return a < b; }
};
template <class S> struct gn_ord_flt {      // float, double: NaN last, -0 == 0
  typedef S T;
  static GN_HD bool lt(S a, S b) { return a < b || (b != b && a == a); }
};
struct gn_ord_f16 {                          // float16 stored as its bits
  typedef unsigned short T;
  static GN_HD bool lt(unsigned short ha, unsigned short hb) {
    const float a = gn_h2f(ha), b = gn_h2f(hb);
    return a < b || (b != b && a == a);
  }
};
template <class C> struct gn_ord_cpx {      // NumPy's CFLOAT_LT / CDOUBLE_LT
  typedef C T;
  static GN_HD bool lt(C a, C b) {
    if (a.re < b.re) return a.im == a.im || b.im != b.im;
    if (a.re > b.re) return b.im != b.im && a.im == a.im;
    if (a.re == b.re || (a.re != a.re && b.re != b.re))
      return a.im < b.im || (b.im != b.im && a.im == a.im);
    return b.re != b.re;
  }
};

// (value, index) pairs: a strict total order, so every sorting network is stable
template <class O>
GN_HD bool gn_before(typename O::T a, long long ia, typename O::T b, long long ib, int desc) {
  if (desc ? O::lt(b, a) : O::lt(a, b)) return true;
  if (desc ? O::lt(a, b) : O::lt(b, a)) return false;
  return ia < ib;
}

// ---- tile sort: rows of n elements, segments of P (a power of two <= GN_TILE) -----------
// n <= P: a segment is a whole row and a block sorts GN_TILE / P rows at once; n > P
// (P == GN_TILE): a segment is a tile of a row, sorted for the merge passes.  Writes the
// sorted values to ov and the original indices (within the row) to oi, either may be null.
template <class O>
__device__ void gn_sort_tile(const typename O::T* __restrict__ x, typename O::T* __restrict__ ov,
                             long long* __restrict__ oi, long long rows, long long n, int P,
                             int desc) {
  typedef typename O::T T;
  GN_SHARED T sv[GN_TILE];
  GN_SHARED int si[GN_TILE];     // index within the segment; >= P marks padding
  const long long tpr = (n + P - 1) / P;
  const long long nseg = rows * tpr;
  const int R = GN_TILE / P;
  const long long nblk = (nseg + R - 1) / R;
  GN_BLOCKS(b, nblk) {
    GN_THREADS(k, GN_TILE, %(tnt)d) {
      const long long s = b * R + k / P;
      const int q = k & (P - 1);
      int valid = 0;
      if (s < nseg) {
        const long long start = (s %% tpr) * P, c = n - start;
        valid = c < P ? (int)c : P;
        if (q < valid) sv[k] = x[(s / tpr) * n + start + q];
      }
      si[k] = q < valid ? q : P + q;
    }
    GN_SYNC();
    for (int size = 2; size <= P; size <<= 1) {
      for (int stride = size >> 1; stride > 0; stride >>= 1) {
        GN_THREADS(t, GN_TILE / 2, %(tnt)d) {
          const int lo = 2 * t - (t & (stride - 1)), hi = lo + stride;
          const bool up = (lo & (P - 1) & size) == 0;
          const int ia = si[lo], ic = si[hi];
          const T a = sv[lo], c = sv[hi];
          const bool c_first = (ia >= P || ic >= P) ? ic < ia
                                                    : gn_before<O>(c, ic, a, ia, desc);
          if (c_first == up) { sv[lo] = c; sv[hi] = a; si[lo] = ic; si[hi] = ia; }
        }
        GN_SYNC();
      }
    }
    GN_THREADS(k, GN_TILE, %(tnt)d) {
      const long long s = b * R + k / P;
      const int q = k & (P - 1);
      if (s < nseg) {
        const long long start = (s %% tpr) * P, c = n - start;
        if (q < c) {
          const long long o = (s / tpr) * n + start + q;
          if (ov) ov[o] = sv[k];
          if (oi) oi[o] = start + si[k];
        }
      }
    }
    GN_SYNC();
  }
}

// ---- merge pass: sorted runs of w -> sorted runs of 2w, each element placed by its rank --
// (its position in its own run plus the number of elements of the other run before it,
// found by binary search; pairs are distinct, so the ranks form a permutation)
template <class O>
__device__ void gn_sort_merge(const typename O::T* __restrict__ sv,
                              const long long* __restrict__ si, typename O::T* __restrict__ dv,
                              long long* __restrict__ di, long long rows, long long n,
                              long long w, int desc) {
  typedef typename O::T T;
  GN_GRID(t, rows * n, %(nt)d) {
    const long long row = t / n, p = t - row * n;
    const long long base = p - p %% (2 * w);
    const long long mid = base + w < n ? base + w : n;
    const long long end = base + 2 * w < n ? base + 2 * w : n;
    const T v = sv[t];
    const long long iv = si[t];
    const T* rv = sv + row * n;
    const long long* ri = si + row * n;
    const bool in_a = p < mid;
    const long long own = in_a ? base : mid, other = in_a ? mid : base;
    long long lo = other, hi = in_a ? end : mid;
    while (lo < hi) {
      const long long m = lo + ((hi - lo) >> 1);
      if (gn_before<O>(rv[m], ri[m], v, iv, desc)) lo = m + 1; else hi = m;
    }
    const long long o = row * n + base + (p - own) + (lo - other);
    if (dv) dv[o] = v;
    if (di) di[o] = iv;
  }
}

// ---- searchsorted: binary search of each v in a (stride as, optionally through sorter) --
template <class O>
__device__ void gn_search(const typename O::T* __restrict__ a, long long as,
                          const long long* __restrict__ sorter, long long na,
                          const typename O::T* __restrict__ v, long long* __restrict__ out,
                          long long nv, int right) {
  typedef typename O::T T;
  GN_GRID(t, nv, %(nt)d) {
    const T key = v[t];
    long long lo = 0, hi = na;
    while (lo < hi) {
      const long long m = lo + ((hi - lo) >> 1);
      const T am = a[(sorter ? sorter[m] : m) * as];
      if (right ? !O::lt(key, am) : O::lt(am, key)) lo = m + 1; else hi = m;
    }
    out[t] = lo;
  }
}

// ---- data movement ---------------------------------------------------------------------
// out[r, j] = x[r * xrs + idx[r * irs + j]]   (xrs / irs 0 broadcast one row)
template <class U>
__device__ void gn_gather(const U* __restrict__ x, const long long* __restrict__ idx,
                          U* __restrict__ out, long long rows, long long m, long long xrs,
                          long long irs) {
  GN_GRID(t, rows * m, %(nt)d) {
    const long long r = t / m, j = t - r * m;
    out[t] = x[r * xrs + idx[r * irs + j]];
  }
}

// out[idx[t]] = x[t] where mask[t] (every t when mask is null)
template <class U>
__device__ void gn_scatter(const U* __restrict__ x, const long long* __restrict__ idx,
                           const bool* __restrict__ mask, U* __restrict__ out, long long n) {
  GN_GRID(t, n, %(nt)d) {
    if (!mask || mask[t]) out[idx[t]] = x[t];
  }
}

// ---- histograms of equal bins: NumPy's bin of each value, then a count or a weight sum ----
// The bin is NumPy's (numpy.histogram, equal bins): the value's offset from the first edge
// in T (the values' dtype), scaled in F (NumPy's dtype of that step: float64 for float32
// values and a range of Python floats) and truncated, the last edge's index pulled into
// the last bin, then moved down or up by one against the edges on either side, compared
// in T, each edge computed in E as NumPy's linspace computes it (k * step + first, or
// k / nb * delta where the step is zero; the last edge, which linspace makes exact, is
// never compared).  Values outside [lo, hi], and NaN, have no bin (-1).
template <class E>
GN_DEV E gn_hist_edge(long long k, E first, E step, E delta, E enb, int step0) {
  const E y = (E)k;
  return step0 ? y / enb * delta + first : y * step + first;
}

template <class T, class F, class E>
GN_DEV long long gn_hist_bin(T v, long long nb, T lo, T hi, F denom, F fnb, E first, E step,
                             E delta, E enb, int step0) {
  if (!(v >= lo && v <= hi)) return -1;
  const F f = (F)(v - lo) / denom * fnb;
  long long k = (long long)f;
  if (k == nb) k = nb - 1;
  if (v < (T)gn_hist_edge<E>(k, first, step, delta, enb, step0)) k -= 1;
  if (k != nb - 1 && v >= (T)gn_hist_edge<E>(k + 1, first, step, delta, enb, step0)) k += 1;
  return k;
}

// ---- counting: counts (C unsigned long long) or float64 weight sums (C double) per bin --
// bin(t) gives item t's bin; those outside [0, nb) are skipped.  `out` is zeroed before;
// up to GN_HIST_SMEM bins a block sums in shared memory first.
#define GN_HIST_SMEM %(hs)d
template <class C, class B>
__device__ void gn_accumulate(const B& bin, const double* __restrict__ w,
                              C* __restrict__ out, long long n, long long nb) {
  GN_SHARED C part[GN_HIST_SMEM];
  const bool priv = nb <= GN_HIST_SMEM;
  if (priv) {
    GN_THREADS(i, (int)nb, %(nt)d) part[i] = 0;
    GN_SYNC();
  }
  GN_GRID(t, n, %(nt)d) {
    const long long b = bin(t);
    if (b >= 0 && b < nb) {
      const C v = w ? (C)w[t] : (C)1;
      if (priv) GN_ATOMIC_ADD(part + b, v);
      else GN_ATOMIC_ADD(out + b, v);
    }
  }
  if (priv) {
    GN_SYNC();
    GN_THREADS(i, (int)nb, %(nt)d) {
      if (part[i] != (C)0) GN_ATOMIC_ADD(out + i, part[i]);
    }
  }
}

template <class I> struct gn_bins_of {          // bincount: the bins are the items
  const I* x;
  GN_DEV long long operator()(long long t) const { return (long long)x[t]; }
};

template <class T, class F, class E> struct gn_bins_uniform {  // histogram: equal bins
  const T* x;
  long long nb;
  T lo, hi;
  F denom, fnb;
  E first, step, delta, enb;
  int step0;
  GN_DEV long long operator()(long long t) const {
    return gn_hist_bin<T, F, E>(x[t], nb, lo, hi, denom, fnb, first, step, delta, enb,
                                step0);
  }
};
#endif  // GN_SORT_COMMON
""" % {"tile": TILE, "tnt": TILE_THREADS, "nt": THREADS, "hs": HIST_SMEM}


def order_of(dt) -> str:
    """The ordering traits (template argument) of dtype `dt`."""
    if dt.kind == "b":
        return _ORDER["b"]
    if dt == D.float16:
        return _ORDER["f16"]
    if dt.kind == "c":
        return f"gn_ord_cpx<{STORAGE[dt]}>"
    if dt.kind == "f":
        return f"gn_ord_flt<{STORAGE[dt]}>"
    return f"gn_ord_int<{STORAGE[dt]}>"


def preamble() -> str:
    """Headers and the common templates every sort kernel includes."""
    return header("gn_core.cuh") + COMMON


def tile_kernel(dt, name: str) -> str:
    """Bitonic tile sort of dtype `dt` (launch: TILE_THREADS threads per block)."""
    o, st = order_of(dt), STORAGE[dt]
    return f"""
GN_KERNEL({TILE_THREADS}) {name}(const {st}* x, {st}* ov, long long* oi, long long rows,
    long long n, int P, int desc) {{
  gn_sort_tile<{o} >(x, ov, oi, rows, n, P, desc);
}}
"""


def merge_kernel(dt, name: str) -> str:
    """One merge pass of dtype `dt` (launch: THREADS threads per block)."""
    o, st = order_of(dt), STORAGE[dt]
    return f"""
GN_KERNEL({THREADS}) {name}(const {st}* sv, const long long* si, {st}* dv, long long* di,
    long long rows, long long n, long long w, int desc) {{
  gn_sort_merge<{o} >(sv, si, dv, di, rows, n, w, desc);
}}
"""


def search_kernel(dt, name: str) -> str:
    """searchsorted of dtype `dt` (launch: THREADS threads per block)."""
    o, st = order_of(dt), STORAGE[dt]
    return f"""
GN_KERNEL({THREADS}) {name}(const {st}* a, long long as, const long long* sorter, long long na,
    const {st}* v, long long* out, long long nv, int right) {{
  gn_search<{o} >(a, as, sorter, na, v, out, nv, right);
}}
"""


def gather_kernel(itemsize: int, name: str) -> str:
    u = MOVE_TYPE[itemsize]
    return f"""
GN_KERNEL({THREADS}) {name}(const {u}* x, const long long* idx, {u}* out, long long rows,
    long long m, long long xrs, long long irs) {{
  gn_gather<{u} >(x, idx, out, rows, m, xrs, irs);
}}
"""


def scatter_kernel(itemsize: int, name: str) -> str:
    u = MOVE_TYPE[itemsize]
    return f"""
GN_KERNEL({THREADS}) {name}(const {u}* x, const long long* idx, const bool* mask, {u}* out,
    long long n) {{
  gn_scatter<{u} >(x, idx, mask, out, n);
}}
"""


def bincount_kernel(param, name: str) -> str:
    """bincount of int32/int64 bins (`param`: (their dtype, weighted)): counts, or float64
    weight sums; launch: THREADS threads per block."""
    i, weighted = param
    its = STORAGE[D.to_dtype(i)]
    c = "double" if weighted else "unsigned long long"
    return f"""
GN_KERNEL({THREADS}) {name}(const {its}* x, const double* w, {c}* out, long long n,
    long long nb) {{
  gn_accumulate<{c}>(gn_bins_of<{its}>{{x}}, w, out, n, nb);
}}
"""


def hist_kernel(param, name: str) -> str:
    """Equal-bins histogram of values of dtype T, offsets scaled in F, edges in E
    (`param`: (T, F, E, weighted)); launch: THREADS threads per block."""
    t, f, e, weighted = param
    ts, fs, es = (STORAGE[D.to_dtype(x)] for x in (t, f, e))
    c = "double" if weighted else "unsigned long long"
    return f"""
GN_KERNEL({THREADS}) {name}(const {ts}* x, const double* w, {c}* out, long long n,
    long long nb, {ts} lo, {ts} hi, {fs} denom, {fs} fnb, {es} first, {es} step,
    {es} delta, {es} enb, int step0) {{
  gn_accumulate<{c}>(gn_bins_uniform<{ts}, {fs}, {es}>{{x, nb, lo, hi, denom, fnb, first,
                                                     step, delta, enb, step0}}, w, out, n, nb);
}}
"""


SOURCES = {"tile": tile_kernel, "merge": merge_kernel, "search": search_kernel,
           "gather": gather_kernel, "scatter": scatter_kernel, "bincount": bincount_kernel,
           "hist": hist_kernel}


def source(kind: str, param, name: str) -> str:
    """The full CUDA source of one kernel: `kind` in SOURCES (param: a dtype or an
    itemsize; for 'hist' and 'bincount', their kernel's)."""
    return preamble() + SOURCES[kind](param, name)
