"""The schedule cache of the scheduler (``fuse.schedule``, ``_SCHEDULES``): tests from the
mutation re-run of gnumpy/_graph/fuse.py (issue 21).

``schedule`` keys each graph by its structure (``_structure``: kinds, ops, dtypes, shapes,
arguments, sharing, leaves by identity; not scalar values nor barrier arguments) and the
options' generation, stores the groups it made with every node as its index in the graph
(``_encode``), and replays that plan for the next graph of the same structure without
running the scheduler (``_schedule``).  The cache is an optimization: a cache that never
hits, or one that hits for a graph of another structure, gives the same values on the CPU
backend.  So these tests count the scheduler's own runs (a wrapper around ``_schedule``)
and the cache's entries, and check every replayed schedule against a fresh one and the
values against NumPy.
"""
import numpy as np
import pytest

import gnumpy as gp
from gnumpy._config import config
from gnumpy._graph import fuse, ir
from gnumpy._graph.ir import LEAF
from helpers import count_calls

RNG = np.random.default_rng(2112)


@pytest.fixture
def runs(monkeypatch):
    """An empty schedule cache, and the list of the scheduler's own runs."""
    monkeypatch.setattr(fuse, "_SCHEDULES", {})
    return count_calls(monkeypatch, fuse, "_schedule", list)


def _full(groups, pos):
    """Everything a group carries, nodes by their position in the graph (`pos`)."""
    return [(g.kind, g.level, g.device, [pos[id(o)] for o in g.outputs],
             None if g.reduce is None else pos[id(g.reduce)],
             None if g.barrier is None else pos[id(g.barrier)],
             [pos[id(p)] for p in g.phases], [(pos[id(n)], h) for n, h in g.siblings])
            for g in groups]


def _positions(roots):
    return {id(n): i for i, n in enumerate(fuse._structure(roots)[1])}


def _programs(xp, a, b, c):
    """Programs that make every kind of group: elementwise, reduce (with siblings and
    epilogues), barrier, rows.  a, b: (6, 8); c: (64, 37)."""
    x, y, z = xp.asarray(a), xp.asarray(b), xp.asarray(c)
    x32 = xp.asarray(a.astype(np.float32))
    e = xp.exp(z - z.max(axis=-1, keepdims=True))
    return {
        "elementwise": [x * y + 1.5],
        "two_elementwise": [x * 2 - y, x[0] + y[1]],
        "reduce": [(x - y).sum(0)],
        "epilogue": [x - x.mean(0)],
        "siblings": [x32.sum(0), x32.var(0), x32.sum(0)],
        "std_scale": [(x - x.mean(0)) / x.std(0)],
        "barrier": [xp.sort(x + y, axis=1)],
        "barrier_then_reduce": [xp.sort(x * y, axis=0).sum(1)],
        "rows": [e / e.sum(axis=-1, keepdims=True)],
        "rows_and_reduce": [e / e.sum(axis=-1, keepdims=True), z.sum(0)],
    }


def _data():
    return (RNG.standard_normal((6, 8)), RNG.standard_normal((6, 8)),
            RNG.standard_normal((64, 37)))


def _check_values(arrs, want):
    for got, w in zip(arrs, want):
        got = got.get()
        assert got.shape == w.shape
        np.testing.assert_allclose(got, w, rtol=1e-5 if got.dtype == np.float32 else 1e-12,
                                   atol=1e-6)


def test_a_repeated_structure_replays_its_schedule(runs):
    """The second graph of each structure (new leaves, new values) is a cache hit: no run
    of the scheduler, no new entry, and the groups a fresh schedule gives, over its own
    nodes.  Each first graph is a miss that stores a plan (not False: every node of its
    groups is in the graph)."""
    first, keys = {}, set()
    for rnd in range(3):
        data = _data()
        progs, want = _programs(gp, *data), _programs(np, *data)
        for name, arrs in progs.items():
            roots = [r._node for r in arrs]
            pos = _positions(roots)
            del runs[:]
            n_before = len(fuse._SCHEDULES)
            groups = fuse.schedule(roots)
            if rnd == 0:
                assert len(runs) == 1, name
                assert len(fuse._SCHEDULES) == n_before + 1, name
                key = (config._generation, fuse._structure(roots)[0])
                keys.add(key)
                plan = fuse._SCHEDULES[key]
                assert isinstance(plan, tuple) and len(plan) == len(groups), name
                first[name] = _full(groups, pos)
            else:
                assert runs == [], (rnd, name)                  # replayed
                assert len(fuse._SCHEDULES) == n_before, name
            fresh = fuse._schedule(list(dict.fromkeys(r for r in roots if r.kind != LEAF)))
            assert _full(groups, pos) == _full(fresh, pos) == first[name], (rnd, name)
            gp.stats.reset()
            gp.evaluate(*arrs)
            assert gp.stats.groups == len(groups), (rnd, name)
            _check_values(arrs, want[name])
    # one entry per structure (evaluating on CUDA may store plans of other graphs too)
    assert len(keys) == len(first) and all(k in fuse._SCHEDULES for k in keys)


def test_graphs_of_another_structure_are_misses(runs):
    """Other shapes, axes, ops, dtypes, roots or sharing: each a run of the scheduler and
    an entry of its own, never the plan of another structure."""
    a, b, _ = _data()
    x, y = gp.asarray(a), gp.asarray(b)
    s = x.sum(0)
    progs = [[x.sum(0)], [x.sum(1)], [x.max(0)], [x[:4].sum(0)],
             [x.astype(np.float32).sum(0)], [x.sum(0), x.max(0)], [x.max(0), x.sum(0)],
             [s + s], [x.sum(0) + x.sum(0)], [x.sum(0) + y.sum(0)],
             [x - x.mean(0)], [y - x.mean(0)], [x * x], [x * y]]
    for k, arrs in enumerate(progs):
        roots = [r._node for r in arrs]
        pos = _positions(roots)
        del runs[:]
        groups = fuse.schedule(roots)
        assert len(runs) == 1, k
        assert len(fuse._SCHEDULES) == k + 1
        assert _full(groups, pos) == _full(fuse._schedule(roots), pos), k
    sigs = {fuse._structure([r._node for r in arrs])[0] for arrs in progs}
    assert len(sigs) == len(progs)


def test_scalar_values_and_barrier_arguments_share_a_plan(runs):
    """A scalar's value and a barrier's argument (the scan axis here) change no schedule:
    graphs that differ only there replay one plan."""
    a, b, _ = _data()
    x = gp.asarray(a)
    pairs = [(lambda v: ((x * v).sum(0) + 2 * v), (1.5, -7.25)),
             (lambda v: x - v * x.mean(0), (0.5, 3.0)),
             (lambda v: gp.cumsum(x * 2, axis=v), (0, 1))]
    for k, (prog, (v1, v2)) in enumerate(pairs):
        r1, r2 = prog(v1), prog(v2)
        del runs[:]
        g1 = fuse.schedule([r1._node])
        g2 = fuse.schedule([r2._node])
        assert len(runs) == 1, k
        assert _full(g2, _positions([r2._node])) == _full(g1, _positions([r1._node])), k
        assert fuse._structure([r1._node])[0] == fuse._structure([r2._node])[0]
    np.testing.assert_allclose(pairs[0][0](-7.25).get(), (a * -7.25).sum(0) - 14.5,
                               rtol=1e-12)
    for ax in (0, 1):
        np.testing.assert_allclose(pairs[2][0](ax).get(), np.cumsum(a * 2, axis=ax),
                                   rtol=1e-12)


def test_changed_options_are_a_miss(runs):
    """The options' generation is part of the key: the same graph under other options is
    scheduled afresh (without sibling fusion its reductions are groups of their own), and
    under those options a repeated graph is a hit again."""
    x = gp.asarray(RNG.standard_normal((6, 8)).astype(np.float32))
    arrs = [x.sum(0), x.var(0)]
    roots = [r._node for r in arrs]
    for k in range(2):
        assert [g.kind for g in fuse.schedule(roots)] == ["reduce"]
    assert len(runs) == 1
    with gp.config.override(fuse_siblings=False):
        for k in range(2):
            assert [g.kind for g in fuse.schedule(roots)] == ["reduce", "reduce"]
        assert len(runs) == 2 and len(fuse._SCHEDULES) == 2


def test_the_cache_is_cleared_when_it_holds_its_bound(runs):
    """At ``_MAX_SCHEDULES`` entries a miss clears the cache before storing its plan; one
    entry fewer and the cache keeps everything."""
    x = gp.asarray(RNG.standard_normal((6, 8)))
    cache = fuse._SCHEDULES
    for k in range(fuse._MAX_SCHEDULES - 1):
        cache[("filler", k)] = ()
    fuse.schedule([(x.sum(0) * 3)._node])
    assert len(cache) == fuse._MAX_SCHEDULES               # below the bound: kept
    fuse.schedule([(x.max(1) - 1)._node])
    assert len(cache) == 1                                  # at the bound: cleared
    assert not any(k[0] == "filler" for k in cache)
    assert len(runs) == 2


def test_a_plan_that_names_a_node_outside_the_graph_is_not_replayed(runs, monkeypatch):
    """When the groups name a node that is not in the graph (scheduling made a node of its
    own), ``_encode`` gives False: the cache remembers that, and every later graph of that
    structure is scheduled afresh."""
    a = RNG.standard_normal((6, 8))
    inner_schedule = fuse._schedule

    def made_a_node(roots):
        groups = inner_schedule(roots)
        extra = ir.copy(roots[0])                 # a node of the scheduler's own
        return groups + [fuse.Group("elementwise", [extra], extra.device, groups[-1].level)]
    monkeypatch.setattr(fuse, "_schedule", made_a_node)
    for rnd in range(3):
        x = gp.asarray(a + rnd)
        root = (x.sum(0) * 2)._node
        groups = fuse.schedule([root])
        assert len(runs) == rnd + 1
        assert [g.kind for g in groups] == ["reduce", "elementwise"]
        assert groups[0].reduce is root.srcs[0] and groups[-1].outputs[0].srcs == (root,)
        assert fuse._SCHEDULES[(config._generation, fuse._structure([root])[0])] is False
    # _encode itself: every node present, or one missing
    x = gp.asarray(a)
    root = (x - x.mean(0))._node
    sig, inner = fuse._structure([root])
    groups = inner_schedule([root])
    assert isinstance(fuse._encode(groups, inner), tuple)
    assert fuse._encode(groups, [n for n in inner if n is not root]) is False


def test_an_unhashable_argument_is_scheduled_without_the_cache(runs):
    """A node whose argument is not hashable (no API op makes one; other code building IR
    may): its signature cannot be hashed, and ``schedule`` runs the scheduler every time,
    storing nothing."""
    a = RNG.standard_normal((6, 8))
    x = gp.asarray(a)
    s = (x * 2).sum(0)._node
    odd = ir.ew("negative", s.dtype, (s,), arg=[1, 2])
    root = ir.ew("add", s.dtype, (odd, s))
    with pytest.raises(TypeError):
        hash(fuse._structure([root])[0])
    for k in range(2):
        groups = fuse.schedule([root])
        assert len(runs) == k + 1 and len(fuse._SCHEDULES) == 0
        assert [(g.kind, g.level, len(g.outputs)) for g in groups] == [("reduce", 1, 1)]
        assert groups[0].reduce is s and groups[0].outputs == [root]
