"""Wall time of a tiny fused SAXPY call (1,000 float32), cache warm: the dispatch cost.

    GNUMPY_DEVICE=cuda python3 bench/tiny.py [--profile] [--after-big] [--with-peers]

Prints the median of 5 rounds of 2,000 back-to-back ``evaluate(a*x + y)`` calls, for the
pre-packed ``cuLaunchKernel`` replay through ctypes (the default) and through
cuda.bindings and for cuda.core's ``launch`` (the
previous path), plus a breakdown: building the two lazy nodes alone, and the call with the
launch itself skipped.  ``--profile`` adds a cProfile listing; ``--after-big`` measures again
after large (1 GiB) materializations, as the suite's tiny case runs after the large cases;
``--with-peers`` again after importing and running CuPy, torch.compile and JAX in the process.
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
        from gnumpy import config
        with config.override(launch_path="bindings"):
            be.fast.cache.clear()
            results["pre-packed, cuLaunchKernel through cuda.bindings"] = per_call(
                lambda: gp.evaluate(a * x + y))
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
    if "--profile" in sys.argv:
        per_call(lambda: gp.evaluate(a * x + y), n=100, rounds=1)
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(20000):
            gp.evaluate(a * x + y)
        prof.disable()
        gp.cuda.synchronize()
        pstats.Stats(prof).sort_stats("tottime").print_stats(22)


if __name__ == "__main__":
    main()
