"""The CLI contract (../shared/DESIGN.md): exit codes, JSON shape, one-line errors, nothing written on failure."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from loom.cli import main

from support.paths import ROOT, SHARED

EXAMPLES = ROOT / "examples"
CORPUS = SHARED / "corpus"


def run(*argv: str) -> tuple[int, str, str]:
    """Run ``loom`` in-process, capturing stdout/stderr."""
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_compile_writes_dfg_named_after_the_stem(tmp_path: Path) -> None:
    code, out, err = run("compile", str(EXAMPLES / "dot.scf.mlir"), "-o", str(tmp_path))
    assert code == 0, err
    produced = tmp_path / "dot.dfg.mlir"
    assert produced.is_file()
    text = produced.read_text()
    assert "handshake.func @dot(" in text and "dataflow.stream" in text


def test_compile_is_deterministic(tmp_path: Path) -> None:
    for d in ("a", "b"):
        assert run("compile", *map(str, sorted(EXAMPLES.glob("*.scf.mlir"))), "-o", str(tmp_path / d))[0] == 0
    for f in sorted((tmp_path / "a").iterdir()):
        assert f.read_bytes() == (tmp_path / "b" / f.name).read_bytes(), f.name


def test_compile_writes_nothing_when_one_input_is_bad(tmp_path: Path) -> None:
    bad = tmp_path / "bad.scf.mlir"
    bad.write_text("func.func @f(%a: i32) -> i32 {\n  %x = arith.addi %a, %b : i32\n  return %x : i32\n}\n")
    out = tmp_path / "out"
    code, _, err = run("compile", str(EXAMPLES / "dot.scf.mlir"), str(bad), "-o", str(out))
    assert code == 2
    assert err.count("\n") == 1 and f"{bad}:2:" in err and "error:" in err
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize("example", ["dot", "saxpy", "collatz"])
def test_sim_json_shape_is_the_same_for_scf_and_dfg(tmp_path: Path, example: str) -> None:
    src = EXAMPLES / f"{example}.scf.mlir"
    inputs = EXAMPLES / f"{example}.inputs.json"
    code, out, err = run("sim", str(src), "--inputs", str(inputs), "--json")
    assert code == 0, err
    scf = json.loads(out)
    assert list(scf) == ["status", "results", "memrefs", "residual_tokens", "channels", "error"]
    assert scf["status"] == "completed" and scf["error"] is None
    assert run("compile", str(src), "-o", str(tmp_path))[0] == 0
    code, out, err = run("sim", str(tmp_path / f"{example}.dfg.mlir"), "--inputs", str(inputs), "--json")
    assert code == 0, err
    dfg = json.loads(out)
    assert list(dfg) == list(scf)
    assert dfg["results"] == scf["results"] and dfg["memrefs"] == scf["memrefs"]
    assert dfg["residual_tokens"] == 0 and dfg["channels"]
    # --lower runs the same pipeline in one step
    code, out, _ = run("sim", str(src), "--inputs", str(inputs), "--json", "--lower")
    assert code == 0 and json.loads(out) == dfg


@pytest.mark.shared
def test_sim_of_a_deadlocking_corpus_dfg_exits_1(tmp_path: Path) -> None:
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps({"a": [1.0, 2.0], "b": [3.0, 4.0], "c": [0.0, 0.0], "n": 2}))
    code, out, _ = run("sim", str(CORPUS / "loom-legacy" / "vecadd.mlir"), "--func", "_Z10vecadd_dsaPKfS0_Pfi",
                       "--inputs", str(inputs), "--json")
    assert code == 1
    assert json.loads(out)["status"] == "deadlock"


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["sim", "examples/missing.scf.mlir", "--inputs", "x.json"], "missing.scf.mlir:1:1: error:"),
        (["sim", "examples/dot.scf.mlir", "--inputs", "examples"], "examples:1:1: error: [IO_INPUT_UNREADABLE] cannot read inputs file"),
        (["sim", "examples/dot.scf.mlir", "--inputs", "examples/dot.inputs.json", "--func", "nope"], "no function named 'nope'"),
        (["sim", "examples/dot.scf.mlir"], "--inputs"),
        (["frobnicate"], "invalid choice"),
        (["compile"], "arguments are required"),
    ],
)
def test_bad_usage_and_input_exit_2_with_one_line(argv: list[str], needle: str, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    code, _, err = run(*argv)
    assert code == 2
    assert needle in err
    assert err.strip().count("\n") == 0 and "Traceback" not in err


def test_bad_inputs_json_is_located(tmp_path: Path) -> None:
    inputs = tmp_path / "in.json"
    inputs.write_text('{"x": [1, 2],\n "y": }')
    code, _, err = run("sim", str(EXAMPLES / "dot.scf.mlir"), "--inputs", str(inputs))
    assert code == 2 and f"{inputs}:2:" in err


def test_console_script_runs_as_a_module() -> None:
    p = subprocess.run([sys.executable, "-m", "loom", "--version"], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0 and p.stdout.startswith("loom ")


def test_verify_proves_an_example_and_writes_junit_sarif_smt2(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    junit, sarif, smt = tmp_path / "r.xml", tmp_path / "r.sarif", tmp_path / "smt"
    code, out, err = run("verify", str(EXAMPLES / "dot.scf.mlir"), "--json", "--junit", str(junit),
                         "--sarif", str(sarif), "--emit-smt2", str(smt))
    assert code == 0, err
    doc = json.loads(out)
    statuses = {o["status"] for o in doc["obligations"]}
    assert statuses == {"proved"}
    assert {"id", "kind", "status", "seconds", "detail", "counterexample"} <= set(doc["obligations"][0])
    cases = ET.parse(junit).getroot().iter("testcase")
    assert len(list(cases)) == len(doc["obligations"])
    assert json.loads(sarif.read_text())["version"] == "2.1.0"
    assert any(smt.glob("*.smt2"))


@pytest.mark.shared
def test_verify_refutes_the_legacy_vecadd_and_exits_1() -> None:
    code, out, _ = run("verify", str(CORPUS / "loom-legacy" / "vecadd.mlir"), "--json")
    assert code == 1
    refuted = [o for o in json.loads(out)["obligations"] if o["status"] == "refuted"]
    assert refuted and all(o["counterexample"] for o in refuted)


def test_verify_bad_option_values_exit_2() -> None:
    assert run("verify", str(EXAMPLES / "dot.scf.mlir"), "--timeout", "0")[0] == 2
    assert run("verify", str(EXAMPLES / "dot.scf.mlir"), "--bmc-k", "-1")[0] == 2


@pytest.mark.shared
def test_verify_func_naming_the_scf_function_of_a_corpus_file_lowers_it() -> None:
    # the kernel indexes its arrays up to its i32 count: legal inputs size them at least that long
    legal = "arg3 <= dim(arg0) && arg3 <= dim(arg1) && arg3 <= dim(arg2)"
    code, out, err = run("verify", str(CORPUS / "loom-legacy" / "vecadd.mlir"), "--func", "_Z10vecadd_cpuPKfS0_Pfi",
                         "--json", "--assume", legal)
    assert code == 0, err
    doc = json.loads(out)
    # its loop is an scf.while (a do-while on an i64 counter, i + 1 != n): its termination is proved by the
    # ranking function (n - i) mod 2^64, like everything else
    assert doc["obligations"] and {o["status"] for o in doc["obligations"]} == {"proved"}
    (ends,) = [o for o in doc["obligations"] if o["id"] == "len.L0.terminates"]
    assert ends["rule"].startswith("ranking function") and ends["rule"].endswith("mod 2^64"), ends["rule"]


def test_compile_writes_to_stdout_or_a_named_file(tmp_path):
    """The CLI contract's -o forms: '-' prints the DFG (no directory named '-'), a .dfg.mlir path is that file."""
    import subprocess
    import sys

    root = ROOT
    r = subprocess.run([sys.executable, "-m", "loom", "compile", str(root / "examples" / "dot.scf.mlir"), "-o", "-"],
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("module {") and "handshake.func @dot" in r.stdout
    assert not (tmp_path / "-").exists()
    out = tmp_path / "k.dfg.mlir"
    r = subprocess.run([sys.executable, "-m", "loom", "compile", str(root / "examples" / "dot.scf.mlir"), "-o",
                        str(out)], capture_output=True, text=True)
    assert r.returncode == 0 and out.read_text().startswith("module {")
    r = subprocess.run([sys.executable, "-m", "loom", "compile", str(root / "examples" / "dot.scf.mlir"),
                        str(root / "examples" / "saxpy.scf.mlir"), "-o", "-"], capture_output=True, text=True)
    assert r.returncode == 2 and "[CLI_USAGE]" in r.stderr
