"""Lowering (gnumpy/kernels/lower.py), pinned where the golden kernels leave it open: tests
from a mutation run over lower.py (``python3 tools/mutation.py lower``).

The CPU backend never lowers a group, so everything here is checked on the lowered spec and
on the rendered source (no GPU needed):

* de-duplication: an operand read at two different layouts (two view chains over one
  node, two reshape levels of one buffer, two library results not run yet) stays two
  operands; one scalar reached through two views stays one kernel parameter; lowering visits
  each (node, view chain, space) once (a graph of doubling shares is linear, not
  exponential);
* what explain shows ahead of time is what runs: a group reading a matmul not run yet
  renders the source it renders once the matmul ran (its result a C-contiguous buffer);
* the operands of a reduction sit in their space (prologue or epilogue: the renderer reads
  each from its own loop), a fused arange included;
* sibling reductions (an identical reduction, or a float sum beside a var) are read off the
  host's accumulator, never loaded;
* identical row reductions run once, different ones (max and sum of one row) do not;
* a destination's layout (``a[::2] = ...``) is the output operand's;
* vector alignment and spans as their docstrings say;
* the internal guards of lowering fire.
"""
import numpy as np
import pytest

import gnumpy as gp
from gnumpy._graph import ir
from gnumpy._graph.fuse import Group, schedule
from gnumpy.kernels import build, lower

PTR = lambda o: 1 << 20      # noqa: E731  (an aligned address for every operand)


def _arr(shape, dt=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    return gp.asarray(rng.standard_normal(shape).astype(dt))


def _groups(*exprs):
    return schedule([e._node for e in exprs])


def _spec(*exprs, dest=None):
    return lower.lower_group(_groups(*exprs)[-1], dest)


def _source(group):
    return build.source_of(group, ptr_of=PTR, headers=False)


def _loads(spec):
    return [e for e in spec.exprs if e[0] == "ld"]


# ------------------------------------------------------------------ de-duplication
def test_two_views_of_one_lazy_node_are_two_operands():
    """(x+1)[::2] + (x+1)[1::2]: x is reached through two view chains of one length; each
    chain is its own layout (offset 0 and 1), so two operands and two loads."""
    x = _arr(64)
    y = x + 1
    spec = _spec(y[::2] + y[1::2])
    assert [o.levels for o in spec.operands] == [[((32,), (2,), 0)], [((32,), (2,), 1)]]
    assert len(_loads(spec)) == 2


def test_one_buffer_at_two_strides_is_two_operands():
    """X + X.T: one buffer, one shape and offset, two strides."""
    X = _arr((64, 64))
    spec = _spec(X + X.T)
    assert [o.levels for o in spec.operands] == [[((64, 64), (64, 1), 0)],
                                                 [((64, 64), (1, 64), 0)]]
    assert len(_loads(spec)) == 2


def test_a_slice_of_a_fused_arange_keeps_its_start():
    """arange(4101)[5:]: an index operand whose offset (a launch value) is 5."""
    y = _arr(4096)
    spec = _spec(gp.arange(4101, dtype=gp.float32)[5:] * 2 + y)
    assert [(o.kind, o.levels) for o in spec.operands] == [
        ("iota", [((4096,), (1,), 5)]), ("in", [((4096,), (1,), 0)])]


def test_reshape_levels_of_one_buffer_with_equal_strides_are_two_operands():
    """Two transposed slices of one buffer with equal strides but different shapes, each
    reshaped (an unravel level): the levels' shapes tell them apart."""
    B = gp.asarray(np.arange(32, dtype=np.float32).reshape(4, 8))
    u, v = B[:, :6].T, B[:3, :].T
    assert u._node.strides == v._node.strides
    spec = _spec(u.reshape(24) + v.reshape(24))
    assert [o.levels[1] for o in spec.operands] == [((6, 4), (1, 8), 0), ((8, 3), (1, 8), 0)]
    want = np.asarray(B)[:, :6].T.reshape(24) + np.asarray(B)[:3].T.reshape(24)
    np.testing.assert_array_equal(np.asarray(u.reshape(24) + v.reshape(24)), want)


def test_one_scalar_through_two_views_is_one_parameter():
    x = _arr(64)
    z = x * np.float32(3.0)
    spec = _spec(z[::2] + z[1::2])
    assert len(spec.scalars) == 1 and spec.scalars[0][1] == 3.0
    assert spec.scalar_nodes == [z._node.srcs[1]]
    assert spec.scalar_nodes[0].kind == ir.SCALAR
    assert [e for e in spec.exprs if e[0] == "sc"] == [("sc", 0)]


def test_scalar_nodes_follow_the_parameters():
    """spec.scalar_nodes[i] is the SCALAR node behind parameter i (the CUDA replay reads
    each parameter's new value from it)."""
    x = _arr(64)
    spec = _spec(x * np.float32(2.0) + np.float32(5.0))
    assert [n.kind for n in spec.scalar_nodes] == [ir.SCALAR, ir.SCALAR]
    assert [n.arg for n in spec.scalar_nodes] == [v for _, v in spec.scalars] == [2.0, 5.0]


def test_lowering_visits_each_shared_node_once(monkeypatch):
    """y = y + y twelve times: a DAG of 13 nodes that is a tree of 8191.  With the memo,
    lowering runs once per node (plus one memo hit per share)."""
    x = _arr(16)
    y = x
    with gp.config.override(max_graph_nodes=1 << 20):      # keep it one lazy graph
        for _ in range(12):
            y = y + y
    g = _groups(y)[-1]
    calls = []
    orig = lower.Spec.lower

    def counting(self, node, space, chain=()):
        calls.append(id(node))
        return orig(self, node, space, chain)
    monkeypatch.setattr(lower.Spec, "lower", counting)
    spec = lower.lower_group(g)
    assert len(spec.exprs) == 13 and len(spec.operands) == 1
    assert len(calls) <= 2 * 13 + 1, len(calls)


# ------------------------------------------------------------------ inputs not run yet
def _explain_then_run(expr, pending):
    """(source before `pending` ran, source after): the group of `expr` that reads it."""
    before = _source(_groups(expr)[-1])
    gp.evaluate(*pending)
    gs = _groups(expr)
    assert len(gs) == 1
    return before, _source(gs[0])


def test_elementwise_source_shown_before_a_matmul_runs_is_the_one_that_runs():
    A = _arr((64, 64))
    P, Q = A @ A, A.T @ A
    spec = _spec(P + Q * 2)
    assert [o.node for o in spec.operands] == [P._node, Q._node]
    assert [o.levels for o in spec.operands] == [[((64, 64), (64, 1), 0)]] * 2
    before, after = _explain_then_run(P + Q * 2, [P, Q])
    assert before == after


def test_reduction_source_shown_before_a_matmul_runs_is_the_one_that_runs():
    A = _arr((64, 128))
    P = A.T @ A                                # (128, 128)
    for axis in (0, 1, None):
        spec = _spec(gp.sum(P * 2, axis=axis))
        assert [(o.node, o.levels) for o in spec.operands] == \
            [(P._node, [((128, 128), (128, 1), 0)])]
    exprs = [gp.sum(P * 2, axis=0), gp.sum(P, axis=1), gp.max(P)]
    before = [_source(_groups(e)[-1]) for e in exprs]
    gp.evaluate(P)
    assert [_source(_groups(e)[-1]) for e in exprs] == before


# ------------------------------------------------------------------ reductions' spaces
def test_fused_arange_in_a_reduction_prologue_is_a_prologue_operand():
    x = _arr(4096)
    spec = _spec(gp.sum(gp.arange(4096, dtype=gp.float32) * x))
    assert sorted((o.kind, o.space) for o in spec.operands) == [("in", "pro"), ("iota", "pro")]
    src = _source(_groups(gp.sum(gp.arange(4096, dtype=gp.float32) * x))[-1])
    y = gp.asarray(np.arange(4096, dtype=np.float32))
    assert src != _source(_groups(gp.sum(y * x))[-1])     # an index value, not a load


def test_reduction_epilogue_operand_is_an_epilogue_operand():
    """X.sum(1) * v: v is read in the epilogue (the output space), X in the prologue."""
    X, v = _arr((64, 128)), _arr(64, seed=1)
    spec = _spec(X.sum(axis=1) * v)
    assert spec.kind == "reduce"
    assert [(o.space, o.levels[0][0]) for o in spec.operands] == [("pro", (64, 128)),
                                                                   ("epi", (64,))]
    src = _source(_groups(X.sum(axis=1) * v)[-1])
    assert src != _source(_groups(X.sum(axis=1) * 2)[-1])
    np.testing.assert_allclose(np.asarray(X.sum(axis=1) * v),
                               np.asarray(X).sum(axis=1) * np.asarray(v), rtol=1e-5)


# ------------------------------------------------------------------ sibling reductions
def test_identical_reduction_is_read_off_the_host_accumulator():
    X = _arr((16, 32))
    a, b = X.sum(axis=1), X.sum(axis=1) * 2      # two equal reduction nodes
    assert a._node is not b._node.srcs[0]
    g, = _groups(a, b)
    assert [how for _, how in g.siblings] == ["same"]
    spec = lower.lower_group(g)
    assert [(o.kind, o.space) for o in spec.operands] == [("in", "pro")]
    # a (the host) is the accumulator; b = 2 * (its twin), read off the same accumulator
    assert spec.exprs == [("ld", 0), ("acc",), ("sc", 0),
                          ("op", "multiply", np.dtype(np.float32), None, (1, 2))]
    assert [e for e, _ in spec.outputs] == [1, 3]


def test_sum_beside_var_is_read_off_the_var_accumulator():
    X = _arr((16, 32))
    g, = _groups(X.mean(axis=1), X.var(axis=1))
    assert [how for _, how in g.siblings] == ["sum"]
    spec = lower.lower_group(g)
    assert [(o.kind, o.space) for o in spec.operands] == [("in", "pro")]
    # the var is the accumulator; mean = (its sum) / n, the sum read off the var's (a
    # float32 sum divided in double and rounded once, as NumPy's division by an intp)
    f32, f64 = np.dtype(np.float32), np.dtype(np.float64)
    assert spec.exprs == [("ld", 0), ("acc",), ("acc", "sum"),
                          ("op", "astype", f32, None, (2,)), ("sc", 0),
                          ("op", "divide", f64, None, (3, 4)),
                          ("op", "astype", f64, None, (5,))]
    assert [e for e, _ in spec.outputs] == [1, 6]


# ------------------------------------------------------------------ row groups
def test_different_reductions_of_one_row_input_are_different_phases():
    W = _arr((128, 300))
    z = W - W.max(axis=1, keepdims=True)
    for second in ("max", "min"):
        g = _groups(z / z.sum(axis=1, keepdims=True) +
                    getattr(z, second)(axis=1, keepdims=True))[-1]
        assert g.kind == "rows"
        spec = lower.lower_group(g)
        assert sorted(p[0] for p in spec.phases) == sorted(["max", second, "sum"])
        assert len(set(spec.phase_of.values())) == 3


def test_identical_row_reductions_run_once():
    W = _arr((128, 300))
    e = gp.exp(W - W.max(axis=1, keepdims=True))
    g = _groups(e / e.sum(axis=1, keepdims=True) + W.max(axis=1, keepdims=True))[-1]
    assert g.kind == "rows"
    spec = lower.lower_group(g)
    assert [p[0] for p in spec.phases] == ["max", "sum"]


# ------------------------------------------------------------------ destinations
def _dest(shape_of_base, index):
    base = gp.asarray(np.zeros(shape_of_base, np.float32))
    d = base[index]._node
    assert d.kind == ir.LEAF
    return d


def test_elementwise_output_takes_the_destination_layout():
    X = _arr((64, 32))
    d = _dest((64, 64), (slice(None), slice(1, None, 2)))
    g = _groups(X * 2 + 1)[-1]
    spec = lower.lower_group(g, d)
    (_, out), = spec.outputs
    assert out.kind == "out" and out.dtype == d.dtype
    assert out.node is d and out.levels == [((64, 32), d.strides, d.offset)]
    (_, own), = lower.lower_group(g).outputs            # a new C-contiguous buffer
    assert own.kind == "out" and own.node is g.outputs[0]
    assert own.levels == [((64, 32), (32, 1), 0)]
    _, p1 = build.plan_group(g, PTR, 132, 8, d)
    _, p0 = build.plan_group(g, PTR, 132, 8)
    assert p1.key != p0.key and p1.source("k") != p0.source("k")


def test_reduction_output_takes_the_destination_layout():
    X = _arr((64, 32))
    d = _dest((2, 64), (1, slice(None)))
    g = _groups(X.sum(axis=1) * 2)[-1]
    spec = lower.lower_group(g, d)
    (_, out), = spec.outputs
    assert out.node is d and out.levels == [((64,), d.strides, d.offset)] and d.offset == 64
    assert out.kind == "out"


# ------------------------------------------------------------------ helpers
class _Op:
    def __init__(self, dt, offset):
        self.dtype = np.dtype(dt)
        self.levels = [((100,), (1,), offset)]


@pytest.mark.parametrize("ptr,offset,dt,v,want", [
    (1 << 20, 0, np.float32, 4, True), (1 << 20, 4, np.float32, 4, True),
    (1 << 20, 8, np.float32, 4, True), (1 << 20, 2, np.float32, 4, False),
    (1 << 20, 1, np.float64, 2, False), (1 << 20, 2, np.float64, 2, True),
    (4, 3, np.float32, 4, True), (4, 1, np.float32, 4, False), (8, 1, np.float64, 2, True),
    (8, 3, np.float64, 2, True), (1 << 20, 16, np.int8, 16, True),
    (1 << 20, 5, np.int8, 16, False)])
def test_vector_aligned(ptr, offset, dt, v, want):
    """The first element's address (pointer + offset * itemsize) is a multiple of the
    vector's bytes; the pointer is the operand's own."""
    o = _Op(dt, offset)
    assert lower.vector_aligned(o, v, lambda op: ptr if op is o else 1 << 40) is want


def test_collapse_keeps_a_dim_every_operand_broadcasts():
    """A dim of stride 0 in every set (a reduction over a broadcast value) stays one dim;
    contiguous dims merge, size-1 dims go."""
    assert lower.collapse((5,), [(0,)]) == ((5,), [(0,)], (0,))
    assert lower.collapse((3, 4), [(0, 0)]) == ((12,), [(0,)], (0,))
    assert lower.collapse((3, 1, 4), [(4, 4, 1), (0, 0, 0)]) == ((12,), [(1,), (0,)], (0,))
    assert lower.collapse((3, 4), [(4, 1)], groups=(0, 1)) == ((3, 4), [(4, 1)], (0, 1))


def test_span_is_the_largest_offset_reached_and_never_negative():
    assert lower.span((4, 5), (5, 1)) == 19
    assert lower.span((4, 5), (-5, 2)) == 23
    assert lower.span((1, 7), (100, 1)) == 6
    for shape, strides in (((0, 5), (5, 1)), ((3, 0), (7, 1)), ((0,), (1,))):
        assert lower.span(shape, strides) >= 0


# ------------------------------------------------------------------ guards
def test_a_view_of_the_reduction_in_its_epilogue_is_refused():
    X = _arr((16, 32))
    r = X.sum(axis=1)._node
    g = Group("reduce", [ir.view(r, "slice", ((0, 2),), (8,))], r.device, 1, reduce=r)
    with pytest.raises(AssertionError, match="a view of the reduction cannot be in its"):
        lower.lower_group(g)


def test_a_view_of_a_sibling_reduction_in_the_epilogue_is_refused():
    X = _arr((16, 32))
    r, s = X.sum(axis=1)._node, X.T.T.sum(axis=1)._node
    assert r is not s
    g = Group("reduce", [r, ir.view(s, "slice", ((0, 2),), (8,))], r.device, 1,
              reduce=r, siblings=((s, "same"),))
    with pytest.raises(AssertionError, match="a view of a sibling reduction cannot be in"):
        lower.lower_group(g)
