"""The one path of every ``gnumpy.fft`` transform: one FFT barrier node per call.

``transform`` casts the input to the transform's dtype (complex64/complex128, or
float32/float64 for r2c), pads or slices it to the transform lengths (gnumpy ops: they fuse
into the copy the barrier's source needs anyway, and a plain contiguous input is read in
place), builds one ``fft_c2c``/``fft_r2c``/``fft_c2r`` barrier (``backends/fft_ops.py``:
pocketfft on the CPU backend, cuFFT on CUDA) and applies a conjugation, the output dtype
and, on CUDA, the norm's scale as elementwise ops on its result (they fuse into the next
kernel).  For cuFFT it also makes c2r sources Hermitian-consistent and moves the axes
last where one plan cannot cover them.  NumPy's rules live here too: result dtypes, the
norm scale (computed in the input's real dtype, as NumPy does), ``_cook_nd_args`` and
``out=``.
"""
from __future__ import annotations

import functools
import operator
import warnings

import numpy as np

from .. import _dtypes as D
from .._api._common import is_array, wrap
from .._api.shape._views import cyclic, fresh, slice_axis
from .._api.elementwise.elementwise import apply, where
from .._graph import ir
from .._graph import layout as L
from ..backends import fft_ops

_SWAP = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}
SINGLE = (D.float16, D.float32, D.complex64)


def check_norm(norm):
    if norm is not None and norm not in ("backward", "ortho", "forward"):
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or '
                         f'"forward".')
    return norm


def swap(norm):
    """The norm of the opposite direction (an inverse transform's scale is its forward
    norm swapped, as NumPy's ``_swap_direction``)."""
    return _SWAP[check_norm(norm)]


def forward_norm(kind, forward, norm):
    """The norm whose forward scale applies: NumPy scales an inverse transform under
    `norm` as a forward one under the swapped norm."""
    inverse = kind == "c2r" or (kind == "c2c" and not forward)
    return swap(norm) if inverse else check_norm(norm)


@functools.lru_cache(maxsize=None)
def result_dtype(name: str, dtype) -> np.dtype:
    """NumPy's result dtype of ``numpy.fft.<name>`` for `dtype` inputs (and its TypeError
    for inputs it refuses, complex ones of real transforms), from a 2 x 4 probe."""
    return getattr(np.fft, name)(np.zeros((2, 4), dtype)).dtype


@functools.lru_cache(maxsize=None)
def real_of(dtype) -> np.dtype:
    """The real dtype NumPy computes a norm's scale in: result_type(a.real.dtype, 1.0)."""
    return D.real_dtype(D.apply_weak(dtype, "f"))


@functools.lru_cache(maxsize=1024)
def scale(norm, n: int, dtype) -> float:
    """The factor a forward transform of `n` points is multiplied by under `norm`
    (an inverse transform passes its swapped norm), rounded as NumPy rounds it for
    `dtype` inputs (to their real dtype)."""
    if norm is None or norm == "backward":
        return 1.0
    real_dt = real_of(dtype)
    with np.errstate(all="ignore"):
        if norm == "ortho":
            return float(np.reciprocal(np.sqrt(n, dtype=real_dt)))
        return float(np.reciprocal(np.asarray(n, dtype=real_dt)))


def points(n) -> int:
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return operator.index(n)


def cook_nd_args(a, s=None, axes=None, invreal=False):
    """NumPy's ``_cook_nd_args``: the lengths and axes of an N-d transform."""
    shapeless = s is None
    if s is None:
        s = list(a.shape) if axes is None else [a.shape[ax] for ax in axes]
    s = list(s)
    if axes is None:
        if not shapeless:
            warnings.warn("`axes` should not be `None` if `s` is not `None` (Deprecated in "
                          "NumPy 2.0). In a future version of NumPy, this will raise an "
                          "error and `s[i]` will correspond to the size along the "
                          "transformed axis specified by `axes[i]`. To retain current "
                          "behaviour, pass a sequence [0, ..., k-1] to `axes` for an array "
                          "of dimension k.", DeprecationWarning, stacklevel=4)
        axes = list(range(-len(s), 0))
    axes = list(axes)
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if invreal and shapeless:
        s[-1] = (a.shape[axes[-1]] - 1) * 2
    if None in s:
        warnings.warn("Passing an array containing `None` values to `s` is deprecated in "
                      "NumPy 2.0 and will raise an error in a future version of NumPy. To "
                      "use the default behaviour of the corresponding 1-D transform, pass "
                      "the value matching the default for its `n` parameter. To use the "
                      "default behaviour for every axis, the `s` argument can be omitted.",
                      DeprecationWarning, stacklevel=4)
    s = [a.shape[ax] if n == -1 else n for n, ax in zip(s, axes)]
    return s, axes


def finish(r, out, name: str):
    """`r`, or `r` written into `out` (NumPy's shape check and same_kind casting)."""
    if out is None:
        return r
    if not is_array(out):
        raise TypeError(f"out must be a gnumpy array, not {type(out).__name__}")
    if out.shape != r.shape:
        raise ValueError("output array has wrong shape.")
    if not D.can_cast(r.dtype, out.dtype, "same_kind"):
        raise TypeError(f"Cannot cast ufunc '{name}' output from {r.dtype!r} to "
                        f"{out.dtype!r} with casting rule 'same_kind'")
    out._assign_from(r)
    return out


# ------------------------------------------------------------------ building the node

def _resize(node, ax: int, m: int):
    """`node` sliced or zero-padded to `m` points along `ax` (index maps and a select: no
    copy of its own; it fuses into whatever materializes the barrier's source)."""
    k = node.shape[ax]
    if k == m:
        return node
    if k > m:
        return slice_axis(node, ax, 0, 1, m)
    nd = node.ndim
    idx = wrap(ir.axis_iota((1,) * ax + (m,) + (1,) * (nd - ax - 1), ax, node.device))
    return where(idx < k, wrap(cyclic(node, ax, 0, m)), 0)._node


def _mirror(node, axes):
    """`node` at index (-i) mod n along each of `axes` (a reversal and a cyclic shift)."""
    for ax in axes:
        k = node.shape[ax]
        node = cyclic(slice_axis(node, ax, k - 1, -1, k), ax, k - 1, k)
    return node


def _hermitian(node, axes, lengths):
    """The c2r source with its zero-frequency (and, for even n, Nyquist) planes of the
    halved axis replaced by their Hermitian part along the other axes.

    NumPy's irfftn is ifft over the other axes, then irfft, which drops the imaginary
    parts of those planes; the Hermitian part is what gives the same real parts after the
    other axes' inverse transforms (real(ifft(X)) = ifft((X + conj(X[-k])) / 2)).  cuFFT's
    c2r is defined only for Hermitian-consistent input, which this makes the source."""
    h, n = axes[-1], lengths[-1]
    outer = axes[:-1]
    x = wrap(node)
    nd = node.ndim
    m = node.shape[h]
    idx = wrap(ir.axis_iota((1,) * h + (m,) + (1,) * (nd - h - 1), h, node.device))
    for p in ((0, n // 2) if n % 2 == 0 else (0,)):
        plane = slice_axis(node, h, p, 1, 1)
        if outer:
            hp = (wrap(plane) + apply("conjugate", wrap(_mirror(plane, outer)))) * 0.5
        else:
            hp = apply("real", wrap(plane))
        x = where(idx == p, hp, x)
    return x._node


def _numpy_scales(device, dtype, fdt) -> bool:
    """Does the barrier itself apply the norm?  On the CPU backend NumPy's function takes
    the norm (its scale costs nothing there, a separate multiply a pass) and ignores the
    non-Hermitian parts of a c2r input; not for float16 inputs, whose scale NumPy rounds
    to float16.  On CUDA the scale is a multiply that fuses into the next kernel."""
    return device.kind == "cpu" and real_of(dtype) == fdt


def _unscaled(kind, forward) -> str:
    """NumPy's norm keyword under which a transform is not scaled."""
    return "forward" if kind == "c2r" or (kind == "c2c" and not forward) else "backward"


def transform(kind, a, axes, lengths, forward, norm, fct, rdt, conj_in=False,
              conj_out=False):
    """One transform of gnumpy array `a`: kind 'c2c', 'r2c' or 'c2r' over distinct,
    normalized `axes` (r2c/c2r: the last one is halved) of logical `lengths`, with NumPy's
    result dtype `rdt`, scaled as NumPy's function of that kind does under the keyword
    `norm` (`fct`: that scale); `conj_in`/`conj_out` conjugate the input or the result
    (hfft, ihfft)."""
    node = a._node
    single = rdt in SINGLE
    cdt = D.complex64 if single else D.complex128
    fdt = D.float32 if single else D.float64
    fold = _numpy_scales(node.device, a.dtype, fdt)
    axes, lengths = list(axes), list(lengths)
    in_lens = list(lengths)
    out_shape = list(a.shape)
    for ax, n in zip(axes, lengths):
        out_shape[ax] = n
    if kind == "c2r":
        in_lens[-1] = lengths[-1] // 2 + 1
    elif kind == "r2c":
        out_shape[axes[-1]] = lengths[-1] // 2 + 1
    out_shape = tuple(out_shape)
    if L.prod(out_shape) == 0 or any(a.shape[ax] == 0 for ax in axes):
        return wrap(ir.scalar(0, rdt, out_shape, node.device))    # all zeros
    node = ir.cast(node, fdt if kind == "r2c" else cdt)
    for ax, m in zip(axes, in_lens):
        node = _resize(node, ax, m)
    if conj_in:
        node = apply("conjugate", wrap(node))._node
    take_real = False
    if kind != "c2c" and lengths[-1] == 1:
        # a halved axis of one point: a complex transform of the other axes
        take_real = kind == "c2r"
        forward = kind == "r2c"
        kind = "c2c"
        node = ir.cast(node, cdt)
        axes, lengths = axes[:-1], lengths[:-1]
    keep = [i for i, n in enumerate(lengths) if n > 1 or (kind != "c2c" and
                                                          i == len(lengths) - 1)]
    axes, lengths = [axes[i] for i in keep], [lengths[i] for i in keep]
    owned = kind == "c2r" and not fold
    if owned:                   # cuFFT's c2r: Hermitian-consistent, a private copy
        node = _hermitian(node, axes, lengths)
    if axes:
        arg_norm = (norm or "backward") if fold else _unscaled(kind, forward)
        r = wrap(_barrier(kind, node, axes, lengths, forward, owned, arg_norm,
                          fdt if kind == "c2r" else cdt, not fold))
    else:
        r = fresh(node, a)          # one-point transforms: the (cast) input, never aliased
    if take_real:
        r = apply("real", r)
    if fct != 1.0 and not fold:
        r = r * fct
    if conj_out:
        r = apply("conjugate", r)
    if r.dtype != rdt:
        r = wrap(ir.cast(r._node, rdt))
    return r


def _barrier(kind, node, axes, lengths, forward, owned, norm, odt, plans):
    """The barrier node of the transform.  For cuFFT (`plans`), when one plan cannot cover
    the axes in place (batch dimensions on both sides of them), it runs on a view with
    the axes moved last and its result is viewed back."""
    in_shape = node.shape
    out_shape = list(in_shape)
    for ax, n in zip(axes, lengths):
        out_shape[ax] = n
    if kind == "r2c":
        out_shape[axes[-1]] = lengths[-1] // 2 + 1
    out_shape = tuple(out_shape)
    perm = None
    if plans and not fft_ops.natural(kind, in_shape, out_shape, tuple(axes)):
        order = fft_ops.plan_order(kind, axes)
        perm = [d for d in range(node.ndim) if d not in axes] + list(order)
        n_of = dict(zip(axes, lengths))
        lengths = [n_of[d] for d in order]
        axes = list(range(node.ndim - len(order), node.ndim))
        node = ir.permute(node, perm)
        out_shape = tuple(out_shape[d] for d in perm)
    arg = (tuple(axes), tuple(lengths), bool(forward), owned, norm)
    node = ir.barrier("fft_" + kind, (node,), arg, odt, out_shape)
    if perm is not None:
        node = ir.permute(node, [perm.index(d) for d in range(len(perm))])
    return node
