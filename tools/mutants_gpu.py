"""Run mutants of CUDA-only code on the GPU, each in a fresh process.

The CPU backend never runs a generated kernel, so a mutant of the renderers that still
renders compilable code and changes no golden source survives CPU CI.  This script gives
such mutants to the GPU: it runs a test subset once per mutant, in parallel processes, on
the CUDA backend, and records which the tests kill.

The mutants come from mutmut (3.x), run on the CPU machine over the same commit:

    mutmut run                                   # in a copy with the [mutmut] setup.cfg
    mutmut results --all true > results.txt      # name: status, one per line

mutmut writes the mutated tree to ``mutants/`` (every mutated function behind a trampoline
that picks the variant named by ``MUTANT_UNDER_TEST``), which runs without mutmut
installed.  Carry that directory and the results file to the GPU machine, then:

    python3 tools/mutants_gpu.py MUTANTS_DIR results.txt --out $OUT/mutants.json \\
        [--status survived,"no tests"] [--jobs 12] [--timeout 90] [--tests "ARGS"]

A mutant is *killed* when the tests fail, crash or time out (as mutmut counts), *survived*
when they pass.  The unmutated tree runs first (``MUTANT_UNDER_TEST=none``) and must pass,
which also fills the kernel cache the mutants share.  ``bench/gpu_suite.sh`` runs this when
``GPU_MUTANTS`` names the directory (``GPU_MUTANTS_RESULTS`` the results file).
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures as cf
import json
import os
import shlex
import subprocess
import sys
import time

DEFAULT_TESTS = "tests/test_kernel_paths.py"


def read_results(path: str, wanted) -> list:
    """Mutant names whose mutmut status is in `wanted`, in file order."""
    names = []
    for line in open(path):
        name, sep, status = line.strip().rpartition(": ")
        if sep and status in wanted:
            names.append(name)
    return names


def run_one(mdir: str, name: str, tests, timeout: float) -> dict:
    env = dict(os.environ, MUTANT_UNDER_TEST=name,
               PYTHONPATH=os.pathsep.join([mdir] + [p for p in os.environ.get(
                   "PYTHONPATH", "").split(os.pathsep) if p]))
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, cwd=mdir, env=env, capture_output=True, text=True,
                           timeout=timeout)
        rc, tail = p.returncode, (p.stdout + p.stderr)[-600:]
    except subprocess.TimeoutExpired:
        rc, tail = "timeout", ""
    if rc == 0:
        status = "survived"
    elif rc == 5:
        status = "no tests"
    else:
        status = "killed"          # failed (1), crashed (<0), timed out, or errored
    plain_kill = status == "killed" and rc == 1 and name != "none"   # (output not kept)
    return {"name": name, "status": status, "rc": rc,
            "seconds": round(time.perf_counter() - t0, 2), "tail": "" if plain_kill else tail}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mutants_dir")
    ap.add_argument("results")
    ap.add_argument("--status", default="survived,no tests",
                    help="mutmut statuses to run on the GPU (comma-separated)")
    ap.add_argument("--tests", default=DEFAULT_TESTS,
                    help="pytest arguments, one string (shell-split)")
    ap.add_argument("--jobs", type=int, default=12)
    ap.add_argument("--timeout", type=float, default=90.0)
    ap.add_argument("--budget", type=float, default=0.0,
                    help="stop starting mutants after this many seconds (0: no limit)")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    mdir = os.path.abspath(a.mutants_dir)
    a.tests = shlex.split(a.tests)
    names = read_results(a.results, set(a.status.split(",")))
    t0 = time.perf_counter()
    base = run_one(mdir, "none", a.tests, a.timeout * 4)
    report = {"tests": a.tests, "baseline": base, "mutants": []}
    if base["status"] != "survived":
        print("the unmutated tree fails its tests on this machine:\n" + base["tail"])
        json.dump(report, open(a.out, "w"), indent=1)
        return 1
    print(f"baseline passed in {base['seconds']} s; {len(names)} mutants", flush=True)
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        pending = {}
        it = iter(names)
        for name in it:
            pending[ex.submit(run_one, mdir, name, a.tests, a.timeout)] = name
            if len(pending) >= a.jobs * 2:
                break
        while pending:
            done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for f in done:
                del pending[f]
                report["mutants"].append(f.result())
                if a.budget and time.perf_counter() - t0 > a.budget:
                    continue
                nxt = next(it, None)
                if nxt is not None:
                    pending[ex.submit(run_one, mdir, nxt, a.tests, a.timeout)] = nxt
    ran = {m["name"] for m in report["mutants"]}
    report["not_run"] = [n for n in names if n not in ran]
    report["seconds"] = round(time.perf_counter() - t0, 1)
    json.dump(report, open(a.out, "w"), indent=1)
    by = collections.Counter()
    for m in report["mutants"]:
        by[(m["name"].split(".")[2] if m["name"].count(".") >= 3 else m["name"],
            m["status"])] += 1
    for (mod, st), c in sorted(by.items()):
        print(f"{mod:20s} {st:10s} {c}")
    print(f"{len(report['mutants'])} run, {len(report['not_run'])} not run, "
          f"{report['seconds']} s")
    for m in report["mutants"]:
        if m["status"] == "survived":
            print("survived:", m["name"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
