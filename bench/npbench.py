"""NPBench (github.com/spcl/npbench): its NumPy kernels run unchanged with ``numpy`` bound
to gnumpy, checked against NumPy as NPBench checks them, and timed beside NumPy and CuPy.

    python3 bench/npbench.py [--budget 540] [--preset S] [--kernels 'gemm,jacobi*']
                             [--frameworks numpy,gnumpy,cupy] [--kernel-timeout 60] [--out F]
    python3 bench/npbench.py --cold [...]      (issue 16: first runs in fresh processes)
    GNUMPY_DEVICE=cpu python3 bench/npbench.py --budget 300        (CPU backend, no CuPy)

NPBench's files (``bench_info/*.json``, ``npbench/benchmarks/``) are read from
``.npbench/`` at the repository root (git-ignored; ``--npbench DIR`` or $NPBENCH_DIR
elsewhere).  Per kernel, as NPBench does it: the preset's parameters go through the
kernel's ``initialize`` (real NumPy); every framework gets fresh copies of the array
arguments before each call (not timed); a call is timed to its end (gnumpy: ``evaluate`` of
the returned arrays and of every array argument, then ``cuda.synchronize``; CuPy: device
synchronize).  The first call is the warm-up and the validation run (its time is reported:
it includes compiles; without NumPy among the frameworks, NumPy's outputs come from one
untimed call, unless ``--no-check``); then the median of ``--repeat`` (5) calls, the frameworks' calls
interleaved round by round (a host's drift slows them alike).  Validation is NPBench's
``utilities.validate``: ``np.allclose(ref, val, rtol, atol)`` per output, else a relative
Frobenius error below ``norm_error``, with the kernel's own rtol/atol/norm_error when its
bench_info has them (1e-5, 1e-8, 1e-5 otherwise); the outputs are the returned values then
the kernel's ``output_args``.  gnumpy runs the ``*_numpy.py`` file with its ``numpy``
imports resolved to gnumpy (a private ``__import__`` in the module's builtins: NumPy itself
is untouched); CuPy runs NPBench's ``*_cupy.py`` where it exists, else the NumPy file bound
to cupy the same way.  A kernel whose warm-up runs past ``--kernel-timeout`` seconds is cut
off (SIGALRM) and skipped for that framework.

``--cold``: each kernel's first call in a fresh process per framework with an empty kernel
cache (GNUMPY_CACHE_DIR and CUPY_CACHE_DIR set to new temporary directories): import,
setup (context, uploads), first-call and second-call seconds, and for gnumpy the kernels it
compiled (``gnumpy.kernels.cache.counters``: misses and NVRTC seconds) and the files each
library left in its cache directory.

JSON is written after every kernel (default ``npbench.json`` / ``npbench_cold.json``, under
$OUT when set); a table and the summary counts end the run.
"""
from __future__ import annotations

import argparse
import builtins
import contextlib
import fnmatch
import importlib
import importlib.util
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from libs import (Budget, CaseTimeout, default_out, err_str, flatten,  # noqa: E402
                  load_lib, versions)

ROOT = os.environ.get("NPBENCH_DIR") or os.path.join(os.path.dirname(HERE), ".npbench")
FRAMEWORKS = ("numpy", "gnumpy", "cupy")


# ------------------------------------------------------------------ NPBench's files

def kernels(root) -> dict:
    """{bench_info file stem: its "benchmark" dict}, sorted by name."""
    d = os.path.join(root, "bench_info")
    out = {}
    for f in sorted(os.listdir(d)):
        if f.endswith(".json"):
            with open(os.path.join(d, f)) as fh:
                out[f[:-5]] = json.load(fh)["benchmark"]
    return out


def _path(root, info, postfix=None) -> str:
    m = info["module_name"] + (f"_{postfix}" if postfix else "")
    return os.path.join(root, "npbench", "benchmarks", *info["relative_path"].split("/"),
                        m + ".py")


def _bound_builtins(target: str) -> dict:
    """Builtins whose ``__import__`` resolves ``numpy`` and ``numpy.*`` to `target`."""
    real = builtins.__import__
    top = importlib.import_module(target)

    def imp(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and (name == "numpy" or name.startswith("numpy.")):
            mod = real(target + name[5:], globals, locals, fromlist, level)
            return mod if fromlist else top
        return real(name, globals, locals, fromlist, level)
    b = dict(builtins.__dict__)
    b["__import__"] = imp
    return b


def load_module(path, tag, bind=None):
    """The module in file `path` (a private module object, not in sys.modules); with
    `bind`, its ``numpy`` imports give the module named `bind`."""
    name = "npb_" + tag + "_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    if bind is not None:
        mod.__dict__["__builtins__"] = _bound_builtins(bind)
    spec.loader.exec_module(mod)
    return mod


def implementation(root, info, fw):
    """(callable, how it was bound) of kernel `info` for framework `fw`."""
    if fw == "numpy":
        path, bind, how = _path(root, info, "numpy"), None, "numpy"
    elif fw == "gnumpy":
        path, bind, how = _path(root, info, "numpy"), "gnumpy", "_numpy.py bound to gnumpy"
    else:
        path, bind, how = _path(root, info, "cupy"), None, "_cupy.py"
        if not os.path.exists(path):
            path, bind, how = _path(root, info, "numpy"), "cupy", "_numpy.py bound to cupy"
    return getattr(load_module(path, fw, bind), info["func_name"]), how


def init_data(root, info, preset) -> dict:
    """NPBench's Benchmark.get_data: the preset's parameters plus the outputs of the
    kernel's ``initialize`` (real NumPy)."""
    if preset not in info["parameters"]:
        raise NotImplementedError(f"{info['short_name']} has no {preset} preset")
    data = dict(info["parameters"][preset])
    init = info.get("init")
    if init:
        mod = load_module(_path(root, info), "init")
        vals = getattr(mod, init["func_name"])(*[data[a] for a in init["input_args"]])
        names = init["output_args"]
        if len(names) == 1:
            vals = (vals,)
        data.update(zip(names, vals))
    return data


def validate(ref, val, info):
    """NPBench's utilities.validate: (valid, largest relative error, message)."""
    rtol, atol = info.get("rtol", 1e-5), info.get("atol", 1e-8)
    norm_error = info.get("norm_error", 1e-5)
    if len(ref) != len(val):
        return False, None, f"{len(val)} outputs, NumPy gives {len(ref)}"
    valid, worst, msg = True, 0.0, ""
    for i, (r, v) in enumerate(zip(ref, val)):
        r, v = np.asarray(r), np.asarray(v)
        if r.shape != v.shape:
            return False, None, f"output {i}: shape {v.shape}, NumPy gives {r.shape}"
        if np.allclose(r, v, rtol=rtol, atol=atol):
            continue
        nr = np.linalg.norm(r)
        rel = float(np.linalg.norm(r - v) / nr) if nr else float("inf")
        worst = max(worst, rel)
        if not rel < norm_error:        # NaN counts as an error, as in NPBench
            valid = False
            msg = msg or f"output {i}: relative error {rel:.3g}"
    return valid, worst, msg


# ------------------------------------------------------------------ running one framework

def _runner(lib, impl, info, data):
    """(setup, call): fresh copies of the arguments; the call to the end of its work."""
    arrays = set(info["array_args"])

    def setup():
        return {a: lib.put(np.array(data[a], copy=True)) if a in arrays else data[a]
                for a in info["input_args"]}

    def call(args):
        ret = impl(*[args[a] for a in info["input_args"]])
        lib.finish([ret] + [args[a] for a in info["array_args"]])
        return ret
    return setup, call


def outputs(lib, ret, args, info) -> list:
    """NPBench's outputs (the returned values, then the output_args) on the host."""
    out = list(ret) if isinstance(ret, (tuple, list)) else [] if ret is None else [ret]
    out += [args[a] for a in info["output_args"]]
    return [lib.host(o) for o in flatten(out)]


def warm_framework(lib, root, info, data, args, budget):
    """One framework's first call of one kernel: ({first_s, impl | error}, host outputs of
    that call, (setup, call) for the timed calls or None)."""
    rec = {}
    try:
        with budget.limit(args.kernel_timeout):
            impl, rec["impl"] = implementation(root, info, lib.name)
            setup, call = _runner(lib, impl, info, data)
            a = setup()
            t0 = time.perf_counter()
            ret = call(a)
            rec["first_s"] = time.perf_counter() - t0
            out = outputs(lib, ret, a, info)
    except CaseTimeout as e:
        rec["error"] = f"warm-up: {e}"
        return rec, None, None
    except Exception as e:          # noqa: BLE001
        rec["error"] = err_str(e)
        return rec, None, None
    return rec, out, (setup, call)


def timed_calls(runs, args, budget, share):
    """The timed calls of the frameworks that warmed up ({name: (setup, call)}),
    interleaved: each round calls every framework once, in an order that rotates, so a
    host whose speed drifts while a kernel runs (other tenants, clocks) slows them alike.
    Rounds stop at ``--repeat`` or once they have used `share` seconds, or a second when
    that is more (the warm-ups of a kernel of a few milliseconds can use its whole share:
    it still gets its rounds).  Returns
    ({name: [seconds]}, {name: error})."""
    names = list(runs)
    ts = {n: [] for n in names}
    errors = {}
    cur = None              # the framework whose call runs (a timeout is its error)
    try:
        with budget.limit(max(args.kernel_timeout, 1.0) * (args.repeat + 1) * len(names)):
            for r in range(args.repeat):
                live = [n for n in names if n not in errors]
                last = sum(ts[n][-1] for n in live if ts[n])
                if not live or r and (budget.remaining() < 2 * last or
                                      sum(map(sum, ts.values())) > max(share, 1.0)):
                    break
                k = r % len(live)
                for n in live[k:] + live[:k]:
                    cur = n
                    setup, call = runs[n]
                    try:
                        a = setup()
                        t0 = time.perf_counter()
                        call(a)
                        ts[n].append(time.perf_counter() - t0)
                    except Exception as e:      # noqa: BLE001
                        errors[n] = "timed runs: " + err_str(e)
                    cur = None
    except CaseTimeout as e:
        for n in [cur] if cur is not None else names:
            errors.setdefault(n, "timed runs: " + err_str(e))
    return ts, errors


def _reference(info, data, args, budget, rec):
    """NumPy's outputs of one untimed call, to check the frameworks against when NumPy is
    not one of them (None, noted in `rec`, when that call fails)."""
    try:
        with budget.limit(args.kernel_timeout):
            np_lib = load_lib("numpy")
            impl, _ = implementation(args.npbench, info, "numpy")
            setup, call = _runner(np_lib, impl, info, data)
            a = setup()
            return outputs(np_lib, call(a), a, info)
    except (Exception, CaseTimeout) as e:   # noqa: BLE001
        rec["reference_error"] = err_str(e)
        return None


def run_kernel(name, info, libs, args, budget, share):
    rec = {"short_name": info["short_name"]}
    try:
        with budget.limit(args.kernel_timeout):
            data = init_data(args.npbench, info, args.preset)
    except (Exception, CaseTimeout) as e:   # noqa: BLE001
        rec["error"] = "initialize: " + err_str(e)
        return rec
    ref = None if any(lib.name == "numpy" for lib in libs) or args.no_check else \
        _reference(info, data, args, budget, rec)
    runs = {}
    for lib in libs:
        r, out, run = warm_framework(lib, args.npbench, info, data, args, budget)
        if lib.name == "numpy":
            ref = out
        elif out is not None and ref is not None:
            try:
                r["valid"], r["rel_error"], msg = validate(ref, out, info)
                if msg:
                    r["mismatch"] = msg
            except Exception as e:      # noqa: BLE001
                r["valid"], r["mismatch"] = False, "validation: " + err_str(e)
        rec[lib.name] = r
        if run is not None:
            runs[lib.name] = run
    ts, errors = timed_calls(runs, args, budget, share - sum(
        rec[n].get("first_s", 0) for n in runs))
    for n, t in ts.items():
        if t:
            rec[n]["median_s"], rec[n]["reps"] = statistics.median(t), len(t)
            rec[n]["times_s"] = [round(x, 6) for x in t]
        if n in errors:
            rec[n]["error"] = errors[n]
    for lib in libs:
        with contextlib.suppress(Exception):
            lib.free()
    g = rec.get("gnumpy", {}).get("median_s")
    for peer in ("cupy", "numpy"):
        p = rec.get(peer, {}).get("median_s")
        if g and p:
            rec[f"gnumpy_over_{peer}"] = g / p
    return rec


# ------------------------------------------------------------------ --cold

def child(args):
    """One framework's first calls of one kernel in this fresh process (--cold)."""
    info = kernels(args.npbench)[args.child]
    res = {}
    try:
        t0 = time.perf_counter()
        lib = load_lib(args.child_fw, log=lambda s: None)
        if lib is None:
            raise RuntimeError(f"{args.child_fw} unavailable")
        res["import_s"] = time.perf_counter() - t0
        data = init_data(args.npbench, info, args.preset)
        impl, res["impl"] = implementation(args.npbench, info, lib.name)
        setup, call = _runner(lib, impl, info, data)
        t0 = time.perf_counter()
        a = setup()
        res["setup_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        ret = call(a)
        res["first_s"] = time.perf_counter() - t0
        if lib.name == "gnumpy":
            res.update(_gnumpy_builds())
        out = outputs(lib, ret, a, info)
        a = setup()
        t0 = time.perf_counter()
        call(a)
        res["second_s"] = time.perf_counter() - t0
        ref_impl, _ = implementation(args.npbench, info, "numpy")
        np_lib = load_lib("numpy")
        s2, c2 = _runner(np_lib, ref_impl, info, data)
        a2 = s2()
        ref = outputs(np_lib, c2(a2), a2, info)
        res["valid"], res["rel_error"], msg = validate(ref, out, info)
        if msg:
            res["mismatch"] = msg
    except Exception as e:      # noqa: BLE001
        res["error"] = err_str(e)
    print("NPB_CHILD " + json.dumps(res), flush=True)


def _gnumpy_builds() -> dict:
    """gnumpy's kernel-cache counters (misses = NVRTC compiles) and the CUB algorithms and
    cuFFT plans its library layer holds (all built in this process under --cold)."""
    from gnumpy.kernels import cache
    out = {"gnumpy_cache": cache.counters.as_dict()}
    with contextlib.suppress(Exception):
        from gnumpy._device import _backends
        lbs = [b._libs for b in _backends.values() if getattr(b, "_libs", None)]
        out["cub_algorithms"] = sum(len(lb._cub) for lb in lbs)
        out["fft_plans"] = sum(len(lb._plans) for lb in lbs)
    return out


def _files(d) -> int:
    return sum(len(fs) for _, _, fs in os.walk(d))


def cold_kernel(name, fws, args, budget):
    rec = {}
    for fw in fws:
        d = tempfile.mkdtemp(prefix=f"npb-cold-{fw}-")
        env = dict(os.environ, GNUMPY_CACHE_DIR=os.path.join(d, "gnumpy"),
                   CUPY_CACHE_DIR=os.path.join(d, "cupy"))
        cmd = [sys.executable, os.path.abspath(__file__), "--child", name, "--child-fw", fw,
               "--preset", args.preset, "--npbench", args.npbench]
        timeout = min(args.kernel_timeout, budget.remaining())
        t0 = time.perf_counter()
        try:
            if timeout <= 0:
                raise subprocess.TimeoutExpired(cmd, 0)
            p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
            line = [s for s in p.stdout.splitlines() if s.startswith("NPB_CHILD ")]
            if line:
                r = json.loads(line[-1][10:])
            else:
                r = {"error": f"exit {p.returncode}: " + (p.stderr.strip().splitlines()
                                                          or ["no output"])[-1][:300]}
        except subprocess.TimeoutExpired:
            r = {"error": f"timed out after {timeout:.0f} s"}
        r["process_s"] = time.perf_counter() - t0
        r["gnumpy_cache_files"] = _files(os.path.join(d, "gnumpy"))
        r["cupy_cache_files"] = _files(os.path.join(d, "cupy"))
        shutil.rmtree(d, ignore_errors=True)
        rec[fw] = r
    return rec


# ------------------------------------------------------------------ tables

def _ms(r, key="median_s"):
    v = r.get(key)
    return f"{v * 1e3:.3f}" if v is not None else ("error" if "error" in r else "")


def _ok(r):
    return "" if "valid" not in r else "ok" if r["valid"] else "NO"


def table(res) -> list:
    lines = ["| kernel | NumPy ms | CuPy ms | gnumpy ms | gnumpy/CuPy | gnumpy/NumPy | "
             "gnumpy first ms | gnumpy ok | CuPy ok |", "|---|---|---|---|---|---|---|---|---|"]
    for name, r in res["kernels"].items():
        g, c, n = r.get("gnumpy", {}), r.get("cupy", {}), r.get("numpy", {})
        rc, rn = r.get("gnumpy_over_cupy"), r.get("gnumpy_over_numpy")
        lines.append(f"| {name} | {_ms(n)} | {_ms(c)} | {_ms(g)} | "
                     f"{'' if rc is None else f'{rc:.2f}'} | {'' if rn is None else f'{rn:.2f}'}"
                     f" | {_ms(g, 'first_s')} | {_ok(g)} | {_ok(c)} |")
    return lines


def summary(res) -> dict:
    ks = res["kernels"].values()
    return {"kernels": len(res["kernels"]), "of": res["total"],
            "gnumpy_faster_than_cupy": sum(r.get("gnumpy_over_cupy", 9) < 1 for r in ks),
            "gnumpy_faster_than_numpy": sum(r.get("gnumpy_over_numpy", 9) < 1 for r in ks),
            "gnumpy_matches_numpy": sum(r.get("gnumpy", {}).get("valid") is True for r in ks),
            "cupy_faster_than_numpy": sum(
                r.get("cupy", {}).get("median_s", 1e9) < r.get("numpy", {}).get("median_s", 0)
                for r in ks),
            "cupy_matches_numpy": sum(r.get("cupy", {}).get("valid") is True for r in ks)}


def problems(res) -> list:
    out = []
    for name, r in res["kernels"].items():
        if "error" in r:
            out.append(f"{name}: {r['error']}")
        for fw in FRAMEWORKS:
            x = r.get(fw, {})
            if "error" in x:
                out.append(f"{name} [{fw}]: {x['error'].splitlines()[0][:200]}")
            elif x.get("valid") is False:
                out.append(f"{name} [{fw}]: mismatch ({x.get('mismatch', '')})")
    return out


def cold_table(res) -> list:
    lines = ["| kernel | gnumpy first s | compiles | NVRTC s | CUB builds | gnumpy 2nd ms | "
             "CuPy first s | CuPy cache files | CuPy 2nd ms | ok (gnumpy/CuPy) |",
             "|---|---|---|---|---|---|---|---|---|---|"]

    def s(x, k):
        return f"{x[k]:.3f}" if k in x else ("error" if "error" in x else "")
    for name, r in res["kernels"].items():
        g, c = r.get("gnumpy", {}), r.get("cupy", {})
        gc = g.get("gnumpy_cache", {})
        cells = [name, s(g, "first_s"), gc.get("misses", ""),
                 f"{gc['compile_seconds']:.2f}" if gc else "", g.get("cub_algorithms", ""),
                 _ms(g, "second_s"), s(c, "first_s"), c.get("cupy_cache_files", ""),
                 _ms(c, "second_s"), f"{_ok(g)}/{_ok(c)}"]
        lines.append("| " + " | ".join(str(x) for x in cells) + " |")
    return lines


def cold_summary(res) -> dict:
    out = {}
    for fw in res["frameworks"]:
        fs = [r[fw]["first_s"] for r in res["kernels"].values() if "first_s" in r.get(fw, {})]
        if fs:
            out[fw] = {"kernels": len(fs), "total_first_s": sum(fs),
                       "median_first_s": statistics.median(fs)}
    ms = [r["gnumpy"]["gnumpy_cache"]["misses"] for r in res["kernels"].values()
          if "gnumpy_cache" in r.get("gnumpy", {})]
    if ms and "gnumpy" in out:
        out["gnumpy"]["compiles"] = sum(ms)
    return out


# ------------------------------------------------------------------ main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", type=float, default=540.0)
    ap.add_argument("--preset", default="S")
    ap.add_argument("--kernels", default="", help="comma-separated names (bench_info file "
                    "stems or NPBench short names) or glob patterns")
    ap.add_argument("--frameworks", default=",".join(FRAMEWORKS))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-check", action="store_true", help="without NumPy among the "
                    "frameworks, skip the untimed NumPy call that checks the others")
    ap.add_argument("--kernel-timeout", type=float, default=60.0,
                    help="seconds for one framework's warm-up of one kernel (--cold: for "
                    "its whole process)")
    ap.add_argument("--cold", action="store_true")
    ap.add_argument("--npbench", default=ROOT, help="NPBench's files (bench_info/, npbench/)")
    ap.add_argument("--out", default=None)
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--child-fw", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(args)
    budget = Budget(args.budget)
    allk = kernels(args.npbench)
    pats = [p for p in args.kernels.split(",") if p]
    names = [k for k, i in allk.items() if not pats or any(
        fnmatch.fnmatch(k, p) or fnmatch.fnmatch(i["short_name"], p) for p in pats)]
    want = [f for f in args.frameworks.split(",") if f]
    out_path = args.out or default_out("npbench_cold.json" if args.cold else "npbench.json")
    lines = []

    def log(s):
        print(s, flush=True)
        lines.append(s)
    res = {"script": "npbench", "mode": "cold" if args.cold else "warm", "preset": args.preset,
           "host": platform.node(), "started": time.strftime("%Y-%m-%d %H:%M:%S"),
           "total": len(allk), "kernels": {}, "log": lines}
    if args.cold:
        fws = [f for f in want if f != "numpy" and (
            f == "gnumpy" or importlib.util.find_spec(f) is not None)]
        res["frameworks"] = fws
    else:
        libs = [lib for lib in (load_lib(f, log) for f in FRAMEWORKS if f in want) if lib]
        res["frameworks"] = [lib.name for lib in libs]
        res["versions"] = versions(libs)

    def save():
        with open(out_path, "w") as f:
            json.dump(res, f, indent=1)
    log(f"{len(names)} kernels, preset {args.preset}, frameworks {res['frameworks']}, "
        f"budget {args.budget:.0f} s, results in {out_path}")
    for i, name in enumerate(names):
        if budget.remaining() < 5:
            log(f"budget spent: stopped before {name}")
            res["stopped_before"] = name
            break
        t0 = time.perf_counter()
        if args.cold:
            rec = cold_kernel(name, fws, args, budget)
        else:
            share = budget.remaining() / (len(names) - i)      # the timed calls' fair share
            rec = run_kernel(name, allk[name], libs, args, budget, share)
        rec["wall_s"] = time.perf_counter() - t0
        res["kernels"][name] = rec
        parts = []
        for fw in res["frameworks"]:
            x = rec.get(fw, {})
            t = x.get("first_s" if args.cold else "median_s")
            parts.append(f"{fw} " + (f"{t * 1e3:9.3f} ms" if t is not None else "    error   ")
                         + ("" if "valid" not in x else " ok" if x["valid"] else " NO"))
        log(f"{name:26s} " + "  ".join(parts) + f"  ({rec['wall_s']:.1f} s) "
            + rec.get("error", ""))
        save()
    res["table"] = cold_table(res) if args.cold else table(res)
    res["problems"] = problems(res)
    res["summary"] = cold_summary(res) if args.cold else summary(res)
    save()
    print("\n" + "\n".join(res["table"]))
    if res["problems"]:
        print("\nerrors and mismatches:\n  " + "\n  ".join(res["problems"]))
    if args.cold:
        for fw, x in res["summary"].items():
            print(f"{fw}: first calls of {x['kernels']} kernels in fresh processes: "
                  f"{x['total_first_s']:.1f} s in all, median {x['median_first_s']:.3f} s"
                  + (f"; {x['compiles']} kernels compiled" if "compiles" in x else ""))
    else:
        s = res["summary"]
        print(f"\n{s['kernels']} of {s['of']} kernels run: gnumpy faster than CuPy on "
              f"{s['gnumpy_faster_than_cupy']}, faster than NumPy on "
              f"{s['gnumpy_faster_than_numpy']}, matches NumPy on {s['gnumpy_matches_numpy']}"
              f" (CuPy: faster than NumPy on {s['cupy_faster_than_numpy']}, matches NumPy on "
              f"{s['cupy_matches_numpy']})")


if __name__ == "__main__":
    main()
