"""The ``matmul_relu`` barrier on the CUDA backend (``_graph/epilogue``: ``maximum(a @ b +
bias, 0)``): one cuBLASLt call with the ReLU or ReLU-and-bias epilogue, writing the
result once (a product and an elementwise pass write it twice and read it once more).

Lt takes the product as cuBLAS does (``cuda_blas._plan``: column-major ``C^T = B^T A^T``,
an operand's transpose op and leading dimension from its strides; a bias per row of that
``C^T`` is NumPy's bias per column of ``C``).  Its descriptors and the algorithm its
heuristic picks are kept per (dtype, sizes, ops, leading dimensions, pointer alignments,
epilogue, device architecture); only the bias pointer is set at each call.  Where Lt has
no algorithm, is not installed, or the product is not one GEMM (a matrix-vector product,
an empty one), the product is cuBLAS's and the ReLU pass gnumpy's own kernel, in place.

The node is made, and the Lt call taken, only with ``config.lt_epilogue`` (off by
default; a node made while it was on and run after, by the product and the pass).  Lt's
ReLU kept NumPy's NaN and infinities bit for bit on an H100 (float32,
``bench/lt_epilogue.py``); its treatment of a -0.0 product, float64, and this module's
calls themselves still wait for a GPU run (they pass on the host emulator's Lt,
``tests/cublaslt_host.py``).  Measured there with CuPy's pass beside it: 8x3x30000
12.4 us against 20.7 for the product and a pass, 8x2000x2000 16.2 against 21.0, 4096^3
2.66 ms against 2.74.
"""
from __future__ import annotations

import numpy as np

from .._config import config
from .._graph import layout as L
from .._graph.ir import barrier, broadcast, ew, leaf, scalar
from . import barriers, cuda_blas
from .cuda_libs import DATA_TYPE, bindings, libs

_WORKSPACE = 32 << 20           # bytes an algorithm may ask for (Hopper's recommended)
_COMPUTE = {np.dtype(np.float32): cuda_blas._COMPUTE_32F,
            np.dtype(np.float64): cuda_blas._COMPUTE_64F}
_PLANS: dict = {}               # key -> _LtPlan, or None where Lt has no algorithm
_NO_LT = []                     # [reason] once Lt cannot be used in this process


def matmul_relu(be, node, buf) -> None:
    a, b = node.srcs[0], node.srcs[1]
    bias = node.srcs[2] if len(node.srcs) == 3 else None
    dt = node.dtype
    prod = barrier("matmul", (a, b), node.arg, dt, node.shape)
    p = cuda_blas._plan_of(dt, prod)
    if p[0] == "copy":
        a = be._contiguous_copy(a) if p[1] else a
        b = be._contiguous_copy(b) if p[2] else b
        prod = barrier("matmul", (a, b), node.arg, dt, node.shape)
        p = cuda_blas._plan_of(dt, prod)
    if bias is not None and (bias.strides != (1,) or _align(cuda_blas._ptr(bias)) < 256):
        bias = be._contiguous_copy(bias)
    if config.lt_epilogue and p[0] == "gemm" and len(p[1]) == 1 and p[1][0][8] == 1 and \
            not _NO_LT and _lt_call(be, dt, p[1][0], a, b, bias, buf.ptr, node.arg):
        return          # (the option asked again: a node folded while it was on, then run
    #                     after it was turned off, is the product and the pass)
    cuda_blas.matmul(be, prod, buf)         # the product, then the ReLU pass in place
    out = leaf(buf, dt, node.shape, L.c_strides(node.shape), 0, be.device)
    v = out if bias is None else ew("add", dt, (out, broadcast(bias, node.shape)))
    be.write(out, ew("maximum", dt, (v, scalar(0, dt, node.shape, be.device))))


class _LtPlan:
    __slots__ = ("desc", "layouts", "algo", "work")

    def __init__(self, desc, layouts, algo, work):
        self.desc = desc
        self.layouts = layouts
        self.algo = algo            # the heuristic's result (the algorithm leads its struct)
        self.work = work            # the workspace bytes it needs


def _align(ptr: int) -> int:
    return min(256, ptr & -ptr) if ptr else 256


def _lt_call(be, dt, call, a, b, bias, pc, alpha) -> bool:
    """One cuBLASLt call of the GEMM `call` (``cuda_blas._plan``'s tuple) with the ReLU
    epilogue, the bias's where given; False, before any work, where Lt cannot."""
    m, n, k, opb, opa = call[:5]
    pa, pb = cuda_blas._ptr(a), cuda_blas._ptr(b)
    key = (dt, m, n, k, opb, opa, _align(pb), _align(pa), _align(pc), bias is not None, be.arch)
    plan = _PLANS.get(key, False)
    if plan is False:
        try:
            lt = bindings("cublasLt")
            h = libs(be).blas_lt()
        except (ModuleNotFoundError, NotImplementedError) as e:
            _NO_LT.append(f"{type(e).__name__}: {e}")   # no cuBLASLt here: never again
            return False
        plan = _make(lt, h, key)
        if len(_PLANS) >= 1024:
            be.stream.sync()            # (a call issued with a plan may still be queued)
            for old in _PLANS.values():
                _destroy(lt, old)
            _PLANS.clear()
        _PLANS[key] = plan
    if plan is None:
        return False
    lt = bindings("cublasLt")
    lb = libs(be)
    if bias is not None:        # (a descriptor shared by the calls of its case: they run
        ptr = np.array([cuda_blas._ptr(bias)], np.uint64)       # under the execution lock)
        lt.matmul_desc_set_attribute(plan.desc, int(lt.MatmulDescAttribute.BIAS_POINTER),
                                     ptr.ctypes.data, 8)
    work = lb.workspace(plan.work) if plan.work else None
    la, lb_, ld = plan.layouts
    try:
        lt.matmul(lb.blas_lt(), plan.desc, lb.host_scalar(1 if alpha is None else alpha, dt),
                  pb, la, pa, lb_, lb.host_scalar(0, dt), pc, ld, pc, ld, plan.algo.ptr,
                  0 if work is None else work.ptr, plan.work, lb.stream())
    except lt.cuBLASLtError:        # refused before it ran (its checks are synchronous):
        _PLANS[key] = None          # this case takes cuBLAS and the pass from now on
        _destroy(lt, plan)
        return False
    return True


def _make(lt, h, key):
    """The descriptors and algorithm of `key`, or None where Lt has none (its heuristic
    finds no algorithm, or Lt refuses a descriptor)."""
    dt, m, n, k, (t1, ld1), (t2, ld2), al1, al2, alc, has_bias, _ = key
    T = DATA_TYPE[dt]
    made = _LtPlan(None, [], None, 0)
    pref = None
    try:
        desc = made.desc = lt.matmul_desc_create(_COMPUTE[dt], T)
        for attr, value in ((lt.MatmulDescAttribute.TRANSA, t1),
                            (lt.MatmulDescAttribute.TRANSB, t2),
                            (lt.MatmulDescAttribute.EPILOGUE,
                             lt.Epilogue.RELU_BIAS if has_bias else lt.Epilogue.RELU)):
            v = np.array([value], np.int32)
            lt.matmul_desc_set_attribute(desc, int(attr), v.ctypes.data, 4)
        for rows, cols, ld_ in (((m, k) if t1 == 0 else (k, m)) + (ld1,),
                                ((k, n) if t2 == 0 else (n, k)) + (ld2,), (m, n, m)):
            made.layouts.append(lt.matrix_layout_create(T, rows, cols, ld_))
        la, lb, ld = made.layouts
        pref = lt.matmul_preference_create()
        P = lt.MatmulPreferenceAttribute
        for attr, v in ((P.MAX_WORKSPACE_BYTES, np.uint64(_WORKSPACE)),
                        (P.MIN_ALIGNMENT_A_BYTES, np.uint32(al1)),
                        (P.MIN_ALIGNMENT_B_BYTES, np.uint32(al2)),
                        (P.MIN_ALIGNMENT_C_BYTES, np.uint32(alc)),
                        (P.MIN_ALIGNMENT_D_BYTES, np.uint32(alc))):
            w = np.array([v])
            lt.matmul_preference_set_attribute(pref, int(attr), w.ctypes.data, w.nbytes)
        res = lt.MatmulHeuristicResult(1)
        count = np.zeros(1, np.int32)
        lt.matmul_algo_get_heuristic(h, desc, la, lb, ld, ld, pref, 1, res.ptr,
                                     count.ctypes.data)
    except lt.cuBLASLtError:        # (NOT_SUPPORTED: no algorithm for this case)
        count = np.zeros(1, np.int32)
    finally:
        if pref is not None:
            lt.matmul_preference_destroy(pref)
    if count[0] < 1:
        _destroy(lt, made)
        return None
    made.algo, made.work = res, int(res.workspace_size)
    return made


def _destroy(lt, plan) -> None:
    if plan is None:
        return
    if plan.desc is not None:
        lt.matmul_desc_destroy(plan.desc)
    for layout in plan.layouts:
        lt.matrix_layout_destroy(layout)
    plan.desc, plan.layouts = None, []


barriers.register("matmul_relu", cuda=matmul_relu)
