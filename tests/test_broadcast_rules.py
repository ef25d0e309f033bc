"""Broadcasting rules (gnumpy/_broadcast.py, the one place shapes are broadcast) against
NumPy: every pair and a sample of triples of small shapes, and the error messages of a
ufunc and of broadcast_to (compared with whitespace normalised: see the module note).

Note: gnumpy's ufunc and broadcast_to messages differ from NumPy's only in whitespace
(NumPy ends the ufunc's message with a space and puts two before "and requested shape");
broadcast_shapes and broadcast_arrays raise NumPy's own message, naming the two arguments.
"""
import itertools

import numpy as np
import pytest

import gnumpy as gp
from gnumpy import _broadcast as B

SIDES = (0, 1, 2, 3)
SHAPES = [s for n in range(4) for s in itertools.product(SIDES, repeat=n) if n < 3 or
          s in ((1, 2, 3), (2, 1, 3), (3, 2, 1), (0, 1, 3))]


def _msg(e):
    return " ".join(str(e.value).split())


def test_broadcast_shapes_every_pair():
    for a, b in itertools.product(SHAPES, SHAPES):
        try:
            want = np.broadcast_shapes(a, b)
        except ValueError:
            with pytest.raises(ValueError):
                B.broadcast_shapes(a, b)
            continue
        assert B.broadcast_shapes(a, b) == want, (a, b)
        assert gp.broadcast_shapes(a, b) == want, (a, b)


def test_broadcast_shapes_triples_single_and_none():
    rng = np.random.default_rng(0)
    for _ in range(300):
        ss = [SHAPES[i] for i in rng.integers(0, len(SHAPES), 3)]
        try:
            want = np.broadcast_shapes(*ss)
        except ValueError:
            with pytest.raises(ValueError):
                B.broadcast_shapes(*ss)
            continue
        assert B.broadcast_shapes(*ss) == want, ss
    assert B.broadcast_shapes([2, 3]) == (2, 3) and isinstance(B.broadcast_shapes([2]), tuple)
    assert B.broadcast_shapes() == np.broadcast_shapes() == ()
    assert B.broadcast_shapes((), ()) == ()


@pytest.mark.parametrize("a,b", [((2,), (3,)), ((2, 3), (4, 1, 2)), ((0,), (2,)),
                                 ((5, 2, 4), (3, 1)), ((2, 3), (3, 2))])
def test_ufunc_broadcast_error_message(a, b):
    with pytest.raises(ValueError) as e:
        np.add(np.empty(a), np.empty(b))
    with pytest.raises(ValueError) as g:
        gp.add(gp.empty(a), gp.empty(b))
    assert _msg(g) == _msg(e)
    with pytest.raises(ValueError) as g:
        B.broadcast_shapes(a, b)
    assert _msg(g) == _msg(e)


@pytest.mark.parametrize("shape,target", [((3,), (2,)), ((2, 1), (3,)), ((2,), ()),
                                          ((1, 2), (3, 4)), ((3, 1), (2, 3, 2)),
                                          ((1,), (3,)), ((2, 1), (2, 4)), ((), (2, 2))])
def test_broadcast_to(shape, target):
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    try:
        want = np.broadcast_to(a, target)
    except ValueError as ex:
        with pytest.raises(ValueError) as g:
            gp.broadcast_to(gp.asarray(a), target)
        assert " ".join(str(g.value).split()) == " ".join(str(ex).split())
        with pytest.raises(ValueError):
            B.broadcast_to_check(shape, target)
        return
    B.broadcast_to_check(shape, target)
    np.testing.assert_array_equal(gp.broadcast_to(gp.asarray(a), target).get(), want)


def test_broadcast_shapes_and_arrays_name_the_clashing_arguments():
    """``broadcast_shapes`` and ``broadcast_arrays`` raise NumPy's message exactly: the
    argument that set an axis's length and the first that differs from it, axes from the
    outermost, for every pair and a sample of triples of the small shapes that clash."""
    rng = np.random.default_rng(1)
    triples = [tuple(SHAPES[i] for i in rng.integers(0, len(SHAPES), 3)) for _ in range(300)]
    seen = 0
    for ss in list(itertools.product(SHAPES, SHAPES)) + triples:
        try:
            np.broadcast_shapes(*ss)
            continue
        except ValueError as e:
            want = str(e)
        for f in (lambda: gp.broadcast_shapes(*ss),
                  lambda: gp.broadcast_arrays(*[gp.zeros(s) for s in ss])):
            with pytest.raises(ValueError) as g:
                f()
            assert str(g.value) == want, ss
        seen += 1
    assert seen > 100


@pytest.mark.parametrize("case", [
    lambda m: m.zeros(6).reshape(4, 2), lambda m: m.zeros(6).reshape(4, -1),
    lambda m: m.zeros(6).reshape(7), lambda m: m.add(m.zeros((2, 7)), 1, out=m.zeros(7)),
    lambda m: m.add(m.zeros((3, 1)), m.zeros(4), out=m.zeros((3, 1))),
    lambda m: m.zeros((1,)).__iadd__(m.zeros((3, 4))),
    lambda m: m.dot(m.ones((2, 3)), m.ones((2, 3))), lambda m: m.dot(m.ones((2, 3)), m.ones(4)),
    lambda m: m.dot(m.ones(3), m.ones((4, 2))), lambda m: m.dot(m.ones((2, 3)), m.ones((3, 2, 4))),
], ids=["reshape", "reshape-unknown", "reshape-1d", "out", "out-2d", "inplace", "dot",
        "dot-vector", "dot-vector-first", "dot-3d"])
def test_shape_messages_are_numpys(case):
    """Reshape, output-operand and ``dot`` alignment errors print shapes as NumPy does:
    (2,3), (7,), an unknown reshape length as ``newaxis``."""
    with pytest.raises(ValueError) as want:
        case(np)
    with pytest.raises(ValueError) as got:
        case(gp)
    assert str(got.value) == str(want.value)


def test_a_zero_d_array_broadcast_in_a_loop():
    """A 0-d array in memory broadcast over a loop's rows (deriche's coefficients) is one
    broadcast layout, made once per shape and reused (``elementwise._broadcast2``); its
    values follow its memory: written in place, a whole-array write, other dtypes and
    shapes between uses, NaN, -0.0 and infinities, all as NumPy's."""
    from gnumpy._api.elementwise import elementwise as E
    rng = np.random.default_rng(3)
    base = rng.random((5, 6))
    x, xr = gp.asarray(base), base.copy()
    c, cr = gp.asarray(gp.exp(gp.asarray(0.25))), np.asarray(np.exp(0.25))  # (0-d arrays)
    gp.evaluate(x, c)
    c * x[:, 0]                                 # (the operator's fast path, made here)
    first = (c * x[:, 0])._node.srcs[0]
    assert first.kind == 0 and first.shape == (5,)          # (a LEAF: the fold, not a view)
    assert (c * x[:, 1])._node.srcs[0] is first
    outs = []
    for j, change in enumerate([None, "iadd", None, "set", "nan", None]):
        if change == "iadd":
            c += 1.5
            cr += 1.5
        elif change == "set":
            c[...] = -0.0
            cr[...] = -0.0
        elif change == "nan":
            c[()] = np.nan
            cr[()] = np.nan
        outs.append((c * x[:, j] + x[j % 5, :5] * c, cr * xr[:, j] + xr[j % 5, :5] * cr))
        outs.append((c * x[1:, j], cr * xr[1:, j]))                     # another shape
        outs.append((c.astype(np.float32) * x[:, j].astype(np.float32),
                     cr.astype(np.float32) * xr[:, j].astype(np.float32)))
        x[:, j] = x[:, j] * c                                           # a write
        xr[:, j] = xr[:, j] * cr
    inf, infr = gp.asarray(np.inf), np.asarray(np.inf)
    outs.append((inf * x[:, 0], infr * xr[:, 0]))
    for got, want in outs:
        np.testing.assert_array_equal(gp.asnumpy(got), want)
    np.testing.assert_array_equal(gp.asnumpy(x), xr)
    assert len(E._BROADCAST_LEAVES) <= 64
    big = gp.asarray(np.arange(100_000.0))
    v = big[7, ...]                             # a 0-d view of a large buffer
    np.testing.assert_array_equal(gp.asnumpy(v * x[:, 0]), 7.0 * xr[:, 0])
    np.testing.assert_array_equal(gp.asnumpy(v * x[:, 1]), 7.0 * xr[:, 1])
    assert v._node.kind == 0 and id(v._node) not in E._BROADCAST_LEAVES   # not kept alive
