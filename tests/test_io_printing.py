"""File I/O and printing against NumPy: save/load of .npy and .npz (NpzFile mapping,
compression, pickles, mmap), text files (savetxt, loadtxt, genfromtxt and their keywords),
fromfile/frombuffer/fromstring/fromiter/fromregex, and array2string/array_repr/array_str,
the shared print options and the scalar formatters.

Every reader must return gnumpy arrays (never NumPy's) and raise TypeError for results
gnumpy cannot hold (structured, object, string dtypes, masked arrays).
"""
import io
import pickle

import numpy as np
import pytest

import gnumpy as gp
from gnumpy._api.io import npyio, printing
from helpers import check, pair, sample

ALL = [np.dtype(t) for t in (np.bool_, np.int8, np.uint16, np.int32, np.int64, np.uint64,
                             np.float16, np.float32, np.float64, np.complex64,
                             np.complex128)]
ALL_IDS = [str(d) for d in ALL]
REAL = [d for d in ALL if d.kind in "iuf"]
REAL_IDS = [str(d) for d in REAL]
LAYOUTS = ["contiguous", "strided", "transposed"]
SHAPES = [(), (0,), (2, 0, 3), (5,), (3, 4)]


def same(g, e):
    """`g` is a gnumpy array equal (exactly, NaN where NaN) to NumPy's `e`."""
    assert isinstance(g, gp.ndarray), type(g)
    check(g, e, rtol=0, atol=0)


@pytest.fixture
def restore_printoptions():
    with np.printoptions():
        yield


# ------------------------------------------------------------------ .npy

@pytest.mark.parametrize("dtype", ALL, ids=ALL_IDS)
@pytest.mark.parametrize("kind", LAYOUTS)
def test_save_load_npy(dtype, kind, tmp_path):
    a, g = pair(dtype, (3, 4), 1, kind)
    npyio.save(tmp_path / "g.npy", g)
    np.save(tmp_path / "n.npy", a)
    same(npyio.load(tmp_path / "g.npy"), a)
    same(npyio.load(tmp_path / "n.npy"), a)
    r = np.load(tmp_path / "g.npy")
    assert type(r) is np.ndarray and r.dtype == a.dtype
    np.testing.assert_array_equal(r, a)


@pytest.mark.parametrize("dtype", ALL, ids=ALL_IDS)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_save_load_shapes(dtype, shape, tmp_path):
    a, g = pair(dtype, shape, 2)
    npyio.save(tmp_path / "x.npy", g)
    r = npyio.load(tmp_path / "x.npy")
    same(r, a)
    assert r.shape == shape


def test_save_file_objects_names_and_sequences(tmp_path):
    g = gp.arange(6, dtype=gp.int16).reshape(2, 3)
    npyio.save(tmp_path / "noext", g)                  # NumPy appends .npy
    same(npyio.load(tmp_path / "noext.npy"), g.get())
    buf = io.BytesIO()
    npyio.save(buf, g[:, ::2])
    buf.seek(0)
    same(npyio.load(buf), g.get()[:, ::2])
    with open(tmp_path / "h.npy", "wb") as f:
        npyio.save(f, g)
        npyio.save(f, g.T)
    with open(tmp_path / "h.npy", "rb") as f:
        same(npyio.load(f), g.get())
        same(npyio.load(f), g.get().T)
    npyio.save(str(tmp_path / "lst.npy"), [g[0], g[1]])
    same(npyio.load(str(tmp_path / "lst.npy")), g.get())
    npyio.save(tmp_path / "py.npy", [[1.5, 2], [3, 4]])
    same(npyio.load(tmp_path / "py.npy"), np.array([[1.5, 2], [3, 4]]))
    npyio.save(tmp_path / "s.npy", np.float32(2.5))
    same(npyio.load(tmp_path / "s.npy"), np.asarray(np.float32(2.5)))


def test_load_mmap_copies(tmp_path):
    a = np.arange(10.0)
    np.save(tmp_path / "m.npy", a)
    r = npyio.load(tmp_path / "m.npy", mmap_mode="r+")
    same(r, a)
    r[0] = 99.0                                    # a device copy: the file is unchanged
    assert np.load(tmp_path / "m.npy")[0] == 0.0
    assert r[0].item() == 99.0


def test_load_unsupported_and_pickles(tmp_path):
    np.save(tmp_path / "o.npy", np.array([1, "a", None], dtype=object))
    with pytest.raises(ValueError, match="allow_pickle"):
        npyio.load(tmp_path / "o.npy")
    with pytest.raises(TypeError, match="object"):
        npyio.load(tmp_path / "o.npy", allow_pickle=True)
    np.save(tmp_path / "st.npy", np.zeros(3, dtype=[("a", "i4"), ("b", "f8")]))
    with pytest.raises(TypeError, match="structured"):
        npyio.load(tmp_path / "st.npy")
    np.save(tmp_path / "u.npy", np.array(["ab", "c"]))
    with pytest.raises(TypeError, match="dtype <U2"):
        npyio.load(tmp_path / "u.npy")
    np.save(tmp_path / "be.npy", np.arange(4, dtype=">i4"))   # byte order is fine
    same(npyio.load(tmp_path / "be.npy"), np.arange(4, dtype=np.int32))
    with open(tmp_path / "p.pkl", "wb") as f:
        pickle.dump({"k": [1, 2]}, f)
    with pytest.raises(ValueError, match="allow_pickle"):
        npyio.load(tmp_path / "p.pkl")
    assert npyio.load(tmp_path / "p.pkl", allow_pickle=True) == {"k": [1, 2]}
    with open(tmp_path / "a.pkl", "wb") as f:
        pickle.dump(np.arange(3), f)
    same(npyio.load(tmp_path / "a.pkl", allow_pickle=True), np.arange(3))
    with pytest.raises(FileNotFoundError):
        npyio.load(tmp_path / "missing.npy")
    (tmp_path / "bad.npy").write_bytes(b"\x93NUMPY garbage")
    with pytest.raises(ValueError):
        npyio.load(tmp_path / "bad.npy")


def test_load_pickled_gnumpy_array(tmp_path):
    with open(tmp_path / "g.pkl", "wb") as f:
        pickle.dump(gp.arange(3.0)[::-1], f)
    same(npyio.load(tmp_path / "g.pkl", allow_pickle=True), np.arange(3.0)[::-1])


def test_save_object_arrays(tmp_path):
    obj = np.array([1, "a"], dtype=object)
    with pytest.raises(ValueError, match="allow_pickle"):
        npyio.save(tmp_path / "o.npy", obj, allow_pickle=False)
    npyio.save(tmp_path / "o.npy", obj)            # NumPy writes it; gnumpy cannot read it
    assert np.load(tmp_path / "o.npy", allow_pickle=True).tolist() == [1, "a"]


# ------------------------------------------------------------------ .npz

@pytest.mark.parametrize("compressed", [False, True], ids=["savez", "savez_compressed"])
def test_savez_load(compressed, tmp_path):
    save = npyio.savez_compressed if compressed else npyio.savez
    ref = np.savez_compressed if compressed else np.savez
    arrays = {}
    for i, dt in enumerate(ALL):
        arrays[f"a_{dt}"] = pair(dt, (3, 4), i, LAYOUTS[i % 3])
    e0, g0 = pair(np.float64, (), 7)
    e1, g1 = pair(np.int8, (0, 2), 8)
    p = tmp_path / "x.npz"
    save(p, g0, g1, **{k: g for k, (_, g) in arrays.items()})
    ref(tmp_path / "n.npz", e0, e1, **{k: a for k, (a, _) in arrays.items()})
    names = list(arrays) + ["arr_0", "arr_1"]      # NumPy: keywords first
    with npyio.load(p) as f, np.load(tmp_path / "n.npz") as fn:
        assert isinstance(f, npyio.NpzFile)
        assert f.files == names == fn.files
        assert list(f) == list(f.keys()) == names and len(f) == len(names)
        assert "arr_0" in f and "arr_0.npy" in f and "nope" not in f
        same(f["arr_0"], e0)
        same(f["arr_1.npy"], e1)
        same(f.f.arr_1, e1)
        for k, (a, _) in arrays.items():
            same(f[k], a)
            same(f[k], fn[k])
        assert f.get("nope") is None
        with pytest.raises(KeyError):
            f["nope"]
        with pytest.raises(AttributeError):
            f.f.nope
        vals = dict(f.items())
        assert set(vals) == set(names) and all(isinstance(v, gp.ndarray) for v in vals.values())
        assert "x.npz" in repr(f) and repr(f).startswith("gnumpy NpzFile")
    with pytest.raises((ValueError, AttributeError, OSError)):
        f["arr_0"]                                     # closed


def test_savez_compression_and_errors(tmp_path):
    z = gp.zeros(100_000)
    npyio.savez(tmp_path / "u.npz", z=z)
    npyio.savez_compressed(tmp_path / "c.npz", z=z)
    assert (tmp_path / "c.npz").stat().st_size < (tmp_path / "u.npz").stat().st_size / 10
    f = npyio.load(tmp_path / "c.npz")
    same(f["z"], np.zeros(100_000))
    f.close()
    npyio.savez(tmp_path / "noext", gp.ones(2))        # NumPy appends .npz
    with npyio.load(tmp_path / "noext.npz") as f:
        same(f["arr_0"], np.ones(2))
    with pytest.raises(ValueError, match="arr_0"):
        npyio.savez(tmp_path / "d.npz", gp.ones(2), arr_0=gp.ones(3))
    buf = io.BytesIO()
    npyio.savez(buf, a=gp.arange(3)[::-1], b=[gp.asarray(1), gp.asarray(2)])
    buf.seek(0)
    with npyio.load(buf) as f:
        same(f["a"], np.arange(3)[::-1])
        same(f["b"], np.array([1, 2]))
    np.savez(tmp_path / "mix.npz", ok=np.ones(2), bad=np.array(["s"]))
    with npyio.load(tmp_path / "mix.npz") as f:
        same(f["ok"], np.ones(2))
        with pytest.raises(TypeError, match="gnumpy does not support dtype"):
            f["bad"]


# ------------------------------------------------------------------ text files

@pytest.mark.parametrize("dtype", ALL, ids=ALL_IDS)
@pytest.mark.parametrize("kind", LAYOUTS)
def test_savetxt_matches_numpy(dtype, kind, tmp_path):
    a, g = pair(dtype, (3, 4), 3, kind)
    for kw in ({}, {"fmt": "%s", "delimiter": ",", "header": "h", "footer": "f"},
               {"newline": ";\n", "comments": "// ", "header": "x y"}):
        if dtype.kind == "c" and "fmt" in kw:
            continue
        npyio.savetxt(tmp_path / "g.txt", g, **kw)
        np.savetxt(tmp_path / "n.txt", a, **kw)
        assert (tmp_path / "g.txt").read_bytes() == (tmp_path / "n.txt").read_bytes()
    npyio.savetxt(tmp_path / "g1.txt", g[0])
    np.savetxt(tmp_path / "n1.txt", a[0])
    assert (tmp_path / "g1.txt").read_bytes() == (tmp_path / "n1.txt").read_bytes()


@pytest.mark.parametrize("dtype", REAL + [np.dtype(np.complex128)],
                         ids=REAL_IDS + ["complex128"])
@pytest.mark.parametrize("kind", LAYOUTS)
def test_savetxt_loadtxt_round_trip(dtype, kind, tmp_path):
    a, g = pair(dtype, (4, 3), 4, kind)
    fmt = "%d" if dtype.kind in "iu" else "%.18e"
    npyio.savetxt(tmp_path / "x.txt", g, fmt=fmt, delimiter=",")
    same(npyio.loadtxt(tmp_path / "x.txt", dtype=dtype, delimiter=","), a)
    same(npyio.loadtxt(str(tmp_path / "x.txt"), dtype=dtype, delimiter=","),
         np.loadtxt(tmp_path / "x.txt", dtype=dtype, delimiter=","))


def test_savetxt_errors_and_empty(tmp_path):
    with pytest.raises(ValueError, match="1D or 2D"):
        npyio.savetxt(tmp_path / "x.txt", gp.asarray(1.0))
    with pytest.raises(ValueError, match="1D or 2D"):
        npyio.savetxt(tmp_path / "x.txt", gp.ones((2, 2, 2)))
    npyio.savetxt(tmp_path / "e.txt", gp.zeros((0, 3)))
    np.savetxt(tmp_path / "n.txt", np.zeros((0, 3)))
    assert (tmp_path / "e.txt").read_bytes() == (tmp_path / "n.txt").read_bytes()
    s = io.StringIO()
    npyio.savetxt(s, gp.asarray([[1, 2], [3, 4]]), fmt="%d")
    assert s.getvalue() == "1 2\n3 4\n"


TEXT = """# a comment
% other comment
1,2,3,4
5,6,7,8  # trailing
9,10,11,12
13,14,15,16
"""

LOADTXT_KW = [
    {"delimiter": ",", "comments": ["#", "%"]},
    {"delimiter": ",", "comments": "#", "skiprows": 2},
    {"delimiter": ",", "skiprows": 2, "usecols": (0, 2)},
    {"delimiter": ",", "skiprows": 2, "usecols": 1},
    {"delimiter": ",", "skiprows": 2, "usecols": [-1]},
    {"delimiter": ",", "skiprows": 2, "dtype": np.int32},
    {"delimiter": ",", "skiprows": 2, "dtype": np.uint8, "max_rows": 2},
    {"delimiter": ",", "skiprows": 2, "dtype": np.float16},
    {"delimiter": ",", "skiprows": 2, "dtype": np.complex64},
    {"delimiter": ",", "skiprows": 2, "dtype": bool},
    {"delimiter": ",", "skiprows": 2, "unpack": True},
    {"delimiter": ",", "skiprows": 2, "max_rows": 1, "ndmin": 2},
    {"delimiter": ",", "skiprows": 2, "max_rows": 1},
    {"delimiter": ",", "skiprows": 2, "usecols": 0, "ndmin": 1},
    {"delimiter": ",", "skiprows": 2, "converters": {0: lambda s: float(s) * 10}},
    {"delimiter": ",", "skiprows": 2, "converters": lambda s: -float(s), "dtype": np.int64},
    {"delimiter": ",", "skiprows": 2, "encoding": "utf-8", "quotechar": '"'},
]


@pytest.mark.parametrize("kw", LOADTXT_KW, ids=lambda kw: ",".join(sorted(kw)))
def test_loadtxt_keywords(kw, tmp_path):
    p = tmp_path / "t.txt"
    p.write_text(TEXT)
    if kw.get("dtype") is bool:
        p.write_text(TEXT.replace("1", "0"))
    same(npyio.loadtxt(p, **kw), np.loadtxt(p, **kw))
    lines = p.read_text().splitlines()
    same(npyio.loadtxt(lines, **kw), np.loadtxt(lines, **kw))


def test_loadtxt_shapes_and_errors(tmp_path):
    same(npyio.loadtxt(io.StringIO("1.5")), np.loadtxt(io.StringIO("1.5")))
    same(npyio.loadtxt(io.StringIO("1 2 3")), np.array([1.0, 2, 3]))
    same(npyio.loadtxt(io.StringIO("1\n2\n3"), ndmin=2), np.array([[1.0], [2], [3]]))
    with pytest.warns(UserWarning, match="input contained no data"):
        r = npyio.loadtxt(io.StringIO(""))
    same(r, np.empty((0,)))
    same(npyio.loadtxt(io.StringIO('"1,5";2'), delimiter=";", quotechar='"',
                       converters={0: lambda s: float(s.replace(",", "."))}),
         np.array([1.5, 2.0]))
    with pytest.raises(ValueError):
        npyio.loadtxt(io.StringIO("1 2\n3"))
    with pytest.raises(ValueError):
        npyio.loadtxt(io.StringIO("1 x"))
    with pytest.raises(FileNotFoundError):
        npyio.loadtxt(tmp_path / "missing.txt")
    with pytest.raises(TypeError, match="structured"):
        npyio.loadtxt(io.StringIO("1 2.5"), dtype=[("a", "i4"), ("b", "f8")])
    with pytest.raises(TypeError, match="gnumpy does not support dtype"):
        npyio.loadtxt(io.StringIO("a b"), dtype=str)
    a, b = npyio.loadtxt(io.StringIO("1 2.5\n3 4.5"), dtype=[("a", "i4"), ("b", "f8")],
                         unpack=True)
    same(a, np.array([1, 3], dtype=np.int32))
    same(b, np.array([2.5, 4.5]))


GENFROMTXT = """# x y z
1,2,3
4,,6
7,N/A,9
10,11,12
"""

GENFROMTXT_KW = [
    {"delimiter": ","},
    {"delimiter": ",", "missing_values": "N/A", "filling_values": -1},
    {"delimiter": ",", "filling_values": {1: 99}, "dtype": np.int64},
    {"delimiter": ",", "skip_header": 2, "skip_footer": 1},
    {"delimiter": ",", "usecols": (0, 2), "dtype": np.int16},
    {"delimiter": ",", "usecols": (0, 2), "dtype": None},
    {"delimiter": ",", "max_rows": 2, "comments": "#"},
    {"delimiter": ",", "unpack": True, "filling_values": 0},
    {"delimiter": ",", "autostrip": True, "dtype": np.float32},
    {"delimiter": ",", "invalid_raise": False, "dtype": np.complex128},
    {"delimiter": ",", "usecols": 0, "ndmin": 2},
    {"delimiter": [3, 3, 3]},
]


@pytest.mark.parametrize("kw", GENFROMTXT_KW, ids=lambda kw: ",".join(sorted(kw)))
def test_genfromtxt_keywords(kw, tmp_path):
    p = tmp_path / "g.txt"
    text = GENFROMTXT if not isinstance(kw["delimiter"], list) else "  1  2  3\n  4     6\n"
    p.write_text(text)
    same(npyio.genfromtxt(p, **kw), np.genfromtxt(p, **kw))
    same(npyio.genfromtxt(io.StringIO(text), **kw), np.genfromtxt(io.StringIO(text), **kw))


def test_genfromtxt_unsupported():
    with pytest.raises(TypeError, match="masked"):
        npyio.genfromtxt(io.StringIO("1,2"), delimiter=",", usemask=True)
    with pytest.raises(TypeError, match="structured"):
        npyio.genfromtxt(io.StringIO("a,b\n1,2"), delimiter=",", names=True)
    with pytest.raises(TypeError, match="structured"):
        npyio.genfromtxt(io.StringIO("1,x"), delimiter=",", dtype=None, encoding="utf-8")
    a, b = npyio.genfromtxt(io.StringIO("1,2.5\n3,4.5"), delimiter=",",
                            dtype=[("a", "i4"), ("b", "f8")], unpack=True)
    same(a, np.array([1, 3], dtype=np.int32))
    same(b, np.array([2.5, 4.5]))
    with pytest.raises(ValueError):
        npyio.genfromtxt(io.StringIO("1,2\n3"), delimiter=",")


# ------------------------------------------------------------------ raw data

@pytest.mark.parametrize("dtype", ALL, ids=ALL_IDS)
def test_fromfile(dtype, tmp_path):
    a, g = pair(dtype, (3, 5), 5, "strided")
    p = tmp_path / "x.bin"
    g.tofile(p)
    same(npyio.fromfile(p, dtype=dtype), a.ravel())
    same(npyio.fromfile(p, dtype=dtype, count=4), np.fromfile(p, dtype=dtype, count=4))
    off = dtype.itemsize * 2
    same(npyio.fromfile(str(p), dtype=dtype, count=3, offset=off),
         np.fromfile(p, dtype=dtype, count=3, offset=off))
    with open(p, "rb") as f:
        same(npyio.fromfile(f, dtype=dtype, count=2), a.ravel()[:2])
        same(npyio.fromfile(f, dtype=dtype, count=2), a.ravel()[2:4])
    if dtype.kind in "iu":
        np.savetxt(tmp_path / "t.txt", a.ravel()[None], fmt="%d", delimiter=",")
        same(npyio.fromfile(tmp_path / "t.txt", dtype=dtype, sep=","), a.ravel())


def test_fromfile_defaults_and_errors(tmp_path):
    p = tmp_path / "f.bin"
    np.arange(4.0).tofile(p)
    same(npyio.fromfile(p), np.arange(4.0))
    same(npyio.fromfile(p, dtype=None), np.arange(4.0))
    same(npyio.fromfile(tmp_path / "f.bin", dtype=np.float64, offset=32), np.empty(0))
    with pytest.raises(TypeError, match="structured"):
        npyio.fromfile(p, dtype=[("a", "f8")])
    with pytest.raises(TypeError, match="object"):
        npyio.fromfile(p, dtype=object)
    with pytest.raises(FileNotFoundError):
        npyio.fromfile(tmp_path / "missing.bin")


@pytest.mark.parametrize("dtype", ALL, ids=ALL_IDS)
def test_frombuffer(dtype):
    a = sample(dtype, (6,), np.random.default_rng(6))
    raw = bytearray(a.tobytes())
    r = npyio.frombuffer(raw, dtype=dtype)
    same(r, np.frombuffer(raw, dtype=dtype))
    same(npyio.frombuffer(bytes(raw), dtype=dtype, count=2, offset=dtype.itemsize),
         np.frombuffer(bytes(raw), dtype=dtype, count=2, offset=dtype.itemsize))
    same(npyio.frombuffer(memoryview(raw), dtype=dtype), a)
    raw[:] = bytes(len(raw))                          # a copy: later writes are not seen
    same(r, a)
    r[0] = r[1]                                       # and it is writable
    same(r[0], a[1])


def test_frombuffer_fromstring_errors():
    with pytest.raises(ValueError, match="multiple of element size"):
        npyio.frombuffer(b"abc", dtype=np.int16)
    with pytest.raises(ValueError):
        npyio.frombuffer(b"abcd", dtype=np.int16, count=5)
    with pytest.raises(TypeError, match="structured"):
        npyio.frombuffer(b"abcd", dtype="i2,i2")
    with pytest.raises(TypeError, match="does not support dtype"):
        npyio.frombuffer(b"abcd", dtype="S2")
    same(npyio.frombuffer(b"\x00" * 16), np.zeros(2))
    same(npyio.frombuffer(b""), np.frombuffer(b""))


@pytest.mark.parametrize("dtype", REAL, ids=REAL_IDS)
def test_fromstring(dtype):
    s = "1, 2, 3, 4"
    same(npyio.fromstring(s, dtype=dtype, sep=","), np.fromstring(s, dtype=dtype, sep=","))
    same(npyio.fromstring(s, dtype=dtype, count=2, sep=","),
         np.fromstring(s, dtype=dtype, count=2, sep=","))
    same(npyio.fromstring("1 2 3", dtype=dtype, sep=" "), np.array([1, 2, 3], dtype=dtype))


def test_fromstring_defaults_and_errors():
    same(npyio.fromstring("1.5 2", sep=" "), np.array([1.5, 2.0]))
    with pytest.raises(ValueError, match="frombuffer"):
        npyio.fromstring("\x01\x02", dtype=np.uint8)
    with pytest.raises(TypeError, match="object"):
        npyio.fromstring("1 2", dtype=object, sep=" ")


@pytest.mark.parametrize("dtype", ALL, ids=ALL_IDS)
def test_fromiter(dtype):
    a = sample(dtype, (7,), np.random.default_rng(7))
    vals = a.tolist()
    same(npyio.fromiter(iter(vals), dtype=dtype), np.fromiter(iter(vals), dtype=dtype))
    same(npyio.fromiter((v for v in vals), dtype, count=3), np.fromiter(vals, dtype, count=3))
    _, g = pair(dtype, (7,), 7, "strided")
    same(npyio.fromiter(g, dtype), a)
    same(npyio.fromiter([], dtype), np.fromiter([], dtype))


def test_fromiter_errors():
    with pytest.raises(ValueError, match="iterator too short"):
        npyio.fromiter(range(3), np.int64, count=5)
    with pytest.raises(TypeError):
        npyio.fromiter(range(3))
    with pytest.raises(TypeError, match="object"):
        npyio.fromiter(range(3), object)
    with pytest.raises(TypeError, match="subarray"):
        npyio.fromiter([(1, 2)], np.dtype((np.int64, 2)))


def test_fromregex(tmp_path):
    p = tmp_path / "r.txt"
    p.write_text("x=1 y=2.5\nx=3 y=-4\nx=7 y=1e3\n")
    ref = np.fromregex(p, r"x=(\d+) y=(\S+)", [("x", np.float64), ("y", np.float64)])
    same(npyio.fromregex(p, r"x=(\d+) y=(\S+)", np.float64),
         np.stack([ref["x"], ref["y"]], axis=1))
    ref1 = np.fromregex(p, r"x=(\d+)", [("x", np.int32)])
    same(npyio.fromregex(str(p), r"x=(\d+)", np.int32), ref1["x"])
    with open(p, "rb") as f:
        same(npyio.fromregex(f, rb"y=(\S+)", np.float32), np.array([2.5, -4, 1e3], np.float32))
    import re
    same(npyio.fromregex(io.StringIO("a1b22c333"), re.compile(r"\d+"), np.int64),
         np.array([1, 22, 333]))
    same(npyio.fromregex(io.StringIO("none"), r"(\d)", np.uint8), np.empty(0, np.uint8))
    with pytest.raises(TypeError, match="structured"):
        npyio.fromregex(p, r"x=(\d+)", [("x", np.int32)])
    with pytest.raises(ValueError):
        npyio.fromregex(p, r"y=(\S+)", np.int64)


def test_readers_return_gnumpy_on_default_device(tmp_path):
    np.save(tmp_path / "a.npy", np.arange(3))
    dev = gp.asarray(0).device
    for r in (npyio.load(tmp_path / "a.npy"), npyio.frombuffer(b"\x00" * 8),
              npyio.fromiter(range(2), np.int8), npyio.loadtxt(io.StringIO("1 2")),
              npyio.genfromtxt(io.StringIO("1 2")), npyio.fromstring("1", sep=" ")):
        assert isinstance(r, gp.ndarray) and r.device == dev


# ------------------------------------------------------------------ printing

@pytest.mark.parametrize("dtype", ALL, ids=ALL_IDS)
@pytest.mark.parametrize("kind", LAYOUTS)
def test_array_repr_str_match_numpy(dtype, kind):
    a, g = pair(dtype, (3, 4), 8, kind)
    assert printing.array_repr(g) == np.array_repr(a) == repr(g)
    assert printing.array_str(g) == np.array_str(a) == str(g)
    for kw in ({"precision": 2}, {"max_line_width": 30}, {"suppress_small": True},
               {"precision": 1, "max_line_width": 20, "suppress_small": True}):
        assert printing.array_repr(g, **kw) == np.array_repr(a, **kw)
        assert printing.array_str(g, **kw) == np.array_str(a, **kw)
    assert printing.array2string(g) == np.array2string(a)


@pytest.mark.parametrize("dtype", ALL, ids=ALL_IDS)
@pytest.mark.parametrize("shape", SHAPES + [(2000,), (30, 40)], ids=str)
def test_printing_shapes(dtype, shape):
    a, g = pair(dtype, shape, 9)
    assert printing.array_repr(g) == np.array_repr(a) == repr(g)
    assert printing.array_str(g) == np.array_str(a) == str(g)
    assert printing.array2string(g, threshold=10, edgeitems=2) == \
        np.array2string(a, threshold=10, edgeitems=2)


ARRAY2STRING_KW = [
    {"separator": ", "},
    {"prefix": "x = ", "suffix": ")", "max_line_width": 25},
    {"precision": 3, "floatmode": "fixed"},
    {"floatmode": "unique"},
    {"floatmode": "maxprec_equal", "precision": 2},
    {"sign": "+"},
    {"sign": " "},
    {"threshold": 5, "edgeitems": 1},
    {"formatter": {"all": lambda v: "<v>"}},
    {"formatter": {"float_kind": "{:.1f}".format, "int": hex}},
    {"legacy": "1.13"},
    {"legacy": "1.21", "separator": ","},
]


@pytest.mark.parametrize("dtype", [np.dtype(t) for t in (np.bool_, np.int16, np.float32,
                                                         np.float64, np.complex128)],
                         ids=str)
@pytest.mark.parametrize("kw", ARRAY2STRING_KW, ids=lambda kw: ",".join(sorted(kw)))
def test_array2string_keywords(dtype, kw):
    a, g = pair(dtype, (4, 3), 10, "transposed")
    assert printing.array2string(g, **kw) == np.array2string(a, **kw)
    assert printing.array2string(g[0, 0], **kw) == np.array2string(a[0, 0], **kw)


def test_printing_errors():
    with pytest.raises(ValueError):
        printing.array2string(gp.ones(3), floatmode="bogus")
    with pytest.raises(TypeError):
        printing.array2string(gp.ones(3), bogus=1)
    with pytest.raises(ValueError):
        printing.array2string(gp.ones(3), sign="x")


def test_printoptions_shared_with_numpy(restore_printoptions):
    g, a = gp.asarray([1 / 3, 2.0, 1e-9]), np.array([1 / 3, 2.0, 1e-9])
    printing.set_printoptions(precision=3, suppress=True)
    assert np.get_printoptions()["precision"] == 3
    assert printing.get_printoptions() == np.get_printoptions()
    assert repr(g) == repr(a) == printing.array_repr(g) == "array([0.333, 2.   , 0.   ])"
    assert str(g) == str(a)
    np.set_printoptions(precision=5, threshold=4, edgeitems=1, linewidth=40,
                        nanstr="NaN", infstr="Inf", sign="+", floatmode="fixed")
    assert printing.get_printoptions()["threshold"] == 4
    x = np.array([np.nan, np.inf, 1.0, 2.0, 3.0])
    assert repr(gp.asarray(x)) == repr(x) == printing.array_repr(gp.asarray(x))
    assert printing.array2string(gp.asarray(x)) == np.array2string(x)
    printing.set_printoptions(formatter={"float": lambda v: f"<{v:.1f}>"})
    assert repr(g) == repr(a)
    printing.set_printoptions(legacy="1.13", formatter=None)
    assert repr(g) == repr(a) and str(gp.asarray(1.5)) == str(np.asarray(1.5))
    printing.set_printoptions(override_repr=lambda arr: f"R{arr.shape}")
    assert repr(g) == "R(3,)" == repr(a)
    with pytest.raises(ValueError):
        printing.set_printoptions(floatmode="bogus")
    with pytest.raises(TypeError):
        printing.set_printoptions(bogus=1)


def test_printoptions_context(restore_printoptions):
    g, a = gp.asarray([1 / 3, 2.0]), np.array([1 / 3, 2.0])
    before = printing.get_printoptions()
    with printing.printoptions(precision=2, sign="+") as opts:
        assert opts["precision"] == 2 and opts == printing.get_printoptions()
        assert repr(g) == repr(a) == "array([+0.33, +2.  ])"
        with printing.printoptions(precision=4):
            assert str(g) == str(a) == "[+0.3333 +2.    ]"
        assert str(g) == "[+0.33 +2.  ]"
    assert printing.get_printoptions() == before
    assert repr(g) == repr(a)
    with pytest.raises(RuntimeError):
        with printing.printoptions(precision=1):
            raise RuntimeError
    assert printing.get_printoptions() == before
    with pytest.raises(ValueError):
        with printing.printoptions(sign="x"):
            pass


FLOATS = [0.1, -2.5, 1e-20, 123456789.125, np.inf, -np.inf, np.nan, -0.0, 0.0]


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64], ids=str)
def test_format_float(dtype):
    for v in FLOATS:
        with np.errstate(over="ignore"):
            s = dtype(v)                              # 123456789 overflows float16
        g = gp.asarray(s)
        for kw in ({}, {"precision": 3}, {"unique": False, "precision": 4},
                   {"trim": "-", "sign": True}, {"pad_left": 5}, {"min_digits": 3}):
            assert printing.format_float_scientific(g, **kw) == \
                np.format_float_scientific(s, **kw)
            assert printing.format_float_scientific(s, exp_digits=3, **kw) == \
                np.format_float_scientific(s, exp_digits=3, **kw)
            assert printing.format_float_positional(g, **kw) == \
                np.format_float_positional(s, **kw)
        for kw in ({"fractional": False, "precision": 2}, {"pad_right": 4, "trim": "0"}):
            assert printing.format_float_positional(g, **kw) == \
                np.format_float_positional(s, **kw)
    assert printing.format_float_positional(0.5) == np.format_float_positional(0.5)


def test_format_float_errors():
    assert printing.format_float_positional(gp.asarray(3)) == \
        np.format_float_positional(np.int64(3))
    with pytest.raises(TypeError):
        printing.format_float_scientific(gp.asarray([1.0, 2.0]))
    with pytest.raises(TypeError, match="precision"):
        printing.format_float_positional(1.5, unique=False)
    with pytest.raises(TypeError, match="trim"):
        printing.format_float_scientific(1.5, trim="x")


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.int64, np.uint64],
                         ids=str)
def test_base_repr_binary_repr(dtype):
    info = np.iinfo(dtype)
    for v in sorted({0, 1, 5, 100, int(info.max), int(info.min), -1 if info.min < 0 else 2}):
        s, g = dtype(v), gp.asarray(v, dtype=dtype)
        for base, pad in ((2, 0), (3, 2), (16, 0), (36, 4)):
            assert printing.base_repr(g, base, pad) == np.base_repr(s, base, pad)
            assert printing.base_repr(v, base=base, padding=pad) == \
                np.base_repr(v, base=base, padding=pad)
        assert printing.binary_repr(g) == np.binary_repr(s)
        assert printing.binary_repr(v) == np.binary_repr(v)
        w = 8 * np.dtype(dtype).itemsize
        assert printing.binary_repr(g, width=w) == np.binary_repr(s, width=w)


def test_base_repr_binary_repr_errors():
    with pytest.raises(ValueError):
        printing.base_repr(5, base=37)
    with pytest.raises(ValueError):
        printing.base_repr(gp.asarray(5), base=1)
    with pytest.raises(ValueError):
        printing.binary_repr(-300, width=8)
    assert printing.binary_repr(-3, width=8) == "11111101"


def test_numpy_functions_dispatch_without_recursion(tmp_path, monkeypatch):
    """Once exported, NumPy's functions called on gnumpy arrays dispatch (through
    ``__array_function__``) to these, which must hand NumPy host arrays only."""
    for mod in (npyio, printing):
        for name in mod.__all__:
            monkeypatch.setattr(gp, name, getattr(mod, name), raising=False)
    g = gp.arange(6.0).reshape(2, 3).T
    np.save(tmp_path / "x.npy", g)
    same(npyio.load(tmp_path / "x.npy"), np.arange(6.0).reshape(2, 3).T)
    np.savez(tmp_path / "x.npz", g, b=g)
    np.savetxt(tmp_path / "x.txt", g)
    same(npyio.loadtxt(tmp_path / "x.txt", like=g), g.get())
    assert np.array2string(g) == np.array2string(g.get())
    assert np.array_repr(g) == repr(g) and np.array_str(g) == str(g)
    same(np.frombuffer(b"\x01\x02", dtype=np.uint8, like=g), np.array([1, 2], np.uint8))


def test_refused_dlpack_capsule_keeps_the_consumers_exception():
    # a consumer that refuses a capsule (NumPy given device memory) raises its own error,
    # not SystemError: the capsule has no destructor running Python under that exception
    from gnumpy import _dlpack
    from gnumpy._graph.ir import leaf
    buf = np.arange(4.0)
    node = leaf(buf, np.dtype(np.float64), (4,), (1,), 0, gp.asarray(0).device)

    class OnDevice:
        def __dlpack_device__(self):
            return (2, 0)

        def __dlpack__(self, **kw):
            return _dlpack.export(node, buf.ctypes.data, (2, 0), owner=buf,
                                  max_version=kw.get("max_version"))
    with pytest.raises((BufferError, RuntimeError, TypeError)):
        np.from_dlpack(OnDevice())
