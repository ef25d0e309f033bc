"""Wall time of a tiny fused SAXPY call (1,000 float32), cache warm: the dispatch cost.

    GNUMPY_DEVICE=cuda python3 bench/tiny.py [--profile] [--after-big] [--with-peers]

Prints the median of 5 rounds of 2,000 back-to-back ``evaluate(a*x + y)`` calls, for the
pre-packed ``cuLaunchKernel`` replay through ctypes (the default) and through
cuda.bindings and for cuda.core's ``launch`` (the
previous path), plus a breakdown: building the two lazy nodes alone, and the call with the
launch itself skipped.  ``--profile`` adds a cProfile listing; ``--after-big`` measures again
after large (1 GiB) materializations, as the suite's tiny case runs after the large cases;
``--with-peers`` again after importing and running CuPy, torch.compile and JAX in the process;
``--launch-floor`` times the pre-packed ``cuLaunchKernel`` alone (streams, ctypes variants).
"""
import cProfile
import pstats
import sys
import time

import numpy as np

import gnumpy as gp
from gnumpy import _device


def per_call(f, n=2000, rounds=5):
    for _ in range(200):
        f()
    gp.cuda.synchronize()
    best = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(n):
            f()
        gp.cuda.synchronize()
        best.append((time.perf_counter() - t0) / n * 1e6)
    return sorted(best)[len(best) // 2], min(best)


def main():
    x = gp.asarray(np.ones(1000, np.float32))
    y = gp.asarray(np.ones(1000, np.float32))
    be = _device.backend(x.device)
    results = {}
    for label, a in (("numpy float32 scalar", np.float32(2.0)), ("Python float", 2.0)):
        results[label] = per_call(lambda: gp.evaluate(a * x + y))
    a = np.float32(2.0)
    results["build a*x + y only (no materialization)"] = per_call(lambda: a * x + y)
    if hasattr(be, "packed_launcher"):
        for rp in be.fast.cache.values():
            if rp and rp.launch is not None:
                real = rp.launch
                rp.launch = lambda *args: None
                results["evaluate with the launch skipped"] = per_call(
                    lambda: gp.evaluate(a * x + y))
                rp.launch = real
        be.fast.cache.clear()
        saved = be.packed_launcher
        be.packed_launcher = None
        be.fast.cache.clear()
        results["cuda.core launch() replay (previous path)"] = per_call(
            lambda: gp.evaluate(a * x + y))
        be.packed_launcher = saved
        be.fast.cache.clear()
    for label, (med, best) in results.items():
        print(f"tiny saxpy, {label}: median {med:.1f} us/call, best {best:.1f}")
    if "--after-big" in sys.argv:       # the suite measures tiny after the large cases
        xb = gp.asarray(np.ones(1 << 28, np.float32))
        yb = gp.asarray(np.ones(1 << 28, np.float32))
        Xb = xb.reshape(16384, 16384)
        for _ in range(10):
            gp.evaluate(2.5 * xb + yb, Xb.std(axis=0), gp.sum(xb))
        gp.cuda.synchronize()
        med, best = per_call(lambda: gp.evaluate(a * x + y))
        print(f"tiny saxpy after large cases (1 GiB arrays alive): median {med:.1f} us/call, "
              f"best {best:.1f}")
        del xb, yb, Xb
        import gc
        gc.collect()
        med, best = per_call(lambda: gp.evaluate(a * x + y))
        print(f"tiny saxpy after large cases, arrays freed: median {med:.1f} us/call, "
              f"best {best:.1f}")
    if "--with-peers" in sys.argv:      # the suite's process also holds CuPy, torch, JAX
        import gc
        import threading
        loaded = []
        for mod in ("cupy", "torch", "jax"):
            try:
                __import__(mod)
                loaded.append(mod)
            except Exception:   # noqa: BLE001
                pass
        try:
            import torch
            f = torch.compile(lambda t: t * 2 + 1)
            f(torch.ones(1000, device="cuda"))
            torch.cuda.synchronize()
        except Exception as e:  # noqa: BLE001
            print("torch.compile:", e)
        try:
            import jax
            jax.jit(lambda t: t * 2 + 1)(jax.numpy.ones(1000)).block_until_ready()
        except Exception as e:  # noqa: BLE001
            print("jax:", e)
        med, best = per_call(lambda: gp.evaluate(a * x + y))
        print(f"tiny saxpy with {', '.join(loaded)} loaded and run: median {med:.1f} us/call, "
              f"best {best:.1f} ({threading.active_count()} threads, "
              f"{len(gc.get_objects())} gc-tracked objects)")
        gc.freeze()
        med, best = per_call(lambda: gp.evaluate(a * x + y))
        print(f"  the same after gc.freeze(): median {med:.1f} us/call, best {best:.1f}")
        gc.unfreeze()
        gc.disable()
        med, best = per_call(lambda: gp.evaluate(a * x + y))
        print(f"  the same with gc disabled: median {med:.1f} us/call, best {best:.1f}")
        gc.enable()
    if "--launch-floor" in sys.argv:
        launch_floor(be, a, x, y)
    if "--profile" in sys.argv:
        per_call(lambda: gp.evaluate(a * x + y), n=100, rounds=1)
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(20000):
            gp.evaluate(a * x + y)
        prof.disable()
        gp.cuda.synchronize()
        pstats.Stats(prof).sort_stats("tottime").print_stats(22)


def launch_floor(be, a, x, y):
    """The launch's own share: the tiny kernel's pre-packed ``cuLaunchKernel`` called alone in
    a loop through ctypes (no graph build, no walk): on the backend's stream, the legacy NULL
    stream and the per-thread default stream, with PyDLL (GIL held) and CDLL (released), with
    and without argtypes; and the GPU's own time for the same launches (CUDA events), which
    bounds the loop from below when the GPU, not the CPU, is the slower side."""
    import ctypes
    from gnumpy.backends import cuda_signature
    from gnumpy.backends.cuda import _libcuda_launch
    e = a * x + y
    gp.evaluate(e)
    sig, leaves, scalars, _ = cuda_signature.walk((a * x + y)._node)
    rp = be.fast.cache[sig]
    out = be.pool.alloc(4000)
    rp.launch(leaves, scalars, out, None, None)       # fills the parameter block
    func, addr = rp.launch.keep[2], rp.launch.keep[3]
    g = (tuple(rp.grid) + (1, 1))[:3] if isinstance(rp.grid, tuple) else (rp.grid, 1, 1)
    b = (tuple(rp.block) + (1, 1))[:3] if isinstance(rp.block, tuple) else (rp.block, 1, 1)
    typed = ctypes.PyDLL("libcuda.so.1").cuLaunchKernel
    typed.restype = ctypes.c_int
    typed.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + [ctypes.c_void_p] * 3
    released = ctypes.CDLL("libcuda.so.1").cuLaunchKernel
    released.restype = ctypes.c_int
    variants = {
        "ctypes PyDLL, backend stream (the replay's call)": (_libcuda_launch(), be.stream_c),
        "ctypes PyDLL, legacy NULL stream": (_libcuda_launch(), ctypes.c_void_p(None)),
        "ctypes PyDLL, per-thread default stream": (_libcuda_launch(), ctypes.c_void_p(2)),
        "ctypes PyDLL with argtypes, backend stream": (typed, be.stream_c),
        "ctypes CDLL (GIL released), backend stream": (released, be.stream_c),
    }
    for label, (cu, stream) in variants.items():
        def go(cu=cu, stream=stream):
            cu(func, g[0], g[1], g[2], b[0], b[1], b[2], 0, stream, addr, None)
        med, best = per_call(go, n=20000)
        print(f"launch alone, {label}: median {med:.2f} us/launch, best {best:.2f}")
    cu, stream = _libcuda_launch(), be.stream_c
    gp.cuda.synchronize()
    e0 = gp.cuda.Event().record()
    t0 = time.perf_counter()
    for _ in range(20000):
        cu(func, g[0], g[1], g[2], b[0], b[1], b[2], 0, stream, addr, None)
    e1 = gp.cuda.Event().record()
    t1 = time.perf_counter()
    e1.synchronize()
    t2 = time.perf_counter()
    print(f"20,000 launches: CPU {((t1 - t0) / 2e4) * 1e6:.2f} us/launch, GPU "
          f"{e0.elapsed_time(e1) / 2e4 * 1e3:.2f} us/launch (events), drained "
          f"{(t2 - t1) * 1e3:.1f} ms after the loop")
    del out


if __name__ == "__main__":
    main()
