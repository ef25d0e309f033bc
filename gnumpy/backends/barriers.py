"""The registry of non-fusible (barrier) ops: for each op name, its NumPy implementation
(the CPU backend, and the reference meaning of the op) and its CUDA implementation.

A barrier node (``ir.barrier(op, srcs, arg, dtype, shape)``) reads materialized sources and
writes one new buffer of ``shape``.  Implementations:

* ``CPU[op](srcs, arg, dtype) -> numpy.ndarray`` with ``srcs`` NumPy arrays (views allowed);
* ``CUDA[op](backend, node, buf) -> None`` writes the C-contiguous result into ``buf``;
  ``node.srcs`` are LEAF nodes (``buf``, ``offset``, ``strides`` in elements);
* ``INTO[op](backend, dest, node, beta, check) -> bool`` (optional, CUDA): the library call
  writes LEAF ``dest`` itself as ``node + beta * dest`` (``realize._product_write``); False,
  before any work, where it cannot; with ``check`` only the answer;
* ``KERNELS[op](node) -> [FixedKey]``: the kernels the CUDA implementation would use for
  ``node``, each key rendering its source (``key.render(name)``).  CPU-only CI compiles
  them with NVRTC (``kernels/check.py``) for every barrier node the tests run, so the CUDA
  implementation should fetch its kernels through the same function
  (``backend._misc_kernel(key)``).

Modules that add barrier ops register themselves with ``register`` and are listed in
``_MODULES`` so that they are imported on first lookup (no import cycles with the backends).
"""
from __future__ import annotations

import importlib
import threading

CPU: dict = {}
CUDA: dict = {}
KERNELS: dict = {}
INTO: dict = {}

# Modules holding barrier implementations, imported on first lookup.
_MODULES: tuple = ("gnumpy.backends.index_ops", "gnumpy.backends.random_ops",
                   "gnumpy.backends.sort_ops", "gnumpy.backends.sort_numpy",
                   "gnumpy.backends.cuda_blas",
                   "gnumpy.backends.fft_ops", "gnumpy.backends.concat_ops")
_loaded = False
_lock = threading.Lock()


def register(op: str, *, cpu=None, cuda=None, kernels=None, into=None) -> None:
    if into is not None:
        INTO[op] = into
    if cpu is not None:
        CPU[op] = cpu
    if cuda is not None:
        CUDA[op] = cuda
    if kernels is not None:
        KERNELS[op] = kernels


def _load() -> None:
    """Import the implementation modules once; a thread arriving meanwhile waits for all of
    them (the flag is set only after the last import)."""
    global _loaded
    if _loaded:
        return
    with _lock:
        if not _loaded:
            for m in _MODULES:
                importlib.import_module(m)
            _loaded = True


def cpu_impl(op: str):
    if op not in CPU:
        _load()
    return CPU[op]


def cuda_impl(op: str):
    if op not in CUDA:
        _load()
    impl = CUDA.get(op)
    if impl is None:
        raise NotImplementedError(f"{op} is not implemented on the CUDA backend yet")
    return impl


def into_impl(op: str):
    """The registered ``INTO`` implementation of `op`, or None."""
    _load()
    return INTO.get(op)


def kernels_of(op: str):
    """The registered kernel lister of `op`, or None."""
    _load()
    return KERNELS.get(op)
