"""The checker rejects mutated mappings: flipped config bits, routes through FUs, two ops on one PE,
broken connectivity, PE-level broadcast; and the mapper refuses fan-out that no switch can provide."""

from __future__ import annotations

import copy
import functools

import pytest
from hypothesis import given, settings, strategies as st

from loom.map.adg.build import ADGBuilder, FUSpec
from loom.map.adg.read import read_adg
from loom.map.check import check
from loom.map.config import MuxField, encode
from loom.map.dfg import read_dfg
from loom.map.mapper import MapFailure, map_dfg
from loom.mlir import parse_file, parse_text

from support.map import EXAMPLES, corpus_file, default_mesh, dfg_of_file, map_and_check


@functools.lru_cache(maxsize=None)
def corpus_mapping(name: str):
    adg = read_adg(parse_file(corpus_file(f"{name}.fabric.mlir")))
    dfg = dfg_of_file(corpus_file(f"{name}.dfg.mlir"))
    m, words, doc, rep = map_and_check(dfg, adg)
    assert rep.ok
    return adg, dfg, m, words, doc


@functools.lru_cache(maxsize=None)
def dot_mapping():
    adg = default_mesh()
    dfg = dfg_of_file(next(p for p in EXAMPLES if p.name.startswith("dot.")), adg.max_join_fanin())
    m, words, doc, rep = map_and_check(dfg, adg)
    assert rep.ok
    return adg, dfg, m, words, doc


@pytest.mark.parametrize("name", ["dataflow-flowops", "sw2-pe1-extmem1"])
def test_every_single_bit_flip_is_rejected(name: str) -> None:
    adg, dfg, m, words, doc = corpus_mapping(name)
    for i in range(len(words)):
        for b in range(32):
            w = list(words)
            w[i] ^= 1 << b
            assert not check(dfg, adg, w, doc).ok, f"flipping word {i} bit {b} went unnoticed"


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_random_bit_flips_on_a_mesh_mapping_are_rejected(data) -> None:
    adg, dfg, m, words, doc = dot_mapping()
    i = data.draw(st.integers(0, len(words) - 1))
    b = data.draw(st.integers(0, 31))
    w = list(words)
    w[i] ^= 1 << b
    assert not check(dfg, adg, w, doc).ok


def test_truncated_or_extended_images_are_rejected() -> None:
    adg, dfg, m, words, doc = corpus_mapping("sw2-pe1-extmem1")
    assert any(v.startswith("C6") for v in check(dfg, adg, words[:-1], doc).violations)
    assert any(v.startswith("C6") for v in check(dfg, adg, words + [0], doc).violations)


def test_a_route_through_a_function_unit_is_rejected() -> None:
    adg, dfg, m, words, doc = dot_mapping()
    bad = copy.deepcopy(doc)
    edge = next(e for e in bad["edges"] if len(e["route"]) > 4)
    unused_pe = next(n.name for n in adg.pes() if n.name not in doc["pe_routes"])
    fu = adg.node(unused_pe).defn.fus[0].name
    mid = edge["route"][2]
    detour = [{"kind": "wire", "from": mid["from"], "to": f"{unused_pe}.in0"},
              {"kind": "pe_in_to_fu_in", "from": f"{unused_pe}.in0", "to": f"{unused_pe}:{fu}.in0"},
              {"kind": "fu_transit", "from": f"{unused_pe}:{fu}.in0", "to": f"{unused_pe}:{fu}.out0"},
              {"kind": "fu_out_to_pe_out", "from": f"{unused_pe}:{fu}.out0", "to": f"{unused_pe}.out0"},
              {"kind": "wire", "from": f"{unused_pe}.out0", "to": mid["to"]}]
    edge["route"][2:3] = detour
    rep = check(dfg, adg, words, bad)
    assert any(v.startswith("C10") for v in rep.violations), rep.violations


def test_two_ops_on_one_pe_are_rejected() -> None:
    adg, dfg, m, words, doc = dot_mapping()
    bad = copy.deepcopy(doc)
    ops = [n for n in bad["nodes"] if n["target"]["kind"] == "fu"]
    ops[1]["target"] = dict(ops[0]["target"])
    rep = check(dfg, adg, words, bad)
    assert any(v.startswith("C8") for v in rep.violations), rep.violations


def test_broken_connectivity_is_rejected() -> None:
    adg, dfg, m, words, doc = corpus_mapping("sw2-pe1-extmem1")
    sw, pairs = next((k, v) for k, v in sorted(m.config.switches.items()) if v)
    o, i = sorted(pairs)[0]
    # the same configuration read against a fabric whose table forbids a used transition
    text = corpus_file("sw2-pe1-extmem1.fabric.mlir").read_text()
    rows = ['"11111111"'] * 8
    rows[o] = '"' + "".join("0" if k == i else "1" for k in range(8)) + '"'
    text = text.replace(", ".join(['"11111111"'] * 8), ", ".join(rows), 1)
    broken = read_adg(parse_text(text))
    assert not check(dfg, broken, words, doc).ok
    # and a claimed step that the table forbids
    bad = copy.deepcopy(doc)
    step = next(s for e in bad["edges"] for s in e["route"] if s["kind"] == "switch")
    node, _, k = step["from"].rpartition(".in")
    table = adg.node(node).defn.table
    forbidden = next((oo for oo in range(len(table)) if not table[oo][int(k)]), None)
    if forbidden is None:  # the corpus switches are fully connected: use an output the switch does not have
        forbidden = len(table)
    step["to"] = f"{node}.out{forbidden}"
    assert any(v.startswith("C3") for v in check(dfg, adg, words, bad).violations)


def test_pe_input_mux_broadcast_is_rejected() -> None:
    adg, dfg, m, words, doc = dot_mapping()
    cfg = copy.deepcopy(m.config)
    pe = next(p for p, c in sorted(cfg.pes.items()) if sum(not f.disconnect for f in c.inputs) >= 2)
    c = cfg.pes[pe]
    first = next(f for f in c.inputs if not f.disconnect)
    k = next(k for k, f in enumerate(c.inputs) if not f.disconnect and f is not first)
    c.inputs[k] = MuxField(first.sel, False, False)
    rep = check(dfg, adg, encode(adg, cfg), doc)
    assert any(v.startswith("C11") for v in rep.violations), rep.violations


def _fanout_fabric(with_switch: bool) -> str:
    b = ADGBuilder("fan")
    b.pe("src", 1, 1, 64, [FUSpec("ext", ("i32",), ("i64",), "arith.extsi %i0 : i32 to i64")])
    b.pe("dst", 2, 1, 64, [FUSpec("add", ("i64", "i64"), ("i64",), "arith.addi %i0, %i1 : i64")])
    x = b.add_input("x", "!fabric.bits<64>")
    s = b.instance("src", "p_src", [x])
    if with_switch:
        b.switch("sw", 1, 2, 64, [[True], [True]])
        w = b.instance("sw", "sw0", [s[0]])
        d = b.instance("dst", "p_dst", [w[0], w[1]])
    else:  # the PE output is wired to both inputs: a structural fan-out outside any switch
        d = b.instance("dst", "p_dst", [s[0], s[0]])
    b.add_output(d[0])
    return b.text()


FANOUT_DFG = """
handshake.func @f(%x: i32, ...) -> (i64) attributes {argNames = ["x"], resNames = ["y"]} {
  %n = arith.extsi %x : i32 to i64
  %y = arith.addi %n, %n : i64
  handshake.return %y : i64
}
"""


def test_fan_out_happens_only_at_switches() -> None:
    func = [f for f in parse_text(FANOUT_DFG).functions() if f.name == "handshake.func"][0]
    dfg = read_dfg(func)
    with pytest.raises(MapFailure, match="cannot be routed"):
        map_dfg(dfg, read_adg(parse_text(_fanout_fabric(False))), budget=1)
    adg = read_adg(parse_text(_fanout_fabric(True)))
    m, words, doc, rep = map_and_check(dfg, adg)
    assert rep.ok, rep.violations
    assert m.config.switches["sw0"] == {(0, 0), (1, 0)}


MUTATIONS = ("swap", "move", "drop_node", "drop_step", "bend_step", "bend_from", "opcode")


@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(MUTATIONS), data=st.data())
def test_mutated_certificates_are_rejected(kind: str, data) -> None:
    adg, dfg, m, words, doc = dot_mapping()
    bad = copy.deepcopy(doc)
    nodes = bad["nodes"]
    if kind == "swap":  # two nodes of different ops exchange places
        i = data.draw(st.integers(0, len(nodes) - 1))
        others = [k for k, n in enumerate(nodes) if n["op"] != nodes[i]["op"] and n["target"]["kind"] == nodes[i]["target"]["kind"]]
        if not others:
            others = [k for k, n in enumerate(nodes) if n["op"] != nodes[i]["op"]]
        j = data.draw(st.sampled_from(others))
        nodes[i]["target"], nodes[j]["target"] = nodes[j]["target"], nodes[i]["target"]
    elif kind == "move":  # an op moves to a PE that is not configured for it
        ops = [n for n in nodes if n["target"]["kind"] == "fu"]
        n = data.draw(st.sampled_from(ops))
        free = [p.name for p in adg.pes() if p.name not in doc["pe_routes"]]
        n["target"]["pe"] = data.draw(st.sampled_from(free))
    elif kind == "drop_node":
        del nodes[data.draw(st.integers(0, len(nodes) - 1))]
    elif kind == "opcode":
        ops = [n for n in nodes if n["target"]["kind"] == "fu"]
        n = data.draw(st.sampled_from(ops))
        n["target"]["opcode"] = (n["target"]["opcode"] + data.draw(st.integers(1, 50))) % len(adg.pes()[0].defn.fus)
    else:
        e = data.draw(st.sampled_from([e for e in bad["edges"] if len(e["route"]) > 2]))
        k = data.draw(st.integers(1, len(e["route"]) - 2))
        if kind == "drop_step":
            del e["route"][k]
        elif kind == "bend_from":
            e["route"][k]["from"] = e["route"][k - 1]["from"]
        else:  # one intermediate port replaced by another existing port of another component
            sw = data.draw(st.sampled_from([n.name for n in adg.switches()]))
            e["route"][k]["to"] = f"{sw}.out{data.draw(st.integers(0, 7))}"
    assert not check(dfg, adg, words, bad).ok, kind


def test_an_unmapped_node_violates_c1() -> None:
    adg, dfg, m, words, doc = dot_mapping()
    bad = copy.deepcopy(doc)
    victim = next(n for n in bad["nodes"] if n["target"]["kind"] == "fu")
    bad["nodes"].remove(victim)
    rep = check(dfg, adg, words, bad)
    assert any(v.startswith("C1") and victim["id"] in v for v in rep.violations), rep.violations


def test_a_node_placed_on_another_opcode_violates_c1() -> None:
    adg, dfg, m, words, doc = dot_mapping()
    bad = copy.deepcopy(doc)
    victim = next(n for n in bad["nodes"] if n["target"]["kind"] == "fu")
    victim["target"]["opcode"] = victim["target"]["opcode"] + 1
    rep = check(dfg, adg, words, bad)
    assert any(v.startswith("C1") for v in rep.violations), rep.violations


def test_a_switch_output_selecting_two_inputs_violates_c4() -> None:
    adg, dfg, m, words, doc = dot_mapping()
    cfg = copy.deepcopy(m.config)
    sw, o, i = next((s, o, i) for s, pairs in sorted(cfg.switches.items()) for o, i in sorted(pairs))
    table = adg.node(sw).defn.table
    other = next(k for k in range(len(table[o])) if k != i and table[o][k])
    cfg.switches[sw].add((o, other))  # a second input onto an output that already carries a value
    rep = check(dfg, adg, encode(adg, cfg), doc)
    assert any(v.startswith(f"C4: {sw} output {o} selects 2 inputs") for v in rep.violations), rep.violations
