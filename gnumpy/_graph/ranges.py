"""NVTX ranges around the work materialization runs, and their names.

While ``config.nvtx`` is on, ``realize`` opens a range around every materialization, every
scheduled group and every write, the CUDA backend around every library barrier, and the
library-call layer around every eager library call: ``with span(name): ...``.  The names
say what runs, e.g. ``elementwise[multiply,add]``, ``reduce[sum: subtract,square]``,
``barrier[matmul]``, ``library[svd]`` (``gnumpy.profiler`` documents them for users and
collects them in tests).  The bindings are ``_nvtx``'s.
"""
from __future__ import annotations

import contextlib

from .. import _nvtx
from .ir import BARRIER, EW, LEAF, REDUCE


@contextlib.contextmanager
def span(name: str):
    """An NVTX range named `name` around the block."""
    _nvtx.push(name)
    try:
        yield
    finally:
        _nvtx.pop()


def _ops(roots, barriers: bool, limit: int = 8) -> list:
    """The distinct operations of the lazy graph under `roots`, in evaluation order, at
    most `limit`: realized inputs excluded, and barriers below the roots (with their
    inputs) unless `barriers`."""
    out, seen = [], set()

    def walk(n, top):
        if id(n) in seen or n.kind == LEAF or (n.kind == BARRIER and not (top or barriers)):
            return
        seen.add(id(n))
        if n.kind != BARRIER or barriers:
            for s in n.srcs:
                walk(s, False)
        if n.kind == EW or n.kind == BARRIER:
            name = n.op
        elif n.kind == REDUCE:
            name = n.arg[0]
        else:
            return
        if name not in out and len(out) < limit:
            out.append(name)
    for r in roots:
        walk(r, True)
    return out


def label(kind: str, roots) -> str:
    """The range name of `kind` of work computing the nodes `roots`."""
    ops = _ops(roots, barriers=kind in ("materialize", "write"))
    reds = [r.arg[0] for r in roots if r.kind == REDUCE]
    if reds and kind in ("reduce", "materialize"):
        rest = [o for o in ops if o not in reds]
        return f"{kind}[{','.join(dict.fromkeys(reds))}: {','.join(rest)}]".replace(": ]", "]")
    return f"{kind}[{','.join(ops) or 'copy'}]"


def group_name(group) -> str:
    """The range name of a scheduled group: its kind and its operations."""
    if group.kind == "barrier":
        return f"barrier[{group.barrier.op}]"
    roots = list(group.outputs)
    if group.reduce is not None and group.reduce not in roots:
        roots.append(group.reduce)
    return label(group.kind, roots)


def node_name(node) -> str:
    """The range name of materializing `node`."""
    return label("materialize", [node])
