"""Printing: ``array2string``, ``array_repr``, ``array_str``, the print options, and the
scalar formatters (``format_float_positional``/``_scientific``, ``base_repr``,
``binary_repr``).

A gnumpy array prints as NumPy prints its values: ``ndarray.__repr__``/``__str__`` format
a host view of the array with NumPy, so ``repr(x)`` reads ``array([...], dtype=...)`` and
honours NumPy's global print options.  The functions here do the same with the caller's
keywords, and the print options ARE NumPy's (``set_printoptions`` here and in NumPy change
the same state), so gnumpy and NumPy arrays always print alike.
"""
from __future__ import annotations

import contextlib

import numpy as np

from .._common import is_array
from ..._attributes import _host_view

__all__ = ["array2string", "array_repr", "array_str", "set_printoptions", "get_printoptions",
           "printoptions", "format_float_positional", "format_float_scientific", "base_repr",
           "binary_repr"]


def _host(a):
    """A NumPy view (CPU) or copy (GPU) of a gnumpy array, as its repr uses; else `a`."""
    if is_array(a):
        return _host_view(a)
    return a


def _scalar(x):
    """A 0-d gnumpy array as a NumPy scalar of its dtype; anything else unchanged."""
    if is_array(x):
        h = x.get()
        return h[()] if h.ndim == 0 else h
    return x


# ------------------------------------------------------------------ arrays

def array2string(a, max_line_width=None, precision=None, suppress_small=None, separator=" ",
                 prefix="", *, formatter=None, threshold=None, edgeitems=None, sign=None,
                 floatmode=None, suffix="", legacy=None):
    """A string representation of an array (``numpy.array2string`` of its values).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.array2string(gp.asarray([1.0, 2.5]), separator=", ")
    '[1. , 2.5]'
    """
    return np.array2string(_host(a), max_line_width=max_line_width, precision=precision,
                           suppress_small=suppress_small, separator=separator,
                           prefix=prefix, formatter=formatter, threshold=threshold,
                           edgeitems=edgeitems, sign=sign, floatmode=floatmode,
                           suffix=suffix, legacy=legacy)


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """The repr of an array: ``array([...], dtype=...)``, exactly what ``repr(arr)`` gives
    with default arguments.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.array_repr(gp.asarray([1, 2], dtype=gp.int8))
    'array([1, 2], dtype=int8)'
    """
    return np.array_repr(_host(arr), max_line_width=max_line_width, precision=precision,
                         suppress_small=suppress_small)


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    """The str of an array: its values without ``array(`` and dtype, as ``str(a)`` gives.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.array_str(gp.asarray([1.0, 2.0]), precision=2)
    '[1. 2.]'
    """
    return np.array_str(_host(a), max_line_width=max_line_width, precision=precision,
                        suppress_small=suppress_small)


# ------------------------------------------------------------------ print options

def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     suppress=None, nanstr=None, infstr=None, formatter=None, sign=None,
                     floatmode=None, *, legacy=None, override_repr=None):
    """Set the print options of gnumpy and NumPy arrays (one shared, NumPy-owned state).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.set_printoptions(precision=2)
    >>> gp.asarray([1 / 3])
    array([0.33])
    >>> gp.set_printoptions(precision=8)
    """
    np.set_printoptions(precision=precision, threshold=threshold, edgeitems=edgeitems,
                        linewidth=linewidth, suppress=suppress, nanstr=nanstr,
                        infstr=infstr, formatter=formatter, sign=sign, floatmode=floatmode,
                        legacy=legacy, override_repr=override_repr)


def get_printoptions() -> dict:
    """The current print options (NumPy's, which gnumpy arrays share).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.get_printoptions()["threshold"]
    1000
    """
    return np.get_printoptions()


@contextlib.contextmanager
def printoptions(*args, **kwargs):
    """A context manager setting print options for the ``with`` block (see
    :func:`set_printoptions`); it yields the options in force inside the block.

    Examples
    --------
    >>> import gnumpy as gp
    >>> with gp.printoptions(precision=2):
    ...     print(gp.asarray([1 / 3]))
    [0.33]
    """
    with np.printoptions(*args, **kwargs) as opts:
        yield opts


# ------------------------------------------------------------------ scalars

def format_float_positional(x, precision=None, unique=True, fractional=True, trim="k",
                            sign=False, pad_left=None, pad_right=None, min_digits=None):
    """Format a float scalar (Python, NumPy or 0-d gnumpy) in positional notation.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.format_float_positional(gp.asarray(0.1, dtype=gp.float16))
    '0.1'
    """
    return np.format_float_positional(_scalar(x), precision=precision, unique=unique,
                                      fractional=fractional, trim=trim, sign=sign,
                                      pad_left=pad_left, pad_right=pad_right,
                                      min_digits=min_digits)


def format_float_scientific(x, precision=None, unique=True, trim="k", sign=False,
                            pad_left=None, exp_digits=None, min_digits=None):
    """Format a float scalar (Python, NumPy or 0-d gnumpy) in scientific notation.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.format_float_scientific(gp.asarray(1234.5), exp_digits=3)
    '1.2345e+003'
    """
    return np.format_float_scientific(_scalar(x), precision=precision, unique=unique,
                                      trim=trim, sign=sign, pad_left=pad_left,
                                      exp_digits=exp_digits, min_digits=min_digits)


def base_repr(number, base=2, padding=0):
    """The string of an integer (Python, NumPy or 0-d gnumpy) in `base` (2 to 36).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.base_repr(gp.asarray(255), 16)
    'FF'
    """
    return np.base_repr(_scalar(number), base=base, padding=padding)


def binary_repr(num, width=None):
    """The binary string of an integer; two's complement in `width` bits when negative.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.binary_repr(gp.asarray(-3, dtype=gp.int8), width=8)
    '11111101'
    """
    return np.binary_repr(_scalar(num), width=width)
