"""Argument handling shared by gnumpy.linalg: NumPy's dtype rule for linear algebra, its
shape checks and messages, the result named tuples, and the one way a factorization
reaches a library (``call``: ``gnumpy._api.libcall``).
"""
from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from .. import _dtypes as D
from .._api import libcall
from .._api._common import is_array
from .._api.creation.creation import asarray, eye, zeros
from .._api.shape.manipulation import broadcast_to
from ..backends import linalg_ops

LinAlgError = np.linalg.LinAlgError

EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
QRResult = namedtuple("QRResult", ["Q", "R"])
SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])


def arr(x):
    """`x` as a gnumpy array (host data is copied to the default device)."""
    return x if is_array(x) else asarray(x)


def result_dtype(*arrays) -> np.dtype:
    """NumPy's linalg result type (``_commonType``): float32 only when every operand is
    float32 or complex64, float64 otherwise (integers and bools too); complex when any
    operand is complex.  float16 is refused with NumPy's TypeError."""
    double = cplx = False
    for a in arrays:
        dt = a.dtype
        if dt.kind in "fc":
            if dt == D.float16:
                raise TypeError("array type float16 is unsupported in linalg")
            cplx = cplx or dt.kind == "c"
            double = double or dt in (D.float64, D.complex128)
        else:
            double = True
    if cplx:
        return np.dtype(np.complex128 if double else np.complex64)
    return np.dtype(np.float64 if double else np.float32)


def real_of(dt) -> np.dtype:
    return D.real_dtype(np.dtype(dt))


def assert_stacked_2d(*arrays) -> None:
    for a in arrays:
        if a.ndim < 2:
            raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least "
                              f"two-dimensional")


def assert_2d(*arrays) -> None:
    for a in arrays:
        if a.ndim != 2:
            raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be "
                              f"two-dimensional")


def assert_stacked_square(*arrays) -> None:
    assert_stacked_2d(*arrays)
    for a in arrays:
        if a.shape[-1] != a.shape[-2]:
            raise LinAlgError("Last 2 dimensions of the array must be square")


def uplo(UPLO) -> str:
    u = UPLO.upper() if isinstance(UPLO, str) else UPLO
    if u not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return u


def call(op, arrays, **kw):
    """Run linalg op `op` now (``_api/libcall``): NumPy's routine on the CPU backend,
    cuSOLVER on CUDA (``_cusolver``, imported at the first CUDA call: the CPU path never
    imports nvmath); a tuple of gnumpy arrays."""
    r = libcall.call(op, arrays, cpu=linalg_ops.CPU.get(op), cuda=_cuda(op),
                     copied=op in _COPIED, **kw)
    if r is NotImplemented:
        raise NotImplementedError(f"linalg op {op} is not implemented on the "
                                  f"{arrays[0].device.kind.upper()} backend")
    return r


# cuSOLVER ops that read their operands only through a fresh copy (``_cusolver._copy``):
# a lazy operand (contour_integral's ``Tz``) is computed straight into that copy
_COPIED = frozenset(("solve", "inv", "cholesky", "det", "slogdet"))


def _cuda(op):
    """The cuSOLVER implementation of `op`, or None (``lstsq``: built from ``svd``)."""
    if op == "lstsq":
        return None
    f = _CUDA_IMPLS.get(op)
    if f is None:
        def f(be, *nodes, **kw):
            g = _CUSOLVER.get(op)
            if g is None:
                # loaded on first use: only the CUDA backend calls cuSOLVER (~14 ms)
                from . import _cusolver, _cusolver_svd
                g = _CUSOLVER[op] = getattr(_cusolver_svd if op == "svd" else _cusolver, op)
            return g(be, *nodes, **kw)
        _CUDA_IMPLS[op] = f
    return f


_CUDA_IMPLS: dict = {}      # op -> the function ``libcall`` calls on CUDA
_CUSOLVER: dict = {}        # op -> its ``_cusolver`` function, once imported


def eye_stack(n, cols, dt, batch, device):
    """A (batch..., n, cols) stack of identity matrices (materialized on use)."""
    e = eye(n, cols, dtype=dt, device=device)
    return broadcast_to(e, tuple(batch) + (n, cols)) + zeros((), dtype=dt, device=device)


def empty(shape, dt, device):
    return zeros(tuple(shape), dtype=dt, device=device)


def nbatch(shape) -> int:
    return math.prod(shape)
