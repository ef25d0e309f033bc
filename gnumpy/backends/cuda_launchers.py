"""Replays' argument templates compiled into Python launchers: ``fill`` builds a launch's
argument list (the general launch path), ``compile_packed`` writes the per-call values into
a pre-packed parameter block and calls the driver (or a given raw launcher) directly.

A template is a list of entries (kind, a, b[, dtype]): "c" a constant; "in"/"ino" a leaf's
pointer (plus a constant byte offset, or its own element offset times the item size, and
a 4th field's constant bytes);
"lvo" a leaf's element offset plus a constant (a reshape level's offset parameter);
"out"/"outo"/"outs" the output's; "scv"/"scc" a scalar node's value (the real or imaginary
part); "part"/"ctr" the reduction's partials and counters.
"""
from __future__ import annotations

import numpy as np

from ..kernels.types import PARAM_NP


_DIRECT = (np.dtype(np.float32), np.dtype(np.float64))


def _conv(sn):
    conv = PARAM_NP[sn.dtype]          # the scalar type cuda.core accepts
    v = sn.arg
    return v if type(v) is conv else conv(v)


def _expr(entry) -> str:
    """The Python expression of a non-constant template entry's per-call value, over the
    launcher's arguments (L leaves, S scalars, O output, P partials, T counters)."""
    kind, a, b = entry[:3]
    if kind == "in":
        return f"L[{a}].buf.ptr + {b}" if b else f"L[{a}].buf.ptr"
    if kind == "ino":           # (a 4th field: a constant byte offset a view adds)
        d = f" + {entry[3]}" if len(entry) > 3 else ""
        return f"L[{a}].buf.ptr + L[{a}].offset * {b}{d}"
    if kind == "lvo":
        return f"L[{a}].offset + {b}" if b else f"L[{a}].offset"
    if kind == "out":
        return f"O.ptr + {b}" if b else "O.ptr"
    if kind == "outo":
        return f"O.buf.ptr + O.offset * {b}"
    if kind == "outs":
        return f"O.buf.ptr + {b}"
    if kind == "scc":
        return f"S[{a}].arg.{'real' if b == 0 else 'imag'}"
    if kind == "scv":
        return f"S[{a}].arg"
    return "P" if kind == "part" else "T"


def compile_fill(tmpl):
    """A generated function building a launch's argument list from a template:
    fill(leaves, scalars, out buffer, partials pointer, counters pointer)."""
    consts, parts = [], []
    for entry in tmpl:
        if entry[0] == "c":
            consts.append(entry[1])
            parts.append(f"C[{len(consts) - 1}]")
        elif entry[0] == "scv" and entry[3] not in _DIRECT:
            parts.append(f"_conv(S[{entry[1]}])")
        else:
            parts.append(_expr(entry))
    src = "def fill(L, S, O, P, T):\n    return [" + ", ".join(parts) + "]\n"
    ns = {"C": consts, "_conv": _conv}
    exec(_code(src), ns)    # noqa: S102 - generated from our own template, no user text
    return ns["fill"]


_CODE: dict = {}            # generated source -> its compiled code object


def _code(src: str):
    """The code object of generated `src`: templates that differ only in constants held
    outside the source (a new slice length, grid or scalar) share one, so a new shape
    costs an ``exec`` of compiled code, not a compile (about 0.1 ms each)."""
    c = _CODE.get(src)
    if c is None:
        if len(_CODE) >= 4096:
            _CODE.clear()
        c = _CODE[src] = compile(src, "<gnumpy launch>", "exec")
    return c


# ------------------------------------------------------------------ pre-packed launches

_VIEW = {np.dtype(np.uint64): ("U8", 1), np.dtype(np.int64): ("I8", 1),
         np.dtype(np.float64): ("F8", 1), np.dtype(np.float32): ("F4", 2),
         np.dtype(np.int32): ("I4", 2), np.dtype(np.uint32): ("U4", 2),
         np.dtype(np.int16): ("I2", 4), np.dtype(np.uint16): ("U2", 4),
         np.dtype(np.int8): ("I1", 8), np.dtype(np.uint8): ("U1", 8)}


def _slot_type(entry, value=None) -> np.dtype:
    """The NumPy type of a template entry's kernel parameter (as cuda.core would pack it)."""
    kind = entry[0]
    if kind in ("in", "ino", "out", "outo", "outs", "part", "ctr"):
        return np.dtype(np.uint64)
    if kind in ("scc", "scv"):
        return np.dtype(PARAM_NP[entry[3]])
    if isinstance(value, np.generic):
        return value.dtype
    if isinstance(value, float):
        return np.dtype(np.float64)
    return np.dtype(np.int64)       # Python ints: cuda.core packs them as 64-bit


def compile_packed(tmpl, launch_raw=None, direct=None):
    """A launcher for `tmpl`: writes the per-call parameters into a pre-packed block, then
    either calls ``launch_raw(params_address)`` or, with `direct` = (cuLaunchKernel as a
    ctypes function, function handle, grid (3), block (3), backend), calls the driver
    itself with the current stream (``backend.stream_c``).  Returns (launch, keep) (keep
    holds the memory the launcher points into)."""
    n = len(tmpl)
    block = np.zeros(max(n, 1), np.uint64)
    addrs = np.arange(max(n, 1), dtype=np.uint64) * 8 + block.ctypes.data
    lines = []
    ns = {}
    for i, entry in enumerate(tmpl):
        kind, a, b = entry[:3]
        dt = _slot_type(entry, a if kind == "c" else None)
        name, per = _VIEW[dt]
        if name not in ns:
            ns[name] = block.view(dt)
        j = i * per
        if kind == "c":
            ns[name][j] = a
        else:
            lines.append(f"{name}[{j}] = {_expr(entry)}")
    keep = (block, addrs)
    if direct is None:
        lines.append("GO(ADDR)")
        ns.update(GO=launch_raw, ADDR=int(addrs.ctypes.data))
    else:
        import ctypes
        cu, func, grid, blk, be = direct
        gx, gy, gz = (int(d) for d in grid)
        bx, by, bz = (int(d) for d in blk)
        ns.update(CU=cu, FUNC=ctypes.c_void_p(func), ADDR=ctypes.c_void_p(int(addrs.ctypes.data)),
                  BE=be, FAIL=_launch_failed, GX=gx, GY=gy, GZ=gz, BX=bx, BY=by, BZ=bz)
        lines.append("r = CU(FUNC, GX, GY, GZ, BX, BY, BZ, 0, BE.stream_c, ADDR, None)")
        lines.append("if r:\n        FAIL(r)")
        keep = keep + (ns["FUNC"], ns["ADDR"])
    src = "def launch(L, S, O, P, T):\n    " + "\n    ".join(lines) + "\n"
    exec(_code(src), ns)    # noqa: S102 - generated from our own template, no user text
    return ns["launch"], keep


def _launch_failed(code: int):
    from cuda.bindings import driver
    raise RuntimeError(f"cuLaunchKernel failed: {driver.CUresult(code)!r}")
