"""Statements replay: writes into views, in-place operators and element updates.

Two halves.  On the fake CUDA backend (test_fast_path's), every statement kind launches the
same kernel with the same arguments whether it is replayed or planned by the general path,
while the written offsets move (offsets are launch arguments, not part of the signature).
On the default backend, sequences of small statements (the loops of stencils and solvers)
give NumPy's values, with the written view aliasing the operands in every way.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gnumpy as gp
from gnumpy import _elide
from gnumpy._graph import ir
from helpers import check

try:
    from test_fast_path import fake  # noqa: F401 - the fake CUDA backend fixture
except (ImportError, pytest.skip.Exception) as e:   # the CPU half still runs
    _WHY = str(e)

    @pytest.fixture
    def fake():
        pytest.skip(f"the fake CUDA backend needs the cuda extra: {_WHY}")

# ---------------------------------------------------------------- replay == general path

STATEMENTS = {
    # name: (setup arrays -> state, statement(state, k))
    "jacobi": (lambda: {"A": np.arange(64.0), "B": np.zeros(64)},
               lambda s, k: s["B"].__setitem__(slice(1, -1), 0.33333 * (
                   s["A"][:-2] + s["A"][1:-1] + s["A"][2:]))),
    "row_update": (lambda: {"M": np.arange(100.0).reshape(10, 10)},
                   lambda s, k: s["M"].__setitem__((k % 8 + 1, slice(1, -1)),
                                                   s["M"][k % 8, 1:-1] + s["M"][k % 8 + 2, :-2])),
    "row_iadd": (lambda: {"M": np.arange(100.0).reshape(10, 10)},
                 lambda s, k: _iadd(s["M"], (k % 8 + 1, slice(1, -1)),
                                    s["M"][k % 8, 1:-1] * 2.0)),
    "element": (lambda: {"S": np.arange(40.0).reshape(4, 10)},
                lambda s, k: _iadd(s["S"], (3, k % 9 + 1), s["S"][3, k % 9])),
    "element_div": (lambda: {"S": np.arange(40.0).reshape(4, 10)},
                    lambda s, k: _idiv(s["S"], (3, k % 9 + 1), 9.0)),
    "copy_view": (lambda: {"A": np.arange(64.0), "B": np.zeros(64)},
                  lambda s, k: s["B"].__setitem__(slice(k % 4, 32 + k % 4), s["A"][k % 8:32 + k % 8])),
    "scalar_fill": (lambda: {"A": np.zeros(64, np.float32)},
                    lambda s, k: s["A"].__setitem__(slice(k % 5, None, 2), 1.5 + k)),
    "in_place_aligned": (lambda: {"A": np.arange(64.0)},
                         lambda s, k: s["A"].__setitem__(slice(k % 3, 40), s["A"][k % 3:40] * 0.5)),
    "dot_update": (lambda: {"C": np.arange(64.0).reshape(8, 8) / 64},
                   lambda s, k: _isub(s["C"], (k % 4 + 4, 3),
                                      gp.dot(s["C"][k % 4 + 4, :3], s["C"][3, :3]))),
    "divide_by_element": (lambda: {"C": np.arange(64.0).reshape(8, 8) + 1},
                          lambda s, k: _idiv(s["C"], (k % 4 + 4, 3), s["C"][3, 3])),
    "row_minus_mean": (lambda: {"M": np.arange(100.0).reshape(10, 10)},
                       lambda s, k: s["M"].__setitem__(k % 8 + 1, s["M"][k % 8 + 1] -
                                                       s["M"][k % 8 + 1].mean())),
    "int_column": (lambda: {"I": np.arange(60, dtype=np.int32).reshape(6, 10)},
                   lambda s, k: _iadd(s["I"], (slice(None), k % 10), 3)),
    # reductions stored by their epilogue into a strided destination in other memory
    "row_sums_into_column": (lambda: {"X": np.arange(48.0).reshape(6, 8),
                                      "Y": np.zeros((6, 5))},
                             lambda s, k: s["Y"].__setitem__((slice(None), k % 5),
                                                             s["X"].sum(1) * 0.5 + k)),
    # the value reads the written row shifted (a Gauss-Seidel row): computed into a
    # temporary, then copied, at every row
    "shifted_row": (lambda: {"M": np.arange(100.0).reshape(10, 10)},
                    lambda s, k: _iadd(s["M"], (k % 8 + 1, slice(1, -1)),
                                       s["M"][k % 8 + 1, 2:] + s["M"][k % 8, 1:-1])),
    "shifted_column_sum": (lambda: {"M": np.arange(100.0).reshape(10, 10)},
                           lambda s, k: s["M"].__setitem__((slice(1, None), k % 9),
                                                           s["M"][:-1, k % 9] + s["M"].sum(1)[:-1])),
    # ... and into their own memory: the reduction reads the destination's buffer
    "col_sums_into_own_row": (lambda: {"X": np.arange(48.0).reshape(6, 8) / 8},
                              lambda s, k: s["X"].__setitem__(k % 6, s["X"][:, ::-1].sum(0))),
}


def _iadd(a, key, v):
    a[key] += v


def _idiv(a, key, v):
    a[key] /= v


def _isub(a, key, v):
    a[key] -= v


def _launches(be, dev, name, fast_on, n=6):
    setup, stmt = STATEMENTS[name]
    s = {k: gp.asarray(v, device=dev) for k, v in setup().items()}
    gp.evaluate(*s.values())
    saved = be.fast
    if not fast_on:
        be.fast = None
    try:
        out = []
        for k in range(n):
            be.launches.clear()
            stmt(s, k)
            gp.evaluate(*s.values())
            out.append([(kern, grid, block, [int(a) if isinstance(a, (int, np.integer)) and
                                             not isinstance(a, bool) else a for a in args])
                        for kern, grid, block, args in be.launches])
        return out, s
    finally:
        be.fast = saved


def _norm(launches, bufs):
    """Pointers as (buffer number, byte offset): fresh temporaries differ between runs."""
    starts = sorted(bufs)

    def place(p):
        for i, b in enumerate(starts):
            if b <= p < b + (1 << 16):
                return ("buf", i, p - b)
        return ("tmp",)
    out = []
    for stmt in launches:
        out.append([(kern, grid, block, [place(a) if type(a) is int and a >= 1 << 20 else
                                         (float(a) if not isinstance(a, complex) else a)
                                         for a in args]) for kern, grid, block, args in stmt])
    return out


@pytest.mark.parametrize("name", list(STATEMENTS))
def test_write_replay_matches_general_path(fake, name):  # noqa: F811
    dev, be = fake
    general, s1 = _launches(be, dev, name, False)
    be.fast.cache.clear()
    replayed, s2 = _launches(be, dev, name, True)
    g = _norm(general, [a._node.buf.ptr for a in s1.values()])
    r = _norm(replayed, [a._node.buf.ptr for a in s2.values()])
    assert len(g) == len(r)
    for k, (a, b) in enumerate(zip(g, r)):
        assert len(a) == len(b), (k, a, b)
        for (k1, g1, b1, a1), (k2, g2, b2, a2) in zip(a, b):
            assert k1 is k2 and g1 == g2 and b1 == b2, k
            assert a1 == a2, (k, a1, a2)


def test_moving_offsets_reuse_one_signature(fake):  # noqa: F811
    """A row update whose row moves each iteration is one cache entry: the offsets travel
    with the pointers.  (Rows longer than a sequence takes: ``cuda_sequence.VECTOR_MAX``;
    shorter ones are one sequence type, tests/test_sequences.py.)"""
    dev, be = fake
    M = gp.asarray(np.arange(22000.0).reshape(20, 1100), device=dev)
    gp.evaluate(M)
    be.fast.cache.clear()
    for i in range(1, 19):
        M[i, 1:-1] = M[i - 1, 1:-1] * 0.5 + M[i + 1, 2:]
    assert len(be.fast.cache) == 1


def test_statement_is_one_kernel(fake):  # noqa: F811
    """``a[k] += b`` with b a temporary reading a: one kernel (b is computed inside the
    write); the element update pair of a Gauss-Seidel sweep: one kernel for the pair (the
    first statement's write waits, and the second, writing the same element, folds it
    into its value), run when the next statement writes elsewhere."""
    dev, be = fake
    S = gp.asarray(np.arange(40.0).reshape(4, 10), device=dev)
    gp.evaluate(S)

    def on(a):          # the launches with a pointer into a's memory (about one in three
        b = a._node.buf     # runs of the suite on 2 workers had another launch here)
        return [x for x in be.launches
                if any(isinstance(v, (int, np.integer)) and b.ptr <= int(v) < b.ptr + b.size
                       for v in x[3])]
    for j in range(1, 5):
        be.launches.clear()
        S[3, j] += S[3, j - 1]
        assert on(S) == []
        S[3, j] /= 9.0
        assert on(S) == []
        gp.evaluate(S)
        assert len(on(S)) == 1
    M = gp.asarray(np.arange(100.0).reshape(10, 10), device=dev)
    gp.evaluate(M)
    be.launches.clear()
    M[4, 1:-1] += M[3, :-2] + M[5, 2:]          # other rows: no conflict, one kernel
    gp.evaluate(M)
    assert len(on(M)) == 1


def test_element_written_onto_itself_launches_nothing(fake):  # noqa: F811
    """``t[i, j] = max(t[i, j], other)`` keeping the element (NPBench's nussinov), and
    ``a[k] = a[k]`` for a view: the memory already holds the value, no kernel runs."""
    dev, be = fake
    S = gp.asarray(np.arange(40.0).reshape(4, 10), device=dev)
    gp.evaluate(S)
    be.launches.clear()
    S[3, 4] = S[3, 4]
    S[1:3] = S[1:3]
    S[:, ::2] = S[:, ::2]
    assert be.launches == []
    S[3, 4] = S[3, 5]               # another element: one kernel
    gp.evaluate(S)
    assert len(be.launches) == 1
    S[3, 4] = S[3, 4].astype(np.float32)    # a rounding cast: not a no-op (the write
    gp.evaluate(S)                          # computes the cast)
    assert len(be.launches) > 1


def test_write_of_several_kernels_replays(fake):  # noqa: F811
    """A write whose value needs a reduction (a solver's dot-product update) is a replay
    after the first time, at any row: one kernel, the reduction's epilogue storing into
    the element; with a reduction before it, that one runs into a slot first."""
    dev, be = fake
    C = gp.asarray(np.arange(64.0).reshape(8, 8), device=dev)
    gp.evaluate(C)
    be.fast.cache.clear()
    for i in range(4, 8):
        gp.stats.reset()
        C[i, 3] -= gp.dot(C[i, :3], C[3, :3])
        gp.evaluate(C)                  # (the statement's write waits until then)
        assert gp.stats.groups == 1 and gp.stats.by_kind["reduce"] == 1
    for i in range(4, 8):
        gp.stats.reset()
        C[i, 3] -= gp.dot(C[i, :3] - C[i, :3].mean(), C[3, :3])
        gp.evaluate(C)
        assert gp.stats.groups == 2 and gp.stats.by_kind["reduce"] == 2
    from gnumpy.backends import cuda_replay
    stages = [v for v in be.fast.cache.values() if type(v) is cuda_replay.Stages]
    assert len(stages) == 2 and len(be.fast.cache) == 2


def _plans(monkeypatch):
    """A counter of the general path's plans (``build.plan_group`` calls)."""
    from gnumpy.kernels import build
    n = [0]
    real = build.plan_group

    def counted(*a, **k):
        n[0] += 1
        return real(*a, **k)
    monkeypatch.setattr(build, "plan_group", counted)
    return n


def test_groups_of_a_larger_schedule_replay(fake, monkeypatch):  # noqa: F811
    """Materializing several arrays at once, and a write whose value takes more groups
    than one replay holds (``fast_stages=1``; with no program replays, which would replay
    the several roots as a whole): each group replays after the first time, planning
    nothing, with the launches the general path makes."""
    dev, be = fake
    C = gp.asarray(np.arange(64.0).reshape(8, 8), device=dev)
    gp.evaluate(C)
    plans = _plans(monkeypatch)
    with gp.config.override(fast_stages=1, fast_programs=False):
        for i in range(4, 8):
            if i == 6:
                plans[0] = 0
            a = C[i] * 2 + 1
            b = C[i].sum() + C[3]
            gp.evaluate(a, b)
            p, q = C[i] * 3.0, C[i] - C[3]       # siblings: one kernel of two outputs
            gp.evaluate(p, q)
            C[i, 3] -= gp.dot(C[i, :3] - C[i, :3].mean(), C[3, :3])
    assert plans[0] == 0
    from gnumpy.backends import cuda_replay
    assert any(type(k[0]) is int and k[0] == 2 and type(v) is cuda_replay.Stages
               for k, v in be.fast.cache.items())
    gp.evaluate(C)              # (the loop's last write)
    be.fast.cache.clear()
    be.launches.clear()
    with gp.config.override(fast_stages=1):
        C[5, 3] -= gp.dot(C[5, :3] - C[5, :3].mean(), C[3, :3])
        gp.evaluate(C)          # (the statement's write waits until then)
        replayed = list(be.launches)
        saved, be.fast = be.fast, None
        try:
            be.launches.clear()
            C[5, 3] -= gp.dot(C[5, :3] - C[5, :3].mean(), C[3, :3])
            gp.evaluate(C)
            general = list(be.launches)
        finally:
            be.fast = saved
    assert [(k, g, b) for k, g, b, _ in replayed] == [(k, g, b) for k, g, b, _ in general]


# ---------------------------------------------------------------- values against NumPy

def _run_both(prog, arrays):
    g = {k: gp.asarray(v) for k, v in arrays.items()}
    n = {k: v.copy() for k, v in arrays.items()}
    kept_g, kept_n = prog(gp, g), prog(np, n)
    for k in arrays:        # (a GPU kernel may contract a*b+c into one rounding)
        np.testing.assert_allclose(g[k].get(), n[k], rtol=1e-12, atol=1e-12)
    for a, b in zip(kept_g, kept_n):
        np.testing.assert_allclose(np.asarray(a.get() if hasattr(a, "get") else a), b,
                                   rtol=1e-12, atol=1e-12)


def test_reductions_written_into_views_match_numpy():
    """A reduction whose epilogue stores straight into the destination: strided and
    reversed destinations, one element reading itself, and destinations whose buffer the
    reduction reads (those go through memory of their own first)."""
    def prog(xp, d):
        x, y, z = d["x"], d["y"], d["z"]
        for k in range(3):
            y[::2, k] = x.sum(1) + k                # a strided column, other memory
            y[::-2, 4] = x.max(1) * y[::-2, 4]      # reversed, reading dest aligned
            x[0, 0] = x.sum()                       # one element, reading all of x
            x[1, :] = x[:, ::-1].sum(0) / 9         # a row of the memory it reduces
            x[:, 2] = x.sum(1) - x[:, 2]            # a column of it, aligned epilogue
            z[k] -= xp.dot(z[k, :4], z[4, :4])      # a solver's dot update (1 element)
            z[k, :] = z[:k + 1].sum(0)              # rows of the memory it reads
        return []
    rng = np.random.default_rng(9)
    _run_both(prog, {"x": rng.standard_normal((9, 7)), "y": rng.standard_normal((18, 5)),
                     "z": rng.standard_normal((5, 6))})


def test_kept_temporary_keeps_its_values():
    """``t = a[k] + b; a[k] = t`` writes t's values, and t keeps them afterwards, through
    later writes to a."""
    def prog(xp, d):
        a = d["a"]
        t = a[2:6] + 1.0
        a[2:6] = t
        a[2:6] = 0.0
        u = a[3] * 2.0
        a[3] = u
        a[3] = -7.0
        return [t, u]
    _run_both(prog, {"a": np.arange(10.0)})


def test_a_temporary_view_of_a_lazy_temporary_is_computed_by_the_write():
    """``y[:] = reshape(f(t), s)`` with t a lazy array reading y (NPBench's stockham
    butterfly): the temporary view and its base, held by nothing else, are computed by
    the write itself; a base that is named, viewed elsewhere or read by another pending
    array keeps its values after the write."""
    def prog(xp, d):
        y, w = d["y"], d["w"]
        kept = []
        for i in range(3):
            t = xp.reshape(xp.transpose(xp.reshape(y, (2, 2, 4))), (16,)) * w
            y[:] = xp.reshape(xp.reshape(t, (2, 8)) * 2.0 + 1.0, (16,))     # all temporary
            p = xp.reshape(t, (4, 4)) - y.reshape(4, 4)
            y[:] = p.reshape(16)                                            # a named base
            kept.append(p)
            q = (y * 3.0).reshape(2, 8)
            qt = q.T                                                        # a view kept
            y[:] = q.reshape(16)
            kept.append(qt)
            r = xp.reshape(y[::-1] + 0.5, (4, 4))
            s = r + 1.0                                                     # read by another
            del r
            y[:] = xp.reshape(xp.reshape(y[::-1] + 0.5, (4, 4)), (16,))
            kept.append(s)
        return kept
    rng = np.random.default_rng(3)
    _run_both(prog, {"y": rng.standard_normal(16), "w": rng.standard_normal(16)})


def test_readers_apart_each_keep_their_values():
    """Pending arrays reading the written memory, apart or one through another: each
    keeps its values (the ones reading it only through another stay lazy)."""
    def prog(xp, d):
        y, w = d["y"], d["w"]
        kept = []
        for i in range(2):
            u1, u2 = y * 2.0, y[::-1] + 1.0
            u3 = u1 * u2
            u4 = xp.reshape(u1, (4, 4)).T + 1.0
            y[:] = w[::-1] if i else w * 0.5        # written at once, or deferred
            kept += [u1, u2, u3, u4]
        return kept
    rng = np.random.default_rng(4)
    _run_both(prog, {"y": rng.standard_normal(16), "w": rng.standard_normal(16)})


def test_a_temporary_base_is_not_computed_apart(fake):  # noqa: F811
    """The butterfly statement launches two kernels: its twiddled input (a pending array
    reading y), then the write computing the product straight into y (its base, a
    temporary, is not computed into memory of its own first, nor a reader reached only
    through the twiddled input)."""
    dev, be = fake
    y = gp.asarray(np.arange(16.0), device=dev)
    w = gp.asarray(np.linspace(0.0, 1.0, 16), device=dev)
    m = gp.asarray(np.array([[1.0, 2.0], [3.0, 4.0]]), device=dev)
    gp.evaluate(y, w, m)
    for i in range(2):
        be.launches.clear()
        t = gp.reshape(gp.transpose(gp.reshape(y, (2, 2, 4)), (1, 0, 2)), (16,)) * w
        y[:] = gp.reshape(m @ gp.reshape(t, (2, 8)), (16,))
        gp.evaluate(y)
        assert len(be.launches) == 2


def test_in_place_operand_named_is_not_elided():
    """``a[k] += e`` with e a named lazy array reading a: e keeps its values after the
    write (only a temporary is computed inside the write)."""
    def prog(xp, d):
        a = d["a"]
        e = a[1:5] * 2.0
        a[1:5] += e
        a[1:5] += e
        return [e]
    _run_both(prog, {"a": np.arange(8.0)})


def test_shifted_overlap_reads_before_writing():
    """Writes whose value reads the written memory shifted (a[1:] = a[:-1] + ...) see
    every old value, as NumPy's temporaries do."""
    def prog(xp, d):
        a, b = d["a"], d["b"]
        a[1:] += a[:-1]
        b[1:-1] = b[:-2] + b[1:-1] + b[2:]
        a[::2] = a[::-2] * 1.0
        return []
    _run_both(prog, {"a": np.arange(9.0), "b": np.arange(12.0) ** 2})


def test_column_sweeps_interleaved_with_their_reads():
    """Column writes reading neighbouring columns of the same matrix (a recursive filter,
    NPBench's deriche): the columns interleave in memory without sharing an element, so
    the value is computed straight into the column; columns and slices that do share
    elements (same stride, offset a multiple of it) keep NumPy's copy semantics."""
    def prog(xp, d):
        y, z = d["y"], d["z"]
        for j in range(2, 9):
            y[:, j] = 0.5 * y[:, j - 1] + 0.25 * y[:, j - 2] + z[:, j]
        for j in range(6, -1, -1):
            y[:, j] += y[:, j + 2] * 0.125
        y[1:, 0] = y[:-1, 0] * 2.0            # one column, shifted: shares elements
        z[::2, 3] = z[1::2, 3] + z[::2, 4]     # every other row: interleaved
        z.T[1, 2:] = z.T[1, :-2]               # a strided row of the transpose, shifted
        return []
    rng = np.random.default_rng(7)
    _run_both(prog, {"y": rng.random((6, 9)), "z": rng.random((6, 9))})


@pytest.mark.parametrize("width", [10, 1100])
def test_overlapping_write_replays_per_offset_pattern(fake, monkeypatch, width):  # noqa: F811
    """A write whose value reads the written memory shifted replays (one synced kernel up
    to render_ew.SYNC_MAX = 1024 elements, else a temporary, then the copy) with nothing
    planned once its pattern of offsets relative to the destination was seen; a new
    pattern asks the overlap question again."""
    dev, be = fake
    M = gp.asarray(np.arange(10.0 * width).reshape(10, width), device=dev)
    gp.evaluate(M)
    from gnumpy._graph import realize as R
    asked = []
    real = R._overlaps_unaligned

    def counted(value, dest):
        asked.append(1)
        return real(value, dest)
    monkeypatch.setattr(R, "_overlaps_unaligned", counted)
    plans = _plans(monkeypatch)
    kernels = 1 if width - 2 <= 1024 else 2
    for i in range(1, 9):
        be.launches.clear()
        M[i, 1:-1] += M[i, 2:] + M[i - 1, 1:-1]
        gp.evaluate(M)
        assert len(be.launches) == kernels
    assert len(asked) == 1 and plans[0] == kernels
    M[3, 1:-1] += M[3, :-2] * 2.0            # another pattern
    gp.evaluate(M)
    assert len(asked) == 2


def test_column_write_reading_its_neighbour_is_one_kernel(fake):  # noqa: F811
    dev, be = fake
    Y = gp.asarray(np.arange(60.0).reshape(6, 10), device=dev)
    gp.evaluate(Y)
    for j in range(2, 6):
        be.launches.clear()
        Y[:, j] = 0.5 * Y[:, j - 1] + Y[:, j - 2]
        gp.evaluate(Y)
        assert len(be.launches) == 1
    be.launches.clear()
    Y[1:, 0] = Y[:-1, 0] * 2.0              # overlapping: one block loads, then stores
    gp.evaluate(Y)
    assert len(be.launches) == 1


def test_reused_lazy_scalar_is_computed_once():
    """A lazy 0-d coefficient broadcast into statement after statement is materialized at
    its 8th such use (then every statement reads one element); one used a few times stays
    lazy; either way the values are NumPy's, also after its inputs are overwritten."""
    from gnumpy._graph import bounds as R
    x = gp.asarray(np.linspace(0.5, 1.5, 5))
    xn = x.get()
    k = gp.exp(-x[2]) * 2.0 + 1.0           # lazy, 0-d
    kn = np.exp(-xn[2]) * 2.0 + 1.0
    w = gp.asarray(np.arange(1.0, 4.0))
    few = gp.sqrt(w[1]) - 0.5               # (reads memory nothing here writes)
    fewn = np.sqrt(2.0) - 0.5
    rows = gp.asarray(np.arange(30.0).reshape(10, 3))
    rn = np.arange(30.0).reshape(10, 3)
    for i in range(R.SCALAR_REUSE_MAX - 1):
        rows[i] = k * rows[i] + few
        rn[i] = kn * rn[i] + fewn
        assert k._node.kind != ir.LEAF
    x[2] = 100.0                            # k's input overwritten: k keeps its value
    xn[2] = 100.0
    rows[7] = rows[7] * k
    rn[7] = rn[7] * kn
    assert k._node.kind == ir.LEAF and few._node.kind != ir.LEAF
    rows[8] = 1.0 + k
    rn[8] = 1.0 + kn
    check(rows, rn)
    check(k, kn)
    check(few, fewn)
    check(x, xn)


def test_gauss_seidel_and_cholesky_steps():
    def prog(xp, d):
        A, C = d["A"], d["C"]
        for i in range(1, 5):
            A[i, 1:-1] += (A[i - 1, :-2] + A[i - 1, 1:-1] + A[i, 2:] + A[i + 1, 1:-1])
            for j in range(1, 6):
                A[i, j] += A[i, j - 1]
                A[i, j] /= 9.0
        for i in range(6):
            for j in range(i):
                C[i, j] -= xp.dot(C[i, :j], C[j, :j])
                C[i, j] /= C[j, j]
        return []
    rng = np.random.default_rng(5)
    _run_both(prog, {"A": rng.random((6, 8)), "C": rng.random((6, 6)) + 6 * np.eye(6)})


def test_temporary_detection():
    """The elision test itself: a stack temporary is one, a named operand, an operand
    in a container or one passed through operator.iadd is not."""
    import operator
    seen = []

    class Probe:
        def __iadd__(self, other):
            seen.append(_elide.temporary(other))
            return self

    class Obj:
        pass
    p = Probe()
    p += Obj()
    named = Obj()
    p += named
    box = [Obj()]
    p += box[0]
    operator.iadd(p, Obj())
    assert seen == ([True, False, False, False] if _elide.ENABLED else [False] * 4)


def test_stored_temporary_detection():
    """``a[k] = expr``: a stack temporary is one; a named value, one stored twice in a
    chained assignment, one in a container, and one passed by a direct call or
    operator.setitem are not."""
    import operator
    seen = []

    class Probe:
        def __setitem__(self, key, value):
            seen.append(_elide.stored_temporary(value))

    class Obj:
        pass
    p = Probe()
    p[0] = Obj()
    named = Obj()
    p[0] = named
    p[0] = other = Obj()
    box = [Obj()]
    p[0] = box[0]
    p.__setitem__(0, Obj())
    operator.setitem(p, 0, Obj())
    assert other is not None
    expected = [True, False, False, False, False, False]
    assert seen == (expected if _elide.STORE_ENABLED else [False] * 6)


def test_sole_base_detection():
    """A view's base held by that view alone is; one with a name, another view, or in a
    container is not."""
    x = gp.asarray(np.arange(6.0))
    v = (x * 2.0).reshape(2, 3)
    assert _elide.sole_base(v)
    named = x + 1.0
    assert not _elide.sole_base(named.reshape(3, 2))
    w = (x - 1.0).reshape(3, 2)
    other = w._base.T
    assert not _elide.sole_base(w)
    box = [w]
    del other
    assert _elide.sole_base(w) and box


@pytest.mark.parametrize("stmt", ["a[1:5] = a[2:6] * 2.0", "a[3] = a[4] * 2.0",
                                  "a[3] += a[4]", "a[1:5] = a[2:6] + b[:4]"])
def test_stored_temporaries_are_elided_through_setitem(stmt, monkeypatch):
    """``a[k] = expr`` through gnumpy's own __setitem__: the stack temporary is detected
    there (not only by a probe), so the write does not re-point it at the written memory;
    a named value is re-pointed.  Values stay NumPy's."""
    from gnumpy import _array
    calls = []
    real = _array._reads_written
    monkeypatch.setattr(_array, "_reads_written", lambda v, d: calls.append(1) or real(v, d))
    x = np.linspace(-1.0, 2.0, 8)
    a, b = gp.asarray(x), gp.asarray(x[::-1].copy())
    exec(stmt, {"a": a, "b": b})
    ref = x.copy()
    exec(stmt, {"a": ref, "b": x[::-1].copy()})
    check(a, ref)
    assert calls == ([] if _elide.STORE_ENABLED else [1])
    calls.clear()
    t = a[2:6] * 3.0
    a[1:5] = t                  # named: it must keep its values after the write
    assert calls == [1]
    check(t, ref[2:6] * 3.0)


def test_named_value_written_keeps_its_values():
    """A named lazy value written through a view keeps its values after later writes,
    whatever its form: the temporary test must not take it for one."""
    def prog(xp, d):
        a = d["a"]
        t = a[1:5] * 2.0 + a[2:6]
        a[1:5] = t
        a[:] = -1.0
        u = a[7] + 3.0
        a[7] = u
        a[7] = 0.0
        w = [a[8:] - 1.0]
        a[8:] = w[0]
        a[8:] = 5.0
        return [t, u, w[0]]
    _run_both(prog, {"a": np.arange(10.0)})


_OPS = st.sampled_from(["+=", "-=", "*=", "=", "=t"])


@settings(max_examples=40, deadline=None)
@given(steps=st.lists(st.tuples(_OPS, st.integers(0, 5), st.integers(1, 6),
                                st.integers(-2, 2), st.floats(-3, 3, allow_nan=False)),
                      min_size=1, max_size=6))
def test_statement_sequences_match_numpy(steps):
    """Random sequences of slice statements, each reading the array it writes at some
    shift, some keeping a temporary alive: NumPy's values after every statement."""
    base = np.linspace(-2.0, 3.0, 16)

    def prog(xp, d):
        a = d["a"]
        kept = []
        for op, start, ln, shift, c in steps:
            dst = slice(start, start + ln)
            s0 = min(max(start + shift, 0), 16 - ln)
            src = a[s0:s0 + ln] * c
            if op == "+=":
                a[dst] += a[s0:s0 + ln] * c
            elif op == "-=":
                a[dst] -= src
            elif op == "*=":
                a[dst] *= c
            elif op == "=t":
                t = a[s0:s0 + ln] + c
                a[dst] = t
                kept.append(t)
            else:
                a[dst] = src
            kept.append(src)
        return kept
    _run_both(prog, {"a": base})


def test_tridiagonal_sweep_as_vadv():
    """The statement shapes of NPBench's vadv (a Thomas solve along the last axis of 3-D
    fields: column slices written and read back a step later, a kept temporary assigned to
    a buffer it reads, then reused): NumPy's values on both backends (vadv mismatched
    NumPy on CUDA before the write path was rebuilt)."""
    def prog(xp, d):
        w, u, out = d["w"], d["u"], d["out"]
        n0, n1, nk = out.shape
        c = xp.zeros((n0, n1, nk))
        r = xp.zeros((n0, n1, nk))
        acc = xp.zeros((n0, n1))
        diag = 3.0
        for k in range(nk):
            lo = -0.25 * (w[1:, :, k] + w[:-1, :, k])
            up = 0.25 * (w[1:, :, k + 1] + w[:-1, :, k + 1])
            c[:, :, k] = up * 0.5
            rhs = diag * u[:, :, k] + out[:, :, k] - lo * (u[:, :, k] - u[:, :, max(k - 1, 0)])
            if k == 0:
                inv = 1.0 / (diag - c[:, :, k])
                r[:, :, k] = rhs * inv
            else:
                inv = 1.0 / (diag - lo - c[:, :, k] - c[:, :, k - 1] * lo)
                r[:, :, k] = (rhs - r[:, :, k - 1] * lo) * inv
            c[:, :, k] = c[:, :, k] * inv
        for k in range(nk - 1, -1, -1):
            col = r[:, :, k] - c[:, :, k] * acc[:, :] if k < nk - 1 else r[:, :, k]
            acc[:] = col
            out[:, :, k] = diag * (col - u[:, :, k])
        return [acc]
    rng = np.random.default_rng(11)
    _run_both(prog, {"w": rng.random((6, 5, 8)), "u": rng.random((5, 5, 7)),
                     "out": rng.random((5, 5, 7))})


@pytest.mark.skipif(gp.asarray(0).device.kind != "cpu", reason="the CPU backend's replay")
def test_cpu_write_replay_equals_general_path():
    """The CPU backend's write replay (generated NumPy calls per signature, reductions
    included) gives the general evaluator's values bit for bit, for every program above;
    the kernel check is off here, as outside the tests, so reductions replay too."""
    from gnumpy._device import backend
    be = backend(gp.asarray(0).device)
    rng = np.random.default_rng(3)
    arrays = {"A": rng.random((6, 8)), "C": rng.random((6, 6)) + 6 * np.eye(6)}

    def prog(d):
        A, C = d["A"], d["C"]
        for i in range(1, 5):
            A[i, 1:-1] += (A[i - 1, :-2] + A[i - 1, 1:-1] + A[i, 2:] + A[i + 1, 1:-1])
            A[i, 2] = A[i, 1:4].mean() - A[i, 0]
            for j in range(1, 6):
                A[i, j] += A[i, j - 1]
                A[i, j] /= 9.0
        for i in range(6):
            for j in range(i):
                C[i, j] -= gp.dot(C[i, :j], C[j, :j])
                C[i, j] /= C[j, j]
            C[i, i] = gp.sqrt(C[i, i] - gp.dot(C[i, :i], C[i, :i]))
    out = {}
    saved = be.fast
    with gp.config.override(check_kernels=False):
        for mode in ("general", "replay"):
            be.fast = None if mode == "general" else saved
            saved.cache.clear()
            d = {k: gp.asarray(v) for k, v in arrays.items()}
            prog(d)
            out[mode] = {k: v.get() for k, v in d.items()}
            if mode == "replay":
                assert len(saved.cache) >= 4     # the statements replayed
    be.fast = saved
    for k in arrays:
        np.testing.assert_array_equal(out["replay"][k], out["general"][k])


def test_cpu_replay_signature_tells_view_sources_apart():
    """Writes whose values differ only in the shape a view of a lazy expression starts
    from (a fuzzer finding: a reshape's signature lacked its source's shape)."""
    def prog(xp, d):
        a = d["a"]
        for src in ((1, 3), (3, 1), (3,)):
            t = (a[3:6].reshape(src) * 2.0).reshape(3)      # a view of a lazy product
            a[0:3] = t + a[3:6]
        return []
    with gp.config.override(check_kernels=""):
        _run_both(prog, {"a": np.arange(6.0)})


def test_cpu_replay_survives_its_first_graph_being_computed():
    """The compiled function of a signature outlives the graph it was compiled from: a
    view node of that graph, computed later (it becomes a leaf), must not change what the
    function does for the next graph of that signature."""
    xn = np.arange(24.0).reshape(2, 3, 4)
    x = gp.asarray(xn)[:, ::2]                    # a reshape of this layout is a copy
    y = gp.asarray(np.zeros((4, 4)))
    for k in range(3):
        t = x.reshape(4, 4)                       # an array whose value is a view node
        y[...] = t + k                            # a write whose value holds it
        gp.evaluate(t)                            # the view node is computed
        check(y, xn[:, ::2].reshape(4, 4) + k)
        check(t, xn[:, ::2].reshape(4, 4))
    for k in range(5):                            # replayed from the third
        u = (x - k).reshape(4, 4)[::-1]
        check(u, (xn[:, ::2] - k).reshape(4, 4)[::-1])


@pytest.mark.parametrize("kind", ["views", "casts", "complex", "zero_d", "empty", "where"])
def test_cpu_materialization_replay_equals_general_path(kind):
    """Materializations on the CPU backend replay a compiled function from a signature's
    third time: the values are the general evaluator's bit for bit, with NaN, inf and -0,
    for views, casts, complex, 0-d and empty graphs."""
    from gnumpy._device import backend
    be = backend(gp.asarray(0).device)
    if be.name != "cpu":
        pytest.skip("needs the CPU backend (the CUDA path replays kernels: test_fast_path)")
    rng = np.random.default_rng(9)
    base = rng.standard_normal((5, 6))
    base[0, :3] = [np.nan, np.inf, -0.0]
    progs = {
        "views": lambda x, k: ((x[:, ::2] * k).T[::-1] + x[1:4, :5]) - 0.5,
        "casts": lambda x, k: (x * k).astype(np.float32) + np.float32(1.5),
        "complex": lambda x, k: gp.sqrt(x + 1j * k) * (2 - 1j),
        "zero_d": lambda x, k: gp.exp(x[2, 3] * k) - x[0, 2],
        "empty": lambda x, k: x[:0] * k + 1.0,
        "where": lambda x, k: gp.where(x > k, x, -x) / (x - k),
    }
    prog = progs[kind]
    saved = be.fast
    out = {}
    with gp.config.override(check_kernels=False):
        for mode in ("general", "replay"):
            be.fast = None if mode == "general" else saved
            saved.cache.clear()
            saved.seen.clear()
            vals = []
            for k in range(5):
                x = gp.asarray(base)
                r = prog(x, 0.5 + k)
                gp.evaluate(r)
                vals.append(r.get())
            out[mode] = vals
            if mode == "replay":
                assert len(saved.cache) == 1        # compiled once, replayed after
    be.fast = saved
    for a, b in zip(out["replay"], out["general"]):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)
        pa = (a.real, a.imag) if a.dtype.kind == "c" else (a,)
        pb = (b.real, b.imag) if b.dtype.kind == "c" else (b,)
        for p, q in zip(pa, pb):
            np.testing.assert_array_equal(np.signbit(p), np.signbit(q))
