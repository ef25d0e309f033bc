"""SAXPY and a sum with dask.array over gnumpy chunks, one Dask worker per GPU.

    python3 examples/dask_saxpy.py                        # all GPUs (2 CPU workers without one)
    python3 examples/dask_saxpy.py --workers 1 --per-worker-mib 16384 --chunk-mib 4096
    python3 examples/dask_saxpy.py --workers 0             # no Dask: one process, one device
    python3 examples/dask_saxpy.py --lib cupy              # the peer: dask.array over CuPy

Weak scaling: each worker holds `--per-worker-mib` of x and of y (and of z = a*x + y), so
with N workers the arrays are N times that (with N=2 and 24 GiB per worker, x, y and z
together outgrow one H200).  The chunks are made on the workers (a formula of the index, so
NumPy can recompute any of them) and persisted; then
  saxpy  z = a*x + y, persisted: 12 bytes per element (x, y read, z written),
  sum    x.sum(): 4 bytes per element,
  stream sum(a*x + y) over `--stream-mib` of x that is never stored: each task makes its
         chunk, applies the SAXPY and reduces it in one fused gnumpy kernel, so the array may
         be larger than all GPUs' memory together (reported as elements per second).
Results are checked against NumPy (sampled chunks of z, closed forms of the sums), times
are medians of `--repeat` runs after a warm-up, and each worker's clock is stopped only
after its device has finished (a task ends when its kernels are queued).

The client keeps its (small) results on gnumpy's CPU backend (GNUMPY_DEVICE=cpu unless
set), so the GPUs' memory goes to the workers.
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy

PX, PY = 1021, 509            # x[i] = (i mod PX) / PX, y[i] = (i mod PY) / PY (float32)
A = numpy.float32(2.5)
SUM_RTOL = 1e-3               # float32 sums of up to 10^11 elements, each library's own order


def rel_err(got, want):
    return abs(got - want) / abs(want)


def values(xp, start, length, period):
    """The chunk [start, start + length) of the period-`period` sequence, in float32."""
    i = xp.arange(start, start + length, dtype=xp.int64)
    return (i % period).astype(xp.float32) * xp.float32(1.0 / period)


def lib_module(lib):
    if lib == "gnumpy":
        import gnumpy
        return gnumpy
    if lib == "cupy":
        import cupy
        return cupy
    return numpy


def make_chunk(lib, period, block_info=None):
    start, stop = block_info[None]["array-location"][0]
    return values(lib_module(lib), start, stop - start, period)


def make_beside(xb, lib, period, block_info=None):
    return make_chunk(lib, period, block_info)


def device_sync(lib):
    if lib == "gnumpy":
        import gnumpy.dask
        gnumpy.dask.synchronize()
    elif lib == "cupy":
        import cupy
        cupy.cuda.runtime.deviceSynchronize()


def kernel_histogram(client, gd):
    """{kernels a task ran: number of such tasks} over all workers since the last call."""
    hist = {}
    for log in client.run(gd.task_log, True).values():
        for _, kernels, _ in log:
            hist[kernels] = hist.get(kernels, 0) + 1
    return dict(sorted(hist.items()))


def exact_sum(n, period):
    """sum over i < n of the float32 values of `values` (float64, exact per element)."""
    v = values(numpy, 0, period, period).astype(numpy.float64)
    return (n // period) * v.sum() + v[: n % period].sum()


def to_host(a):
    if hasattr(a, "get"):
        return a.get()
    return numpy.asarray(a)


def median_time(fn, repeat):
    """Median seconds of fn(k) for k = 1..repeat, after a warm-up fn(0) (kernels compiled,
    pools grown).  Dask runs get k to clone their graph: a key the cluster still holds
    would not run again."""
    fn(0)
    ts = []
    for k in range(1, repeat + 1):
        t0 = time.perf_counter()
        fn(k)
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def run_local(args, n, chunk):
    """No Dask: the same work on one device in this process (the one-GPU reference)."""
    xp = lib_module(args.lib)
    x, y = xp.empty(n, dtype=xp.float32), xp.empty(n, dtype=xp.float32)
    for start in range(0, n, chunk):        # by chunks: CuPy's int64 temporaries stay small
        x[start:start + chunk] = values(xp, start, min(chunk, n - start), PX)
        y[start:start + chunk] = values(xp, start, min(chunk, n - start), PY)
        if args.lib == "gnumpy":
            xp.evaluate(x, y)               # stored, as the Dask run's persisted chunks
    sync = (lambda: device_sync(args.lib))
    out = {}

    def saxpy(k):
        z = A * x + y
        if args.lib == "gnumpy":
            xp.evaluate(z)
        sync()
        out["z"] = z

    def total(k):
        out["s"] = float(x.sum())

    t_saxpy = median_time(saxpy, args.repeat)
    t_sum = median_time(total, args.repeat)
    zs = to_host(out["z"][:chunk])
    ok = numpy.allclose(zs, A * values(numpy, 0, chunk, PX) + values(numpy, 0, chunk, PY),
                        rtol=1e-6, atol=1e-6)
    err = {"sum": rel_err(out["s"], exact_sum(n, PX))}
    ok &= err["sum"] <= SUM_RTOL
    return {"saxpy_s": t_saxpy, "sum_s": t_sum, "check": bool(ok), "tasks": None,
            "sum_rel_err": err}


def run_dask(args, n, chunk, stream_n):
    import dask.array as da
    from dask.graph_manipulation import clone
    from distributed import Client, wait

    import gnumpy.dask as gd
    lib = args.lib
    if lib == "numpy":
        cluster = gd.LocalGPUCluster(args.workers or None, device="cpu", preload_gnumpy=False,
                                     dashboard_address=":0")
    else:
        cluster = gd.LocalGPUCluster(args.workers or None, preload_gnumpy=(lib == "gnumpy"),
                                     dashboard_address=":0")
    client = Client(cluster)
    nw = len(client.scheduler_info(n_workers=-1)["workers"])
    xp = lib_module(lib)
    meta = xp.empty((0,), dtype=numpy.float32)
    sync = lambda: client.run(device_sync, lib)                       # noqa: E731

    def make(period, length):
        return da.map_blocks(make_chunk, lib, period, chunks=((chunk,) * (length // chunk),),
                             dtype=numpy.float32, meta=meta)

    x = client.persist(make(PX, n))
    wait(x)
    # y made by tasks that read x's chunks, so Dask runs each beside its x chunk and the
    # SAXPY moves no data between workers (root tasks are spread, but not paired)
    y = client.persist(x.map_blocks(make_beside, lib, PY, dtype=numpy.float32, meta=meta))
    wait(y)
    where = client.who_has([x, y])
    apart = sum(1 for i in range(x.npartitions)
                if set(where[(x.name, i)]) != set(where[(y.name, i)]))
    sync()
    if lib == "gnumpy":
        client.run(gd.task_log, clear=True)
    z_box = []

    def saxpy(k):
        z_box.clear()
        z = clone(A * x + y, omit=[x, y], seed=k).persist()
        wait(z)
        sync()
        z_box.append(z)

    t_saxpy = median_time(saxpy, args.repeat)
    tasks = {"saxpy": kernel_histogram(client, gd)} if lib == "gnumpy" else None
    z = z_box[0]
    # check: a few chunks of z against NumPy
    ok = True
    for i in sorted({0, z.npartitions // 2, z.npartitions - 1})[: args.check_chunks]:
        zi = to_host(z.blocks[i].compute())
        ref = A * values(numpy, i * chunk, chunk, PX) + values(numpy, i * chunk, chunk, PY)
        ok &= numpy.allclose(zi, ref, rtol=1e-6, atol=1e-6)
    del z, z_box[:]
    s_box = []

    def total(k):
        s_box[:] = [float(to_host(clone(x.sum(), omit=[x], seed=k).compute()))]

    t_sum = median_time(total, args.repeat)
    err = {"sum": rel_err(s_box[0], exact_sum(n, PX))}
    ok &= err["sum"] <= SUM_RTOL
    if lib == "gnumpy":
        tasks["sum"] = kernel_histogram(client, gd)
    out = {"saxpy_s": t_saxpy, "sum_s": t_sum, "workers": nw, "tasks": tasks,
           "xy_chunks_apart": apart}
    if stream_n:
        sx, sy = make(PX, stream_n), make(PY, stream_n)
        r_box = []

        def stream(k):
            r_box[:] = [float(to_host(clone((A * sx + sy).sum(), seed=k).compute()))]

        out["stream_s"] = median_time(stream, max(1, args.repeat // 2))
        ref = float(A) * exact_sum(stream_n, PX) + exact_sum(stream_n, PY)
        err["stream"] = rel_err(r_box[0], ref)
        ok &= err["stream"] <= SUM_RTOL
        if lib == "gnumpy":
            tasks["stream"] = kernel_histogram(client, gd)
    out["check"] = bool(ok)
    out["sum_rel_err"] = err
    client.close()
    cluster.close()
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lib", choices=("gnumpy", "cupy", "numpy"), default="gnumpy")
    p.add_argument("--workers", type=int, default=None,
                   help="Dask workers (default: one per GPU, 2 on CPU); 0: no Dask")
    p.add_argument("--per-worker-mib", type=float, default=None,
                   help="MiB of x per worker (default 16384 on GPU, 32 on CPU)")
    p.add_argument("--chunk-mib", type=float, default=None,
                   help="MiB per chunk (default: a quarter of --per-worker-mib)")
    p.add_argument("--stream-mib", type=float, default=None,
                   help="MiB of the streamed x (default 4x all workers' x, 2x on CPU; 0: skip)")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--check-chunks", type=int, default=3)
    p.add_argument("--json", help="append the result as one JSON line to this file")
    args = p.parse_args()
    if args.lib == "gnumpy":
        os.environ.setdefault("GNUMPY_DEVICE", "cpu")   # the client; workers get their GPU
    import gnumpy.dask as gd
    gpus = len(gd.gpu_ids()) if args.lib != "numpy" else 0
    if args.lib == "cupy" and not gpus:
        sys.exit("dask_saxpy.py --lib cupy needs a GPU")
    nw = args.workers if args.workers is not None else (gpus or 2)
    per = args.per_worker_mib or (16384 if gpus else 32)
    chunk = int((args.chunk_mib or per / 4) * 2**20) // 4
    per_n = max(chunk, int(per * 2**20) // 4 // chunk * chunk)
    n = per_n * max(nw, 1)
    stream_mib = (args.stream_mib if args.stream_mib is not None
                  else (4 if gpus else 2) * per * max(nw, 1))
    stream_n = int(stream_mib * 2**20) // 4 // chunk * chunk if nw else 0
    if nw == 0:
        if args.lib == "gnumpy":
            os.environ["GNUMPY_DEVICE"] = "cuda" if gpus else "cpu"
        r = run_local(args, n, chunk)
    else:
        r = run_dask(args, n, chunk, stream_n)
    gbs_saxpy = 12 * n / r["saxpy_s"] / 1e9
    gbs_sum = 4 * n / r["sum_s"] / 1e9
    res = dict(example="dask_saxpy", lib=args.lib, workers=nw, n=n, chunk=chunk,
               saxpy_ms=r["saxpy_s"] * 1e3, saxpy_GBs=gbs_saxpy, sum_ms=r["sum_s"] * 1e3,
               sum_GBs=gbs_sum, check=r["check"], sum_rel_err=r.get("sum_rel_err"),
               tasks=r.get("tasks"),
               xy_chunks_apart=r.get("xy_chunks_apart"))
    line = (f"dask_saxpy lib={args.lib} workers={nw} n={n} ({4 * n / 2**30:.2f} GiB per array) "
            f"chunk={chunk}: saxpy {r['saxpy_s'] * 1e3:.2f} ms = {gbs_saxpy:.1f} GB/s"
            f" ({gbs_saxpy / max(nw, 1):.1f} per worker); sum {r['sum_s'] * 1e3:.2f} ms = "
            f"{gbs_sum:.1f} GB/s ({gbs_sum / max(nw, 1):.1f} per worker)")
    if "stream_s" in r:
        res.update(stream_n=stream_n, stream_ms=r["stream_s"] * 1e3,
                   stream_Gelem_s=stream_n / r["stream_s"] / 1e9)
        line += (f"; stream sum(a*x+y) over {stream_n} elements ({4 * stream_n / 2**30:.2f} GiB"
                 f" of x, never stored): {r['stream_s'] * 1e3:.1f} ms = "
                 f"{stream_n / r['stream_s'] / 1e9:.2f} Gelem/s")
    if r.get("tasks"):
        line += f"; tasks by gnumpy kernels run (kernels: tasks): {r['tasks']}"
    errs = ", ".join(f"{k} {v:.1e}" for k, v in (r.get("sum_rel_err") or {}).items())
    line += f"; check vs NumPy: {'ok' if r['check'] else 'FAILED'} (relative error of {errs})"
    print(line, flush=True)
    if args.json:
        with open(args.json, "a") as f:
            f.write(json.dumps(res) + "\n")
    if not r["check"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
