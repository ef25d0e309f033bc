"""NVRTC through cuda.core: CUDA C++ source -> cubin for one architecture.

Always cubin, never PTX (a newer NVRTC's PTX may not load on the installed driver).
Works without a GPU or driver, which is how CPU-only CI compiles every kernel.
"""
from __future__ import annotations

import time
from functools import lru_cache

KERNEL_NAME = "gn_kernel"


@lru_cache(maxsize=1)
def nvrtc_version() -> tuple:
    from cuda.bindings import nvrtc
    err, major, minor = nvrtc.nvrtcVersion()
    return (int(major), int(minor))


def options(arch: str, fma: bool = True) -> tuple:
    """The compile options, as a hashable tuple (part of the cache key)."""
    return (("arch", f"sm_{arch}"), ("std", "c++17"), ("fma", bool(fma)))


@lru_cache(maxsize=1)
def _program_classes():
    try:
        from cuda.core import Program, ProgramOptions
    except ImportError:                                  # cuda-core < 0.4
        from cuda.core.experimental import Program, ProgramOptions
    return Program, ProgramOptions


def compile_cubin(source: str, arch: str, fma: bool = True, quick: bool = False) -> tuple:
    """(cubin bytes, seconds) for `source`; raises RuntimeError with NVRTC's log.

    `quick`: NVRTC's ``-Ofast-compile=max`` (NVRTC 12.8 and later), the whole pipeline to
    cubin with the least optimization: about 3x faster, for compile checks (check.py)."""
    Program, ProgramOptions = _program_classes()
    t0 = time.perf_counter()
    extra = {"minimal": True} if _has_minimal() else {}
    if quick and _has_ofast():
        extra["ofast_compile"] = "max"
    opts = ProgramOptions(arch=f"sm_{arch}", std="c++17", fma=fma, **extra)
    try:
        obj = Program(source, "c++", opts).compile("cubin")
    except Exception as e:
        raise RuntimeError(f"NVRTC failed to compile a gnumpy kernel: {e}\n--- source ---\n"
                           + _numbered(source)) from e
    return bytes(obj.code), time.perf_counter() - t0


def _has_minimal() -> bool:
    """Whether this NVRTC and cuda.core take ``-minimal``: NVRTC leaves out the texture,
    surface and device-side runtime declarations no gnumpy kernel uses.  The cubin is the
    same (all 26 kernels of NPBench durbin's, vadv's and others' first calls, byte for
    byte, NVRTC 13) and each compile ~10 % faster (9-19 ms of 44-107), so it is not part
    of the cache key (``options``)."""
    return _takes("minimal", True)


def _has_ofast() -> bool:
    """Whether this NVRTC and cuda.core take ``-Ofast-compile``."""
    return _takes("ofast_compile", "max")


@lru_cache(maxsize=None)
def _takes(option: str, value) -> bool:
    """Whether this NVRTC and cuda.core compile an empty kernel with ProgramOptions
    `option`=`value`."""
    Program, ProgramOptions = _program_classes()
    try:
        Program('extern "C" __global__ void k() {}', "c++",
                ProgramOptions(arch="sm_90", **{option: value})).compile("cubin")
        return True
    except Exception:
        return False


def _numbered(source: str) -> str:
    return "\n".join(f"{i + 1:4d} {ln}" for i, ln in enumerate(source.splitlines()))
