"""Bit packing: ``packbits`` and ``unpackbits`` (uint8 bytes <-> 0/1 bits along an axis).

Both are built from elementwise ops, a pad and a reduction over a trailing axis of 8, so on
the GPU they are a few fused kernels; there is no data-dependent host work.
"""
from __future__ import annotations

import operator

import numpy as np

from ... import _dtypes as D
from .._common import normalize_axis
from ..shape._views import arr
from ..creation.creation import asarray
from ..shape.manipulation import moveaxis, reshape
from .elementwise import apply
from ..shape.padding import pad
from ..reductions.reductions import sum as sum_

__all__ = ["packbits", "unpackbits"]


def _bit_weights(bitorder, dev):
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    shifts = np.arange(7, -1, -1) if bitorder == "big" else np.arange(8)
    return asarray(shifts.astype(np.uint8), device=dev)


def _to_last(x, axis):
    """(x with `axis` moved last, the normalized axis); axis None flattens."""
    if axis is None:
        return reshape(x, (-1,)), None
    ax = normalize_axis(axis, x.ndim)
    return moveaxis(x, ax, -1), ax


def _from_last(y, ax):
    return y if ax is None else moveaxis(y, -1, ax)


def packbits(a, /, axis=None, bitorder="big"):
    """Pack the truth values of `a` (integer or bool) into uint8 bytes along `axis` (the
    flattened array when None), padding the last byte with zero bits.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.packbits(gp.asarray([1, 0, 1, 1])).tolist()
    [176]
    """
    x = arr(a)
    if x.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    w = _bit_weights(bitorder, x.device)
    x, ax = _to_last(x, axis)
    n = x.shape[-1]
    bits = apply("not_equal", x, 0).astype(D.uint8)
    extra = -n % 8
    if extra:
        bits = pad(bits, [(0, 0)] * (bits.ndim - 1) + [(0, extra)])
    bits = bits.reshape(bits.shape[:-1] + ((n + extra) // 8, 8))
    packed = sum_(apply("left_shift", bits, w), axis=-1, dtype=D.uint8)
    return _from_last(packed, ax)


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """Unpack uint8 bytes into 0/1 bits (uint8) along `axis` (the flattened array when
    None); `count` keeps that many bits (negative: drops bits from the end; more than
    there are: pads with zeros).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.unpackbits(gp.asarray([5], dtype=gp.uint8)).tolist()
    [0, 0, 0, 0, 0, 1, 0, 1]
    """
    x = arr(a)
    if x.dtype != D.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    w = _bit_weights(bitorder, x.device)
    x, ax = _to_last(x, axis)
    bits = apply("bitwise_and", apply("right_shift", x[..., None], w), 1).astype(D.uint8)
    total = 8 * x.shape[-1]
    bits = bits.reshape(x.shape[:-1] + (total,))
    if count is not None:
        c = operator.index(count)
        if c < 0:
            if -c > total:
                raise ValueError("-count larger than number of elements")
            c += total
        if c <= total:
            bits = bits[..., :c]
        else:
            bits = pad(bits, [(0, 0)] * (bits.ndim - 1) + [(0, c - total)])
    return _from_last(bits, ax)
