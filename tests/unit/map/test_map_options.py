"""Upstream's mapper options on `loom map`: the base YAML and its CLI overrides, contradictions refused with one
located line, periodic snapshots, and the FIFO bufferization pass with its recurrence guard."""

from __future__ import annotations

import json
from pathlib import Path

from loom.cli import main
from loom.map.bufferize import recurrence_edges
from loom.map.check import check
from loom.map.config import decode, from_bytes
from loom.map.adg.read import load_adg
from loom.map.dfg import read_dfg
from loom.mlir import parse_file, parse_text

from support.paths import DATA

DATA = DATA / "map"
DFG = DATA / "carry_add.dfg.mlir"
FABRIC = DATA / "carry_fifo.fabric.mlir"
BUFFERING = """version: 1
mapper:
  routing_heuristic_weight: 1.5   # a comment
  timing:
    combinational_node_delay: 1.0
    routing_hop_delay: 4.0
  bufferization:
    enabled: true
    max_iterations: 2
"""


def _map(tmp: Path, *flags: str) -> int:
    return main(["map", str(DFG), "--adg", str(FABRIC), "-o", str(tmp / "out"), "-q", *flags])


def _doc(tmp: Path) -> dict:
    return json.loads((tmp / "out" / "carry_add.carry_fifo.map.json").read_text())


def _one_error(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


def test_base_config_is_read_and_a_cli_override_warns(tmp_path: Path, capsys) -> None:
    cfg = tmp_path / "m.yaml"
    cfg.write_text(BUFFERING)
    assert _map(tmp_path, "--mapper-base-config", str(cfg), "--mapper-routing-heuristic-weight", "2") == 0
    err = capsys.readouterr().err
    assert "warning: CLI option --mapper-routing-heuristic-weight overrides mapper base config value 1.5 with 2.0" in err
    assert _map(tmp_path, "--mapper-base-config", str(cfg), "--mapper-routing-heuristic-weight", "1.5") == 0
    assert "overrides" not in capsys.readouterr().err  # the same value is no override


def test_bufferization_buffers_the_long_route_and_guards_the_recurrence(tmp_path: Path) -> None:
    cfg = tmp_path / "m.yaml"
    cfg.write_text(BUFFERING)
    assert _map(tmp_path, "--mapper-base-config", str(cfg)) == 0
    doc = _doc(tmp_path)
    bypassed = {f["name"]: f["bypassed"] for f in doc["fifo_configs"]}
    assert bypassed == {"loop_fifo": True, "side_fifo": False}
    t = doc["timing"]
    assert t["mapper_selected_buffered_fifos"] == ["side_fifo"] and t["mapper_selected_buffered_fifo_depths"] == [4]
    assert t["recurrence_guarded_fifos"] == ["loop_fifo"] and t["critical_path_edges"]
    assert doc["search"]["fifo_bufferization_accepted_toggles"] == 1
    # the bit in config.bin says buffered, and the checker proves the configuration
    adg = load_adg(str(FABRIC))
    words = from_bytes((tmp_path / "out" / "carry_add.carry_fifo.config.bin").read_bytes())
    assert decode(adg, words).bypassed == {"loop_fifo": True, "side_fifo": False}
    func = [f for f in parse_file(DFG).functions() if f.name == "handshake.func"][0]
    assert check(read_dfg(func), adg, words, doc).ok


def test_without_bufferization_every_fifo_keeps_the_fabrics_bit(tmp_path: Path) -> None:
    assert _map(tmp_path) == 0
    doc = _doc(tmp_path)
    assert all(f["bypassed"] for f in doc["fifo_configs"])
    assert doc["timing"]["mapper_selected_buffered_fifo_count"] == 0


def test_recurrence_edges_are_cycles_and_loop_carried_operands() -> None:
    text = """handshake.func @acc(%c: i1, %init: i64, %step: i64, ...) -> (i64) attributes {argNames = ["c", "init", "step"], resNames = ["y"]} {
  %x = dataflow.carry %c, %init, %n : i1, i64, i64 -> i64
  %n = arith.addi %x, %step : i64
  handshake.return %x : i64
}
"""
    func = [f for f in parse_text(text, "acc.mlir").functions() if f.name == "handshake.func"][0]
    dfg = read_dfg(func)
    rec = {(dfg.by_id[dfg.edges[k].src[0]].name, dfg.by_id[dfg.edges[k].dst[0]].name) for k in recurrence_edges(dfg)}
    assert rec == {("dataflow.carry", "arith.addi"), ("arith.addi", "dataflow.carry")}


def test_both_snapshot_modes_are_one_located_line(tmp_path: Path, capsys) -> None:
    flags = ["--mapper-snapshot-interval-seconds", "1", "--mapper-snapshot-interval-rounds", "1"]
    assert _map(tmp_path, *flags) == 2
    line = _one_error(capsys)
    argv = ["map", str(DFG), "--adg", str(FABRIC), "-o", str(tmp_path / "out"), "-q", *flags]
    col = len(" ".join(argv[:-2])) + 2  # the later of the two flags
    assert line.startswith(f"<command line>:1:{col}: error: [CPL_MAP_OPTIONS] ")
    assert not (tmp_path / "out").exists()


def test_config_errors_name_the_yaml_line(tmp_path: Path, capsys) -> None:
    cases = {
        "version: 1\nmapper:\n  snapshot_interval_seconds: 2\n  snapshot_interval_rounds: 3\n": ":4:3:",
        "version: 1\nmapper:\n  bufferization:\n    max_iterations: 0\n": ":4:5:",
        "version: 2\n": ":1:1:",
        "version: 1\nmapper:\n  lanes: [1, 2]\n": ":3:10:",
        "version: 1\nmapers: 1\n": ":2:1:",
    }
    for k, (text, where) in enumerate(cases.items()):
        cfg = tmp_path / f"c{k}.yaml"
        cfg.write_text(text)
        assert _map(tmp_path, "--mapper-base-config", str(cfg)) == 2
        line = _one_error(capsys)
        assert line.startswith(f"{cfg}{where} error: [CPL_MAP_CONFIG] "), line


def test_seed_given_twice_must_agree(tmp_path: Path, capsys) -> None:
    assert _map(tmp_path, "--seed", "1", "--mapper-seed", "2") == 2
    assert "[CPL_MAP_OPTIONS] --seed 1 and --mapper-seed 2 contradict each other" in _one_error(capsys)
    assert _map(tmp_path, "--mapper-seed", "3") == 0
    assert _doc(tmp_path)["seed"] == 3


def test_round_snapshots_are_written_beside_the_artifacts(tmp_path: Path) -> None:
    assert _map(tmp_path, "--mapper-snapshot-interval-rounds", "1") == 0
    snaps = sorted(p.name for p in (tmp_path / "out" / "mapper-snapshots").iterdir())
    assert snaps == ["carry_add.carry_fifo.snapshot-0.route.mapper-0.map.json",
                     "carry_add.carry_fifo.snapshot-0.route.mapper-0.viz.html"]
    doc = json.loads((tmp_path / "out" / "mapper-snapshots" / snaps[0]).read_text())
    assert doc["snapshot"]["complete"] and doc["edge_routings"] == _doc(tmp_path)["edge_routings"]
    assert _map(tmp_path / "b") == 0
    assert not (tmp_path / "b" / "out" / "mapper-snapshots").exists()


def test_mapper_flags_that_would_be_ignored_or_loom_lacks_are_refused(tmp_path: Path, capsys) -> None:
    assert _map(tmp_path, "--check-only", "--mapper-seed", "3") == 2
    assert "[CLI_USAGE] --mapper-seed has no effect with --check-only" in _one_error(capsys)
    assert _map(tmp_path, "--mapper-enable-route-aware-sa=true") == 2
    assert "[CPL_MAP_OPTIONS] loom's annealer is not route-aware" in _one_error(capsys)
    assert _map(tmp_path, "--mapper-enable-route-aware-sa=false") == 0


def test_seconds_snapshots_fire_at_the_first_round_end_after_each_interval(monkeypatch, tmp_path: Path) -> None:
    import loom.map.snapshots as snapshots

    now = [100.0]
    monkeypatch.setattr(snapshots.time, "monotonic", lambda: now[0])
    s = snapshots.Snapshots(tmp_path, "d.f", "d.mlir", "f.mlir", every_seconds=2.0)
    fired = []
    for round_no, t in enumerate([100.5, 101.9, 102.1, 102.2, 104.0, 104.1], 1):
        now[0] = t
        fired.append(s.due(round_no))
    assert fired == [False, False, True, False, False, True]  # each interval counts from the last snapshot
    r = snapshots.Snapshots(tmp_path, "d.f", "d.mlir", "f.mlir", every_rounds=3)
    assert [r.due(k) for k in range(1, 8)] == [False, False, True, False, False, True, False]


def test_the_yaml_subset_reads_comments_quotes_and_scalars() -> None:
    from loom.map.yaml_subset import parse_yaml

    tree = parse_yaml("# head\nversion: 1\nmapper:\n  name: 'a # not a comment'  # a comment\n  on: true\n"
                      "  off: False\n  none: ~\n  x: -1.5e2\n  n: -3\n\n  deep:\n    k: v\n", "c.yaml")
    m = tree["mapper"].value
    assert {k: e.value for k, e in m.items() if k != "deep"} == {
        "name": "a # not a comment", "on": True, "off": False, "none": None, "x": -150.0, "n": -3}
    assert m["deep"].value["k"].value == "v" and (m["deep"].loc.line, m["deep"].loc.col) == (11, 3)
