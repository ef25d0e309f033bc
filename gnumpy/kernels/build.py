"""From a scheduled group to a compiled kernel and its launch: lower, plan, look up the
kernel caches (memory, then disk), render and compile on a miss.

Used by the CUDA backend to run groups, and by CPU-only CI (``compile_only``) to render
and NVRTC-compile every kernel the tests generate without a GPU.
"""
from __future__ import annotations

import time

from .._config import config
from . import cache, cache_key, render_ew, render_reduce, render_rows
from .codegen import preamble
from .compile import KERNEL_NAME, compile_cubin, nvrtc_version, options
from .lower import lower_group


class KernelCache:
    """Compiled kernels of one architecture; `loader(cubin)` -> a launchable kernel."""

    def __init__(self, arch: str, loader):
        self.arch = arch
        self.loader = loader
        self.mem = {}

    def get(self, key, render):
        """The kernel for structural `key`; `render()` gives its source on a miss."""
        key = (key, config.codegen_items())
        k = self.mem.get(key)
        if k is not None:
            cache.counters.memory_hits += 1
            return k
        src = render()
        opts = options(self.arch, config.fma)
        parts = cache_key.parts(src, self.arch, cache.known_nvrtc_version(nvrtc_version),
                                opts, config.codegen_items())
        dg = cache_key.digest(parts)
        t0 = time.perf_counter()
        cubin = cache.disk_get(dg)
        if cubin is None:
            real = nvrtc_version()              # NVRTC is loaded now anyway
            if cache.remember_nvrtc_version(real):
                parts = cache_key.parts(src, self.arch, real, opts, config.codegen_items())
                dg = cache_key.digest(parts)
            cache.counters.misses += 1
            cubin, dt = compile_cubin(src, self.arch, config.fma)
            cache.counters.compile_seconds += dt
            cache.counters.last_compile_seconds = dt
            cache.disk_put(dg, cubin)
        else:
            cache.counters.disk_hits += 1
        k = self.loader(cubin) if self.loader is not None else cubin
        if cubin is not None:
            cache.counters.last_disk_load_seconds = time.perf_counter() - t0
        self.mem[key] = k
        return k


def plan_group(group, ptr_of, sm_count, blocks_per_sm, dest=None, sync=False):
    """(renderer module, plan) for an elementwise, reduce or rows group; the plan is a
    plan.Plan (the interface the backends call), its key the kernel's cache key.  `sync`:
    an elementwise write into `dest` that reads dest's memory, as one block that loads
    before it stores (``render_ew.SYNC_MAX``)."""
    spec = lower_group(group, dest)
    block = config.block_size
    if spec.kind == "ew":
        return render_ew, render_ew.plan(spec, block, config.vector_loads, ptr_of, sync)
    if spec.kind == "rows":
        return render_rows, render_rows.plan(spec, sm_count, blocks_per_sm,
                                             config.vector_loads, ptr_of)
    return render_reduce, render_reduce.plan(spec, block, sm_count, blocks_per_sm,
                                             config.vector_loads, ptr_of)


def source_of(group, ptr_of=lambda o: 0, sm_count=132, blocks_per_sm=8,
              headers=True) -> str:
    """The CUDA source of `group`'s kernel (without the helper headers if not `headers`)."""
    _, plan = plan_group(group, ptr_of, sm_count, blocks_per_sm)
    src = plan.source(KERNEL_NAME)
    if not headers:
        src = src.replace(preamble(plan.spec), "/* gnumpy helper headers */\n", 1)
    return src
