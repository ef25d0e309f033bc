"""ndarray's attributes, conversions and Python protocol, as a base class of
``gnumpy.ndarray`` (``_array.py`` holds its state, views, writes and indexing).

The attributes: ``shape`` (and the in-place reshape ``a.shape = ...``), ``dtype``,
``size``, ``strides``, ``T``, ``real`` and ``imag`` (views of a complex array's parts),
``flags``, ``flat``.  The conversions: to NumPy (``get``, ``__array__``), to Python
scalars (``item``, ``float(a)``, ``bool(a)``, ...: an element read takes its value from
the host when it is known there, ``_hostvals``), to another device, to DLPack and CUDA
array consumers.  The protocol: ``len``, ``iter``, ``repr``, ``format``, ``hash``,
copies, pickling and ``__array_namespace__``.

Like ``_array.py`` it reaches the namespace by name (``_ns``), and names no module above it.
"""
from __future__ import annotations

import operator

import numpy as np

from . import _dtypes as D
from . import _lazy
from ._config import config
from ._device import as_device as _as_device, backend as _backend
from ._graph import ir
from ._graph import layout as L
from ._graph import realize as R
from ._graph.ir import EW as _EW, LEAF, SCALAR as _SCALAR
from ._hostvals import read_element as _read_element, value as _host_value
from ._viewmem import _at_part

_REVERSED = [tuple(range(n - 1, -1, -1)) for n in range(8)]     # .T's axes by ndim

_ns = _lazy.package()


def _copied(n):
    """The LEAF lazy node `n` copies unchanged (``astype`` to its own dtype: an element
    read, ``a[i, j]``), or None."""
    if n.kind == ir.EW and n.op == "astype":
        srcs = n.srcs               # (read once: another thread may make `n` a constant)
        if srcs and srcs[0].kind == LEAF and srcs[0].dtype is n.dtype:
            return srcs[0]
    return None


def _host_view(a) -> np.ndarray:
    """A NumPy view (or copy) of array `a`'s memory, for printing."""
    n = a._leaf()
    be = _backend(n.device)
    hv = getattr(be, "host_view", None)
    return hv(n) if hv is not None else be.to_numpy(n)


class ArrayAttributes:
    """The attributes, conversions and Python protocol of ``gnumpy.ndarray``."""

    __slots__ = ()

    # ------------------------------------------------------------------ attributes
    @property
    def shape(self) -> tuple:
        return self._node.shape

    @shape.setter
    def shape(self, value) -> None:
        """In-place reshape without a copy (NumPy's ``a.shape = ...``)."""
        bad = AttributeError("Incompatible shape for in-place modification. Use `.reshape()` "
                             "to make a copy with the desired shape.")
        n = self._node
        if self._base is None and n.kind == LEAF and not L.is_c_contiguous(n.shape, n.strides):
            raise bad
        try:
            v = _ns.reshape(self, value, copy=False)
        except ValueError as e:
            if "copy" in str(e):
                raise bad from None
            raise
        if self._base is None:
            self._node = v._node
        else:
            self._node, self._vops = v._node, v._vops

    @property
    def dtype(self) -> np.dtype:
        return self._node.dtype

    @property
    def ndim(self) -> int:
        return len(self._node.shape)

    @property
    def size(self) -> int:
        return L.prod(self._node.shape)

    @property
    def itemsize(self) -> int:
        return self._node.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self._node.dtype.itemsize

    @property
    def device(self):
        return self._node.device

    @property
    def base(self):
        return self._base

    @property
    def strides(self) -> tuple:
        n = self._leaf()
        return tuple(s * n.dtype.itemsize for s in n.strides)

    @property
    def T(self):
        # transpose(x) with its axes reversed, without the function's argument handling:
        # ``A.T @ x`` is common in loops
        n = self._node
        shape = n.shape
        if len(shape) < 2:
            return self._view(())
        if n.kind == LEAF:          # materialized: the reversed layout over its memory
            rn = (self._base if self._base is not None else self)._node
            if rn.kind == LEAF and n.buf is rn.buf:
                return self._strided_view(shape[::-1], n.strides[::-1], n.offset)
        return self._view([("permute", _REVERSED[len(shape)] if len(shape) < 8 else
                            tuple(range(len(shape) - 1, -1, -1)), shape[::-1])])

    @property
    def mT(self):
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        return _ns.swapaxes(self, -1, -2)

    @property
    def real(self):
        """The real part: a view for complex arrays (writes reach this array); the array
        itself otherwise (NumPy; a scalar's: a new scalar)."""
        if self._node.dtype.kind == "c":
            return self._part(0)
        return self.copy() if self._sc else self

    @real.setter
    def real(self, value):
        if self._sc:
            raise AttributeError("attribute 'real' of 'numpy.generic' objects is not writable")
        self.real._assign_from(value)

    @property
    def imag(self):
        """The imaginary part: a view for complex arrays; a read-only array of zeros for
        real ones (NumPy)."""
        if self._node.dtype.kind == "c":
            return self._part(1)
        z = self._from_node(ir.scalar(0, self.dtype, self.shape, self.device))
        z._ro, z._sc = not self._sc, self._sc       # (a scalar's: a new scalar)
        return z

    @imag.setter
    def imag(self, value):
        if self._sc:
            raise AttributeError("attribute 'imag' of 'numpy.generic' objects is not writable")
        if self._node.dtype.kind != "c":
            raise TypeError("array does not have imaginary part to set")
        self.imag._assign_from(value)

    def _part(self, k):
        """View of the real (k=0) or imaginary (k=1) parts of a complex array.  Its node
        reads the part with the op (a kernel loads the complex element once, vectorized);
        a write, or a read of its memory, binds it to the strided floats of the array."""
        rdt = D.real_dtype(self._node.dtype)
        node = ir.ew("imag" if k else "real", rdt, (self._node,))
        return self._new_view(node, _at_part(self, k, rdt))

    @property
    def flags(self):
        return _ns._array_methods.Flags(self)

    @property
    def flat(self):
        return _ns._array_methods.FlatIter(self)

    # ------------------------------------------------------------------ conversions
    def get(self, stream=None) -> np.ndarray:
        """A NumPy array with this array's values (device-to-host copy)."""
        n = self._node
        if n.kind == _SCALAR:       # a constant: no memory to make and read back
            return np.full(n.shape, n.arg, dtype=n.dtype)
        n = _copied(n)              # a copy not made yet (an element read): its source
        if n is None:               # (a write to that memory since would have
            n = self._leaf()        # materialized it)
        return _backend(n.device).to_numpy(n)

    def __array__(self, dtype=None, copy=None):
        if not config.allow_implicit_host:
            raise TypeError("Implicit conversion to a NumPy array is not allowed "
                            "(gnumpy.config.allow_implicit_host is False); use .get() or "
                            "gnumpy.asnumpy()")
        if copy is False:
            raise ValueError("a gnumpy array cannot be converted to NumPy without a copy")
        a = self.get()
        return a if dtype is None else a.astype(dtype, copy=False)

    def item(self, *args):
        if len(args) == 1 and not isinstance(args[0], tuple):
            i = operator.index(args[0])
            if not -self.size <= i < self.size:
                raise IndexError(f"index {i} is out of bounds for size {self.size}")
            return self.reshape(-1)[i].item()
        if args:
            return self[args if len(args) > 1 else args[0]].item()
        if self.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return self.get().item()

    def tolist(self):
        return self.get().tolist()

    def tobytes(self, order="C") -> bytes:
        return self.get().tobytes(order)

    def to_device(self, device, /, *, stream=None):
        dev = _as_device(device)
        if dev == self.device:
            return self
        return self._from_node(_backend(dev).from_numpy(self.get(), copy=False))

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        n = self._write_target(skip=False)   # the consumer may write: readers go first
        self._mark_shared()
        return _backend(n.device).dlpack_export(n, stream=stream, max_version=max_version,
                                               dl_device=dl_device, copy=copy,
                                               readonly=self._ro)

    @property
    def __cuda_array_interface__(self):
        if self.device.kind != "cuda":
            raise AttributeError("__cuda_array_interface__ is only defined for CUDA arrays")
        return _ns._interop.cuda_array_interface(self)

    def __dlpack_device__(self):
        return _backend(self.device).dlpack_device()

    # ------------------------------------------------------------------ Python protocol
    def __array_namespace__(self, /, *, api_version=None):
        if api_version is not None and api_version not in ("2021.12", "2022.12", "2023.12",
                                                           "2024.12"):
            raise ValueError(f"unsupported Array API version {api_version!r}")
        return _ns

    def _scalar(self, kind):
        n = self._node
        if n.shape == ():               # the common case: a 0-d array (an element read)
            if n.kind == _SCALAR:       # a constant (an op's result over constants)
                return n.arg
            if n.kind == _EW and not R.capturing[0]:
                # under the execution lock: a read between a write's record and its store
                # would keep the old value, and host values' ops become constants, not
                # while another thread runs a graph holding them
                with R.lock:
                    if n.op == "astype":            # (_copied, inlined: the hot path)
                        srcs = n.srcs
                        if srcs and srcs[0].kind == LEAF and srcs[0].dtype is n.dtype:
                            return _read_element(srcs[0], _backend)     # an element
                    v = _host_value(n, _backend)    # of elements known on the host
                if v is not None:
                    return v
            return self.get()[()]
        if self.ndim != 0 and kind != "bool":
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        if self.size != 1:
            if self.size == 0:
                raise ValueError("The truth value of an empty array is ambiguous. Use "
                                 "`array.size > 0` to check that an array is not empty.")
            raise ValueError("The truth value of an array with more than one element is "
                             "ambiguous. Use a.any() or a.all()")
        return self.get().reshape(())[()]

    def __bool__(self):
        return bool(self._scalar("bool"))

    def __int__(self):
        if self._node.dtype.kind == "c":
            raise TypeError("int() argument must be a string, a bytes-like object or a real "
                            "number, not 'complex'")
        return int(self._scalar("int"))

    def __float__(self):
        if self._node.dtype.kind == "c":
            raise TypeError("float() argument must be a string or a real number, not "
                            "'complex'")
        return float(self._scalar("float"))

    def __complex__(self):
        return complex(self._scalar("complex"))

    def __index__(self):
        n = self._node
        if n.dtype.kind not in "iu" or n.shape != ():
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return int(self._scalar("int"))

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    def __delitem__(self, key):
        raise ValueError("cannot delete array elements")

    __class_getitem__ = classmethod(__import__("types").GenericAlias)

    def __repr__(self):
        return _host_view(self).__repr__()

    def __str__(self):
        return _host_view(self).__str__()

    def __format__(self, spec):
        if self.ndim == 0:
            return format(self.item(), spec)
        if spec:
            raise TypeError("unsupported format string passed to gnumpy.ndarray.__format__")
        return str(self)

    def __hash__(self):
        if self._sc:        # NumPy's scalar (immutable) hashes as its value: a dict key
            return hash(self.item())    # ``d[a.argmax()]`` (one device read)
        raise TypeError("unhashable type: 'gnumpy.ndarray'")

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        return (_ns.asarray, (self.get(),)) if not self._sc else \
            (_ns._array_methods.scalar_from_host, (self.get(),))
