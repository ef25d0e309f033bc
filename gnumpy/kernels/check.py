"""Compile checks without a GPU: render and NVRTC-compile (to sm_90 cubin) the CUDA kernel
of a group the CPU backend runs.  Enabled by ``config.check_kernels``
(``GNUMPY_CHECK_KERNELS=1``); the test suite turns it on, so CPU-only CI compiles every
kernel the tests generate.  A compile error raises, failing the test that made the kernel.
"""
from __future__ import annotations

from .._graph import layout as L
from . import build, render_misc
from .codegen import header
from .compile import KERNEL_NAME

ARCH = "90"
SM_COUNT = 132
BLOCKS_PER_SM = 8
_cache = build.KernelCache(ARCH, None)
checked = {"groups": 0}


def _fake_ptr(o):
    return 1 << 20      # 256-byte aligned: the vectorized variants get compiled


def check_group(group, dest=None) -> None:
    """Render and compile the kernel(s) the CUDA backend would use for `group`."""
    checked["groups"] += 1
    if group.kind == "barrier":
        return _check_barrier(group.barrier)
    # the CPU backend calls this just before it runs the group, when the group's
    # dependencies are realized, exactly as the CUDA backend lowers it
    mod, plan = build.plan_group(group, _fake_ptr, SM_COUNT, BLOCKS_PER_SM, dest)
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

