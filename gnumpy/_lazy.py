"""The lazy half of the ``gnumpy`` namespace: which module defines each name, imported when
the name is first used, and the error for the names gnumpy lacks.

``import gnumpy`` loads the array type, the op table, the elementwise layer and the ufuncs.
Every other function, and the submodules ``random``, ``linalg``, ``fft``, ``cuda`` and
``profiler``, is imported on first access through the package's module ``__getattr__``
(PEP 562) and then bound in the package, so later accesses cost nothing.  This keeps
``import gnumpy`` close to ``import numpy`` in time.

A name NumPy has and gnumpy lacks raises ``AttributeError`` saying so and pointing to
docs/coverage.md; a name NumPy lacks too keeps Python's plain message.
"""
from __future__ import annotations

import importlib
import importlib.util
import sys

# module (relative to gnumpy) -> the names it gives the namespace ("alias=name" renames)
_FROM = {
    "_info": "show_config",
    "profiler": "benchmark",
    "_api.creation.creation": (
        "arange array asarray asnumpy copy empty empty_like eye full "
        "full_like identity linspace logspace meshgrid ones ones_like tri tril triu zeros "
        "zeros_like"),
    "_api.creation.interop": (
        "from_dlpack"),
    "_api.info": (
        "__array_namespace_info__"),
    "_api.indexing.advanced": (
        "choose compress extract place put put_along_axis putmask take take_along_axis"),
    "_api.indexing.index_tricks": (
        "argwhere diag_indices diag_indices_from flatnonzero ix_ nonzero "
        "ravel_multi_index unravel_index"),
    "_api.creation.grids": (
        "c_ index_exp mgrid ogrid r_ s_"),
    # (concat is concatenate, as NumPy 2's is: NumPy's positional axis, out=, dtype=, casting=)
    "_api.shape.manipulation": (
        "broadcast_arrays broadcast_to concat=concatenate concatenate expand_dims "
        "matrix_transpose moveaxis permute_dims ravel reshape squeeze stack swapaxes transpose"),
    "_api.shape.shaping": (
        "ascontiguousarray asfortranarray broadcast_shapes flip fliplr flipud repeat "
        "require resize roll rollaxis rot90 tile"),
    "_api.shape.joining": (
        "append array_split atleast_1d atleast_2d atleast_3d block column_stack dsplit "
        "dstack hsplit hstack row_stack split unstack vsplit vstack"),
    "_api.shape.padding": (
        "pad"),
    "_api.elementwise.bits": (
        "packbits unpackbits"),
    "_api.elementwise.functional": (
        "apply_along_axis apply_over_axes"),
    "_api.products.polynomial": (
        "poly polyadd polyder polydiv polyfit polyint polymul polysub roots"),
    "_api.io.npyio": (
        "frombuffer fromfile fromiter fromregex fromstring genfromtxt load loadtxt save "
        "savetxt savez savez_compressed"),
    "_api.io.printing": (
        "array2string array_repr array_str base_repr binary_repr format_float_positional "
        "format_float_scientific get_printoptions printoptions set_printoptions"),
    "_api.shape.editing": (
        "copyto delete insert trim_zeros"),
    "_api.shape.diagonals": (
        "diag diagflat diagonal fill_diagonal fromfunction indices mask_indices trace "
        "tril_indices tril_indices_from triu_indices triu_indices_from"),
    "_api.products.matmul": (
        "matmul matvec vecdot vecmat"),
    "_api.reductions.nanfunctions": (
        "nanargmax nanargmin nancumprod nancumsum nanmax nanmean nanmin nanprod nanstd "
        "nansum nanvar"),
    "_api.elementwise.logic": (
        "allclose array_equal array_equiv iscomplex iscomplexobj isclose isfortran "
        "isneginf isposinf isreal isrealobj iterable may_share_memory piecewise "
        "real_if_close select shares_memory"),
    "_api.elementwise.mathmisc": (
        "angle ediff1d fix geomspace gradient i0 nan_to_num polyval sinc trapezoid unwrap "
        "vander"),
    "_api.creation.windows": (
        "bartlett blackman hamming hanning kaiser"),
    "_api.reductions.moments": (
        "average corrcoef cov ptp"),
    "_api.products.products": (
        "convolve correlate cross dot inner kron outer tensordot vdot"),
    "_api.products.einsum": (
        "einsum einsum_path"),
    "_api.elementwise.interpolation": (
        "interp"),
    "_numpy_compat": (
        "False_ True_ asanyarray asarray_chkfinite character common_type errstate "
        "exceptions flexible getbufsize geterr geterrcall little_endian long "
        "min_scalar_type mintypecode promote_types setbufsize seterr seterrcall typecodes "
        "typename ulong"),
    "_api.reductions.reductions": (
        "all any argmax argmin count_nonzero max mean min prod std sum var amax=max "
        "amin=min"),
    "_api.reductions.scans": (
        "cumprod cumsum cumulative_prod cumulative_sum diff"),
    "_api.sorting.sorting": (
        "argpartition argsort lexsort partition searchsorted sort sort_complex"),
    "_api.sorting.sets": (
        "intersect1d isin setdiff1d setxor1d union1d unique unique_all unique_counts "
        "unique_inverse unique_values"),
    "_api.reductions.statistics": (
        "median nanmedian nanpercentile nanquantile percentile quantile"),
    "_api.reductions.histograms": (
        "bincount digitize histogram histogram_bin_edges"),
    "_api.reductions.histogramdd": (
        "histogram2d histogramdd"),
}

# submodules loaded on first use: namespace name -> module (relative to gnumpy)
_MODULES = {"random": "random", "linalg": "linalg", "fft": "fft", "cuda": "cuda",
            "testing": "testing", "profiler": "profiler",
            "_indexing": "_api.indexing.indexing", "_interop": "_api.creation.interop",
            "_elementwise": "_api.elementwise.elementwise",
            "_resolution": "_api.elementwise.resolution", "_common": "_api._common",
            "_array_methods": "_api.array_methods"}

# NumPy names for data gnumpy arrays never hold
_NO_DTYPE = frozenset({"str_", "bytes_", "object_", "void", "datetime64", "timedelta64",
                       "datetime_data", "busday_count", "busday_offset", "busdaycalendar",
                       "is_busday", "datetime_as_string", "recarray", "record", "rec",
                       "char", "strings", "chararray"})

LAZY = {}
for _mod, _names in _FROM.items():
    for _n in _names.split():
        _alias, _, _real = _n.partition("=")
        LAZY[_alias] = (_mod, _real or _alias)
del _mod, _names, _n, _alias, _real

_numpy_names = []


def _numpy_has(name: str) -> bool:
    if not _numpy_names:
        import numpy
        _numpy_names.append(frozenset(dir(numpy)))
    return name in _numpy_names[0]


def package():
    """The gnumpy package: the namespace, looked up by name (while the package's
    ``__init__`` runs too, it is the module object the import is filling in)."""
    return sys.modules[__package__]


def load(name: str):
    """The namespace attribute `name`: imported, bound in the package, returned."""
    pkg = package()
    hit = LAZY.get(name)
    if hit is not None:
        value = getattr(importlib.import_module("." + hit[0], __package__), hit[1])
        setattr(pkg, name, value)
        return value
    mod = _MODULES.get(name)
    if mod is not None:
        full = f"{__package__}.{mod}"
        try:
            value = importlib.import_module(full)
        except ModuleNotFoundError as e:
            if e.name != full:
                raise
        else:
            setattr(pkg, name, value)
            return value
    raise missing(name)


def missing(name: str) -> AttributeError:
    """The AttributeError for a name the gnumpy namespace lacks."""
    msg = f"module {__package__!r} has no attribute {name!r}"
    if not name.startswith("_") and _numpy_has(name):
        if name in _NO_DTYPE:
            msg += (f": gnumpy does not implement numpy.{name} (gnumpy arrays hold booleans, "
                    "integers, floating-point and complex numbers only; no strings, objects "
                    "or dates); see docs/coverage.md")
        else:
            msg += (f": gnumpy does not implement numpy.{name} (yet); docs/coverage.md lists "
                    "what it covers")
    return AttributeError(msg, name=name, obj=package())


def public_names() -> list:
    """Every public name of the namespace, loaded or not (the package's ``__all__``, computed
    once at the end of its ``__init__``)."""
    pkg = package()
    names = {n for n, v in vars(pkg).items()
             if not n.startswith("_") and n != "annotations"
             and not (type(v) is type(sys) and n not in _MODULES)}
    names.update(n for n in LAZY if not n.startswith("_"))
    names.update(n for n in _MODULES if not n.startswith("_")
                 and importlib.util.find_spec(f"{__package__}.{n}") is not None)
    return sorted(names)


def namespace_dir() -> list:
    """``dir(gnumpy)``: the public names and the dunders (``__version__``, ...), not the
    package's private modules and helpers."""
    pkg = package()
    dunders = {n for n in vars(pkg) if n.startswith("__") and n.endswith("__")}
    return sorted(dunders | set(getattr(pkg, "__all__", ())) | set(LAZY))
