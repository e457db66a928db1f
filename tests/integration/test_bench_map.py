"""benchmarks/bench_map.py: the --quick run maps one example with loom and the first-fit baseline and proves both;
the baseline really is first fit; cells that do not fit are reported and left out of the ratios."""

from __future__ import annotations

import importlib.util
import json
import sys

from loom.map.artifacts import map_json
from loom.map.check import check
from loom.map.config import encode
from loom.map.greedy import greedy_map

from support.paths import ROOT

_spec = importlib.util.spec_from_file_location("bench_map", ROOT / "benchmarks" / "bench_map.py")
bm = importlib.util.module_from_spec(_spec)
sys.modules["bench_map"] = bm  # dataclasses look their module up
_spec.loader.exec_module(bm)


def test_quick_run_prints_a_table_with_ratios(capsys) -> None:
    assert bm.main(["--quick"]) == 0
    out = capsys.readouterr().out.splitlines()
    head = out.index(next(line for line in out if line.startswith("example")))
    row = out[head + 1].split()
    assert row[1] == "6x6" and "does not fit" not in out[head + 1]
    assert float(row[-1]) > 0 and float(row[-2]) > 0  # time and wire ratios, loom / baseline
    assert out[head + 2].startswith("geomean over 1 cells where both fit")


def test_the_baseline_is_first_fit_and_the_checker_proves_it() -> None:
    adg = bm.mesh_adg(6)
    dfg = bm.example_dfg(ROOT / "examples" / "find_first.scf.mlir", adg)
    m = greedy_map(dfg, adg)
    doc = json.loads(json.dumps(map_json(m, "find_first.dfg.mlir", "mesh6.fabric.mlir")))
    rep = check(dfg, adg, encode(adg, m.config), doc)
    assert rep.ok, rep.violations
    used = [m.place[n.id][1] for n in dfg.nodes if n.kind == "op"]
    assert used == [p.name for p in adg.pes()][: len(used)]  # every mesh PE offers every op: op k on PE k
    switch_steps = {(s["from"], s["to"]) for e in doc["edges"] for s in e["route"] if s["kind"] == "switch"}
    assert bm.wire_length(m) == len(switch_steps) > 0


def test_cells_that_do_not_fit_are_named_and_left_out_of_the_means() -> None:
    fit = bm.Cell(2.0, 100)
    rows = [bm.Row("a", 6, 10, fit, bm.Cell(1.0, 200)), bm.Row("b", 6, 99, bm.Cell(0.5, None, "full"), bm.Cell(0.1, None)),
            bm.Row("c", 8, 10, fit, bm.Cell(0.5, None))]
    lines = bm.table(rows)
    assert "loom does not fit, baseline does not fit" in lines[2] and lines[3].endswith("baseline does not fit")
    assert "loom does not fit" not in lines[3]
    assert lines[-1].startswith("geomean over 1 cells where both fit: time x 2.00, wire x 0.50")
    assert "loom fits 2/3, baseline fits 1/3" in lines[-1]
