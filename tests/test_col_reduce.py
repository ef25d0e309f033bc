"""Reductions over leading axes (the CUDA 'col' strategy: threads across the contiguous kept
columns, row lanes down the reduced axis, the reduced axis split over blocks when there are
few columns).  Values against NumPy on every backend; the plan assertions show which
variant of the kernel each case reaches (it runs on the GPU suite and is NVRTC-compiled on
CPU-only CI)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import gnumpy as gp
from gnumpy._config import config
from gnumpy._graph.fuse import schedule
from gnumpy._graph.ir import EW
from gnumpy.kernels import build
from helpers import check

RNG = np.random.default_rng(11)


def _plan(arr):
    """The reduce plan the CUDA backend makes for `arr` on an H200 (132 SMs)."""
    g = [g for g in schedule([arr._node]) if g.kind == "reduce"][0]
    _, p = build.plan_group(g, lambda o: 1 << 20, 132, max(1, 2048 // config.block_size))
    return p


def _atol(a, axis, fn="sum"):
    """Absolute tolerance of a float sum or mean: a few float32 ulps of the sum of magnitudes
    (the summation orders differ, and random columns can sum to nearly zero)."""
    m = np.abs(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64))
    m = np.where(np.isfinite(m), m, 0)
    m = m.sum(axis=axis) if fn == "sum" else m.mean(axis=axis)
    # float16: NumPy sums in float16 (the CPU backend too), the GPU in float32
    eps = 1e-2 if a.dtype == np.float16 else 4e-7
    return eps * float(np.max(m)) if m.size else 0.0


def _data(shape, dtype):
    if np.dtype(dtype).kind == "b":
        return RNG.random(shape) < 0.5
    if np.dtype(dtype).kind in "iu":
        return RNG.integers(0, 50, shape).astype(dtype)
    a = RNG.standard_normal(shape) * 3
    if np.dtype(dtype).kind == "c":
        a = a + 1j * RNG.standard_normal(shape)
    return a.astype(dtype)


# (shape, axes, what the sum's plan must show): lanes (var0 takes up to 16, sums 2), a
# split, a partial column tile, V = 1
CASES = [
    ((4096, 24), 0, dict(TY=2, split=True)),        # few columns: split, partial tile
    ((3000, 37), 0, dict(TY=2, split=True, vec=1)),  # odd column count: scalar loads
    ((9, 1000), 0, dict(TY=2)),                     # short reduced axis: two lanes
    ((2, 4096), 0, dict(TY=1)),
    ((64, 50, 8), 0, dict(TY=2)),                   # kept dims collapse to 400 columns
    ((30, 40, 16), (0, 1), dict(TY=2, split=True)),
    ((20000, 3), 0, dict(TY=2, split=True, vec=1)),
]


@pytest.mark.parametrize("fn", ["sum", "mean", "max", "min", "var", "std", "argmax"])
@pytest.mark.parametrize("shape,axes,want", CASES, ids=[str(c[0]) for c in CASES])
def test_col_reductions_match_numpy(shape, axes, want, fn):
    a = _data(shape, np.float32)
    g = gp.asarray(a)
    if fn == "argmax":
        if not isinstance(axes, int):       # one axis only, as NumPy's: the same error
            with pytest.raises(TypeError):
                np.argmax(a, axis=axes)
            with pytest.raises(TypeError):
                gp.argmax(g, axis=axes)
            return
        r, e = gp.argmax(g, axis=axes), np.argmax(a, axis=axes)
    else:
        r, e = getattr(gp, fn)(g, axis=axes), getattr(np, fn)(a, axis=axes)
    if fn == "sum":
        p = _plan(r)
        assert p.strategy == "col"
        for k, v in want.items():
            got = p.S > 1 if k == "split" else getattr(p, k)
            assert got == v, (k, got, v)
    if fn == "var" and shape[0] >= 1000:
        assert _plan(r).TY == 16
    check(r, e, rtol=1e-4 if fn in ("var", "std") else None,
          atol=_atol(a, axes, fn) if fn in ("sum", "mean") else None)


@pytest.mark.parametrize("dtype", [np.float16, np.float64, np.int8, np.int64, np.uint16,
                                   np.complex64, np.bool_])
@pytest.mark.parametrize("shape", [(4096, 24), (3000, 37), (9, 1000)], ids=str)
def test_col_reductions_over_dtypes(shape, dtype):
    a = _data(shape, dtype)
    g = gp.asarray(a)
    check(gp.sum(g, axis=0), np.sum(a, axis=0), rtol=2e-3 if dtype == np.float16 else 1e-5,
          atol=_atol(a, 0) if a.dtype.kind in "fc" else None)
    if dtype != np.complex64:
        check(gp.max(g, axis=0), np.max(a, axis=0))
        check(gp.argmin(g, axis=0), np.argmin(a, axis=0))
    check(gp.any(g, axis=0), np.any(a, axis=0))
    check(gp.all(g, axis=0), np.all(a, axis=0))
    if dtype != np.bool_:
        # float16: NumPy accumulates in float16 (10% off over 4096 rows); compare with
        # the exact variance rounded to float16
        e = np.var(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64), axis=0)
        check(gp.var(g, axis=0), np.var(a, axis=0) if dtype != np.float16 else
              e.astype(np.float16), rtol=5e-3 if dtype == np.float16 else 1e-4)


@pytest.mark.parametrize("fn", ["var", "sum", "argmax"])
def test_one_kernel_serves_different_split_counts(fn):
    # the kernel is cached by structure, not size: the number of splits (blocks along the
    # reduced axis) must come from the launch (a kernel keyed without it waited for 9
    # splits of a 4-split launch and returned garbage); argmax's partials mix float and
    # int64 arrays (M * S odd: 3 x 5 splits misaligned the int64 array)
    splits = []
    for rows, cols in ((5000, 64), (2050, 64), (4096, 64), (20000, 3), (3000, 3)):
        a = _data((rows, cols), np.float32)
        g = gp.asarray(a)
        r = gp.argmax(g, axis=0) if fn == "argmax" else getattr(gp, fn)(g, axis=0)
        e = np.argmax(a, axis=0) if fn == "argmax" else getattr(np, fn)(a, axis=0)
        splits.append(_plan(gp.sum(g, axis=0)).S)
        check(r, e, rtol=1e-4, atol=_atol(a, 0) if fn == "sum" else None)
    assert len(set(splits[:3])) == 3 and all(s > 1 for s in splits)


def test_col_var_special_values_and_large_mean():
    a = (1e4 + RNG.standard_normal((5000, 64))).astype(np.float32)
    a[0, 1] = np.nan        # the peeled first row of a lane
    a[2500, 2] = np.inf
    a[4999, 3] = -np.inf    # the last row
    a[:, 4] = 7.0           # constant column: exactly 0
    a[:, 5] = -0.0
    a[0, 6] = 1e15          # an outlier as the shift
    exact = np.var(a.astype(np.float64), axis=0)
    with np.errstate(all="ignore"):
        got = gp.var(gp.asarray(a), axis=0).get()
        std = gp.std(gp.asarray(a), axis=0, ddof=1).get()
        # NumPy's own float32 two-pass var (the CPU backend) is off by ~1e-3 here
        np.testing.assert_allclose(got, exact.astype(np.float32), rtol=2e-3)
        np.testing.assert_allclose(std, np.std(a.astype(np.float64), axis=0, ddof=1),
                                   rtol=2e-3)
    assert got[4] == 0.0 and got[5] == 0.0


def test_col_reduce_of_expression_and_views():
    a = _data((2050, 96), np.float32)
    b = _data((2050, 96), np.float32)
    ga, gb = gp.asarray(a), gp.asarray(b)
    check(((ga - gb) ** 2).sum(0), ((a - b) ** 2).sum(0), rtol=1e-4)
    check(ga[::-1].std(0), a[::-1].std(0), rtol=1e-4)
    check(ga[3:].T.T.mean(0), a[3:].mean(0), rtol=1e-5)
    check((ga * gb[0]).var(0), (a * b[0]).var(0), rtol=1e-4)      # a row broadcast down
    check(ga.var(0, keepdims=True), a.var(0, keepdims=True), rtol=1e-4)


def test_col_reduce_with_epilogue_and_out():
    a = _data((4096, 40), np.float32)
    g = gp.asarray(a)
    check(gp.sqrt(g.var(0)) * 2 + 1, np.sqrt(a.var(0)) * 2 + 1, rtol=1e-4)
    out = gp.zeros((3, 40), np.float32)
    gp.std(g, axis=0, out=out[1])
    e = np.zeros((3, 40), np.float32)
    np.std(a, axis=0, out=e[1])
    check(out, e, rtol=1e-4)


@settings(max_examples=25, deadline=None)
@given(rows=st.integers(1, 700), cols=st.integers(1, 70), fn=st.sampled_from(
    ["sum", "var", "max", "argmin"]), step=st.sampled_from([1, 2, -1]))
def test_col_reduce_hypothesis(rows, cols, fn, step):
    full = _data((rows, cols), np.float32)
    a, g = full[::step], gp.asarray(full)[::step]
    r = gp.argmin(g, axis=0) if fn == "argmin" else getattr(gp, fn)(g, axis=0)
    e = np.argmin(a, axis=0) if fn == "argmin" else getattr(np, fn)(a, axis=0)
    check(r, e, rtol=1e-4 if fn == "var" else 1e-5, atol=_atol(a, 0) if fn == "sum" else None)


# ------------------------------------------------------------------ sibling sums (fuse.py)

def _groups(*arrays):
    gp.stats.reset()
    gp.evaluate(*arrays)
    return gp.stats.groups, gp.stats.by_kind["reduce"]


def _special_cols(shape, dtype=np.float32):
    a = _data(shape, dtype)
    a[0, 0] = np.inf            # the shift of a lane is infinite: n * mean would be NaN
    a[:, 1] = np.inf
    a[3, 2], a[7, 2] = np.inf, -np.inf
    a[5, 3] = np.nan
    a[:, 4] = -0.0
    return a


@pytest.mark.parametrize("axis", [0, 1, None])
def test_standardize_reads_its_input_in_one_reduction(axis):
    a = _special_cols((300, 40))
    X = gp.asarray(a)
    Y = (X - X.mean(axis)) / X.std(axis) if axis != 1 else \
        (X - X.mean(1, keepdims=True)) / X.std(1, keepdims=True)
    if axis != 1:
        assert _groups(Y) == (2, 1)     # one reduction (mean and std), one elementwise pass
    with np.errstate(all="ignore"):
        e = (a - a.mean(axis)) / a.std(axis) if axis != 1 else \
            (a - a.mean(1, keepdims=True)) / a.std(1, keepdims=True)
        check(Y, e, rtol=1e-4)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int32, np.uint8])
def test_mean_var_std_siblings_match_numpy(dtype):
    a = _special_cols((1000, 24), dtype) if np.dtype(dtype).kind == "f" else \
        _data((1000, 24), dtype)
    X = gp.asarray(a)
    m, v, s, t = X.mean(0), X.var(0), X.std(0, ddof=1), X.sum(0)
    # var and std share one var0; float32/64 sums come off its accumulator
    assert _groups(m, v, s, t)[0] == (1 if dtype in (np.float32, np.float64) else 2)
    # float16: NumPy's var/std accumulate in float16; compare with exact values rounded
    w = a.astype(np.float64) if dtype == np.float16 else a
    with np.errstate(all="ignore"):
        r = 5e-3 if dtype == np.float16 else 1e-4
        check(m, a.mean(0), rtol=r, atol=_atol(a, 0, "mean"))
        check(s, w.std(0, ddof=1).astype(m.dtype), rtol=r)
        check(t, w.sum(0).astype(t.dtype), rtol=r, atol=_atol(a, 0))
        check(v, w.var(0).astype(m.dtype), rtol=r)


def test_siblings_only_where_source_axes_and_shape_agree():
    a = _data((500, 30), np.float32)
    X = gp.asarray(a)
    assert _groups(X.mean(0, keepdims=True), X.std(0))[0] == 2    # shapes differ
    assert _groups(X.mean(1), X.std(0))[0] == 2                   # axes differ
    assert _groups((X * 2).mean(0), X.std(0))[0] == 2             # sources differ
    assert _groups(X.mean(0), X.std(0))[0] == 1
    with config.override(fuse_siblings=False):
        assert _groups(X.mean(0), X.std(0))[0] == 2
    check(X.mean(0)[::2] + X.std(0)[::2], a.mean(0)[::2] + a.std(0)[::2], rtol=1e-4)
    m = X.mean(0)
    check(gp.stack([m, X.var(0)]), np.stack([a.mean(0), a.var(0)]), rtol=1e-4)



# ------------------------------------------------------------------ broadcasts down columns

def _ew_plan(arr):
    g = [g for g in schedule([arr._node]) if g.kind == "elementwise"][-1]
    _, p = build.plan_group(g, lambda o: 1 << 20, 132, max(1, 2048 // config.block_size))
    return p


@pytest.mark.parametrize("shape,dtype,tx", [
    ((300, 256), np.float32, 64),        # 64 column vectors: 64 threads x 8 row lanes
    ((1000, 4100), np.float32, 512),     # a partial column tile
    ((70, 130), np.float64, 128),        # 65 vectors of 2
    ((40, 1024), np.int8, 64),           # 16-element vectors
    ((5, 7, 512), np.float32, 128),      # leading dims collapse to rows
])
def test_row_broadcast_kernels_walk_columns(shape, dtype, tx):
    a = _data(shape, dtype)
    b = _data(shape[-1:], dtype)
    r = _data(shape[:-1] + (1,), dtype)
    ga, gb, gr = gp.asarray(a), gp.asarray(b), gp.asarray(r)
    y = ga * gb + gr - gb                # broadcast across rows and along rows
    assert _ew_plan(y).tx == tx
    check(y, a * b + r - b)


def test_row_broadcast_layout_into_views_and_off():
    a = _data((260, 512), np.float32)
    b = _data((512,), np.float32)
    ga, gb = gp.asarray(a), gp.asarray(b)
    out = gp.zeros((2, 260, 512), np.float32)
    out[1] = ga / gb                     # written into a slice of a larger array
    e = np.zeros((2, 260, 512), np.float32)
    e[1] = a / b
    check(out, e)
    check(ga[::-2] - gb, a[::-2] - b)    # strided rows
    assert _ew_plan(ga[::-2] - gb).tx == 128
    with config.override(ew_columns=False):
        y = ga - gb
        assert _ew_plan(y).tx == 0
        check(y, a - b)
    assert _ew_plan(gp.asarray(_data((50, 64), np.float32)) - gp.asarray(
        _data((64,), np.float32))).tx == 0           # 16 vectors per row: the flat loop


def test_broadcast_epilogues_are_computed_once_per_column():
    # the mean (sum / n) and std (sqrt of var0) are epilogue outputs of the one reduction;
    # the elementwise pass reads them instead of recomputing them per element
    a = _special_cols((500, 64))
    X = gp.asarray(a)
    Y = (X - X.mean(0)) / X.std(0)
    red, ew = schedule([Y._node])
    assert red.kind == "reduce" and ew.kind == "elementwise"
    ops = {o.op for o in red.outputs if o.kind == EW}      # (float32's mean: the sum
    ops |= {o.srcs[0].op for o in red.outputs if o.op == "astype"}  # divided in double)
    assert {"divide", "sqrt"} <= ops
    with np.errstate(all="ignore"):
        check(Y, (a - a.mean(0)) / a.std(0), rtol=1e-4)
    # last-axis reductions stay with the row groups
    Z = (X - X.mean(1, keepdims=True)) / X.std(1, keepdims=True)
    assert [g.kind for g in schedule([Z._node])] == ["rows"]


@pytest.mark.parametrize("lanes", [1, 2, 4, 16, 32])
def test_col_lanes_setting(lanes):
    # config.col_lanes (0: the tuned default) changes the column kernels' row lanes only
    rng = np.random.default_rng(11)
    a = rng.standard_normal((777, 300)).astype(np.float32)
    with gp.config.override(col_lanes=lanes):
        x = gp.asarray(a)
        check(x.sum(axis=0), a.sum(axis=0), rtol=1e-4, atol=1e-4)
        check(x.var(axis=0), a.var(axis=0), rtol=1e-4, atol=1e-5)
        check(x.max(axis=0), a.max(axis=0))


@pytest.mark.parametrize("vector_loads", [True, False])
def test_vector_loads_setting(vector_loads):
    # config.vector_loads False: scalar loads and stores everywhere, same values
    rng = np.random.default_rng(12)
    a = rng.standard_normal((64, 1000)).astype(np.float32)
    b = rng.standard_normal(1000).astype(np.float32)
    with gp.config.override(vector_loads=vector_loads):
        x, y = gp.asarray(a), gp.asarray(b)
        check(x * 2.5 + y, a * np.float32(2.5) + b)
        check(x.sum(axis=1), a.sum(axis=1), rtol=1e-4, atol=1e-4)
        check(x.mean(axis=0), a.mean(axis=0), rtol=1e-4, atol=1e-5)
        e = gp.exp(x - x.max(axis=1, keepdims=True))
        check(e / e.sum(axis=1, keepdims=True),
              np.exp(a - a.max(1, keepdims=True)) / np.exp(a - a.max(1, keepdims=True)).sum(
                  1, keepdims=True), rtol=1e-5, atol=1e-7)
