"""How the CUDA backend loads the bindings of NVIDIA's libraries (``backends.cuda_libs``),
checked on the host in fresh interpreters: a binding loads alone, without nvmath's package
``__init__`` files (which import all of nvmath and open every library it binds), and a
later ``import nvmath`` is the whole package, with the same binding modules in it."""
import importlib.util
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("nvmath") is None,
                                reason="nvmath-python is not installed")


def _run(code: str) -> list:
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def test_a_binding_loads_alone_and_nvmath_imports_whole_after_it():
    out = _run("""
        import sys
        from gnumpy.backends import cuda_libs
        cb = cuda_libs.bindings("cublas")
        sd = cuda_libs.bindings("cusolverDn")
        print(cb.__name__, sd.__name__, hasattr(cb, "dgemm"), hasattr(sd, "dgetrf"))
        print(sorted(m for m in sys.modules if m in ("nvmath", "nvmath.bindings") or
                     m.startswith(("nvmath.fft", "nvmath.linalg", "nvmath.sparse"))))
        import nvmath
        from nvmath.bindings import cufft
        print(nvmath.bindings.cublas is cb, nvmath.bindings.cusolverDn is sd,
              cuda_libs.bindings("cufft") is cufft, hasattr(nvmath.fft, "FFT"))
    """)
    assert out == ["nvmath.bindings.cublas nvmath.bindings.cusolverDn True True", "[]",
                   "True True True True"]


def test_a_binding_is_nvmaths_own_where_nvmath_was_imported_first():
    out = _run("""
        import nvmath
        from gnumpy.backends import cuda_libs
        print(cuda_libs.bindings("cublas") is nvmath.bindings.cublas)
    """)
    assert out == ["True"]
