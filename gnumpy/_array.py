"""``gnumpy.ndarray``: a lazy array over an IR node.

An array holds one IR node.  Until materialized the node is an expression; afterwards a
LEAF over a buffer.  Arrays made by basic indexing and other view ops remember their base
(``_base``) and share its memory once it is materialized, so writes through either are
seen by both.  A write into memory that a pending lazy expression reads first materializes
that expression (laziness is invisible except in speed).

The rest of the package uses an array through ``INTERFACE`` only (checked by
tests/test_structure.py): its state (``_node``, the IR node, replaced only through
``_set_node``; ``_base``, a view's root; ``_vops``, a view's place in the root's memory;
``_ro``; ``_has_views``), new arrays (``_from_node``, ``_view``, ``_strided_view``,
``_new_view``, ``_copy``), memory (``_leaf``, ``_write_target``, ``_mark_shared``) and
writes (``_set_node``, ``_assign_from``).  The other private members are this module's.

Here: the array's state, new arrays and views, materialization, writes (in-place
operators included) and indexing's hot path.  Its base classes hold the rest, by job:
``_attributes.py`` (attributes, conversions, Python protocol), ``_operators.py`` (the
operators that make new arrays) and ``_methods.py`` (methods that are NumPy functions).
"""
from __future__ import annotations

import operator
import weakref
from math import prod as _prod

from . import _dtypes as D
from . import _lazy
from ._broadcast import broadcast_to_check, fmt
from ._config import config
from ._elide import sole_base as _sole_base, stored_temporary as _stored_temporary
from ._elide import temporary as _temporary
from ._graph import ir
from ._graph import bounds as B
from ._graph import realize as R
from ._graph import readers as RD
from ._graph.ir import BARRIER as _BARRIER, EW as _EW, LEAF, REDUCE as _REDUCE, SCALAR
from ._graph.layout import key_layout as _key_layout
from ._hostvals import (element_group as _element_group, fold_constant as _fold_constant,
                        known_value as _known_value, written_element as _written_element)
from ._memstate import MISS as _MISS, share as _share, shared as _shared_mem
from ._attributes import ArrayAttributes
from ._methods import NumpyMethods
from ._operators import ArrayOperators, _binary, _operand_ok
from ._ops import EW_OPS
from ._sizes import check_nbytes as _check_nbytes
from ._viewmem import (_LAZY_PRUNE, _LAZY_VIEWS, _apply_vops, _at_ops, _bind_views, _derived,
                       _prune_lazy_views, _snapshot, _viewed_enough)

_BOUND_CHECK_SIZE, _bound = B.CHECK_SIZE, B.checked
_QUICK_SIZE = 1 << 26       # new arrays of up to this many elements (1 GiB) skip the
_SMALL_SHAPE = [()]         # memory check; the last shape found that small
_pending, _prune_at, _SHARED = RD._pending, RD._prune_at, RD._SHARED
# 0-d results of these node kinds are NumPy's scalars, but not these ops' (0-d arrays)
_SC_KINDS = tuple(k in (_EW, _REDUCE, _BARRIER) for k in range(_BARRIER + 1))
_ARRAY_EW = frozenset({"astype", "where"})
_ref = weakref.ref
_new_arr = object.__new__
_ew_node = ir.ew_node
# The gnumpy namespace: methods that are NumPy functions forward to it by name; it loads
# their modules on first use (``_lazy``).  This layer names no module above it.
_ns = _lazy.package()


INTERFACE = frozenset({"_node", "_base", "_vops", "_ro", "_has_views", "_from_node", "_view",
                       "_strided_view", "_new_view", "_copy", "_leaf", "_write_target",
                       "_mark_shared", "_set_node", "_assign_from", "_sc"})


class ndarray(ArrayAttributes, ArrayOperators, NumpyMethods):
    """N-dimensional lazy array on a gnumpy device (NumPy's ndarray interface).

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.arange(4.0)
    >>> (x * 2 + 1).sum()
    array(16.)
    """

    __slots__ = ("_node", "_base", "_vops", "_has_views", "_ro", "_sc", "__weakref__")
    # _sc: what NumPy returns as a scalar (an element read ``a[i, j]``, a ufunc's or a
    # reduction's 0-d result), immutable there: its in-place operators compute out of
    # place (and may widen it), and its views are new arrays
    __array_priority__ = 100

    def __new__(cls, shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
        if buffer is not None or strides is not None:
            raise NotImplementedError("ndarray(buffer=, strides=) is not supported; use "
                                      "gnumpy.asarray")
        shape = (operator.index(shape),) if not isinstance(shape, (tuple, list)) else \
            tuple(operator.index(d) for d in shape)
        return _ns.empty(shape, dtype=dtype)

    @classmethod
    def _from_node(cls, node, base=None):
        self = object.__new__(cls)
        self._node = node
        self._base = base
        self._vops = ()
        self._has_views = self._ro = self._sc = False
        if node.kind == _EW and not node.shape and node.srcs[0].kind == node.srcs[-1].kind \
                == SCALAR and base is None and node.op not in _ARRAY_EW and \
                _fold_constant(node):   # an op's 0-d result over constants, computed here:
            self._sc = True             # a scalar, which reads no memory a write could
            return self                 # change (no pending reader)
        if node.kind != LEAF and (node.size > _BOUND_CHECK_SIZE[0 if node.shape else 2] or
                                  _BOUND_CHECK_SIZE[1] != config._generation):
            _bound(node)
        if node.kind != LEAF:
            sh = node.shape
            if base is None and sh is not _SMALL_SHAPE[0]:  # a new array: NumPy's size
                n = _prod(sh)                               # errors at the call
                if n > _QUICK_SIZE or (not n and len(sh) > 1):
                    _check_nbytes(sh, node.dtype, node.device)
                else:
                    _SMALL_SHAPE[0] = sh    # (loops reuse one shape tuple: one `is` test)
            if not sh and base is None and _SC_KINDS[node.kind] and node.op not in _ARRAY_EW:
                self._sc = True         # a ufunc's or a reduction's 0-d result: a scalar
            k = id(self)                # RD.track(self), inlined (hot path)
            _pending.pop(k, None)
            _pending[k] = _ref(self)
            if len(_pending) > _prune_at[0] or _SHARED:
                RD.tracked(self)
        return self

    # ------------------------------------------------------------------ materialization
    def _leaf(self):
        """Materialize (if needed) and return this array's LEAF node.

        A view materializes its base and applies its view ops to the base's memory, so
        the two keep sharing it."""
        n = self._node
        if n.kind == LEAF:
            b = self._base
            if b is None or n.buf is b._node.buf or not _derived(self, b):
                return n        # (a view's LEAF over other memory is a stale copy)
        if self._base is not None:
            self._node = m = _apply_vops(self._base._leaf(), self._vops)
            return m
        R.materialize([n])
        return self._node

    def _mark_shared(self) -> None:
        """Memory of this array may be seen through other arrays, or outside gnumpy
        (imported or exported without a copy): writes go to memory, at once."""
        root = self._base if self._base is not None else self
        root._has_views = True
        if root._node.kind == LEAF:
            _share(root._node.buf)

    def _view(self, ops):
        """A view of this array through view ops [(vkind, arg, shape), ...] (possibly
        none); it shares this array's memory once materialized.

        The view remembers where it lies in its root's memory as one ``at`` record
        (strides, offset, dtype), so a chain of views costs O(1) per view."""
        root = self._base if self._base is not None else self
        rn = root._node
        if rn.kind != LEAF:
            ent = _LAZY_VIEWS.get(id(root))
            if ent is not None and ent[0]() is root and _viewed_enough(ent, rn):
                rn = root._leaf()   # viewed again and again while lazy: computed once,
                _bind_views(ent)    # not once in every view's kernel; its views fold
        n = self._node
        if n.kind == LEAF and rn.kind == LEAF and n.buf is rn.buf:
            for vkind, arg, shape in ops:       # the hot case: fold into memory at once
                n = ir.view(n, vkind, arg, shape)
            if n.kind == LEAF:
                return self._new_view(n, (("at", (n.strides, n.offset, n.dtype, rn),
                                           n.shape),))
        vops = _at_ops(self, ops)
        if rn.kind == LEAF and vops[0][0] == "at":
            st, off, dt, _ = vops[0][1]
            node = ir.leaf(rn.buf, dt, vops[0][2], st, off, rn.device)
        else:
            node = self._node
            for vkind, arg, shape in ops:
                node = ir.view(node, vkind, arg, shape)
        return self._new_view(node, vops)

    def _strided_view(self, shape, strides, offset):
        """A view of this array's root memory at an explicit layout (element strides and
        offset in that memory, as ``_views.true_layout`` gives them); the root is
        materialized."""
        root = self._base if self._base is not None else self
        rn = root._leaf()
        dt = self._node.dtype
        node = ir.leaf(rn.buf, dt, shape, strides, offset, rn.device)
        return self._new_view(node, (("at", (tuple(strides), offset, dt, rn), tuple(shape)),))

    def _new_view(self, node, vops):
        root = self._base if self._base is not None else self
        if root._sc or self._sc:    # NumPy's scalar (a view of a temporary too: a complex
            r = ndarray._from_node(ir.copy(node))   # round's): s.T a new scalar, s[None] an array
            r._sc = not node.shape
            return r
        root._has_views = True
        if node.kind != LEAF and (node.size > _BOUND_CHECK_SIZE[0 if node.shape else 2] or
                                  _BOUND_CHECK_SIZE[1] != config._generation):
            _bound(node)
        v = object.__new__(ndarray)             # _from_node(node, root), inlined
        v._node = node
        v._base = root
        v._vops = vops
        v._has_views = False
        v._ro = self._ro
        v._sc = False
        if node.kind != LEAF:
            k = id(v)                   # RD.track(v), inlined
            _pending.pop(k, None)
            _pending[k] = _ref(v)
            if len(_pending) > _prune_at[0]:
                RD._prune()
        if root._node.kind != LEAF or node.kind != LEAF:    # bound to the root's memory at
            # its first write; a part (``.imag``) of a materialized root rebound at every write
            ent = _LAZY_VIEWS.get(id(root))
            if ent is None or ent[0]() is not root:
                if len(_LAZY_VIEWS) > _LAZY_PRUNE[0]:
                    _prune_lazy_views()
                ent = _LAZY_VIEWS[id(root)] = (_ref(root), [])
            views = ent[1]
            views.append(_ref(v))
            if not len(views) & 63:         # drop dead views now and then
                views[:] = [w for w in views if w() is not None]
        return v

    def _copy(self):
        """A new array with the same values that never aliases this one."""
        return ndarray._from_node(ir.copy(self._node))

    def _set_node(self, node, also=None, defer=False) -> None:
        """Give this array new values (`node`, same shape and dtype).  `also`: an array whose
        lazy value the write may read unmaterialized (a temporary, or one the caller rebinds
        afterwards; a view, with its lazy base, when no one else holds the base); `defer`: a
        statement's write, which may wait (``realize.write``)."""
        if self._ro:
            raise ValueError("assignment destination is read-only")
        if self._base is None and not self._has_views:
            old, self._node = self._node, node
            if node.kind != LEAF:
                RD.track(self)
                B.updated_in_place(node, old)       # x += y: a loop's state stays small
        else:
            with R.lock:        # the readers flushed and the write, as one statement
                n = self._node
                v = _known_value(node) if not n.shape and n.kind == LEAF else _MISS
                g = _element_group(n) if v is not _MISS else None
                R.write(self._write_target(also=also), node, defer=defer)
                if g is not None:       # a known value into an element: its block holds
                    _written_element(n, g, v)

    def _write_target(self, skip=True, also=None):
        """This array's LEAF, ready to be written in place: the pending readers of its
        memory (but `also`) are materialized first, and every pending view of its root is
        bound to the memory (a view made while the root was lazy may hold a node that does
        not read it: a folded constant, or a chain over the root's own sources)."""
        dest = self._leaf()
        RD.flush_readers(dest.buf, skip=self if skip else None, also=also)
        root = self._base if self._base is not None else self
        ent = _LAZY_VIEWS.pop(id(root), None)
        if ent is not None and ent[0]() is root:
            rl = root._node
            for r in ent[1]:
                v = r()
                if v is not None and _derived(v, root) and \
                        not (v._node.kind == LEAF and v._node.buf is rl.buf):
                    v._node = _apply_vops(rl, v._vops)
        return dest

    def _write_value(self, m, value, vn, temp) -> None:
        """``self[key] = value`` where `m` is the LEAF of a basic selection of this root's
        memory and `vn`, `value`'s node, is lazy with m's shape and dtype (a value that is
        no view, and no lazy view of this root is pending): what ``_assign_from`` does
        through a view of the selection, without making the view.  The write computes the
        value itself; unless it is a temporary, `value` then reads the written memory."""
        self._has_views = True
        with R.lock:
            if temp and not m.shape and vn.kind == _EW and vn.op != "astype" and \
                    RD.write_element_alone(m, value, vn):
                return      # (no reader to flush, and no value known on the host)
            v = _known_value(vn) if not m.shape else _MISS
            g = _element_group(m) if v is not _MISS else None
            RD.flush_readers(m.buf, also=value)
            R.write(m, vn, defer=True)
            if g is not None:
                _written_element(m, g, v)
        if not temp and value._node is vn:
            _reads_written(value, m)

    def _assign_from(self, value, strip=False, temp=False, defer=False) -> None:
        """``self[...] = value`` with NumPy's broadcasting and unsafe casting (out=);
        `strip`: leading length-1 axes of value beyond self's are dropped (setitem);
        `temp`: value is a temporary no one reads after the statement; `defer`: a
        statement's write (``realize.write``)."""
        if self._ro:
            raise ValueError("assignment destination is read-only")
        sn = self._node
        shape, dt, dev = sn.shape, sn.dtype, sn.device
        if isinstance(value, ndarray) and not (value._sc and dt.kind in "iu" and
                                               value._node.dtype.kind in "fc"):
            vnode = vn0 = value._node
        else:   # (NumPy's float scalar into integers: its value, NaN or too large refused)
            vnode = _ns._common.value_node(value.get()[()] if isinstance(value, ndarray)
                                           else value, dt, dev)
            vn0 = None
        if vnode.device is not dev and vnode.device != dev:
            raise ValueError(f"cannot write an array on {vnode.device} into one on {dev}")
        vs = vnode.shape
        if vs != shape:
            if strip and len(vs) > len(shape):
                while len(vs) > len(shape) and vs[0] == 1:
                    vs = vs[1:]
                vnode = ir.reshape(vnode, vs)
            if vs != shape:
                broadcast_to_check(vs, shape)
        vdt = vnode.dtype
        if vdt is not dt:
            if vdt.kind == "c" and dt.kind != "c":
                D.warn_complex_to_real(vdt, dt, 4)
            vnode = ir.cast(vnode, dt)
        if vs != shape:
            vnode = ir.broadcast(vnode, shape)
        if vnode.kind != LEAF and type(value) is ndarray and value._base is None and \
                not value._has_views and (value._node is vnode and (self._base is not None
                                          or self._has_views) or temp and vn0 is not None
                                          and vnode is not vn0 and vn0.kind != LEAF):
            # `a[k] = t` with t lazy (a[k] += b makes t = a[k] + b), or a temporary t of
            # another dtype or shape: the write computes t (or its cast) itself; a t not
            # temporary then reads the written memory through a copy node, pending like
            # any reader, so t keeps its values and one kernel runs, not two
            self._set_node(vnode, also=value, defer=defer)
            if not temp and value._node is vnode:
                _reads_written(value, self._node)
            return
        if temp and vnode.kind != LEAF and type(value) is ndarray and \
                value._base is not None and value._base._node.kind != LEAF and \
                _sole_base(value) and (self._base is not None or self._has_views):
            # `a[k] = t.reshape(s)` with t lazy and held by that temporary view alone: no
            # one reads t or the view after the statement, so the write computes them
            self._set_node(vnode, also=value, defer=defer)
            return
        if (vnode is vn0 or vnode.kind == LEAF) and self._base is None and \
                not self._has_views:    # its own node: never another array's node (once
            vnode = ir.copy(vnode)      # computed, one memory) or memory
        del value
        self._set_node(vnode, defer=defer)

    # ------------------------------------------------------------------ indexing
    def _basic(self, key):
        """The hot path of indexing: (LEAF of the selection, root node, every axis indexed
        by an int) for a key of ints and slices over this array's memory, else None."""
        n = self._node
        rn = (self._base if self._base is not None else self)._node
        if n.kind != LEAF or n.buf is not rn.buf:
            return None
        lay = _key_layout(n, key)   # (a[k] += b: the layout its read kept)
        return None if lay is None else \
            (ir.leaf(n.buf, n.dtype, lay[0], lay[1], lay[2], n.device), rn, lay[3])

    def __getitem__(self, key):
        n = self._node
        root = self._base if self._base is not None else self
        lay = _key_layout(n, key) if n.kind == LEAF and n.buf is root._node.buf else None
        if lay is None:         # (``_basic``'s answer, inlined: the hot path)
            if n.kind == _EW and root is self and not self._sc and _snapshot(n):
                self._leaf()
                return self[key]
            return _ns._indexing.getitem(self, key)
        shape, strides, off, element = lay
        m = ir.leaf(n.buf, n.dtype, shape, strides, off, n.device)
        if element:                 # NumPy's scalar: a copy, which later writes miss
            return _element_copy(m)
        if self._sc:
            return self._copy()[key]    # (``s[...]``, ``s[None]`` of a scalar: new arrays)
        vops = (("at", (strides, off, m.dtype, root._node), shape),)
        if root._sc:
            return self._new_view(m, vops)
        root._has_views = True      # ``_new_view`` of a LEAF of a root in memory (no
        v = _new_arr(ndarray)       # bound, nothing pending), inlined
        v._node = m
        v._base = root
        v._vops = vops
        v._has_views = v._sc = False
        v._ro = self._ro
        return v

    def __setitem__(self, key, value):
        if self._sc:        # (NumPy's scalar: see indexing.setitem)
            return _ns._indexing.setitem(self, key, value)
        tv = type(value)
        b = self._basic(key) if not self._ro and (tv is float or tv is int or
                                                  tv is ndarray) else None
        if b is not None and not (b[2] and tv is ndarray and value._node.shape):
            m, rn, _ = b
            wn = wv = None      # the node _write_value writes into m, and its value
            if tv is ndarray:
                vn = value._node
                if (vn.kind == LEAF or vn.op == "astype") and ir.holds(vn, m) and \
                        not _shared_mem(m.buf):
                    return      # a[k] += b (the operator wrote it), a[i, j] = max(a[i, j], t)
                if vn.dtype is m.dtype and vn.device is m.device:
                    if vn.kind != LEAF and vn.shape == m.shape and value._base is None \
                            and not value._has_views:   # the loop statement: a lazy value
                        wt = _stored_temporary(value)   # of m's layout (asked before more
                        wn, wv = vn, value              # names hold `value`)
                    elif vn.kind == LEAF and vn.shape == m.shape:
                        wn = vn                         # p[:, -1] = p[:, -2]: a copy
                    elif m.shape and not vn.shape:      # ey[0, :] = fict[t]: an element
                        wn = ir.broadcast(vn, m.shape)
            elif m.shape and m.dtype.kind in "fc":      # u[0, :] = 0: a constant
                wn = ir.scalar_node(ir.scalar_value(value, m.dtype), m.dtype, m.shape, m.device)
            root = self._base if self._base is not None else self
            if wn is not None and ((e := _LAZY_VIEWS.get(id(root))) is None or
                                   e[0]() is not root):     # (a dead root's id reused)
                return root._write_value(m, wv, wn, wv is None or wt)
            temp = tv is ndarray and (wt if wv is not None else _stored_temporary(value))
            t = self._new_view(m, (("at", (m.strides, m.offset, m.dtype, rn), m.shape),))
            t._assign_from(value, strip=True, temp=temp, defer=True)
            return
        _ns._indexing.setitem(self, key, value)


def _element_copy(m):
    """``_from_node(ir.copy(m))`` of element `m`, NumPy's scalar (an element read, inlined)."""
    r = _new_arr(ndarray)
    r._node = n = _ew_node("astype", m.dtype, (), (m,), None, m.device, 2)    # its copy
    if 2 > _BOUND_CHECK_SIZE[2] or _BOUND_CHECK_SIZE[1] != config._generation:
        _bound(n)
    r._base = None
    r._vops = ()
    r._has_views = r._ro = False
    r._sc = True
    k = id(r)                   # RD.track(r), inlined
    _pending.pop(k, None)
    _pending[k] = _ref(r)
    if len(_pending) > _prune_at[0] or _SHARED:
        RD.tracked(r)
    return r


def _reads_written(value, d) -> None:
    """`value`, just computed into LEAF `d` by a write, reads d through a copy node."""
    value._node = ir.copy(ir.leaf(d.buf, d.dtype, d.shape, d.strides, d.offset, d.device))
    RD.track(value)


def _inplace(name):
    fast = name != "power"
    rebind = _binary(name)  # NumPy's scalar has no in-place operator: ``s += x`` rebinds s
                            # to ``s + x`` (what else holds the scalar keeps its value)

    def op(self, other):
        if self._sc:
            return rebind(self, other)
        if type(other) is not ndarray and not _operand_ok(other):
            return NotImplemented
        if self._ro:
            raise ValueError("output array is read-only")
        node = _ns._elementwise.apply2(name, self, other, True) if fast else None  # hot path
        if node is not None and node.dtype is self._node.dtype and node.shape == self._node.shape:
            if node.size > _BOUND_CHECK_SIZE[0 if node.shape else 2] or \
                    _BOUND_CHECK_SIZE[1] != config._generation:
                _bound(node)        # (the in-place hot path)
            r = None
        else:
            odt = _ns._resolution.result_dtype(name, self, other)
            if type(other) is int and self._node.dtype.kind == "b" and odt.kind in "iu" \
                    and not -2**63 <= other < 2**63:
                raise OverflowError("Python int too large to convert to C long")
            if not D.can_cast(odt, self.dtype, "same_kind"):
                raise TypeError(f"Cannot cast ufunc '{name}' output from {odt!r} to "
                                f"{self.dtype!r} with casting rule 'same_kind'")
            r = _ns._elementwise.power_operator(self, other) if name == "power" else \
                _ns._elementwise.apply(name, self, other)
            if not D.can_cast(r.dtype, self.dtype, "same_kind"):
                raise TypeError(f"Cannot cast ufunc '{name}' output from {r.dtype!r} to "
                                f"{self.dtype!r} with casting rule 'same_kind'")
            if r.shape != self.shape:
                raise ValueError(f"non-broadcastable output operand with shape "
                                 f"{fmt(self.shape)} doesn't match the broadcast shape "
                                 f"{fmt(r.shape)}")
            node = ir.cast(r._node, self.dtype)
        del r
        # (the elision test reads this frame's caller: it stays in this function)
        if type(other) is ndarray and other._node.kind != LEAF and other._base is None \
                and not other._has_views and (self._base is not None or self._has_views) \
                and _temporary(other):
            self._set_node(node, also=other, defer=True)    # one kernel computes `other`
        else:                                               # and writes
            self._set_node(node, defer=True)
        return self
    op.__name__ = name
    return op


for _op in EW_OPS.values():         # the in-place operators, from the op table
    if _op.dunder is not None and _op.nin != 1 and _op.out != "bool":
        setattr(ndarray, f"__i{_op.dunder}__", _inplace(_op.name))
