"""Multidimensional histograms: ``histogramdd`` and ``histogram2d``, as NumPy computes them.

Each coordinate is placed with a binary search in its edges (the last edge closed), the D
bin numbers are combined into one flat index, and one bincount over the padded grid (an
outlier bin at each end of every axis) counts them.  Syncs: the data range per axis when
a bin count is given without a range, and one monotonicity check per axis of given edges.
"""
from __future__ import annotations

import builtins
import operator

import numpy as np

from ... import _dtypes as D
from .._common import is_array
from ..creation.creation import asarray, linspace, zeros
from ..elementwise.elementwise import apply, astype, where
from .histograms import _arr, _bincount, _get_outer_edges
from ..shape.joining import atleast_2d
from ..shape.manipulation import reshape, stack
from .reductions import any as any_, sum as sum_
from ..sorting.sorting import searchsorted

__all__ = ["histogramdd", "histogram2d"]


def _sample(sample):
    """The (N, D) sample array (NumPy: a 2-D array, or atleast_2d(sample).T otherwise)."""
    if is_array(sample) or isinstance(sample, np.ndarray):
        s = _arr(sample)
    elif isinstance(sample, (list, tuple)) and sample and all(is_array(c) for c in sample):
        s = stack(list(sample))              # (D, N): NumPy's atleast_2d(sample).T
        return s.T if s.ndim == 2 else _bad_sample(s)
    else:
        s = asarray(sample)
    if s.ndim == 2 and (is_array(sample) or isinstance(sample, np.ndarray)):
        return s
    s = atleast_2d(s).T
    return s if s.ndim == 2 else _bad_sample(s)


def _bad_sample(s):
    raise ValueError(f"too many values to unpack (expected 2, got {s.ndim})")


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """Histogram of N points in D dimensions: (counts or weight sums, float64, of shape
    nbins per axis; the list of D edge arrays).

    Examples
    --------
    >>> import gnumpy as gp
    >>> h, edges = gp.histogramdd(gp.asarray([[0.0, 0.0], [1.0, 1.0]]), bins=2)
    >>> h.tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    s = _sample(sample)
    n, d = s.shape
    w = None if weights is None else _arr(weights)
    try:
        if len(bins) != d:
            raise ValueError("The dimension of bins must be equal to the dimension of the "
                             "sample x.")
    except TypeError:
        bins = d * [bins]
    if range is None:
        range = (None,) * d
    elif len(range) != d:
        raise ValueError("range argument must have one entry per dimension")
    edges, nbin = [], []
    for i in builtins.range(d):
        b = bins[i]
        if np.ndim(b) == 0 and not is_array(b):
            if b < 1:
                raise ValueError(f"`bins[{i}]` must be positive, when an integer")
            smin, smax = _get_outer_edges(s[:, i], range[i])
            try:
                nb = operator.index(b)
            except TypeError as e:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
            e = linspace(smin, smax, nb + 1)
        elif np.ndim(b) == 1:
            e = _arr(b)
            if e.shape[0] > 1 and bool(any_(apply("greater", e[:-1], e[1:]))):
                raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an "
                                 f"array")
        else:
            raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
        edges.append(e)
        nbin.append(e.shape[0] + 1)          # an outlier bin at each end
    # the flat bin of each point: searchsorted right, the last edge counted in the last bin
    flat = None
    stride = 1
    for i in reversed(builtins.range(d)):
        col = s[:, i]
        k = searchsorted(edges[i], col, side="right")
        if edges[i].shape[0]:
            k = where(apply("equal", col, edges[i][-1]), apply("subtract", k, 1), k)
        k = apply("multiply", astype(k, D.int64), stride)
        flat = k if flat is None else apply("add", flat, k)
        stride *= nbin[i]
    if w is not None:
        if w.dtype.kind == "c":
            raise TypeError(f"Cannot cast array data from {w.dtype!r} to dtype('float64') "
                            f"according to the rule 'safe'")
        if w.ndim != 1 or w.shape[0] != n:
            raise ValueError("The weights and list don't have the same length.")
    if flat is None or n == 0:
        hist = zeros((stride,), dtype=D.float64, device=s.device)
    else:
        hist = astype(_bincount(flat, w, stride), D.float64)
    hist = reshape(hist, tuple(nbin))[(slice(1, -1),) * d]
    if density:
        total = sum_(hist)
        for i in builtins.range(d):
            shape = [1] * d
            shape[i] = nbin[i] - 2
            de = apply("subtract", edges[i][1:], edges[i][:-1])
            hist = apply("divide", hist, reshape(de, tuple(shape)))
        hist = apply("divide", hist, total)
    return hist, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """Histogram of the points (x[i], y[i]): (counts or weight sums, x edges, y edges).

    Examples
    --------
    >>> import gnumpy as gp
    >>> h, xe, ye = gp.histogram2d(gp.asarray([0.0, 1.0]), gp.asarray([1.0, 1.0]), bins=2)
    >>> h.tolist()
    [[0.0, 1.0], [0.0, 1.0]]
    """
    try:
        nb = len(bins)
    except TypeError:
        nb = 1
    if nb != 1 and nb != 2:
        xedges = yedges = _arr(bins)
        bins = [xedges, yedges]
    xa, ya = _arr(x), _arr(y)
    if xa.shape != ya.shape:
        raise ValueError("x and y must have the same shape")
    hist, edges = histogramdd([xa, ya], bins, range, density, weights)
    return hist, edges[0], edges[1]

