"""All of gnumpy's options and environment variables, in one place.

Nothing else in the package reads ``os.environ``.  Each option declares whether it changes
generated code; those options are folded into kernel cache keys by ``codegen_items()``.

Use ``gnumpy.config.<name>`` to read an option, ``gnumpy.config.set(name=value)`` to change
it, or ``with gnumpy.config.override(name=value):`` to change it for a block.
"""
from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from typing import Any, Callable
from ._nvtx import require_nvtx


@dataclass(frozen=True)
class Option:
    name: str
    env: str | None
    default: Any
    parse: Callable[[str], Any]
    codegen: bool          # True: the value changes generated CUDA code (part of cache keys)
    doc: str
    check: Callable[[Any], None] | None = None   # raises when a value cannot be used


def _bool(s: str) -> bool:
    return s.strip().lower() in ("1", "true", "yes", "on")


def _nvtx_check(on) -> None:
    require_nvtx(bool(on))


_HINTS = frozenset(("L2::64B", "L2::128B", "L2::256B", "lcs"))


def _hints_check(value) -> None:
    if not isinstance(value, str) or not all(h in _HINTS for h in value.split(",") if h):
        raise ValueError(f"reduce_mem_hints must be '' or a comma list of "
                         f"{sorted(_HINTS)}, not {value!r}")


def _cache_dir_default() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "gnumpy")


_OPTIONS = [
    Option("device", "GNUMPY_DEVICE", "auto", str, False,
           "'auto' (CUDA when a GPU and driver are usable, else CPU), 'cpu' or 'cuda'."),
    Option("max_graph_nodes", "GNUMPY_MAX_GRAPH_NODES", 384, int, False,
           "A lazy expression larger than this many nodes is materialized when it is built "
           "(bounds memory and recursion in long Python loops)."),
    Option("max_scalar_graph_nodes", "GNUMPY_MAX_SCALAR_GRAPH_NODES", 8, int, False,
           "A lazy 0-d expression whose elementwise chain (above its reductions and "
           "leaves) is longer than this is materialized when it is built: a scalar "
           "recurrence in a loop (beta *= 1 - alpha**2) would otherwise be recomputed "
           "whole by every kernel that reads it."),
    Option("allow_implicit_host", "GNUMPY_ALLOW_IMPLICIT_HOST", True, _bool, False,
           "False makes implicit device-to-host conversion (__array__, numpy calls) raise "
           "TypeError, as CuPy does; .get() and gnumpy.asnumpy() always work."),
    Option("cache_dir", "GNUMPY_CACHE_DIR", None, str, False,
           "Directory of the on-disk kernel cache (default: <user cache dir>/gnumpy)."),
    Option("disk_cache", "GNUMPY_DISK_CACHE", True, _bool, False,
           "Use the on-disk cubin cache."),
    Option("disk_cache_max_bytes", "GNUMPY_DISK_CACHE_MAX_BYTES", 1 << 30, int, False,
           "Size bound of the on-disk kernel cache; least recently used entries are evicted."),
    Option("pool_limit", "GNUMPY_POOL_LIMIT", 0, int, False,
           "Upper bound in bytes on device memory taken from the pool (0: no limit)."),
    Option("check_kernels", "GNUMPY_CHECK_KERNELS", "", lambda s: "" if s.strip().lower() in
           ("0", "false", "no", "off") else s.strip().lower(), False,
           "CPU backend: also render and NVRTC-compile (sm_90) the CUDA kernels of the groups "
           "it runs: '1'/'cover' compiles every new code fragment, 'all' every distinct "
           "kernel (how CPU-only CI checks the CUDA code generator)."),
    # block 512 x unroll 4: the best pair for SAXPY and the 7-op expression (bench/sweep.py;
    # the numbers of every tuned default: docs/perf-notes.md, "Measurements behind the
    # defaults")
    Option("block_size", "GNUMPY_BLOCK_SIZE", 512, int, True,
           "Threads per block of elementwise and reduction kernels."),
    Option("col_lanes", "GNUMPY_COL_LANES", 0, int, True,
           "Most row lanes per block of a column reduction (threads walking interleaved "
           "rows of the same columns; the rest of the block spans columns); 0: 16 for "
           "var/std, 2 for the others (bench/sweep.py --columns)."),
    Option("ew_unroll", "GNUMPY_EW_UNROLL", 4, int, True,
           "16-byte vectors each thread loads per operand and loop iteration (elementwise)."),
    # 64: the best of 0-256 over stencils of 2-31 views and hdiff (bench/many_inputs.py)
    Option("ew_held_regs", "GNUMPY_EW_HELD_REGS", 64, int, True,
           "32-bit registers a thread of a vectorized elementwise kernel may fill with "
           "its loaded input vectors and operand offsets per iteration: a kernel of many "
           "inputs (a stencil of stencils) unrolls less to stay within it, and loads "
           "narrower vectors to stay within twice it (0: no bound)."),
    Option("ew_columns", "GNUMPY_EW_COLUMNS", True, _bool, True,
           "2-D elementwise kernels with an operand broadcast across rows walk rows per "
           "column thread, loading the broadcast operand once per thread."),
    # tiles beat vectors a grid-stride apart for SAXPY and the 7-op expression
    # (bench/sweep.py --tiles)
    Option("ew_tiles", "GNUMPY_EW_TILES", True, _bool, True,
           "Vectorized elementwise loops: each block takes block_size x ew_unroll contiguous "
           "vectors per step (tiles); False: ew_unroll vectors a grid-stride apart."),
    # 1024 x 1 is faster for SAXPY and slower for transcendentals (bench/sweep.py --saxpy)
    Option("ew_light", "GNUMPY_EW_LIGHT", True, _bool, True,
           "Light 1-D vectorized elementwise kernels (at most 4 adds, subtracts, multiplies, "
           "negations, comparisons, selects, min/max or casts per element) run 1024-thread "
           "blocks with one vector per operand per thread; others block_size x ew_unroll."),
    Option("fast_stages", "GNUMPY_FAST_STAGES", 4, int, False,
           "The launch fast path also replays materializations of up to this many kernels "
           "(a reduction and the elementwise pass reading it) without scheduling and "
           "planning again; 1: single kernels only."),
    Option("fast_programs", "GNUMPY_FAST_PROGRAMS", True, _bool, False,
           "The launch fast path also replays materializations with library calls in them "
           "(a product and the elementwise work around it) as a whole: one walk of the "
           "graph, no schedule, the calls made on the new graph's nodes."),
    Option("linalg_small_n", "GNUMPY_LINALG_SMALL_N", 64, int, False,
           "CUDA solve, inv, det, slogdet, cholesky and qr of matrices up to this order "
           "(at most 64; 54 for complex; one matrix's qr up to 32) run gnumpy's one-launch "
           "LU, Cholesky and QR kernels, one block per matrix of the stack, instead of "
           "cuSOLVER's calls per matrix; 0: cuSOLVER always."),
    Option("fma", "GNUMPY_FMA", False, _bool, True,
           "Let NVRTC contract a multiply and an add into one FMA (one rounding).  Off by "
           "default: NumPy rounds each op, and a fused a*x + b would differ by an ulp "
           "(linspace and histogram bin edges are compared exactly)."),
    Option("fuse_rows", "GNUMPY_FUSE_ROWS", True, _bool, False,
           "Fuse reductions along the last axis with the elementwise work that reads them "
           "back across the row into one kernel, one block per row (softmax: one read of "
           "the input instead of three)."),
    Option("fuse_siblings", "GNUMPY_FUSE_SIBLINGS", True, _bool, False,
           "Share work between reductions of one input: identical reductions run once, a "
           "float sum comes off the var0 accumulator of the same input and axes (x.mean(0) "
           "and x.std(0) in one kernel, one read of x), and small results of column "
           "reductions read through a broadcast (sum / n, sqrt(var0)) are written once by "
           "the reduction instead of recomputed per element."),
    Option("row_online", "GNUMPY_ROW_ONLINE", True, _bool, True,
           "Row groups run a max phase and the phase summing exp(x - max) that reads it "
           "(softmax, logsumexp) as one pass over the row: a running max and a sum of "
           "exp(x - max) rescaled when the max grows, so the row is walked once less."),
    # faster for softmax's long rows than re-reading L2 (bench/sweep.py --rows)
    Option("row_registers", "GNUMPY_ROW_REGISTERS", True, _bool, True,
           "Row groups keep each thread's part of the row in registers after the first "
           "pass (rows up to 8 vectors per thread), instead of re-reading it from L2."),
    # L2::128B is faster than no hint for sum and sum((x-y)**2) (bench/sweep.py --hints)
    Option("reduce_mem_hints", "GNUMPY_REDUCE_MEM_HINTS", "L2::128B", str, True,
           "Cache hints on the 16-byte vector loads of reductions along a contiguous axis: "
           "'' (none) or a comma list of 'L2::64B' / 'L2::128B' / 'L2::256B' (L2 prefetch "
           "size) and 'lcs' (evict-first).  The value is spliced into inline PTX, so "
           "nothing else is accepted.", check=_hints_check),
    Option("vector_loads", "GNUMPY_VECTOR_LOADS", True, _bool, True,
           "Use 16-byte vector loads and stores on contiguous, aligned data."),
    Option("nvtx", "GNUMPY_NVTX", False, _bool, False,
           "Wrap every materialization, group of kernels and library call in an NVTX range "
           "named after what runs, for Nsight Systems (gnumpy.profiler); needs an NVTX "
           "binding: NVIDIA's nvtx package, CuPy or PyTorch.", check=_nvtx_check),
]

_BY_NAME = {o.name: o for o in _OPTIONS}


class Config:
    """The live option values (read from the environment once, at import)."""

    def __init__(self) -> None:
        values = {}
        for o in _OPTIONS:
            raw = os.environ.get(o.env) if o.env else None
            values[o.name] = o.parse(raw) if raw not in (None, "") else o.default
            if raw not in (None, "") and o.check is not None and o.name != "nvtx":
                o.check(values[o.name])     # a bad value in the environment fails here
        if values["cache_dir"] is None:
            values["cache_dir"] = _cache_dir_default()
        object.__setattr__(self, "_values", values)
        object.__setattr__(self, "_generation", 0)
        self._publish()

    def _publish(self) -> None:
        # values are plain instance attributes: reading an option costs one lookup
        for k, v in self._values.items():
            object.__setattr__(self, k, v)
        object.__setattr__(self, "_codegen", tuple(
            (o.name, self._values[o.name]) for o in _OPTIONS if o.codegen))

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"gnumpy.config has no option {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        self.set(**{name: value})

    def set(self, **kw: Any) -> None:
        """Change options for the rest of the process.

        Parameters
        ----------
        **kw
            ``name=value`` for each option to change; the names are those of
            ``gnumpy.config.describe()`` (the environment variables' names without the
            ``GNUMPY_`` prefix, in lower case).  Values are used as given (not parsed as
            the environment's strings are).

        Raises
        ------
        AttributeError
            For a name that is not an option (no option is changed then).
        RuntimeError
            When a value cannot be used here, e.g. ``nvtx=True`` without an NVTX binding.

        See Also
        --------
        override : change options for a ``with`` block only.

        Notes
        -----
        Options that change generated code (``block_size``, ``fma``, ...) are part of the
        kernel cache keys, so new values compile new kernels; nothing compiled before is
        lost.  ``device`` takes effect only before the first array is made (the default
        device is chosen once): set ``GNUMPY_DEVICE`` or pass ``device=`` instead.

        Examples
        --------
        >>> import gnumpy as gp
        >>> gp.config.set(max_graph_nodes=1000)
        >>> gp.config.max_graph_nodes
        1000
        >>> gp.config.set(max_graph_nodes=384)
        """
        for name, value in kw.items():
            if name not in _BY_NAME:
                raise AttributeError(f"gnumpy.config has no option {name!r}")
        for name, value in kw.items():
            check = _BY_NAME[name].check
            if check is not None:
                check(value)
        for name, value in kw.items():
            self._values[name] = value
        object.__setattr__(self, "_generation", self._generation + 1)
        self._publish()

    @contextlib.contextmanager
    def override(self, **kw: Any):
        old = {k: self._values[k] for k in kw if k in _BY_NAME}
        self.set(**kw)
        try:
            yield self
        finally:
            self.set(**old)

    def codegen_items(self) -> tuple:
        """(name, value) of every option that changes generated code, for cache keys."""
        return self._codegen

    def describe(self) -> str:
        return "\n".join(f"{o.name} = {self._values[o.name]!r}  ({o.env}): {o.doc}"
                         for o in _OPTIONS)

    def __repr__(self) -> str:
        return "gnumpy.config(" + ", ".join(f"{k}={v!r}" for k, v in self._values.items()) + ")"


config = Config()
