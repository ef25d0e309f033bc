"""ufunc objects generated from the op table (``gnumpy.add``, ``gnumpy.sin``, ...).

Each public elementwise function is a ``ufunc`` instance: callable with NumPy's keywords
(``out=``, ``where=``, ``dtype=``, ``casting=``), with ``nin``, ``nout``, ``identity`` and the
methods ``reduce``, ``accumulate``, ``outer`` and ``at``.
"""
from __future__ import annotations

import numpy as np

from .. import _dtypes as D
from .._graph import ir
from .elementwise import apply
from ._common import as_node, is_array, wrap


def _check_out_cast(name, dt, out, casting):
    if not D.can_cast(dt, out.dtype, casting):
        raise TypeError(f"Cannot cast ufunc '{name}' output from {dt!r} to {out.dtype!r} with "
                        f"casting rule {casting!r}")


def _single_out(out):
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        out = out[0]
    if out is not None and not is_array(out):
        raise TypeError("return arrays must be of ArrayType (a gnumpy ndarray)")
    return out


def finish(name, r, out=None, where=True, casting="same_kind"):
    """Apply ufunc `out=`/`where=` semantics to the lazy result `r`."""
    out = _single_out(out)
    if where is not True:
        from .elementwise import where as where_
        mask = where if is_array(where) else wrap(as_node(where))
        if out is not None:
            _check_out_cast(name, r.dtype, out, casting)
            r = where_(mask, r, out)
        # Note: without out=, NumPy leaves masked-off elements uninitialized; gnumpy
        # returns the computed values there.
    if out is None:
        return r
    _check_out_cast(name, r.dtype, out, casting)
    out._assign_from(r)
    return out


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
        if len(args) == self.nin + 1 and out is None:
            *args, out = args
        r = apply(self._op.name, *args, dtype=dtype)
        return finish(self.__name__, r, out, where, casting)

    @property
    def types(self):
        return [c * self.nin + "->" + c for c in self._op.loops]

    @property
    def ntypes(self) -> int:
        return len(self._op.loops)

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=None,
               where=True):
        from . import reductions as R
        rop = self._op.reduce_op
        if rop is None:
            raise NotImplementedError(f"{self.__name__}.reduce is not implemented yet")
        fn = {"sum": R.sum, "prod": R.prod, "max": R.max, "min": R.min, "all": R.all,
              "any": R.any}[rop]
        kw = {"dtype": dtype} if rop in ("sum", "prod") else {}
        if initial is not None or where is not True:
            raise NotImplementedError(f"{self.__name__}.reduce(initial=, where=) is not "
                                      f"implemented yet")
        r = fn(array, axis=axis, keepdims=keepdims, **kw)
        return finish(self.__name__, r, out)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        from . import reductions as R
        if self._op.name == "add":
            r = R.cumulative_sum(array, axis=axis, dtype=dtype)
        elif self._op.name == "multiply":
            r = R.cumulative_prod(array, axis=axis, dtype=dtype)
        else:
            raise NotImplementedError(f"{self.__name__}.accumulate is not implemented yet")
        return finish(self.__name__, r, out)

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
        from . import indexing as IX
        from .elementwise import _classify, resolve
        op = self._op
        name = self.__name__
        if not is_array(a):
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
        if not IX._has_advanced(indices):
            t = IX.getitem(a, indices)
            t._assign_from(apply(op.name, *([t] if b is None else [t, b])))
            return
        p = IX.plan(a, indices)
        if b is None:
            vnode = ir.scalar(0, loop, (1,), a.device)
        else:
            vnode = IX.fit_value(IX.value_node(loop, b, a.device), p.shape)
        IX.scatter(a, p.vops, p.off, vnode, at=(op.name, op.nin, odt))
