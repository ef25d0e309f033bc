"""Kernel argument templates: what each kernel parameter is, so a launch can be replayed
with new buffers and scalar values without lowering or planning again.

A template is a list whose entries are plain constants (shapes, strides), ``Ptr``
(an operand's base pointer plus a byte offset), ``LevelOff`` (the element offset of an
operand's innermost reshape level, where its node's offset lives), ``Scalar`` (one part of
a scalar parameter's value) or one of the split-reduction markers.
"""
from __future__ import annotations

from .types import param_values


class Ptr:
    __slots__ = ("op", "off")

    def __init__(self, op, off):
        self.op = op
        self.off = off


class LevelOff:
    """The offset parameter of the innermost reshape level of a memory operand read through
    levels (``lower.Operand``): its node's element offset plus a constant of the view
    chain, so a replay passes ``node.offset + (value - offset at planning)``."""
    __slots__ = ("op", "value")

    def __init__(self, op, value):
        self.op = op
        self.value = value


class Scalar:
    __slots__ = ("idx", "part", "dtype")

    def __init__(self, idx, part, dtype):
        self.idx = idx
        self.part = part
        self.dtype = dtype


PARTIALS = object()
COUNTERS = object()


def scalar_entries(spec):
    out = []
    for i, (dt, _) in enumerate(spec.scalars):
        n = 2 if dt.kind == "c" else 1
        out.extend(Scalar(i, j, dt) for j in range(n))
    return out


def resolve(template, ptr_of, scalars, partials=0, counters=0) -> list:
    """Concrete argument values: pointers from `ptr_of(operand)`, scalar values by index."""
    out = []
    for t in template:
        c = type(t)
        if c is Ptr:
            out.append(ptr_of(t.op) + t.off)
        elif c is Scalar:
            out.append(param_values(t.dtype, scalars[t.idx])[t.part])
        elif c is LevelOff:
            out.append(t.value)
        elif t is PARTIALS:
            out.append(partials)
        elif t is COUNTERS:
            out.append(counters)
        else:
            out.append(t)
    return out
