"""Ordered element writes (``_graph/sequence.py``, ``backends/cuda_sequence.py``): a solver
loop's element statements whose values hold small reductions wait together and run in
program order as one launch of one warp.  Here, on the fake CUDA backend (kernels compiled
by NVRTC, launches recorded): which writes a sequence takes, how many launches a loop
makes, that each launch stays within its parameter's words, and what settles a sequence.
The values are checked against NumPy by the emulator's ``ordered_element_writes`` and
``ordered_writes_special`` programs (tests/emu_programs.py, in both lane orders:
test_cuda_emulated.py)."""
import numpy as np
import pytest

import gnumpy as gp
from gnumpy._graph import realize
from gnumpy._graph import sequence as S
from gnumpy.backends import cuda_libs, cuda_sequence as CS
from helpers import StubCublas
from test_fast_path import fake  # noqa: F401 - the fake CUDA backend fixture


def _sequence_launches(be):
    return sum(1 for ln in be.launches if ln[3] == "params")


def _spd(dev, n, dtype=np.float64):
    g = np.random.default_rng(3)
    a = g.standard_normal((n, n))
    x = gp.asarray((a @ a.T + n * np.eye(n)).astype(dtype), device=dev)
    gp.evaluate(x)
    realize.settle()
    return x


def _cholesky_row(A, i):
    for j in range(i):
        A[i, j] -= gp.dot(A[i, :j], A[j, :j])
        A[i, j] /= A[j, j]


def test_a_row_of_solver_statements_is_one_launch(fake):
    """``A[i, j] -= dot(A[i, :j], A[j, :j]); A[i, j] /= A[j, j]`` along a row: each pair
    folds into one write, each write reads the ones before it through a vector, and the
    row is one launch (it was one a write)."""
    dev, be = fake
    A = _spd(dev, 20)
    n0 = len(be.launches)
    _cholesky_row(A, 12)
    assert len(S.entries) == 11 and len(be.launches) == n0     # waiting, in order
    realize.settle()
    assert len(be.launches) - n0 == 1 and _sequence_launches(be) == 1
    assert not S.entries and S.used[0] == 0


def test_long_sequences_launch_within_their_words(fake):
    """More writes than one parameter block holds: a launch each time the words run out,
    never more words than the kernel's parameter (``run`` asserts it), every write run."""
    dev, be = fake
    A = _spd(dev, 64)
    n0 = len(be.launches)
    for i in range(1, 64):
        _cholesky_row(A, i)
    realize.settle()
    v = (A[5, 3] - gp.dot(A[5, :3], A[3, :3])) / A[3, 3]
    per = 1 + len(CS.encode(A[5, 3]._node.srcs[0], v._node)[1])    # a write's words
    writes = 63 * 64 // 2
    launches = len(be.launches) - n0
    assert launches == _sequence_launches(be)
    assert -(-writes * per // CS.WORDS_MAX) <= launches <= writes // 2


def test_what_settles_a_sequence(fake):
    """A write the sequence does not take (a row), ``evaluate`` of the written array and a
    kernel of other work all run the waiting sequence first; a lazy value made meanwhile
    waits for nothing.  (Host reads: the emulator's programs.)"""
    dev, be = fake
    A = _spd(dev, 16)
    _cholesky_row(A, 5)
    assert S.entries
    t = A[5, :5] * 2.0          # lazy: no launch, the sequence still waits
    assert S.entries
    A[6, :] = 0.0               # a row: not an element write
    assert not S.entries
    _cholesky_row(A, 7)
    assert S.entries
    gp.evaluate(A)
    assert not S.entries
    _cholesky_row(A, 8)
    gp.evaluate(t + 1.0)        # other work
    assert not S.entries


def _encodes(dest, value):
    return CS.encode(dest._node if dest._node.kind == 0 else dest._node.srcs[0],
                     value._node) is not None


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_which_writes_a_sequence_takes(fake, dtype):
    """Elements of float32 and float64 whose values are elementwise expressions of
    elements, constants and sums of 1-D expressions of vectors: yes; integers, complex,
    long or 2-D reductions, library calls and lazy views under a sum: no (each is a
    launch of its own)."""
    dev, _ = fake
    x = gp.asarray(np.arange(1.0, 50.0, dtype=dtype), device=dev)
    M = gp.asarray(np.ones((6, 6), dtype), device=dev)
    big = gp.asarray(np.ones(CS.REDUCE_MAX + 1, dtype), device=dev)
    gp.evaluate(x, M, big)
    e = x[3]
    assert _encodes(e, gp.sqrt(e * 2.0 - x[1]))
    assert _encodes(e, (e - gp.dot(x[:7], x[7:14])) / x[2])
    assert _encodes(e, x[:9].sum() + gp.dot(gp.flip(x[:5]), 3.0 * x[5:10]))
    assert _encodes(e, gp.dot(x[:0], x[:0]))                        # an empty sum
    assert not _encodes(e, big.sum() + e)                           # too long
    assert not _encodes(e, M.sum() + e)                             # 2-D
    assert not _encodes(e, (M @ M)[1, 2] + e)                       # a library call
    assert not _encodes(e, (x[:4] * 2.0)[::-1].sum())               # a view of lazy work
    assert not _encodes(e, gp.max(x[:4]) + e)                       # not a sum
    i = gp.asarray(np.arange(8), device=dev)
    c = gp.asarray(np.ones(4, np.complex128), device=dev)
    assert not _encodes(i[2], i[3] + 1)
    assert not _encodes(c[1], c[2] * 2.0)


def test_types_render_and_compile(fake):
    """Every type a program met renders into one kernel that NVRTC compiles (the fake
    backend's kernel cache compiles each source), its words read in the order they are
    encoded."""
    dev, be = fake
    x = gp.asarray(np.linspace(1.0, 2.0, 40), device=dev)
    y = gp.asarray(np.linspace(1.0, 2.0, 40).astype(np.float32), device=dev)
    gp.evaluate(x, y)
    realize.settle()
    n0 = len(be.launches)
    for k in range(1, 12):
        x[k] = gp.exp(-x[k - 1]) + gp.dot(x[:k], gp.flip(x[k:2 * k])) * 1e-3
        y[k] = gp.maximum(y[k - 1], 0.5) - gp.sum(y[:k] * y[:k]) * 1e-2
        x[k + 20] = x[k] / 3.0
    realize.settle()
    assert _sequence_launches(be) >= 1 and len(be.launches) - n0 == _sequence_launches(be)
    src = CS.sequence_source(tuple(CS.TYPES), name="k")
    assert src.count("case ") == len(CS.TYPES)


def test_moving_rows_are_one_type_and_one_launch(fake):
    """A row update whose row moves each iteration (seidel's sweep): every write one
    sequence type (places and lengths are words), the sweep one launch; a row longer
    than ``VECTOR_MAX`` is a kernel of its own."""
    dev, be = fake
    M = gp.asarray(np.arange(400.0).reshape(20, 20), device=dev)
    W = gp.asarray(np.zeros((3, CS.VECTOR_MAX + 1)), device=dev)
    gp.evaluate(M, W)
    realize.settle()
    n0, t0 = len(be.launches), len(CS.TYPES)
    for i in range(1, 19):
        M[i, 1:-1] = M[i - 1, 1:-1] * 0.5 + M[i + 1, 2:]
    assert len(S.entries) == 17 and len({e[2][0] for e in S.entries}) == 1
    realize.settle()
    assert len(be.launches) - n0 == 1 and len(CS.TYPES) - t0 <= 1
    W[1, :] = W[0, :] + 1.0
    W[2, :] = W[1, :] * 2.0
    realize.settle()
    assert len(be.launches) - n0 == 3 and _sequence_launches(be) == 1


def test_readers_answer_what_the_walk_answers(fake):
    """A hint walked often gets a generated reader (``cuda_sequence._reader``): for writes
    of its structure it answers the walk's type and words, for writes of the same hint
    and another structure (other leaves, constants or sums in the same places of a tree
    of the same size and root op) nothing, so the walk answers them."""
    dev, _ = fake
    g = np.random.default_rng(5)
    x = gp.asarray(g.random(64), device=dev)
    y = gp.asarray(g.random(64).astype(np.float32), device=dev)
    M = gp.asarray(g.random((8, 40)), device=dev)
    gp.evaluate(x, y, M)

    def forms(k):
        e = x[k]
        return [
            (e, (e - gp.dot(x[:k], x[k:2 * k])) / x[1]),
            (e, (e - gp.dot(x[1:k + 1], x[k:2 * k])) / 2.0),      # a constant for a leaf
            (e, (x[2] - gp.dot(x[:k], x[k:2 * k])) / e),
            (e, (e - gp.sum(x[:k] * 2.0)) / x[1]),               # a constant in the sum
            (e, gp.sqrt(e) * 2.0 + x[k + 1]),
            (M[2, 3:3 + k], M[1, 2:2 + k] * 0.5 + M[3, 4:4 + k]),
            (M[2, 3:3 + k], M[1, 2:2 + k] * x[5] + M[3, 4:4 + k]),    # a broadcast element
            (M[2, 3:3 + k], M[1, 2:2 + k] * (x[5] + gp.dot(x[:k], x[:k])) + 1.0),
            (M[:, k], M[:, k - 1] - 1.0),                        # a column
        ]

    def node(d):
        n = d._node
        return n if n.kind == 0 else n.srcs[0]

    for k in range(2, 30):
        for d, v in forms(k):
            dn = node(d)
            want = CS._encode(dn, v._node)
            assert want is not None
            assert CS.encode(dn, v._node) == want, (k, want)
    hints = [h for h in CS._BY_HINT if CS._BY_HINT[h]]
    assert len(hints) >= 5          # readers were made, and answered from then on
    f32 = y[3]
    v32 = (f32 - gp.dot(y[:4], y[4:8])) / y[1]
    assert CS.encode(node(f32), v32._node) == CS._encode(node(f32), v32._node)


@pytest.mark.parametrize("name", ["ordered_element_writes", "ordered_writes_special",
                                  "ordered_vector_writes", "ordered_library_writes"])
def test_sequence_programs_on_the_device_under_test(name):
    """The emulator's sequence programs on the default device against NumPy: on the GPU
    machine the sequences' kernels run on the GPU itself (its memory order, its
    shuffles), on CPU CI the CPU backend's paths give the same values."""
    from emu_programs import PROGRAMS
    from helpers import check
    f, inputs = PROGRAMS[name]
    data = [mk(i) for i, mk in enumerate(inputs)]
    with np.errstate(all="ignore"):
        want = f(np, *[d.copy() for d in data])
    got = f(gp, *[gp.asarray(d.copy()) for d in data])
    assert len(got) == len(want)
    for g, w in zip(got, want):
        check(gp.asarray(g), np.asarray(w), rtol=1e-9 if np.asarray(w).dtype == np.float64
              else 2e-4, scale=float(np.nanmax(np.abs(np.asarray(w)[np.isfinite(w)]),
                                              initial=1.0)))


def test_durbins_scalars_are_computed_in_the_sequence(fake):
    """durbin: ``alpha`` (a sum over the vector the next statement rewrites) is a pending
    reader that write must compute first, and ``beta`` a scalar chain past its bound;
    each becomes an element of its own written in the sequence (``readers.defer_reader``),
    so the loop launches once per parameter block, not three times an iteration."""
    dev, be = fake
    r = gp.asarray(np.random.default_rng(2).random(200) * 0.1, device=dev)
    gp.evaluate(r)
    realize.settle()
    n0 = len(be.launches)
    y = gp.zeros(200, device=dev)
    y[0] = -r[0]
    beta, alpha = 1.0, -r[0]
    for k in range(1, 200):
        beta *= 1.0 - alpha * alpha
        alpha = -(r[k] + gp.dot(gp.flip(r[:k]), y[:k])) / beta
        y[:k] += alpha * gp.flip(y[:k])
        y[k] = alpha
        if k == 100:
            assert alpha._node.kind == 0 and S.entries     # realized, still waiting
    realize.settle()
    assert len(be.launches) - n0 < 199 // 4


def test_a_library_value_runs_ahead_of_the_sequence(fake, monkeypatch):
    """covariance's ``cov[i:, i] = cov[i, i:] = x @ Y / c``: the product (a library call
    reading memory no waiting write changes) runs when its write joins the sequence, so
    both writes of every iteration wait there: launches per parameter block, not two
    kernels an iteration.  The values, and a product that reads a row a waiting write
    changes (it runs after that write): the emulator's ``ordered_library_writes``."""
    dev, be = fake
    monkeypatch.setitem(cuda_libs._BINDINGS, "cublas", StubCublas("cublas"))
    D = gp.asarray(np.random.default_rng(4).random((30, 40)), device=dev)
    cov = gp.zeros((40, 40), device=dev)
    gp.evaluate(D, cov)
    realize.settle()
    n0, s0 = len(be.launches), realize.stats.by_kind["barrier"]
    for i in range(40):
        cov[i:, i] = cov[i, i:] = D[:, i] @ D[:, i:] / 29.0
    realize.settle()
    assert realize.stats.by_kind["barrier"] - s0 == 40          # the products
    k = len(be.launches) - n0
    assert k == _sequence_launches(be) and k <= 8, k            # every write in sequences
