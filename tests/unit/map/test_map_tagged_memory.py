"""Tagged memory interfaces as upstream writes them (one tagged port per family, the runtime tag is the lane):
several software memrefs share one, each in its own region and tag range; the checker proves that the right tag
reaches the right region, the decoded configuration runs, and malformed tagged memories are refused."""

from __future__ import annotations

import functools
import json

import pytest

from loom.diagnostics import LoomError
from loom.map.adg.read import read_adg
from loom.map.artifacts import config_bin, map_json
from loom.map.check import check
from loom.map.config import from_bytes, layout
from loom.map.dfg import read_dfg
from loom.map.execute import run_decoded
from loom.map.mapper import map_dfg
from loom.mlir import parse_file, parse_text

from support.paths import DATA

FABRIC = DATA / "map" / "tagged_ext2.fabric.mlir"
DFG_FILE = DATA / "map" / "two_loads.dfg.mlir"


def _func():
    return [f for f in parse_file(DFG_FILE).functions() if f.name == "handshake.func"][0]


@functools.lru_cache(maxsize=None)
def _mapped():
    adg = read_adg(parse_file(FABRIC))
    dfg = read_dfg(_func())
    m = map_dfg(dfg, adg, seed=0)
    doc = json.loads(json.dumps(map_json(m, DFG_FILE.name, FABRIC.name)))
    return adg, dfg, m, doc, from_bytes(config_bin(m))


def _region_base(adg, words) -> int:
    return next(s.word_offset for s in layout(adg) if s.name == "dram")


def test_two_memrefs_share_one_tagged_interface_and_the_checker_proves_it() -> None:
    adg, dfg, m, doc, words = _mapped()
    assert adg.node("dram").defn.tagged and adg.index_width == 57  # upstream's 57-bit tagged addresses
    assert {t[1] for nid, t in m.place.items() if t[0] == "mem"} == {"dram"}
    rep = check(dfg, adg, words, doc)
    assert rep.ok, rep.violations
    [entry] = doc["memory_regions"]
    assert entry["hw_name"] == "dram" and entry["memory_kind"] == "extmemory" and entry["num_region"] == 2
    # regions numbered by their first tag; one lane each; the host programs extmemory bases (addr_offset 0)
    assert entry["addr_offset_table"] == [1, 0, 1, 0, 2, 1, 1, 2, 0, 2]
    base = _region_base(adg, words)
    assert words[base: base + 10] == entry["addr_offset_table"]
    # each region's memref argument is the one whose load PE's add_tag gives that region's tag
    lane_of_pe = {"ld_a": 1, "ld_b": 0}
    for r in entry["regions"]:
        load = next(e.src[0] for e in dfg.edges if e.dst[0] == r["dfg_node"] and e.dst[1] == 0 and e.src[0] != r["dfg_node"]
                    and dfg.by_id[e.src[0]].kind == "op")
        assert lane_of_pe[m.place[load][1]] == r["start_lane"]


def test_the_decoded_configuration_runs_like_the_dfg() -> None:
    adg, _, _, doc, words = _mapped()
    inputs = {"x": [10, 11, 12, 13], "y": [20, 21, 22, 23], "i": 2, "j": 3, "go": None, "go2": None}
    plain, decoded = run_decoded(_func(), _func(), adg, words, doc, inputs)
    assert plain.status == decoded.status == "completed", decoded.deadlock_report or decoded.error
    assert decoded.results == plain.results
    assert decoded.memrefs == plain.memrefs


def test_swapped_tag_ranges_send_each_request_to_the_other_memref() -> None:
    """Regions whose tag ranges are swapped: each load's tag now selects the other memref's region."""
    adg, dfg, _, doc, words = _mapped()
    base = _region_base(adg, words)
    bad = list(words)
    bad[base + 1: base + 3], bad[base + 6: base + 8] = words[base + 6: base + 8], words[base + 1: base + 3]
    rep = check(dfg, adg, bad, doc)
    assert not rep.ok


def test_overlapping_tag_ranges_are_a_collision() -> None:
    adg, dfg, _, doc, words = _mapped()
    base = _region_base(adg, words)
    bad = list(words)
    bad[base + 5: base + 10] = words[base: base + 5]  # both regions claim tag 0
    rep = check(dfg, adg, bad, doc)
    assert any(v.startswith("C4:") and "tag 0" in v for v in rep.violations), rep.violations


_MEM = """module {{
  fabric.module @m(%a: index) -> (i32, none) {{
    %t = fabric.add_tag %a {{tag = 0 : i64}} : index -> !fabric.tagged<!fabric.bits<57>, {tag}>
    %r:2 = fabric.memory @mem [ldCount = {ld}, stCount = 0, lsqDepth = 0, memrefType = memref<64xi32>, numRegion = 1]
        (%t) : (!fabric.tagged<!fabric.bits<57>, {tag}>) -> ({outs})
    %d = fabric.del_tag %r#0 : !fabric.tagged<!fabric.bits<32>, i2> -> i32
    {done}
  }}
}}
"""


_DEL = "%k = fabric.del_tag %r#1 : !fabric.tagged<none, i2> -> none\n    fabric.yield %d, %k : i32, none"


@pytest.mark.parametrize("tag,ld,outs,done,code", [
    ("i1", 4, "!fabric.tagged<!fabric.bits<32>, i2>, !fabric.tagged<none, i2>", _DEL, "CPL_FABRIC_MEMORY_TAG"),
    ("i2", 4, "!fabric.tagged<!fabric.bits<32>, i2>, none", "fabric.yield %d, %r#1 : i32, none", "CPL_FABRIC_MEMORY_TAG"),
], ids=["tag-too-narrow-for-four-lanes", "tagged-and-untagged-ports-mixed"])
def test_malformed_tagged_memories_are_refused(tag: str, ld: int, outs: str, done: str, code: str) -> None:
    with pytest.raises(LoomError) as e:
        read_adg(parse_text(_MEM.format(tag=tag, ld=ld, outs=outs, done=done), "bad.fabric.mlir"))
    assert e.value.code == code
    assert e.value.loc.line == 4


def test_a_tagged_memory_with_an_expanded_family_is_refused() -> None:
    """Tagged ports are one per family: a second tagged load-address port is a port-count error."""
    text = """module {
  fabric.module @m(%a: index, %b: index) -> (i32, none) {
    %t = fabric.add_tag %a {tag = 0 : i64} : index -> !fabric.tagged<!fabric.bits<57>, i1>
    %u = fabric.add_tag %b {tag = 1 : i64} : index -> !fabric.tagged<!fabric.bits<57>, i1>
    %r:2 = fabric.memory @mem [ldCount = 2, stCount = 0, lsqDepth = 0, memrefType = memref<64xi32>, numRegion = 1]
        (%t, %u) : (!fabric.tagged<!fabric.bits<57>, i1>, !fabric.tagged<!fabric.bits<57>, i1>)
          -> (!fabric.tagged<!fabric.bits<32>, i1>, !fabric.tagged<none, i1>)
    %d = fabric.del_tag %r#0 : !fabric.tagged<!fabric.bits<32>, i1> -> i32
    %k = fabric.del_tag %r#1 : !fabric.tagged<none, i1> -> none
    fabric.yield %d, %k : i32, none
  }
}
"""
    with pytest.raises(LoomError) as e:
        read_adg(parse_text(text, "bad.fabric.mlir"))
    assert e.value.code == "CPL_FABRIC_MEMORY_PARAMS" and "tagged family ports" in str(e.value)


def test_verify_adg_reports_the_regions_as_an_obligation(monkeypatch) -> None:
    """loom verify --adg: map.regions is proved on the shared tagged interface, refuted when the checker finds a
    region fault (here a tag collision at the interface), and then names it."""
    import loom.map.check as check_mod
    from loom.map.check import CheckReport
    from loom.map.obligations import mapping_obligations

    adg = read_adg(parse_file(FABRIC))
    got = {o.id: o for o in mapping_obligations(read_dfg(_func()), adg, FABRIC.name)}
    assert got["map.regions"].status == "proved" and "no two memrefs collide" in got["map.regions"].detail
    assert got["map.iso"].status == "proved"
    fault = "C4: dram: tag 0 belongs to regions 0 and 1 (a tagged request would reach two software memories)"
    monkeypatch.setattr(check_mod, "check", lambda *a: CheckReport([fault]))
    got = {o.id: o for o in mapping_obligations(read_dfg(_func()), adg, FABRIC.name)}
    assert got["map.regions"].status == "refuted" and "tag 0 belongs to regions 0 and 1" in got["map.regions"].detail


def test_a_tagged_memory_response_is_a_tag_source() -> None:
    """tags_at (the temporal PE slot-tag check and its placement read it) counts a tagged memory's responses,
    one per lane, so a temporal PE may read them without an add_tag (upstream's tagged direct-boundary fabrics);
    route_tags (tag collisions) still follows add_tags only."""
    from loom.map.tags import route_tags, tags_at

    adg = read_adg(parse_file(FABRIC))
    assert tags_at(adg, {}, {}, {})[("data", "i", 0)] == {("dram", 0), ("dram", 1)}
    assert ("dram", 0) not in tags_at(adg, {}, {}, {}).get(("merge", "i", 0), set())
    assert route_tags(adg, {}, {}, {}) == []


_NARROW = """module {
  fabric.spatial_sw @narrow [connectivity_table = ["1"]]
      : (!fabric.tagged<!fabric.bits<57>, i2>) -> (!fabric.tagged<!fabric.bits<57>, i1>)
  fabric.module @m(%a: index) -> (index) {
    %t = fabric.add_tag %a {tag = TAG : i64} : index -> !fabric.tagged<!fabric.bits<57>, i2>
    %n:1 = fabric.instance @narrow(%t) {sym_name = "sw_n"}
        : (!fabric.tagged<!fabric.bits<57>, i2>) -> (!fabric.tagged<!fabric.bits<57>, i1>)
    %d = fabric.del_tag %n#0 : !fabric.tagged<!fabric.bits<57>, i1> -> index
    fabric.yield %d : index
  }
}
"""


@pytest.mark.parametrize("tag,fits", [(1, True), (2, False)])
def test_a_tag_too_wide_for_a_narrower_tagged_port_cannot_be_routed(tag: int, fits: bool) -> None:
    """Width adaptation never rewrites a tag: tag 2 cannot cross onto a 1-bit tagged port (upstream's
    *-tagged-egress-width-collide), so the router has no such (port, tag) node and the map is refused, not checked."""
    from loom.map.route import port_graph, tag_graph

    adg = read_adg(parse_text(_NARROW.replace("TAG", str(tag)), "n.fabric.mlir"))
    assert adg.node("sw_n").defn.tag_widths == ([2], [1])
    nodes, _ = tag_graph(adg, port_graph(adg))
    assert ((("sw_n", "o", 0), tag) in nodes) == fits
