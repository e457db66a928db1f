"""Malformed input gives a ParseError at the offending token with a clear one-line message."""

from __future__ import annotations

import pytest

from loom.diagnostics import LoomError, ParseError
from loom.mlir import parse_file, parse_splits, parse_text


def parse_error(text: str) -> ParseError:
    with pytest.raises(ParseError) as info:
        parse_text(text, "e.mlir")
    err = info.value
    assert "\n" not in str(err)
    return err


CASES = [
    # (text, line, col, message fragment)
    ("func.func @f(%a: i32) {\n  %0 = arith.addi %a, %a }\n", 2, 26, "expected ':' before the type, found '}'"),
    ("func.func @f() {\n  %0 = arith.constant 1 : i32\n", 3, 1, "expected '}' to close the region"),
    ("func.func @f(%a: i32) {\n  %0 = arith.cmpi foo, %a, %a : i32\n}", 2, 19, "expected one of 'eq', 'ne'"),
    ("func.func @f(%a: i32) {\n  %0 = arith.addi %a %a : i32\n}", 2, 22, "expected ',', found '%a'"),
    ("func.func @f(%a: i32) {\n  %0 = arith.frobnicate %a : i32\n}", 2, 8, "'arith.frobnicate' is not an operation loom knows"),
    ("func.func @f() {\n  %0 = frobnicate\n}", 2, 8, "unknown operation 'frobnicate'"),
    ("func.func @f(%a: i32) {\n  %0 = arith.addi %a, %a : i33x\n}", 2, 28, "unknown type 'i33x'"),
    ("func.func @f(%a: memref<4xf32) {\n}", 1, 30, "expected ',' or '>' in type, found ')'"),
    ('func.func @f() attributes {s = "abc} {\n}', 1, 32, "unterminated string"),
    ('func.func @f() attributes {s = "a\\qb"} {\n  return\n}', 1, 32, "unknown escape '\\q' in string"),
    ("func.func @f() {\n  %0 = arith.constant 300 : i8\n  return\n}", 2, 23, "integer value 300 out of range for type 'i8'"),
    ("func.func @f() {\n  %0 = arith.constant 1.5 : i32\n  return\n}", 2, 23, "floating point literal with non-float type 'i32'"),
    ("func.func @f() attributes {a = 1, a = 2} {\n  return\n}", 1, 35, "duplicate key 'a' in dictionary"),
    ("func.func @f() {\n  %0:2 = arith.constant 1 : i32\n  return\n}", 2, 3, "operation defines 1 result but 2 names are bound"),
    ("func.func @f(%a: i32) {\n  %0 = \"foo.bar\"(%a) : (i32, i32) -> ()\n  return\n}", 2, 22, "1 operands but 2 operand types"),
    ("func.func @f(%a: i32) {\n  %0 = \"foo.bar\"(%a) : i32\n  return\n}", 2, 22, "expected a function type"),
    ("func.func @f(%a: !undefined) {\n  return\n}", 1, 18, "undefined type alias '!undefined'"),
    ("func.func @f() attributes {a = #undefined} {\n  return\n}", 1, 32, "undefined attribute alias '#undefined'"),
    ("func.func @f() {\n  %0 = arith.constant 1 : i32 ;\n  return\n}", 2, 31, "unexpected character ';'"),
    ("func.func @f() {\n  \"cf.br\"()[^nowhere] : () -> ()\n}", 2, 13, "reference to undefined block '^nowhere'"),
    ("func.func @f() {\n  return\n^bb1:\n  return\n^bb1:\n  return\n}", 5, 1, "redefinition of block '^bb1'"),
    ("handshake.func @h(%a: i32, ...) -> none {\n  %0:2 = fork [0] %a : i32\n}", 2, 16, "result count must be positive"),
    ("handshake.func @h(%a: i32, ...) -> none {\n  %0 = buffer [2] lifo %a : i32\n}", 2, 19, "expected one of 'seq', 'fifo', found 'lifo'"),
    ("handshake.func @h(%m: memref<4xi32>, ...) -> none {\n  extmemory[ld = 1] (%m : memref<4xi32>) () : () -> ()\n}", 2, 19, "expected ',' between 'ld' and 'st'"),
    ("func.func @f(%a: i32, ...) {\n  return\n}", 1, 23, "'...' is only allowed in handshake.func"),
    ("func.func @f(%a: i32, i32) {\n  return\n}", 1, 23, "expected argument name, found 'i32'"),
    ("func.func @f(i32) {\n  return\n}", 1, 19, "a function with a body must name its arguments"),
    ("#a = 1\n#a = 2\n", 2, 1, "redefinition of attribute alias '#a'"),
    ("func.func @f() {\n  %0 = arith.constant dense<[1, 2]> : tensor<3xi32>\n  return\n}", 2, 23, "dense attribute has 2 elements but type 'tensor<3xi32>' holds 3"),
    ("func.func @f() {\n  %0 = arith.constant \"s\"\n  return\n}", 2, 23, "constant value must be a number"),
]


@pytest.mark.parametrize("text,line,col,fragment", CASES, ids=[c[3][:40] for c in CASES])
def test_parse_error_location_and_message(text: str, line: int, col: int, fragment: str):
    err = parse_error(text)
    assert fragment in err.message, str(err)
    assert (err.loc.line, err.loc.col) == (line, col), str(err)
    assert str(err).startswith(f"e.mlir:{line}:{col}: error: ")


def test_deeply_nested_attribute_is_rejected_not_recursed():
    err = parse_error("func.func @f() attributes {a = " + "[" * 5000 + "]" * 5000 + "} {\n  return\n}")
    assert "nested" in err.message


def test_deeply_nested_regions_are_rejected_not_recursed():
    depth = 400
    body = "".join("  " * k + "scf.if %c {\n" for k in range(depth)) + "".join("}\n" for _ in range(depth))
    err = parse_error("func.func @f(%c: i1) {\n" + body + "  return\n}")
    assert "nested" in err.message


def test_nesting_below_the_limit_is_fine():
    from loom.ir.equality import modules_equal
    from loom.mlir import print_module

    depth = 95
    body = "".join("  " * k + "scf.if %c {\n" for k in range(depth)) + "".join("}\n" for _ in range(depth))
    m = parse_text("func.func @f(%c: i1) {\n" + body + "  return\n}", "e.mlir")
    assert modules_equal(m, parse_text(print_module(m), "p.mlir"))


def test_huge_integer_literal():
    digits = "9" * 6000
    err = parse_error(f"func.func @f() {{\n  %0 = arith.constant {digits} : i32\n  return\n}}")
    assert err.loc.line == 2
    err = parse_error(f"handshake.func @h(%a: i32, ...) -> none {{\n  %0:2 = fork [{digits}] %a : i32\n}}")
    assert err.loc.line == 2


def test_huge_dimension():
    err = parse_error("func.func @f(%m: memref<" + "9" * 5000 + "xf32>) {\n  return\n}")
    assert err.loc.line == 1


def test_parse_file_reports_missing_file(tmp_path):
    with pytest.raises(ParseError) as info:
        parse_file(tmp_path / "nope.mlir")
    assert "cannot read file" in str(info.value)


def test_parse_file_reports_undecodable_file(tmp_path):
    p = tmp_path / "bin.mlir"
    p.write_bytes(b"\xff\xfe\x00module")
    with pytest.raises(LoomError):
        parse_file(p)


def test_splits_keep_line_numbers():
    text = (
        "func.func @a() {\n  return\n}\n"
        "// -----\n"
        "func.func @b() {\n  return\n}\n"
        "// -----\n"
        "\n"
        "func.func @c() {\n  %0 = arith.addi %x, %x : i32\n  return\n}\n"
    )
    with pytest.raises(LoomError) as info:
        parse_splits(text, "s.mlir")
    assert str(info.value).startswith("s.mlir:11:19: error: [CPL_IR_UNDEFINED_VALUE]")
    good = parse_splits(text.rsplit("// -----", 1)[0], "s.mlir")
    assert [m.ops[0].attributes["sym_name"].value for m in good] == ["a", "b"]
    assert good[1].ops[0].loc.line == 5


def test_empty_split_gives_an_empty_module():
    mods = parse_splits("// -----\nfunc.func @a() {\n  return\n}\n", "s.mlir")
    assert len(mods) == 2 and mods[0].ops == [] and len(mods[1].ops) == 1
