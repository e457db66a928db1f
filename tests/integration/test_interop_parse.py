"""Valid MLIR that mlir-opt and CIRCT accept and loom used to refuse (issue 12)."""

from __future__ import annotations

import pytest

from loom.diagnostics import ParseError
from loom.interp import interpret
from loom.mlir import parse_text, print_module


def _run(text: str, inputs: dict) -> list:
    module = parse_text(text)
    name = module.functions()[0].attributes["sym_name"].value
    r = interpret(module, name, inputs)
    assert r.status == "completed", r.error
    return r.results


def test_labelled_entry_block_without_arguments() -> None:
    text = "func.func @f() -> i32 {\n^bb0:\n  %c = arith.constant 3 : i32\n  return %c : i32\n}\n"
    assert _run(text, {}) == [3]
    assert _run(print_module(parse_text(text)), {}) == [3]  # and it prints back to something loom reads


def test_unnamed_signature_names_its_arguments_on_the_entry_block() -> None:
    text = "func.func @f(i32, i32) -> i32 {\n^bb0(%a: i32, %b: i32):\n  %s = arith.subi %a, %b : i32\n  return %s : i32\n}\n"
    module = parse_text(text)
    from loom.runtime import function_arg_names

    assert function_arg_names(module.functions()[0]) == ["a", "b"]
    assert _run(text, {"a": 9, "b": 4}) == [5]


@pytest.mark.parametrize(
    "text",
    [
        "func.func @f(i32) -> i32 {\n  %c = arith.constant 3 : i32\n  return %c : i32\n}\n",
        "func.func @f(i32) -> i32 {\n^bb0(%a: i64):\n  return %a : i64\n}\n",
        "func.func @f() {\n^bb0(%a: i32):\n  return\n}\n",
        "func.func @f(%x: i32) {\n^bb0:\n  return\n}\n",
    ],
)
def test_entry_block_that_disagrees_with_the_signature_is_a_syntax_error(text: str) -> None:
    with pytest.raises(ParseError) as e:
        parse_text(text)
    assert e.value.code == "CPL_IR_SYNTAX"
