"""Programs of the differential fuzzer: steps, the operations they call, how a step runs
on one array namespace (NumPy, or gnumpy on a device) and how it prints as Python.

A program is a list of ``Step(op, args, kw, out)``.  Arguments are literals (Python and
NumPy scalars, slices, tuples, lists), ``Ref(i)`` (the i-th result of an earlier step) or
``Host(a)`` (a NumPy array uploaded at the step).  ``run`` executes a program and returns
the results, and the exception and the step that raised, if one did.
"""
from __future__ import annotations

import math
import operator
import warnings

import numpy as np


class Ref:
    """The result of an earlier step (its index among the results)."""

    __slots__ = ("i",)

    def __init__(self, i):
        self.i = i


class Host:
    """Host data (a NumPy array) turned into an array of the namespace at the step."""

    __slots__ = ("a",)

    def __init__(self, a):
        self.a = a


class Step:
    """One statement: ``OPS[op](xp, *args, **kw)``; its result is kept when `out`."""

    __slots__ = ("op", "args", "kw", "out")

    def __init__(self, op, args=(), kw=None, out=True):
        self.op, self.args, self.kw, self.out = op, tuple(args), dict(kw or {}), out


BINOPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
          "//": operator.floordiv, "%": operator.mod, "**": operator.pow,
          "&": operator.and_, "|": operator.or_, "^": operator.xor, "<<": operator.lshift,
          ">>": operator.rshift, "<": operator.lt, "<=": operator.le, "==": operator.eq,
          "!=": operator.ne, ">": operator.gt, ">=": operator.ge}
IOPS = {"+": operator.iadd, "-": operator.isub, "*": operator.imul, "/": operator.itruediv,
        "//": operator.ifloordiv, "%": operator.imod, "**": operator.ipow,
        "&": operator.iand, "|": operator.ior, "^": operator.ixor, "<<": operator.ilshift,
        ">>": operator.irshift}
UNOPS = {"-": operator.neg, "+": operator.pos, "abs": abs, "~": operator.invert}


def _setitem(xp, a, key, v):
    a[key] = v


def _iop(xp, sym, a, b):
    return IOPS[sym](a, b)


def _fill(xp, a, v):
    a.fill(v)


def _sync(xp, a):
    ev = getattr(xp, "evaluate", None)
    if ev is not None:
        ev(a)


OPS = {
    "asarray": lambda xp, a: a,
    "ufunc": lambda xp, name, *a, **kw: getattr(xp, name)(*a, **kw),
    "func": lambda xp, name, *a, **kw: getattr(xp, name)(*a, **kw),
    "method": lambda xp, name, a, *args, **kw: getattr(a, name)(*args, **kw),
    "attr": lambda xp, name, a: getattr(a, name),
    "binop": lambda xp, sym, a, b: BINOPS[sym](a, b),
    "unop": lambda xp, sym, a: UNOPS[sym](a),
    "iop": _iop,
    "getitem": lambda xp, a, key: a[key],
    "setitem": _setitem,
    "fill": _fill,
    "sync": _sync,
}

# steps that change an existing array (a raising one may have written part of it)
WRITES = {"iop", "setitem", "fill"}


# ------------------------------------------------------------------ running

class Namespace:
    """The array namespace a program runs on: NumPy, or gnumpy with arrays on `device`."""

    def __init__(self, xp, device=None):
        self.xp = xp
        self.device = device
        self.is_numpy = xp is np
        self.elements = {}      # id -> NumPy's scalar result kept as a 0-d array (held:
                                # a discarded step's id is not reused for another array)

    def __getattr__(self, name):
        return getattr(self.xp, name)

    def upload(self, a):
        if self.is_numpy:
            return np.array(a)      # (a 0-d array for NumPy's scalar too, as gnumpy's)
        return self.xp.asarray(a, device=self.device)

    def host(self, v):
        """A result as a NumPy array (None for anything that is not an array)."""
        if self.is_numpy:
            if isinstance(v, (np.ndarray, np.generic)):
                return np.array(v)
            return None
        if isinstance(v, self.xp.ndarray):
            return v.get()
        return None


def _resolve(v, env, ns):
    if isinstance(v, Ref):
        return env[v.i]
    if isinstance(v, Host):
        return ns.upload(v.a)
    if type(v) is tuple:
        return tuple(_resolve(x, env, ns) for x in v)
    if type(v) is list:
        return [_resolve(x, env, ns) for x in v]
    if type(v) is slice and (isinstance(v.start, Ref) or isinstance(v.stop, Ref)):
        return slice(_resolve(v.start, env, ns), _resolve(v.stop, env, ns), v.step)
    return v


def run_step(step, env, ns):
    """Run one step on namespace `ns`; append its result to `env` when it has one."""
    args = [_resolve(a, env, ns) for a in step.args]
    kw = {k: _resolve(v, env, ns) for k, v in step.kw.items()}
    if ns.is_numpy and ns.elements:
        r = _on_scalars(step, args, kw, ns.elements)
    else:
        r = OPS[step.op](ns if step.op == "sync" else ns.xp, *args, **kw)
    if step.out:
        if ns.is_numpy and isinstance(r, np.generic):
            r = np.array(r)          # NumPy's scalars are gnumpy's 0-d arrays
            ns.elements[id(r)] = r
        if isinstance(r, tuple):
            env.extend(r)
        else:
            env.append(r)
    return r


def _on_scalars(step, args, kw, elements):
    """A step on NumPy, where the results that were NumPy's scalars are kept as 0-d arrays
    (ids in `elements`): an operation reads the scalar itself (``a[()]``), so its views
    are new arrays; ``s op= b`` computes out of place and rebinds nothing the program
    keeps (its errors are NumPy's); ``s.fill(v)`` fills a copy.  An assignment into one
    (an item, ``put``, an ``out=``) writes the 0-d array: NumPy's scalar refuses it,
    gnumpy's takes it (code that tells scalars from arrays by ``numbers.Number`` writes
    into gnumpy's as into an array)."""
    op = step.op
    if op in ("getitem", "setitem"):    # (a key's entries and slice bounds: scalars)
        k = args[1]
        args[1] = tuple(_scalar_entry(x, elements) for x in k) if type(k) is tuple else \
            _scalar_entry(k, elements)
    if op == "iop" and id(args[1]) in elements:
        IOPS[args[0]](args[1][()], args[2])
        return None
    if op == "fill" and id(args[0]) in elements:
        return None
    if op not in ("setitem", "sync") and "out" not in kw:
        # Note: NumPy's reductions of a scalar with out= go through the scalar's method,
        # which returns a new scalar, not `out` (np.max(np.float64(3), out=o) is not o);
        # steps with out= read the 0-d arrays
        keep = 1 if op == "func" and args[0] == "put" else -1
        args = [a[()] if id(a) in elements and i != keep else a for i, a in enumerate(args)]
        kw = {k: v[()] if id(v) in elements and k != "out" else v for k, v in kw.items()}
    r = OPS[op](np, *args, **kw)
    if op == "binop" and type(r) in (float, complex):
        # Note: Python's complex (or float) operator takes NumPy's float64 scalar (a float)
        # first and returns a Python number (1j / np.float64(2)); gnumpy's 0-d array gives
        # NumPy's dtype for it, compared as such
        r = np.asarray(r)[()]
    return r


def _scalar_entry(k, elements):
    """Key entry `k` with the program's NumPy scalars (kept as 0-d arrays) read as
    scalars, in a slice's bounds too."""
    if id(k) in elements:
        return k[()]
    if type(k) is slice and (id(k.start) in elements or id(k.stop) in elements):
        return slice(k.start[()] if id(k.start) in elements else k.start,
                     k.stop[()] if id(k.stop) in elements else k.stop, k.step)
    return k


def run(prog, ns):
    """Run `prog` on `ns`: (results, exception or None, index of the raising step)."""
    env = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            for i, step in enumerate(prog):
                try:
                    run_step(step, env, ns)
                except Exception as e:      # noqa: BLE001 - compared by the caller
                    return env, e, i
    return env, None, None


# ------------------------------------------------------------------ printing

def _lit(v) -> str:
    if isinstance(v, Ref):
        return f"v{v.i}"
    if isinstance(v, Host):
        return _host_src(v.a)
    if isinstance(v, slice):
        return ":".join("" if x is None else _lit(x) for x in (v.start, v.stop, v.step)) \
            if v.step is not None else \
            ":".join("" if x is None else _lit(x) for x in (v.start, v.stop))
    if v is Ellipsis:
        return "..."
    if isinstance(v, tuple):
        return "(" + ", ".join(_lit(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, list):
        return "[" + ", ".join(_lit(x) for x in v) + "]"
    if isinstance(v, np.generic):
        return f"np.{type(v).__name__}({_lit(v.item())})"
    if isinstance(v, np.dtype):
        return f"np.{v.name}"
    if isinstance(v, float) and not math.isfinite(v):
        return f"float('{v}')"
    if isinstance(v, complex):
        return f"complex({_lit(v.real)}, {_lit(v.imag)})"
    return repr(v)


def _host_src(a) -> str:
    if a.size and (a.dtype.kind in "biu" or (a.dtype.kind == "f" and np.isfinite(a).all()
                                             and not np.signbit(a[a == 0]).any())):
        return f"xp.asarray(np.array({a.tolist()!r}, dtype=np.{a.dtype.name}))"
    return (f"xp.asarray(np.frombuffer(bytes.fromhex('{a.tobytes().hex()}'), "
            f"dtype=np.{a.dtype.name}).reshape({a.shape!r}))")


def _key_src(key) -> str:
    if isinstance(key, tuple) and key:
        return ", ".join(_lit(k) for k in key)
    return _lit(key)


def step_src(step, target) -> str:
    """The step as a line of Python over ``xp`` (results named v0, v1, ...)."""
    a = [_lit(x) for x in step.args]
    kw = "".join(f", {k}={_lit(v)}" for k, v in step.kw.items())
    op = step.op
    if op == "asarray":
        expr = a[0]
    elif op in ("ufunc", "func"):
        rest = ", ".join(a[1:])
        expr = f"xp.{step.args[0]}({rest}{kw})" if rest else f"xp.{step.args[0]}({kw[2:]})"
    elif op == "method":
        rest = ", ".join(a[2:])
        sep = ", " if rest and kw else ""
        expr = f"{a[1]}.{step.args[0]}({rest}{sep}{kw[2:]})"
    elif op == "attr":
        expr = f"{a[1]}.{step.args[0]}"
    elif op == "binop":
        expr = f"{a[1]} {step.args[0]} {a[2]}"
    elif op == "unop":
        expr = f"abs({a[1]})" if step.args[0] == "abs" else f"{step.args[0]}{a[1]}"
    elif op == "iop":
        return f"{a[1]} {step.args[0]}= {a[2]}"
    elif op == "getitem":
        expr = f"{a[0]}[{_key_src(step.args[1])}]"
    elif op == "setitem":
        return f"{a[0]}[{_key_src(step.args[1])}] = {a[2]}"
    elif op == "fill":
        return f"{a[0]}.fill({a[1]})"
    elif op == "sync":
        return f"gnumpy.evaluate({a[0]})  # materialize"
    else:
        expr = f"{op}({', '.join(a)}{kw})"
    return f"{target} = {expr}" if step.out else expr


def source(prog) -> str:
    """The program as Python (``xp`` is numpy or gnumpy; results v0, v1, ...)."""
    lines, n = [], 0
    for step in prog:
        k = 2 if step.op == "func" and step.args[0] in ("divmod", "modf", "frexp") else 1
        target = ", ".join(f"v{n + j}" for j in range(k))
        lines.append(step_src(step, target))
        if step.out:
            n += k
    return "\n".join(lines)
