"""Logic, comparison and selection: isclose, allclose, array_equal, array_equiv, isneginf,
isposinf, iscomplex, isreal, iscomplexobj, isrealobj, real_if_close, isfortran, iterable,
shares_memory, may_share_memory, select and piecewise.

Everything elementwise here is one fused expression (``isclose`` is one kernel, ``select``
one kernel however many choices); the functions that return a Python bool (``allclose``,
``array_equal``) reduce on the device and transfer one boolean.
"""
from __future__ import annotations

import builtins
import warnings

import numpy as np

from ... import _dtypes as D
from ..._broadcast import broadcast_shapes
from .._common import as_node, is_array, scalar_result, wrap
from .elementwise import apply, astype
from .resolution import _classify, _promote
from .elementwise import where as where_
from ..outargs import finish
from ..._numpy_compat import geterr
from ..reductions.reductions import all as all_, any as any_
from ..creation.creation import zeros
from ..._graph import layout as L, ir
from ..shape.manipulation import broadcast_to, stack

_WEAK = (int, float, complex)


def _arr(x, device=None):
    return x if is_array(x) else wrap(as_node(x, device=device))


def _operand(x):
    """Python scalars stay weak; everything else becomes a gnumpy array."""
    return x if type(x) in _WEAK else _arr(x)


# ------------------------------------------------------------------ closeness and equality

def _check_tolerance(atol, rtol):
    bad = [t for t in (atol, rtol) if not is_array(t) and np.ndim(t) == 0 and
           not np.isfinite(t)]
    if not bad:
        return
    mode = geterr()["invalid"]
    msg = f"One of rtol or atol is not valid, atol: {atol}, rtol: {rtol}"
    if mode == "warn":
        warnings.warn(msg, RuntimeWarning, stacklevel=3)
    elif mode == "raise":
        raise FloatingPointError(msg)
    elif mode == "print":
        print(msg)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise ``|a - b| <= atol + rtol * |b|`` (NumPy 2's rules; one fused kernel).

    # Note: returns a 0-d array where NumPy returns a NumPy bool scalar.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.isclose(gp.asarray([1.0, 1.1]), 1.0)
    array([ True, False])
    """
    x, y = _operand(a), _operand(b)
    rtol, atol = _operand(rtol), _operand(atol)
    if not is_array(x) and not is_array(y):
        x = _arr(x)
    if is_array(y):
        y = astype(y, D.result_type(y, 1.0), copy=False)
    elif isinstance(y, int):
        y = float(y)
    _check_tolerance(atol, rtol)
    bound = apply("add", atol, apply("multiply", rtol, apply("absolute", y)))
    r = apply("logical_and", apply("less_equal", apply("absolute", apply("subtract", x, y)),
                                   bound), apply("isfinite", y))
    r = apply("logical_or", r, apply("equal", x, y))
    if equal_nan:
        r = apply("logical_or", r, apply("logical_and", apply("isnan", x), apply("isnan", y)))
    return r


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    """Whether all elements are close (``isclose``); a Python bool (one transfer).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.allclose(gp.asarray([1.0, 2.0]), [1.0, 2.0 + 1e-9])
    True
    """
    return builtins.bool(all_(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def array_equal(a1, a2, equal_nan=False) -> bool:
    """True if the arrays have the same shape and elements (NaNs equal with `equal_nan`).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.array_equal(gp.asarray([1, 2]), [1, 2])
    True
    """
    try:
        x = _arr(a1)
        y = _arr(a2, x.device)
    except Exception:
        return False
    if x.shape != y.shape:
        return False
    eq = apply("equal", x, y)
    if equal_nan and (x.dtype.kind in "fc" or y.dtype.kind in "fc"):
        eq = apply("logical_or", eq, apply("logical_and", apply("isnan", x),
                                           apply("isnan", y)))
    return builtins.bool(all_(eq))


def array_equiv(a1, a2) -> bool:
    """True if the arrays broadcast to one shape and are equal elementwise.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.array_equiv(gp.asarray([1, 2]), [[1, 2], [1, 2]])
    True
    """
    try:
        x = _arr(a1)
        y = _arr(a2, x.device)
    except Exception:
        return False
    try:
        broadcast_shapes(x.shape, y.shape)
    except ValueError:
        return False
    return builtins.bool(all_(apply("equal", x, y)))


# ------------------------------------------------------------------ predicates

def _signed_inf(x, out, negative):
    x = _arr(x)
    try:
        sb = apply("signbit", x)
    except TypeError:
        raise TypeError(f"This operation is not supported for {x.dtype} values because it "
                        f"would be ambiguous.") from None
    if not negative:
        sb = apply("logical_not", sb)
    return finish("logical_and", apply("logical_and", apply("isinf", x), sb), out)


def isposinf(x, out=None):
    """Elementwise test for positive infinity.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.isposinf(gp.asarray([gp.inf, -gp.inf, 1.0]))
    array([ True, False, False])
    """
    return _signed_inf(x, out, False)


def isneginf(x, out=None):
    """Elementwise test for negative infinity.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.isneginf(gp.asarray([gp.inf, -gp.inf, 1.0]))
    array([False,  True, False])
    """
    return _signed_inf(x, out, True)


def iscomplex(x):
    """Elementwise: does the element have a non-zero imaginary part.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.iscomplex(gp.asarray([1 + 1j, 1 + 0j]))
    array([ True, False])
    """
    x = _arr(x)
    if x.dtype.kind == "c":
        return apply("not_equal", apply("imag", x), 0)
    return scalar_result(zeros(x.shape, dtype=D.bool_, device=x.device))   # (NumPy's res[()])


def isreal(x):
    """Elementwise: is the imaginary part zero.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.isreal(gp.asarray([1 + 1j, 1 + 0j]))
    array([False,  True])
    """
    return apply("equal", apply("imag", _arr(x)), 0)


def iscomplexobj(x) -> bool:
    """Whether `x` has a complex dtype (checks the type, not the values).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.iscomplexobj(gp.asarray([1 + 0j]))
    True
    """
    dt = getattr(x, "dtype", None)
    if dt is None:
        dt = np.asarray(x).dtype
    return np.dtype(dt).kind == "c"


def isrealobj(x) -> bool:
    """Whether `x` has a non-complex dtype.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.isrealobj(gp.asarray([1.0]))
    True
    """
    return not iscomplexobj(x)


def real_if_close(a, tol=100):
    """The real part of complex `a` if every imaginary part is within `tol` machine
    epsilons of zero (one device check), else `a`.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.real_if_close(gp.asarray([2.1 + 4e-15j])).dtype
    dtype('float64')
    """
    a = _arr(a)
    if a._sc:
        a = a._copy()       # (NumPy's asanyarray: a scalar becomes a new 0-d array)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = float(np.finfo(a.dtype).eps) * tol
    if builtins.bool(all_(apply("less", apply("absolute", apply("imag", a)), tol))):
        return a.real
    return a


def isfortran(a) -> bool:
    """True if `a` is Fortran-contiguous and not C-contiguous (materializes `a`).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.isfortran(gp.ones((2, 3)).T)
    True
    """
    if not is_array(a):
        return np.isfortran(a)
    n = a._leaf()
    c = L.is_c_contiguous(n.shape, n.strides)
    f = L.is_c_contiguous(n.shape[::-1], n.strides[::-1])
    return f and not c


def iterable(y) -> bool:
    """Whether `y` can be iterated over (0-d arrays cannot).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.iterable(gp.arange(3)), gp.iterable(gp.asarray(1))
    (True, False)
    """
    try:
        iter(y)
    except TypeError:
        return False
    return True


# ------------------------------------------------------------------ memory overlap

class _Extent:
    """A host stand-in with a gnumpy array's address, shape and strides (never read)."""

    def __init__(self, ptr, node):
        it = node.dtype.itemsize
        self.__array_interface__ = {
            "shape": node.shape, "typestr": node.dtype.str, "version": 3,
            "data": (ptr + node.offset * it, False),
            "strides": tuple(s * it for s in node.strides)}


def _memory(x):
    """A NumPy array describing the memory of `x` (same address, shape, strides)."""
    if not is_array(x):
        return np.asarray(x)
    n = x._leaf()
    buf = n.buf
    ptr = getattr(buf, "ptr", None)
    if ptr is None:
        ptr = buf.__array_interface__["data"][0]
    return np.asarray(_Extent(int(ptr), n))


def shares_memory(a, b, /, max_work=None):
    """Whether `a` and `b` share memory (exact, as NumPy's; materializes lazy arrays).

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.arange(10)
    >>> gp.shares_memory(x[::2], x[1::2]), gp.shares_memory(x, x[3:])
    (False, True)
    """
    kw = {} if max_work is None else {"max_work": max_work}
    return np.shares_memory(_memory(a), _memory(b), **kw)


def may_share_memory(a, b, /, max_work=None):
    """Whether `a` and `b` might share memory (their address ranges overlap).

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.arange(10)
    >>> gp.may_share_memory(x[::2], x[1::2])
    True
    """
    kw = {} if max_work is None else {"max_work": max_work}
    return np.may_share_memory(_memory(a), _memory(b), **kw)


# ------------------------------------------------------------------ selection

def select(condlist, choicelist, default=0):
    """Elements from `choicelist` by the first true condition in `condlist`, else
    `default` (one fused kernel).

    # Note: the result dtype is the promotion of the choices and the default (Python
    # scalars weak); NumPy computes the same dtype but then refuses Python int choices for
    # unsigned arrays (its copyto casts them as int64), which gnumpy does not.

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.arange(6)
    >>> gp.select([x < 3, x > 4], [x, x ** 2], 42)
    array([ 0,  1,  2, 42, 42, 25])
    """
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    choices = [_operand(c) for c in choicelist] + [_operand(default)]
    try:
        items, dev = _classify(choices)
        dt = _promote(items)
    except TypeError as e:
        raise TypeError(f"Choicelist and default value do not have a common dtype: {e}") \
            from None
    conds = [_arr(c, dev) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype != D.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    cshape = broadcast_shapes(*[c.shape for c in conds])
    chshape = broadcast_shapes(*[c.shape for c in choices if is_array(c)])
    shape = cshape if not chshape else broadcast_shapes(cshape, chshape)
    r = broadcast_to(astype(_arr(choices[-1], dev), dt, copy=False) if is_array(choices[-1])
                     else _const(choices[-1], dt, dev), shape)
    for cond, choice in zip(conds[::-1], choices[-2::-1]):
        ch = astype(choice, dt, copy=False) if is_array(choice) else _const(choice, dt, dev)
        r = where_(cond, ch, r)
    return r


def _array_entries(condlist) -> bool:
    """Is `condlist` a list of arrays (NumPy: its first entry is a list or an ndarray)?"""
    if is_array(condlist):
        return condlist.ndim > 1      # entries of a gnumpy array: arrays only if ndim > 1
    c0 = condlist[0]
    return isinstance(c0, (list, np.ndarray)) or is_array(c0)


def _const(value, dt, dev):
    if type(value) is int:
        D.check_weak_int(value, dt)
    return wrap(ir.scalar(value, dt, (), dev))


def piecewise(x, condlist, funclist, *args, **kw):
    """Evaluate a piecewise function: ``funclist[i]`` where ``condlist[i]`` holds (later
    conditions win), the extra function (if given) where none holds, 0 elsewhere.

    # Note: a callable receives the whole array `x` (NumPy passes only ``x[cond]``); its
    # values are used where the condition holds.  Fused into one kernel.

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.linspace(-2.5, 2.5, 6)
    >>> gp.piecewise(x, [x < 0, x >= 0], [-1, 1])
    array([-1., -1., -1.,  1.,  1.,  1.])
    """
    x = _arr(x)
    n2 = len(funclist)
    # NumPy: a single condition (not a list of arrays) is promoted to a list of one
    if np.isscalar(condlist) or (x.ndim != 0 and not _array_entries(condlist)):
        condlist = [condlist]
    conds = [astype(_arr(c, x.device), D.bool_, copy=False) for c in condlist]
    n = len(conds)
    if n == n2 - 1:
        conds.append(apply("logical_not", any_(stack(conds), axis=0)))
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are "
                         f"expected")
    y = zeros(x.shape, dtype=x.dtype, device=x.device)
    for cond, func in zip(conds, funclist):
        if callable(func):
            val = func(x, *args, **kw)
        else:
            val = func
        val = astype(_arr(val, x.device), x.dtype, copy=False)
        y = where_(cond, val, y)
    return y
