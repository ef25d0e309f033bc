"""Shared helpers for comparing gnumpy against NumPy.

``check(actual, expected)`` is the suite's oracle, strict by default: a gnumpy array of the
same shape and dtype, NaN where NaN (per component for complex), the same infinities, the
same sign of zero, and values within the tolerance of the result dtype from ONE table
(``TOL``; integer and bool results exact, ``exact=True`` for copies and views).
``assert_close`` is the same comparison for two host arrays.
``strided_pair(np_array)`` gives the same values as a non-contiguous view in both
libraries; ``sample``/``pair``/``variants`` generate inputs (special values, layouts).
``DTYPES`` and the families come from gnumpy's dtype module.
"""
from __future__ import annotations

import types

import numpy as np

import gnumpy as gp
from gnumpy import _dtypes as D

ON_CUDA = gp.asarray(0).device.kind == "cuda"
# The sign of a zero part of a complex product may differ from NumPy's on CUDA (docs/guide.md,
# "Differences from NumPy"): a product's accumulator starts from 1+0j, and (1+0j)*z flips
# the sign of a zero part of z when the other part is negative (NumPy starts from the first
# element); complex power is computed another way than glibc's cpow.  Values, NaN and
# infinities are still compared.
COMPLEX_PRODUCT_ZERO_SIGN = not ON_CUDA

DTYPES = list(D.ALL)
BOOL = [D.bool_]
INTS = list(D.SIGNED + D.UNSIGNED)
FLOATS = list(D.FLOATS)
COMPLEX = list(D.COMPLEX)
NUMERIC = INTS + FLOATS + COMPLEX

# THE tolerance table: (rtol, atol) per result dtype for computed (not exact) results.
# Integer and bool results are compared exactly.  Every float comparison of the suite reads
# this table; a test that needs more (a long reduction, a product) passes `scale`, the
# magnitude its result is computed from, and the atol grows by rtol * scale; it does not
# pick its own numbers.
TOL = {np.dtype(np.float16): (2e-3, 1e-3), np.dtype(np.float32): (2e-5, 1e-6),
       np.dtype(np.float64): (1e-12, 1e-14),
       np.dtype(np.complex64): (2e-5, 1e-6), np.dtype(np.complex128): (1e-12, 1e-14)}
RTOL = {k: v[0] for k, v in TOL.items()}


def tolerance(dtype, rtol=None, atol=None, scale=None):
    """(rtol, atol) of `dtype` from TOL (0, 0 for exact dtypes); explicit values win;
    `scale` (the magnitude a result is computed from) adds rtol * scale to atol."""
    dt = np.dtype(dtype)
    r0, a0 = TOL.get(dt, (0, 0))
    r = r0 if rtol is None else rtol
    t = a0 if atol is None else atol
    if scale is not None:
        t = t + r * float(scale)
    return r, t


def to_numpy(x):
    assert isinstance(x, gp.ndarray), f"expected a gnumpy array, got {type(x).__name__}"
    return x.get()


def _components(x):
    """A float array's values; a complex array's (real, imag) parts side by side."""
    if x.dtype.kind == "c":
        return np.stack([x.real, x.imag], axis=-1)
    return x


def assert_close(a, e, rtol=None, atol=None, scale=None, equal_nan=True, signed_zero=True,
                 err_msg=""):
    """The strict comparison of two host arrays: shape, NaN positions (per component for
    complex), infinities, the sign of zero where both are zero, and values within the
    dtype's tolerance from TOL (exact for integer and bool results)."""
    a = np.asarray(a)
    e = np.asarray(e)
    assert a.shape == e.shape, f"shape {a.shape} != {e.shape} {err_msg}"
    fl = e.dtype.kind in "fc" or a.dtype.kind in "fc"
    if not fl:
        np.testing.assert_array_equal(a, e, err_msg=err_msg, strict=False)
        return
    r, t = tolerance(e.dtype if e.dtype.kind in "fc" else a.dtype, rtol, atol, scale)
    ct = np.result_type(a.dtype, e.dtype)
    ac, ec = _components(a.astype(ct)), _components(e.astype(ct))
    # special values, per component: NaN where NaN, the same infinities
    na, ne = np.isnan(ac), np.isnan(ec)
    if equal_nan:
        if (na != ne).any():
            where = np.argwhere(na != ne)[:5].tolist()
            raise AssertionError(f"NaN positions differ at {where} {err_msg}\n got "
                                 f"{a!r}\n expected {e!r}")
    elif na.any() or ne.any():
        raise AssertionError(f"NaN where none is allowed {err_msg}")
    inf = np.isinf(ac) | np.isinf(ec)
    if (inf & (ac != ec)).any():
        where = np.argwhere(inf & (ac != ec))[:5].tolist()
        raise AssertionError(f"infinities differ at {where} {err_msg}\n got {a!r}\n "
                             f"expected {e!r}")
    # finite values: within the tolerance (a complex value's error by its modulus)
    fin = ~(na | ne | inf)
    if ct.kind == "c":
        fin = fin.all(axis=-1)
    av, ev = a.astype(ct)[fin], e.astype(ct)[fin]
    if r == 0 and t == 0:
        np.testing.assert_array_equal(av, ev, err_msg=err_msg)
    else:
        with np.errstate(all="ignore"):
            err = np.abs(av.astype(np.complex128 if ct.kind == "c" else np.float64)
                         - ev.astype(np.complex128 if ct.kind == "c" else np.float64))
            bad = ~(err <= t + r * np.abs(ev.astype(np.float64 if ct.kind != "c"
                                                     else np.complex128)))
        if bad.any():
            np.testing.assert_allclose(av, ev, rtol=r, atol=t, err_msg=err_msg)
            raise AssertionError(f"values differ beyond rtol={r}, atol={t} {err_msg}: "
                                 f"got {av[bad][:5]!r}, expected {ev[bad][:5]!r}")
    if signed_zero and ac.dtype.kind == "f" and ec.dtype.kind == "f":
        both = (ac == 0) & (ec == 0)
        bad = both & (np.signbit(ac) != np.signbit(ec))
        if bad.any():
            where = np.argwhere(bad)[:5].tolist()
            raise AssertionError(f"sign of zero differs at {where} (got "
                                 f"{ac[bad][:5]!r}, expected {ec[bad][:5]!r}) {err_msg}")


def check(actual, expected, rtol=None, atol=None, check_dtype=True, equal_nan=True,
          scale=None, signed_zero=True, exact=False):
    """Assert gnumpy `actual` matches NumPy `expected`: a gnumpy array, the same shape and
    dtype, NaN where NaN, the same infinities and sign of zero, and values within the
    result dtype's tolerance from TOL (exact for integer/bool results, and for everything
    with `exact=True`: copies, views, manipulation).  Tuples compare item by item."""
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected), \
            f"expected a tuple of {len(expected)}, got {type(actual).__name__}"
        for a, e in zip(actual, expected):
            check(a, e, rtol, atol, check_dtype, equal_nan, scale, signed_zero, exact)
        return
    a = to_numpy(actual)
    e = np.asarray(expected)
    assert a.shape == e.shape, f"shape {a.shape} != {e.shape}"
    if check_dtype:
        assert a.dtype == e.dtype, f"dtype {a.dtype} != {e.dtype}"
    if exact:
        rtol, atol = 0, 0
    assert_close(a, e, rtol, atol, scale, equal_nan, signed_zero)


def strided_pair(a: np.ndarray):
    """(numpy view, gnumpy view) of the same values as `a`, non-contiguous in memory."""
    if a.ndim == 0:
        return a, gp.asarray(a)
    big = np.zeros(tuple(2 * d + 1 for d in a.shape), dtype=a.dtype)
    idx = tuple(slice(1, 1 + 2 * d, 2) for d in a.shape)
    big[idx] = a
    g = gp.asarray(big)[idx]
    npv = big[idx]
    assert np.array_equal(npv, a, equal_nan=True)
    return npv, g


def sample(dtype, shape, rng, special=True):
    """Random values of `dtype` (with NaN/inf/-0 mixed in for floats when `special`)."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    if dt.kind == "b":
        v = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = max(int(info.min), -1000), min(int(info.max), 1000)
        v = rng.integers(lo, hi, n, endpoint=True).astype(dt)
    else:
        rdt = D.real_dtype(dt)
        v = (rng.standard_normal(n) * 10).astype(rdt)
        if special and n >= 4:
            v[rng.integers(0, n, max(1, n // 8))] = rng.choice(
                np.array([np.nan, np.inf, -np.inf, -0.0, 0.0], dtype=rdt), max(1, n // 8))
        if dt.kind == "c":
            w = (rng.standard_normal(n) * 10).astype(rdt)
            v = (v + 1j * w).astype(dt)
    return v.reshape(shape)


def pair(dtype, shape, seed=0, kind="contiguous", special=True):
    """(NumPy array, gnumpy array) of the same sample values; `kind` 'contiguous',
    'strided' (a non-contiguous view in both) or 'transposed' (a transposed view)."""
    a = sample(dtype, shape, np.random.default_rng(seed), special)
    if kind == "strided":
        return strided_pair(a)
    if kind == "transposed":
        return a, gp.asarray(np.array(a.T, order="C")).T
    return a, gp.asarray(a)



# ------------------------------------------------------------------ the shared input generator

LAYOUTS = ("contiguous", "strided", "reversed", "transposed", "broadcast", "lazy")


def specials(dtype):
    """The special values of `dtype`: NaN, +-inf and -0.0 for floats (each complex part),
    the extremes, 0 and -1 for integers, both values for bool."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return np.array([True, False])
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return np.array([info.min, info.max, 0, 1, -1 if dt.kind == "i" else 2], dt)
    if dt.kind == "c":
        nan, inf = np.nan, np.inf
        parts = [(nan, 0.0), (0.0, nan), (inf, 0.0), (-inf, 1.0), (0.0, inf), (1.0, -inf),
                 (-0.0, -0.0), (0.0, -0.0), (-0.0, 0.0), (inf, inf), (nan, nan), (1.0, 0.0)]
        out = np.zeros(len(parts), dt)
        out.real = [p[0] for p in parts]
        out.imag = [p[1] for p in parts]
        return out
    return np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0], dt)


def special_sample(dtype, shape, seed=0, density=0.5):
    """`sample` values with every special value of the dtype planted (as many as fit; a
    `density` fraction of the elements), -0.0 among them for floats."""
    rng = np.random.default_rng(seed)
    a = sample(dtype, shape, rng, special=False).copy()
    flat = a.reshape(-1)
    n = flat.size
    if n == 0:
        return a
    sp = specials(dtype)
    k = min(n, max(int(n * density), len(sp)))
    pos = rng.permutation(n)[:k]
    flat[pos] = np.resize(sp, k)
    return a


def layout_pair(a: np.ndarray, layout: str):
    """(numpy array, gnumpy array) with the values of `a` in `layout` (both libraries see
    the same memory layout; 'broadcast' repeats a row, so the values are `a`'s first row
    over every row)."""
    if layout == "contiguous":
        return a, gp.asarray(a)
    if layout == "strided":
        return strided_pair(a)
    if layout == "reversed":
        if a.ndim == 0:
            return a, gp.asarray(a)
        s = (slice(None, None, -1),) * a.ndim
        r = np.ascontiguousarray(a[s])
        return r[s], gp.asarray(r)[s]
    if layout == "transposed":
        t = np.ascontiguousarray(a.T)
        return t.T, gp.asarray(t).T
    if layout == "broadcast":
        if a.ndim == 0 or a.shape[0] == 0:
            return a, gp.asarray(a)
        row = a[:1]
        return np.broadcast_to(row, a.shape), gp.broadcast_to(gp.asarray(row), a.shape)
    if layout == "lazy":
        # an unmaterialized expression with the same values bit for bit: -(-a), not(not a)
        if a.dtype.kind == "b":
            return a, gp.logical_not(gp.asarray(~a))
        with np.errstate(all="ignore"):
            b = np.negative(a)
        return a, gp.negative(gp.asarray(b))
    raise ValueError(layout)


def variants(dtype, shape, seed=0, layouts=LAYOUTS, special=True):
    """(layout, numpy array, gnumpy array) for each layout of one sample of `dtype` and
    `shape` (special values planted when `special`): the one generator new tests list a
    function against to see every dtype's special values and every layout."""
    a = special_sample(dtype, shape, seed) if special else \
        sample(dtype, shape, np.random.default_rng(seed), special=False)
    for lay in layouts:
        n, g = layout_pair(a, lay)
        yield lay, n, g


def count_calls(monkeypatch, owner, name, record):
    """The list of ``record(*args)`` for every call of ``owner.name`` from now on (the
    call itself goes through): how many transfers, launches or runs a path makes."""
    calls = []
    real = getattr(owner, name)

    def counted(*args, **kwargs):
        calls.append(record(*args))
        return real(*args, **kwargs)
    monkeypatch.setattr(owner, name, counted)
    return calls


def statement_arrays(dev, seed=0):
    """(A, B, v) the statement shapes below read: two float64 (12, 40) matrices and a
    float32 vector of 40 on device `dev`, random."""
    rng = np.random.default_rng(seed)
    A = gp.asarray(rng.standard_normal((12, 40)), device=dev)
    B = gp.asarray(rng.standard_normal((12, 40)), device=dev)
    v = gp.asarray(rng.standard_normal(40).astype(np.float32), device=dev)
    return A, B, v


# a loop statement's value of one shape at every k (its views, offsets and scalars change,
# its structure not), for the tests of the replay signature readers of both backends
STATEMENT_SHAPES = {
    "stencil": lambda A, B, v, k: 0.33 * (A[k, :-2] + A[k, 1:-1] + A[k, 2:]),
    "two_buffers": lambda A, B, v, k: A[k] * B[k + 1] - (k + 0.5),
    "shared_inner": lambda A, B, v, k: (lambda t: t * t + t)(A[k] + B[k]),
    "same_place_twice": lambda A, B, v, k: A[k] * A[k] + A[k + 1],
    "cast_and_where": lambda A, B, v, k: gp.where(A[k] > 0, v.astype(gp.float64), B[k]),
    "reduce": lambda A, B, v, k: (A[k:k + 3] * 2.0).sum(axis=0),
    "element": lambda A, B, v, k: A[k, 3] * 0.5 + A[k, 2],
}


def same_walk(got, want):
    """Assert a replay signature reader's answer `got` is the walk's `want`: the same
    signature and verdict, the same leaves and scalars (the very nodes) in order."""
    sig, leaves, scalars, ok = got
    wsig, wleaves, wscalars, wok = want
    assert ok is wok and sig == wsig
    assert len(leaves) == len(wleaves) and all(a is b for a, b in zip(leaves, wleaves))
    assert len(scalars) == len(wscalars) and all(a is b for a, b in zip(scalars, wscalars))


class StubCublas(types.ModuleType):
    """cuBLAS whose every call answers 1 and does nothing: on the fake CUDA backend, put in
    ``cuda_libs._BINDINGS["cublas"]`` where a test counts launches around library calls."""

    def __getattr__(self, name):
        return (lambda *a, **k: 1) if name[0].islower() else StubCublas(name)
