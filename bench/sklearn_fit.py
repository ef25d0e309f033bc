"""scikit-learn estimators fit through the Array API on gnumpy, CuPy and NumPy arrays
(``sklearn.set_config(array_api_dispatch=True)``, SCIPY_ARRAY_API=1): PCA(svd_solver="full"),
LinearDiscriminantAnalysis (10 classes) and Ridge(solver="svd") on the same data.

    python3 bench/sklearn_fit.py [--budget 300] [--n 20000] [--p 256] [--quick] [--out F]
                                 [--estimators pca,lda,ridge] [--libs numpy,gnumpy,cupy]
    GNUMPY_DEVICE=cpu python3 bench/sklearn_fit.py --n 4000 --p 64      (a dry run on CPU)

The data (float64) is generated once with NumPy and uploaded to each library.  A fit is
timed by wall clock to the end of its work (gnumpy: ``evaluate`` of the fitted attributes,
then ``cuda.synchronize``; CuPy: device synchronize); the first fit is timed apart, then
the median of up to 7 fits (3 with --quick).  The fitted attributes (PCA: components_ with
each row's sign aligned to NumPy's, explained_variance_, mean_; LDA and Ridge: coef_,
intercept_) are compared with NumPy's fit: largest relative Frobenius error, ok below
--tol.  JSON after every fit (``sklearn_fit.json``, under $OUT when set); a table at the end.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import sys
import time

os.environ["SCIPY_ARRAY_API"] = "1"         # before scipy or sklearn is imported

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from libs import Budget, CaseTimeout, default_out, err_str, load_lib, versions  # noqa: E402

ATTRS = {"pca": ("components_", "explained_variance_", "mean_"),
         "lda": ("coef_", "intercept_"), "ridge": ("coef_", "intercept_")}


def estimator(name):
    from sklearn.decomposition import PCA
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.linear_model import Ridge
    return {"pca": lambda: PCA(svd_solver="full"),
            "lda": lambda: LinearDiscriminantAnalysis(),
            "ridge": lambda: Ridge(alpha=1.0, solver="svd")}[name]()


def make_data(n, p, classes, seed=0):
    """X with a decaying spectrum (distinct principal directions), class labels with
    shifted class means, and a linear target with noise."""
    rng = np.random.default_rng(seed)
    q, _ = np.linalg.qr(rng.standard_normal((p, p)))
    scales = 1.0 / np.sqrt(1.0 + np.arange(p))
    y_cls = rng.integers(0, classes, n)
    means = rng.standard_normal((classes, p))
    X = (rng.standard_normal((n, p)) * scales) @ q + 0.5 * means[y_cls]
    y_reg = X @ rng.standard_normal(p) + 0.1 * rng.standard_normal(n)
    return X, y_cls, y_reg


def fitted(est, name):
    return [getattr(est, a) for a in ATTRS[name]]


def rel_errors(out, ref, name) -> float:
    worst = 0.0
    for i, (o, r) in enumerate(zip(out, ref)):
        o, r = np.asarray(o, dtype=np.float64), np.asarray(r, dtype=np.float64)
        if o.shape != r.shape:
            raise AssertionError(f"{ATTRS[name][i]}: shape {o.shape}, NumPy {r.shape}")
        if name == "pca" and i == 0:            # a principal direction's sign is arbitrary
            o = o * np.where(np.sum(o * r, axis=1, keepdims=True) < 0, -1.0, 1.0)
        nr = np.linalg.norm(r)
        worst = max(worst, float(np.linalg.norm(o - r) / (nr if nr else 1.0)))
    return worst


def time_fits(lib, name, X, y, budget, quick):
    def once():
        t0 = time.perf_counter()
        est = estimator(name).fit(X, y) if y is not None else estimator(name).fit(X)
        lib.finish(fitted(est, name))
        return time.perf_counter() - t0, est
    first, est = once()
    ts, reps = [], 3 if quick else 7
    while len(ts) < reps and (not ts or (sum(ts) < 5.0 and budget.remaining() > 3 * ts[-1])):
        ts.append(once()[0])
    return {"first_ms": first * 1e3, "ms": statistics.median(ts) * 1e3, "reps": len(ts)}, est


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", type=float, default=300.0)
    ap.add_argument("--fit-timeout", type=float, default=120.0)
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--p", type=int, default=256)
    ap.add_argument("--classes", type=int, default=10)
    ap.add_argument("--tol", type=float, default=1e-7)
    ap.add_argument("--estimators", default="pca,lda,ridge")
    ap.add_argument("--libs", default="numpy,gnumpy,cupy")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    budget = Budget(args.budget)
    import sklearn
    sklearn.set_config(array_api_dispatch=True)
    out_path = args.out or default_out("sklearn_fit.json")
    lines = []

    def log(s):
        print(s, flush=True)
        lines.append(s)
    names = [lib for lib in ("numpy", "gnumpy", "cupy") if lib in args.libs.split(",")]
    libs = [lib for lib in (load_lib(n, log) for n in names) if lib is not None]
    X, y_cls, y_reg = make_data(args.n, args.p, args.classes)
    res = {"script": "sklearn_fit", "n": args.n, "p": args.p, "classes": args.classes,
           "host": platform.node(), "started": time.strftime("%Y-%m-%d %H:%M:%S"),
           "versions": dict(versions(libs), sklearn=sklearn.__version__),
           "estimators": {}, "log": lines}

    def save():
        with open(out_path, "w") as f:
            json.dump(res, f, indent=1)
    log(f"X {args.n} x {args.p} float64, libraries {[lib.name for lib in libs]}, "
        f"results in {out_path}")
    for name in [e for e in args.estimators.split(",") if e]:
        rec = res["estimators"][name] = {}
        ref = None
        for lib in libs:
            if budget.remaining() < 5:
                rec[lib.name] = {"error": "budget spent"}
                continue
            r = {}
            try:
                with budget.limit(args.fit_timeout):
                    Xd = lib.put(X)
                    y = None if name == "pca" else lib.put(y_cls if name == "lda" else y_reg)
                    r, est = time_fits(lib, name, Xd, y, budget, args.quick)
                    out = [lib.host(a) for a in fitted(est, name)]
                if lib.name == "numpy":
                    ref = out
                elif ref is not None:
                    r["err"] = rel_errors(out, ref, name)
                    r["ok"] = r["err"] <= args.tol
            except (Exception, CaseTimeout) as e:   # noqa: BLE001
                r["error"] = err_str(e)
            finally:
                Xd = y = est = None
                with contextlib.suppress(Exception):
                    lib.free()
            rec[lib.name] = r
            log(f"{name:6s} {lib.name:7s} " + (f"{r['ms']:9.2f} ms (first {r['first_ms']:.1f})"
                                               if "ms" in r else "") +
                (f"  err {r['err']:.2g}" if "err" in r else "") + f" {r.get('error', '')}")
            save()
    head = ("| estimator | NumPy ms | CuPy ms | gnumpy ms | CuPy/gnumpy | gnumpy/NumPy | "
            "gnumpy first ms | gnumpy err | CuPy err |")
    tab = [head, "|---|---|---|---|---|---|---|---|---|"]
    for name, rec in res["estimators"].items():
        n, c, g = rec.get("numpy", {}), rec.get("cupy", {}), rec.get("gnumpy", {})

        def ms(r, k="ms"):
            return f"{r[k]:.2f}" if k in r else ("error" if "error" in r else "")

        def err(r):
            return (f"{r['err']:.1e}" + ("" if r["ok"] else " MISMATCH")) if "err" in r else \
                ("error" if "error" in r else "")
        cg = f"{c['ms'] / g['ms']:.2f}" if "ms" in c and "ms" in g else ""
        gn = f"{g['ms'] / n['ms']:.2f}" if "ms" in n and "ms" in g else ""
        tab.append(f"| {name} | {ms(n)} | {ms(c)} | {ms(g)} | {cg} | {gn} | "
                   f"{ms(g, 'first_ms')} | {err(g)} | {err(c)} |")
    res["table"] = tab
    save()
    print("\n" + "\n".join(tab))
    for name, rec in res["estimators"].items():
        for lib, r in rec.items():
            if "error" in r:
                print(f"{name} [{lib}]: {r['error']}")


if __name__ == "__main__":
    main()
