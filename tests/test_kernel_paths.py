"""Every path of the generated index arithmetic, run against NumPy: small, fast cases that
reach each layout of the element-wise renderer (vector loop, column layout, unravel over
several dims, negative strides, fused arange, reshape levels, misaligned starts) and each
index kernel (gather and scatter per item size and rank, last-wins scatter through pairs
and through a sort, ``ufunc.at`` in every update strategy, nonzero across tiles).

On the CUDA backend these run the generated kernels; on the CPU backend they check the same
programs through NumPy.  They are the test subset the device's mutation run
(``tools/mutants_gpu.py``) gives each mutant of the renderers.
"""
from __future__ import annotations

import numpy as np
import pytest

import gnumpy as gp
from helpers import check

RNG = np.random.default_rng(21)


def _data(dt, shape):
    dt = np.dtype(dt)
    if dt.kind == "b":
        return RNG.random(shape) > 0.5
    if dt.kind in "iu":
        return RNG.integers(1, 50, shape).astype(dt)
    if dt.kind == "c":
        return (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(dt)
    return RNG.standard_normal(shape).astype(dt)


# ------------------------------------------------------------------ element-wise layouts

_EW = {
    "vector": lambda x, X, T: x * 2 + 1,
    "misaligned": lambda x, X, T: x[1:] * 3 - x[:-1],
    "strided_2d": lambda x, X, T: X[::2, ::4] + X[1::2, 1::4],
    "transposed": lambda x, X, T: X.T * X.T[::-1],
    "row_broadcast": lambda x, X, T: X * x[:X.shape[1]] - X[:, :1],
    "column_broadcast": lambda x, X, T: X + X[:, 3:4],
    "3d_negative": lambda x, X, T: T[::-1, 1:, ::-2] * 2 + T[:, :-1, ::2],
    "3d_transposed": lambda x, X, T: T.transpose(2, 0, 1) + 1,
    "reshape_levels": lambda x, X, T: (X[:, :32].T + 1).reshape(-1) * x[:3072],
    "reshape_levels_3d": lambda x, X, T: (T[:, ::2].transpose(1, 0, 2) * 2).reshape(4, -1),
}


@pytest.mark.parametrize("case", sorted(_EW))
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int16, np.complex64])
def test_elementwise_layouts(case, dt):
    x, X, T = _data(dt, 4099), _data(dt, (96, 136)), _data(dt, (6, 10, 12))
    got = _EW[case](gp.asarray(x), gp.asarray(X), gp.asarray(T))
    check(got, _EW[case](x, X, T))


_MULTI = {   # programs whose outputs one kernel writes together
    "vector": lambda x, X, T: (x * 2 + 1, x - x[::-1]),
    "columns": lambda x, X, T: (X * x[:X.shape[1]], X - x[:X.shape[1]]),
    "strided_3d": lambda x, X, T: (T[::2] * 2, T[::2] - T[1::2]),
}


@pytest.mark.parametrize("case", sorted(_MULTI))
@pytest.mark.parametrize("dt", [np.float32, np.int64])
def test_outputs_written_together(case, dt):
    x, X, T = _data(dt, 4099), _data(dt, (96, 136)), _data(dt, (6, 10, 12))
    got = _MULTI[case](gp.asarray(x), gp.asarray(X), gp.asarray(T))
    gp.evaluate(*got)
    check(got, _MULTI[case](x, X, T))


@pytest.mark.parametrize("settings", [{}, dict(ew_tiles=False), dict(ew_unroll=1),
                                      dict(ew_columns=False), dict(ew_light=False)])
@pytest.mark.parametrize("shape", [(40, 8192), (3, 4099), (70000,)])
def test_wide_rows_and_loop_settings(settings, shape):
    """Rows wider than a block of column vectors (several column blocks), a lone operand
    element broadcast along the only dim, and each loop setting of the vector path."""
    X = _data(np.float32, shape)
    r = _data(np.float32, shape[-1:])
    with gp.config.override(**settings):
        g = gp.asarray(X) * gp.asarray(r) - gp.asarray(X)[..., :1]
        check(g, X * r - X[..., :1])
        g = gp.asarray(X) * gp.broadcast_to(gp.asarray(r)[:1], shape) + 1
        check(g, X * np.broadcast_to(r[:1], shape) + 1)


@pytest.mark.parametrize("n, shape", [(4096, None), (4099, None), (4096, (64, 64))])
@pytest.mark.parametrize("step", [1, 2])
def test_fused_arange(n, shape, step):
    def f(xp, x):
        a = xp.arange(0, n * step, step, dtype=np.float32)
        if shape is not None:
            a = a.reshape(shape).T.reshape(-1)
        return a * 2 + x
    x = _data(np.float32, n)
    check(f(gp, gp.asarray(x)), f(np, x))


# ------------------------------------------------------------------ gather and scatter

_DT_OF_SIZE = {1: np.int8, 2: np.float16, 4: np.float32, 8: np.int64, 16: np.complex128}


def _views(a):
    """A contiguous, a strided and a negative-stride 3-d view of `a` (shape (6, 8, 10))."""
    return {"c": a, "s": a[::2, 1:, ::3], "n": a[::-1, :, ::-2]}


@pytest.mark.parametrize("size", sorted(_DT_OF_SIZE))
@pytest.mark.parametrize("view", ["c", "s", "n"])
def test_gather_by_item_size_and_rank(size, view):
    a = _data(_DT_OF_SIZE[size], (6, 8, 10))
    g = _views(gp.asarray(a))[view]
    v = _views(a)[view]
    i0 = RNG.integers(0, v.shape[0], 50)
    i2 = RNG.integers(0, v.shape[2], 50)
    check(g[i0, :, i2], v[i0, :, i2])          # a 1-d gather over a 3-d operand
    idx = RNG.integers(0, v.shape[1], 7)
    check(g[:, idx], v[:, idx])
    flat = RNG.integers(0, v.size, 5)
    check(g.reshape(-1)[flat], v.reshape(-1)[flat])


@pytest.mark.parametrize("size", sorted(_DT_OF_SIZE))
@pytest.mark.parametrize("view", ["c", "s", "n"])
@pytest.mark.parametrize("dups", ["unique", "pairs", "sorted"])
def test_scatter_by_item_size_rank_and_duplicates(size, view, dups):
    """Distinct offsets: the plain scatter; repeated ones: the last assignment wins, found by
    comparing pairs (few values) or by a sort of the offsets (2^14 values or more)."""
    a = _data(_DT_OF_SIZE[size], (6, 8, 10))
    g, v = gp.asarray(a), a.copy()
    gv, nv = _views(g)[view], _views(v)[view]
    n = {"unique": 0, "pairs": 40, "sorted": 1 << 14}[dups]
    if dups == "unique":
        i0 = RNG.permutation(nv.shape[0])[:3]
        vals = _data(a.dtype, (3,) + nv.shape[1:])
        gv[i0] = gp.asarray(vals)
        nv[i0] = vals
    else:
        i0 = RNG.integers(0, nv.shape[0], n)
        i2 = RNG.integers(0, nv.shape[2], n)
        vals = _data(a.dtype, (n, nv.shape[1]))
        gv[i0, :, i2] = gp.asarray(vals)
        nv[i0, :, i2] = vals
    check(g, v)


# ------------------------------------------------------------------ ufunc.at

_AT = [  # (ufunc, destination dtype, values dtype): one per update strategy
    ("add", np.float32, np.float32), ("add", np.float64, np.float64),
    ("add", np.int32, np.int32), ("subtract", np.int64, np.int64),
    ("add", np.uint32, np.uint32), ("subtract", np.complex64, np.complex64),
    ("add", np.complex128, np.complex128),
    ("minimum", np.int32, np.int32), ("maximum", np.uint64, np.uint64),
    ("multiply", np.int8, np.int8), ("maximum", np.int16, np.int16),
    ("add", np.float16, np.float16), ("multiply", np.float64, np.float64),
    ("add", np.float32, np.float64), ("multiply", np.complex128, np.complex128),
    ("maximum", np.bool_, np.bool_), ("multiply", np.complex64, np.complex64),
    ("multiply", np.int64, np.int64), ("multiply", np.int32, np.int32),
    ("add", np.float16, np.float32), ("subtract", np.float32, np.float32),
    ("subtract", np.uint32, np.uint32),
]


@pytest.mark.parametrize("name, adt, vdt", _AT, ids=[f"{n}-{np.dtype(a)}-{np.dtype(v)}"
                                                     for n, a, v in _AT])
@pytest.mark.parametrize("view", ["c", "n"])
def test_ufunc_at_every_strategy(name, adt, vdt, view):
    a = _data(adt, (6, 8, 10))
    if np.dtype(adt).kind in "iu":
        a = (a % 3 + 1).astype(adt)           # products of repeats stay in range
    g, v = gp.asarray(a), a.copy()
    gv, nv = _views(g)[view], _views(v)[view]
    i0 = RNG.integers(0, nv.shape[0], 64)      # many repeats: atomics race on them
    i2 = RNG.integers(0, nv.shape[2], 64)
    vals = _data(vdt, (64, nv.shape[1]))
    if np.dtype(vdt).kind in "iu":
        vals = (vals % 2 + 1).astype(vdt)
    if np.dtype(vdt).kind in "fc":
        vals = (vals * 0.5).astype(vdt) if name != "multiply" else (
            1 + 0.01 * vals).astype(vdt)
    getattr(gp, name).at(gv, (i0, slice(None), i2), gp.asarray(vals))
    getattr(np, name).at(nv, (i0, slice(None), i2), vals)
    # float16 rounds after each update, and atomics apply repeats in any order
    half = np.dtype(adt) == np.float16
    check(g, v, rtol=5e-3 if half else None, atol=5e-3 if half else None)


@pytest.mark.parametrize("name", ["negative", "square"])
def test_unary_ufunc_at(name):
    a = _data(np.float64, (6, 8, 10))
    g, v = gp.asarray(a), a.copy()
    idx = RNG.integers(0, 6, 9)
    getattr(gp, name).at(_views(g)["n"], idx)
    getattr(np, name).at(_views(v)["n"], idx)
    check(g, v)


# ------------------------------------------------------------------ nonzero

@pytest.mark.parametrize("n", [0, 1, 2047, 2048, 2049, 6000, 100_003])
@pytest.mark.parametrize("density", [0.0, 0.01, 0.5, 1.0])
def test_nonzero_across_tiles(n, density):
    m = RNG.random(n) < density
    check(gp.nonzero(gp.asarray(m))[0], np.nonzero(m)[0])
    x = _data(np.float32, n)
    check(gp.asarray(x)[gp.asarray(m)], x[m])


# ------------------------------------------------------------------ casts inside kernels

@pytest.mark.parametrize("src", [np.float64, np.int64])
def test_cast_to_float16_rounds_once(src):
    """A cast to float16 inside a fused kernel rounds once, as NumPy's: through float32 the
    first value would round to 1 + 2**-11, a tie, and then to 1.0."""
    if src == np.float64:
        v = np.array([1 + 2.0**-11 + 2.0**-30, -(1 + 2.0**-11 + 2.0**-30), 2049 + 2.0**-20,
                      65519.0, 65520.0, 6e-8, -0.0] * 9, dtype=src)
    else:
        v = np.array([2049, 4097 + 2**20, -(2**24 + 3), 65519, 65521] * 9, dtype=src)
    x = gp.asarray(v)
    h = gp.asarray(np.ones(v.size, np.float16))
    with np.errstate(over="ignore"):            # 65520 rounds to inf
        want = v.astype(np.float16)
    check(x.astype(np.float16), want, exact=True)
    check(x.astype(np.float16) + h, want + np.float16(1), exact=True)
