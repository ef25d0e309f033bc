"""``gnumpy.explain``: show the groups (kernels) materializing some arrays would run."""
from __future__ import annotations

from .fuse import schedule
from .ir import BARRIER, EW, IOTA, LEAF, REDUCE, SCALAR, VIEW


def _expr(node, names, group_outputs, depth=0, top=True):
    """A one-line expression for `node`, naming inputs in1, in2, ... and outputs."""
    k = node.kind
    if k == LEAF or (not top and (k in (REDUCE, BARRIER) or id(node) in group_outputs)
                     and id(node) not in names.get("_inline", ())):
        key = id(node)
        if key not in names:
            names[key] = f"in{sum(1 for n in names if isinstance(n, int)) + 1}"
        return names[key]
    if k == SCALAR:
        return repr(node.arg.item()) if hasattr(node.arg, "item") else repr(node.arg)
    if k == IOTA:
        return f"iota(strides={list(node.strides)}, offset={node.offset})"
    if depth > 12:
        return "..."
    srcs = [_expr(s, names, group_outputs, depth + 1, False) for s in node.srcs]
    if k == EW:
        if node.op == "astype":
            return f"{node.dtype}({srcs[0]})"
        return f"{node.op}({', '.join(srcs)})"
    if k == VIEW:
        arg = "" if node.arg is None else f", {node.arg}"
        return f"{node.op}({srcs[0]}{arg} -> {list(node.shape)})"
    if k == REDUCE:
        rop, axes, keepdims = node.arg
        return f"{rop}({srcs[0]}, axes={axes}{', keepdims' if keepdims else ''})"
    return f"{node.op}({', '.join(srcs)})"


def describe(nodes) -> str:
    """Text describing each group that materializing `nodes` would run."""
    groups = schedule(nodes)
    if not groups:
        return "nothing to compute: every array is already materialized"
    lines = [f"{len(groups)} group{'s' if len(groups) != 1 else ''}:"]
    earlier = set()
    for gi, g in enumerate(groups):
        names = {}
        lines.append(f"[{gi}] {g.kind} on {g.device}, level {g.level}")
        for o in g.outputs:
            names["_inline"] = {id(o)} | ({id(g.reduce)} if g.reduce is not None else set()) \
                | {id(r) for r in g.phases} | {id(r) for r, _ in g.siblings}
            lines.append(f"    out {o.dtype}{list(o.shape)} = {_expr(o, names, earlier)}")
        if g.reduce is not None and g.reduce not in g.outputs:
            names["_inline"] = {id(g.reduce)}
            lines.append(f"    reduce (no buffer) = {_expr(g.reduce, names, earlier)}")
        src = _backend_source(g)
        if src:
            lines.append("    --- CUDA source ---")
            lines.extend("    " + s for s in src.splitlines())
        earlier.update(id(o) for o in g.outputs)
        if g.reduce is not None:
            earlier.add(id(g.reduce))
    return "\n".join(lines)


def _backend_source(group):
    from .._device import backend
    be = backend(group.device)
    f = getattr(be, "source_of", None)
    try:
        return f(group) if f is not None else None
    except NotImplementedError:
        return None
