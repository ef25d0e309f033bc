"""Test configuration: the device under test comes from GNUMPY_DEVICE (default: auto).

The whole suite runs against whichever backend is the default device; the GPU script runs
it with GNUMPY_DEVICE=cuda, CI with the CPU backend.
"""
import os

import hypothesis
import pytest

hypothesis.settings.register_profile(
    "ci", max_examples=int(os.environ.get("GNUMPY_TEST_EXAMPLES", "25")), deadline=None,
    suppress_health_check=[hypothesis.HealthCheck.too_slow,
                           hypothesis.HealthCheck.data_too_large])
hypothesis.settings.load_profile("ci")


def _enable_kernel_checks():
    """On the CPU backend, compile the CUDA code of every group the tests run (NVRTC to
    sm_90 cubin, coverage mode), so CPU-only CI checks the CUDA code generator too.
    Returns what the report header says about it (never off silently)."""
    import gnumpy
    if gnumpy.asarray(0).device.kind != "cpu":
        return "off (the device under test runs the kernels itself)"
    if gnumpy.config.check_kernels:
        return f"{gnumpy.config.check_kernels} (GNUMPY_CHECK_KERNELS)"
    try:
        from cuda.bindings import nvrtc  # noqa: F401
    except ImportError as e:
        import warnings
        msg = (f"CUDA kernel compile check OFF: NVRTC missing ({e}); install the 'cuda' "
               f"extra (cuda-bindings, nvidia-cuda-nvrtc) so CPU CI compiles every "
               f"generated kernel")
        warnings.warn(msg, stacklevel=1)
        return msg
    gnumpy.config.set(check_kernels="cover")
    return "cover (NVRTC, sm_90)"


_KERNEL_CHECKS = _enable_kernel_checks()


@pytest.fixture(autouse=True)
def _reset_stats(request):
    import gnumpy
    gnumpy.stats.reset()
    if gnumpy.config.check_kernels:
        from gnumpy.kernels import check
        check.origin = request.node.nodeid      # named by a compile error of its kernels
    yield


@pytest.fixture(autouse=True, scope="module")
def _compile_checked_kernels():
    """Compile the kernels the module's tests made (batches of check.BATCH also go as
    they fill): NVRTC's fixed cost per program is shared by several tests' kernels.  A
    compile error fails the test where the batch is compiled and names the test that
    made the kernel."""
    yield
    import gnumpy
    if gnumpy.config.check_kernels:
        from gnumpy.kernels import check
        check.flush()


# The tests that take 20-113 s each in the GPU suite (bench/gpu_suite.sh's timing file:
# NVRTC-bound fuzzing, long sorts, rejection samplers) start first, so xdist's workers run
# them side by side instead of a few workers ending the run with them; on a machine
# without a GPU, the CUDA backend run on the host (g++-bound, ~50 s cold) too.
SLOW_FIRST = ("test_cuda_emulated.py::",
              "test_random_distributions.py::test_multinomial_and_zipf",
              "test_fuzz.py::test_fuzz_",
              "test_scans.py::test_scan_accumulation_dtypes",
              "test_random_distributions.py::test_rejection_array_parameters_and_edges",
              "test_random_distributions.py::"
              "test_logseries_dirichlet_noncentral_vonmises_statistics",
              "test_sorting.py::test_sort_long_", "test_operators.py::test_operator_with_")


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: not any(s in item.nodeid for s in SLOW_FIRST))


def pytest_report_header(config):
    import gnumpy
    return [f"gnumpy device under test: {gnumpy.asarray(0).device}",
            f"gnumpy kernel compile check: {_KERNEL_CHECKS}"]


# ------------------------------------------------------------------ where suite time goes
# GNUMPY_TEST_TIMING=<path prefix>: every worker appends one line per test as it finishes
# (seconds, NVRTC compile seconds, kernels compiled, node id) to <prefix>.<worker>, so a run
# cut short by a time limit still shows where its time went (bench/gpu_suite.sh sets it).
# GNUMPY_TEST_PROFILE=<path>: cProfile the whole session of one worker (gw0, or the only
# process) and rewrite its stats to <path> every few seconds, for the same reason.
# With timing on, a test still running after GNUMPY_TEST_STACK_AFTER seconds (default 180)
# has every thread's Python stack written to <prefix>.stacks.<worker>, once
# (a hang shows where it sits: NVRTC, a device sync, a Python loop).  faulthandler's
# watchdog thread reads the other threads' frames while they run, and a worker can die
# during a dump: the default lies past the cold fuzz cases (60-90 s of NVRTC), which a
# hang still passes.
_TIMING = os.environ.get("GNUMPY_TEST_TIMING")
_PROFILE = os.environ.get("GNUMPY_TEST_PROFILE")
if os.environ.get("PYTEST_XDIST_WORKER", "gw0") != "gw0":
    _PROFILE = None


if _TIMING or _PROFILE:
    import time

    if _PROFILE:
        import cProfile
        _profiler = cProfile.Profile()
        _profiler.enable()
        _last_dump = [0.0]

    _WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
    if _TIMING:
        import faulthandler
        _stacks = open(f"{_TIMING}.stacks.{_WORKER}", "a")
        _stack_after = float(os.environ.get("GNUMPY_TEST_STACK_AFTER", "180"))

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item, nextitem):
        from gnumpy.kernels import cache
        c = cache.counters
        t0, s0, m0 = time.perf_counter(), c.compile_seconds, c.misses
        if _TIMING:
            _stacks.write(f"--- {item.nodeid}\n")
            _stacks.flush()
            faulthandler.dump_traceback_later(_stack_after, file=_stacks)
        yield
        if _TIMING:
            faulthandler.cancel_dump_traceback_later()
            worker = _WORKER
            # a test that resets the counters (test_kernels.py) leaves only what came after
            ds = c.compile_seconds - s0 if c.compile_seconds >= s0 else c.compile_seconds
            dm = c.misses - m0 if c.misses >= m0 else c.misses
            with open(f"{_TIMING}.{worker}", "a") as f:
                f.write(f"{time.perf_counter() - t0:.3f}\t{ds:.3f}\t{dm}\t{item.nodeid}\n")
        if _PROFILE and time.perf_counter() > _last_dump[0] + 5:
            _last_dump[0] = time.perf_counter()
            _profiler.create_stats()
            _profiler.dump_stats(_PROFILE)
            _profiler.enable()


# ------------------------------------------------------------------ a poisoned CUDA context
# An illegal address (or any sticky CUDA error) leaves the process's context unusable, and
# every later test in that process would fail with the same error.  The worker exits
# instead: pytest-xdist reports the test that was running as crashed and starts a fresh
# worker, so the culprit is named and the rest of the suite still runs.
_STICKY = ("ILLEGAL_ADDRESS", "IllegalAddress", "ILLEGAL_INSTRUCTION", "MISALIGNED_ADDRESS",
           "LAUNCH_FAILED", "error 700")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.failed and os.environ.get("PYTEST_XDIST_WORKER"):
        text = str(rep.longrepr)
        if any(s in text for s in _STICKY):
            import sys
            sys.stderr.write(f"sticky CUDA error in {item.nodeid}: worker exits\n")
            sys.stderr.flush()
            os._exit(70)
