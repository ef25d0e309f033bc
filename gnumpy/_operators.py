"""ndarray's operators that make a new array (``a + b``, ``2 * a``, ``a < b``, ``-a``,
``a @ b``, ``divmod(a, b)``), as a base class of ``gnumpy.ndarray``, and ``a @= b``.

They are generated from the op table: each row that names a dunder gives its operator, and
a binary one its reflected operator too (comparisons reflect by swapping: Python does it).
The loop statement's case, two arrays of one shape and of the op's loop dtype or an array
and a Python float or int, makes its node here, after one lookup of the resolved signature
(``SIGNATURES``, filled by the elementwise layer's general path); other operands go to the
elementwise hot path (``_elementwise.apply2``), then to its general path.  The elementwise
in-place operators (``a += b``) write into the array: they are ``_array.py``'s, with its
other writes, and check their operand here (``_operand_ok``).
"""
from __future__ import annotations

import numpy as np

from . import _dtypes as D
from . import _lazy
from ._graph import ir
from ._graph.ir import LEAF
from ._ops import EW_OPS

_ns = _lazy.package()


class ArrayOperators:
    """The operators of ``gnumpy.ndarray`` that make a new array (set below)."""

    __slots__ = ()


# (op name, operand dtype or Python scalar type, ...) -> (loop dtype, out dtype, the loop's
# integer bounds or None): the elementwise layer's resolved signatures (``_elementwise``)
SIGNATURES: dict = {}
_ew_node, _scalar_node, _scalar_value = ir.ew_node, ir.scalar_node, ir.scalar_value
# NumPy's scalar types of the dtypes a loop statement computes in (power is not on the hot
# path, so no integer exponent reaches it)
_NP_SCALARS = frozenset((np.float64, np.float32, np.complex128, np.complex64, np.int64,
                         np.int32))


def _binary(name, reflected=False):
    fast = name != "power" or reflected     # x ** e has NumPy's operator fast paths
    hot = name != "power"

    def op(self, other):
        if hot:     # the loop statement (x + y, 0.5 * x, a[i, j] * a[j, j]): apply2's node,
            na = self._node                             # built without its other cases
            if na.op == "astype":       # an element's copy: its memory (as ``_operand``)
                s = na.srcs[0]
                if s.kind == LEAF and s.dtype is na.dtype and not s.shape:
                    na = s
            t = type(other)
            if t is type(self):
                nb = other._node
                if nb.op == "astype":
                    s = nb.srcs[0]
                    if s.kind == LEAF and s.dtype is nb.dtype and not s.shape:
                        nb = s
                r = SIGNATURES.get((name, na.dtype, nb.dtype))
                if r is not None and r[0] is na.dtype and nb.dtype is na.dtype and \
                        na.shape == nb.shape and na.device is nb.device:
                    out = self._from_node(_ew_node(
                        name, r[1], na.shape, (nb, na) if reflected else (na, nb), None,
                        na.device, 1 + na.size + nb.size))
                    if not na.shape:    # NumPy's scalar, also where the graph bound
                        out._sc = True  # made the node a LEAF (``_from_node``)
                    return out
                if r is not None and r[0] is na.dtype and nb.dtype is na.dtype and \
                        (not na.shape or not nb.shape) and na.device is nb.device:
                    # an element times a row (``A[i, k] * A[:i + 1, k]``): the 0-d side
                    # broadcast as apply2 broadcasts it (one side 0-d: always possible)
                    na, nb = _ns._elementwise._broadcast2(na, nb, na.dtype)
                    return self._from_node(_ew_node(
                        name, r[1], na.shape, (nb, na) if reflected else (na, nb), None,
                        na.device, 1 + na.size + nb.size))
            else:
                v = None        # the constant, a NumPy scalar of the array's dtype
                if t is float or t is int:
                    r = SIGNATURES.get((name, t, na.dtype) if reflected else
                                       (name, na.dtype, t))
                    if r is not None and r[0] is na.dtype:
                        b = r[2]
                        if t is float or (b[0] <= other <= b[1] if b is not None else
                                          na.dtype.kind != "b"):
                            v = _scalar_value(other, na.dtype)
                elif t in _NP_SCALARS and other.dtype is na.dtype:
                    # a NumPy scalar of the array's dtype (NPBench's ``alpha * A[i, k]``,
                    # alpha = np.float64(1.5)): strong, so the loop is that dtype
                    # whatever the value; its signature is apply2's
                    r = SIGNATURES.get((name, ("np", na.dtype), na.dtype) if reflected
                                       else (name, na.dtype, ("np", na.dtype)))
                    if r is not None and r[0] is na.dtype:
                        v = other
                if v is not None:
                    sn = _scalar_node(v, na.dtype, na.shape, na.device)
                    out = self._from_node(_ew_node(
                        name, r[1], na.shape, (sn, na) if reflected else (na, sn),
                        None, na.device, 2 + na.size))
                    if not na.shape:
                        out._sc = True
                    return out
        if fast:                    # arrays and scalars, signature cached
            apply2 = _ns._elementwise.apply2
            r = apply2(name, other, self) if reflected else apply2(name, self, other)
            if r is not None:
                return r
        if other is None and name in ("equal", "not_equal"):
            return _ns.full(self.shape, name == "not_equal", device=self.device)
        if not _operand_ok(other):
            return NotImplemented
        if name == "power" and not reflected:
            return _ns._elementwise.power_operator(self, other)
        return _ns._elementwise.apply(name, other, self) if reflected else \
            _ns._elementwise.apply(name, self, other)
    op.__name__ = name
    return op


def _operand_ok(x) -> bool:
    return isinstance(x, (ArrayOperators, int, float, complex, bool, np.generic, np.ndarray,
                          list, tuple))      # (ArrayOperators: a gnumpy.ndarray)


def unary(name, self):
    """``name(self)`` (``-x``, ``abs(x)``, ``np.exp(x)``) of gnumpy array `self` whose dtype
    is the op's loop dtype, its signature cached: one node, as ``_apply_fast`` makes it
    (the node's checks passed when the signature was cached).  None otherwise."""
    n = self._node
    if n.op == "astype":                # an element's copy: its memory (as ``_operand``)
        s = n.srcs[0]
        if s.kind == LEAF and s.dtype is n.dtype and not s.shape:
            n = s
    r = SIGNATURES.get((name, n.dtype))
    if r is None or r[0] is not n.dtype:
        return None
    out = self._from_node(_ew_node(name, r[1], n.shape, (n,), None, n.device, 1 + n.size))
    if not n.shape:
        out._sc = True
    return out


def _unary(name):
    def op(self):
        r = unary(name, self)
        return r if r is not None else _ns._elementwise.apply(name, self)
    op.__name__ = name
    return op


# NumPy's ufunc -> the reflected operator: a NumPy scalar on the left (``alpha * a``) comes
# to ``__array_ufunc__`` (NumPy's scalar asks the ufunc), which hands it to the operator
REFLECTED: dict = {}

for _op in EW_OPS.values():         # the operators, from the op table
    if _op.dunder is None:
        continue
    if _op.nin == 1:
        setattr(ArrayOperators, f"__{_op.dunder}__", _unary(_op.name))
        continue
    setattr(ArrayOperators, f"__{_op.dunder}__", _binary(_op.name))
    if _op.out != "bool":           # comparisons reflect by swapping (Python does it)
        _f = _binary(_op.name, reflected=True)
        setattr(ArrayOperators, f"__r{_op.dunder}__", _f)
        if isinstance(getattr(np, _op.name, None), np.ufunc):
            REFLECTED[getattr(np, _op.name)] = _f


def _matmul(self, other):
    if not _operand_ok(other):
        return NotImplemented
    return _ns.matmul(self, other)


def _rmatmul(self, other):
    if not _operand_ok(other):
        return NotImplemented
    return _ns.matmul(other, self)


def _divmod(self, other):
    if not _operand_ok(other):
        return NotImplemented
    return _ns.divmod(self, other)


def _rdivmod(self, other):
    if not _operand_ok(other):
        return NotImplemented
    return _ns.divmod(other, self)


ArrayOperators.__matmul__ = _matmul
ArrayOperators.__rmatmul__ = _rmatmul
ArrayOperators.__divmod__ = _divmod
ArrayOperators.__rdivmod__ = _rdivmod


def _imatmul(self, other):
    """``a @= b``: the product replaces the array's values (NumPy's checks first)."""
    if self._ro:
        raise ValueError("output array is read-only")
    r = _ns.matmul(self, other)
    if not D.can_cast(r.dtype, self.dtype, "same_kind"):
        raise TypeError(f"Cannot cast ufunc 'matmul' output from {r.dtype!r} to "
                        f"{self.dtype!r} with casting rule 'same_kind'")
    if r.shape != self.shape:
        raise ValueError("matmul: in-place result must keep the array's shape")
    self._set_node(ir.cast(r._node, self.dtype))
    return self


ArrayOperators.__imatmul__ = _imatmul
