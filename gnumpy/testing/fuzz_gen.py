"""Random programs for the differential fuzzer.

``generate(seed)`` builds a program step by step while running it on NumPy, so each new
step is chosen for the shapes and dtypes the program has at that point: elementwise ops
from gnumpy's op table (operators, ufuncs with ``out=``/``dtype=``/``casting=``/``where=``),
reductions, views (slices with steps, integers, None, Ellipsis, transposes, reshapes,
broadcasts, real/imag parts, diagonals), writes through views that overlap their source,
in-place operators, fancy indexing (integer and boolean arrays, mixed with slices; the
keys come from fuzz_keys), promotion across every dtype with Python and NumPy scalars,
NaN/inf/-0, empty and 0-d arrays.  A step that NumPy refuses is kept as the program's last
step (its exception is what gnumpy must raise) some of the time and otherwise replaced.

``portable=True`` leaves out what NumPy does not define the same way on every machine
(conversions of NaN, inf or out-of-range floats to integers), for comparing devices.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from .fuzz_keys import basic_key, fancy_key
from .fuzz_prog import BINOPS, IOPS, WRITES, Host, Namespace, Ref, Step, run_step
from .fuzz_rules import castable, full_mask, host_key, laid, safe_value
from .._ops import EW_OPS, INTERNAL_EW

DTYPES = [np.dtype(t) for t in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                "uint32", "uint64", "float16", "float32", "float64",
                                "complex64", "complex128")]
_COMMON = [0, 1, 2, 3, -1, 0.5, 1.5, -2.5, 2.0, True]
_SPECIAL = [7, -8, 127, 128, 255, 256, -129, 2**31, 2**32, 2**63 - 1, 2**63, -2**63, 2**64,
            0.0, -0.0, 1e-300, 1e300, float("nan"), float("inf"), float("-inf"), 1j,
            complex(2, -1), False, 65504.0, 3.4e38]
_NP_SCALARS = [np.float32(1.5), np.float64(-0.0), np.int8(-3), np.uint8(200), np.int64(5),
               np.float16(2), np.complex64(1 + 1j), np.bool_(True), np.uint64(2**63),
               np.int32(-7), np.float64("nan"), np.uint16(65535)]
_REDUCE = ["sum", "prod", "mean", "var", "std", "min", "max", "any", "all", "argmin",
           "argmax", "ptp", "count_nonzero", "nansum", "nanmax", "nanmean", "cumsum"]
_COMPARISONS = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}
_DTYPE_KW = {"sum", "prod", "mean", "var", "std", "nansum", "nanmean", "cumsum"}


def _ufunc_names():
    out = []
    for n, r in EW_OPS.items():
        if n in INTERNAL_EW or not isinstance(getattr(np, n, None), np.ufunc):
            continue
        out.append((n, r.nin))
    return out


class Gen:
    """State of one program being generated (its NumPy results so far)."""

    def __init__(self, seed, portable=False):
        self.rng = np.random.default_rng(seed)
        self.portable = portable
        self.env = []
        self.prog = []
        self.ns = Namespace(np)
        self.ufuncs = _ufunc_names()
        self.laid = []      # per result: does NumPy lay it out in memory as gnumpy does?

    # ---------------------------------------------------------------- random pieces
    def p(self, x) -> bool:
        return self.rng.random() < x

    def choice(self, seq):
        return seq[int(self.rng.integers(len(seq)))]

    def dtype(self):
        return self.choice(DTYPES)

    def shape(self):
        nd = self.choice([0, 1, 1, 1, 2, 2, 2, 3, 3])
        return tuple(int(self.choice([0, 1, 1, 2, 3, 3, 4, 5])) if self.p(0.97) else 0
                     for _ in range(nd))

    def values(self, dt, shape):
        r = self.rng
        n = math.prod(shape)
        if dt.kind == "b":
            return r.random(shape) < 0.5
        if dt.kind in "iu":
            info = np.iinfo(dt)
            mode = int(r.integers(3))
            if mode == 0:
                v = r.integers(-6, 7, size=shape)
                v = np.clip(v, int(info.min), int(info.max))
            elif mode == 1:
                v = r.integers(int(info.min), int(info.max), size=shape, endpoint=True,
                               dtype=dt)
            else:
                pool = np.array([info.min, info.max, 0, 1, 2, 3, info.max // 2], dtype=dt)
                v = pool[r.integers(len(pool), size=shape)]
            return np.asarray(v).astype(dt)
        if dt.kind == "c":
            rdt = np.dtype(f"f{dt.itemsize // 2}")
            return (self.values(rdt, shape) + 1j * self.values(rdt, shape)).astype(dt)
        v = r.standard_normal(shape) * self.choice([1.0, 1.0, 10.0, 1000.0, 0.01])
        if self.p(0.4):
            v = np.round(v * 2) / 2          # halves: rounding ties
        if n and self.p(0.5):
            info = np.finfo(dt)
            specials = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, float(info.tiny),
                                 float(info.max), -float(info.max), 0.5, -1.5])
            mask = r.random(shape) < 0.2
            v = np.where(mask, specials[r.integers(len(specials), size=shape)], v)
        with np.errstate(all="ignore"):
            return np.asarray(v).astype(dt)

    def scalar(self, allow_np=True):
        if allow_np and self.p(0.15):
            return self.choice(_NP_SCALARS)
        return self.choice(_COMMON) if self.p(0.7) else self.choice(_SPECIAL)

    # ---------------------------------------------------------------- the env
    def arrays(self, pred=None):
        return [i for i, v in enumerate(self.env) if isinstance(v, np.ndarray) and
                (pred is None or pred(v))]

    def pick(self, pred=None):
        idx = self.arrays(pred)
        return self.choice(idx) if idx else None

    def partner(self, shape, exact=False):
        """An operand for an array of `shape`: an array broadcasting with it (exactly
        `shape` when `exact`), or a scalar."""
        def fits(v):
            if exact:
                try:
                    return np.broadcast_shapes(v.shape, shape) == shape
                except ValueError:
                    return False
            try:
                np.broadcast_shapes(v.shape, shape)
                return True
            except ValueError:
                return False
        if self.p(0.35):
            return self.scalar()
        i = self.pick(fits if self.p(0.97) else None)
        return self.scalar() if i is None else Ref(i)

    # ---------------------------------------------------------------- steps
    def new_array(self):
        dt, shape = self.dtype(), self.shape()
        return Step("asarray", (Host(self.values(dt, shape)),)), True

    def propose(self):
        """(step, pure): one random step for the current state."""
        if not self.arrays() or self.p(0.08):
            return self.new_array()
        kind = self.choice(["binop"] * 6 + ["ufunc"] * 6 + ["unop"] + ["reduce"] * 3 +
                           ["view"] * 5 + ["fancy"] * 2 + ["setitem"] * 4 + ["iop"] * 2 +
                           ["misc"] * 3 + ["sync"])
        return getattr(self, "step_" + kind)()

    def step_binop(self):
        i = self.pick()
        sym = self.choice(list(BINOPS))
        other = self.partner(self.env[i].shape)
        args = (sym, Ref(i), other) if self.p(0.7) else (sym, other, Ref(i))
        return Step("binop", args), True

    def step_unop(self):
        return Step("unop", (self.choice(["-", "+", "abs", "~"]), Ref(self.pick()))), True

    def step_ufunc(self):
        name, nin = self.choice(self.ufuncs)
        i = self.pick()
        a = self.env[i]
        args = [Ref(i)] + [self.partner(a.shape) for _ in range(nin - 1)]
        if nin == 2 and self.p(0.3):
            args.reverse()
        kw = {}
        if self.p(0.1):
            kw["dtype"] = self.dtype()
        if self.p(0.1):
            kw["casting"] = self.choice(["unsafe", "safe", "same_kind", "no", "equiv"] +
                                        (["bogus"] if self.p(0.1) else []))
        pure = True
        if self.p(0.12):
            try:
                shp = np.broadcast_shapes(*[self.env[x.i].shape for x in args
                                            if isinstance(x, Ref)])
            except ValueError:
                shp = a.shape
            o = self.pick(lambda v: v.shape == shp or self.p(0.05))
            if o is not None:
                kw["out"] = Ref(o)
                pure = False
                # Note: NumPy overwrites masked-off elements too when `out` overlaps an
                # input (np.logical_or(a[1:], b, out=a, where=m)); such cases are left out
                if self.p(0.2) and not any(isinstance(x, Ref) and np.shares_memory(
                        self.env[x.i], self.env[o]) for x in args):
                    kw["where"] = Host(self.rng.random(shp) < 0.5)
        if "where" in kw and name in _COMPARISONS and any(type(x) is int for x in args):
            # NumPy 2.4 crashes (segfault) comparing with an out-of-range Python int under
            # where= (np.not_equal(np.int16([5]), 2**31, where=True))
            del kw["where"]
        if kw.get("casting") == "unsafe":
            # Note: unsafe float-to-integer conversions (of NaN, inf, out-of-range values)
            # are undefined, and NumPy's paths for them disagree: left out
            kinds = {self.env[x.i].dtype.kind for x in args if isinstance(x, Ref)}
            kinds |= {type(x).__name__[0] for x in args if isinstance(x, (float, complex))}
            dst = [kw["dtype"].kind] if "dtype" in kw else []
            dst += [self.env[kw["out"].i].dtype.kind] if "out" in kw else []
            if self.portable or (kinds & set("fcF") and set(dst) & set("biu")):
                del kw["casting"]
        return Step("ufunc", (name, *args), kw, out=True), pure

    def _axis(self, nd):
        if self.p(0.3) or nd == 0:
            return None
        if self.p(0.2) and nd > 1:
            k = int(self.rng.integers(1, nd + 1))
            return tuple(int(x) for x in self.rng.permutation(nd)[:k])
        ax = int(self.rng.integers(-nd, nd))
        return ax if self.p(0.98) else nd + 1

    def step_reduce(self):
        name = self.choice(_REDUCE)
        i = self.pick()
        a = self.env[i]
        kw = {}
        ax = self._axis(a.ndim)
        if name in ("argmin", "argmax", "cumsum") and isinstance(ax, tuple):
            ax = ax[0]
        if ax is not None:
            kw["axis"] = ax
        if name != "cumsum" and self.p(0.3):
            kw["keepdims"] = True if self.p(0.95) else self.choice(["yes", 2, None])
        if name in _DTYPE_KW and self.p(0.2):
            # Note: float data reduced in an integer dtype is left out: its out-of-range
            # float-to-integer conversions differ between NumPy's own code paths
            kw["dtype"] = self.choice([d for d in DTYPES if a.dtype.kind in "biu" or
                                       d.kind in "fc"])
        if name in ("var", "std") and self.p(0.4):
            kw["ddof"] = self.choice([1, 2, 0.5])
        pure = True
        if self.p(0.06) and name != "cumsum":
            # Note: an out= of another dtype is left out: NumPy then reduces in out's
            # dtype, with results (max of int8 into uint64: 0) gnumpy does not copy
            try:
                with np.errstate(all="ignore"):
                    res = np.asarray(getattr(np, name)(a, **kw))
                ok = (lambda v: v.dtype == res.dtype and v.shape == res.shape) \
                    if self.p(0.8) else (lambda v: v.dtype == res.dtype)
            except Exception:       # noqa: BLE001
                ok = None
            o = self.pick(ok)
            # Note: an out= overlapping the input is left out: NumPy reduces into it
            # step by step (ptp's maximum lands in `a` before the minimum reads it)
            if o is not None and o != i and not np.shares_memory(self.env[o], a):
                kw["out"] = Ref(o)
                pure = False
        if self.p(0.5) and name not in ("ptp", "count_nonzero", "nansum", "nanmax",
                                        "nanmean", "cumsum"):
            return Step("method", (name, Ref(i)), kw), pure
        return Step("func", (name, Ref(i)), kw), pure

    def step_view(self):
        i = self.pick()
        a = self.env[i]
        r = self.rng.random()
        if r < 0.45:
            return Step("getitem", (Ref(i), basic_key(self, a.shape))), True
        nd = a.ndim
        opts = ["T", "transpose", "reshape", "ravel", "real", "imag", "squeeze",
                "expand_dims", "broadcast_to", "flatten", "copy", "astype", "swapaxes",
                "diagonal", "conj"]
        name = self.choice(opts)
        if name in ("T", "real", "imag"):
            return Step("attr", (name, Ref(i))), True
        if name == "transpose":
            return Step("method", (name, Ref(i), tuple(int(x) for x in
                                                        self.rng.permutation(nd)))), True
        same_layout = self.laid[i]
        if name in ("reshape", "ravel") and not same_layout:
            # Note: NumPy's ufuncs keep their inputs' memory order and its fancy indexing
            # may return a transposed buffer, where gnumpy's results are C-contiguous:
            # whether a reshape or ravel of those is a view, and a 'K'-order ravel's
            # element order, depend on the layout, so they are left out
            name = "flatten"
        if name == "reshape":
            return Step("method", (name, Ref(i), self._newshape(a.shape))), True
        if name in ("ravel", "flatten"):
            orders = ["C", "F", "A", "K"] if same_layout else ["C", "F"]
            kw = {"order": self.choice(orders)} if self.p(0.3) else {}
            return Step("method", (name, Ref(i)), kw), True
        if name == "squeeze":
            return Step("func", (name, Ref(i))), True
        if name == "expand_dims":
            return Step("func", (name, Ref(i), int(self.rng.integers(-nd - 1, nd + 1)))), True
        if name == "broadcast_to":
            shp = tuple(self.choice([d, d, 3]) if d == 1 else d for d in a.shape)
            if self.p(0.5):
                shp = (int(self.rng.integers(0, 4)),) + shp
            return Step("func", (name, Ref(i), shp)), True
        if name == "astype":
            dt = self.dtype()
            # Note: NaN, inf or out-of-range values cast to an integer are undefined; NumPy's
            # own loops (strided, SIMD, complex) disagree on them: left out
            if a.dtype.kind in "fc" and dt.kind in "biu" and not castable(a, dt):
                dt = a.dtype
            return Step("method", ("astype", Ref(i), dt)), True
        if name == "swapaxes" and nd:
            return Step("func", (name, Ref(i), int(self.rng.integers(-nd, nd)),
                                 int(self.rng.integers(-nd, nd)))), True
        if name == "diagonal" and nd >= 2:
            return Step("method", (name, Ref(i), int(self.rng.integers(-2, 3)))), True
        return Step("method", ("copy" if name != "conj" else "conj", Ref(i))), True

    def _newshape(self, shape):
        n = math.prod(shape)
        dims = []
        m = n
        for f in (2, 3, 5):
            while m % f == 0 and m > 1 and self.p(0.6):
                dims.append(f)
                m //= f
        if m > 1 or not dims:
            dims.append(m)
        self.rng.shuffle(dims)
        if self.p(0.3) and dims:
            dims[int(self.rng.integers(len(dims)))] = -1
        if self.p(0.2):
            dims.insert(0, 1)
        return tuple(int(d) for d in dims)

    def step_fancy(self):
        i = self.pick(lambda v: v.ndim > 0)
        if i is None:
            return self.new_array()
        return Step("getitem", (Ref(i), fancy_key(self, self.env[i].shape))), True

    def step_setitem(self):
        i = self.pick()
        a = self.env[i]
        key = fancy_key(self, a.shape) if self.p(0.3) and a.ndim else basic_key(self, a.shape)
        try:
            with np.errstate(all="ignore"):
                sel = a[host_key(key)].shape
        except Exception:       # noqa: BLE001 - the step will raise: keep it
            sel = ()
        r = self.rng.random()
        if r < 0.4:
            v = self.scalar()
        elif r < 0.55:                                  # the target's own memory
            v = Ref(i) if a.shape == sel else self.partner(sel, exact=True)
            if a.ndim and a.shape[0] > 1 and self.p(0.6):
                # an overlapping shifted view: a[1:] = a[:-1]
                return Step("setitem", (Ref(i), slice(1, None),
                                        _Later("view", i, slice(None, -1))), out=False), False
        elif r < 0.65 and sel:
            v = self.values(self.dtype(), sel[-1:]).tolist()
        else:
            v = self.partner(sel, exact=True)
        if a.dtype.kind in "biu" and (self.portable or isinstance(v, Ref)) and \
                not safe_value(self, v, a.dtype):
            v = 1       # (an array of NaN, inf or out-of-range floats: undefined casts)
        if isinstance(v, Ref) and self.env[v.i].size == 0 and not math.prod(sel) and \
                self.env[v.i].ndim > len(sel):
            # Note: NumPy's acceptance of extra leading axes of an empty value into an
            # empty selection differs by index kind; left out
            v = self.scalar()
        if full_mask(key, a.ndim) and isinstance(v, Ref) and \
                np.shares_memory(self.env[v.i], a):
            # Note: NumPy's a[mask] = v with a mask of a's every axis writes while it
            # reads v (no copy when v overlaps a: a[m] = a[:2] repeats a[0]); left out
            v = self.scalar()
        return Step("setitem", (Ref(i), key, v), out=False), False

    def step_iop(self):
        i = self.pick()
        a = self.env[i]
        return Step("iop", (self.choice(list(IOPS)), Ref(i), self.partner(a.shape, True)),
                    out=False), False

    def step_misc(self):
        i = self.pick()
        a = self.env[i]
        r = self.rng.random()
        if r < 0.25:
            c = self.pick(lambda v: v.dtype == np.bool_)
            cond = Ref(c) if c is not None and self.p(0.8) else Host(self.rng.random(
                a.shape) < 0.5)
            return Step("func", ("where", cond, Ref(i), self.partner(a.shape))), True
        if r < 0.45:
            lo = self.choice([None, self.scalar(False), self.partner(a.shape)])
            hi = self.choice([None, self.scalar(False), self.partner(a.shape)])
            return Step("func", ("clip", Ref(i), lo, hi)), True
        if r < 0.6:
            return Step("func", ("round", Ref(i), int(self.rng.integers(-2, 4)))), True
        if r < 0.75:
            v = self.scalar()
            if self.portable and a.dtype.kind in "biu" and not safe_value(self, v, a.dtype):
                v = 1
            return Step("fill", (Ref(i), v), out=False), False
        if r < 0.85 and a.size:
            idx = [int(x) for x in self.rng.integers(-a.size, a.size, size=3)]
            v = self.scalar() if self.p(0.5) else self.values(a.dtype, (2,)).tolist()
            if self.portable and a.dtype.kind in "biu":
                v = 1
            return Step("func", ("put", Ref(i), idx, v), out=False), False
        j = self.pick(lambda v: v.ndim == a.ndim and v.ndim > 0 and
                      v.shape[1:] == a.shape[1:])
        if j is None:
            return self.new_array()
        return Step("func", ("concatenate", (Ref(i), Ref(j)))), True

    def step_sync(self):
        return Step("sync", (Ref(self.pick()),), out=False), True


class _Later:
    """A view of an earlier result built when the step runs (``a[:-1]`` of the target)."""

    __slots__ = ("kind", "i", "key")

    def __init__(self, kind, i, key):
        self.kind, self.i, self.key = kind, i, key


def generate(seed, steps=8, portable=False, keep_error=0.3):
    """A random program of up to `steps` steps (a list of Step)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            return _generate(seed, steps, portable, keep_error)


def _generate(seed, steps, portable, keep_error):
    g = Gen(seed, portable)
    prog = g.prog
    for _ in range(3):
        st, _ = g.new_array()
        run_step(st, g.env, g.ns)
        prog.append(st)
        g.laid.append(True)
    for _ in range(steps):
        for _attempt in range(12):
            st, pure = g.propose()
            st = _materialize_later(g, st)
            if st is None:
                continue
            n_env = len(g.env)
            try:
                with np.errstate(all="ignore"):
                    run_step(st, g.env, g.ns)
            except Exception:       # noqa: BLE001 - NumPy refuses the step
                del g.env[n_env:]
                if st.op not in WRITES and "out" not in st.kw and g.p(1 - keep_error):
                    continue
                prog.append(st)
                return prog
            prog.append(st)
            laid(g, st, n_env)
            break
    return prog


def _materialize_later(g, st):
    """Steps whose value is a view of the target (``a[1:] = a[:-1]``) get that view as a
    step of its own just before them."""
    args = list(st.args)
    for k, v in enumerate(args):
        if isinstance(v, _Later):
            view = Step("getitem", (Ref(v.i), v.key))
            try:
                run_step(view, g.env, g.ns)
            except Exception:       # noqa: BLE001
                return None
            g.prog.append(view)
            laid(g, view, len(g.env) - 1)
            args[k] = Ref(len(g.env) - 1)
    st.args = tuple(args)
    return st
