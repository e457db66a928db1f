"""benchmarks/circt_budget.py: split-input chunks, one verify run per chunk, and its table's counts."""

from __future__ import annotations

import importlib.util
import sys
from argparse import Namespace

from support.paths import ROOT

_spec = importlib.util.spec_from_file_location("circt_budget", ROOT / "benchmarks" / "circt_budget.py")
cb = importlib.util.module_from_spec(_spec)
sys.modules["circt_budget"] = cb  # dataclasses look their module up
_spec.loader.exec_module(cb)

PASS = """handshake.func @pass(%a: i32, %go: none, ...) -> (i32, none) {
  return %a, %go : i32, none
}
"""
BAD = "handshake.func @bad(%a: i32, %go: none, ...) -> (i64, none) {\n  return %a, %go : i32, none\n}\n"


def test_chunks_split_at_dashes_and_run(tmp_path):
    (tmp_path / "two.mlir").write_text(PASS + "\n// -----\n\n" + BAD)
    (tmp_path / "one.mlir").write_text(PASS)
    todo = cb.chunks(tmp_path)
    assert [n for n, _ in todo] == ["one.mlir", "two.mlir#0", "two.mlir#1"]
    args = Namespace(budget=20.0, timeout=5.0, slack=30.0)
    runs = [cb.run_one(n, t, tmp_path, args) for n, t in todo]
    assert [r.status for r in runs] == [0, 0, 2] and runs[2].code.startswith("CPL_")
    assert not any(r.crashed for r in runs)
    table = cb.report(runs, args)
    assert "verified (exit 0/1/3):  2  exit0=2" in table and "crashed:                0" in table


def test_report_names_crashes_and_kills():
    args = Namespace(budget=1.0, timeout=1.0, slack=1.0)
    runs = [cb.Run("a.mlir", 1, 0, 0.5, ""),
            cb.Run("b.mlir", 1, 1, 0.5, "Traceback (most recent call last):\nKeyError: 'x'\n"),
            cb.Run("c.mlir#3", 2, None, 3.0, "")]
    table = cb.report(runs, args)
    assert "CRASH b.mlir: exit 1: KeyError: 'x'" in table
    assert "OVER BUDGET c.mlir#3: killed after 3.0 s (2 functions)" in table
    assert "verified (exit 0/1/3):  1  exit0=1" in table
