"""Transforms from random bits to distributions, as ordinary elementwise ops.

A draw is one ``random_draw`` barrier whose values are these functions of its bits.  The
functions take lazy gnumpy arrays or NumPy arrays: the CPU backend's fused draws
(``_host.draw``) run them chunk by chunk with the NumPy ufuncs the CPU backend evaluates
the lazy ops with; ``draw_program`` applies them to placeholder bits and lowers the lazy
result once into the CUDA draw kernel's expression (``render_random.draw_source``), which
computes the bits in registers.  With ``_philox.FUSED = False`` a draw is the lazy graph
itself (a ``random_bits`` barrier and these ops), which gives the same values.
``DRAWS`` and ``draw_plan`` name the draws that run either way.

* uniform ``[0, 1)``: the top 53 bits of a uint64 times ``2**-53`` (float64), the top 24
  bits of a uint32 times ``2**-24`` (float32), as NumPy's ``next_double``/``next_float``;
  ``(0, 1]`` adds one ulp before scaling, ``(0, 1)`` takes one bit less and uses the odd
  multiples of the ulp;
* standard normal: Box-Muller (``sqrt(-2 log u1) * cos(2 pi u2)``, one output per pair;
  Philox), or the ziggurat on one word (``zig_normal``, PCG64: ``render_ziggurat``);
* standard exponential: ``-log(u)`` with ``u`` in ``(0, 1]`` (inversion);
* integers in ``[0, r)``: Lemire's multiply-shift, ``floor(X * r / 2**k)`` with ``X``
  uniform on ``k`` = 64 bits (``r <= 2**32``) or 128 bits (larger or array ranges); a
  PCG64 draw with ``r <= 2**32`` takes NumPy's method instead, ``k`` = 32 with rejection
  (``lemire_integers``: ``render_random.lemire_fns``).

# Note: the integer transform without rejection is biased by at most one part in
# ``2**64 / r``: below ``2**-32`` relatively for ranges up to ``2**32`` (Philox's), and
# below ``2**-64`` for larger ranges (which use 128 random bits).  NumPy rejects, so it has
# no bias, nor have PCG64's draws in ranges up to ``2**32``.
# Note: Box-Muller's tails end where ``u1`` reaches its smallest value: at 8.57 (float64)
# and 5.77 (float32) standard deviations (the ziggurat has no such cut-off).
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Callable, NamedTuple

import numpy as np

from .._api._common import wrap
from .._api.elementwise.elementwise import apply, where
from .._graph import ir
from .._graph import layout as L
from ..kernels import lower
from ..kernels import render_random as RR
from ..kernels.plan import FixedKey, spec_key
from ..kernels.types import param_values

M32 = 0xFFFFFFFF
U64 = np.dtype(np.uint64)
U32 = np.dtype(np.uint32)
F64 = np.dtype(np.float64)
F32 = np.dtype(np.float32)


def bits_dtype(dtype) -> np.dtype:
    """The bit width a float dtype draws: uint64 for float64, uint32 for float32."""
    return U64 if np.dtype(dtype) == F64 else U32


def _part(bits, k):
    """``bits[k]`` of a (n, *shape) bits array (a fused view, no copy) or of a list."""
    return bits[k]


def _f(name, x):
    """The elementwise function `name` of `x`: NumPy's ufunc on a NumPy array (what the
    CPU backend evaluates the op with), else the lazy gnumpy op."""
    if isinstance(x, np.ndarray):
        return getattr(np, name)(x)
    return apply(name, x)


# ------------------------------------------------------------------ floats

def unit(bits, dtype, open_low=False):
    """Uniform floats of `dtype` in [0, 1) from `bits` (in (0, 1] when `open_low`)."""
    if np.dtype(dtype) == F64:
        m = bits >> 11
        if open_low:
            m = m + 1
        return m.astype(F64) * (2.0 ** -53)
    m = bits >> 8
    if open_low:
        m = m + 1
    return m.astype(F32) * np.float32(2.0 ** -24)


def open_unit(bits, dtype):
    """Uniform floats of `dtype` strictly inside (0, 1): odd multiples of 2**-53 (2**-24)."""
    if np.dtype(dtype) == F64:
        return ((bits >> 12) * 2 + 1).astype(F64) * (2.0 ** -53)
    return ((bits >> 9) * 2 + 1).astype(F32) * np.float32(2.0 ** -24)


def standard_normal(bits2, dtype):
    """Box-Muller on bits of shape (2, *shape)."""
    u1 = unit(_part(bits2, 0), dtype, open_low=True)
    u2 = unit(_part(bits2, 1), dtype)
    r = _f("sqrt", _f("log", u1) * -2.0)
    return r * _f("cos", u2 * (2 * math.pi))


def standard_exponential(bits, dtype):
    return -_f("log", unit(bits, dtype, open_low=True))


# ------------------------------------------------------------------ integers in [0, r)

def _mulhi64(a, b):
    """High 64 bits of the 128-bit product of uint64 `a` and `b` (arrays or ints)."""
    al, ah = a & M32, a >> 32
    bl, bh = b & M32, b >> 32
    ll, lh, hl, hh = al * bl, al * bh, ah * bl, ah * bh
    mid = (ll >> 32) + (lh & M32) + (hl & M32)
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32)


def _mulhi_small(x, r):
    """``(x * r) >> 64`` for uint64 `x` and ``1 <= r <= 2**32`` (int or uint64 array)."""
    return ((x >> 32) * r + (((x & M32) * r) >> 32)) >> 32


def _mulhi128(xh, xl, r):
    """``((xh * 2**64 + xl) * r) >> 128`` for uint64 `xh`, `xl` and `r`."""
    t = _mulhi64(xl, r)
    s = xh * r + t                       # low 64 bits of xh * r, plus t (wraps)
    carry = (s < t).astype(U64)
    return _mulhi64(xh, r) + carry


def wide(r) -> bool:
    """Whether a range `r` (Python int) draws 128 random bits per output (else 64)."""
    return r > (1 << 32) and r & (r - 1) != 0


def below(bits, r):
    """Integers uniform in [0, r) as uint64, for a Python int ``2 <= r <= 2**64``.

    `bits` is uint64 of the output shape, or of shape (2, *shape) when ``wide(r)``."""
    if r & (r - 1) == 0:                              # a power of two: exact
        k = r.bit_length() - 1
        return bits >> (64 - k) if k < 64 else bits
    if not wide(r):
        return _mulhi_small(bits, r)
    return _mulhi128(_part(bits, 0), _part(bits, 1), r)


def below_array(bits, r, small: bool):
    """Like `below` for a uint64 array of ranges (0 meaning 2**64); `small` when every
    range is at most 2**32 (then `bits` has the output shape, else (2, *shape))."""
    if small:
        return _mulhi_small(bits, r)
    xh = _part(bits, 0)
    return where(r == 0, xh, _mulhi128(xh, _part(bits, 1), r))


# ------------------------------------------------------------------ whole draws

def affine(loc, scale, z):
    """``loc + scale * z``, leaving out the identity steps of scalar defaults."""
    if not (type(scale) is float and scale == 1.0):
        z = scale * z
    if not (type(loc) is float and loc == 0.0):
        z = loc + z
    return z


class Plan(NamedTuple):
    """A draw: `fn` maps its bits (``parts`` arrays of the output shape, of ``bits_dtype``,
    consecutive in the stream; one array of shape ``(parts, *shape)`` or a list of them)
    to the output of ``dtype``.  `base` ``"zig"``: `fn` takes instead the ziggurat normals
    of the bits (one word each, ``render_ziggurat``), arrays of ``dtype``; ``"lemire"``:
    the integers in ``[0, r)`` of 32-bit words by Lemire's method with rejection
    (``render_random.lemire_fns``), uint64 arrays."""
    dtype: np.dtype
    bits_dtype: np.dtype
    parts: int
    fn: Callable
    base: str = ""


# kind -> (transform(bits, dtype), number of bits arrays)
DRAWS = {
    "random": (unit, 1),
    "random_open_low": (lambda b, dt: unit(b, dt, open_low=True), 1),
    "open_unit": (open_unit, 1),
    "standard_normal": (standard_normal, 2),
    "standard_exponential": (standard_exponential, 1),
}


def draw_plan(kind: str, dtype, args=()) -> Plan:
    """The plan of draw `kind` with Python-scalar `args`: ``(loc, scale)`` (or nothing) for
    the float draws of ``DRAWS``; ``(r, low)`` (Python ints) for ``"integers"``, which
    gives ``low + below(bits, r)`` (mod 2**64) cast to `dtype`."""
    if kind == "raw":
        odt = np.dtype(dtype)
        return Plan(odt, odt, 1, lambda b: b)
    if kind == "lemire_integers":       # (a PCG64 draw's integers with r <= 2**32)
        r, low = args
        odt = np.dtype(dtype)
        return Plan(odt, U32, 1, lambda z: (z + (low & ((1 << 64) - 1))).astype(odt),
                    "lemire")
    if kind == "integers":
        r, low = args
        odt = np.dtype(dtype)
        return Plan(odt, U64, 2 if wide(r) else 1,
                    lambda b: (below(b, r) + (low & ((1 << 64) - 1))).astype(odt))
    dt = np.dtype(dtype)
    if kind == "zig_normal":            # (a PCG64 draw's standard_normal)
        if args:
            loc, scale = args
            return Plan(dt, bits_dtype(dt), 1, lambda z: affine(loc, scale, z), "zig")
        return Plan(dt, bits_dtype(dt), 1, lambda z: z, "zig")
    f, parts = DRAWS[kind]
    if args:
        loc, scale = args
        return Plan(dt, bits_dtype(dt), parts, lambda b: affine(loc, scale, f(b, dt)))
    return Plan(dt, bits_dtype(dt), parts, lambda b: f(b, dt))


_PART = 4           # elements of each part of the placeholder bits (not 0-d: no scalar rules)


class Program(NamedTuple):
    """A draw's transform lowered for the CUDA draw kernel: the kernel's key
    (``render_random.draw_source`` over the spec's key, the number of bits parts, whether
    bits are ``uint64``, the part each operand reads), whether bits are ``uint64``, and
    the values of the kernel's scalar parameters."""
    key: FixedKey
    wide: bool
    params: tuple
    base: str = ""


def draw_program(kind: str, dtype, args, device, source: str = "philox") -> Program:
    """The transform of ``draw_plan(kind, dtype, args)`` as one elementwise expression over
    placeholder bits: the same lazy ops the CUDA backend would fuse after a
    ``random_bits`` barrier, lowered for the fused draw kernel of bit generator `source`
    (``"philox"`` or ``"pcg64"``)."""
    return _program(kind, np.dtype(dtype), tuple((type(a), a) for a in args), device, source)


@lru_cache(maxsize=64)     # a draw repeated with the same parameters lowers once (~0.1-0.3 ms)
def _program(kind, dtype, typed_args, device, source) -> Program:
    plan = draw_plan(kind, dtype, tuple(a for _, a in typed_args))
    shape = (plan.parts, _PART) if plan.parts > 1 else (_PART,)
    pdt = {"zig": plan.dtype, "lemire": U64}.get(plan.base, plan.bits_dtype)
    bits = wrap(ir.leaf(None, pdt, shape, L.c_strides(shape), 0, device))
    root = plan.fn(bits)._node
    spec = lower.Spec("ew")
    spec.shape = root.shape
    spec.add_output(spec.lower(root, "ew"), root)
    wide = plan.bits_dtype == U64
    part_of = tuple(o.levels[0][2] // _PART for o in spec.operands)
    if source == "pcg64":
        key = FixedKey(RR.pcg_draw_source, (spec_key(spec), plan.parts, wide, part_of,
                                            RR.BLOCK, plan.base))
    else:
        key = FixedKey(RR.draw_source, (spec_key(spec), plan.parts, wide, part_of, RR.BLOCK))
    params = tuple(v for dt, x in spec.scalars for v in param_values(dt, x))
    if plan.base == "lemire":           # the range, a parameter (not in the kernel's key)
        params = (np.uint64(typed_args[0][1]),) + params
    return Program(key, wide, params, plan.base)
