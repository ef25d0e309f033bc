"""Op families over the shared input generator (``helpers.variants``): every special value
of the dtype (NaN, +-inf and -0.0, in each complex part; integer extremes), and the layouts
contiguous, strided, reversed (negative strides), transposed, broadcast and lazy; empty and
0-d shapes where the family takes them.  A function joins a family by being listed once.

Families here are the ones the audit of issue 21 found starved of such inputs: products
(inner, outer, kron, tensordot, vdot, cross, convolve, correlate, matmul, dot), manipulation
and joining over all 14 dtypes, sets over non-contiguous inputs, and median / quantile /
percentile over 0-d inputs.
"""
import warnings

import numpy as np
import pytest

import gnumpy as gp
from helpers import DTYPES, LAYOUTS, check, layout_pair, special_sample, specials, variants


def nw(f, *a, **k):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return f(*a, **k)


def _builtin(t):
    for c in t.__mro__:
        if c.__module__ == "builtins":
            return c
    return t


def same_outcome(gcall, ncall, **kw):
    """NumPy's exception type, or NumPy's result under `check(**kw)`."""
    try:
        e = nw(ncall)
    except Exception as ex:      # noqa: BLE001 - the exception type is what is compared
        with pytest.raises(_builtin(type(ex))):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                r = gcall()
                if isinstance(r, gp.ndarray):
                    r.get()
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = gcall()
    if isinstance(e, tuple):
        check(r, e, **kw)
    else:
        check(r, np.asarray(e), **kw)


def _mag(*arrays):
    """The largest finite magnitude among `arrays` (the scale of a sum of products)."""
    m = 1.0
    for a in arrays:
        v = np.abs(np.asarray(a).astype(np.complex128 if np.asarray(a).dtype.kind == "c"
                                        else np.float64))
        v = v[np.isfinite(v)]
        if v.size:
            m = max(m, float(v.max()))
    return m


# ====================================================================== products

# name -> (function of the library module and two operands, shapes, terms per result, pure
# products).  A sum of products compares with the dtype's tolerance scaled by its terms; the
# sign of an exactly-zero sum depends on where the accumulator starts (BLAS, cuBLAS), which
# NumPy does not specify, so only pure products (outer, kron) compare the sign of zero.
PRODUCTS = {
    "inner": (lambda m, a, b: m.inner(a, b), ((3, 4), (2, 4)), 4, False),
    "outer": (lambda m, a, b: m.outer(a, b), ((3,), (4,)), 1, True),
    "kron": (lambda m, a, b: m.kron(a, b), ((2, 3), (2, 2)), 1, True),
    "tensordot": (lambda m, a, b: m.tensordot(a, b, axes=([1, 2], [1, 0])),
                  ((2, 3, 4), (4, 3, 2)), 12, False),
    "vdot": (lambda m, a, b: m.vdot(a, b), ((6,), (6,)), 6, False),
    "cross": (lambda m, a, b: m.cross(a, b), ((4, 3), (4, 3)), 2, False),
    "convolve": (lambda m, a, b: m.convolve(a, b), ((6,), (3,)), 3, False),
    "correlate": (lambda m, a, b: m.correlate(a, b, "same"), ((6,), (3,)), 3, False),
    "matmul": (lambda m, a, b: m.matmul(a, b), ((2, 3, 4), (4, 2)), 4, False),
    "dot": (lambda m, a, b: m.dot(a, b), ((3, 4), (4,)), 4, False),
}
PRODUCT_DTYPES = [np.int32, np.float32, np.float64, np.complex64, np.complex128]


@pytest.mark.parametrize("dtype", PRODUCT_DTYPES, ids=str)
@pytest.mark.parametrize("name", list(PRODUCTS))
def test_products_special_values_and_layouts(name, dtype):
    f, (sa, sb), terms, pure = PRODUCTS[name]
    b = special_sample(dtype, sb, seed=2, density=0.3)
    if name in ("convolve", "correlate"):
        # only finite specials (-0.0) here: an infinite or NaN element reaches every edge
        # output as NaN (test_convolve_edges_of_nonfinite_inputs, a known difference)
        b = np.where(np.isfinite(b), b, 3).astype(dtype)
    for lay, na, ga in variants(dtype, sa, seed=1):
        if name in ("convolve", "correlate"):
            na = np.where(np.isfinite(na), na, 3).astype(dtype)
            ga = gp.asarray(na)
        if lay == "broadcast" and name in ("convolve", "correlate", "vdot", "outer"):
            continue                                 # 1-D: a broadcast row is the same
        sc = _mag(na, b) ** 2 * terms
        same_outcome(lambda: f(gp, ga, gp.asarray(b)), lambda: f(np, na, b), scale=sc,
                     signed_zero=pure)
    # the other operand non-contiguous, and empty operands
    nb, gb = layout_pair(b, "reversed")
    na = special_sample(dtype, sa, seed=3, density=0.3)
    if name in ("convolve", "correlate"):
        na = np.where(np.isfinite(na), na, 3).astype(dtype)
    same_outcome(lambda: f(gp, gp.asarray(na), gb), lambda: f(np, na, nb),
                 scale=_mag(na, b) ** 2 * terms, signed_zero=pure)


# Known differences found by these inputs (issue 21), pinned by strict xfails so a fix is
# noticed (then drop the exclusions above and below):
@pytest.mark.xfail(strict=True, reason="convolve/correlate: a non-finite element makes the "
                                       "edge outputs NaN (0 * inf in the padded terms) "
                                       "where NumPy sums only the overlapping terms "
                                       "(gnumpy/_api/products/products.py _full_convolution)")
@pytest.mark.parametrize("f", ["convolve", "correlate"])
def test_convolve_edges_of_nonfinite_inputs(f):
    a, v = np.array([1.0, 2.0, 3.0, 4.0]), np.array([np.nan, -np.inf, np.inf])
    check(getattr(gp, f)(gp.asarray(a), gp.asarray(v), "full"),
          getattr(np, f)(a, v, "full"))


@pytest.mark.xfail(strict=True, reason="nanquantile of an all-NaN input with an array q: "
                                       "NumPy returns the input's dtype (its all-NaN path), "
                                       "gnumpy float64 (gnumpy/_api/reductions/statistics.py)")
def test_nanquantile_all_nan_dtype():
    a = np.array([np.nan, np.nan], np.float32)
    check(nw(gp.nanquantile, gp.asarray(a), [0.25, 1.0]), nw(np.nanquantile, a, [0.25, 1.0]))


@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.int64], ids=str)
def test_products_of_zeros_keep_numpys_sign(dtype):
    # pure products of signed zeros: the sign is IEEE's, the same everywhere
    z = np.array([-0.0, 0.0, -0.0]).astype(dtype)
    w = np.array([1.0, -1.0]).astype(dtype)
    for f in (np.outer, np.kron, np.multiply.outer):
        g = getattr(gp, f.__name__) if f is not np.multiply.outer else gp.multiply.outer
        check(g(gp.asarray(z), gp.asarray(w)), f(z, w))


@pytest.mark.parametrize("name", ["matmul", "dot", "inner", "tensordot", "kron", "outer"])
def test_products_empty_and_0d(name):
    f, (sa, sb), _, _ = PRODUCTS[name]
    cases = [((0,) + sa[1:], sb)]
    if name in ("kron", "outer", "dot", "inner", "tensordot"):
        cases.append(((), sb))
    for ea, eb in cases:
        a = special_sample(np.float64, ea, seed=4)
        b = special_sample(np.float64, eb, seed=5)
        same_outcome(lambda: f(gp, gp.asarray(a), gp.asarray(b)), lambda: f(np, a, b),
                     scale=_mag(a, b) ** 2 * 12, signed_zero=False)


# ====================================================================== manipulation / joining

# name -> function of the library module and one operand (2-D, at least 3 x 4); every one
# moves values without computing, so results compare exactly (NaN payloads aside)
MANIPULATION = {
    "concatenate": lambda m, a: m.concatenate([a, a[::-1]], axis=0),
    "concatenate_none": lambda m, a: m.concatenate([a, a.T], axis=None),
    "stack": lambda m, a: m.stack([a, a[:, ::-1]], axis=-1),
    "hstack": lambda m, a: m.hstack([a, a]),
    "vstack": lambda m, a: m.vstack([a, a[:1]]),
    "flip": lambda m, a: m.flip(a),
    "roll": lambda m, a: m.roll(a, 2, axis=0),
    "repeat": lambda m, a: m.repeat(a, 2, axis=1),
    "tile": lambda m, a: m.tile(a, (2, 1)),
    "pad_reflect": lambda m, a: m.pad(a, 1, mode="reflect"),
    "pad_constant": lambda m, a: m.pad(a, ((1, 0), (0, 2))),
    "rot90": lambda m, a: m.rot90(a),
    "swapaxes_copy": lambda m, a: m.ascontiguousarray(m.swapaxes(a, 0, 1)),
    "ravel_F": lambda m, a: m.ravel(a, order="F"),
    "diagonal": lambda m, a: m.diagonal(a, 1).copy(),
    "triu": lambda m, a: m.triu(a, -1),
    "append": lambda m, a: m.append(a, a[:1], axis=0),
    "insert": lambda m, a: m.insert(a, 1, a[:, 0], axis=1),
    "delete": lambda m, a: m.delete(a, [0, 2], axis=1),
    "split": lambda m, a: tuple(m.array_split(a, 3, axis=1)),
    "where": lambda m, a: m.where(m.ones(a.shape[1], bool)[::-1], a, a[::-1]),
    "take": lambda m, a: m.take(a, [2, 0, 0, -1], axis=1),
    "broadcast_to": lambda m, a: m.ascontiguousarray(m.broadcast_to(a[:, None], (3, 2, 4))),
}


@pytest.mark.parametrize("dtype", DTYPES, ids=[str(d) for d in DTYPES])
@pytest.mark.parametrize("name", list(MANIPULATION))
def test_manipulation_every_dtype_special_values_and_layouts(name, dtype):
    f = MANIPULATION[name]
    # contiguous and one other layout per (function, dtype), every layout over the table
    # (all six for each would compile many kernels on a cold CPU CI machine)
    i = list(MANIPULATION).index(name) + DTYPES.index(np.dtype(dtype))
    for lay, na, ga in variants(dtype, (3, 4), seed=6,
                                layouts=("contiguous", LAYOUTS[1 + i % (len(LAYOUTS) - 1)])):
        same_outcome(lambda: f(gp, ga), lambda: f(np, na), exact=True)


@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.complex128, np.bool_], ids=str)
def test_joining_empty_and_0d(dtype):
    for shape in [(0, 4), (3, 0)]:
        a = special_sample(dtype, shape, seed=7)
        for name in ("concatenate", "stack", "hstack", "vstack", "flip", "roll", "tile",
                     "repeat", "append", "delete"):
            f = MANIPULATION[name]
            same_outcome(lambda: f(gp, gp.asarray(a)), lambda: f(np, a), exact=True)
    z = special_sample(dtype, (), seed=8)
    for f in (lambda m, x: m.stack([x, x]), lambda m, x: m.atleast_2d(x),
              lambda m, x: m.concatenate([m.atleast_1d(x)] * 2), lambda m, x: m.flip(x),
              lambda m, x: m.roll(x, 1), lambda m, x: m.tile(x, 3),
              lambda m, x: m.repeat(x, 2), lambda m, x: m.append(x, x)):
        same_outcome(lambda: f(gp, gp.asarray(z)), lambda: f(np, z), exact=True)


# ====================================================================== sets

SETS = {
    "unique": lambda m, a, b: m.unique(a),
    "unique_flags": lambda m, a, b: m.unique(a, return_index=True, return_inverse=True,
                                             return_counts=True),
    "unique_axis0": lambda m, a, b: m.unique(a, axis=0),
    "isin": lambda m, a, b: m.isin(a, b),
    "isin_invert": lambda m, a, b: m.isin(a, b, invert=True),
    "union1d": lambda m, a, b: m.union1d(a, b),
    "intersect1d": lambda m, a, b: m.intersect1d(a, b),
    "intersect1d_indices": lambda m, a, b: m.intersect1d(a.ravel(), b.ravel(),
                                                         return_indices=True),
    "setdiff1d": lambda m, a, b: m.setdiff1d(a, b),
    "setxor1d": lambda m, a, b: m.setxor1d(a, b),
}


@pytest.mark.parametrize("dtype", [np.int16, np.uint8, np.float32, np.float64, np.complex64,
                                   np.bool_], ids=str)
@pytest.mark.parametrize("name", list(SETS))
def test_sets_non_contiguous(name, dtype):
    f = SETS[name]
    dt = np.dtype(dtype)
    # repeated values so the sets have work; floats get NaN/inf/-0 (complex none: which
    # NaN unique keeps is unspecified)
    rng = np.random.default_rng(9)
    base = rng.integers(0, 5, (4, 6)).astype(dtype)
    if dt.kind == "f":
        base.reshape(-1)[rng.permutation(24)[:6]] = np.resize(specials(dtype), 6)
    other = np.concatenate([base.ravel()[::3], np.array([7], dtype)])
    for lay in LAYOUTS:
        na, ga = layout_pair(base, lay)
        nb, gb = layout_pair(other, "reversed" if lay != "contiguous" else "strided")
        # which of -0.0 and +0.0 a set keeps is unspecified (NumPy's sort orders them as it
        # meets them)
        same_outcome(lambda: f(gp, ga, gb), lambda: f(np, na, nb), exact=True,
                     signed_zero=False)


# ====================================================================== median / quantiles

ORDER_STATS = {
    "median": lambda m, a, **k: m.median(a, **k),
    "nanmedian": lambda m, a, **k: m.nanmedian(a, **k),
    "quantile": lambda m, a, **k: m.quantile(a, 0.3, **k),
    "quantile_list": lambda m, a, **k: m.quantile(a, [0.0, 0.5, 1.0], **k),
    "quantile_lower": lambda m, a, **k: m.quantile(a, 0.7, method="lower", **k),
    "percentile": lambda m, a, **k: m.percentile(a, 75, **k),
    "nanquantile": lambda m, a, **k: m.nanquantile(a, [0.25, 1.0], **k),
    "nanpercentile": lambda m, a, **k: m.nanpercentile(a, 50, method="midpoint", **k),
}


@pytest.mark.parametrize("name", list(ORDER_STATS))
def test_order_statistics_of_0d_inputs(name):
    f = ORDER_STATS[name]
    for dtype in (np.float16, np.float64, np.uint8, np.bool_):
        for v in [2.5] + list(specials(dtype)):
            a = np.asarray(v).astype(dtype)
            # known differences (strict xfails above): nanmedian's -0.0, nanquantile's
            # dtype for an all-NaN input
            ck = {"signed_zero": name != "nanmedian",
                  "check_dtype": not (name == "nanquantile" and np.isnan(a).all()
                                      if a.dtype.kind == "f" else False)}
            for kw in ({}, {"axis": None}, {"keepdims": True}, {"axis": 0}, {"axis": -1}):
                same_outcome(lambda: f(gp, gp.asarray(a), **kw), lambda: f(np, a, **kw),
                             **ck)
            # and a lazy 0-d input
            b = np.asarray(v).astype(dtype)
            _, gb = layout_pair(b, "lazy")
            same_outcome(lambda: f(gp, gb), lambda: f(np, b), **ck)
