"""CUDA graph capture and replay (``gnumpy.cuda.Graph``): results equal NumPy's after
in-place input changes; pending readers of the results are not disturbed; host syncs in the
capture raise.  Without a GPU, constructing a Graph raises NotImplementedError."""
import numpy as np
import pytest

import gnumpy as gp

ON_CUDA = gp.asarray(0).device.kind == "cuda"
cuda_only = pytest.mark.skipif(not ON_CUDA, reason="CUDA graphs need the CUDA backend")


@pytest.mark.skipif(ON_CUDA, reason="CPU backend only")
def test_cpu_backend_raises():
    with pytest.raises(NotImplementedError, match="CUDA backend"):
        gp.cuda.Graph()


@cuda_only
def test_replay_sees_inplace_input_changes():
    rng = np.random.default_rng(0)
    xh = rng.standard_normal(5000).astype(np.float32)
    x = gp.asarray(xh)
    g = gp.cuda.Graph()
    with g:
        y = gp.sin(x) * 2 + x
        s = gp.sum(x * x)
    g.replay()
    np.testing.assert_allclose(y.get(), np.sin(xh) * 2 + xh, rtol=1e-5, atol=1e-6)
    for k in range(3):
        xh2 = rng.standard_normal(5000).astype(np.float32)
        x[...] = gp.asarray(xh2)
        g.replay()
        np.testing.assert_allclose(y.get(), np.sin(xh2) * 2 + xh2, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(float(s), np.sum(xh2.astype(np.float64) ** 2), rtol=1e-4)


@cuda_only
def test_capture_takes_arrays_reusing_dead_arrays_ids():
    # lazy arrays that died before the capture leave tracking entries behind; arrays made
    # in the block often get their ids (CPython reuses the memory) and must still be
    # materialized into the graph
    xh = np.arange(64, dtype=np.float32)
    x = gp.asarray(xh)
    gp.evaluate(*[x * float(k) + 1 for k in range(8)])     # compile outside the capture
    for _ in range(3):
        junk = [x * float(k) for k in range(64)]
        del junk
        g = gp.cuda.Graph()
        with g:
            ys = [x * float(k) + 1 for k in range(8)]
        x[...] = gp.asarray(xh + 1)
        g.replay()
        for k, y in enumerate(ys):
            np.testing.assert_array_equal(y.get(), (xh + 1) * np.float32(k) + 1)
        x[...] = gp.asarray(xh)


@cuda_only
def test_loop_of_materializations():
    xh = np.linspace(-1, 1, 1000, dtype=np.float32)
    x0 = gp.asarray(xh)
    g = gp.cuda.Graph()
    with g:
        x = x0
        for _ in range(100):
            x = x * 0.99 + 1
            gp.evaluate(x)
    ref = xh.copy()
    for _ in range(100):
        ref = ref * np.float32(0.99) + np.float32(1)
    g.replay()
    np.testing.assert_allclose(x.get(), ref, rtol=1e-5)
    assert g.num_buffers >= 100


@cuda_only
def test_pending_reader_of_result_keeps_old_value():
    x = gp.asarray(np.arange(10, dtype=np.float64))
    g = gp.cuda.Graph()
    with g:
        y = x + 1
    g.replay()
    z = y * 10                      # lazy, reads y's buffer
    x[...] = 100.0
    g.replay()                      # overwrites y: z must be computed first
    np.testing.assert_array_equal(z.get(), (np.arange(10) + 1) * 10.0)
    np.testing.assert_array_equal(y.get(), np.full(10, 101.0))


@cuda_only
def test_sync_inside_capture_raises_and_library_keeps_working():
    x = gp.asarray(np.ones(100, np.float32))
    g = gp.cuda.Graph()
    with pytest.raises(RuntimeError, match="capture"):
        with g:
            y = x * 2
            float(y.sum())
    np.testing.assert_array_equal((x + 1).get(), np.full(100, 2.0, np.float32))
