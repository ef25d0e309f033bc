"""The IR layer is strict and pure: building a node never runs anything, and an elementwise
node refuses sources of different shapes (the API layer broadcasts explicitly)."""
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
