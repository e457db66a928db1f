"""C2 (a port is at least as wide as the value it carries) on fabrics with 32-bit ports: the checker rejects an
i64 value forced through one, and the mapper routes around it or reports the edge as unroutable."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from loom.cli import main
from loom.map.adg.read import load_adg
from loom.map.check import check
from loom.map.config import encode
from loom.map.mapper import MapFailure, map_dfg

from support.paths import DATA
from support.map import dfg_of_file, map_and_check


DATA = DATA / "map"
DFG_FILE = DATA / "add64.dfg.mlir"


def _codes(violations: list[str]) -> set[str]:
    return {v.split(":", 1)[0] for v in violations}


def test_the_mapper_routes_an_i64_value_around_a_32_bit_port() -> None:
    adg = load_adg(DATA / "narrow.fabric.mlir")
    m, words, doc, rep = map_and_check(dfg_of_file(DFG_FILE), adg)
    assert rep.ok, rep.violations
    assert m.config.switches == {"sw_split": {(1, 0)}, "sw_merge": {(0, 1)}}  # (output, input): the 64-bit path
    assert not any("sw_split.out0" in (s["from"], s["to"]) for e in doc["edges"] for s in e["route"])


def test_the_checker_rejects_an_i64_value_forced_through_a_32_bit_port() -> None:
    adg = load_adg(DATA / "narrow.fabric.mlir")
    dfg = dfg_of_file(DFG_FILE)
    m, words, doc, rep = map_and_check(dfg, adg)
    assert rep.ok, rep.violations
    cfg = copy.deepcopy(m.config)
    cfg.switches = {"sw_split": {(0, 0)}, "sw_merge": {(0, 0)}}  # the 32-bit detour instead
    bad = copy.deepcopy(doc)
    for e in bad["edges"]:
        for s in e["route"]:
            for end in ("from", "to"):
                s[end] = {"sw_split.out1": "sw_split.out0", "sw_merge.in1": "sw_merge.in0"}.get(s[end], s[end])
    rep = check(dfg, adg, encode(adg, cfg), bad)
    assert _codes(rep.violations) == {"C2"}, rep.violations  # everything else about the detour is legal
    assert "carries i64 through a 32-bit port" in rep.violations[0]


def test_the_mapper_reports_an_edge_only_a_narrow_port_could_carry(tmp_path: Path, capsys) -> None:
    adg = load_adg(DATA / "narrow_only.fabric.mlir")
    with pytest.raises(MapFailure, match="cannot be routed on any placement: .*at least 64 bits wide for its i64") as info:
        map_dfg(dfg_of_file(DFG_FILE), adg)
    assert info.value.attempts == 1  # no placement can help: the mapper says so at once
    assert info.value.partial is not None and info.value.partial["routed_edges"] == 2
    argv = ["map", str(DFG_FILE), "--adg", str(DATA / "narrow_only.fabric.mlir"), "-o", str(tmp_path), "-q"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "does not fit" in err and "2/3 edges routed" in err
    assert not list(tmp_path.iterdir())
