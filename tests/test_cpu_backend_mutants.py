"""The CPU backend (gnumpy/backends/cpu.py, cpu_fast.py), pinned against NumPy: tests from a
mutation run (issue 21, mutmut over the NumPy evaluator and its write replay) for what the
fusion, replay, aliasing, view, indexing and special-value tests left open.

* leaves read back through every layout ``leaf_array`` takes (1-D slices of the buffer with
  offsets and steps, negative steps, empty and 0-d), and iotas (arange, eye, tri, indices)
  with offsets and negative strides;
* views of computed values (``view_array``): reversed and stepped slices whose stop falls
  at 0 or below, transposes, reshapes and broadcasts of expressions;
* the temporary reuse of ``_ew`` (NumPy's elision): a temporary read by two parents, or
  requested as an output too, is never overwritten; a leaf never is;
* outputs that are not fresh arrays (a constant's expression, a broadcast, a view), several
  outputs of one group, complex casts, cumulative sums and products with their initial
  element;
* memory: a chain of element-wise ops holds about one temporary at a time, through the
  general evaluator and through the compiled replay;
* the write replay: statements of one structure that differ in one property (a dtype, a
  view's arguments, operand order, a shared subexpression) each get their own code, and
  reductions inside a written value (the replay path the suite's kernel check turns off).
"""
import warnings

import numpy as np
import pytest

import gnumpy as gp
from gnumpy._device import backend

from helpers import assert_close, check

RNG = np.random.default_rng(2121)
# (NumPy's reference values warn about NaN and complex casts; the tests that pin gnumpy's
# warnings record them themselves)
# These tests pin the CPU backend's behaviour (memory shared with NumPy, NumPy's DLPack
# device, float16 accumulation): they run where it is the default device (CPU CI, and
# GNUMPY_DEVICE=cpu anywhere); the default device is chosen once per process.
pytestmark = [pytest.mark.filterwarnings("ignore::RuntimeWarning",
                                         "ignore::numpy.exceptions.ComplexWarning"),
              pytest.mark.skipif(gp.asarray(0).device.kind != "cpu",
                                 reason="CPU backend tests; the default device here is "
                                        "CUDA (run with GNUMPY_DEVICE=cpu)")]


def _vals(shape, dtype=np.float64, special=False):
    """Varied values (not only zeros), NaN/inf/-0 mixed in when `special`."""
    a = RNG.standard_normal(shape) * 3
    if special and a.size >= 4:
        f = a.reshape(-1)
        f[0], f[1], f[2], f[3] = np.nan, np.inf, -0.0, -np.inf
    return a.astype(dtype)


def _pair(shape, dtype=np.float64, special=False):
    a = _vals(shape, dtype, special)
    return a, gp.asarray(a)


def _be():
    return backend(gp.asarray(0).device)


# ------------------------------------------------------------------ leaves read back
@pytest.mark.parametrize("key", [slice(None), slice(3, 11), slice(2, 13, 3), slice(1, None, 2),
                                 slice(5, 6), slice(7, 7), slice(4, 4, 3), slice(None, None, -1),
                                 slice(12, 2, -3), slice(None, None, 5), slice(13, None, 4)])
def test_1d_views_of_a_buffer_read_back(key):
    a, g = _pair((16,), special=True)
    check(g[key], a[key], exact=True)
    check(g[key] * 2, a[key] * 2)
    check(gp.asarray(g[key].get()), a[key], exact=True)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.complex64, np.bool_])
def test_1d_stepped_views_every_dtype(dtype):
    a = (np.arange(20) % 7 - 3).astype(dtype)
    g = gp.asarray(a)
    for key in [slice(1, 18, 2), slice(3, 17), slice(None, None, 3), slice(19, 0, -2),
                slice(6, 6, 2)]:
        check(g[key], a[key], exact=True)
        check(g[key][1:], a[key][1:], exact=True)


def test_empty_and_0d_leaves():
    for shape in [(0,), (3, 0), (0, 4), (2, 0, 3)]:
        a = np.ones(shape)
        g = gp.asarray(a)
        check(g, a, exact=True)
        check(g + 1, a + 1)
        check(g.T, a.T, exact=True)
    a = np.float64(-0.0)
    g = gp.asarray(a)
    check(g, np.asarray(a), exact=True)
    check(g * 2, np.asarray(a * 2))
    b = np.arange(6.0).reshape(2, 3)
    check(gp.asarray(b)[1, 2], b[1, 2], exact=True)


def test_2d_strided_leaves_read_back():
    a, g = _pair((6, 7), special=True)
    for key in [(slice(1, None, 2), slice(None, None, -2)), (slice(None, None, -1), 3),
                (slice(2, 5), slice(1, 6, 2)), (4, slice(None, None, -3))]:
        check(g[key], a[key], exact=True)
        check(g[key] + 0.5, a[key] + 0.5)
    check(g.T[::2], a.T[::2], exact=True)


def test_dtype_reinterpreting_views_read_back():
    a = _vals((12,), special=True)
    g = gp.asarray(a)
    for dt in (np.int64, np.uint64, np.int32, np.uint8, np.float32):
        check(g.view(dt), a.view(dt), exact=True)
        check(g[2:8].view(dt), a[2:8].view(dt), exact=True)
    f = np.arange(10, dtype=np.float32) - 4.5
    check(gp.asarray(f).view(np.int32)[1::3], f.view(np.int32)[1::3], exact=True)
    check(gp.asarray(f).view(np.int32) + 1, f.view(np.int32) + 1)


def test_asarray_without_copy_shares_a_contiguous_array():
    a = np.arange(12.0).reshape(3, 4) - 5.5
    g = gp.asarray(a, copy=False)
    a[0, 1] = -50.0
    check(g, a, exact=True)
    g[2, 3] = 77.0
    assert a[2, 3] == 77.0
    b = np.linspace(-1, 1, 7)
    h = gp.from_dlpack(b)
    b[3] = np.inf
    check(h, b, exact=True)


def test_reductions_in_a_narrower_dtype():
    i = (np.arange(24, dtype=np.int8).reshape(4, 6) * 21)
    g = gp.asarray(i)
    for dt in (np.int8, np.uint8, np.int16):
        check(gp.sum(g, axis=0, dtype=dt), i.sum(axis=0, dtype=dt))
        check(gp.sum(g, axis=1, dtype=dt), i.sum(axis=1, dtype=dt))
        check(gp.prod(g[:, :3], axis=1, dtype=dt), i[:, :3].prod(axis=1, dtype=dt))
    check(gp.sum(g), i.sum())
    # read by the next op in the narrow dtype (wrapped), not in NumPy's default int64
    check(gp.sum(g, axis=0, dtype=np.int8) > 0, i.sum(axis=0, dtype=np.int8) > 0)
    check(gp.sum(g, axis=1, dtype=np.int8) * 0.5, i.sum(axis=1, dtype=np.int8) * 0.5)
    check(gp.sum(g, axis=1, dtype=np.uint8) // 3, i.sum(axis=1, dtype=np.uint8) // 3)
    f = _vals((5, 7), special=True)
    check(gp.sum(gp.asarray(f), axis=1, dtype=np.float32), f.sum(axis=1, dtype=np.float32))


# ------------------------------------------------------------------ iotas
def test_arange_eye_tri_indices():
    for start, stop, step in [(0, 10, 1), (3, 17, 2), (10, -4, -3), (-5, 5, 1), (7, 7, 1)]:
        check(gp.arange(start, stop, step), np.arange(start, stop, step))
        check(gp.arange(start, stop, step)[::-1], np.arange(start, stop, step)[::-1])
        check(gp.arange(start, stop, step)[2:], np.arange(start, stop, step)[2:])
    for n, m, k in [(4, 4, 0), (3, 5, 1), (5, 3, -2), (4, 6, 7), (1, 1, 0), (0, 3, 0)]:
        check(gp.eye(n, m, k), np.eye(n, m, k))
        check(gp.eye(n, m, k, dtype=np.int32)[::-1], np.eye(n, m, k, dtype=np.int32)[::-1])
        check(gp.tri(n, m, k), np.tri(n, m, k))
    for n, m in [(-1, None), (2, -1), (-2, 3)]:     # a negative size is an empty axis
        check(gp.tri(n, m), np.tri(n, m))
    x = _vals((5, 6))
    check(gp.tril(gp.asarray(x), -1), np.tril(x, -1))
    check(gp.triu(gp.asarray(x), 2), np.triu(x, 2))
    for shape in [(3, 4), (2, 3, 2), (5,)]:
        check(gp.indices(shape), np.indices(shape))
        check(gp.indices(shape)[-1][..., ::-1], np.indices(shape)[-1][..., ::-1])
    v = np.array([1.5, -2.0, np.nan])
    for k in (-2, 0, 1):
        check(gp.diag(gp.asarray(v), k), np.diag(v, k))


def test_index_grids_are_writable_arrays_of_their_own():
    for shape in [(3, 4), (2, 1, 5), (6,)]:
        gs, ns = gp.indices(shape, sparse=True), np.indices(shape, sparse=True)
        for g, n in zip(gs, ns):
            n = n.copy()
            g[(0,) * n.ndim] = 7
            n[(0,) * n.ndim] = 7
            g += 1
            n += 1
            check(g, n)
    m, e = gp.indices((2, 3)), np.indices((2, 3))
    m[1, 0] = -1
    e[1, 0] = -1
    check(m, e)


def test_iota_slices_with_offsets():
    a = np.arange(30)
    g = gp.arange(30)
    for key in [slice(5, None), slice(29, 3, -2), slice(7, 20, 3), slice(None, None, -1)]:
        check(g[key], a[key])
        check(g[key] * 3 - 1, a[key] * 3 - 1)
    a2 = np.arange(24).reshape(4, 6)
    g2 = gp.arange(24).reshape(4, 6)
    check(g2[1:, ::-2], a2[1:, ::-2])
    check(g2.T[2:5], a2.T[2:5])


# ------------------------------------------------------------------ views of computed values
def test_views_of_expressions():
    a, g = _pair((9,), special=True)
    for key in [slice(None, None, -1), slice(4, 0, -2), slice(6, 0, -3), slice(8, None, -4),
                slice(5, 1, -1), slice(2, 2, -1), slice(1, 8, 3), slice(0, 1, -1),
                slice(2, 0, -1), slice(3, 0, -3)]:
        check((g + 1)[key], (a + 1)[key])
        check((g * g)[key] - 1, (a * a)[key] - 1)
        check((g + 1)[key] * (g - 1)[key], (a + 1)[key] * (a - 1)[key])
    b, h = _pair((4, 6))
    check((h - 2).T, (b - 2).T)
    check((h - 2).T * 2, (b - 2).T * 2)
    check((h - 2).T[::-1, 1::2] + 1, (b - 2).T[::-1, 1::2] + 1)
    check((h * 3).reshape(3, 8) - h.reshape(3, 8), (b * 3).reshape(3, 8) - b.reshape(3, 8))
    check((h * 3).T.reshape(-1) + 1, (b * 3).T.reshape(-1) + 1)
    check(gp.broadcast_to((h[0] + 1), (5, 6)) * 2, np.broadcast_to(b[0] + 1, (5, 6)) * 2)
    c, k = _pair((2, 3, 4), special=True)
    for axes in [(1, 0, 2), (0, 2, 1), (2, 0, 1), (1, 2, 0), (2, 1, 0)]:
        # (a view read by another op is evaluated as a view of the computed value; a
        # view alone is a view of the materialized array)
        check((k + 1).transpose(axes) * 2, (c + 1).transpose(axes) * 2)
        check(gp.permute_dims(k * 2, axes)[::-1] - 1, np.permute_dims(c * 2, axes)[::-1] - 1)
        check(gp.sum((k + 1).transpose(axes) * k.transpose(axes), axis=0),
              np.sum((c + 1).transpose(axes) * c.transpose(axes), axis=0))
    check(gp.moveaxis(k - 1, 0, -1) * 2, np.moveaxis(c - 1, 0, -1) * 2)
    check((h[:, :1] + 1) * h, (b[:, :1] + 1) * b)
    check(gp.sum(h * 2, axis=0)[::-1] + h, np.sum(b * 2, axis=0)[::-1] + b)


# ------------------------------------------------------------------ temporaries reused
def test_shared_temporary_is_not_overwritten():
    a, g = _pair((7, 5), special=True)
    t, tn = g * 2 + 1, a * 2 + 1
    check(gp.sin(t) + t, np.sin(tn) + tn)
    t, tn = g - 3, a - 3
    check(t * (t + 1), tn * (tn + 1))
    check(gp.exp(t / 4) - gp.cos(t), np.exp(tn / 4) - np.cos(tn))
    t, tn = g * g, a * a
    u, un = t + 1, tn + 1
    check(gp.sqrt(u) + u * t, np.sqrt(un) + un * tn)


def test_temporary_of_another_dtype_is_not_an_output_buffer():
    a, g = _pair((4, 5), special=True)
    i = np.arange(20, dtype=np.int64).reshape(4, 5) % 7
    gi = gp.asarray(i)
    check(gp.ldexp(g, gi * 2 - 3), np.ldexp(a, i * 2 - 3))
    check(gp.ldexp(g * 0.5, (gi - 2).astype(np.int32)), np.ldexp(a * 0.5, (i - 2).astype(np.int32)))
    check((g * 2) > gi, (a * 2) > i)
    check(gp.abs(g * (1 + 2j)) - 1, np.abs(a * (1 + 2j)) - 1)


def test_leaf_is_never_an_output_buffer():
    a, g = _pair((6, 4), special=True)
    a0 = a.copy()
    check(g + 1, a + 1)
    check(gp.negative(g), -a)
    check(gp.abs(g) * 2, np.abs(a) * 2)
    check(g, a0, exact=True)
    i = np.arange(12, dtype=np.int32).reshape(3, 4)
    gi = gp.asarray(i)
    check(gi + gi, i + i)
    check(gi, np.arange(12, dtype=np.int32).reshape(3, 4))


def test_output_that_another_output_reads():
    a, g = _pair((5, 4), special=True)
    t = g * 3 - 1
    u = gp.sin(t)
    w = t + u
    gp.evaluate(t, u, w)
    tn = a * 3 - 1
    check(t, tn)
    check(u, np.sin(tn))
    check(w, tn + np.sin(tn))
    x = g + 2
    y = gp.exp(x)
    gp.evaluate(y, x)
    check(x, a + 2)
    check(y, np.exp(a + 2))


def test_several_outputs_of_one_group_own_their_memory():
    a, g = _pair((4, 5))
    x = g + 1
    y = g + 1
    z = x * 1
    gp.evaluate(x, y, z)
    x += 10
    check(x, a + 11)
    check(y, a + 1)
    check(z, a + 1)


def _write_both(y, z, ey, ez):
    """The same writes into two gnumpy views and their NumPy twins, then both checked."""
    gp.evaluate(y, z)
    for v, w in ((y, ey), (z, ez)):
        v[0] = 99.0
        w[0] = 99.0
    z[2, 1:] = -7.0
    ez[2, 1:] = -7.0
    check(y, ey)
    check(z, ez)


def test_views_of_one_array_share_it_and_of_two_temporaries_do_not():
    a, g = _pair((4, 5), special=True)
    e = a * 2 - 1
    t = g * 2 - 1
    _write_both(t[1:], t[:3], e[1:], e[:3])   # views of one array (NumPy: they share it)
    check(t, e)
    # views of two temporaries (NumPy: they do not)
    _write_both((g * 3)[1:], (g * 3)[:3], (a * 3)[1:], (a * 3)[:3])
    y, z = gp.flip(g + 0.5, axis=0), (g + 0.5)[::2]
    ey, ez = np.flip(a + 0.5, axis=0), (a + 0.5)[::2]
    gp.evaluate(y, z)
    y[...] = 0.0
    ey[...] = 0.0
    check(z, ez)
    check(y, ey)


def test_general_write_path_keeps_shared_temporaries():
    """Writes the replay leaves to the general evaluator (a barrier or a reduction in the
    value): a temporary two parents read is not overwritten by the first."""
    a, g = _pair((6,), special=True)
    for check_kernels in (None, ""):
        opts = {} if check_kernels is None else {"check_kernels": check_kernels}
        with gp.config.override(**opts):
            d = gp.zeros(6)
            t, tn = gp.sort(g) * 2, np.sort(a) * 2
            d[...] = gp.sin(t) + t
            check(d, np.sin(tn) + tn)
            t, tn = g * np.float64(a[4]) + gp.cumsum(g), a * a[4] + np.cumsum(a)
            d[...] = gp.exp(t / 8) - t * t
            check(d, np.exp(tn / 8) - tn * tn)
            b = np.abs(a[np.isfinite(a)])
            h = gp.asarray(b)
            e = gp.zeros(b.shape)
            t, tn = h / h.sum(), b / b.sum()
            e[...] = gp.sqrt(t) * (t + 1)
            check(e, np.sqrt(tn) * (tn + 1))
            # a reduction with its epilogue in one group, written where it runs
            u, un = gp.sum(h * 2), np.sum(b * 2)
            s0 = gp.zeros(())
            s0[...] = gp.sin(u) + u
            check(s0, np.asarray(np.sin(un) + un))
            m = np.stack([b, b[::-1] - 1])
            gm = gp.asarray(m)
            r = gp.zeros(m.shape)
            t, tn = gm - gp.max(gm, axis=1, keepdims=True), m - np.max(m, axis=1, keepdims=True)
            r[...] = gp.exp(t) + t
            check(r, np.exp(tn) + tn)


# ------------------------------------------------------------------ outputs not fresh
def test_constant_expressions_and_broadcast_outputs():
    check(gp.full((3, 4), 2.5) * 3, np.full((3, 4), 2.5) * 3)
    check(gp.ones((2, 3), dtype=np.int16) + 7, np.ones((2, 3), dtype=np.int16) + 7)
    check(gp.zeros((4,)) - np.inf, np.zeros((4,)) - np.inf)
    check(gp.full((2, 2), np.nan) + 1, np.full((2, 2), np.nan) + 1)
    z = gp.zeros((3, 2)) + 1.0
    z[1, 0] = 5.0
    e = np.ones((3, 2))
    e[1, 0] = 5.0
    check(z, e)
    a, g = _pair((5,))
    r = gp.broadcast_to(g, (3, 5)) + 0
    check(r, np.broadcast_to(a, (3, 5)) + 0)
    r[0, 0] = -7.0
    e = np.broadcast_to(a, (3, 5)) + 0
    e[0, 0] = -7.0
    check(r, e)
    s = gp.sum(gp.asarray(_vals((3, 4))), axis=1, keepdims=True)
    assert s.shape == (3, 1)
    f = gp.full((), -0.0) + 0.0
    check(f, np.asarray(-0.0 + 0.0))


def test_view_outputs_own_their_memory():
    a, g = _pair((4, 6))
    t = (g * 2).T
    t2 = t.copy()
    check(t2, (a * 2).T)
    t2[0, 0] = 99.0
    e = (a * 2).T.copy()
    e[0, 0] = 99.0
    check(t2, e)
    check(t, (a * 2).T)


# ------------------------------------------------------------------ casts
def test_complex_casts_take_the_real_part_except_to_bool():
    z = np.array([0 + 1j, 0 - 0j, 2.5 - 3j, -1.5 + 0j, np.nan + 0j, 0 + np.nan * 1j,
                  np.inf - 1j, -0.0 + 2j])
    g = gp.asarray(z)
    with np.errstate(all="ignore"):
        check(g.astype(bool), z.astype(bool))
        check((g * 1).astype(bool), (z * 1).astype(bool))
        check(g.astype(np.complex64), z.astype(np.complex64))
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check(g.astype(np.float64), z.real.astype(np.float64))
            check((g + 1).astype(np.float32), (z + 1).real.astype(np.float32))
            fin = z[np.isfinite(z)]
            check(gp.asarray(fin).astype(np.int32), fin.real.astype(np.int32))
    check(gp.asarray(np.arange(5.0) - 2.5).astype(np.complex128),
          (np.arange(5.0) - 2.5).astype(np.complex128))


# ------------------------------------------------------------------ cumulative barriers
@pytest.mark.parametrize("axis", [0, 1])
def test_cumulative_sum_and_prod_with_initial(axis):
    a = np.array([[1, -2, 3], [4, 5, -6]], dtype=np.int64)
    g = gp.asarray(a)
    for incl in (False, True):
        check(gp.cumulative_sum(g, axis=axis, include_initial=incl),
              np.cumulative_sum(a, axis=axis, include_initial=incl))
        check(gp.cumulative_prod(g, axis=axis, include_initial=incl),
              np.cumulative_prod(a, axis=axis, include_initial=incl))
        f = _vals((3, 4), special=True)
        check(gp.cumulative_sum(gp.asarray(f), axis=axis, include_initial=incl),
              np.cumulative_sum(f, axis=axis, include_initial=incl))
        check(gp.cumulative_prod(gp.asarray(f), axis=axis, include_initial=incl,
                                 dtype=np.float32),
              np.cumulative_prod(f, axis=axis, include_initial=incl, dtype=np.float32))
    e = np.zeros((0, 3))
    check(gp.cumulative_sum(gp.asarray(e), axis=axis, include_initial=True),
          np.cumulative_sum(e, axis=axis, include_initial=True))
    check(gp.cumsum(g * 2, axis=axis), np.cumsum(a * 2, axis=axis))


def test_cumulative_accumulates_in_the_requested_dtype():
    # float16 stops at 2048 when it accumulates itself; float32 then cast would not
    o = np.ones((2, 3000), np.float32)
    o[1] *= 0.5
    for incl in (False, True):
        check(gp.cumulative_sum(gp.asarray(o), axis=1, dtype=np.float16, include_initial=incl),
              np.cumulative_sum(o, axis=1, dtype=np.float16, include_initial=incl))
    p = np.full((2, 40), 1.5, np.float64)
    check(gp.cumulative_prod(gp.asarray(p), axis=1, dtype=np.float16),
          np.cumulative_prod(p, axis=1, dtype=np.float16))
    # uint64 beyond 2**53: an initial element of another dtype would round through float64
    u = np.array([[2**63 + 12345, 2**62 + 7, 3], [2**60 + 1, 5, 2**61 + 3]], dtype=np.uint64)
    for axis in (0, 1):
        check(gp.cumulative_sum(gp.asarray(u), axis=axis, include_initial=True),
              np.cumulative_sum(u, axis=axis, include_initial=True))
        check(gp.cumulative_prod(gp.asarray(u), axis=axis, include_initial=True),
              np.cumulative_prod(u, axis=axis, include_initial=True))


# ------------------------------------------------------------------ the write replay
def _writes(stmts, dest_shape=(6,), dtype=np.float64):
    """Run each statement on a gnumpy and a NumPy destination and compare."""
    for f in stmts:
        dn = (np.arange(int(np.prod(dest_shape))).reshape(dest_shape) - 2.5).astype(dtype)
        dg = gp.asarray(dn)
        f(dn, np)
        f(dg, gp)
        check(dg, dn)


def test_replay_tells_operand_order_apart():
    a, g = _pair((6,), special=True)
    b, h = _pair((6,))

    def w(expr):
        def f(d, xp):
            x, y = (a, b) if xp is np else (g, h)
            d[...] = expr(x, y)
        return f
    _writes([w(lambda x, y: x - 2.5), w(lambda x, y: 2.5 - x),
             w(lambda x, y: x - y), w(lambda x, y: y - x),
             w(lambda x, y: x / y - 1.5), w(lambda x, y: 1.5 - x / y),
             w(lambda x, y: (x - y) * (y - 2.0)), w(lambda x, y: (y - x) * (x - 2.0))])


def test_replay_tells_dtypes_apart():
    i = np.array([100, -100, 27, 5, -128, 127])

    for dt in (np.int8, np.int16, np.int32, np.uint8, np.float32):
        def f(d, xp, dt=dt):
            x = i if xp is np else gp.asarray(i)
            d[...] = (x.astype(dt) * 3).astype(np.float64)
        _writes([f])

        def f2(d, xp, dt=dt):
            x = i.astype(np.float64) if xp is np else gp.asarray(i.astype(np.float64))
            d[...] = x * 1.7 + xp.asarray(3, dtype=dt)
        _writes([f2])


def test_replay_tells_views_apart():
    a, g = _pair((12,), special=True)

    def w(key, n=6):
        def f(d, xp):
            x = a if xp is np else g
            d[...] = (x + 1)[key][:n]
        return f
    _writes([w(slice(None, None, 2)), w(slice(1, None, 2)), w(slice(None, None, -2)),
             w(slice(11, 0, -2)), w(slice(6, None)), w(slice(3, 9))])

    b, h = _pair((2, 3))

    def v(op):
        def f(d, xp):
            x = b if xp is np else h
            d[...] = op(x * 2)
        return f
    _writes([v(lambda t: t), v(lambda t: t[::-1]), v(lambda t: t[:, ::-1]),
             v(lambda t: t.T.T)], dest_shape=(2, 3))
    _writes([v(lambda t: t.T), v(lambda t: t.reshape(3, 2)), v(lambda t: t.T[::-1]),
             v(lambda t: t[::-1].reshape(3, 2))], dest_shape=(3, 2))

    def bc(shape):
        def f(d, xp):
            x = b if xp is np else h
            d[...] = xp.broadcast_to((x[0] * 2)[::-1], shape) + x[1]
        return f
    _writes([bc((2, 3))], dest_shape=(2, 3))
    c, k = _pair((3,))

    def bc2(col):
        def f(d, xp):
            x = c if xp is np else k
            y = (x * 2).reshape((3, 1) if col else (1, 3))
            d[...] = xp.broadcast_to(y, (3, 3))
        return f
    _writes([bc2(True), bc2(False)], dest_shape=(3, 3))


def test_replay_of_shared_subexpressions():
    a, g = _pair((6,), special=True)
    b, h = _pair((6,))

    def w(expr):
        def f(d, xp):
            x, y = (a, b) if xp is np else (g, h)
            d[...] = expr(x, y, xp)
        return f
    _writes([w(lambda x, y, xp: (x + 1) * (x + 1)),
             w(lambda x, y, xp: (x + 1) * (y + 1)),
             w(lambda x, y, xp: (y + 1) * (x + 1)),
             w(lambda x, y, xp: xp.sin(x + y) + (x + y) * (x - y)),
             w(lambda x, y, xp: xp.sin(x - y) + (x - y) * (x + y)),
             w(lambda x, y, xp: xp.where(x > y, x - y, y * 2)),
             w(lambda x, y, xp: xp.where(y > x, x - y, y * 2)),
             w(lambda x, y, xp: xp.maximum(x, y) - xp.minimum(y, 0.5))])
    # graphs whose walk ends at a shared node: told apart by everything before it
    _writes([w(lambda x, y, xp: (x + 1) * (x + 1)),
             w(lambda x, y, xp: (x + 2) / (x + 2)),
             w(lambda x, y, xp: (y - 1) + (y - 1)),
             w(lambda x, y, xp: (x * y) - (x * y)),
             w(lambda x, y, xp: xp.maximum(x - 3, x - 3))])


def test_replay_of_values_with_index_maps_and_barriers():
    a, g = _pair((6,), special=True)

    def w(expr):
        def f(d, xp):
            x = a if xp is np else g
            d[...] = expr(x, xp)
        return f
    _writes([w(lambda x, xp: xp.arange(6) * x), w(lambda x, xp: x - xp.arange(6.0)[::-1]),
             w(lambda x, xp: xp.arange(2, 14, 2) + 0.5),
             w(lambda x, xp: xp.sort(x) * 2), w(lambda x, xp: xp.cumsum(x[::-1]) - x)])
    with gp.config.override(check_kernels=""):
        _writes([w(lambda x, xp: xp.arange(6) * x), w(lambda x, xp: xp.sort(x) - 1),
                 w(lambda x, xp: xp.eye(6)[2] + x)])


def test_replay_with_many_leaves_and_scalars():
    vals = [_vals((5,)) for _ in range(4)]
    gs = [gp.asarray(v) for v in vals]

    def w(perm, c):
        def f(d, xp):
            x = [vals[i] for i in perm] if xp is np else [gs[i] for i in perm]
            d[...] = (x[0] - c[0]) * (x[1] + c[1]) - x[2] / (x[3] - c[2])
        return f
    _writes([w((0, 1, 2, 3), (1.0, 2.0, 3.0)), w((3, 2, 1, 0), (3.0, -1.0, 0.5)),
             w((1, 0, 3, 2), (0.0, 7.0, -2.0))], dest_shape=(5,))


def test_replay_into_views_and_in_place():
    a, g = _pair((4, 5), special=True)
    b, h = _pair((4, 5))
    an, gn = a.copy(), g.copy()
    for _ in range(2):
        an[1:3, ::2] = b[:2, ::2][:, ::-1] * 2 - an[2:4, ::2]
        gn[1:3, ::2] = h[:2, ::2][:, ::-1] * 2 - gn[2:4, ::2]
        check(gn, an)
        an[::-1] -= b
        gn[::-1] -= h
        check(gn, an)
        an[:, 0] = an[:, 1] + an[:, 2]
        gn[:, 0] = gn[:, 1] + gn[:, 2]
        check(gn, an)
    i = np.arange(10, dtype=np.int32)
    gi = gp.asarray(i)
    i[2:8] = i[2:8][::-1] * 3 + 1
    gi[2:8] = gi[2:8][::-1] * 3 + 1
    check(gi, i)
    c = np.zeros((3,), np.complex128)
    gc = gp.asarray(c)
    z = np.array([1 + 2j, -3 - 0.5j, 0 + 1j])
    c[...] = z * (1 - 1j)
    gc[...] = gp.asarray(z) * (1 - 1j)
    check(gc, c)
    fl = np.zeros(3)
    gf = gp.asarray(fl)
    with np.errstate(all="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fl[...] = (z * 2).astype(np.float64)
            gf[...] = (gp.asarray(z) * 2).astype(np.float64)
    check(gf, fl)
    c64 = np.zeros(3, np.complex64)
    g64 = gp.asarray(c64)
    c64[...] = (z * 2).astype(np.complex64) + 1j
    g64[...] = (gp.asarray(z) * 2).astype(np.complex64) + 1j
    check(g64, c64)
    bo = np.zeros(3, bool)
    gb = gp.asarray(bo)
    bo[...] = (z - 1).astype(bool)
    gb[...] = (gp.asarray(z) - 1).astype(bool)
    check(gb, bo)


@pytest.mark.parametrize("check_kernels", ["", None])
def test_replay_of_writes_with_reductions(check_kernels):
    """A written value that reads a reduction: the replay path when the kernel check is off
    (the suite runs with it on, which sends these writes to the general path)."""
    opts = {} if check_kernels is None else {"check_kernels": check_kernels}
    a, g = _pair((4, 6), special=False)
    b, h = _pair((4, 6), special=True)
    with gp.config.override(**opts):
        for _ in range(2):
            an, gn = a.copy(), g.copy()
            an[...] = b - b.sum(axis=0, keepdims=True)
            gn[...] = h - h.sum(axis=0, keepdims=True)
            check(gn, an)
            an[...] = a - np.mean(a, axis=1, keepdims=True)
            gn[...] = g - gp.mean(g, axis=1, keepdims=True)
            check(gn, an)
            an[1:3] = a[:2] * np.max(a)
            gn[1:3] = g[:2] * gp.max(g)
            check(gn, an)
            an[:, 0] = np.sum(a[:, 1:] * 2, axis=1)
            gn[:, 0] = gp.sum(g[:, 1:] * 2, axis=1)
            check(gn, an)
            an[0] = np.min(a, axis=0) + np.max(a, axis=0)
            gn[0] = gp.min(g, axis=0) + gp.max(g, axis=0)
            check(gn, an)
            i = np.arange(12, dtype=np.int8).reshape(3, 4) * 20
            gi = gp.asarray(i)
            r = np.zeros(4, np.float64)
            gr = gp.zeros(4)
            r[...] = i.sum(axis=0, dtype=np.int8) * 0.5
            gr[...] = gi.sum(axis=0, dtype=np.int8) * 0.5
            check(gr, r)
            r[...] = i.sum(axis=0) * 0.5
            gr[...] = gi.sum(axis=0) * 0.5
            check(gr, r)
            bo = np.zeros((4,), bool)
            gbo = gp.zeros((4,), dtype=bool)
            bo[...] = np.any(a > 1, axis=1)
            gbo[...] = gp.any(g > 1, axis=1)
            check(gbo, bo)


# ------------------------------------------------------------------ warnings as NumPy's
def _complex_warnings(f):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = f()
    return r, sum(issubclass(x.category, np.exceptions.ComplexWarning) for x in w)


def test_complex_to_real_warns_once_as_numpy():
    z = np.array([1 + 2j, -3 - 0.5j, 0 + 1j, np.nan - 1j])
    for dt in (np.float64, np.float32, np.int16):
        zz = z[:3] if dt is np.int16 else z
        e, ne = _complex_warnings(lambda: zz.astype(dt))
        r, ng = _complex_warnings(lambda: gp.asarray(zz).astype(dt).get())
        assert ng == ne == 1
        np.testing.assert_array_equal(r, e)
        r, ng = _complex_warnings(lambda: (gp.asarray(zz) * 2).astype(dt).get())
        assert ng == 1
        np.testing.assert_array_equal(r, (zz * 2).astype(dt))

        def replay():
            d = gp.zeros(zz.shape, dtype=dt)
            d[...] = (gp.asarray(zz) - 1).astype(dt)
            return d.get()
        r, ng = _complex_warnings(replay)
        assert ng == 1
        np.testing.assert_array_equal(r, (zz - 1).astype(dt))


def test_materialization_emits_no_floating_point_warnings():
    a = np.array([1.0, 0.0, -1.0, np.nan, np.inf, -0.0])
    g = gp.asarray(a)
    with np.errstate(all="ignore"):
        exp = [a / 0.0, np.log(a), np.sqrt(a) * np.inf, np.exp(a * 1000.0) - a,
               np.arccos(a * 2), (a * 0.0) % 0.0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = [g / 0.0, gp.log(g), gp.sqrt(g) * np.inf, gp.exp(g * 1000.0) - g,
               gp.arccos(g * 2), (g * 0.0) % 0.0]
        gp.evaluate(*got)
    for r, e in zip(got, exp):
        check(r, e)


def test_writes_emit_no_floating_point_warnings():
    """As on the GPU, and as the module says: NumPy's values, no RuntimeWarning."""
    a = np.array([1.0, 0.0, -1.0, np.nan, np.inf, -0.0])
    g = gp.asarray(a)
    with np.errstate(all="ignore"):
        exp = [a / 0.0, np.sort(a) / 0.0, np.cumsum(a) * np.inf, np.log(a) - a.sum(),
               np.exp(a * 1000.0)]
    for check_kernels in (None, ""):
        opts = {} if check_kernels is None else {"check_kernels": check_kernels}
        got = []
        with gp.config.override(**opts), warnings.catch_warnings():
            warnings.simplefilter("error")
            for f in [lambda: g / 0.0, lambda: gp.sort(g) / 0.0,
                      lambda: gp.cumsum(g) * np.inf, lambda: gp.log(g) - g.sum(),
                      lambda: gp.exp(g * 1000.0)]:
                d = gp.zeros(6)
                d[...] = f()
                got.append(d)
                e = gp.zeros(6)
                e[1:] = f()[1:]
                got.append(e)
        for i, ex in enumerate(exp):
            check(got[2 * i], ex)
            e2 = np.zeros(6)
            e2[1:] = ex[1:]
            check(got[2 * i + 1], e2)
        # one group that reduces and writes (the general write path while kernels are
        # checked): a prologue that divides by zero, an epilogue that takes a log
        b = np.stack([a, a[::-1] * 2])
        h = gp.asarray(b)
        with gp.config.override(**opts), warnings.catch_warnings():
            warnings.simplefilter("error")
            s0 = gp.zeros(())
            s0[...] = gp.sum(g / 0.0)
            s1 = gp.zeros(())
            s1[...] = gp.max(gp.log(g[:3]))
            r = gp.zeros((2, 6))
            r[...] = h - gp.max(h / 0.0, axis=1, keepdims=True)
            c = gp.zeros(2)
            c[...] = gp.log(gp.sum(h, axis=1) - 1e300)
        with np.errstate(all="ignore"):
            check(s0, np.asarray(np.sum(a / 0.0)))
            check(s1, np.asarray(np.max(np.log(a[:3]))))
            check(r, b - np.max(b / 0.0, axis=1, keepdims=True))
            check(c, np.log(np.sum(b, axis=1) - 1e300))


# ------------------------------------------------------------------ the backend itself
def test_dlpack_device_is_numpys():
    a, g = _pair((3, 4), special=True)
    assert g.__dlpack_device__() == a.__dlpack_device__()
    h = np.from_dlpack(g)
    assert_close(h, a)
    assert h.dtype == a.dtype


def test_a_fresh_backend_round_trips_and_replays_writes():
    """A CpuBackend made now (the suite's own is made once, by its first array)."""
    from gnumpy._graph import ir
    from gnumpy.backends.cpu import CpuBackend
    dev = gp.asarray(0).device
    be = CpuBackend(dev)
    assert be.device == dev
    a, b = _vals((3, 4), special=True), _vals((3, 4))
    la, lb = be.from_numpy(a), be.from_numpy(b[:, ::-1])
    assert la.device == dev
    assert_close(be.to_numpy(la), a, rtol=0, atol=0)
    f64 = np.dtype(np.float64)
    for op, e in [("subtract", a - b[:, ::-1]), ("multiply", a * b[:, ::-1]),
                  ("subtract", a - b[:, ::-1])]:
        dest = be.from_numpy(np.zeros((3, 4)))
        assert be.fast.write(dest, ir.ew(op, f64, (la, lb)), None) == 1
        assert_close(be.to_numpy(dest), e)


@pytest.mark.parametrize("n_ops", [8, 16])
def test_a_chain_holds_one_temporary_on_every_path(n_ops):
    """Host memory of evaluating a chain of n_ops element-wise ops: the general evaluator
    (first and second time) and the compiled replay (third time on) reuse temporaries that
    nothing else reads, so the peak stays near one array whatever the chain's length."""
    import tracemalloc
    n = 1 << 18
    xh = RNG.random(n)
    x = gp.asarray(xh)

    def chain(xp, y):
        for k in range(n_ops):
            y = y * 1.0001 + 0.5 if k % 2 else xp.sin(y)
        return y
    want = chain(np, xh)
    host = backend(x.device).name == "cpu"     # on CUDA the temporaries are device memory
    for _ in range(4):
        y = chain(gp, x)
        tracemalloc.start()
        try:
            gp.evaluate(y)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        if host:
            assert peak < 2.5 * xh.nbytes, peak / xh.nbytes
        check(y, want)
