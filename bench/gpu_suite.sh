#!/usr/bin/env bash
# The GPU machine's one call: the full test suite on the CUDA backend, the SAXPY example,
# a quick GPU benchmark (gnumpy vs CuPy/PyTorch in the same run, 2^24 elements) and the
# kernels of many inputs with and without the register budget (bench/many_inputs.py).  Logs
# and JSON go under $OUT; a summary is printed last.  The full side-by-side benchmark is
# bench/suite.py (issue 5), a call of its own.
#
#   bench/gpu_suite.sh              (device tool: command "bash bench/gpu_suite.sh")
set -u
OUT=${OUT:-/tmp/gnumpy-gpu-out}
mkdir -p "$OUT"
cd "$(dirname "$0")/.."
. bench/device_env.sh     # the carried library wheels, GNUMPY_DEVICE=cuda, the kernel cache
{ nvidia-smi -L; python3 -c "import numpy, cuda.core, cuda.bindings; print('numpy', numpy.__version__, 'cuda.core', cuda.core.__version__)"; } > "$OUT/env.txt" 2>&1
# The suite is NVRTC-bound on a fresh machine (every kernel compiles once, ~38,000 of them):
# 16 workers and 4 hypothesis examples per test.  TESTS picks files, so the suite can be
# split over two device calls; the kernel cache in .gnc/ (git-ignored) is kept when the
# second call finds the machine still warm.
export GNUMPY_TEST_EXAMPLES=${GNUMPY_TEST_EXAMPLES:-4}
export GNUMPY_TEST_TIMING="$OUT/timing"   # per-test seconds and NVRTC seconds, streamed
export GNUMPY_TEST_PROFILE="$OUT/gw0.prof" # cProfile of worker gw0, rewritten after each test
# xdist's load scheduling first hands each worker a chunk of consecutive tests (a quarter of
# its share): the slow tests conftest.py puts first would all land on one worker, one after
# another (the fuzz cases, 30-80 s of NVRTC each); chunks of two spread them out
JOBS=$(python3 -c "import xdist" 2>/dev/null && echo "-n ${NJOBS:-16}" || echo "")
[ -n "$JOBS" ] && python3 -c "import sys, xdist
sys.exit(tuple(map(int, xdist.__version__.split('.')[:2])) < (3, 3))" 2>/dev/null &&
    JOBS="$JOBS --maxschedchunk 2"
TEST_TIMEOUT=${TEST_TIMEOUT:-480}
# TESTS_FILE: more test ids, one per line (ids with spaces survive)
IDS=()
[ -n "${TESTS_FILE:-}" ] && mapfile -t IDS < "$TESTS_FILE"
timeout "$TEST_TIMEOUT" python3 -m pytest -v -rfE $JOBS -p no:cacheprovider -p no:benchmark \
    ${TESTS:-tests} "${IDS[@]}" ${PYTEST_ARGS:-} > "$OUT/tests.log" 2>&1
PYTEST_RC=$?
echo "pytest exit: $PYTEST_RC" >> "$OUT/tests.log"
# mutants of the CUDA renderers that survived the CPU run (tools/mutation.py renderers):
# GPU_MUTANTS is mutmut's mutants/ directory, GPU_MUTANTS_RESULTS its results listing
if [ -n "${GPU_MUTANTS:-}" ]; then
  timeout "${GPU_MUTANTS_TIMEOUT:-420}" python3 tools/mutants_gpu.py "$GPU_MUTANTS" \
      "$GPU_MUTANTS_RESULTS" --out "$OUT/mutants.json" --jobs 14 \
      --budget "${GPU_MUTANTS_BUDGET:-360}" > "$OUT/mutants.log" 2>&1
fi
if [ -z "${SKIP_BENCH:-}" ]; then
  timeout 120 python3 examples/saxpy.py > "$OUT/saxpy.log" 2>&1
  # quick benchmark (2^24 elements); the full side-by-side run is bench/suite.py
  timeout 60 python3 bench/bench_gpu.py --quick --json "$OUT/bench.json" > "$OUT/bench.log" 2>&1
  # kernels of many inputs with and without the register budget (config.ew_held_regs)
  timeout 150 python3 bench/many_inputs.py --budgets 64,0 --reps 10 \
      --json "$OUT/many_inputs.json" > "$OUT/many_inputs.log" 2>&1
fi
# the dispatch breakdown of a tiny fused call
timeout 60 python3 bench/tiny.py > "$OUT/tiny.txt" 2>&1
echo "===================== summary ====================="
cat "$OUT/env.txt"
# one count per test: the -v progress lines ("[gw3] [ 42%] PASSED tests/..."), not the
# short summary's repeats
grep -oE "\] (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) tests/[a-z_]+\.py" "$OUT/tests.log" |
    awk '{print $2}' | sort | uniq -c
[ "$PYTEST_RC" = 124 ] && echo "pytest was cut off at TEST_TIMEOUT=$TEST_TIMEOUT s: the" \
    "counts above are the tests that ran (a fresh machine compiles every kernel first)"
grep -E "^(FAILED|ERROR) " "$OUT/tests.log" | cut -c1-160 | head -40
python3 bench/suite_timing.py "$OUT/timing"
[ -f "$OUT/mutants.log" ] && grep -vE "^survived:" "$OUT/mutants.log" | tail -20
python3 -c "import pstats, sys; s = pstats.Stats(sys.argv[1]); s.sort_stats('tottime').print_stats(30); s.sort_stats('cumtime').print_stats(40)" "$OUT/gw0.prof" > "$OUT/profile.txt" 2>&1
# the device tool brings back a limited number of files: one file per kind, not per worker
cat "$OUT"/timing.gw* > "$OUT/timing.txt" 2>/dev/null
python3 - "$OUT" <<'PYEOF'
import glob, sys
hung = []
for path in sorted(glob.glob(sys.argv[1] + "/timing.stacks.*")):
    entries = open(path).read().split("--- ")
    hung += ["--- [" + path.rsplit(".", 1)[1] + "] " + e for e in entries if "Timeout (" in e]
open(sys.argv[1] + "/stacks.txt", "w").write("".join(hung))
print(f"{len(hung)} tests ran past GNUMPY_TEST_STACK_AFTER; stacks in stacks.txt")
for e in hung:
    print("  " + e.splitlines()[0][:150])
PYEOF
# at most 8 files come back from the device tool: the profile's text only, tiny.py's
# breakdown appended to bench.log
rm -f "$OUT"/timing.gw* "$OUT"/timing.stacks.* "$OUT"/timing.main "$OUT/gw0.prof"
cat "$OUT/tiny.txt" >> "$OUT/bench.log" && rm -f "$OUT/tiny.txt"
tail -n 2 "$OUT/tests.log"
tail -n 3 "$OUT/saxpy.log" "$OUT/bench.log" 2>/dev/null
grep "tiny saxpy" "$OUT/bench.log"
exit $PYTEST_RC
