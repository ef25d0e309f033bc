"""``gnumpy.explain``: show the groups (kernels) materializing some arrays would run.

Each group is printed as its outputs' expressions in compact infix form (``2.5 * x + y``,
``sum(...)``), its inputs (arrays, or outputs of earlier groups), and the CUDA source of
its kernel without the helper headers.  The source is rendered by the CUDA code generator
on every backend (no GPU needed: the CPU backend shows what the CUDA backend would
compile, for an H200-sized grid); barrier groups (library calls, scans) have no generated
source to show.
"""
from __future__ import annotations

from .._device import backend
from . import layout as L
from .fuse import schedule
from .ir import BARRIER, EW, IOTA, LEAF, REDUCE, SCALAR, VIEW

# infix operators: op -> (symbol, precedence); higher binds tighter (Python's order)
_BINARY = {
    "power": ("**", 9), "multiply": ("*", 7), "divide": ("/", 7), "floor_divide": ("//", 7),
    "remainder": ("%", 7), "add": ("+", 6), "subtract": ("-", 6), "left_shift": ("<<", 5),
    "right_shift": (">>", 5), "bitwise_and": ("&", 4), "bitwise_xor": ("^", 3),
    "bitwise_or": ("|", 2), "less": ("<", 1), "less_equal": ("<=", 1), "greater": (">", 1),
    "greater_equal": (">=", 1), "equal": ("==", 1), "not_equal": ("!=", 1),
}
_UNARY = {"negative": "-", "positive": "+", "invert": "~"}
_UNARY_PREC = 8
_ATOM = 10
_MAX_DEPTH = 24


class _Names:
    """Names of a group's inputs (in1, in2, ...) and what each one is."""

    def __init__(self, earlier: dict) -> None:
        self.earlier = earlier        # id(node) -> index of the group that realizes it
        self.ids: dict = {}
        self.legend: list = []
        self.inline: set = set()

    def input(self, node) -> str:
        key = id(node)
        name = self.ids.get(key)
        if name is None:
            name = self.ids[key] = f"in{len(self.ids) + 1}"
            what = (f"output of [{self.earlier[key]}]" if key in self.earlier else
                    f"result of {node.op}" if node.kind == BARRIER else "array")
            if node.kind == LEAF and not L.is_c_contiguous(node.shape, node.strides):
                what += f" (a view, strides {tuple(node.strides)} in elements)"
            self.legend.append(f"{name}: {node.dtype}{list(node.shape)} {what}")
        return name


def _scalar(node) -> str:
    v = node.arg
    v = v.item() if hasattr(v, "item") else v
    return repr(v)


def _slice(arg, shape) -> str:
    parts = []
    for (start, step), n in zip(arg, shape):
        stop = start + step * n
        if step == 1:
            parts.append(f"{start or ''}:{stop}")
        else:
            parts.append(f"{start}:{'' if stop < 0 else stop}:{step}")
    return ", ".join(parts)


def _expr(node, names: _Names, top: bool, depth: int = 0):
    """(text, precedence) of `node` in group-local infix form."""
    k = node.kind
    if k == LEAF or (not top and id(node) not in names.inline
                     and (k in (REDUCE, BARRIER) or id(node) in names.earlier)):
        return names.input(node), _ATOM
    if k == SCALAR:
        return _scalar(node), _ATOM
    if k == IOTA:
        if len(node.shape) == 1 and tuple(node.strides) == (1,) and node.offset == 0:
            return "iota", _ATOM
        return f"iota(strides={tuple(node.strides)}, offset={node.offset})", _ATOM
    if depth > _MAX_DEPTH:
        return "...", _ATOM
    srcs = [_expr(s, names, False, depth + 1) for s in node.srcs]

    def wrap(i, prec, right=False):
        text, p = srcs[i]
        return f"({text})" if p < prec or (right and p == prec) else text

    if k == EW:
        op = node.op
        if op in _BINARY and len(srcs) == 2:
            sym, prec = _BINARY[op]
            if op == "power":               # right-associative
                return f"{wrap(0, prec + 1)} ** {wrap(1, prec)}", prec
            return f"{wrap(0, prec)} {sym} {wrap(1, prec, right=True)}", prec
        if op in _UNARY and len(srcs) == 1:
            return f"{_UNARY[op]}{wrap(0, _UNARY_PREC)}", _UNARY_PREC
        if op == "astype":
            return f"{node.dtype}({srcs[0][0]})", _ATOM
        args = [t for t, _ in srcs]
        if node.arg is not None:
            args.append(repr(node.arg))
        return f"{op}({', '.join(args)})", _ATOM
    if k == VIEW:
        src = wrap(0, _ATOM)
        if node.op == "broadcast":
            return f"broadcast_to({srcs[0][0]}, {tuple(node.shape)})", _ATOM
        if node.op == "permute":
            return f"{src}.transpose{tuple(node.arg)}", _ATOM
        if node.op == "reshape":
            return f"{src}.reshape{tuple(node.shape)}", _ATOM
        if node.op == "slice":
            return f"{src}[{_slice(node.arg, node.shape)}]", _ATOM
        return f"{node.op}({srcs[0][0]}, {node.arg!r})", _ATOM
    if k == REDUCE:
        rop, axes, keepdims = node.arg
        src = node.srcs[0]
        axis = "" if tuple(axes) == tuple(range(len(src.shape))) and not keepdims else (
            f", axis={axes[0] if len(axes) == 1 else tuple(axes)}")
        return f"{rop}({srcs[0][0]}{axis}{', keepdims=True' if keepdims else ''})", _ATOM
    return f"{node.op}({', '.join(t for t, _ in srcs)})", _ATOM


def _source(group):
    """The CUDA source of `group`'s kernel without the helper headers, or None."""
    if group.kind == "barrier":
        return None
    # loaded on first use: only the kernel source needs kernels.build (~50 ms)
    from ..kernels import build
    be = backend(group.device)
    sm = getattr(be, "sm_count", 132)           # the CPU backend: an H200's grid
    bps = getattr(be, "blocks_per_sm", 8)
    return build.source_of(group, ptr_of=lambda o: 0, sm_count=sm, blocks_per_sm=bps,
                           headers=False)


def describe(nodes, source: bool = True) -> str:
    """Text describing each group that materializing `nodes` would run."""
    groups = schedule(nodes)
    if not groups:
        return "nothing to compute: every array is already materialized"
    lines = [f"{len(groups)} group{'s' if len(groups) != 1 else ''} "
             f"(one kernel or library call each):"]
    earlier: dict = {}
    for gi, g in enumerate(groups):
        names = _Names(earlier)
        what = f"barrier {g.barrier.op}" if g.kind == "barrier" else g.kind
        head = f"[{gi}] {what} on {g.device}"
        body = []
        inline = {id(g.reduce)} if g.reduce is not None else set()
        inline |= {id(r) for r in g.phases} | {id(r) for r, _ in g.siblings}
        for o in g.outputs:
            names.inline = inline | {id(o)}
            body.append(f"    out {o.dtype}{list(o.shape)} = {_expr(o, names, True)[0]}")
        if g.reduce is not None and g.reduce not in g.outputs:
            names.inline = {id(g.reduce)}
            body.append(f"    reduce (kept in registers) = {_expr(g.reduce, names, True)[0]}")
        lines.append(head)
        lines.extend(f"    {s}" for s in names.legend)
        lines.extend(body)
        if source:
            try:
                src = _source(g)
            except Exception as e:      # noqa: BLE001 - explain must not fail on a render
                src = f"// source not available: {type(e).__name__}: {e}"
            if src:
                lines.append("    --- CUDA source (helper headers left out) ---")
                lines.extend(("    " + s).rstrip() for s in src.strip("\n").splitlines())
        for o in g.outputs:
            earlier[id(o)] = gi
        if g.reduce is not None:
            earlier[id(g.reduce)] = gi
    return "\n".join(lines)
