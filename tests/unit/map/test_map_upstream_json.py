"""map.json's upstream sections (spec-mapper-output): `node_mappings`, `edge_routings` and `port_table`, read the
way upstream's checks read them, agree with loom's own `nodes` / `edges` fields, and are deterministic."""

from __future__ import annotations

import functools
import json

from loom.map.adg.mesh import MeshParams, mesh
from loom.map.adg.read import read_adg
from loom.map.dfg import read_dfg
from loom.mlir import parse_text

from support.map import corpus_file, dfg_of_file, doc_of, map_and_check
from support.compound import CMPSEL, COMPOUND_DFG as DFG, MAC


@functools.lru_cache(maxsize=None)
def compound():
    """A 3x3 mesh with compound FUs and a DFG two of whose groups become compound units (intra-FU edges)."""
    adg = read_adg(parse_text(mesh(MeshParams(rows=3, cols=3, extmem=0, onchip=0, extra_fus=(MAC, CMPSEL)))))
    dfg = read_dfg([f for f in parse_text(DFG).functions() if f.name == "handshake.func"][0])
    m, _, doc, rep = map_and_check(dfg, adg)
    assert rep.ok, rep.violations
    return m, doc


def _name(port: dict) -> str:
    """A port-table entry as loom's route steps name it (``pe_0_0.in1``, ``pe_0_0:add.in0``, ``module.out2``)."""
    if port["kind"] == "fu":
        return f"{port['pe']}:{port['name']}.{port['dir']}{port['index']}"
    if port["kind"] in ("module_in", "module_out"):  # a module input is the fabric's source (its port's side "out")
        return f"module.{port['kind'][7:]}{port['index']}"
    return f"{port['name']}.{port['dir']}{port['index']}"


def test_node_mappings_name_each_node_where_loom_placed_it() -> None:
    _, doc = compound()
    by_sw = {e["sw_node"]: e for e in doc["node_mappings"]}
    assert len(by_sw) == len(doc["node_mappings"]) == len(doc["nodes"])
    for n in doc["nodes"]:
        e, t = by_sw[n["id"]], n["target"]
        assert e["sw_op"] == n["op"]
        if t["kind"] == "fu":
            assert (e["hw_name"], e["pe_name"], e["opcode"]) == (t["fu"], t["pe"], t["opcode"])
            assert e.get("body_op") == t.get("body_op")
            assert isinstance(e["hw_node"], int)
        else:
            assert e["pe_name"] is None and e["hw_node"] is None
            assert e["hw_name"] == f"module.{'in' if t['kind'] == 'module_input' else 'out'}{t['port']}"
    # upstream's checks index node_mappings by sw_op and read hw_name
    assert {e["sw_op"]: e["hw_name"] for e in doc["node_mappings"]}["arith.select"] == "cmp_sel"


def test_edge_routings_paths_are_loom_routes_in_port_ids() -> None:
    _, doc = compound()
    ports = {p["id"]: p for p in doc["port_table"]}
    assert [p["id"] for p in doc["port_table"]] == sorted(ports)
    assert set(ports) == {k for r in doc["edge_routings"] for k in r["path"]}  # the ports some path passes
    assert len({(p["kind"], p["name"], p.get("pe"), p["dir"], p["index"]) for p in doc["port_table"]}) == len(ports)
    assert [e["sw_edge"] for e in doc["edge_routings"]] == list(range(len(doc["edges"])))
    kinds = set()
    for r, e in zip(doc["edge_routings"], doc["edges"]):
        kinds.add(r["kind"])
        assert (r["from"], r["to"], r["operand"]) == (e["from"], e["to"], e["operand"])
        if e.get("intra_fu"):
            assert r["kind"] == "intra_fu" and r["path"] == []
            continue
        assert r["kind"] == "routed"
        assert [_name(ports[k]) for k in r["path"]] == [e["route"][0]["from"]] + [s["to"] for s in e["route"]]
    assert kinds == {"routed", "intra_fu"}


def test_fabric_port_ids_depend_on_the_fabric_alone() -> None:
    """Two mappings on one fabric: a fabric port has the same id in both (FU port ids follow, per mapping)."""
    adg = read_adg(parse_text(corpus_file("dataflow-flowops.fabric.mlir").read_text()))
    _, _, doc, rep = map_and_check(dfg_of_file(corpus_file("dataflow-flowops.dfg.mlir")), adg)
    assert rep.ok
    assert [p for p in doc["port_table"] if p["kind"] in ("module_in", "module_out")] == [
        {"id": k, "kind": f"module_{w}", "name": "module", "index": i, "dir": d}
        for k, (i, w, d) in enumerate([(0, "in", "out"), (1, "in", "out"), (2, "in", "out"), (3, "in", "out"),
                                       (0, "out", "in")])]
    m, cdoc = compound()
    _, _, doc2, _ = map_and_check(read_dfg([f for f in parse_text(DFG).functions() if f.name == "handshake.func"][0]),
                                  m.adg, seed=1)

    def fabric(d: dict) -> dict:
        return {(p["kind"], p["name"], p["dir"], p["index"]): p["id"] for p in d["port_table"] if p["kind"] != "fu"}

    a, b = fabric(cdoc), fabric(doc2)
    shared = set(a) & set(b)
    assert shared and all(a[k] == b[k] for k in shared)
    assert len(set(a.values())) == len(a)
    top = max(a.values())
    assert all(p["id"] > top for p in cdoc["port_table"] if p["kind"] == "fu")  # FU ports after every fabric port


def test_map_json_text_is_json_with_one_upstream_entry_per_line() -> None:
    from loom.map.artifacts import dumps

    _, doc = compound()
    text = dumps(doc)
    assert json.loads(text) == doc
    lines = text.splitlines()
    assert sum(1 for ln in lines if ln.startswith('  {"sw_edge": ')) == len(doc["edge_routings"])
    assert sum(1 for ln in lines if ln.startswith('  {"id": ')) == len(doc["port_table"])


def test_upstream_sections_are_deterministic_and_keep_loom_fields() -> None:
    m, doc = compound()
    again = doc_of(m)
    assert json.dumps(again, sort_keys=False) == json.dumps(doc, sort_keys=False)
    for key in ("format", "dfg", "adg", "seed", "nodes", "edges", "ports", "switch_routes", "pe_routes", "fu_configs",
                "memory_regions", "host_inputs", "stats", "node_mappings", "edge_routings", "port_table"):
        assert key in doc, key
