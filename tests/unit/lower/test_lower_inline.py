"""func.call is inlined before lowering: the DFG agrees with the interpreter's calls; what cannot be inlined is refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import scaled

from loom.diagnostics import LoomError
from loom.lower import LowerOptions, lower_module
from loom.mlir import parse_text, print_module
from loom.testing.differential import check_lowering

CALLS = """
func.func private @sq(%x: i32) -> i32 {
  %y = arith.muli %x, %x : i32
  return %y : i32
}
func.func private @divmod(%a: i32, %b: i32) -> (i32, i32) {
  %q = arith.divsi %a, %b : i32
  %r = arith.remsi %a, %b : i32
  return %q, %r : i32, i32
}
func.func private @bump(%m: memref<?xi32>, %i: index) -> i32 {
  %v = memref.load %m[%i] : memref<?xi32>
  %s = func.call @sq(%v) : (i32) -> i32
  %c1 = arith.constant 1 : i32
  %w = arith.addi %s, %c1 : i32
  memref.store %w, %m[%i] : memref<?xi32>
  return %v : i32
}
func.func @kernel(%m: memref<?xi32>, %n: index, %d: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z, %acc2 = %z) -> (i32, i32) {
    %old = func.call @bump(%m, %i) : (memref<?xi32>, index) -> i32
    %neg = arith.cmpi slt, %old, %z : i32
    %t = scf.if %neg -> (i32) {
      %q, %rem = func.call @divmod(%old, %d) : (i32, i32) -> (i32, i32)
      %qr = arith.addi %q, %rem : i32
      scf.yield %qr : i32
    } else {
      scf.yield %old : i32
    }
    %a = arith.addi %acc, %t : i32
    %b = func.call @sq(%a) : (i32) -> i32
    scf.yield %a, %b : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}
"""


def module():
    return parse_text(CALLS, "calls.mlir")


@settings(max_examples=scaled(12), deadline=None)
@given(values=st.lists(st.integers(-50, 50), min_size=0, max_size=6), d=st.integers(1, 7))
def test_inlined_calls_agree_with_the_interpreter(values: list[int], d: int):
    c = check_lowering(module(), "kernel", {"m": values or [0], "n": len(values), "d": d})
    assert c.ok, c.detail
    assert c.interp.status == "completed"


def test_the_dfg_has_no_calls_and_the_source_is_untouched():
    m = module()
    before = print_module(m)
    out = lower_module(m, None, LowerOptions())  # the one public function is the kernel
    text = print_module(out)
    assert "func.call" not in text and "handshake.func @kernel(" in text
    assert print_module(m) == before


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("func.func private @ext(i32) -> i32\nfunc.func @k(%a: i32) -> i32 {\n  %b = func.call @ext(%a) : (i32) -> i32\n  return %b : i32\n}\n",
         3, "no body"),
        ("func.func @r(%a: i32) -> i32 {\n  %b = func.call @r(%a) : (i32) -> i32\n  return %b : i32\n}\n", 2, "recursive"),
        ("func.func private @p(%a: i32) -> i32 {\n  %b = func.call @q(%a) : (i32) -> i32\n  return %b : i32\n}\n"
         "func.func private @q(%a: i32) -> i32 {\n  %b = func.call @p(%a) : (i32) -> i32\n  return %b : i32\n}\n"
         "func.func @k(%a: i32) -> i32 {\n  %b = func.call @p(%a) : (i32) -> i32\n  return %b : i32\n}\n", 6, "recursive"),
        ("func.func private @mb(%a: i32) -> i32 {\n  cf.br ^bb1\n^bb1:\n  return %a : i32\n}\n"
         "func.func @k(%a: i32) -> i32 {\n  %b = func.call @mb(%a) : (i32) -> i32\n  return %b : i32\n}\n", 7, "several blocks"),
    ],
)
def test_calls_that_cannot_be_inlined_are_refused_at_the_call(text: str, line: int, message: str):
    m = parse_text(text, "c.mlir")
    with pytest.raises(LoomError) as info:
        lower_module(m, "k" if "@k(" in text else "r", LowerOptions())
    assert info.value.code == "CPL_LOWER_UNSUPPORTED"
    assert str(info.value).startswith(f"c.mlir:{line}:"), str(info.value)
    assert message in str(info.value)
