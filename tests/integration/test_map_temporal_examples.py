"""Every example on the 8x8 temporal mesh with two shared memory interfaces (`loom adg mesh --rows 8 --cols 8
--mem-ifaces 2 --temporal 2`): it maps, the checker proves config.bin, map.fifo proves its routes' depths cannot
deadlock it, and config.bin runs to the DFG's results. (matmul and triangular are in tests/unit/map/test_map_temporal.py.)"""

from __future__ import annotations

import functools
import json

import pytest

from loom.lower import LowerOptions, lower_module
from loom.map.adg.mesh import MeshParams, mesh
from loom.map.adg.read import read_adg
from loom.map.artifacts import config_bin, map_json
from loom.map.check import check
from loom.map.config import from_bytes
from loom.map.dfg import read_dfg
from loom.map.execute import run_decoded
from loom.map.fifo import fifo_obligations
from loom.map.mapper import map_dfg
from loom.mlir import parse_file, parse_text
from loom.verify.obligation import VerifyContext

from support.paths import EXAMPLES_DIR

NAMES = sorted(p.name[: -len(".scf.mlir")] for p in EXAMPLES_DIR.glob("*.scf.mlir"))


@functools.lru_cache(maxsize=None)
def _fabric():
    return read_adg(parse_text(mesh(MeshParams(rows=8, cols=8, extmem=2, mem_regions=4, temporal=2)), "t.fabric.mlir"))


def _kernel(name: str, fanin: int):
    module = lower_module(parse_file(EXAMPLES_DIR / f"{name}.scf.mlir"), None, LowerOptions(max_join_fanin=fanin))
    return [f for f in module.functions() if f.name == "handshake.func"][0]


@pytest.mark.parametrize("name", [n for n in NAMES if n not in ("matmul", "triangular")])
def test_example_maps_proves_and_runs_on_the_temporal_mesh(name: str) -> None:
    adg = _fabric()
    fanin = adg.max_join_fanin()
    dfg = read_dfg(_kernel(name, fanin))
    m = map_dfg(dfg, adg, seed=0)
    doc = json.loads(json.dumps(map_json(m, f"{name}.scf.mlir", "t.fabric.mlir")))
    words = from_bytes(config_bin(m))
    rep = check(dfg, adg, words, doc)
    assert rep.ok, rep.violations[:3]
    fifo = fifo_obligations(_kernel(name, fanin), adg, words, doc, "t.fabric.mlir", VerifyContext())
    assert {o.id: o.status for o in fifo} == {"map.fifo.bmc.K4.deadlock": "proved", "map.fifo.bmc.K4.residual": "proved"}
    inputs = json.loads((EXAMPLES_DIR / f"{name}.inputs.json").read_text())
    plain, decoded = run_decoded(_kernel(name, fanin), _kernel(name, fanin), adg, words, doc, inputs)
    assert plain.status == decoded.status == "completed"
    assert decoded.results == plain.results and decoded.memrefs == plain.memrefs
