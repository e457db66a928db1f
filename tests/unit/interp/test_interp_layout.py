"""Affine-map memref layouts on arguments: strided ones are honoured, the rest refused with a code."""

from __future__ import annotations

import pytest

from loom.diagnostics import LoomError
from loom.interp import run_json
from loom.mlir import parse_text
from loom.runtime.layout import affine_strides


@pytest.mark.parametrize(
    ("text", "shape", "want"),
    [
        ("affine_map<(d0, d1) -> (d0 * 4 + d1)>", [3, 4], (0, [4, 1])),
        ("affine_map<(d0, d1) -> (d0, d1)>", [3, 4], (0, [4, 1])),
        ("affine_map<(d0) -> (d0 + 5)>", [3], (5, [1])),
        ("affine_map<(d0, d1) -> (2 * d0 + d1 * 8 + 3)>", [3, 4], (3, [2, 8])),
        ("affine_map<(i, j) -> (j * 3 + i)>", [3, 4], (0, [1, 3])),
        ("affine_map<(d0, d1) -> (d1, d0)>", [3, 4], None),
        ("affine_map<(d0, d1)[s0] -> (d0 * 4 + s0 + d1)>", [3, 4], None),
        ("affine_map<(d0) -> (d0 floordiv 2)>", [4], None),
        ("affine_map<(d0) -> (d0 - 1)>", [4], None),
        ("affine_map<(d0, d1) -> (d0 * d1)>", [2, 2], None),
        ("affine_map<(d0) -> (d0)>", [2, 2], None),
    ],
)
def test_strided_affine_maps(text: str, shape: list[int], want):
    assert affine_strides(text, shape) == want


KERNEL = """
func.func @f(%a: memref<2x3xi32, {layout}>) -> i32 {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = memref.load %a[%c1, %c2] : memref<2x3xi32, {layout}>
  %w = memref.load %a[%c0, %c1] : memref<2x3xi32, {layout}>
  %s = arith.subi %v, %w : i32
  return %s : i32
}}
"""


@pytest.mark.parametrize(
    "layout", ["affine_map<(d0, d1) -> (d0 * 3 + d1)>", "affine_map<(d0, d1) -> (d1 * 2 + d0 + 1)>", "strided<[3, 1]>"]
)
def test_loads_see_the_logical_element_whatever_the_layout(layout: str):
    m = parse_text(KERNEL.format(layout=layout), "l.mlir")
    r = run_json(m, "f", {"a": [[1, 2, 3], [4, 5, 60]]})
    assert (r.status, r.results) == ("completed", [58])


def test_non_strided_layout_is_refused_with_a_code():
    m = parse_text(KERNEL.format(layout="affine_map<(d0, d1) -> (d1, d0)>"), "l.mlir")
    with pytest.raises(LoomError) as info:
        run_json(m, "f", {"a": [[1, 2, 3], [4, 5, 6]]}, "in.json")
    assert info.value.code == "IO_INPUT_UNSUPPORTED" and "affine_map" in str(info.value)
