"""FIFOs on routes: routed through, configured (one bit per bypassable FIFO), proved, and run with their slots."""

from __future__ import annotations

import json

from loom.map.artifacts import config_json, map_json
from loom.map.check import check
from loom.map.config import decode, encode
from loom.map.execute import decoded_connections, rebuild
from loom.map.mapper import map_dfg
from loom.mlir import parse_file
from loom.sim import simulate

from loom.map.adg.read import load_adg
from loom.map.dfg import read_dfg

from support.paths import DATA

DATA = DATA / "map"


def _func():
    return [f for f in parse_file(DATA / "add64.dfg.mlir").functions() if f.name == "handshake.func"][0]


def _mapped():
    adg = load_adg(str(DATA / "fifo.fabric.mlir"))
    dfg = read_dfg(_func())
    m = map_dfg(dfg, adg, seed=0)
    return adg, dfg, m, json.loads(json.dumps(map_json(m, "add64.dfg.mlir", "fifo.fabric.mlir")))


def test_routes_pass_the_fifos_and_the_checker_proves_it() -> None:
    adg, dfg, m, doc = _mapped()
    words = encode(adg, m.config)
    assert check(dfg, adg, words, doc).ok
    kinds = [s["kind"] for e in doc["edges"] for s in e["route"]]
    assert kinds.count("fifo") == 3  # a, b and the sum each pass one FIFO
    slices = {s["name"]: s for s in config_json(m)["slices"]}
    assert slices["fifo_a"]["kind"] == "fifo" and "fifo_out" not in slices  # no bit without bypassable
    assert [words[slices["fifo_a"]["word_offset"]], words[slices["fifo_b"]["word_offset"]]] == [0, 1]
    assert {c["name"]: c["bypassed"] for c in doc["fifo_configs"]} == {"fifo_a": False, "fifo_b": True}
    assert doc["timing"]["forced_buffered_fifos"] == ["fifo_out"]
    assert doc["timing"]["mapper_selected_buffered_fifo_count"] == 0


def test_buffered_fifos_add_their_slots_to_the_executed_route() -> None:
    adg, dfg, m, doc = _mapped()
    words = encode(adg, m.config)
    conns, intra = decoded_connections(dfg, adg, words, doc)
    slots = {(src[0], dst[0], dst[1]): n for src, dst, n in conns}
    by_name = {n.id: n for n in dfg.nodes}
    a_edge = next(n for (s, d, k), n in slots.items() if by_name[s].kind == "arg" and by_name[s].arg == 0)
    b_edge = next(n for (s, d, k), n in slots.items() if by_name[s].kind == "arg" and by_name[s].arg == 1)
    out_edge = next(n for (s, d, k), n in slots.items() if by_name[d].kind == "ret")
    assert (a_edge, b_edge, out_edge) == (2, 0, 3)  # fifo_a buffered (2), fifo_b bypassed, fifo_out (3)
    fresh = _func()
    rebuilt = rebuild(fresh, read_dfg(fresh), *decoded_connections(read_dfg(fresh), adg, words, doc))
    inputs = {"a": 40, "b": 2}
    assert simulate(rebuilt, inputs).results == simulate(_func(), inputs).results == [42]


def test_a_bypassed_bit_on_a_non_bypassable_layout_is_impossible_and_a_flipped_bit_still_proves() -> None:
    """The bit is runtime state: either value implements the DFG (only the buffering differs)."""
    adg, dfg, m, doc = _mapped()
    words = encode(adg, m.config)
    flipped = list(words)
    flipped[0] ^= 1
    assert decode(adg, flipped).bypassed["fifo_a"] is True
    assert check(dfg, adg, flipped, doc).ok
    bad = list(words)
    bad[0] = 2  # a bit above the FIFO's one bit
    assert any(v.startswith("C6") for v in check(dfg, adg, bad, doc).violations)


def test_a_route_claimed_around_a_fifo_is_refuted() -> None:
    adg, dfg, m, doc = _mapped()
    words = encode(adg, m.config)
    bad = json.loads(json.dumps(doc))
    edge = next(e for e in bad["edges"] if any(s["kind"] == "fifo" for s in e["route"]))
    k = next(i for i, s in enumerate(edge["route"]) if s["kind"] == "fifo")
    edge["route"][k]["to"] = edge["route"][k]["from"].replace(".in0", ".out1")  # no such FIFO output
    if k + 1 < len(edge["route"]):
        edge["route"][k + 1]["from"] = edge["route"][k]["to"]
    assert any(v.startswith("C3") for v in check(dfg, adg, words, bad).violations)
