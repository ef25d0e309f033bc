"""What the fuzzer's programs leave out, and why: conversions NumPy does not define the
same way everywhere, and results whose memory layout NumPy chooses differently from gnumpy
(whether a reshape of them is a view).  The generator (``fuzz_gen``) asks these before it
emits a step.
"""
from __future__ import annotations

import numpy as np

from .fuzz_prog import Host, Ref


_VIEWS = {("attr", "T"), ("attr", "real"), ("attr", "imag"), ("method", "transpose"),
          ("method", "reshape"), ("method", "ravel"), ("method", "diagonal"),
          ("func", "swapaxes"), ("func", "squeeze"), ("func", "expand_dims"),
          ("func", "broadcast_to")}


def laid(g, st, first):
    """Record, for the results of `st` (from env slot `first`), whether NumPy's memory
    layout of each is the one gnumpy gives it: views of such arrays are, and so are new
    C-contiguous arrays (gnumpy's results all are)."""
    for k in range(first, len(g.env)):
        v = g.env[k]
        ok = True
        if isinstance(v, np.ndarray) and v.size > 1:
            src = st.args[1] if st.op in ("attr", "method", "func") and len(st.args) > 1 \
                else (st.args[0] if st.op == "getitem" else None)
            basic = st.op == "getitem" and not _fancy(st.args[1])
            if (basic or (st.op, _name(st)) in _VIEWS) and isinstance(src, Ref) and \
                    np.shares_memory(v, g.env[src.i]):
                ok = g.laid[src.i]
            else:
                ok = v.base is None and v.flags.c_contiguous
        g.laid.append(ok)


def _name(st):
    return st.args[0] if st.op in ("attr", "method", "func") else st.op


def _fancy(key) -> bool:
    if isinstance(key, tuple):
        return any(_fancy(k) for k in key)
    return isinstance(key, (Host, Ref, list)) or isinstance(key, (bool, np.bool_))


def host_key(key):
    if isinstance(key, Host):
        return key.a
    if isinstance(key, tuple):
        return tuple(host_key(k) for k in key)
    return key


def castable(a, dt) -> bool:
    """Do all values of float/complex `a` convert to integer/bool `dt` the same way on
    every machine (finite and in range)?"""
    if dt.kind == "b":
        return True
    v = a.real if a.dtype.kind == "c" else a
    if not np.isfinite(v).all():
        return False
    info = np.iinfo(dt)
    return bool(((v >= int(info.min)) & (v <= int(info.max))).all())


def safe_value(g, v, dt) -> bool:
    if isinstance(v, Ref):
        return castable(g.env[v.i], dt) if g.env[v.i].dtype.kind in "fc" else True
    if isinstance(v, (float, complex, np.floating, np.complexfloating)):
        return castable(np.asarray(v), dt)
    if isinstance(v, list):
        return castable(np.asarray(v), dt) if np.asarray(v).dtype.kind in "fc" else True
    return True


def full_mask(key, ndim) -> bool:
    """Is `key` one boolean mask over all `ndim` axes (NumPy's boolean-subscript path)?"""
    k = key[0] if isinstance(key, tuple) and len(key) == 1 else key
    return isinstance(k, Host) and k.a.dtype == np.bool_ and k.a.ndim == ndim and ndim > 0
