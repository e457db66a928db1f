"""Executing the decoded configuration: the function rebuilt from config.bin computes what the DFG computes."""

from __future__ import annotations

import json

import pytest

from loom.lower import LowerOptions, lower_module
from loom.map.artifacts import config_bin, map_json
from loom.map.config import from_bytes
from loom.map.dfg import read_dfg
from loom.map.execute import ExecuteError, decoded_connections, rebuild, run_decoded
from loom.map.mapper import map_dfg
from loom.mlir import parse_file

from support.map import EXAMPLES, default_mesh


def _func(path, fanin: int):
    module = lower_module(parse_file(path), None, LowerOptions(max_join_fanin=fanin))
    return [f for f in module.functions() if f.name == "handshake.func"][0]


def _mapped(path):
    adg = default_mesh()
    func = _func(path, adg.max_join_fanin())
    dfg = read_dfg(func)
    m = map_dfg(dfg, adg, seed=0)
    doc = json.loads(json.dumps(map_json(m, path.name, "mesh.fabric.mlir")))
    return adg, func, doc, from_bytes(config_bin(m))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name.split(".")[0])
def test_decoded_configuration_computes_the_dfg(path) -> None:
    adg, func, doc, words = _mapped(path)
    inputs = json.loads(path.with_name(path.name.replace(".scf.mlir", ".inputs.json")).read_text())
    plain, decoded = run_decoded(func, _func(path, adg.max_join_fanin()), adg, words, doc, inputs)
    assert plain.status == "completed"
    assert decoded.status == plain.status, decoded.deadlock_report or decoded.error
    assert decoded.results == plain.results
    assert decoded.memrefs == plain.memrefs
    assert decoded.residual_tokens == plain.residual_tokens


def test_every_routed_operand_goes_through_a_buffer() -> None:
    path = next(p for p in EXAMPLES if p.name.startswith("dot."))
    adg, _, doc, words = _mapped(path)
    fresh = _func(path, adg.max_join_fanin())
    dfg = read_dfg(fresh)
    connections, intra = decoded_connections(dfg, adg, words, doc)
    assert len(connections) + len(intra) == len(dfg.edges)
    before = sum(op.name == "handshake.buffer" for op in fresh.regions[0].blocks[0].ops)
    rebuild(fresh, dfg, connections, intra)
    after = sum(op.name == "handshake.buffer" for op in fresh.regions[0].blocks[0].ops)
    assert after - before == len(connections)


def test_a_misrouted_configuration_is_caught() -> None:
    """Dropping one switch transition from the image leaves an operand no route feeds."""
    path = next(p for p in EXAMPLES if p.name.startswith("dot."))
    adg, _, doc, words = _mapped(path)
    fresh = _func(path, adg.max_join_fanin())
    dfg = read_dfg(fresh)
    good, intra = decoded_connections(dfg, adg, words, doc)
    broken = good[1:]
    with pytest.raises(ExecuteError, match="no route feeds"):
        rebuild(fresh, dfg, broken, intra)
