"""fabric.temporal_sw: read as a switch that routes by tag, one route-table slot per tag crossing it, its slice
bit-exact to spec-fabric-config_mem (slots low to high, each valid | tag | route bits), the checker and the
executor follow each tag's slot, and a switch with too few slots for the tags is refused."""

from __future__ import annotations

import json

import pytest

from loom.map.adg.read import load_adg, read_adg
from loom.map.artifacts import config_json, map_json
from loom.map.check import check
from loom.map.config import decode, encode
from loom.map.dfg import read_dfg
from loom.map.execute import ExecuteError, decoded_connections, rebuild
from loom.map.mapper import MapFailure, map_dfg
from loom.map.tsw import TSwitchDef, pack, unpack
from loom.mlir import parse_file, parse_text
from loom.sim import simulate

from support.paths import DATA

DATA = DATA / "map"
FABRIC = DATA / "tsw_two_tags.fabric.mlir"


def _func():
    return [f for f in parse_file(DATA / "add64.dfg.mlir").functions() if f.name == "handshake.func"][0]


def _mapped():
    adg = load_adg(str(FABRIC))
    dfg = read_dfg(_func())
    m = map_dfg(dfg, adg, seed=0)
    return adg, dfg, m, json.loads(json.dumps(map_json(m, "add64.dfg.mlir", "tsw_two_tags.fabric.mlir")))


def _slot(valid: int, tag: int, route: int) -> int:
    return valid | tag << 1 | route << 3  # two tag bits, then the 4 route bits of the full 2x2 switch


def test_each_tag_gets_its_slot_and_the_slice_is_bit_exact() -> None:
    adg, dfg, m, doc = _mapped()
    d = adg.node("cross").defn
    assert isinstance(d, TSwitchDef) and (d.slots, d.tag_width, d.slot_bits, d.bits) == (2, 2, 7, 14)
    words = encode(adg, m.config)
    assert check(dfg, adg, words, doc).ok
    sl = {s["name"]: s for s in config_json(m)["slices"]}
    assert sl["cross"]["kind"] == "temporal_sw" and sl["cross"]["word_count"] == 1
    # connected positions output-major: (o0,i0)=bit0 (o0,i1)=bit1 (o1,i0)=bit2 (o1,i1)=bit3
    used = sorted(m.config.switches["cross"])
    bit = {(o, i): 2 * o + i for o in range(2) for i in range(2)}
    by_in = {i: 1 << bit[(o, i)] for o, i in used}
    assert words[sl["cross"]["word_offset"]] == _slot(1, 1, by_in[0]) | _slot(1, 2, by_in[1]) << 7
    kinds = {p["kind"] for p in doc["port_table"] if p["name"] == "cross"}
    assert kinds == {"temporal_sw"}


def test_pack_and_unpack_are_inverse() -> None:
    adg = load_adg(str(FABRIC))
    d = adg.node("cross").defn
    slots = [(1, 3, frozenset({(0, 1), (1, 0)})), (0, 0, frozenset())]
    assert unpack(d, pack(d, slots)) == slots  # type: ignore[arg-type]


def test_a_slot_with_the_wrong_tag_is_refuted_and_not_executed() -> None:
    adg, dfg, m, doc = _mapped()
    words = encode(adg, m.config)
    off = {s["name"]: s for s in config_json(m)["slices"]}["cross"]["word_offset"]
    bad = list(words)
    bad[off] ^= 0b110  # slot 0 now matches tag 2 (was 1): a's value matches no slot, two slots claim tag 2
    assert decode(adg, bad).tsw["cross"][0][1] == 2
    found = check(dfg, adg, bad, doc).violations
    assert any("tag 2 matches two valid route-table slots" in v for v in found)
    assert any("temporal_sw cross has no valid route-table slot sending tag 1 from input 0" in v for v in found)
    with pytest.raises(ExecuteError, match="temporal_sw cross"):
        decoded_connections(dfg, adg, bad, doc)


def test_the_decoded_configuration_runs() -> None:
    adg, dfg, m, doc = _mapped()
    words = encode(adg, m.config)
    fresh = _func()
    rebuilt = rebuild(fresh, read_dfg(fresh), *decoded_connections(read_dfg(fresh), adg, words, doc))
    inputs = {"a": 40, "b": 2}
    assert simulate(rebuilt, inputs).results == simulate(_func(), inputs).results == [42]


def test_too_few_slots_for_the_tags_is_refused() -> None:
    text = FABRIC.read_text().replace("num_route_table = 2", "num_route_table = 1")
    adg = read_adg(parse_text(text, "one_slot.fabric.mlir"))
    with pytest.raises(MapFailure, match="needs 2 route-table slots"):
        map_dfg(read_dfg(_func()), adg, seed=0)


def test_routes_go_around_a_temporal_sw_short_of_slots() -> None:
    adg = load_adg(str(DATA / "tsw_or_sw.fabric.mlir"))
    dfg = read_dfg(_func())
    m = map_dfg(dfg, adg, seed=0)
    assert m.attempts >= 2  # the first routes brought both tags to the one-slot switch; it was made dearer
    assert sum(v for v, _, _ in m.config.tsw["narrow"]) <= 1
    doc = json.loads(json.dumps(map_json(m, "add64.dfg.mlir", "tsw_or_sw.fabric.mlir")))
    assert check(dfg, adg, encode(adg, m.config), doc).ok


def test_the_viz_page_names_the_switch_temporal_sw() -> None:
    from loom.map.viz import viz_html

    adg, dfg, m, doc = _mapped()
    page = viz_html(m, doc)
    assert '"id": "cross", "kind": "temporal_sw"' in page and '"kind": "sw"' not in page


def test_a_tag_in_two_valid_slots_is_ambiguous() -> None:
    from loom.map.config import Config
    from loom.map.tsw import violations

    adg = load_adg(str(FABRIC))
    two = Config(tsw={"cross": [(1, 1, frozenset({(0, 0)})), (1, 1, frozenset({(1, 1)}))]})
    assert violations(adg, two) == [("C4", "temporal_sw cross: tag 1 matches two valid route-table slots")]
    assert violations(adg, Config()) == []  # no route through the switch: nothing to show
