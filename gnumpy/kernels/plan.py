"""The plan protocol of the fused-kernel renderers (render_ew, render_reduce, render_rows).

A renderer's ``plan(spec, ...)`` makes every structural decision (index width, vector
width, strategy, block, splits, and whatever config options it reads) and returns a
``Plan``: the launch values of one call (sizes, strides, offsets, grid) plus ``key``.

The key is a ``NamedTuple`` of named, typed fields, one class per renderer (``EwKey``,
``ReduceKey``, ``RowsKey``), holding everything the generated source depends on: a
``SpecKey`` (the spec's skeleton: expressions, dtypes, operand kinds and index-level
ranks, scalar dtypes; no sizes, strides, offsets or values) and the renderer's decisions.

The invariant "every option that changes the source is part of the key" holds by
construction, not by a list kept by hand:

* the source is rendered from the key alone: ``Plan.source(name)`` is
  ``key.render(name)``, and a renderer's ``render(key, name)`` is handed no plan, no spec
  and no option.  A decision the renderer needs must be a key field, or it cannot reach it;
* a key class has no defaults, so building one without a field fails;
* rendering reads no config: options are read while planning and recorded as key fields
  (tests/test_plan_keys.py renders with every config read raising, and checks that no
  option changes a kernel's source without changing its key).

So equal keys render equal sources, and the in-memory kernel cache (``build.KernelCache``)
can serve a kernel by key without rendering it.

The fixed-function kernels (scans, the integer matmul, gather/scatter and ``ufunc.at``,
nonzero, the sort family, random bits) are templates over a few values (dtypes, item
sizes, ranks), planned by their backend code: their key is a ``FixedKey``, the render
function and every argument it takes but the kernel's name, and it renders itself the
same way (``FixedKey.render(name)`` calls the function with those arguments only).
"""
from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from .launch import resolve


class OperandKey(NamedTuple):
    """What the source sees of an operand: its kind ('in' / 'iota' / 'out'), dtype,
    iteration space, and the rank of each reshape level after the first (levels[1:])."""
    kind: str
    dtype: np.dtype
    space: str
    ranks: tuple


class SpecKey(NamedTuple):
    """What the source sees of a spec (lower.Spec): the expression DAG, the operands and
    outputs, the scalars' dtypes, and the reduction (rop, acc expr, input dtype, output
    dtype) of a reduce spec or of each phase of a rows spec."""
    kind: str
    exprs: tuple
    dtypes: tuple
    operands: tuple             # OperandKey
    outputs: tuple              # (expr index, OperandKey)
    scalar_dtypes: tuple
    reduce: tuple               # reduce: (rop, acc expr, input dtype, output dtype); else ()
    phases: tuple               # rows: one (rop, acc expr, input dtype, output dtype) each


def operand_key(o) -> OperandKey:
    return OperandKey(o.kind, o.dtype, o.space, tuple(len(lv[0]) for lv in o.levels[1:]))


def _reduction(rop, acc_e, node) -> tuple:
    return (rop, acc_e, node.srcs[0].dtype, node.dtype)


def spec_key(spec) -> SpecKey:
    return SpecKey(
        spec.kind, tuple(spec.exprs), tuple(spec.dtypes),
        tuple(operand_key(o) for o in spec.operands),
        tuple((e, operand_key(o)) for e, o in spec.outputs),
        tuple(dt for dt, _ in spec.scalars),
        _reduction(*spec.reduce) if spec.reduce is not None else (),
        tuple(_reduction(*ph) for ph in spec.phases))


def skeleton(key) -> tuple:
    """`key` without the expressions and their dtypes: the kernel's structure alone
    (check.py compiles one kernel per new structure or new op)."""
    return key._replace(spec=key.spec._replace(exprs=(), dtypes=()))


class Plan:
    """One launch of a fused kernel: `spec` and `key`, plus the renderer's runtime fields.

    The backends call only this interface (cuda.py, cuda_replay.py)."""

    __slots__ = ("spec", "key")

    def source(self, name: str) -> str:
        """The kernel's CUDA source, rendered from the key alone."""
        return self.key.render(name)

    def template(self) -> list:
        """Kernel arguments in declaration order, as a replayable template (launch.py)."""
        raise NotImplementedError

    def args(self, ptr_of, partials_ptr=0, counters_ptr=0) -> list:
        return resolve(self.template(), ptr_of, [v for _, v in self.spec.scalars],
                       partials_ptr, counters_ptr)

    def launch_dims(self, sm_count: int, blocks_per_sm: int):
        """(grid, block) of the launch."""
        return self.grid, self.block

    def fit(self, resident: int, sm_count: int) -> None:
        """Adjust the launch to the blocks the compiled kernel keeps resident per SM."""

    def partial_bytes(self) -> int:
        """Bytes of the partials buffer of a split reduction (0: none)."""
        return 0

    def counters_needed(self) -> int:
        """Completion counters of a split reduction (0: none)."""
        return 0


class FixedKey(NamedTuple):
    """The key of a fixed-function kernel: its render function (``render_misc``,
    ``render_index``, ``render_sort``, ``render_random``) and the function's arguments but
    the kernel name; nothing else reaches the source."""
    fn: Callable
    args: tuple

    def render(self, name: str) -> str:
        return self.fn(*self.args, name=name)
