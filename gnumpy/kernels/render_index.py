"""Kernels of indexing: gather, scatter, ``ufunc.at`` (scatter with an op, atomic) and the
stream compaction behind ``nonzero``.

Gather and scatter address their strided operand through *logical* C-order flat indices:
``off[i]`` is the position of an element in the C order of the operand's shape, unravelled
in the kernel over the operand's collapsed dims (``collapse``) and multiplied by its element
strides.  They copy raw items (a type per item size), so one kernel serves every dtype of a
size.  ``ufunc.at`` is typed: native atomics where CUDA has them (``atomicAdd`` for float,
double, 32/64-bit ints, complex as two float adds; ``atomicMin/Max`` for ints), a
compare-and-swap loop otherwise (sub-word types through their aligned 32-bit word), and a
one-thread loop for complex128 ops without a componentwise atomic.

Nonzero is three kernels over tiles of ``BLOCK * ITEMS`` mask elements: per-tile counts,
one block's exclusive scan of the counts (its total, the number of set elements, written
after them), and a per-tile ballot scan writing the flat indices of the set elements in
order.
"""
from __future__ import annotations

from .. import _dtypes as D
from . import ops_cuda
from .codegen import headers
from .types import COMPUTE, STORAGE, load

BLOCK = 256
NZ_ITEMS = 8
NZ_TILE = BLOCK * NZ_ITEMS
SCAN_BLOCK = 1024

_ITEM = {1: "unsigned char", 2: "unsigned short", 4: "unsigned int", 8: "unsigned long long",
         16: "gn_b16"}
_B16 = "struct alignas(16) gn_b16 { unsigned long long lo, hi; };\n"


def collapse(shape, strides):
    """(shape, strides) with size-1 dims dropped and mergeable neighbours merged (C order);
    addresses the same elements in the same order."""
    dims = [(d, s) for d, s in zip(shape, strides) if d != 1]
    out = []
    for d, s in dims:
        if out and out[-1][1] == d * s:
            pd, _ = out[-1]
            out[-1] = (pd * d, s)
        else:
            out.append((d, s))
    return tuple(d for d, _ in out), tuple(s for _, s in out)


def layout_decls(k: int) -> str:
    """Parameters of a collapsed k-dim layout: sizes d1..d{k-1}, strides s0..s{k-1}."""
    ps = [f"long long d{j}" for j in range(1, k)] + [f"long long s{j}" for j in range(k)]
    return "".join(", " + p for p in ps)


def layout_args(shape, strides) -> list:
    """Values for ``layout_decls`` (numpy int64 scalars)."""
    import numpy as np
    return [np.int64(d) for d in shape[1:]] + [np.int64(s) for s in strides]


def _unravel(k: int, var: str = "r") -> str:
    """Lines turning logical flat index `var` into the element offset `m`."""
    if k == 0:
        return "long long m = 0;"
    lines = ["long long m = 0;"]
    for j in range(k - 1, 0, -1):
        lines.append(f"{{ const long long q = {var} / d{j}; m += ({var} - q * d{j}) * s{j}; "
                     f"{var} = q; }}")
    lines.append(f"m += {var} * s0;")
    return "\n      ".join(lines)


def _loop(body: str) -> str:
    return f"""  for (long long i = (long long)blockIdx.x * {BLOCK} + threadIdx.x; i < n;
       i += (long long)gridDim.x * {BLOCK}) {{
      long long r = off[i];
      {body}
  }}"""


def gather_source(itemsize: int, k: int, index: str = "q", *, name: str) -> str:
    """``out[i] = src[unravel(off[i])]`` for items of `itemsize` bytes, a k-dim source,
    offsets of NumPy type char `index` (int64, or another integer type holding offsets
    known to lie in range: ``x[cols]`` with ``cols`` uint32 reads them as they are)."""
    t = _ITEM[itemsize]
    ot = STORAGE[D.to_dtype(index)]
    return (_B16 if itemsize == 16 else "") + f"""
extern "C" __global__ void __launch_bounds__({BLOCK}) {name}(const {t}* __restrict__ src,
    const {ot}* __restrict__ off, {t}* __restrict__ out, long long n{layout_decls(k)}) {{
{_loop(_unravel(k) + chr(10) + "      out[i] = src[m];")}
}}"""


def scatter_source(itemsize: int, k: int, name: str) -> str:
    """``dst[unravel(off[i])] = val[i * vstep]`` (vstep 0: one value for all)."""
    t = _ITEM[itemsize]
    return (_B16 if itemsize == 16 else "") + f"""
extern "C" __global__ void __launch_bounds__({BLOCK}) {name}({t}* __restrict__ dst,
    const long long* __restrict__ off, const {t}* __restrict__ val, long long n,
    long long vstep{layout_decls(k)}) {{
{_loop(_unravel(k) + chr(10) + "      dst[m] = val[i * vstep];")}
}}"""


def scatter_last_source(itemsize: int, k: int, sorted_: bool, name: str) -> str:
    """``dst[unravel(off[i])] = val[i * vstep]`` where several i hit one element: the last i
    wins, as in NumPy's sequential assignment.  ``sorted_``: `off` is sorted (stably) and
    `perm` holds each entry's original i, so the last of each run writes; else every i
    looks for a later equal offset (O(n^2) work, for small n)."""
    t = _ITEM[itemsize]
    if sorted_:
        body = ("if (i + 1 < n && off[i + 1] == r) continue;\n"
                "      const long long src = perm[i];\n      " + _unravel(k) +
                "\n      dst[m] = val[src * vstep];")
    else:
        body = ("bool later = false;\n"
                "      for (long long j = i + 1; j < n; ++j) later |= (off[j] == r);\n"
                "      if (later) continue;\n      const long long src = i;\n      " +
                _unravel(k) + "\n      dst[m] = val[src * vstep];")
    return (_B16 if itemsize == 16 else "") + f"""
extern "C" __global__ void __launch_bounds__({BLOCK}) {name}({t}* __restrict__ dst,
    const long long* __restrict__ off, const long long* __restrict__ perm,
    const {t}* __restrict__ val, long long n, long long vstep{layout_decls(k)}) {{
{_loop(body)}
}}"""


# ------------------------------------------------------------------ ufunc.at

def _cast(expr: str, frm, to) -> str:
    """`expr` (compute type of `frm`) converted to the compute type of `to` (NumPy cast)."""
    if frm == to:
        return expr
    if to == D.float16:
        return f"gn_h2f(gn_to_f16({expr}))"
    return ops_cuda.render("astype", frm, to, [expr])


def _to_storage(expr: str, frm, to) -> str:
    if to == D.float16:
        return f"gn_f2h({expr})" if frm == D.float16 else f"gn_to_f16({expr})"
    return _cast(expr, frm, to)


def _bits(dt):
    """(word type, storage->bits expr template, bits->storage expr template) for CAS."""
    st = STORAGE[dt]
    size = dt.itemsize
    if dt == D.float32:
        return "unsigned int", "__float_as_uint({})", "__uint_as_float({})"
    if dt == D.float64:
        return ("unsigned long long", "(unsigned long long)__double_as_longlong({})",
                "__longlong_as_double((long long)({}))")
    if dt == D.complex64:
        return ("unsigned long long",
                "((unsigned long long)__float_as_uint(({}).re) | "
                "((unsigned long long)__float_as_uint(({}).im) << 32))",
                "gn_c64{{__uint_as_float((unsigned int)({0})), "
                "__uint_as_float((unsigned int)(({0}) >> 32))}}")
    if dt == D.bool_:
        return "unsigned int", "(unsigned int)(({}) ? 1u : 0u)", "(({}) != 0u)"
    if size == 1:
        return "unsigned int", "(unsigned int)(unsigned char)({})", f"({st})(unsigned char)({{}})"
    if size == 2:
        return ("unsigned int", "(unsigned int)(unsigned short)({})",
                f"({st})(unsigned short)({{}})")
    if size == 4:
        return "unsigned int", "(unsigned int)({})", f"({st})({{}})"
    return "unsigned long long", "(unsigned long long)({})", f"({st})({{}})"


def at_strategy(op: str, adt, ldt) -> str:
    """How ``op.at`` updates a destination of dtype `adt` (values of loop dtype `ldt`):
    'add' (native atomicAdd), 'minmax' (atomicMin/Max), 'cas' or 'serial'."""
    if adt == ldt and op in ("add", "subtract") and adt in (
            D.float32, D.float64, D.int32, D.uint32, D.int64, D.uint64, D.complex64,
            D.complex128):
        return "add"
    if adt == ldt and op in ("minimum", "maximum") and adt in (D.int32, D.uint32, D.int64,
                                                               D.uint64):
        return "minmax"
    return "cas" if adt.itemsize <= 8 else "serial"


def _atomic_add(op, adt):
    neg = op == "subtract"
    if adt.kind == "c":
        p = "float" if adt == D.complex64 else "double"
        sg = "-" if neg else ""
        return (f"atomicAdd(({p}*)&dst[m], {sg}v.re); "
                f"atomicAdd((({p}*)&dst[m]) + 1, {sg}v.im);")
    if adt.kind == "f":
        return f"atomicAdd(&dst[m], {'-v' if neg else 'v'});"
    w = "unsigned int" if adt.itemsize == 4 else "unsigned long long"
    z = "0u" if adt.itemsize == 4 else "0ull"
    val = f"{z} - ({w})v" if neg else f"({w})v"
    return f"atomicAdd(({w}*)&dst[m], {val});"


def _cas(adt) -> str:
    w, to_bits, from_bits = _bits(adt)
    st = STORAGE[adt]
    if adt.itemsize >= 4:
        tb = to_bits.replace("{}", "nv")
        return f"""{w}* wp = ({w}*)&dst[m];
      {w} old = *wp, as;
      do {{
        as = old;
        const {st} nv = gn_at_f({from_bits.format("as")}, val, vi);
        old = atomicCAS(wp, as, {tb});
      }} while (old != as);"""
    mask = "0xffu" if adt.itemsize == 1 else "0xffffu"
    return f"""unsigned int* wp = (unsigned int*)((unsigned long long)&dst[m] & ~3ull);
      const unsigned int sh = (unsigned int)(((unsigned long long)&dst[m] & 3ull) * 8ull);
      const unsigned int mk = {mask} << sh;
      unsigned int old = *wp, as;
      do {{
        as = old;
        const {st} nv = gn_at_f({from_bits.format("((as & mk) >> sh)")}, val, vi);
        old = atomicCAS(wp, as, (as & ~mk) | ((({to_bits.format("nv")}) << sh) & mk));
      }} while (old != as);"""


def scatter_at_source(op: str, adt, ldt, odt, nin: int, k: int, name: str) -> str:
    """``dst[unravel(off[i])] = op(dst[...], val[i * vstep])`` applied once per index, so
    duplicate indices accumulate (``ufunc.at``); `ldt` is the op's loop dtype, `odt` its
    output dtype, `adt` the destination's."""
    preamble = headers(adt, ldt, odt)
    at, lt = STORAGE[adt], STORAGE[ldt]
    a0 = load(adt, "cur", "0").replace("cur[0]", "cur")
    args = [_cast("a0", adt, ldt)]
    if nin == 2:
        args.append(load(ldt, "val", "vi"))
    r = ops_cuda.render(op, ldt, odt, ["a1", "b1"][:nin])
    if odt == D.float16:
        r = f"gn_rh({r})"
    fdef = f"""
__device__ __forceinline__ {at} gn_at_f({at} cur, const {lt}* __restrict__ val, long long vi) {{
  const {COMPUTE[adt]} a0 = {a0};
  const {COMPUTE[ldt]} a1 = {args[0]};
  {f"const {COMPUTE[ldt]} b1 = {args[1]};" if nin == 2 else "(void)val; (void)vi;"}
  const {COMPUTE[odt]} r = {r};
  return {_to_storage("r", odt, adt)};
}}"""
    strategy = at_strategy(op, adt, ldt)
    head = f"""extern "C" __global__ void __launch_bounds__({BLOCK}) {name}({at}* __restrict__ dst,
    const long long* __restrict__ off, const {lt}* __restrict__ val, long long n,
    long long vstep{layout_decls(k)}) {{"""
    if strategy == "serial":
        return preamble + fdef + f"""
{head}
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  for (long long i = 0; i < n; ++i) {{
    long long r = off[i];
    {_unravel(k)}
    dst[m] = gn_at_f(dst[m], val, i * vstep);
  }}
}}"""
    if strategy == "add":
        upd = f"const {lt} v = val[vi];\n      " + _atomic_add(op, adt)
    elif strategy == "minmax":
        upd = f"{'atomicMin' if op == 'minimum' else 'atomicMax'}(&dst[m], val[vi]);"
    else:
        upd = _cas(adt)
    return preamble + fdef + f"""
{head}
{_loop(_unravel(k) + chr(10) + "      const long long vi = i * vstep;" + chr(10) + "      " + upd)}
}}"""


# ------------------------------------------------------------------ nonzero (compaction)

def nz_count_source(name: str) -> str:
    """counts[t] = number of set mask elements in tile t."""
    return f"""
extern "C" __global__ void __launch_bounds__({BLOCK}) {name}(
    const unsigned char* __restrict__ mk, long long n, long long* __restrict__ counts,
    long long ntiles) {{
  for (long long t = blockIdx.x; t < ntiles; t += gridDim.x) {{
    const long long base = t * {NZ_TILE};
    int c = 0;
    #pragma unroll
    for (int j = 0; j < {NZ_ITEMS}; ++j) {{
      const long long idx = base + j * {BLOCK} + threadIdx.x;
      c += __syncthreads_count(idx < n && mk[idx] != 0);
    }}
    if (threadIdx.x == 0) counts[t] = c;
  }}
}}"""


def nz_scan_source(name: str) -> str:
    """In-place exclusive scan of c[0..nt) by one block of SCAN_BLOCK threads; the total
    goes to c[nt] (the count of set elements, read before the compaction is sized)."""
    nw = SCAN_BLOCK // 32
    return f"""
extern "C" __global__ void __launch_bounds__({SCAN_BLOCK}) {name}(long long* __restrict__ c,
    long long nt) {{
  __shared__ long long ws[{nw}];
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  long long carry = 0;
  for (long long base = 0; base < nt; base += {SCAN_BLOCK}) {{
    const long long i = base + threadIdx.x;
    const long long x = i < nt ? c[i] : 0;
    long long v = x;
    #pragma unroll
    for (int d = 1; d < 32; d <<= 1) {{
      const long long u = __shfl_up_sync(0xffffffffu, v, d);
      if (lane >= d) v += u;
    }}
    if (lane == 31) ws[w] = v;
    __syncthreads();
    if (w == 0) {{
      long long s = lane < {nw} ? ws[lane] : 0;
      #pragma unroll
      for (int d = 1; d < 32; d <<= 1) {{
        const long long u = __shfl_up_sync(0xffffffffu, s, d);
        if (lane >= d) s += u;
      }}
      if (lane < {nw}) ws[lane] = s;
    }}
    __syncthreads();
    if (w > 0) v += ws[w - 1];
    if (i < nt) c[i] = carry + v - x;
    carry += ws[{nw - 1}];
    __syncthreads();
  }}
  if (threadIdx.x == 0) c[nt] = carry;
}}"""


def nz_write_source(name: str) -> str:
    """out[starts[t] + rank] = flat index of each set element of tile t, in order."""
    nw = BLOCK // 32
    return f"""
extern "C" __global__ void __launch_bounds__({BLOCK}) {name}(
    const unsigned char* __restrict__ mk, long long n, const long long* __restrict__ starts,
    long long ntiles, long long* __restrict__ out) {{
  __shared__ int wc[{nw}];
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  for (long long t = blockIdx.x; t < ntiles; t += gridDim.x) {{
    long long pos = starts[t];
    for (int j = 0; j < {NZ_ITEMS}; ++j) {{
      const long long idx = t * {NZ_TILE} + j * {BLOCK} + threadIdx.x;
      const bool f = idx < n && mk[idx] != 0;
      const unsigned int bal = __ballot_sync(0xffffffffu, f);
      if (lane == 0) wc[w] = __popc(bal);
      __syncthreads();
      int before = 0, total = 0;
      #pragma unroll
      for (int q = 0; q < {nw}; ++q) {{
        const int cq = wc[q];
        total += cq;
        if (q < w) before += cq;
      }}
      if (f) out[pos + before + __popc(bal & ((1u << lane) - 1u))] = idx;
      pos += total;
      __syncthreads();
    }}
  }}
}}"""
