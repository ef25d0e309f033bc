"""The bin of each value for ``histogram``'s CUDA implementation (``histograms.
histogram_by_ops``): equal bins (NumPy's scaled index with its edge corrections, one fused
expression, and the edges it is checked against; or, for float data, the arguments of the
kernel that bins and counts in one pass) or given edges (a binary search), and NumPy's
unsigned difference of the range."""
from __future__ import annotations

import weakref

import numpy as np

from ... import _dtypes as D
from ..._graph import ir
from ..._memstate import MISS, Memo
from .._common import wrap
from ..elementwise.elementwise import apply, astype, where
from ..sorting.sorting import search


def unsigned_subtract(a, b):
    """a - b of host NumPy scalars without signed-integer overflow (NumPy's helper)."""
    dt = D.result_type(a, b)
    unsigned = {D.int8: np.uint8, D.int16: np.uint16, D.int32: np.uint32, D.int64: np.uint64}
    if dt not in unsigned:
        return np.subtract(a, b, dtype=dt)
    return np.subtract(np.asarray(a, dtype=dt), np.asarray(b, dtype=dt), casting="unsafe",
                       dtype=unsigned[dt])


def _linspace_terms(first_edge, last_edge, nb):
    """(dtype, delta, step) of ``np.linspace(first_edge, last_edge, nb + 1)``: its working
    dtype and the host scalars its values are computed from."""
    dt = np.linspace(first_edge, last_edge, 2).dtype          # linspace's working dtype
    delta = np.subtract(np.asarray(last_edge), np.asarray(first_edge), dtype=dt)
    return dt, delta, delta / nb


def uniform_edges(k, first_edge, last_edge, nb, bin_type):
    """Edge `k` (an int64 array) of ``np.linspace(first_edge, last_edge, nb + 1,
    dtype=bin_type)``, computed per element as NumPy computes the whole array, so the bin
    edges and the bin-index corrections of ``_build_uniform_index`` read identical values."""
    dt, delta, step = _linspace_terms(first_edge, last_edge, nb)
    y = astype(k, dt)
    if step == 0:
        y = apply("multiply", apply("divide", y, dt.type(nb)), dt.type(delta))
    else:
        y = apply("multiply", y, dt.type(step))
    y = apply("add", y, dt.type(first_edge))
    y = where(apply("equal", k, nb), dt.type(last_edge), y)
    return astype(y, bin_type, copy=False)


def _build_uniform_index(a, first_edge, last_edge, nb, bin_type):
    """The bin of each value of `a` (int64; `nb` where it is outside [first, last]), as
    NumPy's equal-bins histogram computes it: scaled, truncated, then corrected against the
    edges on either side, the last bin closed.  One fused elementwise expression."""
    keep = apply("logical_and", apply("greater_equal", a, first_edge),
                 apply("less_equal", a, last_edge))
    ta = astype(a, bin_type, copy=False)
    # NumPy's dtypes step by step: (tmp_a - first_edge) / norm_denom * n_equal_bins, with
    # the host scalars strong or weak as they come (a float dtype throughout)
    d1 = D.result_type(bin_type, first_edge)
    f = apply("subtract", astype(ta, d1, copy=False), d1.type(first_edge))
    denom = unsigned_subtract(last_edge, first_edge)
    d2 = D.result_type(d1, denom)
    f = apply("divide", astype(f, d2, copy=False), d2.type(denom))
    d3 = D.result_type(d2, nb)
    f = apply("multiply", astype(f, d3, copy=False), d3.type(nb))
    k = astype(f, D.int64)
    k = where(apply("equal", k, nb), nb - 1, k)
    k = where(apply("less", ta, uniform_edges(k, first_edge, last_edge, nb, bin_type)),
              apply("subtract", k, 1), k)
    k1 = apply("add", k, 1)
    up = apply("logical_and",
               apply("greater_equal", ta, uniform_edges(k1, first_edge, last_edge, nb,
                                                          bin_type)),
               apply("not_equal", k, nb - 1))
    k = where(up, k1, k)
    return where(keep, k, nb)


_HIST_DTYPES = (D.float32, D.float64)


def uniform_counts(a, w, first_edge, last_edge, nb, bin_type):
    """The counts (int64) or float64 weight sums (`w`, real) of the equal-bins histogram
    of 1-D `a` in one kernel (the ``histogram_uniform`` barrier): each value's bin as
    ``_build_uniform_index`` gives it, computed per element from host scalars, each step
    in NumPy's dtype for it: the offset and the comparisons in a's (float32 or float64),
    the scaled offset in F, the edges in linspace's E (float32 values with a range of
    Python floats: F and E float64).  None where another dtype takes part, and where the
    range's width overflows (NumPy's own index is then out of bounds)."""
    T = a.dtype
    if T not in _HIST_DTYPES or bin_type != T or D.result_type(T, first_edge) != T:
        return None
    denom = unsigned_subtract(last_edge, first_edge)
    F = D.result_type(T, denom)
    E, delta, step = _linspace_terms(first_edge, last_edge, nb)
    if F not in _HIST_DTYPES or E not in _HIST_DTYPES or not np.isfinite(denom) or \
            not np.isfinite(step):      # (a width past the dtype's range: NaN offsets)
        return None
    t, f, e = T.type, F.type, E.type
    arg = (nb, F, E, t(first_edge), t(last_edge), f(denom), f(nb), e(first_edge), e(step),
           e(delta), e(nb), int(step == 0))
    srcs = (a._node,) if w is None else (a._node, ir.cast(w._node, D.float64))
    return wrap(ir.barrier("histogram_uniform", srcs, arg,
                           D.int64 if w is None else D.float64, (nb,)))


_INDEXES = Memo(8)      # equal-bins histograms: buffer, layout, bins -> weak index node


def uniform_index(a, first_edge, last_edge, nb, bin_type):
    """``_build_uniform_index``, reused for memory unchanged since an index of the same
    bins was built over it, while that index is still held (by the first histogram's lazy
    counts: NPBench azimint_hist's counts, then weight sums of one array; 62 nodes of host
    work each).  The node is held weakly: nothing stays alive for the reuse."""
    n = a._node
    if n.kind != ir.LEAF:
        return _build_uniform_index(a, first_edge, last_edge, nb, bin_type)
    key = (n.dtype, n.shape, n.strides, n.offset, _bits(first_edge), _bits(last_edge), nb,
           bin_type)
    ref = _INDEXES.get(n.buf, key)
    node = ref() if ref is not MISS else None
    if node is not None:
        return wrap(node)
    epoch = _INDEXES.epoch()
    idx = _build_uniform_index(a, first_edge, last_edge, nb, bin_type)
    _INDEXES.put(n.buf, key, weakref.ref(idx._node), epoch)
    return idx


def _bits(v):
    """An edge as a key that tells -0.0 from 0.0: its type and bytes."""
    v = np.asarray(v)
    return v.dtype, v.tobytes()


def edges_index(a, edges):
    """The bin of each value of `a` in the monotonic `edges` (int64; the number of bins
    where it is outside or NaN): edges[i] <= v < edges[i + 1], the last bin closed, which
    is what NumPy's counts from the sorted data give."""
    nb = edges.shape[0] - 1
    dt = D.promote(a.dtype, edges.dtype)
    av, ev = astype(a, dt, copy=False), astype(edges, dt, copy=False)
    k = apply("subtract", search(ev, av, "right"), 1)
    last = apply("logical_and", apply("equal", k, nb), apply("equal", av, ev[nb]))
    k = where(last, nb - 1, k)
    inside = apply("logical_and", apply("greater_equal", k, 0), apply("less", k, nb))
    return where(inside, k, nb)
