"""The FFT barrier ops ``fft_c2c``, ``fft_r2c`` and ``fft_c2r``: NumPy's pocketfft on the
CPU backend, cuFFT (``nvmath.bindings.cufft``) on CUDA, one library call per transform.

A node's ``arg`` is ``(axes, lengths, forward, owned, norm)``: the transformed axes of the
source (distinct; for r2c/c2r the last one is the halved axis), the logical length of each
(for c2r the real output's), the direction of a c2c transform (r2c is forward, c2r
inverse), whether the source is a private buffer the op may overwrite, and NumPy's norm
keyword, applied as NumPy's function applies it.  The source has the transform's lengths
(the API layer pads and slices).  On CUDA the source has the transform's dtype
(complex64/complex128, float32/float64 for r2c) and the transform is unscaled (the API
layer multiplies the result by the norm's scale, an elementwise op that fuses into the
next kernel); the CPU backend's pocketfft call takes the norm itself.

CUDA: one cuFFT plan (``cufftMakePlanMany64``, advanced layout) covers up to three axes.
Its transform dimensions must nest (each stride a multiple of the next, with room for the
extent: ``inembed``/``istride``) and its batch dimensions merge into one (``idist``),
in both the source's layout and the C-contiguous output's.  ``schedule`` (a pure function
of shapes and strides, checked on the host against an emulation of cuFFT) decides:

* the source is read in place when one plan describes it and it is aligned to its complex
  type; otherwise it is copied to C order first (one fused copy); c2r always reads a
  private C-ordered source (cuFFT's c2r overwrites its input);
* the first plan covers the last (up to) three axes in plan order (axes ascending, the
  halved axis last) from the source into the output; more axes run as further in-place c2c
  plans on the output (r2c) or, before the c2r plan, on the private source (c2r), looping
  over batch dimensions one plan cannot merge.
The API layer moves the axes last (``natural``) when the C-ordered output itself needs more
than one batch group, so the first plan never loops.
"""
from __future__ import annotations

import functools
from collections import namedtuple

import numpy as np

from .._graph import layout as L
from . import barriers
from .cuda_libs import bindings, libs

FORWARD, INVERSE = -1, 1                          # cuFFT's direction constants
# cufftType: (kind, double precision) -> value; the exec binding of each
TYPES = {("c2c", False): 0x29, ("r2c", False): 0x2a, ("c2r", False): 0x2c,
         ("c2c", True): 0x69, ("r2c", True): 0x6a, ("c2r", True): 0x6c}
_EXEC = {0x29: "exec_c2c", 0x2a: "exec_r2c", 0x2c: "exec_c2r",
         0x69: "exec_z2z", 0x6a: "exec_d2z", 0x6c: "exec_z2d"}
KIND_OF = {v: k[0] for k, v in TYPES.items()}
_C2C = ("exec_c2c", "exec_z2z")

# One plan: (rank, n, inembed, istride, idist, onembed, ostride, odist, batch) are the
# arguments of cufftMakePlanMany64 (embeds None: the basic layout, NULL pointers); loops
# the batch groups it could not merge [(count, in_step, out_step)] (element steps, run as
# separate executions).
Plan = namedtuple("Plan", "params loops")
# One execution step: cufftType, Plan, direction, source and destination ("in" / "out");
# what a call needs of it, computed once with the schedule: the plan cache's key, the
# plan's maker, the cufft exec function's name and the executions' element offsets.
_Exec = namedtuple("Exec", "type plan direction src dst key make fn offs")


def Exec(typ, plan, direction, src, dst):
    return _Exec(typ, plan, direction, src, dst, ("cufft", typ) + plan.params,
                 functools.partial(_make_plan, typ, plan.params), _EXEC[typ],
                 tuple(offsets(plan.loops)))


# ------------------------------------------------------------------ CPU backend: pocketfft

def _cpu_c2c(srcs, arg, dt):
    axes, _, forward, _, norm = arg
    if len(axes) == 1:
        return (np.fft.fft if forward else np.fft.ifft)(srcs[0], axis=axes[0], norm=norm)
    return (np.fft.fftn if forward else np.fft.ifftn)(srcs[0], axes=axes, norm=norm)


def _cpu_r2c(srcs, arg, dt):
    axes, norm = arg[0], arg[4]
    if len(axes) == 1:
        return np.fft.rfft(srcs[0], axis=axes[0], norm=norm)
    return np.fft.rfftn(srcs[0], axes=axes, norm=norm)


def _cpu_c2r(srcs, arg, dt):
    axes, lengths, norm = arg[0], arg[1], arg[4]
    if len(axes) == 1:
        return np.fft.irfft(srcs[0], lengths[0], axis=axes[0], norm=norm)
    return np.fft.irfftn(srcs[0], s=lengths, axes=axes, norm=norm)


# ------------------------------------------------------------------ layouts (pure)

def plan_order(kind: str, axes) -> tuple:
    """The transform axes in cuFFT's order: ascending, the halved axis of r2c/c2r last."""
    if kind == "c2c":
        return tuple(sorted(axes))
    return tuple(sorted(axes[:-1])) + (axes[-1],)


def chunks(order) -> list:
    """Groups of at most three axes (one plan each), the group holding the last axes first."""
    out = []
    i = len(order)
    while i > 0:
        out.append(tuple(order[max(0, i - 3):i]))
        i -= 3
    return out


def _nest(strides, lens):
    """(embed, stride) of cuFFT's advanced layout for transform dimensions with element
    `strides` and extents `lens` (outermost first), or None when no embedding describes
    them: ``offset = ((x * embed[1] + y) * embed[2] + z) * stride`` (embed[0] is unused)."""
    if min(strides) < 1:
        return None
    st = strides[-1]
    embed = [lens[0]]
    for i in range(1, len(strides)):
        a, b = strides[i - 1], strides[i]
        if a % b or a < b * lens[i]:
            return None
        embed.append(a // b)
    return tuple(embed), st


def _batch_groups(shape, in_st, out_st, skip):
    """The batch dimensions (axes outside `skip` with extent > 1) merged wherever both
    layouts allow: [(count, in_stride, out_stride)], outermost first; None when an input
    batch stride is not positive."""
    groups = []
    for ax, d in enumerate(shape):
        if ax in skip or d == 1:
            continue
        si, so = in_st[ax], out_st[ax]
        if si < 1 or so < 1:
            return None
        if groups and groups[-1][1] == si * d and groups[-1][2] == so * d:
            groups[-1] = (groups[-1][0] * d, si, so)
        else:
            groups.append((d, si, so))
    return groups


def layout(in_shape, in_st, out_shape, out_st, chunk, n):
    """The Plan transforming axes `chunk` (logical lengths `n`) of a source laid out as
    (in_shape, in_st) into (out_shape, out_st), or None when one plan cannot describe the
    transform dimensions.  The largest batch group is the plan's batch; the others loop."""
    i = _nest([in_st[a] for a in chunk], [in_shape[a] for a in chunk])
    o = _nest([out_st[a] for a in chunk], [out_shape[a] for a in chunk])
    if i is None or o is None:
        return None
    groups = _batch_groups(in_shape, in_st, out_st, set(chunk))
    if groups is None:
        return None
    (inembed, istride), (onembed, ostride) = i, o
    if groups:
        pick = max(range(len(groups)), key=lambda j: (groups[j][0], j))
        batch, idist, odist = groups[pick]
        loops = tuple(groups[:pick] + groups[pick + 1:])
    else:
        batch, loops = 1, ()
        idist = in_st[chunk[0]] * in_shape[chunk[0]]
        odist = out_st[chunk[0]] * out_shape[chunk[0]]
    in_lens = [in_shape[a] for a in chunk]
    out_lens = [out_shape[a] for a in chunk]
    if (istride == ostride == 1 and inembed[1:] == tuple(in_lens[1:]) and
            onembed[1:] == tuple(out_lens[1:]) and
            (batch == 1 or (idist == L.prod(in_lens) and odist == L.prod(out_lens)))):
        # cuFFT's basic layout (NULL embeds: densely packed signals), as CuPy plans it
        inembed = onembed = None
        idist, odist = L.prod(in_lens), L.prod(out_lens)
    params = (len(chunk), tuple(n), inembed, istride, idist, onembed, ostride, odist, batch)
    return Plan(params, loops)


@functools.lru_cache(maxsize=512)
def natural(kind, in_shape, out_shape, axes) -> bool:
    """Can the first plan read and write C-ordered arrays of these shapes with one batch
    group?  (Otherwise the API layer moves the axes last.)"""
    first = chunks(plan_order(kind, axes))[0]
    p = layout(in_shape, L.c_strides(in_shape), out_shape, L.c_strides(out_shape), first,
               [0] * len(first))
    return p is not None and not p.loops


@functools.lru_cache(maxsize=1024)
def schedule(kind, double, in_shape, in_st, aligned, owned, out_shape, axes, lengths,
             forward):
    """(copy, execs) of one transform: ``copy`` — run on a C-ordered copy of the source
    (then ``in_st`` no longer applies); ``execs`` — the cuFFT executions, in order."""
    order = plan_order(kind, axes)
    nlen = dict(zip(axes, lengths))
    out_st = L.c_strides(out_shape)
    first, *rest = chunks(order)

    def n_of(chunk):
        return [nlen[a] for a in chunk]

    copy = not aligned or (kind == "c2r" and not (owned and L.is_c_contiguous(in_shape,
                                                                               in_st)))
    p = None if copy else layout(in_shape, in_st, out_shape, out_st, first, n_of(first))
    if p is None or p.loops:
        copy = True
        in_st = L.c_strides(in_shape)
        p = layout(in_shape, in_st, out_shape, out_st, first, n_of(first))
        if p is None or p.loops:
            raise AssertionError(f"fft: no single cuFFT plan for axes {axes} of "
                                 f"{in_shape} -> {out_shape}")
    execs = []
    double = bool(double)
    if kind == "c2r":
        for c in rest:      # the other axes: inverse c2c in place on the private source
            execs.append(Exec(TYPES["c2c", double],
                              layout(in_shape, in_st, in_shape, in_st, c, n_of(c)),
                              INVERSE, "in", "in"))
        execs.append(Exec(TYPES["c2r", double], p, INVERSE, "in", "out"))
    else:
        d = FORWARD if kind == "r2c" or forward else INVERSE
        execs.append(Exec(TYPES[kind, double], p, d, "in", "out"))
        for c in rest:      # the other axes: c2c in place on the output
            execs.append(Exec(TYPES["c2c", double],
                              layout(out_shape, out_st, out_shape, out_st, c, n_of(c)),
                              d, "out", "out"))
    return copy, tuple(execs)


def offsets(loops):
    """(in, out) element offsets of every execution of a plan with `loops`."""
    out = [(0, 0)]
    for count, si, so in loops:
        out = [(a + k * si, b + k * so) for a, b in out for k in range(count)]
    return out


# ------------------------------------------------------------------ CUDA backend: cuFFT

def _make_plan(typ, params):
    """A cuFFT plan without automatic work area (the caller gives each execution one)."""
    cufft = bindings("cufft")
    rank, n, inembed, istride, idist, onembed, ostride, odist, batch = params
    plan = cufft.create()
    try:
        cufft.set_auto_allocation(plan, 0)
        work = cufft.make_plan_many64(plan, rank, list(n),
                                      0 if inembed is None else list(inembed), istride,
                                      idist, 0 if onembed is None else list(onembed),
                                      ostride, odist, typ, batch)
    except BaseException:
        cufft.destroy(plan)
        raise
    return plan, int(work)


def _cuda(kind):
    runs = {}       # a call's source layout, alignment and arguments -> its executions

    def prepare(node, src, ptr):
        """(copy, execs) of a call (``schedule``), its arguments checked; None when the
        result is empty."""
        if not L.prod(node.shape):
            return None
        axes, lengths, forward, owned, norm = node.arg
        if norm != ("forward" if kind == "c2r" or (kind == "c2c" and not forward) else
                    "backward"):
            raise NotImplementedError(f"fft: a scaled transform (norm={norm!r}) is not a "
                                      f"library call on CUDA; the API layer scales the "
                                      f"result with an elementwise op")
        double = node.dtype.itemsize == (16 if kind != "c2r" else 8)
        if src.dtype.kind != ("f" if kind == "r2c" else "c") or \
                src.dtype.itemsize != (8 if double else 4) * (1 if kind == "r2c" else 2):
            raise TypeError(f"fft_{kind}: a {src.dtype} source for a {node.dtype} result")
        align = 16 if double else 8           # cufftDoubleComplex / cufftComplex
        return schedule(kind, double, src.shape, src.strides, ptr % align == 0,
                        bool(owned), node.shape, axes, lengths, forward)

    def run(be, node, buf) -> None:
        src = node.srcs[0]
        isz = src.dtype.itemsize
        ptr = src.buf.ptr + src.offset * isz
        key = (src.shape, src.strides, src.dtype, node.shape, node.dtype, node.arg,
               ptr & 15)
        r = runs.get(key, runs)
        if r is runs:
            r = prepare(node, src, ptr)
            if len(runs) >= 1024:
                runs.clear()
            runs[key] = r
        if r is None:
            return
        copy, execs = r
        if copy:
            src = be._contiguous_copy(src)
            ptr = src.buf.ptr
        cufft = bindings("cufft")
        lb = libs(be)
        osz = node.dtype.itemsize
        for e in execs:
            plan, work = lb.fft_plan(e.key, e.make)
            ws = lb.workspace(work)
            cufft.set_work_area(plan, ws.ptr)
            f = getattr(cufft, e.fn)
            ip, ipz = (ptr, isz) if e.src == "in" else (buf.ptr, osz)
            op, opz = (ptr, isz) if e.dst == "in" else (buf.ptr, osz)
            if e.fn in _C2C:
                for a, b in e.offs:
                    f(plan, ip + a * ipz, op + b * opz, e.direction)
            else:
                for a, b in e.offs:
                    f(plan, ip + a * ipz, op + b * opz)
            del ws                            # freed in stream order, after the executions
    return run


barriers.register("fft_c2c", cpu=_cpu_c2c, cuda=_cuda("c2c"))
barriers.register("fft_r2c", cpu=_cpu_r2c, cuda=_cuda("r2c"))
barriers.register("fft_c2r", cpu=_cpu_c2r, cuda=_cuda("c2r"))
