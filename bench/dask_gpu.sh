#!/usr/bin/env bash
# gnumpy on Dask on the GPU machine (issue 20): examples/dask_saxpy.py and examples/dask_pca.py
# with one Dask worker per visible GPU, gnumpy chunks and, as the peer, CuPy chunks; the same
# work in one process without Dask as the one-GPU reference.  Logs, JSON lines and a summary
# go under $OUT.
#
#   device tool: command "bash bench/dask_gpu.sh", carry [".whl-dask", ".whl"]
#
# .whl-dask/ (git-ignored) holds py3.12 wheels of dask, distributed and their pure-Python and
# binary dependencies the GPU image lacks (docs/dask.md says how to download them); .whl/
# holds the NVIDIA library bindings (../shared/notes/vendor-libs.md) that the PCA's matmul and
# QR call.  Both are installed into private directories, nothing else is touched.
#
# Knobs (environment): WORKERS (default: every visible GPU), PER_WORKER_MIB (x per worker,
# 24576), CHUNK_MIB (4096: 2^30 float32 per chunk, some milliseconds of kernel per task),
# STREAM_MIB (streamed x, default 1.25x one GPU's memory), PCA_ROWS (rows per worker, 2^24),
# PCA_COLS (256), REPEAT (3), RUN_TIMEOUT (seconds per run, 150), DEADLINE (no run starts
# after it, 540 s), SKIP_CUPY=1, SKIP_PCA=1.
# Exit status: 0 all runs passed their NumPy checks; 2 wheels missing; 3 an import failed;
# 4 no usable GPU; 5 a run failed or timed out (the summary names it).
set -u
OUT=${OUT:-/tmp/gnumpy-dask-out}
mkdir -p "$OUT"
cd "$(dirname "$0")/.."
LOG="$OUT/run.log"
: > "$LOG"
: > "$OUT/results.jsonl"
die() { echo "dask_gpu.sh: $2" | tee -a "$OUT/summary.txt" >&2; exit "$1"; }

# ---- wheels
if ! ls .whl-dask/*.whl > /dev/null 2>&1; then
  die 2 "no wheels in .whl-dask/: on a machine with internet run
  pip download --only-binary=:all: --python-version 3.12 --implementation cp --abi cp312 \\
      --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 \\
      --platform manylinux_2_28_x86_64 -d .whl-dask dask distributed
and carry .whl-dask (device tool: carry [\".whl-dask\", \".whl\"])"
fi
for pkg in dask distributed tornado msgpack psutil pyyaml cloudpickle toolz; do
  ls .whl-dask/ | grep -qi "^${pkg}-" || die 2 ".whl-dask/ lacks a ${pkg} wheel (see the pip download line in docs/dask.md)"
done
rm -rf /tmp/dasksite
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir \
    --target /tmp/dasksite .whl-dask/*.whl >> "$LOG" 2>&1 \
  || die 2 "pip could not install .whl-dask/*.whl into /tmp/dasksite (see $LOG)"
SITE=/tmp/dasksite
if ls .whl/*.whl > /dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
      --target /tmp/gnumpy-site .whl/*.whl >> "$LOG" 2>&1 \
    || die 2 "pip could not install .whl/*.whl into /tmp/gnumpy-site (see $LOG)"
  SITE=$SITE:/tmp/gnumpy-site
else
  echo "note: no .whl/ (nvmath-python, cuda-cccl): the PCA's matmul and QR may be missing" | tee -a "$LOG"
fi
export PYTHONPATH="$SITE:$PWD${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
export GNUMPY_CACHE_DIR=${GNUMPY_CACHE_DIR:-$PWD/.gnc}
unset GNUMPY_DEVICE          # the examples pick: workers their GPU, the client the CPU backend

# ---- imports and devices
{ nvidia-smi -L; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; } \
    > "$OUT/env.txt" 2>&1
python3 - >> "$OUT/env.txt" 2>&1 <<'PYEOF' || die 3 "an import failed: $(tail -n 3 "$OUT/env.txt")"
import sys, numpy, dask, distributed, dask.array, gnumpy, gnumpy.dask as gd
print("python", sys.version.split()[0], "numpy", numpy.__version__, "dask", dask.__version__,
      "distributed", distributed.__version__, "gnumpy", gnumpy.__version__)
try:
    import cupy
    print("cupy", cupy.__version__)
except ImportError as e:
    print("cupy: not importable:", e)
try:
    import dask_cuda
    print("dask_cuda", dask_cuda.__version__)
except ImportError:
    print("dask_cuda: not installed (LocalGPUCluster uses distributed.LocalCluster)")
print("gpus visible to gnumpy:", gd.gpu_ids())
PYEOF
NGPU=$(python3 -c "import gnumpy.dask as gd; print(len(gd.gpu_ids()))" 2>> "$LOG")
[ "${NGPU:-0}" -ge 1 ] 2>/dev/null || die 4 "gnumpy sees no usable CUDA device (env.txt: $(tail -n 1 "$OUT/env.txt"))"
WORKERS=${WORKERS:-$NGPU}
HAVE_CUPY=$(python3 -c "import cupy; cupy.cuda.runtime.getDeviceCount(); print(1)" 2>/dev/null || echo 0)
[ -n "${SKIP_CUPY:-}" ] && HAVE_CUPY=0
MEM_MIB=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits 2>/dev/null | head -n 1)
MEM_MIB=${MEM_MIB:-143771}
PER=${PER_WORKER_MIB:-24576}
CHUNK=${CHUNK_MIB:-4096}
STREAM=${STREAM_MIB:-$((MEM_MIB * 5 / 4))}
REPEAT=${REPEAT:-3}
RUN_TIMEOUT=${RUN_TIMEOUT:-150}
echo "gpus=$NGPU workers=$WORKERS per_worker_mib=$PER chunk_mib=$CHUNK stream_mib=$STREAM (one GPU: $MEM_MIB MiB) cupy=$HAVE_CUPY" | tee -a "$OUT/env.txt"

# ---- does gnumpy's CUDA work run from a second thread without binding its context there?
# (Dask workers use three threads; gnumpy.dask binds each one.  This records whether gnumpy
# itself needs to: see docs/dask.md.)
timeout 120 python3 - > "$OUT/thread_probe.txt" 2>&1 <<'PYEOF'
import threading, traceback, numpy, gnumpy as gp
x = gp.arange(1 << 20, dtype=gp.float32); gp.evaluate(x)
out = {}
def work():
    try:
        y = x * 2 + 1
        out["ok"] = float(y.sum()) == float((numpy.arange(1 << 20, dtype=numpy.float32) * 2 + 1).sum())
        z = gp.asarray(numpy.ones(1000)); out["h2d"] = float(z.sum()) == 1000.0
    except Exception:
        out["error"] = traceback.format_exc()
t = threading.Thread(target=work); t.start(); t.join()
print("gnumpy CUDA work on a thread that never bound the context:", out)
PYEOF
echo "thread probe exit: $?" >> "$OUT/thread_probe.txt"

# ---- runs
FAILED=()
DEADLINE=${DEADLINE:-540}     # seconds: the device tool allows 600 per command
run() {  # name, command...   (timeout signals the run's whole process group: its workers too)
  local name=$1; shift
  if [ "$SECONDS" -ge "$DEADLINE" ]; then
    FAILED+=("$name (not run: past DEADLINE=$DEADLINE s)")
    return
  fi
  local left=$((DEADLINE + 50 - SECONDS)) limit=$RUN_TIMEOUT
  [ "$left" -lt "$limit" ] && limit=$left
  echo "===== $name: $*" >> "$LOG"
  local t0=$SECONDS
  timeout -k 10 "$limit" "$@" --json "$OUT/results.jsonl" >> "$LOG" 2>&1
  local rc=$?
  echo "===== $name: exit $rc after $((SECONDS - t0)) s" >> "$LOG"
  [ $rc -eq 0 ] || FAILED+=("$name (exit $rc$([ $rc -ge 124 ] && echo ', timed out'))")
}
SAXPY="python3 examples/dask_saxpy.py --per-worker-mib $PER --chunk-mib $CHUNK --repeat $REPEAT"
# the one-GPU references: the same SAXPY and sum in one process, no Dask
run "saxpy gnumpy, no dask"  $SAXPY --workers 0
[ "$HAVE_CUPY" = 1 ] && run "saxpy cupy, no dask" $SAXPY --workers 0 --lib cupy
# one worker (one GPU), then every GPU; the streamed sum only once per library (its x is
# larger than one GPU's memory)
run "saxpy gnumpy, 1 worker" $SAXPY --workers 1 --stream-mib "$STREAM"
[ "$HAVE_CUPY" = 1 ] && run "saxpy cupy, 1 worker" $SAXPY --workers 1 --lib cupy --stream-mib "$STREAM"
if [ "$WORKERS" -ge 2 ]; then
  run "saxpy gnumpy, $WORKERS workers" $SAXPY --workers "$WORKERS" --stream-mib 0
  [ "$HAVE_CUPY" = 1 ] && run "saxpy cupy, $WORKERS workers" $SAXPY --workers "$WORKERS" --lib cupy --stream-mib 0
fi
if [ -z "${SKIP_PCA:-}" ]; then
  PCA="python3 examples/dask_pca.py --rows-per-worker ${PCA_ROWS:-16777216} --cols ${PCA_COLS:-256} --repeat $REPEAT"
  run "pca gnumpy, 1 worker" $PCA --workers 1
  [ "$HAVE_CUPY" = 1 ] && run "pca cupy, 1 worker" $PCA --workers 1 --lib cupy
  if [ "$WORKERS" -ge 2 ]; then
    run "pca gnumpy, $WORKERS workers" $PCA --workers "$WORKERS"
    [ "$HAVE_CUPY" = 1 ] && run "pca cupy, $WORKERS workers" $PCA --workers "$WORKERS" --lib cupy
  fi
fi

# ---- summary
{
  echo "===================== gnumpy on Dask: summary ====================="
  cat "$OUT/env.txt"
  tail -n 2 "$OUT/thread_probe.txt"
  grep -E "^dask_(saxpy|pca) " "$LOG"
  python3 - "$OUT/results.jsonl" <<'PYEOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
sax = {(r["lib"], r["workers"]): r for r in rows if r["example"] == "dask_saxpy"}
for lib in ("gnumpy", "cupy"):
    one = sax.get((lib, 1))
    ref = sax.get((lib, 0))
    if one:
        line = (f"{lib}: 1 worker: saxpy {one['saxpy_GBs']:.0f} GB/s, sum {one['sum_GBs']:.0f} GB/s")
        if ref:
            line += (f" (no Dask: saxpy {ref['saxpy_GBs']:.0f}, sum {ref['sum_GBs']:.0f} GB/s;"
                     f" Dask keeps {one['saxpy_GBs'] / ref['saxpy_GBs']:.0%} and "
                     f"{one['sum_GBs'] / ref['sum_GBs']:.0%})")
        print(line)
    for (l, w), r in sorted(sax.items()):
        if l == lib and w >= 2 and one:
            print(f"{lib}: {w} workers: saxpy {r['saxpy_GBs'] / one['saxpy_GBs']:.2f}x, "
                  f"sum {r['sum_GBs'] / one['sum_GBs']:.2f}x one worker's throughput "
                  "(equal work per GPU)")
pca = {(r["lib"], r["workers"]): r for r in rows if r["example"] == "dask_pca"}
for lib in ("gnumpy", "cupy"):
    one = pca.get((lib, 1))
    for (l, w), r in sorted(pca.items()):
        if l == lib:
            s = f" = {r['gram_TFLOPs'] / one['gram_TFLOPs']:.2f}x one worker" if one and w > 1 else ""
            print(f"{lib} pca {w} worker(s): X.T@X {r['gram_TFLOPs']:.1f} TFLOP/s{s}, "
                  f"tsqr {r['tsqr_ms']:.0f} ms, checks {r['check']}")
PYEOF
  if [ ${#FAILED[@]} -gt 0 ]; then
    echo "FAILED runs (see run.log):"
    printf '  %s\n' "${FAILED[@]}"
  else
    echo "all runs passed their NumPy checks"
  fi
} > "$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
[ ${#FAILED[@]} -eq 0 ] || exit 5
