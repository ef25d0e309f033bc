"""Bounds of index arrays remembered per memory (``_api/indexing/index_bounds``): slices of one index
array checked against the whole array's bounds without a transfer, every kind of write to
that memory voiding them, and NumPy's IndexError whenever an index is out of range.

The transfers are counted through ``index_bounds.minmax`` (each call is one
device->host sync on CUDA); results are compared with NumPy."""
import numpy as np
import pytest

import gnumpy as gp
from gnumpy._api.indexing import index_bounds as IB
from gnumpy._api.indexing import index_plan as IP
from gnumpy._api.indexing import indexing as IX
from helpers import check, count_calls


@pytest.fixture
def transfers(monkeypatch):
    IB._ROOTS.clear()
    calls = count_calls(monkeypatch, IP, "minmax", len)
    monkeypatch.setattr(IX, "minmax", IP.minmax)        # (indexing's own import of it)
    return calls


def _csr(seed, rows=12, cols=9):
    r = np.random.default_rng(seed)
    counts = r.integers(0, 5, rows)
    row = np.concatenate([[0], np.cumsum(counts)])
    col = r.integers(-cols, cols, row[-1])          # negative indices too
    return row, col, r.standard_normal(row[-1]), r.standard_normal(cols)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_row_loop_checks_once(transfers, seed):
    row, col, val, x = _csr(seed)
    gcol, gval, gx = gp.asarray(col), gp.asarray(val), gp.asarray(x)
    want = np.array([val[row[i]:row[i + 1]] @ x[col[row[i]:row[i + 1]]]
                     for i in range(len(row) - 1)])
    got = gp.zeros(len(row) - 1)
    for i in range(len(row) - 1):
        got[i] = gval[row[i]:row[i + 1]] @ gx[gcol[row[i]:row[i + 1]]]
    check(got, want)
    assert len(transfers) == 1 and transfers[0] == 2    # the first slice and the root


def test_repeated_base_index_checks_once(transfers):
    r = np.random.default_rng(3)
    idx = r.integers(-20, 20, 50)
    x = r.standard_normal(20)
    gi, gx = gp.asarray(idx), gp.asarray(x)
    for _ in range(4):
        check(gx[gi], x[idx])
    assert len(transfers) == 1


WRITES = {
    "setitem": lambda a, n: a.__setitem__(3, n),
    "slice": lambda a, n: a.__setitem__(slice(2, 5), n),
    "iadd": lambda a, n: a.__iadd__(n),
    "fancy": lambda a, n: a.__setitem__(gp.asarray([3]), n),
    "fill": lambda a, n: a.fill(n),
    "out": lambda a, n: gp.add(a, n, out=a),
    "copyto": lambda a, n: gp.copyto(a, n),
    "view_write": lambda a, n: a[1:].__setitem__(2, n),
}


@pytest.mark.parametrize("how", sorted(WRITES))
def test_a_write_voids_the_bounds(transfers, how):
    """Every write into the index array's memory after its bounds were taken: the next
    slice is checked again and an index now out of range raises NumPy's IndexError."""
    col = np.arange(10) % 6
    x = np.arange(6.0)
    gcol, gx = gp.asarray(col), gp.asarray(x)
    check(gx[gcol[0:4]], x[col[0:4]])
    n = len(transfers)
    WRITES[how](gcol, 100)
    with pytest.raises(IndexError):
        gx[gcol[1:9]]
    assert len(transfers) > n
    gcol[...] = gp.asarray(col)
    check(gx[gcol[2:7]], x[col[2:7]])


def test_root_out_of_range_slice_in_range(transfers):
    """The root holds an index out of range, the slice does not: checked exactly, each
    time, and gathered right."""
    col = np.array([0, 1, 2, 3, 50, 4, 5])
    x = np.arange(7.0) * 1.5
    gcol, gx = gp.asarray(col), gp.asarray(x)
    for a, b in ((0, 4), (5, 7), (1, 3)):
        check(gx[gcol[a:b]], x[col[a:b]])
    with pytest.raises(IndexError, match="index 50 is out of bounds for axis 0 with size 7"):
        gx[gcol[3:6]]
    assert len(transfers) == 4


def test_other_axis_size_is_checked(transfers):
    """Bounds remembered for one axis length do not prove an index for a shorter one."""
    col = np.array([0, 4, 2, 7, 1])
    gcol = gp.asarray(col)
    check(gp.arange(8.0)[gcol[0:3]], np.arange(8.0)[col[0:3]])
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 5"):
        gp.arange(5.0)[gcol[1:4]]
    check(gp.arange(5.0)[gcol[0:3]], np.arange(5.0)[col[0:3]])


def test_shared_memory_is_not_trusted(transfers):
    """Memory NumPy shares (``asarray(copy=False)``, the CPU backend) can change behind
    gnumpy's back: its bounds are never remembered."""
    col = np.array([0, 1, 2, 3, 1, 0])
    try:
        gcol = gp.asarray(col, copy=False, device="cpu")
    except ValueError:
        pytest.skip("this device cannot share NumPy's memory (CUDA)")
    gx = gp.asarray(np.arange(4.0), device="cpu")
    check(gx[gcol[0:3]], np.arange(4.0)[col[0:3]])
    col[4] = 9
    with pytest.raises(IndexError, match="index 9 is out of bounds"):
        gx[gcol[2:6]]


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.uint64])
def test_index_dtypes(transfers, dtype):
    col = (np.arange(12) * 5 % 7).astype(dtype)
    x = np.random.default_rng(4).standard_normal(7).astype(np.float32)
    gcol, gx = gp.asarray(col), gp.asarray(x)
    for a, b in ((0, 5), (3, 12), (6, 7)):
        check(gx[gcol[a:b]], x[col[a:b]])
    assert len(transfers) == 1


def test_scatter_through_a_slice_index(transfers):
    col = np.array([2, 0, 3, 1, 3, 2])
    v = np.random.default_rng(5).standard_normal(4)
    gcol = gp.asarray(col)
    want, got = v.copy(), gp.asarray(v)
    for a, b in ((0, 2), (2, 4)):
        want[col[a:b]] = -want[col[a:b]]
        got[gcol[a:b]] = -got[gcol[a:b]]
    check(got, want)
    with pytest.raises(IndexError):
        gp.zeros(3)[gcol[1:4]] = 1.0


IDX = {
    "positive": np.array([3, 0, 5, 5, 1]),
    "negative": np.array([-1, 2, -6, 0]),
    "empty": np.zeros(0, np.int64),
    "two_d": np.array([[1, -2], [0, 4]]),
    "uint8": np.array([5, 1, 2], np.uint8),
    "strided": np.arange(12)[::-3] % 6,
}


@pytest.mark.parametrize("name", sorted(IDX))
def test_one_dimensional_take_matches_the_plan(name):
    """``a[idx]`` for 1-D `a` takes indexing's short path (``_take1``): the same values
    as NumPy and as the general plan."""
    from gnumpy._api.indexing import indexing as IX
    idx = IDX[name]
    x = np.random.default_rng(6).standard_normal(6)
    gx, gi = gp.asarray(x), gp.asarray(idx)
    if name == "strided":
        gi = gp.asarray(np.arange(12))[::-3] % 6
    check(gx[gi], x[idx])
    p = IP.plan(gx, gi)
    check(IX.gather(gx, p.vops, p.off, p.shape), x[idx])


@pytest.mark.parametrize("bad", [[0, 6], [-7, 1]])
def test_one_dimensional_take_errors(bad):
    x = np.arange(6.0)
    with pytest.raises(IndexError) as want:
        x[np.array(bad)]
    with pytest.raises(IndexError) as got:
        gp.asarray(x)[gp.asarray(bad)]
    assert str(got.value) == str(want.value)


def test_a_view_as_another_dtype_is_checked_itself(transfers):
    """Bounds kept for an int8 root say nothing of its memory viewed as int16 (other
    values): the view's index raises NumPy's IndexError at the call."""
    x = gp.arange(10) * 1.0
    base = gp.asarray(np.array([0, 1], dtype=np.int8)) * 1
    gp.evaluate(base)
    check(x[base], np.arange(10.0)[[0, 1]])
    idx = base.view(np.int16)           # one element: 256
    with pytest.raises(IndexError, match="index 256 is out of bounds for axis 0 with size 10"):
        x[idx]
    with pytest.raises(IndexError):
        x[idx] = 5.0


def _narrowing(xp, n=24, iters=6):
    """mandelbrot's loop: index arrays narrowed by a mask each iteration (``Xi = Xi[I]``)
    and used to scatter (``N[Xi[I], Yi[I]] = i``)."""
    r = np.random.default_rng(5)
    Xi = xp.asarray(r.integers(0, 8, n))
    Yi = xp.asarray(r.integers(-9, 9, n))
    v = xp.asarray(r.standard_normal(n))
    N = xp.zeros((8, 9), dtype=xp.int64)
    for i in range(iters):
        I = v > -0.4 + 0.1 * i
        N[Xi[I], Yi[I]] = i + 1
        N[Xi[I], Yi[I]] += 1
        I = v < 0.8 - 0.1 * i
        Xi, Yi, v = Xi[I], Yi[I], v[I]
    return N, Xi, Yi


def test_gathered_index_arrays_take_their_sources_bounds(transfers):
    """The first check reduces the gathered arrays' sources too (one transfer); every later
    index array is a gather of one whose bounds are known: no transfer."""
    IB._DERIVED.clear()
    got = _narrowing(gp)
    for g, w in zip(got, _narrowing(np)):
        check(g, w)
    assert len(transfers) == 1 and transfers[0] == 4     # two indices, two sources


def test_a_gathered_index_written_is_checked_again(transfers):
    """A gather result written in place is checked itself: NumPy's IndexError."""
    IB._DERIVED.clear()
    src = gp.asarray(np.array([0, 1, 2, 3, 1]))
    x = gp.arange(4.0)
    idx = src[src > 0]
    check(x[idx], np.arange(4.0)[[1, 2, 3, 1]])
    idx2 = src[src < 3]
    check(x[idx2], np.arange(4.0)[[0, 1, 2, 1]])
    n = len(transfers)
    idx2[1] = 7
    with pytest.raises(IndexError):
        x[idx2]
    assert len(transfers) == n + 1
    view = src[1:][src[1:] > 0]         # a gather from a view: the root's bounds
    check(x[view], np.arange(4.0)[[1, 2, 3, 1]])
    src[0] = -9                         # the source written after the gather
    check(x[view], np.arange(4.0)[[1, 2, 3, 1]])
    with pytest.raises(IndexError):
        x[src[src < 0]]
