"""The CPU backend's sorting, searching and counting: the barrier ops of ``sort_ops``
(``sort``, ``argsort``, ``searchsorted``, ``sort_gather``, ``sort_scatter``, ``bincount``)
and the library calls (``_api/libcall``) of ``unique``, ``histogram`` and ``bincount``,
each NumPy's own routine called once (``np.sort``, ``np.unique``, ``np.histogram``,
``np.bincount``; argsort and float sorts keep equal elements in input order, as CUDA's
radix sorts do, at about NumPy's speed).
"""
from __future__ import annotations

import numpy as np

from . import barriers


def np_argsort(x: np.ndarray, descending: bool) -> np.ndarray:
    """Stable argsort along the last axis; descending keeps equal elements in order."""
    if not descending:
        return _stable_argsort(x)
    n = x.shape[-1]
    return (n - 1) - np.flip(_stable_argsort(np.flip(x, -1)), -1)


# dtypes whose elements map to 32-bit keys that order as their values (``_packed_argsort``)
_PACKED = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.int32, np.uint32))


def _packed_argsort(x: np.ndarray) -> np.ndarray:
    """Stable argsort along the last axis (under 2**32 long) of float16, float32, int32 or
    uint32 `x`: each element's 32-bit key, ordered as NumPy orders the values (-0.0 equal
    to +0.0, every NaN equal and last), in the high word of a uint64 and its index in the
    low word; one ``np.sort`` of those (NumPy's vectorized sort) orders equal values by
    index.  2**22 float32 on this project's 2-core machine: 109 ms, against 286 ms for
    NumPy's default (unstable) argsort and 719 ms for its stable one."""
    n = x.shape[-1]
    if x.dtype.kind == "f":
        f = x.astype(np.float32, copy=False) + np.float32(0)     # a new array; -0.0 -> +0.0
        nan = f != f
        if nan.any():
            f[nan] = np.float32(np.nan)                         # one NaN: 0x7fc00000
        u = f.view(np.uint32)
        u = np.where(u >> np.uint32(31), ~u, u | np.uint32(0x80000000))
    elif x.dtype.kind == "i":
        u = x.view(np.uint32) ^ np.uint32(0x80000000)
    else:
        u = x
    key = u.astype(np.uint64) << np.uint64(32)
    key |= np.arange(n, dtype=np.uint64)
    key.sort(axis=-1)
    return (key & np.uint64(0xFFFFFFFF)).astype(np.intp)


def _stable_argsort(x: np.ndarray) -> np.ndarray:
    """``np.argsort(x, axis=-1, kind="stable")``.  32-bit and float16 values: one sort of
    packed keys (``_packed_argsort``).  Other real floats and integers: NumPy's default
    argsort, then the indices of each run of equal elements (NaNs included) put in
    increasing order, which is the stable order (with few ties; more than an eighth of the
    elements tied: the stable argsort, as for integers of 16 bits or less, which NumPy
    radix-sorts stably)."""
    n = x.shape[-1] if x.ndim else 0
    if x.dtype in _PACKED and 2 <= n < 1 << 32:
        return _packed_argsort(x)
    if x.dtype.kind not in "fiu" or n < 2 or (x.dtype.kind != "f" and x.dtype.itemsize <= 2):
        return np.argsort(x, axis=-1, kind="stable")
    idx = np.argsort(x, axis=-1)
    s = np.sort(x, axis=-1).reshape(-1, n)      # x's values in idx's order, equal as values
    eq = s[:, 1:] == s[:, :-1]
    if x.dtype.kind == "f" and (s[:, -1] != s[:, -1]).any():
        eq |= (s[:, 1:] != s[:, 1:]) & (s[:, :-1] != s[:, :-1])     # NaNs sort last, tied
    tie = np.zeros(s.shape, bool)
    tie[:, 1:] = eq
    tie[:, :-1] |= eq
    r, c = np.nonzero(tie)
    if len(r) > s.size // 8:
        return np.argsort(x, axis=-1, kind="stable")
    if len(r):
        i2 = idx.reshape(-1, n)
        starts = (c == 0) | ~eq[r, np.maximum(c - 1, 0)]
        order = np.lexsort((i2[r, c], np.cumsum(starts)))
        i2[r, c] = i2[r, c][order]
    return idx


# Rows of a float sort whose ties are fixed up one by one (_cpu_sort); more: NumPy's stable
# sort for the whole array
FIX_ROWS_MAX = 256


def _cpu_sort(srcs, arg, dt):
    x = srcs[0]
    if arg:
        return np.take_along_axis(x, np_argsort(x, True), -1)
    if x.dtype.kind in "biu":
        return np.sort(x, axis=-1)      # equal values are the same bits: order unseen
    if x.dtype.kind != "f" or not x.size or x.dtype.itemsize == 2:
        return np.sort(x, axis=-1, kind="stable")   # (float16: NumPy 2.4's SIMD sort
    return _stable_float_sort(x)                    # puts -inf after finite values on
                                                    # AVX-512 hosts; its radix sort does not)


def _stable_float_sort(x: np.ndarray) -> np.ndarray:
    """``np.sort(x, axis=-1, kind="stable")`` for floats from NumPy's default sort (its
    SIMD sort: 42 ms against 640 ms for 2**22 float32 on this project's CPU machine).  The
    two differ only in the order of values that compare equal with other bits: -0.0 and
    +0.0 (one run of zeros) and NaNs (the last run); each row holding them gets those runs
    back in input order."""
    x = np.ascontiguousarray(x)         # (rows viewed in place below)
    out = np.sort(x, axis=-1)
    n = x.shape[-1]
    xr, orr = x.reshape(-1, n), out.reshape(-1, n)
    last = orr[:, -1]
    special = last != last                          # a NaN sorts last
    zero = out.dtype.type(0)    # (a Python 0 would make searchsorted cast the whole row to
                                # float64 first: 5 ms of a 2**22 float32 sort's 38)
    if len(orr) == 1:
        i = int(np.searchsorted(orr[0], zero))
        special |= i < n and orr[0, i] == 0
    else:
        special |= (orr == 0).any(axis=1)
    rows = np.flatnonzero(special)
    if len(rows) > FIX_ROWS_MAX:
        return np.sort(x, axis=-1, kind="stable")
    for r in rows:
        row, o = xr[r], orr[r]
        zeros = row[row == 0]
        if zeros.size:
            lo = int(np.searchsorted(o, zero, side="left"))
            o[lo:lo + zeros.size] = zeros
        nans = row[row != row]
        if nans.size:
            o[n - nans.size:] = nans
    return out


def _cpu_scatter(srcs, arg, dt):
    x, idx = srcs[0], srcs[1]
    out = np.zeros(arg, dtype=dt)
    if len(srcs) > 2:
        m = srcs[2]
        x, idx = x[m], idx[m]
    out[idx] = x
    return out


def _cpu_bincount(srcs, arg, dt):
    w = srcs[1] if len(srcs) > 1 else None
    return np.bincount(srcs[0], weights=w, minlength=arg + 1)[:arg]


def _cpu_hist_uniform(srcs, arg, dt):
    """The equal-bins histogram barrier in NumPy: the CUDA kernel's bin of each value
    (``render_sort.gn_hist_bin``), step by step in its dtypes, then its counts."""
    x = srcs[0]
    nb, F, E, lo, hi, denom, fnb, first, step, delta, enb, step0 = arg
    with np.errstate(all="ignore"):
        keep = (x >= lo) & (x <= hi)
        x = x[keep]
        k = ((x - lo).astype(F) / denom * fnb).astype(np.int64)
        k[k == nb] = nb - 1

        def edge(i):
            y = i.astype(E)
            return (y / enb * delta + first if step0 else y * step + first).astype(x.dtype)
        k -= x < edge(k)
        k += (k != nb - 1) & (x >= edge(k + 1))
    w = srcs[1][keep] if len(srcs) > 1 else None
    return np.bincount(k, weights=w, minlength=nb)[:nb].astype(dt)


barriers.register("sort", cpu=_cpu_sort)
barriers.register("argsort", cpu=lambda srcs, arg, dt: np_argsort(srcs[0], arg))
barriers.register("searchsorted", cpu=lambda srcs, arg, dt: np.searchsorted(
    srcs[0], srcs[1], side=arg, sorter=srcs[2] if len(srcs) > 2 else None))
barriers.register("sort_gather", cpu=lambda srcs, arg, dt: np.take_along_axis(
    srcs[0], srcs[1], -1))
barriers.register("sort_scatter", cpu=_cpu_scatter)
barriers.register("bincount", cpu=_cpu_bincount)
barriers.register("histogram_uniform", cpu=_cpu_hist_uniform)


# ------------------------------------------------------------------ library calls (CPU)

def np_unique(x, *, return_index=False, return_inverse=False, return_counts=False,
              equal_nan=True, axis=None):
    """``np.unique`` as a 4-tuple (values, index, inverse, counts), None where not asked."""
    r = np.unique(x, return_index=return_index, return_inverse=return_inverse,
                  return_counts=return_counts, axis=axis, equal_nan=equal_nan)
    r = iter(r if isinstance(r, tuple) else (r,))
    vals = next(r)
    return (vals,) + tuple(next(r) if f else None
                           for f in (return_index, return_inverse, return_counts))


def np_histogram(a, *rest, uniform=None, weighted=False):
    """The counts of ``np.histogram``: `rest` is (weights, edges) as present; `uniform` is
    (first_edge, last_edge, bins) for equal bins, else the edges are given."""
    w = rest[0] if weighted else None
    if uniform is not None:
        first, last, nb = uniform
        return (np.histogram(a, nb, range=(first, last), weights=w)[0],)
    return (np.histogram(a, rest[-1], weights=w)[0],)


def np_bincount(x, *rest, minlength=0):
    return (np.bincount(x, weights=rest[0] if rest else None, minlength=minlength),)
