"""Program replays (``backends/cuda_program``): a materialization with library calls in it
(a product under elementwise work, a softmax over a product; a write whose value holds
one) replayed as a whole on the fake CUDA backend: the same kernels and library calls, in
the same order, as the general path, without a schedule after the first time.  The values are
checked against NumPy by the emulator's ``library_programs`` (tests/emu_programs.py)."""
import numpy as np
import pytest

import gnumpy as gp
from gnumpy._graph import ir
from test_fast_path import fake  # noqa: F401 - the fake CUDA backend fixture
from test_products import cublas_calls, schedules  # noqa: F401 - fixtures


def _arrays(dev, *shapes):
    g = np.random.default_rng(7)
    out = [gp.asarray(g.standard_normal(s), device=dev) for s in shapes]
    gp.evaluate(*out)
    return out


def _layers(x, w1, b1, w2, i):
    h = gp.maximum(x @ w1 + b1 * i, 0)
    z = h @ w2 + 0.5
    m = gp.max(z, axis=-1, keepdims=True)
    e = gp.exp(z - m)
    return h, e / gp.sum(e, axis=-1, keepdims=True)


def _shared(s, b, i):
    t = s * (1.0 + i) + 1.0
    return t, (t @ b) + (t.T @ b)


def _root_call(w, v, i):
    t = w * (i - 10.0) - 1.0
    return t, t.T @ (v + 1.0)


def _add_rows(v, h, w, i):
    v[2:] += gp.hstack(((h[2:] + i) @ w, (h[2:] - i) @ w)) * 0.5    # reads v[2:] itself
    return v, v


def _sorted_copy(y, i):
    y[:30] = gp.sort(y[30:] * (i - 9.0))        # a call as the value: then a copy
    return y, y


def _two_roots(a, x, y, i):
    t = a * (1.0 + i) - 2.0
    return t, (t @ x + 1.0, y @ t.T - 1.0)     # several roots: mvt's kind


def _mean_kept(a, w, i):
    m = a.mean(axis=0)                          # a reduction the caller keeps
    return m, gp.maximum((a - m + i) @ w, 0)


def _sum_into(r, w, v, i):
    r[i % 2 * 2] = ((w + i) @ v).sum()          # a reduction's kernel writes it
    return r, r


CASES = {
    # name: (shapes, program(arrays, i) -> (an operand the caller keeps, the result or a
    # tuple of results, materialized together))
    "layers": ([(16, 40), (40, 300), (300,), (300, 90)],
               lambda a, i: _layers(*a, i)),
    "shared_operand": ([(300, 300), (300, 40)], lambda a, i: _shared(*a, i)),
    "call_as_root": ([(300, 90), (300,)], lambda a, i: _root_call(*a, i)),
    "write_reading_itself": ([(16, 180), (16, 300), (300, 90)],
                             lambda a, i: _add_rows(*a, i)),
    "write_of_a_call": ([(60,)], lambda a, i: _sorted_copy(*a, i)),
    "write_of_a_reduction": ([(4,), (90, 300), (300,)], lambda a, i: _sum_into(*a, i)),
    "several_roots": ([(300, 300), (300,), (300, 300)], lambda a, i: _two_roots(*a, i)),
    "kept_reduction": ([(200, 300), (300, 90)], lambda a, i: _mean_kept(*a, i)),
}


def _run(be, cublas_calls, schedules, arrays, program, programs):  # noqa: F811
    out = []
    with gp.config.override(fast_programs=programs):
        for i in range(20):             # (a reader of the graph is made after 16 walks)
            be.launches.clear()
            cublas_calls.clear()
            schedules.clear()
            kept, ys = program(arrays, i)
            ys = ys if isinstance(ys, tuple) else (ys,)
            gp.evaluate(*ys)
            out.append(([(k, g, b) for k, g, b, _ in be.launches],
                        [(c[0], [a for a in c[1] if not isinstance(a, int) or a < 1 << 20])
                         for c in cublas_calls if not c[0].startswith(("create", "set"))],
                        len(schedules), kept._node.kind, {y._node.kind for y in ys}))
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_a_program_replays_what_the_general_path_runs(fake, cublas_calls, schedules,  # noqa: F811
                                                       name):
    dev, be = fake
    shapes, program = CASES[name]
    arrays = _arrays(dev, *shapes)
    general = _run(be, cublas_calls, schedules, arrays, program, False)
    be.fast.cache.clear()
    replayed = _run(be, cublas_calls, schedules, arrays, program, True)
    for i, (g, r) in enumerate(zip(general, replayed)):
        assert g[0] == r[0], i          # the same kernels, grids and blocks
        assert g[1] == r[1], i          # the same library calls (pointers left out)
        assert g[0] and (g[1] or name == "write_of_a_call")      # (a sort: no cuBLAS)
        assert g[3] == r[3] and g[4] == r[4] == {ir.LEAF}, i    # a kept operand realized
        assert name not in ("layers", "kept_reduction") or r[3] == ir.LEAF  # as the
        #                                                   general path leaves it
    assert all(g[2] for g in general)
    assert replayed[0][2] == 1 and not any(r[2] for r in replayed[1:])
    assert any(k[0] == "program" for k in be.fast.cache)


def test_a_program_follows_the_options(fake, cublas_calls, schedules):  # noqa: F811
    """An option that changes plans (the block size) drops the programs kept: a replay
    after the change launches what the general path launches under the new options."""
    dev, be = fake
    arrays = _arrays(dev, (16, 40), (40, 300), (300,), (300, 90))
    layers = CASES["layers"][1]
    with gp.config.override(block_size=64):
        general = _run(be, cublas_calls, schedules, arrays, layers, False)[-1][0]
    with gp.config.override(fast_programs=True):
        for i in range(3):
            gp.evaluate(layers(arrays, i)[1])
        before = list(be.launches)
        with gp.config.override(block_size=64):
            be.launches.clear()
            gp.evaluate(layers(arrays, 5)[1])
            after = [(k, g, b) for k, g, b, _ in be.launches]
    assert after == general
    assert [(k, g, b) for k, g, b, _ in before] != after


def _constant_params(dev, be):
    """A vector in memory and a function giving the float parameters of the launches
    that computing an expression of it makes (its constants, sorted)."""
    x = gp.asarray(np.arange(4.0), device=dev)
    gp.evaluate(x)

    def params(expr):
        be.launches.clear()
        gp.evaluate(expr())
        return sorted(float(a) for _, _, _, args in be.launches for a in args
                      if isinstance(a, (float, np.floating)))
    return x, params


def test_one_constant_met_twice_is_not_two_constants(fake):  # noqa: F811
    """A replay kept for ``x * s + s`` (one constant node read twice, a kernel parameter
    taken once) is not the replay of ``x * a + b``: which constants are one node is part
    of the signature.  Both launch the general path's parameters."""
    dev, be = fake
    x, params = _constant_params(dev, be)
    for i in range(20):                 # (readers made)
        s = gp.full((4,), 2.0 + i, device=dev)
        params(lambda: x * s + s)
    a, b = (gp.full((4,), v, device=dev) for v in (3.0, 5.0))
    replayed = params(lambda: x * a + b)
    with gp.config.override(fast_stages=1):     # (options changed: no replay kept)
        saved, be.fast = be.fast, None
        try:
            general = params(lambda: x * a + b)
        finally:
            be.fast = saved
    assert replayed == general and 3.0 in replayed and 5.0 in replayed


def test_constants_apart_are_not_served_by_a_replay_built_where_they_were_one(fake):  # noqa: F811
    """A reader made from ``x * a + b`` gives the walk's signature, constants apart
    numbered apart, only to graphs whose constants are apart: ``x * a + a`` once took it,
    and where its replay was built then (the replays gone after an option changed, the
    readers kept) it took one parameter for both, so the next ``x * a + b`` replayed
    ``x * b + b``."""
    dev, be = fake
    x, params = _constant_params(dev, be)
    for i in range(20):                 # (readers made)
        a, b = (gp.full((4,), v + i, device=dev) for v in (3.0, 5.0))
        assert params(lambda: x * a + b) == [3.0 + i, 5.0 + i]
    with gp.config.override(block_size=128):
        pass                            # (the replays go, the readers stay)
    s = gp.full((4,), 7.0, device=dev)
    assert params(lambda: x * s + s) == [7.0]
    a, b = (gp.full((4,), v, device=dev) for v in (3.0, 5.0))
    assert params(lambda: x * a + b) == [3.0, 5.0]
