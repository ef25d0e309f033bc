"""The registry of non-fusible (barrier) ops: for each op name, its NumPy implementation
(the CPU backend, and the reference meaning of the op) and its CUDA implementation.

A barrier node (``ir.barrier(op, srcs, arg, dtype, shape)``) reads materialized sources and
writes one new buffer of ``shape``.  Implementations:

* ``CPU[op](srcs, arg, dtype) -> numpy.ndarray`` with ``srcs`` NumPy arrays (views allowed);
* ``CUDA[op](backend, node, buf) -> None`` writes the C-contiguous result into ``buf``;
  ``node.srcs`` are LEAF nodes (``buf``, ``offset``, ``strides`` in elements).

Modules that add barrier ops register themselves with ``register`` and are listed in
``_MODULES`` so that they are imported on first lookup (no import cycles with the backends).
"""
from __future__ import annotations

import importlib

CPU: dict = {}
CUDA: dict = {}

# Modules holding barrier implementations, imported on first lookup.
_MODULES: tuple = ()
_loaded = False


def register(op: str, *, cpu=None, cuda=None) -> None:
    if cpu is not None:
        CPU[op] = cpu
    if cuda is not None:
        CUDA[op] = cuda


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for m in _MODULES:
            importlib.import_module(m)


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
