"""Values of device memory known on the host: element reads kept in blocks, and small
element expressions computed from them without a kernel.

An element read (``int(a[i])``, ``bool(a[i])``) transfers the aligned block of 64 elements
holding it on CUDA and keeps it while the memory is unchanged (``_memstate``).  A 0-d
expression over such known elements and constants (``bool(x[i] > t)``, ``crc & 1 ^ b & 1``
in a loop over an unchanged array) is computed on the host with the op table's NumPy
implementations, as the CPU backend computes it: no kernel and no transfer.  Expressions
reading memory the program writes in place go to the device, as before.  Only ops
whose host result has the device's bits are taken: integer and bool arithmetic, bitwise
ops and shifts, comparisons, maximum/minimum, negation, abs, where, and casts that round
alike (none from float to integer).  Float arithmetic is left to the device: its kernels
contract ``a * b + c`` into one FMA, which rounds once where NumPy rounds twice.
"""
from __future__ import annotations

import operator

import numpy as np

from ._graph.ir import EW, LEAF, SCALAR, leaf
from ._memstate import MISS, Memo, shared, written
from ._ops import EW_OPS

ELEMENTS = Memo(1024)       # (buffer, (dtype, first element, count)) -> NumPy block
BLOCK = 64

_ANY_KIND = frozenset({"equal", "not_equal", "less", "less_equal", "greater",
                       "greater_equal", "maximum", "minimum", "fmax", "fmin", "negative",
                       "absolute", "logical_and", "logical_or", "logical_xor",
                       "logical_not", "where"})
_INTEGER = frozenset({"add", "subtract", "multiply", "bitwise_and", "bitwise_or",
                      "bitwise_xor", "invert", "left_shift", "right_shift"})
_MAX_NODES = 48


def _block(n):
    """(first element, count) of the block read for 0-d LEAF `n`: on CUDA the aligned
    block of BLOCK elements within the buffer, elsewhere (and in memory shared outside
    gnumpy, or of a size not known: an imported view) the element alone."""
    off = n.offset
    if n.device.kind != "cuda":
        return off, 1
    start = off - off % BLOCK
    count = min(BLOCK, n.buf.size // n.dtype.itemsize - start)
    if count <= off - start or shared(n.buf):
        return off, 1
    return start, count


def read_element(n, backend):
    """The value of 0-d LEAF `n` (a NumPy scalar), its block transferred by
    ``backend(device)`` unless known (a known block asks no backend: a deferred write of
    other memory keeps waiting)."""
    start, count = _block(n)
    key = (n.dtype, start, count)
    block = ELEMENTS.get(n.buf, key)
    if block is MISS:
        epoch = ELEMENTS.epoch()
        block = backend(n.device).to_numpy(leaf(n.buf, n.dtype, (count,), (1,), start,
                                                n.device))
        ELEMENTS.put(n.buf, key, block, epoch)
    return block[n.offset - start]


def _exact(op, dtype, srcs) -> bool:
    if op in _ANY_KIND:
        return True
    if op in _INTEGER:
        return dtype.kind in "biu"
    if op == "astype":      # int/bool -> anything and float -> float round alike
        k = srcs[0].dtype.kind
        return k in "biu" and dtype.kind in "biuf" or k == "f" and dtype.kind == "f"
    return False


def _plan(node, exact):
    """(the ops of 0-d `node`, each after its sources; its LEAFs), or None when it holds
    a node other than an elementwise op, a constant or a LEAF, a non-0-d node, or (with
    `exact`) an op that might round otherwise on the device or a LEAF of memory the
    program writes."""
    if node.size > _MAX_NODES:
        return None
    order = []
    leaves = []
    seen = set()

    def visit(n):           # (graphs of a statement are a few nodes deep)
        seen.add(id(n))
        if n.shape:
            return False
        k = n.kind
        if k == EW:
            if exact and not _exact(n.op, n.dtype, n.srcs):
                return False
            for s in n.srcs:
                if s.kind != SCALAR and id(s) not in seen and not visit(s):
                    return False
            order.append(n)
            return True
        if k == LEAF:
            if exact and written(n.buf):
                return False
            leaves.append(n)
            return True
        return k == SCALAR

    return (order, leaves) if visit(node) else None


# Ops whose Python operator on NumPy scalars is NumPy's scalar math: the ufunc's loop,
# values, result types and errors (checked over every dtype pair), a tenth of its cost.
_OPERATORS = {"add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
              "divide": operator.truediv, "less": operator.lt, "less_equal": operator.le,
              "greater": operator.gt, "greater_equal": operator.ge, "equal": operator.eq,
              "not_equal": operator.ne, "bitwise_and": operator.and_,
              "bitwise_or": operator.or_, "bitwise_xor": operator.xor,
              "left_shift": operator.lshift, "right_shift": operator.rshift,
              "negative": operator.neg, "invert": operator.invert, "absolute": abs}


def _op(n, args):
    """The NumPy scalar of EW `n` on NumPy scalar `args`, as the CPU backend computes it:
    the op table's NumPy implementations, NumPy's values (warnings are the caller's)."""
    op = n.op
    dt = n.dtype
    if op == "astype":
        v = args[0]
        if v.dtype is dt:
            return v                # an element's copy
        if v.dtype.kind == "c" and dt.kind not in "cb":
            v = v.real      # (the API layer warned at the call: ComplexWarning)
        return v.astype(dt)
    if op == "where":
        r = np.where(*args)[()]
    else:
        r = (_OPERATORS.get(op) or EW_OPS[op].np_impl)(*args)
    return r if r.dtype == dt else r.astype(dt)


def _run(order, vals):
    """Compute the ops in `order` (`vals`: id -> NumPy scalar of every LEAF) with no
    warnings.  Returns `vals` with every op's value."""
    with np.errstate(all="ignore"):
        for n in order:
            vals[id(n)] = _op(n, [s.arg if s.kind == SCALAR else vals[id(s)]
                                  for s in n.srcs])
    return vals


def value(node, backend):
    """The NumPy scalar of 0-d lazy `node` computed on the host, or None when an op in it
    might round otherwise on the device or it reads memory the program writes in place
    (that goes to the device, as it would without this).  Elements not known here are
    read through ``backend(device)`` in their blocks, kept for later reads.  The ops
    computed become constants (``Node.realize_constant``): what they read is fixed, and a
    loop's chain over them (crc16's ``cur >>= 1``) stays a node deep."""
    if node.kind == SCALAR:     # (another thread computed it meanwhile)
        return node.arg
    p = _plan(node, True)
    if p is None:
        return None
    order, leaves = p
    vals = _run(order, {id(n): read_element(n, backend) for n in leaves})
    for n in order:
        n.realize_constant(vals[id(n)])
    return vals[id(node)]


def compute(node, read):
    """The NumPy scalar of 0-d lazy `node` with `read(leaf)` giving each LEAF's element
    (memory the caller can read directly: the CPU backend's), or None when `node` holds
    other than elementwise ops, constants and LEAFs."""
    if node.kind == SCALAR:         # a constant (``a[i, j] = 0.5``)
        return node.arg
    if node.size > _MAX_NODES:
        return None
    with np.errstate(all="ignore"):
        return _eval(node, read, {})


def _eval(n, read, memo):
    """compute's walk: one pass, each shared node once (a CPU element statement's whole
    cost is a few such calls: no plan is built first)."""
    if n.shape:
        return None
    k = n.kind
    if k == LEAF:
        return read(n)
    if k == SCALAR:
        return n.arg
    if k != EW:
        return None
    r = memo.get(id(n))
    if r is None:
        args = []
        for s in n.srcs:
            v = s.arg if s.kind == SCALAR else _eval(s, read, memo)
            if v is None:
                return None
            args.append(v)
        r = memo[id(n)] = _op(n, args)
    return r
