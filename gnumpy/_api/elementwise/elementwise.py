"""Elementwise functions: NumPy semantics (NEP 50 promotion, broadcasting, ufunc loop
resolution) on top of the strict IR.

``apply(op, *args)`` is the one path every elementwise function, operator and ufunc call
takes: the operands' loop and result dtypes resolved (``resolution.py``: arrays strong,
Python scalars weak, the one ``result_type`` lattice, NumPy's ufunc type resolution),
then explicit casts and broadcasts and one IR node.  Errors are raised here, at the
call.
"""
from __future__ import annotations

import numpy as np

from ... import _dtypes as D
from ..._broadcast import broadcast_pair, broadcast_shapes
from ..._graph import ir
from ..._graph import layout as L
from ..._graph.ir import EW, LEAF, VIEW
from ..._graph import bounds as B
from ..._ops import EW_OPS
from ..._array import ndarray
from ..._operators import SIGNATURES as _FAST
from .._common import as_node, is_array, scalar_result, wrap
from .resolution import _CMP_OUT_OF_RANGE, _SWAPPED, _classify, _mixed_u64, _operand, \
    _promote, _signed_exponents, _strong_dtypes, resolve

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
        cls = ndarray
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
                entry = _fast_entry(name, args)
                if entry is not None:
                    _FAST[tuple(sig)] = entry
                return out
    return _apply_general(name, args, dtype)


def apply2(name: str, a, b, node_only=False):
    """The operator hot path, ``a <op> b`` with two same-shape arrays or an array and a
    Python float/int or NumPy scalar: one cache lookup and one node (`node_only`: the node,
    not an array over it: an in-place operator's).  None when the case is not that simple
    or not cached yet (``apply`` then takes its general paths)."""
    cls = ndarray
    if type(a) is cls:
        na = a._node
        if na.kind == ir.EW and na.op == "astype":
            na = _operand(na)   # an element's copy (a[i, j]): its memory
        tb = type(b)
        if tb is cls:
            nb = b._node
            if nb.kind == ir.EW and nb.op == "astype":
                nb = _operand(nb)
            r = _FAST.get((name, na.dtype, nb.dtype))
            if r is None or na.device is not nb.device:
                return None
            loop = r[0]
            if na.shape != nb.shape:        # (an element times a row: x[i] * y[:i])
                try:
                    na, nb = _broadcast2(na, nb, loop)
                except ValueError:          # the general path raises NumPy's error,
                    return None             # after its other checks (casting for a*=b)
            else:
                if na.dtype != loop:
                    na = ir.cast(na, loop)
                if nb.dtype != loop:
                    nb = ir.cast(nb, loop)
            node = ir.ew_node(name, r[1], na.shape, (na, nb), None, na.device,
                              1 + na.size + nb.size)   # (a resolved signature)
            if node_only:
                return node
            out = cls._from_node(node)
            if not node.shape:
                out._sc = True      # (``_new``, inlined: the hot path)
            return out
        if tb is float or tb is int or tb is complex:
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
        if nb.kind == ir.EW and nb.op == "astype":
            nb = _operand(nb)
        if ta is float or ta is int or ta is complex:
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
    if node is None or node_only:
        return node
    out = cls._from_node(node)
    if not node.shape:
        out._sc = True              # (``_new``, inlined)
    return out


def _new(node):
    """A new array over an elementwise op's result `node`: NumPy's scalar where 0-d (the
    node may be folded into a constant or a LEAF of a value known on the host)."""
    return scalar_result(ndarray._from_node(node))


# A 0-d LEAF (a coefficient computed once, deriche's a1 ... b2) broadcast over a loop's
# rows: the broadcast LEAF of its last shape, made once (id -> (leaf, shape, broadcast);
# the entry keeps the leaf, so its id names no other node while listed).  Only leaves of
# small buffers are kept: a 0-d view of a large array (``a[5, ...]``) would keep it alive.
_BROADCAST_LEAVES: dict = {}
_SMALL_BUFFER = 4096


def _small_buffer(buf) -> bool:
    """Is `buf` (a NumPy array on the CPU backend, a device buffer) at most 4 KiB?"""
    n = getattr(buf, "nbytes", None)
    if n is None:
        n = getattr(buf, "size", None)
    return n is not None and n <= _SMALL_BUFFER


def _broadcast2(na, nb, loop):
    """Nodes `na` and `nb` cast to `loop` and broadcast to their common shape (NumPy's
    ValueError when they do not broadcast); a lazy 0-d operand broadcast over a larger
    shape counts one reuse (``bounds.reused_scalar``), as on the general path."""
    sa, sb = na.shape, nb.shape
    shape = sa if not sb or sa == sb else sb if not sa else broadcast_pair(sa, sb)
    if shape is None:
        broadcast_shapes(sa, sb)        # (NumPy's ValueError, naming the shapes)
    out = []
    for n in (na, nb):
        sn = n.shape
        if n.kind == LEAF and n.dtype == loop:
            if sn != shape:     # (ir.broadcast of a leaf, folded here: the shapes broadcast)
                e = _BROADCAST_LEAVES.get(id(n)) if not sn else None
                if e is not None and e[1] == shape:
                    n = e[2]
                else:
                    b = ir.leaf(n.buf, loop, shape, L.fold_broadcast(sn, n.strides, shape),
                                n.offset, n.device)
                    if not sn and _small_buffer(n.buf):
                        if len(_BROADCAST_LEAVES) >= 64:
                            _BROADCAST_LEAVES.clear()
                        _BROADCAST_LEAVES[id(n)] = (n, shape, b)
                    n = b
            out.append(n)
            continue
        if n.kind == ir.SCALAR and n.dtype is loop:     # a constant (a loop's coefficient
            out.append(n if sn == shape else            # computed from constants)
                       ir.scalar_node(n.arg, loop, shape, n.device))
            continue
        if not sn and shape and n.kind != LEAF:
            B.reused_scalar(n)
        if n.dtype != loop:
            n = ir.cast(n, loop)
        if n.shape == shape:
            out.append(n)
        elif n.kind == EW:      # (ir.broadcast's node, without its checks: a view of it)
            out.append(ir.Node(VIEW, "broadcast", loop, shape, (n,), None, n.device,
                               n.size + 1))
        else:
            out.append(ir.broadcast(n, shape))
    return out


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
    sn = ir.scalar_node(ir.scalar_value(v, loop), loop, n.shape, n.device)
    return ir.ew_node(name, odt, n.shape, (sn, n) if scalar_first else (n, sn), None,
                      n.device, 2 + n.size)


def _compare_u64(name, items, dev):
    """Comparison `name` of a signed integer and a uint64 operand without rounding either
    (NumPy 2's 'qQ->?' loops): a negative signed value is below every uint64; others
    compare as uint64."""
    nodes = []
    for node, k, v in items:
        nodes.append(node if node is not None else ir.scalar(v, D.to_dtype(v.dtype), (),
                                                             dev))
    shape = broadcast_shapes(*[n.shape for n in nodes])
    swap = nodes[0].dtype == D.uint64
    s_node, u_node = (nodes[1], nodes[0]) if swap else (nodes[0], nodes[1])
    op = _SWAPPED[name] if swap else name
    si = ir.broadcast(ir.cast(s_node, D.int64), shape)
    u = ir.broadcast(u_node, shape)
    neg = ir.ew("less", D.bool_, (si, ir.scalar(0, D.int64, shape, dev)))
    cmp = ir.ew(op, D.bool_, (ir.cast(si, D.uint64), u))
    if op in ("less", "less_equal", "not_equal"):
        return _new(ir.ew("logical_or", D.bool_, (neg, cmp)))
    return _new(ir.ew("logical_and", D.bool_, (ir.ew("logical_not", D.bool_, (neg,)), cmp)))


def _fast_entry(name, args):
    """The cached resolution of a signature, or None when every call must take the
    general path (an integer power with a signed integer exponent array: its values are
    checked)."""
    items, _ = _classify(args)
    loop, odt = resolve(EW_OPS[name], items)
    if name == "power" and _signed_exponents(loop, items):
        return None
    if name in _CMP_OUT_OF_RANGE and _mixed_u64(items):
        return None
    bounds = D.int_bounds(loop) if loop.kind in "iu" else None
    return loop, odt, bounds


def _apply_fast(name, args, cls, loop, odt, bounds):
    nodes = []
    dev = None
    shape = None
    same = True
    for a in args:
        if type(a) is cls:
            n = _operand(a._node)
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
            if not n.shape and shape and n.kind != ir.LEAF:
                B.reused_scalar(n)
            if n.dtype != loop:
                n = ir.cast(n, loop)
            if n.shape != shape:
                n = ir.broadcast(n, shape)
        else:
            n = ir.Node(ir.SCALAR, "scalar", loop, shape, (), ir.scalar_value(n, loop), dev)
        srcs.append(n)
    return _new(_ew_node(name, odt, srcs))


def _apply_general(name, args, dtype):
    op = EW_OPS[name]
    if len(args) != op.nin:
        raise TypeError(f"{name}() takes {op.nin} positional argument"
                        f"{'s' if op.nin > 1 else ''} but {len(args)} were given")
    items, dev = _classify(args)
    if name in _CMP_OUT_OF_RANGE and dtype is None and _mixed_u64(items):
        return _compare_u64(name, items, dev)
    loop, odt = resolve(op, items, dtype)
    shape = broadcast_shapes(*[it[0].shape for it in items if it[0] is not None])
    srcs = []
    for idx, (node, k, v) in enumerate(items):
        if node is not None:
            if not node.shape and shape and node.kind != ir.LEAF:
                B.reused_scalar(node)
            srcs.append(ir.broadcast(ir.cast(node, loop), shape))
            continue
        if k == "i" and loop.kind == "b" and not -2**63 <= v < 2**63:
            raise OverflowError("Python int too large to convert to C long")
        if k == "c" and loop.kind in "iuf":
            v = v.real          # a dtype= loop under casting='unsafe' (NumPy's value)
        if k == "i" and loop == D.int64 and not -2**63 <= v < 2**63 and \
                all(d.kind == "b" for d in _strong_dtypes(items)):
            # NumPy converts a Python int next to bool arrays as a C long
            raise OverflowError("Python int too large to convert to C long")
        if k == "i" and loop.kind in "iu":
            lo, hi = D.int_bounds(loop)
            if not lo <= v <= hi:
                if name in _CMP_OUT_OF_RANGE:
                    opn = name if idx == 1 else _SWAPPED[name]
                    const = _CMP_OUT_OF_RANGE[opn][0 if v > hi else 1]
                    return _new(ir.scalar(const, D.bool_, shape, dev))
                D.check_weak_int(v, loop)
        if name == "power" and idx == 1 and loop.kind in "iu" and \
                (k == "i" or (k == "strong" and v.dtype.kind in "iu")) and v < 0 and \
                0 not in shape:
            raise ValueError("Integers to negative integer powers are not allowed.")
        srcs.append(ir.scalar(v, loop, shape, dev))
    if name == "power" and _signed_exponents(loop, items) and 0 not in shape:
        _check_exponents(ir.cast(items[1][0], loop))
    return _new(_ew_node(name, odt, srcs))


_SQRT_LOOPS = (D.float32, D.float64)


def _ew_node(name, odt, srcs):
    """The elementwise node; NumPy's float32/float64 power loop takes the square root for a
    scalar exponent of 0.5 (so sqrt(-0.0) = -0.0, where pow gives +0.0): so does gnumpy."""
    if name == "power" and odt in _SQRT_LOOPS and srcs[1].kind == ir.SCALAR and \
            srcs[1].arg == 0.5:
        return ir.ew("sqrt", odt, (srcs[0],))
    return ir.ew(name, odt, srcs)


def _check_exponents(e) -> None:
    """NumPy's ValueError for an integer power with a negative integer exponent: one
    device-to-host read of ``any(e < 0)``."""
    neg = ir.ew("less", D.bool_, (e, ir.scalar(0, e.dtype, e.shape, e.device)))
    size = 1
    for d in e.shape:
        size *= d
    anyneg = ir.reduce("any", ir.reshape(neg, (size,)), (0,), False, D.bool_)
    if wrap(anyneg).get():
        raise ValueError("Integers to negative integer powers are not allowed.")


def power_operator(x, e):
    """``x ** e``: NumPy's operator takes fast paths for some Python-scalar exponents
    (square for int 2; for float and complex arrays reciprocal for int -1, sqrt for
    0.5; a float 2.0 or -1.0 is a power).  NumPy's scalar takes none (``np.True_ ** 2`` is
    an int64 power)."""
    if type(e) in (int, float) and is_array(x) and not x._sc:
        kind = x.dtype.kind
        if type(e) is int and e == 2:       # NumPy's fast_scalar_power (bool ** 2: int8)
            return apply("square", x)
        if kind in "fc":
            if type(e) is int and e == -1:
                return apply("reciprocal", x)
            if type(e) is float and e == 0.5:
                return apply("sqrt", x)
    return apply("power", x, e)


# ------------------------------------------------------------------ special functions

def _where_checks_ints() -> bool:
    """Whether the installed NumPy's ``where`` refuses a Python int outside the result's
    integer dtype (NumPy 2.5 does; 2.4 wraps it): gnumpy follows it."""
    try:
        np.where(np.zeros(0, bool), 300, np.zeros(0, np.uint8))
    except OverflowError:
        return True
    return False


_WHERE_CHECKS_INTS = _where_checks_ints()


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
        if not is_array(condition) and np.ndim(condition) == 0:
            raise ValueError("Calling nonzero on 0d arrays is not allowed. Use "
                             "np.atleast_1d(scalar).nonzero() instead. If the context of this "
                             "error is of the form `arr[nonzero(cond)]`, just use `arr[cond]`.")
        return (condition if is_array(condition) else wrap(as_node(condition))).nonzero()
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    if type(condition) is ndarray:      # the common cases: one node
        c = condition._node
        tx, ty = type(x), type(y)
        if tx is ndarray and ty is ndarray:
            a, b = x._node, y._node
            if c.dtype == D.bool_ and a.dtype is b.dtype and c.shape == a.shape == b.shape \
                    and c.device is a.device is b.device:
                return ndarray._from_node(ir.ew("where", a.dtype, (c, a, b)))
        elif (tx is ndarray and (ty is float or ty is int) or
              ty is ndarray and (tx is float or tx is int)):
            n = (x if tx is ndarray else y)._node   # an inexact array and a weak scalar:
            dt = n.dtype                            # the array's dtype
            if c.dtype == D.bool_ and dt.kind in "fc" and c.shape == n.shape and \
                    c.device is n.device:
                s = ir.scalar(y if tx is ndarray else x, dt, n.shape, n.device)
                return ndarray._from_node(ir.ew("where", dt, (c, n, s) if tx is ndarray
                                                else (c, s, n)))
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
            if k == "i" and dt.kind in "iu" and _WHERE_CHECKS_INTS:
                D.check_weak_int(v, dt)         # NumPy >= 2.5: NEP 50's bounds
            if k == "i" and dt.kind in "biu" and not -2**63 <= v < 2**64:
                # NumPy's where converts a Python int as a C integer (wrapping into
                # the result dtype); only one no C integer holds raises
                raise OverflowError("Python int too large to convert to C long")
            srcs.append(ir.scalar(v, dt, shape, dev))
    return wrap(ir.where(*srcs))


def astype(x, dtype, /, *, copy=True, device=None, casting="unsafe"):
    """Array API ``astype``: `x` converted to `dtype` (a new array unless copy=False and
    nothing changes); of NumPy's scalar, a scalar."""
    return cast_array(x, dtype, copy, device, casting, 4)


def cast_array(x, dtype, copy, device, casting, stacklevel):
    """``astype``; `stacklevel` names the caller's frame for the ComplexWarning (4: the
    caller of a function that calls this one, as ``astype`` and ``ndarray.astype`` do).  Of
    NumPy's scalar (``ndarray._sc``), a scalar."""
    if not is_array(x):
        raise TypeError(f"astype() expects a gnumpy array, not {type(x).__name__}")
    dt = D.to_dtype(dtype)
    if not D.can_cast(x.dtype, dt, casting):
        raise TypeError(f"Cannot cast array data from {x.dtype!r} to {dt!r} according to the "
                        f"rule {casting!r}")
    sc = x._sc
    if device is not None:
        x = x.to_device(device)
    if dt == x.dtype:
        r = x._copy() if copy else x
    else:
        D.warn_complex_to_real(x.dtype, dt, stacklevel)
        r = wrap(ir.cast(x._node, dt))
    if sc:
        r._sc = True
    return r
