"""cuSOLVER's singular value decomposition on the CUDA backend (``_common.call``'s
``svd``; the other routines are in ``_cusolver``, whose layout conventions it shares).

``xgesvdp`` (QDWH polar decomposition) for one float64 matrix, else
``xgesvd`` (a full U larger than the economy one, stacks, float32 and complex).  Both
need rows >= columns.  m >= n: Fortran copy (A = U S V^H; U comes back column-major).
m < n: C copy, the SVD of A^T = U' S V'^H, so A = conj(V') S U'^T: the buffer of U'
read row-major is V^H.  gesvd leaves V^H (column-major), gesvdp V itself, read in the
other order.  gesvdp was 3.4-4.8x faster than gesvd (and CuPy's svd, which calls gesvd)
on an H100: f64 4096x256 reduced 6.5 against 30.4 ms, 20000x256 10.5 / 35.8, 1024²
30.6 / 130.4.  Its near-zero singular values are less exact (a few eps * s_max in
float64; in float32 and complex, rank-deficient test matrices came back of full rank
and lstsq's solution blew up), so gesvd answers where gesvdp failed or its smallest
singular value is near the rank cutoff (``_gesvdp``).  With null U and V pointers
(values only) gesvdp failed (INTERNAL_ERROR), so it always gets them; it returns its
error estimate to the host (a wait), so stacks keep gesvd.
"""
from __future__ import annotations

import numpy as np

from .._api._common import wrap as _wrap
from .._api.elementwise.elementwise import apply
from .._api.reductions.reductions import any as any_
from .._graph.ir import leaf
from .._graph.realize import write
from ..backends.cuda_libs import DATA_TYPE, TYPE_PREFIX
from ._cusolver import (_INT32_MAX, _Solver, _batch, _columns, _copy, _new, _ptr,
                        _view)

_RANK_MARGIN = 1000                 # gesvd decides where s_min <= this * max(m, n) * eps * s_max
_GESVDJ_BATCHED_N = 32              # gesvdj_batched for stacks of matrices up to this order
_GESVDJ_PARAMS: dict = {}           # id(cuSOLVER module) -> (module, gesvdjInfo_t)


def svd_plan(m: int, n: int, full: bool, uv: bool = True, batch: int = 1,
             routine=None, dtype=np.float64) -> dict:
    """How ``svd`` runs cuSOLVER on an m x n row-major matrix: ``routine`` ("gesvdp" for
    one float64 matrix; "gesvdj_batched" for a stack of more than one matrix of at most
    32 x 32; "gesvd" where a full U of one matrix is larger than the economy one, for
    stacks of larger matrices, and for one float32 or complex matrix), ``flip`` (factor
    the C copy, the column-major A^T), the routine's ``rows`` >= ``cols``, the column
    count of its U (``ucols``, leading dimension ``rows``; the other buffer is cols x
    cols; gesvdj_batched's U is always rows x rows, of which the results read ``ucols``),
    and the results as (shape, fortran) of a view of those buffers: ``u`` over the
    routine's U or its V^H (gesvd) / V (gesvdp, gesvdj_batched), ``vh`` over the other
    (``u_from``: which buffer U reads).  V is read in the other order than gesvd's V^H
    (and conjugated, for complex dtypes: ``_checked``).  `routine` forces one (gesvd where
    the answer of another is in doubt: ``_checked``)."""
    flip = m < n
    rows, cols = (n, m) if flip else (m, n)
    k = cols
    if routine is None:
        if batch > 1:
            routine = "gesvdj_batched" if rows <= _GESVDJ_BATCHED_N and \
                batch * rows * rows <= _INT32_MAX else "gesvd"
        else:
            routine = "gesvdp" if (not uv or not full or rows == cols) and \
                np.dtype(dtype) == np.float64 else "gesvd"
    p = routine
    ucols = rows if full and p != "gesvdp" else k
    other = p != "gesvd"        # (the V buffer read the other way round)
    if flip:                    # A = conj(V') S U'^T
        return dict(routine=p, flip=True, rows=rows, cols=cols, ucols=ucols, u_from="vt",
                    u=((m, m), other), vh=((ucols, n), False))
    return dict(routine=p, flip=False, rows=rows, cols=cols, ucols=ucols, u_from="u",
                u=((m, ucols), True), vh=((n, n), not other))


def svd(be, a, full_matrices=True, compute_uv=True):
    m, n = a.shape[-2:]
    B = _batch(a)
    plan = svd_plan(m, n, full_matrices, compute_uv, B, dtype=a.dtype)
    if plan["routine"] != "gesvd":
        run = _gesvdp if plan["routine"] == "gesvdp" else _gesvdj_batched
        r = _checked(be, a, plan, compute_uv, run)
        if r is not None:
            return r
        plan = svd_plan(m, n, full_matrices, compute_uv, B, routine="gesvd")
    return _gesvd(be, a, plan, full_matrices, compute_uv)


def _checked(be, a, plan, compute_uv, run):
    """``svd`` by gesvdp or gesvdj_batched (`run`), or None where gesvd is to decide: the
    routine failed (gesvdp raises EXECUTION_FAILED on NaN input; a positive status), or a
    matrix's smallest singular value is within ``_RANK_MARGIN`` * max(m, n) * eps of its
    largest.  There gesvdp's absolute error (a few eps * s_max, against gesvd's eps *
    s_max) moved NumPy's rank decisions (``matrix_rank``, ``pinv``, ``lstsq``): on an
    H100 a 5 x 3 float64 matrix of rank 2 came back of rank 3."""
    s = _Solver(be, a.dtype)
    dt, R, C, uc = a.dtype, plan["rows"], plan["cols"], plan["ucols"]
    batch, B = a.shape[:-2], _batch(a)
    rdt = np.dtype(dt.char.lower())
    x = _copy(be, a, not plan["flip"])            # column-major R x C, R >= C
    sv = _new(be, rdt, batch + (C,))
    u = _new(be, dt, batch + (R if plan["routine"] == "gesvdj_batched" else C, R))
    vt = _new(be, dt, batch + (C, C))             # V, column-major (U and V needed
    info = s.info(2 * B)                          # without vectors too); statuses, then
    try:                                          # the fall-back flags
        run(s, x, R, C, sv, u, vt, info, 1 if compute_uv else 0)
    except Exception as e:                        # noqa: BLE001
        if type(e).__name__ != "cuSOLVERError":
            raise
        return None
    sw = _wrap(sv).reshape(B, C)
    tol = _RANK_MARGIN * R * float(np.finfo(rdt).eps)
    doubt = any_(apply("isnan", sw), axis=-1) | (sw[:, C - 1] <= sw[:, 0] * tol)
    write(leaf(info, np.dtype(np.int32), (B,), (1,), B, be.device),
          doubt.astype(np.int32)._node)
    st = s.lb.read_info(info, 2 * B).tolist()
    s.keep.clear()
    if min(st[:B]) < 0:
        raise RuntimeError(f"cuSOLVER {plan['routine']} refused its argument "
                           f"{-min(st[:B])} (a gnumpy bug)")
    if max(st) > 0:
        return None
    if not compute_uv:
        return (sv,)
    if dt.kind == "c":                            # V, conjugated in place
        write(vt, apply("conjugate", _wrap(vt))._node)
    at_u = plan["u_from"] == "u"                  # (U from the u buffer: no flip)
    if plan["routine"] == "gesvdj_batched":       # U is R x R: the results read uc of it
        full = _view(u, batch + (R, R), at_u)
        from_u = _columns(full, uc) if at_u else _rows(full, uc)
    else:
        shape, fortran = plan["u"] if at_u else plan["vh"]
        from_u = _view(u, batch + shape, fortran)
    shape, fortran = plan["vh"] if at_u else plan["u"]
    from_vt = _view(vt, batch + shape, fortran)
    return (from_u, sv, from_vt) if at_u else (from_vt, sv, from_u)


def _gesvdp(s, x, R, C, sv, u, vt, info, job):
    rdt = sv.dtype
    px, ps, pu, pvt = _ptr(x), _ptr(sv), _ptr(u), _ptr(vt)
    w = s.work(s.cus.xgesvdp_buffer_size(s.h, s.p, job, 1, R, C, s.T, px, R, DATA_TYPE[rdt],
                                         ps, s.T, pu, R, s.T, pvt, C, s.T))
    s.cus.xgesvdp(s.h, s.p, job, 1, R, C, s.T, px, R, DATA_TYPE[rdt], ps, s.T, pu, R, s.T,
                  pvt, C, s.T, *w, info.ptr)


def _gesvdj_batched(s, x, R, C, sv, u, vt, info, job):
    """Every matrix of the stack at once by Jacobi rotations (cuSOLVER's batched routine
    for orders up to 32; typed API, workspace counted in elements)."""
    B = _batch(x)
    t = TYPE_PREFIX[x.dtype]
    params = _gesvdj_params(s.cus)
    px, ps, pu, pvt = _ptr(x), _ptr(sv), _ptr(u), _ptr(vt)
    lw = getattr(s.cus, t + "gesvdj_batched_buffer_size")(s.h, job, R, C, px, R, ps, pu, R,
                                                          pvt, C, params, B)
    w = s.work((max(lw, 1) * x.dtype.itemsize, 0))
    getattr(s.cus, t + "gesvdj_batched")(s.h, job, R, C, px, R, ps, pu, R, pvt, C, w[0],
                                         lw, info.ptr, params, B)


def _gesvdj_params(cus):
    """The gesvdjInfo_t (default tolerance and sweeps) of the cuSOLVER module `cus`, made
    once."""
    p = _GESVDJ_PARAMS.get(id(cus))
    if p is None:
        p = _GESVDJ_PARAMS[id(cus)] = (cus, cus.create_gesvdj_info())
    return p[1]


def _rows(node, rows: int):
    """The first `rows` rows of each row-major matrix of the stack `node`."""
    return leaf(node.buf, node.dtype, node.shape[:-2] + (rows, node.shape[-1]), node.strides,
                node.offset, node.device)


def _gesvd(be, a, plan, full_matrices, compute_uv):
    s = _Solver(be, a.dtype)
    dt, it = a.dtype, a.dtype.itemsize
    batch, B = a.shape[:-2], _batch(a)
    rdt = np.dtype(dt.char.lower())
    R, C, uc = plan["rows"], plan["cols"], plan["ucols"]
    x = _copy(be, a, not plan["flip"])            # column-major R x C, R >= C
    sv = _new(be, rdt, batch + (C,))
    if compute_uv:
        job = ord("A") if full_matrices else ord("S")
        u = _new(be, dt, batch + (uc, R))         # column-major R x uc per matrix
        vt = _new(be, dt, batch + (C, C))         # column-major C x C: V^H
        pu, pvt = _ptr(u), _ptr(vt)
    else:
        job, pu, pvt = ord("N"), 0, 0
    info = s.info(2 * B)                          # statuses, then NaN flags
    px, ps = _ptr(x), _ptr(sv)
    w = s.work(s.cus.xgesvd_buffer_size(s.h, s.p, job, job, R, C, s.T, px, R, DATA_TYPE[rdt],
                                        ps, s.T, pu, R, s.T, pvt, C, s.T))
    for i in range(B):
        s.cus.xgesvd(s.h, s.p, job, job, R, C, s.T, px + i * R * C * it, R, DATA_TYPE[rdt],
                     ps + i * C * rdt.itemsize, s.T,
                     pu + i * R * uc * it if pu else 0, R, s.T,
                     pvt + i * C * C * it if pvt else 0, C, s.T, *w, info.ptr + 4 * i)
    s.check(info, B, "gesvd", "SVD did not converge", nan=sv)
    if not compute_uv:
        return (sv,)
    src_u, src_vh = (vt, u) if plan["u_from"] == "vt" else (u, vt)
    (ush, uf), (vsh, vf) = plan["u"], plan["vh"]
    return _view(src_u, batch + ush, uf), sv, _view(src_vh, batch + vsh, vf)
