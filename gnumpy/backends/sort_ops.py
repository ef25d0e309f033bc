"""Barrier ops of sorting, searching and counting on CUDA, registered with ``barriers``
(their CPU implementations, NumPy's routines, and those of the library calls of
``unique``, ``histogram`` and ``bincount`` are in ``sort_numpy``):

* ``sort`` / ``argsort``: stable sort of the contiguous rows of ``srcs[0]`` (the last axis),
  ``arg`` = descending; ``sort`` gives the values, ``argsort`` int64 indices within rows;
* ``searchsorted``: ``srcs = (a, v[, sorter])``, ``arg`` = side; int64 of v's shape;
* ``sort_gather``: ``srcs = (x (R1, n), idx (R2, m))``, R1, R2 in {1, R}: out[r, j] =
  x[r, idx[r, j]], shape (R, m);
* ``sort_scatter``: ``srcs = (x, idx[, mask])`` (1-D): out[idx[t]] = x[t] where mask[t]
  (compaction and permutation inverses; every output element must be written);
* ``bincount``: ``srcs = (bins int32/int64[, weights float64])``, ``arg`` = the number of
  bins; bins are in [0, arg], where ``arg`` means "not counted" (values outside a
  histogram's range); int64 counts or float64 weight sums;
* ``histogram_uniform``: ``srcs = (x float32/float64[, weights float64])`` (1-D), ``arg``
  = (nb, F, E, lo, hi, denom, nb, first, step, delta, nb, step0): the bins, the dtypes
  of the scaled offset and of the edges, then host scalars of x's dtype, of F and of E
  and a flag: NumPy's equal-bins histogram (``_api.reductions.binning.uniform_counts``
  makes the arguments), each value's bin and its count (int64) or weight sum (float64)
  in one kernel.

On CUDA, long sorts and ``unique`` run CUB (``cuda_cub``); many short rows, searching, data
movement and counting run gnumpy's kernels (``kernels/render_sort.py``).  The kernels' launch logic
is written against a small device interface (``CudaDev``) so tests can run it, with the same
kernel sources compiled by g++, on the host.
"""
from __future__ import annotations

import numpy as np

from .. import _dtypes as D
from .._graph import ir
from .._graph import layout as L
from ..kernels import render_sort as RS
from ..kernels.plan import FixedKey
from . import barriers, cuda_cub
from . import cuda_cub as C
from .cuda_memory import leaf_ptr as _ptr

i64, i32 = np.int64, np.int32
MAX_BLOCKS = 1 << 16

# Which sorts go to CUB's radix sort (one call per row) and which to gnumpy's bitonic tile
# and merge kernels: CUB for rows of at least SORT_CUB_MIN_N elements when there are at most
# SORT_CUB_MAX_ROWS of them; the kernels for shorter rows and for many rows, where they are
# as fast or faster and compile in a tenth of a second where a CUB build takes seconds
# (bench/libs.py, bench/small_sorts.py; the numbers: docs/perf-notes.md, "Measurements
# behind the defaults").  Complex values always take the kernels (no radix sort).
SORT_CUB_MIN_N = 1 << 18
SORT_CUB_MAX_ROWS = 32


def use_cub_sort(dt, rows: int, n: int) -> bool:
    """Whether `rows` rows of `n` elements of `dt` are sorted by CUB (the one switch)."""
    return np.dtype(dt).kind != "c" and n >= max(SORT_CUB_MIN_N, 1) and \
        1 <= rows <= SORT_CUB_MAX_ROWS


# ------------------------------------------------------------------ unique (CUDA)

def cuda_unique(be, x, *, return_index=False, return_inverse=False, return_counts=False,
                equal_nan=True, axis=None):
    """``np.unique`` of the LEAF `x` (flattened): (values, index, inverse (1-D), counts),
    None where not asked for.  Real dtypes: sort (pairs with indices when index or inverse
    are wanted), CUB unique-by-key over the sorted keys with the run starts as items, one
    sync for the number of runs.  ``NotImplemented`` for complex values (no radix sort),
    ``axis`` and empty input: ``_api.sorting.sets`` composes those from gnumpy ops."""
    dt = x.dtype
    n = L.prod(x.shape)
    if axis is not None or dt.kind == "c" or n == 0:
        return NotImplemented
    it = dt.itemsize
    kdt = C.UINT[1] if dt.kind == "b" else dt
    # runs compare bit patterns when NaNs are one value (canonical keys: one NaN, +0.0),
    # values otherwise (NaN != NaN)
    edt = C.UINT[it] if dt.kind == "f" and equal_nan else kdt
    keys, keep = C.flat_keys(be, x)
    iota = C.iota(be, n)
    skeys = C.alloc(be, n * it)
    perm = None
    if return_index or return_inverse:
        perm = C.alloc(be, n * 8)
    if use_cub_sort(kdt, 1, n):
        if perm is not None:
            C.radix_sort(be, n, kdt, keys, skeys.ptr, C.I64, iota.ptr, perm.ptr)
        else:
            C.radix_sort(be, n, kdt, keys, skeys.ptr)
    else:                   # gnumpy's stable kernels (as sort and argsort of this length)
        dev = CudaDev(be)
        if perm is not None:
            sort_rows(dev, kdt, keys, perm.ptr, 1, n, False, False)
            gather(dev, it, keys, perm.ptr, skeys.ptr, 1, n, 0, 0)
        else:
            sort_rows(dev, kdt, keys, skeys.ptr, 1, n, False, True)
    del keep
    ukeys, starts, num = C.alloc(be, n * it), C.alloc(be, n * 8), C.alloc(be, 8)
    C.unique_by_key(be, n, edt, skeys.ptr, iota.ptr, ukeys.ptr, starts.ptr, num.ptr)
    m = C.read_int64(be, num)
    values = _copy_leaf(be, ukeys, dt, m)
    index = inverse = counts = None
    if return_index:                    # the first occurrence: the stable sort's run head
        ibuf = C.alloc(be, m * 8)
        gather(CudaDev(be), 8, perm.ptr, starts.ptr, ibuf.ptr, 1, m, 0, 0)
        index = C.out_leaf(be, ibuf, C.I64, m)
    if return_counts:
        counts = _counts(be, starts, m, n)
    if return_inverse:
        inverse = _inverse(be, skeys, edt, perm, n)
    return values, index, inverse, counts


def _copy_leaf(be, src_buf, dt, m):
    buf = C.alloc(be, m * dt.itemsize)
    if m:
        be.write(C.out_leaf(be, buf, dt, m), C.out_leaf(be, src_buf, dt, m))
    return C.out_leaf(be, buf, dt, m)


def _counts(be, starts, m, n):
    """counts[i] = starts[i + 1] - starts[i], the last n - starts[m - 1]."""
    dev = be.device
    buf = C.alloc(be, m * 8)
    if m > 1:
        nxt = ir.leaf(starts, C.I64, (m - 1,), (1,), 1, dev)
        cur = ir.leaf(starts, C.I64, (m - 1,), (1,), 0, dev)
        be.write(C.out_leaf(be, buf, C.I64, m - 1), ir.ew("subtract", C.I64, (nxt, cur)))
    last = ir.leaf(starts, C.I64, (1,), (1,), m - 1, dev)
    be.write(ir.leaf(buf, C.I64, (1,), (1,), m - 1, dev),
             ir.ew("subtract", C.I64, (ir.scalar(n, C.I64, (1,), dev), last)))
    return C.out_leaf(be, buf, C.I64, m)


def _inverse(be, skeys, edt, perm, n):
    """inverse[perm[j]] = the run of sorted key j: an inclusive scan of the run heads
    (compared as `edt`, as the unique-by-key call did), scattered through the sort's
    permutation."""
    dev = be.device
    heads = C.alloc(be, n * 8)
    be.write(ir.leaf(heads, C.I64, (1,), (1,), 0, dev), ir.scalar(0, C.I64, (1,), dev))
    if n > 1:
        a = ir.leaf(skeys, edt, (n - 1,), (1,), 1, dev)
        b = ir.leaf(skeys, edt, (n - 1,), (1,), 0, dev)
        be.write(ir.leaf(heads, C.I64, (n - 1,), (1,), 1, dev),
                 ir.cast(ir.ew("not_equal", D.bool_, (a, b)), C.I64))
    runs = C.alloc(be, n * 8)
    C.inclusive_scan(be, n, C.I64, heads.ptr, runs.ptr, "cumsum")
    inv = C.alloc(be, n * 8)
    scatter(CudaDev(be), 8, runs.ptr, perm.ptr, 0, inv.ptr, n)
    return C.out_leaf(be, inv, C.I64, n)


# ------------------------------------------------------------------ kernels and listers

def kernel(kind: str, param) -> FixedKey:
    """The key of one kernel of render_sort."""
    return FixedKey(RS.source, (kind, param))


def _rows(shape):
    n = shape[-1] if shape else 1
    return L.prod(shape[:-1]), n


def _list_sort(node):
    dt = node.srcs[0].dtype
    rows, n = _rows(node.shape)
    if rows * n == 0 or use_cub_sort(dt, rows, n):
        return []
    ks = [kernel("tile", dt)]
    if n > RS.TILE:
        ks.append(kernel("merge", dt))
    return ks


def _list_search(node):
    return [kernel("search", node.srcs[0].dtype)] if L.prod(node.shape) else []


def _list_move(kind):
    def lister(node):
        return [kernel(kind, node.dtype.itemsize)] if L.prod(node.shape) else []
    return lister


def _count_key(node):
    """The kernel of a counting barrier (``bincount``, ``histogram_uniform``)."""
    w = len(node.srcs) > 1
    if node.op == "bincount":
        return kernel("bincount", (node.srcs[0].dtype, w))
    return kernel("hist", (node.srcs[0].dtype, node.arg[1], node.arg[2], w))


def _list_count(node):
    return [_count_key(node)] if L.prod(node.srcs[0].shape) else []


# ------------------------------------------------------------------ launch logic

def _pow2(n: int) -> int:
    p = 1
    while p < n:
        p <<= 1
    return p


def _grid(total: int, block: int) -> int:
    return max(1, min(-(-total // block), MAX_BLOCKS))


def sort_rows(dev, dt, x, out, rows: int, n: int, descending: bool, values: bool) -> None:
    """Sort `rows` contiguous rows of `n` elements at pointer `x` into `out` (values when
    `values`, else int64 indices within the row)."""
    if rows * n == 0:
        return
    desc = i32(1 if descending else 0)
    tile = dev.kernel(kernel("tile", dt))
    ov, oi = (out, 0) if values else (0, out)
    if n <= RS.TILE:
        P = _pow2(n)
        nblk = -(-rows // (RS.TILE // P))
        dev.launch(tile, min(nblk, MAX_BLOCKS), RS.TILE_THREADS,
                   [x, ov, oi, i64(rows), i64(n), i32(P), desc])
        return
    total = rows * n
    bufs = [(dev.alloc(total * dt.itemsize), dev.alloc(total * 8)) for _ in range(2)]
    tpr = -(-n // RS.TILE)
    dev.launch(tile, min(rows * tpr, MAX_BLOCKS), RS.TILE_THREADS,
               [x, bufs[0][0].ptr, bufs[0][1].ptr, i64(rows), i64(n), i32(RS.TILE), desc])
    merge = dev.kernel(kernel("merge", dt))
    cur, w = 0, RS.TILE
    while w < n:
        src, dst = bufs[cur], bufs[1 - cur]
        if 2 * w >= n:              # the last pass writes the result
            dv, di = (out, 0) if values else (0, out)
        else:
            dv, di = dst[0].ptr, dst[1].ptr
        dev.launch(merge, _grid(total, RS.THREADS), RS.THREADS,
                   [src[0].ptr, src[1].ptr, dv, di, i64(rows), i64(n), i64(w), desc])
        cur, w = 1 - cur, 2 * w
    dev.release(bufs)


def search(dev, dt, a, a_stride, sorter, na, v, out, nv, right: bool) -> None:
    if nv == 0:
        return
    k = dev.kernel(kernel("search", dt))
    dev.launch(k, _grid(nv, RS.THREADS), RS.THREADS,
               [a, i64(a_stride), sorter, i64(na), v, out, i64(nv), i32(1 if right else 0)])


def gather(dev, itemsize, x, idx, out, rows, m, xrs, irs) -> None:
    if rows * m == 0:
        return
    k = dev.kernel(kernel("gather", itemsize))
    dev.launch(k, _grid(rows * m, RS.THREADS), RS.THREADS,
               [x, idx, out, i64(rows), i64(m), i64(xrs), i64(irs)])


def scatter(dev, itemsize, x, idx, mask, out, n) -> None:
    if n == 0:
        return
    k = dev.kernel(kernel("scatter", itemsize))
    dev.launch(k, _grid(n, RS.THREADS), RS.THREADS, [x, idx, mask, out, i64(n)])


def count(dev, key, x, w, out, n, nbins, args=()) -> None:
    """Counts (int64), or float64 sums of the weights `w` (a pointer, 0 for none), per bin
    of the `n` items at `x` in [0, nbins) into `out`, by counting kernel `key`
    (``_count_key``; `args` after its common ones: the equal bins' scalars)."""
    dev.zero(out, nbins * 8)
    if n == 0:
        return
    if nbins <= RS.HIST_SMEM:       # (each block's sums then go to the result)
        grid = min(-(-n // (RS.THREADS * RS.HIST_ITEMS)), RS.HIST_BLOCKS)
    else:
        grid = _grid(n, RS.THREADS)
    dev.launch(dev.kernel(key), grid, RS.THREADS, [x, w, out, i64(n), i64(nbins), *args])


# ------------------------------------------------------------------ CUDA implementations

class CudaDev:
    """The device interface of the launch logic, over the CUDA backend."""

    def __init__(self, be) -> None:
        self.be = be

    def kernel(self, key):
        return self.be._misc_kernel(key)

    def launch(self, k, grid, block, args) -> None:
        self.be._go(k, grid, block, args)

    def alloc(self, nbytes):
        return self.be.pool.alloc(nbytes)

    def release(self, bufs) -> None:
        pass        # pool buffers are freed in stream order when dropped

    def zero(self, ptr, nbytes) -> None:
        be = self.be
        if nbytes:
            be._check(be._driver.cuMemsetD8Async(ptr, 0, nbytes, be.stream.handle))


def _cuda_sort(be, node, buf) -> None:
    rows, n = _rows(node.shape)
    if rows * n == 0:
        return
    src = be._contig(node.srcs[0])
    desc, values = bool(node.arg), node.op == "sort"
    if use_cub_sort(src.dtype, rows, n):
        # float keys arrive canonical (one NaN, +0.0 for argsort): _api.sorting.sorting.sort_last
        return cuda_cub.radix_sort_rows(be, src.dtype, _ptr(src), buf, rows, n, desc,
                                        values)
    sort_rows(CudaDev(be), src.dtype, _ptr(src), buf.ptr, rows, n, desc, values)


def _cuda_search(be, node, buf) -> None:
    nv = L.prod(node.shape)
    if nv == 0:
        return
    a, v = node.srcs[0], be._contig(node.srcs[1])
    na = a.shape[0]
    stride = a.strides[0] if na > 1 else 1
    sorter = _ptr(be._contig(node.srcs[2])) if len(node.srcs) > 2 else 0
    search(CudaDev(be), a.dtype, _ptr(a), stride, sorter, na, _ptr(v), buf.ptr, nv,
           node.arg == "right")


def _cuda_gather(be, node, buf) -> None:
    R, m = node.shape
    x, idx = be._contig(node.srcs[0]), be._contig(node.srcs[1])
    xrs = 0 if x.shape[0] == 1 else x.shape[1]
    irs = 0 if idx.shape[0] == 1 else m
    gather(CudaDev(be), node.dtype.itemsize, _ptr(x), _ptr(idx), buf.ptr, R, m, xrs, irs)


def _cuda_scatter(be, node, buf) -> None:
    x, idx = be._contig(node.srcs[0]), be._contig(node.srcs[1])
    mask = _ptr(be._contig(node.srcs[2])) if len(node.srcs) > 2 else 0
    scatter(CudaDev(be), node.dtype.itemsize, _ptr(x), _ptr(idx), mask, buf.ptr,
            x.shape[0])


def _cuda_count(be, node, buf) -> None:
    x = be._contig(node.srcs[0])
    w = _ptr(be._contig(node.srcs[1])) if len(node.srcs) > 1 else 0
    args = ()
    if node.op == "histogram_uniform":
        args = node.arg[3:-1] + (i32(node.arg[-1]),)
    count(CudaDev(be), _count_key(node), _ptr(x), w, buf.ptr, x.shape[0], node.shape[0],
          args)


barriers.register("sort", cuda=_cuda_sort, kernels=_list_sort)
barriers.register("argsort", cuda=_cuda_sort, kernels=_list_sort)
barriers.register("searchsorted", cuda=_cuda_search, kernels=_list_search)
barriers.register("sort_gather", cuda=_cuda_gather, kernels=_list_move("gather"))
barriers.register("sort_scatter", cuda=_cuda_scatter, kernels=_list_move("scatter"))
barriers.register("bincount", cuda=_cuda_count, kernels=_list_count)
barriers.register("histogram_uniform", cuda=_cuda_count, kernels=_list_count)
