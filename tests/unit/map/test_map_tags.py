"""Routed tags: a route passes add_tag, map_tag and del_tag; their slices are bit-exact to spec-fabric-config_mem,
map.json has tag_configs, the checker walks the decoded tags (a dropped tag is refuted), and the decoded
configuration runs."""

from __future__ import annotations

import json

import pytest

from loom.map.adg.read import load_adg
from loom.map.artifacts import config_json, map_json
from loom.map.check import check
from loom.map.config import decode, encode
from loom.map.dfg import read_dfg
from loom.map.execute import ExecuteError, decoded_connections, rebuild
from loom.map.mapper import map_dfg
from loom.map.tags import lookup, pack_map_tag, route_tags, tags_at, unpack_map_tag
from loom.mlir import parse_file
from loom.sim import simulate

from support.paths import DATA

DATA = DATA / "map"


def _func():
    return [f for f in parse_file(DATA / "add64.dfg.mlir").functions() if f.name == "handshake.func"][0]


def _mapped():
    adg = load_adg(str(DATA / "retag.fabric.mlir"))
    dfg = read_dfg(_func())
    m = map_dfg(dfg, adg, seed=0)
    return adg, dfg, m, json.loads(json.dumps(map_json(m, "add64.dfg.mlir", "retag.fabric.mlir")))


def test_the_route_passes_the_tag_ops_and_their_slices_are_bit_exact() -> None:
    adg, dfg, m, doc = _mapped()
    words = encode(adg, m.config)
    assert check(dfg, adg, words, doc).ok
    slices = {s["name"]: s for s in config_json(m)["slices"]}
    assert [(s["name"], s["kind"]) for s in config_json(m)["slices"]][:2] == [("add_tag_0", "add_tag"),
                                                                              ("map_tag_0", "map_tag")]
    assert words[slices["add_tag_0"]["word_offset"]] == 1  # the tag in the low bits of one word
    # two entries of valid|src_tag(2)|dst_tag(3), low to high: (1,1,5) then (1,0,2)
    entry0, entry1 = 1 | 1 << 1 | 5 << 3, 1 | 0 << 1 | 2 << 3
    assert words[slices["map_tag_0"]["word_offset"]] == entry0 | entry1 << 6
    kinds = [s["kind"] for e in doc["edges"] for s in e["route"]]
    assert {"add_tag", "map_tag", "del_tag"} <= set(kinds)
    assert doc["tag_configs"] == [
        {"name": "add_tag_0", "kind": "add_tag", "tag": 1},
        {"name": "map_tag_0", "kind": "map_tag", "table": [{"valid": True, "src_tag": 1, "dst_tag": 5},
                                                           {"valid": True, "src_tag": 0, "dst_tag": 2}]}]
    ports = {p["id"]: p["kind"] for p in doc["port_table"]}
    assert {"add_tag", "map_tag", "del_tag"} <= {ports[i] for r in doc["edge_routings"] for i in r["path"]}


def test_a_map_tag_that_drops_the_arriving_tag_is_refuted() -> None:
    adg, dfg, m, doc = _mapped()
    words = encode(adg, m.config)
    off = {s["name"]: s for s in config_json(m)["slices"]}["map_tag_0"]["word_offset"]
    bad = list(words)
    bad[off] &= ~1  # entry 0 (src_tag 1) invalid: the value tagged 1 matches nothing
    assert decode(adg, bad).map_tags["map_tag_0"][0] == (0, 1, 5)
    assert any(v.startswith("C3") and "drops" in v for v in check(dfg, adg, bad, doc).violations)
    with pytest.raises(ExecuteError, match="drops the value add_tag_0 tags 1"):  # the executor never delivers it
        decoded_connections(dfg, adg, bad, doc)
    retag = list(words)
    retag[0] = 0  # add_tag gives tag 0 instead: entry 1 maps it (0 -> 2), still a proof
    assert check(dfg, adg, retag, doc).ok


def test_the_decoded_configuration_runs() -> None:
    adg, dfg, m, doc = _mapped()
    words = encode(adg, m.config)
    fresh = _func()
    rebuilt = rebuild(fresh, read_dfg(fresh), *decoded_connections(read_dfg(fresh), adg, words, doc))
    inputs = {"a": 40, "b": 2}
    assert simulate(rebuilt, inputs).results == simulate(_func(), inputs).results == [42]


def test_table_lookup_and_packing() -> None:
    adg = load_adg(str(DATA / "retag.fabric.mlir"))
    d = adg.node("map_tag_0").defn
    assert (lookup(d.table, 1), lookup(d.table, 0), lookup(d.table, 3)) == (5, 2, None)
    assert lookup([(0, 1, 7), (1, 1, 4)], 1) == 4  # the first valid entry wins
    assert unpack_map_tag(d, pack_map_tag(d, [(1, 3, 7), (0, 2, 1)])) == [(1, 3, 7), (0, 2, 1)]


def test_a_tagged_switch_routes_one_tagged_value_per_port_and_the_tags_arrive() -> None:
    adg = load_adg(str(DATA / "tagged_sw.fabric.mlir"))
    assert adg.node("sw_0").defn.in_widths == [64, 64]  # a tagged port is as wide as its payload
    dfg = read_dfg(_func())
    m = map_dfg(dfg, adg, seed=0)
    doc = json.loads(json.dumps(map_json(m, "add64.dfg.mlir", "tagged_sw.fabric.mlir")))
    words = encode(adg, m.config)
    assert check(dfg, adg, words, doc).ok
    cfg = decode(adg, words)
    arrived = tags_at(adg, cfg.switches, cfg.tags, cfg.map_tags)
    outs = [arrived[("sw_0", "o", k)] for k in range(2)]
    assert sorted(map(sorted, outs)) == [[("add_tag_0", 3)], [("add_tag_1", 6)]]  # one value per switch output
    # both inputs switched onto output 0 with one tag: a collision; with distinct tags: none
    merged = {"sw_0": {(0, 0), (0, 1)}}
    assert any(c == "C4" and "tag 3" in msg for c, msg in route_tags(adg, merged, dict(cfg.tags, add_tag_1=3), {}))
    assert not [v for v in route_tags(adg, merged, cfg.tags, {}) if v[0] == "C4"]


def test_a_temporal_pe_behind_a_tagged_switch_learns_its_inputs_tags() -> None:
    adg = load_adg(str(DATA / "tpe_behind_sw.fabric.mlir"))
    dfg = read_dfg(_func())
    m = map_dfg(dfg, adg, seed=0)
    add = next(n.id for n in dfg.nodes if n.name == "arith.addi")
    assert m.place[add][0] == "fu" and m.place[add][3] == 1  # slot 1: the only slot whose tag the inputs carry
    doc = json.loads(json.dumps(map_json(m, "add64.dfg.mlir", "tpe_behind_sw.fabric.mlir")))
    words = encode(adg, m.config)
    assert check(dfg, adg, words, doc).ok
    off = {s["name"]: s for s in config_json(m)["slices"]}["add_tag_1"]["word_offset"]
    bad = list(words)
    bad[off] = 0  # operand b now arrives tagged 0: slot 1 would never fire on it
    assert any(v.startswith("C5") and "carries tag 0" in v for v in check(dfg, adg, bad, doc).violations)
    fresh = _func()
    rebuilt = rebuild(fresh, read_dfg(fresh), *decoded_connections(read_dfg(fresh), adg, words, doc))
    assert simulate(rebuilt, {"a": 5, "b": 6}).results == [11]
