"""`loom verify --adg`: the mapping checker's facts as `map.*` obligations in every report format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loom.cli import main
from loom.map.check import CheckReport
from loom.map.obligations import CONSTRAINTS

from support.map import EXAMPLES, corpus_file

MAP_IDS = {"map.iso"} | {f"map.{c}" for c in CONSTRAINTS}
FIFO_IDS = {"map.fifo.bmc.K4.deadlock", "map.fifo.bmc.K4.residual"}  # the verifier's bmc on the configured routes


@pytest.fixture(scope="module")
def mesh_file(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("adg") / "mesh.fabric.mlir"
    assert main(["adg", "mesh", "-o", str(out)]) == 0
    return out


def _map_obligations(doc: dict) -> dict[str, dict]:
    """``map.*`` obligations by id; several functions prefix their ids with ``function:``."""
    return {o["id"]: o for o in doc["obligations"] if o["id"].split(":")[-1].startswith("map.")}


def test_every_example_proves_every_mapping_fact(mesh_file: Path, capsys) -> None:
    assert len(EXAMPLES) == 11
    rc = main(["verify", *map(str, EXAMPLES), "--adg", str(mesh_file), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert rc == 0
    got = _map_obligations(doc)
    functions = {oid.split(":")[0] for oid in got}
    assert len(functions) == 11
    assert set(got) == {f"{f}:{m}" for f in functions for m in MAP_IDS | FIFO_IDS}
    for k, o in got.items():
        method = "simulation" if k.split(":")[-1] in FIFO_IDS else "graph"
        assert o["status"] == "proved" and o["kind"] == "mapping" and o["method"] == method, o


def test_too_small_fabric_refutes_fit(capsys, tmp_path: Path) -> None:
    src = next(p for p in EXAMPLES if p.name.startswith("matmul."))
    junit = tmp_path / "r.xml"
    sarif = tmp_path / "r.sarif"
    rc = main(["verify", str(src), "--adg", str(corpus_file("sw2-pe1-extmem1.fabric.mlir")), "--json",
               "--junit", str(junit), "--sarif", str(sarif)])
    doc = json.loads(capsys.readouterr().out)
    assert rc == 1
    got = _map_obligations(doc)
    assert set(got) == {"map.fit"}
    fit = got["map.fit"]
    assert fit["status"] == "refuted" and fit["kind"] == "mapping"
    assert "does not fit sw2-pe1-extmem1.fabric.mlir" in fit["detail"]
    assert "has no compatible function unit" in fit["detail"]
    assert fit["counterexample"]["reasons"]
    assert "map.fit" in junit.read_text() and "<failure" in junit.read_text()
    rules = [r["id"] for r in json.loads(sarif.read_text())["runs"][0]["tool"]["driver"]["rules"]]
    assert "loom.mapping" in rules


def test_checker_violation_refutes_its_constraint(mesh_file: Path, monkeypatch, capsys) -> None:
    """A violation the checker reports becomes a refuted map.iso and a refuted map.Cn, the rest stay proved."""
    import loom.map.check as check_mod

    monkeypatch.setattr(check_mod, "check", lambda *a: CheckReport(["C4: sw_0_0 output 1 selects 2 inputs at once"]))
    src = next(p for p in EXAMPLES if p.name.startswith("dot."))
    rc = main(["verify", str(src), "--adg", str(mesh_file), "--json"])
    got = _map_obligations(json.loads(capsys.readouterr().out))
    assert rc == 1
    assert got["map.C4"]["status"] == "refuted" and "selects 2 inputs" in got["map.C4"]["detail"]
    assert got["map.iso"]["status"] == "refuted"
    assert got["map.C4"]["counterexample"]["violations"] == ["sw_0_0 output 1 selects 2 inputs at once"]
    assert all(o["status"] == "proved" for k, o in got.items() if k not in ("map.C4", "map.iso"))


def test_text_report_lists_mapping_facts(mesh_file: Path, capsys) -> None:
    src = next(p for p in EXAMPLES if p.name.startswith("saxpy."))
    assert main(["verify", str(src), "--adg", str(mesh_file), "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "map.iso" in out and "graph: checker C11" in out
