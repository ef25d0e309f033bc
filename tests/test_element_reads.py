"""Elements read to the host are remembered while their memory is unchanged
(``_hostvals``, ``ndarray._scalar``): a loop reading ``row[i]`` and ``row[i + 1]``
transfers each element once, and every kind of write into the memory makes the next read
see the new value.  Transfers are counted at the backend's ``to_numpy``."""
import numpy as np
import pytest

import gnumpy as gp
from gnumpy import _hostvals
from gnumpy._device import backend, default_device
from helpers import check, count_calls


@pytest.fixture
def reads(monkeypatch):
    _hostvals.ELEMENTS.clear()
    return count_calls(monkeypatch, backend(default_device()), "to_numpy",
                       lambda node: node.shape)


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
    if g.device.kind == "cuda":     # the last block: to the allocation's end (>= 22)
        assert sorted(reads)[1:] == [(64,), (64,)] and 22 <= sorted(reads)[0][0] <= 64
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


@pytest.fixture
def device_evals(monkeypatch):
    """Conversions that went to the device (ndarray.get) rather than the host."""
    return count_calls(monkeypatch, gp.ndarray, "get", lambda self, *a: self.shape)


def _crc16(np_, data, poly=0x8408):
    crc = 0xFFFF
    for b in data:
        cur = 0xFF & b
        for _ in range(8):
            if (crc & 0x0001) ^ (cur & 0x0001):
                crc = (crc >> 1) ^ poly
            else:
                crc >>= 1
            cur >>= 1
    return (~crc & 0xFFFF)


def test_conditions_of_known_elements_run_on_the_host(reads, device_evals):
    data = np.random.default_rng(8).integers(0, 256, 40).astype(np.uint8)
    g = gp.asarray(data)
    assert _crc16(gp, g) == _crc16(np, data)
    assert device_evals == []           # every condition computed on the host
    assert len(reads) == (1 if g.device.kind == "cuda" else 40)


EXPRS = {       # name: (expression of x[i] / y[i], host-exact?)
    "int_chain": (lambda x, y, i: ((x[i] * 3 - 7) & 0x3F) >> 2 > (x[i] ^ 5), True),
    "int8_wraps": (lambda x, y, i: (x[i] + 100) < 0, True),
    "compare_float": (lambda x, y, i: y[i] >= 0.25, True),
    "minmax": (lambda x, y, i: gp.maximum(y[i], 0.5) == gp.minimum(y[i], 0.5), True),
    "where": (lambda x, y, i: gp.where(x[i] > 0, y[i], -y[i]) < 0, True),
    "abs_neg": (lambda x, y, i: -abs(x[i]) <= 0, True),
    "cast_int_float": (lambda x, y, i: x[i].astype(np.float32) < y[i], True),
    "float_arith": (lambda x, y, i: y[i] * 3.0 + 1.0 > 1.9, False),
    "float_to_int": (lambda x, y, i: y[i].astype(np.int8) == 0, False),
    "divide": (lambda x, y, i: x[i] / 3 > 1, False),
}


@pytest.mark.parametrize("name", sorted(EXPRS))
def test_host_values_match_numpy(reads, device_evals, name):
    f, exact = EXPRS[name]
    r = np.random.default_rng(9)
    x = r.integers(-128, 128, 20).astype(np.int8)
    y = r.standard_normal(20)
    gx, gy = gp.asarray(x), gp.asarray(y)
    with np.errstate(all="ignore"):
        want = [bool(np.asarray(f(np.asarray(x), np.asarray(y), i))) for i in range(20)]
    del device_evals[:]         # (gp.maximum of NumPy values is a gnumpy array, read above)
    got = [bool(f(gx, gy, i)) for i in range(20)]
    assert got == want
    assert (device_evals == []) is exact


def test_memory_written_in_place(reads, device_evals):
    """Conditions over memory the program writes read at most one unknown block (what
    the device path would transfer) and see every write: a constant written into an
    element updates its known block (no transfer after it), any other write makes the
    buffer's blocks unknown."""
    a = gp.asarray(np.arange(10, dtype=np.int32))
    cpu = a.device.kind != "cuda"       # (the CPU backend's blocks are single elements)
    assert bool(a[3] > 2) and len(reads) == 1
    a[3] = -5                           # a constant: the block takes it
    assert not bool(a[3] > 2) and len(reads) == 1
    a[4] += 10                          # computed by the device: the block is read again
    assert bool(a[4] == 14) and bool(a[3] == -5) and len(reads) == 2 + cpu
    a[5] = a[6]                         # a copy of a known element (on the CPU backend
    assert bool(a[5] == 6) and len(reads) == 2 + 2 * cpu    # a[6] was not read: unknown)
    a[7] = a[6] * 2                     # computed by the device
    assert bool(a[7] == 12) and len(reads) == 3 + 2 * cpu
    a[1:3] = 7                          # not one element
    assert bool(a[2] == 7) and len(reads) == 4 + 2 * cpu
    assert device_evals == []
    assert int(a[3]) == -5 and int(a[4]) == 14 and a.get().tolist() == \
        [0, 7, 7, -5, 14, 6, 6, 12, 8, 9]


def test_a_condition_over_two_unknown_blocks_goes_to_the_device(reads, device_evals):
    """Two blocks of written memory unknown: the device computes it (one transfer)."""
    a = gp.asarray(np.arange(200, dtype=np.int64))
    a[0] += 1
    assert bool(a[10] < a[150]) and len(device_evals) == 1
    cpu = a.device.kind != "cuda"           # (single-element blocks: two unknown)
    assert bool(a[10] < a[20]) and len(device_evals) == 1 + cpu   # one block: read


def _nussinov(np_, N, seq):
    table = np_.zeros((N, N), np_.int32)
    for i in range(N - 1, -1, -1):
        for j in range(i + 1, N):
            table[i, j] = max(table[i, j], table[i, j - 1])
            table[i, j] = max(table[i, j], table[i + 1, j])
            if i < j - 1:
                m = 1 if seq[i] + seq[j] == 3 else 0
                table[i, j] = max(table[i, j], table[i + 1, j - 1] + m)
            else:
                table[i, j] = max(table[i, j], table[i + 1, j - 1])
            for k in range(i + 1, j):
                table[i, j] = max(table[i, j], table[i, k] + table[k + 1, j])
    return table


@pytest.mark.parametrize("N", [9, 12])
def test_a_table_updated_by_conditions(N, reads, device_evals):
    """NPBench's nussinov: every condition reads elements of the table being written, and
    every write is a value the host computed: NumPy's table; on CUDA each block read
    once, no condition on the device."""
    seq = np.random.default_rng(N).integers(0, 4, N).astype(np.int32)
    got = _nussinov(gp, N, gp.asarray(seq))
    want = _nussinov(np, N, seq)
    if got.device.kind == "cuda":       # (the CPU backend's blocks are single elements)
        assert device_evals == []
        assert len(reads) <= 4          # seq's block, the table's blocks (N * N <= 144)
    check(got, want)


def test_computed_ops_become_constants(reads, device_evals):
    """A chain over a known element (crc16's ``cur >>= 1``) is computed once: the ops
    evaluated on the host become constants of the same values."""
    from gnumpy._graph.ir import SCALAR
    g = gp.asarray(np.array([0b10110101], np.uint8))
    cur = 0xFF & g[0]
    bits = []
    for _ in range(8):
        bits.append(bool(cur & 1))
        assert cur._node.kind == SCALAR and cur._node.size == 1
        cur >>= 1
    assert bits == [bool(0b10110101 >> k & 1) for k in range(8)]
    assert int(cur) == 0 and cur.dtype == np.uint8 and device_evals == []


STATEMENTS = [      # element statements of scalar loops, run on NumPy and gnumpy alike
    "a[i, j] += a[i, j - 1]; a[i, j] /= 9.0",
    "a[i, j] = a[i, j] * a[i - 1, j] - 0.5",
    "a[i, j] = max(a[i, j], a[i, j - 1] + 1.0)",
    "a[i, j] -= a[i, j - 1] ** 2; a[i, j] = -a[i, j]",
    "a[i, j] = (a[i - 1, j] > a[i, j - 1]) * 3.0",
    "a[-1, -j] = a[i, j] / 0.0",
    "a[i, j] = np.sqrt(a[i, j]) + np.exp(-a[i, j - 1])",
    "v = a[i, j]; a[i, j] = 2.0; a[i, j - 1] = v",
    "at[j, i] += at[i, j]",
    "s[3 * j] = s[3 * j - 3] + s[3 * j]",
    "k[i, j] += 100; k[i, j] *= 3",
    "k[i, j] = a[i, j]",
    "u[j] -= 200",
    "z[i, j] = z[i, j] * 1j + a[i, j]",
    "b[j] = ~b[j - 1]",
    "h[i] = h[i] * 7.5 + h[i - 1]",
    "x0[()] += a[i, j]",
]


@pytest.mark.parametrize("stmt", STATEMENTS)
def test_element_statements_match_numpy(stmt):
    """Loops of element statements (on the CPU backend each is written at once,
    ``CpuBackend.write_element``; on CUDA they wait and fold): NumPy's values, dtypes and
    the arrays' later reads."""
    r = np.random.default_rng(10)
    base = r.standard_normal((6, 7)) * 3.0

    def arrays(xp):
        a = xp.asarray(base.copy())
        return dict(np=xp, a=a, at=xp.asarray(base.copy()).T,
                    s=xp.asarray(base.copy()).reshape(-1)[::2],
                    k=xp.asarray(r.integers(-100, 100, (6, 7)).astype(np.int8)),
                    u=xp.asarray(np.arange(7, dtype=np.uint16)),
                    z=xp.asarray(base.astype(np.complex128)),
                    b=xp.asarray(np.arange(7) % 3 == 0),
                    h=xp.asarray(base[0].astype(np.float16)),
                    x0=xp.asarray(np.float64(1.5)))
    envs = []
    for xp in (np, gp):
        r = np.random.default_rng(10)
        env = arrays(xp)
        with np.errstate(all="ignore"):
            for i in range(1, 6):
                for j in range(1, 6):
                    env["i"], env["j"] = i, j
                    exec(stmt, env)
        envs.append(env)
    for name in ("a", "at", "s", "k", "u", "z", "b", "h", "x0"):
        check(envs[1][name], envs[0][name])


def test_operators_are_numpys_scalar_math():
    """_hostvals computes these ops with Python's operators on NumPy scalars: the same
    values, result types and errors as the op table's NumPy implementations, for every
    pair of dtypes (NaN, inf, -0, wraparound, shifts past the width, bool arithmetic)."""
    import warnings
    from gnumpy._ops import EW_OPS
    dts = [np.bool_, np.int8, np.uint8, np.int16, np.uint32, np.int64, np.uint64,
           np.float16, np.float32, np.float64, np.complex64, np.complex128]
    raw = np.array([0, -1, 127, 200, np.nan, -np.inf, -0.0, 2.5, 70])

    def vals(d):
        return np.array([True, False]) if d is np.bool_ else raw.astype(d)

    def outcome(f, *a):
        try:
            return f(*a)
        except Exception as e:      # noqa: BLE001 - the error type is what is compared
            return type(e)

    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, f in _hostvals._OPERATORS.items():
            ref = EW_OPS[name].np_impl
            pairs = [(a,) for d in dts for a in vals(d)] if EW_OPS[name].nin == 1 else \
                [(a, b) for d1 in dts for d2 in dts for a in vals(d1)[::2]
                 for b in vals(d2)[1::2]]
            for args in pairs:
                x, y = outcome(ref, *args), outcome(f, *args)
                if isinstance(x, type) or isinstance(y, type):
                    assert isinstance(x, type) and isinstance(y, type), (name, args, x, y)
                    continue
                assert type(x) is type(y), (name, args, x, y)
                assert x == y or (x != x and y != y), (name, args, x, y)
                if np.isrealobj(x) and x.dtype.kind == "f":
                    assert np.signbit(x) == np.signbit(y), (name, args, x, y)


def test_float64_statements_on_python_floats_are_numpys():
    """``_hostvals.compute`` evaluates float64 +, -, *, / and negation on Python floats (no
    errstate): bit for bit NumPy's float64 scalar math over NaN, inf, -0, overflow and
    division by zero (which falls back to NumPy's scalars), and no warning escapes."""
    import warnings
    from gnumpy._graph import ir
    raw = [0.0, -0.0, 1.0, -2.5, 1e308, -1e-308, 5e-324, np.inf, -np.inf, np.nan, 3.0]
    buf = np.array(raw)
    dev = gp.asarray(0.0).device
    leaves = [ir.leaf(buf, buf.dtype, (), (), k, dev) for k in range(len(raw))]
    read = lambda n: n.buf[n.offset]      # noqa: E731
    f64 = np.dtype(np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for op, f in (("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply),
                      ("divide", np.divide)):
            for i, x in enumerate(raw):
                for j, y in enumerate(raw):
                    node = ir.ew(op, f64, (leaves[i], leaves[j]))
                    if op != "divide" or y != 0:        # (the Python-float path ran)
                        assert _hostvals._eval_f64(node, read) is not None
                    got = _hostvals.compute(node, read)
                    with np.errstate(all="ignore"):
                        ref = f(np.float64(x), np.float64(y))
                    assert type(got) is np.float64
                    assert got.tobytes() == ref.tobytes() or (got != got and ref != ref), \
                        (op, x, y, got, ref)
        for i, x in enumerate(raw):
            got = _hostvals.compute(ir.ew("negative", f64, (leaves[i],)), read)
            assert np.float64(-x).tobytes() == got.tobytes() or x != x


def test_blocks_stay_inside_what_is_known_of_the_buffer():
    """A CUDA element read transfers a block only within the buffer's known size: an
    imported view (size not known, 0) and shared memory read the element alone."""
    from gnumpy._device import Device
    from gnumpy._graph import ir
    from gnumpy import _memstate

    class Buf:
        def __init__(self, size):
            self.size, self.ptr = size, 0

    dev = Device("cuda", 7)
    f8 = np.dtype(np.float64)
    assert _hostvals._block(ir.leaf(Buf(800), f8, (), (), 70, dev)) == (64, 36)
    assert _hostvals._block(ir.leaf(Buf(1024), f8, (), (), 70, dev)) == (64, 64)
    assert _hostvals._block(ir.leaf(Buf(0), f8, (), (), 5, dev)) == (5, 1)
    b = Buf(1024)
    _memstate.share(b)
    assert _hostvals._block(ir.leaf(b, f8, (), (), 70, dev)) == (70, 1)


def test_a_value_computed_by_another_thread_meanwhile():
    """The node became a constant before this thread took the lock: its value."""
    a = gp.asarray(np.arange(6, dtype=np.int64))
    t = (a[1] & 1) ^ (a[2] & 1)
    n = t._node
    v = _hostvals.value(n, backend)
    assert n.kind == 1 and v == 1        # SCALAR now
    assert _hostvals.value(n, backend) == 1 and int(t) == 1


def test_a_graph_replay_forgets_every_known_value(reads):
    """A CUDA graph's replay writes what its statements wrote, memory gnumpy cannot name
    (``readers.flush_readers_of``): every element is read again."""
    from gnumpy._graph import readers
    a = gp.asarray(np.arange(6.0))
    assert float(a[2]) == 2.0 and float(a[2]) == 2.0
    n = len(reads)
    readers.flush_readers_of({})
    assert float(a[2]) == 2.0 and len(reads) == n + 1


def test_a_constant_write_does_not_revive_stale_blocks(reads):
    """Blocks made stale by another write stay stale through a later constant write
    (the group's stamp moves only when it was valid before the write), and blocks read
    as another dtype of the same memory are not updated by it: they are read again."""
    a = gp.asarray(np.arange(10, dtype=np.int32))
    u = a.view(np.uint32)
    cpu = a.device.kind != "cuda"
    assert int(a[3]) == 3 and int(u[3]) == 3 and len(reads) == 2
    a[4] += 10                          # stale: a's and u's blocks
    a[5] = -1                           # a constant, but the group was stale
    assert int(a[3]) == 3 and len(reads) == 3
    a[6] = -2                           # now a's group is valid: it takes the value
    assert int(a[6]) == -2 and int(a[4]) == 14 and len(reads) == 3 + 2 * cpu
    assert int(u[6]) == 2**32 - 2 and int(u[5]) == 2**32 - 1
    assert a.get().tolist() == [0, 1, 2, 3, 14, -1, -2, 7, 8, 9]
