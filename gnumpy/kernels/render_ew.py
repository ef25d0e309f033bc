"""The fused elementwise kernel: planning (iteration space, index width, vector width,
kernel parameters) and source rendering.

One thread handles one element (or one 16-byte vector of elements on contiguous aligned
data) per iteration of a grid-stride loop; the grid is sized from the multiprocessor
count.  Broadcasts and strided views are index arithmetic over the collapsed iteration
space; a reshape that strides cannot express unravels its linear position.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._config import config
from .._graph import layout as L
from . import codegen as C
from .lower import INT32_MAX, collapse, span, stride_class, vector_aligned
from .launch import Ptr, scalar_entries
from .plan import Plan, SpecKey, spec_key
from .types import STORAGE, param_decls, store_value
from .types import load as ld


class EwKey(NamedTuple):
    """Everything an elementwise kernel's source depends on (plan.py)."""
    spec: SpecKey
    nd: int                 # collapsed rank of the iteration space
    classes: tuple          # per operand, the stride class of each collapsed dim (z/1/s)
    idx32: bool             # 32-bit indices
    vec: int                # elements per 16-byte vector (1: scalar loads)
    unroll: int             # vectors per operand per thread and iteration
    block: int
    tx: int                 # column threads per block of the 2-D layout (0: flat loop)
    tiles: bool             # config.ew_tiles: a thread's vectors a block apart
    restrict: bool          # pointers declared __restrict__ (outputs apart from inputs)
    sync: bool              # one block: every thread loads and computes, then all store

    def render(self, name: str) -> str:
        return render(self, name)


class EwPlan(Plan):
    """An elementwise launch: the collapsed iteration space and the decisions of `key`."""

    __slots__ = ("cshape", "cstrides", "classes", "idx32", "vec", "n", "block", "unroll",
                 "tx")

    def template(self) -> list:
        return template(self)

    def launch_dims(self, sm_count: int, blocks_per_sm: int):
        return launch_dims(self, sm_count, blocks_per_sm)


def _operands(spec):
    """All operands in parameter order: memory inputs, iotas, outputs."""
    return list(spec.operands) + [o for _, o in spec.outputs]


# A write whose value reads the memory it overwrites other than element for element (a
# stencil row ``A[i, 1:-1] += A[i, 2:] + ...``, durbin's ``y[:k] += a * flip(y[:k])``) of
# at most SYNC_MAX elements is one kernel of one block: every thread computes its element,
# the block synchronizes, then every thread stores (NumPy's temporary, held in registers).
SYNC_MAX = 1024


def plan(spec, block: int, vector_ok: bool, ptr_of, sync: bool = False) -> EwPlan:
    """Plan an 'ew' spec.  `ptr_of(operand)` gives the base device pointer (int); `sync`:
    the one-block kernel that loads everything before it stores (at most SYNC_MAX
    elements)."""
    p = EwPlan()
    p.spec = spec
    p.n = L.prod(spec.shape)
    if sync:
        assert 0 < p.n <= SYNC_MAX
        block = max(32, 1 << (p.n - 1).bit_length())
        vector_ok = False
    p.block = block
    ops = _operands(spec)
    cshape, cstrides, _ = collapse(spec.shape, [o.levels[0][1] for o in ops])
    p.cshape, p.cstrides = cshape, cstrides
    p.classes = tuple(tuple(stride_class(s) for s in st) for st in cstrides)
    big = p.n > INT32_MAX
    for o, st in zip(ops, cstrides):
        if span(cshape, st) > INT32_MAX:
            big = True
        if len(o.levels) > 1 and o.kind == "in":
            big = True      # (its innermost level's offset is a replay's launch argument)
        for lv in o.levels[1:]:
            if span(lv[0], lv[1]) + abs(lv[2]) > INT32_MAX or L.prod(lv[0]) > INT32_MAX:
                big = True
    p.idx32 = not big
    p.vec = 1
    p.unroll = 1
    nd = len(cshape)
    # 16-byte vectors along the innermost dim when every operand is contiguous (or
    # broadcast) along it; with nd > 1 (a broadcast across rows: X - X.mean(0)) a vector
    # never crosses a row, and its offsets come from the unravelled first element
    if vector_ok and nd >= 1 and all(len(o.levels) == 1 for o in ops) and \
            (nd == 1 or all(o.kind != "iota" for o in ops)):
        mem = [(o, c[-1], st) for o, c, st in zip(ops, p.classes, cstrides)
               if o.kind != "iota"]
        if all(c in ("1", "z") for o, c, _ in mem) and all(c == "1" for o, c, _ in mem
                                                             if o.kind == "out"):
            unit = [(o, st) for o, c, st in mem if c == "1"]
            width = max((o.dtype.itemsize for o, _ in unit), default=16)
            v = max(1, 16 // width)
            if v > 1 and all(vector_aligned(o, v, ptr_of) and
                             all(x % v == 0 for x in st[:-1]) for o, st in unit) and \
                    (nd == 1 or cshape[-1] % v == 0):
                p.vec = v
                p.unroll = max(1, config.ew_unroll)
                n_in = sum(1 for o, _, _ in mem if o.kind != "out")
                if n_in * v * p.unroll > HELD_MAX:     # many inputs: fewer held per thread
                    p.unroll = 1
                    while p.vec > 1 and n_in * p.vec > HELD_MAX:
                        p.vec //= 2
                _within_registers(p, mem, len(ops))
    # light streaming kernels (SAXPY): 1024-thread blocks, one vector per operand per thread
    if p.vec > 1 and nd == 1 and config.ew_light and _light(spec):
        block = p.block = 1024
        p.unroll = 1
    # a 2-D space with an operand broadcast across rows (X - X.mean(0)): threads stay on
    # their columns and walk rows, so the broadcast vectors load once per thread, not once
    # per vector of X (tx = column threads per block; 0: the flat grid-stride loop)
    p.tx = 0
    if p.vec > 1 and nd == 2 and config.ew_columns and cshape[-1] // p.vec >= 32 and any(
            o.kind == "in" and c == ("z", "1") for o, c in zip(ops, p.classes)):
        nvc = cshape[-1] // p.vec
        p.tx = block if nvc >= block else max(32, 1 << (nvc - 1).bit_length())
    # a one-block kernel is launched with the block its n needs, and compiled once for
    # every n (its launch bound the largest block): durbin's growing y[:k] is one kernel
    p.key = EwKey(spec=spec_key(spec), nd=nd, classes=p.classes, idx32=p.idx32, vec=p.vec,
                  unroll=p.unroll, block=SYNC_MAX if sync else block, tx=p.tx,
                  tiles=bool(config.ew_tiles), restrict=not (spec.aliased or sync),
                  sync=sync)
    return p


# ops cheap enough that a kernel of a few of them streams like a copy
_LIGHT_OPS = frozenset(("add", "subtract", "multiply", "negative", "positive", "astype",
                        "where", "greater", "greater_equal", "less", "less_equal", "equal",
                        "not_equal", "maximum", "minimum", "absolute"))
LIGHT_MAX_OPS = 4
# Elements of input vectors one thread holds at most (operands x vec x unroll): a kernel of
# 60 bool inputs and a bool output (NPBench mandelbrot1, one mask per iteration) at 16-wide
# vectors unrolled 4 times took NVRTC 31.6 s to compile; at 8-wide vectors, once, 0.6 s.
HELD_MAX = 512


def _held_regs(ins, n_ops, vec, unroll) -> int:
    """32-bit registers one thread holds per iteration: its input vectors (`ins`, the
    memory operands loaded) and an offset per operand, `unroll` times."""
    return unroll * (sum(-(-vec * o.dtype.itemsize // 4) for o in ins) + n_ops)


def _within_registers(p, mem, n_ops) -> None:
    """Unroll less while plan `p` holds more registers than ``config.ew_held_regs``, then
    load narrower vectors while it holds more than twice that (`mem`: the memory operands,
    (operand, class, strides)): a kernel of many inputs loaded all at once, like hdiff's 31
    views of two arrays, otherwise spills them (bench/many_inputs.py; the numbers behind
    the default: docs/perf-notes.md, "Measurements behind the defaults")."""
    cap = config.ew_held_regs
    if cap <= 0:
        return
    ins = [o for o, _, _ in mem if o.kind != "out"]
    while p.unroll > 1 and _held_regs(ins, n_ops, p.vec, p.unroll) > cap:
        p.unroll //= 2
    while p.vec > 1 and _held_regs(ins, n_ops, p.vec, p.unroll) > 2 * cap:
        p.vec //= 2


def _light(spec) -> bool:
    """At most LIGHT_MAX_OPS ops per element, all from _LIGHT_OPS (config.ew_light)."""
    ops = [e[1] for e in spec.exprs if e[0] == "op"]
    return len(ops) <= LIGHT_MAX_OPS and all(o in _LIGHT_OPS for o in ops)


def template(p: EwPlan) -> list:
    """Kernel arguments in declaration order, as a replayable template."""
    spec = p.spec
    ops = _operands(spec)
    it = np.int32 if p.idx32 else np.int64
    out = []
    for o in ops:
        if o.kind == "iota":
            continue
        off = o.levels[0][2] if len(o.levels) == 1 else 0
        out.append(Ptr(o, off * o.dtype.itemsize))
    out.extend(scalar_entries(spec))
    for o, st, cls in zip(ops, p.cstrides, p.classes):
        if o.kind == "iota":
            out.append(np.int64(o.levels[0][2]))
            out.extend(np.int64(s) for s, c in zip(st, cls) if c == "s")
    out.append(it(p.n))
    out.extend(it(d) for d in p.cshape[1:])
    for o, st, cls in zip(ops, p.cstrides, p.classes):
        if o.kind != "iota":
            out.extend(it(s) for s, c in zip(st, cls) if c == "s")
        if len(o.levels) > 1:
            if o.kind != "iota":
                out.append(np.int64(o.levels[0][2]))
            C.level_args(o, out)
    return out


def source(p: EwPlan, name: str) -> str:
    return p.source(name)


def args(p: EwPlan, ptr_of) -> list:
    return p.args(ptr_of)


def render(p: EwKey, name: str) -> str:
    """The kernel's source, from its key alone."""
    spec = p.spec
    ops = _operands(spec)
    IDX = "int" if p.idx32 else "long long"
    nd = p.nd
    decls = []
    for k, o in enumerate(ops):
        if o.kind == "in":
            decls.append(C.ptr_decl(o, k, False, p.restrict))
        elif o.kind == "out":
            decls.append(C.ptr_decl(o, k, True, p.restrict))
    for k, dt in enumerate(spec.scalar_dtypes):
        decls.extend(param_decls(dt, f"s{k}"))
    for k, (o, cls) in enumerate(zip(ops, p.classes)):
        if o.kind == "iota":
            decls.append(f"long long io{k}_off")
            decls.extend(f"long long io{k}_st{d}" for d, c in enumerate(cls) if c == "s")
    decls.append(f"{IDX} n")
    decls.extend(f"{IDX} d{d}" for d in range(1, nd))
    for k, (o, cls) in enumerate(zip(ops, p.classes)):
        if o.kind != "iota":
            decls.extend(f"{IDX} st{k}_{d}" for d, c in enumerate(cls) if c == "s")
        if o.ranks:
            if o.kind != "iota":
                decls.append(f"long long off{k}")
            decls.extend(C.level_decls(k, o))
    idx_names = [f"i{d}" for d in range(nd)]

    def offset(k):
        o, cls = ops[k], p.classes[k]
        base = C.offset_expr(cls, [f"st{k}_{d}" for d in range(nd)], idx_names)
        if not o.ranks:
            return base
        return f"gn_unravel{k}((long long)({base}) + off{k})"

    def iota(k):
        o, cls = ops[k], p.classes[k]
        terms = [f"(long long){iv}" if c == "1" else f"(long long){iv} * io{k}_st{d}"
                 for d, (c, iv) in enumerate(zip(cls, idx_names)) if c != "z"]
        lin = " + ".join(["io%d_off" % k] + terms)
        if not o.ranks:
            return f"({lin})"
        return f"gn_unravel{k}({lin})"

    roots = [e for e, _ in spec.outputs]
    lines, names = C.body(spec, roots, lambda k: C.load_op(ops[k], f"p{k}", f"o{k}"), iota)
    helpers = _unravel_helpers(ops)
    nops = len(spec.operands)
    stores = [f"q{nops + j}[o{nops + j}] = {store_value(o.dtype, names[e])};"
              for j, (e, o) in enumerate(spec.outputs)]
    offs = [f"const {IDX} o{k} = {offset(k)};" for k, o in enumerate(ops)
            if o.kind != "iota" and _used(spec, k, o, roots)]
    unravel = C.unravel_lines("i", "d", nd, "i", IDX, "r_")
    scalar_body = "\n      ".join(unravel + offs + lines + stores)
    B = p.block
    src = [C.preamble(spec)] + helpers
    src.append(f'extern "C" __global__ void __launch_bounds__({B}) {name}('
               + ", ".join(decls) + ") {")
    if p.sync:          # (a thread past n computes element 0, which exists, and stores none)
        src.append(f"  const bool gn_live = threadIdx.x < n;\n"
                   f"  const {IDX} i = gn_live ? ({IDX})threadIdx.x : 0;\n  "
                   + "\n  ".join(unravel + offs + lines)
                   + "\n  __syncthreads();\n  if (gn_live) {\n    "
                   + "\n    ".join(stores) + "\n  }\n}")
        return "\n".join(src)
    if p.tx:
        src.append(_columns_loop(p, spec, ops, roots, IDX, offset))
        src.append("}")
        return "\n".join(src)
    src.append(f"  const {IDX} step = ({IDX})gridDim.x * {B};")
    start = f"({IDX})blockIdx.x * {B} + threadIdx.x"
    if p.vec > 1:
        tiles = p.tiles
        vstart = f"({IDX})blockIdx.x * {B * p.unroll} + threadIdx.x" if tiles else start
        src.append(_vector_loop(p, spec, ops, roots, IDX, vstart, B if tiles else None,
                                offset))
        start = f"nv * {p.vec} + {start}"
    src.append(f"  for ({IDX} i = {start}; i < n; i += step) {{\n      {scalar_body}\n  }}")
    src.append("}")
    return "\n".join(src)


def _used(spec, k, o, roots):
    if o.kind == "out":
        return True
    return any(spec.exprs[i] == ("ld", k) for i in C.needed(spec, roots))


def _unravel_helpers(ops):
    """Device functions mapping a linear position through reshape levels to an offset
    (`ops`: plan.OperandKey)."""
    out = []
    for k, o in enumerate(ops):
        if not o.ranks:
            continue
        body = ["long long pos = lin;"]
        for li, rank in enumerate(o.ranks):
            body.append("{ long long r = pos; long long acc = 0;")
            for j in range(rank - 1, -1, -1):
                body.append(f"  acc += (r % l{k}_{li}_d{j}) * l{k}_{li}_s{j}; "
                            f"r /= l{k}_{li}_d{j};")
            body.append(f"  pos = acc + l{k}_{li}_off; }}")
        params = C.level_decls(k, o)
        out.append(f"#define gn_unravel{k}(lin) gn_unravel{k}_f(lin, "
                   + ", ".join(p.split()[-1] for p in params) + ")")
        out.append(f"__device__ __forceinline__ long long gn_unravel{k}_f(long long lin, "
                   + ", ".join(params) + ") {\n  " + "\n  ".join(body) + "\n  return pos;\n}")
    return out


def _vector_loop(p, spec, ops, roots, IDX, start, tile=None, offset=None):
    """Contiguous aligned data: each thread loads U 16-byte vectors per operand first
    (U = config.ew_unroll, independent loads in flight), then computes and stores them.

    The U vectors of a thread are a grid-stride apart, or with `tile` (the block size,
    config.ew_tiles) a block apart: each block then covers U x block contiguous vectors per
    step (the step, grid x block x U vectors, is the same).  With more than one collapsed
    dim, each vector's first element is unravelled and every operand's offset kept
    (`offset(k)`); operands broadcast along the innermost dim load one value per vector."""
    V, U = p.vec, p.unroll
    nd = p.nd
    ustep = "step" if tile is None else str(tile)
    loads = []
    for k, (o, cls) in enumerate(zip(ops, p.classes)):
        if o.kind == "in" and _used(spec, k, o, roots) and cls[-1] == "1":
            t = STORAGE[o.dtype]
            loads.append((k, t))
    offs = [k for k, o in enumerate(ops) if nd > 1 and (
        o.kind == "out" or (o.kind == "in" and _used(spec, k, o, roots)))]

    def load(k):
        if p.classes[k][-1] == "z":
            return C.load_op(ops[k], f"p{k}", "0" if nd == 1 else f"oo{k}[u]")
        return ld(ops[k].dtype, f"v{k}[u].v", "e")

    def iota(k):
        c = p.classes[k][0]
        if c == "z":
            return f"io{k}_off"
        return f"(io{k}_off + (long long)(vi * {V} + e)" + \
            ("" if c == "1" else f" * io{k}_st0") + ")"

    lines, names = C.body(spec, roots, load, iota, prefix="u")
    outs = []
    for j, (e, o) in enumerate(spec.outputs):
        k = len(spec.operands) + j
        outs.append((k, STORAGE[o.dtype], names[e], o))
    decl = "".join(f"      gn_vec<{t}, {V}> v{k}[{U}];\n" for k, t in loads)
    decl += "".join(f"      {IDX} oo{k}[{U}];\n" for k in offs)
    if nd == 1:
        load_body = "".join(f"          v{k}[u] = {C.vec_load(t, V, f'p{k}', 'vi')};\n"
                            for k, t in loads)
    else:
        load_body = "".join(f"          {ln}\n" for ln in C.unravel_lines(
            f"vi * {V}", "d", nd, "i", IDX, "r_"))
        load_body += "".join(f"          oo{k}[u] = {offset(k)};\n" for k in offs)
        load_body += "".join(f"          v{k}[u] = *reinterpret_cast<const gn_vec<{t}, {V}>*>"
                             f"(p{k} + oo{k}[u]);\n" for k, t in loads)
    decl_outs = "".join(f"          gn_vec<{t}, {V}> w{k};\n" for k, t, _, _ in outs)
    set_outs = [f"w{k}.v[e] = {store_value(o.dtype, nm)};" for k, t, nm, o in outs]
    if nd == 1:
        write = "".join(f"          {C.vec_store(t, V, f'q{k}', 'vi', f'w{k}')}\n"
                        for k, t, _, _ in outs)
    else:
        write = "".join(f"          *reinterpret_cast<gn_vec<{t}, {V}>*>(q{k} + oo{k}[u]) = "
                        f"w{k};\n" for k, t, _, _ in outs)
    inner = "\n            ".join(lines + set_outs)
    return (f"  const {IDX} nv = n / {V};\n"
            f"  for ({IDX} vb = {start}; vb < nv; vb += step * {U}) {{\n"
            + decl +
            f"      #pragma unroll\n      for (int u = 0; u < {U}; ++u) {{\n"
            f"        const {IDX} vi = vb + u * {ustep};\n        if (vi < nv) {{\n"
            + load_body + "        }\n      }\n"
            f"      #pragma unroll\n      for (int u = 0; u < {U}; ++u) {{\n"
            f"        const {IDX} vi = vb + u * {ustep};\n        if (vi < nv) {{\n"
            + decl_outs +
            f"          #pragma unroll\n          for (int e = 0; e < {V}; ++e) {{\n"
            f"            {inner}\n          }}\n"
            + write + "        }\n      }\n  }")


def _columns_loop(p, spec, ops, roots, IDX, offset):
    """The 2-D layout for row broadcasts: thread (column vector cv, row lane) loads the
    operands broadcast across rows once, then walks rows r0, r0 + R, ... (R = grid rows x
    row lanes), U rows in flight; a warp reads 32 consecutive vectors of a row."""
    V, U, TX = p.vec, p.unroll, p.tx
    TY = p.block // TX
    hoist, loads, offs = [], [], []
    for k, (o, cls) in enumerate(zip(ops, p.classes)):
        if o.kind == "out":
            offs.append(k)
        elif o.kind == "in" and _used(spec, k, o, roots):
            if cls == ("z", "1"):
                hoist.append((k, STORAGE[o.dtype]))
            elif cls[-1] == "1":
                loads.append((k, STORAGE[o.dtype]))
                offs.append(k)
            elif cls[0] != "z":
                offs.append(k)      # one value per row (broadcast along the row)

    def load(k):
        cls = p.classes[k]
        if cls == ("z", "1"):
            return ld(ops[k].dtype, f"h{k}.v", "e")
        if cls[-1] == "1":
            return ld(ops[k].dtype, f"v{k}[u].v", "e")
        return C.load_op(ops[k], f"p{k}", f"oo{k}[u]" if cls[0] != "z" else "0")

    lines, names = C.body(spec, roots, load, lambda k: "0", prefix="u")
    out = [f"  const {IDX} nvc = d1 / {V}, nrow = n / d1;",
           f"  const {IDX} cv = ({IDX})blockIdx.x * {TX} + threadIdx.x % {TX};",
           "  if (cv >= nvc) return;",
           f"  const {IDX} i1 = cv * {V};",
           f"  const {IDX} rstep = ({IDX})gridDim.y * {TY};"]
    for k, t in hoist:
        out.append(f"  const gn_vec<{t}, {V}> h{k} = *reinterpret_cast<const gn_vec<{t}, {V}>*>"
                   f"(p{k} + i1);")
    out.append(f"  for ({IDX} rb = ({IDX})blockIdx.y * {TY} + threadIdx.x / {TX}; rb < nrow; "
               f"rb += rstep * {U}) {{")
    out += [f"    gn_vec<{t}, {V}> v{k}[{U}];" for k, t in loads]
    out += [f"    {IDX} oo{k}[{U}];" for k in offs]
    out += [f"    #pragma unroll\n    for (int u = 0; u < {U}; ++u) {{",
            f"      const {IDX} i0 = rb + u * rstep;",
            "      if (i0 < nrow) {"]
    out += [f"        oo{k}[u] = {offset(k)};" for k in offs]
    out += [f"        v{k}[u] = *reinterpret_cast<const gn_vec<{t}, {V}>*>(p{k} + oo{k}[u]);"
            for k, t in loads]
    out += ["      }", "    }",
            f"    #pragma unroll\n    for (int u = 0; u < {U}; ++u) {{",
            "      if (rb + u * rstep < nrow) {"]
    outs = [(len(spec.operands) + j, STORAGE[o.dtype], names[e], o)
            for j, (e, o) in enumerate(spec.outputs)]
    out += [f"        gn_vec<{t}, {V}> w{k};" for k, t, _, _ in outs]
    out.append(f"        #pragma unroll\n        for (int e = 0; e < {V}; ++e) {{")
    out += ["          " + ln for ln in lines]
    out += [f"          w{k}.v[e] = {store_value(o.dtype, nm)};" for k, t, nm, o in outs]
    out.append("        }")
    out += [f"        *reinterpret_cast<gn_vec<{t}, {V}>*>(q{k} + oo{k}[u]) = w{k};"
            for k, t, _, _ in outs]
    out += ["      }", "    }", "  }"]
    return "\n".join(out)


def launch_dims(p: EwPlan, sm_count: int, blocks_per_sm: int):
    if p.tx:
        nvc = p.cshape[-1] // p.vec
        rows = p.n // p.cshape[-1]
        gx = -(-nvc // p.tx)
        ty = p.block // p.tx
        gy = max(1, min(-(-rows // (ty * p.unroll)), 65535))
        return (gx, gy), p.block
    work = -(-p.n // p.vec) if p.vec > 1 else p.n
    if p.vec > 1:
        work = -(-work // p.unroll)
    grid = max(1, -(-work // p.block))
    return grid, p.block

