"""The lazy IR: immutable expression nodes (op, dtype, shape, srcs, arg).

Node kinds:

* ``LEAF``    a materialized strided layout over a backend buffer (``buf``, ``strides``,
              ``offset``, strides in elements).  Any node becomes a LEAF when it is
              materialized: it drops its sources, so long chains do not pin memory, and every
              consumer sees the result (nothing is computed twice).
* ``SCALAR``  a constant of some shape (a Python/NumPy scalar, ``zeros``, ``full``); its
              value is a kernel parameter, never part of a kernel's source or cache key.
* ``IOTA``    an index-valued int64 layout: value ``offset + sum(i[d] * strides[d])``
              (``arange``, ``eye``, ``tril`` masks); view ops fold into it like a LEAF.
* ``EW``      an elementwise op from the op table (or ``astype``/``where``); all sources
              have exactly the node's shape and the op's input dtypes (the API layer casts
              and broadcasts explicitly).  One exception, ``small_matmul`` (``crossed``):
              a matrix product over a few terms, whose element (..., i, j) sums its
              sources' (..., i, t) * (..., t, j); it reads its sources at other positions.
* ``VIEW``    an index map over one lazy source: broadcast, permute, slice or reshape.
              Views of LEAF/IOTA/SCALAR nodes fold into a new layout at once.
* ``REDUCE``  a reduction over ``axes`` (``arg = (rop, axes, keepdims)``).
* ``BARRIER`` a non-fusible op (scan, matmul, ...) that reads materialized sources.

Constructors check what the API layer promised and raise ``AssertionError`` (a bug above,
not a user error) on a mismatch: an elementwise node's op is one the IR knows, with its
number of sources, sources of one shape, device and dtype (two ops take mixed ones), a
source dtype among the op's loops and the output dtype the op gives; a view's shape fits
its source (a broadcast of compatible dimensions, a reshape of as many elements, a
permutation of the axes); a reduction's axes lie in its source.  They are the strict layer
under the NumPy-semantics layer, which promotes and broadcasts once, explicitly.  Building
a node never runs anything; ``size`` (the graph's tree size) lets the layer that makes
arrays bound graph growth (``bounds.bounded``).
"""
from __future__ import annotations

import numpy as np

from .. import _ops
from .._memstate import note_realized
from . import layout as L
from .scalars import scalar_value

LEAF, SCALAR, IOTA, EW, VIEW, REDUCE, BARRIER = range(7)
KIND_NAMES = ("leaf", "scalar", "iota", "ew", "view", "reduce", "barrier")


class Node:
    __slots__ = ("kind", "op", "dtype", "shape", "srcs", "arg", "size", "device",
                 "buf", "strides", "offset", "sig", "rb", "__weakref__")

    def __init__(self, kind, op, dtype, shape, srcs, arg, device, size=1):
        self.kind = kind
        self.op = op
        self.dtype = dtype
        self.shape = shape
        self.srcs = srcs
        self.arg = arg
        self.device = device
        self.size = size
        self.buf = None
        self.strides = None
        self.offset = 0
        self.sig = None         # a LEAF's layout signature, cached by the launch fast path;
        #                         a lazy 0-d node's scalar chain bound (``bounds``)
        self.rb = None          # the buffers its graph reads (``readers.read_set``)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def lazy(self) -> bool:
        return self.kind != LEAF

    def realize_constant(self, value, counted=True) -> None:
        """Turn this 0-d node into a SCALAR of `value`, its value computed on the host
        (``_hostvals``): every reader sees the same value (numbered as a realization,
        unless not `counted`: a node over constants alone, whose graph read no memory,
        changes no read set)."""
        if counted:
            note_realized(None)
        self.rb = None          # (a set kept from before would pin graphs over it to walks)
        self.arg = value
        self.op = "scalar"
        self.size = 1
        self.kind = SCALAR      # (before its sources go: a reader of the old kind still
        self.srcs = ()          # finds them)

    def realize(self, buf, strides, offset=0) -> None:
        """Turn this node into a LEAF holding `buf` (drops the sources).  The realization
        is numbered in `buf`'s memory state: a graph's read set taken before it may lack
        `buf` (``readers.read_set``)."""
        note_realized(buf)
        self.kind = LEAF
        self.op = "leaf"
        self.srcs = ()
        self.arg = None
        self.size = 1
        self.buf = buf
        self.strides = tuple(strides)
        self.offset = offset
        self.sig = None
        self.rb = None

    def __repr__(self) -> str:
        return (f"<Node {KIND_NAMES[self.kind]}:{self.op} {self.dtype} {self.shape}"
                f"{'' if self.arg is None else ' ' + repr(self.arg)}>")


def _size(srcs) -> int:
    n = 1
    for s in srcs:
        n += s.size
    return n


# ------------------------------------------------------------------ leaves and constants

def leaf(buf, dtype, shape, strides, offset, device) -> Node:
    n = _new_node(Node)         # Node(LEAF, ...) without the __init__ call (hot path)
    n.kind = LEAF
    n.op = "leaf"
    n.dtype = dtype
    n.shape = shape if type(shape) is tuple else tuple(shape)
    n.srcs = ()
    n.arg = None
    n.device = device
    n.size = 1
    n.buf = buf
    n.strides = strides if type(strides) is tuple else tuple(strides)
    n.offset = offset
    n.sig = None
    n.rb = None
    return n


_new_node = object.__new__


def _ew_signatures() -> dict:
    """{op: (number of sources, output rule, loops)} for every elementwise op the IR
    builds: the op table's, and ``astype`` (a cast) and ``where``, which are not ufuncs.
    The rule: 'same' (the loop dtype), a dtype kind ('b', 'i', 'u'), or None (unchecked:
    casts, and ops whose output is a complex input's real dtype)."""
    kinds = {"same": "same", "bool": "b", "int32": "i", "B": "u", "real": None}
    sig = {name: (r.nin, kinds[r.out], r.loops) for name, r in _ops.EW_OPS.items()}
    sig["astype"] = (1, None, None)
    sig["where"] = (3, None, None)
    return sig


_EW_SIG = _ew_signatures()


def holds(v: Node, m: Node) -> bool:
    """Does LEAF `m`'s memory hold `v`'s values already: `v` is that memory (a LEAF at m's
    place), or its copy not yet computed (an element read, ``a[i, j]``, still lazy: a write
    of that memory since would have computed it first, ``readers.flush_readers``)?"""
    if v.kind == EW and v.op == "astype" and v.dtype is m.dtype:
        v = v.srcs[0]
    return v.kind == LEAF and same_place(v, m)


def same_place(a: Node, b: Node) -> bool:
    """Do LEAFs `a` and `b` name the same elements of one buffer, in the same order and
    dtype (one is the other's memory, element for element)?"""
    return a.buf is b.buf and a.offset == b.offset and a.shape == b.shape and \
        a.strides == b.strides and a.dtype == b.dtype


def scalar(value, dtype, shape, device) -> Node:
    return scalar_node(scalar_value(value, dtype), dtype, tuple(shape), device)


def scalar_node(value, dtype, shape, device) -> Node:
    """A SCALAR of `value`, already a NumPy scalar of `dtype`, over tuple `shape` (an
    operator's constant, ``x * 0.99``: the hot path, without ``Node.__init__``)."""
    n = _new_node(Node)
    n.kind = SCALAR
    n.op = "scalar"
    n.dtype = dtype
    n.shape = shape
    n.srcs = ()
    n.arg = value
    n.device = device
    n.size = 1
    n.buf = n.strides = n.sig = n.rb = None
    n.offset = 0
    return n


def iota(shape, strides, offset, device) -> Node:
    n = Node(IOTA, "iota", np.dtype(np.int64), tuple(shape), (), None, device)
    n.strides = tuple(strides)
    n.offset = offset
    return n


def axis_iota(shape, axis, device) -> Node:
    """int64 node whose value is the index along `axis`."""
    strides = [0] * len(shape)
    strides[axis] = 1
    return iota(shape, strides, 0, device)


# ------------------------------------------------------------------ elementwise

_EW_CHECKED: set = set()    # (op, source dtype, dtype) of two-source nodes checked once


def ew(op: str, dtype, srcs, arg=None) -> Node:
    """An elementwise node; its sources must have one shape, one device and one dtype, the
    op's loop dtype (the API layer broadcasts, moves and promotes explicitly, and casts are
    nodes): a mismatch is a bug above, raised here.  Two ops take mixed sources:
    ``where`` (a bool condition, then two values of the output dtype) and ``ldexp`` (an
    inexact mantissa and an integer exponent)."""
    s0 = srcs[0]
    shape = s0.shape
    d0 = s0.dtype
    if len(srcs) == 2:          # (the operators' case, its op and dtypes checked before)
        s1 = srcs[1]
        if s1.dtype is d0 and (s1.shape is shape or s1.shape == shape) and \
                s1.device is s0.device and (op, d0, dtype) in _EW_CHECKED:
            return ew_node(op, dtype, shape, srcs, arg, s0.device, 1 + s0.size + s1.size)
    size = 1
    mixed = False
    for s in srcs:
        size += s.size
        if s.shape != shape or s.device is not s0.device and s.device != s0.device:
            raise AssertionError(f"ir.ew({op!r}): sources of shapes "
                                 f"{[x.shape for x in srcs]} on {[x.device for x in srcs]}")
        if s.dtype is not d0 and s.dtype != d0:
            mixed = True
    if mixed and not _mixed_ok(op, dtype, srcs):
        raise AssertionError(f"ir.ew({op!r}): sources of dtypes {[x.dtype for x in srcs]} "
                             f"(cast them to the loop dtype first)")
    sig = _EW_SIG.get(op)
    if sig is None or sig[0] != len(srcs):
        raise AssertionError(f"ir.ew({op!r}) of {len(srcs)} sources: "
                             + ("no such op" if sig is None else f"it takes {sig[0]}"))
    rule = sig[1]
    if rule is not None and (rule != dtype.kind if rule != "same" else
                             (dtype is not d0 and dtype != d0)) or \
            sig[2] is not None and d0.char not in sig[2]:
        raise AssertionError(f"ir.ew({op!r}) of {d0} sources gives no {dtype}")
    if not mixed and len(srcs) == 2:
        _EW_CHECKED.add((op, d0, dtype))
    return ew_node(op, dtype, shape, srcs, arg, s0.device, size)


def ew_node(op, dtype, shape, srcs, arg, device, size) -> Node:
    """An elementwise node whose sources are known to pass ``ew``'s checks (shape, device,
    the op's dtypes: an operator's resolved signature), `size` its tree size."""
    n = _new_node(Node)         # Node(EW, ...) without the __init__ call (hot path)
    n.kind = EW
    n.op = op
    n.dtype = dtype
    n.shape = shape
    n.srcs = srcs if type(srcs) is tuple else tuple(srcs)
    n.arg = arg
    n.device = device
    n.size = size
    n.buf = None
    n.strides = None
    n.offset = 0
    n.sig = None
    n.rb = None
    return n


def with_srcs(n, srcs) -> Node:
    """Inner node `n` (its kind, op, dtype, shape and arg) over other sources `srcs` (a
    tuple of nodes of the same shapes and dtypes): a graph rewritten below `n`."""
    m = _new_node(Node)
    m.kind = n.kind
    m.op = n.op
    m.dtype = n.dtype
    m.shape = n.shape
    m.srcs = srcs
    m.arg = n.arg
    m.device = n.device
    size = 1
    for s in srcs:
        size += s.size
    m.size = size
    m.buf = None
    m.strides = None
    m.offset = 0
    m.sig = None
    m.rb = None
    return m


def _mixed_ok(op, dtype, srcs) -> bool:
    if op == "where":
        return len(srcs) == 3 and srcs[0].dtype.kind == "b" and \
            srcs[1].dtype == srcs[2].dtype == dtype
    if op == "ldexp":
        return len(srcs) == 2 and srcs[0].dtype.kind in "fc" and srcs[1].dtype.kind in "iu"
    return False


SMALL_MATMUL = "small_matmul"


def small_matmul(a: Node, b: Node) -> Node:
    """``a @ b`` of `a` (batch + (m, k)) and `b` (batch + (k, n)), one dtype and a few terms
    k, as one elementwise node of shape batch + (m, n) (arg k): a kernel computes each
    element as its k products summed in order (``kernels/lower``), so a loop's statement
    builds, reads and launches one node per product."""
    sa, sb = a.shape, b.shape
    if len(sa) < 2 or len(sb) != len(sa) or sa[:-2] != sb[:-2] or sa[-1] != sb[-2] or \
            a.dtype != b.dtype or a.device != b.device:
        raise AssertionError(f"ir.small_matmul of {a!r} and {b!r}")
    return ew_node(SMALL_MATMUL, a.dtype, sa[:-1] + sb[-1:], (a, b), sa[-1], a.device,
                   1 + a.size + b.size)


def crossed(n: Node) -> bool:
    """Does inner node `n` read its sources at other positions than its own (a
    ``small_matmul``)?  Views aside, every other elementwise node reads each source at
    the position it computes."""
    return n.kind == EW and n.op == SMALL_MATMUL


def copy(src: Node) -> Node:
    """A node with `src`'s values that never shares its memory: ``ew("astype")`` to its own
    dtype, built without ``ew``'s checks (one source of the op's dtype always fits; an
    element read, ``a[i, j]``, makes one every time)."""
    return Node(EW, "astype", src.dtype, src.shape, (src,), None, src.device, src.size + 1)


def cast(src: Node, dtype) -> Node:
    if src.dtype == dtype:
        return src
    if src.kind == SCALAR:
        return scalar(src.arg, dtype, src.shape, src.device)
    return ew("astype", dtype, (src,))


def where(cond: Node, a: Node, b: Node) -> Node:
    return ew("where", a.dtype, (cond, a, b))


# ------------------------------------------------------------------ views

def view(src: Node, vkind: str, arg, shape) -> Node:
    """An index map over `src`; folds into LEAF/IOTA/SCALAR sources at once.

    vkind: 'broadcast' (to `shape`), 'permute' (arg = axes), 'slice' (arg = one
    (start, step) per dim, `shape` the new sizes) or 'reshape' (to `shape`, C order).
    """
    shape = tuple(shape)
    _check_view(src.shape, vkind, arg, shape)
    k = src.kind
    if k == SCALAR:
        return Node(SCALAR, "scalar", src.dtype, shape, (), src.arg, src.device)
    if k == LEAF or k == IOTA:
        folded = L.fold(src.shape, src.strides, src.offset, vkind, arg, shape)
        if folded is not None:
            st, off = folded
            if k == LEAF:
                return leaf(src.buf, src.dtype, shape, st, off, src.device)
            return iota(shape, st, off, src.device)
    elif k == VIEW:
        merged = _merge(src, vkind, arg, shape)
        if merged is not None:
            return merged
    return Node(VIEW, vkind, src.dtype, shape, (src,), arg, src.device, src.size + 1)


def _check_view(have, vkind, arg, shape) -> None:
    """AssertionError unless view `vkind` of a node of shape `have` can give `shape`."""
    if vkind == "broadcast":
        k = len(shape) - len(have)
        ok = k >= 0 and all(d == 1 or d == shape[k + i] for i, d in enumerate(have))
    elif vkind == "reshape":
        ok = L.prod(have) == L.prod(shape)
    elif vkind == "permute":
        ok = sorted(arg) == list(range(len(have))) and \
            tuple(have[a] for a in arg) == shape
    elif vkind == "slice":
        ok = len(arg) == len(have) == len(shape)
    else:
        ok = False
    if not ok:
        raise AssertionError(f"ir.view: no {vkind} {'' if arg is None else arg} of shape "
                             f"{have} gives shape {shape}")


def _merge(src: Node, vkind: str, arg, shape):
    """One view equal to view `vkind` of VIEW node `src`, or None: two reshapes, two
    slices, two permutes or two broadcasts compose into one, and a slice moves below a
    permute (so chains like ``y = y[::-1]`` or ``y = y.T[1:]`` stay one or two nodes)."""
    inner = src.srcs[0]
    sk = src.op
    if vkind == sk == "reshape" or vkind == sk == "broadcast":
        return inner if inner.shape == shape else view(inner, vkind, None, shape)
    if vkind == sk == "slice":     # (an empty axis starts at 0: nothing is read there)
        ss = tuple((a0 + s0 * a1 if n else 0, s0 * s1)
                   for (a0, s0), (a1, s1), n in zip(src.arg, arg, shape))
        if all(st == (0, 1) for st in ss) and shape == inner.shape:
            return inner
        return view(inner, "slice", ss, shape)
    if vkind == sk == "permute":
        axes = tuple(src.arg[a] for a in arg)
        return permute(inner, axes)
    if vkind == "slice" and sk == "permute":
        ss = [None] * len(arg)
        shp = [0] * len(arg)
        for i, a in enumerate(src.arg):
            ss[a] = arg[i]
            shp[a] = shape[i]
        return permute(view(inner, "slice", tuple(ss), tuple(shp)), src.arg)
    return None


def broadcast(src: Node, shape) -> Node:
    shape = tuple(shape)
    return src if src.shape == shape else view(src, "broadcast", None, shape)


def reshape(src: Node, shape) -> Node:
    shape = tuple(shape)
    return src if src.shape == shape else view(src, "reshape", None, shape)


def permute(src: Node, axes) -> Node:
    axes = tuple(axes)
    if axes == tuple(range(len(axes))):
        return src
    return view(src, "permute", axes, tuple(src.shape[a] for a in axes))


# ------------------------------------------------------------------ reductions and barriers

def reduce(rop: str, src: Node, axes: tuple, keepdims: bool, dtype) -> Node:
    sh = src.shape
    nd = len(sh)
    shape = []
    prev = -1
    for a in axes:              # increasing axes (as the API layer gives them): one pass
        if not prev < a < nd:
            if len(set(axes)) != len(axes) or not all(0 <= a < nd for a in axes):
                raise AssertionError(f"ir.reduce: axes {axes} of a node of shape {sh}")
            shape = [1 if i in axes else d for i, d in enumerate(sh)
                     if keepdims or i not in axes]
            break
        shape += sh[prev + 1:a]
        if keepdims:
            shape.append(1)
        prev = a
    else:
        shape += sh[prev + 1:]
    shape = tuple(shape)
    return Node(REDUCE, "reduce", dtype, shape, (src,), (rop, tuple(axes), bool(keepdims)),
                src.device, src.size + 1)


def barrier(bop: str, srcs, arg, dtype, shape) -> Node:
    return Node(BARRIER, bop, dtype, tuple(shape), tuple(srcs), arg, srcs[0].device,
                _size(srcs))


def reads_any(node, buf_ids, live=None) -> bool:
    """Does `node`'s graph read a buffer whose id is in `buf_ids` (and `live(buf)`, given)?"""
    seen = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if n.kind == LEAF:
            if id(n.buf) in buf_ids and (live is None or live(n.buf)):
                return True
            continue
        if id(n) in seen:
            continue
        seen.add(id(n))
        stack.extend(n.srcs)
    return False
