"""value_names (the printer's SSA names) and structural equality (modules_equal / ops_equal)."""

from __future__ import annotations

import math

from loom.ir.attributes import DenseElementsAttr, DictAttr, FloatAttr, IntegerAttr, StringAttr
from loom.ir.core import Block, Module, Operation, Region
from loom.ir.equality import attrs_equal, modules_equal, ops_equal
from loom.ir.types import TensorType, f32, i32
from loom.mlir import parse_text, print_module, print_op, value_names

SRC = """
func.func @f(%arg0: i32, %c0_i32: i32) -> i32 {
  %0:2 = "t.pair"(%arg0) : (i32) -> (i32, i32)
  %trueResult, %falseResult = "t.split"(%0#1) : (i32) -> (i32, i32)
  %r = scf.if %c -> (i32) {
    %x = arith.addi %trueResult, %c0_i32 : i32
    scf.yield %x : i32
  } else {
    %x = arith.addi %falseResult, %c0_i32 : i32
    scf.yield %x : i32
  }
  %c = arith.cmpi eq, %arg0, %arg0 : i32
  return %r : i32
}
"""


def test_source_names_are_kept_and_made_unique():
    m = parse_text(SRC.replace("scf.if %c", "scf.if %c1").replace("%c = arith", "%c1 = arith").replace("%r = scf", "%r = scf"), verify=False)
    f = m.ops[0]
    names = value_names(f)
    entry = f.regions[0].entry
    assert [names[a] for a in entry.args] == ["%arg0", "%c0_i32"]
    pair, split = entry.ops[0], entry.ops[1]
    assert [names[r] for r in pair.results] == ["%0#0", "%0#1"]
    assert [names[r] for r in split.results] == ["%trueResult", "%falseResult"]
    ifop = entry.ops[2]
    then_x = ifop.regions[0].entry.ops[0].results[0]
    else_x = ifop.regions[1].entry.ops[0].results[0]
    assert {names[then_x], names[else_x]} == {"%x", "%x_0"}
    assert len(set(names.values())) == len(names)
    assert value_names(f) == names


def test_unnamed_values_get_free_numbers_and_groups():
    b = Block.create([i32], ["5"])
    one = Operation.create("t.one", [b.args[0]], [i32])
    two = Operation.create("t.two", [b.args[0]], [i32, i32])
    mixed = Operation.create("t.mixed", [b.args[0]], [i32, i32], result_names=["a", None])
    for op in (one, two, mixed):
        b.append(op)
    f = Operation.create("t.func", regions=[Region.of(b)])
    names = value_names(f)
    assert names[b.args[0]] == "%5"
    assert names[one.results[0]] == "%0"
    assert [names[r] for r in two.results] == ["%1#0", "%1#1"]
    assert [names[r] for r in mixed.results] == ["%a", "%2"]


def test_printer_uses_value_names():
    m = parse_text(SRC, verify=False)
    f = m.ops[0]
    text = print_module(m)
    for n in value_names(f).values():
        assert n.split("#")[0] in text
    assert '%0:2 = "t.pair"(%arg0)' in text
    assert print_op(f.regions[0].entry.ops[1]) == '%trueResult, %falseResult = "t.split"(%0#1) : (i32) -> (i32, i32)'


def test_equality_ignores_names_and_locations():
    a = parse_text("func.func @f(%x: i32) -> i32 {\n  %y = arith.addi %x, %x : i32\n  return %y : i32\n}")
    b = parse_text("func.func @f(%p: i32) -> i32 {\n\n  %0 = arith.addi %p, %p : i32 loc(\"z\":1:1)\n  return %0 : i32\n}")
    assert modules_equal(a, b)


def test_equality_sees_wiring_types_attributes_and_structure():
    base = "func.func @f(%x: i32, %z: i32) -> i32 {\n  %y = arith.subi %x, %z : i32\n  return %y : i32\n}"
    a = parse_text(base)
    assert not modules_equal(a, parse_text(base.replace("%x, %z", "%z, %x")))
    assert not modules_equal(a, parse_text(base.replace("subi", "addi")))
    assert not modules_equal(a, parse_text(base.replace("%x, %z : i32", "%x, %z overflow<nsw> : i32")))
    assert not modules_equal(a, parse_text(base.replace("i32", "i64")))
    assert not modules_equal(a, parse_text(base.replace("@f", "@g")))
    assert not modules_equal(a, parse_text(base.replace("return %y", "return %x")))


def test_equality_of_graphs_with_cycles():
    g = "handshake.func @g(%c: i1, %x: i32, ...) -> (i32) {\n  %o = dataflow.carry %c, %x, %p : i1, i32, i32 -> i32\n  %p = arith.addi %o, %x : i32\n  return %o : i32\n}"
    assert modules_equal(parse_text(g), parse_text(g.replace("%p", "%q")))
    assert not modules_equal(parse_text(g), parse_text(g.replace("%x, %p :", "%x, %x :")))


def test_attribute_equality_details():
    assert attrs_equal(DictAttr((("a", IntegerAttr(1)), ("b", StringAttr("x")))), DictAttr((("b", StringAttr("x")), ("a", IntegerAttr(1)))))
    assert attrs_equal(FloatAttr(math.nan, f32), FloatAttr(-math.nan, f32))
    assert not attrs_equal(FloatAttr(0.0, f32), FloatAttr(-0.0, f32))
    t = TensorType((2,), f32)
    assert attrs_equal(DenseElementsAttr((math.nan, 1.0), t), DenseElementsAttr((math.nan, 1.0), t))
    assert not attrs_equal(DenseElementsAttr((1, 2), TensorType((2,), i32)), DenseElementsAttr((1, 3), TensorType((2,), i32)))


def test_ops_equal_pairs_outside_values_consistently():
    m = parse_text("func.func @f(%a: i32, %b: i32) {\n  %0 = arith.addi %a, %b : i32\n  %1 = arith.addi %a, %a : i32\n  return\n}")
    ops = m.ops[0].regions[0].entry.ops
    assert ops_equal(ops[0], ops[0])
    assert not ops_equal(ops[0], ops[1])  # %a,%b vs %a,%a: one outside value cannot pair with two


def test_module_wrappers_compare_by_content():
    a = parse_text("module {\n  func.func private @f()\n}")
    b = parse_text("func.func private @f()")
    assert modules_equal(a, b)
    assert not modules_equal(a, Module.empty())
