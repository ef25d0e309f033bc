"""Library calls that run at the call: factorizations and other multi-output operations.

A lazy barrier node (``backends/barriers``) has one output.  Linear algebra has several
(``svd``, ``eigh``, ``qr``) and must raise ``LinAlgError`` at the call, which means reading a
status back anyway, so these run eagerly: ``call(op, arrays, cpu=..., cuda=..., **kw)``
materializes the operands (their pending elementwise work runs once, fused), runs the
implementation for the operands' backend and returns gnumpy arrays over the results, which
later elementwise work reads like any other array (it fuses downstream as usual).

The implementations come with the call:

* ``cpu(*arrays, **kw) -> tuple`` with NumPy arrays (views of the CPU backend's memory;
  never write into them) in, NumPy arrays (or None) out: NumPy's own routine
  (``backends/linalg_ops``, ``backends/sort_ops``);
* ``cuda(backend, *nodes, **kw) -> tuple`` with LEAF nodes in (``buf``, ``offset``,
  ``strides`` in elements; never write into them), LEAF nodes (or None) out: the NVIDIA
  library (``linalg/_cusolver``, ``backends/cuda_cub``).

An implementation that is None, or that returns ``NotImplemented`` for these operands, makes
``call`` return ``NotImplemented``: the caller composes the operation from gnumpy ops or
raises.
"""
from __future__ import annotations

import numpy as np

from .._config import config
from .._device import backend
from .._graph import realize
from .._graph.ranges import span
from ._common import check_device_match, wrap


def call(op: str, arrays, cpu=None, cuda=None, copied=False, **kw):
    """Run library op `op` now on the gnumpy arrays `arrays` (one device) with the
    implementation of their backend: a tuple of gnumpy arrays (None where the
    implementation returned None), or ``NotImplemented``.  `copied`: the CUDA
    implementation reads each operand only by copying it into the layout the library
    wants (``realize.write``), so a lazy operand is computed straight into that copy,
    not first into memory of its own."""
    if config.nvtx:                     # profiling: the call inside an NVTX range
        with span(f"library[{op}]"):
            return _call(arrays, cpu, cuda, copied, kw)
    return _call(arrays, cpu, cuda, copied, kw)


def _call(arrays, cpu, cuda, copied, kw):
    nodes = [a._node for a in arrays]
    dev = check_device_match(nodes)
    if dev.kind == "cpu":
        if cpu is None:
            return NotImplemented
        realize.materialize(nodes)
        # CPU arrays only: on CUDA the CPU backend stays unloaded (~4 ms, 3 modules)
        from ..backends.cpu import leaf_array
        be = backend(dev)
        ins = [leaf_array(n) for n in nodes]
        outs = cpu(*ins, **kw)
        if outs is NotImplemented:
            return outs
        outs = tuple(None if o is None else be.from_numpy(_own(o, ins), copy=False)
                     for o in outs)
    else:
        if cuda is None:
            return NotImplemented
        if not copied:
            realize.materialize(nodes)
        with realize.lock:              # the execution lock, on this thread's binding
            outs = cuda(realize.backend_here(dev), *nodes, **kw)
        if outs is NotImplemented:
            return outs
    return tuple(None if o is None else wrap(o) for o in outs)


def _own(a, ins):
    """A NumPy result the backend may keep as its buffer: C-contiguous, writeable and
    sharing no memory with an operand."""
    a = np.asarray(a)
    if (not a.flags.c_contiguous or not a.flags.writeable
            or any(np.may_share_memory(a, x) for x in ins)):
        a = np.array(a, order="C", copy=True)
    return a
