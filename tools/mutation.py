"""The mutation score of the modules that decide results (mutmut 3.x on the CPU backend).

    python3 tools/mutation.py GROUP [--workdir DIR] [--children 2]
    python3 tools/mutation.py --list

For one module group it copies the committed tree (``git archive HEAD``) to a work
directory, writes mutmut's setup there (mutate only the group's files, run only the group's
tests), runs ``mutmut run``, and then re-runs every mutant mutmut reports as surviving in a
fresh process (``MUTANT_UNDER_TEST=<name> pytest -x``): mutmut forks its test runs from a
process that has already imported gnumpy, so state built before the fork (the backend, its
caches) hides some kills.  The report (``DIR/report.json``, and a table on stdout) gives
killed / survived / no-tests per file and the survivors' names; ``mutmut show NAME`` in the
work directory prints one mutant's diff.

Mutants of the CUDA renderers that survive here (the CPU backend never runs a generated
kernel) go to the GPU machine: ``tools/mutants_gpu.py`` runs them there against the GPU
tests.  Scores and the survivors' reasons are in docs/mutation.md.
"""
from __future__ import annotations

import argparse
import collections
import glob
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]

# group -> (files mutated, test selection: files and extra pytest arguments)
GROUPS = {
    "broadcast": (["gnumpy/_broadcast.py"],
                  ["tests/test_broadcast_rules.py", "tests/test_promotion.py"]),
    "dtypes": (["gnumpy/_dtypes.py"],
               ["tests/test_promotion.py", "tests/test_broadcast_rules.py"]),
    "layout": (["gnumpy/_graph/layout.py"],
               ["tests/test_layout_mutants.py", "tests/test_views.py",
                "tests/test_views_shape_ops.py", "tests/test_views_memory.py"]),
    "viewmem": (["gnumpy/_viewmem.py"],
                ["tests/test_views.py", "tests/test_views_shape_ops.py",
                 "tests/test_views_memory.py", "tests/test_aliasing.py",
                 "tests/test_replay.py"]),
    "ops": (["gnumpy/_ops.py"],
            ["tests/test_ops_mutants.py", "tests/test_elementwise.py",
             "tests/test_elementwise_functions.py", "tests/test_ufuncs.py",
             "tests/test_reductions.py", "tests/test_promotion.py",
             "tests/test_operators.py", "tests/test_special_inputs.py"]),
    "fuse": (["gnumpy/_graph/fuse.py"],
             ["tests/test_fuse_mutants.py", "tests/test_fuse_schedule_mutants.py"]),
    "cpu": (["gnumpy/backends/cpu.py", "gnumpy/backends/cpu_fast.py"],
            ["tests/test_cpu_backend_mutants.py", "tests/test_cpu_replay_mutants.py",
             "tests/test_creation.py", "-k",
             "cpu_backend_mutants or cpu_replay_mutants or asarray"]),
    "lower": (["gnumpy/kernels/lower.py"],
              ["tests/test_kernels.py", "tests/test_kernel_layouts.py",
               "tests/test_plan_keys.py", "tests/test_config_codegen.py",
               "tests/test_lower_mutants.py", "-k",
               "(golden and not compile) or kernel_layouts or plan_keys or "
               "config_codegen or memory_hints or lower_mutants"]),
    "renderers": (["gnumpy/kernels/codegen.py", "gnumpy/kernels/lower.py",
                   "gnumpy/kernels/render_ew.py", "gnumpy/kernels/render_index.py"],
                  ["tests/test_kernels.py", "tests/test_kernel_layouts.py",
                   "tests/test_plan_keys.py", "tests/test_config_codegen.py", "-k",
                   "(golden and not compile) or kernel_layouts or plan_keys or "
                   "config_codegen or memory_hints"]),
}


def _setup_cfg(files, tests) -> str:
    others = sorted(p for p in glob.glob("gnumpy/**/*.py", root_dir=ROOT, recursive=True)
                    if p not in files)
    lines = ["[mutmut]", "source_paths=gnumpy/", "do_not_mutate="]
    lines += [f"    {p}" for p in others]
    lines += ["pytest_add_cli_args=", "    -q", "    -p", "    no:cacheprovider",
              "pytest_add_cli_args_test_selection="] + [f"    {t}" for t in tests]
    lines += ["also_copy=", "    tests/", "    bench/", "    tools/", "    array_api_compat/",
              "    pyproject.toml"]
    return "\n".join(lines) + "\n"


def _results(wd) -> dict:
    out = subprocess.run(["mutmut", "results", "--all", "true"], cwd=wd, text=True,
                         capture_output=True, check=True).stdout
    res = {}
    for line in out.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep:
            res[name] = status
    return res


def _fresh(wd, name, tests, env) -> bool:
    """Does the mutant survive its tests in a fresh process?"""
    e = dict(env, MUTANT_UNDER_TEST=name)
    p = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                        *tests], cwd=os.path.join(wd, "mutants"), env=e,
                       capture_output=True, timeout=600)
    return p.returncode == 0


def _file_of(name: str) -> str:
    return name.split(".x")[0].replace(".", "/") + ".py"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("group", nargs="?", choices=sorted(GROUPS))
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--workdir")
    ap.add_argument("--children", type=int, default=2)
    ap.add_argument("--no-run", action="store_true",
                    help="only re-check and report an existing run in --workdir")
    ap.add_argument("--no-recheck", action="store_true",
                    help="report mutmut's statuses as they are (the renderers' survivors "
                         "are re-run on the GPU machine, in fresh processes, instead)")
    a = ap.parse_args(argv)
    if a.list or not a.group:
        for g, (files, tests) in GROUPS.items():
            print(f"{g:10s} {' '.join(files)}\n{'':10s} tests: {' '.join(tests)}")
        return 0
    files, tests = GROUPS[a.group]
    wd = os.path.abspath(a.workdir or f"/tmp/gnumpy-mutation-{a.group}")
    env = dict(os.environ, GNUMPY_DEVICE="cpu", GNUMPY_CACHE_DIR=os.path.join(wd, ".gnc"))
    if not a.no_run:
        subprocess.run(["rm", "-rf", wd], check=True)
        os.makedirs(wd)
        subprocess.run(f"git archive HEAD | tar -x -C {wd}", shell=True, cwd=ROOT,
                       check=True)
        pathlib.Path(wd, "setup.cfg").write_text(_setup_cfg(files, tests))
        # the conftest asks for the device at import; under mutmut's forced-failure check
        # a mutated backend function raises there, before any test, so it is guarded
        conf = pathlib.Path(wd, "tests/conftest.py")
        conf.write_text(conf.read_text().replace(
            "_KERNEL_CHECKS = _enable_kernel_checks()",
            "try:\n    _KERNEL_CHECKS = _enable_kernel_checks()\n"
            "except Exception as e:  # noqa: BLE001\n    _KERNEL_CHECKS = repr(e)"))
        subprocess.run(["mutmut", "run", "--max-children", str(a.children)], cwd=wd, env=env,
                       stdout=subprocess.DEVNULL)
    res = _results(wd)
    rechecked = 0
    for name, st in res.items():
        if st == "survived" and not a.no_recheck:
            rechecked += 1
            if not _fresh(wd, name, tests, env):
                res[name] = "killed"
    table = collections.defaultdict(collections.Counter)
    for name, st in res.items():
        table[_file_of(name)][st] += 1
    report = {"group": a.group, "files": files, "tests": tests, "rechecked": rechecked,
              "table": {f: dict(c) for f, c in table.items()},
              "survivors": sorted(n for n, s in res.items() if s != "killed")}
    json.dump(report, open(os.path.join(wd, "report.json"), "w"), indent=1)
    tot = collections.Counter()
    for f, c in sorted(table.items()):
        tot.update(c)
        n = sum(c.values())
        print(f"{f:36s} {c['killed']:5d}/{n:<5d} killed ({100 * c['killed'] / n:5.1f}%)  "
              + ", ".join(f"{k} {v}" for k, v in c.items() if k != "killed"))
    n = sum(tot.values())
    print(f"{'total':36s} {tot['killed']:5d}/{n:<5d} killed ({100 * tot['killed'] / n:5.1f}%)"
          f"; {rechecked} reported survivors re-run in fresh processes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
