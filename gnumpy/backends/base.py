"""The backend protocol every device implements.

A backend never re-implements the API: it only runs groups the scheduler made (one fused
kernel each, or one non-fusible op), moves data between host and device, and writes a
lazy value into an existing strided destination (the write path of in-place ops).
"""
from __future__ import annotations

import threading

import numpy as np


class Backend:
    name = "abstract"
    # optional: fast(node) -> the kinds of the kernels when it materialized `node` itself,
    # else False; fast.write(dest, value, overlaps) the same for writes; fast.ran: the
    # kinds of the kernels a build launched before it gave up to the general path
    fast = None
    thread = None    # the thread the backend last ran on (see bind_thread)
    # The largest value (tree size) a statement's write may fold the deferred write into
    # (``realize.write``); None: ``config.max_graph_nodes``.
    fold_nodes = None

    def __init__(self, device) -> None:
        self.device = device

    # ---- data movement
    def from_numpy(self, arr: np.ndarray, copy: bool = True):
        """A LEAF node holding `arr`'s data on this device."""
        raise NotImplementedError

    def to_numpy(self, node) -> np.ndarray:
        """A host NumPy array with the values of the LEAF `node` (a fresh copy)."""
        raise NotImplementedError

    # optional: product_into(dest, product, beta, check) -> bool: the library call of
    # matmul node `product` writes LEAF `dest` itself as ``product + beta * dest``
    # (``realize._product_write``); with `check`, only whether it can
    product_into = None

    # optional: matvec_pair(n1, n2, out1=None, out2=None) -> bool: matmul nodes ``A @ u``
    # and ``w @ A`` of one matrix (operands in memory) computed together and realized, or
    # each written into a vector as ``product + beta * dest`` (out: (dest, beta)); False
    # before any work where it cannot
    matvec_pair = None

    # True: a statement's write of one element runs at once (``write_element``), where
    # that costs less than deferring it (no launch to save by folding)
    writes_elements = False

    # optional: write_elements(dests, values) writes lazy `values`, elementwise
    # expressions of elements, into 0-d LEAFs `dests` (distinct elements) in one launch,
    # every value computed from the memory as it was before any of them is stored (a
    # chain of a loop's element writes: ``_graph/chains.py``)
    write_elements = None

    # optional: the runner of ordered writes of elements and short vectors
    # (``_graph/sequence.py``), with encode(dest, value) -> an entry or None, words_max
    # (the words one launch takes) and run(entries): each write in program order, in one
    # launch (values that read what the writes before them stored)
    sequences = None

    def nonzero_node(self, mask):
        """The compaction of LEAF bool `mask` (int64, the C-order flat indices of its set
        elements, lazy), its length counted now."""
        raise NotImplementedError

    def copy_leaf(self, dest, src) -> bool:
        """``dest[...] = src`` for LEAFs of one dtype and shape, as one plain copy of
        memory where the backend has one for this layout; False to write it as any
        value."""
        return False

    def write_element(self, dest, value) -> bool:
        """Run a statement's ``dest[()] = value`` (0-d LEAF `dest`) now (backends with
        ``writes_elements``); False to defer it as any write."""
        return False

    # ---- work
    def run(self, group) -> None:
        """Run one scheduled group; realize its outputs."""
        raise NotImplementedError

    def write(self, dest, value, group=None) -> None:
        """Write the lazy `value` (same shape as the LEAF `dest`) into dest's memory.

        `group`, when given, is the elementwise group computing `value` (its deps are
        already realized)."""
        raise NotImplementedError

    def synchronize(self) -> None:
        pass

    def bind_thread(self) -> None:
        """Make this backend usable from the calling thread (CUDA: its context current
        there); called under the execution lock when the thread changes."""
        self.thread = threading.get_ident()
