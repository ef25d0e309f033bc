"""The IR layer is strict and pure: building a node never runs anything, and an elementwise
node refuses sources of different shapes or dtypes (the API layer broadcasts and promotes
explicitly)."""
import numpy as np
import pytest

import gnumpy as gp
from gnumpy._graph import ir


def test_ew_refuses_sources_of_different_shapes():
    a = gp.asarray(np.arange(3.0))._node
    b = gp.asarray(np.arange(6.0).reshape(2, 3))._node
    with pytest.raises(AssertionError, match="shapes"):
        ir.ew("add", a.dtype, (a, b))
    n = ir.ew("add", a.dtype, (ir.broadcast(a, (2, 3)), b))
    assert n.shape == (2, 3)


def test_ew_refuses_sources_of_different_dtypes():
    a = gp.asarray(np.arange(3.0))._node
    i = gp.asarray(np.arange(3))._node
    f = gp.asarray(np.arange(3.0, dtype=np.float32))._node
    c = gp.asarray(np.arange(3) > 1)._node
    with pytest.raises(AssertionError, match="dtypes"):
        ir.ew("add", a.dtype, (a, i))
    with pytest.raises(AssertionError, match="dtypes"):
        ir.ew("multiply", a.dtype, (f, a))
    with pytest.raises(AssertionError, match="dtypes"):
        ir.ew("where", a.dtype, (c, a, f))          # values of two dtypes
    with pytest.raises(AssertionError, match="dtypes"):
        ir.ew("where", a.dtype, (i, a, a))          # an int condition
    with pytest.raises(AssertionError, match="dtypes"):
        ir.ew("ldexp", a.dtype, (i, a))             # the exponent first
    assert ir.ew("add", a.dtype, (a, ir.cast(i, a.dtype))).dtype == a.dtype
    assert ir.ew("where", a.dtype, (c, a, a)).shape == (3,)
    assert ir.ew("ldexp", a.dtype, (a, i)).dtype == a.dtype
    assert ir.ew("less", np.dtype(bool), (a, a)).dtype == np.dtype(bool)


def test_ew_checks_a_two_source_node_of_a_checked_signature_too():
    """Two-source nodes of an (op, dtypes) checked once skip the op's checks, not the
    sources': another shape, source dtype, result dtype or device is refused as before;
    the node is field for field the one the checked path builds."""
    a = gp.asarray(np.arange(3.0))._node
    b = gp.asarray(np.arange(3.0) * 2)._node
    first = ir.ew("add", a.dtype, (a, b))
    again = ir.ew("add", a.dtype, (b, a))
    fields = [f for f in ir.Node.__slots__ if f not in ("srcs", "__weakref__")]
    assert [getattr(first, f) for f in fields] == [getattr(again, f) for f in fields]
    assert again.srcs == (b, a) and again.size == 3
    m = gp.asarray(np.arange(6.0).reshape(2, 3))._node
    f = gp.asarray(np.arange(3.0, dtype=np.float32))._node
    with pytest.raises(AssertionError, match="shapes"):
        ir.ew("add", a.dtype, (a, m))
    with pytest.raises(AssertionError, match="dtypes"):
        ir.ew("add", a.dtype, (a, f))
    with pytest.raises(AssertionError, match="gives no"):
        ir.ew("add", np.dtype(np.float32), (a, b))
    other = ir.leaf(b.buf, b.dtype, b.shape, b.strides, b.offset, gp.Device("cpu", 1))
    with pytest.raises(AssertionError, match="shapes"):
        ir.ew("add", a.dtype, (a, other))


def test_small_matmul_takes_operands_of_one_batch_dtype_and_inner_length():
    m = gp.asarray(np.arange(24.0).reshape(2, 3, 4))._node
    k = gp.asarray(np.arange(8.0).reshape(2, 4, 1))._node
    n = ir.small_matmul(m, k)
    assert (n.shape, n.arg, n.dtype, ir.crossed(n)) == ((2, 3, 1), 4, m.dtype, True)
    bad = [(m, gp.asarray(np.ones((4, 1)))._node),                 # batch not broadcast
           (m, gp.asarray(np.ones((2, 3, 1)))._node),              # inner lengths differ
           (m, gp.asarray(np.ones((2, 4, 1), np.float32))._node),  # dtypes differ
           (m, gp.asarray(np.ones(4))._node),                      # a vector
           (gp.asarray(np.ones((3, 4)))._node, gp.asarray(np.ones(4))._node),
           (gp.asarray(np.ones(4))._node, gp.asarray(np.ones(4))._node)]
    for a, b in bad:
        with pytest.raises(AssertionError, match="small_matmul"):
            ir.small_matmul(a, b)
    assert not ir.crossed(ir.ew("add", m.dtype, (m, m)))


def test_building_never_materializes():
    x = gp.asarray(np.arange(4.0))
    node = x._node
    gp.stats.reset()
    for _ in range(3 * gp.config.max_graph_nodes):       # far past the bound
        node = ir.ew("add", node.dtype, (node, ir.scalar(1.0, node.dtype, node.shape,
                                                         node.device)))
    assert gp.stats.groups == 0 and node.kind != ir.LEAF
    y = gp.asarray(np.arange(4.0))
    for _ in range(3 * gp.config.max_graph_nodes):       # arrays take nodes: bounded
        y = y + 1.0
    assert y._node.size <= gp.config.max_graph_nodes + 2
    np.testing.assert_array_equal(y.get(), np.arange(4.0) + 3 * gp.config.max_graph_nodes)


def test_copy_is_the_astype_node_ew_builds():
    """``ir.copy`` (built without ``ew``'s checks, for element reads) is field for field
    the node ``ew("astype")`` to the source's own dtype builds."""
    x = gp.asarray(np.arange(6.0).reshape(2, 3))._node
    for src in (x, ir.ew("negative", x.dtype, (x,)), ir.view(x, "permute", (1, 0), (3, 2))):
        a, b = ir.copy(src), ir.ew("astype", src.dtype, (src,))
        fields = ("kind", "op", "dtype", "shape", "srcs", "arg", "device", "size", "buf",
                  "strides", "offset", "sig")
        assert [getattr(a, f) for f in fields] == [getattr(b, f) for f in fields]


def test_reduce_shape_is_numpys_for_sorted_and_unsorted_axes():
    """``ir.reduce``'s result shape (one pass over increasing axes, the general rule for
    others) equals NumPy's for every subset of axes in both orders, with and without
    keepdims; repeated or out-of-range axes are refused."""
    import itertools
    rng = np.random.default_rng(5)
    for nd in range(5):
        shape = tuple(int(v) for v in rng.integers(0, 4, nd))
        src = gp.asarray(np.zeros(shape, np.float32))._node
        for k in range(nd + 1):
            for axes in itertools.permutations(range(nd), k):
                for keep in (False, True):
                    r = ir.reduce("sum", src, axes, keep, src.dtype)
                    want = np.sum(np.zeros(shape), axis=axes, keepdims=keep).shape
                    assert r.shape == want, (shape, axes, keep)
    src = gp.asarray(np.zeros((2, 3)))._node
    for bad in ((0, 0), (2,), (-1,), (1, 1), (0, 2)):
        with pytest.raises(AssertionError, match="axes"):
            ir.reduce("sum", src, bad, False, src.dtype)


def test_normalize_axes_is_numpys():
    """Reduction axes: sorted, non-negative, each once; NumPy's errors for repeated and
    out-of-range axes and for non-integers, from a tuple, a list or one int."""
    from numpy.exceptions import AxisError

    from gnumpy._api._common import normalize_axes
    assert normalize_axes((2, 0), 3) == (0, 2)
    assert normalize_axes((-1, 0), 3) == (0, 2)
    assert normalize_axes([1, -3], 3) == (0, 1)
    assert normalize_axes((np.int64(1), 0), 3) == (0, 1)
    assert normalize_axes(-2, 3) == (1,)
    assert normalize_axes(None, 3) == (0, 1, 2)
    assert normalize_axes((), 3) == ()
    with pytest.raises(ValueError, match="duplicate"):
        normalize_axes((0, -3), 3)
    with pytest.raises(AxisError):
        normalize_axes((0, 3), 3)
    with pytest.raises(AxisError):
        normalize_axes((-4,), 3)
    with pytest.raises(TypeError):
        normalize_axes((0, 1.0), 3)
    x = np.zeros((2, 3, 4))
    g = gp.asarray(x)
    for axes in ((2, 0), (-1, 1), (0, 1, 2), (1,), ()):
        assert gp.sum(g, axis=axes).shape == np.sum(x, axis=axes).shape
