"""Multi-block bodies (cf.br / cf.cond_br / cf.assert) in the interpreter, and their pretty syntax."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loom.diagnostics import LoomError, VerifyError
from loom.interp import run_json
from loom.mlir import parse_text, print_module

FIB = """
func.func @fib(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^loop(%c0, %c1, %n : i32, i32, i32)
^loop(%a: i32, %b: i32, %k: i32):
  %more = arith.cmpi sgt, %k, %c0 : i32
  cf.cond_br %more, ^step, ^done(%a : i32)
^step:
  %s = arith.addi %a, %b : i32
  %k1 = arith.subi %k, %c1 : i32
  cf.br ^loop(%b, %s, %k1 : i32, i32, i32)
^done(%r: i32):
  return %r : i32
}
"""

SWAP = """
func.func @swap(%x: i32, %y: i32, %n: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^bb1(%x, %y, %n : i32, i32, i32)
^bb1(%a: i32, %b: i32, %k: i32):
  %z = arith.cmpi eq, %k, %c0 : i32
  %k1 = arith.subi %k, %c1 : i32
  cf.cond_br %z, ^bb2, ^bb1(%b, %a, %k1 : i32, i32, i32)
^bb2:
  return %a, %b : i32, i32
}
"""


def fib(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, (a + b) & 0xFFFFFFFF
    return a - (1 << 32) if a >> 31 else a


@settings(max_examples=20, deadline=None)
@given(st.integers(-3, 40))
def test_a_cfg_loop_runs_like_the_python_one(n: int):
    r = run_json(parse_text(FIB, "fib.mlir"), "fib", {"n": n})
    assert (r.status, r.results) == ("completed", [fib(max(n, 0))])


@pytest.mark.parametrize(("n", "want"), [(0, [1, 2]), (1, [2, 1]), (2, [1, 2]), (5, [2, 1])])
def test_block_arguments_are_assigned_in_parallel(n: int, want: list[int]):
    # ^bb1(%b, %a) swaps: a sequential copy would give (b, b)
    r = run_json(parse_text(SWAP, "s.mlir"), "swap", {"x": 1, "y": 2, "n": n})
    assert r.results == want


def test_pretty_cf_round_trips_and_generic_cf_prints_pretty():
    for text in (FIB, SWAP):
        printed = print_module(parse_text(text, "f.mlir"))
        assert "cf.cond_br %" in printed and '"cf.' not in printed
        assert print_module(parse_text(printed, "f.mlir")) == printed
    generic = '''
func.func @g(%c: i1, %x: i32) -> i32 {
  "cf.cond_br"(%c, %x)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i1, i32) -> ()
^bb1(%v: i32):
  return %v : i32
^bb2:
  return %x : i32
}
'''
    printed = print_module(parse_text(generic, "g.mlir"))
    assert "cf.cond_br %c, ^bb1(%x : i32), ^bb2" in printed


def test_assert_passes_or_stops_the_run_with_its_message():
    text = """
func.func @f(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %ok = arith.cmpi sge, %x, %c0 : i32
  cf.assert %ok, "x must be non-negative"
  return %x : i32
}
"""
    m = parse_text(text, "a.mlir")
    assert run_json(m, "f", {"x": 3}).results == [3]
    r = run_json(m, "f", {"x": -1})
    assert r.status == "error" and r.error.code == "RT_CF_ASSERT" and "x must be non-negative" in str(r.error)
    assert str(r.error).startswith("a.mlir:5:3:")


def test_multi_block_execute_region_and_an_endless_cfg():
    text = """
func.func @f(%c: i1) -> i32 {
  %r = scf.execute_region -> i32 {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    %one = arith.constant 1 : i32
    scf.yield %one : i32
  ^bb2:
    %two = arith.constant 2 : i32
    cf.br ^bb3(%two : i32)
  ^bb3(%v: i32):
    scf.yield %v : i32
  }
  return %r : i32
}
func.func @spin() {
  cf.br ^bb1
^bb1:
  cf.br ^bb1
}
"""
    m = parse_text(text, "e.mlir")
    assert run_json(m, "f", {"c": 1}).results == [1]
    assert run_json(m, "f", {"c": 0}).results == [2]
    r = run_json(m, "spin", {}, max_steps=1000)
    assert r.status == "error" and r.error.code == "RT_STEP_LIMIT"


@pytest.mark.parametrize(
    ("body", "code", "message"),
    [
        ("  cf.br ^bb1(%x : i32)\n^bb1:\n  return %x : i32", "CPL_IR_ARITY", "passes 1 operands"),
        ("  cf.br ^bb1(%x : i32)\n^bb1(%y: i64):\n  return %x : i32", "CPL_IR_TYPE_MISMATCH", "argument types"),
        ("  cf.cond_br %x, ^bb1, ^bb1\n^bb1:\n  return %x : i32", "CPL_IR_OPERAND_TYPE", "must be i1"),
    ],
)
def test_bad_branches_are_verify_errors(body: str, code: str, message: str):
    with pytest.raises(VerifyError) as info:
        parse_text(f"func.func @f(%x: i32) -> i32 {{\n{body}\n}}\n", "b.mlir")
    assert info.value.code == code and message in str(info.value)


SWITCH = """
func.func @f(%flag: i32, %a: i32) -> i32 {
  cf.switch %flag : i32, [
    default: ^bb1(%a : i32),
    42: ^bb2,
    -3: ^bb3(%a, %a : i32, i32)
  ]
^bb1(%x: i32):
  return %x : i32
^bb2:
  %c = arith.constant 100 : i32
  return %c : i32
^bb3(%y: i32, %z: i32):
  %s = arith.addi %y, %z : i32
  return %s : i32
}
"""

SWITCH_GENERIC = """
func.func @f(%flag: i32, %a: i32) -> i32 {
  "cf.switch"(%flag, %a, %a, %a)[^bb1, ^bb2, ^bb3] <{case_operand_segments = array<i32: 0, 2>, case_values = dense<[42, -3]> : vector<2xi32>, operandSegmentSizes = array<i32: 1, 1, 2>}> : (i32, i32, i32, i32) -> ()
^bb1(%x: i32):
  return %x : i32
^bb2:
  %c = arith.constant 100 : i32
  return %c : i32
^bb3(%y: i32, %z: i32):
  %s = arith.addi %y, %z : i32
  return %s : i32
}
"""


@pytest.mark.parametrize("text", [SWITCH, SWITCH_GENERIC])
@pytest.mark.parametrize(("flag", "want"), [(42, 100), (-3, 10), (7, 5), (0, 5)])
def test_switch_picks_its_case_or_the_default(text: str, flag: int, want: int):
    assert run_json(parse_text(text, "s.mlir"), "f", {"flag": flag, "a": 5}).results == [want]


def test_switch_pretty_form_round_trips_and_equals_the_generic_one():
    from loom.ir.equality import modules_equal

    pretty = parse_text(SWITCH, "s.mlir")
    printed = print_module(pretty)
    assert "cf.switch %flag : i32, [" in printed and "-3: ^bb3(%a, %a : i32, i32)" in printed
    assert print_module(parse_text(printed, "s.mlir")) == printed
    assert modules_equal(pretty, parse_text(SWITCH_GENERIC, "g.mlir"))


@pytest.mark.parametrize(
    ("cases", "message"),
    [("42: ^bb2,\n    42: ^bb2", "duplicate case value"), ("42: ^bb2(%a : i32)", "passes 1 operands")],
)
def test_bad_switches_are_reported(cases: str, message: str):
    text = SWITCH.replace("42: ^bb2,\n    -3: ^bb3(%a, %a : i32, i32)", cases)
    with pytest.raises(LoomError) as info:
        parse_text(text, "s.mlir")
    assert message in str(info.value) and str(info.value).startswith("s.mlir:")
