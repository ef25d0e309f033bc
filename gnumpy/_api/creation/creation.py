"""Array creation: asarray/array, ranges, constant arrays, identity-like arrays, DLPack.

Constants (``zeros``, ``full``) are lazy SCALAR nodes and ranges (``arange``, ``eye``,
``tril``) lazy IOTA expressions, so they fuse into whatever consumes them and cost no
memory until materialized.
"""
from __future__ import annotations

import math
import operator

import numpy as np

from ... import _dtypes as D
from ..._device import as_device, backend
from ..._graph import ir
from ..._sizes import check_nbytes, check_shape, dimension, dims
from .._common import host_to_node, is_array, wrap
from ..elementwise.elementwise import apply, astype
from ..outargs import check_order
from .interop import from_cuda_array_interface, from_dlpack
from ..elementwise.elementwise import where as where_
from ..shape.manipulation import stack, moveaxis, broadcast_arrays
from ..._broadcast import broadcast_to_check


def _shape(shape) -> tuple:
    out = dims(shape)
    check_shape(out)
    return out


# Note: NumPy's parameter names and kinds: asarray's and the *_like functions' `a`
# (empty_like's `prototype`), array's `object`, tril's and triu's `m` take a keyword too (the
# Array API's first argument is positional-only: a positional call satisfies both); linspace
# takes `endpoint`, `retstep`, `dtype` and `axis` positionally, as NumPy does.
def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """Convert `a` (gnumpy/NumPy array, scalar, nested sequence, DLPack object) to a gnumpy
    array on `device`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.asarray([1, 2, 3], dtype=gp.float32)
    array([1., 2., 3.], dtype=float32)
    """
    if is_array(a):
        x = a
        if device is not None and as_device(device) != x.device:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            x = x.to_device(device)
            copy = False
        if dtype is not None and D.to_dtype(dtype) != x.dtype:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            return astype(x, dtype)
        if copy is False and x._sc:     # (NumPy's scalar becomes a new array)
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        return x._copy() if copy or (copy is None and x._sc) else x
    if hasattr(a, "__dlpack__") and not isinstance(a, np.ndarray):
        x = from_dlpack(a, device=device, copy=copy)
        return x if dtype is None else asarray(x, dtype=dtype, copy=False if copy is False
                                               else None)
    if hasattr(a, "__cuda_array_interface__"):
        x = from_cuda_array_interface(a, device=device, copy=copy)
        return x if dtype is None else asarray(x, dtype=dtype)
    if isinstance(a, (list, tuple)) and a and any(is_array(e) for e in a):
        # (stack makes a new array: its pieces are not copied first)
        dev = None if device is None else as_device(device)
        x = stack([e if is_array(e) and (dev is None or e.device == dev)
                   else asarray(e, device=device) for e in a])
        return x if dtype is None else astype(x, dtype, copy=False)
    if copy is False:
        dev = as_device(device)
        if dev.kind != "cpu" or not isinstance(a, np.ndarray) or \
                (dtype is not None and D.to_dtype(dtype) != a.dtype):
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        node = backend(dev).from_numpy(a, copy=False)
        if a.size and not np.may_share_memory(node.buf, a):
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        r = wrap(node)
        r._ro = not a.flags.writeable       # the same memory: read-only stays read-only
        r._mark_shared()                    # NumPy's array sees gnumpy's writes, and back
        return r
    return wrap(host_to_node(a, dtype=dtype, device=device, copy=True))


def array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, ndmax=64,
          like=None, device=None):
    """NumPy's ``array``: like asarray, copying by default; `ndmin` prepends axes; `ndmax`
    bounds the dimensions read from nested sequences (arrays in `object` count theirs).

    # Note: NumPy's signature shows ``ndmax=0``, but leaving it out is ``NPY_MAXDIMS`` (64):
    # an explicit 0 allows no nesting.  Deeper nesting is NumPy's ValueError (gnumpy has no
    # object dtype to keep it in).
    """
    ndmax = operator.index(ndmax)
    if not 0 <= ndmax <= 64:
        raise ValueError("ndmax must be in the range [0, NPY_MAXDIMS (64)] ")
    if ndmin > ndmax:
        raise ValueError(f"ndmin must be <= ndmax ({ndmax})")
    x = asarray(object, dtype=dtype, device=device,
                copy=True if copy else False if copy is False and is_array(object) and
                object._sc else None)
    if x.ndim > ndmax and not (is_array(object) or any(
            hasattr(object, a) for a in ("__array__", "__dlpack__", "__array_interface__",
                                         "__cuda_array_interface__"))):
        raise ValueError(f"setting an array element with a sequence. The requested array "
                         f"would exceed the maximum number of dimension of {ndmax}.")
    if ndmin > x.ndim:
        x = x.reshape((1,) * (ndmin - x.ndim) + x.shape)
    return x


def asnumpy(a, stream=None, order="C", out=None) -> np.ndarray:
    """A NumPy array with the values of `a` (device-to-host copy for gnumpy arrays)."""
    r = a.get() if is_array(a) else np.asarray(a, order=order)
    if out is not None:
        out[...] = r
        return out
    return r


# ------------------------------------------------------------------ constants

def _fill(shape, value, dtype, device):
    shape = _shape(shape)
    dev = as_device(device)
    if is_array(value):
        dt = D.to_dtype(dtype) if dtype is not None else value.dtype
        broadcast_to_check(value.shape, shape)
        node = value._node if value.device == dev else value.to_device(dev)._node
        return wrap(ir.broadcast(ir.cast(node, dt), shape))
    if dtype is None:
        k = D.weak_kind(value)
        dt = D.dtype_of(np.asarray(value)) if k in (None, "i") else D.result_type(value)
    else:
        dt = D.to_dtype(dtype)
    if D.weak_kind(value) == "i":
        D.check_weak_int(value, dt)
    return wrap(ir.scalar(value, dt, shape, dev))


def empty(shape, dtype=None, order="C", *, device=None, like=None):
    """A new array of `shape` (gnumpy fills it with zeros; its values are unspecified)."""
    check_order(order, new=True)
    return _fill(shape, 0, D.to_dtype(dtype) if dtype is not None else D.float64, device)


def zeros(shape, dtype=None, order="C", *, device=None, like=None):
    """A new array of zeros (lazy: costs nothing until used)."""
    check_order(order, new=True)
    return _fill(shape, 0, D.to_dtype(dtype) if dtype is not None else D.float64, device)


def ones(shape, dtype=None, order="C", *, device=None, like=None):
    """A new array of ones."""
    check_order(order, new=True)
    return _fill(shape, 1, D.to_dtype(dtype) if dtype is not None else D.float64, device)


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    """A new array filled with `fill_value`."""
    check_order(order, new=True)
    return _fill(shape, fill_value, dtype, device)


def _like(x, dtype, shape, device, order="K"):
    check_order(order)
    if not is_array(x):
        x = asarray(x)
    return (x.dtype if dtype is None else D.to_dtype(dtype),
            x.shape if shape is None else shape,
            x.device if device is None else device)


def empty_like(prototype, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """Array of `prototype`'s shape and dtype (or the given ones) with unspecified values.

    Notes
    -----
    gnumpy's "unspecified" values are zeros (a lazy fill, which costs nothing until used).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.empty_like(gp.ones((2, 3))).shape
    (2, 3)
    """
    dt, sh, dev = _like(prototype, dtype, shape, device, order)
    return _fill(sh, 0, dt, dev)


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """Array of zeros with `a`'s shape and dtype (or the given ones).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.zeros_like(gp.ones(2, dtype=gp.int8))
    array([0, 0], dtype=int8)
    """
    dt, sh, dev = _like(a, dtype, shape, device, order)
    return _fill(sh, 0, dt, dev)


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """Array of ones with `a`'s shape and dtype (or the given ones).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.ones_like(gp.zeros(3))
    array([1., 1., 1.])
    """
    dt, sh, dev = _like(a, dtype, shape, device, order)
    return _fill(sh, 1, dt, dev)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *,
              device=None):
    """Array of `a`'s shape and dtype (or the given ones) filled with `fill_value`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.full_like(gp.ones(3, dtype=gp.int32), 7)
    array([7, 7, 7], dtype=int32)
    """
    dt, sh, dev = _like(a, dtype, shape, device, order)
    return _fill(sh, fill_value, dt, dev)


# ------------------------------------------------------------------ ranges

def arange(start=None, stop=None, step=1, *, dtype=None, device=None, like=None):
    """Evenly spaced values in [start, stop) (NumPy's arange, computed on the device).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.arange(1, 7, 2)
    array([1, 3, 5])
    """
    if start is None and stop is None:
        raise TypeError("arange() requires stop to be specified.")
    if stop is None:
        start, stop = 0, start
    elif start is None:
        start = 0
    if dtype is None and type(start) is int and type(stop) is int and type(step) is int \
            and step and -_SMALL < start < _SMALL and -_SMALL < stop < _SMALL and \
            -_SMALL < step < _SMALL:    # the common case: int64 values, no conversions
        dev = as_device(device)
        return wrap(_affine(ir.axis_iota((max(0, math.ceil((stop - start) / step)),), 0,
                                         dev), start, step, dev))
    vals = [start, stop, step]
    for v in vals:
        if is_array(v) and v.ndim != 0:
            raise ValueError("arange() arguments must be scalars")
    # NumPy picks the default dtype from the values (numpy scalars count as Python ones)
    vals = [v.item() if (is_array(v) or isinstance(v, np.generic)) else v for v in vals]
    dt = D.to_dtype(dtype) if dtype is not None else D.result_type(*vals)
    start, stop, step = vals
    if step == 0:
        raise ZeroDivisionError("division by zero")
    if all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
           for v in vals):
        # NumPy's length: the ceiling of the float quotient (past 2**53 it rounds)
        try:
            n = max(0, math.ceil((int(stop) - int(start)) / int(step)))
        except OverflowError:
            raise ValueError("Maximum allowed size exceeded") from None
    else:
        if any(isinstance(v, complex) for v in vals):
            raise TypeError("arange() does not support complex arguments")
        q = (stop - start) / step
        if math.isnan(q) or math.isinf(q):
            raise ValueError("arange: cannot compute length")
        n = max(0, math.ceil(q))
    dev = as_device(device)
    idx = ir.axis_iota((n,), 0, dev)
    if dt.kind == "b" and n > 2:
        raise TypeError("arange() is only supported for booleans when the result has at most "
                        "length 2.")
    # NumPy: the first two values in the target dtype, then start + i * (second - first)
    s0 = ir.scalar_value(start, dt)
    s1 = ir.scalar_value(start + step, dt)
    if dt.kind == "b":
        return wrap(ir.cast(_affine(idx, int(s0), int(s1) - int(s0), dev), dt))
    with np.errstate(all="ignore"):
        delta = s1 - s0
    return wrap(_affine(ir.cast(idx, dt), s0, delta, dev))


_SMALL = 1 << 62        # Python ints whose arange is int64 with no wraparound


def _affine(idx_node, start, step, dev):
    """start + idx * step as a lazy node of idx_node's dtype (wrapping like NumPy)."""
    dt = idx_node.dtype
    r = ir.ew("multiply", dt, (idx_node, ir.scalar(step, dt, idx_node.shape, dev)))
    return ir.ew("add", dt, (ir.scalar(start, dt, idx_node.shape, dev), r))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             device=None):
    """`num` evenly spaced samples over [start, stop] (NumPy's algorithm)."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = (num - 1) if endpoint else num
    arrays = [v for v in (start, stop) if is_array(v)]
    if device is None and arrays:
        device = arrays[0].device
    dev = as_device(device)
    dt = D.result_type(*(v if (is_array(v) or D.weak_kind(v)) else np.asarray(v).dtype
                         for v in (start, stop)), 1.0)
    if dt.kind not in "fc":
        dt = D.float64
    scalar = not arrays and np.ndim(start) == 0 and np.ndim(stop) == 0
    if scalar:
        s = complex(start) if dt.kind == "c" else float(start)
        e = complex(stop) if dt.kind == "c" else float(stop)
        delta = ir.scalar_value(e, dt) - ir.scalar_value(s, dt)
        step = delta / div if div > 0 else float("nan")
        y = ir.cast(ir.axis_iota((num,), 0, dev), dt)
        shape = (num,)
        if div > 0 and step == 0:
            y = ir.ew("multiply", dt, (ir.ew("divide", dt, (y, ir.scalar(div, dt, shape, dev))),
                                       ir.scalar(delta, dt, shape, dev)))
        else:
            y = ir.ew("multiply", dt, (y, ir.scalar(step if div > 0 else delta, dt, shape,
                                                    dev)))
        y = ir.ew("add", dt, (y, ir.scalar(s, dt, shape, dev)))
        res = wrap(y)
        if endpoint and num > 1:
            last = wrap(ir.cast(ir.axis_iota((num,), 0, dev), D.int64)) == num - 1
            res = where_(last, wrap(ir.scalar(e, dt, shape, dev)), res)
        step_out = step
    else:
        a = asarray(start, device=dev).astype(dt, copy=False)
        b = asarray(stop, device=dev).astype(dt, copy=False)
        delta = apply("subtract", b, a)
        nd = delta.ndim
        y = wrap(ir.cast(ir.axis_iota((num,), 0, dev), dt)).reshape((num,) + (1,) * nd)
        if div > 0:
            step_out = apply("divide", delta, div)
            if bool(apply("equal", step_out, 0).any()):
                y = apply("multiply", apply("divide", y, div), delta)
            else:
                y = apply("multiply", y, step_out)
        else:
            step_out = float("nan")
            y = apply("multiply", y, delta)
        res = apply("add", y, a)
        if endpoint and num > 1:
            idx = wrap(ir.axis_iota((num,), 0, dev)).reshape((num,) + (1,) * nd)
            res = where_(idx == num - 1, b, res)
        if axis != 0:
            res = moveaxis(res, 0, axis)
    if dtype is not None:
        odt = D.to_dtype(dtype)
        if odt.kind in "iu":
            res = apply("floor", res)
        res = astype(res, odt, copy=False)
    return (res, step_out) if retstep else res


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, *,
             device=None):
    """`num` samples evenly spaced on a log scale (base ** linspace(start, stop))."""
    y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis, device=device)
    r = apply("power", base, y) if not is_array(base) else apply("power", base, y)
    return r if dtype is None else astype(r, dtype, copy=False)


def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None):
    """2-D array with ones on the k-th diagonal."""
    check_order(order, new=True)
    N = dimension(N)
    M = N if M is None else dimension(M)
    if N < 0 or M < 0:
        raise ValueError("negative dimensions are not allowed")
    dt = D.to_dtype(dtype if dtype is not None else float)
    dev = as_device(device)
    shape = (N, M)
    k = max(-N - 1, min(operator.index(k), M + 1))  # beyond the matrix: no diagonal
    d = ir.iota(shape, (-1, 1), 0, dev)             # col - row
    mask = ir.ew("equal", D.bool_, (d, ir.scalar(k, D.int64, shape, dev)))
    return wrap(ir.cast(mask, dt))


def identity(n, dtype=None, *, device=None, like=None):
    """The `n` x `n` identity matrix (float64 unless `dtype` is given).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.identity(2)
    array([[1., 0.],
           [0., 1.]])
    """
    return eye(n, dtype=dtype if dtype is not None else float, device=device)


def _clamp_k(k, shape):
    k = operator.index(k)
    return max(-shape[0] - 1, min(k, shape[1] + 1))


def _triangle(x, k, lower):
    """`x` with the elements past the k-th diagonal (above it when `lower`) zeroed."""
    x = x if is_array(x) else asarray(x)
    k = operator.index(k)
    shape = x.shape[-2:] if x.ndim >= 2 else (x.shape[0], x.shape[0])
    k = _clamp_k(k, shape)
    d = ir.iota(shape, (-1, 1), 0, x.device)        # col - row
    op = "less_equal" if lower else "greater_equal"
    mask = ir.ew(op, D.bool_, (d, ir.scalar(k, D.int64, shape, x.device)))
    n = x._node
    if x.ndim == 2:             # the mask has x's shape: one node
        return wrap(ir.ew("where", n.dtype, (mask, n, ir.scalar(0, n.dtype, n.shape,
                                                                  n.device))))
    return where_(wrap(mask), x, wrap(ir.scalar(0, x.dtype, (), x.device)))


def tril(m, k=0):
    """Lower triangle of `m` (the last two axes); elements above the k-th diagonal are 0."""
    return _triangle(m, k, True)


def triu(m, k=0):
    """Upper triangle of `m`; elements below the k-th diagonal are 0."""
    return _triangle(m, k, False)


def tri(N, M=None, k=0, dtype=float, *, device=None, like=None):
    """`N` x `M` array with ones at and below the `k`-th diagonal, zeros elsewhere.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.tri(2, 3, dtype=int)
    array([[1, 0, 0],
           [1, 1, 0]])
    """
    N = max(operator.index(N), 0)      # (NumPy's arange(N): a negative N is 0)
    M = N if M is None else max(operator.index(M), 0)
    dev = as_device(device)
    k = _clamp_k(k, (N, M))
    for n in (N, M):        # NumPy builds it from arange(N) and arange(M)
        check_nbytes((n,), D.int64, dev)
    d = ir.iota((N, M), (-1, 1), 0, dev)
    m = ir.ew("less_equal", D.bool_, (d, ir.scalar(k, D.int64, (N, M), dev)))
    return wrap(ir.cast(m, D.to_dtype(dtype)))


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """Coordinate matrices from coordinate vectors (returns a tuple, as NumPy 2 does)."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    ndim = len(xi)
    s0 = (1,) * ndim
    out = [asarray(x).reshape(s0[:i] + (-1,) + s0[i + 1:]) for i, x in enumerate(xi)]
    if indexing == "xy" and ndim > 1:
        out[0] = out[0].reshape((1, -1) + s0[2:])
        out[1] = out[1].reshape((-1, 1) + s0[2:])
    if not sparse:
        out = list(broadcast_arrays(*out))
    if copy:
        out = [o._copy() for o in out]
    return tuple(out)


def copy(a, order="K", subok=False):
    """A copy of `a` that never aliases it."""
    check_order(order)
    return (a if is_array(a) else asarray(a))._copy()
