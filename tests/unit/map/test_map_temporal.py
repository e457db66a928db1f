"""Temporal PEs in loom map: several DFG ops in one fabric.temporal_pe's instruction slots, the slice bits as
spec-fabric-config_mem lays them out, the checker's slot/tag/FU-config rules, and the decoded configuration run."""

from __future__ import annotations

import functools
import json
import subprocess
import sys

import pytest

from loom.lower import LowerOptions, lower_module
from loom.map.adg.mesh import MeshParams, mesh
from loom.map.adg.read import load_adg, read_adg
from loom.map.artifacts import config_bin, config_json, map_json
from loom.map.check import check
from loom.map.config import from_bytes
from loom.map.dfg import read_dfg
from loom.map.execute import run_decoded
from loom.map.fifo import fifo_obligations
from loom.map.mapper import map_dfg
from loom.mlir import parse_file, parse_text
from loom.verify.obligation import VerifyContext

from support.paths import DATA, EXAMPLES_DIR

FABRIC = DATA / "map" / "temporal2.fabric.mlir"
DFG = DATA / "map" / "add_mul.dfg.mlir"


def _dfg_func(path):
    return [f for f in parse_file(path).functions() if f.name == "handshake.func"][0]


@functools.lru_cache(maxsize=None)
def _small():
    adg = load_adg(str(FABRIC))
    dfg = read_dfg(_dfg_func(DFG))
    m = map_dfg(dfg, adg, seed=0)
    doc = json.loads(json.dumps(map_json(m, DFG.name, FABRIC.name)))
    return adg, dfg, m, doc, from_bytes(config_bin(m))


def _bits(words: list[int], off: int, width: int) -> int:
    """Bits [off, off+width) of the little-endian word stream, read one by one (independent of loom's packer)."""
    return sum(((words[(off + b) // 32] >> ((off + b) % 32)) & 1) << b for b in range(width))


def test_two_ops_share_one_temporal_pe_and_run() -> None:
    adg, dfg, m, doc, words = _small()
    slots = {n["id"]: n["target"].get("slot") for n in doc["nodes"] if n["kind"] == "op"}
    assert sorted(slots.values()) == [0, 1]  # the add and the multiply, one slot each of the one PE
    assert doc["temporal_registers"] == [] and doc["temporal_pes"][0]["name"] == "tpe0"
    assert check(dfg, adg, words, doc).ok
    plain, decoded = run_decoded(_dfg_func(DFG), _dfg_func(DFG), adg, words, doc, {"a": 3, "b": 4, "c": 5})
    assert plain.status == decoded.status == "completed" and decoded.results == plain.results == [35]


def test_verify_adg_reports_the_temporal_rules() -> None:
    from loom.map.obligations import mapping_obligations

    adg, dfg, m, doc, words = _small()
    obs = {o.id: o for o in mapping_obligations(dfg, adg, FABRIC.name)}
    assert obs["map.C5"].status == obs["map.C9"].status == obs["map.iso"].status == "proved"
    assert "firing order" in obs["map.C5"].detail


def test_slice_bits_follow_config_mem() -> None:
    """valid | tag | opcode | in mux x2 | out demux x1 | result tag x1 per slot (no registers: no operand/reg
    fields); PE with 4 inputs and 2 outputs, 2 FUs, tag i1: 1+1+1+2*(2+2)+1*(1+2)+1 = 15 bits a slot."""
    adg, dfg, m, doc, words = _small()
    cj = config_json(m)
    sl = {s["name"]: s for s in cj["slices"]}
    assert [s["kind"] for s in cj["slices"]] == ["spatial_sw"] + ["add_tag"] * 4 + ["temporal_pe"]
    base = 32 * sl["tpe0"]["word_offset"]
    by_slot = {n["target"]["slot"]: n for n in doc["nodes"] if n["kind"] == "op"}
    for s in (0, 1):
        off = base + 15 * s
        assert _bits(words, off, 1) == 1 and _bits(words, off + 1, 1) == s  # valid, tag = slot
        assert _bits(words, off + 2, 1) == by_slot[s]["target"]["opcode"]
        sels = [_bits(words, off + 3 + 4 * k, 2) for k in range(2)]
        flags = [_bits(words, off + 5 + 4 * k, 2) for k in range(2)]
        assert flags == [0, 0] and all(q // 2 == s for q in sels)  # slot s reads its own tagged inputs 2s, 2s+1
        assert _bits(words, off + 11, 1) == s and _bits(words, off + 12, 2) == 0  # slot s drives PE output s
        assert _bits(words, off + 14, 1) == s  # result tag
    assert _bits(words, base + 30, 32 * sl["tpe0"]["word_count"] - 30) == 0  # no FU holds config fields
    tags = [n.name for n in adg.nodes if n.kind == "add_tag"]
    for k, name in enumerate(tags):  # the add_tags keep the fabric's tags: inputs 0-1 tag 0, inputs 2-3 tag 1
        assert words[sl[name]["word_offset"]] == k // 2


def _flip(words: list[int], bit: int) -> list[int]:
    out = list(words)
    out[bit // 32] ^= 1 << (bit % 32)
    return out


def test_checker_refuses_a_wrong_tag_or_slot() -> None:
    adg, dfg, m, doc, words = _small()
    cj = config_json(m)
    sl = {s["name"]: s for s in cj["slices"]}
    first_tag = next(n.name for n in adg.nodes if n.kind == "add_tag")
    rep = check(dfg, adg, _flip(words, 32 * sl[first_tag]["word_offset"]), doc)
    assert any(v.startswith("C5:") and "carries tag" in v for v in rep.violations), rep.violations
    base = 32 * sl["tpe0"]["word_offset"]
    rep = check(dfg, adg, _flip(words, base + 1), doc)  # slot 0 now matches tag 1, as slot 1 does
    assert any(v.startswith("C5:") and "both match tag 1" in v for v in rep.violations), rep.violations
    rep = check(dfg, adg, _flip(words, base + 15), doc)  # slot 1 invalid: its op is no longer configured
    assert any(v.startswith("C5:") and "not valid" in v for v in rep.violations), rep.violations
    moved = json.loads(json.dumps(doc))
    for n in moved["nodes"]:
        if n["kind"] == "op":
            n["target"]["slot"] = 1 - n["target"]["slot"]  # the certificate swaps the slots
    assert not check(dfg, adg, words, moved).ok


CONSTS = """module {
  handshake.func @k(%a: i32, %ctl: none, ...) -> (i32) attributes {argNames = ["a", "ctl"], resNames = ["r"]} {
    %c1 = handshake.constant %ctl {value = 7 : i32} : i32
    %c2 = handshake.constant %ctl {value = 9 : i32} : i32
    %x = arith.addi %a, %c1 : i32
    %y = arith.addi %x, %c2 : i32
    return %y : i32
  }
}
"""


def test_two_constants_never_share_one_temporal_fu() -> None:
    """A constant's value is the FU's persistent config: two constants on one temporal PE's constant FU would need
    two values at once (C9), so the mapper puts them on different PEs, and the checker refuses a map that does not."""
    adg = read_adg(parse_text(mesh(MeshParams(rows=2, cols=2, extmem=0, onchip=0, temporal=2)), "t.fabric.mlir"))
    module = parse_text(CONSTS, "k.mlir")
    dfg = read_dfg([f for f in module.functions() if f.name == "handshake.func"][0])
    m = map_dfg(dfg, adg, seed=0)
    consts = [m.place[n.id] for n in dfg.nodes if n.name == "handshake.constant"]
    assert consts[0][:3] != consts[1][:3]
    doc = json.loads(json.dumps(map_json(m, "k.mlir", "t.fabric.mlir")))
    words = from_bytes(config_bin(m))
    assert check(dfg, adg, words, doc).ok
    ids = [n.id for n in dfg.nodes if n.name == "handshake.constant"]
    bad = json.loads(json.dumps(doc))
    t0 = next(n["target"] for n in bad["nodes"] if n["id"] == ids[0])
    for n in bad["nodes"]:
        if n["id"] == ids[1]:
            n["target"] = dict(t0, slot=1 - t0["slot"])  # the second constant claims the first one's FU
    rep = check(dfg, adg, words, bad)
    assert not rep.ok


def test_mesh_temporal_option(tmp_path) -> None:
    out = tmp_path / "t.fabric.mlir"
    r = subprocess.run([sys.executable, "-m", "loom", "adg", "mesh", "--rows", "2", "--cols", "2", "--temporal", "2",
                        "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    adg = read_adg(parse_text(out.read_text(), str(out)))
    tpes = [n for n in adg.nodes if n.kind == "tpe"]
    assert len(tpes) == 4 and not adg.pes() and tpes[0].defn.num_instruction == 2
    r = subprocess.run([sys.executable, "-m", "loom", "adg", "verify", str(out)], capture_output=True, text=True)
    assert r.returncode == 0 and "4 temporal PEs" in r.stdout, r.stdout + r.stderr


@functools.lru_cache(maxsize=None)
def _temporal_mesh():
    return read_adg(parse_text(mesh(MeshParams(rows=8, cols=8, extmem=2, mem_regions=4, temporal=2)), "t.fabric.mlir"))


def _kernel(path, fanin: int):
    module = lower_module(parse_file(path), None, LowerOptions(max_join_fanin=fanin))
    return [f for f in module.functions() if f.name == "handshake.func"][0]


@pytest.mark.parametrize("name", ["matmul", "triangular"])
def test_example_on_the_8x8_temporal_mesh(name) -> None:
    """matmul's 82 ops do not fit 64 spatial PEs; on 64 two-slot temporal PEs (2 shared memory interfaces) they
    map, are proved, and run right from config.bin; same seed, same bytes."""
    adg = _temporal_mesh()
    path = EXAMPLES_DIR / f"{name}.scf.mlir"
    dfg = read_dfg(_kernel(path, adg.max_join_fanin()))
    m = map_dfg(dfg, adg, seed=0)
    ops = [t for t in m.place.values() if t[0] == "fu"]
    assert len({t[1] for t in ops}) < len(ops)  # some temporal PE runs two ops
    assert m.registers  # and some value between two of its slots goes through a register
    doc = json.loads(json.dumps(map_json(m, path.name, "t.fabric.mlir")))
    words = from_bytes(config_bin(m))
    assert check(dfg, adg, words, doc).ok
    fifo = fifo_obligations(_kernel(path, adg.max_join_fanin()), adg, words, doc, "t.fabric.mlir", VerifyContext())
    assert fifo and all(o.status == "proved" for o in fifo)  # the routes' depths cannot deadlock it
    inputs = json.loads(path.with_name(f"{name}.inputs.json").read_text())
    plain, decoded = run_decoded(_kernel(path, 4), _kernel(path, 4), adg, words, doc, inputs)
    assert plain.status == decoded.status == "completed"
    assert decoded.results == plain.results and decoded.memrefs == plain.memrefs
    if name == "matmul":
        assert config_bin(map_dfg(dfg, adg, seed=0)) == config_bin(m)


def test_a_value_between_two_slots_goes_through_a_register() -> None:
    """With registers, the sum feeding the product on the same temporal PE is a temporal_reg edge: the writer's
    result sets is_reg (demux discarding), the reader's operand reads it (mux disconnected); no switch carries it."""
    from loom.map.config import decode, encode

    fabric = DATA / "map" / "temporal2_regs.fabric.mlir"
    adg = load_adg(str(fabric))
    dfg = read_dfg(_dfg_func(DFG))
    m = map_dfg(dfg, adg, seed=0)
    doc = json.loads(json.dumps(map_json(m, DFG.name, fabric.name)))
    regs = doc["temporal_registers"]
    assert [(r["writer_sw_node"], r["reader_sw_node"], r["register_index"], r["writer_output_index"],
             r["reader_input_index"]) for r in regs] == [("s", "p", 0, 0, 0)]
    assert [e["kind"] for e in doc["edge_routings"]].count("temporal_reg") == 1
    words = from_bytes(config_bin(m))
    assert check(dfg, adg, words, doc).ok
    plain, decoded = run_decoded(_dfg_func(DFG), _dfg_func(DFG), adg, words, doc, {"a": 3, "b": 4, "c": 5})
    assert decoded.status == "completed" and decoded.results == plain.results == [35]
    cfg = decode(adg, words)
    writer = cfg.temporal["tpe0"].slots[regs[0]["writer_slot"]]
    writer.results[0] = (writer.results[0][0], 0, False)  # the sum no longer goes to the register
    rep = check(dfg, adg, encode(adg, cfg), doc)
    assert any(v.startswith("C5:") and "0 writers and 1 readers" in v for v in rep.violations), rep.violations


def test_an_fu_with_a_dead_op_computes_its_live_op() -> None:
    """An FU whose second op's result reaches no yield computes its first op on its first inputs (upstream's
    effective graph): subi maps onto it, the third input's mux stays disconnected, and the run is right."""
    fabric, dfg_path = DATA / "map" / "dead_op_tpe.fabric.mlir", DATA / "map" / "sub.dfg.mlir"
    adg = load_adg(str(fabric))
    fu = next(n for n in adg.nodes if n.kind == "tpe").defn.fus[0]
    assert fu.op is not None and fu.op.name == "arith.subi" and len(fu.body) == 2
    dfg = read_dfg(_dfg_func(dfg_path))
    m = map_dfg(dfg, adg, seed=0)
    slot = m.config.temporal["t0"].slots[0]
    assert slot.valid and [f.disconnect for f in slot.inputs] == [False, False, True]
    doc = json.loads(json.dumps(map_json(m, dfg_path.name, fabric.name)))
    words = from_bytes(config_bin(m))
    assert check(dfg, adg, words, doc).ok
    plain, decoded = run_decoded(_dfg_func(dfg_path), _dfg_func(dfg_path), adg, words, doc, {"a": 9, "b": 4, "c": 1})
    assert decoded.status == "completed" and decoded.results == plain.results == [5]


def test_cli_maps_and_reproves_a_temporal_fabric(tmp_path) -> None:
    base = [sys.executable, "-m", "loom", "map", str(DFG), "--adg", str(DATA / "map" / "temporal2_regs.fabric.mlir"),
            "-o", str(tmp_path), "-q"]
    r = subprocess.run(base, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    doc = json.loads((tmp_path / "add_mul.temporal2_regs.map.json").read_text())
    assert len(doc["temporal_registers"]) == 1
    r = subprocess.run(base + ["--check-only"], capture_output=True, text=True)
    assert r.returncode == 0 and "proved" in r.stdout and "C1-C6, C8-C11" in r.stdout, r.stdout + r.stderr


CONST_TPE = """module {
  fabric.temporal_pe @tc(%p0: !fabric.tagged<!fabric.bits<32>, i1>, %p1: !fabric.tagged<!fabric.bits<32>, i1>) -> (!fabric.tagged<!fabric.bits<32>, i1>, !fabric.tagged<!fabric.bits<32>, i1>) [num_register = 0 : i64, num_instruction = 2 : i64, reg_fifo_depth = 0 : i64] {
    fabric.function_unit @k(%t: none) -> (i32) [latency = 0, interval = 1] {
      %v = handshake.constant %t {value = 0 : i32} : i32
      fabric.yield %v : i32
    }
    fabric.yield
  }
  fabric.module @m(%a: none, %b: none) -> (i32, i32) {
    %ta = fabric.add_tag %a {tag = 0 : i64} : none -> !fabric.tagged<!fabric.bits<32>, i1>
    %tb = fabric.add_tag %b {tag = 1 : i64} : none -> !fabric.tagged<!fabric.bits<32>, i1>
    %r:2 = fabric.instance @tc(%ta, %tb) {sym_name = "t0"} : (!fabric.tagged<!fabric.bits<32>, i1>, !fabric.tagged<!fabric.bits<32>, i1>) -> (!fabric.tagged<!fabric.bits<32>, i1>, !fabric.tagged<!fabric.bits<32>, i1>)
    %o0 = fabric.del_tag %r#0 : !fabric.tagged<!fabric.bits<32>, i1> -> i32
    %o1 = fabric.del_tag %r#1 : !fabric.tagged<!fabric.bits<32>, i1> -> i32
    fabric.yield %o0, %o1 : i32, i32
  }
}
"""

TWO_CONSTS = """module {
  handshake.func @two(%a: none, %b: none, ...) -> (i32, i32) attributes {argNames = ["a", "b"], resNames = ["x", "y"]} {
    %x = handshake.constant %a {value = 7 : i32} : i32
    %y = handshake.constant %b {value = 9 : i32} : i32
    return %x, %y : i32, i32
  }
}
"""


def test_one_temporal_fu_cannot_hold_two_constants() -> None:
    """Two constants need two values of the one constant FU's persistent config: the mapper finds no placement,
    and a configuration that puts both there anyway is refused with C9."""
    from loom.map.check import CheckReport
    from loom.map.config import Config, MuxField
    from loom.map.mapper import MapFailure
    from loom.map.temporal.check import check_tpes
    from loom.map.temporal.config import SlotConfig, TPEConfig

    adg = read_adg(parse_text(CONST_TPE, "c.fabric.mlir"))
    dfg = read_dfg([f for f in parse_text(TWO_CONSTS, "two.mlir").functions() if f.name == "handshake.func"][0])
    with pytest.raises(MapFailure) as failed:
        map_dfg(dfg, adg, seed=0)
    assert "compatible places are taken" in str(failed.value) and "1 temporal PEs" in str(failed.value)
    x, y = (n.id for n in dfg.nodes if n.name == "handshake.constant")
    cfg = Config(tags={n.name: n.defn.tag for n in adg.nodes if n.kind == "add_tag"})
    cfg.temporal["t0"] = TPEConfig([SlotConfig(True, s, 0, [(0, False)], [MuxField(s, False, False)],
                                               [MuxField(s, False, False)], [(s, 0, False)]) for s in (0, 1)], [7])
    rep = CheckReport()
    check_tpes(dfg, adg, cfg, {x: ("fu", "t0", 0, 0), y: ("fu", "t0", 0, 1)}, rep)
    assert any(v.startswith("C9:") and "needs [9]" in v for v in rep.violations), rep.violations
    cfg.temporal["t0"].payloads = [9]
    rep = CheckReport()
    check_tpes(dfg, adg, cfg, {x: ("fu", "t0", 0, 0), y: ("fu", "t0", 0, 1)}, rep)
    assert any(v.startswith("C9:") and "needs [7]" in v for v in rep.violations), rep.violations
