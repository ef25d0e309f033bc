"""ndarray's operators that make a new array (``a + b``, ``2 * a``, ``a < b``, ``-a``,
``a @ b``, ``divmod(a, b)``), as a base class of ``gnumpy.ndarray``, and ``a @= b``.

They are generated from the op table: each row that names a dunder gives its operator, and
a binary one its reflected operator too (comparisons reflect by swapping: Python does it).
They go straight to the elementwise hot path (``_elementwise.apply2``: one dictionary lookup
for arrays and scalars).  The elementwise in-place operators (``a += b``) write into the
array: they are ``_array.py``'s, with its other writes, and check their operand here
(``_operand_ok``).
"""
from __future__ import annotations

import numpy as np

from . import _dtypes as D
from . import _lazy
from ._graph import ir
from ._ops import EW_OPS

_ns = _lazy.package()


class ArrayOperators:
    """The operators of ``gnumpy.ndarray`` that make a new array (set below)."""

    __slots__ = ()


def _binary(name, reflected=False):
    fast = name != "power" or reflected     # x ** e has NumPy's operator fast paths

    def op(self, other):
        if fast:                    # the hot path: arrays and scalars, signature cached
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


def _unary(name):
    def op(self):
        return _ns._elementwise.apply(name, self)
    op.__name__ = name
    return op


for _op in EW_OPS.values():         # the operators, from the op table
    if _op.dunder is None:
        continue
    if _op.nin == 1:
        setattr(ArrayOperators, f"__{_op.dunder}__", _unary(_op.name))
        continue
    setattr(ArrayOperators, f"__{_op.dunder}__", _binary(_op.name))
    if _op.out != "bool":           # comparisons reflect by swapping (Python does it)
        setattr(ArrayOperators, f"__r{_op.dunder}__", _binary(_op.name, reflected=True))


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
