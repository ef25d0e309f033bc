"""The concatenation barriers, ``concat`` (``concatenate``) and ``stack``: NumPy's on the
CPU backend; on CUDA each piece is written into its place in the result, the pieces of one
shape (every piece of a stack, ``np.array`` of a list of arrays) by one kernel of up to
``OUTPUTS`` outputs (``Backend.write_elements``) rather than a launch each.  A stack's
pieces come without the new axis (no view of each piece in the graph, so a reduction's
result is not copied before the stack) and get it here, as views of their memory."""
from __future__ import annotations

import numpy as np

from .._graph import layout as L
from .._graph.ir import leaf, reshape
from . import barriers

OUTPUTS = 32        # pieces of one shape one kernel writes at most


def _cuda(be, node, buf) -> None:
    axis, ostr, pos, by_shape = node.arg, L.c_strides(node.shape), 0, {}
    for s in node.srcs:
        if node.op == "stack":
            s = reshape(s, s.shape[:axis] + (1,) + s.shape[axis:])
        if L.prod(s.shape):
            dest = leaf(buf, node.dtype, s.shape, ostr, pos * ostr[axis], be.device)
            by_shape.setdefault(s.shape, []).append((dest, s))
        pos += s.shape[axis]
    for pieces in by_shape.values():
        for i in range(0, len(pieces), OUTPUTS):
            part = pieces[i:i + OUTPUTS]
            if len(part) > 1:
                be.write_elements([d for d, _ in part], [v for _, v in part])
            else:
                be.write(*part[0])


barriers.register("concat", cpu=lambda srcs, arg, dt: np.concatenate(srcs, axis=arg),
                  cuda=_cuda)
barriers.register("stack", cpu=lambda srcs, arg, dt: np.stack(srcs, axis=arg), cuda=_cuda)
