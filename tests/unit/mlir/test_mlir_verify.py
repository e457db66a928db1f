"""One test per verifier code: the code and the file:line:col of the message."""

from __future__ import annotations

import re

import pytest

from loom.diagnostics import ParseError, VerifyError
from loom.dialects import verify_module
from loom.ir.core import Block, Module, Operation, Region, Value
from loom.ir.types import i32
from loom.mlir import parse_text

from support.paths import ROOT


def error_of(text: str) -> VerifyError:
    with pytest.raises(VerifyError) as info:
        parse_text(text, "v.mlir")
    return info.value


def check(text: str, code: str, line: int, col: int) -> VerifyError:
    err = error_of(text)
    assert err.code == code, str(err)
    assert (err.loc.line, err.loc.col) == (line, col), str(err)
    assert str(err).startswith(f"v.mlir:{line}:{col}: error: [{code}] ")
    return err


def hs(body: str, args: str = "%i: index, %x: i32, %c: i1, %ctl: none") -> str:
    """A handshake.func wrapper; the body starts on line 2, column 3."""
    return f"handshake.func @f({args}, ...) -> (none) {{\n{body}\n  return %ctl : none\n}}\n"


# ------------------------------------------------------------------------ dataflow


def test_stream_operand_type():
    check(hs("  %a, %b = dataflow.stream %x, %i, %i {step_op = \"+=\"}"), "CPL_DATAFLOW_STREAM_OPERAND_TYPE", 2, 3)


def test_stream_operand_type_with_signature():
    text = hs("  %a, %b = dataflow.stream %x, %x, %x : (i32, i32, i32) -> (index, i1)")
    err = check(text, "CPL_DATAFLOW_STREAM_OPERAND_TYPE", 2, 3)
    assert "%start" in err.message


def test_stream_on_tagged_index_is_fine():
    parse_text(hs(
        "  %a, %b = dataflow.stream %t, %t, %t : (!dataflow.tagged<index, i3>, !dataflow.tagged<index, i3>,"
        " !dataflow.tagged<index, i3>) -> (index, i1)",
        "%t: !dataflow.tagged<index, i3>, %ctl: none",
    ))


def test_stream_invalid_step_op():
    check(hs('  %a, %b = dataflow.stream %i, %i, %i {step_op = "%="}'), "CPL_DATAFLOW_STREAM_INVALID_STEP_OP", 2, 3)


def test_stream_invalid_cont_cond():
    check(hs('  %a, %b = dataflow.stream %i, %i, %i {cont_cond = "=="}'), "CPL_DATAFLOW_STREAM_INVALID_CONT_COND", 2, 3)


def test_legacy_stop_cond_is_checked_as_cont_cond(capsys):
    check(hs('  %a, %b = dataflow.stream %i, %i, %i {stop_cond = "=<"}'), "CPL_DATAFLOW_STREAM_INVALID_CONT_COND", 2, 3)
    assert "stop_cond" in capsys.readouterr().err


def test_gate_cond_type():
    check(hs("  %v, %d = dataflow.gate %x, %x : i32, i32 -> i32, i1"), "CPL_DATAFLOW_GATE_COND_TYPE", 2, 3)
    check(hs("  %v, %d = dataflow.gate %x, %c : i32, i1 -> i32, i32"), "CPL_DATAFLOW_GATE_COND_TYPE", 2, 3)


def test_gate_type_mismatch():
    check(hs("  %v, %d = dataflow.gate %x, %c : i32, i1 -> index, i1"), "CPL_DATAFLOW_GATE_TYPE_MISMATCH", 2, 3)


def test_carry_ctrl_type():
    check(hs("  %o = dataflow.carry %x, %x, %x : i32, i32, i32 -> i32"), "CPL_DATAFLOW_CARRY_CTRL_TYPE", 2, 3)


def test_carry_type_mismatch():
    check(hs("  %o = dataflow.carry %c, %x, %i : i1, i32, index -> i32"), "CPL_DATAFLOW_CARRY_TYPE_MISMATCH", 2, 3)
    check(hs("  %o = dataflow.carry %c, %x, %x : i1, i32, i32 -> index"), "CPL_DATAFLOW_CARRY_TYPE_MISMATCH", 2, 3)


def test_invariant_ctrl_type():
    check(hs("  %o = dataflow.invariant %i, %x : index, i32 -> i32"), "CPL_DATAFLOW_INVARIANT_CTRL_TYPE", 2, 3)


def test_invariant_type_mismatch():
    check(hs("  %o = dataflow.invariant %c, %x : i1, i32 -> i1"), "CPL_DATAFLOW_INVARIANT_TYPE_MISMATCH", 2, 3)


def test_tagged_operands_allowed_where_t_is():
    parse_text(hs(
        "  %o = dataflow.carry %c, %t, %t : i1, !dataflow.tagged<f32, i16>, !dataflow.tagged<f32, i16> -> !dataflow.tagged<f32, i16>",
        "%c: i1, %t: !dataflow.tagged<f32, i16>, %ctl: none",
    ))


def test_tagged_value_type():
    check(hs("", "%t: !dataflow.tagged<i7, i4>, %ctl: none"), "CPL_DATAFLOW_TAGGED_VALUE_TYPE", 1, 1)
    check(hs("", "%t: !dataflow.tagged<memref<4xi32>, i4>, %ctl: none"), "CPL_DATAFLOW_TAGGED_VALUE_TYPE", 1, 1)


def test_tagged_tag_type():
    check(hs("", "%t: !dataflow.tagged<i32, i17>, %ctl: none"), "CPL_DATAFLOW_TAGGED_TAG_TYPE", 1, 1)
    check(hs("  %s = ub.poison : !dataflow.tagged<i32, ui4>"), "CPL_DATAFLOW_TAGGED_TAG_TYPE", 2, 3)


def test_dataflow_value_type():
    check(
        hs("  %o = dataflow.invariant %c, %m : i1, memref<4xi32> -> memref<4xi32>", "%c: i1, %m: memref<4xi32>, %ctl: none"),
        "CPL_DATAFLOW_VALUE_TYPE", 2, 3,
    )


def test_memory_ports_empty():
    # CIRCT emits a port-less extmemory for an unused memref argument: accepted (issue 12)
    body = "  extmemory[ld = 0, st = 0] (%m : memref<4xi32>) () {id = 0 : i32} : () -> ()"
    parse_text(hs(body, "%m: memref<4xi32>, %ctl: none"))
    body = "  memory[ld = 0, st = 0] () {id = 0 : i32} : memref<4xi32>, () -> ()"
    check(hs(body, "%ctl: none"), "CPL_MEMORY_PORTS_EMPTY", 2, 3)


# ------------------------------------------------------------------------ SSA


def fn(body: str, args: str = "%a: i32, %b: i64", results: str = "") -> str:
    """A func.func wrapper; the body starts on line 2."""
    return f"func.func @f({args}){results} {{\n{body}\n  return\n}}\n"


def test_undefined_value_at_use():
    check(fn("  %0 = arith.addi %a, %nope : i32"), "CPL_IR_UNDEFINED_VALUE", 2, 23)


def test_undefined_result_number():
    check(fn("  %0 = arith.addi %a, %a : i32\n  %1 = arith.addi %0#1, %a : i32"), "CPL_IR_UNDEFINED_VALUE", 3, 19)


def test_undefined_in_graph_region_reported_at_first_use():
    check(hs("  %o = dataflow.carry %c, %x, %later : i1, i32, i32 -> i32\n  sink %never : i32"), "CPL_IR_UNDEFINED_VALUE", 2, 31)


def test_dominance_use_before_def():
    check(fn("  %1 = arith.addi %0, %a : i32\n  %0 = arith.addi %a, %a : i32"), "CPL_IR_DOMINANCE", 2, 3)


def test_dominance_value_defined_in_a_nested_region():
    body = "  %w = arith.addi %v, %a : i32\n  scf.if %c {\n    %v = arith.addi %a, %a : i32\n  }"
    check(fn(body, "%a: i32, %c: i1"), "CPL_IR_DOMINANCE", 2, 3)


def test_value_of_a_finished_region_is_undefined_after_it():
    body = "  scf.if %c {\n    %v = arith.addi %a, %a : i32\n  }\n  %w = arith.addi %v, %a : i32"
    check(fn(body, "%a: i32, %c: i1"), "CPL_IR_UNDEFINED_VALUE", 5, 19)


def test_graph_regions_allow_any_order():
    parse_text(hs("  %o = dataflow.carry %c, %x, %p : i1, i32, i32 -> i32\n  %p = arith.addi %o, %x : i32"))


def test_redefinition():
    check(fn("  %0 = arith.addi %a, %a : i32\n  %0 = arith.addi %a, %a : i32"), "CPL_IR_REDEFINITION", 3, 3)


def test_redefinition_of_an_outer_name_in_a_region():
    body = "  scf.if %c {\n    %a = arith.addi %x, %x : i32\n  }"
    check(fn(body, "%a: i32, %c: i1, %x: i32"), "CPL_IR_REDEFINITION", 3, 5)


def test_sibling_regions_may_reuse_names():
    body = "  scf.if %c {\n    %v = arith.addi %a, %a : i32\n  } else {\n    %v = arith.addi %a, %a : i32\n  }"
    parse_text(fn(body, "%a: i32, %c: i1"))


# ------------------------------------------------------------------------ types


def test_use_with_a_different_type_than_its_definition():
    check(fn("  %0 = arith.addi %b, %a : i32"), "CPL_IR_TYPE_MISMATCH", 2, 19)


def test_forward_uses_with_different_types():
    check(hs("  sink %p : i32\n  sink %p : i64\n  %p = arith.addi %x, %x : i32"), "CPL_IR_TYPE_MISMATCH", 3, 8)


def test_arith_operand_types_must_agree():
    check(fn('  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32'), "CPL_IR_TYPE_MISMATCH", 2, 3)


def test_select_branches_must_agree():
    check(fn('  %0 = "arith.select"(%c, %a, %b) : (i1, i32, i64) -> i32', "%a: i32, %b: i64, %c: i1"), "CPL_IR_TYPE_MISMATCH", 2, 3)


def test_return_types_must_match_the_function():
    text = "func.func @f(%a: i32) -> i64 {\n  return %a : i32\n}\n"
    check(text, "CPL_IR_TYPE_MISMATCH", 2, 3)


def test_yield_types_must_match_the_parent():
    body = "  %r = scf.if %c -> (i32) {\n    scf.yield %b : i64\n  } else {\n    scf.yield %a : i32\n  }"
    check(fn(body, "%a: i32, %b: i64, %c: i1"), "CPL_IR_TYPE_MISMATCH", 3, 5)


def test_store_element_type():
    check(fn('  "memref.store"(%b, %m) : (i64, memref<i32>) -> ()', "%b: i64, %m: memref<i32>"), "CPL_IR_TYPE_MISMATCH", 2, 3)


def test_mux_data_types():
    check(hs('  %m = "handshake.mux"(%i, %x, %c) : (index, i32, i1) -> i32\n  sink %m : i32'), "CPL_IR_TYPE_MISMATCH", 2, 3)


def test_operand_type_condition_not_i1():
    check(fn('  %0 = "arith.select"(%a, %a, %a) : (i32, i32, i32) -> i32'), "CPL_IR_OPERAND_TYPE", 2, 3)
    check(hs('  %t, %f = "handshake.cond_br"(%x, %x) : (i32, i32) -> (i32, i32)'), "CPL_IR_OPERAND_TYPE", 2, 3)
    body = '  %0 = "scf.while"(%a) ({\n  ^bb0(%v: i32):\n    "scf.condition"(%v, %v) : (i32, i32) -> ()\n  }, {\n  ^bb0(%w: i32):\n    scf.yield %w : i32\n  }) : (i32) -> i32'
    check(fn(body), "CPL_IR_OPERAND_TYPE", 4, 5)


def test_operand_type_float_op_on_integers():
    check(fn("  %0 = arith.addf %a, %a : i32"), "CPL_IR_OPERAND_TYPE", 2, 3)


def test_result_type():
    check(fn('  %0 = "arith.cmpi"(%a, %a) {predicate = 0 : i64} : (i32, i32) -> i32'), "CPL_IR_RESULT_TYPE", 2, 3)
    check(fn("  %0 = arith.extsi %b : i64 to i32"), "CPL_IR_RESULT_TYPE", 2, 3)


def test_arity():
    check(fn('  %0 = "arith.addi"(%a) : (i32) -> i32'), "CPL_IR_ARITY", 2, 3)
    body = "  %d:2 = extmemory[ld = 1, st = 0] (%m : memref<4xi32>) () {id = 0 : i32} : () -> (i32, none)"
    check(hs(body, "%m: memref<4xi32>, %ctl: none"), "CPL_IR_ARITY", 2, 3)


def test_index_count():
    check(fn("  %0 = memref.load %m[%i, %i] : memref<?xf32>", "%m: memref<?xf32>, %i: index"), "CPL_IR_INDEX_COUNT", 2, 3)
    check(fn("  memref.store %v, %m[] : memref<?xf32>", "%m: memref<?xf32>, %v: f32"), "CPL_IR_INDEX_COUNT", 2, 3)


def test_terminator():
    check("func.func @f() {\n  %0 = arith.constant 1 : i32\n}\n", "CPL_IR_TERMINATOR", 2, 3)
    check(hs("  return %ctl : none"), "CPL_IR_TERMINATOR", 2, 3)
    body = '  %0 = "scf.while"(%a) ({\n  ^bb0(%v: i32):\n    scf.yield %v : i32\n  }, {\n  ^bb0(%w: i32):\n    scf.yield %w : i32\n  }) : (i32) -> i32'
    check(fn(body), "CPL_IR_TERMINATOR", 4, 5)  # the misplaced scf.yield


def test_attribute():
    check(fn('  %0 = "arith.cmpi"(%a, %a) {predicate = 10 : i64} : (i32, i32) -> i1'), "CPL_IR_ATTRIBUTE", 2, 3)
    check(hs('  %o = "handshake.buffer"(%x) {slots = 0 : i32, bufferType = "seq"} : (i32) -> i32\n  sink %o : i32'), "CPL_IR_ATTRIBUTE", 2, 3)


def test_duplicate_symbol():
    check("func.func @f() {\n  return\n}\nfunc.func @f() {\n  return\n}\n", "CPL_IR_DUPLICATE_SYMBOL", 4, 1)


def test_unknown_symbol():
    check(fn("  %0 = func.call @nowhere(%a) : (i32) -> i32"), "CPL_IR_UNKNOWN_SYMBOL", 2, 3)


def test_structure_of_ir_built_by_code():
    m = parse_text(fn("  %0 = arith.addi %a, %a : i32"), "v.mlir")
    f = m.ops[0]
    add = f.regions[0].entry.ops[0]
    other = Block()
    other.append(add)  # now add.parent points to a block that does not hold it in the function
    with pytest.raises(VerifyError) as info:
        verify_module(m)
    assert info.value.code == "CPL_IR_STRUCTURE"
    assert (info.value.loc.line, info.value.loc.col) == (2, 3)


def test_operand_not_defined_anywhere_in_ir_built_by_code():
    m = Module.empty("built")
    c = Operation.create("arith.addi", [Value(i32), Value(i32)], [i32])
    f = Operation.create("func.func", regions=[Region.of(Block())])
    from loom.ir.attributes import StringAttr, TypeAttr
    from loom.ir.types import FunctionType

    f.attributes = {"sym_name": StringAttr("f"), "function_type": TypeAttr(FunctionType((), ()))}
    f.regions[0].entry.append(c)
    f.regions[0].entry.append(Operation.create("func.return"))
    m.body.append(f)
    with pytest.raises(VerifyError) as info:
        verify_module(m)
    assert info.value.code == "CPL_IR_UNDEFINED_VALUE"


def test_verify_can_be_skipped():
    m = parse_text(fn("  %0 = arith.addf %a, %a : i32"), "v.mlir", verify=False)
    with pytest.raises(VerifyError):
        verify_module(m)


def test_every_code_is_documented():
    used: set[str] = set()
    for p in list((ROOT / "loom" / "mlir").glob("*.py")) + list((ROOT / "loom" / "dialects").glob("*.py")):
        used |= set(re.findall(r'"(CPL_[A-Z_]+)"', p.read_text()))
    doc = (ROOT / "specs" / "errors.md").read_text()
    assert used, "no codes found"
    missing = sorted(c for c in used if f"`{c}`" not in doc)
    assert not missing, f"undocumented codes: {missing}"


def test_parse_errors_are_not_verify_errors():
    with pytest.raises(ParseError) as info:
        parse_text("func.func @f( {", "v.mlir")
    assert not isinstance(info.value, VerifyError)
    assert str(info.value).startswith("v.mlir:1:")


DIAMOND = """func.func @f(%a: i32, %c: i1) -> i32 {{
  %e = arith.addi %a, %a : i32
  cf.cond_br %c, ^l, ^r
^l:
  %v = arith.addi %e, %a : i32
  cf.br ^j
^r:
  cf.br ^j
^j:
  %w = arith.addi {use}, %a : i32
  return %w : i32
}}
"""


def test_dominance_across_blocks():
    """In a CFG diamond the entry's value dominates the join, one branch's value does not (the dominator sets of
    loom.ir.dominance)."""
    parse_text(DIAMOND.format(use="%e"), "v.mlir")  # verifies
    check(DIAMOND.format(use="%v"), "CPL_IR_DOMINANCE", 10, 3)
