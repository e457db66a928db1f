"""Upstream fabric ops the mapper does not use yet (tags, temporal PE and switch), and FIFOs and FU-internal muxes, which it reads: they parse, print back in
their custom form, obey the specs' rules as located CPL_FABRIC_* errors, pass `loom adg verify`, and `loom map`
refuses them with one located line (exit 2, nothing written). Also: duplicate definition names are refused.

The fabrics here are written for these tests (not copied from upstream)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loom.cli import main
from loom.diagnostics import LoomError
from loom.map.adg.read import read_adg
from loom.map.artifacts import map_json
from loom.mlir import parse_text, print_module

from support.map import corpus_file

T = "!fabric.tagged<!fabric.bits<32>, i2>"
B = "!fabric.bits<32>"

# each case: one valid fabric whose fabric.module uses the op; line 3 holds the first use the mapper refuses
VALID = {
    "fifo": f"""module {{
  fabric.module @m(%a: {B}) -> ({B}) {{
    %f = fabric.fifo @q [depth = 4, bypassable] (%a) attributes {{bypassed = false}} : ({B}) -> ({B})
    %g = fabric.fifo @r [depth = 1] (%f) : ({B}) -> ({B})
    fabric.yield %g : {B}
  }}
}}
""",
    "tags": f"""module {{
  fabric.module @m(%a: i32) -> (i32) {{
    %t = fabric.add_tag %a {{tag = 3 : i64}} : i32 -> {T}
    %u = fabric.map_tag %t [table_size = 2 : i64] attributes {{table = [[1 : i64, 3 : i64, 5 : i64], [0 : i64, 0 : i64, 0 : i64]]}} : {T} -> !fabric.tagged<!fabric.bits<32>, i3>
    %v = fabric.del_tag %u : !fabric.tagged<!fabric.bits<32>, i3> -> i32
    fabric.yield %v : i32
  }}
}}
""",
    "temporal": f"""module {{
  fabric.module @m(%a: i32, %b: i32) -> (i32) {{
    %ta = fabric.add_tag %a {{tag = 0 : i64}} : i32 -> {T}
    %tb = fabric.add_tag %b {{tag = 1 : i64}} : i32 -> {T}
    %s:2 = fabric.temporal_sw @ts [num_route_table = 2, connectivity_table = ["11", "11"]] (%ta, %tb) attributes {{route_table = [{{tag = 0 : i64, input = 0 : i64, output = 1 : i64}}]}} : ({T}, {T}) -> ({T}, {T})
    %p = fabric.temporal_pe @tp [num_register = 1 : i64, num_instruction = 2 : i64, reg_fifo_depth = 2 : i64] inputs(%s#0, %s#1) : ({T}, {T}) -> ({T}) {{
      fabric.function_unit @add(%x: i32, %y: i32) -> (i32) [latency = 1, interval = 1] {{
        %r = arith.addi %x, %y : i32
        fabric.yield %r : i32
      }}
      fabric.yield
    }}
    %q = fabric.instance @tpe(%p, %p) {{sym_name = "tpe_0"}} : ({T}, {T}) -> ({T})
    %o = fabric.del_tag %q : {T} -> i32
    fabric.yield %o : i32
  }}
  fabric.temporal_pe @tpe(%x: {T}, %y: {T}) -> ({T}) [num_register = 0 : i64, num_instruction = 1 : i64, reg_fifo_depth = 0 : i64, enable_share_operand_buffer = true, operand_buffer_size = 4 : i64] {{
    fabric.function_unit @mul(%i: i32, %j: i32) -> (i32) [latency = 2, interval = 1] {{
      %r = arith.muli %i, %j : i32
      fabric.yield %r : i32
    }}
    fabric.yield
  }}
}}
""",
    "mux": f"""module {{
  fabric.spatial_pe @pe(%a: {B}, %b: {B}) -> ({B}) {{
    fabric.function_unit @fu(%x: i32, %y: i32) -> (i32) [latency = 1, interval = 1] {{
      %s = arith.addi %x, %y : i32
      %d = arith.subi %x, %y : i32
      %o = fabric.mux %s, %d {{sel = 1 : i64, discard = false, disconnect = false}} : i32, i32 -> i32
      fabric.yield %o : i32
    }}
    fabric.yield
  }}
  fabric.module @m(%a: {B}, %b: {B}) -> ({B}) {{
    %p = fabric.instance @pe(%a, %b) {{sym_name = "pe_0"}} : ({B}, {B}) -> ({B})
    fabric.yield %p : {B}
  }}
}}
""",
}
def test_fifos_are_mappable_components() -> None:
    adg = read_adg(parse_text(VALID["fifo"], "f.fabric.mlir"))
    fifos = {n.name: n.defn for n in adg.fifos()}
    assert (fifos["q"].depth, fifos["q"].bypassable, fifos["q"].bypassed) == (4, True, False)
    assert (fifos["r"].depth, fifos["r"].bypassable) == (1, False)


def test_temporal_sw_is_read_as_a_switch_routing_by_tag() -> None:
    from loom.map.tsw import TSwitchDef

    adg = read_adg(parse_text(VALID["temporal"], "f.fabric.mlir"))
    ts = adg.node("ts")
    assert ts.kind == "sw" and isinstance(ts.defn, TSwitchDef)  # routed as a switch; slots chosen per tag
    assert (ts.defn.slots, ts.defn.tag_width, ts.defn.route_table, ts.defn.connected()) == (
        2, 2, [(0, 0, 1)], [(0, 0), (0, 1), (1, 0), (1, 1)])


def test_tag_ops_are_routed_through() -> None:
    adg = read_adg(parse_text(VALID["tags"], "f.fabric.mlir"))
    assert [(n.name, n.kind) for n in adg.nodes] == [("add_tag_0", "add_tag"), ("map_tag_0", "map_tag"),
                                                     ("del_tag_0", "del_tag")]  # upstream's per-kind names
    assert adg.node("map_tag_0").defn.table == [(1, 3, 5), (0, 0, 0)]


def test_adg_verify_accepts_and_map_answers_on_the_temporal_fabric(tmp_path: Path, capsys) -> None:
    fab = tmp_path / "temporal.fabric.mlir"
    fab.write_text(VALID["temporal"])
    assert main(["adg", "verify", str(fab)]) == 0
    said = capsys.readouterr().out
    assert ": ok: fabric.module @m:" in said and "not mappable" not in said
    out = tmp_path / "out"
    dfg = tmp_path / "add32.dfg.mlir"  # a tagged 0 and b tagged 1 never meet in one temporal instruction
    dfg.write_text('handshake.func @add32(%a: i32, %b: i32, ...) -> (i32) attributes {argNames = ["a", "b"], '
                   'resNames = ["y"]} {\n  %y = arith.addi %a, %b : i32\n  handshake.return %y : i32\n}\n')
    assert main(["map", str(dfg), "--adg", str(fab), "-o", str(out), "-q"]) == 1
    err = capsys.readouterr().err
    assert "does not fit" in err and "CPL_FABRIC_NOT_MAPPABLE" not in err
    assert not out.exists() or not any(out.iterdir())


def _swap(case: str, old: str, new: str) -> str:
    text = VALID[case]
    assert old in text, old
    return text.replace(old, new, 1)


_ONE = """module {{
  fabric.module @m(%a: {ins}) -> ({outs}) {{
    {body}
    fabric.yield {ret}
  }}
}}
"""

BAD = {
    "fifo depth": (lambda: _swap("fifo", "depth = 4", "depth = 0"), "CPL_FABRIC_FIFO", 3, "at least 1"),
    "fifo bypassed": (lambda: _swap("fifo", "[depth = 1] (%f) :", "[depth = 1] (%f) attributes {bypassed = true} :"),
                      "CPL_FABRIC_FIFO", 4, "bypassed requires bypassable"),
    "fifo types": (lambda: _ONE.format(ins=B, outs="!fabric.bits<16>",
                                       body="%f = fabric.fifo @q [depth = 1] (%a) : ({B}) -> (!fabric.bits<16>)".format(B=B),
                                       ret="%f : !fabric.bits<16>"), "CPL_FABRIC_FIFO", 3, "differs"),
    "add_tag overflow": (lambda: _swap("tags", "tag = 3 : i64", "tag = 4 : i64"), "CPL_FABRIC_TAG", 3, "does not fit i2"),
    "del_tag untagged in": (lambda: _ONE.format(ins="i32", outs="i32", body="%f = fabric.del_tag %a : i32 -> i32",
                                                ret="%f : i32"), "CPL_FABRIC_TAG", 3, "!fabric.tagged value to an untagged"),
    "map_tag payload": (lambda: _swap("tags", "-> !fabric.tagged<!fabric.bits<32>, i3>\n",
                                      "-> !fabric.tagged<!fabric.bits<16>, i3>\n").replace(
        "%u : !fabric.tagged<!fabric.bits<32>, i3>", "%u : !fabric.tagged<!fabric.bits<16>, i3>"),
        "CPL_FABRIC_TAG", 4, "not the payload"),
    "map_tag entry": (lambda: _swap("tags", "[1 : i64, 3 : i64, 5 : i64]", "[1 : i64, 4 : i64, 5 : i64]"),
                      "CPL_FABRIC_TAG", 4, "out of range"),
    "map_tag size": (lambda: _swap("tags", "table_size = 2", "table_size = 1"), "CPL_FABRIC_TAG", 4, "at most"),
    "tsw route": (lambda: _swap("temporal", "output = 1 : i64", "output = 2 : i64"), "CPL_FABRIC_TEMPORAL_SW", 5,
                  "out of range"),
    "tsw slots": (lambda: _swap("temporal", "num_route_table = 2", "num_route_table = 0"), "CPL_FABRIC_TEMPORAL_SW", 5,
                  "at least 1"),
    "tsw table": (lambda: _swap("temporal", '["11", "11"]', '["11"]'), "CPL_FABRIC_TEMPORAL_SW", 5, "connectivity_table"),
    "tpe slots": (lambda: _swap("temporal", "num_instruction = 2", "num_instruction = 0"), "CPL_FABRIC_TEMPORAL_PE", 6,
                  "num_instruction must be at least 1"),
    "tpe reg fifo": (lambda: _swap("temporal", "reg_fifo_depth = 2", "reg_fifo_depth = 0"), "CPL_FABRIC_TEMPORAL_PE", 6,
                     "reg_fifo_depth must be at least 1"),
    "tpe buffer size": (lambda: _swap("temporal", "operand_buffer_size = 4", "operand_buffer_size = 9000"),
                        "CPL_FABRIC_TEMPORAL_PE", 17, "[1, 8192]"),
    "tpe buffer unexpected": (lambda: _swap("temporal", "enable_share_operand_buffer = true",
                                            "enable_share_operand_buffer = false"), "CPL_FABRIC_TEMPORAL_PE", 17, "absent"),
    "tpe port": (lambda: _ONE.format(ins=B, outs=B, ret="%p : " + B, body=(
        "%p = fabric.temporal_pe @tp [num_register = 0 : i64, num_instruction = 1 : i64, reg_fifo_depth = 0 : i64] "
        "inputs(%a) : ({B}) -> ({B}) {{\n      fabric.function_unit @f(%x: i32) -> (i32) [latency = 1, interval = 1] {{\n"
        "        %r = arith.addi %x, %x : i32\n        fabric.yield %r : i32\n      }}\n      fabric.yield\n    }}").format(B=B)),
        "CPL_FABRIC_TEMPORAL_PE", 3, "is not !fabric.tagged"),
    "mux sel": (lambda: _swap("mux", "sel = 1", "sel = 2"), "CPL_FABRIC_MUX", 6, "out of range 0..1"),
    "mux outside fu": (lambda: _swap("mux", f"    fabric.yield %p : {B}",
                                     f"    %z = fabric.mux %a, %b {{sel = 0 : i64}} : {B}, {B} -> {B}\n    fabric.yield %p : {B}"),
                       "CPL_FABRIC_PLACEMENT", 13, "directly inside fabric.function_unit"),
    "tag outside module": (lambda: _swap("mux", "      %o = fabric.mux",
                                         f"      %t = fabric.add_tag %s {{tag = 0 : i64}} : i32 -> {T}\n      %o = fabric.mux"),
                           "CPL_FABRIC_PLACEMENT", 6, "directly inside fabric.module"),
    "duplicate def": (lambda: _swap("mux", "    %p = fabric.instance", f"    fabric.spatial_sw @s : ({B}) -> ({B})\n"
                                    f"    fabric.fifo @s [depth = 1] : ({B}) -> ({B})\n    %p = fabric.instance"),
                      "CPL_FABRIC_DUPLICATE_DEF", 13, "duplicate definition name 's'"),
    "duplicate fu in pe": (lambda: _swap("temporal", "      fabric.yield\n    }\n    %q",
                                         "      fabric.function_unit @add(%x: i32) -> (i32) [latency = 1, interval = 1] {\n"
                                         "        %r = arith.addi %x, %x : i32\n        fabric.yield %r : i32\n      }\n"
                                         "      fabric.yield\n    }\n    %q"),
                           "CPL_FABRIC_DUPLICATE_DEF", 11, "duplicate definition name 'add'"),
    "duplicate top and module": (lambda: _swap("fifo", "    %f = fabric.fifo", f"    fabric.fifo @dup [depth = 2] : ({B}) -> ({B})\n"
                                           "    %f = fabric.fifo").replace("module {\n", f"module {{\n  fabric.fifo @dup [depth = 1] : ({B}) -> ({B})\n", 1),
                                 "CPL_FABRIC_DUPLICATE_DEF", 4, "top level and in a fabric.module"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_rule_breaks_are_located_and_coded(case: str) -> None:
    make, code, line, words = BAD[case]
    with pytest.raises(LoomError) as e:
        read_adg(parse_text(make(), "bad.fabric.mlir"))
    msg = str(e.value)
    assert msg.startswith(f"bad.fabric.mlir:{line}:") and f"[{code}]" in msg and words in msg, msg


def test_duplicate_definition_in_a_mappable_fabric_is_refused() -> None:
    """Before, a module-local definition silently replaced the top-level one of the same name in the instance
    namespace, so instances could resolve to either."""
    text = corpus_file("sw2-pe1-extmem1.fabric.mlir").read_text()
    local = "    fabric.spatial_sw @test_sw : (!fabric.bits<64>) -> (!fabric.bits<64>)\n"
    at = text.index("    %ext0:2 = ")
    line = text[:at].count("\n") + 1
    with pytest.raises(LoomError, match=rf"^x.mlir:{line}:5: error: \[CPL_FABRIC_DUPLICATE_DEF\] duplicate definition "
                                        r"name 'test_sw': defined at top level and in a fabric.module"):
        read_adg(parse_text(text[:at] + local + text[at:], "x.mlir"))
    read_adg(parse_text(text, "x.mlir"))  # the file itself is fine


INLINE_PE = f"""module {{
  fabric.module @m(%a: {B}, %b: {B}) -> ({B}) {{
    fabric.function_unit @sub(%x: i32, %y: i32) -> (i32) [latency = 1, interval = 1] {{
      %d = arith.subi %x, %y : i32
      fabric.yield %d : i32
    }}
    %p = fabric.spatial_pe @pe_in inputs(%a, %b) : ({B}, {B}) -> ({B}) {{
      fabric.function_unit @add(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {{
        %s = arith.addi %a, %b : i32
        fabric.yield %s : i32
      }}
      fabric.instance @sub() {{sym_name = "sub_0"}} : () -> ()
      fabric.yield
    }}
    fabric.yield %p : {B}
  }}
}}
"""
SUB_DFG = """handshake.func @k(%x: i32, %y: i32, ...) -> (i32) attributes {argNames = ["x", "y"], resNames = ["r"]} {
  %d = arith.subi %x, %y : i32
  handshake.return %d : i32
}
"""


def test_inline_spatial_pe_round_trips_maps_and_is_proved() -> None:
    """An inline ``fabric.spatial_pe @n inputs(...)`` is its own definition; FU argument names may repeat the module's."""
    from loom.map.dfg import read_dfg
    from support.map import map_and_check

    module = parse_text(INLINE_PE, "p.fabric.mlir")
    text = print_module(module)
    assert "fabric.spatial_pe @pe_in inputs(%a, %b) : (" in text and print_module(parse_text(text)) == text
    adg = read_adg(module)
    assert [(n.name, n.kind, [f.name for f in n.defn.fus]) for n in adg.nodes] == [("pe_in", "pe", ["add", "sub"])]
    dfg = read_dfg([f for f in parse_text(SUB_DFG).functions() if f.name == "handshake.func"][0])
    _, _, doc, rep = map_and_check(dfg, adg)
    assert rep.ok, rep.violations
    assert {e["sw_op"]: (e["hw_name"], e["pe_name"]) for e in doc["node_mappings"]}["arith.subi"] == ("sub", "pe_in")


def test_inline_spatial_pe_with_a_mux_is_read_but_not_placed_on_and_must_sit_in_a_module() -> None:
    mux = INLINE_PE.replace("      %d = arith.subi %x, %y : i32\n      fabric.yield %d : i32",
                            "      %d = arith.subi %x, %y : i32\n      %e = arith.addi %x, %y : i32\n"
                            "      %o = fabric.mux %d, %e {sel = 0 : i64} : i32, i32 -> i32\n      fabric.yield %o : i32")
    adg = read_adg(parse_text(mux, "p.mlir"))
    assert any(op.name == "fabric.mux" for n in adg.pes() for f in n.defn.fus for op in f.body)
    # a mux FU listed first, an adder second: an addi goes to the adder, and the mux's field widens the payload
    fabric = f"""module {{
  fabric.spatial_pe @pe(%p0: {B}, %p1: {B}) -> ({B}) {{
    fabric.function_unit @shape(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {{
      %d = arith.subi %a, %b : i32
      %e = arith.addi %a, %b : i32
      %o = fabric.mux %d, %e {{sel = 1 : i64, discard = false, disconnect = false}} : i32, i32 -> i32
      fabric.yield %o : i32
    }}
    fabric.function_unit @add(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {{
      %s = arith.addi %a, %b : i32
      fabric.yield %s : i32
    }}
    fabric.yield
  }}
  fabric.module @m(%x: {B}, %y: {B}) -> ({B}) {{
    %p = fabric.instance @pe(%x, %y) {{sym_name = "pe_0"}} : ({B}, {B}) -> ({B})
    fabric.yield %p : {B}
  }}
}}
"""
    from loom.map.check import check
    from loom.map.config import encode, pe_layout
    from loom.map.dfg import read_dfg
    from loom.map.mapper import map_dfg

    adg = read_adg(parse_text(fabric, "m.fabric.mlir"))
    assert pe_layout(adg.pes()[0].defn).payload == 3  # [sel (1 bit) | discard | disconnect]
    func = parse_text("handshake.func @f(%a: i32, %b: i32, ...) -> (i32) {\n  %s = arith.addi %a, %b : i32\n"
                      "  handshake.return %s : i32\n}\n", "f.mlir").functions()[0]
    dfg = read_dfg(func)
    m = map_dfg(dfg, adg)
    assert [t[2] for t in m.place.values() if t[0] == "fu"] == [1]
    assert check(dfg, adg, encode(adg, m.config), json.loads(json.dumps(map_json(m, "f", "m")))).ok
    nested = INLINE_PE.replace("      fabric.instance @sub()", f"      %q = fabric.spatial_pe @inner inputs(%a) : ({B}) -> ({B}) {{\n"
                               "        fabric.yield\n      }\n      fabric.instance @sub()")
    with pytest.raises(LoomError, match=r"^p.mlir:12:7: error: \[CPL_FABRIC_PLACEMENT\] inline fabric.spatial_pe must appear"):
        read_adg(parse_text(nested, "p.mlir"))


PORTS_FABRIC = """module {
  fabric.spatial_pe @inv(%c: !fabric.bits<1>, %v: !fabric.bits<32>) -> (!fabric.bits<32>) {
    fabric.function_unit @fu_inv(%x: i1, %y: i32) -> (i32) [latency = -1, interval = -1] {
      %o = dataflow.invariant %x, %y : i1, i32 -> i32
      fabric.yield %o : i32
    }
    fabric.yield
  }
  fabric.module @m(%c: !fabric.bits<1>, %v: !fabric.bits<32>) -> (!fabric.bits<32>) {
    %p = fabric.instance @inv(%c, %v) {sym_name = "pe_0"} : (!fabric.bits<1>, !fabric.bits<32>) -> (!fabric.bits<32>)
    fabric.yield %p : !fabric.bits<32>
  }
}
"""
PORTS_DFG = """handshake.func @k(%cond: i1, %value: i32, ...) -> (i32) attributes {argNames = ["cond", "value"], resNames = ["r"]} {
  %o = dataflow.invariant %cond, %value : i1, i32 -> i32
  handshake.return %o : i32
}
"""


@pytest.mark.parametrize("seed", range(6))
def test_a_narrow_argument_never_takes_the_only_port_a_wide_one_fits(seed: int) -> None:
    """The i1 fits both module inputs, the i32 only the wide one: ports and memories are placed as a matching, so
    every seed maps (before, the i1 could take the wide port and the mapper gave up: 'all compatible places taken')."""
    from loom.map.dfg import read_dfg
    from support.map import map_and_check

    adg = read_adg(parse_text(PORTS_FABRIC))
    dfg = read_dfg([f for f in parse_text(PORTS_DFG).functions() if f.name == "handshake.func"][0])
    m, _, doc, rep = map_and_check(dfg, adg, seed=seed)
    assert rep.ok, rep.violations
    assert {e["sw_node"]: e["hw_name"] for e in doc["node_mappings"]}["arg.value"] == "module.in1"


TWO_PE = """module {
  fabric.spatial_sw @pick [connectivity_table = ["11"]] : (!fabric.bits<32>, !fabric.bits<32>) -> (!fabric.bits<32>)
  fabric.spatial_pe @mul_pe(%p: !fabric.bits<32>, %q: !fabric.bits<32>) -> (!fabric.bits<32>) {
    fabric.function_unit @fu_mul(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {
      %r = arith.muli %a, %b : i32
      fabric.yield %r : i32
    }
    fabric.yield
  }
  fabric.spatial_pe @sub_pe(%p: !fabric.bits<32>, %q: !fabric.bits<32>) -> (!fabric.bits<32>) {
    fabric.function_unit @fu_sub(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {
      %r = arith.subi %a, %b : i32
      fabric.yield %r : i32
    }
    fabric.yield
  }
  fabric.module @two(%x: !fabric.bits<32>, %y: !fabric.bits<32>) -> (!fabric.bits<32>) {
    %m = fabric.instance @mul_pe(%x, %y) {sym_name = "pe_mul"} : (!fabric.bits<32>, !fabric.bits<32>) -> (!fabric.bits<32>)
    %s = fabric.instance @sub_pe(%x, %y) {sym_name = "pe_sub"} : (!fabric.bits<32>, !fabric.bits<32>) -> (!fabric.bits<32>)
    %o = fabric.instance @pick(%m, %s) {sym_name = "sw_0"} : (!fabric.bits<32>, !fabric.bits<32>) -> (!fabric.bits<32>)
    fabric.yield %o : !fabric.bits<32>
  }
}
"""


@pytest.mark.parametrize("seed", range(4))
def test_argument_k_sits_on_module_input_k_when_nothing_else_decides(seed: int, tmp_path: Path) -> None:
    """Both module inputs fit both arguments at equal hop cost; argument k takes input k, so the PE's input muxes
    are the identity (what upstream's spatial-pe-disable check expects), and the unused PE stays disconnected.
    The viz page names the full op and FU (upstream's checks search it for them)."""
    dfg = tmp_path / "k.dfg.mlir"
    dfg.write_text(SUB_DFG)
    fab = tmp_path / "two.fabric.mlir"
    fab.write_text(TWO_PE)
    out = tmp_path / "out"
    assert main(["map", str(dfg), "--adg", str(fab), "-o", str(out), "-q", "--seed", str(seed)]) == 0
    doc = json.loads((out / "k.two.map.json").read_text())
    hw = {e["sw_node"]: e["hw_name"] for e in doc["node_mappings"]}
    assert (hw["arg.x"], hw["arg.y"], hw["ret.0"]) == ("module.in0", "module.in1", "module.out0")
    assert doc["pe_routes"]["pe_sub"]["inputs"] == [{"fu_in": 0, "pe_in": 0}, {"fu_in": 1, "pe_in": 1}]
    assert "pe_mul" not in doc["pe_routes"]
    html = (out / "k.two.viz.html").read_text()
    assert '"arith.subi"' in html and '"fu_sub"' in html


def test_native_typed_ports_are_read_with_their_widths_and_map() -> None:
    """Upstream also types module, switch and PE ports natively (``i32``, ``none``); such a port is as wide as the
    type's value (specs/mapping.md section 1)."""
    from loom.map.dfg import read_dfg
    from support.map import map_and_check

    text = (INLINE_PE.replace(B, "i32")
            .replace("fabric.module @m(%a: i32, %b: i32) -> (i32)", "fabric.module @m(%a: i32, %b: i32, %c: none) -> (i32, none)")
            .replace("    fabric.yield %p : i32\n  }\n}", "    %s:2 = fabric.spatial_sw @fan (%c) : (none) -> (none, none)\n"
                     "    fabric.yield %p, %s#0 : i32, none\n  }\n}"))
    adg = read_adg(parse_text(text, "n.fabric.mlir"))
    assert [n.kind for n in adg.nodes] == ["pe", "sw"] and adg.node("fan").defn.out_widths == [0, 0]
    assert adg.node("pe_in").defn.in_widths == [32, 32]
    dfg = read_dfg([f for f in parse_text(SUB_DFG).functions() if f.name == "handshake.func"][0])
    _, _, _, rep = map_and_check(dfg, adg)
    assert rep.ok, rep.violations
    with pytest.raises(LoomError, match=r"^n.fabric.mlir:2:3: error: \[CPL_FABRIC_PORT_TYPE\] fabric.module input 2"):
        read_adg(parse_text(text.replace("%c: none", "%c: tensor<2xi32>").replace("@fan (%c) : (none)", "@fan (%c) : (tensor<2xi32>)"),
                            "n.fabric.mlir"))
