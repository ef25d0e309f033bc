"""PCA of a tall-skinny matrix with dask.array over gnumpy chunks: blocked X.T @ X and TSQR.

    python3 examples/dask_pca.py                           # all GPUs (2 CPU workers without one)
    python3 examples/dask_pca.py --workers 1 --rows-per-worker 16777216 --cols 256
    python3 examples/dask_pca.py --lib cupy                 # the peer: dask.array over CuPy

X is n x d float32 in row chunks (weak scaling: `--rows-per-worker` rows per worker), made
on the workers from a formula of the row and column index (a rank-`--rank` signal plus
noise), so NumPy can recompute any chunk.  Timed, after a warm-up, each on persisted X:
  gram   X.T @ X: every chunk's X_i.T @ X_i (one cuBLAS GEMM) on its worker, then a tree sum
         of d x d partials, the only data that crosses workers (2 n d^2 flops);
  pca    the mean and the centred covariance from the same blocked products (X.T @ X and
         X.sum(0) in one graph), then eigh of the d x d covariance on the client;
  tsqr   dask.array.linalg.tsqr(X): a QR per chunk, the stacked d x d R factors QR'd again
         on one worker, and Q = Q_i @ Q2_i back on each worker (Dask's blocked QR).
Checked against NumPy (float64) on the first `--check-rows` rows (all of them when X is
small): the Gram matrix, the PCA's explained variances and components, and R.T @ R.
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy

SEED_MUL = (2654435761, 40503, 2246822519)


def unit(xp, r, c, salt):
    """A deterministic value in [-0.5, 0.5) per (row, column): integer hashing, exact in
    every library (int64 wraps alike), then one float32 conversion."""
    h = (r * SEED_MUL[0] + c * SEED_MUL[1] + salt * SEED_MUL[2]) % 2147483647
    h = (h * 48271) % 2147483647
    return h.astype(xp.float32) * xp.float32(1.0 / 2147483647) - xp.float32(0.5)


def rows(xp, start, stop, d, rank):
    """Rows [start, stop) of X: a rank-`rank` signal (scales 8, 4, 2, ...) plus noise."""
    r = xp.arange(start, stop, dtype=xp.int64)[:, None]
    cz = xp.arange(rank, dtype=xp.int64)[None, :]
    z = unit(xp, r, cz, 1) * (xp.float32(16.0) / xp.float32(2.0) ** cz.astype(xp.float32))
    cw = xp.arange(d, dtype=xp.int64)[None, :]
    w = unit(xp, xp.arange(rank, dtype=xp.int64)[:, None], cw, 2)        # rank x d
    noise = unit(xp, r, cw, 3) * xp.float32(0.1)
    return z @ w + noise + xp.float32(1.0)                               # mean ~1: centring matters


def lib_module(lib):
    if lib == "gnumpy":
        import gnumpy
        return gnumpy
    if lib == "cupy":
        import cupy
        return cupy
    return numpy


def make_rows(lib, d, rank, block_info=None):
    (start, stop), _ = block_info[None]["array-location"]
    return rows(lib_module(lib), start, stop, d, rank)


def device_sync(lib):
    if lib == "gnumpy":
        import gnumpy.dask
        gnumpy.dask.synchronize()
    elif lib == "cupy":
        import cupy
        cupy.cuda.runtime.deviceSynchronize()


def to_host(a):
    return a.get() if hasattr(a, "get") else numpy.asarray(a)


def median_time(fn, repeat):
    fn(0)
    ts = []
    for k in range(1, repeat + 1):
        t0 = time.perf_counter()
        fn(k)
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def pca_from(gram, colsum, n):
    """Explained variances (descending) and components (rows) from X.T @ X and X.sum(0)."""
    mean = colsum / n
    cov = (gram - n * numpy.outer(mean, mean)) / (n - 1)
    w, v = numpy.linalg.eigh(cov)
    return w[::-1], v[:, ::-1].T


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lib", choices=("gnumpy", "cupy", "numpy"), default="gnumpy")
    p.add_argument("--workers", type=int, default=None,
                   help="Dask workers (default: one per GPU, 2 on CPU)")
    p.add_argument("--rows-per-worker", type=int, default=None,
                   help="rows of X per worker (default 2^24 on GPU, 2^16 on CPU)")
    p.add_argument("--cols", type=int, default=None, help="d (default 256 on GPU, 64 on CPU)")
    p.add_argument("--chunk-rows", type=int, default=None,
                   help="rows per chunk (default: a quarter of --rows-per-worker)")
    p.add_argument("--rank", type=int, default=4)
    p.add_argument("--components", type=int, default=4, help="components checked")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--check-rows", type=int, default=1 << 18)
    p.add_argument("--json", help="append the result as one JSON line to this file")
    args = p.parse_args()
    if args.lib == "gnumpy":
        os.environ.setdefault("GNUMPY_DEVICE", "cpu")   # the client; workers get their GPU
    import dask.array as da
    from dask.graph_manipulation import clone
    from distributed import Client, wait

    import gnumpy.dask as gd
    lib = args.lib
    gpus = len(gd.gpu_ids()) if lib != "numpy" else 0
    if lib == "cupy" and not gpus:
        sys.exit("dask_pca.py --lib cupy needs a GPU")
    nw = args.workers or gpus or 2
    per = args.rows_per_worker or (1 << 24 if gpus else 1 << 16)
    d = args.cols or (256 if gpus else 64)
    chunk = args.chunk_rows or max(1, per // 4)
    n = (per * nw) // chunk * chunk
    if lib == "numpy":
        cluster = gd.LocalGPUCluster(nw, device="cpu", preload_gnumpy=False,
                                     dashboard_address=":0")
    else:
        cluster = gd.LocalGPUCluster(nw, preload_gnumpy=(lib == "gnumpy"),
                                     dashboard_address=":0")
    client = Client(cluster)
    xp = lib_module(lib)
    meta = xp.empty((0, 0), dtype=numpy.float32)
    sync = lambda: client.run(device_sync, lib)                        # noqa: E731
    X = da.map_blocks(make_rows, lib, d, args.rank, chunks=((chunk,) * (n // chunk), (d,)),
                      dtype=numpy.float32, meta=meta)
    X = client.persist(X)
    wait(X)
    sync()
    if lib == "gnumpy":
        client.run(gd.task_log, True)
    out = {}

    def gram(k):
        out["gram"] = to_host(clone(X.T @ X, omit=[X], seed=k).compute())

    def pca(k):
        g, s = clone(X.T @ X, X.sum(axis=0), omit=[X], seed=k)
        g, s = client.compute([g, s], sync=True)
        out["pca"] = pca_from(to_host(g).astype(numpy.float64), to_host(s).astype(numpy.float64), n)

    def tsqr(k):
        out.pop("q", None)
        q, r = clone(*da.linalg.tsqr(X), omit=[X], seed=k)
        q, r = client.persist([q, r])
        wait([q, r])
        sync()
        out["r"] = to_host(r.compute())
        out["q"] = q

    t_gram = median_time(gram, args.repeat)
    gram_log = None
    if lib == "gnumpy":
        gram_log = {}
        for log in client.run(gd.task_log, True).values():
            for _, kernels, kinds in log:
                key = ",".join(f"{k}:{v}" for k, v in sorted(kinds.items())) or "none"
                gram_log[key] = gram_log.get(key, 0) + 1
    t_pca = median_time(pca, args.repeat)
    t_tsqr = median_time(tsqr, args.repeat)
    w_full = out["pca"][0]

    # ---- checks against NumPy (float64) on the first m rows, through the same Dask code
    m = min(n, args.check_rows)
    Xh = rows(numpy, 0, m, d, args.rank).astype(numpy.float64)
    ok = {}
    if m == n:
        g_ref = Xh.T @ Xh
        g = out["gram"].astype(numpy.float64)
        w, comps = out["pca"]
        r = out["r"].astype(numpy.float64)
    else:
        Xm = X[:m]
        g = to_host((Xm.T @ Xm).compute()).astype(numpy.float64)
        g_ref = Xh.T @ Xh
        w, comps = pca_from(g, to_host(Xm.sum(axis=0).compute()).astype(numpy.float64), m)
        r = to_host(da.linalg.tsqr(Xm)[1].compute()).astype(numpy.float64)
        # the full run's consistency: R.T R of all of X equals its Gram matrix
        rf = out["r"].astype(numpy.float64)
        gf = out["gram"].astype(numpy.float64)
        ok["full_RtR_vs_gram"] = bool(numpy.allclose(rf.T @ rf, gf, rtol=1e-3,
                                                     atol=1e-3 * abs(gf).max()))
    scale = abs(g_ref).max()
    ok["gram"] = bool(numpy.allclose(g, g_ref, rtol=1e-3, atol=1e-4 * scale))
    ok["RtR"] = bool(numpy.allclose(r.T @ r, g_ref, rtol=1e-3, atol=1e-4 * scale))
    w_ref, c_ref = pca_from(g_ref, Xh.sum(axis=0), m)
    kc = args.components
    ok["variances"] = bool(numpy.allclose(w[:kc], w_ref[:kc], rtol=1e-3))
    ok["components"] = bool(numpy.allclose(abs((comps[:kc] * c_ref[:kc]).sum(axis=1)), 1.0,
                                           atol=1e-3))
    q = out["q"]
    ok["Q_chunk_type"] = type(q.blocks[0].compute()).__module__.split(".")[0] == \
        xp.__name__.split(".")[0]

    flops = 2.0 * n * d * d
    res = dict(example="dask_pca", lib=lib, workers=nw, n=n, d=d, chunk=chunk,
               gram_ms=t_gram * 1e3, gram_TFLOPs=flops / t_gram / 1e12,
               gram_GBs=4.0 * n * d / t_gram / 1e9, pca_ms=t_pca * 1e3,
               tsqr_ms=t_tsqr * 1e3, tsqr_GBs=4.0 * n * d * 2 / t_tsqr / 1e9,
               explained_variance=[float(v) for v in w_full[:kc]], check=ok,
               gram_tasks_by_kernels=gram_log)
    print(f"dask_pca lib={lib} workers={nw} X={n}x{d} float32 ({4 * n * d / 2**30:.2f} GiB, "
          f"chunks of {chunk} rows): X.T@X {t_gram * 1e3:.2f} ms = "
          f"{flops / t_gram / 1e12:.2f} TFLOP/s ({4 * n * d / t_gram / 1e9:.1f} GB/s of X); "
          f"PCA (X.T@X + mean, eigh on the client) {t_pca * 1e3:.2f} ms; "
          f"tsqr {t_tsqr * 1e3:.2f} ms (Q and R persisted); "
          f"explained variance of the first {kc}: "
          f"{numpy.array2string(w_full[:kc], precision=4)}; "
          + (f"gnumpy tasks by kernel kinds {gram_log}; " if gram_log else "")
          + f"checks vs NumPy on {m} rows: {ok}", flush=True)
    if args.json:
        with open(args.json, "a") as f:
            f.write(json.dumps(res) + "\n")
    client.close()
    cluster.close()
    if not all(ok.values()):
        sys.exit(1)


if __name__ == "__main__":
    main()
