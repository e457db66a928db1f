"""`loom adg mesh --fit`: each memory interface gets the lanes its memref needs, so the border carries only those."""

from __future__ import annotations

import re
from pathlib import Path

from loom.cli import main
from loom.map.adg.mesh import CROWDED_LANES, MeshParams, _border, _lanes_one_by_one, _mems, border_tracks, memory_lanes

SCF = """module {
  func.func @two(%a: memref<?xi32>, %b: memref<?xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %n = memref.dim %b, %c0 : memref<?xi32>
    scf.for %i = %c0 to %n step %c1 {
      %j = arith.addi %i, %c1 : index
      %k = arith.addi %i, %c2 : index
      %x = memref.load %a[%i] : memref<?xi32>
      %y = memref.load %a[%j] : memref<?xi32>
      %z = memref.load %a[%k] : memref<?xi32>
      %s = arith.addi %x, %y : i32
      %t = arith.addi %s, %z : i32
      memref.store %t, %b[%i] : memref<?xi32>
    }
    return
  }
}
"""


class _Mem:
    def __init__(self, ld: int, st: int) -> None:
        self.ld, self.st = ld, st


def test_lanes_one_by_one_let_memref_k_of_the_order_fit_memory_k() -> None:
    lanes = _lanes_one_by_one([_Mem(3, 6), _Mem(10, 2), _Mem(3, 0), _Mem(6, 6)])
    assert lanes == ((10, 6), (6, 6), (3, 6), (3, 1))
    need = sorted(((max(m.ld, 1), max(m.st, 1)) for m in [_Mem(3, 6), _Mem(10, 2), _Mem(3, 0), _Mem(6, 6)]),
                  reverse=True)
    assert all(ld <= a and st <= b for (ld, st), (a, b) in zip(need, lanes))
    border = {name: n_in + n_out for name, _, _, _, n_in, n_out in _mems(MeshParams(extmem=4, mem_lanes=lanes))}
    assert border["extmem3"] < border["extmem0"]


def test_fit_sizes_each_interface_for_its_memref_and_the_kernel_maps(tmp_path: Path) -> None:
    src = tmp_path / "two.scf.mlir"
    src.write_text(SCF)
    fabric = tmp_path / "m.fabric.mlir"
    assert main(["adg", "mesh", "--rows", "6", "--cols", "6", "--extmem", "2", "--fit", str(src), "-o", str(fabric),
                 "-q"]) == 0
    counts = re.findall(r"extmemory @extmem\d \[ldCount = (\d+), stCount = (\d+)", fabric.read_text())
    assert counts == [("3", "1"), ("1", "1")]  # a: 3 loads; b: 1 store (every interface keeps a lane of each)
    assert main(["map", str(src), "--adg", str(fabric), "-o", str(tmp_path / "out"), "-q"]) == 0
    # shared interfaces (more memrefs than interfaces) keep one size for all: any memref may land on any
    assert main(["adg", "mesh", "--rows", "6", "--cols", "6", "--extmem", "1", "--fit", str(src), "-o", str(fabric),
                 "-q"]) == 0
    assert re.findall(r"extmemory @extmem\d \[ldCount = (\d+), stCount = (\d+)", fabric.read_text()) == [("5", "2")]


def _fitted(tmp_path: Path, side: int, *extra: str) -> str:
    src = tmp_path / "two.scf.mlir"
    src.write_text(SCF)
    out = tmp_path / f"m{side}{''.join(extra)}.fabric.mlir"
    assert main(["adg", "mesh", "--rows", str(side), "--cols", str(side), "--extmem", "2", "--fit", str(src),
                 *extra, "-o", str(out), "-q"]) == 0
    return out.read_text()


def test_fit_gives_4_tracks_only_when_the_memory_ports_crowd_the_border(tmp_path: Path) -> None:
    """3x3: 42 border wires on 8 border tiles (over 1.5 a tile) -> 4 tracks; 10x10 (36 tiles) keeps 3; an
    explicit --tracks always wins."""
    assert _fitted(tmp_path, 3) == _fitted(tmp_path, 3, "--tracks", "4") != _fitted(tmp_path, 3, "--tracks", "3")
    assert _fitted(tmp_path, 10) == _fitted(tmp_path, 10, "--tracks", "3") != _fitted(tmp_path, 10, "--tracks", "4")


class _Node:
    def __init__(self, kind: str, ld: int = 0, st: int = 0) -> None:
        self.kind, self.ld, self.st = kind, ld, st


class _Dfg:
    def __init__(self, *nodes: _Node) -> None:
        self.nodes = list(nodes)


def test_fit_gives_4_tracks_when_the_kernels_memory_lanes_crowd_the_border() -> None:
    """poseidon_permutation's case: each memory only as wide as its memref leaves few border wires (under
    CROWDED_BORDER), but many memory operations still pull routes in from the border -- the lanes a border tile
    (over CROWDED_LANES) decide 4 tracks; below that the mesh keeps 3."""
    p = MeshParams(rows=12, cols=12, extmem=1, mem_lanes=((9, 9),), mem_rank=1, onchip=0, inputs=1, outputs=1)
    tiles = len(_border(12, 12))
    wires = sum(n_in + n_out for *_, n_in, n_out in _mems(p)) + 2
    assert wires <= 1.5 * tiles  # the wires alone do not crowd this border
    assert memory_lanes([_Dfg(_Node("mem", 9, 9), _Node("op"), _Node("mem", 1, 0))]) == 19
    assert memory_lanes([_Dfg(_Node("mem", 2, 1)), _Dfg(_Node("mem", 5, 5))]) == 10  # the busiest kernel of several
    below = int(CROWDED_LANES * tiles)
    assert border_tracks(p) == border_tracks(p, below) == 3
    assert border_tracks(p, below + 1) == 4
    assert border_tracks(MeshParams(rows=10, cols=10, tracks=5), below + 1) == 5  # never fewer than asked


def test_fit_refuses_an_op_outside_the_allowlist_at_the_kernel_and_writes_nothing(tmp_path: Path, capsys) -> None:
    """math.tanh has no upstream FU and no exact rewrite: one error line at the op, exit 2, no fabric written
    (before, --fit wrote an FU for it that every fabric reader then refused)."""
    src = tmp_path / "t.scf.mlir"
    src.write_text(SCF.replace("%t = arith.addi %s, %z : i32", "%f = arith.sitofp %s : i32 to f32\n"
                               "      %g = math.tanh %f : f32\n      %t = arith.fptosi %g : f32 to i32"))
    out = tmp_path / "t.fabric.mlir"
    assert main(["adg", "mesh", "--extmem", "2", "--fit", str(src), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "error: [CPL_FABRIC_FU_OP_NOT_ALLOWED] 'math.tanh'" in err[0], err
    assert not out.exists()
