"""`loom adg mesh --mem-tags L`: tagged external interfaces (one tagged port per family, L lanes, an add_tag per
lane into a tagged merge switch, a temporal switch and a del_tag per lane out), so that kernels with more memrefs
than interfaces share one through tags; and the tag-to-lane rule of a tagged memory (rules.tag_lane)."""

from __future__ import annotations

import functools
import json
import subprocess
import sys

import pytest

from loom.lower import LowerOptions, lower_module
from loom.map.adg.mesh import MeshParams, mesh
from loom.map.adg.model import ADG
from loom.map.adg.read import read_adg
from loom.map.artifacts import config_bin, map_json
from loom.map.check import check
from loom.map.config import from_bytes, layout
from loom.map.dfg import read_dfg
from loom.map.execute import run_decoded
from loom.map.mapper import map_dfg
from loom.map.rules import lane_bases, tag_lane
from loom.mlir import parse_file, parse_text

from support.map import EXAMPLES


@functools.lru_cache(maxsize=None)
def tagged_mesh() -> ADG:
    return read_adg(parse_text(mesh(MeshParams(rows=8, cols=8, extmem=1, mem_regions=4, mem_tags=4)), "t.fabric.mlir"))


def _func(path, fanin: int):
    module = lower_module(parse_file(path), None, LowerOptions(max_join_fanin=fanin))
    return [f for f in module.functions() if f.name == "handshake.func"][0]


def test_tag_lane_translates_a_window_to_packed_lanes() -> None:
    one = [1, 1, 3, 0, 2]  # one region whose requests carry tags 1 and 2: served on lanes 0 and 1
    assert [tag_lane(one, t) for t in range(4)] == [None, 0, 1, None]
    two = [1, 2, 4, 0, 2, 1, 0, 1, 0, 2, 0, 0, 0, 0, 0]  # region 0: tags 2-3, region 1: tag 0, region 2 unused
    assert lane_bases(two) == {0: 0, 1: 2}
    assert [tag_lane(two, t) for t in range(5)] == [2, None, 0, 1, None]


def test_mesh_option_writes_tagged_interfaces(tmp_path) -> None:
    out = tmp_path / "t.fabric.mlir"
    r = subprocess.run([sys.executable, "-m", "loom", "adg", "mesh", "--rows", "4", "--cols", "4", "--mem-ifaces", "1",
                        "--mem-tags", "4", "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    adg = read_adg(parse_text(text, str(out)))
    (ext,) = [n for n in adg.memories() if n.kind == "extmemory"]
    assert ext.defn.tagged and (ext.defn.ld, ext.defn.st, ext.defn.num_region) == (4, 4, 4)
    assert {w for ws in ext.defn.tag_widths for w in ws} == {2}  # log2(4) bits on every family port
    assert text.count("fabric.add_tag") == 4 * 5 and text.count("fabric.del_tag") == 4 * 3
    assert text.count("fabric.instance @extmem0_split") == 3


SHARING = [p for p in EXAMPLES if p.name.split(".")[0] in ("saxpy", "triangular")]


@pytest.mark.parametrize("path", SHARING, ids=lambda p: p.name.split(".")[0])
def test_three_memrefs_share_one_tagged_interface(path) -> None:
    """Every memref (triangular's three, saxpy's two) on one 4-lane tagged interface of the 8x8 mesh: one region
    each, with disjoint tag windows,
    proved by the checker, and the decoded config.bin runs as the kernel does."""
    adg = tagged_mesh()
    dfg = read_dfg(_func(path, adg.max_join_fanin()))
    m = map_dfg(dfg, adg, seed=0)
    doc = json.loads(json.dumps(map_json(m, path.name, "t.fabric.mlir")))
    words = from_bytes(config_bin(m))
    (entry,) = doc["memory_regions"]
    memrefs = [n for n in dfg.nodes if n.kind == "mem"]
    assert entry["tagged"] and len(entry["regions"]) == len(memrefs) >= 2
    tags = [t for r in entry["regions"] for t in range(r["start_lane"], r["end_lane"])]
    assert len(tags) == len(set(tags)) == sum(max(n.ld, n.st) for n in memrefs)
    assert check(dfg, adg, words, doc).ok
    inputs = json.loads(path.with_name(path.name.replace(".scf.mlir", ".inputs.json")).read_text())
    plain, decoded = run_decoded(_func(path, adg.max_join_fanin()), _func(path, adg.max_join_fanin()), adg, words, doc,
                                 inputs)
    assert plain.status == decoded.status == "completed"
    assert decoded.results == plain.results and decoded.memrefs == plain.memrefs


def test_a_window_the_tag_width_cannot_carry_is_refuted() -> None:
    path = SHARING[0]
    adg = tagged_mesh()
    dfg = read_dfg(_func(path, adg.max_join_fanin()))
    m = map_dfg(dfg, adg, seed=0)
    doc = json.loads(json.dumps(map_json(m, path.name, "t.fabric.mlir")))
    words = from_bytes(config_bin(m))
    sl = next(s for s in layout(adg) if s.name == "extmem0")
    r = doc["memory_regions"][0]["regions"][0]["region"]
    bad = list(words)
    bad[sl.word_offset + 5 * r + 1] += 4  # tags 4.. do not fit the 2-bit request tags
    bad[sl.word_offset + 5 * r + 2] += 4
    rep = check(dfg, adg, bad, doc)
    assert any(v.startswith("C1:") and "tag width" in v for v in rep.violations), rep.violations
