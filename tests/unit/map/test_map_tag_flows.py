"""Several tagged flows on one physical link and one temporal_sw port, told apart by tag: the router keeps one
value per (port, tag), a temporal_sw gets one route-table slot per tag, a temporal PE's slots share its inputs and
output, the checker and executor follow each tag, and two values with one tag on one port are refused (C4)."""

from __future__ import annotations

import json

import pytest

from loom.map.adg.read import read_adg
from loom.map.artifacts import map_json
from loom.map.check import check
from loom.map.config import decode, encode
from loom.map.dfg import read_dfg
from loom.map.execute import decoded_connections, rebuild
from loom.map.mapper import MapFailure, map_dfg
from loom.mlir import parse_text
from loom.sim import simulate

T = "!fabric.tagged<i64, i2>"

# a and b are tagged, merged onto ONE link by a tagged spatial switch, and split again by a temporal switch
MERGE = f"""module {{
  fabric.spatial_sw @merge [connectivity_table = ["11"]] : ({T}, {T}) -> ({T})
  fabric.temporal_sw @split [num_route_table = 2, connectivity_table = ["1", "1"]] : ({T}) -> ({T}, {T})
  fabric.spatial_pe @adder(%p0: i64, %p1: i64) -> (i64) {{
    fabric.function_unit @add_fu(%x: i64, %y: i64) -> (i64) [latency = 1, interval = 1] {{
      %s = arith.addi %x, %y : i64
      fabric.yield %s : i64
    }}
    fabric.yield
  }}
  fabric.module @two_flows(%a: i64, %b: i64) -> (i64) {{
    %ta = fabric.add_tag %a {{tag = TAG_A : i64}} : i64 -> {T}
    %tb = fabric.add_tag %b {{tag = 2 : i64}} : i64 -> {T}
    %m:1 = fabric.instance @merge(%ta, %tb) {{sym_name = "sw_merge"}} : ({T}, {T}) -> ({T})
    %x:2 = fabric.instance @split(%m#0) {{sym_name = "tsw_split"}} : ({T}) -> ({T}, {T})
    %u = fabric.del_tag %x#0 : {T} -> i64
    %v = fabric.del_tag %x#1 : {T} -> i64
    %s:1 = fabric.instance @adder(%u, %v) {{sym_name = "pe_0"}} : (i64, i64) -> (i64)
    fabric.yield %s#0 : i64
  }}
}}
"""

ADD64 = """handshake.func @add64(%a: i64, %b: i64, ...) -> (i64) attributes {argNames = ["a", "b"], resNames = ["y"]} {
  %y = arith.addi %a, %b : i64
  handshake.return %y : i64
}
"""

S = "!fabric.tagged<i32, i1>"

# two instruction slots share both PE inputs (fed through temporal switches) and the PE's one output (split by a
# temporal switch on the result tag)
SLOTS = f"""module {{
  fabric.temporal_sw @mux2 [num_route_table = 2, connectivity_table = ["11"]] : ({S}, {S}) -> ({S})
  fabric.temporal_sw @demux2 [num_route_table = 2, connectivity_table = ["1", "1"]] : ({S}) -> ({S}, {S})
  fabric.temporal_pe @tp(%p0: {S}, %p1: {S}) -> ({S}) [num_register = 0 : i64, num_instruction = 2 : i64,
      reg_fifo_depth = 0 : i64] {{
    fabric.function_unit @fadd(%x: i32, %y: i32) -> (i32) [latency = 1, interval = 1] {{
      %r = arith.addi %x, %y : i32
      fabric.yield %r : i32
    }}
    fabric.function_unit @fsub(%x: i32, %y: i32) -> (i32) [latency = 1, interval = 1] {{
      %r = arith.subi %x, %y : i32
      fabric.yield %r : i32
    }}
    fabric.yield
  }}
  fabric.module @shared_slots(%a: i32, %b: i32, %c: i32, %d: i32) -> (i32, i32) {{
    %ta = fabric.add_tag %a {{tag = 0 : i64}} : i32 -> {S}
    %tb = fabric.add_tag %b {{tag = 0 : i64}} : i32 -> {S}
    %tc = fabric.add_tag %c {{tag = 1 : i64}} : i32 -> {S}
    %td = fabric.add_tag %d {{tag = 1 : i64}} : i32 -> {S}
    %i0:1 = fabric.instance @mux2(%ta, %tc) {{sym_name = "tsw_in0"}} : ({S}, {S}) -> ({S})
    %i1:1 = fabric.instance @mux2(%tb, %td) {{sym_name = "tsw_in1"}} : ({S}, {S}) -> ({S})
    %o:1 = fabric.instance @tp(%i0#0, %i1#0) {{sym_name = "tpe_0"}} : ({S}, {S}) -> ({S})
    %x:2 = fabric.instance @demux2(%o#0) {{sym_name = "tsw_out"}} : ({S}) -> ({S}, {S})
    %r0 = fabric.del_tag %x#0 : {S} -> i32
    %r1 = fabric.del_tag %x#1 : {S} -> i32
    fabric.yield %r0, %r1 : i32, i32
  }}
}}
"""

ADDSUB = """handshake.func @addsub(%a: i32, %b: i32, %c: i32, %d: i32, ...) -> (i32, i32)
    attributes {argNames = ["a", "b", "c", "d"], resNames = ["s", "t"]} {
  %s = arith.addi %a, %b : i32
  %t = arith.subi %c, %d : i32
  handshake.return %s, %t : i32, i32
}
"""


def _func(text: str):
    return [f for f in parse_text(text, "dfg.mlir").functions() if f.name == "handshake.func"][0]


def _map(fabric: str, dfg_text: str):
    adg = read_adg(parse_text(fabric, "fabric.mlir"))
    dfg = read_dfg(_func(dfg_text))
    m = map_dfg(dfg, adg, seed=0)
    doc = json.loads(json.dumps(map_json(m, "dfg.mlir", "fabric.mlir")))
    return adg, dfg, m, doc


def _runs(adg, m, doc, dfg_text: str, inputs: dict) -> tuple:
    fresh = _func(dfg_text)
    dfg = read_dfg(fresh)
    rebuilt = rebuild(fresh, dfg, *decoded_connections(dfg, adg, encode(adg, m.config), doc))
    return simulate(rebuilt, inputs).results, simulate(_func(dfg_text), inputs).results


def test_two_tagged_flows_share_one_link_and_one_temporal_sw_port() -> None:
    adg, dfg, m, doc = _map(MERGE.replace("TAG_A", "1"), ADD64)
    assert m.iterations >= 1  # PathFinder's rounds (map.json's routing_iterations)
    a_path, b_path = (m.paths[k] for k, e in enumerate(dfg.edges) if e.dst[0] == "y")
    shared = set(a_path) & set(b_path)
    assert ("sw_merge", "o", 0) in shared and ("tsw_split", "i", 0) in shared  # one link, one temporal_sw port
    assert m.config.switches["sw_merge"] == {(0, 0), (0, 1)}  # the tagged switch merges both inputs
    slots = m.config.tsw["tsw_split"]
    assert sorted((v, t) for v, t, _ in slots) == [(1, 1), (1, 2)]  # one slot per tag
    words = encode(adg, m.config)
    assert decode(adg, words).tsw["tsw_split"] == slots
    assert check(dfg, adg, words, doc).ok
    got, want = _runs(adg, m, doc, ADD64, {"a": 40, "b": 2})
    assert got == want == [42]


def test_a_slot_sending_a_tag_elsewhere_is_refuted() -> None:
    adg, dfg, m, doc = _map(MERGE.replace("TAG_A", "1"), ADD64)
    m.config.tsw["tsw_split"] = [(v, t, frozenset({(1 - o, i) for o, i in tr})) for v, t, tr in m.config.tsw["tsw_split"]]
    found = check(dfg, adg, encode(adg, m.config), doc).violations  # a and b now reach the adder swapped
    assert "C3: the configuration routes module input 0 -> pe_0 FU input 1, which is no DFG edge" in found


def test_two_flows_with_one_tag_on_one_link_do_not_map() -> None:
    with pytest.raises(MapFailure):  # both a and b would carry tag 2 on the merged link: no legal routing
        _map(MERGE.replace("TAG_A", "2"), ADD64)


def test_two_values_with_one_tag_on_one_port_are_a_collision() -> None:
    adg, dfg, m, doc = _map(MERGE.replace("TAG_A", "1"), ADD64)
    m.config.tags["add_tag_0"] = 2  # a's add_tag now gives b's tag: both values arrive as tag 2
    found = check(dfg, adg, encode(adg, m.config), doc).violations
    assert any(v.startswith("C4") and "sw_merge.out0 carries tag 2 from module input 0, module input 1" in v and "tag collision" in v for v in found)


def test_two_slots_share_the_inputs_and_the_output_of_a_temporal_pe() -> None:
    adg, dfg, m, doc = _map(SLOTS, ADDSUB)
    tc = m.config.temporal["tpe_0"]
    assert [(s.valid, s.tag) for s in tc.slots] == [(True, 0), (True, 1)]
    assert [[f.sel for f in s.inputs] for s in tc.slots] == [[0, 1], [0, 1]]  # both slots read PE inputs 0 and 1
    assert [[f.sel for f in s.outputs] for s in tc.slots] == [[0], [0]]  # and drive PE output 0, by result tag
    assert [s.results[0][0] for s in tc.slots] == [0, 1]
    assert sorted(t for v, t, _ in m.config.tsw["tsw_out"] if v) == [0, 1]
    words = encode(adg, m.config)
    assert check(dfg, adg, words, doc).ok
    got, want = _runs(adg, m, doc, ADDSUB, {"a": 5, "b": 3, "c": 9, "d": 4})
    assert got == want == [8, 5]


def test_each_result_tag_is_followed_through_the_output_switch() -> None:
    adg, dfg, m, doc = _map(SLOTS, ADDSUB)
    good = m.config.tsw["tsw_out"]
    m.config.tsw["tsw_out"] = [(v, t, frozenset({(1 - o, i) for o, i in tr})) for v, t, tr in good]  # outputs swapped
    found = check(dfg, adg, encode(adg, m.config), doc).violations
    assert "C3: the configuration routes tpe_0@0 FU output 0 -> module output 1, which is no DFG edge" in found
    got, want = _runs(adg, m, doc, ADDSUB, {"a": 5, "b": 3, "c": 9, "d": 4})
    assert (got, want) == ([5, 8], [8, 5])  # the executor follows the tags too: the results come out swapped
    m.config.tsw["tsw_out"] = [(v, t, frozenset() if t == 1 else tr) for v, t, tr in good]  # tag 1 goes nowhere
    found = check(dfg, adg, encode(adg, m.config), doc).violations
    assert any(v.startswith("C3: temporal_sw tsw_out has no valid route-table slot sending tag 1 from input 0")
               and "tpe_0@1 FU output 0's value is dropped" in v for v in found)


# one PE output wired to an add_tag per tag (upstream's store-data lanes): the route takes one copy, the other
# meets a temporal_sw input no slot uses and goes nowhere -- not a fan-out outside a switch
COPIES = f"""module {{
  fabric.temporal_sw @pick [num_route_table = 1, connectivity_table = ["11"]] : ({T}, {T}) -> ({T})
  fabric.spatial_pe @adder(%p0: i64, %p1: i64) -> (i64) {{
    fabric.function_unit @add_fu(%x: i64, %y: i64) -> (i64) [latency = 1, interval = 1] {{
      %s = arith.addi %x, %y : i64
      fabric.yield %s : i64
    }}
    fabric.yield
  }}
  fabric.module @copies(%a: i64, %b: i64) -> (i64) {{
    %s:1 = fabric.instance @adder(%a, %b) {{sym_name = "pe_0"}} : (i64, i64) -> (i64)
    %t0 = fabric.add_tag %s#0 {{tag = 0 : i64}} : i64 -> {T}
    %t1 = fabric.add_tag %s#0 {{tag = 1 : i64}} : i64 -> {T}
    %x:1 = fabric.instance @pick(%t0, %t1) {{sym_name = "tsw_pick"}} : ({T}, {T}) -> ({T})
    %o = fabric.del_tag %x#0 : {T} -> i64
    fabric.yield %o : i64
  }}
}}
"""


def test_a_wired_copy_no_route_takes_is_no_fan_out() -> None:
    adg, dfg, m, doc = _map(COPIES, ADD64)
    assert [(v, len(tr)) for v, _, tr in m.config.tsw["tsw_pick"]] == [(1, 1)]  # one copy crosses the switch
    assert check(dfg, adg, encode(adg, m.config), doc).ok
    got, want = _runs(adg, m, doc, ADD64, {"a": 40, "b": 2})
    assert got == want == [42]
    used_tag = m.config.tsw["tsw_pick"][0][1]
    m.config.tsw["tsw_pick"] = [(1, used_tag, frozenset({(0, 0), (0, 1)}))]  # the other input routed as well
    found = check(dfg, adg, encode(adg, m.config), doc).violations
    assert "C11: pe_0.out0 is not a switch output but feeds 2 consumers" in found
