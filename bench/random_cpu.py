"""gnumpy.random's bulk draws on the CPU backend against NumPy's own Generator: the same
call, median of 5 (wall and process CPU time), ratio gnumpy / NumPy (target: within 1.2x).

    GNUMPY_DEVICE=cpu python3 bench/random_cpu.py [-n 2000000] [name ...]

Both draw from PCG64 with the same seed; ``random``, ``uniform`` and small-range
``integers`` give the same numbers, the other draws other transforms of the words: only
the time is compared.  gnumpy's draw is materialized with ``gnumpy.evaluate`` (CPU backend
memory is host memory; ``.get()`` would add a copy NumPy does not make).  Arguments name
the draws to run (all when none is given).
"""
import argparse
import os
import time

os.environ.setdefault("GNUMPY_DEVICE", "cpu")

import numpy as np  # noqa: E402

import gnumpy as gp  # noqa: E402

CASES = {
    "standard_normal": lambda r, n: r.standard_normal(n),
    "standard_normal_f32": lambda r, n: r.standard_normal(n, dtype=np.float32),
    "random": lambda r, n: r.random(n),
    "random_f32": lambda r, n: r.random(n, dtype=np.float32),
    "uniform": lambda r, n: r.uniform(-1.0, 2.0, n),
    "normal": lambda r, n: r.normal(1.0, 2.0, n),
    "integers_100": lambda r, n: r.integers(0, 100, n),
    "integers_2**40": lambda r, n: r.integers(0, 2 ** 40, n),
    "integers_int32": lambda r, n: r.integers(0, 1000, n, dtype=np.int32),
    "exponential": lambda r, n: r.exponential(2.0, n),
    "standard_exponential": lambda r, n: r.standard_exponential(n),
    "lognormal": lambda r, n: r.lognormal(0.0, 1.0, n),
    "gumbel": lambda r, n: r.gumbel(0.0, 1.0, n),
    "laplace": lambda r, n: r.laplace(0.0, 1.0, n),
    "logistic": lambda r, n: r.logistic(0.0, 1.0, n),
    "rayleigh": lambda r, n: r.rayleigh(1.0, n),
    "standard_cauchy": lambda r, n: r.standard_cauchy(n),
    "pareto": lambda r, n: r.pareto(3.0, n),
    "weibull": lambda r, n: r.weibull(1.5, n),
    "geometric": lambda r, n: r.geometric(0.3, n),
}


def _median(f, k=5):
    wall, cpu = [], []
    for _ in range(k):
        w, c = time.perf_counter(), time.process_time()
        f()
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
    return sorted(wall)[k // 2] * 1e3, sorted(cpu)[k // 2] * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=2_000_000)
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    print(f"n={a.n}, device {gp.asarray(0).device}, load {os.getloadavg()[0]:.1f}")
    print(f"{'draw':22s} {'numpy ms':>9s} {'gnumpy ms':>10s} {'ratio':>6s} | "
          f"{'cpu np':>7s} {'cpu gp':>7s} {'ratio':>6s}")
    for name, f in CASES.items():
        if a.names and name not in a.names:
            continue
        nr, gr = np.random.default_rng(0), gp.random.default_rng(0)
        f(nr, a.n)
        gp.evaluate(f(gr, a.n))
        (tn, cn) = _median(lambda: f(nr, a.n))
        (tg, cg) = _median(lambda: gp.evaluate(f(gr, a.n)))     # in host memory: no copy
        print(f"{name:22s} {tn:9.1f} {tg:10.1f} {tg / tn:6.2f} | {cn:7.1f} {cg:7.1f} "
              f"{cg / cn:6.2f}", flush=True)


if __name__ == "__main__":
    main()
