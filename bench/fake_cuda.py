"""A fake CUDA device for measuring gnumpy's host cost without a GPU.

``install()`` makes a fake CUDA backend the default device: the test suite's
``FakeCuda`` (tests/test_fast_path.py: the real planning, rendering and NVRTC compiles to
cubin, the real replay and launch-packing code) with launches counted, library calls
(cuBLAS, cuSOLVER, cuFFT, cuBLASLt) answered by stubs, and device reads returning zeros.
What it measures is the Python a program runs per statement: the H200's driver adds
3.9-5.6 us a launch (docs/perf-notes.md, "Dispatch floor"), its host runs this Python
1.6-2.9x slower than the development machine, and programs whose control flow reads
device values (a ``while`` on a reduction, boolean masks) take other paths on zeros.

The test suite's ``packed_launcher`` decodes every launch's parameters to record them,
which costs more than the launch it stands for (8-30 us a launch on the development
machine: docs/perf-notes.md, "what the fake backend's launches cost"); this one only
counts.
"""
from __future__ import annotations

import sys
import types
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import gnumpy as gp  # noqa: E402
from gnumpy import _device  # noqa: E402
from gnumpy.backends import cuda_launchers, cuda_libs  # noqa: E402

import test_fast_path as _tfp  # noqa: E402  (the suite's fake backend)


class _Enum:
    def __getattr__(self, name):
        return 0


class _Binding(types.ModuleType):
    """A library binding whose every function answers 1 (a handle, a status of success)
    and whose workspace queries answer 64 bytes."""

    def __getattr__(self, name):
        if name[0].isupper():
            return _Enum()
        if "buffer_size" in name:
            return lambda *a, **k: (64, 64) if name.startswith("x") else 64
        return lambda *a, **k: 1


class FakeDevice(_tfp.FakeCuda):
    """``FakeCuda`` with launches counted (``launches``: how many), host reads of device
    memory answering zeros, and no waiting."""

    writes_elements = False

    def __init__(self, device):
        super().__init__(device)
        self.launches = 0
        self.stream_int = 0
        self.stream_c = 0
        self._stage = 1

    def _go(self, kernel, grid, block, args):
        self.launches += 1

    def packed_launcher(self, kernel, grid, block, tmpl):
        def count(params):
            self.launches += 1
        launch, keep = cuda_launchers.compile_packed(tmpl, count)
        launch.keep = keep
        return launch

    def launch_params(self, kernel, block, ptrs):
        self.launches += 1

    def _to_numpy(self, node):
        return np.zeros(node.shape, node.dtype)

    def wait(self):
        pass

    def synchronize(self):
        pass

    def _check(self, res):
        pass


def install(ordinal: int = 0):
    """Make a fake CUDA device the default one; returns (device, backend)."""
    cuda_libs._BINDINGS.update({k: _Binding(k) for k in ("cublas", "cusolverDn", "cufft")})
    dev = _device.Device("cuda", ordinal)
    be = FakeDevice(dev)
    libs = cuda_libs.libs(be)
    libs.read_info = lambda buf, n=1: np.zeros(n, np.int32)
    _device._backends[dev] = be
    dev._be = be
    _device._default = dev
    assert gp.asarray(0.0).device is dev
    return dev, be
