"""Hand-written control-flow corner cases, each lowered and checked against the SCF interpreter.

Every kernel runs on several inputs (trip counts 0, 1 and more); the DFG must
reproduce the interpreter's results and memories with zero residual tokens.
"""

from __future__ import annotations

import pytest

from loom.lower import LowerOptions
from loom.mlir import parse_text
from loom.testing.differential import check_lowering

KERNELS: dict[str, tuple[str, list[dict]]] = {
    # while whose condition is a loop-carried i1 (the before region is a single pass-through)
    "while_cond_is_carried": ("""
func.func @f(%n: i32) -> (i32, i1) {
  %t = arith.constant true
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r:2 = scf.while (%go = %t, %i = %z) : (i1, i32) -> (i1, i32) {
    scf.condition(%go) %go, %i : i1, i32
  } do {
  ^bb0(%g: i1, %j: i32):
    %k = arith.addi %j, %one : i32
    %c = arith.cmpi slt, %k, %n : i32
    scf.yield %c, %k : i1, i32
  }
  return %r#1, %r#0 : i32, i1
}""", [{"n": 0}, {"n": 1}, {"n": 4}]),
    # while whose condition is a constant false: the before region runs once, the after region never
    "while_false": ("""
func.func @f(%a: memref<4xi32>, %x: i32) -> i32 {
  %f = arith.constant false
  %c0 = arith.constant 0 : index
  %r = scf.while (%v = %x) : (i32) -> i32 {
    %old = memref.load %a[%c0] : memref<4xi32>
    %s = arith.addi %old, %v : i32
    memref.store %s, %a[%c0] : memref<4xi32>
    scf.condition(%f) %s : i32
  } do {
  ^bb0(%w: i32):
    memref.store %w, %a[%c0] : memref<4xi32>
    scf.yield %w : i32
  }
  return %r : i32
}""", [{"a": [1, 2, 3, 4], "x": 5}]),
    # while whose condition is a value defined outside the loop (false here, else it never ends)
    "while_outer_cond": ("""
func.func @f(%x: i32) -> i32 {
  %z = arith.constant 0 : i32
  %c = arith.cmpi sgt, %x, %z : i32
  %nc = arith.xori %c, %c : i1
  %r = scf.while (%v = %x) : (i32) -> i32 {
    %w = arith.muli %v, %v : i32
    scf.condition(%nc) %w : i32
  } do {
  ^bb0(%w: i32):
    scf.yield %w : i32
  }
  return %r : i32
}""", [{"x": 3}, {"x": -2}]),
    # for loop yields: an outer value, a constant and the iter_arg itself; results partly unused
    "for_yields": ("""
func.func @f(%n: index, %x: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %seven = arith.constant 7 : i32
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %seven, %b = %x, %c = %x) -> (i32, i32, i32) {
    %k = arith.addi %c, %c : i32
    scf.yield %x, %seven, %k : i32, i32, i32
  }
  return %r#0, %r#1 : i32, i32
}""", [{"n": 0, "x": 5}, {"n": 1, "x": 5}, {"n": 3, "x": -2}]),
    # unsigned loops: a lower bound that is negative as signed runs zero times unsigned
    "unsigned_i32": ("""
func.func @f(%lb: i32, %ub: i32) -> i32 {
  %s = arith.constant 1 : i32
  %z = arith.constant 0 : i32
  %r = scf.for unsigned %i = %lb to %ub step %s iter_args(%acc = %z) -> (i32) : i32 {
    %t = arith.addi %acc, %i : i32
    scf.yield %t : i32
  }
  return %r : i32
}""", [{"lb": -3, "ub": 2}, {"lb": 0, "ub": 4}, {"lb": 3, "ub": 3}, {"lb": 1, "ub": 6}]),
    # unsigned 64-bit bounds that straddle the signed boundary (exercises the INT64_MIN bias)
    "unsigned_index_bias": ("""
func.func @f(%lb: index, %ub: index) -> index {
  %s = arith.constant 1 : index
  %z = arith.constant 0 : index
  %r = scf.for unsigned %i = %lb to %ub step %s iter_args(%acc = %z) -> (index) {
    %t = arith.addi %acc, %s : index
    %u = arith.xori %t, %i : index
    scf.yield %u : index
  }
  return %r : index
}""", [{"lb": 2**63 - 2, "ub": -(2**63) + 1}, {"lb": -1, "ub": 5}, {"lb": 5, "ub": 7}]),
    # signed loops over narrow and negative ranges, data-dependent step
    "signed_i8": ("""
func.func @f(%lb: i8, %ub: i8, %st: i8) -> i8 {
  %one = arith.constant 1 : i8
  %z = arith.constant 0 : i8
  %step = arith.ori %st, %one : i8
  %r = scf.for %i = %lb to %ub step %step iter_args(%acc = %z) -> (i8) : i8 {
    %t = arith.addi %acc, %i : i8
    scf.yield %t : i8
  }
  return %r : i8
}""", [{"lb": -5, "ub": 5, "st": 2}, {"lb": 100, "ub": 127, "st": 4}, {"lb": 3, "ub": -3, "st": 1}]),
    # if without else, memory in one branch, inside a loop; if yielding an outer value and a constant
    "if_shapes": ("""
func.func @f(%a: memref<8xi32>, %n: index, %x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (i32) {
    %v = memref.load %a[%i] : memref<8xi32>
    %odd = arith.andi %v, %two : i32
    %c = arith.cmpi eq, %odd, %two : i32
    scf.if %c {
      %w = arith.muli %v, %two : i32
      memref.store %w, %a[%i] : memref<8xi32>
    }
    %y = scf.if %c -> (i32) {
      scf.yield %x : i32
    } else {
      scf.yield %two : i32
    }
    %t = arith.addi %acc, %y : i32
    scf.yield %t : i32
  }
  return %r : i32
}""", [{"a": [1, 2, 3, 6, 7, 10, 0, -2], "n": 8, "x": 4}, {"a": [0] * 8, "n": 0, "x": 4},
       {"a": [2] * 8, "n": 1, "x": -1}]),
    # poison, float iter_args, a loop whose results are unused but whose body stores
    "poison_float": ("""
func.func @f(%a: memref<4xf32>, %n: index) -> (f32, i32) {
  %p = ub.poison : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = arith.constant 0.5 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %h) -> (f32) {
    %v = memref.load %a[%i] : memref<4xf32>
    %m = arith.mulf %v, %acc : f32
    memref.store %m, %a[%i] : memref<4xf32>
    scf.yield %m : f32
  }
  %unused = scf.for %i = %c0 to %n step %c1 iter_args(%q = %p) -> (i32) {
    scf.yield %q : i32
  }
  return %r, %p : f32, i32
}""", [{"a": [1.5, -2.0, 4.0, 0.25], "n": 4}, {"a": [1.0] * 4, "n": 0}]),
    # a while inside a for inside a while, with memory in every region
    "deep_nest": ("""
func.func @f(%a: memref<16xi32>, %n: i32) -> i32 {
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %r:2 = scf.while (%i = %z, %s = %z) : (i32, i32) -> (i32, i32) {
    %c = arith.cmpi slt, %i, %n : i32
    %ii = arith.index_cast %i : i32 to index
    %k = arith.remui %ii, %c16 : index
    %v = memref.load %a[%k] : memref<16xi32>
    %s2 = arith.addi %s, %v : i32
    scf.condition(%c) %i, %s2 : i32, i32
  } do {
  ^bb0(%i: i32, %s: i32):
    %ii = arith.index_cast %i : i32 to index
    %t = scf.for %j = %c0 to %ii step %c1 iter_args(%acc = %s) -> (i32) {
      %w:2 = scf.while (%m = %z, %u = %acc) : (i32, i32) -> (i32, i32) {
        %cm = arith.cmpi slt, %m, %i : i32
        scf.condition(%cm) %m, %u : i32, i32
      } do {
      ^bb1(%m: i32, %u: i32):
        %mj = arith.index_cast %m : i32 to index
        %at = arith.addi %mj, %j : index
        %k2 = arith.remui %at, %c16 : index
        %x = memref.load %a[%k2] : memref<16xi32>
        %u2 = arith.addi %u, %x : i32
        memref.store %u2, %a[%k2] : memref<16xi32>
        %m2 = arith.addi %m, %one : i32
        scf.yield %m2, %u2 : i32, i32
      }
      scf.yield %w#1 : i32
    }
    %i2 = arith.addi %i, %one : i32
    scf.yield %i2, %t : i32, i32
  }
  return %r#1 : i32
}""", [{"a": list(range(16)), "n": 0}, {"a": list(range(16)), "n": 1}, {"a": list(range(16)), "n": 4}]),
}


@pytest.mark.parametrize("rar", [True, False])
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_control_kernel_agrees(name: str, rar: bool) -> None:
    text, runs = KERNELS[name]
    module = parse_text(text, f"{name}.scf.mlir")
    for inputs in runs:
        cmp = check_lowering(module, "f", inputs, LowerOptions(rar=rar))
        assert cmp.ok, f"{inputs}: {cmp.detail}"
        assert cmp.sim.status == "completed"
