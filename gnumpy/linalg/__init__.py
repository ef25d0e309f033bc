"""gnumpy.linalg: NumPy's ``numpy.linalg`` and the Array API linear-algebra extension.

* Factorizations are one library call per operation (``gnumpy.backends.libcall``):
  NumPy's own ``numpy.linalg`` routine on the CPU backend's memory, cuSOLVER on CUDA
  (``gnumpy.backends.cuda_solver``): ``solve``, ``inv``, ``det``, ``slogdet``,
  ``cholesky``, ``qr`` (``_factor``), ``eigh``, ``eigvalsh``, ``eig``, ``eigvals``
  (``_eig``), ``svd``, ``svdvals`` and ``lstsq`` on the CPU backend (``_svd``).
* What NumPy builds on them is built the same way from gnumpy ops: ``pinv``,
  ``matrix_rank``, ``lstsq`` on CUDA, ``svd(hermitian=True)``, the 2-, -2- and
  nuclear norms (``_svd``), ``tensorsolve``, ``tensorinv`` (``_factor``),
  ``matrix_power`` and ``cond`` (``_products``).
* Products and the other norms are gnumpy ops (``_products``).

The modules form a chain: ``_common`` <- ``_factor``, ``_eig`` <- ``_svd`` <- ``_products``.

Errors are NumPy's: ``LinAlgError`` with NumPy's messages for singular, non-positive-
definite, non-square or too-few-dimensional input, TypeError for float16.

# Note: where NumPy returns a scalar (``det`` of one matrix), gnumpy returns a 0-d array.
# Note: the functions NumPy shares take its parameter names, positional or keyword (``a``,
# ``b``, ``A``, ``n``), where the Array API's (``x``, ``x1``, ``x2``) are positional-only: a
# positional call satisfies both.
"""
from __future__ import annotations

from ._common import (EigResult, EighResult, LinAlgError, QRResult,  # noqa: F401
                      SlogdetResult, SVDResult)
from ._eig import eig, eigh, eigvals, eigvalsh
from ._factor import cholesky, det, inv, qr, slogdet, solve, tensorinv, tensorsolve
from ._products import (cond, cross, diagonal, matmul, matrix_norm, matrix_power,
                        matrix_transpose, multi_dot, norm, outer, tensordot, trace, vecdot,
                        vector_norm)
from ._svd import lstsq, matrix_rank, pinv, svd, svdvals

__all__ = ["LinAlgError", "cholesky", "cond", "cross", "det", "diagonal", "eig", "eigh",
           "eigvals", "eigvalsh", "inv", "lstsq", "matmul", "matrix_norm", "matrix_power",
           "matrix_rank", "matrix_transpose", "multi_dot", "norm", "outer", "pinv", "qr",
           "slogdet", "solve", "svd", "svdvals", "tensordot", "tensorinv", "tensorsolve",
           "trace", "vecdot", "vector_norm"]


def __dir__():
    return sorted(__all__)
