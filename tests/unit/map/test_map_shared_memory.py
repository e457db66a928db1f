"""Several software memrefs share one hardware memory interface: each takes a region and a tag (lane) range,
the checker proves the tag ranges disjoint and every lane's traffic at its region, and the decoded config runs."""

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
from loom.map.config import encode, from_bytes
from loom.map.dfg import read_dfg
from loom.map.execute import run_decoded
from loom.map.mapper import map_dfg
from loom.mlir import parse_file, parse_text

from support.paths import DATA
from support.map import EXAMPLES


VADD3 = DATA / "map" / "vadd3.scf.mlir"


@functools.lru_cache(maxsize=None)
def shared_mesh(rows: int, cols: int, ifaces: int) -> ADG:
    return read_adg(parse_text(mesh(MeshParams(rows=rows, cols=cols, extmem=ifaces, mem_regions=4)), "s.fabric.mlir"))


def _func(path, fanin: int):
    module = lower_module(parse_file(path), None, LowerOptions(max_join_fanin=fanin))
    return [f for f in module.functions() if f.name == "handshake.func"][0]


@functools.lru_cache(maxsize=None)
def _mapped(path, rows: int, cols: int, ifaces: int):
    adg = shared_mesh(rows, cols, ifaces)
    dfg = read_dfg(_func(path, adg.max_join_fanin()))
    m = map_dfg(dfg, adg, seed=0)
    doc = json.loads(json.dumps(map_json(m, path.name, "s.fabric.mlir")))
    return adg, dfg, m, doc, from_bytes(config_bin(m))


def _regions(doc) -> dict[str, list[tuple]]:
    return {k: [(r["region"], r["start_lane"], r["end_lane"]) for r in v] for k, v in _by_memory(doc).items()}


def _by_memory(doc) -> dict[str, list[dict]]:
    """map.json's memory_regions (one entry per hardware memory) as hardware memory name -> its regions."""
    return {e["hw_name"]: e["regions"] for e in doc["memory_regions"]}


def test_mesh_option_writes_shared_interfaces(tmp_path) -> None:
    out = tmp_path / "s.fabric.mlir"
    r = subprocess.run([sys.executable, "-m", "loom", "adg", "mesh", "--rows", "3", "--cols", "3", "--mem-ifaces", "2",
                        "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    adg = read_adg(parse_text(out.read_text(), str(out)))
    ext = [n for n in adg.memories() if n.kind == "extmemory"]
    assert [n.defn.num_region for n in ext] == [4, 4]
    both = subprocess.run([sys.executable, "-m", "loom", "adg", "mesh", "--mem-ifaces", "2", "--extmem", "3",
                           "-o", str(tmp_path / "x.mlir")], capture_output=True, text=True)
    assert both.returncode == 2 and "--extmem" in both.stderr and not (tmp_path / "x.mlir").exists()


def test_three_memrefs_share_one_interface_proved_and_executed() -> None:
    adg, dfg, m, doc, words = _mapped(VADD3, 6, 6, 1)
    regions = _regions(doc)
    assert len(regions["extmem0"]) == 3  # a, b and c in three regions of the one interface
    tags = [t for _, s, e in regions["extmem0"] for t in range(s, e)]  # end_lane is exclusive
    assert len(tags) == len(set(tags)) == 3
    assert check(dfg, adg, words, doc).ok
    inputs = json.loads(VADD3.with_name("vadd3.inputs.json").read_text())
    plain, decoded = run_decoded(_func(VADD3, adg.max_join_fanin()), _func(VADD3, adg.max_join_fanin()), adg, words, doc, inputs)
    assert plain.status == decoded.status == "completed"
    assert decoded.memrefs == plain.memrefs
    assert decoded.memrefs["c"] == [7, 0, 99, 9, 2147483648]  # wraps; the simulator shows i32 unsigned


def test_the_same_seed_gives_the_same_bytes() -> None:
    adg = shared_mesh(6, 6, 1)
    a = map_dfg(read_dfg(_func(VADD3, adg.max_join_fanin())), adg, seed=3)
    b = map_dfg(read_dfg(_func(VADD3, adg.max_join_fanin())), adg, seed=3)
    assert config_bin(a) == config_bin(b)
    assert json.dumps(map_json(a, "v", "s")) == json.dumps(map_json(b, "v", "s"))


def _two_regions(words: list[int], adg: ADG) -> tuple[int, list[int]]:
    """The word offset of extmem0's region table, and the indices of its valid regions."""
    from loom.map.config import layout

    sl = next(s for s in layout(adg) if s.name == "extmem0")
    table = words[sl.word_offset: sl.word_offset + sl.word_count]
    return sl.word_offset, [r for r in range(len(table) // 5) if table[5 * r]]


def test_colliding_tag_ranges_are_refuted() -> None:
    adg, dfg, _, doc, words = _mapped(VADD3, 6, 6, 1)
    base, valid = _two_regions(words, adg)
    bad = list(words)
    a, b = valid[0], valid[1]
    width = bad[base + 5 * b + 2] - bad[base + 5 * b + 1]
    bad[base + 5 * b + 1] = bad[base + 5 * a + 1]  # region b now starts at region a's first tag
    bad[base + 5 * b + 2] = bad[base + 5 * a + 1] + width
    rep = check(dfg, adg, bad, doc)
    assert any(v.startswith("C4:") and "tag" in v for v in rep.violations), rep.violations


def test_swapped_region_records_are_refuted() -> None:
    """Two software memories' region records exchanged: each lane's traffic reaches the other memref's region."""
    adg, dfg, _, doc, words = _mapped(VADD3, 6, 6, 1)
    base, valid = _two_regions(words, adg)
    bad = list(words)
    a, b = valid[0], valid[1]
    bad[base + 5 * a: base + 5 * a + 5], bad[base + 5 * b: base + 5 * b + 5] = (
        words[base + 5 * b: base + 5 * b + 5], words[base + 5 * a: base + 5 * a + 5])
    assert not check(dfg, adg, bad, doc).ok


def test_a_region_beyond_the_interface_is_refuted() -> None:
    adg, dfg, _, doc, words = _mapped(VADD3, 6, 6, 1)
    bad_doc = json.loads(json.dumps(doc))
    entry = next(n for n in bad_doc["nodes"] if n["target"]["kind"] == "memory")
    entry["target"]["region"] = 4  # numRegion = 4: regions 0..3
    rep = check(dfg, adg, words, bad_doc)
    assert any(v.startswith("C1:") for v in rep.violations), rep.violations


def test_store_lanes_outside_the_interface_are_refuted() -> None:
    """A storing memref's tags moved past the interface's two store lanes."""
    adg, dfg, _, doc, words = _mapped(VADD3, 6, 6, 1)
    base, valid = _two_regions(words, adg)
    c_region = next(r["region"] for r in _by_memory(doc)["extmem0"] if r["st"])
    bad = list(words)
    bad[base + 5 * c_region + 1] = 4
    bad[base + 5 * c_region + 2] = 4
    rep = check(dfg, adg, bad, doc)
    assert any(v.startswith("C1:") and "store lanes" in v for v in rep.violations), rep.violations


SHARED_TARGET = [p for p in EXAMPLES if p.name.startswith("triangular.")]


@pytest.mark.parametrize("path", SHARED_TARGET, ids=lambda p: p.name.split(".")[0])
def test_an_example_with_three_memrefs_on_two_interfaces(path) -> None:
    """triangular's three memrefs on the 8x8 mesh with two shared interfaces: proved, and runs right."""
    adg, dfg, m, doc, words = _mapped(path, 8, 8, 2)
    assert sum(len(v) for k, v in _by_memory(doc).items() if k.startswith("extmem")) == 3
    assert check(dfg, adg, encode(adg, m.config), doc).ok
    inputs = json.loads(path.with_name(path.name.replace(".scf.mlir", ".inputs.json")).read_text())
    plain, decoded = run_decoded(_func(path, adg.max_join_fanin()), _func(path, adg.max_join_fanin()), adg, words, doc, inputs)
    assert plain.status == decoded.status == "completed"
    assert decoded.results == plain.results and decoded.memrefs == plain.memrefs
