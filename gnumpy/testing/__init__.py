"""Testing tools shipped with gnumpy: the differential fuzzer (``gnumpy.testing.fuzz``),
which runs random programs on gnumpy and on NumPy (or on gnumpy's CPU and CUDA backends)
and compares them.  From the command line: ``python -m gnumpy.testing.fuzz --help``.
"""

__all__ = ["check", "compare", "run_cases"]


def __dir__():
    return sorted(__all__)


def __getattr__(name):
    # loaded on first use (``python -m gnumpy.testing.fuzz`` must find fuzz unimported)
    if name in ("check", "compare"):
        from . import fuzz
        return getattr(fuzz, name)
    if name == "run_cases":
        from .fuzz import fuzz
        return fuzz
    raise AttributeError(f"module 'gnumpy.testing' has no attribute {name!r}")
