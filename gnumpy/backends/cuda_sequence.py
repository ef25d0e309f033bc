"""Ordered writes as one launch (``CudaBackend.sequences``): a loop's element and short
vector statements, each reading what the one before wrote, run in program order by one
warp.

``C[i, j] = (C[i, j] - dot(C[i, :j], C[j, :j])) / C[j, j]`` for j in a row (NPBench
cholesky, lu, ludcmp), ``x[i] = (b[i] - dot(L[i, :i], x[:i])) / L[i, i]`` (trisolv), a
sweep's rows (seidel's ``A[i, 1:-1] += <seven shifted rows>``): each statement reads what
the one before wrote, other than element for element, so neither an element chain
(``_graph/chains.py``: values substituted, every load before any store), a fold nor a
fused kernel takes two of them; each was a launch of its own.  Here each write is encoded
(``encode``): a *type*, its structure (ops, dtypes, which reductions over which vectors),
and *words*, the 64-bit values that vary between a loop's statements (addresses, vector
strides and lengths, constants).  One kernel per set of types runs the entries it is given
one after another (a ``switch`` on each entry's type): its 32 lanes share each reduction;
lane 0 stores an element; a vector (at most ``VECTOR_MAX`` elements, ``_PER_LANE`` a
lane) is computed whole into registers, then stored, since its value may read its
destination shifted; ``__syncwarp`` orders each entry's stores before the next one's
loads.  The words travel in the kernel's one parameter (a struct of ``WORDS_MAX`` words),
so a loop of new lengths and places launches kernels it has.

What an entry may hold (``encode`` answers None for anything else): float32 and float64
values; elements (0-d leaves), strided vectors, constants, the op table's elementwise ops
(the expression of ``ops_cuda``), element values broadcast over a vector (computed once)
and sums of 1-D elementwise expressions of at most ``REDUCE_MAX`` elements (a longer one
is a kernel of its own).
"""
from __future__ import annotations

import ctypes
import struct

import numpy as np

from .._config import config
from .._graph.ir import EW, LEAF, REDUCE, SCALAR, VIEW
from ..kernels.codegen import headers
from ..kernels.compile import KERNEL_NAME
from ..kernels.ops_cuda import render
from ..kernels.plan import FixedKey
from ..kernels.types import COMPUTE, STORAGE
from .remembered import COLD, Constants, answer, compile_reader, remember

WORDS_MAX = 500             # the parameter: (1 + 500) 8-byte words, within the 4 KiB limit
REDUCE_MAX = 1 << 14        # a longer reduction: a kernel of its own (the whole device)
VECTOR_MAX = 1024           # a longer destination: a kernel of its own (the most that
                            # ``_graph/sequence.VECTOR_MAX`` lets any backend take)
_PER_LANE = VECTOR_MAX // 32
NODES_MAX = 48              # a value of more nodes: its own kernel
_CODES = {np.dtype(np.float32): "f", np.dtype(np.float64): "d"}
_FROM = {v: k for k, v in _CODES.items()}
_D = struct.Struct("<d")
_Q = struct.Struct("<q")
# the tokens of each node of a dtype, by context: an element's value (a 0-d expression)
# and a vector's (1-D: under a reduction, or a vector destination's value)
_SCALAR_TOKENS = {}
_VECTOR_TOKENS = {}
for _dt, _c in _CODES.items():
    _t = [None] * 7
    _t[LEAF], _t[SCALAR], _t[EW], _t[REDUCE] = "l" + _c, "s" + _c, "e" + _c, "r" + _c
    _SCALAR_TOKENS[_dt] = _t
    _t = [None] * 7
    _t[LEAF], _t[SCALAR], _t[EW], _t[VIEW] = "v" + _c, "s" + _c, "e" + _c, "b" + _c
    _VECTOR_TOKENS[_dt] = _t
_DEST = {dt: ("l" + c, "V" + c) for dt, c in _CODES.items()}
_TABLES = ({}, {}, {})     # readers by hint, walks since the last reader, readers made
_BY_HINT = _TABLES[0]
_MAKE_AT = 8                # walks of a hint before a reader is made for it
IDS: dict = {}      # a type (its tokens) -> its number
TYPES: list = []    # number -> type


def encode(dest, value):
    """(type number, words) of the write of lazy `value` into LEAF `dest` (an element, or
    a vector of at most ``VECTOR_MAX``), or None when the sequence cannot take it.  The
    type is the destination's token, then the value's nodes in pre-order, each a token of
    its kind, dtype and context (an elementwise op's name and arity after it); `words` the
    values its code reads, in the order ``_code`` reads them (the destination's first).

    A hint (the destination's dtype and rank, the value's op and tree size) walked
    `_MAKE_AT` times gets a reader (``_reader``): straight-line code that checks a new
    write has the structure of the one walked last and reads its words (as the replay
    signatures' readers do: ``remembered``)."""
    h = (dest.dtype, len(dest.shape), value.op, value.size)
    rds = _BY_HINT.get(h)
    if rds:
        r = rds[0](dest, value)
        if r is not None or len(rds) > 1 and (r := answer(rds, dest, value)) is not None:
            return r
    r = _encode(dest, value)
    if r is not None and rds is not COLD:
        remember(h, rds, _TABLES, _MAKE_AT, _reader, (dest, value), None)
    return r


def _encode(dest, value):
    """``encode``'s answer by a walk of `value`."""
    dt = dest.dtype
    toks = _DEST.get(dt)
    if toks is None or value.dtype is not dt or value.size > NODES_MAX:
        return None
    sh = dest.shape
    if value.shape != sh:
        return None
    if not sh:
        ty = [toks[0]]
        words = [dest.buf.ptr + dest.offset * dt.itemsize]
    elif len(sh) == 1 and sh[0] <= VECTOR_MAX:
        ty = [toks[1]]
        words = [dest.buf.ptr + dest.offset * dt.itemsize, dest.strides[0], sh[0]]
    else:
        return None
    if not _walk(value, bool(sh), ty.append, words.append):
        return None
    ty = tuple(ty)
    i = IDS.get(ty)
    if i is None:
        if len(TYPES) >= 1 << 12:       # (numbers stay unique; an old one is not reused)
            return None
        i = IDS[ty] = len(TYPES)
        TYPES.append(ty)
    return i, words


def _walk(n, vector, add, put) -> bool:
    """Append the tokens and words of node `n` (0-d, or 1-D where `vector`) and its
    sources in pre-order; False for a node the sequence does not take."""
    t = (_VECTOR_TOKENS if vector else _SCALAR_TOKENS).get(n.dtype)
    if t is None:
        return False
    k = n.kind
    if k == LEAF:
        put(n.buf.ptr + n.offset * n.dtype.itemsize)
        if vector:
            put(n.strides[0])
        add(t[LEAF])
        return True
    if k == SCALAR:
        put(_bits(n.arg))
        add(t[SCALAR])
        return True
    if k == EW:
        if n.arg is not None:
            return False
        srcs = n.srcs
        add(t[EW])
        add(n.op)
        add(len(srcs))
        for s in srcs:
            if not _walk(s, vector, add, put):
                return False
        return True
    src = n.srcs[0] if n.srcs else None
    if k == REDUCE and not vector:
        if n.arg[0] != "sum" or len(src.shape) != 1 or src.shape[0] > REDUCE_MAX:
            return False
        put(src.shape[0])
        add(t[REDUCE])
        return _walk(src, True, add, put)
    if k == VIEW and vector and n.op == "broadcast" and not src.shape:
        add(t[VIEW])            # an element's value over the vector: computed once
        return _walk(src, False, add, put)
    return False


def _reader(write, _):
    """A reader of writes shaped like `write` (dest, value): the checks and words of
    ``_encode``'s walk as straight-line code, answering the type number the walk gave
    (None for a write of another structure)."""
    dest, value = write
    tid = _encode(dest, value)[0]
    const = Constants()
    body = []
    emit = body.append
    dt = dest.dtype
    emit(f"    if dest.dtype is not {const(dt)} or value.shape != dest.shape: return None")
    words = [f"dest.buf.ptr + dest.offset * {dt.itemsize}"]
    if dest.shape:
        emit(f"    if dest.shape[0] > {VECTOR_MAX}: return None")
        words += ["dest.strides[0]", "dest.shape[0]"]
    names = [0]

    def node(e, n, vector):
        names[0] += 1
        v = f"n{names[0]}"
        emit(f"    {v} = {e}")
        k = n.kind
        check = f"{v}.kind != {k} or {v}.dtype is not {const(n.dtype)}"
        if k == LEAF:
            emit(f"    if {check}: return None")
            words.append(f"{v}.buf.ptr + {v}.offset * {n.dtype.itemsize}")
            if vector:
                words.append(f"{v}.strides[0]")
        elif k == SCALAR:
            emit(f"    if {check}: return None")
            words.append(f"BITS({v}.arg)")
        elif k == EW:
            emit(f"    if {check} or {v}.op != {const(n.op)} or {v}.arg is not None: "
                 f"return None")
            emit(f"    s{v} = {v}.srcs")
            emit(f"    if len(s{v}) != {len(n.srcs)}: return None")
            for i, x in enumerate(n.srcs):
                node(f"s{v}[{i}]", x, vector)
        elif k == REDUCE:
            emit(f"    if {check} or {v}.arg[0] != 'sum': return None")
            emit(f"    r{v} = {v}.srcs[0]")
            emit(f"    if len(r{v}.shape) != 1 or r{v}.shape[0] > {REDUCE_MAX}: return None")
            words.append(f"r{v}.shape[0]")
            node(f"r{v}", n.srcs[0], True)
        else:                   # a broadcast element
            emit(f"    if {check} or {v}.op != 'broadcast' or {v}.srcs[0].shape: "
                 f"return None")
            node(f"{v}.srcs[0]", n.srcs[0], False)

    node("value", value, bool(dest.shape))
    emit(f"    return {tid}, [{', '.join(words)}]")
    return compile_reader("dest, value", body, const, "<gnumpy sequence reader>",
                          BITS=_bits)


def _bits(x) -> int:
    """A constant's word: its value as float64 bits (float32 values are exact there)."""
    return _Q.unpack(_D.pack(x))[0]


# ------------------------------------------------------------------ the kernel's source

def _code(ty) -> tuple:
    """(C++ statements, number of words) of one entry of type `ty` (its tokens), reading
    its words as ``w[k]`` and its lane as ``lane``."""
    toks = iter(ty[1:])
    lines = []
    vector_dest = ty[0][0] == "V"
    at = [3 if vector_dest else 1]      # the next word (the destination's come first)
    made = [0]

    def word():
        k = at[0]
        at[0] += 1
        return f"w[{k}]"

    def name(prefix):
        made[0] += 1
        return f"{prefix}{made[0]}"

    def node(vector):
        """(C++ expression, dtype) of the next node in pre-order (over element `t` of
        the vector where `vector`)."""
        tok = next(toks)
        kind, dt = tok[0], _FROM[tok[1]]
        ct = COMPUTE[dt]
        if kind == "l":
            return f"(*(const {STORAGE[dt]}*){word()})", dt
        if kind == "v":
            p, s = word(), word()
            return f"((const {STORAGE[dt]}*){p})[t * {s}]", dt
        if kind == "s":
            return f"(({ct})gn_bitsd({word()}))", dt
        if kind == "e":
            op, nin = next(toks), next(toks)
            args = [node(vector) for _ in range(nin)]
            return render(op, args[0][1], dt, [a for a, _ in args]), dt
        if kind == "b":         # an element's value over a vector: computed before
            e, _ = node(False)
            h = name("h")
            lines.append(f"const {ct} {h} = {e};")
            return h, dt
        r = name("r")           # a reduction: its loop before the expression
        n = word()
        lines.append(f"{ct} {r} = ({ct})0;")
        e, _ = node(True)
        lines.append(f"for (long long t = lane; t < {n}; t += 32) {r} += {e};")
        lines.append(f"{r} = gn_seq_sum({r});")
        return r, dt

    out = _FROM[ty[0][1]]
    ct, st = COMPUTE[out], STORAGE[out]
    v, _ = node(vector_dest)
    if not vector_dest:
        lines.append(f"const {ct} v_ = {v};")
        lines.append(f"if (lane == 0) *({st}*)w[0] = v_;")
        return lines, at[0]
    lines += [f"{ct} v_[{_PER_LANE}];",     # every element computed, then stored (the
              "#pragma unroll",             # value may read the destination elsewhere)
              f"for (int u = 0; u < {_PER_LANE}; ++u) {{",
              "  const long long t = lane + 32 * u;",
              f"  if (t < w[2]) v_[u] = {v};",
              "}",
              "__syncwarp();",
              "#pragma unroll",
              f"for (int u = 0; u < {_PER_LANE}; ++u) {{",
              "  const long long t = lane + 32 * u;",
              f"  if (t < w[2]) (({st}*)w[0])[t * w[1]] = v_[u];",
              "}"]
    return lines, at[0]


def sequence_source(types, name) -> str:
    """The kernel running entries of `types` (its ``switch`` cases, in that order)."""
    cases = []
    for i, ty in enumerate(types):
        lines, nw = _code(ty)
        body = "\n        ".join(lines)
        cases.append(f"      case {i}: {{\n        {body}\n        w += {nw}; break; }}")
    cases = "\n".join(cases)
    return headers(*_CODES) + f"""
#ifndef __CUDACC_RTC__
#define __grid_constant__
#endif
template <class T> __device__ __forceinline__ T gn_seq_sum(T v) {{
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}}
struct gn_seq_params {{ long long n; long long w[{WORDS_MAX}]; }};
extern "C" __global__ void __launch_bounds__(32) {name}(const __grid_constant__
    gn_seq_params P) {{
  const int lane = threadIdx.x;
  const long long* e = P.w;
  for (long long q = 0; q < P.n; ++q) {{
    const long long* w = e + 1;
    switch ((int)e[0]) {{
{cases}
      default: break;
    }}
    e = w;
    __syncwarp();
  }}
}}
"""


# ------------------------------------------------------------------ running a sequence

class Sequences:
    """A backend's runner of encoded entries (``Backend.sequences``): ``run(entries)``
    launches [(type number, words)] in order, as one launch of at most ``words_max``
    words (an entry takes one more than its words: its type's case)."""

    words_max = WORDS_MAX
    encode = staticmethod(encode)

    def __init__(self, be):
        self.be = be
        self.kernels = {}       # (type numbers, options' generation) -> kernel
        self.params = np.zeros(1 + WORDS_MAX, np.int64)
        self.ptrs = (ctypes.c_void_p * 1)(self.params.ctypes.data)

    def run(self, entries) -> None:
        """Launch [(type number, words)] in order (at most ``words_max`` words)."""
        nums = []
        index = {}
        flat = []
        for i, words in entries:
            c = index.get(i)
            if c is None:
                c = index[i] = len(nums)
                nums.append(i)
            flat.append(c)
            flat += words
        if len(flat) > WORDS_MAX:
            raise AssertionError(f"a sequence of {len(flat)} words (at most {WORDS_MAX})")
        k = (tuple(nums), config._generation)
        kernel = self.kernels.get(k)
        if kernel is None:
            key = FixedKey(sequence_source, (tuple(TYPES[i] for i in nums),))
            kernel = self.be.kernels.get(key, lambda: key.render(KERNEL_NAME))
            if len(self.kernels) >= 1024:
                self.kernels.clear()
            self.kernels[k] = kernel
        p = self.params
        p[0] = len(entries)
        p[1:1 + len(flat)] = flat
        self.be.launch_params(kernel, 32, self.ptrs)
