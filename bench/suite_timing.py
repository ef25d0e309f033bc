"""Summarize GNUMPY_TEST_TIMING files (tests/conftest.py): where the suite's time went.

    python3 bench/suite_timing.py $OUT/timing
"""
import collections
import glob
import sys


def main(prefix: str) -> None:
    rows = []
    for path in glob.glob(prefix + ".*"):
        if ".stacks." in path:
            continue
        for line in open(path):
            t, c, m, nid = line.rstrip("\n").split("\t", 3)
            rows.append((float(t), float(c), int(m), nid))
    if not rows:
        print("no timing lines")
        return
    tot, comp, miss = (sum(r[i] for r in rows) for i in range(3))
    print(f"{len(rows)} tests, {tot:.0f} worker-seconds, of which NVRTC {comp:.0f} s "
          f"({100 * comp / max(tot, 1e-9):.0f}%) compiling {miss} kernels")
    per_file = collections.defaultdict(lambda: [0, 0.0, 0.0, 0])
    for t, c, m, nid in rows:
        f = per_file[nid.split("::")[0]]
        f[0] += 1
        f[1] += t
        f[2] += c
        f[3] += m
    print("per file: tests, worker-seconds, NVRTC seconds, kernels compiled")
    for name, (n, t, c, m) in sorted(per_file.items(), key=lambda kv: -kv[1][1]):
        print(f"  {name:34s} {n:6d} {t:8.0f} {c:8.0f} {m:7d}")
    print("slowest tests: seconds, NVRTC seconds, kernels")
    for t, c, m, nid in sorted(rows, reverse=True)[:10]:
        print(f"  {t:7.1f} {c:7.1f} {m:5d}  {nid[:110]}")


if __name__ == "__main__":
    main(sys.argv[1])
