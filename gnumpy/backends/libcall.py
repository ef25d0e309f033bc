"""Library calls that run at the call: factorizations and other multi-output operations.

A lazy barrier node (``barriers``) has one output.  Linear algebra has several (``svd``,
``eigh``, ``qr``) and must raise ``LinAlgError`` at the call, which means reading a status
back anyway, so these run eagerly: ``call(op, arrays, **kw)`` materializes the operands
(their pending elementwise work runs once, fused), runs the op's implementation for the
operands' backend and returns gnumpy arrays over the results, which later elementwise work
reads like any other array (it fuses downstream as usual).

Implementations, registered with ``register``:

* ``CPU[op](*arrays, **kw) -> tuple`` with NumPy arrays (views of the CPU backend's
  memory; never write into them) in, NumPy arrays (or None) out: NumPy's own routine;
* ``CUDA[op](backend, *nodes, **kw) -> tuple`` with LEAF nodes in (``buf``, ``offset``,
  ``strides`` in elements; never write into them), LEAF nodes (or None) out: the NVIDIA
  library through ``cuda_libs``.

Modules holding implementations are listed in ``_MODULES`` and imported on first lookup.
"""
from __future__ import annotations

import importlib
import threading

from .._config import config

CPU: dict = {}
CUDA: dict = {}

_MODULES: tuple = ("gnumpy.backends.linalg_ops", "gnumpy.backends.sort_ops")
_lock = threading.Lock()
_loaded = []


def register(op: str, *, cpu=None, cuda=None) -> None:
    if cpu is not None:
        CPU[op] = cpu
    if cuda is not None:
        CUDA[op] = cuda


def _load() -> None:
    if _loaded:
        return
    with _lock:
        if not _loaded:
            for m in _MODULES:
                importlib.import_module(m)
            _loaded.append(True)


def call(op: str, arrays, **kw) -> tuple:
    """Run library op `op` now on the gnumpy arrays `arrays` (one device); a tuple of
    gnumpy arrays (None where the implementation returned None)."""
    if config.nvtx and not kw.pop("_in_range", False):   # profiling: inside an NVTX range
        from ..profiler import library_call
        return library_call(op, arrays, kw)
    from .._api._common import check_device_match, wrap
    from .._device import backend
    from .._graph.realize import materialize
    nodes = [a._node for a in arrays]
    dev = check_device_match(nodes)
    materialize(nodes)
    be = backend(dev)
    _load()
    if dev.kind == "cpu":
        from .cpu import leaf_array
        impl = CPU.get(op)
        if impl is None:
            raise NotImplementedError(f"{op} is not implemented on the CPU backend")
        ins = [leaf_array(n) for n in nodes]
        outs = impl(*ins, **kw)
        return tuple(None if o is None else wrap(be.from_numpy(_own(o, ins), copy=False))
                     for o in outs)
    impl = CUDA.get(op)
    if impl is None:
        raise NotImplementedError(f"{op} is not implemented on the CUDA backend")
    from .._graph.realize import _backend_here, lock
    with lock:                      # the execution lock, on this thread's binding
        outs = impl(_backend_here(dev), *nodes, **kw)
    return tuple(None if o is None else wrap(o) for o in outs)


def _own(a, ins):
    """A NumPy result the backend may keep as its buffer: C-contiguous, writeable and
    sharing no memory with an operand."""
    import numpy as np
    a = np.asarray(a)
    if (not a.flags.c_contiguous or not a.flags.writeable
            or any(np.may_share_memory(a, x) for x in ins)):
        a = np.array(a, order="C", copy=True)
    return a
