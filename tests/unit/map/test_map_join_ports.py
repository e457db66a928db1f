"""A join on the first inputs of a wider mixed-type join FU (join_mask marks them), and arguments on their own
module ports after annealing (upstream's tests expect argument k on module input k when it costs no hop)."""

from __future__ import annotations

import json

import pytest

from loom.map.adg.read import load_adg
from loom.map.artifacts import map_json
from loom.map.check import check
from loom.map.config import encode
from loom.map.dfg import read_dfg
from loom.map.mapper import MapFailure, map_dfg
from loom.mlir import parse_text

from support.paths import DATA


FABRIC = DATA / "map" / "join_ports.fabric.mlir"


def _dfg(join: str, types: str):
    text = ("handshake.func @f(%c: none, %a: i32, %d: none, %g: i1, %u: i32, %v: i32, ...) -> (none, i32) {\n"
            f"  %j = handshake.join {join} : {types}\n  %r = arith.subi %u, %v : i32\n"
            "  handshake.return %j, %r : none, i32\n}\n")
    return read_dfg(parse_text(text, "f.mlir").functions()[0])


@pytest.mark.parametrize("seed", range(4))
def test_join_prefix_and_own_ports(seed: int) -> None:
    adg = load_adg(str(FABRIC))
    dfg = _dfg("%c, %a, %d", "none, i32, none")
    m = map_dfg(dfg, adg, seed=seed)
    doc = json.loads(json.dumps(map_json(m, "f.mlir", "jp.fabric.mlir")))
    assert check(dfg, adg, encode(adg, m.config), doc).ok
    (join,) = [c for c in doc["fu_configs"] if c["pe_name"] == "pe_join"]
    assert join["fields"] == [{"kind": "join_mask", "bits": 4, "value": 0b0111, "text": "join_mask=0b0111"}]
    placed = {n["id"]: n["target"]["port"] for n in doc["nodes"] if n["kind"] == "arg"}
    assert placed["arg.u"] == 4 and placed["arg.v"] == 5


def test_a_join_whose_inputs_are_not_the_fu_s_first_ones_does_not_fit() -> None:
    adg = load_adg(str(FABRIC))
    with pytest.raises(MapFailure, match="are not its first ones"):
        map_dfg(_dfg("%a, %c", "i32, none"), adg)
