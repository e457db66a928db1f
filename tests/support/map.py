"""Shared helpers of the loom/map tests: corpus paths, the default mesh, DFG loading, mapping + checking."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from loom.lower import LowerOptions, lower_module
from loom.map.adg.mesh import MeshParams, mesh
from loom.map.adg.model import ADG
from loom.map.adg.read import read_adg
from loom.map.artifacts import map_json
from loom.map.check import CheckReport, check
from loom.map.config import encode
from loom.map.dfg import DFG, read_dfg
from loom.map.mapper import Mapping, map_dfg
from loom.mlir import parse_file, parse_text

from support.paths import ROOT, SHARED

EXAMPLES = sorted((ROOT / "examples").glob("*.scf.mlir"))
CORPUS = SHARED / "corpus" / "loom-fabric"
CORPUS_PAIRS = ["dataflow-flowops", "sw2-pe1-extmem1"]


def corpus_file(name: str) -> Path:
    return CORPUS / name


@functools.lru_cache(maxsize=None)
def default_mesh() -> ADG:
    return read_adg(parse_text(mesh(MeshParams()), "mesh.fabric.mlir"))


def dfg_of_file(path: Path, max_join_fanin: int | None = None) -> DFG:
    module = parse_file(path)
    if not any(f.name == "handshake.func" for f in module.functions()):
        module = lower_module(module, None, LowerOptions(max_join_fanin=max_join_fanin))
    func = [f for f in module.functions() if f.name == "handshake.func"][0]
    return read_dfg(func)


def doc_of(m: Mapping) -> dict:
    return json.loads(json.dumps(map_json(m, "in.dfg.mlir", "x.fabric.mlir")))


def map_and_check(dfg: DFG, adg: ADG, seed: int = 0) -> tuple[Mapping, list[int], dict, CheckReport]:
    m = map_dfg(dfg, adg, seed=seed, budget=30)
    words = encode(adg, m.config)
    doc = doc_of(m)
    return m, words, doc, check(dfg, adg, words, doc)
