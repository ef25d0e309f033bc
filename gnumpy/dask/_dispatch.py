"""gnumpy in ``dask.array``'s dispatch tables: the chunk functions Dask's block algorithms
call (concatenate, tensordot, einsum, take, percentile, empty, numel/nannumel, to_numpy),
``gnumpy.ndarray`` as a chunk type, ``sizeof``, tokens, and the ``"gnumpy"`` array backend
(``GnumpyBackendEntrypoint``, ``to_gnumpy_dispatch``)."""
from __future__ import annotations

import uuid

import numpy as np

import dask
import dask.array as da
from dask.array import chunk_types
from dask.array.backends import ArrayBackendEntrypoint, array_creation_dispatch
from dask.array.dispatch import (
    concatenate_lookup, divide_lookup, einsum_lookup, empty_lookup, nannumel_lookup,
    numel_lookup, percentile_lookup, take_lookup, tensordot_lookup, to_numpy_dispatch)
from dask.sizeof import sizeof
from dask.tokenize import normalize_token

import gnumpy as gp

to_gnumpy_dispatch = dask.utils.Dispatch("to_gnumpy_dispatch")


def _einsum(*args, **kwargs):
    kwargs.pop("order", None)            # layout hints: gnumpy picks its own
    return gp.einsum(*args, **kwargs)


def _percentile(a, q, method="linear"):
    """Dask's chunk percentile, (values, count), computed on the chunk's device; Dask's
    ``merge_percentiles`` then runs on gnumpy arrays too (through ``__array_function__``)."""
    n = len(a)
    if not n:
        return None, n
    q = np.asarray(list(q) if not isinstance(q, np.ndarray) else q, dtype=np.float64)
    if not np.issubdtype(a.dtype, np.number):
        method = "nearest"
    return gp.percentile(a, gp.asarray(q, device=a.device), method=method), n


def _numel(x, **kwargs):
    """Elements counted per reduced block, as a gnumpy array on the chunk's device (Dask's
    default returns NumPy, which would mix host arrays into mean/var's partial results)."""
    from dask.array.backends import _numel_arraylike
    return _numel_arraylike(x, **kwargs)


def _nannumel(x, **kwargs):
    return gp.sum(~gp.isnan(x), **kwargs)


def _empty(shape, dtype=None, **kwargs):
    kwargs.pop("order", None)
    return gp.empty(shape, dtype=dtype, **kwargs)


class GnumpyBackendEntrypoint(ArrayBackendEntrypoint):
    """The ``"gnumpy"`` array backend of Dask: under
    ``dask.config.set({"array.backend": "gnumpy"})`` Dask's creation functions (``ones``,
    ``zeros``, ``empty``, ``full``, ``arange``, ``da.random``) make gnumpy chunks, and
    ``x.to_backend("gnumpy")`` moves a collection's chunks to gnumpy."""

    @classmethod
    def to_backend_dispatch(cls):
        """The dispatch that moves one chunk to gnumpy (``to_gnumpy_dispatch``)."""
        return to_gnumpy_dispatch

    @classmethod
    def to_backend(cls, data, **kwargs):
        """`data` with gnumpy chunks (itself when they are already gnumpy arrays)."""
        if isinstance(data._meta, gp.ndarray):
            return data
        return data.map_blocks(cls.to_backend_dispatch(), **kwargs)

    @property
    def RandomState(self):
        """gnumpy's RandomState (``da.random.RandomState`` under this backend)."""
        return gp.random.RandomState

    @property
    def default_bit_generator(self):
        """gnumpy's default bit generator (``da.random.default_rng`` under this backend)."""
        return gp.random.PCG64

    @staticmethod
    def _with_meta(attr, *args, meta=None, **kwargs):
        meta = gp.empty((0,)) if meta is None else meta
        with dask.config.set({"array.backend": "numpy"}):
            return getattr(da, attr)(*args, meta=meta, **kwargs)

    @staticmethod
    def ones(*args, **kwargs):
        """``da.ones`` with gnumpy chunks."""
        return GnumpyBackendEntrypoint._with_meta("ones", *args, **kwargs)

    @staticmethod
    def zeros(*args, **kwargs):
        """``da.zeros`` with gnumpy chunks."""
        return GnumpyBackendEntrypoint._with_meta("zeros", *args, **kwargs)

    @staticmethod
    def empty(*args, **kwargs):
        """``da.empty`` with gnumpy chunks."""
        return GnumpyBackendEntrypoint._with_meta("empty", *args, **kwargs)

    @staticmethod
    def full(*args, **kwargs):
        """``da.full`` with gnumpy chunks."""
        return GnumpyBackendEntrypoint._with_meta("full", *args, **kwargs)

    @staticmethod
    def arange(*args, like=None, **kwargs):
        """``da.arange`` with gnumpy chunks."""
        like = gp.empty((0,)) if like is None else like
        with dask.config.set({"array.backend": "numpy"}):
            r = da.arange(*args, like=like, **kwargs)
        # Dask's chunk calls np.arange(start, stop, step, dtype, like=...): a gnumpy.arange
        # that refuses a positional dtype makes NumPy chunks, which this moves to gnumpy
        return r.map_blocks(_as_gnumpy, dtype=r.dtype, meta=like[:0] if like.ndim else like)


def _as_gnumpy(x):
    return x if isinstance(x, gp.ndarray) else gp.asarray(x)


def _concatenate(arrays, axis=0):
    arrays = list(arrays)
    if len(arrays) == 1 and isinstance(arrays[0], gp.ndarray):
        return arrays[0]        # Dask's nested _concatenate2 joins lists of one: no copy
    return gp.concatenate(arrays, axis=axis)


# Tokens without a device-to-host copy: Dask's default tokenizes an unknown object by
# pickling it (for gnumpy: .get() of the whole array, twice per from_array).  A gnumpy
# array's token is new at each call instead (as Dask's own for objects it cannot hash): an
# in-place write keeps an array's graph node, so no cheap token could follow it, and two
# arrays, or one before and after a write, must never share a key.  The cost: Dask does not
# recognise a second from_array of the same array as the same data.
def _tokenize(x):
    return ("gnumpy.ndarray", x.shape, x.dtype.str, str(x.device), uuid.uuid4().hex)


def _register_array() -> None:
    nd = gp.ndarray
    if nd not in chunk_types._HANDLED_CHUNK_TYPES:
        chunk_types.register_chunk_type(nd)
    concatenate_lookup.register(nd, _concatenate)
    tensordot_lookup.register(nd, gp.tensordot)
    einsum_lookup.register(nd, _einsum)
    take_lookup.register(nd, gp.take)
    empty_lookup.register(nd, _empty)
    divide_lookup.register(nd, gp.divide)
    percentile_lookup.register(nd, _percentile)
    numel_lookup.register(nd, _numel)
    nannumel_lookup.register(nd, _nannumel)
    to_numpy_dispatch.register(nd, lambda data, **kw: gp.asnumpy(data))
    to_gnumpy_dispatch.register(nd, lambda data, **kw: data)
    to_gnumpy_dispatch.register(np.ndarray, lambda data, **kw: gp.asarray(data, **kw))
    sizeof.register(nd, lambda x: int(x.nbytes))
    normalize_token.register(nd, _tokenize)
    try:
        array_creation_dispatch.register_backend("gnumpy", GnumpyBackendEntrypoint())
    except TypeError:                   # an older Dask: the class itself is accepted
        pass

