#!/usr/bin/env bash
# Run the test suite on the CUDA backend verbosely (results stream to $OUT/tests.log even if
# the run is cut short), then re-run one failing case of each failing test function with
# tracebacks, so one device call yields the failures and their causes.
set -u
OUT=${OUT:-/tmp/gnumpy-gpu-out}; mkdir -p "$OUT"
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD" PYTHONUNBUFFERED=1 GNUMPY_DEVICE=cuda GNUMPY_CACHE_DIR=/tmp/gnc
export GNUMPY_TEST_EXAMPLES=${GNUMPY_TEST_EXAMPLES:-10}
timeout "${SUITE_TIMEOUT:-330}" python3 -m pytest -v -n "${JOBS:-16}" -p no:cacheprovider \
    -p no:warnings -p no:benchmark --tb=no tests --ignore=tests/test_cuda_helpers_host.py \
    ${PYTEST_ARGS:-} > "$OUT/tests.log" 2>&1
echo "suite rc=$?" >> "$OUT/tests.log"
grep -oE "(PASSED|FAILED|ERROR|SKIPPED) tests/[^ ]+" "$OUT/tests.log" | awk '{print $1}' | sort | uniq -c
grep -oE "FAILED tests/[^ ]+|ERROR tests/[^ ]+" "$OUT/tests.log" | awk '{print $2}' | sort -u > "$OUT/failed.txt"
sed 's/\[.*//' "$OUT/failed.txt" | sort | uniq -c | sort -rn | head -40
awk -F'[' '!seen[$1]++' "$OUT/failed.txt" | head -"${RERUN:-25}" > "$OUT/rerun.txt"
if [ -s "$OUT/rerun.txt" ]; then
  timeout "${RERUN_TIMEOUT:-120}" python3 -m pytest -q -p no:cacheprovider -p no:warnings \
      -p no:benchmark --tb=short $(cat "$OUT/rerun.txt") > "$OUT/rerun.log" 2>&1
  grep -E "^E |^(FAILED|ERROR)|Error" "$OUT/rerun.log" | cut -c1-300 | head -120
fi
