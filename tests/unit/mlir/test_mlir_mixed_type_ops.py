"""Ops whose operand and result types differ, as mlir-opt prints them, and float literal ranges.

``math.fpowi`` (``: F, I``), the float classifications (``math.isnan %x : F`` gives
i1), ``arith.mulsi_extended``/``mului_extended`` (two results) and
``arith.addui_extended`` (``: T, i1``): the pretty form parses, prints back pretty,
equals the generic form, and the kernel runs the same interpreted and lowered.
"""

from __future__ import annotations

import pytest

from loom.diagnostics import ParseError, VerifyError
from loom.ir.equality import first_difference, modules_equal
from loom.ir.types import FloatType, IntegerType, VectorType, f32, i1, i32
from loom.mlir import parse_text, print_module
from loom.testing.differential import check_lowering

FPOWI_PRETTY = """
func.func @f(%x: f32, %n: i32) -> f32 {
  %p = math.fpowi %x, %n : f32, i32
  return %p : f32
}
"""
FPOWI_GENERIC = """
func.func @f(%x: f32, %n: i32) -> f32 {
  %p = "math.fpowi"(%x, %n) <{fastmath = #arith.fastmath<none>}> : (f32, i32) -> f32
  return %p : f32
}
"""
CLASS_PRETTY = """
func.func @f(%x: f32) -> (i1, i1, i1) {
  %a = math.isnan %x : f32
  %b = math.isinf %x : f32
  %c = math.isfinite %x : f32
  return %a, %b, %c : i1, i1, i1
}
"""
CLASS_GENERIC = """
func.func @f(%x: f32) -> (i1, i1, i1) {
  %a = "math.isnan"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> i1
  %b = "math.isinf"(%x) : (f32) -> i1
  %c = "math.isfinite"(%x) : (f32) -> i1
  return %a, %b, %c : i1, i1, i1
}
"""
EXTENDED_PRETTY = """
func.func @f(%a: i32, %b: i32) -> (i32, i32, i32, i32, i32, i1) {
  %lo, %hi = arith.mulsi_extended %a, %b : i32
  %ulo, %uhi = arith.mului_extended %a, %b : i32
  %sum, %ovf = arith.addui_extended %a, %b : i32, i1
  return %lo, %hi, %ulo, %uhi, %sum, %ovf : i32, i32, i32, i32, i32, i1
}
"""
EXTENDED_GENERIC = """
func.func @f(%a: i32, %b: i32) -> (i32, i32, i32, i32, i32, i1) {
  %lo, %hi = "arith.mulsi_extended"(%a, %b) : (i32, i32) -> (i32, i32)
  %ulo, %uhi = "arith.mului_extended"(%a, %b) : (i32, i32) -> (i32, i32)
  %sum, %ovf = "arith.addui_extended"(%a, %b) : (i32, i32) -> (i32, i1)
  return %lo, %hi, %ulo, %uhi, %sum, %ovf : i32, i32, i32, i32, i32, i1
}
"""


def body_lines(text: str) -> list[str]:
    """The printed ops of the only function, without the terminator."""
    return [line.strip() for line in print_module(parse_text(text, "t.mlir")).splitlines()[1:-2]]


def round_trips(text: str) -> None:
    """Printing then parsing gives an equal module, and the printed text is a fixed point."""
    m = parse_text(text, "t.mlir")
    printed = print_module(m)
    again = parse_text(printed, "printed.mlir")
    assert modules_equal(m, again), first_difference(m.op, again.op)
    assert print_module(again) == printed


@pytest.mark.parametrize(
    "pretty,generic",
    [(FPOWI_PRETTY, FPOWI_GENERIC), (CLASS_PRETTY, CLASS_GENERIC), (EXTENDED_PRETTY, EXTENDED_GENERIC)],
    ids=["fpowi", "classification", "extended"],
)
def test_pretty_and_generic_forms_read_the_same_and_print_pretty(pretty: str, generic: str):
    a, b = parse_text(pretty, "p.mlir"), parse_text(generic, "g.mlir")
    assert modules_equal(a, b), first_difference(a.op, b.op)
    assert body_lines(generic) == body_lines(pretty)
    round_trips(pretty)


def test_fpowi_types_and_printed_form():
    (op, _) = parse_text(FPOWI_PRETTY, "t.mlir").ops[0].regions[0].entry.ops
    assert [v.type for v in op.operands] == [f32, i32]
    assert [r.type for r in op.results] == [f32]
    assert body_lines(FPOWI_PRETTY) == ["%p = math.fpowi %x, %n : f32, i32"]


def test_fpowi_on_vectors_with_fastmath_round_trips():
    text = """
    func.func @f(%x: vector<2xf64>, %n: vector<2xi64>) -> vector<2xf64> {
      %p = math.fpowi %x, %n fastmath<fast> : vector<2xf64>, vector<2xi64>
      return %p : vector<2xf64>
    }
    """
    assert body_lines(text) == ["%p = math.fpowi %x, %n fastmath<fast> : vector<2xf64>, vector<2xi64>"]
    round_trips(text)


def test_classification_results_are_i1_of_the_operand_shape():
    """math.isnormal has no semantics (so no registry entry) but still reads with MLIR's types."""
    text = """
    func.func @f(%x: f16, %v: vector<4xf32>) -> (i1, vector<4xi1>) {
      %a = math.isnormal %x : f16
      %b = math.isnan %v {loom.tag} fastmath<nnan> : vector<4xf32>
      return %a, %b : i1, vector<4xi1>
    }
    """
    a, b, _ = parse_text(text, "t.mlir").ops[0].regions[0].entry.ops
    assert (a.operands[0].type, a.results[0].type) == (FloatType("f16"), i1)
    assert b.results[0].type == VectorType((4,), i1)
    assert body_lines(text)[1] == "%b = math.isnan %v {loom.tag} fastmath<nnan> : vector<4xf32>"
    round_trips(text)


def test_extended_ops_bind_result_groups_and_shaped_overflow():
    text = """
    func.func @f(%a: vector<4xi8>, %b: vector<4xi8>) -> (vector<4xi8>, vector<4xi1>) {
      %m:2 = arith.mulsi_extended %a, %b : vector<4xi8>
      %s:2 = arith.addui_extended %a, %b : vector<4xi8>, vector<4xi1>
      return %m#1, %s#1 : vector<4xi8>, vector<4xi1>
    }
    """
    m, s, _ = parse_text(text, "t.mlir").ops[0].regions[0].entry.ops
    v8 = VectorType((4,), IntegerType(8))
    assert [r.type for r in m.results] == [v8, v8]
    assert [r.type for r in s.results] == [v8, VectorType((4,), i1)]
    round_trips(text)


def fn(body: str, args: str = "%x: f32, %n: i32, %a: i32") -> str:
    """A function around ``body`` (which starts on line 2, column 3)."""
    return f"func.func @f({args}) {{\n{body}\n  return\n}}\n"


BAD_OPS = [
    # (text, error class, code, message fragment)
    (fn('  %r = "math.fpowi"(%x, %x) : (f32, f32) -> f32'), VerifyError, "CPL_IR_OPERAND_TYPE", "integer or index exponent"),
    (fn('  %r = "math.fpowi"(%n, %n) : (i32, i32) -> i32'), VerifyError, "CPL_IR_OPERAND_TYPE", "float base"),
    (fn('  %r = "math.fpowi"(%x, %n) : (f32, i32) -> f64'), VerifyError, "CPL_IR_TYPE_MISMATCH", "base and result"),
    (fn("  %r = math.fpowi %v, %n : vector<2xf32>, i32", "%v: vector<2xf32>, %n: i32"), VerifyError, "CPL_IR_TYPE_MISMATCH", "same shape"),
    (fn("  %r = math.fpowi %x, %n : f32"), ParseError, "CPL_IR_SYNTAX", "math.fpowi needs 2 types after ':', found 1"),
    (fn('  %r = "math.isnan"(%x) : (f32) -> f32'), VerifyError, "CPL_IR_RESULT_TYPE", "result must be i1, found f32"),
    (fn('  %r = "math.isinf"(%n) : (i32) -> i1'), VerifyError, "CPL_IR_OPERAND_TYPE", "float operand"),
    (fn("  %s, %o = arith.addui_extended %a, %a : i32, i32"), VerifyError, "CPL_IR_RESULT_TYPE", "overflow result must be i1"),
    (fn("  %s, %o = arith.addui_extended %a, %a : i32"), ParseError, "CPL_IR_SYNTAX", "needs 2 types after ':'"),
    (fn('  %l, %h = "arith.mulsi_extended"(%a, %a) : (i32, i32) -> (i32, i64)'), VerifyError, "CPL_IR_TYPE_MISMATCH", "operands and results"),
    (fn("  %l, %h = arith.mului_extended %x, %x : f32"), VerifyError, "CPL_IR_OPERAND_TYPE", "integer or index operands"),
    (fn("  %l = arith.mulsi_extended %a, %a : i32"), ParseError, "CPL_IR_SYNTAX", "defines 2 results but 1 name is bound"),
]


@pytest.mark.parametrize("text,cls,code,fragment", BAD_OPS, ids=[c[3][:40] for c in BAD_OPS])
def test_ill_typed_ops_are_located_one_line_errors(text: str, cls: type, code: str, fragment: str):
    with pytest.raises(cls) as info:
        parse_text(text, "e.mlir")
    err = info.value
    assert err.code == code and fragment in err.message, str(err)
    assert err.loc.line == 2 and "\n" not in str(err)


@pytest.mark.parametrize(
    "text,inputs",
    [
        (FPOWI_PRETTY, {"x": 1.5, "n": -3}),
        (CLASS_PRETTY, {"x": 0.5}),
        (EXTENDED_PRETTY, {"a": -7, "b": 1000000000}),
    ],
    ids=["fpowi", "classification", "extended"],
)
def test_pretty_kernels_run_the_same_interpreted_and_lowered(text: str, inputs: dict):
    c = check_lowering(parse_text(text, "k.mlir"), "f", inputs)
    assert c.ok, c.detail
    assert c.interp.status == "completed"


# ----------------------------------------------------------------------------- float literals


def constant(literal: str) -> str:
    """A function whose only op, on line 2 at column 3, is ``arith.constant <literal>``."""
    return f"func.func @f() {{\n  %0 = arith.constant {literal}\n  return\n}}\n"


@pytest.mark.parametrize(
    "text,line,col,fragment,inf",
    [
        (constant("1.0e400 : f32"), 2, 23, "1.0e400 is beyond the range of f32", "0x7F800000 : f32"),
        (constant("3.5e38 : f32"), 2, 23, "(write 0x7F800000 to mean infinity)", "0x7F800000 : f32"),
        (constant("-1.0e400 : f64"), 2, 24, "write 0xFFF0000000000000", "0xFFF0000000000000 : f64"),
        (constant("70000.0 : f16"), 2, 23, "beyond the range of f16", "0x7C00 : f16"),
        (constant("3.4e38 : bf16"), 2, 23, "beyond the range of bf16", "0x7F80 : bf16"),
        (constant("1" + "0" * 400 + " : f32"), 2, 23, "beyond the range of f32", "0x7F800000 : f32"),
    ],
    ids=["1e400-f32", "3.5e38-f32", "neg-f64", "f16", "bf16", "huge-int-f32"],
)
def test_decimal_float_literal_out_of_range_reads_as_infinity_with_a_warning(text, line, col, fragment, inf, capsys):
    """MLIR's parser reads a decimal literal beyond its type's range as infinity (mlir-opt prints it back as the
    hex bit pattern), so loom takes it too, and says so in one located warning."""
    assert body_lines(text) == [f"%0 = arith.constant {inf}"]
    err = capsys.readouterr().err.strip().splitlines()
    assert err and all(ln.startswith(f"t.mlir:{line}:{col}: warning: [CPL_IR_FLOAT_RANGE] ") for ln in err), err
    assert fragment in err[0], err


def test_a_float_literal_in_range_warns_nothing(capsys):
    body_lines(constant("3.4028234e38 : f32"))
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    "literal,printed",
    [
        ("3.4028234e38 : f32", "3.4028235e+38 : f32"),
        ("65504.0 : f16", "65500.0 : f16"),
        ("0x7F800000 : f32", "0x7F800000 : f32"),
        ("0xFFF0000000000000 : f64", "0xFFF0000000000000 : f64"),
        ("1.0e-50 : f32", "0.0 : f32"),
    ],
)
def test_in_range_literals_and_hex_infinities_are_kept(literal: str, printed: str):
    assert body_lines(constant(literal)) == [f"%0 = arith.constant {printed}"]


@pytest.mark.parametrize("literal", ["0.0 : f128", "0 : f80", "0x0 : tf32"])
def test_unsupported_float_type_is_named_as_such(literal: str):
    with pytest.raises(ParseError) as info:
        parse_text(constant(literal), "e.mlir")
    t = literal.split(": ")[1]
    assert info.value.message == f"float type '{t}' is not supported (loom supports bf16, f16, f32, f64)"
    assert (info.value.loc.line, info.value.loc.col) == (2, 23)
