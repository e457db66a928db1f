"""loom hdl: the files it writes, determinism, names after the DFG, the property manifest, bad input."""

from __future__ import annotations

import json
import os
import stat

import pytest

from loom.cli import main
from loom.hdl.emit import emit

from support.hdl import EXAMPLES, ROOT, dfg_func, stem

DOT = ROOT / "examples" / "dot.scf.mlir"


def test_writes_every_file(tmp_path, capsys):
    assert main(["hdl", str(DOT), "-o", str(tmp_path)]) == 0
    names = {p.name for p in tmp_path.iterdir()}
    for n in ("dot.sv", "dot.f", "dot.sby", "dot.props.json", "loom_fifo.sv", "loom_props.svh"):
        assert n in names
    assert any(n.startswith("loom_carry_") for n in names)
    flist = (tmp_path / "dot.f").read_text().split()
    assert all((tmp_path / f).exists() for f in flist if f.endswith(".sv"))
    assert "+define+LOOM_SVA_FULL" not in flist
    top = (tmp_path / "dot.sv").read_text()
    # one instance per DFG op, named after its values
    assert " u_carry_acc (" in top and " u_index (" in top
    assert "wrote" in capsys.readouterr().out


def test_deterministic(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    assert main(["hdl", str(DOT), "-o", str(a), "--sva", "full"]) == 0
    assert main(["hdl", str(DOT), "-o", str(b), "--sva", "full"]) == 0
    for p in a.iterdir():
        assert p.read_bytes() == (b / p.name).read_bytes(), p.name
    assert "+define+LOOM_SVA_FULL" in (a / "dot.f").read_text()


def test_props_point_at_their_assertions(tmp_path):
    assert main(["hdl", str(DOT), "-o", str(tmp_path)]) == 0
    doc = json.loads((tmp_path / "dot.props.json").read_text())
    assert doc["top"] == "dot_dfg" and doc["float_behavioural_modules"]
    props = doc["properties"]
    assert props
    for p in props:
        line = (tmp_path / p["file"]).read_text().splitlines()[p["line"] - 1]
        assert p["id"].split(".", 1)[1] in line, p
        assert "LOOM_ASSERT" in line
    fsm = [p for p in props if p["kind"] == "fsm"]
    assert fsm and all(p["obligation"].startswith("fsm.") and p["dfg_loc"] for p in fsm)


@pytest.mark.parametrize("path", [DOT, ROOT / "examples" / "clamp_count.scf.mlir"], ids=lambda p: p.name)
def test_obligation_ids_are_verify_ids(path):
    """Every fsm property names an obligation that loom verify proves for the same function."""
    from loom.verify import VerifyContext, verify_file

    func, _ = dfg_func(path)
    e = emit(func, stem(path))
    ids = {p["obligation"] for p in json.loads(e.files[f"{stem(path)}.props.json"])["properties"] if p["obligation"]}
    (report,) = verify_file(path, VerifyContext())
    z3_ids = {o.id for o in report.obligations}
    assert ids and ids <= z3_ids, ids - z3_ids


def test_every_example_emits():
    for path in EXAMPLES:
        func, _ = dfg_func(path)
        e = emit(func, stem(path))
        assert f"{stem(path)}.sv" in e.files


def test_bad_input_one_line_nothing_written(tmp_path, capsys):
    bad = tmp_path / "bad.dfg.mlir"
    bad.write_text("handshake.func @f(%a: index) -> index {\n  %x = dataflow.gate %a, %a : index, index -> index, i1\n"
                   "  return %x : index\n}\n")
    out = tmp_path / "out"
    assert main(["hdl", str(bad), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "error:" in err and "Traceback" not in err
    assert not out.exists() or not any(out.iterdir())


def test_unwritable_output(tmp_path, capsys):
    if os.geteuid() == 0:
        target = "/proc/loom-cannot-write-here"
    else:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(stat.S_IRUSR | stat.S_IXUSR)
        target = str(ro / "x")
    assert main(["hdl", str(DOT), "-o", target]) == 2
    err = capsys.readouterr().err.strip()
    # as `loom compile -o` reports it (it was `target:1:1: error: [CPL_INPUT_INVALID] ...`)
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"{target}: error: [IO_OUTPUT_DIR] cannot create"), err


def test_bad_fifo_depth(tmp_path, capsys):
    assert main(["hdl", str(DOT), "-o", str(tmp_path), "--fifo-depth", "0"]) == 2
    assert capsys.readouterr().err == "loom hdl: error: [CLI_USAGE] --fifo-depth must be >= 1 (got 0)\n"
    assert not any(tmp_path.iterdir())


def test_written_files_get_the_mode_of_the_umask(tmp_path):
    """Not mkstemp's 0600: the RTL is read by other tools and users (as any file `open` creates)."""
    mask = os.umask(0o027)
    try:
        assert main(["hdl", str(DOT), "-o", str(tmp_path)]) == 0
    finally:
        os.umask(mask)
    assert {stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()} == {0o640}


def test_sva_full_elaborates_cleanly_with_pyslang():
    from loom.hdl.lint import slang_diagnostics

    for name in ("dot", "clamp_count", "popcount_lut"):
        func, _ = dfg_func(ROOT / "examples" / f"{name}.scf.mlir")
        e = emit(func, name, sva="full")
        errors = [t for k, t in slang_diagnostics(e.files, full=True) if k == "error"]
        assert errors == [], errors[:3]


def test_pyslang_catches_a_broken_design():
    """The pyslang check can fail: an undeclared signal in the top is an error."""
    from loom.hdl.lint import slang_diagnostics

    func, _ = dfg_func(DOT)
    e = emit(func, "dot", sva="full")
    e.files["dot.sv"] = e.files["dot.sv"].replace("assign done =", "assign done = no_such_signal ||")
    assert any(k == "error" for k, _ in slang_diagnostics(e.files))


def test_op_without_rtl_model_is_a_located_error(tmp_path, capsys, monkeypatch):
    """Every op of the semantics tables has a model (test_hdl_vectors); one taken away must give the one-line
    located HDL_UNSUPPORTED error and write nothing."""
    from loom.hdl.datapath import floats as float_sv

    monkeypatch.delitem(float_sv.LIBM_C_UNARY, "math.log1p")
    src = tmp_path / "h.scf.mlir"
    src.write_text("func.func @h(%a: f32) -> f32 {\n  %c = math.log1p %a : f32\n  return %c : f32\n}\n")
    out = tmp_path / "out"
    assert main(["hdl", str(src), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "[HDL_UNSUPPORTED]" in err and "h.scf.mlir:2:" in err
    assert not out.exists()


def test_a_wide_memory_table_stays_linear_and_simulates(tmp_path, capsys, monkeypatch):
    """One memref read 40 times in a loop body: the extmemory's table has 40 load rules over 80 ports. Its
    FSM-conformance property compares one transfer vector with each rule's mask (a conjunction over every port
    per rule made a 1.3 MB line at 100 loads, past Verilator's preprocessor limit), and the RTL co-simulates
    (iverilog) to the token simulator's memories."""
    from support.hdl import need

    need("iverilog")
    n = 40
    body = "\n".join(f"    %x{k} = memref.load %A[%i] : memref<?xi32>\n    %s{k} = arith.addi %s{k - 1}, %x{k} : i32"
                     if k else "    %x0 = memref.load %A[%i] : memref<?xi32>\n    %s0 = arith.addi %z, %x0 : i32"
                     for k in range(n))
    src = tmp_path / "wide.scf.mlir"
    src.write_text(f"""func.func @wide(%A: memref<?xi32>, %B: memref<?xi32>, %n: index) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  scf.for %i = %c0 to %n step %c1 {{
{body}
    memref.store %s{n - 1}, %B[%i] : memref<?xi32>
  }}
  return
}}
""")
    out = tmp_path / "rtl"
    assert main(["hdl", str(src), "-o", str(out)]) == 0
    longest = max(len(line) for f in out.glob("loom_extmemory_*.sv") for line in f.read_text().splitlines())
    assert longest < 5000, longest  # 80 ports: the quadratic form's line was ~170,000 characters
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps({"A": [1, 2, 3], "B": [0, 0, 0], "n": 3}))
    capsys.readouterr()
    assert main(["sim", str(src), "--inputs", str(inputs), "--json"]) == 0
    want = json.loads(capsys.readouterr().out)
    monkeypatch.setenv("LOOM_RTL_SIM", "iverilog")
    assert main(["sim", "--rtl", str(src), "--inputs", str(inputs), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["memrefs"] == want["memrefs"] and want["memrefs"]["B"] == [40, 80, 120]
