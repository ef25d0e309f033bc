"""Counting and binning: bincount, digitize, histogram, histogram_bin_edges.

``bincount`` and the counts of ``histogram`` are library calls (``libcall``):
``np.bincount`` / ``np.histogram`` on the CPU backend (``backends/sort_numpy``).  On CUDA,
equal bins of float32 or float64 data compared with its range in its own dtype are one
kernel (the ``histogram_uniform`` barrier: each value's bin, NumPy's scaled index with its
edge corrections, and its count or weight sum); otherwise gnumpy ops give each value its bin
(one fused elementwise expression of the same steps, or a binary search in given edges)
and the ``bincount`` barrier counts them (counts or float64 weight sums with atomics).
The edges of equal bins are NumPy's linspace: computed on the host (up to ``_HOST_EDGES``
bins) or per element by the expression the corrections use, which gives the same values.
Syncs: the size of bincount, the data range of histograms with automatic range (one
transfer for min and max, remembered for memory nothing has written since), the checks
of given bins.
"""
from __future__ import annotations

import operator
import warnings

import numpy as np

from ... import _dtypes as D
from ..._graph import ir
from ..._memstate import MISS, Memo
from ...backends import sort_numpy
from .. import libcall
from .._common import as_node, fetch_scalars, is_array, wrap
from ..creation.creation import asarray, zeros
from ..elementwise.elementwise import apply, astype, where
from ..shape.manipulation import ravel, reshape
from .reductions import any as any_, argmax, max as max_, min as min_, std, mean
from ..sorting.sorting import searchsorted, take1d, compress
from ..._graph.realize import materialize
from .statistics import percentile
from .binning import edges_index, uniform_counts, uniform_edges, uniform_index, unsigned_subtract


def _arr(x):
    return x if is_array(x) else wrap(as_node(x))


def _host(v):
    """A host NumPy scalar of `v` (gnumpy arrays are fetched: small metadata)."""
    return v.get()[()] if is_array(v) else v



# ------------------------------------------------------------------ counting

def _bincount(idx, w, nbins):
    """Counts (int64) or float64 weight sums of the integer bins `idx`, each in [0, nbins]:
    `nbins` marks values not counted (the ``bincount`` barrier: on CUDA, atomics per block
    in shared memory, then into the result).  Bins in memory as int32 or int64 are read
    as they are; others are computed, or converted, as int32 where nbins allows."""
    n = idx._node
    if n.kind == ir.EW and n.op == "astype" and n.srcs[0].kind == ir.LEAF and \
            n.srcs[0].dtype.kind in "iu" and n.srcs[0].dtype.itemsize <= n.dtype.itemsize:
        n = n.srcs[0]       # (bincount's own widening of the values: its source is read)
    keep = n.kind == ir.LEAF and n.dtype in (D.int32, D.int64)
    srcs = (n if keep else ir.cast(n, D.int32 if nbins < 2**31 - 1 else D.int64),)
    if w is not None:
        srcs += (ir.cast(w._node, D.float64),)
    return wrap(ir.barrier("bincount", srcs, nbins, D.int64 if w is None else D.float64,
                           (nbins,)))


def _evaluate(*arrays):
    materialize([a._node for a in arrays])


def bincount_by_ops(x, w=None, minlength=0):
    """bincount of non-empty 1-D integer `x` from gnumpy ops (the CUDA implementation):
    the range check and the size cost one sync."""
    xi = astype(x, D.int64, copy=False)
    lo, hi = min_(xi), max_(xi)
    _evaluate(lo, hi)
    if int(lo) < 0:
        raise ValueError("'list' argument must have no negative elements")
    return _bincount(xi, w, max(int(hi) + 1, minlength))


def bincount(x, /, weights=None, minlength=0):
    """Number of occurrences of each value in non-negative int array `x` (or the sums of
    `weights` per value); the result has max(x) + 1 bins, at least `minlength`.

    # Note: weighted sums accumulate with float64 atomics on the GPU (the order of the
    # additions, hence the last bits, may vary); one device-to-host sync for the size.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.bincount(gp.asarray([0, 1, 1, 3]))
    array([1, 2, 0, 1])
    """
    if minlength is None:
        raise TypeError("use 0 instead of None for minlength")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    if is_array(x) or isinstance(x, np.ndarray):
        xa = _arr(x)
    else:       # NumPy converts sequences to intp unsafely; an empty list is allowed
        h = np.asarray(x)
        xa = _arr(h.astype(np.int64) if h.dtype.kind in "fb" or h.size == 0 else h)
    if xa.ndim == 0:
        raise ValueError("object of too small depth for desired array")
    if xa.ndim > 1:
        raise ValueError("object too deep for desired array")
    if xa.dtype.kind not in "biu":
        raise TypeError(f"Cannot cast array data from {xa.dtype!r} to dtype('int64') "
                        f"according to the rule 'safe'")
    if xa.shape[0] == 0:        # (NumPy ignores the weights of no values: int64 zeros)
        return zeros((minlength,), dtype=D.int64, device=xa.device)
    w = None
    if weights is not None:
        w = _arr(weights)
        if w.dtype.kind == "c":
            raise TypeError(f"Cannot cast array data from {w.dtype!r} to dtype('float64') "
                            f"according to the rule 'safe'")
        if w.ndim != 1:
            raise ValueError("object too deep for desired array" if w.ndim else
                             "object of too small depth for desired array")
        if w.shape[0] != xa.shape[0]:
            raise ValueError("The weights and list don't have the same length.")
    srcs = [xa] + ([] if w is None else [w])
    r = libcall.call("bincount", srcs, cpu=sort_numpy.np_bincount, minlength=minlength)
    return bincount_by_ops(*srcs, minlength=minlength) if r is NotImplemented else r[0]


def _monotonicity(b):
    """NumPy's _monotonicity of 1-D bins (as float64): 1, -1 or 0 (one sync)."""
    n = b.shape[0]
    if n < 2:
        return 1
    f = astype(b, D.float64)
    ne = apply("not_equal", f, f[0])
    i = argmax(ne)                        # the first value differing from bins[0]
    up = apply("less", f[0], take1d(f, reshape(i, (1,)))[0])
    after = apply("greater", wrap(ir.axis_iota((n - 1,), 0, f.device)), apply("subtract", i, 1))
    bad_inc = any_(apply("logical_and", after, apply("greater", f[:-1], f[1:])))
    bad_dec = any_(apply("logical_and", after, apply("less", f[:-1], f[1:])))
    mono = where(up, where(bad_inc, 0, 1), where(bad_dec, 0, -1))
    return int(where(any_(ne), mono, 1))


def digitize(x, bins, right=False):
    """Indices of the bins (monotonic `bins`) each value of `x` falls in.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.digitize(gp.asarray([0.2, 6.4, 3.0]), gp.asarray([0.0, 1.0, 2.5, 4.0]))
    array([1, 4, 3])
    """
    x, b = _arr(x), _arr(bins)
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    if b.ndim == 0:
        raise ValueError("object of too small depth for desired array")
    if b.ndim > 1:
        raise ValueError("object too deep for desired array")
    if b.dtype.kind == "c":     # (NumPy's monotonicity check reads the bins as float64)
        raise TypeError(f"Cannot cast array data from {b.dtype!r} to dtype('float64') "
                        f"according to the rule 'safe'")
    mono = _monotonicity(b)
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    if mono == -1:
        return apply("subtract", b.shape[0], searchsorted(b[::-1], x, side=side))
    return searchsorted(b, x, side=side)


# ------------------------------------------------------------------ histograms

def _ptp(x):
    lo, hi = min_(x), max_(x)
    _evaluate(lo, hi)
    return unsigned_subtract(hi.get()[()], lo.get()[()])


def _std(x):
    return std(x).get()[()]


# NumPy's bin width estimators (host arithmetic on a few device reductions)
def _bin_sqrt(x, range_):
    return _ptp(x) / np.sqrt(x.size)


def _bin_sturges(x, range_):
    return _ptp(x) / (np.log2(x.size) + 1.0)


def _bin_rice(x, range_):
    return _ptp(x) / (2.0 * x.size ** (1.0 / 3))


def _bin_scott(x, range_):
    return (24.0 * np.pi ** 0.5 / x.size) ** (1.0 / 3.0) * _std(x)


def _bin_stone(x, range_):
    n = x.size
    ptp_x = _ptp(x)
    if n <= 1 or ptp_x == 0:
        return 0

    def jhat(nbins):
        hh = ptp_x / nbins
        p_k = apply("divide", histogram(x, bins=nbins, range=range_)[0], n)
        # (p_k . p_k a float64 scalar, as NumPy's dot gives: a Python float would be weak
        # against a float16 width, and the quotient overflow in float16)
        return (2 - (n + 1) * apply("multiply", p_k, p_k).sum().get()[()]) / hh
    upper = max(100, int(np.sqrt(n)))
    nbins = min(range(1, upper + 1), key=jhat)
    if nbins == upper:
        warnings.warn("The number of bins estimated may be suboptimal.", RuntimeWarning,
                      stacklevel=3)
    return ptp_x / nbins


def _bin_doane(x, range_):
    if x.size > 2:
        sg1 = np.sqrt(6.0 * (x.size - 2) / ((x.size + 1.0) * (x.size + 3)))
        sigma = _std(x)
        if sigma > 0.0:
            temp = apply("divide", apply("subtract", x, mean(x)), sigma)
            g1 = mean(apply("power", temp, 3)).get()[()]
            return _ptp(x) / (1.0 + np.log2(x.size) + np.log2(1.0 + np.absolute(g1) / sg1))
    return 0.0


def _bin_fd(x, range_):
    p75, p25 = percentile(x, [75, 25]).get()
    return 2.0 * np.subtract(p75, p25) * x.size ** (-1.0 / 3.0)


def _bin_auto(x, range_):
    fd_bw = _bin_fd(x, range_)
    sturges_bw = _bin_sturges(x, range_)
    sqrt_bw = _bin_sqrt(x, range_)
    return min(max(fd_bw, sqrt_bw / 2), sturges_bw)


_BIN_SELECTORS = {"stone": _bin_stone, "auto": _bin_auto, "doane": _bin_doane, "fd": _bin_fd,
                  "rice": _bin_rice, "scott": _bin_scott, "sqrt": _bin_sqrt,
                  "sturges": _bin_sturges}


def _ravel_and_check_weights(a, weights):
    a = _arr(a)
    if a.dtype == D.bool_:
        warnings.warn(f"Converting input from {a.dtype} to {np.uint8} for compatibility.",
                      RuntimeWarning, stacklevel=3)
        a = astype(a, D.uint8)
    w = None
    if weights is not None:
        w = _arr(weights)
        if w.shape != a.shape:
            raise ValueError("weights should have the same shape as a.")
        w = ravel(w)
    return ravel(a), w


def _get_outer_edges(a, range_):
    if range_ is not None:
        first_edge, last_edge = (_host(v) for v in range_)
        if first_edge > last_edge:
            raise ValueError("max must be larger than min in range parameter.")
        if not (np.isfinite(first_edge) and np.isfinite(last_edge)):
            raise ValueError(f"supplied range of [{first_edge}, {last_edge}] is not finite")
    elif a.size == 0:
        first_edge, last_edge = 0, 1
    else:
        first_edge, last_edge = _data_range(a)
        if not (np.isfinite(first_edge) and np.isfinite(last_edge)):
            raise ValueError(f"autodetected range of [{first_edge}, {last_edge}] is not finite")
    if first_edge == last_edge:
        first_edge = first_edge - 0.5
        last_edge = last_edge + 0.5
    return first_edge, last_edge


_RANGES = Memo(64)          # data of histograms: buffer, layout -> (min, max)
_HOST_EDGES = 1 << 16       # equal bins up to this many: edges from NumPy's linspace


def _data_range(a):
    """(min, max) of non-empty `a` as host scalars of its dtype: one transfer for both,
    and none for memory whose range was read since it was last written (azimint's
    histograms of one array, counts then weight sums)."""
    n = a._node
    key = (n.dtype, n.shape, n.strides, n.offset) if n.kind == ir.LEAF else None
    if key is not None:
        v = _RANGES.get(n.buf, key)
        if v is not MISS:
            return v
    epoch = _RANGES.epoch()
    vals = fetch_scalars([min_(a)._node, max_(a)._node])
    v = (vals[0], vals[1])
    if key is not None:
        _RANGES.put(n.buf, key, v, epoch)
    return v


def _get_bin_edges(a, bins, range_, weights):
    n_equal_bins = None
    if isinstance(bins, str):
        if bins not in _BIN_SELECTORS:
            raise ValueError(f"{bins!r} is not a valid estimator for `bins`")
        if weights is not None:
            raise TypeError("Automated estimation of the number of bins is not supported for "
                            "weighted data")
        first_edge, last_edge = _get_outer_edges(a, range_)
        if range_ is not None:
            keep = apply("logical_and", apply("greater_equal", a, first_edge),
                         apply("less_equal", a, last_edge))
            if not bool(keep.all()):
                a = compress(a, keep)
        if a.size == 0:
            n_equal_bins = 1
        else:
            width = _BIN_SELECTORS[bins](a, (first_edge, last_edge))
            if width:
                if a.dtype.kind in "iu" and width < 1:
                    width = 1
                delta = unsigned_subtract(last_edge, first_edge)
                n_equal_bins = int(np.ceil(delta / width))
            else:
                n_equal_bins = 1
    elif np.ndim(bins) == 0:
        try:
            n_equal_bins = operator.index(_host(bins))
        except TypeError as e:
            raise TypeError("`bins` must be an integer, a string, or an array") from e
        if n_equal_bins < 1:
            raise ValueError("`bins` must be positive, when an integer")
        first_edge, last_edge = _get_outer_edges(a, range_)
    elif np.ndim(bins) == 1:
        edges = _arr(bins)
        if edges.shape[0] > 1 and bool(any_(apply("greater", edges[:-1], edges[1:]))):
            raise ValueError("`bins` must increase monotonically, when an array")
        return edges, None
    else:
        raise ValueError("`bins` must be 1d, when an array")
    bin_type = D.result_type(first_edge, last_edge, a.dtype)
    if bin_type.kind in "iu":
        bin_type = D.result_type(bin_type, 1.0)
    if n_equal_bins <= _HOST_EDGES:     # NumPy's edges and check, on the host: no sync
        e = np.linspace(first_edge, last_edge, n_equal_bins + 1, endpoint=True,
                        dtype=bin_type)
        bad = bool(np.any(e[:-1] >= e[1:]))
        edges = None if bad else asarray(e, device=a.device)
    else:
        k = wrap(ir.axis_iota((n_equal_bins + 1,), 0, a.device))
        edges = uniform_edges(k, first_edge, last_edge, n_equal_bins, bin_type)
        bad = bool(any_(apply("greater_equal", edges[:-1], edges[1:])))
    if bad:
        raise ValueError(f"Too many bins for data range. Cannot create {n_equal_bins} "
                         f"finite-sized bins.")
    return edges, (first_edge, last_edge, n_equal_bins)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """The bin edges `histogram` would use.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.histogram_bin_edges(gp.asarray([0.0, 1.0, 2.0]), bins=2)
    array([0., 1., 2.])
    """
    a, w = _ravel_and_check_weights(a, weights)
    return _get_bin_edges(a, bins, range, w)[0]


def histogram_by_ops(a, *rest, uniform=None, weighted=False):
    """The counts of ``histogram`` from gnumpy ops (the CUDA implementation; `rest` and
    `uniform` as ``sort_numpy.np_histogram``): each value's bin, then one count (CUB's
    histogram) or weight sum per bin."""
    w = rest[0] if weighted else None
    if uniform is not None:
        first_edge, last_edge, nb = uniform
        bin_type = D.result_type(first_edge, last_edge, a.dtype)
        if bin_type.kind in "iu":
            bin_type = D.result_type(bin_type, 1.0)
        if w is None or w.dtype.kind in "biuf":     # one kernel: bins and counts
            n = uniform_counts(a, w, first_edge, last_edge, nb, bin_type)
            if n is not None:
                return n if w is None else astype(n, w.dtype)
        idx = uniform_index(a, first_edge, last_edge, nb, bin_type)
    else:
        nb = rest[-1].shape[0] - 1
        idx = edges_index(a, rest[-1])
    if w is None:
        return _bincount(idx, None, nb)
    if w.dtype.kind == "c":
        re = _bincount(idx, apply("real", w), nb)
        im = _bincount(idx, apply("imag", w), nb)
        return astype(apply("add", re, apply("multiply", im, 1j)), w.dtype)
    return astype(_bincount(idx, w, nb), w.dtype)


def histogram(a, bins=10, range=None, density=None, weights=None):
    """Histogram of `a`: (counts or weight sums per bin, bin edges).

    # Note: the bin-width estimators ('auto', 'fd', ...) reduce on the device and finish on
    # the host; their last bits (std, percentiles) may differ from NumPy's, which can move
    # the number of bins by one in rare ties.  On the GPU, weighted counts are summed per
    # bin with float64 atomics (NumPy differences cumulative sums for given edges), so their
    # last bits may differ.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.histogram(gp.asarray([1, 2, 1]), bins=[0, 1, 2, 3])[0]
    array([0, 2, 1])
    """
    a, w = _ravel_and_check_weights(a, weights)
    edges, uniform = _get_bin_edges(a, bins, range, w)
    simple = w is None or D.can_cast(w.dtype, D.float64) or D.can_cast(w.dtype, D.complex128)
    if not simple:
        uniform = None
    srcs = [a] + ([] if w is None else [w]) + ([edges] if uniform is None else [])
    kw = dict(uniform=uniform, weighted=w is not None)
    n = libcall.call("histogram", srcs, cpu=sort_numpy.np_histogram, **kw)
    n = histogram_by_ops(*srcs, **kw) if n is NotImplemented else n[0]
    if density:
        db = astype(apply("subtract", *_diff_pair(edges)), D.float64)
        return apply("divide", apply("divide", n, db), n.sum()), edges
    return n, edges


def _diff_pair(c):
    return c[1:], c[:-1]
