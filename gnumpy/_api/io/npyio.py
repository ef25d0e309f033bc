"""File I/O: ``save``/``load`` (.npy, .npz), text files, and arrays from files, buffers,
strings, iterators and regular expressions.

As in CuPy, NumPy does all the reading, parsing and writing on the host: readers parse into
a NumPy array and copy it to the default device (``asarray``); writers copy gnumpy arrays to
the host (``.get()``) and hand them to NumPy with the caller's keywords unchanged.

Note: gnumpy arrays hold only numeric and boolean dtypes, so a reader whose result would be
a structured, object, string, datetime or long-double array raises ``TypeError`` instead of
returning a NumPy array (gnumpy never silently falls back to NumPy).  Results that are not
arrays (a pickled Python object from ``load``) are returned as NumPy gives them.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np

from ... import _dtypes as D
from .._common import is_array
from ..creation.creation import asarray

__all__ = ["save", "load", "savez", "savez_compressed", "savetxt", "loadtxt", "genfromtxt",
           "fromfile", "frombuffer", "fromstring", "fromiter", "fromregex"]


# ------------------------------------------------------------------ host <-> device

def _check_dtype(dt, where: str) -> None:
    """Raise a clear TypeError when `dt` cannot be the dtype of a gnumpy array."""
    dt = np.dtype(dt)
    if dt.names is not None or dt.subdtype is not None:
        raise TypeError(f"{where}: gnumpy does not support structured or subarray dtypes "
                        f"({dt}); read structured data with NumPy and convert the fields")
    if dt.kind == "O":
        raise TypeError(f"{where}: gnumpy does not support object arrays")
    try:
        D.to_dtype(dt)
    except TypeError:
        raise TypeError(f"{where}: gnumpy does not support dtype {dt}") from None


def _to_device(obj, where: str):
    """A NumPy result (array, or list/tuple of arrays from ``unpack``) as gnumpy arrays."""
    if isinstance(obj, np.ndarray):
        if isinstance(obj, np.ma.MaskedArray):
            raise TypeError(f"{where}: gnumpy has no masked arrays")
        _check_dtype(obj.dtype, where)
        return asarray(np.asarray(obj))      # a copy: memmaps and buffers are not aliased
    if isinstance(obj, (list, tuple)):
        return type(obj)(_to_device(e, where) for e in obj)
    return obj


def _host(x):
    """`x` with every gnumpy array (also inside lists and tuples) copied to the host."""
    if is_array(x):
        return x.get()
    if type(x) in (list, tuple):
        return type(x)(_host(e) for e in x)
    return x


# ------------------------------------------------------------------ .npy / .npz

def save(file, arr, allow_pickle=True):
    """Save an array to a binary file in NumPy ``.npy`` format.

    `arr` (a gnumpy array or anything NumPy accepts) is copied to the host and written by
    ``numpy.save``; ``.npy`` is appended to a file name without it.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.save("/tmp/x.npy", gp.arange(3))
    >>> gp.load("/tmp/x.npy")
    array([0, 1, 2])
    """
    np.save(file, _host(arr), allow_pickle=allow_pickle)


def savez(file, *args, allow_pickle=True, **kwds):
    """Save several arrays into one uncompressed ``.npz`` file.

    Positional arrays are stored as ``arr_0``, ``arr_1``, ...; keyword arrays under their
    names.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.savez("/tmp/xy.npz", x=gp.arange(3), y=gp.ones(2))
    >>> with gp.load("/tmp/xy.npz") as f:
    ...     f["y"]
    array([1., 1.])
    """
    np.savez(file, *_host(args), allow_pickle=allow_pickle,
             **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """Save several arrays into one compressed (zip deflate) ``.npz`` file.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.savez_compressed("/tmp/z.npz", gp.zeros(1000))
    >>> gp.load("/tmp/z.npz")["arr_0"].shape
    (1000,)
    """
    np.savez_compressed(file, *_host(args), allow_pickle=allow_pickle,
                        **{k: _host(v) for k, v in kwds.items()})


class NpzFile(Mapping):
    """A read-only mapping over an ``.npz`` archive whose values are gnumpy arrays.

    Wraps ``numpy.lib.npyio.NpzFile``: each access reads the member lazily and copies it to
    the device (a fresh array per access, as NumPy reads afresh).  Use it in a ``with``
    block or call ``close()``.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.savez("/tmp/ab.npz", a=gp.arange(2), b=gp.zeros(3))
    >>> with gp.load("/tmp/ab.npz") as f:
    ...     f.files, f["a"]
    (['a', 'b'], array([0, 1]))
    """

    def __init__(self, npz):
        self.npz = npz
        self.f = _Bag(self)

    @property
    def files(self) -> list:
        """The names of the arrays in the archive (without ``.npy``)."""
        return self.npz.files

    def __getitem__(self, key):
        return _to_device(self.npz[key], f"load({key!r})")

    def __contains__(self, key):
        return key in self.npz

    def __iter__(self):
        return iter(self.npz.files)

    def __len__(self):
        return len(self.npz.files)

    def close(self) -> None:
        """Close the underlying archive."""
        self.npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"gnumpy {self.npz!r}"


class _Bag:
    """Attribute access to the members of an NpzFile (``f.f.x`` is ``f['x']``)."""

    def __init__(self, obj):
        self._obj = obj

    def __getattr__(self, key):
        try:
            return self._obj[key]
        except KeyError:
            raise AttributeError(key) from None

    def __dir__(self):
        return list(self._obj.files)


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *,
         max_header_size=10000):
    """Load arrays or pickled objects from ``.npy``, ``.npz`` or pickled files.

    A ``.npy`` file gives a gnumpy array, an ``.npz`` file an :class:`NpzFile` whose
    values are gnumpy arrays, and a pickle (``allow_pickle=True``) the unpickled object
    (a NumPy array in it becomes a gnumpy array).

    Note: with `mmap_mode` NumPy maps the file and gnumpy copies it to the device: the
    result does not write through to the file.  Object arrays (``allow_pickle=True``)
    raise ``TypeError``: gnumpy has no object dtype.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.save("/tmp/x.npy", gp.eye(2))
    >>> gp.load("/tmp/x.npy")
    array([[1., 0.],
           [0., 1.]])
    """
    obj = np.load(file, mmap_mode=mmap_mode, allow_pickle=allow_pickle,
                  fix_imports=fix_imports, encoding=encoding, max_header_size=max_header_size)
    if isinstance(obj, np.lib.npyio.NpzFile):
        return NpzFile(obj)
    if isinstance(obj, np.ndarray):
        return _to_device(obj, "load")
    return obj


# ------------------------------------------------------------------ text files

def savetxt(fname, X, fmt="%.18e", delimiter=" ", newline="\n", header="", footer="",
            comments="# ", encoding=None):
    """Save a 1-D or 2-D array to a text file (``numpy.savetxt`` on a host copy).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.savetxt("/tmp/x.txt", gp.arange(4).reshape(2, 2), fmt="%d", delimiter=",")
    >>> open("/tmp/x.txt").read()
    '0,1\\n2,3\\n'
    """
    np.savetxt(fname, _host(X), fmt=fmt, delimiter=delimiter, newline=newline,
               header=header, footer=footer, comments=comments, encoding=encoding)


def loadtxt(fname, dtype=float, comments="#", delimiter=None, converters=None, skiprows=0,
            usecols=None, unpack=False, ndmin=0, encoding=None, max_rows=None, *,
            quotechar=None, like=None):
    """Load data from a text file (parsed by ``numpy.loadtxt``, then copied to the device).

    With a structured `dtype` and ``unpack=True`` each field comes back as its own gnumpy
    array; a structured result otherwise raises ``TypeError``.

    Examples
    --------
    >>> import io
    >>> import gnumpy as gp
    >>> gp.loadtxt(io.StringIO("1,2\\n3,4"), delimiter=",", dtype=gp.int32)
    array([[1, 2],
           [3, 4]], dtype=int32)
    """
    r = np.loadtxt(fname, dtype=dtype, comments=comments, delimiter=delimiter,
                   converters=converters, skiprows=skiprows, usecols=usecols, unpack=unpack,
                   ndmin=ndmin, encoding=encoding, max_rows=max_rows, quotechar=quotechar)
    return _to_device(r, "loadtxt")


def genfromtxt(fname, dtype=float, comments="#", delimiter=None, skip_header=0,
               skip_footer=0, converters=None, missing_values=None, filling_values=None,
               usecols=None, names=None, excludelist=None,
               deletechars=" !#$%&'()*+,-./:;<=>?@[\\]^{|}~", replace_space="_",
               autostrip=False, case_sensitive=True, defaultfmt="f%i", unpack=None,
               usemask=False, loose=True, invalid_raise=True, max_rows=None, encoding=None,
               *, ndmin=0, like=None):
    """Load data from a text file, handling missing values (``numpy.genfromtxt``).

    Note: gnumpy has no masked arrays, so ``usemask=True`` raises ``TypeError``; results
    with a structured dtype (``names=True``, mixed columns with ``dtype=None``) raise
    ``TypeError`` too.

    Examples
    --------
    >>> import io
    >>> import gnumpy as gp
    >>> gp.genfromtxt(io.StringIO("1,,3\\n4,5,6"), delimiter=",", filling_values=0)
    array([[1., 0., 3.],
           [4., 5., 6.]])
    """
    if usemask:
        raise TypeError("genfromtxt: gnumpy has no masked arrays (usemask=True)")
    r = np.genfromtxt(fname, dtype=dtype, comments=comments, delimiter=delimiter,
                      skip_header=skip_header, skip_footer=skip_footer,
                      converters=converters, missing_values=missing_values,
                      filling_values=filling_values, usecols=usecols, names=names,
                      excludelist=excludelist, deletechars=deletechars,
                      replace_space=replace_space, autostrip=autostrip,
                      case_sensitive=case_sensitive, defaultfmt=defaultfmt, unpack=unpack,
                      usemask=usemask, loose=loose, invalid_raise=invalid_raise,
                      max_rows=max_rows, encoding=encoding, ndmin=ndmin)
    return _to_device(r, "genfromtxt")


def fromregex(file, regexp, dtype, encoding=None):
    """An array of the groups a regular expression matches in a text file.

    Note: NumPy demands a structured `dtype` and returns a structured array, which gnumpy
    does not have.  gnumpy takes a plain `dtype` instead and returns a plain array: 1-D
    when `regexp` has at most one group, else 2-D with one column per group (NumPy's
    ``structured_to_unstructured`` of the structured result).  A structured `dtype` raises
    ``TypeError``.

    Examples
    --------
    >>> import io
    >>> import gnumpy as gp
    >>> gp.fromregex(io.StringIO("x=1 x=22 x=3"), r"x=(\\d+)", gp.int64)
    array([ 1, 22,  3])
    """
    from numpy.lib.recfunctions import structured_to_unstructured
    _check_dtype(dtype, "fromregex")
    dt = np.dtype(dtype)
    groups = regexp.groups if hasattr(regexp, "match") else re.compile(regexp).groups
    n = max(groups, 1)
    r = np.fromregex(file, regexp, [(f"f{i}", dt) for i in range(n)], encoding=encoding)
    r = structured_to_unstructured(r)
    return _to_device(r[..., 0] if n == 1 else r, "fromregex")


# ------------------------------------------------------------------ raw data

def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None):
    """An array from binary or text data in a file (``numpy.fromfile``, then a device copy).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.arange(3, dtype=gp.int16).tofile("/tmp/x.bin")
    >>> gp.fromfile("/tmp/x.bin", dtype=gp.int16)
    array([0, 1, 2], dtype=int16)
    """
    _check_dtype(float if dtype is None else dtype, "fromfile")
    r = np.fromfile(file, dtype=dtype, count=count, sep=sep, offset=offset)
    return _to_device(r, "fromfile")


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None):
    """An array with the data of a buffer-protocol object (bytes, bytearray, memoryview).

    Note: NumPy's result aliases `buffer`; gnumpy's is always a copy on the device (device
    memory cannot alias host memory), so later changes to `buffer` are not seen and the
    result is writable.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.frombuffer(b"\\x01\\x02\\x03", dtype=gp.uint8)
    array([1, 2, 3], dtype=uint8)
    """
    _check_dtype(float if dtype is None else dtype, "frombuffer")
    r = np.frombuffer(buffer, dtype=dtype, count=count, offset=offset)
    return _to_device(r, "frombuffer")


def fromstring(string, dtype=float, count=-1, *, sep="", like=None):
    """A 1-D array from numbers in a text string separated by `sep` (``numpy.fromstring``).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fromstring("1, 2, 3", dtype=gp.int32, sep=",")
    array([1, 2, 3], dtype=int32)
    """
    _check_dtype(float if dtype is None else dtype, "fromstring")
    return _to_device(np.fromstring(string, dtype=dtype, count=count, sep=sep), "fromstring")


def fromiter(iter, dtype, count=-1, *, like=None):
    """A 1-D array from the values of an iterable (``numpy.fromiter``, then a device copy).

    A gnumpy array as `iter` is copied to the host once, not element by element.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.fromiter((i * i for i in range(4)), dtype=gp.float32)
    array([0., 1., 4., 9.], dtype=float32)
    """
    _check_dtype(dtype, "fromiter")
    src = iter.get() if is_array(iter) else iter
    return _to_device(np.fromiter(src, dtype=dtype, count=count), "fromiter")
