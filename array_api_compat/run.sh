#!/usr/bin/env bash
# Run the Array API conformance suite (data-apis/array-api-tests) against gnumpy.
#
# usage: array_api_compat/run.sh [extra pytest args / test paths ...]
#
# Needs SUITE_DIR (a clone of data-apis/array-api-tests, outside the project) and, the first
# time, SPEC_GIT (a local git copy of data-apis/array-api for the suite's submodule).
# With no test paths it runs the files in CORE_FILES below.  Any environment knob of
# run_suite.sh (MAX_EXAMPLES, JOBS, TEST_TIMEOUT, OUT_DIR, API_VERSION, VERBOSE, ...) passes
# through.  array_api_compat/xfails.txt is used when it exists.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNNER=${RUNNER:-$ROOT/../shared/tools/array-api-tests/run_suite.sh}
[[ -x $RUNNER ]] || { echo "ERROR: runner $RUNNER not found" >&2; exit 2; }
: "${SUITE_DIR:=/tmp/array-api-tests}"
SUITE_DIR=$(cd "$SUITE_DIR" 2>/dev/null && pwd) || { echo "ERROR: SUITE_DIR not found" >&2; exit 2; }

CORE_FILES=(
    array_api_tests/test_operators_and_elementwise_functions.py
    array_api_tests/test_creation_functions.py
    array_api_tests/test_data_type_functions.py
    array_api_tests/test_statistical_functions.py
    array_api_tests/test_utility_functions.py
    array_api_tests/test_inspection_functions.py
    array_api_tests/test_constants.py
)
ARGS=("$@")
has_path=0
for a in "${ARGS[@]+"${ARGS[@]}"}"; do [[ $a == array_api_tests/* ]] && has_path=1; done
(( has_path )) || ARGS=("${CORE_FILES[@]}" "${ARGS[@]+"${ARGS[@]}"}")

cd "$ROOT" || exit 2
XF=array_api_compat/xfails.txt
if [[ -f $XF ]]; then export XFAILS_FILE=${XFAILS_FILE:-$XF}; fi

export GNUMPY_DEVICE=${GNUMPY_DEVICE:-cpu}
export SUITE_DIR
export MAX_EXAMPLES=${MAX_EXAMPLES:-20}
export TEST_TIMEOUT=${TEST_TIMEOUT:-600}
# Pin pytest's rootdir/config to the suite: an option value such as the xfails path inside
# this project otherwise makes pytest pick /work/main + pyproject.toml as rootdir, which
# strips the "array_api_tests/..." prefix from node ids, so no xfails id would match.
exec "$RUNNER" gnumpy "$ROOT" -- -c "$SUITE_DIR/pytest.ini" --rootdir "$SUITE_DIR" "${ARGS[@]}"
