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
