"""Data types, type promotion (the ONE ``result_type``) and casting rules.

gnumpy reuses NumPy's dtype and scalar type objects (as CuPy does), so ``x.dtype ==
np.float32`` and ``gnumpy.float32(3)`` behave as in NumPy.  The promotion lattice is written
out here (NumPy 2 / NEP 50 rules: Python scalars are weak) and checked exhaustively against
``numpy.result_type`` by the tests.  No other module may promote dtypes.
"""
from __future__ import annotations

import builtins
import warnings

import numpy as np

bool_ = np.dtype(np.bool_)
int8, int16, int32, int64 = (np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
uint8, uint16, uint32, uint64 = (np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))
float16, float32, float64 = (np.dtype(t) for t in (np.float16, np.float32, np.float64))
complex64, complex128 = np.dtype(np.complex64), np.dtype(np.complex128)

ALL = (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
       float16, float32, float64, complex64, complex128)
SUPPORTED = frozenset(ALL)
SIGNED = (int8, int16, int32, int64)
UNSIGNED = (uint8, uint16, uint32, uint64)
FLOATS = (float16, float32, float64)
COMPLEX = (complex64, complex128)

DEFAULT_INT = int64
DEFAULT_FLOAT = float64
DEFAULT_COMPLEX = complex128

# kind rank used by the lattice and by same_kind casting: b < u < i < f < c
_RANK = {"b": 0, "u": 1, "i": 2, "f": 3, "c": 4}


def _signed_of_size(size: int):
    return {1: int8, 2: int16, 4: int32, 8: int64}.get(size)


def _float_for_int(dt: np.dtype) -> np.dtype:
    """Smallest float that holds every value of the integer/bool dtype `dt` (NumPy's rule)."""
    if dt.kind == "b" or dt.itemsize == 1:
        return float16
    if dt.itemsize == 2:
        return float32
    return float64


def _promote_pair(a: np.dtype, b: np.dtype) -> np.dtype:
    """The lattice: the smallest dtype both `a` and `b` cast to safely."""
    if a == b:
        return a
    ka, kb = a.kind, b.kind
    if _RANK[ka] > _RANK[kb]:
        a, b, ka, kb = b, a, kb, ka
    # now rank(a) <= rank(b)
    if ka == "b":
        return b
    if ka in "iu" and kb in "iu":
        if ka == kb:
            return a if a.itemsize >= b.itemsize else b
        s, u = (a, b) if ka == "i" else (b, a)
        if s.itemsize > u.itemsize:
            return s
        bigger = _signed_of_size(u.itemsize * 2)
        return bigger if bigger is not None else float64
    if ka in "iu" and kb == "f":
        f = _float_for_int(a)
        return f if f.itemsize >= b.itemsize else b
    if ka in "iu" and kb == "c":
        f = _float_for_int(a)
        return complex64 if f.itemsize <= 4 and b == complex64 else complex128
    if ka == "f" and kb == "f":
        return a if a.itemsize >= b.itemsize else b
    if ka == "f" and kb == "c":
        return complex64 if a.itemsize <= 4 and b == complex64 else complex128
    if ka == "c" and kb == "c":
        return a if a.itemsize >= b.itemsize else b
    raise TypeError(f"no common dtype for {a} and {b}")


_TABLE = {(a, b): _promote_pair(a, b) for a in ALL for b in ALL}
_CANON = {d: d for d in ALL}


def promote(a: np.dtype, b: np.dtype) -> np.dtype:
    """Promote two supported dtypes (strong operands)."""
    return _TABLE[(a, b)]


def promote_many(dts) -> np.dtype:
    """Promote several strong dtypes as NumPy does: starting from the highest kind
    (complex > float > signed > unsigned > bool), so int8, uint16, float32 -> float32."""
    if len(dts) == 1:
        return dts[0]
    s = sorted(dts, key=lambda d: -_RANK[d.kind])
    r = s[0]
    for d in s[1:]:
        r = _TABLE[(r, d)]
    return r


def to_dtype(dtype) -> np.dtype:
    """Normalize a dtype-like (np.float32, 'float32', np.dtype, gnumpy dtype) to a supported
    numpy dtype; raise TypeError for anything gnumpy does not support."""
    if isinstance(dtype, np.dtype):
        dt = dtype
    else:
        if dtype is None:
            raise TypeError("dtype must not be None here")
        try:
            dt = np.dtype(dtype)
        except TypeError as e:
            raise TypeError(f"data type {dtype!r} not understood") from e
    if dt.byteorder == ">":
        dt = dt.newbyteorder("=")
    c = _CANON.get(dt)
    if c is None:
        raise TypeError(f"gnumpy does not support dtype {dt}")
    return c        # the canonical object (np.ulonglong and np.uint64 dtypes are equal)


def weak_kind(value):
    """The kind of a Python scalar operand ('b', 'i', 'f', 'c') or None if not one."""
    t = type(value)
    if t is builtins.bool:
        return "b"
    if t is builtins.int:
        return "i"
    if t is builtins.float:
        return "f"
    if t is builtins.complex:
        return "c"
    return None


_WEAK_DEFAULT = {"b": bool_, "i": DEFAULT_INT, "f": DEFAULT_FLOAT, "c": DEFAULT_COMPLEX}


def apply_weak(dt: np.dtype, kind: str) -> np.dtype:
    """NEP 50: the result of combining a strong dtype with a weak Python scalar of `kind`."""
    if kind == "b":
        return dt
    if kind == "i":
        return DEFAULT_INT if dt.kind == "b" else dt
    if kind == "f":
        return DEFAULT_FLOAT if dt.kind in "biu" else dt
    # complex
    if dt.kind in "biu":
        return DEFAULT_COMPLEX
    if dt.kind == "f":
        return complex128 if dt == float64 else complex64
    return dt


def result_type(*arrays_and_dtypes) -> np.dtype:
    """Array API / NumPy 2 ``result_type``: arrays and dtypes are strong, Python scalars weak.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.result_type(gp.int8, 1.0)
    dtype('float64')
    """
    strongs = []
    weak = []
    for x in arrays_and_dtypes:
        k = weak_kind(x)
        if k is not None:
            weak.append(k)
            continue
        strongs.append(dtype_of(x))
    strong = promote_many(strongs) if strongs else None
    if strong is None:
        if not weak:
            raise ValueError("at least one array or dtype is required")
        return _WEAK_DEFAULT[max(weak, key=_RANK.__getitem__)]
    for k in weak:
        strong = apply_weak(strong, k)
    return strong


def dtype_of(x) -> np.dtype:
    """dtype of an array (gnumpy or numpy), numpy scalar, or dtype-like."""
    dt = getattr(x, "dtype", None)
    if isinstance(dt, np.dtype):
        return to_dtype(dt)
    return to_dtype(x)


def can_cast(from_, to, casting: str = "safe") -> bool:
    """NumPy's ``can_cast`` over gnumpy's dtypes (``from_`` may be an array or a dtype)."""
    if weak_kind(from_) is not None:
        raise TypeError("can_cast() does not support Python ints, floats, and complex because "
                        "the result used to depend on the value.")
    a, b = dtype_of(from_), to_dtype(to)
    if casting == "unsafe":
        return True
    if casting in ("no", "equiv"):
        return a == b
    safe = promote(a, b) == b
    if casting == "safe":
        return safe
    if casting == "same_kind":
        return safe or _RANK[a.kind] <= _RANK[b.kind]
    raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'")


_KIND_SETS = {
    "bool": lambda d: d.kind == "b",
    "signed integer": lambda d: d.kind == "i",
    "unsigned integer": lambda d: d.kind == "u",
    "integral": lambda d: d.kind in "iu",
    "real floating": lambda d: d.kind == "f",
    "complex floating": lambda d: d.kind == "c",
    "numeric": lambda d: d.kind in "iufc",
}


def isdtype(dtype, kind) -> bool:
    """Array API ``isdtype``: is `dtype` of `kind` (a dtype, a kind name, or a tuple of them)."""
    if not isinstance(dtype, np.dtype):
        if hasattr(dtype, "dtype") and not isinstance(dtype, type):
            raise TypeError(f"isdtype() expects a dtype, not {type(dtype).__name__}")
        dtype = to_dtype(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, str):
        try:
            return _KIND_SETS[kind](dtype)
        except KeyError:
            raise ValueError(f"unknown dtype kind {kind!r}") from None
    return dtype == to_dtype(kind)


def real_dtype(dt: np.dtype) -> np.dtype:
    """The real counterpart of a complex dtype (other dtypes are returned unchanged)."""
    if dt == complex64:
        return float32
    if dt == complex128:
        return float64
    return dt


def complex_dtype(dt: np.dtype) -> np.dtype:
    return complex128 if dt in (float64, complex128) else complex64


class finfo_object:
    """NumPy's finfo with the Array API's attributes as Python floats."""

    def __init__(self, dt: np.dtype) -> None:
        self._fi = np.finfo(dt)
        self.dtype = self._fi.dtype
        self.bits = int(self._fi.bits)
        for name in ("eps", "max", "min", "smallest_normal", "tiny", "resolution", "epsneg"):
            setattr(self, name, float(getattr(self._fi, name)))

    def __getattr__(self, name):
        return getattr(self._fi, name)

    def __repr__(self) -> str:
        return repr(self._fi)


def finfo(dtype):
    """Machine limits for floating types (accepts dtypes and gnumpy arrays).

    # Note: eps, max, min, smallest_normal are Python floats (Array API), where NumPy
    # returns NumPy scalars of the dtype.
    # Note: the argument is NumPy's `dtype` (the Array API's `type` is positional-only).
    """
    dt = dtype_of(dtype)
    if dt.kind not in "fc":
        raise ValueError(f"data type {dt} not inexact")
    return finfo_object(dt)


def iinfo(int_type):
    """Machine limits for integer types (NumPy's iinfo object; accepts gnumpy arrays).

    # Note: the argument is NumPy's `int_type` (the Array API's `type` is positional-only).
    """
    dt = dtype_of(int_type)
    if dt.kind not in "iu":
        raise ValueError(f"Invalid integer data type {dt.kind!r}.")
    return np.iinfo(dt)


def int_bounds(dt: np.dtype):
    info = np.iinfo(dt)
    return int(info.min), int(info.max)


def check_weak_int(value: int, dt: np.dtype) -> None:
    """NEP 50: a Python int combined with an integer dtype must fit in it."""
    if dt.kind in "iu":
        lo, hi = int_bounds(dt)
        if not lo <= value <= hi:
            raise OverflowError(f"Python integer {value} out of bounds for {dt}")


def warn_complex_to_real(src, dst, stacklevel: int = 3) -> None:
    """NumPy's ComplexWarning for a cast of complex values to a real (not bool) dtype:
    raised at the call that asks for the cast (astype, ``dtype=``, assignment)."""
    if src.kind == "c" and dst.kind in "iuf":
        warnings.warn("Casting complex values to real discards the imaginary part",
                      np.exceptions.ComplexWarning, stacklevel=stacklevel)
