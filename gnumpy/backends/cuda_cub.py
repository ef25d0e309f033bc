"""CUB (NVIDIA's ``cuda.compute``) on the CUDA backend: radix sort, inclusive scan and
unique-by-key over gnumpy's device memory, and the operations built on them: long sorts
and argsorts, long cumulative sums and products, and ``unique``.

Every call goes through ``cuda_libs``: built algorithms come from ``libs(be).cub(key, make)``
(memory and disk cache; the key names everything the build depends on), operands are
``DeviceArray(ptr, dtype, n)`` views of gnumpy buffers, the stream is gnumpy's current one,
and temporary storage comes from gnumpy's pool.  ``cuda.compute`` is imported only when a
call runs (CPU-only machines cannot import it).

NumPy's order from bit-ordering sorts: radix sort orders floats by their bits, so negative
NaNs would sort first and every NaN payload would be its own key.  Sort inputs reach CUB with
one NaN bit pattern (and +0.0 for -0.0 where indices or runs are produced): the sort API
builds that canonicalization as a fused elementwise pass into the sort's input
(``_api.sorting.sorting``); ``unique`` does it here.  CUB's radix sort is stable in both directions,
so descending sorts keep equal keys in their original order, as gnumpy's CPU semantics
(``sort_numpy.np_argsort``) do.  bool keys are sorted as their uint8 bytes.
"""
from __future__ import annotations

import numpy as np

from .. import _dtypes as D
from .._graph import ir
from .._graph import layout as L
from .._graph.ir import leaf
from .cuda_libs import DeviceArray, compute, libs
from .cuda_memory import leaf_ptr as _ptr

# Scans along lines at least SCAN_CUB_MIN_LEN long, when there are at most
# SCAN_CUB_MAX_LINES of them, run as one CUB inclusive scan per line; the rest keep
# gnumpy's scan kernel (one thread or one block per line), which wins for many short lines
# and is hundreds of times slower on one long line (bench/libs.py; docs/perf-notes.md,
# "Measurements behind the defaults").
SCAN_CUB_MIN_LEN = 1 << 14
SCAN_CUB_MAX_LINES = 64
# dtypes CUB's built-in PLUS / MULTIPLIES scan (OpKind) takes: complex has no built-in
# operator (a struct type), bool accumulation keeps gnumpy's kernel
SCAN_CUB_DTYPES = frozenset(np.dtype(t) for t in (
    np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
    np.float16, np.float32, np.float64))

CUB_SIZES_KEPT = 4096      # temporary-storage sizes remembered (``_run``)

UINT = {1: np.dtype(np.uint8), 2: np.dtype(np.uint16), 4: np.dtype(np.uint32),
         8: np.dtype(np.uint64)}
I64 = np.dtype(np.int64)
I32 = np.dtype(np.int32)


# ------------------------------------------------------------------ CUB calls

def _run(be, algo, **kw) -> None:
    """Take `algo`'s temporary storage from the pool and run on the current stream (the
    storage is freed in stream order after the call).  The storage's size is asked once
    per built algorithm and number of items (it depends on nothing else: CUB sizes it
    from the item count and the types the algorithm was built for) and kept on the
    backend's ``Libs``: the question costs the host as much as the run (~30 us)."""
    lb = libs(be)
    s = lb.cub_stream()
    sizes = lb.cub_sizes
    k = (id(algo), kw["num_items"])     # (built algorithms are kept: their ids hold)
    nbytes = sizes.get(k)
    if nbytes is None:
        nbytes = int(algo(temp_storage=None, stream=s, **kw))
        if len(sizes) >= CUB_SIZES_KEPT:
            sizes.clear()
        sizes[k] = nbytes
    tmp = lb.workspace(nbytes)
    algo(temp_storage=DeviceArray(tmp.ptr, np.uint8, max(nbytes, 1)), stream=s, **kw)
    del tmp


def radix_sort(be, n, kdt, keys_in, keys_out, vdt=None, vals_in=0, vals_out=0,
               descending=False) -> None:
    """Stable radix sort of `n` keys (pointers) into `keys_out`, carrying `vdt` values."""
    cc = compute()
    kdt = np.dtype(kdt)
    ki, ko = DeviceArray(keys_in, kdt, n), DeviceArray(keys_out, kdt, n)
    vi = vo = None
    if vdt is not None:
        vdt = np.dtype(vdt)
        vi, vo = DeviceArray(vals_in, vdt, n), DeviceArray(vals_out, vdt, n)
    order = cc.SortOrder.DESCENDING if descending else cc.SortOrder.ASCENDING
    key = ("radix_sort", kdt.str, None if vdt is None else vdt.str, bool(descending))
    algo = libs(be).cub(key, lambda: cc.make_radix_sort(
        d_in_keys=ki, d_out_keys=ko, d_in_values=vi, d_out_values=vo, order=order))
    _run(be, algo, d_in_keys=ki, d_out_keys=ko, d_in_values=vi, d_out_values=vo,
         num_items=n)


def inclusive_scan(be, n, dt, x, out, op: str) -> None:
    """out[i] = x[0] (+ or *) ... x[i] for `n` elements of `dt` (op 'cumsum' / 'cumprod')."""
    cc = compute()
    dt = np.dtype(dt)
    kind = cc.OpKind.PLUS if op == "cumsum" else cc.OpKind.MULTIPLIES
    di, do = DeviceArray(x, dt, n), DeviceArray(out, dt, n)
    algo = libs(be).cub(("inclusive_scan", dt.str, op), lambda: cc.make_inclusive_scan(
        d_in=di, d_out=do, op=kind, init_value=None))
    _run(be, algo, d_in=di, d_out=do, op=kind, init_value=None, num_items=n)


def unique_by_key(be, n, kdt, keys, items, out_keys, out_items, num_out) -> None:
    """The first key of every run of equal `kdt` keys (``==``) and its int64 item; the
    number of runs goes to the int64 at `num_out`."""
    cc = compute()
    kdt = np.dtype(kdt)
    k, i = DeviceArray(keys, kdt, n), DeviceArray(items, I64, n)
    ok, oi = DeviceArray(out_keys, kdt, n), DeviceArray(out_items, I64, n)
    ns = DeviceArray(num_out, I64, 1)
    eq = cc.OpKind.EQUAL_TO
    algo = libs(be).cub(("unique_by_key", kdt.str, I64.str, I64.str), lambda: (
        cc.make_unique_by_key(d_in_keys=k, d_in_items=i, d_out_keys=ok, d_out_items=oi,
                              d_out_num_selected=ns, op=eq)))
    _run(be, algo, d_in_keys=k, d_in_items=i, d_out_keys=ok, d_out_items=oi,
         d_out_num_selected=ns, op=eq, num_items=n)


# ------------------------------------------------------------------ helpers

def alloc(be, nbytes):
    return be.pool.alloc(max(int(nbytes), 1))


def iota(be, n, dt=I64):
    """A buffer holding 0 .. n-1 of integer dtype `dt`."""
    buf = alloc(be, n * dt.itemsize)
    node = ir.axis_iota((n,), 0, be.device)
    be.write(leaf(buf, dt, (n,), (1,), 0, be.device), node if dt == I64 else ir.cast(node, dt))
    return buf


def read_int64(be, buf) -> int:
    """The int64 at device buffer `buf` (one device-to-host sync)."""
    out = np.zeros(1, np.int64)
    be._check(be._driver.cuMemcpyDtoHAsync(out.ctypes.data, buf.ptr, 8, be.stream.handle))
    be.stream.sync()
    return int(out[0])


def out_leaf(be, buf, dt, n):
    return leaf(buf, np.dtype(dt), (n,), (1,), 0, be.device)


def canonical(node, zeros=True):
    """IR of float keys in NumPy's order for CUB's bit-ordering sort: every NaN one bit
    pattern (NaNs sort last, in their order), and with `zeros` +0.0 for -0.0."""
    dt, shape, dev = node.dtype, node.shape, node.device
    k = ir.where(ir.ew("isnan", D.bool_, (node,)), ir.scalar(np.nan, dt, shape, dev), node)
    if not zeros:
        return k
    zero = ir.scalar(0, dt, shape, dev)
    return ir.where(ir.ew("equal", D.bool_, (k, zero)), zero, k)


def flat_keys(be, x):
    """(pointer, keep-alive) of `x` flattened in C order, contiguous, floats canonical."""
    n = L.prod(x.shape)
    if x.dtype.kind != "f" and L.is_c_contiguous(x.shape, x.strides):
        return _ptr(x), x
    v = x if x.ndim == 1 else ir.reshape(x, (n,))
    if x.dtype.kind == "f":
        v = canonical(v)
    buf = alloc(be, n * x.dtype.itemsize)
    be.write(out_leaf(be, buf, x.dtype, n), v)
    return buf.ptr, buf


# ------------------------------------------------------------------ sorting rows

def radix_sort_rows(be, dt, x, out_buf, rows, n, descending, values) -> None:
    """Sort `rows` contiguous rows of `n` elements at pointer `x` into buffer `out_buf`:
    the values (`values`) or int64 indices within each row.  One CUB call per row.

    Indices below 2**31 are sorted as int32 and widened after (one elementwise pass): each
    radix pass then moves 8 bytes an item instead of 12 (argsort of 2**24 float32 on the
    H200: the passes ran 235 us each with int64 indices, against CuPy's 168 us)."""
    kdt = UINT[1] if dt.kind == "b" else dt
    it = dt.itemsize
    out = out_buf.ptr
    if values:
        for r in range(rows):
            radix_sort(be, n, kdt, x + r * n * it, out + r * n * it, descending=descending)
        return
    idt = I32 if n < 2 ** 31 else I64
    seq = iota(be, n, idt)
    keys = alloc(be, n * it)           # the sorted keys, not needed
    tmp = alloc(be, rows * n * 4) if idt == I32 else None
    for r in range(rows):
        dst = tmp.ptr + r * n * 4 if tmp is not None else out + r * n * 8
        radix_sort(be, n, kdt, x + r * n * it, keys.ptr, idt, seq.ptr, dst, descending)
    if tmp is not None:
        m = rows * n
        be.write(leaf(out_buf, I64, (m,), (1,), 0, be.device),
                 ir.cast(leaf(tmp, I32, (m,), (1,), 0, be.device), I64))


# ------------------------------------------------------------------ scans

def use_cub_scan(dt, lines: int, length: int) -> bool:
    """Whether a scan of `lines` lines of `length` elements goes to CUB."""
    return (np.dtype(dt) in SCAN_CUB_DTYPES and length >= SCAN_CUB_MIN_LEN
            and lines <= SCAN_CUB_MAX_LINES)


def scan_lines(be, op, src, buf, outer, length, inner, include_initial) -> None:
    """cumsum / cumprod of the C-contiguous LEAF `src` (outer, length, inner) along the
    middle axis into `buf` ((outer, length [+ 1], inner), the identity first with
    `include_initial`): one CUB scan per line; lines strided in memory (inner > 1) are
    transposed to rows and back around the scans."""
    dt, dev = src.dtype, be.device
    it = dt.itemsize
    shift = 1 if include_initial else 0
    lo = length + shift
    lines = outer * inner
    x, xkeep = _ptr(src), None
    ybuf = buf
    if inner > 1:
        xkeep = alloc(be, lines * length * it)
        view = leaf(src.buf, dt, (outer, inner, length), (length * inner, 1, inner),
                    src.offset, dev)
        be.write(leaf(xkeep, dt, (outer, inner, length), L.c_strides((outer, inner, length)),
                      0, dev), view)
        x = xkeep.ptr
        ybuf = alloc(be, lines * lo * it)
    for line in range(lines):
        inclusive_scan(be, length, dt, x + line * length * it,
                       ybuf.ptr + (line * lo + shift) * it, op)
    if include_initial:
        ident = 0 if op == "cumsum" else 1
        be.write(leaf(ybuf, dt, (lines,), (lo,), 0, dev), ir.scalar(ident, dt, (lines,), dev))
    if inner > 1:
        shape = (outer, inner, lo)
        be.write(leaf(buf, dt, shape, (lo * inner, 1, inner), 0, dev),
                 leaf(ybuf, dt, shape, L.c_strides(shape), 0, dev))
