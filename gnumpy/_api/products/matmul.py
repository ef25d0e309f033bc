"""Matrix products: ``matmul`` (the ``@`` operator), ``vecdot``, ``matvec``, ``vecmat`` (``dot`` is
in ``products``).

A matrix product is a non-fusible op (a BARRIER node): its inputs are materialized first.
"""
from __future__ import annotations

import cmath
import math
import weakref

from ... import _dtypes as D
from ..._array import ndarray
from ..._broadcast import broadcast_shapes
from ..._graph import ir
from ..._graph import layout as L
from ..._graph.forms import scaled
from ..._memstate import realizations
from .._common import as_node, axis_int, check_device_match, is_array, normalize_axis, wrap
from ..elementwise.elementwise import apply, astype
from ..reductions.reductions import sum as sum_
from ..outargs import check_casting, check_order, finish
from ..shape.manipulation import expand_dims, moveaxis


SMALL_MATMUL = 1 << 15     # products of at most this many multiply-adds are fused reductions


def _fused_ok(dt) -> bool:
    """May a product of dtype `dt` be a fused multiply-and-sum?  (Not bool, whose product
    is a logical one, nor float16, which the library accumulates in float32.)"""
    return dt.kind in "iuc" or dt.kind == "f" and dt.itemsize > 2


def _fuses(dt, outputs, k) -> bool:
    """Is a product of dtype `dt`, `outputs` elements and `k` terms a fused one (small, or
    of few terms) rather than a library call?"""
    return _fused_ok(dt) and (outputs * k <= SMALL_MATMUL and k <= 256 or 0 < k <= UNROLL_K)


def _small_product(an, bn, batch, dt):
    """The node of ``a @ b`` (both at least 2-D, batch dims `batch`) as a multiply over
    (batch, m, k, n) summed over k; single precision accumulates in double (as accurate
    as the library's FMA chains, whatever order they take).  A product over at most
    UNROLL_K terms is elementwise (``_few_terms``)."""
    acc = D.promote(dt, D.float64) if dt.kind in "fc" else dt
    m, k = an.shape[-2:]
    n = bn.shape[-1]
    if 0 < k <= UNROLL_K:
        return ir.cast(_few_terms(ir.cast(an, acc), ir.cast(bn, acc), batch, acc), dt)
    full = batch + (m, k, n)
    an = ir.reshape(ir.cast(an, acc), _lead(an.shape[:-2], batch) + (m, k, 1))
    bn = ir.reshape(ir.cast(bn, acc), _lead(bn.shape[:-2], batch) + (1, k, n))
    prod = ir.ew("multiply", acc, (ir.broadcast(an, full), ir.broadcast(bn, full)))
    return ir.cast(ir.reduce("sum", prod, (len(full) - 2,), False, acc), dt)


_FUSED_OPERANDS: dict = {}     # id -> weakref of a lazy array a fused product read


def _fused_operand(x):
    """The node a fused product reads for array `x`: a lazy array (no view) read by a
    fused product before is materialized now, so a loop's products read its memory
    instead of each rebuilding (and computing) its graph (NPBench stockham's DFT matrix,
    ``exp`` of a grid, read by a product every iteration)."""
    n = x._node
    if n.kind == ir.LEAF or x._base is not None:
        return n
    k = id(x)
    r = _FUSED_OPERANDS.get(k)
    if r is not None and r() is x:
        _FUSED_OPERANDS.pop(k, None)
        return x._leaf()
    if len(_FUSED_OPERANDS) >= 256:
        _FUSED_OPERANDS.clear()
    _FUSED_OPERANDS[k] = weakref.ref(x)
    return n


# Products over at most this many terms (3x3 blocks, NPBench's scattering_self_energies)
# are one elementwise node (``ir.small_matmul``): a product of products and the statement
# writing it are one kernel, where a reduction over k is one kernel per product.
UNROLL_K = 4


def _few_terms(an, bn, batch, acc):
    """``a @ b`` (dtype `acc`, at most UNROLL_K terms) as one ``small_matmul`` node."""
    an, bn = _read_through(an), _read_through(bn)
    m, n = an.shape[-2], bn.shape[-1]
    k = an.shape[-1]
    sa, sb = batch + (m, k), batch + (k, n)
    if an.shape != sa:              # (the batch's missing axes and ones broadcast)
        an = ir.broadcast(ir.reshape(an, _lead(an.shape[:-2], batch) + (m, k)), sa)
    if bn.shape != sb:
        bn = ir.broadcast(ir.reshape(bn, _lead(bn.shape[:-2], batch) + (k, n)), sb)
    total = ir.small_matmul(an, bn)
    if acc.kind in "fc":    # a zero sum is +0, as the library's (and NumPy's) from 0
        z = _ZEROS.get(acc)
        if z is None:
            z = _ZEROS[acc] = ir.scalar_value(0, acc)
        total = ir.ew_node("add", acc, total.shape,
                           (total, ir.scalar_node(z, acc, total.shape, total.device)), None,
                           total.device, 2 + total.size)
    a, b = _memory(an), _memory(bn)
    if a is not None and b is not None:     # a product of two blocks of memory: the
        total.rb = ({id(a), id(b)}, realizations())     # buffers it reads, known now
    return total                                # (``readers.read_set``: no walk of it)


def _read_through(x):
    """Operand `x`, or the LEAF it copies (the block a 0-d index array selects, ``G[k, e,
    gp.asarray(2)]``): the product, a pending reader of that memory like the copy, reads
    it."""
    if x.kind == ir.EW and x.op == "astype" and x.srcs[0].kind == ir.LEAF and \
            x.srcs[0].dtype is x.dtype:
        return x.srcs[0]
    return x


def _memory(x):
    """The buffer operand `x` of a small product reads: a LEAF's, or its copy's (an
    element, a block a 0-d index selects) or cast's; None for other nodes."""
    if x.kind == ir.EW and x.op == "astype":
        x = x.srcs[0]
    return x.buf if x.kind == ir.LEAF else None


_ZEROS: dict = {}       # dtype -> its zero (a NumPy scalar), the sums' start


def _lead(dims, batch):
    """`dims` (an operand's batch dims) with ones prepended to the length of `batch`."""
    return (1,) * (len(batch) - len(dims)) + tuple(dims)


def _arr(x, device=None):
    return x if is_array(x) else wrap(as_node(x, device=device))


def vector_dot(a, b):
    """``a @ b`` of two gnumpy arrays, 1-D, of one length and one dtype that fuses: the
    node ``matmul`` builds for them (a lazy multiply-and-sum), built without its general
    checks (a solver's inner step, ``dot(A[i, :j], A[j, :j])``, in a loop).  None for
    anything else."""
    if type(a) is not ndarray or type(b) is not ndarray:
        return None
    na, nb = a._node, b._node
    dt = na.dtype
    if len(na.shape) != 1 or nb.shape != na.shape or nb.dtype is not dt or \
            nb.device is not na.device or not _fused_ok(dt):
        return None
    return wrap(ir.reduce("sum", ir.ew("multiply", dt, (na, nb)), (0,), False, dt))


def matmul(x1, x2, /, out=None, *, dtype=None, casting="same_kind", axes=None, axis=None):
    """Matrix product with NumPy's rules (1-D operands promoted, batch dims broadcast).

    # Note: the gufunc keywords ``axes=`` and ``axis=`` raise NotImplementedError (move
    # the axes first: ``gp.moveaxis``).

    Examples
    --------
    >>> import gnumpy as gp
    >>> (gp.eye(2) @ gp.asarray([1.0, 2.0])).tolist()
    [1.0, 2.0]
    """
    if axes is not None or axis is not None:
        raise NotImplementedError("matmul(axes=, axis=) is not implemented yet: move the "
                                  "axes to the last two first (gnumpy.moveaxis)")
    if out is None and dtype is None:
        r = vector_dot(x1, x2)
        if r is None:
            r = _matrix_product(x1, x2)
        if r is not None:
            return r
    a = _arr(x1)
    b = _arr(x2, a.device)
    check_device_match([a._node, b._node])
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: Input operand %d does not have enough dimensions (has 0, "
                         "gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)"
                         % (0 if a.ndim == 0 else 1))
    ka = a.shape[-1]
    kb = b.shape[-2] if b.ndim >= 2 else b.shape[0]
    if ka != kb:
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature (n?,k),(k,m?)->(n?,m?) (size {kb} is "
                         f"different from {ka})")
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    shape = batch + ((a.shape[-2],) if a.ndim >= 2 else ()) + ((b.shape[-1],) if b.ndim >= 2
                                                               else ())
    dt = D.result_type(a, b) if dtype is None else D.to_dtype(dtype)
    if a.ndim == 1 and b.ndim == 1 and _fused_ok(dt):
        # a dot product of two vectors: one fused, lazy reduction (a solver's inner step
        # A[i, j] -= dot(A[i, :j], A[j, :j]) is then one kernel with its write)
        prod = apply("multiply", wrap(ir.cast(a._node, dt)), wrap(ir.cast(b._node, dt)))
        return finish("matmul", sum_(prod, dtype=dt), out, casting=casting)
    if a.ndim >= 2 and b.ndim >= 2 and _fuses(dt, L.prod(shape), ka):
        # a small product (3x3 blocks in a loop) or one of few terms: a fused, lazy
        # reduction over k (elementwise over at most UNROLL_K terms), not a library call;
        # it replays, and fuses with its operands and its consumer
        return finish("matmul", wrap(_small_product(_fused_operand(a), _fused_operand(b),
                                                    batch, dt)), out, casting=casting)
    node = _library_product(ir.cast(a._node, dt), ir.cast(b._node, dt), dt, shape)
    return finish("matmul", wrap(node), out, casting=casting)


def _matrix_product(a, b):
    """``a @ b`` of two gnumpy arrays of one float or complex dtype and device, 2-D by 2-D
    or stacked matrices with equal batch dims (a small product fused, a larger one the
    library's) or a matrix-vector product (2-D by 1-D, 1-D by 2-D, the library's), built
    without matmul's general checks (a kernel of library calls pays them per call, a loop
    of 3x3 blocks per product).  None for anything else."""
    if type(a) is not ndarray or type(b) is not ndarray:
        return None
    na, nb = a._node, b._node
    dt = na.dtype
    if nb.dtype is not dt or nb.device is not na.device or dt.kind not in "fc":
        return None
    sa, sb = na.shape, nb.shape
    la, lb = len(sa), len(sb)
    if la == 2 and lb == 2:
        if sa[1] != sb[0]:
            return None
        if _fuses(dt, sa[0] * sb[1], sa[1]):
            return wrap(_small_product(_fused_operand(a), _fused_operand(b), (), dt))
        shape = (sa[0], sb[1])
    elif la == 2 and lb == 1:
        if sa[1] != sb[0]:
            return None
        shape = sa[:1]
    elif la == 1 and lb == 2:
        if sa[0] != sb[0]:
            return None
        shape = sb[1:]
    elif la == lb and la > 2:           # stacked matrices with equal batch dims
        if sa[-1] != sb[-2] or sa[:-2] != sb[:-2]:
            return None
        shape = sa[:-1] + sb[-1:]
        if _fuses(dt, L.prod(shape), sa[-1]):
            return wrap(_small_product(_fused_operand(a), _fused_operand(b), sa[:-2], dt))
    else:
        return None
    return wrap(_library_product(na, nb, dt, shape))


def scaled_product(x, y, s):
    """``(x @ y) * s`` for a Python float s, as NumPy's ``c = x @ y; c *= s`` (``cov``):
    on CUDA a finite nonzero s is the library call's alpha (no pass over the product),
    elsewhere a multiply of the product."""
    if type(s) is float and s and math.isfinite(s) and x.device.kind == "cuda" and \
            x.dtype.kind in "fc" and x.dtype == y.dtype:
        return matmul(apply("multiply", x, s), y)
    c = matmul(x, y)
    return astype(apply("multiply", c, s), c.dtype, copy=False)


def _library_product(na, nb, dt, shape):
    """The library call's node of ``na @ nb`` (dtype `dt`, result `shape`).  On CUDA, an
    operand scaled by a constant (``s * X`` or ``X * s``, X of the product's dtype; s
    finite and nonzero) passes X and makes s the call's alpha: NPBench's gemm,
    ``alpha * A @ B + beta * C``, then runs no elementwise pass over A.  (The product is
    ``alpha * (A @ B)`` instead of NumPy's ``(alpha * A) @ B``: the same within rounding.)"""
    alpha = None
    if dt.kind in "fc" and na.device.kind == "cuda":
        xa, sa = scaled(na)
        xb, sb = scaled(nb)
        if sa is not None or sb is not None:
            v = (1 if sa is None else sa) * (1 if sb is None else sb)
            if v != 0 and cmath.isfinite(v):
                na, nb, alpha = xa, xb, v
    return ir.barrier("matmul", (na, nb), alpha, dt, shape)


def vecdot(x1, x2, /, out=None, *, axis=-1, keepdims=False, casting="same_kind", order="K",
           dtype=None, subok=True, axes=None):
    """Dot product of vectors along `axis` (conjugating x1), broadcasting the rest: NumPy's
    gufunc ``(n),(n)->()``, whose `axis` is each operand's own (normalized against its
    own dimensions), with its ``out=``, ``keepdims=``, ``dtype=`` and ``casting=``.

    # Note: the gufunc keyword ``axes=`` raises NotImplementedError (use ``axis=``).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.vecdot(gp.asarray([[1.0, 2.0], [3.0, 4.0]]), gp.asarray([1.0, 1.0]))
    array([3., 7.])
    >>> gp.vecdot(gp.ones((3, 2)), gp.ones(3), axis=0).tolist()
    [3.0, 3.0]
    """
    if axes is not None:
        raise NotImplementedError("vecdot(axes=) is not implemented yet: use axis=")
    if casting != "same_kind":
        check_casting(casting)
    check_order(order)
    a = _arr(x1)
    b = _arr(x2, a.device)
    check_device_match([a._node, b._node])
    for i, x in enumerate((a, b)):
        if x.ndim == 0:
            raise ValueError(f"vecdot: Input operand {i} does not have enough dimensions (has "
                             f"0, gufunc core with signature (n),(n)->() requires 1)")
    axis = axis_int(axis, "an integer is required")
    a, b = (moveaxis(x, normalize_axis(axis, x.ndim), -1) if axis != -1 else x
            for x in (a, b))
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"vecdot: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature (n),(n)->() (size {b.shape[-1]} is "
                         f"different from {a.shape[-1]})")
    if dtype is not None:       # the loop of `dtype`, the inputs cast to it under `casting`
        dt = D.to_dtype(dtype)
        for i, x in enumerate((a, b)):
            if not D.can_cast(x.dtype, dt, casting):
                raise TypeError(f"Cannot cast ufunc 'vecdot' input {i} from {x.dtype!r} to "
                                f"{dt!r} with casting rule {casting!r}")
        a, b = astype(a, dt, copy=False), astype(b, dt, copy=False)
    if a.dtype.kind == "c":
        a = apply("conjugate", a)
    prod = apply("multiply", a, b)
    r = sum_(prod, axis=-1, dtype=prod.dtype)
    if keepdims:                # the reduced axis, of length 1, at `axis` of the result
        r = expand_dims(r, normalize_axis(axis, r.ndim + 1))
    return finish("vecdot", r, out, casting=casting)


def _gufunc_vector(name, sig, a, b, mat_first):
    """Shape checks of matvec (m,n),(n)->(m) and vecmat (n),(n,m)->(m), NumPy's messages."""
    need = (2, 1) if mat_first else (1, 2)
    for i, (x, k) in enumerate(zip((a, b), need)):
        if x.ndim < k:
            raise ValueError(f"{name}: Input operand {i} does not have enough dimensions "
                             f"(has {x.ndim}, gufunc core with signature {sig} requires {k})")
    n0 = a.shape[-1]
    n1 = b.shape[-1] if mat_first else b.shape[-2]
    if n0 != n1:
        raise ValueError(f"{name}: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature {sig} (size {n1} is different from {n0})")


def matvec(x1, x2, /, out=None, *, dtype=None, casting="same_kind"):
    """Matrix-vector product over the last two axes of `x1` and the last of `x2`
    (signature (m,n),(n)->(m)), broadcasting the rest.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.matvec(gp.eye(2) * 2, gp.asarray([1.0, 3.0])).tolist()
    [2.0, 6.0]
    """
    a = _arr(x1)
    b = _arr(x2, a.device)
    _gufunc_vector("matvec", "(m,n),(n)->(m)", a, b, True)
    r = matmul(a, b[..., None], dtype=dtype)[..., 0]
    return finish("matvec", r, out, casting=casting)


def vecmat(x1, x2, /, out=None, *, dtype=None, casting="same_kind"):
    """Vector-matrix product of the complex conjugate of `x1`'s last axis with the last two
    axes of `x2` (signature (n),(n,m)->(m)), broadcasting the rest.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.vecmat(gp.asarray([1.0, 3.0]), gp.eye(2) * 2).tolist()
    [2.0, 6.0]
    """
    a = _arr(x1)
    b = _arr(x2, a.device)
    _gufunc_vector("vecmat", "(n),(n,m)->(m)", a, b, False)
    if a.dtype.kind == "c":
        a = apply("conjugate", a)
    r = matmul(a[..., None, :], b, dtype=dtype)[..., 0, :]
    return finish("vecmat", r, out, casting=casting)
