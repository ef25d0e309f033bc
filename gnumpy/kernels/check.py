"""Compile checks without a GPU: render and NVRTC-compile (to sm_90 cubin) the CUDA kernel
of each group the CPU backend runs.  ``config.check_kernels`` (``GNUMPY_CHECK_KERNELS``):

* ``all``: every distinct kernel is compiled;
* ``1`` / ``cover``: a kernel is compiled when it brings something not compiled before, an
  expression fragment (op, input dtype, output dtype), a load/store dtype, or a kernel
  skeleton (the plan's structure with the expressions left out).  Every line of generated
  code is then compiled at least once, in a small fraction of the time (the test suite
  generates tens of thousands of distinct kernels, mostly recombinations).

The test suite turns coverage mode on, so CPU-only CI compiles the code every test
generates; a compile error raises in the test that produced the kernel.
"""
from __future__ import annotations

from .._config import config
from .._graph import layout as L
from . import build, render_misc
from .codegen import header
from .compile import KERNEL_NAME

ARCH = "90"
SM_COUNT = 132
BLOCKS_PER_SM = 8
_cache = build.KernelCache(ARCH, None)
_seen: set = set()
checked = {"groups": 0, "compiled": 0}


def _fake_ptr(o):
    return 1 << 20      # 256-byte aligned: the vectorized variants get compiled


def _novel(plan) -> bool:
    if config.check_kernels == "all":
        return True
    spec = plan.spec
    keys = [("skeleton",) + tuple(x for x in plan.key[3:])]
    for e, dt in zip(spec.exprs, spec.dtypes):
        if e[0] == "op":
            keys.append(("op", e[1], e[2], dt, e[3]))
        else:
            keys.append((e[0], dt))
    new = [k for k in keys if k not in _seen]
    _seen.update(new)
    return bool(new)


def check_group(group, dest=None) -> None:
    """Render and compile the kernel(s) the CUDA backend would use for `group`."""
    checked["groups"] += 1
    if group.kind == "barrier":
        return _check_barrier(group.barrier)
    # the CPU backend calls this just before it runs the group, when the group's
    # dependencies are realized, exactly as the CUDA backend lowers it
    mod, plan = build.plan_group(group, _fake_ptr, SM_COUNT, BLOCKS_PER_SM, dest)
    if _novel(plan):
        checked["compiled"] += 1
        _cache.get(plan.key, lambda: mod.source(plan, KERNEL_NAME))


def _check_barrier(node) -> None:
    dt = node.dtype
    pre = header("gn_core.cuh") + header("gn_math.cuh") + (
        header("gn_complex.cuh") if dt.kind == "c" else "")
    if node.op in ("cumsum", "cumprod"):
        axis, inc = node.arg
        inner = L.prod(node.shape[axis + 1:])
        kind = "thread" if inner > 1 else "block"
        key = ("scan", node.op, dt, kind, bool(inc), 256)
        _cache.get(key, lambda: render_misc.scan_source(node.op, dt, kind, inc, 256,
                                                        KERNEL_NAME, pre))
    elif node.op == "matmul":
        _cache.get(("matmul", dt), lambda: render_misc.matmul_source(dt, KERNEL_NAME, pre))
    else:
        from ..backends import barriers
        lister = barriers.kernels_of(node.op)
        for key, render in (lister(node) if lister is not None else ()):
            if key not in _seen:
                _seen.add(key)
                checked["compiled"] += 1
                _cache.get(key, lambda: render(KERNEL_NAME))
