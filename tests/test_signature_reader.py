"""The launch fast path's remembered walks (``cuda_signature.recall``): a graph of a shape
met before is read by that shape's generated reader, which must answer what the walk
answers (signature, leaves and scalars listed in the walk's order) or step aside.  Graphs
are built on a fake CUDA device (no GPU); the values of such replays are checked on the
real backend by the test at the end."""
import numpy as np
import pytest

import gnumpy as gp
from helpers import STATEMENT_SHAPES, check, count_calls, same_walk, statement_arrays

pytest.importorskip("cuda.bindings.nvrtc",
                    reason="the fake CUDA backend needs the 'cuda' extra")
from gnumpy.backends import cuda_signature as cs, remembered  # noqa: E402
from test_fast_path import fake  # noqa: E402,F401  (the fixture)


@pytest.fixture
def readers(monkeypatch):
    """Fresh reader tables; `walks` counts the walks recall could not spare."""
    for name in ("_BY_HINT", "_SEEN", "_MADE"):
        monkeypatch.setattr(cs, name, {})
    real = cs.walk
    return count_calls(monkeypatch, cs, "walk", lambda *args: 1), real


SHAPES = {**STATEMENT_SHAPES,
          "iota": lambda A, B, v, k: A[k] + gp.arange(40, device=A.device) * (k + 1)}


@pytest.mark.parametrize("name", list(SHAPES))
def test_recall_answers_as_the_walk(fake, readers, name):
    dev, be = fake
    walks, walk = readers
    A, B, v = statement_arrays(dev)
    f = SHAPES[name]
    for k in range(cs._MAKE_AT + 8):
        node = f(A, B, v, k % 8)._node
        same_walk(cs.recall(node), walk(node))
    assert len(walks) == cs._MAKE_AT       # then the reader answered


def test_recall_of_several_roots(fake, readers):
    dev, be = fake
    walks, walk = readers
    A, B, v = statement_arrays(dev)
    for k in range(cs._MAKE_AT + 4):
        roots = [(A[k % 6, j] * 2.0 + A[k % 6, j + 1])._node for j in range(cs._ROOTS_FEW)]
        same_walk(cs.recall(None, roots), walk(None, roots))
    assert len(walks) == cs._MAKE_AT
    roots = [(A[1, j] * 2.0 + A[1, j + 1])._node for j in range(3)]     # one root fewer
    same_walk(cs.recall(None, roots), walk(None, roots))


def test_recall_of_a_chain_waits_longer(fake, readers):
    """A group of many roots (a chain of element writes) gets its reader after
    `_CHAIN_MAKE_AT` walks, not `_MAKE_AT`."""
    dev, be = fake
    walks, walk = readers
    A, B, v = statement_arrays(dev)
    n = cs._ROOTS_FEW + 3
    for k in range(cs._CHAIN_MAKE_AT + 4):
        roots = [(A[k % 6, j] * 2.0 + A[k % 6, j + 1])._node for j in range(n)]
        same_walk(cs.recall(None, roots), walk(None, roots))
    assert cs._CHAIN_MAKE_AT > cs._MAKE_AT and len(walks) == cs._CHAIN_MAKE_AT


def _teach(f):
    """Make the reader of f()'s shape."""
    for _ in range(cs._MAKE_AT + 1):
        cs.recall(f())


# each pair: the graph taught, then a graph of the same hint (root kind, op, dtype and
# tree size) that differs in one thing the signature encodes
CHECKED = {         # ... that the reader checks: it steps aside for the walk
    "op": (lambda A, B, v: A[1] * B[2] + A[3], lambda A, B, v: A[1] - B[2] + A[3]),
    "dtype": (lambda A, B, v: A[1].astype(gp.float32).astype(gp.float64),
              lambda A, B, v: A[1].astype(gp.float16).astype(gp.float64)),
    "reduce_dtype": (lambda A, B, v: (A[1:3] > 0).sum(axis=0).astype(gp.float64),
                     lambda A, B, v: (A[1:3] > 0).sum(axis=0, dtype=gp.int32)
                     .astype(gp.float64)),
    "scalar_dtype": (lambda A, B, v: v > 2.0, lambda A, B, v: A[1] > 2.0),
    "view_op": (lambda A, B, v: (A[1:3, :4] + 1.0).T.reshape(8) + 1.0,
                lambda A, B, v: (A[1:3, :4] + 1.0)[::-1].reshape(8) + 1.0),
    "same_buffer": (lambda A, B, v: A[1] * B[2], lambda A, B, v: A[1] * A[2]),
    "other_buffer": (lambda A, B, v: A[1] * A[2], lambda A, B, v: A[1] * B[2]),
    "same_place": (lambda A, B, v: A[1] * A[2], lambda A, B, v: A[1] * A[1]),
    "other_place": (lambda A, B, v: A[1] * A[1], lambda A, B, v: A[1] * A[2]),
}
READ = {            # ... that the reader reads: it answers with the walk's signature
    "view_shape": (lambda A, B, v: (A[1:3, :4] + 1.0).T.reshape(8) + 1.0,
                   lambda A, B, v: (A[1:5, :2] + 1.0).T.reshape(8) + 1.0),
    "leaf_strides": (lambda A, B, v: A[1, :12] + B[2, :12],
                     lambda A, B, v: A[1, :12] + B[:, 2]),
    "leaf_dtype": (lambda A, B, v: A[1] + v.astype(gp.float64),
                   lambda A, B, v: A[1] + v.view(gp.int32).astype(gp.float64)),
    "alignment": (lambda A, B, v: A[1, 0:8] * 3.0, lambda A, B, v: A[1, 1:9] * 3.0),
    "length": (lambda A, B, v: A[1, :8] * 3.0 + B[2, 1:9],
               lambda A, B, v: A[1, :30] * 3.0 + B[2, 1:31]),
    "scalar_shape": (lambda A, B, v: A[1] * 2.0, lambda A, B, v: A[1:3] * 2.0),
}


@pytest.mark.parametrize("name", list(CHECKED) + list(READ))
def test_a_reader_answers_another_shape_as_the_walk(fake, readers, name):
    dev, be = fake
    walks, walk = readers
    A, B, v = statement_arrays(dev)
    taught, other = CHECKED.get(name) or READ[name]
    _teach(lambda: taught(A, B, v)._node)
    node = other(A, B, v)._node
    want = walk(node)
    assert want[0] != walk(taught(A, B, v)._node)[0]     # (the case is what it says)
    del walks[:]
    same_walk(cs.recall(node), want)
    assert bool(walks) == (name in CHECKED)


def test_one_reader_for_every_length(fake, readers):
    """durbin's ``y[:k] += alpha * flip(y[:k])`` for a growing k: one reader."""
    dev, be = fake
    walks, walk = readers
    y = gp.asarray(np.arange(100.0), device=dev)
    for k in range(1, 60):
        node = (y[:k] + 0.25 * gp.flip(y[:k]))._node
        same_walk(cs.recall(node), walk(node))
    assert len(walks) == cs._MAKE_AT


def test_a_node_met_again_must_be_the_same_node(fake, readers):
    """The reader of t * t (t met twice) must not read (x + 1.5) * (x + 2.5): two nodes
    of one tree shape, each with its own scalar."""
    dev, be = fake
    walks, walk = readers
    x = gp.asarray(np.arange(8.0), device=dev)
    _teach(lambda: (lambda t: t * t)(x + 1.5)._node)
    node = ((x + 1.5) * (x + 2.5))._node
    del walks[:]
    got = cs.recall(node)
    same_walk(got, walk(node))
    assert walks
    assert sorted(float(s.arg) for s in got[2]) == [1.5, 2.5]


def test_a_graph_sharing_more_is_walked(fake, readers):
    """The reader of (x + a) * (x + b) must not read t * t (t = x + c), though every
    other check on its way holds: the walk numbers t's second use as a node met again
    (and a replay planned from t * t computes t once), so the reader steps aside."""
    dev, be = fake
    walks, walk = readers
    x = gp.asarray(np.arange(8.0), device=dev)
    _teach(lambda: ((x + 1.5) * (x + 2.5))._node)
    t = x + 4.0
    node = (t * t)._node
    del walks[:]
    same_walk(cs.recall(node), walk(node))
    assert walks


def test_hints_are_bounded(fake, readers, monkeypatch):
    dev, be = fake
    monkeypatch.setattr(remembered, "_MAX_HINTS", 3)
    x = gp.asarray(np.arange(64.0), device=dev)
    for m in range(1, 8):               # (each a hint of its own: m products, m sizes)
        node = x[:8]
        for _ in range(m):
            node = node * 2.0
        cs.recall(node._node)
        assert len(cs._SEEN) <= 3
    node = (x[:8] * 2.0)._node
    same_walk(cs.recall(node), readers[1](node))


def test_a_hint_of_too_many_shapes_is_walked(fake, readers, monkeypatch):
    """Six shapes of one hint (a sum of a product, of a sum, ...) taking turns: more
    than a hint keeps readers for, and more than it makes, so it goes to the walk,
    answering as before."""
    dev, be = fake
    walks, walk = readers
    monkeypatch.setattr(remembered, "_MAKES_MAX", 5)
    A, B, v = statement_arrays(dev)
    ops = [gp.multiply, gp.add, gp.subtract, gp.divide, gp.maximum, gp.minimum]
    shapes = [lambda f=f: f(A[2, :6], A[3, :6]).sum() for f in ops]
    node = shapes[0]()._node
    h = (node.kind, node.op, node.dtype, node.size)
    for rnd in range(1000):
        node = shapes[rnd % 6]()._node
        same_walk(cs.recall(node), walk(node))
        if cs._BY_HINT.get(h) is remembered.COLD:
            break
    assert cs._BY_HINT[h] is remembered.COLD and cs._MADE[h] == remembered._MAKES_MAX
    del walks[:]
    same_walk(cs.recall(node), walk(node))
    assert len(walks) == 1


def test_the_reader_that_answers_is_tried_first():
    """Readers are tried most recently answering first (a loop's statement takes one
    shape for a while, then another); a new reader goes first, and a hint full of
    readers drops the one that answered least recently."""
    tried = []

    def reader(name):
        def rd(graph):
            tried.append(name)
            return name if graph == name else None
        return rd
    rds = [reader("a"), reader("b"), reader("c")]
    assert remembered.answer(rds, "c") == "c" and tried == ["b", "c"]   # (after the first)
    del tried[:]
    assert remembered.answer(rds, "a") == "a" and tried == ["a"]
    assert remembered.answer(rds, "z") is None
    assert [rd("?") for rd in rds] == [None] * 3 and tried[-3:] == ["a", "c", "b"]
    tables = ({}, {}, {})
    remembered.remember("h", rds, tables, 1, lambda root, roots: reader(root), "d", None)
    remembered.remember("h", rds, tables, 1, lambda root, roots: reader(root), "e", None)
    del tried[:]
    assert [rd("?") for rd in rds] == [None] * 4 and tried == ["e", "d", "a", "c"]


@pytest.mark.parametrize("shared", [False, True])
def test_replays_read_by_readers_keep_numpy_values(shared):
    """Values, on whatever backend runs the tests (on CUDA: the readers' path): a loop of
    statements of one shape, the second half of them sharing the node the first half
    builds twice."""
    rng = np.random.default_rng(5)
    an = rng.standard_normal((30, 50))
    a = gp.asarray(an)
    for k in range(1, 29):
        c = 0.01 * k
        if shared and k > 14:
            t, tn = a[k - 1] * 0.5 + c, an[k - 1] * 0.5 + c
            a[k] = t * t - a[k + 1] * 0.5
            an[k] = tn * tn - an[k + 1] * 0.5
        else:
            a[k] = (a[k - 1] * 0.5 + c) * (a[k - 1] * 0.5 + c) - a[k + 1] * 0.5
            an[k] = (an[k - 1] * 0.5 + c) * (an[k - 1] * 0.5 + c) - an[k + 1] * 0.5
    check(a, an)
