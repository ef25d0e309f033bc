"""Values of device memory known on the host: element reads kept in blocks, and small
element expressions computed from them without a kernel.

An element read (``int(a[i])``, ``bool(a[i])``) transfers the aligned block of 64 elements
holding it on CUDA and keeps it while the memory is unchanged (``_memstate``).  A 0-d
expression over such known elements and constants (``bool(x[i] > t)``, ``crc & 1 ^ b & 1``
in a loop over an unchanged array) is computed on the host with the op table's NumPy
implementations, as the CPU backend computes it: no kernel and no transfer.  Only ops
whose host result has the device's bits are taken: integer and bool arithmetic, bitwise
ops and shifts, comparisons, maximum/minimum, negation, abs, where, and casts that round
alike (none from float to integer).  Float arithmetic is left to the device: its kernels
contract ``a * b + c`` into one FMA, which rounds once where NumPy rounds twice.

An op over constants alone (``np.exp(-alpha)`` of a Python float: NumPy's scalar math) is
computed here, every op, when its array is made (``fold_constant``): it reads no memory,
so its value is NumPy's and every reader sees that constant.

Memory the program writes keeps its known blocks across a write of one element whose
value is known on the host (``a[i, j] = v`` with v a constant, computed here, or a copy
of a known element: nussinov's ``table[i, j] = max(table[i, j], table[i, k] + table[k +
1, j])``): the block is updated with the value the device will write
(``written_element``).  Any other write makes the buffer's blocks unknown; an expression
over written memory then reads at most one unknown block (what the device path would
transfer), else goes to the device.
"""
from __future__ import annotations

import operator
import weakref

import numpy as np

from ._graph.ir import EW, LEAF, SCALAR, leaf
from ._memstate import MISS, _written, _written_floor, last_write, shared, shared_ids, \
    write_epoch, written
from ._ops import EW_OPS

BLOCK = 64
_shared = shared_ids()     # (empty: no memory is seen outside gnumpy, the hot path)


class Blocks:
    """Element blocks read from memory: (buffer, (dtype, first element, count)) -> NumPy
    block, valid while the buffer is unchanged.  The blocks of one (buffer, dtype) read
    since its last write form a group sharing one stamp (the write count they hold at):
    a group is valid while ``last_write(buf)`` has not passed its stamp, and an element
    write whose value is known here updates its block and moves the stamp past the write
    (``written_element``), so the others hold too.  `limit` blocks at most."""

    def __init__(self, limit: int) -> None:
        self._d = {}
        self._groups = {}       # (id(buf), dtype) -> (weakref of buf, [stamp])
        self._limit = limit

    def get(self, buf, key):
        e = self._d.get((id(buf), key))
        if e is None or e[0]() is not buf:
            return MISS
        w = _written.get(id(buf))           # (last_write and shared, inlined: the hot
        if (_written_floor[0] if w is None or w[1]() is not buf else w[0]) > e[1][0] or \
                _shared and shared(buf):    # path of every element read)
            return MISS
        return e[2]

    def put(self, buf, key, block, epoch) -> None:
        """Keep `block`, read at write count `epoch` (taken before the transfer)."""
        if shared(buf) or last_write(buf) > epoch:
            return
        if len(self._d) >= self._limit:
            self.clear()
        g = self._group(buf, key[0])
        if g is None:
            g = self._groups[(id(buf), key[0])] = (weakref.ref(buf), [epoch])
        elif g[1][0] < epoch:
            g[1][0] = epoch
        self._d[(id(buf), key)] = (g[0], g[1], block)

    def _group(self, buf, dtype):
        """The valid group of (buf, dtype), or None."""
        g = self._groups.get((id(buf), dtype))
        if g is None or g[0]() is not buf or last_write(buf) > g[1][0] or shared(buf):
            return None
        return g

    def clear(self) -> None:
        self._d.clear()
        self._groups.clear()


ELEMENTS = Blocks(1024)


def element_group(dest):
    """Before a write of one element (0-d LEAF `dest`), under the execution lock and
    before the write records itself: the valid group of its memory's known blocks, or
    None.  Pass it to ``written_element`` after the write."""
    return ELEMENTS._group(dest.buf, dest.dtype)


def known_value(node):
    """The value `node` holds, when known on the host without a transfer: a constant, or
    the copy of an element whose block is known (``a[i, j] = a[k, l]``); else MISS."""
    k = node.kind
    if k == SCALAR:
        return node.arg
    if k == EW and node.op == "astype":
        s = node.srcs[0]
        if s.kind == LEAF and s.dtype is node.dtype and not s.shape:
            start, count = _block(s)
            block = ELEMENTS.get(s.buf, (s.dtype, start, count))
            if block is not MISS:
                return block[s.offset - start]
    return MISS


def written_element(dest, group, value) -> None:
    """The write of `value` (a NumPy scalar of dest's dtype, exactly what the device
    writes) into 0-d LEAF `dest` has recorded itself: the block holding it takes the
    value, and `group` (``element_group``'s, before the write) stays valid."""
    start, count = _block(dest)
    e = ELEMENTS._d.get((id(dest.buf), (dest.dtype, start, count)))
    if e is not None and e[1] is group[1]:
        e[2][dest.offset - start] = value
    group[1][0] = write_epoch[0]

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
    count = n.buf.size // n.dtype.itemsize - start
    if count > BLOCK:
        count = BLOCK
    if count <= off - start or _shared and shared(n.buf):
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
        epoch = write_epoch[0]
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


def _plan(n, order, vals, todo, seen) -> bool:
    """Walk 0-d `n` (a few nodes deep): its ops, each after its sources, onto `order`;
    the elements of known blocks into `vals` (id -> NumPy scalar), the other LEAFs onto
    `todo` as (leaf, block key).  False when it holds a node other than an
    elementwise op, a constant or a LEAF, a non-0-d node, or an op that might round
    otherwise on the device."""
    if n.shape:
        return False
    k = n.kind
    if k == EW:
        if not _exact(n.op, n.dtype, n.srcs):
            return False
        for s in n.srcs:
            if s.kind != SCALAR and id(s) not in seen:
                seen.add(id(s))
                if not _plan(s, order, vals, todo, seen):
                    return False
        order.append(n)
        return True
    if k == LEAF:
        start, count = _block(n)
        key = (n.dtype, start, count)
        block = ELEMENTS.get(n.buf, key)
        if block is MISS:
            todo.append((n, key))
        else:
            vals[id(n)] = block[n.offset - start]
        return True
    return k == SCALAR


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


# Ops that never warn on NumPy scalars: computed without an errstate (a tenth of the cost)
_QUIET = frozenset({"equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
                    "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or",
                    "logical_xor", "logical_not", "where", "bitwise_and", "bitwise_or",
                    "bitwise_xor", "invert"})


def fold_constant(node) -> bool:
    """Compute 0-d elementwise `node`, whose sources are constants alone, here as NumPy
    computes it (``np.exp(-0.25)``, a coefficient a loop reads: NumPy's value, where a
    kernel's math library or a contracted multiply-add may differ in the last bit, and
    no kernel), and turn it into that constant.  False, with nothing changed, for any
    other node."""
    srcs = node.srcs
    if not srcs or node.arg is not None:
        return False
    args = []
    for s in srcs:
        if s.kind != SCALAR:
            return False
        args.append(s.arg)
    if node.op in _QUIET:
        v = _op(node, args)
    else:
        with np.errstate(all="ignore"):
            v = _op(node, args)
    node.realize_constant(v, counted=False)
    return True


def _run(order, vals):
    """Compute the ops in `order` (`vals`: id -> NumPy scalar of every LEAF) with no
    warnings.  Returns `vals` with every op's value."""
    for n in order:
        if n.op not in _QUIET and not (n.op == "astype" and n.srcs[0].dtype is n.dtype):
            break
    else:
        for n in order:
            vals[id(n)] = _op(n, [s.arg if s.kind == SCALAR else vals[id(s)]
                                  for s in n.srcs])
        return vals
    with np.errstate(all="ignore"):
        for n in order:
            vals[id(n)] = _op(n, [s.arg if s.kind == SCALAR else vals[id(s)]
                                  for s in n.srcs])
    return vals


def value(node, backend):
    """The NumPy scalar of 0-d lazy `node` computed on the host, or None when an op in it
    might round otherwise on the device or it reads more than one unknown block of memory
    the program writes in place (that goes to the device: one transfer).  Elements not
    known here are read through ``backend(device)`` in their blocks, kept for later
    reads.  The ops computed become constants (``Node.realize_constant``): what they read
    is fixed, and a loop's chain over them (crc16's ``cur >>= 1``) stays a node deep."""
    if node.kind == SCALAR:     # (another thread computed it meanwhile)
        return node.arg
    if node.size > _MAX_NODES:
        return None
    order = []
    vals = {}
    todo = []
    if not _plan(node, order, vals, todo, set()):
        return None
    if todo:
        if len({(id(n.buf), key) for n, key in todo if written(n.buf)}) > 1:
            return None
        for n, _ in todo:
            vals[id(n)] = read_element(n, backend)
    _run(order, vals)
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
    if node.dtype is _F64:
        try:
            v = _eval_f64(node, read)
        except ZeroDivisionError:
            v = None
        if v is not None:
            return _F64.type(v)
    with np.errstate(all="ignore"):
        return _eval(node, read, {})


_F64 = np.dtype(np.float64)
_F64_OPS = {op: _OPERATORS[op] for op in ("add", "subtract", "multiply", "divide")}


def _eval_f64(n, read):
    """`compute` of a float64 expression of +, -, *, / and negation on Python floats: IEEE
    double arithmetic, NumPy's values, and no warning to silence (no errstate: a CPU
    element statement's largest fixed cost).  None for anything else; ZeroDivisionError
    for a division by zero (NumPy's scalar math gives its inf or nan)."""
    k = n.kind
    if k == LEAF:
        return float(read(n))
    if k == SCALAR:
        return float(n.arg)
    if k != EW or n.dtype is not _F64:
        return None
    op = n.op
    if op == "negative" or op == "astype" and n.srcs[0].dtype is _F64:
        a = _eval_f64(n.srcs[0], read)
        return None if a is None else (-a if op == "negative" else a)
    f = _F64_OPS.get(op)
    if f is None:
        return None
    s, t = n.srcs              # (a loop's statement: elements and constants, read here)
    k = s.kind
    a = float(read(s)) if k == LEAF else float(s.arg) if k == SCALAR else _eval_f64(s, read)
    if a is None:
        return None
    k = t.kind
    b = float(read(t)) if k == LEAF else float(t.arg) if k == SCALAR else _eval_f64(t, read)
    return None if b is None else f(a, b)


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
