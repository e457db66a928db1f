"""Fabric files: the corpus ADGs and generated meshes parse, verify and print back; bad ADGs give located, coded errors."""

from __future__ import annotations

import pytest

from loom.diagnostics import LoomError
from loom.map.adg.build import ADGBuilder, FUSpec
from loom.map.adg.mesh import MeshParams, mesh
from loom.map.adg.read import read_adg
from loom.mlir import parse_file, parse_text, print_module

from support.map import CORPUS_PAIRS, corpus_file


@pytest.mark.parametrize("name", CORPUS_PAIRS)
def test_corpus_fabric_parses_verifies_and_round_trips(name: str) -> None:
    module = parse_file(corpus_file(f"{name}.fabric.mlir"))
    adg = read_adg(module)
    assert adg.pes()
    text = print_module(module)
    again = parse_text(text)
    assert print_module(again) == text
    assert [n.name for n in read_adg(again).nodes] == [n.name for n in adg.nodes]


def test_corpus_shapes() -> None:
    flow = read_adg(parse_file(corpus_file("dataflow-flowops.fabric.mlir")))
    fus = [fu for n in flow.pes() for fu in n.defn.fus]
    assert [(f.op.name, f.latency, f.interval) for f in fus] == [
        ("dataflow.stream", -1, -1), ("dataflow.gate", -1, -1), ("dataflow.carry", -1, -1)]
    small = read_adg(parse_file(corpus_file("sw2-pe1-extmem1.fabric.mlir")))
    assert [n.kind for n in small.nodes] == ["extmemory", "sw", "sw", "pe"]
    assert small.node("extmem0").memref_arg == 0
    assert small.node("sw_0").defn.table == [[True] * 8] * 8


def test_mesh_generates_a_verified_fabric_with_the_full_palette() -> None:
    text = mesh(MeshParams(rows=3, cols=4, extmem=2, max_join_fanin=6))
    adg = read_adg(parse_text(text))
    assert len(adg.pes()) == 12 and len(adg.switches()) == 12 and len(adg.memories()) == 3
    assert adg.max_join_fanin() == 6
    names = {fu.op.name for fu in adg.pes()[0].defn.fus if fu.op is not None}
    assert {fu.name for fu in adg.pes()[0].defn.fus if fu.op is None} == {"mac_i32", "mac_i64", "mac_idx", "amc_i32", "amc_i64", "amc_idx"}
    for op in ("arith.addi", "arith.mulf", "arith.cmpi", "arith.select", "handshake.constant", "dataflow.stream",
               "dataflow.gate", "dataflow.carry", "dataflow.invariant", "handshake.load", "handshake.store",
               "handshake.join", "handshake.mux", "handshake.cond_br", "arith.index_cast"):
        assert op in names
    # no U-turns: an input from the east never goes back east
    sw = adg.node("sw_1_1").defn
    assert not all(all(row) for row in sw.table)


def test_builder_api_builds_what_it_says() -> None:
    b = ADGBuilder("tiny")
    fu = FUSpec("add", ("i32", "i32"), ("i32",), "arith.addi %i0, %i1 : i32")
    b.pe("pe", 2, 1, 32, [fu])
    b.switch("sw", 3, 3, 32, [[True, True, True], [True, True, False], [False, True, True]])
    a = b.add_input("a", "!fabric.bits<32>")
    c = b.add_input("b", "!fabric.bits<32>")
    s = b.instance("sw", "s0", [a, c, ("p0", 0)])
    p = b.instance("pe", "p0", [s[0], s[1]])
    b.add_output(s[2])
    adg = read_adg(parse_text(b.text()))
    assert adg.drivers[("p0", "i", 0)] == ("s0", "o", 0)
    assert adg.drivers[("s0", "i", 2)] == ("p0", "o", 0)
    assert adg.node("s0").defn.table[2] == [False, True, True]
    assert p == [("p0", 0)]


_FU_HEAD = "module {\n  fabric.spatial_pe @pe(%a: !fabric.bits<64>, %b: !fabric.bits<64>) -> (!fabric.bits<64>) {\n"
_TAIL = ("    fabric.yield\n  }\n  fabric.module @m(%x: !fabric.bits<64>, %y: !fabric.bits<64>) -> (!fabric.bits<64>) {\n"
         "    %p:1 = fabric.instance @pe(%x, %y) {sym_name = \"p\"} : (!fabric.bits<64>, !fabric.bits<64>) -> (!fabric.bits<64>)\n"
         "    fabric.yield %p#0 : !fabric.bits<64>\n  }\n}\n")

BAD = {
    "dataflow latency": ("    fabric.function_unit @f(%c: i1, %v: index) -> (index) [latency = 1, interval = 1] {\n"
                         "      %o = dataflow.invariant %c, %v : i1, index -> index\n      fabric.yield %o : index\n    }\n",
                         "CPL_FABRIC_FU_TIMING", 3),
    "dataflow mixed": ("    fabric.function_unit @f(%c: i1, %v: index) -> (index) [latency = -1, interval = -1] {\n"
                       "      %o = dataflow.invariant %c, %v : i1, index -> index\n"
                       "      %p = arith.addi %o, %v : index\n      fabric.yield %p : index\n    }\n",
                       "CPL_FABRIC_DATAFLOW_FU_EXCLUSIVE", 3),
    "passthrough": ("    fabric.function_unit @f(%c: i32, %v: i32) -> (i32, i32) [latency = 1, interval = 1] {\n"
                    "      %o = arith.addi %c, %v : i32\n      fabric.yield %o, %v : i32, i32\n    }\n",
                    "CPL_FABRIC_FU_BODY", 5),
    "not allowed": ("    fabric.function_unit @f(%c: i32, %v: i32) -> (i32) [latency = 1, interval = 1] {\n"
                    "      %o = arith.floordivsi %c, %v : i32\n      fabric.yield %o : i32\n    }\n",
                    "CPL_FABRIC_FU_OP_NOT_ALLOWED", 4),
    "no timing": ("    fabric.function_unit @f(%c: i32, %v: i32) -> (i32) {\n"
                  "      %o = arith.addi %c, %v : i32\n      fabric.yield %o : i32\n    }\n",
                  "CPL_FABRIC_FU_TIMING", 3),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_function_units_are_located_and_coded(case: str) -> None:
    body, code, line = BAD[case]
    with pytest.raises(LoomError) as e:
        read_adg(parse_text(_FU_HEAD + body + _TAIL, "bad.fabric.mlir"))
    msg = str(e.value)
    assert f"[{code}]" in msg and msg.startswith(f"bad.fabric.mlir:{line}:"), msg


def test_bad_switch_table_and_unknown_instance() -> None:
    sw = ('module {\n  fabric.spatial_sw @s [connectivity_table = ["11", "1x"]] : (!fabric.bits<8>, !fabric.bits<8>) -> '
          '(!fabric.bits<8>, !fabric.bits<8>)\n  fabric.module @m(%a: !fabric.bits<8>) -> (!fabric.bits<8>) {\n'
          '    %s:2 = fabric.instance @s(%a, %s#1) {sym_name = "s0"} : (!fabric.bits<8>, !fabric.bits<8>) -> (!fabric.bits<8>, !fabric.bits<8>)\n'
          '    fabric.yield %s#0 : !fabric.bits<8>\n  }\n}\n')
    with pytest.raises(LoomError, match=r"^t.mlir:2:3: error: \[CPL_FABRIC_SW_CONNECTIVITY\]"):
        read_adg(parse_text(sw, "t.mlir"))
    with pytest.raises(LoomError, match=r"^t.mlir:4:.*\[CPL_FABRIC_UNKNOWN_SYMBOL\]"):
        read_adg(parse_text(sw.replace("@s(%a", "@nope(%a"), "t.mlir"))


def test_declared_join_fanin_is_exported_and_checked() -> None:
    text = mesh(MeshParams(rows=2, cols=2, extmem=1, max_join_fanin=3))
    assert read_adg(parse_text(text)).max_join_fanin() == 3
    lower = text.replace("loom.adg_max_join_fanin = 3", "loom.adg_max_join_fanin = 2")
    assert read_adg(parse_text(lower)).max_join_fanin() == 2  # a tighter export is honoured
    with pytest.raises(LoomError, match=r"\[CPL_FABRIC_JOIN_FANIN\]"):
        read_adg(parse_text(text.replace("loom.adg_max_join_fanin = 3", "loom.adg_max_join_fanin = 9")))


def test_port_names_parse_back_even_with_dotted_symbols() -> None:
    from loom.map.adg.model import MODULE_IN, fu_port_name, parse_port_name, port_name

    for p in [("pe_3", "o", 1), ("sw.a.b", "i", 12), (MODULE_IN, "o", 2)]:
        assert parse_port_name(port_name(p)) == p
    assert parse_port_name(fu_port_name("pe", "fu_x.yield", "i", 0)) == ("fu", "pe", "fu_x.yield", "i", 0)
    assert parse_port_name("pe.inq") is None and parse_port_name(".in1") is None
    bad = mesh(MeshParams(rows=1, cols=1, extmem=0)).replace('sym_name = "pe_0_0"', 'sym_name = "a:b"')
    with pytest.raises(LoomError, match=r"\[CPL_FABRIC_DUPLICATE_NAME\]"):
        read_adg(parse_text(bad))
