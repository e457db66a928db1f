"""Every ``_cpu`` function of the upstream legacy corpus, lowered by loom, maps and is proved by the checker:
on the default 10x10 mesh when it has at most 100 op nodes, else on a 12x12 mesh of the same palette."""

from __future__ import annotations

import functools
import re

import pytest


from loom.lower import LowerOptions, lower_module
from loom.map.adg.mesh import MeshParams, mesh
from loom.map.adg.read import read_adg
from loom.map.dfg import read_dfg
from loom.mlir import parse_file, parse_text

from support.paths import SHARED
from support.map import default_mesh, map_and_check

LEGACY = SHARED / "corpus" / "loom-legacy"


def _cpu_functions() -> list[tuple[str, str]]:
    out = []
    for path in sorted(LEGACY.glob("*.mlir")):
        for name in re.findall(r"func\.func @(\w+_cpu\w*)", path.read_text(encoding="utf-8")):
            out.append((path.name, name))
    return out


@functools.lru_cache(maxsize=None)
def _mesh12():
    return read_adg(parse_text(mesh(MeshParams(rows=12, cols=12)), "mesh12.fabric.mlir"))


@pytest.mark.shared
@pytest.mark.parametrize("file, func", _cpu_functions())
def test_corpus_cpu_function_maps_and_is_proved(file: str, func: str) -> None:
    adg = default_mesh()
    module = lower_module(parse_file(LEGACY / file), func, LowerOptions(max_join_fanin=adg.max_join_fanin()))
    dfg = read_dfg(next(f for f in module.functions() if f.name == "handshake.func"))
    ops = sum(1 for n in dfg.nodes if n.kind == "op")
    pes = sum(1 for n in adg.nodes if n.kind == "pe")
    if ops > pes:
        adg = _mesh12()  # more op nodes than the default mesh has PEs: one PE per op cannot fit
    _, _, _, rep = map_and_check(dfg, adg)
    assert rep.ok, (file, func, rep.violations[:5])


@pytest.mark.shared
def test_the_corpus_has_cpu_functions() -> None:
    assert len(_cpu_functions()) >= 10
