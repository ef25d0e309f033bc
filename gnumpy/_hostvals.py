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
"""
from __future__ import annotations

import numpy as np

from ._graph.ir import EW, LEAF, SCALAR, leaf
from ._memstate import MISS, Memo, written
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
    block of BLOCK elements within the buffer, elsewhere the element alone."""
    off = n.offset
    if n.device.kind != "cuda":
        return off, 1
    start = off - off % BLOCK
    return start, min(BLOCK, n.buf.size // n.dtype.itemsize - start)


def read_element(n, backend):
    """The value of 0-d LEAF `n` (a NumPy scalar), its block transferred by `backend`
    unless known."""
    start, count = _block(n)
    key = (n.dtype, start, count)
    block = ELEMENTS.get(n.buf, key)
    if block is MISS:
        epoch = ELEMENTS.epoch()
        block = backend.to_numpy(leaf(n.buf, n.dtype, (count,), (1,), start, n.device))
        ELEMENTS.put(n.buf, key, block, epoch)
    return block[n.offset - start]


def _known(n):
    """The value of 0-d LEAF `n` if its block is known, else MISS."""
    start, count = _block(n)
    block = ELEMENTS.get(n.buf, (n.dtype, start, count))
    return block if block is MISS else block[n.offset - start]


def _exact(op, dtype, srcs) -> bool:
    if op in _ANY_KIND:
        return True
    if op in _INTEGER:
        return dtype.kind in "biu"
    if op == "astype":      # int/bool -> anything and float -> float round alike
        k = srcs[0].dtype.kind
        return k in "biu" and dtype.kind in "biuf" or k == "f" and dtype.kind == "f"
    return False


def value(node, backend):
    """The NumPy scalar of 0-d lazy `node` computed on the host, or None when an op might
    round otherwise on the device.  Elements not known here are read through
    ``backend(device)`` in their blocks: those of memory the program only reads (kept for
    later reads), and at most one block of memory it writes (the one transfer the device
    path would make); more than one such block goes to the device (None)."""
    if node.size > _MAX_NODES:
        return None
    leaves = []
    seen = set()
    stack = [node]
    while stack:            # every op exact, every source 0-d, and the leaves
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        k = n.kind
        if n.shape != ():
            return None
        if k == EW:
            if not _exact(n.op, n.dtype, n.srcs):
                return None
            stack.extend(n.srcs)
        elif k == LEAF:
            leaves.append(n)
        elif k != SCALAR:
            return None
    vals = {}
    unknown = []
    blocks = set()          # the unknown blocks of memory written in place
    for n in leaves:
        v = _known(n)
        if v is MISS:
            unknown.append(n)
            if written(n.buf):
                blocks.add((id(n.buf), n.dtype, _block(n)))
        else:
            vals[id(n)] = np.asarray(v)
    if len(blocks) > 1:
        return None
    for n in unknown:
        vals[id(n)] = np.asarray(read_element(n, backend(n.device)))
    return _compute(node, vals)[()]


def _compute(node, vals):
    """`node`'s value from `vals` (id -> 0-d NumPy array of each LEAF), as the CPU backend
    computes it."""
    stack = [node]
    while stack:
        n = stack[-1]
        if id(n) in vals:
            stack.pop()
            continue
        if n.kind == SCALAR:
            vals[id(n)] = np.asarray(n.arg, n.dtype)
            stack.pop()
            continue
        srcs = n.srcs
        todo = [s for s in srcs if id(s) not in vals]
        if todo:
            stack.extend(todo)
            continue
        args = [vals[id(s)] for s in srcs]
        with np.errstate(all="ignore"):
            if n.op == "astype":
                r = args[0].astype(n.dtype)
            elif n.op == "where":
                r = np.where(*args)
            else:
                r = np.asarray(EW_OPS[n.op].np_impl(*args))
        vals[id(n)] = r if r.dtype == n.dtype else r.astype(n.dtype)
        stack.pop()
    return vals[id(node)]
