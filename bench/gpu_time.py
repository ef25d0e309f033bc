"""Where an NPBench kernel's time goes, gnumpy and CuPy in one run: the host time of a call
(the kernel's statements and gnumpy's ``evaluate``, up to the final synchronize), the wait
at that synchronize, and from a CUPTI trace (``torch.profiler``) the GPU's kernel time and
the number of kernels and copies one call launches.

    python3 bench/gpu_time.py --kernels seidel_2d,fdtd_2d [--frameworks gnumpy,cupy]
                              [--repeat 5] [--same-inputs] [--json F]

Per kernel and framework: two warm-up calls, then ``--repeat`` timed calls (the fastest's
split reported, and the median total), then one traced call.  Each call gets fresh inputs,
as ``npbench.py``'s do; ``--same-inputs`` gives every call the same arrays (a loop calling
the kernel on its data), to tell a cost of new inputs from the kernel's own.  A call
whose host time is near its total and whose GPU time is far below it is bound by the
host; one whose wait is most of it, by the GPU.  ``--top K`` also lists each
framework's K heaviest GPU kernels and copies of the traced call (name,
count, total us), where two libraries' GPU times differ.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import npbench as nb  # noqa: E402
from libs import flatten, load_lib  # noqa: E402


def _split_call(lib, impl, info, args):
    """(host s, wait s) of one call: the statements and evaluate, then the synchronize."""
    t0 = time.perf_counter()
    ret = impl(*[args[a] for a in info["input_args"]])
    outs = [ret] + [args[a] for a in info["array_args"]]
    if lib.name == "gnumpy":
        arrs = [o for o in flatten(outs) if isinstance(o, lib.gp.ndarray)]
        if arrs:
            lib.gp.evaluate(*arrs)
    t1 = time.perf_counter()
    if lib.name == "cupy":
        lib.finish(None)
    elif lib.name == "gnumpy" and lib.cuda:
        lib.gp.cuda.synchronize()
    return t1 - t0, time.perf_counter() - t1


def _trace(lib, impl, info, args):
    """(kernels, copies, GPU kernel ms, {name: [count, us]}) of one call, from CUPTI."""
    import torch
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        _split_call(lib, impl, info, args)
        torch.cuda.synchronize()
    kern = copies = 0
    gpu_us = 0.0
    by_name: dict = {}
    for e in prof.events():
        if e.device_type.name != "CUDA":
            continue
        name = e.name.lower()
        if "memcpy" in name or "memset" in name:
            copies += 1
        else:
            kern += 1
        us = e.device_time if hasattr(e, "device_time") else e.cuda_time
        gpu_us += us
        entry = by_name.setdefault(e.name[:90], [0, 0.0])
        entry[0] += 1
        entry[1] += us
    return kern, copies, gpu_us / 1e3, by_name


def measure(name, fw, repeat, same=False):
    kernels = nb.kernels(nb.ROOT)
    info = kernels[name]
    data = nb.init_data(nb.ROOT, info, "S")
    lib = load_lib(fw)
    impl, _ = nb.implementation(nb.ROOT, info, fw)
    setup, call = nb._runner(lib, impl, info, data)
    args = setup() if same else None
    call(args if same else setup())
    call(args if same else setup())
    splits = [_split_call(lib, impl, info, args if same else setup()) for _ in range(repeat)]
    best = min(splits, key=sum)
    try:
        kern, copies, gpu_ms, by_name = _trace(lib, impl, info, setup())
    except Exception as e:      # noqa: BLE001 - no torch, no CUPTI: the split still stands
        kern = copies = gpu_ms = None
        by_name = {}
        print(f"{name} {fw}: no trace ({type(e).__name__}: {e})", file=sys.stderr)
    top = sorted(by_name.items(), key=lambda kv: -kv[1][1])
    return {"host_ms": best[0] * 1e3, "wait_ms": best[1] * 1e3,
            "total_ms": sum(best) * 1e3,
            "median_ms": statistics.median(map(sum, splits)) * 1e3,
            "kernels": kern, "copies": copies,
            "gpu_ms": gpu_ms, "top": [[k, c, round(us, 1)] for k, (c, us) in top[:40]]}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--frameworks", default="gnumpy,cupy")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--same-inputs", action="store_true",
                    help="every call on the same arrays (default: fresh inputs per call)")
    ap.add_argument("--json", default="")
    ap.add_argument("--top", type=int, default=0,
                    help="list each framework's K heaviest GPU kernels of the traced call")
    a = ap.parse_args()
    fws = a.frameworks.split(",")
    res = {}
    print("| kernel | " + " | ".join(f"{f} total / host / wait / GPU ms, kernels, median"
                                      for f in fws) + " |")
    for name in a.kernels.split(","):
        res[name] = {f: measure(name, f, a.repeat, a.same_inputs) for f in fws}

        def cell(r):
            g = "-" if r["gpu_ms"] is None else f"{r['gpu_ms']:.2f}"
            return (f"{r['total_ms']:.2f} / {r['host_ms']:.2f} / {r['wait_ms']:.2f} / {g}, "
                    f"{r['kernels']}, {r['median_ms']:.2f}")
        print(f"| {name} | " + " | ".join(cell(res[name][f]) for f in fws) + " |",
              flush=True)
        for f in fws if a.top else ():
            for k, c, us in res[name][f]["top"][:a.top]:
                print(f"    {f:7s} {us:10.1f} us {c:5d}x  {k}")
        if a.json:
            Path(a.json).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
