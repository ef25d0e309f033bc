"""Where host time goes on the current device (the real backend): cProfile of
bench/loops.py's statement patterns and of NPBench kernels, top functions by own time.

    python3 bench/profile_host.py [pattern ...] [--npbench k1,k2] [--calls N] [--iters N]
                                  [--top K] [--sort cumtime] [--fake]

NPBench kernels run as bench/npbench.py runs them (fresh inputs, one warm-up call); each
is timed (min of 5) and then profiled for ``--calls`` calls (1), reported per call.
``--fake`` runs on a fake CUDA device instead (bench/fake_cuda.py: kernels compiled,
launches counted, library calls stubbed, device reads zeros), the host cost of the CUDA
path on a machine without a GPU; it also prints the launches per call or statement.
"""
import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import loops  # noqa: E402
import npbench as nb  # noqa: E402

import numpy  # noqa: E402
import gnumpy as gp  # noqa: E402


SORT = ["tottime"]
FAKE = [None]           # the fake CUDA backend under --fake


def _launches() -> int:
    return FAKE[0].launches if FAKE[0] is not None else 0


def _report(title, prof, n, top):
    """The `top` functions by SORT[0], their calls and own and cumulative time per unit
    (`n` units: statements or calls) in microseconds (pstats' own table rounds to ms)."""
    s = pstats.Stats(prof)
    print(f"== {title}, {s.total_calls / n:.1f} Python calls each")
    col = 3 if SORT[0] == "cumtime" else 2
    rows = sorted(s.stats.items(), key=lambda kv: -kv[1][col])[:top]
    print(f"{'calls':>10} {'own us':>10} {'cum us':>10}  function")
    for (f, line, fn), (_, nc, tt, ct, _) in rows:
        where = f"{Path(f).name}:{line}({fn})" if line else fn
        print(f"{nc / n:10.2f} {tt / n * 1e6:10.2f} {ct / n * 1e6:10.2f}  {where}")


def profile_patterns(names, iters, top):
    st, pats = loops.patterns(gp)
    sync = loops.sync_of(gp, "gnumpy")
    for name in names or list(pats):
        per, step, arrays = pats[name]
        for k in range(40):
            step(st, k)
        sync([st[a] for a in arrays])
        n0 = _launches()
        t = time.perf_counter()
        for k in range(40, 40 + iters):
            step(st, k)
        sync([st[a] for a in arrays])
        us = (time.perf_counter() - t) / iters / per * 1e6
        if FAKE[0] is not None:
            print(f"{name}: {(_launches() - n0) / iters / per:.2f} launches a statement")
        p = cProfile.Profile()
        p.enable()
        for k in range(40, 40 + iters):
            step(st, k)
        sync([st[a] for a in arrays])
        p.disable()
        _report(f"{name}: {us:.1f} us a statement", p, iters * per, top)


class _Lib:
    name = "gnumpy"

    def put(self, a):
        return gp.asarray(a)

    cuda = gp.asarray(0).device.kind == "cuda"

    def finish(self, xs):       # (as bench/libs.py's: one evaluate, then the synchronize)
        gp.evaluate(*[x for x in nb.flatten(xs) if isinstance(x, gp.ndarray)])
        if self.cuda:
            gp.cuda.synchronize()

    def host(self, x):
        return numpy.asarray(x)


def profile_npbench(names, top, calls=1):
    kernels, lib = nb.kernels(nb.ROOT), _Lib()
    for name in names:
        info = kernels[name]
        data = nb.init_data(nb.ROOT, info, "S")
        impl, _ = nb.implementation(nb.ROOT, info, "gnumpy")
        setup, call = nb._runner(lib, impl, info, data)
        call(setup())
        ts = []
        n0 = _launches()
        for _ in range(5):
            a = setup()
            t = time.perf_counter()
            call(a)
            ts.append(time.perf_counter() - t)
        if FAKE[0] is not None:
            print(f"NPBench {name}: {(_launches() - n0) / 5:.0f} launches a call")
        p = cProfile.Profile()
        for _ in range(calls):      # (each call's fresh inputs made outside the profile)
            a = setup()
            p.enable()
            call(a)
            p.disable()
        _report(f"NPBench {name}: {min(ts) * 1e3:.2f} ms a call (min of 5); profile of "
                f"{calls} calls, per call", p, calls, top)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("patterns", nargs="*")
    ap.add_argument("--npbench", default="")
    ap.add_argument("--iters", type=int, default=300)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--calls", type=int, default=1)
    ap.add_argument("--sort", default="tottime", help="a pstats sort key (own time first; "
                    "cumtime shows what calls into the libraries and syncs cost)")
    ap.add_argument("--fake", action="store_true",
                    help="a fake CUDA device: host cost without a GPU (bench/fake_cuda.py)")
    args = ap.parse_args()
    SORT[0] = args.sort
    if args.fake:
        import fake_cuda
        FAKE[0] = fake_cuda.install()[1]
        _Lib.cuda = False
    if args.patterns or not args.npbench:
        profile_patterns(args.patterns, args.iters, args.top)
    if args.npbench:
        profile_npbench(args.npbench.split(","), args.top, max(1, args.calls))
    return 0


if __name__ == "__main__":
    sys.exit(main())
