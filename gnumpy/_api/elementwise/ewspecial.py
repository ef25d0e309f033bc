"""Elementwise functions that are not plain op-table ufuncs: ``clip`` (NumPy's NEP 50
handling of Python-int bounds), ``round`` (complex parts on their own), the ufuncs of two
outputs ``divmod``, ``modf`` and ``frexp`` (an op-table row per output), ``ldexp``
(NumPy's legacy type resolution of its exponent), and ``real`` and ``imag`` (NumPy's
functions of `val`, views of the parts of a complex array).
"""
from __future__ import annotations

import operator

import numpy as np

from ... import _dtypes as D
from ..._broadcast import broadcast_shapes
from ..._graph import ir
from ..._ops import EW_OPS
from .._common import as_node, is_array, wrap
from .elementwise import apply, astype, where
from .resolution import _classify, _promote, loop_dtype
from ..outargs import (finish, check_out_shape, single_out, check_casting, check_order,
                       check_out_cast, finish_multi, multi_out)


def clip(a, min=None, max=None, out=None, **kw):
    """Clip values of `a` to [min, max] (NumPy ``clip`` / Array API ``clip``).

    # Note: as in NumPy 2, the result dtype follows promotion of x with min and max.
    # Note: the array is NumPy's positional-or-keyword `a` (the Array API's `x` is
    # positional-only: a positional call satisfies both).
    """
    a_min = kw.pop("a_min", None)
    a_max = kw.pop("a_max", None)
    casting = kw.pop("casting", "same_kind")
    if kw:
        raise TypeError(f"clip() got unexpected keyword arguments {sorted(kw)}")
    lo = min if min is not None else a_min
    hi = max if max is not None else a_max
    r = a if is_array(a) else wrap(as_node(a))
    x0 = r._node
    if r.dtype.kind in "iu":
        # NumPy's _clip (NEP 50): a Python int bound beyond the dtype's range on its side
        # is no bound at all; other bounds promote as usual (clip(uint8, 256, inf) is
        # float64, clip(uint8, 256, 300) raises OverflowError)
        lo_i, hi_i = D.int_bounds(r.dtype)
        if type(lo) is int and lo <= lo_i:
            lo = None
        if type(hi) is int and hi >= hi_i:
            hi = None
    if lo is not None and hi is not None:
        # NumPy promotes x, min and max together (min(max(x, lo), hi) in that dtype)
        items, _ = _classify([r, lo, hi])
        dt = _promote(items)
        for b in (lo, hi):      # NumPy converts the operands before it broadcasts them
            if type(b) is int:
                D.check_weak_int(b, dt)
        r = astype(r, dt, copy=False)
    # Note: the sign of a zero result where x and a bound are zeros of opposite signs
    # follows np.maximum/np.minimum; NumPy's clip loop differs between its SIMD and
    # scalar paths there
    if r.dtype.kind == "c" and lo is not None and hi is not None:     # (NumPy's clip
        r = _complex_bound(_complex_bound(r, lo, False), hi, True)     # loop; one bound
    else:                                                           # is np.maximum's)
        if lo is not None:
            r = apply("maximum", r, lo)
        if hi is not None:
            r = apply("minimum", r, hi)
    if r._node is x0:           # no bound: a copy (NumPy's positive)
        r = apply("positive", r)
    return finish("clip", r, out, casting=casting)


def _complex_bound(x, b, upper):
    """NumPy's complex clip against one bound: `x` where it is NaN (either part) or
    strictly on the bound's side in the lexicographic order of (real, imag), else the
    bound (an equal x gives the bound: clip(-0+1j, 1j, ...) is 1j).  A NaN in the bound
    counts only through that order (clip(5+1j, 0, inf+nanj) is 5+1j), where np.minimum
    would return it."""
    if type(b) in (int, float, complex, bool):      # (a Python bound: weak, any size)
        b = wrap(ir.scalar(b, x.dtype, (), x.device))
    else:
        b = astype(b if is_array(b) else wrap(as_node(b, device=x.device)), x.dtype,
                   copy=False)
    xr, xi, br, bi = (apply(p, v) for v in (x, b) for p in ("real", "imag"))
    side = "less" if upper else "greater"
    keep = apply("logical_or", apply(side, xr, br),
                 apply("logical_and", apply("equal", xr, br), apply(side, xi, bi)))
    return where(apply("logical_or", keep, apply("isnan", x)), x, b)


def round_(a, decimals=0, out=None):
    """Round to `decimals` (NumPy ``round``/``around``; half to even).

    # Note: like NumPy, decimals != 0 computes rint(x * 10**d) / 10**d.
    """
    x = a if is_array(a) else wrap(as_node(a))
    decimals = operator.index(decimals)
    if out is not None:
        check_out_shape("round", x.shape, out, "invalid output shape")
    if x.dtype.kind == "c":     # each part on its own (inf and NaN parts stay exact)
        # loaded on first use: import gnumpy does not load mathmisc (~11 ms, 5 modules)
        from .mathmisc import complex_from_parts
        r = complex_from_parts(round_(apply("real", x), decimals),
                               round_(apply("imag", x), decimals), x.dtype)
    elif x.dtype.kind == "b":
        if decimals != 0:
            raise TypeError("Cannot cast ufunc 'multiply' output from dtype('float64') to "
                            "dtype('bool') with casting rule 'same_kind'")
        r = apply("rint", x)
    elif x.dtype.kind in "iu":
        if decimals >= 0:
            r = x._copy()
        else:   # NumPy: rint(x / 10**-d) * 10**-d in float64, cast back (half to even)
            f = 10 ** (-decimals)
            r = astype(apply("multiply", apply("rint", apply("divide", x, f)), f), x.dtype,
                       copy=False)
    elif decimals == 0:
        r = _rint_keep(x)
    else:
        f = 10.0 ** decimals
        r = apply("divide", _rint_keep(apply("multiply", x, f)), f) if decimals > 0 else \
            apply("multiply", _rint_keep(apply("divide", x, 10.0 ** -decimals)), 10.0 **
                  -decimals)
    return finish("rint", r, out)


def _rint_keep(x):
    return apply("rint", x)


# Note: divmod, modf and frexp are functions taking NumPy's ufunc keywords, all but
# ``signature=`` (a TypeError); they have no ufunc attributes (nin, reduce, ...).
_PARTS: dict = {}


def _part(op, name):
    """A private ufunc object computing op-table row `op`, one output of the ufunc `name`:
    its call resolves the loop and checks ``casting=``, ``order=`` and ``dtype=`` with
    NumPy's errors, which name `name`."""
    uf = _PARTS.get(op)
    if uf is None:
        # imported here: ufunc.py imports the reductions, which import this module
        from .ufunc import ufunc
        uf = _PARTS[op] = ufunc(EW_OPS[op], name)
    return uf


def _plain(outs, out, where, casting, order, dtype) -> bool:
    return not outs and out is None and where is True and casting == "same_kind" and \
        order == "K" and dtype is None


def divmod_(x1, x2, /, *outs, out=None, where=True, casting="same_kind", order="K",
            dtype=None, subok=True):
    """``(x1 // x2, x1 % x2)`` elementwise, with the ufunc keywords of NumPy's ``divmod``
    (`out`: a tuple of two arrays or Nones; or the two given positionally).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.divmod(gp.asarray([7, -7]), 3)
    (array([ 2, -3]), array([1, 2]))
    >>> q, r = gp.zeros(2), gp.zeros(2)
    >>> gp.divmod(gp.asarray([7.0, -7.0]), 3, out=(q, r))[0] is q
    True
    """
    if _plain(outs, out, where, casting, order, dtype):
        return apply("floor_divide", x1, x2), apply("remainder", x1, x2)
    outs = multi_out("divmod", 2, outs, out)
    kw = {"casting": casting, "order": order, "dtype": dtype}
    r = (_part("floor_divide", "divmod")(x1, x2, **kw),
         _part("remainder", "divmod")(x1, x2, **kw))
    return finish_multi("divmod", 2, r, outs, where, casting)


def modf(x, /, *outs, out=None, where=True, casting="same_kind", order="K", dtype=None,
         subok=True):
    """Fractional and integral parts of `x`, both with the sign of `x`, with the ufunc
    keywords of NumPy's ``modf`` (`out`: a tuple of two arrays or Nones; or positional).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.modf(gp.asarray([1.5, -2.25]))
    (array([ 0.5 , -0.25]), array([ 1., -2.]))
    """
    x = x if is_array(x) else wrap(as_node(x))
    if _plain(outs, out, where, casting, order, dtype):
        return apply("modf_frac", x), _modf_int(x, None)
    outs = multi_out("modf", 1, outs, out)
    frac = _part("modf_frac", "modf")(x, casting=casting, order=order, dtype=dtype)
    return finish_multi("modf", 1, (frac, _modf_int(x, frac.dtype)), outs, where, casting)


def _modf_int(x, loop):
    loop = loop_dtype(EW_OPS["modf_frac"], x.dtype) if loop is None else loop
    return apply("trunc", astype(x, loop, copy=False))


def frexp(x, /, *outs, out=None, where=True, casting="same_kind", order="K", dtype=None,
          subok=True):
    """Mantissas and exponents of `x`: ``x == mantissa * 2**exponent``, with the ufunc
    keywords of NumPy's ``frexp`` (`out`: a tuple of two arrays or Nones; or positional).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.frexp(gp.asarray([8.0]))
    (array([0.5]), array([4], dtype=int32))
    """
    if _plain(outs, out, where, casting, order, dtype):
        return apply("frexp_mant", x), apply("frexp_exp", x)
    if dtype is not None:       # (no loop has both outputs of one dtype)
        raise TypeError("No loop matching the specified signature and casting was found for "
                        "ufunc frexp")
    outs = multi_out("frexp", 1, outs, out)
    r = (_part("frexp_mant", "frexp")(x, casting=casting, order=order),
         _part("frexp_exp", "frexp")(x, casting=casting, order=order))
    return finish_multi("frexp", 1, r, outs, where, casting)


def real(val):
    """The real part of `val` (NumPy's ``real``): a view of a complex array's real parts
    (writes through it reach the array), the array itself for a real one.

    # Note: a Python or NumPy scalar's part is a 0-d gnumpy array (NumPy's is a scalar).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.real(gp.asarray([1 + 2j, 3 - 1j]))
    array([1., 3.])
    """
    return (val if is_array(val) else wrap(as_node(val))).real


def imag(val):
    """The imaginary part of `val` (NumPy's ``imag``): a view of a complex array's
    imaginary parts (writes through it reach the array); read-only zeros for a real one.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.imag(gp.asarray([1 + 2j, 3 - 1j]))
    array([ 2., -1.])
    """
    return (val if is_array(val) else wrap(as_node(val))).imag


def ldexp(x1, x2, /, out=None, *, where=True, casting="same_kind", order="K", dtype=None,
          subok=True):
    """x1 * 2**x2 (x2 integer), with the ufunc keywords of NumPy's ``ldexp``."""
    if out is not None:
        out = single_out(out)
    check_casting(casting)
    check_order(order)
    r = _ldexp(x1, x2, casting, None if dtype is None else D.to_dtype(dtype), out)
    return finish("ldexp", r, out, where, casting)


def _ldexp(x1, x2, casting, dtype, out=None):
    items, dev = _classify([x1, x2])
    n1, k1, v1 = items[0]
    n2, k2, v2 = items[1]
    if n1 is None and k1 not in ("strong", "c"):
        # Note: NumPy's legacy resolver: a weak int mantissa with an integer exponent array
        # takes the float16 loop; every other weak mantissa the float64 one
        exp_int_array = (n2 is not None and n2.dtype.kind in "iu") or \
            (k2 == "strong" and np.dtype(v2.dtype).kind in "iu")    # a NumPy int scalar too
        weak_d1 = D.float16 if (k1 == "b" or (k1 == "i" and exp_int_array)) else D.float64
        if casting == "equiv" and k1 in ("i", "b") or casting == "no" and k1 == "b":
            # (NumPy: a Python scalar is cast to the loop's mantissa type under `casting`)
            kind = "int" if k1 == "i" else "bool"
            raise TypeError(f"Cannot cast ufunc 'ldexp' input 0 from Python {kind} to "
                            f"{weak_d1!r} with casting rule {casting!r}")
    if dtype is not None:       # the 'ei', 'fi', 'di' loops whose mantissa x1 fits safely
        md = n1.dtype if n1 is not None else (D.to_dtype(v1.dtype) if k1 == "strong"
                                              else None if k1 == "c" else weak_d1)
        if dtype not in (D.float16, D.float32, D.float64) or \
                (md is not None and not D.can_cast(md, dtype, "safe")):
            raise TypeError("No loop matching the specified signature and casting was found "
                            "for ufunc ldexp")
        n1 = ir.cast(n1, dtype) if n1 is not None else ir.scalar(v1, dtype, (), dev)
        items[0] = [n1, None, None]
    if n1 is not None:
        d1 = n1.dtype
    elif k1 == "strong":
        d1 = D.to_dtype(v1.dtype)
    elif k1 == "c":
        raise TypeError("ufunc 'ldexp' not supported for complex input")
    else:
        d1 = weak_d1
    loop = loop_dtype(EW_OPS["ldexp"], d1)
    int64_exp = k1 in ("b", "i", "f") or (n1 is not None and d1.kind == "b")
    if k2 == "i" and casting == "equiv" and not int64_exp:
        raise TypeError("cannot cast Python int to int32 under the casting rule 'equiv'")
    if k2 == "i":           # NumPy converts a Python int exponent next
        if not -2**63 <= v2 < 2**63:
            raise OverflowError("Python int too large to convert to C long")
        # Note: NumPy's legacy resolver takes a Python int exponent as an int32, except
        # beside a bool array or a Python scalar mantissa (then an int64)
        if not int64_exp:
            D.check_weak_int(v2, D.int32)
    if (n1 is not None or k1 == "strong") and not D.can_cast(d1, loop, casting):
        raise TypeError(f"Cannot cast ufunc 'ldexp' input 0 from {d1!r} to {loop!r} with "
                        f"casting rule {casting!r}")
    d2 = n2.dtype if n2 is not None else (D.to_dtype(v2.dtype) if k2 == "strong" else
                                          (D.int64 if k2 == "i" else D.result_type(v2)))
    if d2.kind not in "biu" or d2 == D.uint64:
        raise TypeError("ufunc 'ldexp' not supported for the input types, and the inputs "
                        "could not be safely coerced to any supported types according to "
                        "the casting rule ''safe''")
    if k2 != "i" and casting in ("no", "equiv") and d2 not in (D.int32, D.int64):
        raise TypeError(f"Cannot cast ufunc 'ldexp' input 1 from {d2!r} to {D.int32!r} with "
                        f"casting rule {casting!r}")
    if out is not None:         # NumPy checks the output cast before broadcasting
        check_out_cast("ldexp", loop, out, casting)
    shape = broadcast_shapes(*[it[0].shape for it in items if it[0] is not None])
    a = ir.broadcast(ir.cast(n1, loop), shape) if n1 is not None else \
        ir.scalar(v1, loop, shape, dev)
    b = ir.broadcast(ir.cast(n2, D.int64), shape) if n2 is not None else \
        ir.scalar(v2, D.int64, shape, dev)
    # Note: the one IR op with sources of two dtypes (a float mantissa, an int64 exponent).
    return wrap(ir.ew("ldexp", loop, (a, b)))
