"""Every example maps onto the default mesh and both corpus ADGs map their paired DFG; the checker proves each."""

from __future__ import annotations

import pytest

from loom.map.adg.read import read_adg
from loom.map.mapper import MapFailure, map_dfg
from loom.mlir import parse_file

from support.map import CORPUS_PAIRS, EXAMPLES, corpus_file, default_mesh, dfg_of_file, map_and_check


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name.split(".")[0])
def test_example_maps_on_default_mesh_and_is_proved(path) -> None:
    adg = default_mesh()
    dfg = dfg_of_file(path, max_join_fanin=adg.max_join_fanin())
    m, words, doc, rep = map_and_check(dfg, adg)
    assert rep.ok, rep.violations[:5]
    assert rep.edges_checked == len(dfg.edges) > 0
    per_pe: dict = {}
    for n in doc["nodes"]:
        if n["target"]["kind"] == "fu":
            per_pe.setdefault(n["target"]["pe"], []).append(n["target"])
    for pe, targets in per_pe.items():  # one op per PE, or one compound unit naming distinct body ops (C8)
        assert len(targets) == 1 or len({t["body_op"] for t in targets}) == len(targets), pe
    if path.name.startswith("matmul."):  # memref.dim becomes a host input port
        assert sorted((h["memref"], h["dim"]) for h in doc["host_inputs"]) == [("A", 0), ("A", 1), ("B", 1)]
        mems = {n["id"] for n in doc["nodes"] if n["kind"] == "mem"}
        assert {e["regions"][0]["dfg_node"] for e in doc["memory_regions"]} == mems and len(mems) == 3
        assert sorted(n["target"]["memref_arg"] for n in doc["nodes"] if n["kind"] == "mem") == ["A", "B", "C"]


@pytest.mark.parametrize("name", CORPUS_PAIRS)
def test_corpus_adg_maps_its_paired_dfg(name: str) -> None:
    adg = read_adg(parse_file(corpus_file(f"{name}.fabric.mlir")))
    dfg = dfg_of_file(corpus_file(f"{name}.dfg.mlir"))
    m, words, doc, rep = map_and_check(dfg, adg)
    assert rep.ok, rep.violations
    if name == "dataflow-flowops":  # gate never stands in for anything else: each op on its own PE
        assert {n.name: m.place[n.id][1] for n in dfg.nodes if n.kind == "op"} == {
            "dataflow.stream": "pe_stream", "dataflow.gate": "pe_gate", "dataflow.carry": "pe_carry"}
    else:
        regions = {e["hw_name"]: e for e in doc["memory_regions"]}
        assert regions["extmem0"]["regions"][0]["valid"] == 1
        assert regions["extmem0"]["addr_offset_table"][0] == 1  # the exported region table: its valid word


def test_a_join_wider_than_the_fabric_is_reported_not_mapped() -> None:
    adg = default_mesh()
    stencil = next(p for p in EXAMPLES if p.name.startswith("stencil2d"))
    dfg = dfg_of_file(stencil)  # lowered without the ADG's join limit: a 5-input join remains
    with pytest.raises(MapFailure) as e:
        map_dfg(dfg, adg, budget=5)
    assert "handshake.join" in str(e.value) and "no compatible function unit" in str(e.value)


def test_gate_never_stands_in_for_invariant() -> None:
    adg = read_adg(parse_file(corpus_file("dataflow-flowops.fabric.mlir")))
    text = corpus_file("dataflow-flowops.dfg.mlir").read_text()
    swapped = text.replace("%2, %3 = dataflow.gate %0, %1 : index, i1 -> index, i1",
                           "%2 = dataflow.invariant %1, %0 : i1, index -> index\n    %3 = dataflow.invariant %1, %1 : i1, i1 -> i1")
    from loom.map.dfg import read_dfg
    from loom.mlir import parse_text

    func = [f for f in parse_text(swapped).functions() if f.name == "handshake.func"][0]
    with pytest.raises(MapFailure, match="dataflow.invariant .* has no compatible function unit"):
        map_dfg(read_dfg(func), adg, budget=2)
