"""Shape manipulation as views, compared against NumPy: reshape, ravel/flatten,
transpose/permute_dims, swapaxes, moveaxis, expand_dims, squeeze, broadcast_to,
broadcast_arrays, concat/stack.  Every function runs on contiguous, strided
(non-contiguous view) and lazy inputs (``(x + 1)[::2].T``).

The layouts and basic indexing: test_views.py.
"""
import numpy as np
import pytest
from numpy.exceptions import AxisError

import gnumpy as gp
from helpers import check
from test_views import LAYOUTS, values, variant


# ====================================================================== reshape & co.

RESHAPES = [
    ((2, 3, 4), (6, 4)), ((2, 3, 4), (-1,)), ((2, 3, 4), (4, -1)), ((2, 3, 4), (2, 1, 12)),
    ((12,), (3, 2, 2)), ((6,), (1, 6, 1)), ((), (1, 1)), ((1,), ()), ((0, 3), (3, 0)),
    ((0, 3), (-1, 5)), ((4, 1, 3), (2, 2, 3)), ((2, 3, 4), 24),
]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("src,dst", RESHAPES, ids=[f"{s}->{d}" for s, d in RESHAPES])
def test_reshape(src, dst, order, layout):
    a, g = variant(values(src), layout)
    check(gp.reshape(g, dst, order=order), np.reshape(a, dst, order=order))
    check(g.reshape(dst, order=order), a.reshape(dst, order=order))
    if isinstance(dst, tuple) and len(dst) > 1:
        check(g.reshape(*dst), a.reshape(*dst))


@pytest.mark.parametrize("src,dst", [((6,), (4, -1)), ((6,), (-1, -1)), ((6,), (7,)),
                                     ((0, 3), (-1, 0))],
                         ids=["not_divisible", "two_unknowns", "size_mismatch", "zero_unknown"])
def test_reshape_errors(src, dst):
    a = values(src)
    with pytest.raises(ValueError):
        a.reshape(dst)
    with pytest.raises(ValueError):
        gp.asarray(a).reshape(dst)


def test_reshape_copy_false():
    a = values((4, 6))
    g = gp.asarray(a)
    # possible without a copy: fine, and a view
    v = gp.reshape(g, (2, 12), copy=False)
    check(v, a.reshape(2, 12))
    v[0, 0] = -1.0
    assert float(g[0, 0]) == -1.0
    # a transposed (or strided-in-the-middle) layout cannot be flattened without a copy
    with pytest.raises(ValueError):
        np.reshape(a.T, (-1,), copy=False)
    with pytest.raises(ValueError):
        gp.reshape(g.T, (-1,), copy=False)
    with pytest.raises(ValueError):
        gp.reshape(g[:, ::2][::2].T, (6,), copy=False)


def test_reshape_copy_true_is_independent():
    a = values((2, 3))
    g = gp.asarray(a)
    c = gp.reshape(g, (3, 2), copy=True)
    g[0, 0] = 100.0
    check(c, a.reshape(3, 2))


@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_reshape_is_a_view_when_possible(layout):
    a, g = variant(values((4, 6)), layout)
    a = a.copy()
    v = g.reshape(2, 2, 6)
    v[1, 0, 2] = -7.0           # a write through the view reaches the base
    a.reshape(2, 2, 6)[1, 0, 2] = -7.0
    check(g, a)
    g[0, 1] = -8.0              # and a write to the base reaches the view
    a[0, 1] = -8.0
    check(v, a.reshape(2, 2, 6))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", [(), (5,), (2, 3), (2, 3, 4), (0, 2)], ids=str)
def test_ravel_flatten(shape, layout):
    a, g = variant(values(shape), layout)
    for order in ("C", "F"):
        check(g.ravel(order=order), a.ravel(order=order))
        check(gp.ravel(g, order=order), np.ravel(a, order=order))
        check(g.flatten(order=order), a.flatten(order=order))


def test_flatten_is_a_copy():
    a = values((2, 3))
    g = gp.asarray(a)
    f = g.flatten()
    g[0, 0] = -1.0
    check(f, a.ravel())
    f[1] = 50.0
    assert float(g[0, 1]) == a[0, 1]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("axes", [None, (0, 1, 2), (2, 0, 1), (1, 2, 0), (-1, 0, -2)],
                         ids=str)
def test_transpose_permute_dims(axes, layout):
    a, g = variant(values((2, 3, 4)), layout)
    check(gp.transpose(g, axes), np.transpose(a, axes))
    check(g.transpose(axes), a.transpose(axes))
    if axes is not None:
        check(g.transpose(*axes), a.transpose(*axes))
        check(gp.permute_dims(g, axes), np.permute_dims(a, axes))
    check(g.T, a.T)


@pytest.mark.parametrize("axes", [(0, 1), (0, 1, 1), (0, 1, 3), (0, 0, 1)],
                         ids=["too_few", "repeated", "out_of_range", "dup"])
def test_transpose_errors(axes):
    a = values((2, 3, 4))
    with pytest.raises((ValueError, AxisError)) as e_np:
        np.transpose(a, axes)
    with pytest.raises(e_np.type):
        gp.transpose(gp.asarray(a), axes)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("a1,a2", [(0, 1), (0, 2), (-1, 0), (1, 1), (2, -3)], ids=str)
def test_swapaxes(a1, a2, layout):
    a, g = variant(values((2, 3, 4)), layout)
    check(gp.swapaxes(g, a1, a2), np.swapaxes(a, a1, a2))
    check(g.swapaxes(a1, a2), a.swapaxes(a1, a2))


def test_swapaxes_bad_axis():
    with pytest.raises(AxisError):
        gp.swapaxes(gp.ones((2, 3)), 0, 2)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("src,dst", [(0, 2), (-1, 0), ((0, 1), (2, 0)), ((0, 2), (-1, -2)),
                                     (1, 1), ((0, 1, 2), (2, 1, 0))], ids=str)
def test_moveaxis(src, dst, layout):
    a, g = variant(values((2, 3, 4)), layout)
    check(gp.moveaxis(g, src, dst), np.moveaxis(a, src, dst))


@pytest.mark.parametrize("src,dst", [(3, 0), ((0, 1), (0,)), ((0, 0), (1, 2))],
                         ids=["out_of_range", "length_mismatch", "repeated"])
def test_moveaxis_errors(src, dst):
    a = values((2, 3, 4))
    with pytest.raises((ValueError, AxisError)) as e_np:
        np.moveaxis(a, src, dst)
    with pytest.raises(e_np.type):
        gp.moveaxis(gp.asarray(a), src, dst)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3, (0, 1), (0, 3), (-1, 1), (0, 2, 4)],
                         ids=str)
def test_expand_dims(axis, layout):
    a, g = variant(values((2, 3)), layout)
    check(gp.expand_dims(g, axis), np.expand_dims(a, axis))
    check(gp.expand_dims(g, axis=axis), np.expand_dims(a, axis=axis))


@pytest.mark.parametrize("axis", [3, -4, (0, 0), (0, 5)], ids=str)
def test_expand_dims_errors(axis):
    a = values((2, 3))
    with pytest.raises((ValueError, AxisError)) as e_np:
        np.expand_dims(a, axis)
    with pytest.raises(e_np.type):
        gp.expand_dims(gp.asarray(a), axis)


def test_expand_dims_0d():
    a = np.asarray(3.0)
    check(gp.expand_dims(gp.asarray(a), 0), np.expand_dims(a, 0))
    check(gp.expand_dims(gp.asarray(a), (0, -1)), np.expand_dims(a, (0, -1)))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("axis", [None, 0, 2, -1, (0, 2), (0, -1, 2)], ids=str)
def test_squeeze(axis, layout):
    a, g = variant(values((1, 3, 1, 1)), layout)
    check(gp.squeeze(g, axis=axis), np.squeeze(a, axis=axis))
    check(g.squeeze(axis), a.squeeze(axis))


def test_squeeze_errors():
    a = values((1, 3, 1))
    with pytest.raises(ValueError):
        np.squeeze(a, axis=1)
    with pytest.raises(ValueError):
        gp.squeeze(gp.asarray(a), axis=1)
    with pytest.raises(AxisError):
        gp.squeeze(gp.asarray(a), axis=3)
    check(gp.squeeze(gp.asarray(np.ones((1, 1)))), np.squeeze(np.ones((1, 1))))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("src,dst", [((3,), (2, 3)), ((1,), (4,)), ((2, 1), (2, 5)),
                                     ((), (2, 2)), ((3, 1, 2), (4, 3, 5, 2)), ((1,), (0,)),
                                     ((2, 3), (2, 3))], ids=str)
def test_broadcast_to(src, dst, layout):
    a, g = variant(values(src), layout)
    check(gp.broadcast_to(g, dst), np.broadcast_to(a, dst))


@pytest.mark.parametrize("src,dst", [((3,), (4,)), ((2, 3), (3,)), ((2,), (2, 3)),
                                     ((3,), (-1, 3))], ids=str)
def test_broadcast_to_errors(src, dst):
    a = values(src)
    with pytest.raises(ValueError):
        np.broadcast_to(a, dst)
    with pytest.raises(ValueError):
        gp.broadcast_to(gp.asarray(a), dst)


def test_broadcast_to_int_shape():
    check(gp.broadcast_to(gp.asarray(2.0), 4), np.broadcast_to(np.asarray(2.0), 4))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shapes", [[(3,), (2, 3)], [(2, 1), (1, 4), ()], [(5,)],
                                    [(1, 2, 1), (3, 1, 1), (4,)], [(0, 1), (1, 3)]], ids=str)
def test_broadcast_arrays(shapes, layout):
    pairs = [variant(values(s) + i, layout) for i, s in enumerate(shapes)]
    got = gp.broadcast_arrays(*[g for _, g in pairs])
    exp = np.broadcast_arrays(*[a for a, _ in pairs])
    check(tuple(got), tuple(exp))


def test_broadcast_arrays_error():
    with pytest.raises(ValueError):
        gp.broadcast_arrays(gp.ones(3), gp.ones(4))


# ====================================================================== concat / stack

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("axis", [0, 1, -1, None], ids=str)
def test_concat(axis, layout):
    shapes = {0: [(2, 3), (1, 3), (4, 3)], 1: [(2, 1), (2, 3), (2, 2)],
              -1: [(2, 1), (2, 3), (2, 2)], None: [(2, 3), (5,), (1, 2, 2)]}[axis]
    pairs = [variant(values(s) * (i + 1), layout) for i, s in enumerate(shapes)]
    arrs, garrs = [a for a, _ in pairs], [g for _, g in pairs]
    check(gp.concat(garrs, axis=axis), np.concat(arrs, axis=axis))
    check(gp.concatenate(garrs, axis=axis), np.concatenate(arrs, axis=axis))
    check(gp.concatenate(tuple(garrs), axis), np.concatenate(tuple(arrs), axis))


def test_concat_default_axis_and_dtype_promotion():
    a, b = values((2, 2), np.int32), values((1, 2), np.float32)
    c = values((3, 2), np.uint8)
    check(gp.concat([gp.asarray(a), gp.asarray(b), gp.asarray(c)]), np.concat([a, b, c]))
    check(gp.concatenate([gp.asarray(a), gp.asarray(c)]), np.concatenate([a, c]))
    check(gp.concatenate([gp.asarray(a), gp.asarray(b)], dtype=np.float64),
          np.concatenate([a, b], dtype=np.float64))


def test_concat_empty_parts():
    a, b = np.zeros((0, 3)), values((2, 3))
    check(gp.concat([gp.asarray(a), gp.asarray(b)]), np.concat([a, b]))


def test_concatenate_out():
    a, b = values((2, 3)), values((1, 3))
    out = gp.zeros((3, 3))
    r = gp.concatenate([gp.asarray(a), gp.asarray(b)], out=out)
    assert r is out
    check(out, np.concatenate([a, b]))


@pytest.mark.parametrize("arrays,axis", [([(2, 3), (2, 4)], 0), ([(2, 3), (3,)], 0),
                                         ([(), ()], 0), ([], 0)],
                         ids=["shape_mismatch", "ndim_mismatch", "zero_d", "no_arrays"])
def test_concat_errors(arrays, axis):
    arrs = [values(s) for s in arrays]
    with pytest.raises(ValueError):
        np.concatenate(arrs, axis=axis)
    with pytest.raises(ValueError):
        gp.concat([gp.asarray(a) for a in arrs], axis=axis)


def test_concat_bad_axis():
    with pytest.raises(AxisError):
        gp.concat([gp.ones((2, 3)), gp.ones((2, 3))], axis=2)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3], ids=str)
def test_stack(axis, layout):
    pairs = [variant(values((2, 3)) * (i + 1), layout) for i in range(3)]
    arrs, garrs = [a for a, _ in pairs], [g for _, g in pairs]
    check(gp.stack(garrs, axis=axis), np.stack(arrs, axis=axis))


def test_stack_0d_and_mixed_dtypes():
    check(gp.stack([gp.asarray(1.0), gp.asarray(2.0)]), np.stack([np.asarray(1.0),
                                                                   np.asarray(2.0)]))
    a, b = values((3,), np.int8), values((3,), np.uint8)
    check(gp.stack([gp.asarray(a), gp.asarray(b)], axis=1), np.stack([a, b], axis=1))


def test_stack_errors():
    with pytest.raises(ValueError):
        np.stack([np.ones(3), np.ones(4)])
    with pytest.raises(ValueError):
        gp.stack([gp.ones(3), gp.ones(4)])
    with pytest.raises(ValueError):
        gp.stack([])
    with pytest.raises(AxisError):
        gp.stack([gp.ones(3), gp.ones(3)], axis=2)


def test_concat_result_does_not_alias_inputs():
    a = values((2, 2))
    g = gp.asarray(a)
    c = gp.concat([g, g])
    s = gp.stack([g, g])
    g[0, 0] = -100.0
    check(c, np.concat([a, a]))
    check(s, np.stack([a, a]))
