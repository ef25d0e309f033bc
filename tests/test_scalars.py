"""NumPy's scalars: what a function returns as a scalar (an element read, a ufunc's or a
reduction's 0-d result) is immutable in NumPy, and gnumpy's 0-d array that stands for it
(``ndarray._sc``) acts so.  An in-place operator rebinds the name to a new value (what else
holds the scalar keeps its value; an integer scalar ``/= 2`` becomes a float), and a
view of a scalar is a new array.  A 0-d *array* (``asarray``, ``zeros(())``, a view, a
copy, ``where``) stays an array: its in-place operators write it.

Each case runs on NumPy and on gnumpy and compares what can be observed: whether ``x +=
1`` changed the object another name holds, and the values."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import gnumpy as gp
from gnumpy._graph import ir
from test_fast_path import fake  # noqa: F401 - the fake CUDA backend fixture

RNG = np.random.default_rng(20261205)


def _cases(xp, a_h, v_h, i_h):
    a, v, i = xp.asarray(a_h), xp.asarray(v_h), xp.asarray(i_h)
    z = xp.asarray(np.asarray(a_h[0, 0]))           # a 0-d array
    s = a[0, 1]                                     # a scalar (an element read)
    u = xp.asarray(np.array(3, np.uint32))
    b = (np.float32(1.5) % xp.logical_or(xp.asarray(np.array(1, np.int16)).copy(), u)) < -1
    return {
        # fuzz (seed 76037806): an operator's result folded from values known on the host
        "an operator's result known on the host": lambda: (u << b) | u,
        "element": lambda: a[1, 2], "element + 1": lambda: a[1, 2] + 1,
        "0-d array + 1": lambda: z + 1, "negative": lambda: -s, "abs": lambda: abs(s),
        "sum": lambda: a.sum(), "np.sum": lambda: xp.sum(v), "sum over its axis": lambda:
        v.sum(axis=0), "max": lambda: xp.max(a), "argmax": lambda: xp.argmax(a),
        "mean": lambda: a.mean(), "std": lambda: a.std(), "var": lambda: xp.var(v),
        "median": lambda: xp.median(v), "percentile": lambda: xp.percentile(v, 40),
        "quantile": lambda: xp.quantile(v, 0.3), "nansum": lambda: xp.nansum(a),
        "prod": lambda: xp.prod(v), "ptp": lambda: xp.ptp(v), "all": lambda: xp.all(a > 0),
        "any": lambda: xp.any(v), "count_nonzero": lambda: xp.count_nonzero(a),
        "count_nonzero of a 0-d array": lambda: xp.count_nonzero(z, keepdims=True),
        "sum of a 0-d array": lambda: xp.sum(z), "integer sum": lambda: i.sum(),
        "dot": lambda: xp.dot(v, v), "vdot": lambda: xp.vdot(v, v), "inner": lambda:
        xp.inner(v, v), "matmul": lambda: v @ v, "einsum": lambda: xp.einsum("i,i", v, v),
        "tensordot (a 0-d array)": lambda: xp.tensordot(v, v, 1), "trace": lambda:
        xp.trace(a[:, :2]), "det": lambda: xp.linalg.det(a[:2, :2] + xp.eye(2)),
        "norm": lambda: xp.linalg.norm(v), "average": lambda: xp.average(v),
        "interp": lambda: xp.interp(1.5, xp.sort(v), v), "polyval": lambda:
        xp.polyval(v, 2.0), "nan_to_num": lambda: xp.nan_to_num(s), "sqrt": lambda:
        xp.sqrt(z), "maximum": lambda: xp.maximum(z, 1), "clip": lambda: xp.clip(s, 0, 1),
        "round": lambda: xp.round(s), "isnan": lambda: xp.isnan(s), "sign": lambda:
        xp.sign(s), "minimum of a scalar and a 0-d array": lambda: xp.minimum(s, z),
        "uint8 compared out of its range": lambda: xp.asarray(np.uint8(7)) > -1,
        "where (a 0-d array)": lambda: xp.where(True, z, 0.0),
        "a 0-d array's astype": lambda: z.astype(np.float32),
        "a scalar's astype": lambda: s.astype(np.float32),
        "np.astype of a scalar": lambda: xp.astype(s, np.float32),
        "np.astype of a 0-d array": lambda: xp.astype(z, np.float32),
        "a scalar's byteswap": lambda: s.byteswap(),
        "a 0-d array's byteswap": lambda: z.byteswap(),
        "a 0-d array's copy": lambda: z.copy(), "a scalar's copy": lambda: s.copy(),
        "np.copy of a scalar": lambda: xp.copy(s), "np.array of a scalar": lambda:
        xp.array(s), "asarray of a scalar": lambda: xp.asarray(s),
        "squeeze of a scalar": lambda: xp.squeeze(s), "squeeze of a 0-d array": lambda:
        xp.squeeze(z), "a (1, 1) array squeezed": lambda: xp.squeeze(xp.ones((1, 1))),
        "a scalar's reshape": lambda: s.reshape(()), "a scalar's T": lambda: s.T,
        "a 0-d array's T": lambda: z.T, "a scalar's [()]": lambda: s[()],
        "a 0-d array's [()]": lambda: z[()], "a scalar's [...]": lambda: s[...],
        "a 0-d array's [...]": lambda: z[...], "zeros(())": lambda: xp.zeros(()),
        "full((), 3)": lambda: xp.full((), 3.0), "array(3.0)": lambda: xp.array(3.0),
        "a scalar's real": lambda: s.real, "a scalar's imag": lambda: s.imag,
        "an element of a diagonal": lambda: xp.diag(a)[0],
        "a row's element": lambda: a[1][2], "take": lambda: xp.take(v, 1),
        "iscomplex of a real scalar": lambda: xp.iscomplex(s), "iscomplex of 2.0": lambda:
        xp.iscomplex(2.0), "isreal of a scalar": lambda: xp.isreal(s),
        "choose of scalars": lambda: xp.choose(1, [s, z]),
        "lstsq's rank": lambda: xp.linalg.lstsq(a[:, :2], v[:3], rcond=None)[2],
        "average's weight sum": lambda: xp.average(v, returned=True)[1],
        "weighted average's weight sum": lambda: xp.average(v, weights=v, returned=True)[1],
    }


def _observe(xp, name, args):
    x = _cases(xp, *args)[name]()
    y = x
    x += 1
    x /= 2              # (an integer scalar becomes a float; a 0-d int array refuses)
    return x is y, np.asarray(x.get() if hasattr(x, "get") else x), \
        np.asarray(y.get() if hasattr(y, "get") else y)


_ARGS = (RNG.standard_normal((3, 4)), RNG.random(5) + 0.5, RNG.integers(-9, 9, 6))
_NAMES = list(_cases(np, *_ARGS))


@pytest.mark.parametrize("name", _NAMES)
def test_in_place_operators_rebind_what_numpy_returns_as_a_scalar(name):
    args = tuple(a.copy() for a in _ARGS)
    try:
        ref = _observe(np, name, args)
    except TypeError as e:          # (a 0-d integer array refuses ``/= 2``)
        with pytest.raises(TypeError):
            _observe(gp, name, args)
        assert "Cannot cast" in str(e)
        return
    got = _observe(gp, name, args)
    assert got[0] == ref[0], ("an array (written in place)" if ref[0] else
                              "a scalar (rebound)") + " in NumPy"
    np.testing.assert_allclose(got[1], ref[1], rtol=1e-6)
    np.testing.assert_allclose(got[2], ref[2], rtol=1e-6)
    assert got[1].dtype == ref[1].dtype


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, np.bool_, np.float32])
def test_an_integer_scalar_widens_and_its_holders_keep_their_values(dtype):
    h = (RNG.integers(1, 50, (4, 3)) % (2 if dtype == np.bool_ else 50)).astype(dtype)
    for xp in (np, gp):
        a = xp.asarray(h.copy())
        e, t = a[2, 1], a.sum(axis=0)[1]
        e0, t0 = e, t
        e /= 4              # NumPy: e rebound to a float64 (or float32) scalar
        t -= 1
        got = (e, e0, t, t0, a)
        if xp is np:
            ref = got
        else:
            for r, g in zip(ref, got):
                r = np.asarray(r)
                g = g.get()
                assert g.dtype == r.dtype and g.shape == r.shape
                np.testing.assert_array_equal(g, r)


def test_a_bool_scalar_shifts_out_of_place_after_squeeze():
    # fuzz (seed 72011859): np.squeeze of an element read's [()] is still NumPy's scalar,
    # so ``x >>= x`` on a bool computes out of place (int8)
    for xp in (np, gp):
        a = xp.asarray(np.array([[True, False], [True, True]]))
        x = xp.squeeze(a[1, 0][()])
        x0 = x
        x >>= x
        r = (np.asarray(x) if xp is np else x.get(), np.asarray(x0) if xp is np else x0.get())
        if xp is np:
            ref = r
    for g, w in zip(r, ref):
        assert g.dtype == w.dtype and g == w


def test_views_of_a_scalar_are_new_arrays_and_writes_into_it_are_taken():
    for xp in (np, gp):
        s = xp.asarray(RNG.random(4) + 1).sum()
        s_val = float(s)
        one = xp.atleast_1d(s)
        one[0] = -5.0                   # a new array: s keeps its value
        col = s[None]
        col[0] = -6.0
        t = s.reshape(())
        t += 3                          # a new scalar; s keeps its value
        assert float(s) == s_val and float(one[0]) == -5.0 and float(col[0]) == -6.0
        assert float(t) == s_val + 3
        f = s.copy()
        f.fill(9.0)                     # NumPy's scalar fills a copy of itself
        assert float(f) == s_val
    # NumPy's scalar refuses item assignment; gnumpy's writes it (code that tells scalars
    # from arrays by numbers.Number treats it as an array: dask's moments write into it)
    s = gp.asarray([1.0, -2.0]).sum()
    s[s < 0] = np.nan
    assert np.isnan(float(s))
    u = gp.asarray([3, 4]).sum()
    u[()] = 2
    assert int(u) == 2


def test_a_real_scalars_conj_and_real_are_new_scalars():
    # fuzz (seeds 74001388, 74010981): a write into the scalar (which gnumpy takes) leaves
    # its conj as it was, as NumPy's new scalar would be
    h = np.asarray([2.5, 4.0])
    assert np.prod(h).conj() is not np.prod(h)
    s = gp.asarray(h).prod()
    c, r = s.conj(), s.real
    assert c is not s and r is not s
    s[()] = 1.5
    c2 = s.conj()
    c2 += 1
    assert float(c) == float(r) == 10.0 and float(s) == 1.5 and float(c2) == 2.5


def test_a_ufunc_out_and_put_write_a_scalar_in_place():
    s = gp.asarray([1.0, 2.0]).max()
    r = gp.add(gp.asarray(1.0), 2.0, out=s)
    assert r is s and float(s) == 3.0
    gp.put(s, [0], [7.0])
    assert float(s) == 7.0


def test_a_scalar_is_a_dict_key_as_numpys_and_an_array_is_not():
    h = np.array([3.0, 6.0, 0.0, 5.0, 1.0, 4.0, 2.0])    # (argmax 1 and max 6: two keys)
    for xp in (np, gp):
        x = xp.asarray(h)
        i, m = x.argmax(), x.max()
        d = {i: "at", m: "max"}
        assert d[int(h.argmax())] == "at" and d[float(h.max())] == "max"
        assert hash(i) == hash(int(h.argmax())) and hash(x[2]) == hash(float(h[2]))
        assert len({x[0], x[0] + 0, xp.sum(x[:1])}) == 1
        for unhashable in (x, xp.asarray(np.float64(1.0)), x[...] if xp is np else x[2:3]):
            with pytest.raises(TypeError, match="unhashable"):
                hash(unhashable)


def test_isscalar_tells_numpys_scalars_from_arrays():
    h = RNG.random((2, 3))
    for xp in (np, gp):
        a = xp.asarray(h)
        assert xp.isscalar(a[1, 2]) and xp.isscalar(a.sum()) and xp.isscalar(a[0, 0] * 2)
        assert not xp.isscalar(a) and not xp.isscalar(a[0]) and \
            not xp.isscalar(xp.asarray(np.float64(1.0))) and not xp.isscalar(xp.zeros(()))
        assert xp.isscalar(2.5) and not xp.isscalar([1.0])


def test_writes_numpy_refuses_on_a_scalar_raise_its_errors():
    # review of the scalar mark: these wrote nothing (the write went to a new copy), or
    # wrote the scalar where NumPy refuses
    for xp in (np, gp):
        s = xp.asarray(np.array([1.0 + 1j, 2.0])).sum()
        r = xp.asarray(np.array([np.nan, 1.0])).sum()
        for f, err in ((lambda: setattr(s, "real", 5.0), AttributeError),
                       (lambda: setattr(s, "imag", 5.0), AttributeError),
                       (lambda: xp.add.at(s, (), 1), TypeError),
                       (lambda: r.setfield(5.0, np.float64), TypeError),
                       (lambda: xp.nan_to_num(r, copy=False), ValueError),
                       (lambda: xp.asarray(r, copy=False), ValueError),
                       (lambda: xp.array(r, copy=False), ValueError),
                       (lambda: r.byteswap(inplace=True), ValueError)):
            with pytest.raises(err):
                f()
        assert complex(s) == 3 + 1j and np.isnan(float(r))


def test_functions_numpy_gives_arrays_from_a_scalar_give_arrays():
    for xp in (np, gp):
        s = xp.asarray(np.array([1.0, 2.0])).sum()
        b = xp.broadcast_arrays(s)[0]
        c = xp.real_if_close(s)
        assert not xp.isscalar(b) and not xp.isscalar(c) and c is not s
        c += 1                              # a new 0-d array: s keeps its value
        assert float(s) == 3.0 and float(c) == 4.0


def test_more_functions_numpy_returns_scalars_from():
    h = RNG.random((3, 3)) + np.eye(3) * 3
    for name, f in (("vector_norm", lambda xp, a: xp.linalg.vector_norm(a)),
                    ("matrix_norm", lambda xp, a: xp.linalg.matrix_norm(a)),
                    ("cond", lambda xp, a: xp.linalg.cond(a))):
        vals = []
        for xp in (np, gp):
            x = f(xp, xp.asarray(h))
            y = x
            x += 1
            vals.append((x is y, float(y)))
        assert vals[0][0] == vals[1][0] and vals[0][1] == pytest.approx(vals[1][1]), name


def test_a_scalars_power_takes_none_of_the_arrays_fast_paths():
    # fuzz (seed 81016622): NumPy's bool scalar ** 2 is an int64 power, its 0-d array's a
    # square (int8); a float scalar's ** 0.5 a power, not a sqrt (equal within the dtype's
    # tolerance: CUDA's pow and the host's differ in the last bit)
    h = np.array([True, False])
    x = RNG.random(50) * 100
    for xp in (np, gp):
        a, v = xp.asarray(h), xp.asarray(x)
        b = xp.logical_not(a[1])
        assert (b ** 2).dtype == np.int64 and (a ** 2).dtype == np.int8
        assert float(b ** 2) == 1
    got = [float(gp.asarray(x)[k] ** 0.5) for k in range(50)]
    np.testing.assert_allclose(got, [float(np.float64(t) ** 0.5) for t in x], rtol=1e-15)


def test_a_pickled_scalar_is_a_scalar():
    import pickle
    s = gp.asarray(np.array([1, 2])).sum()
    t = pickle.loads(pickle.dumps(s))
    t /= 2                                  # NumPy's int64 scalar: a float, out of place
    assert t.dtype == np.float64 and float(t) == 1.5 and gp.isscalar(t)
    a = pickle.loads(pickle.dumps(gp.asarray(np.array(3))))
    assert not gp.isscalar(a)


def test_draws_are_scalars_with_size_none_and_arrays_with_size_empty():
    picks = {}
    for xp in (np, gp):
        r = xp.random.default_rng(5)
        picks[xp] = [xp.isscalar(f()) for f in (
            lambda: r.random(), lambda: r.random(size=()), lambda: r.standard_normal(),
            lambda: r.integers(5), lambda: r.integers(5, size=()), lambda: r.normal(),
            lambda: r.poisson(3.0), lambda: r.poisson(3.0, size=()), lambda: r.binomial(9, .3),
            lambda: r.laplace(), lambda: r.zipf(2.0), lambda: r.standard_gamma(2.0),
            lambda: r.choice(5), lambda: r.choice(5, size=()), lambda: xp.random.rand(),
            lambda: xp.random.randn(), lambda: xp.random.poisson(2.0),
            lambda: xp.random.normal(size=()))]
        o = xp.zeros(())
        assert r.random(out=o) is o and not xp.isscalar(o)
    assert picks[gp] == picks[np]
    p = gp.random.default_rng(1).poisson(3.0)
    q = p
    p /= 2                  # NumPy's int: a float, rebound
    assert p.dtype == np.float64 and q.dtype == np.int64


def _bits_equal(g, n) -> bool:
    g = np.asarray(g.get() if isinstance(g, gp.ndarray) else g)
    n = np.asarray(n)
    return g.dtype == n.dtype and g.tobytes() == n.tobytes()


CONSTANT_OPS = {    # name: f(xp), an op over Python or NumPy scalars (NumPy's scalar math)
    "deriche's k": lambda xp, a=0.25: (1.0 - xp.exp(-a)) * (1.0 - xp.exp(-a)) / (
        1.0 + a * xp.exp(-a) - xp.exp(2.0 * a)),
    "a * b + c": lambda xp: xp.multiply(0.1, 0.7) + 0.3,       # (no contracted FMA)
    "float32 sqrt": lambda xp: xp.sqrt(np.float32(2.0)),
    "float32 chain": lambda xp: xp.sin(np.float32(0.3)) * np.float32(1e-3) + np.float32(1),
    "integer floor_divide by 0": lambda xp: xp.floor_divide(7, 0),
    "int8 wraps": lambda xp: xp.add(np.int8(120), np.int8(10)),
    "power": lambda xp: xp.power(3, 13),
    "arctan2 of -0": lambda xp: xp.arctan2(0.5, -0.0),
    "complex exp": lambda xp: xp.exp(np.complex64(1j)),
    "log of -1": lambda xp: xp.log(-1.0),
    "logical and": lambda xp: xp.logical_and(True, np.False_),
    "comparison": lambda xp: xp.greater(xp.cos(1.0), 0.5),
}


@pytest.mark.parametrize("name", CONSTANT_OPS)
def test_an_op_over_constants_is_numpys_scalar_math(name):
    """An op's 0-d result over constants alone (and over such results: deriche's
    coefficients) is NumPy's scalar, bit for bit: computed on the host as NumPy computes
    it, no contracted multiply-add or device math library in between; a scalar, and a
    constant (no memory, nothing to read back)."""
    f = CONSTANT_OPS[name]
    with np.errstate(all="ignore"):
        n = f(np)
    g = f(gp)
    assert _bits_equal(g, n), (g, n)
    assert gp.isscalar(g) and g._node.kind == ir.SCALAR
    assert _bits_equal(float(g) if g.dtype.kind in "f" else g.get()[()], n[()] if
                       g.dtype.kind not in "f" else float(n))


def test_constant_coefficients_stay_a_loops_kernel_parameters(fake):
    """Coefficients computed from constants (NPBench deriche's a1 ... b2) launch nothing
    and stay constants however often a loop's statements read them: the statements take
    them as parameters (no buffer to make or read), here all of them one sequence (one
    launch: ``cuda_sequence``)."""
    from gnumpy._graph import realize
    dev, be = fake
    alpha = gp.full((), 0.25, device=dev)
    k = (1.0 - gp.exp(-alpha)) * (1.0 - gp.exp(-alpha)) / (
        1.0 + alpha * gp.exp(-alpha) - gp.exp(2.0 * alpha))
    a1, b2 = k * gp.exp(-alpha), -gp.exp(-2.0 * alpha)
    img = gp.asarray(np.ones((8, 16)), device=dev)
    y = gp.zeros_like(img)
    gp.evaluate(img, y)
    realize.settle()
    be.launches.clear()
    for j in range(1, 16):
        y[:, j] = a1 * img[:, j] + b2 * y[:, j - 1]
    gp.evaluate(y)
    realize.settle()
    assert len(be.launches) == 1
    assert all(c._node.kind == ir.SCALAR for c in (k, a1, b2))
    assert float(a1) == float(np.float64(k) * np.exp(-0.25))


_INTO_INTEGERS = ["a[2] = f[k]", "a[0:2] = f[k]", "a[...] = f[k]", "a[1] = a[0] / a[2]",
                  "a[0] /= a[2]", "u[0] = f[k]", "i8[1] = f[k]", "a[[0, 1]] = f[k]",
                  "a[a > 0] = f[k]", "a[1] = c[k]", "a[:, None][1] = f[k]"]


@pytest.mark.parametrize("stmt", _INTO_INTEGERS)
@pytest.mark.parametrize("k", range(7))
def test_a_float_scalar_into_integers_is_converted_as_numpys(stmt, k):
    """A float (or complex) scalar read from an array and written into an integer array
    by a basic index converts as NumPy's scalar does: NaN is a ValueError, infinity and
    values past the type an OverflowError, raised at the statement with nothing written;
    through an advanced index it is cast (NumPy warns; an unrepresentable value's cast is
    implementation-defined, so only the absence of an error is compared there)."""
    vals = [2.7, np.nan, np.inf, 3e30, 300.0, 200.5, -0.5]
    out = []
    for xp in (np, gp):
        a = xp.asarray([1, 2, 0])
        u = xp.asarray(np.array([1, 2], np.uint8))
        i8 = xp.asarray(np.array([1, 2], np.int8))
        f = xp.asarray(vals)
        c = xp.asarray(np.array(vals) + 1j)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                exec(stmt, {"a": a, "u": u, "i8": i8, "f": f, "c": c, "k": k})
                err = None
            except (ValueError, OverflowError) as e:
                err = type(e)
        out.append((err, [np.asarray(x).tolist() for x in (a, u, i8)]))
    if k in (1, 2, 3) and ("[[" in stmt or ">" in stmt):
        out = [o[0] for o in out]   # (the cast of NaN, inf or 3e30 is implementation-
    assert out[1] == out[0]         # defined: gn_core.cuh saturates, NumPy's x86 gives INT_MIN)
