"""MLIR value names are not SV identifiers (``%g.row`` is valid MLIR, and the C front end's struct members were once
spelled so): the RTL bench names each memref argument's array by a sanitised, unique identifier and reads its
final contents back by position, so ``sim --rtl`` runs such a kernel and agrees with the token simulator."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.hdl import need

KERNEL = """func.func @f(%g.row: memref<4xi32>, %g_row: memref<4xi32>, %k.n: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = memref.load %g.row[%c0] : memref<4xi32>
  %w = arith.addi %v, %k.n : i32
  memref.store %w, %g_row[%c1] : memref<4xi32>
  return %w : i32
}
"""


@pytest.mark.parametrize("sim", ["iverilog", "verilator"])
def test_dotted_and_colliding_argument_names_run_in_rtl(tmp_path: Path, sim: str) -> None:
    need(sim)
    src = tmp_path / "names.scf.mlir"
    src.write_text(KERNEL)
    inputs = tmp_path / "names.inputs.json"
    inputs.write_text(json.dumps({"g.row": [5, 6, 7, 8], "g_row": [0, 0, 0, 0], "k.n": 10}))
    env = {**os.environ, "LOOM_RTL_SIM": sim}
    r = subprocess.run([sys.executable, "-m", "loom", "sim", str(src), "--inputs", str(inputs), "--rtl", "--json"],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["results"] == [15]
    assert doc["memrefs"]["g_row"] == [0, 15, 0, 0] and doc["memrefs"]["g.row"] == [5, 6, 7, 8]
    assert doc["rtl"]["simulator"] == sim or sim in json.dumps(doc["rtl"]).lower()
