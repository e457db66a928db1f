"""`loom adg mesh`, `loom adg verify` and `loom map`: artifacts, determinism, failures (exit 1), bad input (exit 2)."""

from __future__ import annotations

import json
import shutil
import re
from pathlib import Path

import pytest

from loom.cli import main
from loom.map.config import decode, from_bytes
from loom.map.adg.read import load_adg

from support.map import EXAMPLES, corpus_file

ARTIFACTS = ("map.json", "map.txt", "config.json", "config.bin", "config.h", "viz.html")


@pytest.fixture(scope="module")
def mesh_file(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("adg") / "mesh.fabric.mlir"
    assert main(["adg", "mesh", "--rows", "6", "--cols", "6", "--extmem", "3", "-o", str(out)]) == 0
    return out


def test_adg_mesh_and_verify(mesh_file: Path, capsys) -> None:
    assert main(["adg", "verify", str(mesh_file), str(corpus_file("sw2-pe1-extmem1.fabric.mlir"))]) == 0
    out = capsys.readouterr().out
    assert "36 PEs, 36 switches, 4 memories, join fan-in 4" in out


def test_map_writes_every_artifact_consistently(mesh_file: Path, tmp_path: Path, capsys) -> None:
    src = next(p for p in EXAMPLES if p.name.startswith("dot."))
    assert main(["map", str(src), "--adg", str(mesh_file), "-o", str(tmp_path), "-q"]) == 0
    out = capsys.readouterr().out
    assert "checker: proved" in out
    base = tmp_path / "dot.mesh"
    for suffix in ARTIFACTS:
        assert (tmp_path / f"dot.mesh.{suffix}").is_file(), suffix
    cj = json.loads(Path(f"{base}.config.json").read_text())
    words = from_bytes(Path(f"{base}.config.bin").read_bytes())
    assert cj["words"] == words and cj["word_count"] == len(words) == sum(s["word_count"] for s in cj["slices"])
    kinds = [s["kind"] for s in cj["slices"]]
    assert kinds.index("spatial_pe") > max(i for i, k in enumerate(kinds) if k != "spatial_pe") - kinds.count("spatial_pe")
    assert all(k == "spatial_pe" for k in kinds[kinds.index("spatial_pe"):])  # switches/memories first, then PEs
    header = Path(f"{base}.config.h").read_text()
    assert f"loom_runtime_config_words[{len(words)}]" in header and f"0x{words[0]:08x}u" in header
    decode(load_adg(str(mesh_file)), words)  # the image fits the fabric
    doc = json.loads(Path(f"{base}.map.json").read_text())
    assert {"nodes", "edges", "ports", "switch_routes", "pe_routes", "fu_configs", "memory_regions"} <= set(doc)
    assert "placement:" in Path(f"{base}.map.txt").read_text()
    page = Path(f"{base}.viz.html").read_text()
    assert "<script src" not in page and "<link" not in page and "https://" not in page  # self-contained
    data = json.loads(page.split("const D = ", 1)[1].split(";\n", 1)[0])
    assert len(data["routes"]) == len(doc["edges"]) and {c["id"] for c in data["components"]} >= {"pe_0_0", "sw_5_5"}


def test_map_is_deterministic_and_independent_of_the_checkout_path(mesh_file: Path, tmp_path: Path) -> None:
    src = next(p for p in EXAMPLES if p.name.startswith("histogram."))
    outs = []
    for where in ("a/deep/checkout", "b"):
        d = tmp_path / where
        d.mkdir(parents=True)
        shutil.copy(src, d / src.name)
        shutil.copy(mesh_file, d / mesh_file.name)
        assert main(["map", str(d / src.name), "--adg", str(d / mesh_file.name), "-o", str(d / "out"), "--seed", "3", "-q"]) == 0
        outs.append({p.name: p.read_bytes() for p in sorted((d / "out").iterdir())})
    assert outs[0] == outs[1] and len(outs[0]) == len(ARTIFACTS)


def test_map_that_does_not_fit_explains_and_writes_nothing(tmp_path: Path, capsys) -> None:
    tiny = tmp_path / "tiny.fabric.mlir"
    assert main(["adg", "mesh", "--rows", "2", "--cols", "2", "--extmem", "1", "-o", str(tiny)]) == 0
    src = next(p for p in EXAMPLES if p.name.startswith("matmul."))
    out = tmp_path / "out"
    assert main(["map", str(src), "--adg", str(tiny), "-o", str(out), "--budget", "2", "-q"]) == 1
    err = capsys.readouterr().err
    assert "does not fit" in err and ("compatible" in err or "routed" in err)
    # the best partial result is reported even when placement (not routing) ran out of room
    assert re.search(r"best partial result \(after \d+ attempt\(s\)\): \d+/\d+ nodes placed", err), err
    assert not out.exists()


def test_unmappable_op_is_named(tmp_path: Path, capsys) -> None:
    assert main(["map", str(corpus_file("dataflow-flowops.dfg.mlir")), "--adg",
                 str(corpus_file("sw2-pe1-extmem1.fabric.mlir")), "-o", str(tmp_path / "o"), "-q"]) == 1
    err = capsys.readouterr().err
    assert "dataflow.stream" in err and "no compatible function unit" in err
    assert not (tmp_path / "o").exists()


def test_bad_adg_is_located_coded_exit_2(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.fabric.mlir"
    bad.write_text(corpus_file("dataflow-flowops.fabric.mlir").read_text().replace(
        "-> (index) [latency = -1, interval = -1]", "-> (index) [latency = 2, interval = 1]"))
    out = tmp_path / "o"
    assert main(["map", str(corpus_file("dataflow-flowops.dfg.mlir")), "--adg", str(bad), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"{bad}:") and "[CPL_FABRIC_FU_TIMING]" in err and "\n" not in err and "Traceback" not in err
    assert not out.exists()


@pytest.mark.parametrize("argv", [
    ["map", "nope.dfg.mlir", "--adg", "nope.fabric.mlir"],
    ["adg", "mesh", "--rows", "0", "--cols", "2", "-o", "x.fabric.mlir"],
    ["adg", "verify", "missing.fabric.mlir"],
])
def test_usage_errors_exit_2(argv, tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "error" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_check_only_proves_written_artifacts_and_refutes_tampered_ones(mesh_file: Path, tmp_path: Path, capsys) -> None:
    src = next(p for p in EXAMPLES if p.name.startswith("saxpy."))
    argv = ["map", str(src), "--adg", str(mesh_file), "-o", str(tmp_path), "-q"]
    assert main(argv) == 0
    assert main(argv + ["--check-only"]) == 0
    assert "proved" in capsys.readouterr().out
    binary = tmp_path / "saxpy.mesh.config.bin"
    data = bytearray(binary.read_bytes())
    data[len(data) // 2] ^= 0x10
    binary.write_bytes(bytes(data))
    assert main(argv + ["--check-only"]) == 1
    assert "refuted" in capsys.readouterr().err
    (tmp_path / "saxpy.mesh.map.json").write_text('{"nodes": [{"id": 3}], "edges": 7}')
    assert main(argv + ["--check-only"]) == 1


def test_map_does_not_depend_on_the_hash_seed(mesh_file: Path, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    src = next(p for p in EXAMPLES if p.name.startswith("find_first."))
    outs = []
    for hs in ("1", "2"):
        out = tmp_path / hs
        env = dict(os.environ, PYTHONHASHSEED=hs)
        r = subprocess.run([sys.executable, "-m", "loom", "map", str(src), "--adg", str(mesh_file), "-o", str(out), "-q"],
                           env=env, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        outs.append({p.name: p.read_bytes() for p in sorted(out.iterdir())})
    assert outs[0] == outs[1]


def test_unwritable_output_is_a_located_error(mesh_file: Path, tmp_path: Path, capsys) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    src = next(p for p in EXAMPLES if p.name.startswith("collatz."))
    assert main(["map", str(src), "--adg", str(mesh_file), "-o", str(blocker), "-q"]) == 2
    assert main(["adg", "mesh", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count(": error: [IO_OUTPUT_") == 2 and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_progress_shows_on_a_tty_only(mesh_file: Path, tmp_path: Path, monkeypatch) -> None:
    import io
    import sys

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    src = next(p for p in EXAMPLES if p.name.startswith("collatz."))
    for quiet, tty, expect in ((False, True, True), (True, True, False), (False, False, False)):
        err = Tty() if tty else io.StringIO()
        monkeypatch.setattr(sys, "stderr", err)
        argv = ["map", str(src), "--adg", str(mesh_file), "-o", str(tmp_path / f"{quiet}{tty}")] + (["-q"] if quiet else [])
        assert main(argv) == 0
        assert ("placing" in err.getvalue()) is expect, (quiet, tty, err.getvalue())


NORMS = """func.func @norms(%a: memref<?x?xf32>, %out: memref<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i, %c0] : memref<?x?xf32>
    %y = math.sqrt %x : f32
    %z = math.absf %y : f32
    memref.store %z, %out[%i, %c1] : memref<?x?xf32>
  }
  return
}
"""


def test_adg_mesh_fit_serves_a_kernel_the_palette_does_not(tmp_path: Path, capsys) -> None:
    """``--fit KERNEL`` adds an FU per op no palette FU implements (math.sqrt, math.absf): the kernel that the plain
    mesh refuses maps onto the fitted one of the same size, and the checker proves the configuration."""
    src = tmp_path / "norms.scf.mlir"
    src.write_text(NORMS)
    plain, fitted = tmp_path / "plain.fabric.mlir", tmp_path / "fit.fabric.mlir"
    assert main(["adg", "mesh", "--rows", "6", "--cols", "6", "-o", str(plain)]) == 0
    assert main(["adg", "mesh", "--rows", "6", "--cols", "6", "--fit", str(src), "-o", str(fitted)]) == 0
    assert "math.sqrt" not in plain.read_text() and "math.sqrt" in fitted.read_text()
    capsys.readouterr()
    assert main(["map", str(src), "--adg", str(plain), "-o", str(tmp_path / "a")]) == 1
    assert "math.sqrt" in capsys.readouterr().err
    assert main(["map", str(src), "--adg", str(fitted), "-o", str(tmp_path / "b")]) == 0
    capsys.readouterr()
    assert main(["map", str(src), "--adg", str(fitted), "-o", str(tmp_path / "b"), "--check-only"]) == 0
    # the same kernel gives the same fabric (deterministic), and a missing kernel is one located line, exit 2
    again = tmp_path / "again.fabric.mlir"
    assert main(["adg", "mesh", "--rows", "6", "--cols", "6", "--fit", str(src), "-o", str(again)]) == 0
    assert again.read_text() == fitted.read_text()
    capsys.readouterr()
    assert main(["adg", "mesh", "--fit", str(tmp_path / "none.scf.mlir")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "[IO_INPUT_UNREADABLE]" in err[0]
