"""Two matrix-vector products of one matrix in one pass over it (``backends/
cuda_matvec2.py``, ``kernels/render_matvec2.py``): on the fake CUDA backend (kernels
compiled by NVRTC, launches recorded, cuBLAS a stub), which materializations take the two
kernels instead of two GEMVs and which stay the library's.  The values are checked against
NumPy by the emulator's ``matvec_pairs`` program (tests/emu_programs.py), and here on the
device under test."""
import numpy as np
import pytest

import gnumpy as gp
from gnumpy._graph import realize
from gnumpy.backends import cuda_libs, cuda_matvec2
from helpers import StubCublas
from test_fast_path import fake  # noqa: F401 - the fake CUDA backend fixture


def _launches(fake, monkeypatch, make):
    """(kernel launches, library calls) of evaluating the two products `make` returns."""
    dev, be = fake
    monkeypatch.setitem(cuda_libs._BINDINGS, "cublas", StubCublas("cublas"))
    g = np.random.default_rng(1)
    arrs = [gp.asarray(g.random(s).astype(dt), device=dev) for s, dt in
            [((300, 240), np.float64), ((240,), np.float64), ((300,), np.float64),
             ((300, 240), np.complex128), ((240,), np.complex128), ((300,), np.complex128),
             ((100, 80), np.float64), ((80,), np.float64), ((100,), np.float64),
             ((4100, 256), np.float64), ((256,), np.float64), ((4100,), np.float64)]]
    gp.evaluate(*arrs)
    realize.settle()
    x, y = make(*arrs)
    n0, b0 = len(be.launches), realize.stats.by_kind["barrier"]
    gp.evaluate(x, y)
    return len(be.launches) - n0, realize.stats.by_kind["barrier"] - b0


@pytest.mark.parametrize("name, make", [
    ("pair", lambda A, p, r, *_: (r @ A, A @ p)),
    ("pair, transposed", lambda A, p, r, *_: (A.T @ r, p @ A.T)),
    ("pair, scaled and strided", lambda A, p, r, *_: ((2.0 * r[::-1]) @ A, A @ p[::1])),
])
def test_two_products_of_one_matrix_are_two_kernels(fake, monkeypatch, name, make):
    k, b = _launches(fake, monkeypatch, make)
    assert (k, b) == (2, 2), name      # the pass over A and the partial sums' pass


@pytest.mark.parametrize("name, make", [
    ("one form", lambda A, p, r, *_: (A @ p, A @ (p * 2.0))),
    ("two matrices", lambda A, p, r, *_: (r @ A, A.copy() @ p)),
    ("complex", lambda A, p, r, C, u, w, *_: (w @ C, C @ u)),
    ("small", lambda A, p, r, C, u, w, S, q, t, *_: (t @ S, S @ q)),
    ("tall and narrow", lambda *a: (a[-1] @ a[-3], a[-3] @ a[-2])),
])
def test_other_products_stay_the_librarys(fake, monkeypatch, name, make):
    k, b = _launches(fake, monkeypatch, make)
    assert b == 2 and k <= 1, name      # (two.copy(): one copy kernel, then the calls)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_both_kernels_compile_with_nvrtc(dt):
    from gnumpy.kernels import render_matvec2 as R
    from gnumpy.kernels.compile import KERNEL_NAME, compile_cubin
    for f in (R.pass1_source, R.pass2_source):
        assert compile_cubin(f(np.dtype(dt), name=KERNEL_NAME), "90")[0]


def test_the_pair_program_on_the_device_under_test():
    """The emulator's ``matvec_pairs`` on the default device against NumPy (on the GPU
    machine: the two kernels on the GPU)."""
    from emu_programs import PROGRAMS
    from helpers import check
    f, inputs = PROGRAMS["matvec_pairs"]
    data = [mk(i) for i, mk in enumerate(inputs)]
    want = f(np, *[d.copy() for d in data])
    got = f(gp, *[gp.asarray(d.copy()) for d in data])
    for g, w in zip(got, want):
        w = np.asarray(w)
        check(gp.asarray(g), w, rtol=1e-9 if w.dtype == np.float64 else 2e-5,
              scale=float(np.abs(w).max()))
    assert cuda_matvec2.MIN_SIZE <= 300 * 240
