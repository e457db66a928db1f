"""Fuzz over tests/data/mlir_real: mutated mlir-opt-style text gives a LoomError or a module that
round-trips, interprets and lowers with nothing but LoomErrors -- never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loom.diagnostics import LoomError
from loom.interp import run_json
from loom.ir.equality import modules_equal
from loom.lower import LowerOptions, lower_module
from loom.mlir import parse_text, print_module

from support.paths import DATA

DATA = DATA / "mlir_real"
FILES = sorted(DATA.glob("*.mlir"))
SNIPPETS = ["%", "^", "@", "#", ":", ",", "(", ")", "[", "]", "{", "}", "<", ">", "=", "->", "\"", "loc(", "{-#", "#-}",
            "^bb1", "cf.br ", "case 1 {", "default {", "dense_resource<", "0xf32", "memref<0x", ", ^bb", "scf.yield",
            "-1", "i32", "index", "\n", " "]


@st.composite
def mutated(draw) -> tuple[Path, str]:
    path = draw(st.sampled_from(FILES))
    s = path.read_text()
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(s)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "move_line"]))
        if kind == "insert":
            s = s[:i] + draw(st.sampled_from(SNIPPETS)) + s[i:]
        elif kind == "delete":
            s = s[:i] + s[i + draw(st.integers(1, 10)) :]
        elif kind == "replace":
            s = s[:i] + draw(st.sampled_from(SNIPPETS)) + s[i + 1 :]
        else:
            lines = s.split("\n")
            line = lines.pop(draw(st.integers(0, len(lines) - 1)))
            lines.insert(draw(st.integers(0, len(lines))), line)
            s = "\n".join(lines)
    return path, s


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_real_inputs_fail_only_with_loom_errors(case: tuple[Path, str]):
    path, text = case
    try:
        module = parse_text(text, "m.mlir")
    except LoomError:
        return
    again = parse_text(print_module(module), "m.mlir")
    assert modules_equal(module, again)
    inputs = json.loads(path.with_suffix(".inputs.json").read_text())
    for f in module.functions():
        if f.name != "func.func" or not f.regions[0].blocks:
            continue
        name = f.attributes["sym_name"].value
        try:
            run_json(module, name, inputs, max_steps=50_000)
        except LoomError:
            pass
        try:
            lower_module(module, name, LowerOptions())
        except LoomError:
            pass


@pytest.mark.parametrize(
    "text",
    [
        # an error inside an isolated region nested in a module used to leave the parser's scopes unbalanced
        "module {\n  func.func @f() {\n    cf.br ^bb9\n  }\n}\n",
        "module {\n  func.func @f() {\n    %0 = arith.addi %x, %x : i32\n  }\n}\n",
        "module {\n  module {\n    func.func @f() {\n      cf.br ^nowhere\n    }\n  }\n}\n",
    ],
)
def test_errors_in_nested_isolated_regions_are_parse_errors(text: str):
    with pytest.raises(LoomError) as info:
        parse_text(text, "n.mlir")
    assert str(info.value).startswith("n.mlir:")
