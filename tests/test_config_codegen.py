"""Every option that changes generated CUDA source is part of the kernel cache keys.

The keys hold ``config.codegen_items()`` (the options marked ``codegen=True``), so an option
that changes the source of a kernel without that mark could serve a stale kernel after it
changes.  Here each other boolean or integer option is flipped and the same scheduled groups
are rendered again: their sources must not move.
"""
import numpy as np
import pytest

import gnumpy as gp
from gnumpy._config import _OPTIONS
from gnumpy._graph.fuse import schedule
from gnumpy.kernels import build

# options with no bearing on source by construction, or whose change would reach outside
# the test (the device, the cache directory, the compile check itself)
_SKIP = {"device", "cache_dir", "check_kernels", "nvtx"}


def _groups():
    rng = np.random.default_rng(0)
    x = gp.asarray(rng.standard_normal(4096).astype(np.float32))
    X = gp.asarray(rng.standard_normal((128, 256)).astype(np.float32))
    e = gp.exp(X - X.max(axis=1, keepdims=True))
    exprs = [np.float32(2.5) * x + 1, gp.sin(x) * gp.cos(x) + x * x, gp.sum((x - 1) ** 2),
             X.sum(axis=1), X.std(axis=0), e / e.sum(axis=1, keepdims=True),
             (X - X.mean(0)) / X.std(0), X[::2, 1:].T + 1]
    return [g for ex in exprs for g in schedule([ex._node]) if g.kind != "barrier"]


def _sources(groups):
    return [build.source_of(g, ptr_of=lambda o: 1 << 20) for g in groups]


def _flipped(o):
    if isinstance(o.default, bool):
        return not o.default
    if isinstance(o.default, int):
        return o.default + 1 if o.default else 2
    return None


@pytest.mark.parametrize("opt", [o for o in _OPTIONS if not o.codegen and o.name not in _SKIP
                                 and _flipped(o) is not None], ids=lambda o: o.name)
def test_options_outside_the_keys_leave_sources_alone(opt):
    groups = _groups()
    before = _sources(groups)
    with gp.config.override(**{opt.name: _flipped(opt)}):
        after = _sources(groups)
    assert before == after, f"config.{opt.name} changes generated source: mark it codegen=True"


def test_codegen_options_are_in_the_keys():
    items = dict(gp.config.codegen_items())
    assert {o.name for o in _OPTIONS if o.codegen} == set(items)
    for name in ("row_online", "row_registers", "reduce_mem_hints", "block_size"):
        assert name in items
