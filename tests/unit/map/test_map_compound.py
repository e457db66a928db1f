"""Compound function units: a group of DFG ops that is exactly an FU's multi-op body maps onto one PE;
the edge between them is FU-internal; the checker proves it and rejects broken groups."""

from __future__ import annotations

import copy
import functools

import pytest


from loom.map.adg.mesh import MeshParams, mesh
from loom.map.adg.read import read_adg
from loom.map.check import check
from loom.map.dfg import read_dfg
from loom.mlir import parse_text

from support.compound import CMPSEL, COMPOUND_DFG, MAC
from support.map import map_and_check


@functools.lru_cache(maxsize=None)
def mapped():
    adg = read_adg(parse_text(mesh(MeshParams(rows=3, cols=3, extmem=0, onchip=0, extra_fus=(MAC, CMPSEL)))))
    func = [f for f in parse_text(COMPOUND_DFG).functions() if f.name == "handshake.func"][0]
    dfg = read_dfg(func)
    return adg, dfg, *map_and_check(dfg, adg)


def test_groups_map_onto_one_pe_and_are_proved() -> None:
    adg, dfg, m, words, doc, rep = mapped()
    assert rep.ok, rep.violations
    t = {n["id"]: n["target"] for n in doc["nodes"]}
    # %m is also read by %t, and mac does not export its product: %m and %s cannot form a mac
    assert "body_op" not in t["m"] and "body_op" not in t["s"]
    # cmpi + select form cmp_sel (both results exported), and %m2 + %t form a mac
    assert t["lt"]["fu"] == t["mn"]["fu"] == "cmp_sel" and t["lt"]["pe"] == t["mn"]["pe"]
    assert (t["lt"]["body_op"], t["mn"]["body_op"]) == (0, 1)
    # the mesh palette's mac_i32 and the extra "mac" have one body signature: either serves
    assert t["m2"]["fu"] == t["t"]["fu"] in ("mac", "mac_i32") and t["m2"]["pe"] == t["t"]["pe"]
    intra = [e for e in doc["edges"] if e.get("intra_fu")]
    assert {(e["from"], e["to"]) for e in intra} == {("%lt#0", "%mn"), ("%m2#0", "%t")}
    assert doc["stats"]["compound_units"] == 2
    # the predicate sgt (4) sits in the cmp_sel payload, not the FU body's slt
    configs = {c["pe_name"]: c for c in doc["fu_configs"]}
    assert configs[t["lt"]["pe"]]["fields"] == [{"kind": "cmpi_predicate", "bits": 4, "value": 4, "text": "predicate=4"}]


def test_every_bit_flip_of_a_compound_mapping_is_rejected() -> None:
    adg, dfg, m, words, doc, rep = mapped()
    for i in range(len(words)):
        for b in range(0, 32, 3):
            w = list(words)
            w[i] ^= 1 << b
            assert not check(dfg, adg, w, doc).ok, (i, b)


@pytest.mark.parametrize("mutation", ["split", "swap_body_ops", "claim_route", "unclaim_intra", "lone_member"])
def test_broken_groups_are_rejected(mutation: str) -> None:
    adg, dfg, m, words, doc, rep = mapped()
    bad = copy.deepcopy(doc)
    t = {n["id"]: n["target"] for n in bad["nodes"]}
    if mutation == "split":
        t["t"]["pe"] = next(p.name for p in adg.pes() if p.name not in doc["pe_routes"])
    elif mutation == "swap_body_ops":
        t["lt"]["body_op"], t["mn"]["body_op"] = 1, 0
    elif mutation == "claim_route":
        e = next(e for e in bad["edges"] if e.get("intra_fu"))
        e["route"] = [{"kind": "wire", "from": "pe_0_0.out0", "to": "sw_0_0.in0"}]
    elif mutation == "unclaim_intra":
        next(e for e in bad["edges"] if e.get("intra_fu"))["intra_fu"] = False
    else:
        del t["t"]["body_op"]
    assert not check(dfg, adg, words, bad).ok, mutation
