"""Compile checks without a GPU: render and NVRTC-compile (to sm_90 cubin) the CUDA kernel
of each group the CPU backend runs.  ``config.check_kernels`` (``GNUMPY_CHECK_KERNELS``):

* ``all``: every distinct kernel is compiled;
* ``1`` / ``cover``: a kernel is compiled when it brings something not compiled before, an
  expression fragment (op, input dtype, output dtype), a load/store dtype, or a kernel
  skeleton (the plan's structure with the expressions left out).  Every line of generated
  code is then compiled at least once, in a small fraction of the time (the test suite
  generates tens of thousands of distinct kernels, mostly recombinations).

The test suite turns coverage mode on, so CPU-only CI compiles the code every test
generates; a compile error fails the test whose batch is compiled and names the test that
made the kernel.

Kernels are compiled in batches (``flush``): one NVRTC program holds up to ``BATCH``
pending kernels, each in a namespace of its own under its own name, so the fixed cost of a
compile (starting NVRTC, parsing the helper headers) is paid once per batch.  The check
compiles with ``-Ofast-compile=max`` (front end, NVVM and ptxas to an sm_90 cubin, with the
least optimization): about 3x faster than the backends' optimized compile.  The test
suite lets kernels of several tests share a batch and flushes at the end of each module;
each kernel remembers the test that made it (``origin``).  When a batch fails, its kernels
are compiled one by one and the first failing one raises its own error, naming its test.
A kernel that compiled is remembered on disk (a marker under the kernel cache, keyed like a
cubin plus ``check``), so a warm rerun compiles nothing; so is each coverage key a compiled
kernel brought, so that processes sharing the cache (test workers) compile a fragment once.
"""
from __future__ import annotations

from .._config import config
from .._graph import layout as L
from ..backends import barriers
from . import cache, cache_key, render_misc
from . import build
from .compile import KERNEL_NAME, compile_cubin, nvrtc_version, options
from .plan import FixedKey, skeleton

ARCH = "90"
SM_COUNT = 132
BLOCKS_PER_SM = 8
_seen: set = set()
_done: set = set()           # (structural key, codegen options) already checked here
_pending: list = []          # (source, disk marker digest, origin, coverage keys, fma)
BATCH = 24                   # flush beyond this many pending kernels (NVRTC's time per
                             # kernel is lowest for batches of about 8 to 30)
origin = ""                  # what is making kernels now (the test suite: the test's id)
checked = {"groups": 0, "compiled": 0, "batches": 0}


class _Submit:
    """``_cache.get(key, render)``: queue `render()`'s source for the next batch."""

    @staticmethod
    def get(key, render, keys=()):
        """`keys`: the coverage keys the kernel brings (marked on disk once it compiled)."""
        full = (key, config.codegen_items())
        if full in _done:
            return
        _done.add(full)
        src = render()
        parts = cache_key.parts(src, ARCH, cache.known_nvrtc_version(nvrtc_version),
                                options(ARCH, config.fma), config.codegen_items())
        parts["check"] = "compiled"
        dg = cache_key.digest(parts)
        if cache.disk_get(dg) is not None:
            cache.counters.disk_hits += 1
            return
        if _pending and _pending[-1][4] != config.fma:
            flush()                 # one batch, one set of compile options
        _pending.append((src, dg, origin, tuple(keys), config.fma))
        if len(_pending) >= BATCH:
            flush()


_cache = _Submit()


def _split(src: str):
    """(the helper headers, the rest) of a kernel source: the headers end at the last
    include guard's ``#endif``."""
    i = src.rfind("#endif  // GN_")
    if i < 0:
        return "", src
    j = src.index("\n", i) + 1
    return src[:j], src[j:]


def _joined(sources) -> str:
    out = []
    for i, src in enumerate(sources):
        head, body = _split(src)
        out.append(f"{head}\nnamespace gn_check{i} {{\n"
                   f"{body.replace(KERNEL_NAME, f'{KERNEL_NAME}_{i}')}\n}}\n"
                   f"#undef GN_EPILOGUE\n")
    return "".join(out)


def flush() -> None:
    """Compile the pending kernels (one NVRTC program); raise the first failing kernel's
    NVRTC error, naming the test (``origin``) that made it."""
    if not _pending:
        return
    batch = _pending[:]
    _pending.clear()
    checked["batches"] += 1
    cache.counters.misses += len(batch)
    try:
        if len(batch) == 1:
            raise RuntimeError("one kernel: compile it alone")
        _, dt = compile_cubin(_joined([b[0] for b in batch]), ARCH, batch[0][4], quick=True)
        cache.counters.compile_seconds += dt
    except RuntimeError:
        for src, _, made_by, _, fma in batch:   # the culprit raises its own error here
            try:
                _, dt = compile_cubin(src, ARCH, fma, quick=True)
            except RuntimeError as e:
                raise RuntimeError(f"a kernel made by {made_by or 'this process'}: {e}") \
                    from e
            cache.counters.compile_seconds += dt
    for _, dg, _, keys, _ in batch:
        cache.disk_put(dg, b"ok")
        for k in keys:
            cache.disk_put(_cover_digest(k), b"ok")


def _cover_digest(key) -> str:
    """The disk marker of a coverage key: some compiled kernel brought it."""
    return cache_key.digest({"cover": repr(key),
                             "nvrtc": str(cache.known_nvrtc_version(nvrtc_version)),
                             "options": repr(config.codegen_items())})


def _fake_ptr(o):
    return 1 << 20      # 256-byte aligned: the vectorized variants get compiled


def _novel(plan):
    """The coverage keys `plan`'s kernel brings that no compiled kernel brought before
    (empty: nothing new); True with ``check_kernels="all"``."""
    if config.check_kernels == "all":
        return True
    spec = plan.spec
    keys = [("skeleton", skeleton(plan.key))]
    for e, dt in zip(spec.exprs, spec.dtypes):
        if e[0] == "op":
            keys.append(("op", e[1], e[2], dt, e[3]))
        else:
            keys.append((e[0], dt))
    new = [k for k in keys if k not in _seen]
    _seen.update(new)
    # keys another process sharing the cache already compiled
    return [k for k in new if cache.disk_get(_cover_digest(k)) is None]


def check_group(group, dest=None) -> None:
    """Render and compile the kernel(s) the CUDA backend would use for `group`."""
    checked["groups"] += 1
    if group.kind == "barrier":
        return _check_barrier(group.barrier)
    # the CPU backend calls this just before it runs the group, when the group's
    # dependencies are realized, exactly as the CUDA backend lowers it
    mod, plan = build.plan_group(group, _fake_ptr, SM_COUNT, BLOCKS_PER_SM, dest)
    new = _novel(plan)
    if new:
        checked["compiled"] += 1
        _cache.get(plan.key, lambda: mod.source(plan, KERNEL_NAME),
                   new if new is not True else ())


def _check_barrier(node) -> None:
    dt = node.dtype
    if node.op in ("cumsum", "cumprod"):
        axis, inc = node.arg
        inner = L.prod(node.shape[axis + 1:])
        kind = "thread" if inner > 1 else "block"
        key = FixedKey(render_misc.scan_source, (node.op, dt, kind, bool(inc), 256))
        _cache.get(key, lambda: key.render(KERNEL_NAME))
    else:
        lister = barriers.kernels_of(node.op)
        for key in (lister(node) if lister is not None else ()):
            if key not in _seen:
                _seen.add(key)
                checked["compiled"] += 1
                _cache.get(key, lambda: key.render(KERNEL_NAME))
