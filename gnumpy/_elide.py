"""Temporary elision: is an operand of ``a op= b`` a temporary nobody can see again?

``a[k] += expr`` reads ``a`` through ``expr`` and then writes ``a``.  A pending ``expr``
that reads the written memory must normally be materialized first (it must keep its values
after the write), which costs a kernel of its own.  When ``expr`` is a temporary on the
interpreter's stack, held by nothing else, no one can read it after the statement, and
the write may compute it in its own kernel.

The test is NumPy's temporary elision: the operand's reference count equals that of a
temporary, measured once at import through the same call path, and the calling frame is
executing an in-place operator instruction itself (a C caller holding the only reference,
``operator.iadd`` or an extension, is never elided).  Where the count cannot be told apart
from a named operand's, elision is off.
"""
from __future__ import annotations

import dis
import sys

_getrefcount = sys.getrefcount
_getframe = sys._getframe

_BINARY_OP = dis.opmap.get("BINARY_OP")
_INPLACE_ARGS = frozenset(i for i, (name, _) in enumerate(getattr(dis, "_nb_ops", ()))
                          if name.startswith("NB_INPLACE_"))
_INPLACE_OPS = frozenset(v for k, v in dis.opmap.items() if k.startswith("INPLACE_"))


def _inplace_instruction(frame) -> bool:
    """Is `frame` executing an in-place operator (``+=`` and the like)?"""
    code = frame.f_code.co_code
    i = frame.f_lasti
    if not 0 <= i < len(code) - 1:
        return False
    op = code[i]
    if _BINARY_OP is not None and op == _BINARY_OP:
        return code[i + 1] in _INPLACE_ARGS
    return op in _INPLACE_OPS


def _measure(x):
    """(references to `x`, is the caller of the caller executing an in-place operator);
    the same frames and references whether called by the probe or by `temporary`."""
    return _getrefcount(x), _inplace_instruction(_getframe(2))


class _Probe:
    seen = []

    def __iadd__(self, other):
        _Probe.seen.append(_measure(other))
        return self


def _calibrate():
    """(refcount of a temporary operand seen from a method's helper, enabled)."""
    p = _Probe()
    p += _Probe()               # noqa: SIM113 - a temporary operand
    named = _Probe()
    p += named
    (t, t_ok), (n, n_ok) = _Probe.seen
    _Probe.seen = []
    return t, (t < n and t_ok and n_ok)


_TEMP_REFS, ENABLED = _calibrate()


def temporary(x) -> bool:
    """Is `x`, an operand of the in-place operator method that calls this, referenced
    only by the interpreter's stack of a frame executing that in-place operator?"""
    return ENABLED and _getrefcount(x) == _TEMP_REFS and \
        _inplace_instruction(_getframe(2))      # as `_measure` counts, inlined


# ------------------------------------------------------------------ a[k] = expr

# ``a[k] = v``; Python 3.12 compiles ``a[i:j] = v`` to STORE_SLICE (the value is on the
# stack the same way)
_STORE_OPS = frozenset(op for op in (dis.opmap.get("STORE_SUBSCR"), dis.opmap.get("STORE_SLICE"))
                       if op is not None)


def _store_instruction(frame) -> bool:
    """Is `frame` executing ``a[k] = ...``?"""
    return frame.f_code.co_code[frame.f_lasti] in _STORE_OPS


def _measure_store(x):
    """(references to `x`, is the caller of the caller executing ``a[k] = ...``); the same
    frames and references whether called by the probe or by `stored_temporary`."""
    return _getrefcount(x), _store_instruction(_getframe(2))


class _StoreProbe:
    seen = []

    def __setitem__(self, key, value):
        _StoreProbe.seen.append(_measure_store(value))


def _calibrate_store():
    p = _StoreProbe()
    p[0] = _Probe()
    named = _Probe()
    p[0] = named
    p[0] = named            # (a named value seen twice: its count is stable)
    (t, t_ok), (n, n_ok), (n2, _) = _StoreProbe.seen
    _StoreProbe.seen = []
    return t, (t < n and n == n2 and t_ok and n_ok)


_STORE_TEMP_REFS, STORE_ENABLED = _calibrate_store()


def _calibrate_slice_store() -> None:
    """A slice store's temporary must count as a subscript store's does; else slice
    stores are not elided."""
    global _STORE_OPS
    p = _StoreProbe()
    p[0:1] = _Probe()
    (t, ok), = _StoreProbe.seen
    _StoreProbe.seen = []
    if t != _STORE_TEMP_REFS or not ok:
        _STORE_OPS = _STORE_OPS - {dis.opmap.get("STORE_SLICE")}


_calibrate_slice_store()


def stored_temporary(x) -> bool:
    """Is `x`, the value of the ``__setitem__`` that calls this, referenced only by the
    interpreter's stack of a frame executing ``a[k] = x`` (a temporary no one can read after
    the statement)?"""
    if STORE_ENABLED and _getrefcount(x) == _STORE_TEMP_REFS:    # as `_measure_store`
        f = _getframe(2)                        # counts, inlined (every statement's write)
        return f.f_code.co_code[f.f_lasti] in _STORE_OPS
    return False


# ------------------------------------------------------------------ a[k] = f(t).reshape(...)

class _BaseProbe:
    __slots__ = ("_base",)


def _measure_base(v):
    return _getrefcount(v._base)


def _calibrate_base() -> int:
    """References to an object held by one ``_base`` slot alone, seen from `sole_base`."""
    p = _BaseProbe()
    p._base = _BaseProbe()
    return _measure_base(p)


_BASE_REFS = _calibrate_base()


def sole_base(v) -> bool:
    """Is the base of view `v` referenced by `v` alone (no name, no other view: once `v`
    is gone, no one can read the base)?"""
    return _getrefcount(v._base) == _BASE_REFS
