"""Shared helpers of the tests/test_hdl_*.py files: the external tools they need, lowering an example, emitting
every example into one directory, and a one-loop kernel."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

import pytest

from support.paths import DATA, ROOT

EXAMPLES = sorted((ROOT / "examples").glob("*.scf.mlir"))
BIN = Path(sys.executable).parent


def need(tool: str) -> str:
    """The path of ``tool``; a missing tool skips locally but FAILS under CI=true (CI must install it)."""
    path = shutil.which(tool) or (str(BIN / tool) if (BIN / tool).exists() else None)
    if path is None:
        msg = f"{tool} is not installed (apt-get install -y iverilog verilator; pip install -e '.[test]')"
        if os.environ.get("CI") == "true":
            pytest.fail(msg)
        pytest.skip(msg)
    return path


def sby_says(v) -> str:
    """The assertion message for a SymbiYosys verdict (``SbyVerdict``): a tool error, which ``run_task`` reports
    only after its retries, says so and shows the tools' last lines, apart from a verdict that is wrong."""
    from loom.hdl.formal.sby import tool_error, tool_tail

    if tool_error(v):
        return (f"TOOL ERROR (no verdict) after {getattr(v, 'attempts', 'its')} attempts of task {v.task}, not a wrong "
                f"verdict:\n"
                f"{tool_tail(v)}")
    return f"task {v.task}: {v.status}, failed {v.failed}\n{v.log[-1500:]}"


def rtl_says(verdicts) -> str:
    """The assertion message for RTL verdicts (``RtlVerdict``): tool errors first, named as such."""
    from loom.hdl.formal.verify import TOOL

    tool = [f"rtl.{v.id}: TOOL ERROR (no verdict, after retries): {v.detail}" for v in verdicts if v.status == TOOL]
    rest = [f"rtl.{v.id}: {v.status} {v.detail[-1500:]}" for v in verdicts if v.status != TOOL]
    return "\n".join(tool + rest)


def dfg_func(path: Path):
    """The lowered handshake.func of an example (and its module)."""
    from loom.cli import _dfg_module, _pick_function

    ns = argparse.Namespace(max_join_fanin=None, no_rar=False)
    module = _dfg_module(path, None, ns)
    return _pick_function(module, None, ("handshake.func",), path), module


def stem(path: Path) -> str:
    return path.name[: -len(".scf.mlir")]


# a one-loop kernel: sum of 0 .. n-1
SUM = """func.func @sum(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %t = arith.addi %acc, %i : index
    scf.yield %t : index
  }
  return %s : index
}
"""


def emit_every_example(directory: Path) -> tuple[list, dict[str, str]]:
    """Every example's RTL written into ``directory`` (same-named components must be the same text): the
    Emitted designs, and every file's text."""
    from loom.hdl.emit import emit

    texts: dict[str, str] = {}
    designs = []
    for path in EXAMPLES:
        func, _ = dfg_func(path)
        e = emit(func, stem(path))
        for name in e.sv_files + ["loom_props.svh"]:
            assert texts.setdefault(name, e.files[name]) == e.files[name], name
        designs.append(e)
    for name, text in texts.items():
        (directory / name).write_text(text)
    return designs, texts


def hand(name: str):
    from loom.cli import _dfg_module, _pick_function

    path = DATA / "handwritten" / f"{name}.mlir"
    ns = argparse.Namespace(max_join_fanin=None, no_rar=False)
    return _pick_function(_dfg_module(path, None, ns), None, ("handshake.func",), path)


def break_carry_ready(monkeypatch) -> None:
    """Every emitted ``dataflow.carry`` component fires without its consumer's ready (a known-bad RTL fault that
    the table-conformance property refutes), for the tests that must see a formal run FAIL."""
    from loom.hdl import components as comp_mod

    real = comp_mod.build_component

    def broken(m):
        c = real(m)
        if m.op_name == "dataflow.carry":
            c.text = c.text.replace(" && o_ready;", ";")
        return c

    monkeypatch.setattr("loom.hdl.netlist.build_component", broken)
