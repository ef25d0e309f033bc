"""The scheduler (gnumpy/_graph/fuse.py): tests from a mutation run (issue 21, mutmut over
fuse.py) for what the fusion, rows, replay and aliasing tests left open.

The CPU backend computes every output of a group from its expression whatever the grouping,
so a wrong schedule there shows only in how many groups run; on the GPU the same mistake is
a wrong kernel.  So each program below is pinned three ways: its values against NumPy, the
number of groups ``gp.evaluate`` runs (``gp.stats``), and the groups ``schedule`` returns
(kind, level, how many outputs, the siblings a reduction computes), checked for the
scheduler's own invariants (every root is an output, a group runs after the groups whose
results it reads, reductions and barriers before elementwise work of their level).
"""
import numpy as np
import pytest

import gnumpy as gp
from gnumpy._graph.fuse import schedule
from gnumpy._graph.ir import BARRIER, EW, LEAF, REDUCE

A = np.random.default_rng(21).standard_normal((6, 8))
AI = (A * 10).astype(np.int32)


def _programs(xp):
    x, xi = xp.asarray(A), xp.asarray(AI)
    x32, x16 = xp.asarray(A.astype(np.float32)), xp.asarray(A.astype(np.float16))
    s = x.sum(0)
    m = x.max(1, keepdims=True)
    e = xp.exp(x - m)
    y = x + 1
    c = x[0] + 1
    return {
        "dup_roots": [x + 1, x + 1],
        "same_node_twice": [s, s],
        "identical_sums": [x.sum(0), x.sum(0)],
        "sum_max": [x.sum(0), x.max(0)],
        "sum0_sum1": [x.sum(0), x.sum(1)],
        "mean_std": [x.mean(0), x.std(0)],
        "int_mean_var": [xi.mean(0), xi.var(0)],
        "int_mean_f32_var": [xi.mean(0), xi.astype(np.float32).var(0)],
        "f32_sum_var": [x32.sum(0), x32.var(0)],
        "f32_sum_sum_var": [x32.sum(0), x32.sum(0), x32.var(0)],
        "f32_var_sum_sum": [x32.var(0), x32.sum(0), x32.sum(0)],
        "f16_sum_var": [x16.sum(0), x16.var(0)],
        "f32_sum64_var": [x32.sum(0, dtype=np.float64), x32.var(0)],
        "sum_var_axes": [x.sum(1), x.var(0)],
        "sum_var_other_src": [(x + 1).sum(0), x.var(0)],
        "int_sum_max": [xi.sum(0), xi.max(0)],
        "sort_leaf": [xp.sort(x)],
        "sort_lazy": [xp.sort(x + 1)],
        "sort_two_lazy": [xp.sort(x + 1) + xp.sort(x * 2)],
        "sort_then_sum": [xp.sort(x + 1).sum(0)],
        "center_all": [x - x.mean()],
        "center0": [x - x.mean(0)],
        "center1": [x - x.mean(1, keepdims=True)],
        "std_scale0": [(x - x.mean(0)) / x.std(0)],
        "sum_scaled0": [(x / x.std(0)).sum(0)],
        "var_of_centered": [((x - x.mean()) ** 2).mean()],
        "epi": [x.sum(0) * 2],
        "epi_view": [x.sum(0)[::2] + 1],
        "epi_view_and_direct": [s + s[::-1]],
        "epi_direct_and_view": [s[::-1] + s],
        "epi_other_shape": [x.sum() + x[0]],
        "two_reds_ew": [x.sum(0) + x.max(0)],
        "red_and_ew": [x.sum(0), x + 1],
        "leaf_and_lazy": [x, x * 2],
        "softmax_rows": [e / e.sum(1, keepdims=True)],
        "softmax_and_sum": [e / e.sum(1, keepdims=True), x.sum(0)],
        "sum_of_sum": [x.sum(0).sum()],
        "ew_two_shapes": [x + 1, x.sum(0) + 1, x[0] * 3],
        "diamond": [(y * y).sum(0) + y.sum(0) * y[0]],
        "reduce_of_view": [x.T[::2].sum(1) - x.sum(0)[::2]],
        "sum_then_center": [s, x - s / 6],
        "sort_leaf_and_ew": [xp.sort(x), x + 1],
        "ew_two_shapes_only": [x + 1, x[0] * 3],
        "sort_of_centered": [xp.sort(x - x.mean())],
        "center_then_more": [x - s, s, x.max(1)],
        "reduce_of_broadcast_ew": [(x + x[0] * 2).sum(0)],
        "deps_diamond": [x.sum(0) + ((x[0] + 1) * 2 + (x[0] + 1) * 3)],
        "sort_of_sort": [xp.sort(xp.sort(x))],
        "deps_revisit": [s + c * c],
        "mean_minus_x": [x.mean(0) - x],
        "sort_then_center": [xp.sort(x), x - x.mean(0)],
        "reversed_mean": [x + x.mean(0)[::-1]],
        "two_reds_broadcast": [x - (x.sum(0) + x.max(0))],
        "reversed_sum_broadcast": [x + x.sum(0)[::-1] / 6],
        "mean_std_broadcast": [x - (x.mean(0) + x.std(0))],
        "sum_of_centered_plus_sum": [(x - s).sum(0) + s],
    }


EXPECTED = {   # (kind, level, number of outputs, siblings' hows) per group, in order
    "dup_roots": [("elementwise", 0, 2, ())],
    "same_node_twice": [("reduce", 1, 1, ())],
    "identical_sums": [("reduce", 1, 2, ("same",))],
    "sum_max": [("reduce", 1, 1, ()), ("reduce", 1, 1, ())],
    "sum0_sum1": [("reduce", 1, 1, ()), ("reduce", 1, 1, ())],
    "mean_std": [("reduce", 1, 2, ("sum",))],
    "int_mean_var": [("reduce", 1, 2, ("sum",))],
    "int_mean_f32_var": [("reduce", 1, 1, ()), ("reduce", 1, 1, ())],
    "f32_sum_var": [("reduce", 1, 2, ("sum",))],
    "f32_sum_sum_var": [("reduce", 1, 3, ("sum", "sum"))],
    "f32_var_sum_sum": [("reduce", 1, 3, ("sum", "sum"))],
    "f16_sum_var": [("reduce", 1, 1, ()), ("reduce", 1, 1, ())],
    "f32_sum64_var": [("reduce", 1, 1, ()), ("reduce", 1, 1, ())],
    "sum_var_axes": [("reduce", 1, 1, ()), ("reduce", 1, 1, ())],
    "sum_var_other_src": [("reduce", 1, 1, ()), ("reduce", 1, 1, ())],
    "int_sum_max": [("reduce", 1, 1, ()), ("reduce", 1, 1, ())],
    "sort_leaf": [("barrier", 1, 1, ())],
    "sort_lazy": [("elementwise", 0, 1, ()), ("barrier", 1, 1, ())],
    "sort_two_lazy": [("elementwise", 0, 2, ()), ("barrier", 1, 1, ()), ("barrier", 1, 1, ()),
                      ("elementwise", 1, 1, ())],
    "sort_then_sum": [("elementwise", 0, 1, ()), ("barrier", 1, 1, ()),
                      ("reduce", 2, 1, ())],
    "center_all": [("reduce", 1, 1, ()), ("elementwise", 1, 1, ())],
    "center0": [("reduce", 1, 2, ()), ("elementwise", 1, 1, ())],
    "center1": [("reduce", 1, 1, ()), ("elementwise", 1, 1, ())],
    "std_scale0": [("reduce", 1, 4, ("sum",)), ("elementwise", 1, 1, ())],
    "sum_scaled0": [("reduce", 1, 2, ()), ("reduce", 2, 1, ())],
    "var_of_centered": [("reduce", 1, 1, ()), ("reduce", 2, 1, ())],
    "epi": [("reduce", 1, 1, ())],
    "epi_view": [("reduce", 1, 1, ()), ("elementwise", 1, 1, ())],
    "epi_view_and_direct": [("reduce", 1, 1, ()), ("elementwise", 1, 1, ())],
    "epi_direct_and_view": [("reduce", 1, 1, ()), ("elementwise", 1, 1, ())],
    "epi_other_shape": [("reduce", 1, 1, ()), ("elementwise", 1, 1, ())],
    "two_reds_ew": [("reduce", 1, 1, ()), ("reduce", 1, 1, ()), ("elementwise", 1, 1, ())],
    "red_and_ew": [("elementwise", 0, 1, ()), ("reduce", 1, 1, ())],
    "leaf_and_lazy": [("elementwise", 0, 1, ())],
    "softmax_rows": [("reduce", 1, 1, ()), ("reduce", 2, 1, ()), ("elementwise", 2, 1, ())],
    "softmax_and_sum": [("reduce", 1, 1, ()), ("reduce", 1, 1, ()), ("reduce", 2, 1, ()),
                        ("elementwise", 2, 1, ())],
    "sum_of_sum": [("reduce", 1, 1, ()), ("reduce", 2, 1, ())],
    "ew_two_shapes": [("elementwise", 0, 1, ()), ("elementwise", 0, 1, ()),
                      ("reduce", 1, 1, ())],
    "diamond": [("reduce", 1, 1, ()), ("reduce", 1, 1, ()), ("elementwise", 1, 1, ())],
    "reduce_of_view": [("reduce", 1, 1, ()), ("reduce", 1, 1, ()), ("elementwise", 1, 1, ())],
    "sum_then_center": [("reduce", 1, 2, ()), ("elementwise", 1, 1, ())],
    # the library-call and one-kernel shortcuts are for one root only
    "sort_leaf_and_ew": [("elementwise", 0, 1, ()), ("barrier", 1, 1, ())],
    "ew_two_shapes_only": [("elementwise", 0, 1, ()), ("elementwise", 0, 1, ())],
    # a barrier runs after the level of its lazy source
    "sort_of_centered": [("reduce", 1, 1, ()), ("elementwise", 1, 1, ()),
                         ("barrier", 2, 1, ())],
    # an M node whose level an earlier one computed, then one not yet reached
    "center_then_more": [("reduce", 1, 1, ()), ("reduce", 1, 1, ()),
                         ("elementwise", 1, 1, ())],
    # a broadcast elementwise node that depends on no reduction stays in the prologue
    "reduce_of_broadcast_ew": [("reduce", 1, 1, ())],
    # a node met twice in the walk for dependencies: the rest of the walk goes on
    "deps_diamond": [("reduce", 1, 1, ())],
    "sort_of_sort": [("barrier", 1, 1, ()), ("barrier", 2, 1, ())],
    # the walk for dependencies meets c twice (c * c) before it reaches the reduction: the
    # rest of the walk goes on, so the sum is found and the root is its epilogue
    "deps_revisit": [("reduce", 1, 1, ())],
    # a broadcast epilogue (the mean) read after a leaf in the scan of the root; and after
    # a barrier root in the scan of the M nodes: the sum's group computes the mean once
    "mean_minus_x": [("reduce", 1, 2, ()), ("elementwise", 1, 1, ())],
    "sort_then_center": [("barrier", 1, 1, ()), ("reduce", 1, 2, ()),
                         ("elementwise", 1, 1, ())],
    # only a broadcast read makes an epilogue output: a reversed mean, a node of two
    # reductions and a node that reads the sum through a view are computed inline
    "reversed_mean": [("reduce", 1, 1, ()), ("elementwise", 1, 1, ())],
    "two_reds_broadcast": [("reduce", 1, 1, ()), ("reduce", 1, 1, ()),
                           ("elementwise", 1, 1, ())],
    "reversed_sum_broadcast": [("reduce", 1, 1, ()), ("elementwise", 1, 1, ())],
    # mean + std reads the sum and the var0, one group (the sum is the var0's sibling)
    "mean_std_broadcast": [("reduce", 1, 3, ("sum",)), ("elementwise", 1, 1, ())],
    # the root reads s directly and through the second sum: s's level is met twice
    "sum_of_centered_plus_sum": [("reduce", 1, 1, ()), ("reduce", 2, 1, ()),
                                 ("elementwise", 2, 1, ())],
}


def _summary(groups):
    return [(g.kind, g.level, len(g.outputs), tuple(h for _, h in g.siblings))
            for g in groups]


def _check_invariants(roots, groups):
    made = {}                                   # id(node) -> index of its group
    for k, g in enumerate(groups):
        assert isinstance(g.level, int) and g.outputs
        for o in g.outputs:
            made[id(o)] = k
        if g.kind == "reduce":
            assert g.reduce.kind == REDUCE and g.barrier is None
            for n, how in g.siblings:
                assert n.kind == REDUCE and how in ("same", "sum")
                made[id(n)] = k
            made[id(g.reduce)] = k
        elif g.kind == "barrier":
            assert g.barrier.kind == BARRIER and g.outputs == [g.barrier]
        elif g.kind == "rows":
            for p in g.phases:          # the row reductions it computes itself
                assert p.kind == REDUCE
                made[id(p)] = k
        else:
            assert g.reduce is None and g.barrier is None
    for r in roots:
        assert r.kind == LEAF or id(r) in made
    for g in groups:                            # every group runs on its nodes' device
        assert g.device is not None
        assert all(o.device == g.device for o in g.outputs)
    for k, g in enumerate(groups):
        assert groups[k - 1].level <= g.level if k else True
        if k and groups[k - 1].level == g.level:
            # at one level, reductions and barriers come before elementwise groups
            assert not (groups[k - 1].kind in ("elementwise", "rows") and
                        g.kind in ("reduce", "barrier"))
        # every REDUCE/BARRIER a group reads is made by an earlier group (or by itself)
        stack = list(g.outputs) + ([g.reduce] if g.reduce is not None else [])
        seen = set()
        while stack:
            n = stack.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            for src in n.srcs:
                if src.kind in (REDUCE, BARRIER):
                    j = made.get(id(src))
                    assert j is not None and j <= k, (g, src)
                    if j < k:
                        assert groups[j].level < g.level or groups[j].kind != "reduce" \
                            or groups[j].level <= g.level
                elif src.kind != LEAF:
                    stack.append(src)


def _scheduled_and_run(arrs):
    """(kind, level, outputs, phases) of each group the scheduler makes for `arrs`, after
    checking its invariants and that evaluating them runs that many groups."""
    roots = [r._node for r in arrs]
    groups = schedule(roots)
    _check_invariants(roots, groups)
    gp.stats.reset()
    gp.evaluate(*arrs)
    assert gp.stats.groups == len(groups)
    return [(g.kind, g.level, len(g.outputs), len(g.phases)) for g in groups]


def _values(arrs):
    return [np.asarray(a.get() if hasattr(a, "get") else a) for a in arrs]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_schedule_of_program(name):
    arrs = _programs(gp)[name]
    roots = [a._node for a in arrs]
    groups = schedule(roots)
    assert _summary(groups) == [tuple(e) for e in EXPECTED[name]]
    _check_invariants(roots, groups)
    gp.stats.reset()
    gp.evaluate(*arrs)
    assert gp.stats.groups == sum(g.kind != "leaf" for g in groups)
    with np.errstate(all="ignore"):
        want = _values(_programs(np)[name])
    for got, w in zip(_values(arrs), want):
        assert got.shape == w.shape
        np.testing.assert_allclose(got, w, rtol=2e-3 if got.dtype == np.float16 else 1e-5,
                                   atol=1e-6)


def test_sibling_outputs_are_the_nodes_asked_for():
    x = gp.asarray(A.astype(np.float32))
    a, b, v = x.sum(0), x.sum(0), x.var(0)
    (g,) = schedule([a._node, b._node, v._node])
    assert g.reduce is v._node
    assert {id(n) for n, _ in g.siblings} == {id(a._node), id(b._node)}
    assert {h for _, h in g.siblings} == {"sum"}
    assert g.outputs[0] is v._node
    assert {id(o) for o in g.outputs} == {id(v._node), id(a._node), id(b._node)}
    s1, s2 = x.sum(0), x.sum(0)
    (g,) = schedule([s1._node, s2._node])
    assert g.reduce is s1._node and g.siblings == ((s2._node, "same"),)
    assert g.outputs == [s1._node, s2._node]


def test_barrier_groups_carry_their_node():
    x = gp.asarray(A)
    for arr in (gp.sort(x), gp.sort(x + 1)):
        gs = schedule([arr._node])
        assert gs[-1].kind == "barrier" and gs[-1].barrier is arr._node
        assert gs[-1].level == 1


def test_without_sibling_fusion_every_reduction_is_its_own_group():
    with gp.config.override(fuse_siblings=False):
        x = gp.asarray(A.astype(np.float32))
        gs = schedule([x.sum(0)._node, x.var(0)._node, x.sum(0)._node])
        assert [g.kind for g in gs] == ["reduce"] * 3
        assert all(g.siblings == () for g in gs)
        y = x - x.mean(0)
        assert _summary(schedule([y._node])) == [("reduce", 1, 1, ()),
                                                 ("elementwise", 1, 1, ())]


def test_group_repr():
    x = gp.asarray(A)
    gs = schedule([x.sum(0)._node, (x + 1)._node])
    assert [repr(g) for g in gs] == ["<Group elementwise level=0 -> float64[6, 8]>",
                                     "<Group reduce level=1 -> float64[8]>"]
    assert schedule([]) == [] and schedule([x._node]) == []


def test_row_groups_of_one_shape_share_a_kernel():
    a = np.random.default_rng(1).standard_normal((64, 37))

    def sm(xp, X):
        e = xp.exp(X - X.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    X, Y, Z = gp.asarray(a), gp.asarray(a * 2), gp.asarray(np.ones((70, 5)))
    cases = [([sm(gp, X)], [("rows", 2, 1, 2)]),
             ([sm(gp, X), sm(gp, Y)], [("rows", 2, 2, 4)]),
             ([sm(gp, X), sm(gp, Z)], [("rows", 2, 1, 2), ("rows", 2, 1, 2)]),
             ([sm(gp, X), X.sum(0)], [("reduce", 1, 1, 0), ("rows", 2, 1, 2)])]
    for arrs, want in cases:
        assert _scheduled_and_run(arrs) == want
    np.testing.assert_allclose(sm(gp, X).get(), sm(np, a), rtol=1e-12)


def test_writes_into_decides_whether_the_last_group_stores_into_the_destination():
    """``dest[...] = value`` stores the last group's output straight into dest when that
    cannot change what the group reads: an elementwise group, or a reduce group (no
    siblings) whose reduction reads nothing of dest's memory (earlier groups' outputs
    have memory of their own), or whose dest is one element (stored after the whole
    reduction).  The values of such assignments are checked against NumPy too."""
    from gnumpy._graph.fuse import writes_into

    def last(v):
        return schedule([v._node])[-1]

    x = gp.asarray(A)
    d = gp.asarray(np.ones(8))                   # a LEAF: the destination
    d1, d2 = gp.asarray(np.ones(1)), gp.asarray(np.ones(2))
    dn = d._node
    ew = x[0] + 1
    assert writes_into(last(ew), ew._node, dn)
    assert not writes_into(last(ew), (x[1] + 1)._node, dn)       # not the group's output
    two = schedule([(x[0] + 1)._node, (x[1] * 2)._node])[-1]
    assert not writes_into(two, two.outputs[0], dn)
    # reads x only, or dest through an earlier reduction (its own memory), or dest in the
    # epilogue (each element read before it is stored)
    for k, v in enumerate((x.sum(0) * 2, x.sum(0), (x - x.sum()).sum(0),
                           (x.sum() + x).max(0), (x + (x * d).sum()).sum(0) * d,
                           ((x * d).sum() + x).sum(0))):
        assert writes_into(last(v), v._node, dn), k
    for k, v in enumerate(((x * d).sum(0), (d * x).sum(0), (x.sum() + d * x).sum(0), (d * x + x.sum()).sum(0),
                           (x.max() + (x * d)).sum(0), ((x * d) + x.max()).sum(0))):
        assert not writes_into(last(v), v._node, dn), k   # reads dest's memory
    v = (x * d).sum()                                     # another dest: not read
    assert writes_into(last(v), v._node, d1._node)
    v = (x[:, :1] * d1).sum(0)                            # one element: stored last
    assert last(v).kind == "reduce" and writes_into(last(v), v._node, d1._node)
    v = (x + gp.sort(d)).sum(0)           # dest read by a barrier: an earlier group
    assert last(v).kind == "reduce" and writes_into(last(v), v._node, dn)
    v = (x[:, :2] * d2).sum(0)                            # two elements, read
    assert not writes_into(last(v), v._node, d2._node)
    s = gp.sort(x[0] + 1)                                 # a barrier
    assert not writes_into(last(s), s._node, dn)
    for v in (x.mean(0) + x.std(0), x.sum(0) + x.var(0)):
        g = last(v)
        if g.kind == "reduce" and g.siblings:             # siblings: stored elsewhere
            assert not writes_into(g, v._node, dn)
    # the assignments themselves
    a, an = gp.asarray(np.ones(8)), np.ones(8)
    a[...] = (x * a).sum(0)
    an[...] = (A * an).sum(0)
    np.testing.assert_allclose(a.get(), an)
    a[...] = (x.sum() + x * a).max(0)
    an[...] = (A.sum() + A * an).max(0)
    np.testing.assert_allclose(a.get(), an)


def test_group_repr_lists_every_output():
    x = gp.asarray(A)
    (g,) = schedule([(x + 1)._node, (x * 2)._node])
    assert repr(g) == "<Group elementwise level=0 -> float64[6, 8], float64[6, 8]>"


def test_without_row_fusion_no_rows_group():
    a = np.random.default_rng(1).standard_normal((64, 37))
    X = gp.asarray(a)
    e = gp.exp(X - X.max(axis=-1, keepdims=True))
    sm = e / e.sum(axis=-1, keepdims=True)
    assert "rows" in [g.kind for g in schedule([sm._node])]
    with gp.config.override(fuse_rows=False):
        assert "rows" not in [g.kind for g in schedule([sm._node])]


def _full(groups):
    """Everything a group carries, nodes by identity."""
    return [(g.kind, g.level, g.device, [id(o) for o in g.outputs],
             None if g.reduce is None else id(g.reduce),
             None if g.barrier is None else id(g.barrier), [id(p) for p in g.phases],
             [(id(n), h) for n, h in g.siblings]) for g in groups]


def test_a_replayed_schedule_is_the_schedule():
    """``schedule`` replays the plan of a graph of the same structure (its signature):
    programs that differ only in which leaves, which shared nodes or which roots they
    use must not share a plan, and a replayed plan gives the groups scheduling gives."""
    from gnumpy._graph import fuse
    b = np.random.default_rng(5).standard_normal((64, 37))

    def progs():
        x, y = gp.asarray(A.astype(np.float32)), gp.asarray(A.astype(np.float32) * 2)
        s = x.sum(0)
        B = gp.asarray(b)
        e = gp.exp(B - B.max(axis=-1, keepdims=True))
        return [
            [x.sum(0), x.var(0)], [x.sum(0), y.var(0)], [y.sum(0), x.var(0)],
            [s + s], [x.sum(0) + x.sum(0)], [x.sum(0) + y.sum(0)],
            [s, x - s], [x - s, s], [s, x - x.sum(0)],
            [(s + s) + s[::-1]], [(s + s) + s * 2],
            [x + 1, x * 2], [x * 2, x + 1], [x + 1, x + 1],
            [e / e.sum(axis=-1, keepdims=True)],
            [gp.sort(gp.sort(x))], [gp.sort(x + 1), gp.sort(x + 1) + 1],
            [x.mean(0) + x.std(0)], [(x - x.mean(0)) / x.std(0)],
        ]
    for rnd in range(2):                 # the second round replays the first's plans
        for k, arrs in enumerate(progs()):
            roots = [a._node for a in arrs]
            got = schedule(roots)
            want = fuse._schedule(list(dict.fromkeys(
                r for r in roots if r.kind != LEAF)))
            assert _full(got) == _full(want), (rnd, k)
            _check_invariants(roots, got)


def test_a_view_of_a_reduction_is_no_epilogue():
    """A VIEW root of a reduction's shape (reversed) reads other positions than the
    reduction writes: its own group, not an epilogue output.  (The API evaluates such a
    view through its base; ``schedule`` is asked directly.)"""
    x = gp.asarray(A)
    v = x.sum(0)[::-1]
    roots = [v._node]
    groups = schedule(roots)
    assert _summary(groups) == [("reduce", 1, 1, ()), ("elementwise", 1, 1, ())]
    _check_invariants(roots, groups)


def test_a_row_group_computes_a_column_mean_inline():
    """A softmax (a row group) that also reads a column mean through a broadcast: the row
    group's consumers are not scanned for broadcast epilogues, so the column sum's group
    writes the sum alone (with the std of the same column reductions, the mean and the
    std come out of the var0's group only when a node outside the rows reads them)."""
    a = np.random.default_rng(4).standard_normal((64, 37))

    def progs(xp):
        X = xp.asarray(a)
        e = xp.exp(X - X.max(axis=-1, keepdims=True))
        sm = e / e.sum(axis=-1, keepdims=True)
        return [[sm * X.mean(0)], [X.mean(0) * sm], [sm - X.mean(0), X.std(0)]]
    want = [[("reduce", 1, 1, 0), ("rows", 2, 1, 2)],
            [("reduce", 1, 1, 0), ("rows", 2, 1, 2)],
            [("reduce", 1, 2, 0), ("rows", 2, 1, 2)]]
    for arrs, w, ref in zip(progs(gp), want, progs(np)):
        assert _scheduled_and_run(arrs) == w
        for got, r in zip(_values(arrs), ref):
            np.testing.assert_allclose(got, r, rtol=1e-12, atol=1e-12)


def test_a_broadcast_root_of_a_mean_makes_the_mean_an_epilogue():
    """An M node that is itself the broadcast of a mean (a VIEW root, or a barrier's lazy
    source): the scan for broadcast epilogues starts at the node, so the mean is an
    epilogue output of the sum's group, computed once per column; the broadcast is a group
    of its own.  (The API evaluates a view root through its base; ``schedule`` is asked
    directly.)"""
    a = np.random.default_rng(6).standard_normal((6, 8))
    x = gp.asarray(a)
    b = gp.broadcast_to(x.mean(0), (6, 8))
    roots = [b._node]
    groups = schedule(roots)
    assert _summary(groups) == [("reduce", 1, 2, ()), ("elementwise", 1, 1, ())]
    _check_invariants(roots, groups)
    assert groups[0].outputs[1] is b._node.srcs[0]          # the mean
    srt = gp.sort(gp.broadcast_to(x.mean(0), (6, 8)), axis=0)
    roots = [srt._node]
    groups = schedule(roots)
    assert _summary(groups) == [("reduce", 1, 2, ()), ("elementwise", 1, 1, ()),
                                ("barrier", 2, 1, ()), ("elementwise", 2, 1, ())]
    _check_invariants(roots, groups)
    np.testing.assert_allclose(b.get(), np.broadcast_to(a.mean(0), (6, 8)), rtol=1e-12)
    np.testing.assert_allclose(srt.get(), np.sort(np.broadcast_to(a.mean(0), (6, 8)), 0),
                               rtol=1e-12)
