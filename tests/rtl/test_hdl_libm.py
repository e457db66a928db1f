"""loom_libm.c: the C libm calls of the float models (log2, log1p, expm1, cbrt, erf, erfc, f64 fma), as DPI-C and
as an Icarus VPI module; written beside the SV only when a design calls it; a missing iverilog-vpi is one line."""

from __future__ import annotations

import json
import subprocess

import pytest

from loom.cli import main
from loom.hdl.datapath import libm_c
from loom.hdl.emit import emit

from support.hdl import ROOT, dfg_func, need

KERNEL = """func.func @k(%x: memref<4xf64>, %y: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %a = memref.load %x[%i] : memref<4xf64>
    %l = math.log2 %a : f64
    %e = math.erfc %l : f64
    %f = math.fma %a, %e, %l : f64
    memref.store %f, %y[%i] : memref<4xf64>
  }
  return
}
"""
INPUTS = {"x": [0.75, 8.0, 1e-300, -2.0], "y": [0.0, 0.0, 0.0, 0.0]}


@pytest.fixture
def kernel(tmp_path):
    src = tmp_path / "k.scf.mlir"
    src.write_text(KERNEL)
    return src


@pytest.fixture
def inputs(tmp_path):
    path = tmp_path / "k.inputs.json"
    path.write_text(json.dumps(INPUTS))
    return path


def test_written_beside_the_sv_only_when_called(kernel, tmp_path):
    out = tmp_path / "out"
    assert main(["hdl", str(kernel), "-o", str(out)]) == 0
    assert (out / libm_c.FILE).read_text() == libm_c.c_source()
    assert libm_c.FILE not in (out / "k.f").read_text()  # Icarus would read a .c in the list as Verilog
    func, _ = dfg_func(ROOT / "examples" / "dot.scf.mlir")
    assert libm_c.FILE not in emit(func, "dot").files


@pytest.mark.parametrize("mode", ["dpi", "vpi"])
def test_the_c_file_compiles_without_warnings(tmp_path, mode):
    """C and C++ compilers (Verilator builds it as either) and the VPI build, -Wall -Wextra, no warning."""
    (tmp_path / libm_c.FILE).write_text(libm_c.c_source())
    if mode == "dpi":
        for cc in ("gcc", "g++"):
            p = subprocess.run([need(cc), "-Wall", "-Wextra", "-Werror", "-x", "c" if cc == "gcc" else "c++", "-c",
                                libm_c.FILE, "-o", f"o_{cc}.o"], cwd=tmp_path, capture_output=True, text=True)
            assert p.returncode == 0, p.stderr
    else:
        need("iverilog-vpi")
        assert libm_c.iverilog_args(tmp_path) == ["-L", ".", "-m", libm_c.VPI_MODULE]
        assert (tmp_path / f"{libm_c.VPI_MODULE}.vpi").exists()


def _sim(args: list[str], capsys) -> tuple[int, str, str]:
    code = main(["sim", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("sim", ["iverilog", "verilator"])
def test_co_simulates_through_either_route(kernel, inputs, sim, monkeypatch, capsys):
    """Icarus through the VPI module, Verilator through DPI-C: the token simulator's document, field by field."""
    need(sim)
    code, ref, _ = _sim([str(kernel), "--inputs", str(inputs), "--json"], capsys)
    assert code == 0
    monkeypatch.setenv("LOOM_RTL_SIM", sim)
    code, rtl, err = _sim(["--rtl", str(kernel), "--inputs", str(inputs), "--json"], capsys)
    assert code == 0, err
    ref_doc, rtl_doc = json.loads(ref), json.loads(rtl)
    for field in ("status", "results", "memrefs"):
        assert rtl_doc[field] == ref_doc[field], field
    assert ref_doc["memrefs"]["y"] != INPUTS["y"]


def test_missing_iverilog_vpi_is_one_line(kernel, inputs, monkeypatch, capsys):
    need("iverilog")
    real = libm_c.shutil.which
    monkeypatch.setattr(libm_c.shutil, "which", lambda n: None if n == "iverilog-vpi" else real(n))
    monkeypatch.setenv("LOOM_RTL_SIM", "iverilog")
    monkeypatch.setenv("LOOM_RTL_CACHE", "off")  # the build itself: a cached one (the test above) needs no VPI build
    code, out, err = _sim(["--rtl", str(kernel), "--inputs", str(inputs)], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "[HDL_SIM_BUILD]" in err and "iverilog-vpi" in err
