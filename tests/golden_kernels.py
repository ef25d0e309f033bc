"""The golden kernel sources: which kernels are pinned, how each is rendered, and the one
deliberate way to regenerate them.

``tests/test_kernels.py`` renders every case below on the CPU (no GPU needed) and compares
it with ``tests/golden/<name>.cu``; a missing file fails, a file with no case fails.  After
an intended change to the code generator, regenerate and review the diff it prints:

    python3 tests/golden_kernels.py            # rewrite changed/missing files, print diffs
    python3 tests/golden_kernels.py NAME ...   # only these cases
    python3 tests/golden_kernels.py --check    # print the diffs, write nothing (exit 1)

The cases cover every kernel family (elementwise, reduction over all / rows / columns,
split reductions, row groups, scans, the index kernels: gather, scatter, ``ufunc.at`` in
each update strategy, nonzero's compaction; sort, searchsorted, bincount, the equal-bins
histogram, the Philox generator, the tiled matmul and the small LU and Cholesky of
``linalg``) and every reduction (sum, prod, min, max, any, all, var, argmin, argmax) over
integer, bool, float16, float32, float64 and complex dtypes, so a wrong identity, combine
or load in any of them changes a pinned source.
"""
from __future__ import annotations

import difflib
import os
import pathlib
import sys

import numpy as np

if __name__ == "__main__":          # run as a script from anywhere
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
    os.environ.setdefault("GNUMPY_DEVICE", "cpu")

import gnumpy as gp  # noqa: E402
from gnumpy.kernels import (build, codegen, render_index, render_linalg, render_qr,  # noqa: E402
                            render_misc, render_random, render_sort)
from gnumpy.kernels.compile import KERNEL_NAME  # noqa: E402

GOLDEN = pathlib.Path(__file__).parent / "golden"
SCAN_BLOCK = 256


def _arrays():
    rng = np.random.default_rng(0)

    def a(dt, shape):
        dt = np.dtype(dt)
        if dt.kind == "b":
            v = rng.standard_normal(shape) > 0
        elif dt.kind in "iu":
            v = rng.integers(0, 100, shape)
        elif dt.kind == "c":
            v = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
        else:
            v = rng.standard_normal(shape)
        return gp.asarray(np.asarray(v).astype(dt))
    return a


def _expr_cases():
    """name -> a lazy gnumpy expression whose single (last) scheduled group is pinned."""
    a = _arrays()
    x = a(np.float32, 1 << 12)
    y = a(np.float32, 1 << 12)
    X = x.reshape(64, 64)
    h = a(np.float16, 64)
    c = a(np.complex64, 64)
    M = {dt: a(dt, (16, 32)) for dt in (np.bool_, np.int8, np.int16, np.int32, np.int64,
                                        np.uint8, np.uint32, np.float16, np.float32,
                                        np.float64, np.complex64, np.complex128)}
    V = {dt: a(dt, 512) for dt in (np.bool_, np.int32, np.int64, np.float16, np.float32,
                                   np.float64, np.complex64, np.complex128)}
    R, r, col = a(np.float32, (256, 512)), a(np.float32, 512), a(np.float32, (256, 1))
    T = a(np.float64, (8, 16, 32))
    W = a(np.float32, (128, 300))
    Wd = a(np.float64, (96, 200))

    def softmax(z):
        e = gp.exp(z - z.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    return {
        # ---- the first ten (elementwise, sum, mean, argmax)
        "saxpy_vectorized": lambda: np.float32(2.5) * x + y,
        "broadcast_strided": lambda: X.T[::2] + y[:64],
        "sum_all": lambda: gp.sum((x - y) ** 2),
        "sum_all_split": lambda: gp.sum(gp.asarray(np.ones(1 << 22, np.float32)) * 2),
        "sum_rows": lambda: X.sum(axis=1),
        "sum_cols": lambda: X.sum(axis=0),
        "mean_epilogue": lambda: X.mean(axis=1),
        "argmax_rows": lambda: X.argmax(axis=1),
        "half_ops": lambda: (h * 3 + 1).astype(gp.float32),
        "complex_mul_where": lambda: gp.where(c.real > 0, c * c, -c),
        # ---- elementwise over the other dtype families
        "ew_int32_floordiv_mod": lambda: (M[np.int32] // 3) % 7 - M[np.int32],
        "ew_int8_shift_bitwise": lambda: (M[np.int8] << 2) ^ (M[np.int8] & 5),
        "ew_uint32_compare_where": lambda: gp.where(M[np.uint32] > 50, M[np.uint32],
                                                    M[np.uint32] * 2),
        "ew_float64_transcendental": lambda: gp.exp(M[np.float64]) * gp.log1p(
            gp.abs(M[np.float64])) - gp.sin(M[np.float64]),
        "ew_complex128_div_abs": lambda: M[np.complex128] / (M[np.complex128] + 1j)
        + gp.abs(M[np.complex128]),
        "ew_bool_logic": lambda: gp.logical_xor(M[np.bool_], M[np.int8] > 3) & ~M[np.bool_],
        # ---- elementwise index arithmetic: fused arange (iota) contiguous and strided,
        # reshape levels of a view strides cannot express, the row-broadcast column
        # layout, three strided dims with negative strides, vectors over two dims, and
        # 64-bit indices (2^31 elements, broadcast: nothing is allocated)
        "ew_iota_vectorized": lambda: gp.arange(4096, dtype=gp.float32) * 2 + y,
        "ew_iota_transposed": lambda: gp.arange(4096, dtype=gp.float32).reshape(64, 64).T
        + X,
        "ew_reshape_levels": lambda: (X.T + 1).reshape(4096) * y,
        "ew_columns_row_broadcast": lambda: R * r - col,
        "ew_3d_negative_strides": lambda: T[::2, 1:, ::-1] + T[1::2, :-1, :],
        "ew_vector_2d_column_broadcast": lambda: R + col,
        "ew_idx64_columns": lambda: gp.broadcast_to(r, (1 << 22, 512)) * 2,
        "ew_idx64_vector_2d": lambda: gp.broadcast_to(col, (256, 1 << 23)) - 1,
        # several outputs of one kernel (vector loop, column layout, strided 3-d), an operand
        # broadcast along the only dim, a strided fused arange, and config variants
        "ew_two_outputs_vector": lambda: (x * 2 + y, x - y),
        "ew_two_outputs_columns": lambda: (R * r, R - r),
        "ew_two_outputs_3d": lambda: (T[::2] * 2, T[::2] - T[1::2]),
        "ew_scalar_broadcast_vector": lambda: x * gp.broadcast_to(y[:1], x.shape),
        "ew_iota_strided": lambda: gp.arange(0, 8192, 2, dtype=gp.float32) + y,
        "ew_grid_stride_vectors": lambda: np.float32(2.5) * x + y,      # ew_tiles off
        "ew_unroll_1_columns": lambda: R * r - col,                       # ew_unroll 1
        "sum_all_memory_hints": lambda: gp.sum((x - y) ** 2),           # reduce_mem_hints
        # ---- row groups (a row program: reductions of a row and their elementwise users)
        "rows_softmax_float32": lambda: softmax(W),
        "rows_normalize_float64": lambda: Wd / gp.sqrt((Wd * Wd).sum(axis=1, keepdims=True)),
        # ---- sum
        "sum_int32_all": lambda: gp.sum(V[np.int32]),
        "sum_uint8_rows": lambda: M[np.uint8].sum(axis=1),
        "sum_float64_rows": lambda: M[np.float64].sum(axis=1),
        "sum_float16_all": lambda: gp.sum(V[np.float16]),
        "sum_complex128_cols": lambda: M[np.complex128].sum(axis=0),
        "sum_bool_all": lambda: gp.sum(V[np.bool_]),
        # ---- prod
        "prod_float32_all": lambda: gp.prod(V[np.float32]),
        "prod_float64_rows": lambda: M[np.float64].prod(axis=1),
        "prod_int64_cols": lambda: M[np.int64].prod(axis=0),
        "prod_float16_rows": lambda: M[np.float16].prod(axis=1),
        "prod_complex64_all": lambda: gp.prod(V[np.complex64]),
        "prod_complex128_rows": lambda: M[np.complex128].prod(axis=1),
        # ---- min / max
        "min_float16_all": lambda: gp.min(V[np.float16]),
        "min_int8_rows": lambda: M[np.int8].min(axis=1),
        "min_float64_cols": lambda: M[np.float64].min(axis=0),
        "min_complex64_rows": lambda: M[np.complex64].min(axis=1),
        "max_float32_all": lambda: gp.max(V[np.float32]),
        "max_float64_rows": lambda: M[np.float64].max(axis=1),
        "max_uint32_cols": lambda: M[np.uint32].max(axis=0),
        "max_int64_all": lambda: gp.max(V[np.int64]),
        "max_complex128_all": lambda: gp.max(V[np.complex128]),
        # ---- any / all
        "any_bool_rows": lambda: M[np.bool_].any(axis=1),
        "any_float32_all": lambda: gp.any(V[np.float32]),
        "all_int32_cols": lambda: M[np.int32].all(axis=0),
        "all_bool_all": lambda: gp.all(V[np.bool_]),
        "all_complex64_rows": lambda: M[np.complex64].all(axis=1),
        # ---- var (and std's epilogue)
        "var_float32_all": lambda: gp.var(V[np.float32]),
        "var_float64_rows": lambda: M[np.float64].var(axis=1),
        "std_float32_cols": lambda: M[np.float32].std(axis=0),
        # ---- argmin / argmax
        "argmin_float64_all": lambda: gp.argmin(V[np.float64]),
        "argmin_int16_rows": lambda: M[np.int16].argmin(axis=1),
        "argmin_complex128_rows": lambda: M[np.complex128].argmin(axis=1),
        "argmax_float16_all": lambda: gp.argmax(V[np.float16]),
        "argmax_uint8_rows": lambda: M[np.uint8].argmax(axis=1),
        "argmax_complex64_all": lambda: gp.argmax(V[np.complex64]),
    }


# cases rendered under other settings than the defaults
_CONFIG = {"ew_grid_stride_vectors": dict(ew_tiles=False),
           "ew_unroll_1_columns": dict(ew_unroll=1),
           "sum_all_memory_hints": dict(reduce_mem_hints="lcs,L2::256B")}


# scans (a barrier with its own kernel template): name -> (op, dtype, line kind, inclusive
# of the initial value); 'block' is one block per row, 'thread' one thread per line
_SCANS = {
    "scan_cumsum_int64_block": ("cumsum", np.int64, "block", False),
    "scan_cumsum_float32_thread": ("cumsum", np.float32, "thread", False),
    "scan_cumsum_float16_block": ("cumsum", np.float16, "block", True),
    "scan_cumsum_complex64_thread": ("cumsum", np.complex64, "thread", True),
    "scan_cumprod_float64_block": ("cumprod", np.float64, "block", False),
    "scan_cumprod_int32_thread": ("cumprod", np.int32, "thread", False),
    "scan_cumprod_complex128_block": ("cumprod", np.complex128, "block", False),
}


# index kernels (gather, scatter, ufunc.at, nonzero), rendered as the CUDA backend lists
# them: name -> (function of render_index, its arguments before the kernel name).  The
# ufunc.at cases cover each update strategy: native atomicAdd (float, int, complex, with
# subtract), atomicMin/Max, compare-and-swap on the words of every dtype family (bool, 1-,
# 2-, 4- and 8-byte ints, float16/32/64, complex64; a cast from another loop dtype, a unary
# op) and the one-thread loop of complex128 multiply
_INDEX = {
    "index_gather_item4_k2": ("gather_source", (4, 2)),
    "index_gather_item16_k1": ("gather_source", (16, 1)),
    "index_gather_item1_k0": ("gather_source", (1, 0)),
    "index_gather_item8_k1_uint32": ("gather_source", (8, 1, "I")),
    "index_scatter_item8_k3": ("scatter_source", (8, 3)),
    "index_scatter_item16_k1": ("scatter_source", (16, 1)),
    "index_scatter_last_item16_sorted": ("scatter_last_source", (16, 1, True)),
    "index_scatter_last_item2_sorted": ("scatter_last_source", (2, 2, True)),
    "index_scatter_last_item4_unsorted": ("scatter_last_source", (4, 1, False)),
    "index_at_add_float32": ("scatter_at_source", ("add", np.float32, np.float32,
                                                   np.float32, 2, 1)),
    "index_at_subtract_int64": ("scatter_at_source", ("subtract", np.int64, np.int64,
                                                      np.int64, 2, 2)),
    "index_at_subtract_complex64": ("scatter_at_source", ("subtract", np.complex64,
                                                          np.complex64, np.complex64, 2, 1)),
    "index_at_subtract_float64": ("scatter_at_source", ("subtract", np.float64, np.float64,
                                                        np.float64, 2, 1)),
    "index_at_subtract_uint32": ("scatter_at_source", ("subtract", np.uint32, np.uint32,
                                                       np.uint32, 2, 1)),
    "index_at_maximum_uint32": ("scatter_at_source", ("maximum", np.uint32, np.uint32,
                                                      np.uint32, 2, 1)),
    "index_at_multiply_int8": ("scatter_at_source", ("multiply", np.int8, np.int8,
                                                     np.int8, 2, 1)),
    "index_at_add_float16": ("scatter_at_source", ("add", np.float16, np.float16,
                                                   np.float16, 2, 2)),
    "index_at_add_float32_float64": ("scatter_at_source", ("add", np.float32, np.float64,
                                                           np.float64, 2, 1)),
    "index_at_negative_float64": ("scatter_at_source", ("negative", np.float64, np.float64,
                                                        np.float64, 1, 1)),
    "index_at_multiply_complex128": ("scatter_at_source", ("multiply", np.complex128,
                                                           np.complex128, np.complex128, 2,
                                                           3)),
    "index_at_multiply_complex64": ("scatter_at_source", ("multiply", np.complex64,
                                                          np.complex64, np.complex64, 2, 1)),
    "index_at_multiply_int64": ("scatter_at_source", ("multiply", np.int64, np.int64,
                                                      np.int64, 2, 1)),
    "index_at_multiply_int32": ("scatter_at_source", ("multiply", np.int32, np.int32,
                                                      np.int32, 2, 1)),
    "index_at_maximum_bool": ("scatter_at_source", ("maximum", np.bool_, np.bool_,
                                                    np.bool_, 2, 1)),
    "index_at_add_float16_float32": ("scatter_at_source", ("add", np.float16, np.float32,
                                                           np.float32, 2, 1)),
    "index_nonzero_count": ("nz_count_source", ()),
    "index_nonzero_scan": ("nz_scan_source", ()),
    "index_nonzero_write": ("nz_write_source", ()),
}


# kernels of library-shaped work without a vendor library: the sort family (bitonic tile,
# merge pass, searchsorted, gather and scatter of rows, bincount, and the templates every
# sort kernel includes), the Philox generator and the tiled integer/bool matmul:
# name -> render(headers) -> source


def _sort(kind, param):
    def render(headers):
        src = render_sort.source(kind, param, KERNEL_NAME)     # its preamble + the kernel
        return src if headers else src[len(render_sort.preamble()):]
    return render


def _sort_templates(headers):
    return render_sort.preamble() if headers else render_sort.COMMON


def _philox(headers):
    return render_random.philox_source(name=KERNEL_NAME)


def _without(src: str, pre: str, headers: bool) -> str:
    """`src` as rendered (it starts with the helper headers `pre`), or without them."""
    assert src.startswith(pre)
    return src if headers else src[len(pre):]


def _lu(dt, n, source="lu_source", module=render_linalg):
    def render(headers):
        nm = render_linalg.nmax_class(n, dt)
        src = getattr(module, source)(dt, nm, render_linalg.threads(nm), KERNEL_NAME)
        return _without(src, codegen.headers(dt), headers)
    return render


def _matmul(dt):
    def render(headers):
        return _without(render_misc.matmul_source(dt, KERNEL_NAME), codegen.headers(dt),
                        headers)
    return render


_LIBRARY = {
    "sort_tile_float32": _sort("tile", np.dtype(np.float32)),
    "sort_tile_int64": _sort("tile", np.dtype(np.int64)),
    "sort_merge_float64": _sort("merge", np.dtype(np.float64)),
    "sort_merge_float16": _sort("merge", np.dtype(np.float16)),
    "sort_search_uint8": _sort("search", np.dtype(np.uint8)),
    "sort_search_complex64": _sort("search", np.dtype(np.complex64)),
    "sort_gather_item8": _sort("gather", 8),
    "sort_scatter_item2": _sort("scatter", 2),
    "sort_bincount": _sort("bincount", (np.dtype(np.int32), False)),
    "sort_hist_float32_weighted": _sort("hist", (np.dtype(np.float32), np.dtype(np.float64),
                                                 np.dtype(np.float64), True)),
    "sort_common_templates": _sort_templates,
    "random_philox": _philox,
    "matmul_int32": _matmul(np.dtype(np.int32)),
    "matmul_bool": _matmul(np.dtype(np.bool_)),
    "linalg_lu_float64_8": _lu(np.dtype(np.float64), 8),
    "linalg_lu_complex64_54": _lu(np.dtype(np.complex64), 54),
    "linalg_cholesky_complex128_16": _lu(np.dtype(np.complex128), 16, "chol_source"),
    "linalg_qr_float64_64": _lu(np.dtype(np.float64), 64, "qr_source", render_qr),
    "linalg_qr_complex64_8": _lu(np.dtype(np.complex64), 8, "qr_source", render_qr),
}


def names():
    return list(_expr_cases()) + list(_SCANS) + list(_INDEX) + list(_LIBRARY)


def _render_index(name: str, headers: bool) -> str:
    fn, args = _INDEX[name]
    if fn == "scatter_at_source":
        op, adt, ldt, odt, nin, k = args
        adt, ldt, odt = np.dtype(adt), np.dtype(ldt), np.dtype(odt)
        return _without(render_index.scatter_at_source(op, adt, ldt, odt, nin, k, KERNEL_NAME),
                        codegen.headers(adt, ldt, odt), headers)
    return getattr(render_index, fn)(*args, name=KERNEL_NAME)


def render(name: str, headers: bool = False) -> str:
    """The CUDA source of case `name` (without the helper headers unless `headers`)."""
    if name in _INDEX:
        return _render_index(name, headers)
    if name in _LIBRARY:
        return _LIBRARY[name](headers)
    if name in _SCANS:
        op, dt, kind, inc = _SCANS[name]
        dt = np.dtype(dt)
        return _without(render_misc.scan_source(op, dt, kind, inc, SCAN_BLOCK, KERNEL_NAME),
                        codegen.headers(dt), headers)
    from gnumpy._graph.fuse import schedule
    expr = _expr_cases()[name]()
    exprs = expr if isinstance(expr, tuple) else (expr,)
    with gp.config.override(**_CONFIG.get(name, {})):
        groups = schedule([e._node for e in exprs])
        assert groups, name
        g = groups[-1]
        assert g.kind != "barrier", f"{name}: the last group is a barrier"
        return build.source_of(g, ptr_of=lambda o: 1 << 20, headers=headers)


def path_of(name: str) -> pathlib.Path:
    return GOLDEN / f"{name}.cu"


def diff(name: str, src: str) -> str:
    p = path_of(name)
    old = p.read_text().splitlines(keepends=True) if p.exists() else []
    return "".join(difflib.unified_diff(old, src.splitlines(keepends=True),
                                        f"a/tests/golden/{name}.cu",
                                        f"b/tests/golden/{name}.cu"))


def stale() -> list:
    """Golden files that no case renders."""
    known = set(names())
    return sorted(p.stem for p in GOLDEN.glob("*.cu") if p.stem not in known)


def main(argv) -> int:
    check_only = "--check" in argv
    wanted = [a for a in argv if not a.startswith("--")] or names()
    unknown = [n for n in wanted if n not in names()]
    if unknown:
        print(f"unknown cases: {unknown}", file=sys.stderr)
        return 2
    changed = 0
    for n in wanted:
        src = render(n)
        d = diff(n, src)
        if not d:
            continue
        changed += 1
        sys.stdout.write(d)
        if not check_only:
            GOLDEN.mkdir(exist_ok=True)
            path_of(n).write_text(src)
    for n in stale():
        print(f"stale golden file (no case renders it): tests/golden/{n}.cu"
              + ("" if check_only else " -- removed"))
        if not check_only:
            path_of(n).unlink()
        changed += 1
    print(f"{changed} golden file(s) {'differ' if check_only else 'written/removed'}; "
          f"{len(wanted)} case(s) rendered", file=sys.stderr)
    return 1 if (check_only and changed) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
