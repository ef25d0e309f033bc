"""The ``random_bits`` barrier op: Philox4x32-10 random bits on both backends.

``random_bits`` has no sources; its argument is ``(key, counter, shape)``: a 64-bit key
(``k0`` = low 32 bits, ``k1`` = high 32 bits), a 128-bit start counter and the output
shape.  The output (``uint32`` or ``uint64``, C order) is the Philox word stream described
in ``gnumpy/kernels/render_random.py``: word ``w`` is word ``w % 4`` of the block
``philox(counter + w // 4, key)``; a ``uint64`` element is two consecutive words, low
first.  The NumPy implementation (the CPU backend, ``gnumpy/random/_host.py``) computes
exactly the bits of the CUDA kernel, so one seed gives one stream on every backend.

``pcg64_draw`` is a whole draw from PCG64 (NumPy's default bit generator, the default):
``(state, inc, has_uint32, uinteger, kind, shape, dtype, args, program)``, NumPy's state
dict's values and the draw as below (``gnumpy/random/_pcg64.py``).

``random_draw`` is a whole draw, bits and transform: ``(key, counter, kind, shape, dtype,
args, program)``, see ``gnumpy/random/_philox.py``.  The CPU backend computes it chunk by
chunk (``_host.draw``), the CUDA backend in one kernel (``render_random.draw_source``)
whose transform is `program`, the draw's lazy ops lowered by the random package
(``_transforms.draw_program``).
"""
from __future__ import annotations

import numpy as np

from .._graph import layout as L
from ..kernels import render_random as RR
from ..kernels import render_ziggurat as RZ
from ..kernels.plan import FixedKey
from . import barriers

OP = "random_bits"
DRAW_OP = "random_draw"
PCG_DRAW_OP = "pcg64_draw"
MASK32 = 0xFFFFFFFF
MASK64 = (1 << 64) - 1


def words_needed(dtype, size: int) -> int:
    """Number of 32-bit Philox words an output of `size` elements of `dtype` uses."""
    return size * (np.dtype(dtype).itemsize // 4)




def philox_words(key: int, counter: int, nwords: int) -> np.ndarray:
    """The first `nwords` uint32 words of the Philox4x32-10 stream (vectorized NumPy,
    ``gnumpy/random/_host.py``).

    Examples
    --------
    >>> hex(int(philox_words(0, 0, 4)[0]))      # Random123 known-answer vector
    '0x6627e8d5'
    """
    # on first use: any barrier op loads this module; only draws need gnumpy.random (~35 ms)
    from ..random import _host
    return _host.philox_words(key, counter, nwords)


def _cpu(srcs, arg, dtype) -> np.ndarray:
    # on first use: any barrier op loads this module; only draws need gnumpy.random (~35 ms)
    from ..random import _host
    key, counter, shape = arg
    return _host.bits(key, counter, shape, dtype)


def _cpu_draw(srcs, arg, dtype) -> np.ndarray:
    # on first use: any barrier op loads this module; only draws need gnumpy.random (~35 ms)
    from ..random import _host
    return _host.draw(*arg[:6])


def _draw_kernels(node):
    return [node.arg[6].key]


def _cuda_draw(backend, node, buf) -> None:
    """A whole draw in one kernel (``render_random.draw_source``): the bits never reach
    memory (the lazy graph, ``random_bits`` then the transform, moves them twice)."""
    key, counter, _, shape, _, _, p = node.arg
    n = L.prod(shape)
    if n == 0:
        return
    k = backend._misc_kernel(p.key)
    groups = -(-n // (2 if p.wide else 4))
    grid = max(1, min(-(-groups // RR.BLOCK), backend.sm_count * 16))
    backend._go(k, grid, RR.BLOCK, [buf.ptr, np.uint64(n), np.uint64(counter & MASK64),
                                    np.uint64((counter >> 64) & MASK64),
                                    np.uint32(key & MASK32), np.uint32((key >> 32) & MASK32),
                                    *p.params])


def _cpu_pcg(srcs, arg, dtype) -> np.ndarray:
    # on first use: any barrier op loads this module; only draws need gnumpy.random (~35 ms)
    from ..random import _host
    return _host.pcg_draw(*arg[:8])


_PCG_INV = pow(RR.PCG_MULT, -1, 1 << 128)


def _cuda_pcg(backend, node, buf) -> None:
    """A whole PCG64 draw in one kernel (``render_random.pcg_draw_source``): the state
    passed is one LCG step before the draw's when NumPy's buffered 32-bit half comes
    first (the kernel's 32-bit word 0 is then that half)."""
    state, inc, h, u, _, shape, _, _, p = node.arg
    n = L.prod(shape)
    if n == 0:
        return
    if not p.wide and h:
        state = ((state - inc) * _PCG_INV) & ((1 << 128) - 1)
    k = backend._misc_kernel(p.key)
    groups = -(-n // (2 if p.wide else 4))
    grid = max(1, min(-(-groups // RR.BLOCK), backend.sm_count * 16))
    backend._go(k, grid, RR.BLOCK, [buf.ptr, np.uint64(n), np.uint64(state & MASK64),
                                    np.uint64(state >> 64), np.uint64(inc & MASK64),
                                    np.uint64(inc >> 64), np.uint32(u), np.uint32(h),
                                    *_side_key(p, node.arg), *p.params])


def _side_key(p, arg) -> tuple:
    """The ziggurat's side-stream key as two uint32 parameters (none for other draws)."""
    if not p.base:
        return ()
    k = RZ.side_key(arg[0], arg[1])
    return np.uint32(k & MASK32), np.uint32(k >> 32)       # (then Program.params: the range
                                                            # of a "lemire" draw first)


def _pcg_kernels(node):
    return [node.arg[8].key]


_PHILOX = FixedKey(RR.philox_source, (RR.BLOCK,))     # the one kernel of random bits


def _kernels(node):
    return [_PHILOX]


def _cuda(backend, node, buf) -> None:
    key, counter, shape = node.arg
    nwords = words_needed(node.dtype, L.prod(shape))
    if nwords == 0:
        return
    k = backend._misc_kernel(_PHILOX)
    nblocks = -(-nwords // 4)
    grid = max(1, min(-(-nblocks // RR.BLOCK), backend.sm_count * 16))
    args = [buf.ptr, np.uint64(nwords), np.uint64(counter & MASK64),
            np.uint64((counter >> 64) & MASK64), np.uint32(key & MASK32),
            np.uint32((key >> 32) & MASK32)]
    backend._go(k, grid, RR.BLOCK, args)


barriers.register(OP, cpu=_cpu, cuda=_cuda, kernels=_kernels)
# a whole draw, bits and transform in one pass (see gnumpy/random/_philox.py)
barriers.register(DRAW_OP, cpu=_cpu_draw, cuda=_cuda_draw, kernels=_draw_kernels)
# a whole PCG64 draw (see gnumpy/random/_pcg64.py)
barriers.register(PCG_DRAW_OP, cpu=_cpu_pcg, cuda=_cuda_pcg, kernels=_pcg_kernels)
