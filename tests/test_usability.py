"""Usability: the environment report, NVTX ranges and ``benchmark``, errors for missing
names, lazy submodules, ``explain``'s readable output, ``bench/report.py`` and the runnable
examples of the README and the user's guide."""
import importlib
import json
import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

import gnumpy as gp
from gnumpy import _info, _lazy, _nvtx, profiler

ROOT = pathlib.Path(__file__).resolve().parent.parent
ON_CPU = gp.asarray(0).device.kind == "cpu"


def _run(*args, env=None, **kw):
    e = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT,
                          env=e, timeout=300, **kw)


# ------------------------------------------------------------------ show_config / info

def test_show_config_dicts_has_every_part():
    info = gp.show_config(mode="dicts")
    for key in ("gnumpy", "python", "packages", "nvrtc", "libraries", "cuda",
                "kernel_cache", "memory_pools", "config", "default_device"):
        assert key in info, key
    assert info["gnumpy"] == gp.__version__
    assert info["packages"]["numpy"] == np.__version__
    assert set(info["libraries"]) == {"cuBLAS", "cuSOLVER", "cuFFT", "nvJitLink"}
    assert set(info["config"]) == {o.name for o in gp._config._OPTIONS}
    cu = info["cuda"]
    assert cu["usable"] == gp.cuda.is_available()
    if not cu["usable"]:
        assert cu["why"]


def test_show_config_prints_report(capsys):
    assert gp.show_config() is None
    out = capsys.readouterr().out
    for section in ("Packages:", "NVRTC and NVIDIA libraries", "CUDA:", "Kernel cache:",
                    "Memory pool:", "Config (gnumpy.config"):
        assert section in out, section
    assert f"block_size = {gp.config.block_size!r}" in out
    with pytest.raises(ValueError):
        gp.show_config(mode="json")


def test_show_config_survives_failures(monkeypatch):
    def boom():
        raise OSError("no such thing")
    for name in ("_nvrtc", "_libraries", "_cuda", "_kernel_cache", "_pools", "_config"):
        monkeypatch.setattr(_info, name, boom)
    monkeypatch.setattr(_info, "_package_version", lambda dist: None)
    text = _info.render(_info.collect())
    assert text.count("error (OSError: no such thing)") >= 5
    assert "not installed" in text


def test_render_devices_and_pools():
    info = _info.collect()
    info["cuda"] = {"usable": True, "why": "ok", "driver": "13.0", "devices": [
        {"id": 0, "name": "NVIDIA H200", "compute_capability": "9.0",
         "multiprocessors": 132, "memory_bytes": 150 * 2**30}]}
    info["memory_pools"] = {"cuda:0": {"used": 1024, "reserved": 2048, "peak": 4096,
                                       "limit": 0}}
    info["libraries"]["cuBLAS"] = {"found": True, "path": "/x/libcublas.so.13",
                                   "version": "13.1.0"}
    text = _info.render(info)
    assert "cuda:0  NVIDIA H200, compute capability 9.0, 132 SMs, 150.0 GiB" in text
    assert "driver 13.0, 1 device(s)" in text
    assert "cuda:0: used 1.0 KiB, reserved 2.0 KiB, peak 4.0 KiB, limit none" in text
    assert "13.1.0  /x/libcublas.so.13" in text


def test_python_m_gnumpy_info():
    r = _run("-m", "gnumpy", "info")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"gnumpy {gp.__version__}")
    r = _run("-m", "gnumpy", "info", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["gnumpy"] == gp.__version__


# ------------------------------------------------------------------ NVTX ranges

class _FakeNvtx:
    def __init__(self):
        self.depth = 0
        self.most = 0
        self.names = []

    def push(self, name):
        self.names.append(name)
        self.depth += 1
        self.most = max(self.most, self.depth)

    def pop(self):
        self.depth -= 1


@pytest.fixture
def fake_nvtx(monkeypatch):
    f = _FakeNvtx()
    monkeypatch.setattr(_nvtx, "_binding", [(f.push, f.pop)])
    yield f
    assert f.depth == 0, "unbalanced NVTX ranges"


def test_ranges_name_groups_and_materializations(fake_nvtx):
    x = gp.ones(1000)
    with gp.config.override(nvtx=True):
        float((2 * x + 1).sum())
        y = gp.ones((40, 40))           # large enough for the library (a barrier)
        gp.evaluate((y @ y).sum(0))
        w = gp.zeros(5)
        w[1:3] = x[:2] * 3
        gp.evaluate(w)
    names = fake_nvtx.names
    assert names[0] == "materialize[sum: multiply,add]"
    if ON_CPU:      # (on CUDA a replay of a plan seen before runs without group ranges)
        assert names[1] == "reduce[sum: multiply,add]"
    assert "barrier[matmul]" in names or "cuda.barrier[matmul]" in names
    assert "materialize[sum: matmul]" in names
    assert any(n.startswith("write[") for n in names)
    if ON_CPU:
        assert fake_nvtx.most >= 2      # group ranges nest inside materializations


def test_no_ranges_when_off(fake_nvtx):
    with profiler.record_ranges() as rec:
        gp.evaluate(gp.ones(10) * 2)
    assert rec == [] and fake_nvtx.names == []


def test_library_call_range(fake_nvtx):
    from gnumpy._api import libcall
    x = gp.asarray(np.arange(4.0))
    if not ON_CPU:
        pytest.skip("the test op has a CPU implementation only")
    with gp.config.override(nvtx=True):
        (r,) = libcall.call("_usability_double", [x], cpu=lambda a: (a * 2,))
    np.testing.assert_array_equal(r.get(), np.arange(4.0) * 2)
    assert "library[_usability_double]" in fake_nvtx.names


def test_cuda_barrier_range_wraps_dispatch(fake_nvtx):
    from gnumpy.backends.cuda import CudaBackend
    calls = []

    class Be:
        def _barrier(self, group, _in_range=False):
            calls.append(_in_range)

    class G:
        class barrier:
            op = "matmul"
    with gp.config.override(nvtx=True):
        CudaBackend._barrier(Be(), G())
    assert calls == [True] and fake_nvtx.names == ["cuda.barrier[matmul]"]


def test_record_ranges_without_binding(monkeypatch):
    monkeypatch.setattr(_nvtx, "_binding", [None])
    with pytest.raises(RuntimeError, match="pip install nvtx"):
        gp.config.set(nvtx=True)
    assert gp.config.nvtx is False
    with profiler.record_ranges() as names, gp.config.override(nvtx=True):
        gp.evaluate(gp.ones(3) - 1)
        with profiler.time_range("user block"):
            pass
    assert names == ["materialize[subtract]", "elementwise[subtract]", "user block"]


def test_real_binding_when_installed():
    pytest.importorskip("nvtx")
    _nvtx._binding.clear()
    try:
        with gp.config.override(nvtx=True):
            gp.evaluate(gp.ones(3) * 2)
            with profiler.time_range("outer"):
                float(gp.arange(5.0).sum())
    finally:
        _nvtx._binding.clear()


def test_env_switch_is_read():
    r = _run("-c", "import gnumpy; print(gnumpy.config.nvtx)", env={"GNUMPY_NVTX": "1"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "True"


# ------------------------------------------------------------------ benchmark

def test_benchmark_times_and_evaluates():
    x = gp.ones(1000, dtype=gp.float32)
    gp.stats.reset()
    r = gp.benchmark(lambda a: {"s": (2 * a + 1).sum()}, (x,), n_repeat=7, n_warmup=2,
                     name="saxpy-sum")
    assert r.cpu_times.shape == (7,) and (r.cpu_times >= 0).all()
    assert gp.stats.groups == 9          # every call's result was evaluated
    text = repr(r)
    assert text.startswith("saxpy-sum") and "CPU:" in text
    if ON_CPU:
        assert r.gpu_times is None and "GPU" not in text
    else:
        assert r.gpu_times.shape == (7,) and "GPU-0:" in text
    r = gp.benchmark(lambda: gp.ones(3) + 1, n_repeat=100, n_warmup=0, max_duration=0.0)
    assert r.cpu_times.shape == (1,) and r.name == "<lambda>"


def test_module_doctests():
    import doctest
    for mod in (profiler, _info, gp._config):
        res = doctest.testmod(mod, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert res.failed == 0, mod.__name__


# ------------------------------------------------------------------ missing names

@pytest.mark.parametrize("name", ["asmatrix", "frompyfunc", "datetime64", "str_", "char"])
def test_numpy_name_gnumpy_lacks(name):
    with pytest.raises(AttributeError, match="docs/coverage.md") as e:
        getattr(gp, name)
    assert f"gnumpy does not implement numpy.{name}" in str(e.value)
    assert e.value.name == name
    assert not hasattr(gp, name)


@pytest.mark.parametrize("name", ["sumx", "_private", "__wrapped__", "float_"])
def test_typo_keeps_plain_message(name):
    with pytest.raises(AttributeError) as e:
        getattr(gp, name)
    assert str(e.value) == f"module 'gnumpy' has no attribute {name!r}"


# ------------------------------------------------------------------ lazy import

HEAVY = ("gnumpy.random", "gnumpy.linalg", "gnumpy.fft", "gnumpy.cuda", "gnumpy.profiler",
         "gnumpy._api.sorting.sorting", "gnumpy._api.creation.creation", "gnumpy.kernels.build")


def test_import_loads_submodules_on_first_use():
    code = ("import sys, gnumpy\n"
            "print(' '.join(m for m in sys.modules if m.startswith('gnumpy')))\n"
            "from gnumpy import linalg\n"
            "import gnumpy.fft\n"
            "a = gnumpy.asarray([[2.0, 0.0], [0.0, 4.0]])\n"
            "print(gnumpy.linalg.solve(a, gnumpy.ones(2)).tolist(), linalg is gnumpy.linalg,"
            " float(gnumpy.fft.fft(gnumpy.ones(4))[0].real))\n")
    r = _run("-c", code)
    assert r.returncode == 0, r.stderr
    loaded, out = r.stdout.splitlines()
    loaded = set(loaded.split())
    assert not loaded & set(HEAVY), loaded & set(HEAVY)
    assert out == "[0.5, 0.25] True 4.0"


def test_every_lazy_name_resolves():
    for name, (mod, real) in _lazy.LAZY.items():
        value = getattr(gp, name)
        assert value is getattr(importlib.import_module("gnumpy." + mod), real), name
    names = dir(gp)
    assert set(_lazy.LAZY) <= set(names)
    assert {"random", "linalg", "fft", "cuda", "profiler", "sum", "add"} <= set(gp.__all__)
    ns = {}
    exec("from gnumpy import *", ns)
    assert ns["sum"] is gp.sum and ns["linalg"] is gp.linalg and "annotations" not in ns


# ------------------------------------------------------------------ explain

def test_explain_is_compact_and_shows_cuda_source():
    x = gp.asarray(np.arange(10.0))
    text = gp.explain(x - x.mean(), file=open(os.devnull, "w"))
    assert text.startswith("2 groups")
    assert "out float64[] = sum(in1)" in text
    assert "out float64[10] = in1 - broadcast_to(in2 / 10.0, (10,))" in text
    assert "in2: float64[] output of [0]" in text
    assert text.count("--- CUDA source") == 2 and "__global__" in text
    assert "#endif  // GN_" not in text          # helper headers left out
    short = gp.explain((x[::2] * 2) ** 2, source=False, file=open(os.devnull, "w"))
    assert "__global__" not in short
    assert "out float64[5] = square(in1 * 2.0)" in short
    assert "in1: float64[5] array (a view, strides (2,) in elements)" in short
    t = gp.asarray(np.ones((3, 4)))
    short = gp.explain(t.T[1:, ::2] + t[:2, :2].sum(0) - 1, source=False,
                       file=open(os.devnull, "w"))
    assert "sum(in1, axis=0)" in short and " - 1.0" in short, short


def test_readme_example_output_matches():
    readme = (ROOT / "README.md").read_text()
    code = re.search(r"```python\n(import gnumpy as np\n.*?)```", readme, re.S).group(1)
    shown = re.search(r"`np.explain` prints.*?```text\n(.*?)```", readme, re.S).group(1)
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(code, "README.md", "exec"), {})
    out = buf.getvalue().splitlines()[1:]          # after the printed sum
    dev = str(gp.asarray(0).device)
    for want, got in zip(shown.rstrip("\n").splitlines(), out):
        if want.strip() == "...":
            break
        assert got == want.replace("on cpu", f"on {dev}")


# ------------------------------------------------------------------ bench/report.py

def test_report_creates_missing_docs_folder(tmp_path):
    res = {"n": 1 << 20, "matrix": [64, 64], "started": "now", "libs": {
        "gnumpy": {"cases": {"saxpy": {"GBs": 4000.0}}},
        "cupy": {"cases": {"saxpy": {"GBs": 3900.0}}}}}
    src = tmp_path / "r.json"
    src.write_text(json.dumps(res))
    docs = tmp_path / "not" / "there"
    r = _run("bench/report.py", str(src), "--docs", str(docs))
    assert r.returncode == 0, r.stderr
    assert "1.03x" in (docs / "benchmarks.md").read_text()


def test_profile_host_runs_on_a_fake_device():
    """``bench/profile_host.py --fake`` measures the CUDA path's host cost without a GPU:
    it reports each pattern's microseconds, launches and Python calls a statement."""
    pytest.importorskip("cuda.bindings.nvrtc", reason="the fake device compiles with NVRTC")
    r = _run("bench/profile_host.py", "--fake", "jacobi", "scalar", "--iters", "40",
             "--top", "3")
    assert r.returncode == 0, r.stderr
    assert "jacobi: 0.0" in r.stdout and "launches a statement" in r.stdout
    assert re.search(r"== scalar: [0-9.]+ us a statement, [0-9.]+ Python calls each",
                     r.stdout), r.stdout


# ------------------------------------------------------------------ the guide's examples

def _blocks(path):
    """(needs, code) of each ```python block of a Markdown file; `needs` from a
    ``<!-- needs: a b -->`` line just above the block."""
    text = path.read_text()
    out = []
    for m in re.finditer(r"(?:<!-- needs: ([^>]*) -->\n)?```python\n(.*?)```", text, re.S):
        out.append(((m.group(1) or "").split(), m.group(2)))
    return out


def _missing(needs):
    for n in needs:
        if n == "cuda":
            if not gp.cuda.is_available():
                return "needs a GPU"
        elif importlib.util.find_spec(n) is None:
            return f"needs {n}"
    return None


GUIDE = _blocks(ROOT / "docs" / "guide.md")


def test_guide_has_examples():
    assert len(GUIDE) >= 12


@pytest.mark.parametrize("i", range(len(GUIDE)))
def test_guide_example_runs(i, capsys):
    needs, code = GUIDE[i]
    why = _missing(needs)
    if why:
        pytest.skip(why)
    saved = dict(gp.config._values)
    try:
        exec(compile(code, f"docs/guide.md block {i}", "exec"), {})
    finally:
        gp.config.set(**saved)


# ------------------------------------------------------------------ bench/npbench.py

def test_npbench_timed_calls_charge_a_timeout_to_the_framework_it_cut():
    """The timed calls of the frameworks alternate under one time limit: when it cuts one
    framework's call, that framework has the error; the others keep their times and have
    none (found reviewing the interleaved harness: a slow gnumpy call marked NumPy's and
    CuPy's timed runs as timed out too)."""
    import time
    import types
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import npbench
        from libs import Budget
    finally:
        sys.path.remove(str(ROOT / "bench"))

    class Short(Budget):        # the limit of the timed calls: 0.5 s, whatever is asked
        def limit(self, seconds):
            return Budget.limit(self, 0.5)

    calls = {"numpy": 0, "gnumpy": 0, "cupy": 0}

    def runner(name, slow_call):
        def call(a):
            calls[name] += 1
            time.sleep(5.0 if calls[name] == slow_call else 0.001)
        return (lambda: None), call
    runs = {"numpy": runner("numpy", 0), "gnumpy": runner("gnumpy", 2),
            "cupy": runner("cupy", 0)}
    args = types.SimpleNamespace(kernel_timeout=1.0, repeat=4)
    ts, errors = npbench.timed_calls(runs, args, Short(100.0), 100.0)
    assert set(errors) == {"gnumpy"} and "CaseTimeout" in errors["gnumpy"]
    assert len(ts["gnumpy"]) == 1 and len(ts["numpy"]) >= 1 and len(ts["cupy"]) >= 1
    spent = Short(0.0)          # no budget left at all: every framework is charged
    ts, errors = npbench.timed_calls(runs, args, spent, 100.0)
    assert set(errors) == set(runs) and not any(ts.values())


def test_implicit_host_conversion_can_be_turned_off():
    """``config.allow_implicit_host=False`` makes NumPy's implicit conversion raise
    TypeError, as CuPy does; ``.get()`` and ``gnumpy.asnumpy`` still copy.  On (the
    default), NumPy takes the values."""
    x = gp.asarray(np.arange(6.0).reshape(2, 3)) * 2
    np.testing.assert_array_equal(np.asarray(x), np.arange(6.0).reshape(2, 3) * 2)
    with gp.config.override(allow_implicit_host=False):
        with pytest.raises(TypeError, match="allow_implicit_host"):
            np.asarray(x)
        with pytest.raises(TypeError, match="allow_implicit_host"):
            np.array(x[0], dtype=np.float32)
        assert isinstance(np.add(np.ones(3), x[0]), gp.ndarray)    # (a ufunc dispatches:
                                                                    # no conversion)
        np.testing.assert_array_equal(x.get(), np.arange(6.0).reshape(2, 3) * 2)
        np.testing.assert_array_equal(gp.asnumpy(x[1]), [6.0, 8.0, 10.0])
    np.testing.assert_array_equal(np.asarray(x[1]), [6.0, 8.0, 10.0])
