"""Sampling and shuffling: ``choice``, ``permutation``, ``shuffle`` and ``permuted``.

A random permutation of n items is the argsort of n random 64-bit keys drawn on the
device; reordering an array is a gather (``take``) with those indices.  Weighted sampling
uses the inverse CDF (``searchsorted`` of uniform draws in the ``cumsum`` of ``p``) with
replacement, and Efraimidis-Spirakis keys ``log(u) / p`` (the k largest) without.

# Note: two equal 64-bit keys (probability about n**2 / 2**65) keep their index order, so
# permutations are uniform up to that.
"""
from __future__ import annotations

import operator

import numpy as np
from numpy.exceptions import AxisError

from .._api._common import normalize_axis
from .._api.creation.creation import arange, asarray
from .._api.elementwise.elementwise import apply
from .._api.indexing.advanced import take
from .._api.reductions.reductions import any as any_, count_nonzero, sum as sum_
from .._api.reductions.scans import cumsum
from .._api.shape.manipulation import moveaxis
from .._api.sorting.sorting import argsort, searchsorted
from .._array import ndarray
from .._graph import layout as L
from . import _transforms as T
from ._args import shape_of

U64 = np.dtype(np.uint64)
I64 = np.dtype(np.int64)


def _argsort(keys, axis=-1):
    return argsort(keys, axis=axis)


def _take(a, idx, axis):
    return take(a, idx, axis=axis, mode="clip")     # in range: no bounds-check sync


def perm_indices(gen, n, device=None):
    """A random permutation of ``range(n)`` (int64 gnumpy array)."""
    keys = gen.bit_generator.bits((n,), U64, device)
    return _argsort(keys).astype(I64)


def _as_array(x):
    return x if isinstance(x, ndarray) else asarray(x)


def _is_int_like(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, np.bool_) or \
        isinstance(x, (bool, np.bool_))


def _axis(axis, ndim):
    return normalize_axis(axis, ndim)


# ------------------------------------------------------------------ permutations

def permutation(gen, x, axis=0):
    if _is_int_like(x):
        return perm_indices(gen, max(int(x), 0))
    arr = _as_array(x)
    ax = _axis(axis, arr.ndim)
    return _take(arr, perm_indices(gen, arr.shape[ax], arr.device), ax)


def shuffle(gen, x, axis=0):
    cls = ndarray
    if isinstance(x, cls):
        if x.ndim == 0:
            raise TypeError("len() of unsized object")
        ax = _axis(axis, x.ndim)
        x._assign_from(_take(x, perm_indices(gen, x.shape[ax], x.device), ax))
        return None
    # Note: host sequences (lists, NumPy arrays) are shuffled in place with a permutation
    # drawn on the device and copied to the host (one sync of n indices)
    if np.ndim(x) == 0:
        raise TypeError("len() of unsized object")
    if isinstance(x, np.ndarray):
        ax = _axis(axis, x.ndim)
        idx = perm_indices(gen, x.shape[ax]).get()
        x[...] = np.take(x, idx, axis=ax)
        return None
    if axis != 0:
        raise AxisError(axis, 1)
    idx = perm_indices(gen, len(x)).get().tolist()
    x[:] = [x[i] for i in idx]
    return None


def permuted(gen, x, axis=None, out=None):
    arr = _as_array(x)
    if arr.ndim == 0:
        raise TypeError("len() of unsized object")
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError(f"out must be a gnumpy array, not {type(out).__name__}")
        if out.shape != arr.shape:
            raise ValueError("out must have the same shape as x")
    if axis is None:
        flat = arr.reshape(-1)
        res = _take(flat, perm_indices(gen, flat.size, arr.device), 0).reshape(arr.shape)
    else:
        ax = _axis(axis, arr.ndim)
        xt = moveaxis(arr, ax, -1)
        n = xt.shape[-1]
        m = L.prod(xt.shape[:-1])
        keys = gen.bit_generator.bits((m, n), U64, arr.device)
        perm = _argsort(keys, axis=-1).astype(I64)
        flat_idx = perm + arange(m, dtype=I64, device=arr.device).reshape(m, 1) * n
        res = _take(xt.reshape(-1), flat_idx.reshape(-1), 0).reshape(xt.shape)
        res = moveaxis(res, -1, ax)
    if out is not None:
        out._assign_from(res)
        return out
    return res


# ------------------------------------------------------------------ choice

def _population(a, axis):
    """(array or None, population size, normalized axis)."""
    cls = ndarray
    if not isinstance(a, cls):
        if np.ndim(a) == 0 and not isinstance(a, np.ndarray):
            if not _is_int_like(a):
                raise ValueError(f"a must be a sequence or an integer, not {type(a)}")
            return None, int(a), 0
        a = _as_array(a)
    if a.ndim == 0:
        return None, operator.index(a.item()), 0
    if not -a.ndim <= axis < a.ndim:
        raise IndexError("tuple index out of range")
    ax = axis % a.ndim
    return a, a.shape[ax], ax


def _check_p(p, n):
    cls = ndarray
    if isinstance(p, cls):
        pd = p.astype(np.float64)
        if pd.ndim != 1:
            raise ValueError("p must be 1-dimensional")
        if pd.size != n:
            raise ValueError("a and p must have same size")
        if bool(any_(pd != pd)):
            raise ValueError("Probabilities contain NaN")
        if bool(any_(pd < 0)):
            raise ValueError("Probabilities are not non-negative")
        total = float(sum_(pd))
        atol = max(np.sqrt(np.finfo(np.float64).eps),
                   np.sqrt(np.finfo(p.dtype).eps) if p.dtype.kind == "f" else 0)
        nonzero = None
    else:
        ph = np.asarray(p)
        atol = np.sqrt(np.finfo(np.float64).eps)
        if ph.dtype.kind == "f":
            atol = max(atol, np.sqrt(np.finfo(ph.dtype).eps))
        ph = ph.astype(np.float64)
        if ph.ndim != 1:
            raise ValueError("p must be 1-dimensional")
        if ph.size != n:
            raise ValueError("a and p must have same size")
        if np.isnan(ph).any():
            raise ValueError("Probabilities contain NaN")
        if (ph < 0).any():
            raise ValueError("Probabilities are not non-negative")
        total = float(ph.sum())
        nonzero = int(np.count_nonzero(ph))
        pd = asarray(ph)
    if abs(total - 1.0) > atol:
        raise ValueError("Probabilities do not sum to 1. See Notes section of docstring for "
                         "more information.")
    return pd, nonzero


def choice(gen, a, size=None, replace=True, p=None, axis=0, shuffle=True):
    arr, n, ax = _population(a, axis)
    shape = shape_of(size)
    draw = () if shape is None else shape
    k = L.prod(draw)
    if arr is None and n <= 0 and k != 0:
        raise ValueError("a must be a positive integer unless no samples are taken")
    if arr is not None and n == 0 and k != 0:
        raise ValueError("a cannot be empty unless no samples are taken")
    dev = arr.device if arr is not None else None
    if p is not None:
        pd, nonzero = _check_p(p, n)
        if dev is not None and pd.device != dev:
            pd = pd.to_device(dev)
        dev = pd.device
    if replace:
        if p is None:
            idx = gen.integers(0, max(n, 1), size=draw)
        else:
            idx = _inverse_cdf(gen, pd, draw, dev)
    else:
        if k > n:
            raise ValueError("Cannot take a larger sample than population when replace is "
                             "False")
        if p is None:
            idx = perm_indices(gen, n, dev)[:k].reshape(draw)
        else:
            if nonzero is None:
                nonzero = int(count_nonzero(pd))
            if nonzero < k:
                raise ValueError("Fewer non-zero entries in p than size")
            idx = _weighted_without(gen, pd, k, dev).reshape(draw)
    if arr is None:
        return idx
    return _take(arr, idx, ax)


def _inverse_cdf(gen, pd, draw, dev):
    """Indices drawn with probabilities `pd`: ``searchsorted(cdf, u, 'right')``."""
    cdf = cumsum(pd)
    cdf = cdf / cdf[-1]
    u = gen.random(draw)
    if dev is not None and u.device != dev:
        u = u.to_device(dev)
    return searchsorted(cdf, u, side="right")


def _weighted_without(gen, pd, k, dev):
    """k distinct indices, successive sampling with weights `pd` (Efraimidis-Spirakis)."""
    bits = gen.bit_generator.bits(pd.shape, U64, dev)
    keys = apply("log", T.open_unit(bits, np.float64)) / pd     # larger is first
    return _argsort(-keys)[:k].astype(I64)
