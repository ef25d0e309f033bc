"""Elements read to the host are remembered while their memory is unchanged
(``_graph.memo``, ``ndarray._scalar``): a loop reading ``row[i]`` and ``row[i + 1]``
transfers each element once, and every kind of write into the memory makes the next read
see the new value.  Transfers are counted at the backend's ``to_numpy``."""
import numpy as np
import pytest

import gnumpy as gp
from gnumpy import _array
from gnumpy._device import backend, default_device


@pytest.fixture
def reads(monkeypatch):
    be = backend(default_device())
    calls = []
    real = be.to_numpy

    def counted(node):
        calls.append(node.shape)
        return real(node)
    monkeypatch.setattr(be, "to_numpy", counted)
    _array._ELEMENTS.clear()
    return calls


def test_each_element_is_transferred_once(reads):
    row = np.array([0, 3, 3, 7, 9, 12])
    g = gp.asarray(row)
    seen = []
    for i in range(len(row) - 1):
        seen.append((int(g[i]), int(g[i + 1])))
    assert seen == [(row[i], row[i + 1]) for i in range(len(row) - 1)]
    n = 1 if g.device.kind == "cuda" else len(row)      # CUDA reads a block of 64
    assert len(reads) == n
    assert float(gp.asarray(row.astype(np.float32))[2]) == 3.0
    assert bool(g[1]) is True and len(reads) == n + 1


def test_blocks_of_elements(reads):
    """On CUDA an element read transfers its aligned block of 64 elements (never past the
    buffer's end); the CPU backend reads each element."""
    x = np.random.default_rng(7).standard_normal(150)
    g = gp.asarray(x)
    got = [float(g[i]) for i in (0, 63, 64, 100, 127, 128, 149, 5)]
    assert got == [x[i] for i in (0, 63, 64, 100, 127, 128, 149, 5)]
    assert len(reads) == (3 if g.device.kind == "cuda" else 8)
    if g.device.kind == "cuda":
        assert sorted(reads) == [(22,), (64,), (64,)]
    g[70] = 1.5
    assert float(g[100]) == x[100] and float(g[70]) == 1.5 and float(g[0]) == x[0]


WRITES = {
    "setitem": lambda a: a.__setitem__(2, 40),
    "iadd_element": lambda a: a.__setitem__(2, a[2] + 38),
    "slice": lambda a: a.__setitem__(slice(1, 4), 40),
    "iadd": lambda a: a.__iadd__(38),
    "fancy": lambda a: a.__setitem__(gp.asarray([2, 0]), 40),
    "mask": lambda a: a.__setitem__(a == 2, 40),
    "fill": lambda a: a.fill(40),
    "out": lambda a: gp.add(a, 38, out=a),
    "copyto": lambda a: gp.copyto(a, 40),
    "view": lambda a: a[1:][1:].__setitem__(0, 40),
    "reversed_view": lambda a: a[::-1].__setitem__(3, 40),
    "sort": lambda a: (a.__setitem__(0, 40), a.sort()),
    "put": lambda a: gp.put(a, [2], [40]),
    "ufunc_at": lambda a: gp.add.at(a, [2], 38),
}


@pytest.mark.parametrize("how", sorted(WRITES))
def test_a_write_is_seen(reads, how):
    a = gp.asarray(np.arange(6))
    assert int(a[2]) == 2
    WRITES[how](a)
    want = {"sort": 3, "iadd": 40, "out": 40}.get(how, 40)
    assert int(a[2]) == want
    assert a.get().tolist() == gp.asarray(a).get().tolist()


def test_a_deferred_statement_write_is_seen(reads):
    a = gp.asarray(np.arange(8.0))
    total = 0.0
    for j in range(1, 8):
        a[j] += a[j - 1]
        total += float(a[j])
    want = np.cumsum(np.arange(8.0))
    assert total == want[1:].sum()
    assert a.get().tolist() == want.tolist()


def test_other_dtype_views_of_the_memory(reads):
    a = gp.asarray(np.array([1.0, -2.0]))
    assert float(a[1]) == -2.0
    bits = a.view(np.int64)
    assert int(bits[1]) == np.array([-2.0]).view(np.int64)[0]
    bits[1] = np.array([3.5]).view(np.int64)[0]
    assert float(a[1]) == 3.5


def test_shared_memory_is_read_each_time(reads):
    host = np.arange(5)
    try:
        g = gp.asarray(host, copy=False, device="cpu")
    except ValueError:
        pytest.skip("this device cannot share NumPy's memory (CUDA)")
    assert int(g[3]) == 3
    host[3] = 30
    assert int(g[3]) == 30


def test_dlpack_export_stops_remembering(reads):
    a = gp.asarray(np.arange(4))
    assert int(a[1]) == 1
    cap = a.__dlpack__()
    del cap
    n = len(reads)
    assert int(a[1]) == 1 and int(a[1]) == 1
    assert len(reads) == n + 2
