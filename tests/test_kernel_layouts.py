"""The index arithmetic of generated kernels, checked without a GPU: how iteration spaces
and gather/scatter operands are collapsed (``kernels.lower.collapse``,
``kernels.render_index.collapse``), the span and stride classes the renderers key on, and
the unravel code the index kernels run, evaluated here line by line.

A wrong merge or a wrong unravel addresses other elements than NumPy's; on the GPU that is a
wrong value, on the CPU backend nothing runs these kernels, so these tests compare the
arithmetic itself with the element offsets enumerated from the shape and strides.
"""
from __future__ import annotations

import itertools
import operator
import re

import numpy as np
import pytest
from hypothesis import given, strategies as st

from gnumpy.kernels import codegen, lower, render_index as RI


def _offsets(shape, strides):
    """Element offsets in C order of the multi-indices of `shape`."""
    return [sum(i * s for i, s in zip(ix, strides))
            for ix in itertools.product(*(range(d) for d in shape))]


@st.composite
def _layouts(draw, nsets_max=3):
    """A shape (sizes 0..4, size-1 dims likely) and stride sets, some C-contiguous over
    runs of dims so that merges happen, some arbitrary (zero, negative)."""
    nd = draw(st.integers(0, 5))
    shape = tuple(draw(st.lists(st.sampled_from([1, 1, 2, 3, 4, 0]), min_size=nd,
                                max_size=nd)))
    sets = []
    for _ in range(draw(st.integers(1, nsets_max))):
        if draw(st.booleans()):
            base = draw(st.sampled_from([1, 2, -1, 3]))
            strides, acc = [], base
            for d in reversed(shape):
                strides.append(acc)
                acc *= max(d, 1) * draw(st.sampled_from([1, 1, 1, 2]))
            sets.append(tuple(reversed(strides)))
        else:
            sets.append(tuple(draw(st.lists(st.integers(-7, 7), min_size=nd,
                                            max_size=nd))))
    groups = tuple(draw(st.lists(st.integers(0, 1), min_size=nd, max_size=nd)))
    return shape, sets, groups


@given(_layouts(), st.booleans())
def test_collapse_addresses_the_same_elements_in_the_same_order(layout, use_groups):
    shape, sets, groups = layout
    cs, csets, cg = lower.collapse(shape, sets, groups if use_groups else None)
    n = int(np.prod(shape))
    assert int(np.prod(cs)) == n
    assert len(csets) == len(sets) and all(len(s) == len(cs) for s in csets)
    assert len(cg) == len(cs)
    if n == 0:
        assert 0 in cs                         # an empty space stays empty
        return
    assert 1 not in cs                         # size-1 dims dropped
    for s, c in zip(sets, csets):
        assert _offsets(cs, c) == _offsets(shape, s)
    g = groups if use_groups else (0,) * len(shape)
    # each group's part of every offset is unchanged (kept and reduced dims stay apart)
    for gg in (0, 1):
        for s, c in zip(sets, csets):
            assert _offsets(cs, [x if k == gg else 0 for x, k in zip(c, cg)]) == \
                _offsets(shape, [x if k == gg else 0 for x, k in zip(s, g)])
    # nothing mergeable is left: neighbours of one group contiguous in every set
    for i in range(len(cs) - 1):
        assert not (cg[i] == cg[i + 1] and all(c[i] == c[i + 1] * cs[i + 1] for c in csets))


def test_collapse_keeps_groups_apart_and_merges_within_them():
    # (4, 3, 2) C-contiguous: one dim without groups, two when the last dim is reduced
    assert lower.collapse((4, 3, 2), [(6, 2, 1)]) == ((24,), [(1,)], (0,))
    assert lower.collapse((4, 3, 2), [(6, 2, 1)], (0, 0, 1)) == ((12, 2), [(2, 1)], (0, 1))
    assert lower.collapse((4, 3, 2), [(6, 2, 1)], (0, 1, 0)) == ((4, 3, 2), [(6, 2, 1)],
                                                                 (0, 1, 0))
    # a merge needs every stride set contiguous across the pair
    assert lower.collapse((4, 3), [(3, 1), (1, 4)]) == ((4, 3), [(3, 1), (1, 4)], (0, 0))
    assert lower.collapse((4, 1, 3), [(3, 99, 1), (0, 5, 0)]) == ((12,), [(1,), (0,)], (0,))
    assert lower.collapse((2, 0, 3), [(5, 3, 1)]) == ((2, 0), [(5, 1)], (0, 0))
    assert lower.collapse((1, 1), [(5, 7)]) == ((), [()], ())


@given(_layouts(nsets_max=1))
def test_index_kernel_collapse_addresses_the_same_elements(layout):
    shape, (strides,), _ = layout
    if 0 in shape:
        return                                 # index kernels never run on empty operands
    cs, cst = RI.collapse(shape, strides)
    assert 1 not in cs and len(cs) == len(cst)
    assert _offsets(cs, cst) == _offsets(shape, strides)
    for i in range(len(cs) - 1):
        assert cst[i] != cs[i + 1] * cst[i + 1]


def test_index_kernel_collapse_examples():
    assert RI.collapse((4, 3, 2), (6, 2, 1)) == ((24,), (1,))
    assert RI.collapse((4, 1, 3), (3, 8, 1)) == ((12,), (1,))
    assert RI.collapse((4, 3), (1, 4)) == ((4, 3), (1, 4))
    assert RI.collapse((2, 3, 4), (24, 4, 1)) == ((2, 12), (24, 1))
    assert RI.collapse((1, 1), (3, 3)) == ((), ())
    assert RI.layout_args((5, 6, 7), (42, 7, 1)) == [6, 7, 42, 7, 1]
    assert RI.layout_decls(3) == (", long long d1, long long d2, long long s0, "
                                  "long long s1, long long s2")
    assert RI.layout_decls(0) == ""


_UPDATE = {"+=": operator.add, "-=": operator.sub, "*=": operator.mul, "/=": operator.floordiv}


def _run_c(lines, env):
    """Evaluate the integer C statements the renderers emit for index arithmetic
    (declarations, ``+=``, ``/=``, ``%``, ``/`` on non-negative values) in Python."""
    code = " ".join(lines) if isinstance(lines, list) else lines
    code = re.sub(r"\b(const\s+)?(long long|int)\s+", "", code)
    for stmt in code.replace("{", ";").replace("}", ";").split(";"):
        stmt = stmt.strip()
        if not stmt:
            continue
        m = re.fullmatch(r"(\w+)\s*([+/*-]?=)\s*(.+)", stmt)
        assert m, stmt
        name, op, expr = m.groups()
        val = eval(re.sub(r"(?<![/])/(?![/=])", "//", expr), {}, env)
        env[name] = val if op == "=" else _UPDATE[op](env[name], val)
    return env


@pytest.mark.parametrize("shape", [(), (7,), (3, 5), (2, 3, 4), (2, 1, 3, 2), (3, 2, 2, 2, 2)])
def test_index_kernel_unravel_finds_each_element(shape):
    """The lines gather/scatter/ufunc.at run: logical C-order index r -> element offset m
    over the collapsed operand (strides with gaps and a negative one)."""
    rng = np.random.default_rng(len(shape))
    strides = tuple(int(s) for s in rng.integers(1, 9, len(shape)) * rng.choice([1, -1],
                                                                                len(shape)))
    cs, cst = RI.collapse(shape, strides)
    src = RI._unravel(len(cs))
    params = dict(zip(["d%d" % j for j in range(1, len(cs))], cs[1:]))
    params.update(zip(["s%d" % j for j in range(len(cs))], cst))
    expect = _offsets(shape, strides)
    for r in range(int(np.prod(shape))):
        env = _run_c(src, dict(params, r=r))
        assert env["m"] == expect[r], (shape, strides, r)


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_elementwise_unravel_lines_split_the_linear_index(n):
    """The element-wise kernels' unravel: linear index i -> i0..i{n-1} in C order."""
    shape = (3, 4, 2, 5, 2)[:n]
    lines = codegen.unravel_lines("i", "d", n, "i", "long long", "r_")
    params = {"d%d" % j: shape[j] for j in range(1, n)}
    for lin, ix in enumerate(itertools.product(*(range(d) for d in shape))):
        env = _run_c(lines, dict(params, i=lin))
        assert tuple(env["i%d" % j] for j in range(n)) == ix
    assert codegen.unravel_lines("i", "d", 0, "i", "int", "r_") == []


def test_offset_expr_skips_broadcast_dims_and_unit_strides():
    assert codegen.offset_expr(("s", "1"), ("a", "b"), ("i0", "i1")) == "i0 * a + i1"
    assert codegen.offset_expr(("z", "s", "z"), ("a", "b", "c"), ("i0", "i1", "i2")) == \
        "i1 * b"
    assert codegen.offset_expr(("z", "z"), ("a", "b"), ("i0", "i1")) == "0"
    assert [lower.stride_class(s) for s in (0, 1, -1, 2)] == ["z", "1", "s", "s"]


@given(_layouts(nsets_max=1))
def test_span_is_the_distance_between_the_extreme_elements(layout):
    shape, (strides,), _ = layout
    offs = _offsets(shape, strides)
    if not offs:
        return
    assert lower.span(shape, strides) == max(offs) - min(offs)
