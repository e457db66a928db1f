"""memref.copy is expanded into a load/store loop nest before lowering; the DFG copies like the interpreter."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import scaled

from loom.lower import LowerOptions, lower_module
from loom.lower.expand_copy import expand_copies
from loom.mlir import parse_text, print_module
from loom.testing.differential import check_lowering

KERNEL = """
func.func @f(%a: memref<2x3xf32>, %b: memref<2x3xf32>, %c: memref<?xi32>, %d: memref<?xi32>, %k: index) {
  %t = memref.alloc() : memref<2x3xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = memref.load %a[%c1, %c0] : memref<2x3xf32>
  memref.copy %a, %t : memref<2x3xf32> to memref<2x3xf32>
  memref.store %v, %t[%c0, %c0] : memref<2x3xf32>
  memref.copy %t, %b : memref<2x3xf32> to memref<2x3xf32>
  scf.for %i = %c0 to %k step %c1 {
    memref.copy %c, %d : memref<?xi32> to memref<?xi32>
    %w = memref.load %d[%c0] : memref<?xi32>
    %w1 = arith.addi %w, %w : i32
    memref.store %w1, %c[%c0] : memref<?xi32>
  }
  return
}
"""


@settings(max_examples=scaled(10), deadline=None)
@given(c=st.lists(st.integers(-9, 9), min_size=1, max_size=5), k=st.integers(0, 3))
def test_copies_agree_with_the_interpreter(c: list[int], k: int):
    m = parse_text(KERNEL, "copy.mlir")
    inputs = {"a": [[1, 2, 3], [4, 5, 6]], "b": [[0] * 3] * 2, "c": c, "d": [0] * len(c), "k": k}
    r = check_lowering(m, "f", inputs)
    assert r.ok, r.detail
    assert r.interp.memrefs["b"].to_flat() == [4.0, 2.0, 3.0, 4.0, 5.0, 6.0]


def test_expansion_is_a_loop_nest_on_a_copy_of_the_function():
    m = parse_text(KERNEL, "copy.mlir")
    before = print_module(m)
    func = m.functions()[0]
    new = expand_copies(func)
    assert new is not func and not any(op.name == "memref.copy" for op in new.walk())
    assert sum(op.name == "scf.for" for op in new.walk()) == 2 + 2 + 1 + 1  # 2-D, 2-D, the loop, 1-D
    assert any(op.name == "memref.dim" for op in new.walk())  # the dynamic size comes from the source
    assert print_module(m) == before
    assert "memref.copy" not in print_module(lower_module(m, "f", LowerOptions()))


def test_a_function_without_copies_is_returned_as_is():
    m = parse_text("func.func @g(%a: i32) -> i32 {\n  return %a : i32\n}\n", "g.mlir")
    f = m.functions()[0]
    assert expand_copies(f) is f


@pytest.mark.parametrize("t", ["memref<f32>"])
def test_rank_zero_copy_is_refused(t: str):
    from loom.diagnostics import LoomError

    m = parse_text(f"func.func @h(%a: {t}, %b: {t}) {{\n  memref.copy %a, %b : {t} to {t}\n  return\n}}\n", "h.mlir")
    with pytest.raises(LoomError) as info:
        lower_module(m, "h", LowerOptions())
    assert info.value.code == "CPL_LOWER_UNSUPPORTED" and str(info.value).startswith("h.mlir:2:")
