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
from ..backends.cuda_libs import DATA_TYPE
from ._cusolver import _Solver, _batch, _copy, _new, _ptr, _view

_GESVDP_RANK_MARGIN = 1000          # gesvd decides where s_min <= this * max(m, n) * eps * s_max


def svd_plan(m: int, n: int, full: bool, uv: bool = True, batch: int = 1,
             routine=None, dtype=np.float64) -> dict:
    """How ``svd`` runs cuSOLVER on an m x n row-major matrix: ``routine`` ("gesvdp" for
    one float64 matrix; "gesvd" where a full U is larger than the economy one, for a stack
    of more than one matrix, and for float32 and complex dtypes), ``flip`` (factor the C
    copy, the column-major A^T), the routine's ``rows`` >= ``cols``, the column count of
    its U (``ucols``, leading dimension ``rows``; the other buffer is cols x cols), and the
    results as (shape, fortran) of a view of those buffers: ``u`` over the routine's U or
    its V^H (gesvd) / V (gesvdp), ``vh`` over the other (``u_from``: which buffer U
    reads).  gesvdp's (real) V is read in the other order than gesvd's V^H.  `routine`
    forces one (gesvd where gesvdp's answer is in doubt: ``_gesvdp``)."""
    flip = m < n
    rows, cols = (n, m) if flip else (m, n)
    k = cols
    p = routine or ("gesvdp" if batch == 1 and (not uv or not full or rows == cols) and
                    np.dtype(dtype) == np.float64 else "gesvd")
    ucols = rows if full and p == "gesvd" else k
    other = p == "gesvdp"       # (the V buffer read the other way round)
    if flip:                    # A = conj(V') S U'^T
        return dict(routine=p, flip=True, rows=rows, cols=cols, ucols=ucols, u_from="vt",
                    u=((m, m), other), vh=((ucols, n), False))
    return dict(routine=p, flip=False, rows=rows, cols=cols, ucols=ucols, u_from="u",
                u=((m, ucols), True), vh=((n, n), not other))


def svd(be, a, full_matrices=True, compute_uv=True):
    m, n = a.shape[-2:]
    plan = svd_plan(m, n, full_matrices, compute_uv, _batch(a), dtype=a.dtype)
    if plan["routine"] == "gesvdp":
        r = _gesvdp(be, a, plan, compute_uv)
        if r is not None:
            return r
        plan = svd_plan(m, n, full_matrices, compute_uv, _batch(a), routine="gesvd")
    return _gesvd(be, a, plan, full_matrices, compute_uv)


def _gesvdp(be, a, plan, compute_uv):
    """``svd`` of one matrix by gesvdp, or None where gesvd is to decide: gesvdp failed
    (cuSOLVER's EXECUTION_FAILED on NaN input, or a positive status), or the smallest
    singular value is within ``_GESVDP_RANK_MARGIN`` * max(m, n) * eps of the largest,
    where gesvdp's absolute error (a few eps * s_max, against gesvd's eps * s_max) can move
    NumPy's rank decisions (``matrix_rank``, ``pinv``, ``lstsq``): on an H100 a 5 x 3
    matrix of rank 2 came back of rank 3."""
    s = _Solver(be, a.dtype)
    dt, R, C = a.dtype, plan["rows"], plan["cols"]
    rdt = np.dtype(dt.char.lower())
    x = _copy(be, a, not plan["flip"])            # column-major R x C, R >= C
    sv = _new(be, rdt, (C,))
    u = _new(be, dt, (C, R))                      # column-major R x C (needed without
    vt = _new(be, dt, (C, C))                     # vectors too); V, column-major
    info = s.info(2)                              # the status, then the fall-back flag
    px, ps, pu, pvt = _ptr(x), _ptr(sv), _ptr(u), _ptr(vt)
    job = 1 if compute_uv else 0
    try:
        w = s.work(s.cus.xgesvdp_buffer_size(s.h, s.p, job, 1, R, C, s.T, px, R,
                                             DATA_TYPE[rdt], ps, s.T, pu, R, s.T, pvt, C,
                                             s.T))
        s.cus.xgesvdp(s.h, s.p, job, 1, R, C, s.T, px, R, DATA_TYPE[rdt], ps, s.T, pu, R,
                      s.T, pvt, C, s.T, *w, info.ptr)
    except Exception as e:                        # noqa: BLE001
        if type(e).__name__ != "cuSOLVERError":
            raise
        return None
    sw = _wrap(sv)
    tol = _GESVDP_RANK_MARGIN * max(R, C) * float(np.finfo(rdt).eps)
    doubt = any_(apply("isnan", sw)) | (sw[C - 1] <= sw[0] * tol)
    write(leaf(info, np.dtype(np.int32), (), (), 1, be.device), doubt.astype(np.int32)._node)
    st = s.lb.read_info(info, 2).tolist()
    s.keep.clear()
    if st[0] < 0:
        raise RuntimeError(f"cuSOLVER gesvdp refused its argument {-st[0]} (a gnumpy bug)")
    if st[0] > 0 or st[1]:
        return None
    if not compute_uv:
        return (sv,)
    src_u, src_vh = (vt, u) if plan["u_from"] == "vt" else (u, vt)
    (ush, uf), (vsh, vf) = plan["u"], plan["vh"]
    return _view(src_u, ush, uf), sv, _view(src_vh, vsh, vf)


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
