"""The CPU write replay's remembered walks (``cpu_signature.recall``): a graph of a shape
met before is read by that shape's generated reader, which must answer what the walk
answers (signature, leaves and scalars in the walk's order, and whether it holds a
reduction) or step aside; and statement loops replayed through readers keep NumPy's
values."""
import numpy as np
import pytest

import gnumpy as gp
from gnumpy.backends import cpu_signature as cs
from gnumpy.backends import remembered
from helpers import STATEMENT_SHAPES, check, count_calls, same_walk, statement_arrays


@pytest.fixture
def readers(monkeypatch):
    """Fresh reader tables; `walks` counts the walks recall could not spare."""
    for name in ("_BY_HINT", "_SEEN", "_MADE"):
        monkeypatch.setattr(cs, name, {})
    real = cs.walk
    return count_calls(monkeypatch, cs, "walk", lambda *args: 1), real


SHAPES = {**STATEMENT_SHAPES,
          "lazy_views": lambda A, B, v, k: ((A[k:k + 2] + 1.0).T * 2.0)[1:-1]}


@pytest.mark.parametrize("name", list(SHAPES))
def test_recall_answers_as_the_walk(readers, name):
    walks, walk = readers
    A, B, v = statement_arrays("cpu")
    f = SHAPES[name]
    for k in range(cs._MAKE_AT + 8):
        node = f(A, B, v, k % 8)._node
        same_walk(cs.recall(node), walk(node))
    assert len(walks) == cs._MAKE_AT       # then the reader answered


def test_a_graph_the_walk_refuses_gets_no_reader(readers):
    """An index-valued node (``arange``) is not replayed on the CPU: every one is
    walked, and answered as refused."""
    walks, walk = readers
    A, B, v = statement_arrays("cpu")
    for k in range(cs._MAKE_AT + 4):
        node = (A[k % 8] + gp.arange(40, device="cpu") * (k + 1))._node
        got = cs.recall(node)
        assert got[3] is False and got[3] is walk(node)[3]
    assert len(walks) == cs._MAKE_AT + 4


def _teach(f):
    for _ in range(cs._MAKE_AT + 1):
        cs.recall(f())


# each pair: the graph taught, then a graph of the same hint (root kind, op, dtype and
# tree size) that differs in one thing the signature encodes
CHECKED = {         # ... that the reader checks: it steps aside for the walk
    "op": (lambda A, B, v: A[1] * B[2] + A[3], lambda A, B, v: A[1] - B[2] + A[3]),
    "dtype": (lambda A, B, v: A[1].astype(gp.float32).astype(gp.float64),
              lambda A, B, v: A[1].astype(gp.float16).astype(gp.float64)),
    "reduce_axis": (lambda A, B, v: (A[1:3, :2] * 2.0).sum(axis=0),
                    lambda A, B, v: (A[1:3, :2] * 2.0).sum(axis=1)),
    "leaf_dtype": (lambda A, B, v: A[1] + v.astype(gp.float64),
                   lambda A, B, v: A[1] + v.view(gp.int32).astype(gp.float64)),
    "scalar_dtype": (lambda A, B, v: v > 2.0, lambda A, B, v: A[1] > 2.0),
    "view_op": (lambda A, B, v: (A[1:3, :4] + 1.0).T.reshape(8) + 1.0,
                lambda A, B, v: (A[1:3, :4] + 1.0)[::-1].reshape(8) + 1.0),
}
READ = {            # ... that the reader reads: it answers with the walk's signature
    "view_shape": (lambda A, B, v: (A[1:3, :4] + 1.0).T.reshape(8) + 1.0,
                   lambda A, B, v: (A[1:5, :2] + 1.0).T.reshape(8) + 1.0),
    "view_arg": (lambda A, B, v: (A[1] + 1.0)[2:10] * 2.0,
                 lambda A, B, v: (A[1] + 1.0)[5:13] * 2.0),
    "reduce_shape": (lambda A, B, v: (A[1:3] * 2.0).sum(axis=0),
                     lambda A, B, v: (A[1:5] * 2.0).sum(axis=0)),
}


@pytest.mark.parametrize("name", list(CHECKED) + list(READ))
def test_a_reader_answers_another_shape_as_the_walk(readers, name):
    walks, walk = readers
    A, B, v = statement_arrays("cpu")
    taught, other = CHECKED.get(name) or READ[name]
    _teach(lambda: taught(A, B, v)._node)
    node = other(A, B, v)._node
    want = walk(node)
    assert want[0] != walk(taught(A, B, v)._node)[0]     # (the case is what it says)
    del walks[:]
    same_walk(cs.recall(node), want)
    assert bool(walks) == (name in CHECKED)


def test_one_reader_for_every_length(readers):
    """durbin's ``y[:k] += alpha * flip(y[:k])`` for a growing k: one reader."""
    walks, walk = readers
    y = gp.asarray(np.arange(100.0), device="cpu")
    for k in range(1, 60):
        node = (y[:k] + 0.25 * gp.flip(y[:k]))._node
        same_walk(cs.recall(node), walk(node))
    assert len(walks) == cs._MAKE_AT


def test_a_node_met_again_must_be_the_same_node(readers):
    """The reader of t * t (t met twice) must not read (x + 1.5) * (x + 2.5)."""
    walks, walk = readers
    x = gp.asarray(np.arange(8.0), device="cpu")
    _teach(lambda: (lambda t: t * t)(x + 1.5)._node)
    node = ((x + 1.5) * (x + 2.5))._node
    del walks[:]
    got = cs.recall(node)
    same_walk(got, walk(node))
    assert walks
    assert sorted(float(s.arg) for s in got[2]) == [1.5, 2.5]


def test_a_graph_sharing_more_is_walked(readers):
    """The reader of (x + a) * (x + b) must not read t * t (t = x + c): the walk numbers
    t's second use as a node met again, so the reader steps aside."""
    walks, walk = readers
    x = gp.asarray(np.arange(8.0), device="cpu")
    _teach(lambda: ((x + 1.5) * (x + 2.5))._node)
    t = x + 4.0
    node = (t * t)._node
    del walks[:]
    same_walk(cs.recall(node), walk(node))
    assert walks


def test_a_hint_of_too_many_shapes_is_walked(readers, monkeypatch):
    """Graphs of one hint that keep missing its readers get new ones, then none."""
    monkeypatch.setattr(remembered, "_MAKES_MAX", 3)
    walks, walk = readers
    A, B, v = statement_arrays("cpu")
    ops = ["add", "subtract", "multiply", "maximum", "minimum", "hypot"]
    for op in ops:
        f = getattr(gp, op)
        for k in range(cs._MAKE_AT + 1):
            node = (f(A[k % 8], B[1]) + 1.0)._node
            same_walk(cs.recall(node), walk(node))
    h = (node.kind, node.op, node.dtype, node.size)
    assert cs._BY_HINT[h] is remembered.COLD and cs._MADE[h] == 3


LOOPS = {
    "seidel_row": lambda M, k: M.__setitem__(
        (k % 6 + 1, slice(1, -1)),
        (M[k % 6, :-2] + M[k % 6, 1:-1] + M[k % 6, 2:] + M[k % 6 + 1, 2:]
         + M[k % 6 + 2, 1:-1]) / 5.0),
    "inplace_row": lambda M, k: M[k % 7].__iadd__(0.5 * M[k % 7 + 1] - M[k % 7 + 2] * 0.25),
    "growing": lambda M, k: M[0].__setitem__(slice(0, k % 9 + 1),
                                             M[1, :k % 9 + 1] * 2.0 + M[0, :k % 9 + 1]),
    "column_reduce": lambda M, k: M[:, k % 5].__setitem__(slice(None),
                                                          M[:, 5:8].sum(axis=1) * 0.1),
}


@pytest.mark.parametrize("name", list(LOOPS))
def test_replayed_statement_loops_match_numpy(name):
    """A loop of statements long enough for readers (and their compiled functions) to
    take over, against the same loop on NumPy, the state checked every few steps."""
    rng = np.random.default_rng(7)
    a = rng.standard_normal((9, 10))
    g = gp.asarray(a, device="cpu")
    step = LOOPS[name]
    for k in range(3 * cs._MAKE_AT + 5):
        step(a, k)
        step(g, k)
        if k % 11 == 0 or k >= 3 * cs._MAKE_AT:
            check(g, a)


def test_replayed_materializations_match_numpy(readers):
    """Elementwise groups materialized in a loop (their values read back each step), past
    the walks after which a reader answers, against NumPy."""
    walks, walk = readers
    rng = np.random.default_rng(3)
    a = rng.standard_normal((6, 9))
    g = gp.asarray(a, device="cpu")
    for k in range(3 * cs._MAKE_AT):
        want = np.maximum(a[k % 5] * (k + 0.5), a[k % 5 + 1]) - 1.0
        got = gp.maximum(g[k % 5] * (k + 0.5), g[k % 5 + 1]) - 1.0
        check(got, want)
    assert len(walks) < 3 * cs._MAKE_AT     # (readers answered some)
