"""The mapper stops retrying placements when the best routings stay congested (the fabric is too small), and says
so; the PathFinder router that reroutes only congested nets still maps and proves the examples."""

from __future__ import annotations

import pytest

from loom.map.adg.mesh import MeshParams, mesh
from loom.map.adg.read import read_adg
from loom.map.mapper import CONGESTED_AFTER, MAX_ATTEMPTS, MapFailure, congested_limit, map_dfg
from loom.mlir import parse_text

from support.map import EXAMPLES, dfg_of_file, map_and_check


def _mesh(side: int, tracks: int):
    return read_adg(parse_text(mesh(MeshParams(rows=side, cols=side, tracks=tracks)), "m.fabric.mlir"))


def test_a_mesh_with_one_track_is_reported_congested_after_a_few_placements() -> None:
    adg = _mesh(6, 1)  # room for every op of dot, but one track per direction: values keep sharing wires
    dfg = dfg_of_file(next(p for p in EXAMPLES if p.name == "dot.scf.mlir"), adg.max_join_fanin())
    with pytest.raises(MapFailure) as info:
        map_dfg(dfg, adg)
    assert info.value.attempts <= CONGESTED_AFTER < MAX_ATTEMPTS  # not 50 placements (77 CPU s before)
    assert info.value.reasons[0].startswith("congested: after ")
    assert "the fabric is too small for this DFG" in info.value.reasons[0]
    assert info.value.partial is not None and info.value.partial["shared_ports"] > congested_limit(len(dfg.edges), 3)


def test_the_same_dfg_maps_and_is_proved_with_three_tracks() -> None:
    adg = _mesh(6, 3)
    dfg = dfg_of_file(next(p for p in EXAMPLES if p.name == "dot.scf.mlir"), adg.max_join_fanin())
    m, _, _, rep = map_and_check(dfg, adg)
    assert rep.ok, rep.violations[:3]


def test_the_congestion_limit_is_looser_after_one_placement_than_after_several() -> None:
    assert congested_limit(745, 1) == 186 and congested_limit(745, CONGESTED_AFTER) == 37
    assert congested_limit(30, 1) == congested_limit(30, CONGESTED_AFTER) == 8  # small DFGs: a handful allowed
    assert congested_limit(30, 0) == float("inf")
