"""The dataflow ops are defined once (loom/dialects/dataflow.py): the parser's verifier and the table builder that
the simulator, the Z3 model and the HDL read are the same definition, so they accept and refuse the same ops with
the same codes (issue 28, item 5)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from loom.diagnostics import VerifyError
from loom.dialects.registry import lookup
from loom.ir.attributes import StringAttr
from loom.ir.types import i64
from loom.mlir.api import parse_text
from loom.semantics import machine_for

DATAFLOW = ("dataflow.stream", "dataflow.gate", "dataflow.carry", "dataflow.invariant")


def _ops(text: str) -> dict[str, object]:
    module = parse_text(text, "v.mlir")
    func = module.body.ops[0]
    return {op.name: op for op in func.regions[0].blocks[0].ops}


LOOP = """handshake.func @f(%n: index, %x: i32, %ctl: none, ...) -> (i32, none) {
  %c0 = handshake.constant %ctl {value = 0 : index} : index
  %c1 = handshake.constant %ctl {value = 1 : index} : index
  %i, %w = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"}
  %xv, %xc = dataflow.gate %x, %w : i32, i1 -> i32, i1
  %acc = dataflow.carry %w, %x, %xv : i1, i32, i32 -> i32
  %inv = dataflow.invariant %w, %x : i1, i32 -> i32
  return %acc, %ctl : i32, none
}
"""


def test_every_dataflow_op_carries_syntax_verifier_and_table() -> None:
    for name in DATAFLOW:
        d = lookup(name)
        assert d is not None and d.syntax is not None and d.verify is not None and d.machine is not None, name


def test_table_builder_applies_the_parsers_rule_with_its_code() -> None:
    ops = _ops(LOOP)
    for name in DATAFLOW:
        machine_for(ops[name])  # a verified op has a table
    stream = ops["dataflow.stream"]
    stream.attributes["step_op"] = StringAttr("%=")
    with pytest.raises(VerifyError) as e:
        machine_for(stream)
    assert e.value.code == "CPL_DATAFLOW_STREAM_INVALID_STEP_OP"
    stream.attributes["step_op"] = StringAttr("+=")
    stream.attributes["cont_cond"] = StringAttr("==")
    with pytest.raises(VerifyError) as e:
        machine_for(stream)
    assert e.value.code == "CPL_DATAFLOW_STREAM_INVALID_CONT_COND"
    carry = ops["dataflow.carry"]
    carry.results[0].type = i64  # an op a pass built wrongly: the builder refuses it as the parser would
    with pytest.raises(VerifyError) as e:
        machine_for(carry)
    assert e.value.code == "CPL_DATAFLOW_CARRY_TYPE_MISMATCH"


def test_stream_parameters_reach_the_table() -> None:
    ops = _ops(LOOP.replace('cont_cond = "<"', 'cont_cond = "!="').replace('"+="', '"*="'))
    m = machine_for(ops["dataflow.stream"])
    ops2 = _ops(LOOP)
    assert m != machine_for(ops2["dataflow.stream"])  # a different step_op/cont_cond gives a different table


TAGGED = """handshake.func @f(%t: !dataflow.tagged<index, i3>, %c: i1, %v: !dataflow.tagged<f32, i4>, %ctl: none, ...) -> (none) {
  %a, %b = dataflow.stream %t, %t, %t : (!dataflow.tagged<index, i3>, !dataflow.tagged<index, i3>, !dataflow.tagged<index, i3>) -> (index, i1)
  %o = dataflow.carry %c, %v, %v : i1, !dataflow.tagged<f32, i4>, !dataflow.tagged<f32, i4> -> !dataflow.tagged<f32, i4>
  return %ctl : none
}
"""


def test_tagged_values_where_the_spec_allows_them() -> None:
    ops = _ops(TAGGED)  # the verifier accepts both
    machine_for(ops["dataflow.carry"])  # a carry moves tagged values as they are
    with pytest.raises(VerifyError) as e:
        machine_for(ops["dataflow.stream"])  # a stream per tag has no table yet: said, not a type error
    assert e.value.code == "CPL_DATAFLOW_TAGGED_STREAM"


def test_verify_of_a_tagged_stream_is_one_located_line(tmp_path: Path) -> None:
    f = tmp_path / "t.dfg.mlir"
    f.write_text(TAGGED)
    r = subprocess.run([sys.executable, "-m", "loom", "verify", str(f)], capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{f}:2:3: error: [CPL_DATAFLOW_TAGGED_STREAM] "), r.stderr
