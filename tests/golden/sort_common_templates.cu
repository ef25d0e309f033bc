
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
#define GN_TILE 2048

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
    GN_THREADS(k, GN_TILE, 1024) {
      const long long s = b * R + k / P;
      const int q = k & (P - 1);
      int valid = 0;
      if (s < nseg) {
        const long long start = (s % tpr) * P, c = n - start;
        valid = c < P ? (int)c : P;
        if (q < valid) sv[k] = x[(s / tpr) * n + start + q];
      }
      si[k] = q < valid ? q : P + q;
    }
    GN_SYNC();
    for (int size = 2; size <= P; size <<= 1) {
      for (int stride = size >> 1; stride > 0; stride >>= 1) {
        GN_THREADS(t, GN_TILE / 2, 1024) {
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
    GN_THREADS(k, GN_TILE, 1024) {
      const long long s = b * R + k / P;
      const int q = k & (P - 1);
      if (s < nseg) {
        const long long start = (s % tpr) * P, c = n - start;
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
  GN_GRID(t, rows * n, 256) {
    const long long row = t / n, p = t - row * n;
    const long long base = p - p % (2 * w);
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
  GN_GRID(t, nv, 256) {
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
  GN_GRID(t, rows * m, 256) {
    const long long r = t / m, j = t - r * m;
    out[t] = x[r * xrs + idx[r * irs + j]];
  }
}

// out[idx[t]] = x[t] where mask[t] (every t when mask is null)
template <class U>
__device__ void gn_scatter(const U* __restrict__ x, const long long* __restrict__ idx,
                           const bool* __restrict__ mask, U* __restrict__ out, long long n) {
  GN_GRID(t, n, 256) {
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
#define GN_HIST_SMEM 4096
template <class C, class B>
__device__ void gn_accumulate(const B& bin, const double* __restrict__ w,
                              C* __restrict__ out, long long n, long long nb) {
  GN_SHARED C part[GN_HIST_SMEM];
  const bool priv = nb <= GN_HIST_SMEM;
  if (priv) {
    GN_THREADS(i, (int)nb, 256) part[i] = 0;
    GN_SYNC();
  }
  GN_GRID(t, n, 256) {
    const long long b = bin(t);
    if (b >= 0 && b < nb) {
      const C v = w ? (C)w[t] : (C)1;
      if (priv) GN_ATOMIC_ADD(part + b, v);
      else GN_ATOMIC_ADD(out + b, v);
    }
  }
  if (priv) {
    GN_SYNC();
    GN_THREADS(i, (int)nb, 256) {
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
