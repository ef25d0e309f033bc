"""ufunc objects generated from the op table (``gnumpy.add``, ``gnumpy.sin``, ...).

Each public elementwise function is a ``ufunc`` instance: callable with NumPy's keywords
(``out=``, ``where=``, ``dtype=``, ``casting=``), with ``nin``, ``nout``, ``identity`` and the
methods ``reduce``, ``accumulate``, ``outer`` and ``at``.
"""
from __future__ import annotations

import numpy as np

from ... import _dtypes as D
from ..._graph import ir
from ..indexing import index_plan as IP
from ..indexing import indexing as IX
from ..indexing import keys as IK
from ..reductions import reductions as R
from ..reductions import scans as S
from ..._array import ndarray
from ..._operators import unary
from ..._graph import bounds as B
from .elementwise import apply, apply2
from .resolution import _classify, out_dtype, resolve, scalar_errors
from .elementwise import where as where_
from .._common import as_node, is_array, wrap
from ..outargs import check_casting, check_order, check_out_cast, finish, single_out


def _assign_result(out, node) -> None:
    """``out[...] = node`` for `node`, a new lazy elementwise result of out's dtype and
    shape (a ufunc's ``out=``): what ``ndarray._assign_from`` does with an array over it."""
    B.bounded(node)
    if out._base is None and not out._has_views:
        node = ir.copy(node)        # (an array's own node, as _assign_from gives it)
    out._set_node(node)


def _loop_for(uf, args, dtype, casting):
    """The loop dtype to pass on for ``uf(*args, dtype=dtype, casting=casting)`` (None:
    resolve from the inputs), with NumPy's errors: TypeError when no loop has `dtype` as
    its output, UFuncTypeError (a TypeError) when an input cannot be cast to the loop
    under `casting` (a Python float or complex counts as float64 or complex128)."""
    op = uf._op
    items, _ = _classify(args)
    if dtype is not None:
        dt = D.to_dtype(dtype)
        rule = op.out
        if op.cast_all:         # logical ops: a loop per input type, bool out
            if dt != D.bool_:
                raise TypeError(f"No loop matching the specified signature and casting was "
                                f"found for ufunc {uf.__name__}")
            return None
        if rule == "same":
            cands = [dt] if dt.char in op.loops else []
        elif rule == "real":
            cands = [np.dtype(c) for c in op.loops if D.real_dtype(np.dtype(c)) == dt]
        else:
            cands = [None] if np.dtype(rule) == dt else []
        if not cands or op.extra.get("special"):
            raise TypeError(f"No loop matching the specified signature and casting was found "
                            f"for ufunc {uf.__name__}")
        loop = cands[0]         # (NumPy reports the cast to the first loop)
        for c in cands:         # the first loop every input reaches safely
            if c is None or all(_in_cast_ok(it, c, "safe") for it in items):
                loop = c
                break
    else:
        if op.cast_all:         # logical ops have a loop for each input type
            return None
        if op.out == "bool" and {_in_dtype(it, False) for it in items} == {D.int64,
                                                                            D.uint64}:
            return None         # NumPy 2 compares int64 with uint64 without a cast
        loop = None
    check = loop if loop is not None else resolve(op, items)[0]
    weak = dtype is not None
    for it in items:
        k = it[1]
        if it[0] is None and k in _PY_DEFAULT and casting == "equiv" and \
                check != _PY_DEFAULT[k] and not (k == "i" and uf.__name__ in _COMPARE and
                                                 check.kind in "iu"):
            raise TypeError(f"cannot cast Python {_PY_NAME[k]} to {check} under the casting "
                            f"rule 'equiv'")
    scalar_errors(op.name, items, check)
    for i, it in enumerate(items):
        if not _in_cast_ok(it, check, casting, weak):
            which = "input" if len(items) == 1 else f"input {i}"    # (NumPy's wording)
            raise TypeError(f"Cannot cast ufunc '{uf.__name__}' {which} from "
                            f"{_in_dtype(it, weak)!r} to {check!r} with casting rule "
                            f"{casting!r}")
    return loop


def _in_dtype(item, weak=True):
    """An input's dtype for the casting check (a Python float or complex counts as
    float64 or complex128 when `dtype=` fixes the loop; otherwise it adapts to it)."""
    node, k, v = item
    if node is not None:
        return node.dtype
    if k == "strong":
        return D.to_dtype(v.dtype)
    if k == "b":
        return D.bool_
    return {"f": D.float64, "c": D.complex128}.get(k) if weak else None


_WEAK_RANK = {"b": 0, "i": 1, "f": 3, "c": 4}     # a Python int fits unsigned loops too
_PY_DEFAULT = {"i": D.int64, "f": D.float64, "c": D.complex128}
_PY_NAME = {"i": "int", "f": "float", "c": "complex"}
_COMPARE = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}


def _in_cast_ok(item, loop, casting, weak=True) -> bool:
    node, k, v = item
    if node is None and k == "b":           # a Python bool casts as a bool array
        return D.can_cast(D.bool_, loop, casting)
    if node is None and k not in (None, "strong"):
        # a Python scalar takes the loop's type when its kind fits (NEP 50)
        return casting == "unsafe" or not weak or _WEAK_RANK[k] <= D._RANK[loop.kind]
    dt = _in_dtype(item, weak)
    return dt is None or D.can_cast(dt, loop, casting)


class ufunc:
    """A NumPy-style universal function over gnumpy arrays.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.add(gp.arange(3), 1)
    array([1, 2, 3])
    >>> gp.add.reduce(gp.arange(4))
    array(6)
    """

    def __init__(self, op, name: str) -> None:
        self._op = op
        self.__name__ = name
        self.__qualname__ = name
        self.nin = op.nin
        self.nout = 1
        self.nargs = op.nin + 1
        self.identity = op.identity
        self.__doc__ = (f"{name}(*args, out=None, where=True, dtype=None, casting='same_kind')"
                        f"\n\nElementwise ``{op.name}`` with NumPy semantics (lazy, fused).")

    def __repr__(self) -> str:
        return f"<ufunc '{self.__name__}'>"

    def __call__(self, *args, out=None, where=True, casting="same_kind", order="K",
                 dtype=None, subok=True, signature=None):
        if len(args) == 1 and out is None and where is True and dtype is None and \
                casting == "same_kind" and order == "K" and signature is None:
            r = unary(self._op.name, args[0]) if type(args[0]) is ndarray else None
            if r is not None:           # ``np.exp(x)``: the operators' hot path
                return r
        if len(args) == self.nin + 1 and out is None:
            *args, out = args
        if type(out) is ndarray and len(args) == 2 and where is True and dtype is None and \
                casting == "same_kind" and order == "K" and signature is None and \
                not out._ro:        # ``np.add(a, b, out=c)``: the operator hot path's node
            node = apply2(self._op.name, args[0], args[1], True)
            if node is not None and node.dtype is out._node.dtype and \
                    node.shape == out._node.shape:
                _assign_result(out, node)
                return out
        if out is not None:
            out = single_out(out)
        if casting != "same_kind":
            check_casting(casting)
        if order != "K":
            check_order(order)
        if dtype is not None or casting in ("no", "equiv"):
            dtype = _loop_for(self, args, dtype, casting)
        if out is not None:
            # NumPy resolves the loop (and checks the output cast) before broadcasting
            items = _classify(args)[0]
            loop, odt = resolve(self._op, items, dtype)
            scalar_errors(self._op.name, items, loop)
            check_out_cast(self.__name__, odt, out, casting)
        if where is not True and self._op.name == "power" and is_array(args[1]):
            # masked-off exponents are never used: NumPy does not check them
            mask = where if is_array(where) else wrap(as_node(where))
            e = args[1]         # (zero of the exponent's own dtype: its type is kept)
            args = [args[0], where_(mask, e, wrap(ir.scalar(0, e.dtype, (), e.device)))]
        elif where is not True and self._op.name == "power" and \
                isinstance(args[1], (int, np.integer)) and not isinstance(args[1], bool) and \
                args[1] < 0:
            # a negative scalar exponent: NumPy's loop raises only for an element computed
            mask = where if is_array(where) else wrap(as_node(where))
            if not bool(R.any(mask)):
                args = [args[0], type(args[1])(0)]
        r = apply(self._op.name, *args, dtype=dtype)
        return finish(self.__name__, r, out, where, casting)

    @property
    def types(self):
        """The loops, as NumPy lists them: input type codes, '->', the output's (the op
        table's output rule: '?' for comparisons and predicates, the real type of a
        complex loop for ``absolute``, ``bitwise_count``'s 'B')."""
        return [c * self.nin + "->" + out_dtype(self._op, np.dtype(c)).char
                for c in self._op.loops]

    @property
    def ntypes(self) -> int:
        return len(self._op.loops)

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=None,
               where=True):
        rop = self._op.reduce_op
        if rop is None:
            raise NotImplementedError(f"{self.__name__}.reduce is not implemented yet")
        fn = {"sum": R.sum, "prod": R.prod, "max": R.max, "min": R.min, "all": R.all,
              "any": R.any}[rop]
        kw = {"dtype": dtype} if rop in ("sum", "prod") else {}
        if initial is not None:
            if rop in ("all", "any"):
                raise NotImplementedError(f"{self.__name__}.reduce(initial=) is not "
                                          f"implemented yet")
            kw["initial"] = initial
        r = fn(array, axis=axis, keepdims=keepdims, where=where, **kw)
        return finish(self.__name__, r, out, casting="unsafe", exact="reduce")

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        raise NotImplementedError(f"{self.__name__}.reduceat is not implemented yet")

    def accumulate(self, array, axis=0, dtype=None, out=None):
        if self._op.name == "add":
            r = S.cumulative_sum(array, axis=axis, dtype=dtype)
        elif self._op.name == "multiply":
            r = S.cumulative_prod(array, axis=axis, dtype=dtype)
        else:
            raise NotImplementedError(f"{self.__name__}.accumulate is not implemented yet")
        return finish(self.__name__, r, out, casting="unsafe",
                      exact="provided out is the wrong size for the accumulation.")

    def outer(self, A, B, /, **kwargs):
        a = A if is_array(A) else wrap(as_node(A))
        b = B if is_array(B) else wrap(as_node(B))
        a = a.reshape(a.shape + (1,) * b.ndim)
        return self(a, b, **kwargs)

    def at(self, a, indices, b=None, /):
        """``a[indices] = op(a[indices], b)`` in place, applied once per index, so repeated
        indices accumulate (``np.add.at``).

        # Note: on the GPU duplicate updates run as atomics (or compare-and-swap loops), so
        # float sums accumulate in an unspecified order (rounding may differ from NumPy's
        # sequential order); complex128 ops other than add/subtract run on one GPU thread.

        Examples
        --------
        >>> import gnumpy as gp
        >>> a = gp.zeros(3)
        >>> gp.add.at(a, [0, 0, 2], 1.0)
        >>> a
        array([2., 0., 1.])
        """
        op = self._op
        name = self.__name__
        if not is_array(a) or a._sc:        # (NumPy's scalar: not an array)
            raise TypeError(f"{name}.at: the first operand must be a gnumpy array")
        if op.nin == 2 and b is None:
            raise TypeError("second operand needed for ufunc")
        if op.nin == 1 and b is not None:
            raise TypeError("second operand provided when ufunc is unary")
        if op.nin > 2 or op.extra.get("special") or \
                not isinstance(getattr(np, op.name, None), np.ufunc):
            raise NotImplementedError(f"{name}.at is not implemented")
        items, _ = _classify([a] if b is None else [a, b])
        loop, odt = resolve(op, items)
        if not IK._has_advanced(indices):
            t = a._view(IK.view_ops(a.shape, indices))
            t._assign_from(apply(op.name, *([t] if b is None else [t, b])))
            return
        p = IP.plan(a, indices)
        if b is None:
            vnode = ir.scalar(0, loop, (1,), a.device)
        else:
            vnode = IX.fit_value(IX.value_node(loop, b, a.device), p.shape)
        IX.scatter(a, p.vops, p.off, vnode, at=(op.name, op.nin, odt))
