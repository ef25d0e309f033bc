"""gnumpy arrays as Dask chunks (gnumpy.dask): dask.array dispatch, distributed serialization,
and a LocalCluster of two worker processes on the default backend (CPU in CI).

One cluster serves the whole module (startup is most of its time); each test compares with
NumPy and checks that the chunks stayed gnumpy arrays.
"""
import numpy as np
import pytest

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

import gnumpy as gp  # noqa: E402
import gnumpy.dask as gd  # noqa: E402

RNG = np.random.default_rng(20)


@pytest.fixture(scope="module")
def client():
    with dask.config.set({"distributed.worker.daemon": False,
                          "distributed.admin.tick.limit": "30s"}):
        cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                           dashboard_address=":0", memory_limit="2GiB")
        c = distributed.Client(cluster)
        c.register_plugin(gd.GnumpyWorkerPlugin())
        yield c
        c.close()
        cluster.close()


def chunk_types(client, *arrays):
    """The modules of the chunk types the workers hold for `arrays` (persisted)."""
    keys = {k for a in arrays for k in distributed.futures_of(a)}
    names = {f.key for f in keys}

    def types(dask_worker, names=names):
        return sorted({type(v).__module__ for k, v in dask_worker.data.items() if k in names})

    return {t for ts in client.run(types).values() for t in ts}


def host(a):
    return a.get() if isinstance(a, gp.ndarray) else np.asarray(a)


def persisted(client, h, chunks):
    d = client.persist(da.from_array(gp.asarray(h), chunks=chunks))
    distributed.wait(d)
    return d


# ------------------------------------------------------------------ in-process dispatch
def test_dispatch_registered():
    from dask.array.dispatch import (concatenate_lookup, einsum_lookup, percentile_lookup,
                                     tensordot_lookup)
    for lookup in (concatenate_lookup, tensordot_lookup, einsum_lookup, percentile_lookup):
        assert lookup.dispatch(gp.ndarray).__module__.startswith("gnumpy")
    assert da.chunk_types.is_valid_chunk_type(gp.ndarray)
    from dask.sizeof import sizeof
    assert sizeof(gp.zeros((10, 10), dtype=np.float32)) == 400


def test_meta_and_sync_scheduler():
    h = RNG.standard_normal((12, 8))
    d = da.from_array(gp.asarray(h), chunks=(4, 4))
    assert isinstance(d._meta, gp.ndarray)
    e = (d * 2 + 1).sum(axis=0)
    assert isinstance(e._meta, gp.ndarray)
    r = e.compute(scheduler="sync")
    assert isinstance(r, gp.ndarray)
    np.testing.assert_allclose(host(r), (h * 2 + 1).sum(axis=0))
    p = da.percentile(d.ravel(), [10, 50, 90]).compute(scheduler="sync")
    assert isinstance(p, gp.ndarray)
    p_np = da.percentile(da.from_array(h, chunks=(4, 4)).ravel(), [10, 50, 90]).compute()
    np.testing.assert_allclose(host(p), p_np)          # Dask's approximation, on both
    mixed = (d + gp.asarray(h)).compute(scheduler="sync")
    np.testing.assert_allclose(host(mixed), 2 * h)


def test_tokens_copy_nothing_and_never_collide():
    from dask.base import tokenize
    x = gp.arange(10.0)
    gets = []
    orig = gp.ndarray.get
    gp.ndarray.get = lambda self, *a, **k: gets.append(1) or orig(self, *a, **k)
    try:
        t = tokenize(x)
        da.from_array(x, chunks=5)
    finally:
        gp.ndarray.get = orig
    assert not gets                         # no device-to-host copy to make a token
    x[0] = 5                                # written in place: a new token
    assert tokenize(x) != t


def test_gnumpy_backend_creation():
    with dask.config.set({"array.backend": "gnumpy"}):
        o = da.ones((6, 4), chunks=3, dtype=np.float32)
        a = da.arange(10, chunks=4)
        r = da.random.random((6, 4), chunks=3)
    for x in (o, a, r):
        assert isinstance(x._meta, gp.ndarray)
        assert isinstance(x.blocks[0].compute(scheduler="sync"), gp.ndarray)
    np.testing.assert_array_equal(host(a.compute(scheduler="sync")), np.arange(10))
    assert float(o.sum().compute(scheduler="sync")) == 24.0
    back = da.ones(4, chunks=2).to_backend("gnumpy")
    assert isinstance(back.compute(scheduler="sync"), gp.ndarray)


@pytest.mark.parametrize("value", [
    np.arange(12.0).reshape(3, 4), np.float32(3.5) * np.ones(()), np.zeros((0, 3)),
    np.array([True, False, True]), (np.arange(6) + 1j).astype(np.complex64),
    np.arange(24, dtype=np.int16).reshape(4, 6).T])
def test_serializers_stage_through_host(value):
    from distributed.protocol import deserialize, serialize
    x = gp.asarray(value)
    header, frames = serialize(x, serializers=["dask"])
    assert header["serializer"] == "dask"
    assert all(isinstance(f, (bytes, bytearray, memoryview)) for f in frames)
    y = deserialize(header, frames)
    assert isinstance(y, gp.ndarray)
    assert y.dtype == value.dtype and y.shape == value.shape
    np.testing.assert_array_equal(host(y), value)


# ------------------------------------------------------------------ on the cluster
def test_workers_are_gnumpy_workers(client):
    info = client.run(gd.worker_info)
    assert len(info) == 2
    assert len({i["pid"] for i in info.values()}) == 2
    pools = client.run(lambda dask_worker: type(dask_worker.executor).__name__)
    assert set(pools.values()) == {"GnumpyThreadPoolExecutor"}


def test_elementwise(client):
    h = RNG.standard_normal((400, 30)).astype(np.float32)
    d = persisted(client, h, (100, 15))
    e = client.persist(np.float32(2.5) * d + np.sin(d) * d)   # NumPy ufuncs defer to Dask
    distributed.wait(e)
    assert chunk_types(client, d, e) == {"gnumpy._array"}
    r = e.compute()
    assert isinstance(r, gp.ndarray)
    np.testing.assert_allclose(host(r), np.float32(2.5) * h + np.sin(h) * h, rtol=1e-5,
                               atol=1e-5)


def test_reductions(client):
    h = RNG.standard_normal((300, 20))
    d = persisted(client, h, (50, 10))
    cases = {
        "sum": (d.sum(), h.sum()),
        "sum0": ((d * d).sum(axis=0), (h * h).sum(axis=0)),
        "mean1": (d.mean(axis=1), h.mean(axis=1)),
        "var": (d.var(), h.var()),
        "std0": (d.std(axis=0, ddof=1), h.std(axis=0, ddof=1)),
        "max": (d.max(axis=0), h.max(axis=0)),
        "argmin": (d.argmin(axis=0), h.argmin(axis=0)),
        "nanmean": (da.nanmean(d, axis=0), np.nanmean(h, axis=0)),
        "any": ((d > 3).any(axis=1), (h > 3).any(axis=1)),
    }
    results = dask.compute(*[c[0] for c in cases.values()])
    for (name, (_, ref)), r in zip(cases.items(), results):
        assert isinstance(r, gp.ndarray), name
        np.testing.assert_allclose(host(r), ref, rtol=1e-10, atol=1e-10, err_msg=name)


def test_matmul_and_contractions(client):
    h = RNG.standard_normal((400, 24))
    w = RNG.standard_normal((24, 6))
    d = persisted(client, h, (100, 24))
    dw = da.from_array(gp.asarray(w), chunks=(12, 6))
    gram, proj, td, es = dask.compute(d.T @ d, d @ dw, da.tensordot(d, d, axes=([0], [0])),
                                      da.einsum("ij,ik->jk", d, d))
    for r in (gram, proj, td, es):
        assert isinstance(r, gp.ndarray)
    np.testing.assert_allclose(host(gram), h.T @ h, rtol=1e-10)
    np.testing.assert_allclose(host(proj), h @ w, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(host(td), h.T @ h, rtol=1e-10)
    np.testing.assert_allclose(host(es), h.T @ h, rtol=1e-10)


def test_blocked_qr(client):
    h = RNG.standard_normal((600, 8))
    d = persisted(client, h, (100, 8))
    q, r = da.linalg.tsqr(d)
    q, r = client.persist([q, r])
    distributed.wait([q, r])
    assert chunk_types(client, q, r) == {"gnumpy._array"}
    qh, rh = host(q.compute()), host(r.compute())
    np.testing.assert_allclose(qh @ rh, h, atol=1e-10)
    np.testing.assert_allclose(qh.T @ qh, np.eye(8), atol=1e-10)
    assert np.allclose(np.triu(rh), rh)
    r_np = np.linalg.qr(h, mode="r")
    np.testing.assert_allclose(abs(rh), abs(r_np), rtol=1e-8, atol=1e-10)


def test_one_task_one_kernel(client):
    """A chunk's elementwise work and its reduction run as one fused kernel in one task."""
    h = RNG.standard_normal((800, 16))
    d = persisted(client, h, (100, 16))
    client.run(gd.task_log, True)
    e = (2 * d + 1).sum(axis=0)
    r = e.compute()
    np.testing.assert_allclose(host(r), (2 * h + 1).sum(axis=0))
    log = [t for ts in client.run(gd.task_log, True).values() for t in ts]
    first = [t for t in log if t[0][0].startswith("sum-") and "partial" not in t[0][0]
             and "aggregate" not in t[0][0]]
    assert len(first) == d.npartitions
    assert all(k == 1 and kinds == {"reduce": 1} for _, k, kinds in first), first
    # an elementwise chain is one kernel per chunk
    e = client.persist(d * 2 - np.exp(d) / 3)
    distributed.wait(e)
    log = [t for ts in client.run(gd.task_log, True).values() for t in ts]
    assert sorted(k for _, k, _ in log) == [1] * d.npartitions


def test_transfers_use_the_gnumpy_serializers(client):
    h = RNG.standard_normal((200, 10))
    d = persisted(client, h, (20, 10))
    client.run(lambda: gd.transfers.update(dict.fromkeys(gd.transfers, 0)))
    # a rechunk across row blocks held by different workers moves chunks between them
    w = list(client.scheduler_info()["workers"])
    d0 = client.persist(d[:100], workers=w[0])
    d1 = client.persist(d[100:], workers=w[1])
    distributed.wait([d0, d1])
    both = client.persist(da.concatenate([d0, d1]).rechunk((200, 10)), workers=w[0])
    distributed.wait(both)
    moved = client.run(lambda: dict(gd.transfers))
    assert sum(m["serialized"] for m in moved.values()) > 0
    assert sum(m["deserialized"] for m in moved.values()) > 0
    assert chunk_types(client, both) == {"gnumpy._array"}
    np.testing.assert_array_equal(host(both.compute()), h)
    # a gnumpy array scattered from the client, used by a task, gathered back
    f = client.scatter(gp.arange(6.0))
    g = client.submit(lambda x: x * 2, f)
    out = g.result()
    assert isinstance(out, gp.ndarray)
    np.testing.assert_array_equal(host(out), np.arange(6.0) * 2)


def test_task_errors_reach_the_client(client):
    d = da.from_array(gp.arange(8.0), chunks=4)
    with pytest.raises(ValueError):
        d.map_blocks(lambda b: b.reshape(3, -1), dtype=d.dtype).compute()


def test_local_gpu_cluster_on_cpu():
    """LocalGPUCluster without a GPU: N CPU workers, each a gnumpy worker by the preload."""
    with gd.LocalGPUCluster(1, device="cpu", dashboard_address=":0",
                            memory_limit="1GiB") as cluster, \
            distributed.Client(cluster) as c:
        info = list(c.run(gd.worker_info).values())
        assert [i["device"] for i in info] == ["cpu"]
        pools = c.run(lambda dask_worker: type(dask_worker.executor).__name__)
        assert set(pools.values()) == {"GnumpyThreadPoolExecutor"}
        h = RNG.standard_normal(1000)
        r = (da.from_array(gp.asarray(h), chunks=250) ** 2).sum().compute()
        assert isinstance(r, gp.ndarray)
        np.testing.assert_allclose(float(r), (h ** 2).sum())


def test_module_doctests():
    # the package's docstring and those of its modules (LocalGPUCluster's is in _cluster)
    import doctest
    import importlib
    import pkgutil
    mods = [gd] + [importlib.import_module(f"gnumpy.dask.{m.name}")
                   for m in pkgutil.iter_modules(gd.__path__)]
    res = [doctest.testmod(m, optionflags=doctest.NORMALIZE_WHITESPACE) for m in mods]
    assert sum(r.failed for r in res) == 0 and sum(r.attempted for r in res) > 0


def test_docs_page_examples_run(capsys):
    """The Python blocks of docs/dask.md run, in order, and print what their comments say."""
    import pathlib
    import re
    text = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "dask.md").read_text()
    ns = {}
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        exec(compile(block, "docs/dask.md", "exec"), ns)
        out = capsys.readouterr().out.splitlines()
        want = [c.strip() for line in block.splitlines() if line.lstrip().startswith("print(")
                for c in re.findall(r"#\s*(.*)$", line)]
        for got, comment in zip(out, want):
            if re.match(r"[\[<\d'TF-]", comment):        # a printed value, not prose
                assert got == comment.split("  ")[0], (got, comment)
