"""ndarray methods that are no NumPy function: ``view`` (with a dtype),
``getfield``/``setfield``, ``byteswap``, ``flags``, ``setflags``, ``dump``/``dumps``,
``tofile``, ``flatten`` and the in-place ``resize``.

The IR has no bitcast op, so a dtype view is a materialized reinterpretation: the array is
materialized and a new LEAF reads the same buffer with the new dtype.  It shares memory with
the original (writes through either are seen by both), as NumPy's views do.
"""
from __future__ import annotations

import builtins
import os
import pickle

from .. import _dtypes as D
from .._array import ndarray
from .._graph import ir
from .._graph import layout as L
from .._graph import readers as RD
from .._sizes import dims
from ._common import scalar_result, wrap
from .creation.creation import asarray
from .shape._views import layout_of
from .elementwise.elementwise import apply
from .shape.manipulation import concat, ravel
from .reductions.reductions import any as any_


def _reinterpret(x, dt, shape, byte_strides, byte_offset):
    """A LEAF view of x's memory as `dt` (x materialized); None if not element-aligned."""
    n = x._leaf()
    it = dt.itemsize
    start = n.offset * n.dtype.itemsize + byte_offset
    if start % it or any(s % it for s, d in zip(byte_strides, shape) if d > 1):
        raise NotImplementedError(f"a {dt} view of this memory would not be aligned to its "
                                  f"itemsize, which gnumpy's kernels require")
    strides = tuple(s // it if d > 1 else 0 for s, d in zip(byte_strides, shape))
    node = ir.leaf(n.buf, dt, shape, strides, start // it, n.device)
    root = x._base if x._base is not None else x
    return x._new_view(node, (("at", (strides, start // it, dt, root._node), tuple(shape)),))


def view(x, dtype=None, type=None):
    """``x.view(dtype)``: the same memory seen as another dtype (NumPy's rules for itemsize
    changes: the last axis must be contiguous and its size in bytes divisible)."""
    nd = ndarray
    if isinstance(dtype, builtins.type) and issubclass(dtype, nd):
        dtype, type = None, dtype
    if type is not None and not (isinstance(type, builtins.type) and issubclass(type, nd)):
        raise TypeError("Type must be a sub-type of ndarray type")
    if dtype is None:
        return x._view(())
    dt = D.to_dtype(dtype)
    if dt == x.dtype:
        return x._view(())
    old, new = x.dtype.itemsize, dt.itemsize
    if old == new:
        n = x._leaf()
        return _reinterpret(x, dt, x.shape, tuple(s * old for s in n.strides), 0)
    if x.ndim == 0:
        raise ValueError("Changing the dtype of a 0d array is only supported if the itemsize "
                         "is unchanged")
    n = x._leaf()
    if x.shape[-1] != 1 and n.strides[-1] != 1 and x.size:
        raise ValueError("To change to a dtype of a different size, the last axis must be "
                         "contiguous")
    last = x.shape[-1] * old
    if last % new:
        if new > old:
            raise ValueError("When changing to a larger dtype, its size must be a divisor of "
                             "the total size in bytes of the last axis of the array.")
        raise ValueError("When changing to a smaller dtype, its size must be a divisor of the "
                         "size of original dtype")
    shape = x.shape[:-1] + (last // new,)
    strides = tuple(s * old for s in n.strides[:-1]) + (new,)
    return _reinterpret(x, dt, shape, strides, 0)


def getfield(x, dtype, offset=0):
    """``x.getfield(dtype, offset)``: each element's bytes from `offset` seen as `dtype`."""
    dt = D.to_dtype(dtype)
    if offset < 0 or offset + dt.itemsize > x.dtype.itemsize:
        raise ValueError("Need 0 <= offset <= {} for requested type but received offset = {}"
                         .format(x.dtype.itemsize - dt.itemsize, offset))
    n = x._leaf()
    return _reinterpret(x, dt, x.shape, tuple(s * x.dtype.itemsize for s in n.strides), offset)


def setfield(x, val, dtype, offset=0):
    """``x.setfield(val, dtype, offset)``: write `val` into the field ``getfield`` sees."""
    if x._sc:
        raise TypeError("Can't set fields in a non-void array scalar.")
    getfield(x, dtype, offset)._assign_from(val)


def scalar_from_host(a):
    """A pickled scalar (``ndarray._sc``) on the default device: NumPy's scalar again."""
    return scalar_result(asarray(a))


def byteswap(x, inplace=False):
    """``x.byteswap()``: each element's bytes reversed (complex: each part's); of NumPy's
    scalar, a new scalar (in place: NumPy's ValueError)."""
    if x._sc:
        if inplace:
            raise ValueError("cannot byteswap a scalar in-place")
        return scalar_result(byteswap(x._copy()))
    size = x.dtype.itemsize // (2 if x.dtype.kind == "c" else 1)
    if size == 1:
        return x if inplace else x._copy()
    udt = D.to_dtype(f"uint{8 * size}")
    flat = x._copy().reshape(-1)
    u = view(flat, udt)
    r = None
    for i in range(size):
        byte = apply("bitwise_and", apply("right_shift", u, 8 * i), 0xFF)
        term = apply("left_shift", byte, 8 * (size - 1 - i))
        r = term if r is None else apply("bitwise_or", r, term)
    out = view(r, x.dtype).reshape(x.shape)
    if inplace:
        x._assign_from(out)
        return x
    return out


class Flags:
    """The memory-layout flags of an array (NumPy's ``ndarray.flags``), read without
    materializing it: a lazy result is what it will be (C-contiguous, owning its data).
    ``writeable`` can be set (``a.flags.writeable = False`` makes `a` read-only)."""

    __slots__ = ("_x",)

    def __init__(self, x):
        object.__setattr__(self, "_x", x)

    def _strides(self):
        return layout_of(self._x)[0]

    @property
    def c_contiguous(self):
        x = self._x
        return x.size <= 1 or L.is_c_contiguous(x.shape, self._strides())

    @property
    def f_contiguous(self):
        x = self._x
        return x.size <= 1 or L.is_c_contiguous(x.shape[::-1], self._strides()[::-1])

    @property
    def owndata(self):
        return self._x._base is None

    @property
    def writeable(self):
        return not self._x._ro

    @writeable.setter
    def writeable(self, value):
        setflags(self._x, write=value)

    aligned = property(lambda self: True)
    writebackifcopy = property(lambda self: False)
    contiguous = property(lambda self: self.c_contiguous)
    fortran = property(lambda self: self.f_contiguous and not self.c_contiguous)
    forc = property(lambda self: self.c_contiguous or self.f_contiguous)
    fnc = fortran
    behaved = property(lambda self: self.writeable)
    carray = property(lambda self: self.c_contiguous and self.writeable)
    farray = property(lambda self: self.f_contiguous and not self.c_contiguous and
                      self.writeable)

    _KEYS = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "CONTIGUOUS":
             "c_contiguous", "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous",
             "FORTRAN": "f_contiguous", "OWNDATA": "owndata", "O": "owndata",
             "WRITEABLE": "writeable", "W": "writeable", "ALIGNED": "aligned", "A": "aligned",
             "WRITEBACKIFCOPY": "writebackifcopy", "X": "writebackifcopy", "FNC": "fnc",
             "FORC": "forc", "BEHAVED": "behaved", "B": "behaved", "CARRAY": "carray",
             "CA": "carray", "FARRAY": "farray", "FA": "farray"}

    def __getitem__(self, key):
        try:
            return getattr(self, self._KEYS[key.upper()])
        except KeyError:
            raise KeyError("Unknown flag") from None

    def __setitem__(self, key, value):
        name = self._KEYS.get(key.upper()) if isinstance(key, str) else None
        if name == "writeable":
            self.writeable = value
        elif name == "aligned":
            setflags(self._x, align=value)
        elif name == "writebackifcopy":
            setflags(self._x, uic=value)
        else:
            raise KeyError("Unknown flag")

    def __setattr__(self, name, value):
        if name == "writeable":
            object.__setattr__(self, name, value)
        elif name == "aligned":
            setflags(self._x, align=value)
        elif name == "writebackifcopy":
            setflags(self._x, uic=value)
        else:
            raise AttributeError(f"attribute '{name}' of 'numpy.flagsobj' objects is not "
                                 f"writable")

    def __eq__(self, other):
        return isinstance(other, Flags) and all(self[k] == other[k] for k in _NAMES)

    def __repr__(self):
        return "\n".join(f"  {k} : {self[k]}" for k in _NAMES) + "\n"


_NAMES = ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED",
          "WRITEBACKIFCOPY")


def setflags(x, write=None, align=None, uic=None):
    """``x.setflags``: `write` makes `x` read-only or writeable again (not when its base
    is read-only, as NumPy); gnumpy arrays are always aligned."""
    if write is not None:
        if write:
            if x._base is not None and x._base._ro:
                raise ValueError("cannot set WRITEABLE flag to True of this array")
            x._ro = False
        else:
            x._ro = True
    if align is not None and not align:
        raise NotImplementedError("unaligned gnumpy arrays are not supported")
    if uic:
        raise ValueError("cannot set WRITEBACKIFCOPY flag to True")


def dumps(x) -> bytes:
    """``x.dumps()``: the pickle of `x` (its values are copied to the host)."""
    return pickle.dumps(x, protocol=2)


def dump(x, file) -> None:
    """``x.dump(file)``: pickle `x` to a file name or an open binary file."""
    if isinstance(file, (str, os.PathLike)):
        with open(file, "wb") as f:
            pickle.dump(x, f, protocol=2)
    else:
        pickle.dump(x, file, protocol=2)


def tofile(x, fid, sep="", format="%s") -> None:
    """``x.tofile``: write the values (copied to the host) to a file, as NumPy does."""
    x.get().tofile(fid, sep=sep, format=format)


def contains(x, value) -> bool:
    """``value in x``: whether any element equals `value`."""
    return bool(any_(apply("equal", x, value)))


def flatten(x, order="C"):
    """``ndarray.flatten``: like ravel, but always a copy."""
    r = ravel(x, order=order)
    return r._copy() if (r._base is not None or r._node is x._node) else r


def resize(a, new_shape, refcheck=True):
    """``ndarray.resize``: change the shape and size of `a` in place; new elements are
    zeros (as NumPy).  Views cannot be resized (they do not own their memory); an array
    with views only with ``refcheck=False``.
    """
    if len(new_shape) == 1:     # (one argument: a shape, or a single dimension)
        new_shape = () if new_shape[0] is None else new_shape[0]
    shape = dims(new_shape)
    if any(d < 0 for d in shape):
        raise ValueError("negative dimensions not allowed")
    if a._base is not None:
        raise ValueError("cannot resize this array: it does not own its data")
    if a._has_views and refcheck:
        raise ValueError("cannot resize an array that references or is referenced\n"
                         "by another array in this way.\nUse the np.resize function or "
                         "refcheck=False")
    if a._has_views:
        # Note: with refcheck=False, existing views keep the old memory (NumPy leaves them
        # dangling): pending ones are folded onto it before the array gets new memory
        RD.flush_readers(a._leaf().buf)
    size, old = L.prod(shape), a.size
    flat = ir.reshape(a._node, (old,))
    if size <= old:
        node = ir.view(flat, "slice", ((0, 1),), (size,)) if size < old else flat
    else:
        pad = ir.scalar(0, a.dtype, (size - old,), a.device)
        node = concat([wrap(flat), wrap(pad)])._node if old else pad
    node = ir.reshape(node, shape)
    if node.kind == ir.LEAF:
        node = ir.ew("astype", node.dtype, (node,))
    a._node = node
    a._vops = ()
    a._has_views = False
    RD.track(a)


class FlatIter:
    """NumPy's ``ndarray.flat``: the array's elements in C order, iterable, indexable and
    assignable by position in that order (ints, slices, integer arrays, boolean masks),
    whatever the array's memory layout; a write goes into the array."""

    __slots__ = ("base",)

    def __init__(self, x):
        self.base = x

    def __len__(self) -> int:
        return self.base.size

    def __iter__(self):
        return iter(self.base.reshape(-1))

    def __getitem__(self, key):
        return self.base.reshape(-1)[key]

    def __setitem__(self, key, value):
        # the key's positions in C order, as the array's indices (creation and index_tricks
        # loaded on first use: array_methods loads with every array)
        from .creation.creation import arange
        from .indexing.index_tricks import unravel_index
        x = self.base
        pos = arange(x.size, device=x.device)[key]
        x[unravel_index(pos, x.shape) if x.ndim != 1 else pos] = value

    def copy(self):
        return self.base.reshape(-1).copy()

    def __array__(self, dtype=None, copy=None):
        return self.base.reshape(-1).__array__(dtype, copy)
