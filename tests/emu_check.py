"""Differential check: small NumPy programs on numpy and on gnumpy's CUDA backend emulated on
the host (emucuda.EmuCuda), values compared.

    python3 tests/emu_check.py [-k substr] [--variants default,general,...] [--repeat 2] [-v]

Each program runs `--repeat` times on gnumpy (the first run builds kernels and replays,
later runs replay them).  Variants change gnumpy's config (``VARIANTS``)."""
import argparse
import sys
import time
import traceback

from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cuda_emu as emucuda  # noqa: E402

dev, be = emucuda.install()

import numpy as np  # noqa: E402
import gnumpy as gp  # noqa: E402
from emu_programs import PROGRAMS  # noqa: E402

VARIANTS = {
    "default": {},
    "general": {"fast_stages": 1, "fast_programs": False},  # the general path for
                                                 # multi-kernel replays and programs
    "novec": {"vector_loads": False},
    "block64": {"block_size": 64},
    "noew": {"ew_columns": False, "ew_tiles": False, "ew_light": False},
    "rows-off": {"fuse_rows": False, "row_online": False, "row_registers": False},
    "nohints": {"reduce_mem_hints": ""},
}
TOL = {2: 3e-3, 4: 2e-5, 8: 1e-10}


def to_np(v):
    if isinstance(v, (list, tuple)):
        return [to_np(x) for x in v]
    if hasattr(v, "__array__") or isinstance(v, gp.ndarray):
        return np.asarray(v)
    return np.asarray(v)


def compare(ref, got):
    ref, got = np.asarray(ref), np.asarray(got)
    if ref.shape != got.shape:
        return f"shape {got.shape} != {ref.shape}"
    if ref.dtype != got.dtype:
        return f"dtype {got.dtype} != {ref.dtype}"
    if ref.dtype.kind in "biu":
        bad = ref != got
    else:
        it = ref.dtype.itemsize // (2 if ref.dtype.kind == "c" else 1)
        tol = TOL[it]
        scale = np.abs(ref[np.isfinite(ref)]).max() if np.isfinite(ref).any() else 1.0
        with np.errstate(all="ignore"):
            bad = ~((np.abs(ref - got) <= tol * (np.abs(ref) + scale * 1e-3 + 1e-300)) |
                    (np.isnan(ref) & np.isnan(got)) | (ref == got))
    if bad.any():
        i = tuple(int(x) for x in np.argwhere(bad)[0]) if bad.ndim else ()
        return (f"{int(bad.sum())}/{bad.size} values differ, first at {i}: "
                f"got {got[i]!r} want {ref[i]!r}")
    return None


def run_one(name, variant, repeat, verbose):
    f, inputs = PROGRAMS[name]
    data = [mk(i) for i, mk in enumerate(inputs)]
    want = to_np(f(np, *[d.copy() for d in data]))
    outs = []
    with gp.config.override(**VARIANTS[variant]):
        for rep in range(repeat):
            args = [gp.asarray(d.copy(), device=dev) for d in data]
            try:
                got = to_np(f(gp, *args))
            except Exception as e:      # noqa: BLE001
                tb = traceback.format_exc(limit=-6) if verbose else ""
                return ("error", f"run {rep}: {type(e).__name__}: {str(e)[:400]}\n{tb}")
            for k, (w, g) in enumerate(zip(want, got)):
                why = compare(w, g)
                if why:
                    outs.append(f"run {rep} result {k}: {why}")
            if len(want) != len(got):
                outs.append(f"{len(got)} results != {len(want)}")
            if outs:
                return ("wrong", "; ".join(outs[:3]))
    return ("ok", "")


def _findings():
    global test_finding
    from test_fuzz import FINDINGS, test_finding
    return FINDINGS


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-k", default="")
    ap.add_argument("--variants", default="default")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    names = [n for n in PROGRAMS if a.k in n]
    variants = list(VARIANTS) if a.variants == "all" else a.variants.split(",")
    tally = {}
    t_all = time.perf_counter()
    for v in variants:
        for n in names:
            t0 = time.perf_counter()
            kind, why = run_one(n, v, a.repeat, a.v)
            dt = time.perf_counter() - t0
            tally[kind] = tally.get(kind, 0) + 1
            print(f"[{kind:5s}] {v:8s} {n:20s} {dt:6.2f}s {why}", flush=True)
    if not a.k:
        for what, src in _findings():     # the fuzzers' findings (tests/test_fuzz.py)
            try:
                test_finding(what, src)
                kind, why = "ok", ""
            except Exception as e:      # noqa: BLE001
                kind, why = "wrong", f"{type(e).__name__}: {str(e)[:400]}"
            tally[kind] = tally.get(kind, 0) + 1
            print(f"[{kind:5s}] finding  {what} {why}", flush=True)
    print("tally:", tally, f"in {time.perf_counter() - t_all:.1f} s")
    s = emucuda.summary(be)
    for k, v in s.items():
        print(f"{k}: {v}")
    return 0 if set(tally) <= {"ok"} else 1


if __name__ == "__main__":
    sys.exit(main())
