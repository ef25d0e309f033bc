"""Barrier ops of indexing: ``gather``, ``nonzero`` (lazy barrier nodes) and the in-place
``scatter`` and ``scatter_at`` (``ufunc.at``), each with its NumPy implementation (the CPU
backend and the reference meaning), its CUDA implementation and its kernel lister.

* ``gather``: srcs ``(src, off)``; ``out[i] = src.flat[off[i]]`` where ``off`` (int64, the
  output's shape) holds logical C-order flat indices into ``src`` (any strides).
* ``nonzero``: srcs ``(mask,)`` (bool), arg ``n`` (the number of set elements, known to the
  caller): the int64 C-order flat indices of the set elements, ascending.
* ``scatter``: in place, srcs ``(dest, off, val)``, arg ``(vstep, unique)``:
  ``dest.flat[off[i]] = val[i * vstep]`` (``vstep`` 0: one value for all; of repeated
  offsets the last wins; ``unique``: the caller knows there are none).
* ``scatter_at``: in place, srcs ``(dest, off, val)``, arg ``(ufunc name, nin, vstep,
  output dtype)``:
  ``dest.flat[off[i]] = op(dest.flat[off[i]], val[i * vstep])`` once per index, so duplicate
  indices accumulate; ``val`` holds the op's loop dtype.

In-place ops are not scheduled: ``realize.run_inplace`` runs them at once on materialized LEAF
nodes (the caller has flushed pending readers of the destination).
"""
from __future__ import annotations

import weakref

import numpy as np

from .. import _dtypes as D
from .._graph import layout as L
from .._graph.ir import barrier, leaf
from ..kernels import render_index as RI
from ..kernels.plan import FixedKey
from . import barriers, cuda_cub
from .cuda_memory import leaf_ptr as _ptr

GATHER, NONZERO, SCATTER, SCATTER_AT = "gather", "nonzero", "scatter", "scatter_at"


# ------------------------------------------------------------------ NumPy implementations

def _flat_target(dest: np.ndarray) -> np.ndarray:
    return dest if dest.ndim else dest.reshape(1)


def _cpu_gather(srcs, arg, dtype):
    src, off = srcs
    return np.take(src, off)


def _cpu_nonzero(srcs, arg, dtype):
    r = np.flatnonzero(srcs[0]).astype(np.int64)
    if r.size != arg:
        raise RuntimeError(f"nonzero: {r.size} set elements, {arg} expected (the mask "
                           f"changed between the count and the compaction)")
    return r


def _cpu_scatter(srcs, arg, dtype):
    dest, off, val = srcs
    d = _flat_target(dest)
    idx = np.unravel_index(off.reshape(-1), d.shape)
    d[idx] = val.reshape(-1) if arg[0] else val.reshape(-1)[0]
    return dest


def _cpu_scatter_at(srcs, arg, dtype):
    dest, off, val = srcs
    name, nin, vstep, _ = arg
    uf = getattr(np, name, None)
    if not isinstance(uf, np.ufunc):
        raise NotImplementedError(f"{name}.at has no NumPy ufunc to run on the CPU backend")
    d = _flat_target(dest)
    idx = np.unravel_index(off.reshape(-1), d.shape)
    if nin == 1:
        uf.at(d, idx)
    else:
        uf.at(d, idx, val.reshape(-1) if vstep else val.reshape(-1)[0])
    return dest


# ------------------------------------------------------------------ kernels (listers)

_LAYOUTS: dict = {}     # (shape, strides) -> (collapsed dims, their kernel arguments)


def _layout(node):
    """(the collapsed dims of LEAF `node`'s layout, their ``layout_args``), kept by layout:
    a loop gathers and scatters through the same few."""
    key = (node.shape, node.strides)
    r = _LAYOUTS.get(key)
    if r is None:
        if len(_LAYOUTS) > 4096:
            _LAYOUTS.clear()
        shape, strides = RI.collapse(node.shape, node.strides)
        r = _LAYOUTS[key] = (len(shape), RI.layout_args(shape, strides))
    return r


def _gather_kernels(node):
    return [_gather_key(node, _layout(node.srcs[0])[0])]


def _gather_key(node, k):
    """The gather kernel of `node` over a source of `k` collapsed dims."""
    it = node.dtype.itemsize
    dt = node.srcs[1].dtype
    return FixedKey(RI.gather_source, (it, k) if dt == D.int64 else (it, k, dt.char))


def _scatter_kernels(node):
    it = node.dtype.itemsize
    k = _layout(node.srcs[0])[0]
    return [FixedKey(RI.scatter_source, (it, k))] + [
        FixedKey(RI.scatter_last_source, (it, k, s)) for s in (False, True)]


def _at_dtypes(node):
    dest, _, val = node.srcs
    name, nin, _, odt = node.arg
    return name, nin, dest.dtype, val.dtype, odt


def _scatter_at_kernels(node):
    name, nin, adt, ldt, odt = _at_dtypes(node)
    k = _layout(node.srcs[0])[0]
    return [FixedKey(RI.scatter_at_source, (name, adt, ldt, odt, nin, k))]


_NZ_COUNT, _NZ_SCAN, _NZ_WRITE = (FixedKey(RI.nz_count_source, ()),
                                  FixedKey(RI.nz_scan_source, ()),
                                  FixedKey(RI.nz_write_source, ()))


def _nonzero_kernels(node):
    return [_NZ_COUNT, _NZ_SCAN, _NZ_WRITE]


# ------------------------------------------------------------------ CUDA implementations

def _grid(be, n: int) -> int:
    return max(1, min(L.ceil_div(n, RI.BLOCK), be.sm_count * 32))


def _kernel(be, node, lister, i=0):
    return be._misc_kernel(lister(node)[i])


def _cuda_gather(be, node, buf) -> None:
    src, off = node.srcs
    n = L.prod(node.shape)
    if n == 0:
        return
    off = be._contig(off)
    k, layout = _layout(src)
    args = [_ptr(src), _ptr(off), buf.ptr, np.int64(n)] + layout
    k = be._misc_kernel(_gather_key(node, k))
    be._go(k, _grid(be, n), RI.BLOCK, args)


# Scatters of more values than this find their duplicates by a CUB sort of the offsets
# (stable, so the last of equal offsets is the last assignment); smaller ones by comparing
# every pair, which needs no library build in a new process.
SCATTER_SORT_MIN = 1 << 14


def _cuda_scatter(be, node, buf) -> None:
    dest, off, val = node.srcs
    n = L.prod(off.shape)
    if n == 0:
        return
    off, val = be._contig(off), be._contig(val)
    kk, layout = _layout(dest)
    vstep, unique = node.arg
    if vstep == 0 or n == 1 or unique:  # one value, one element or no repeated offsets
        k = _kernel(be, node, _scatter_kernels)
        be._go(k, _grid(be, n), RI.BLOCK,
               [_ptr(dest), _ptr(off), _ptr(val), np.int64(n), np.int64(vstep)] + layout)
        return
    sorted_ = n >= SCATTER_SORT_MIN
    keep = []
    po, pp = _ptr(off), 0
    if sorted_:
        skeys, perm = be.pool.alloc(n * 8), be.pool.alloc(n * 8)
        iota = cuda_cub.iota(be, n)
        cuda_cub.radix_sort(be, n, np.int64, po, skeys.ptr, np.int64, iota.ptr, perm.ptr)
        keep += [skeys, perm, iota]
        po, pp = skeys.ptr, perm.ptr
    it = node.dtype.itemsize
    k = be._misc_kernel(FixedKey(RI.scatter_last_source, (it, kk, sorted_)))
    be._go(k, _grid(be, n), RI.BLOCK,
           [_ptr(dest), po, pp, _ptr(val), np.int64(n), np.int64(vstep)] + layout)
    del keep                        # freed in stream order, after the kernel


def _cuda_scatter_at(be, node, buf) -> None:
    dest, off, val = node.srcs
    name, nin, vstep, _ = node.arg
    n = L.prod(off.shape)
    if n == 0:
        return
    off, val = be._contig(off), be._contig(val)
    k = _kernel(be, node, _scatter_at_kernels)
    _, _, adt, ldt, _ = _at_dtypes(node)
    serial = RI.at_strategy(name, adt, ldt) == "serial"
    args = [_ptr(dest), _ptr(off), _ptr(val), np.int64(n), np.int64(vstep)] + \
        _layout(dest)[1]
    be._go(k, 1 if serial else _grid(be, n), RI.BLOCK, args)


def _cuda_tiles(be, mask):
    """The first two kernels of the compaction of LEAF bool `mask`: (its contiguous form,
    the per-tile starts and the total after them, the number of tiles, the grid)."""
    mask = be._contig(mask)
    n = L.prod(mask.shape)
    ntiles = L.ceil_div(n, RI.NZ_TILE)
    counts = be.pool.alloc((ntiles + 1) * 8)
    grid = max(1, min(ntiles, be.sm_count * 8))
    i64 = np.int64
    be._go(be._misc_kernel(_NZ_COUNT), grid, RI.BLOCK,
           [_ptr(mask), i64(n), counts.ptr, i64(ntiles)])
    be._go(be._misc_kernel(_NZ_SCAN), 1, RI.SCAN_BLOCK, [counts.ptr, i64(ntiles)])
    return mask, counts, ntiles, grid


# Compactions made by ``cuda_nonzero_node``: barrier node -> what ``_cuda_tiles`` gave
# (dropped with the node; its kernel then needs only the last step)
_COUNTED = weakref.WeakKeyDictionary()


def nonzero_node(mask, n: int):
    """The compaction of LEAF bool `mask`, of its `n` set elements (a NONZERO barrier)."""
    return barrier(NONZERO, (mask,), n, D.int64, (n,))


def cuda_nonzero_node(be, mask):
    """``nonzero_node`` with the count read from the compaction's own scan (one sync):
    its first two kernels run now, the last when the node is computed."""
    if L.prod(mask.shape) == 0:
        return nonzero_node(mask, 0)
    tiles = _cuda_tiles(be, mask)
    node = nonzero_node(mask, int(be.to_numpy(leaf(tiles[1], D.int64, (), (), tiles[2],
                                                    mask.device))))
    _COUNTED[node] = tiles
    return node


def _cuda_nonzero(be, node, buf) -> None:
    if node.shape[0] == 0:
        return
    tiles = _COUNTED.pop(node, None)
    mask, counts, ntiles, grid = tiles or _cuda_tiles(be, node.srcs[0])
    be._go(be._misc_kernel(_NZ_WRITE), grid, RI.BLOCK,
           [_ptr(mask), np.int64(L.prod(mask.shape)), counts.ptr, np.int64(ntiles), buf.ptr])
    del counts, tiles   # freed in stream order, after the kernels


barriers.register(GATHER, cpu=_cpu_gather, cuda=_cuda_gather, kernels=_gather_kernels)
barriers.register(NONZERO, cpu=_cpu_nonzero, cuda=_cuda_nonzero, kernels=_nonzero_kernels)
barriers.register(SCATTER, cpu=_cpu_scatter, cuda=_cuda_scatter, kernels=_scatter_kernels)
barriers.register(SCATTER_AT, cpu=_cpu_scatter_at, cuda=_cuda_scatter_at,
                  kernels=_scatter_at_kernels)
