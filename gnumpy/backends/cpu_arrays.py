"""NumPy arrays over gnumpy's CPU memory: a LEAF's view, a view node applied to an array,
and what the CPU evaluators ask of a group (use counts, whether a result is a temporary of
their own).  Shared by the CPU backend (``cpu``) and its replay (``cpu_fast``)."""
from __future__ import annotations

import numpy as np

from .._graph.ir import EW, LEAF

try:        # NumPy's floating-point error state is a context variable (NumPy >= 2.0)
    from numpy._core._ufunc_config import _extobj_contextvar as _ERRSTATE
except ImportError:     # pragma: no cover - another layout: np.errstate itself
    _ERRSTATE = None
_IGNORING = [None, None]    # (an error state, the same with every error ignored)


def quiet():
    """Ignore every floating-point error until ``loud(token)``, as
    ``np.errstate(all="ignore")`` does, at a tenth of its cost: the context variable
    behind it set to a state made once per state it replaces (a CPU write's fixed
    cost)."""
    if _ERRSTATE is None:
        e = np.errstate(all="ignore")
        e.__enter__()
        return e
    cur = _ERRSTATE.get()
    if cur is not _IGNORING[0] and cur is not _IGNORING[1]:
        with np.errstate(all="ignore"):
            _IGNORING[1] = _ERRSTATE.get()
        _IGNORING[0] = cur
    return _ERRSTATE.set(_IGNORING[1])


def loud(token) -> None:
    """Restore the error state ``quiet`` replaced."""
    if _ERRSTATE is None:
        token.__exit__(None, None, None)
    else:
        _ERRSTATE.reset(token)


def leaf_array(node) -> np.ndarray:
    """NumPy view of a LEAF node's memory (no copy)."""
    buf = node.buf
    shape = node.shape
    if len(shape) == 1 and buf.dtype is node.dtype:     # a slice of the buffer: faster
        n = shape[0]                                    # than the ndarray constructor
        s = node.strides[0]
        o = node.offset
        if s == 1:
            return buf[o:o + n]
        if s > 1 and n:
            return buf[o:o + (n - 1) * s + 1:s]
    it = node.dtype.itemsize
    if 0 in shape:
        return np.empty(shape, node.dtype)
    return np.ndarray(node.shape, node.dtype, buffer=buf, offset=node.offset * it,
                      strides=tuple(s * it for s in node.strides))


def view_array(v: np.ndarray, node) -> np.ndarray:
    vk, arg, shape = node.op, node.arg, node.shape
    if vk == "broadcast":
        return np.broadcast_to(v, shape)
    if vk == "permute":
        return v.transpose(arg)
    if vk == "slice":
        idx = []
        for (start, step), n in zip(arg, shape):
            stop = start + step * n
            idx.append(slice(start, None if stop < 0 else stop, step))
        return v[tuple(idx)]
    if vk == "reshape":
        return v.reshape(shape)
    raise ValueError(vk)


def counted(node) -> bool:
    """Is REDUCE `node` a sum of bools cast to an integer (``count_nonzero``, ``mask.sum()``):
    what ``np.count_nonzero`` computes, cast to the node's dtype (modular, as the sum's
    overflow is), without the integer copy of the mask?"""
    s = node.srcs[0]
    return node.arg[0] == "sum" and s.kind == EW and s.op == "astype" and \
        s.srcs[0].dtype.kind == "b" and node.dtype.kind in "iu" and s.dtype.kind in "iu"


def count_bools(m: np.ndarray, axis, keepdims):
    """``np.count_nonzero(m, axis=axis, keepdims=keepdims)`` (a reduction's arguments),
    through its C loop (no axis) where `axis` names all of m's: NumPy's count with an
    axis sums the bools."""
    if len(axis) == m.ndim and not keepdims:
        return np.count_nonzero(m)
    return np.count_nonzero(m, axis=axis, keepdims=keepdims)


def _use_counts(roots) -> dict:
    """How many parents inside the group each lazy node has (roots count once more)."""
    uses = {}
    seen = set()
    stack = list(roots)
    for r in roots:
        uses[id(r)] = uses.get(id(r), 0) + 1
    while stack:
        n = stack.pop()
        if id(n) in seen or n.kind == LEAF:
            continue
        seen.add(id(n))
        for s in n.srcs:
            uses[id(s)] = uses.get(id(s), 0) + 1
            stack.append(s)
    return uses


def _fresh(v: np.ndarray, node) -> bool:
    """True when `v` is a temporary we own (safe to keep as the node's buffer)."""
    return (isinstance(v, np.ndarray) and v.base is None and v.flags.c_contiguous
            and v.flags.writeable and v.dtype == node.dtype and v.shape == node.shape)
