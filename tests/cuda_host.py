"""CUDA device code run on the host: g++ builds a kernel's source with CUDA's built-ins
emulated (``SHIMS``) into a shared library, cached in the temp dir by the source's hash.
The random draw tests run gnumpy's rendered kernels this way without a GPU."""
from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

# what the kernels use of CUDA: the qualifiers, the thread indices (set by the caller
# through gn_set), vector types and the integer and round-to-nearest intrinsics
SHIMS = """#include <cstdint>
#include <cmath>
struct gn_dim { unsigned x; };
static gn_dim blockIdx, threadIdx, gridDim;
extern "C" void gn_set(unsigned b, unsigned t, unsigned g) {
  blockIdx.x = b; threadIdx.x = t; gridDim.x = g; }
#define __global__
#define __launch_bounds__(n)
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
struct uint4 { unsigned x, y, z, w; };
static inline uint4 make_uint4(unsigned a, unsigned b, unsigned c, unsigned d) {
  return uint4{a, b, c, d}; }
static inline unsigned __umulhi(unsigned a, unsigned b) {
  return (unsigned)(((unsigned long long)a * b) >> 32); }
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64); }
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline double __dadd_rn(double a, double b) { return a + b; }
static inline double __dsub_rn(double a, double b) { return a - b; }
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline float __fadd_rn(float a, float b) { return a + b; }
static inline float __fsub_rn(float a, float b) { return a - b; }
#ifndef __device__
#define __device__
#endif
"""


def build(src: str, name: str) -> ctypes.CDLL:
    """``SHIMS + src`` built with g++ (skips the test without g++)."""
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("g++ needed to run CUDA source on the host")
    src = SHIMS + src
    h = hashlib.sha256(src.encode()).hexdigest()[:16]
    d = Path(tempfile.gettempdir()) / "gnumpy_cuda_host"
    d.mkdir(exist_ok=True)
    lib = d / f"{name}_{h}.so"
    if not lib.exists():
        cpp = d / f"{name}_{h}.{os.getpid()}.cpp"
        cpp.write_text(src)
        tmp = cpp.with_suffix(".so")
        r = subprocess.run([gxx, "-O1", "-std=c++17", "-ffp-contract=off", "-shared", "-fPIC",
                            "-w", "-o", str(tmp), str(cpp)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr[-3000:]
        tmp.replace(lib)
    return ctypes.CDLL(str(lib))
