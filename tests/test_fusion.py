"""Fusion: how many groups (kernels) typical programs produce, and graph-size bounds."""
import numpy as np

import gnumpy as gp
from gnumpy._graph.ir import LEAF
from helpers import count_calls


def _groups(*arrays):
    gp.stats.reset()
    gp.evaluate(*arrays)
    return gp.stats.groups


def test_elementwise_chain_is_one_group():
    x = gp.asarray(np.arange(10.0))
    y = gp.asarray(np.ones(10))
    assert _groups(gp.sin(x) * gp.cos(y) + x * x - 3 * y + gp.exp(-x)) == 1


def test_sum_of_squared_difference_is_one_group():
    x = gp.asarray(np.arange(10.0))
    y = gp.asarray(np.ones(10))
    assert _groups(gp.sum((x - y) ** 2)) == 1


def test_centering_is_two_groups():
    x = gp.asarray(np.arange(12.0).reshape(3, 4))
    assert _groups(x - x.mean()) == 2
    x = gp.asarray(np.arange(12.0).reshape(3, 4))
    assert _groups(x - x.mean(axis=0)) == 2


def test_mean_and_std_epilogues_fuse():
    x = gp.asarray(np.arange(12.0).reshape(3, 4))
    assert _groups(x.mean(axis=1)) == 1
    # var/std read their input once (one-pass Welford accumulator), ddof in the epilogue
    assert _groups(x.var()) == 1
    assert _groups(x.std(axis=0, ddof=1)) == 1
    # with a given mean: two passes (the mean, then squared deviations)
    assert _groups(x.var(mean=x.mean(keepdims=True))) == 2


def test_several_outputs_of_one_shape_share_a_group():
    x = gp.asarray(np.arange(10.0))
    a, b = x + 1, x * 2
    assert _groups(a, b) == 1
    np.testing.assert_array_equal(a.get(), np.arange(10.0) + 1)
    np.testing.assert_array_equal(b.get(), np.arange(10.0) * 2)


def test_shared_reduction_is_computed_once():
    x = gp.asarray(np.arange(12.0))
    s = x.sum()
    y = x / s
    z = x * s
    assert _groups(y, z) == 2     # the sum once, then both outputs in one group


def test_materialized_node_is_not_recomputed():
    x = gp.asarray(np.arange(12.0))
    s = x.sum()
    gp.evaluate(s)
    assert _groups(x - s) == 1


def test_views_fuse_as_index_arithmetic():
    x = gp.asarray(np.arange(12.0).reshape(3, 4))
    y = (x.T[::2] + 1) * x.T[1::2]
    assert _groups(y) == 1
    xn = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(y.get(), (xn.T[::2] + 1) * xn.T[1::2])


def test_long_python_loop_is_bounded():
    x = gp.asarray(np.ones(4))
    xn = np.ones(4)
    for _ in range(5000):
        x = x * 0.99 + 1
        xn = xn * 0.99 + 1
    assert x._node.size <= gp.config.max_graph_nodes + 2
    np.testing.assert_allclose(x.get(), xn, rtol=1e-12)


def test_a_second_in_place_update_of_a_lazy_value_computes_it():
    """``x += y`` over an array whose value is lazy from an earlier in-place update
    computes it (one kernel for both updates); a first update, a rebinding (``x = x + y``)
    and a 0-d value stay lazy.  Values are NumPy's."""
    a = np.linspace(-2.0, 3.0, 12)
    x, xn = gp.asarray(a), a.copy()
    x += 1.5
    xn += 1.5
    assert x._node.kind != LEAF                 # one update: fuses into its reader
    x *= x
    xn *= xn
    assert x._node.kind == LEAF
    y = gp.asarray(a) * 2.0                      # lazy, not from an update
    y -= 1.0
    assert y._node.kind != LEAF
    y /= 3.0
    assert y._node.kind == LEAF
    z = gp.asarray(a)
    for _ in range(3):
        z = z + 1.0
    assert z._node.kind != LEAF
    s = gp.asarray(2.0) * 1.0
    s += 1.0
    s *= 3.0
    assert s._node.kind != LEAF
    for g, want in ((x, xn), (y, (a * 2.0 - 1.0) / 3.0), (z, a + 3.0), (s, 9.0)):
        np.testing.assert_allclose(g.get(), want, rtol=1e-13)


def test_a_state_updated_in_place_in_a_loop_does_not_grow():
    """A loop updating its state in place twice a step and reading it every step (NPBench
    nbody's kicks) keeps the state's graph from growing across steps."""
    v, vn = gp.asarray(np.arange(6.0)), np.arange(6.0)
    sizes = []
    for k in range(6):
        v += 0.5 * k
        vn += 0.5 * k
        np.testing.assert_allclose(float((v * v).sum()), (vn * vn).sum(), rtol=1e-13)
        v -= 0.25
        vn -= 0.25
        sizes.append(v._node.size)
    assert max(sizes) == 1
    np.testing.assert_allclose(v.get(), vn, rtol=1e-13)


def test_explain_lists_groups():
    x = gp.asarray(np.arange(10.0))
    text = gp.explain(x - x.mean())
    assert text.startswith("2 groups")


# ---------------------------------------------------------------- schedules replay

_PROGRAMS = {
    "siblings": lambda xp, x, y: [x * 2.0, x - y],
    "reduce_epilogue": lambda xp, x, y: [x.mean(axis=1), x.std(axis=1)],
    "mean_std_same_source": lambda xp, x, y: [(x - x.mean(axis=0)) / x.std(axis=0)],
    "softmax_rows": lambda xp, x, y: [xp.exp(x - x.max(axis=1, keepdims=True)) / xp.exp(
        x - x.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)],
    "two_levels": lambda xp, x, y: [x - (x * y).sum(), (y ** 2).sum(axis=0)],
    "library_call": lambda xp, x, y: [1.5 * (x * 2.0) @ y.T + 0.5 * x[:, :6]],
    "views": lambda xp, x, y: [x[1:, ::2].sum(axis=0) + y[0, ::2], x.T[::-1] * 2.0],
}


def test_schedule_replays_by_structure(monkeypatch):
    """A graph of a structure scheduled before (a statement in a loop, a program called
    again) gets the same groups over its own nodes without running the scheduler; the
    values stay NumPy's."""
    from gnumpy._graph import fuse
    rng = np.random.default_rng(3)
    fresh = []
    real = fuse._schedule

    def counted(roots):
        fresh.append(roots)
        return real(roots)
    monkeypatch.setattr(fuse, "_schedule", counted)
    monkeypatch.setattr(fuse, "_SCHEDULES", {})     # (a test before, in this process, may
    for name, prog in _PROGRAMS.items():            # have scheduled one of these structures)
        shapes = []
        for k in range(2):
            xn, yn = rng.standard_normal((6, 8)), rng.standard_normal((6, 8))
            outs = prog(gp, gp.asarray(xn), gp.asarray(yn))
            roots = [o._node for o in outs]
            _, inner = fuse._structure(roots)
            pos = {id(n): i for i, n in enumerate(inner)}
            del fresh[:]
            groups = fuse.schedule(roots)
            assert len(fresh) == (0 if k else 1), name
            shapes.append([(g.kind, g.level, [pos[id(o)] for o in g.outputs],
                            g.reduce is not None and pos[id(g.reduce)],
                            g.barrier is not None and pos[id(g.barrier)],
                            [pos[id(p)] for p in g.phases],
                            [(pos[id(n)], h) for n, h in g.siblings]) for g in groups])
            for o, e in zip(outs, prog(np, xn, yn)):
                np.testing.assert_allclose(o.get(), e, rtol=1e-12, atol=1e-12)
        assert shapes[0] == shapes[1], name


def test_library_calls_on_memory_schedule_without_a_structure(monkeypatch):
    """Roots that are all library calls reading memory (NPBench bicg's ``return r @ A,
    A @ p``) are one group each, without the structure walk of a cached schedule; a call
    reading a lazy operand still takes it.  Values are NumPy's."""
    from gnumpy._graph import fuse
    rng = np.random.default_rng(8)
    an, pn, rn = rng.random((40, 30)), rng.random(30), rng.random(40)
    a, p, r = gp.asarray(an), gp.asarray(pn), gp.asarray(rn)
    gp.evaluate(a, p, r)
    walked = count_calls(monkeypatch, fuse, "_structure", lambda roots: roots)
    s, q = r @ a, a @ p
    groups = fuse.schedule([s._node, q._node])
    assert [g.kind for g in groups] == ["barrier", "barrier"] and not walked
    np.testing.assert_allclose(s.get(), rn @ an, rtol=1e-12)
    np.testing.assert_allclose(q.get(), an @ pn, rtol=1e-12)
    s2, q2 = (r + 1.0) @ a, a @ p
    fuse.schedule([s2._node, q2._node])
    assert len(walked) == 1
    np.testing.assert_allclose(s2.get(), (rn + 1.0) @ an, rtol=1e-12)


def test_schedule_structure_ignores_scalar_values_not_shapes():
    from gnumpy._graph import fuse
    x = gp.asarray(np.arange(12.0).reshape(3, 4))
    a = fuse._structure([((x * 2.0).sum(axis=0) + 1.0)._node])[0]
    b = fuse._structure([((x * 5.0).sum(axis=0) + 7.0)._node])[0]
    c = fuse._structure([((x * 2.0).sum(axis=1) + 1.0)._node])[0]
    d = fuse._structure([((x[:2] * 2.0).sum(axis=0) + 1.0)._node])[0]
    assert a == b and a != c and a != d
