"""CUDA code generation without a GPU: golden sources of representative kernels, NVRTC
compiles to sm_90 cubin, and the kernel caches (hits, misses, corruption, eviction).

The golden cases live in ``tests/golden_kernels.py``; a missing or stale golden file fails.
Regenerating after an intended codegen change is a deliberate step that prints the diff:
``python3 tests/golden_kernels.py`` (``--check``: print the diffs, write nothing).
"""
import os

import numpy as np
import pytest

import gnumpy as gp
import golden_kernels
from helpers import check
from gnumpy._graph.fuse import schedule

from gnumpy.kernels import build, cache, compile as kcompile  # noqa: E402

try:        # rendering and the caches need no NVRTC; compiling does
    from cuda.bindings import nvrtc  # noqa: F401
    NVRTC = True
except ImportError:
    NVRTC = False
needs_nvrtc = pytest.mark.skipif(
    not NVRTC, reason="NVRTC missing: the 'cuda' extra (cuda-bindings, nvidia-cuda-nvrtc) "
                      "is not installed, so generated kernels are rendered and pinned but "
                      "not compiled")

GOLDEN = golden_kernels.GOLDEN
_REGEN = "python3 tests/golden_kernels.py"


@pytest.mark.parametrize("name", golden_kernels.names())
def test_golden_source(name):
    src = golden_kernels.render(name)
    path = golden_kernels.path_of(name)
    assert path.exists(), (f"no golden file {path.name}: render it deliberately with "
                           f"`{_REGEN} {name}` and review the source it prints")
    assert src == path.read_text(), (
        f"generated source of {name} changed; if intended, regenerate with "
        f"`{_REGEN} {name}` and review:\n" + golden_kernels.diff(name, src)[:4000])


def test_no_stale_golden_files():
    assert not golden_kernels.stale(), (
        f"golden files no case renders: {golden_kernels.stale()}; `{_REGEN}` removes them")


@needs_nvrtc
def test_golden_sources_compile():
    """Every golden kernel, with its helper headers, compiles to an sm_90 cubin (one NVRTC
    batch; a warm cache compiles nothing)."""
    from gnumpy.kernels import check as kcheck
    for name in golden_kernels.names():
        kcheck._cache.get(("golden", name), lambda n=name: golden_kernels.render(n, True))
    kcheck.flush()


def test_reduction_identities_come_from_the_op_table(monkeypatch):
    """The accumulators of sum, prod, any and all start from ``REDUCE_OPS[..].identity``:
    a different identity in the table changes the rendered kernel."""
    import dataclasses
    from gnumpy import _ops
    before = {n: golden_kernels.render(n) for n in ("sum_float64_rows", "prod_complex64_all",
                                                    "any_bool_rows", "all_int32_cols")}
    for rop, wrong in (("sum", 1), ("prod", 0), ("any", True), ("all", False)):
        monkeypatch.setitem(_ops.REDUCE_OPS, rop,
                            dataclasses.replace(_ops.REDUCE_OPS[rop], identity=wrong))
    for n, src in before.items():
        assert golden_kernels.render(n) != src, n


def test_scalar_values_are_parameters():
    x = gp.asarray(np.ones(100, np.float32))
    g1 = schedule([(np.float32(2.0) * x + 1)._node])[0]
    g2 = schedule([(np.float32(7.0) * x + 5)._node])[0]
    k1 = build.plan_group(g1, lambda o: 0, 132, 8)[1].key
    k2 = build.plan_group(g2, lambda o: 0, 132, 8)[1].key
    assert k1 == k2       # a new scalar reuses the kernel


def test_sizes_are_not_in_the_key():
    for n in (1000, 5000):
        x = gp.asarray(np.ones(n, np.float32))
        g = schedule([(x * 2)._node])[0]
        key = build.plan_group(g, lambda o: 0, 132, 8)[1].key
        if n == 1000:
            k0 = key
    assert key == k0


@needs_nvrtc
def test_disk_cache_hits_misses_corruption_and_eviction(tmp_path):
    with gp.config.override(cache_dir=str(tmp_path), disk_cache=True):
        x = gp.asarray(np.ones(64, np.float32))
        g = schedule([(gp.exp(x) * 3 - 1)._node])[0]
        mod, plan = build.plan_group(g, lambda o: 0, 132, 8)
        render = lambda: mod.source(plan, kcompile.KERNEL_NAME)  # noqa: E731
        cache.counters.reset()
        kc = build.KernelCache("90", None)
        kc.get(plan.key, render)
        assert cache.counters.misses == 1 and cache.counters.disk_hits == 0
        kc.get(plan.key, render)
        assert cache.counters.memory_hits == 1
        kc2 = build.KernelCache("90", None)              # a new process, in effect
        kc2.get(plan.key, render)
        assert cache.counters.disk_hits == 1 and cache.counters.misses == 1
        files = list((tmp_path / "kernels").glob("*.cubin"))
        assert len(files) == 1
        files[0].write_bytes(files[0].read_bytes()[:100])   # truncate: must be detected
        kc3 = build.KernelCache("90", None)
        kc3.get(plan.key, render)
        assert cache.counters.corrupt == 1 and cache.counters.misses == 2
        with gp.config.override(disk_cache_max_bytes=1):
            g2 = schedule([(gp.sin(x) + 2)._node])[0]
            mod2, plan2 = build.plan_group(g2, lambda o: 0, 132, 8)
            build.KernelCache("90", None).get(plan2.key,
                                              lambda: mod2.source(plan2, "gn_kernel"))
        assert cache.counters.evicted >= 1
        assert len(list((tmp_path / "kernels").glob("*.cubin"))) <= 1


@needs_nvrtc
def test_without_the_disk_cache_nothing_is_written_or_read(tmp_path):
    x = gp.asarray(np.ones(64, np.float32))
    g = schedule([(gp.cos(x) * 5 + 2)._node])[0]
    mod, plan = build.plan_group(g, lambda o: 0, 132, 8)
    render = lambda: mod.source(plan, kcompile.KERNEL_NAME)  # noqa: E731
    with gp.config.override(cache_dir=str(tmp_path), disk_cache=False):
        cache.counters.reset()
        build.KernelCache("90", None).get(plan.key, render)
        build.KernelCache("90", None).get(plan.key, render)     # a new process, in effect
        assert cache.counters.misses == 2 and cache.counters.disk_hits == 0
        assert not list(tmp_path.rglob("*.cubin"))
    with gp.config.override(cache_dir=str(tmp_path), disk_cache=True):
        build.KernelCache("90", None).get(plan.key, render)     # the same kernel, kept now
        assert len(list(tmp_path.rglob("*.cubin"))) == 1


@needs_nvrtc
def test_fma_reaches_nvrtc_and_contracts_a_multiply_add():
    # config.fma is a compile option: a*x + b compiles to other machine code with it (one
    # FFMA instead of FMUL and FADD), and the kernel key differs
    src = ('extern "C" __global__ void k(const float* a, const float* x, const float* b, '
           'float* y) { int i = threadIdx.x; y[i] = a[i] * x[i] + b[i]; }')
    plain, _ = kcompile.compile_cubin(src, "90", fma=False)
    fused, _ = kcompile.compile_cubin(src, "90", fma=True)
    assert plain != fused
    assert kcompile.options("90", True) != kcompile.options("90", False)


@needs_nvrtc
def test_minimal_is_used_and_leaves_the_cubin_as_it_was(monkeypatch):
    # ``-minimal`` is not part of the cache key (``options``): it must not change a
    # kernel's machine code, here a reduction and an elementwise kernel with float16,
    # complex and integer helpers from the headers
    if not kcompile._has_minimal():
        pytest.skip("this NVRTC has no -minimal")
    x = gp.asarray(np.arange(64, dtype=np.float16))
    z = gp.asarray(np.ones(64, np.complex64))
    for node in ((gp.cos(x) * 3).sum()._node, (abs(z * 2j) + (x.astype(np.int32) // 3))._node):
        src = build.source_of(schedule([node])[-1])
        with_minimal, _ = kcompile.compile_cubin(src, "90")
        monkeypatch.setattr(kcompile, "_has_minimal", lambda: False)
        without, _ = kcompile.compile_cubin(src, "90")
        monkeypatch.undo()
        assert with_minimal == without


def test_an_operand_read_through_levels_gets_64_bit_indices():
    # its innermost level's offset is a replay's launch argument (cuda_replay.stage's
    # LevelOff): an index width chosen at one offset must hold at any other
    a = gp.asarray(np.arange(64.0))
    v = (a[8:24].reshape(4, 4)[:, 1:3] * 2.0).reshape(8)
    g = schedule([(v + 1.0)._node])[-1]
    _, plan = build.plan_group(g, lambda o: 0, 132, 8)
    assert any(len(o.levels) > 1 for o in plan.spec.operands)
    assert not plan.idx32
    _, flat = build.plan_group(schedule([(a[8:24] * 2.0 + 1.0)._node])[-1],
                               lambda o: 0, 132, 8)
    assert flat.idx32                           # (one level: 32-bit as before)


@needs_nvrtc
def test_nvrtc_version_is_remembered_and_corrected_on_a_miss(tmp_path):
    """A warm process reads the NVRTC version from the cache directory (no NVRTC load);
    a stale remembered version is replaced by the real one at the next compile."""
    with gp.config.override(cache_dir=str(tmp_path), disk_cache=True):
        x = gp.asarray(np.ones(64, np.float32))
        g = schedule([(gp.cos(x) * 5 - 2)._node])[0]
        mod, plan = build.plan_group(g, lambda o: 0, 132, 8)
        render = lambda: mod.source(plan, kcompile.KERNEL_NAME)  # noqa: E731
        real = ".".join(str(v) for v in kcompile.nvrtc_version())
        vfile = tmp_path / "kernels" / "nvrtc-version"
        vfile.parent.mkdir(parents=True, exist_ok=True)
        vfile.write_text("1.0")                         # stale
        cache._nvrtc.clear()
        cache.counters.reset()
        build.KernelCache("90", None).get(plan.key, render)
        assert cache.counters.misses == 1 and vfile.read_text() == real
        cache._nvrtc.clear()                            # a new process
        build.KernelCache("90", None).get(plan.key, render)
        assert cache.counters.disk_hits == 1 and cache.counters.misses == 1
    cache._nvrtc.clear()


def test_cache_key_names_every_part():
    from gnumpy.kernels import cache_key
    p = cache_key.parts("src", "90", (13, 0), kcompile.options("90"), (("block_size", 256),))
    assert set(p) == {"schema", "source_sha256", "arch", "nvrtc", "options", "codegen_config"}
    q = dict(p, nvrtc="13.5")
    assert cache_key.digest(p) != cache_key.digest(q)


@needs_nvrtc
def test_chained_integer_floor_divide_and_remainder_compile():
    """NVRTC 13 never finished the vectorized unrolled loop of (x // 3) % 2 on ints while
    the helpers were inlined; they are noinline now.  Compiles each kernel, 120 s bound."""
    import signal

    def boom(*_):
        raise TimeoutError("NVRTC took over 120 s")
    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(120)
    try:
        for dt in (np.int32, np.int64, np.uint8):
            x = gp.asarray(np.arange(40, dtype=dt))
            g = schedule([((x // 3) % 2)._node])[0]
            mod, plan = build.plan_group(g, lambda o: 1 << 20, 132, 8)
            kcompile.compile_cubin(mod.source(plan, kcompile.KERNEL_NAME), "90")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@needs_nvrtc
@pytest.mark.parametrize("tiles", [True, False])
def test_vector_loop_layouts_render_and_compile(tiles):
    """config.ew_tiles: each block's unrolled vectors are a block apart (contiguous tiles,
    the default) or a grid-stride apart; the index arithmetic is checked by enumerating what
    each thread touches."""
    x = gp.asarray(np.ones(1 << 12, np.float32))
    g = schedule([(np.float32(2.5) * x + 1)._node])[0]
    B, U = 128, 4
    with gp.config.override(ew_tiles=tiles, block_size=B, ew_unroll=U, ew_light=False):
        src = build.source_of(g, ptr_of=lambda o: 1 << 20)
        if tiles:
            assert "blockIdx.x * 512 + threadIdx.x" in src and "vb + u * 128" in src
        else:
            assert "blockIdx.x * 128 + threadIdx.x" in src and "vb + u * step" in src
        cubin, _ = kcompile.compile_cubin(src, "90")
        assert len(cubin) > 1000
    # the loop as rendered covers every vector exactly once, for awkward sizes too
    for nv, grid in ((5000, 3), (512, 1), (1, 7), (129 * 4 + 3, 2)):
        hits = np.zeros(nv, np.int64)
        step = grid * B
        for b in range(grid):
            for t in range(B):
                vb = (b * B * U if tiles else b * B) + t
                while vb < nv:
                    for u in range(U):
                        vi = vb + u * (B if tiles else step)
                        if vi < nv:
                            hits[vi] += 1
                    vb += step * U
        assert (hits == 1).all()


@pytest.mark.parametrize("expr,light", [
    (lambda x, y: np.float32(2.5) * x + y, True),
    (lambda x, y: gp.where(x > 0, x, -y).astype(gp.float64), True),
    (lambda x, y: gp.sin(x) * y, False),                  # a transcendental
    (lambda x, y: x / y, False),
    (lambda x, y: ((x + y) * 2 - y) * 3 + 1, False),      # more than LIGHT_MAX_OPS ops
])
def test_light_kernels_run_one_vector_per_thread(expr, light):
    """config.ew_light: a 1-D vector loop of a few cheap ops gets 1024-thread blocks and one
    vector per operand per thread; anything else keeps block_size x ew_unroll."""
    x = gp.asarray(np.ones(1 << 12, np.float32))
    y = gp.asarray(np.full(1 << 12, 2, np.float32))
    g = schedule([expr(x, y)._node])[0]
    for on in (True, False):
        with gp.config.override(ew_light=on):
            mod, plan = build.plan_group(g, lambda o: 1 << 20, 132, 4)
            assert (plan.block, plan.unroll) == ((1024, 1) if on and light else (512, 4))
            src = mod.source(plan, kcompile.KERNEL_NAME)
            assert f"__launch_bounds__({plan.block})" in src
            assert f"u < {plan.unroll}" in src
    # a 2-D broadcast (the column layout) is not a 1-D loop: untouched
    X = gp.asarray(np.ones((64, 256), np.float32))
    g2 = schedule([(X * 2 + X.mean(axis=0))._node])[-1]
    _, plan2 = build.plan_group(g2, lambda o: 1 << 20, 132, 4)
    assert plan2.block == 512


@pytest.mark.parametrize("op", ["any", "all", "sum", "prod", "max", "min", "argmax", "argmin",
                                "var"])
@pytest.mark.parametrize("shape,axis", [((2,), None), ((3, 2), 1), ((2, 3), 0),
                                        ((1 << 20,), None), ((4, 1 << 18), 1)])
def test_warp_shuffles_are_never_conditional(op, shape, axis):
    """Every lane of a warp must execute each shuffle (full mask).  A combine that skips its
    right operand (|| or && short-circuit, or ?:) leaves lanes out: any/all with mixed lanes
    hung the H200 forever."""
    rng = np.random.default_rng(1)
    x = gp.asarray(rng.standard_normal(shape) > 0.3)
    x = x if op in ("any", "all") else x.astype(gp.float32) * 2 - 1
    expr = getattr(gp, op)(x, axis=axis)
    groups = schedule([expr._node])
    src = build.source_of(groups[-1], ptr_of=lambda o: 1 << 20, headers=False)
    lines = [ln for ln in src.splitlines() if "gn_shfl(" in ln and "gn_shfl(gn_acc_t" not in ln]
    assert lines or axis == 0, "expected a warp reduction in the kernel"   # columns: none
    for ln in lines:
        assert not any(t in ln for t in ("||", "&&", "?")), ln


@needs_nvrtc
def test_batched_compile_checks_report_the_failing_kernel(tmp_path):
    """CPU CI compiles each test's kernels as one NVRTC program; a broken kernel in a batch
    is found by compiling the batch's kernels one by one, and raises its own error."""
    from gnumpy.kernels import check
    good = 'extern "C" __global__ void gn_kernel(float* p) { p[threadIdx.x] = 1.0f; }'
    bad = 'extern "C" __global__ void gn_kernel(float* p) { p[threadIdx.x] = undefined_x; }'
    with gp.config.override(cache_dir=str(tmp_path)):
        check.flush()                                  # whatever the test before left
        for i, src in enumerate((good, good.replace("1.0f", "2.0f"))):
            check._cache.get(("batch-test", i, str(tmp_path)), lambda s=src: s)
        n = check.checked["batches"]
        check.flush()
        assert check.checked["batches"] == n + 1 and not check._pending
        old, check.origin = check.origin, "tests/test_x.py::test_that_made_it"
        try:
            check._cache.get(("batch-test", "bad", str(tmp_path)), lambda: bad)
        finally:
            check.origin = old
        check._cache.get(("batch-test", "good", str(tmp_path)), lambda: good + " ")
        # compiled later, in another test's batch: the error names the test that made it
        with pytest.raises(RuntimeError, match="(?s)test_that_made_it.*undefined_x"):
            check.flush()
        assert not check._pending


@needs_nvrtc
def test_coverage_keys_are_shared_through_the_cache(tmp_path, monkeypatch):
    """A kernel that compiled marks the coverage keys it brought on disk: another process
    sharing the cache (a test worker) does not compile a kernel for them again, but does
    for a structure it has not seen."""
    from gnumpy.kernels import check
    with gp.config.override(cache_dir=str(tmp_path), check_kernels="cover"):
        check.flush()
        monkeypatch.setattr(check, "_seen", set())
        monkeypatch.setattr(check, "_done", set())
        x = gp.asarray(np.arange(24.0).reshape(4, 6), device="cpu")    # the CPU backend checks
        check.checked["compiled"] = 0
        (x * 2 + 1).sum(0).get()
        assert check.checked["compiled"] == 1 and len(check._pending) == 1
        check.flush()
        monkeypatch.setattr(check, "_seen", set())      # a fresh process, same cache
        monkeypatch.setattr(check, "_done", set())
        (x * 3 + 1).sum(0).get()                         # same structure, same ops
        assert check.checked["compiled"] == 1 and not check._pending
        (x * 3 + 1).sum(1).get()                         # a new structure
        assert check.checked["compiled"] == 2
        check.flush()


@needs_nvrtc
@pytest.mark.parametrize("hints,ld", [
    ("", None), ("L2::128B", "ld.global.nc.L2::128B.v4"), ("L2::64B", "ld.global.nc.L2::64B.v4"),
    ("lcs", "ld.global.cs.v4"), ("lcs,L2::256B", "ld.global.cs.L2::256B.v4")])
def test_memory_hints(hints, ld):
    # config.reduce_mem_hints: the hint is in the row reduction kernels (and their cache
    # keys), the kernels compile, values are unchanged; elementwise kernels take none
    rng = np.random.default_rng(3)
    xh = rng.standard_normal(4096).astype(np.float32)
    yh = rng.standard_normal(4096).astype(np.float32)
    x, y = gp.asarray(xh), gp.asarray(yh)
    with gp.config.override(reduce_mem_hints=hints):
        exprs = {"sumsq": gp.sum((x - y) ** 2), "rows": x.reshape(64, 64).sum(axis=1)}
        keys = set()
        for name, e in exprs.items():
            g = schedule([e._node])[0]
            mod, plan = build.plan_group(g, lambda o: 1 << 20, 132, 8)
            keys.add(plan.key)
            src = build.source_of(g, ptr_of=lambda o: 1 << 20)
            assert (f'"{ld}' in src) == (ld is not None), name
            cubin, _ = kcompile.compile_cubin(src, "90")
            assert len(cubin) > 1000
        saxpy = build.source_of(schedule([(np.float32(2.5) * x + y)._node])[0],
                                ptr_of=lambda o: 1 << 20)
        assert "gn_ldh(" not in saxpy.split("gn_kernel")[-1]
        # operands narrower than the widest: 8-, 4-, 2- and 1-byte vectors beside 16
        mixed = {"where": (gp.sum(x.astype(np.float64), where=x > 0), np.sum(
                     xh.astype(np.float64), where=xh > 0)),
                 "rows": (x.reshape(64, 64).astype(np.float64).sum(axis=1, where=(
                     x > 0).reshape(64, 64)), xh.reshape(64, 64).astype(np.float64).sum(
                     axis=1, where=(xh > 0).reshape(64, 64)))}
        for name, (e, want) in mixed.items():
            g = schedule([e._node])[-1]
            src = build.source_of(g, ptr_of=lambda o: 1 << 20)
            assert (ld is not None) == ("gn_ldh(" in src.split("gn_kernel")[-1]), name
            kcompile.compile_cubin(src, "90")
            check(e, want, rtol=1e-12)
    check(exprs["sumsq"], np.sum((xh - yh) ** 2), rtol=1e-4)
    check(exprs["rows"], xh.reshape(64, 64).sum(axis=1), rtol=1e-5)
    with gp.config.override(reduce_mem_hints=""):
        plain = {build.plan_group(schedule([e._node])[0], lambda o: 1 << 20, 132, 8)[1].key
                 for e in (gp.sum((x - y) ** 2), x.reshape(64, 64).sum(axis=1))}
    assert (keys == plain) == (hints == "")


@pytest.mark.parametrize("bad", ["L2::128B;asm", "scs", "L2::128B, lcs", 3])
def test_memory_hints_reject_what_would_reach_ptx_unchecked(bad):
    with pytest.raises(ValueError):
        gp.config.set(reduce_mem_hints=bad)
    assert gp.config.reduce_mem_hints == "L2::128B"


# ------------------------------------------------------------------ an untrusted cache directory

def _entry(tmp_path):
    """(the kernel cache of a new process over tmp_path, a compiled key, its render)."""
    x = gp.asarray(np.ones(64, np.float32))
    g = schedule([(gp.tanh(x) * 7 - 3)._node])[0]
    mod, plan = build.plan_group(g, lambda o: 0, 132, 8)
    return plan.key, (lambda: mod.source(plan, kcompile.KERNEL_NAME))


def _fresh_process():
    cache._trusted.clear()
    cache._nvrtc.clear()
    cache.counters.reset()


@needs_nvrtc
def test_forged_entry_is_recompiled_not_loaded(tmp_path):
    import hashlib
    import struct
    with gp.config.override(cache_dir=str(tmp_path), disk_cache=True):
        key, render = _entry(tmp_path)
        _fresh_process()
        build.KernelCache("90", None).get(key, render)
        (f,) = (tmp_path / "kernels").glob("*.cubin")
        payload = b"\x7fELF not the kernel"       # a forger knows the format, not the key
        f.write_bytes(cache._MAGIC + struct.pack("<Q", len(payload))
                      + hashlib.sha256(payload).digest() + payload)
        _fresh_process()
        assert cache.disk_get(f.name[:-len(".cubin")]) is None
        assert cache.counters.corrupt == 1 and not f.exists()
    _fresh_process()


def test_fifo_and_symlink_entries_are_skipped(tmp_path):
    import os
    with gp.config.override(cache_dir=str(tmp_path), disk_cache=True):
        _fresh_process()
        d = tmp_path / "kernels"
        cache.disk_put("real", b"payload")
        assert cache.disk_get("real") == b"payload"
        os.mkfifo(d / "fifo.cubin")                 # would block a plain open()
        assert cache.disk_get("fifo") is None
        os.symlink("/dev/zero", d / "zero.cubin")   # would read without bound
        assert cache.disk_get("zero") is None
        os.symlink(d / "real.cubin", d / "link.cubin")
        assert cache.disk_get("link") is None       # links are not followed
    _fresh_process()


def test_directory_others_can_write_is_refused(tmp_path):
    import os
    import warnings
    base = tmp_path / "shared"
    (base / "kernels").mkdir(parents=True)
    os.chmod(base / "kernels", 0o777)
    with gp.config.override(cache_dir=str(base), disk_cache=True):
        _fresh_process()
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            cache.disk_put("k", b"payload")
            assert cache.disk_get("k") is None
        assert any("others can write" in str(x.message) for x in w)
        assert list((base / "kernels").iterdir()) == []
    _fresh_process()


def test_new_directory_is_private_and_stale_temps_are_removed(tmp_path):
    import os
    import stat
    import time
    base = tmp_path / "new"
    with gp.config.override(cache_dir=str(base), disk_cache=True):
        _fresh_process()
        cache.disk_put("k", b"payload")
        d = base / "kernels"
        assert stat.S_IMODE(os.stat(d).st_mode) == 0o700
        assert stat.S_IMODE(os.stat(d / "key").st_mode) == 0o600
        stale, fresh = d / ".tmp-dead.cubin", d / ".tmp-live.cubin"
        stale.write_bytes(b"x")
        fresh.write_bytes(b"x")
        old = time.time() - 2 * 3600
        os.utime(stale, (old, old))
        _fresh_process()                            # a new process opens the directory
        assert cache.disk_get("k") == b"payload"
        assert not stale.exists() and fresh.exists()
    _fresh_process()


def test_processes_racing_for_a_new_directory_share_one_key(tmp_path):
    # the key file appears whole (written aside, linked into place): no process starting at
    # the same moment reads it half-written and turns its disk cache off (seen with 16
    # test workers on a fresh GPU machine)
    import subprocess
    import sys
    code = ("import os, warnings; from gnumpy.kernels import cache; "
            "warnings.simplefilter('error'); k = 'k%d' % os.getpid(); "
            "cache.disk_put(k, b'payload'); assert cache.disk_get(k) == b'payload'")
    env = dict(os.environ, GNUMPY_CACHE_DIR=str(tmp_path / "c"), GNUMPY_DEVICE="cpu")
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stderr=subprocess.PIPE)
             for _ in range(6)]
    for p in procs:
        assert p.wait(timeout=120) == 0, p.stderr.read().decode()[-2000:]
    assert len((tmp_path / "c" / "kernels" / "key").read_bytes()) == 32
