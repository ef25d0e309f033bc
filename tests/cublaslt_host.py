"""cuBLASLt's matmul with its ReLU / ReLU-and-bias epilogues on host memory, column-major:
the calls ``backends/cuda_epilogue`` makes, for the host emulator of the CUDA backend
(``cuda_emu``).  Descriptor attributes are read from the host buffers the caller passes,
as the library reads them; the product is computed in float64 and rounded once."""
import ctypes
import enum
import itertools

import numpy as np

from test_blas_host import _host

_NP = {0: np.float32, 1: np.float64}


class MatmulDescAttribute(enum.IntEnum):
    TRANSA = 3
    TRANSB = 4
    EPILOGUE = 7
    BIAS_POINTER = 8


class Epilogue(enum.IntEnum):
    DEFAULT = 1
    RELU = 2
    BIAS = 4
    RELU_BIAS = 6


class MatmulPreferenceAttribute(enum.IntEnum):
    MAX_WORKSPACE_BYTES = 1
    MIN_ALIGNMENT_A_BYTES = 5
    MIN_ALIGNMENT_B_BYTES = 6
    MIN_ALIGNMENT_C_BYTES = 7
    MIN_ALIGNMENT_D_BYTES = 8


class cuBLASLtError(RuntimeError):      # noqa: N801 - the binding's name
    pass


class MatmulHeuristicResult:
    def __init__(self, n=1):
        self._buf = np.zeros(16, np.int64)
        self.ptr = self._buf.ctypes.data
        self.workspace_size = 0


def _read(ptr, size):
    return bytes((ctypes.c_char * size).from_address(ptr))


class FakeCublasLt:
    """The module's functions used by ``cuda_epilogue``, over host memory."""

    MatmulDescAttribute = MatmulDescAttribute
    Epilogue = Epilogue
    MatmulPreferenceAttribute = MatmulPreferenceAttribute
    MatmulHeuristicResult = MatmulHeuristicResult
    cuBLASLtError = cuBLASLtError

    def __init__(self):
        self._ids = itertools.count(1)
        self.objs = {}
        self.calls = []

    def _new(self, obj):
        h = next(self._ids)
        self.objs[h] = obj
        return h

    def create(self):
        return self._new("handle")

    def matmul_desc_create(self, compute, scale):
        return self._new({"scale": scale, MatmulDescAttribute.TRANSA: 0,
                          MatmulDescAttribute.TRANSB: 0,
                          MatmulDescAttribute.EPILOGUE: int(Epilogue.DEFAULT)})

    def matmul_desc_set_attribute(self, desc, attr, ptr, size):
        raw = _read(ptr, size)
        v = int(np.frombuffer(raw, np.uint64 if size == 8 else np.int32)[0])
        self.objs[desc][MatmulDescAttribute(attr)] = v

    def matmul_desc_destroy(self, desc):
        del self.objs[desc]

    def matrix_layout_destroy(self, layout):
        del self.objs[layout]

    def matrix_layout_create(self, dtype, rows, cols, ld):
        assert ld >= max(1, rows), f"ld {ld} < rows {rows}"
        return self._new((dtype, rows, cols, ld))

    def matmul_preference_create(self):
        return self._new({})

    def matmul_preference_set_attribute(self, pref, attr, ptr, size):
        self.objs[pref][MatmulPreferenceAttribute(attr)] = int(
            np.frombuffer(_read(ptr, size), np.uint64 if size == 8 else np.uint32)[0])

    def matmul_preference_destroy(self, pref):
        del self.objs[pref]

    def matmul_algo_get_heuristic(self, h, desc, la, lb, lc, ld, pref, n, res, count):
        ctypes.c_int32.from_address(count).value = 1

    def _mat(self, ptr, layout, t):
        dtype, rows, cols, ld = self.objs[layout]
        M = _host(ptr, _NP[dtype], (rows, cols), (1, ld)).astype(np.float64)
        return M if t == 0 else M.T

    def matmul(self, h, desc, alpha, pa, la, pb, lb, beta, pc, lc, pd, ld, algo, ws, wsz,
               stream):
        d = self.objs[desc]
        dtype, rows, cols, ldd = self.objs[ld]
        dt = _NP[dtype]
        epi = Epilogue(d[MatmulDescAttribute.EPILOGUE])
        self.calls.append(epi.name)
        ab = self._mat(pa, la, d[MatmulDescAttribute.TRANSA]) @ \
            self._mat(pb, lb, d[MatmulDescAttribute.TRANSB])
        assert ab.shape == (rows, cols), (ab.shape, rows, cols)
        ab = (ab * _host(alpha, dt, (1,), (1,))[0]).astype(dt)
        if epi in (Epilogue.BIAS, Epilogue.RELU_BIAS):
            ab = ab + _host(d[MatmulDescAttribute.BIAS_POINTER], dt, (rows, 1), (1, 0))
        if epi in (Epilogue.RELU, Epilogue.RELU_BIAS):
            ab = np.maximum(ab, dt(0))
        _host(pd, dt, (rows, cols), (1, ldd))[...] = ab
