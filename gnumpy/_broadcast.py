"""Broadcasting: the ONE place where shapes are broadcast together.

Examples
--------
>>> broadcast_shapes((3, 1), (4,))
(3, 4)
"""
from __future__ import annotations


def broadcast_shapes(*shapes) -> tuple:
    """NumPy's ``broadcast_shapes``: the common shape, or ValueError naming the shapes."""
    if not shapes:
        return ()
    out = tuple(shapes[0])
    for s in shapes[1:]:
        out = broadcast_pair(out, s)
        if out is None:
            raise ValueError("operands could not be broadcast together with shapes "
                             + " ".join(fmt(s) for s in shapes))
    return out


def broadcast_pair(a, b):
    """The shape `a` and `b` broadcast to, or None when they do not: the rule, one trailing
    axis at a time (the longer shape's leading axes are kept)."""
    k = len(a) - len(b)
    if k < 0:
        a, b, k = b, a, -k
    out = list(a[:k])
    for x, y in zip(a[k:], b):
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            return None
    return tuple(out)


def broadcast_args(*shapes) -> tuple:
    """NumPy's ``broadcast_shapes`` / ``broadcast_arrays`` (``np.broadcast``): the common
    shape of the arguments' shapes, or ValueError with their message, which names the
    first two arguments that clash."""
    try:
        return broadcast_shapes(*shapes)
    except ValueError:
        raise ValueError(_mismatch(shapes)) from None


def _mismatch(shapes) -> str:
    """NumPy's multi-iterator message: axes from the outermost of the result, arguments in
    order; the argument that set an axis's length, then the first that differs."""
    nd = max(len(s) for s in shapes)
    for i in range(nd):
        dim, src = 1, -1
        for j, s in enumerate(shapes):
            k = i + len(s) - nd
            if k < 0 or s[k] == 1:
                continue
            if dim == 1:
                dim, src = s[k], j
            elif s[k] != dim:
                return ("shape mismatch: objects cannot be broadcast to a single shape.  "
                        f"Mismatch is between arg {src} with shape {tuple(shapes[src])} and "
                        f"arg {j} with shape {tuple(s)}.")
    return "operands could not be broadcast together"       # (shapes that do broadcast)


def fmt(shape) -> str:
    """A shape as NumPy's shape messages print it: (2,3), (5,), (); a negative length (an
    unknown one in a reshape) as ``newaxis``."""
    return "(" + ",".join(str(d) if d >= 0 else "newaxis" for d in shape) + \
        ("," if len(shape) == 1 else "") + ")"


def broadcast_to_check(shape, target) -> None:
    """Raise ValueError unless `shape` broadcasts to exactly `target`."""
    if len(shape) > len(target):
        raise ValueError("cannot broadcast a non-scalar to a scalar array" if not target else
                         "input operand has more dimensions than allowed by the axis remapping")
    off = len(target) - len(shape)
    for i, d in enumerate(shape):
        if d != 1 and d != target[off + i]:
            raise ValueError(f"operands could not be broadcast together with remapped shapes "
                             f"[original->remapped]: {fmt(shape)} and requested shape "
                             f"{fmt(target)}")
