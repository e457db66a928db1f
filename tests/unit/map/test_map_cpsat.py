"""The CP-SAT placer: legal and proved placements, deterministic for a seed, never worse than its greedy start,
selectable from the command line, and compared with annealing by benchmarks/bench_map.py --placers."""

from __future__ import annotations

import importlib.util
import json
import random
import sys

import pytest

from loom.map.adg.read import load_adg
from loom.map.config import encode
from loom.map.mapper import map_dfg
from loom.map.place import Placer, hop_distances
from loom.map.place_cpsat import place_cpsat, placement_cost
from loom.map.techmap import candidates

from loom.map.check import check

from support.paths import DATA
from support.map import EXAMPLES, ROOT, default_mesh, dfg_of_file, doc_of

DOT = next(p for p in EXAMPLES if p.name.startswith("dot."))


@pytest.fixture(scope="module")
def dot():
    adg = default_mesh()
    return adg, dfg_of_file(DOT, adg.max_join_fanin())


def test_cpsat_mapping_is_proved(dot) -> None:
    adg, dfg = dot
    m = map_dfg(dfg, adg, seed=0, placer="cpsat")
    assert check(dfg, adg, encode(adg, m.config), doc_of(m)).ok


def test_cpsat_is_deterministic_and_no_worse_than_its_start(dot) -> None:
    adg, dfg = dot
    cands, dist = candidates(dfg, adg), hop_distances(adg)
    a = place_cpsat(dfg, adg, cands, random.Random(7), dist, rounds=20)
    b = place_cpsat(dfg, adg, cands, random.Random(7), dist, rounds=20)
    assert a == b
    start = Placer(dfg, adg, cands, random.Random(7), dist)
    start.greedy()
    assert placement_cost(dfg, a, dist) <= placement_cost(dfg, start.place, dist)
    assert len({t[1] for t in a.values() if t[0] == "fu"}) == sum(1 for t in a.values() if t[0] == "fu")  # one per PE


def test_unknown_placer_is_refused(dot) -> None:
    adg, dfg = dot
    with pytest.raises(ValueError):
        map_dfg(dfg, adg, placer="ilp")


def test_cli_placer_option(tmp_path) -> None:
    from loom.cli import main

    fab = DATA / "map" / "fifo.fabric.mlir"
    dfg = DATA / "map" / "add64.dfg.mlir"
    assert main(["map", str(dfg), "--adg", str(fab), "--placer", "cpsat", "-o", str(tmp_path), "-q"]) == 0
    doc = json.loads((tmp_path / "add64.fifo.map.json").read_text())
    assert doc["stats"]["pes_used"] == 1
    assert load_adg(str(fab)).name == "fifos"


def test_bench_compares_the_placers(capsys) -> None:
    spec = importlib.util.spec_from_file_location("bench_map", ROOT / "benchmarks" / "bench_map.py")
    bm = importlib.util.module_from_spec(spec)
    sys.modules["bench_map"] = bm
    spec.loader.exec_module(bm)
    assert bm.main(["--quick", "--placers"]) == 0
    out = capsys.readouterr().out.splitlines()
    head = out.index(next(line for line in out if line.startswith("example")))
    assert "sa s" in out[head] and "cpsat s" in out[head]
    assert out[-1].startswith("geomean over 1 cells where both fit") or "does not fit" in out[head + 1]
