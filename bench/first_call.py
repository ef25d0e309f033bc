"""First-call latency of a new small fused kernel, in fresh processes.

    GNUMPY_DEVICE=cuda python3 bench/first_call.py [REPEATS]
    GNUMPY_DEVICE=cuda python3 bench/first_call.py --library [REPEATS]

Each repeat is a cold process (empty kernel cache: NVRTC compiles) followed by a warm one
(same cache directory: the cubin comes from disk).
Prints medians over the repeats; the very first process is also reported apart: on a freshly
started host it reads the NVRTC libraries from disk, which later processes find in the
page cache.  ``bench/suite.py`` records the same numbers.

``--library``: the first library call of a process, by library (a 512x512 matrix product:
cuBLAS; a 64x64 solve: cuSOLVER; a 4,096-point FFT: cuFFT; a sort of 2^20 and a
1,000-bin histogram: CUB), each kind in fresh processes after one untimed process that
fills the kernel cache: what loading the library and its bindings costs the first call.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

_CHILD = """
import json, time
t0 = time.perf_counter()
import numpy as np, gnumpy as gp
t1 = time.perf_counter()
x = gp.asarray(np.ones(1000, np.float32)); gp.cuda.synchronize()
t2 = time.perf_counter()
r = gp.exp(x) * 3.5 - gp.tanh(x); gp.evaluate(r); gp.cuda.synchronize()
t3 = time.perf_counter()
info = gp.cuda.kernel_cache_info()
print(json.dumps({"import_ms": (t1 - t0) * 1e3, "start_ms": (t2 - t1) * 1e3,
                  "first_ms": (t3 - t2) * 1e3,
                  "compile_ms": (info.get("last_compile_seconds") or 0) * 1e3}))
"""


def _process(env):
    out = subprocess.check_output([sys.executable, "-c", _CHILD], env=env)
    return json.loads(out.decode().strip().splitlines()[-1])


def measure(reps=3):
    """{'cold_ms', 'warm_disk_ms' (medians), 'compile_ms' (NVRTC inside the cold call),
    'start_ms' (backend start before it), 'runs': [(cold, warm), ...]}."""
    runs = []
    for _ in range(reps):
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ, GNUMPY_CACHE_DIR=d)
            runs.append((_process(env), _process(env)))
    return {"cold_ms": statistics.median(c["first_ms"] for c, _ in runs),
            "warm_disk_ms": statistics.median(w["first_ms"] for _, w in runs),
            "compile_ms": statistics.median(c["compile_ms"] for c, _ in runs),
            "start_ms": statistics.median(c["start_ms"] for c, _ in runs),
            "runs": [(c["first_ms"], w["first_ms"]) for c, w in runs]}


_LIBRARY_CHILD = """
import json, sys, time
import numpy as np, gnumpy as gp
rng = np.random.default_rng(0)
kind = sys.argv[1]
if kind == "matmul":
    a, b = gp.asarray(rng.random((512, 512))), gp.asarray(rng.random((512, 512)))
    f = lambda: a @ b
elif kind == "solve":
    a, b = gp.asarray(rng.random((64, 64)) + 64 * np.eye(64)), gp.asarray(rng.random(64))
    f = lambda: gp.linalg.solve(a, b)
elif kind == "fft":
    a = gp.asarray(rng.random(4096))
    f = lambda: gp.fft.fft(a)
elif kind == "sort":
    a = gp.asarray(rng.random(1 << 20))
    f = lambda: gp.sort(a)
else:
    a = gp.asarray(rng.random(400000))
    f = lambda: gp.histogram(a, 1000)[0]
gp.evaluate(a); gp.cuda.synchronize()
t = time.perf_counter(); gp.evaluate(f()); gp.cuda.synchronize()
t1 = time.perf_counter(); gp.evaluate(f()); gp.cuda.synchronize()
t2 = time.perf_counter()
print(json.dumps({"first_s": t1 - t, "second_s": t2 - t1}))
"""
LIBRARY_KINDS = ("matmul", "solve", "fft", "sort", "hist")


def library(reps=2):
    """{kind: {'first_s': [per process], 'second_s': [...]}}: each kind's first call in
    `reps` fresh processes (the kernel cache filled by an untimed process before)."""
    out = {}
    for kind in LIBRARY_KINDS:
        subprocess.check_output([sys.executable, "-c", _LIBRARY_CHILD, kind])
        for _ in range(reps):
            r = json.loads(subprocess.check_output(
                [sys.executable, "-c", _LIBRARY_CHILD, kind]).decode().splitlines()[-1])
            e = out.setdefault(kind, {"first_s": [], "second_s": []})
            e["first_s"].append(r["first_s"])
            e["second_s"].append(r["second_s"])
        print(f"{kind:7s} first call " + ", ".join(f"{v:.3f}" for v in out[kind]["first_s"])
              + " s; second " + ", ".join(f"{v * 1e3:.2f}" for v in out[kind]["second_s"])
              + " ms", flush=True)
    return out


def main():
    if sys.argv[1:2] == ["--library"]:
        r = library(int(sys.argv[2]) if len(sys.argv) > 2 else 2)
        if os.environ.get("OUT"):
            with open(os.path.join(os.environ["OUT"], "first_library_call.json"), "w") as f:
                json.dump(r, f, indent=1)
        return
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    results = {}
    for name in ("default",):
        r = results[name] = measure(reps)
        print(f"{name:13s} cold first call {r['cold_ms']:6.1f} ms (NVRTC {r['compile_ms']:5.1f}; "
              f"backend start before it {r['start_ms']:5.0f})  warm disk cache "
              f"{r['warm_disk_ms']:5.2f} ms; runs (cold, warm) "
              + ", ".join(f"({c:.1f}, {w:.2f})" for c, w in r["runs"]), flush=True)
    if os.environ.get("OUT"):
        with open(os.path.join(os.environ["OUT"], "first_call.json"), "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
