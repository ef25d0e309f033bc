"""Row groups: last-axis reductions fused with the elementwise work that reads them back
across the row (softmax as one kernel).  Values against NumPy on every backend; the
number and kind of groups show the fusion (the CUDA kernel itself runs on the GPU suite
and is NVRTC-compiled on CPU-only CI)."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import gnumpy as gp
from helpers import check

RNG = np.random.default_rng(7)


def _data(shape, dtype, special=True):
    a = RNG.standard_normal(shape).astype(dtype) * 3
    if special and a.size > 8:
        flat = a.reshape(-1)
        flat[[1, 5]] = [np.inf, -np.inf]
        flat[-1] = np.nan
        flat[3] = -0.0
    return a


def _softmax(xp, X):
    e = xp.exp(X - X.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _counts(*arrays):
    gp.stats.reset()
    gp.evaluate(*arrays)
    return gp.stats.groups, gp.stats.by_kind["rows"]


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(64, 2), (100, 37), (3, 40, 64), (70, 1025)])
def test_softmax_is_one_kernel(shape, dtype):
    a = _data(shape, dtype)
    X = gp.asarray(a)
    out = _softmax(gp, X)
    assert _counts(out) == (1, 1)
    with np.errstate(all="ignore"):
        check(out, _softmax(np, a), rtol=2e-3 if dtype == np.float16 else None)


def test_log_softmax_and_softmax_share_one_kernel():
    a = _data((128, 96), np.float32)
    X = gp.asarray(a)
    m = X.max(axis=1, keepdims=True)
    s = gp.exp(X - m).sum(axis=1, keepdims=True)
    sm, lsm = gp.exp(X - m) / s, X - m - gp.log(s)
    assert _counts(sm, lsm) == (1, 1)
    with np.errstate(all="ignore"):
        mn = a.max(axis=1, keepdims=True)
        sn = np.exp(a - mn).sum(axis=1, keepdims=True)
        check(sm, np.exp(a - mn) / sn)
        check(lsm, a - mn - np.log(sn))


@pytest.mark.parametrize("ddof", [0, 1])
def test_row_standardization(ddof):
    # mean and var0 phases, keepdims=False read back through [:, None]
    a = _data((90, 33), np.float64, special=False)
    X = gp.asarray(a)
    out = (X - X.mean(axis=1)[:, None]) / X.std(axis=1, ddof=ddof)[:, None]
    assert _counts(out) == (1, 1)
    check(out, (a - a.mean(axis=1)[:, None]) / a.std(axis=1, ddof=ddof)[:, None])


def test_argmax_and_bool_outputs():
    a = RNG.integers(-5, 5, (80, 17)).astype(np.int32)
    X = gp.asarray(a)
    is_max = X == X.max(axis=1, keepdims=True)
    first = gp.arange(17)[None, :] == X.argmax(axis=1)[:, None]
    assert _counts(is_max, first)[1] == 1
    check(is_max, a == a.max(axis=1, keepdims=True))
    check(first, np.arange(17)[None, :] == a.argmax(axis=1)[:, None])


def test_strided_and_broadcast_inputs():
    a = _data((150, 80), np.float32, special=False)
    b = _data((40,), np.float32, special=False)
    X = gp.asarray(a)[::2, ::-2]                   # non-contiguous rows, reversed
    B = gp.asarray(b)                              # broadcast across rows
    Y = X * B
    out = Y - gp.log(gp.exp(Y).sum(axis=1, keepdims=True))
    assert _counts(out) == (1, 1)
    y = a[::2, ::-2] * b
    # log-softmax cancels where a value is its row's log-sum: an absolute tolerance
    check(out, y - np.log(np.exp(y).sum(axis=1, keepdims=True)), rtol=1e-4, atol=1e-5)
    # a transposed operand: the reduced axis is strided in memory
    Z = gp.asarray(a[:, :64]).T
    check(_softmax(gp, Z), _softmax(np, a[:, :64].T), rtol=1e-5)


def test_complex_and_integer_rows():
    c = (RNG.standard_normal((64, 9)) + 1j * RNG.standard_normal((64, 9))).astype(np.complex64)
    C = gp.asarray(c)
    out = C / C.sum(axis=1, keepdims=True)
    assert _counts(out) == (1, 1)
    check(out, c / c.sum(axis=1, keepdims=True), rtol=1e-4)
    i = RNG.integers(0, 100, (64, 5), dtype=np.int64)
    out = gp.asarray(i) - gp.asarray(i).min(axis=1, keepdims=True)
    check(out, i - i.min(axis=1, keepdims=True))


def test_not_fused_when_the_reduction_is_needed_elsewhere():
    a = _data((100, 30), np.float32, special=False)
    X = gp.asarray(a)
    m = X.max(axis=1, keepdims=True)
    out = X - m
    groups, rows = _counts(out, m)                 # m is a result of its own
    assert rows == 0 and groups == 2
    check(out, a - a.max(axis=1, keepdims=True))
    check(m, a.max(axis=1, keepdims=True))


def test_not_fused_when_not_a_row_broadcast():
    a = _data((96, 96), np.float32, special=False)
    X = gp.asarray(a)
    out = X - X.max(axis=1, keepdims=True).T     # a column broadcast of a row max
    assert _counts(out)[1] == 0
    check(out, a - a.max(axis=1, keepdims=True).T)
    out = X - X.max(axis=0, keepdims=True)       # a column reduction
    assert _counts(out)[1] == 0


def test_few_rows_and_switch_off_use_separate_kernels():
    a = _data((8, 50), np.float32)
    with np.errstate(all="ignore"):
        out = _softmax(gp, gp.asarray(a))
        assert _counts(out) == (3, 0)
        check(out, _softmax(np, a))
        b = _data((100, 50), np.float32)
        with gp.config.override(fuse_rows=False):
            out = _softmax(gp, gp.asarray(b))
            assert _counts(out) == (3, 0)
        check(out, _softmax(np, b))


def test_row_group_writes_into_out_and_slices():
    a = _data((64, 12), np.float32, special=False)
    X = gp.asarray(a)
    dest = gp.zeros((64, 24), dtype=np.float32)
    dest[:, ::2] = _softmax(gp, X)
    want = np.zeros((64, 24), np.float32)
    want[:, ::2] = _softmax(np, a)
    check(dest, want)
    out = gp.empty((64, 12), dtype=np.float32)
    r = gp.divide(gp.exp(X), gp.exp(X).sum(axis=1, keepdims=True), out=out)
    assert r is out
    check(out, np.exp(a) / np.exp(a).sum(axis=1, keepdims=True))


@given(rows=st.integers(64, 200), k=st.integers(2, 300), lead=st.sampled_from([(), (2,)]),
       dtype=st.sampled_from([np.float32, np.float64]), seed=st.integers(0, 2**16))
def test_random_row_pipelines(rows, k, lead, dtype, seed):
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal(lead + (rows, k)) * 4).astype(dtype)
    X = gp.asarray(a)
    mu = X.mean(axis=-1, keepdims=True)
    out = (X - mu) * gp.exp(-(X - mu) ** 2 / X.var(axis=-1, keepdims=True).clip(1e-3))
    assert _counts(out) == (1, 1)
    mn = a.mean(axis=-1, keepdims=True)
    want = (a - mn) * np.exp(-(a - mn) ** 2 / a.var(axis=-1, keepdims=True).clip(1e-3))
    check(out, want, rtol=1e-4 if dtype == np.float32 else 1e-10, atol=1e-5)


def test_consumer_read_by_a_barrier_runs_first():
    # B's level is above A's; the sort reads A: the row group must not be scheduled
    # after a barrier that needs one of its outputs
    a = _data((64, 20), np.float32, special=False)
    X = gp.asarray(a)
    m = X.max(axis=1, keepdims=True)
    A = X - m
    s = gp.exp(A).sum(axis=1, keepdims=True)
    B = gp.exp(A) / s
    srt = gp.sort(A, axis=1)
    gp.evaluate(B, srt)
    check(B, _softmax(np, a))
    check(srt, np.sort(a - a.max(axis=1, keepdims=True), axis=1))


def test_softmax_of_a_matmul_and_of_a_full_reduction():
    # the matmul (a barrier) and a full reduction are materialized first; the softmax of
    # their result is still one row group
    a = _data((96, 40), np.float32, special=False)
    w = _data((40, 24), np.float32, special=False)
    L = gp.asarray(a) @ gp.asarray(w)
    out = _softmax(gp, L / L.sum())
    from gnumpy._graph.fuse import schedule
    groups = schedule([out._node])
    assert [g.kind for g in groups] == ["barrier", "reduce", "rows"]
    # the full sum, read only inside the row group, still gets its buffer (on the GPU a
    # missing one was read through a null pointer)
    assert groups[1].outputs == [groups[2].phases[0].srcs[0].srcs[1].srcs[0]]
    gp.stats.reset()
    gp.evaluate(out)
    assert gp.stats.by_kind["rows"] == 1 and gp.stats.groups == 3
    want = a @ w
    check(out, _softmax(np, want / want.sum()), rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("registers", [True, False])
@pytest.mark.parametrize("shape", [(64, 5000), (64, 4099), (64, 1 << 15)])
def test_long_rows_with_and_without_the_register_cache(shape, registers):
    # 5000: 16-byte vectors, 3 per thread cached; 4099: scalar, cached; 2^15: more than 8
    # vectors per thread, re-read from L2 either way
    a = _data(shape, np.float32)
    with gp.config.override(row_registers=registers):
        out = _softmax(gp, gp.asarray(a))
        assert _counts(out) == (1, 1)
    with np.errstate(all="ignore"):
        check(out, _softmax(np, a), rtol=1e-5)


def _row_plan(*arrays):
    from gnumpy.kernels import build
    from gnumpy._graph.fuse import schedule
    g = [g for g in schedule([a._node for a in arrays]) if g.kind == "rows"][0]
    return build.plan_group(g, lambda o: 1 << 20, 132, 4)


def _log_softmax(xp, X):
    m = X.max(axis=-1, keepdims=True)
    return X - m - xp.log(xp.exp(X - m).sum(axis=-1, keepdims=True))


@pytest.mark.parametrize("online", [True, False])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_online_max_and_exp_sum(online, dtype):
    # softmax and log-softmax: the max and exp-sum phases run as one pass (gn_mxs); rows that
    # rescale at every step (ascending), rows of -inf, rows with +inf and NaN
    a = _data((96, 300), dtype)
    a[10] = np.sort(a[10][np.isfinite(a[10])])[:1].repeat(300) + np.arange(300)
    a[11] = -np.inf
    a[12, 7] = np.inf
    a[13, ::2] = -np.inf
    X = gp.asarray(a)
    with gp.config.override(row_online=online, row_registers=False):
        sm, lse = _softmax(gp, X), _log_softmax(gp, X)
        mod, p = _row_plan(sm, lse)
        assert p.online == ((0,) if online else ())
        assert ("typedef gn_mxs<" in mod.source(p, "k")) == online
        assert _counts(sm, lse) == (1, 1)
    with np.errstate(all="ignore"):
        check(sm, _softmax(np, a), rtol=1e-5 if dtype == np.float32 else 1e-12)
        check(lse, _log_softmax(np, a), rtol=1e-5 if dtype == np.float32 else 1e-12)


def test_online_pass_only_for_the_exact_pattern():
    a = _data((64, 40), np.float32, special=False)
    X = gp.asarray(a)
    m = X.max(axis=1, keepdims=True)
    cases = {
        "min": gp.exp(X - X.min(axis=1, keepdims=True)).sum(axis=1, keepdims=True),
        "scaled": gp.exp(2 * X - m).sum(axis=1, keepdims=True),
        "reversed": gp.exp(m - X).sum(axis=1, keepdims=True),
        "exp2": gp.exp2(X - m).sum(axis=1, keepdims=True),
        "float16": gp.exp(X.astype(np.float16) - X.astype(np.float16).max(
            axis=1, keepdims=True)).sum(axis=1, keepdims=True),
    }
    for name, s in cases.items():
        out = X / s
        assert _row_plan(out)[1].online == (), name
        with np.errstate(all="ignore"):
            xn = a.astype(np.float16) if name == "float16" else a
            want = {"min": np.exp(a - a.min(axis=1, keepdims=True)),
                    "scaled": np.exp(2 * a - a.max(axis=1, keepdims=True)),
                    "reversed": np.exp(a.max(axis=1, keepdims=True) - a),
                    "exp2": np.exp2(a - a.max(axis=1, keepdims=True)),
                    "float16": np.exp(xn - xn.max(axis=1, keepdims=True))}[name]
            check(out, a / want.sum(axis=1, keepdims=True),
                  rtol=5e-3 if name == "float16" else 1e-5)
    # the max of x * 2 and the sum of exp(x * 2 - max): still the pattern (one expression)
    Y = X * 2
    out = gp.exp(Y - Y.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)
    with gp.config.override(row_registers=False):
        assert _row_plan(out / Y)[1].online == (0,)
    # a row held in registers: the separate passes read no memory, no online pass
    with gp.config.override(row_registers=True):
        p = _row_plan(out / Y)[1]
        assert p.cached and p.online == ()


def test_identical_row_reductions_run_once():
    a = _data((64, 50), np.float32, special=False)
    X = gp.asarray(a)
    out = gp.exp(X - X.max(axis=1, keepdims=True)) / gp.exp(
        X - X.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)
    mod, p = _row_plan(out)
    assert len(p.spec.phases) == 2
    check(out, _softmax(np, a), rtol=1e-5)


@pytest.mark.parametrize("registers", [True, False])
@pytest.mark.parametrize("shape,G", [((301, 1000), 32), ((77, 3, 128), 32), ((130, 33), 32),
                                     ((96, 5000), 256)])
def test_warp_rows_share_a_block(shape, G, registers):
    # rows a warp covers run 8 to a block (no block barrier; rows past M in the last block,
    # odd row counts); longer rows keep a block each
    a = _data(shape, np.float32)
    X = gp.asarray(a)
    with gp.config.override(row_registers=registers):
        sm, lsm = _softmax(gp, X), _log_softmax(gp, X)
        mod, p = _row_plan(sm, lsm)
        assert p.G == G and p.block == (256 if G == 32 else G)
        src = mod.source(p, "k")
        assert ("__syncthreads" in src) == (G > 32)
        assert _counts(sm, lsm) == (1, 1)
    with np.errstate(all="ignore"):
        check(sm, _softmax(np, a), rtol=1e-5)
        check(lsm, _log_softmax(np, a), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape", [(3000, 1000), (1100, 5000)])
def test_row_grid_is_a_block_per_row_group(shape):
    # a block per group of rows (the kernel's row loop runs once)
    a = _data(shape, np.float32)
    out = _softmax(gp, gp.asarray(a))
    mod, p = _row_plan(out)
    assert p.grid[0] == -(-shape[0] // (p.block // p.G))
    assert _counts(out) == (1, 1)
    with np.errstate(all="ignore"):
        check(out, _softmax(np, a), rtol=1e-5)


@given(rows=st.integers(64, 160), k=st.integers(2, 3000), dtype=st.sampled_from(
    [np.float32, np.float64]), registers=st.booleans(), online=st.booleans(),
    specials=st.booleans(), seed=st.integers(0, 2**16))
def test_random_softmax_variants(rows, k, dtype, registers, online, specials, seed):
    # softmax and log-softmax over random row lengths (warp rows, block rows, vectors or
    # scalars), with and without the register cache and the online pass, +-inf and NaN
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal((rows, k)) * rng.uniform(0.1, 50)).astype(dtype)
    if specials:
        a[rng.integers(rows), rng.integers(k)] = np.inf
        a[rng.integers(rows), rng.integers(k)] = np.nan
        a[rng.integers(rows)] = -np.inf
    X = gp.asarray(a)
    with gp.config.override(row_registers=registers, row_online=online):
        sm, lsm = _softmax(gp, X), _log_softmax(gp, X)
        assert _counts(sm, lsm) == (1, 1)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    with np.errstate(all="ignore"):
        check(sm, _softmax(np, a), rtol=tol, atol=tol)
        check(lsm, _log_softmax(np, a), rtol=tol, atol=tol * 100)
