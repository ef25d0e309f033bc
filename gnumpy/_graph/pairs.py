"""Two matrix-vector products of one matrix as one pass over it (``Backend.matvec_pair``):
the library calls of one materialization (bicg's ``return r @ A, A @ p``), or of two
writes in a row (mvt's ``x1[:] += A @ y1; x2[:] += y2 @ A``), where the backend can."""
from __future__ import annotations

from threading import get_ident

from .._config import config
from .forms import product_form
from .ir import reads_any


def _backend(dev):
    """`dev`'s backend bound to this thread, when it pairs products (never ``backend()``:
    it would run the deferred write)."""
    be = dev._be
    if be is None or be.matvec_pair is None or config.nvtx:
        return None
    if be.thread != get_ident():
        be.bind_thread()
    return be


def run_pair(dev, n1, n2) -> bool:
    """Run matmul nodes `n1` and `n2` (library calls, operands in memory) as one pass when
    they are ``A @ u`` and ``w @ A`` of one matrix: False, before any work, otherwise.
    (The caller counts the two calls.)"""
    be = _backend(dev)
    return be is not None and be.matvec_pair(n1, n2)


def write_pair(p, dest, value) -> bool:
    """Deferred write `p` and the write of `value` into vector `dest`, each a product of
    one matrix written with a beta (``realize.write``), as one pass over the matrix, where
    `value` reads nothing p writes and the destinations are apart: True when both ran."""
    if len(dest.shape) != 1 or dest.buf is p[0].buf:
        return False
    be = _backend(dest.device)
    if be is None:
        return False
    f1, f2 = product_form(*p), product_form(dest, value)
    if f1 is None or f2 is None or reads_any(value, {id(p[0].buf)}):
        return False
    return be.matvec_pair(f1[0], f2[0], (p[0], f1[1]), (dest, f2[1]))
