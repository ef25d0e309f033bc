"""Whether cuBLASLt's matmul epilogues may stand in for a pending NumPy consumer of a
product: ``np.maximum(x @ w + b, 0)`` (ReLU with bias, NPBench's mlp and lenet) is one
cuBLASLt call with ``Epilogue.RELU_BIAS`` if Lt's ReLU keeps NumPy's values bit for bit
(``maximum(nan, 0)`` is NaN, ``maximum(-0.0, 0)`` is +0.0, infinities), and the fused call
is worth it only if it is faster than the product followed by gnumpy's fused bias-and-ReLU
pass.  Prints both answers; CuPy allocates and runs the reference pass.

gnumpy runs a product's ReLU as its own pass (docs/perf-notes.md has this script's results
and why); the script rechecks a newer cuBLAS.

    python3 bench/lt_epilogue.py [--json F]
"""
import argparse
import json
import time

import numpy as np
import cupy as cp
from nvmath.bindings import cublas
from nvmath.bindings import cublasLt as lt

R_32F, R_64F = 0, 1                          # cudaDataType CUDA_R_32F, CUDA_R_64F
_TYPES = {np.dtype(np.float32): (R_32F, cublas.ComputeType.COMPUTE_32F),
          np.dtype(np.float64): (R_64F, cublas.ComputeType.COMPUTE_64F)}


class Lt:
    """One cuBLASLt handle and 32 MiB of workspace."""

    def __init__(self):
        self.h = lt.create()
        self.ws = cp.empty(32 << 20, np.uint8)

    def plan(self, m, k, n, epi, bias=None, alpha=1.0, dt=np.float32):
        """Row-major C (m, n) = epi(A (m, k) @ B (k, n) + bias[None, :]), computed as the
        column-major C^T = B^T A^T (Lt's bias is per row of its D: per column of C)."""
        T, C = _TYPES[np.dtype(dt)]
        desc = lt.matmul_desc_create(int(C), T)
        e = np.array([int(epi)], np.int32)
        lt.matmul_desc_set_attribute(desc, int(lt.MatmulDescAttribute.EPILOGUE), e.ctypes.data, 4)
        if bias is not None:
            p = np.array([bias.data.ptr], np.uint64)
            lt.matmul_desc_set_attribute(desc, int(lt.MatmulDescAttribute.BIAS_POINTER),
                                         p.ctypes.data, 8)
        la = lt.matrix_layout_create(T, n, k, n)
        lb = lt.matrix_layout_create(T, k, m, k)
        ld = lt.matrix_layout_create(T, n, m, n)
        pref = lt.matmul_preference_create()
        w = np.array([self.ws.nbytes], np.uint64)
        lt.matmul_preference_set_attribute(
            pref, int(lt.MatmulPreferenceAttribute.MAX_WORKSPACE_BYTES), w.ctypes.data, 8)
        res = lt.MatmulHeuristicResult(1)
        cnt = np.zeros(1, np.int32)
        lt.matmul_algo_get_heuristic(self.h, desc, la, lb, ld, ld, pref, 1, res.ptr,
                                     cnt.ctypes.data)
        if cnt[0] < 1:
            raise RuntimeError(f"no cuBLASLt algorithm for epilogue {epi!r}")
        alpha = np.array([alpha], dt)
        beta = np.zeros(1, dt)

        def go(A, B, D):
            lt.matmul(self.h, desc, alpha.ctypes.data, B.data.ptr, la, A.data.ptr, lb,
                      beta.ctypes.data, D.data.ptr, ld, D.data.ptr, ld, res.ptr,
                      self.ws.data.ptr, self.ws.nbytes, cp.cuda.get_current_stream().ptr)
        return go


def semantics(L, dt, alpha):
    """Bits of Lt's RELU / RELU_BIAS against NumPy's ``maximum(x, 0)`` over Lt's own product
    (DEFAULT, BIAS epilogues) of inputs with NaN, infinities and zeros of both signs; with
    alpha = -1 the zero rows' products are -0.0 before the ReLU."""
    m, k, n = 12, 4, 8
    rng = np.random.default_rng(0)
    A = rng.standard_normal((m, k)).astype(dt)
    B = rng.standard_normal((k, n)).astype(dt)
    A[0, 0] = np.nan                          # row 0: NaN
    A[1] = 0.0                                # row 1: zero products (+-0 before the bias)
    A[2, 0], B[0, 1] = np.inf, 1.0            # row 2: +inf where B[0] > 0
    A[3, 0], B[0, 2] = -np.inf, 1.0           # row 3: -inf
    A[4] = -0.0
    bias = rng.standard_normal(n).astype(dt)
    bias[1] = -0.0
    bias[3] = 0.0
    dA, dB, db = cp.asarray(A), cp.asarray(B), cp.asarray(bias)
    out = {}
    u = np.uint32 if np.dtype(dt).itemsize == 4 else np.uint64
    zero = np.zeros((), dt)

    def run(epi, b=None):
        D = cp.full((m, n), 7.0, dt)
        L.plan(m, k, n, epi, b, alpha, dt)(dA, dB, D)
        return cp.asnumpy(D)
    plain = run(lt.Epilogue.DEFAULT)
    biased = run(lt.Epilogue.BIAS, db)
    out["negative_zeros_before"] = {"plain": int(np.signbit(plain[plain == 0]).sum()),
                                    "biased": int(np.signbit(biased[biased == 0]).sum())}
    for name, got, ref, ref2 in [
            ("RELU", run(lt.Epilogue.RELU), np.maximum(plain, zero), np.maximum(zero, plain)),
            ("RELU_BIAS", run(lt.Epilogue.RELU_BIAS, db), np.maximum(biased, zero),
             np.maximum(zero, biased)),
            ("BIAS", biased, plain + bias, bias + plain)]:
        def eq(r):
            return (got.view(u) == r.view(u)) | (np.isnan(got) & np.isnan(r))
        same = eq(ref)
        bad = np.argwhere(~same)
        out[name] = {"bit_equal_maximum_x_0": bool(same.all()),
                     "bit_equal_maximum_0_x": bool(eq(ref2).all()), "differ": int((~same).sum()),
                     "examples": [(ref[i, j].item(), got[i, j].item(), plain[i, j].item())
                                  for i, j in bad[:6]]}
    return out


def timing(L, m, k, n, reps=50):
    """ms a call: RELU_BIAS in the product, against the product and one fused pass."""
    rng = np.random.default_rng(1)
    A = cp.asarray(rng.standard_normal((m, k)).astype(np.float32))
    B = cp.asarray(rng.standard_normal((k, n)).astype(np.float32))
    b = cp.asarray(rng.standard_normal(n).astype(np.float32))
    D = cp.empty((m, n), np.float32)
    relu = cp.ElementwiseKernel("float32 x, float32 b", "float32 y",
                                "y = isnan(x + b) ? x + b : max(x + b, 0.0f)", "bias_relu")
    fused = L.plan(m, k, n, lt.Epilogue.RELU_BIAS, b)
    plain = L.plan(m, k, n, lt.Epilogue.DEFAULT)

    def two():
        plain(A, B, D)
        relu(D, b, D)
    res = {}
    for name, f in [("epilogue", lambda: fused(A, B, D)), ("product+pass", two)]:
        for _ in range(3):
            f()
        cp.cuda.Device().synchronize()
        t0 = time.perf_counter()
        for _ in range(reps):
            f()
        cp.cuda.Device().synchronize()
        res[name] = (time.perf_counter() - t0) / reps * 1e3
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    a = ap.parse_args()
    L = Lt()
    rep = {"semantics": {}, "timing_ms": {}}
    for dt in (np.float32, np.float64):
        for al in (1.0, -1.0):
            try:
                r = semantics(L, dt, al)
            except Exception as e:      # noqa: BLE001 - an epilogue Lt has no kernel for
                r = f"{type(e).__name__}: {e}"
            rep["semantics"][f"{np.dtype(dt).name} alpha {al}"] = r
    for shape in [(8, 3, 30000), (8, 30000, 2000), (8, 2000, 2000), (1024, 1024, 1024),
                  (4096, 4096, 4096)]:
        rep["timing_ms"]["x".join(map(str, shape))] = timing(L, *shape)
    print(json.dumps(rep, indent=1))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rep, f, indent=1)


if __name__ == "__main__":
    main()
