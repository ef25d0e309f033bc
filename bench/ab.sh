#!/usr/bin/env bash
# A/B of two gnumpy trees in one machine session, on NPBench kernels (K) or on
# bench/libs.py cases (C, with SIZES, default small): each tree's bench/npbench.py or
# bench/libs.py (gnumpy and CuPy) runs ROUNDS times (default 2), alternating base, new,
# base, new, ... (a host whose speed drifts hits both alike), each tree with its own
# kernel cache; a table of gnumpy / CuPy medians per run ends it, with each tree's median
# ratio over its runs (the host's spread between runs is often a tenth or more).  The
# base tree is a directory holding gnumpy/ and bench/ (and tests/, which bench/fake_cuda.py
# reads; for the device machine, which has no git: make it here and carry it):
#
#   git archive REV gnumpy bench tests | tar -x -C .scratch/base
#   BASE=.scratch/base K=nbody,durbin bash bench/ab.sh               (results under $OUT)
#   BASE=.scratch/base C=sort_f32,cumsum_f32 bash bench/ab.sh
#   (on the CPU backend: GNUMPY_DEVICE=cpu PEER=numpy SIZES=cpu, gnumpy against NumPy)
set -u
OUT=${OUT:-/tmp/npbench-ab}
BASE=${BASE:?a directory holding the base tree: gnumpy/ and bench/}
K=${K:-}
C=${C:-}
[ -n "$K$C" ] || { echo "set K (NPBench kernels) or C (bench/libs.py cases)" >&2; exit 2; }
mkdir -p "$OUT"
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-2}
for r in $(seq 1 "$ROUNDS"); do
  for t in base new; do
    root=$PWD; [ $t = base ] && root=$(cd "$BASE" && pwd)
    if [ -n "$K" ]; then
      set -- "$root/bench/npbench.py" --npbench "$PWD/.npbench" --kernels "$K" \
        --frameworks gnumpy,cupy --budget "${RUN_BUDGET:-200}" --kernel-timeout 30
    else
      set -- "$root/bench/libs.py" --cases "$C" --sizes "${SIZES:-small}" \
        --peer "${PEER:-cupy}" --budget "${RUN_BUDGET:-200}"
    fi
    PYTHONPATH=$root${PYTHONPATH:+:$PYTHONPATH} GNUMPY_CACHE_DIR=$PWD/.gnc-$t \
      timeout "${RUN_TIMEOUT:-250}" python3 "$@" --out "$OUT/ab_${t}_$r.json" \
      > "$OUT/ab_${t}_$r.log" 2>&1
    echo "$t $r rc=$?"
  done
done
OUT=$OUT ROUNDS=$ROUNDS python3 - <<'PY'
import json, os, statistics
out = os.environ["OUT"]
rounds = range(1, int(os.environ["ROUNDS"]) + 1)
rows = {}
for t in ("base", "new"):
    for r in rounds:
        try:
            d = json.load(open(f"{out}/ab_{t}_{r}.json"))
        except (OSError, ValueError) as e:
            print(t, r, e)
            continue
        for k, v in (d.get("kernels") or d.get("cases") or {}).items():
            g, c = v.get("gnumpy", {}), v.get(v.get("ref", "cupy"), {})   # (libs: in ms)
            rows.setdefault(k, {})[f"{t}{r}"] = tuple(
                x.get("median_s") or (x.get("ms") or 0) / 1e3 or None for x in (g, c))
for k, v in sorted(rows.items()):
    cells = []
    ratios = {"base": [], "new": []}
    for r in rounds:
        for t in ("base", "new"):
            g, c = v.get(f"{t}{r}") or (None, None)
            if g and c:
                ratios[t].append(g / c)
            cells.append(f"{t}{r} " + ("-" if not g or not c else
                                       f"{g * 1e3:.2f} / {c * 1e3:.2f} ms = {g / c:.2f}"))
    med = " ".join(f"{t} {statistics.median(x):.2f}" for t, x in ratios.items() if x)
    print(f"{k:26s} " + " | ".join(cells) + f" || median: {med}")
PY
