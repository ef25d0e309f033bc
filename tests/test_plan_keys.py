"""The plan protocol (gnumpy/kernels/plan.py): a kernel's source is a function of its plan
key alone, so everything that changes the source (a planning decision, a config option) is
part of the key by construction.

Checked here on a spread of elementwise, reduction and row-group kernels: the keys are
named, typed and hashable; rendering reads no config option and nothing but the key (a
copy of the key renders the same source); and no option changes a kernel's source without
changing its key.  The fixed-function kernels' keys (``plan.FixedKey``) likewise.
"""
import copy
import pickle
import typing

import numpy as np
import pytest

import gnumpy as gp
from gnumpy._config import _OPTIONS
from gnumpy._graph.fuse import schedule
from gnumpy._graph.ir import BARRIER
from gnumpy.kernels import build, plan as P, render_ew, render_reduce, render_rows

_PTR = {"aligned": lambda o: 1 << 20, "misaligned": lambda o: (1 << 20) + 4}
_KEYS = {"ew": render_ew.EwKey, "reduce": render_reduce.ReduceKey, "rows": render_rows.RowsKey}


def _exprs():
    rng = np.random.default_rng(0)

    def a(shape, dt=np.float32):
        return gp.asarray(rng.standard_normal(shape).astype(dt))
    x, X, Y = a(4096), a((128, 256)), a((2000, 96))
    C = gp.asarray((rng.standard_normal((64, 40)) + 1j).astype(np.complex64))
    e = gp.exp(X - X.max(axis=1, keepdims=True))
    return [np.float32(2.5) * x + 1, gp.sin(x) * gp.cos(x) + x * x, x.astype(np.float16) * 3,
            gp.arange(4096, dtype=np.float32) * x, X[::2, 1:].T + 1,
            X.T.reshape(-1)[::3] + 1, X - X.mean(0), gp.where(x > 0, x, -x),
            gp.sum((x - 1) ** 2), X.sum(axis=1), Y.std(axis=0), Y.mean(0) + Y.var(0),
            gp.argmax(X, axis=0), gp.prod(C, axis=1), gp.any(X > 3, axis=0), X.T.min(axis=1),
            e / e.sum(axis=1, keepdims=True), (X - X.mean(1, keepdims=True)) / X.std(
                1, keepdims=True), a((8, 5000), np.float64) - a((8, 5000), np.float64).max(
                    1, keepdims=True), (Y - Y.mean(0)) / Y.std(0)]


def _groups():
    groups = [g for ex in _exprs() for g in schedule([ex._node]) if g.kind != "barrier"]
    kinds = {build.plan_group(g, _PTR["aligned"], 132, 8)[1].spec.kind for g in groups}
    assert kinds == set(_KEYS)
    return groups


def _plans(groups, ptr="aligned"):
    return [build.plan_group(g, _PTR[ptr], 132, 8)[1] for g in groups]


class _NoConfig:
    def __getattr__(self, name):
        raise AssertionError(f"config.{name} read while rendering: make it a plan key field")


def test_keys_are_named_typed_and_hashable():
    seen = set()
    for ptr in _PTR:
        for p in _plans(_groups(), ptr):
            key = p.key
            cls = _KEYS[p.spec.kind]
            assert type(key) is cls and not cls._field_defaults
            for name, typ in typing.get_type_hints(cls).items():
                assert isinstance(getattr(key, name), typ), (cls.__name__, name)
            assert isinstance(key.spec, P.SpecKey) and key.spec.kind == p.spec.kind
            for o in key.spec.operands + tuple(o for _, o in key.spec.outputs):
                assert isinstance(o, P.OperandKey)
            hash(key)
            assert pickle.loads(pickle.dumps(key)) == key
            seen.add(key)
    assert len(seen) > 20


def test_source_is_rendered_from_the_key_alone(monkeypatch):
    plans = _plans(_groups()) + _plans(_groups(), "misaligned")
    sources = [p.source("k") for p in plans]
    # no option is read while rendering (config is read while planning, into the key) ...
    import gnumpy._config
    import gnumpy.kernels as K
    import sys
    for name, mod in list(sys.modules.items()):
        if (name.startswith(K.__name__ + ".") or mod is gnumpy._config) and \
                hasattr(mod, "config"):
            monkeypatch.setattr(mod, "config", _NoConfig())
    # ... and nothing but the key: a copy of the key, no plan or spec, renders the same
    for p, src in zip(plans, sources):
        assert copy.deepcopy(p.key).render("k") == src
        assert pickle.loads(pickle.dumps(p.key)).render("k") == src


def test_equal_keys_render_equal_sources():
    """Sizes, strides' values and scalar values are launch arguments, not key fields."""
    def softmax(n):
        X = gp.asarray(np.ones((n, 256), np.float32))
        e = gp.exp(X - X.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    for make in (lambda n: np.float32(n) * gp.ones(4 * n, np.float32) + 1,
                 lambda n: gp.ones((n, 512), np.float32).sum(axis=1), softmax):
        (g1,), (g2,) = schedule([make(64)._node]), schedule([make(96)._node])
        p1, p2 = _plans([g1, g2])
        assert p1.key == p2.key and hash(p1.key) == hash(p2.key)
        assert p1.source("k") == p2.source("k")


def _alternatives(o):
    if o.name == "reduce_mem_hints":
        return ["", "L2::64B,lcs"]
    if o.name == "block_size":
        return [256, 1024]
    if isinstance(o.default, bool):
        return [not o.default]
    if isinstance(o.default, int):
        return [o.default * 2 if o.default else 4]
    return []


_SKIP = {"device", "cache_dir", "check_kernels", "nvtx"}


@pytest.mark.parametrize("opt", [o for o in _OPTIONS if o.name not in _SKIP and _alternatives(o)],
                         ids=lambda o: o.name)
def test_an_option_that_changes_the_source_changes_the_key(opt):
    groups = _groups()
    before = [(p.key, p.source("k")) for p in _plans(groups) + _plans(groups, "misaligned")]
    for value in _alternatives(opt):
        with gp.config.override(**{opt.name: value}):
            after = [(p.key, p.source("k")) for p in _plans(groups) +
                     _plans(groups, "misaligned")]
        for (k0, s0), (k1, s1) in zip(before, after):
            if s0 != s1:
                assert k0 != k1, f"config.{opt.name}={value!r} changes the source, not the key"


@pytest.mark.parametrize("n_masks, dt", [(60, np.bool_), (40, np.float32), (3, np.int8)])
def test_many_inputs_hold_fewer_elements_a_thread(n_masks, dt):
    """An elementwise kernel of many inputs loads fewer elements per thread (vector width
    times unroll times inputs at most HELD_MAX: NVRTC took 31.6 s on mandelbrot1's 60-mask
    kernel at 16-wide vectors unrolled 4 times); a few inputs keep the full width."""
    rng = np.random.default_rng(1)
    hs = [rng.standard_normal(4096).astype(dt) if dt != np.bool_ else rng.random(4096) > 0.5
          for _ in range(n_masks)]
    gs = [gp.asarray(h) for h in hs]
    acc, want = gs[0], hs[0]
    for g, h in zip(gs[1:], hs[1:]):                # an output of the inputs' dtype
        acc, want = (acc ^ g, want ^ h) if dt == np.bool_ else (acc + g, want + h)
    groups = [g for g in schedule([acc._node]) if g.kind != "barrier"]
    p = build.plan_group(groups[-1], _PTR["aligned"], 132, 8)[1]
    n_in = len([o for o in render_ew._operands(p.spec) if o.kind == "in"])
    full = 16 // np.dtype(dt).itemsize
    assert n_in == n_masks and n_masks * p.vec * p.unroll <= render_ew.HELD_MAX
    if n_masks == 3:
        assert p.vec == full         # (light kernels of few ops unroll once anyway)
    else:
        assert 1 < p.vec * p.unroll < full * gp.config.ew_unroll
    np.testing.assert_allclose(acc.get(), want, rtol=1e-5)


@pytest.mark.parametrize("budget", [0, 160, 64, 24])
@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_a_register_budget_unrolls_less_then_narrows(budget, dt):
    """``config.ew_held_regs`` bounds the registers a thread fills with loaded input vectors
    and operand offsets: a kernel of many shifted views unrolls less, then loads narrower
    vectors, down to scalars; a two-input kernel within the budget keeps its vectors and
    unroll.  The values never change."""
    rng = np.random.default_rng(2)
    h = rng.standard_normal((40, 96)).astype(dt)
    A = gp.asarray(h)
    with gp.config.override(ew_held_regs=budget):
        for k in (2, 9, 17):
            acc = want = None
            for i in range(k):
                di, dj = i % 5, 4 * (i // 5)
                t, w = (i + 0.5) * A[di:di + 32, dj:dj + 80], (i + 0.5) * h[di:di + 32, dj:dj + 80]
                acc, want = (t, w) if acc is None else (acc + t, want + w)
            g, = schedule([acc._node])
            p = build.plan_group(g, _PTR["aligned"], 132, 8)[1]
            ins = [o for o in render_ew._operands(p.spec) if o.kind == "in"]
            held = render_ew._held_regs(ins, len(render_ew._operands(p.spec)), p.vec,
                                        p.unroll)
            full = 16 // np.dtype(dt).itemsize
            if budget == 0 or k == 2 and budget >= 64:
                assert (p.vec, p.unroll) == (full, gp.config.ew_unroll)
            else:
                assert p.unroll == 1 or held <= budget
                assert p.vec == 1 or held <= 2 * budget
                assert p.unroll < gp.config.ew_unroll
            np.testing.assert_allclose(acc.get(), want, rtol=1e-5 if dt == np.float32
                                       else 1e-12)


def _fixed_keys():
    """The fixed-function kernels' keys, as their backends list them (barriers' kernel
    listers over lazily built nodes), plus a scan's and an integer matmul's (which the CPU
    backend runs without a barrier)."""
    from gnumpy.backends import barriers
    from gnumpy.kernels import render_misc
    rng = np.random.default_rng(1)
    x = gp.asarray(rng.standard_normal(300).astype(np.float32))
    i = gp.asarray(rng.integers(0, 300, 50))
    m = gp.asarray(rng.integers(0, 5, (7, 7)).astype(np.int32))
    arrays = [gp.sort(x), gp.argsort(x), gp.searchsorted(gp.sort(x), x), x[i], m[i % 7],
              gp.nonzero(x > 0)[0], gp.bincount(i, weights=x[:50]),
              gp.random.default_rng(3).random(100),
              gp.random.Generator(gp.random.Philox(3)).random(100),
              gp.random.Philox(key=3).random_raw(10)]
    keys = set()
    for a in arrays:
        stack = [a._node]
        while stack:
            n = stack.pop()
            stack.extend(n.srcs)
            lister = barriers.kernels_of(n.op) if n.kind == BARRIER else None
            keys.update(lister(n) if lister is not None else ())
    keys.add(P.FixedKey(render_misc.scan_source, ("cumsum", np.dtype(np.float64), "block",
                                                  True, 256)))
    keys.add(P.FixedKey(render_misc.matmul_source, (np.dtype(np.int32),)))
    return keys


def test_fixed_function_kernels_render_from_their_key_alone(monkeypatch):
    keys = _fixed_keys()
    fns = {k.fn.__name__ for k in keys}
    assert {"source", "gather_source", "matmul_source", "nz_count_source", "scan_source",
            "philox_source", "draw_source", "pcg_draw_source"} <= fns, fns
    sources = {}
    for k in keys:
        assert type(k) is P.FixedKey and isinstance(k.args, tuple)
        hash(k)
        assert pickle.loads(pickle.dumps(k)) == k
        sources[k] = k.render("k")
    import gnumpy._config
    import gnumpy.kernels as K
    import sys
    for name, mod in list(sys.modules.items()):
        if (name.startswith(K.__name__ + ".") or mod is gnumpy._config) and \
                hasattr(mod, "config"):
            monkeypatch.setattr(mod, "config", _NoConfig())
    for k, src in sources.items():
        assert copy.deepcopy(k).render("k") == src
        assert pickle.loads(pickle.dumps(k)).render("k") == src
