"""gnumpy's CUDA backend with real values and no GPU: ``cuda_emu.EmuCuda`` is the CUDA
backend with device memory in host buffers, the driver's copies, memsets and reads done
on them, and every kernel the backend renders built with g++ (CUDA's built-ins emulated,
``cuda_emu_rt.h``) and run over its grid (``cuda_emu_run.h``: threads one after another,
or as fibers where a kernel synchronizes its block or its warps); cuBLAS, cuBLASLt and
cuSOLVER are the suite's host fakes.  ``emu_check.py`` runs the programs of ``emu_programs.py``
(stencils, element chains, solvers, fused broadcasting of every dtype, reductions, scans,
masks, gathers, products, linalg, sorts) twice each (built, then replayed) on it and on
NumPy, and compares the values; then the fuzzers' findings (``test_fuzz.FINDINGS``).

It runs in a process of its own: installing the emulator patches the driver entries of
``gnumpy.backends``.  What it cannot see: streams and asynchrony (a kernel finishes at its
launch), blocks running at once, the device's own math library (the host's libm stands
in), cuFFT, and what the real cuBLASLt does with a -0.0 product.  Nothing here times
anything."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

pytest.importorskip("cuda.bindings.nvrtc", reason="the 'cuda' extra is not installed")


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is needed to run kernels")
def test_cuda_backend_on_the_host_matches_numpy():
    env = dict(os.environ)
    env.pop("GNUMPY_DEVICE", None)
    r = subprocess.run([sys.executable, str(HERE / "emu_check.py")], capture_output=True,
                       text=True, env=env, timeout=1200)
    out = r.stdout + r.stderr
    bad = [ln for ln in out.splitlines() if re.match(r"\[(error|wrong)", ln)]
    assert r.returncode == 0 and not bad, "\n".join(bad) or out[-4000:]
    tally = re.search(r"tally: \{'ok': (\d+)\}", out)
    assert tally and int(tally.group(1)) >= 41 + 140, out[-2000:]   # (programs, findings)
    # the kernel families the programs must have run (a check that checks something)
    fams = re.search(r"launches by family: (\{.*\})", out).group(1)
    for fam in ("'ew'", "'ew-synced'", "'ew-multi-out'", "'reduce'", "'reduce-split'",
                "scan", "gather", "nz_write", "sort", "cuda_sequence.sequence",
                "linalg.lu", "linalg.chol", "qr.qr"):
        assert fam in fams, (fam, fams)


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is needed to run kernels")
def test_ordered_element_writes_in_reverse_lane_order():
    """The sequences' programs with the emulator running each warp's lanes in reverse
    order: an entry's loads come after the stores of the entry before it, and a vector
    entry's stores after its own loads, only through the kernel's ``__syncwarp`` (in
    forward order lane 0 stores first whatever the kernel says)."""
    env = dict(os.environ, EMU_ORDER="reverse")
    env.pop("GNUMPY_DEVICE", None)
    r = subprocess.run([sys.executable, str(HERE / "emu_check.py"), "-k", "ordered"],
                       capture_output=True, text=True, env=env, timeout=600)
    out = r.stdout + r.stderr
    assert r.returncode == 0 and re.search(r"tally: \{'ok': 4\}", out), out[-4000:]
    assert "cuda_sequence.sequence" in re.search(r"launches by family: (\{.*\})", out)[1]
