"""Quick GPU smoke test: each basic path once, compared with NumPy; prints OK/FAIL lines.

    GNUMPY_DEVICE=cuda python3 bench/gpu_smoke.py
"""
import time
import traceback

import numpy as np

import gnumpy as gp

rng = np.random.default_rng(0)
results = []


def case(name, f):
    t0 = time.perf_counter()
    try:
        f()
        results.append((name, "OK", time.perf_counter() - t0, ""))
    except Exception as e:  # noqa: BLE001
        results.append((name, "FAIL", time.perf_counter() - t0,
                        f"{type(e).__name__}: {str(e)[:300]}\n{traceback.format_exc()[-1500:]}"))


def eq(g, n, rtol=1e-5, atol=1e-6):
    a = g.get()
    assert a.dtype == np.asarray(n).dtype, (a.dtype, np.asarray(n).dtype)
    np.testing.assert_allclose(a, n, rtol=rtol, atol=atol, equal_nan=True)


def _oom():
    try:
        gp.zeros(1 << 45, dtype=gp.float32).get()
    except MemoryError as e:
        print("MemoryError:", str(e)[:200])
        return True
    return False


xh = rng.standard_normal(100003).astype(np.float32)
yh = rng.standard_normal(100003).astype(np.float32)
Xh = rng.standard_normal((300, 517)).astype(np.float64)
case("device", lambda: print("device:", gp.asarray(1.0).device))
x, y, X = gp.asarray(xh), gp.asarray(yh), gp.asarray(Xh)
case("roundtrip", lambda: eq(x, xh))
case("saxpy", lambda: eq(np.float32(2.5) * x + y, np.float32(2.5) * xh + yh))
case("expr7", lambda: eq(gp.sin(x) * gp.cos(y) + x * x - 3 * y + gp.exp(-x),
                         np.sin(xh) * np.cos(yh) + xh * xh - 3 * yh + np.exp(-xh), 1e-4, 1e-4))
case("sum", lambda: eq(gp.sum(x), np.sum(xh), 1e-4, 1e-3))
case("sumsq", lambda: eq(gp.sum((x - y) ** 2), np.sum((xh - yh) ** 2), 1e-4, 1e-3))
case("sum_axis0", lambda: eq(X.sum(axis=0), Xh.sum(axis=0), 1e-10, 1e-10))
case("sum_axis1", lambda: eq(X.sum(axis=1), Xh.sum(axis=1), 1e-10, 1e-10))
case("mean_var_std", lambda: (eq(X.mean(), Xh.mean(), 1e-10), eq(X.var(axis=0), Xh.var(axis=0),
                                                                    1e-10),
                              eq(X.std(axis=1, ddof=1), Xh.std(axis=1, ddof=1), 1e-10)))
case("argmax", lambda: (eq(X.argmax(axis=1), Xh.argmax(axis=1)), eq(X.argmin(), Xh.argmin())))
case("minmax_nan", lambda: eq(gp.asarray([1.0, np.nan, 3.0]).max(), np.nan))
case("any_all", lambda: (eq((X > 3).any(axis=0), (Xh > 3).any(axis=0)),
                         eq((X > -10).all(), (Xh > -10).all())))
case("strided", lambda: eq(X.T[::3, 1::2] * 2 + 1, Xh.T[::3, 1::2] * 2 + 1))
case("broadcast", lambda: eq(X - X.mean(axis=0), Xh - Xh.mean(axis=0), 1e-10, 1e-10))
case("reshape_copy", lambda: eq(X.T.reshape(-1)[:1000] + 0, Xh.T.reshape(-1)[:1000]))
case("int_div", lambda: eq(gp.asarray(np.array([7, -7, 5, 0], np.int32)) //
                           gp.asarray(np.array([2, 2, 0, 0], np.int32)),
                           np.array([3, -4, 0, 0], np.int32)))
case("float16", lambda: eq(gp.asarray(xh[:1000].astype(np.float16)) * 3 + 1,
                           xh[:1000].astype(np.float16) * np.float16(3) + np.float16(1), 2e-3,
                           2e-3))
case("complex", lambda: eq(gp.asarray(xh[:100] + 1j * yh[:100]) ** 2 / (1 + 2j),
                           (xh[:100] + 1j * yh[:100]) ** 2 / (1 + 2j), 1e-4, 1e-5))
case("complex_sum", lambda: eq(gp.sum(gp.asarray(xh + 1j * yh)), np.sum(xh + 1j * yh),
                               1e-3, 1e-2))
case("cumsum", lambda: (eq(gp.cumsum(X, axis=1), np.cumsum(Xh, axis=1), 1e-10, 1e-9),
                        eq(gp.cumsum(X, axis=0), np.cumsum(Xh, axis=0), 1e-10, 1e-9),
                        eq(gp.cumsum(x), np.cumsum(xh), 1e-3, 1e-2)))
case("matmul", lambda: eq(X @ X.T, Xh @ Xh.T, 1e-10, 1e-9))
case("concat", lambda: eq(gp.concat([X, X[:5]]), np.concatenate([Xh, Xh[:5]])))
case("setitem", lambda: (X.__setitem__((slice(0, 5), 3), 7.0),
                         Xh.__setitem__((slice(0, 5), 3), 7.0), eq(X, Xh)))
case("inplace_view", lambda: (X[::2].__iadd__(1), Xh[::2].__iadd__(1), eq(X, Xh)))
case("arange_eye", lambda: (eq(gp.arange(10), np.arange(10)), eq(gp.eye(4, k=1), np.eye(4, k=1))))
case("dlpack_torch", lambda: __import__("torch").from_dlpack(x).sum().item())
case("cai_cupy", lambda: float(__import__("cupy").asarray(x).sum()))
case("from_torch", lambda: eq(gp.from_dlpack(__import__("torch").arange(5.0, device="cuda")),
                              np.arange(5.0, dtype=np.float32)))
case("memory_info", lambda: print(gp.cuda.memory_info()))
case("oom", lambda: (_ for _ in ()).throw(AssertionError("no MemoryError")) if
     not _oom() else None)



print(gp.cuda.kernel_cache_info())
for name, st, t, msg in results:
    print(f"{st:4s} {name:14s} {t * 1e3:8.1f} ms {msg if st == 'FAIL' else ''}")
print(f"{sum(r[1] == 'OK' for r in results)}/{len(results)} OK")
