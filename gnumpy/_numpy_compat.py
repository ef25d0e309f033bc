"""NumPy compatibility odds and ends: floating-point error state (``errstate``, ``seterr``,
``geterr``, ``seterrcall``, ``geterrcall``, buffer size), dtype helpers (``promote_types``,
``min_scalar_type``, ``common_type``, ``mintypecode``, ``typename``) and the top-level dtype
aliases and constants NumPy has.

# Note: gnumpy emits no floating-point warnings or errors (GPU kernels have no status flags
# to consult, and the CPU backend behaves the same way).  The error state is kept, with
# NumPy's validation, context-variable scoping and return values, so that programs calling
# these functions run unchanged; it does not change what gnumpy computes.
"""
from __future__ import annotations

import contextvars
import functools
import sys

import numpy as np

from . import _dtypes as D
from ._api._common import is_array
from ._api.creation.creation import asarray
from ._api.elementwise.elementwise import apply
from ._api.reductions.reductions import all as all_

_MODES = ("ignore", "warn", "raise", "call", "print", "log")
_KINDS = ("divide", "over", "under", "invalid")
_DEFAULT = {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn",
            "call": None}
_state = contextvars.ContextVar("gnumpy_errstate", default=_DEFAULT)
_bufsize = [8192]


class _Unspecified:
    pass


def _updated(all=None, divide=None, over=None, under=None, invalid=None, call=_Unspecified):
    new = dict(_state.get())
    given = {"divide": divide, "over": over, "under": under, "invalid": invalid}
    for k in _KINDS:
        v = given[k] if given[k] is not None else all
        if v is None:
            continue
        if v not in _MODES:
            raise ValueError(f"invalid error mode {v!r}")
        new[k] = v
    if call is not _Unspecified:
        if call is not None and not callable(call) and not callable(getattr(call, "write",
                                                                            None)):
            raise TypeError("python object must be callable or have a callable write method")
        new["call"] = call
    return new


def seterr(all=None, divide=None, over=None, under=None, invalid=None):
    """Set how floating-point errors are handled; returns the old settings.

    # Note: the state is kept but gnumpy never emits floating-point warnings or errors.

    Examples
    --------
    >>> import gnumpy as gp
    >>> old = gp.seterr(all="ignore")
    >>> gp.geterr()["divide"]
    'ignore'
    >>> _ = gp.seterr(**old)
    """
    old = geterr()
    _state.set(_updated(all, divide, over, under, invalid))
    return old


def geterr():
    """The current floating-point error handling, as a dict (NumPy's keys and defaults).

    Examples
    --------
    >>> import gnumpy as gp
    >>> sorted(gp.geterr())
    ['divide', 'invalid', 'over', 'under']
    """
    s = _state.get()
    return {k: s[k] for k in _KINDS}


def seterrcall(func):
    """Set the callback used by the 'call' error mode; returns the old one.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.seterrcall(print) is None
    True
    >>> _ = gp.seterrcall(None)
    """
    old = geterrcall()
    _state.set(_updated(call=func))
    return old


def geterrcall():
    """The callback of the 'call' error mode (None when unset).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.geterrcall() is None
    True
    """
    return _state.get()["call"]


class errstate:
    """Context manager (and decorator) setting the floating-point error handling for a block,
    as NumPy's ``errstate``; may not be entered twice at once.

    # Note: the state is kept but gnumpy never emits floating-point warnings or errors.

    Examples
    --------
    >>> import gnumpy as gp
    >>> with gp.errstate(divide="ignore"):
    ...     y = gp.asarray([1.0]) / 0
    >>> gp.geterr()["divide"]
    'warn'
    """

    __slots__ = ("_kw", "_token")

    def __init__(self, *, call=_Unspecified, all=None, divide=None, over=None, under=None,
                 invalid=None):
        self._token = None
        self._kw = dict(call=call, all=all, divide=divide, over=over, under=under,
                        invalid=invalid)

    def __enter__(self):
        if self._token is not None:
            raise TypeError("Cannot enter `np.errstate` twice.")
        self._token = _state.set(_updated(**self._kw))

    def __exit__(self, *exc_info):
        _state.reset(self._token)
        self._token = None

    def __call__(self, func):
        @functools.wraps(func)
        def inner(*args, **kwargs):
            token = _state.set(_updated(**self._kw))
            try:
                return func(*args, **kwargs)
            finally:
                _state.reset(token)
        return inner


def getbufsize() -> int:
    """The size of NumPy's ufunc buffer (kept for compatibility; gnumpy does not use it).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.getbufsize()
    8192
    """
    return _bufsize[0]


def setbufsize(size):
    """Set the ufunc buffer size (kept for compatibility; gnumpy does not use it); returns
    the old size.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.setbufsize(8192)
    8192
    """
    size = int(size)
    if size < 0:
        raise ValueError("buffer size must be non-negative")
    old = _bufsize[0]
    _bufsize[0] = size
    return old


# ------------------------------------------------------------------ dtype helpers

def promote_types(type1, type2):
    """The smallest dtype both `type1` and `type2` cast to safely (gnumpy's 13 dtypes).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.promote_types("int8", "uint8")
    dtype('int16')
    """
    return D.promote(D.to_dtype(type1), D.to_dtype(type2))


def min_scalar_type(a, /):
    """The smallest dtype that holds scalar `a` (for arrays of ndim > 0: their dtype).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.min_scalar_type(10)
    dtype('uint8')
    """
    if is_array(a):
        if a.ndim > 0:
            return a.dtype
        a = a.get()       # a 0-d array: its value decides (one small transfer)
    return np.min_scalar_type(a)


_PRECISION = {D.float16: 0, D.float32: 1, D.float64: 2, D.complex64: 1, D.complex128: 2}
_TYPES = ((np.float16, np.float32, np.float64), (None, np.complex64, np.complex128))


def common_type(*arrays):
    """The inexact scalar type common to `arrays` (integers count as float64).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.common_type(gp.arange(3), gp.ones(2, dtype=gp.float32))
    <class 'numpy.float64'>
    """
    is_complex = False
    precision = 0
    for a in arrays:
        dt = np.dtype(a.dtype)
        if dt.kind == "c":
            is_complex = True
        if dt.kind in "iu":
            p = 2
        else:
            p = _PRECISION.get(dt)
            if p is None:
                raise TypeError("can't get common type for non-numeric array")
        precision = max(precision, p)
    return _TYPES[1 if is_complex else 0][precision]


_BY_ELSIZE = "GDFgdfQqLlIiHhBb?"


def mintypecode(typechars, typeset="GDFgdf", default="d"):
    """The character of the smallest-size type in `typeset` that `typechars` can be cast to.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.mintypecode(["d", "f", "S"])
    'd'
    """
    codes = ((isinstance(t, str) and t) or np.dtype(getattr(t, "dtype", None) or
                                                   np.asarray(t).dtype).char
             for t in typechars)
    inter = {t for t in codes if t in typeset}
    if not inter:
        return default
    if "F" in inter and "d" in inter:
        return "D"
    return min(inter, key=_BY_ELSIZE.index)


def typename(char):
    """A description of the NumPy type character `char`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.typename("d")
    'double precision'
    """
    return np.typename(char)


# ------------------------------------------------------------------ array conversion

def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """``asarray`` (gnumpy has no ndarray subclasses to pass through).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.asanyarray([1, 2]).dtype
    dtype('int64')
    """
    return asarray(a, dtype=dtype, device=device, copy=copy)


def asarray_chkfinite(a, dtype=None, order=None):
    """``asarray`` that raises ValueError if the array holds inf or NaN (one device check).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.asarray_chkfinite([1.0, 2.0])
    array([1., 2.])
    """
    x = asarray(a, dtype=dtype)
    if x.dtype.kind in "fc" and not bool(all_(apply("isfinite", x))):
        raise ValueError("array must not contain infs or NaNs")
    return x


# ------------------------------------------------------------------ aliases and constants
long, ulong = np.long, np.ulong
True_, False_ = np.True_, np.False_
little_endian = sys.byteorder == "little"
typecodes = dict(np.typecodes)     # NumPy's type characters (metadata only)
exceptions = np.exceptions         # gnumpy raises NumPy's exception types (AxisError, ...)
character, flexible = np.character, np.flexible   # abstract scalar types (issubdtype)
