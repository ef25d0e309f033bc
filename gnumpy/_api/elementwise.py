"""Elementwise functions: NumPy semantics (NEP 50 promotion, broadcasting, ufunc loop
resolution) on top of the strict IR.

``apply(op, *args)`` is the one path every elementwise function, operator and ufunc call
takes: classify operands (arrays strong, Python scalars weak), promote with the one
``result_type`` lattice, pick the op's loop dtype like NumPy's ufunc type resolution, cast
and broadcast explicitly, and build one IR node.  Errors are raised here, at the call.
"""
from __future__ import annotations

import numpy as np

from .. import _dtypes as D
from .._broadcast import broadcast_shapes
from .._graph import ir
from .._ops import EW_OPS
from ._common import _cls, as_node, check_device_match, is_array, wrap
from . import _common

_LOOP_CACHE: dict = {}

_CMP_OUT_OF_RANGE = {  # op -> (result when the weak int is above max, below min)
    "equal": (False, False), "not_equal": (True, True),
    "less": (True, False), "less_equal": (True, False),
    "greater": (False, True), "greater_equal": (False, True),
}
_SWAPPED = {"less": "greater", "less_equal": "greater_equal", "greater": "less",
            "greater_equal": "less_equal", "equal": "equal", "not_equal": "not_equal"}


def loop_dtype(op, dts) -> np.dtype:
    """The loop an op runs for input dtypes `dts` (a dtype or a tuple of them): the first
    of the op's loops every input casts to safely, as NumPy's ufunc type resolution."""
    if isinstance(dts, np.dtype):
        dts = (dts,)
    key = (op.name, dts)
    r = _LOOP_CACHE.get(key)
    if r is not None:
        return r
    if op.bool_error and all(d.kind == "b" for d in dts):
        raise TypeError(op.bool_error)
    r = None
    if op.cast_all:
        r = np.dtype(op.cast_all)
    elif op.int_loop and all(d.kind in "biu" for d in dts):
        r = np.dtype(op.int_loop)
    else:
        for c in op.loops:
            cand = np.dtype(c)
            if all(D.can_cast(d, cand, "safe") for d in dts):
                r = cand
                break
    if r is None:
        raise TypeError(f"ufunc '{op.name}' not supported for the input types, and the inputs "
                        f"could not be safely coerced to any supported types according to the "
                        f"casting rule ''safe''")
    _LOOP_CACHE[key] = r
    return r


def out_dtype(op, loop: np.dtype) -> np.dtype:
    rule = op.out
    if rule == "same":
        return loop
    if rule == "bool":
        return D.bool_
    if rule == "real":
        return D.real_dtype(loop)
    return np.dtype(rule)


def _classify(args):
    """-> (list of (node|None, weak_kind|None, value), device)."""
    items = []
    host = []
    for a in args:
        if is_array(a):
            items.append([a._node, None, None])
            continue
        k = D.weak_kind(a)
        if k is not None:
            items.append([None, k, a])
        elif isinstance(a, np.generic):
            items.append([None, "strong", a])
        else:
            items.append([None, "host", a])
            host.append(len(items) - 1)
    arrays = [it[0] for it in items if it[0] is not None]
    dev = check_device_match(arrays) if arrays else None
    for i in host:
        items[i] = [as_node(items[i][2], device=dev), None, None]
    if dev is None:
        arrays = [it[0] for it in items if it[0] is not None]
        dev = check_device_match(arrays)
    return items, dev


def _promote(items) -> np.dtype:
    strongs = _strong_dtypes(items)
    weak = [k for node, k, v in items if node is None and k != "strong"]
    if not strongs:
        return D.result_type(*[v for _, _, v in items])
    strong = D.promote_many(strongs)
    for k in weak:
        strong = D.apply_weak(strong, k)
    return strong


def _strong_dtypes(items):
    out = []
    for node, k, v in items:
        if node is not None:
            out.append(node.dtype)
        elif k == "strong":
            out.append(D.to_dtype(v.dtype))
    return out


def resolve(op, items, dtype=None):
    """(loop dtype, output dtype) of `op` on classified operands."""
    if dtype is not None:
        loop = loop_dtype(op, (D.to_dtype(dtype),))
    else:
        strongs = _strong_dtypes(items)
        pdt = _promote(items)
        if not strongs:
            dts = (pdt,)
        elif len(strongs) == len(items):
            dts = tuple(strongs)
        else:
            # weak Python scalars only matter when they change the kind (int array + 1.5)
            dts = tuple(strongs) + ((pdt,) if pdt != D.promote_many(strongs) else ())
        loop = loop_dtype(op, dts)
    return loop, out_dtype(op, loop)


_FAST: dict = {}          # (name, operand signature) -> (loop, out dtype, int bounds)
_WEAK = (int, float, bool, complex)


def apply(name: str, *args, dtype=None):
    """Build the lazy node of elementwise op `name` applied to `args`; returns an ndarray.

    The hot path: operands that are gnumpy arrays or Python scalars, with the dtype
    resolution cached per signature; anything unusual takes the general path."""
    if dtype is None:
        if len(args) == 2:
            out = apply2(name, args[0], args[1])
            if out is not None:
                return out
        cls = _common._ndarray or _cls()
        sig = [name]
        for a in args:
            t = type(a)
            if t is cls:
                sig.append(a._node.dtype)
            elif t in _WEAK:
                sig.append(t)
            elif isinstance(a, np.generic):
                sig.append(("np", a.dtype))
            else:
                break
        else:
            r = _FAST.get(tuple(sig))
            if r is not None:
                out = _apply_fast(name, args, cls, *r)
                if out is not None:
                    return out
            else:
                out = _apply_general(name, args, None)
                _FAST[tuple(sig)] = _fast_entry(name, args)
                return out
    return _apply_general(name, args, dtype)


def apply2(name: str, a, b):
    """The operator hot path, ``a <op> b`` with two same-shape arrays or an array and a
    Python float/int or NumPy scalar: one cache lookup and one node.  None when the case is not that
    simple or not cached yet (``apply`` then takes its general paths)."""
    cls = _common._ndarray or _cls()
    if type(a) is cls:
        na = a._node
        tb = type(b)
        if tb is cls:
            nb = b._node
            r = _FAST.get((name, na.dtype, nb.dtype))
            if r is None or na.shape != nb.shape or na.device is not nb.device:
                return None
            loop = r[0]
            if na.dtype != loop:
                na = ir.cast(na, loop)
            if nb.dtype != loop:
                nb = ir.cast(nb, loop)
            return cls._from_node(ir.ew(name, r[1], (na, nb)))
        if tb is float or tb is int:
            r = _FAST.get((name, na.dtype, tb))
        elif isinstance(b, np.generic):
            tb = np.generic
            r = _FAST.get((name, na.dtype, ("np", b.dtype)))
        else:
            return None
        if r is None:
            return None
        node = _scalar_ew(name, r, na, b, tb, False)
    elif type(b) is cls:
        ta = type(a)
        nb = b._node
        if ta is float or ta is int:
            r = _FAST.get((name, ta, nb.dtype))
        elif isinstance(a, np.generic):
            ta = np.generic
            r = _FAST.get((name, ("np", a.dtype), nb.dtype))
        else:
            return None
        if r is None:
            return None
        node = _scalar_ew(name, r, nb, a, ta, True)
    else:
        return None
    return None if node is None else cls._from_node(node)


def _scalar_ew(name, r, n, v, t, scalar_first):
    """The node of `name` on array node `n` and scalar `v`: a Python float or int (weak)
    or, with `t` np.generic, a NumPy scalar (strong, its dtype already in the loop)."""
    loop, odt, bounds = r
    if t is int:
        if bounds is None:
            if loop.kind == "b":
                return None
        elif not bounds[0] <= v <= bounds[1] or (name == "power" and v < 0):
            return None                  # range checks and special cases: general path
    elif t is np.generic and name == "power" and loop.kind in "iu" and \
            v.dtype.kind in "iu" and v < 0:
        return None
    if n.dtype != loop:
        n = ir.cast(n, loop)
    sn = ir.Node(ir.SCALAR, "scalar", loop, n.shape, (), ir.scalar_value(v, loop), n.device)
    return ir.ew(name, odt, (sn, n) if scalar_first else (n, sn))


def _fast_entry(name, args):
    items, _ = _classify(args)
    loop, odt = resolve(EW_OPS[name], items)
    bounds = D.int_bounds(loop) if loop.kind in "iu" else None
    return loop, odt, bounds


def _apply_fast(name, args, cls, loop, odt, bounds):
    nodes = []
    dev = None
    shape = None
    same = True
    for a in args:
        if type(a) is cls:
            n = a._node
            if dev is None:
                dev, shape = n.device, n.shape
            elif n.device is not dev and n.device != dev:
                return None
            elif n.shape != shape:
                same = False
            nodes.append(n)
        elif isinstance(a, np.generic):
            if name == "power" and a.dtype.kind in "iu" and a < 0 and loop.kind in "iu":
                return None
            nodes.append(a)
        else:
            if type(a) is int and (bounds is None or not bounds[0] <= a <= bounds[1]):
                if bounds is not None or loop.kind == "b":
                    return None                 # range checks and special cases
            if name == "power" and type(a) is int and a < 0 and loop.kind in "iu":
                return None
            nodes.append(a)
    if dev is None:
        return None
    if not same:
        shape = broadcast_shapes(*[n.shape for n in nodes if type(n) is ir.Node])
    srcs = []
    for n in nodes:
        if type(n) is ir.Node:
            if n.dtype != loop:
                n = ir.cast(n, loop)
            if n.shape != shape:
                n = ir.broadcast(n, shape)
        else:
            n = ir.Node(ir.SCALAR, "scalar", loop, shape, (), ir.scalar_value(n, loop), dev)
        srcs.append(n)
    return wrap(ir.ew(name, odt, srcs))


def _apply_general(name, args, dtype):
    op = EW_OPS[name]
    if len(args) != op.nin:
        raise TypeError(f"{name}() takes {op.nin} positional argument"
                        f"{'s' if op.nin > 1 else ''} but {len(args)} were given")
    items, dev = _classify(args)
    loop, odt = resolve(op, items, dtype)
    shape = broadcast_shapes(*[it[0].shape for it in items if it[0] is not None])
    srcs = []
    for idx, (node, k, v) in enumerate(items):
        if node is not None:
            srcs.append(ir.broadcast(ir.cast(node, loop), shape))
            continue
        if k == "i" and loop.kind == "b" and not -2**63 <= v < (
                2**64 if any(d == D.uint64 for d in _strong_dtypes(items)) else 2**63):
            raise OverflowError(f"Python int {v} too large to convert to C long")
        if k == "i" and loop.kind in "iu":
            lo, hi = D.int_bounds(loop)
            if not lo <= v <= hi:
                if name in _CMP_OUT_OF_RANGE:
                    opn = name if idx == 1 else _SWAPPED[name]
                    const = _CMP_OUT_OF_RANGE[opn][0 if v > hi else 1]
                    return wrap(ir.scalar(const, D.bool_, shape, dev))
                D.check_weak_int(v, loop)
        if name == "power" and idx == 1 and loop.kind in "iu" and \
                (k == "i" or (k == "strong" and v.dtype.kind in "iu")) and v < 0:
            raise ValueError("Integers to negative integer powers are not allowed.")
        srcs.append(ir.scalar(v, loop, shape, dev))
    return wrap(ir.ew(name, odt, srcs))


def result_dtype(name: str, *args):
    """The dtype `apply(name, *args)` would produce (no graph is built)."""
    items, _ = _classify(args)
    return resolve(EW_OPS[name], items)[1]


def power_operator(x, e):
    """``x ** e``: NumPy's operator takes fast paths for some Python-scalar exponents
    (square for 2; for float arrays also reciprocal for -1 and sqrt for 0.5)."""
    if type(e) in (int, float) and is_array(x):
        kind = x.dtype.kind
        if e == 2 and (type(e) is int or kind in "fc"):
            return apply("square", x)
        if kind in "fc" and e == -1:
            return apply("reciprocal", x)
        if kind in "fc" and e == 0.5:
            return apply("sqrt", x)
    return apply("power", x, e)


# ------------------------------------------------------------------ special functions

def where(condition, x=None, y=None, /):
    """``where(cond, x, y)``: elements of `x` where `cond` is true, else of `y`;
    ``where(cond)`` is ``nonzero(cond)``.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.where(gp.asarray([True, False]), 1.0, gp.asarray([5.0, 6.0]))
    array([1., 6.])
    """
    if x is None and y is None:
        from .index_tricks import nonzero
        if not is_array(condition) and np.ndim(condition) == 0:
            raise ValueError("Calling nonzero on 0d arrays is not allowed. Use "
                             "np.atleast_1d(scalar).nonzero() instead. If the context of this "
                             "error is of the form `arr[nonzero(cond)]`, just use `arr[cond]`.")
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    items, dev = _classify([condition, x, y])
    cond = items[0]
    cnode = cond[0] if cond[0] is not None else ir.scalar(cond[2], D.bool_, (), dev)
    dt = _promote(items[1:])
    shapes = [it[0].shape for it in items if it[0] is not None]
    shape = broadcast_shapes(*shapes)
    srcs = [ir.broadcast(ir.cast(cnode, D.bool_), shape)]
    for node, k, v in items[1:]:
        if node is not None:
            srcs.append(ir.broadcast(ir.cast(node, dt), shape))
        else:
            if k == "i":
                D.check_weak_int(v, dt)
            srcs.append(ir.scalar(v, dt, shape, dev))
    return wrap(ir.where(*srcs))


def astype(x, dtype, /, *, copy=True, device=None, casting="unsafe"):
    """Array API ``astype``: `x` converted to `dtype` (a new array unless copy=False and
    nothing changes)."""
    if not is_array(x):
        raise TypeError(f"astype() expects a gnumpy array, not {type(x).__name__}")
    dt = D.to_dtype(dtype)
    if not D.can_cast(x.dtype, dt, casting):
        raise TypeError(f"Cannot cast array data from {x.dtype!r} to {dt!r} according to the "
                        f"rule {casting!r}")
    if device is not None:
        x = x.to_device(device)
    if dt == x.dtype:
        return x._copy() if copy else x
    return wrap(ir.cast(x._node, dt))


def clip(x, /, min=None, max=None, out=None, **kw):
    """Clip values of `x` to [min, max] (NumPy ``clip`` / Array API ``clip``).

    # Note: as in NumPy 2, the result dtype follows promotion of x with min and max.
    """
    a_min = kw.pop("a_min", None)
    a_max = kw.pop("a_max", None)
    if kw:
        raise TypeError(f"clip() got unexpected keyword arguments {sorted(kw)}")
    lo = min if min is not None else a_min
    hi = max if max is not None else a_max
    r = x if is_array(x) else wrap(as_node(x))
    if r.dtype.kind in "iu":
        # NumPy >= 2.1: out-of-range Python int bounds are clipped to the dtype's range
        lo_i, hi_i = D.int_bounds(r.dtype)
        if D.weak_kind(lo) == "i":
            lo = lo_i if lo < lo_i else (hi_i if lo > hi_i else lo)
        if D.weak_kind(hi) == "i":
            hi = lo_i if hi < lo_i else (hi_i if hi > hi_i else hi)
    if lo is not None and hi is not None:
        # NumPy promotes x, min and max together (min(max(x, lo), hi) in that dtype)
        items, _ = _classify([r, lo, hi])
        dt = _promote(items)
        r = astype(r, dt, copy=False)
    if lo is not None:
        r = apply("maximum", r, lo)
    if hi is not None:
        r = apply("minimum", r, hi)
    if lo is None and hi is None:
        r = apply("positive", r)
    if out is not None:
        out._assign_from(r)
        return out
    return r


def round_(x, /, decimals=0, out=None):
    """Round to `decimals` (NumPy ``round``/``around``; half to even).

    # Note: like NumPy, decimals != 0 computes rint(x * 10**d) / 10**d.
    """
    x = x if is_array(x) else wrap(as_node(x))
    if x.dtype.kind == "b":
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
    if out is not None:
        out._assign_from(r)
        return out
    return r


def _rint_keep(x):
    if x.dtype.kind == "c":
        re = apply("rint", apply("real", x))
        im = apply("rint", apply("imag", x))
        return apply("add", re, apply("multiply", im, 1j)).astype(x.dtype)
    return apply("rint", x)


def divmod_(x1, x2, /):
    return apply("floor_divide", x1, x2), apply("remainder", x1, x2)


def modf(x, /):
    """Fractional and integral parts of `x`, both with the sign of `x`."""
    x = x if is_array(x) else wrap(as_node(x))
    return apply("modf_frac", x), _modf_int(x)


def _modf_int(x):
    loop = loop_dtype(EW_OPS["modf_frac"], x.dtype)
    return apply("trunc", astype(x, loop, copy=False))


def frexp(x, /):
    return apply("frexp_mant", x), apply("frexp_exp", x)


def ldexp(x1, x2, /):
    """x1 * 2**x2 (x2 integer)."""
    items, dev = _classify([x1, x2])
    n1, k1, v1 = items[0]
    if n1 is not None:
        d1 = n1.dtype
    elif k1 == "strong":
        d1 = D.to_dtype(v1.dtype)
    elif k1 == "c":
        raise TypeError("ufunc 'ldexp' not supported for complex input")
    else:
        # Note: NumPy's legacy resolver: a weak int mantissa with an integer exponent array
        # takes the float16 loop; every other weak mantissa the float64 one
        n2_, k2_, v2_ = items[1]
        exp_int_array = n2_ is not None and n2_.dtype.kind in "iu"
        d1 = D.float16 if (k1 == "b" or (k1 == "i" and exp_int_array)) else D.float64
    loop = loop_dtype(EW_OPS["ldexp"], d1)
    n2, k2, v2 = items[1]
    d2 = n2.dtype if n2 is not None else (D.to_dtype(v2.dtype) if k2 == "strong" else
                                          (D.int64 if k2 == "i" else D.result_type(v2)))
    if d2.kind not in "biu" or d2 == D.uint64:
        raise TypeError("ufunc 'ldexp' not supported for the input types, and the inputs "
                        "could not be safely coerced to any supported types according to "
                        "the casting rule ''safe''")
    if k2 == "i":
        lo, hi = D.int_bounds(D.int32 if d1 in (D.int32, D.uint32) else D.int64)
        if not lo <= v2 <= hi:
            raise OverflowError(f"Python int {v2} too large to convert to C long")
    shape = broadcast_shapes(*[it[0].shape for it in items if it[0] is not None])
    a = ir.broadcast(ir.cast(n1, loop), shape) if n1 is not None else \
        ir.scalar(v1, loop, shape, dev)
    b = ir.broadcast(ir.cast(n2, D.int64), shape) if n2 is not None else \
        ir.scalar(v2, D.int64, shape, dev)
    # Note: the one IR op with sources of two dtypes (a float mantissa, an int64 exponent).
    return wrap(ir.ew("ldexp", loop, (a, b)))
