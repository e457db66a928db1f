"""The CLI's conventions (README, "Inputs and outputs"; issue 28 item 7): ``-o DIR`` for an artifact family and
mlir-opt's habits where one output is asked for (``-o -``, ``-o NAME.dfg.mlir``, ``-`` as input, ``--junit -``,
``--sarif -``), ``-q``/``-v`` and help text on every subcommand's options, and ``loom --version``."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from loom.cli import build_parser, main

from support.paths import ROOT

EXAMPLES = ROOT / "examples"
DOT = EXAMPLES / "dot.scf.mlir"


def run(*argv: str) -> tuple[int, str, str]:
    """``loom`` in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def loom(*argv: str, stdin: bytes | None = None, cwd: Path | None = None,
         env: dict | None = None) -> subprocess.CompletedProcess:
    """``loom`` as a process (standard input is a real pipe): bytes in, text out."""
    r = subprocess.run([sys.executable, "-m", "loom", *argv], input=stdin or b"", capture_output=True,
                       cwd=cwd or ROOT, env=env, timeout=300)
    r.stdout, r.stderr = r.stdout.decode(), r.stderr.decode()
    return r


def one_error_line(err: str) -> str:
    """The single line of ``err`` (a bad input is one line, never a traceback)."""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# ----------------------------------------------------------------------------- the argparse tree


def _commands(parser: argparse.ArgumentParser, prefix: str = "loom") -> list[tuple[str, argparse.ArgumentParser]]:
    """Every (command path, parser) of the tree, the root included."""
    out = [(prefix, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out += _commands(sub, f"{prefix} {name}")
    return out


def _leaves() -> list[tuple[str, argparse.ArgumentParser]]:
    """The subcommands that run something (a parser without subcommands of its own)."""
    return [(name, p) for name, p in _commands(build_parser())
            if name != "loom" and not any(isinstance(a, argparse._SubParsersAction) for a in p._actions)]


def test_the_tree_walk_sees_every_subcommand() -> None:
    names = {name for name, _ in _leaves()}
    assert {"loom compile", "loom sim", "loom verify", "loom hdl", "loom adg mesh", "loom adg verify",
            "loom map"} <= names


def test_every_option_and_argument_has_help_text() -> None:
    missing = [f"{name} {a.option_strings[-1] if a.option_strings else a.metavar or a.dest}"
               for name, p in _commands(build_parser()) for a in p._actions
               if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction))
               and not (a.help and a.help.strip() and a.help != argparse.SUPPRESS)]
    assert not missing, f"options without help text: {missing}"


def test_the_walk_can_fail() -> None:
    p = build_parser()
    leaf = dict(_commands(p))["loom compile"]
    leaf.add_argument("--undocumented")
    assert any(a.option_strings == ["--undocumented"] and not a.help for a in leaf._actions)


@pytest.mark.parametrize("name", [n for n, _ in _leaves()])
def test_every_subcommand_has_quiet_and_verbose(name: str) -> None:
    parser = dict(_leaves())[name]
    flags = {s for a in parser._actions for s in a.option_strings}
    assert {"-q", "--quiet", "-v", "--verbose"} <= flags, name


def test_quiet_and_verbose_are_exclusive(tmp_path: Path) -> None:
    code, out, err = run("compile", str(DOT), "-o", str(tmp_path), "-q", "-v")
    assert code == 2 and out == "" and "[CLI_USAGE]" in one_error_line(err)
    assert list(tmp_path.iterdir()) == []


# ----------------------------------------------------------------------------- --version


def test_version_names_loom_and_every_tool() -> None:
    r = loom("--version")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("loom ")
    tools = dict(line.split(": ", 1) for line in lines[1:])
    assert list(tools) == ["z3", "yosys", "sby", "native yosys", "iverilog", "verilator", "cvc5", "yices"]
    import z3

    assert tools["z3"] == z3.get_version_string()


def test_version_says_not_found_for_a_missing_simulator(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": str(tmp_path)}  # no simulator on PATH
    r = loom("--version", env=env)
    assert r.returncode == 0, r.stderr
    tools = dict(line.split(": ", 1) for line in r.stdout.splitlines()[1:])
    assert tools["iverilog"] == "not found" and tools["verilator"] == "not found"
    assert tools["native yosys"] == "not found"  # nor a native Yosys for loom-sby
    assert tools["z3"] != "not found"


# ----------------------------------------------------------------------------- -o


def test_compile_o_dash_prints_the_dfg_that_o_file_writes(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run("compile", str(DOT), "-o", "-")
    assert code == 0, err
    assert out.startswith("module {") and "handshake.func @dot(" in out
    assert list(tmp_path.iterdir()) == []  # no directory named -
    code, said, err = run("compile", str(DOT), "-o", "one.dfg.mlir")
    assert code == 0, err
    assert (tmp_path / "one.dfg.mlir").read_text() == out
    assert said == "wrote one.dfg.mlir\n"


def test_compile_o_dir_writes_the_family_and_quiet_says_nothing(tmp_path: Path) -> None:
    code, out, err = run("compile", str(DOT), "-o", str(tmp_path / "d"), "-q")
    assert code == 0 and out == "" and err == ""
    assert [p.name for p in (tmp_path / "d").iterdir()] == ["dot.dfg.mlir"]


def test_compile_verbose_counts_ops_on_stderr(tmp_path: Path) -> None:
    code, out, err = run("compile", str(DOT), "-o", "-", "-v")
    assert code == 0 and out.startswith("module {")
    assert err.startswith("<stdout>: @dot: ") and " ops (" in err and "handshake)" in err


@pytest.mark.parametrize("argv", [
    ["compile", str(DOT), "-o", "one.mlir"],
    ["hdl", str(DOT), "-o", "-"],
    ["hdl", str(DOT), "-o", "top.sv"],
    ["map", str(DOT), "--adg", "x.fabric.mlir", "-o", "-"],
])
def test_o_that_names_a_file_for_a_family_is_a_usage_error(argv: list[str], tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(*argv)
    assert code == 2 and out == ""
    assert f"error: [CLI_USAGE] -o {argv[-1]}: " in one_error_line(err)
    assert list(tmp_path.iterdir()) == []  # nothing written, no directory made


def test_adg_mesh_prints_the_fabric_without_o_and_writes_it_with_o(tmp_path: Path) -> None:
    code, out, err = run("adg", "mesh", "--rows", "2", "--cols", "2")
    assert code == 0, err
    assert out.startswith("module {") and "fabric.module @mesh_2x2" in out
    assert run("adg", "mesh", "--rows", "2", "--cols", "2", "-o", "-")[1] == out
    f = tmp_path / "m.fabric.mlir"
    code, said, _ = run("adg", "mesh", "--rows", "2", "--cols", "2", "-o", str(f), "-q")
    assert code == 0 and said == "" and f.read_text() == out
    code, _, err = run("adg", "mesh", "--rows", "2", "--cols", "2", "-o", str(tmp_path / "v.fabric.mlir"), "-v")
    assert err == "fabric.module @mesh_2x2: 4 PEs, 4 switches, 5 memories, join fan-in 4\n"


# ----------------------------------------------------------------------------- - as input


def test_compile_reads_stdin(tmp_path: Path) -> None:
    r = loom("compile", "-", "-o", "-", stdin=DOT.read_bytes(), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == run("compile", str(DOT), "-o", "-")[1]
    r = loom("compile", "-", "-o", str(tmp_path / "out"), stdin=DOT.read_bytes(), cwd=tmp_path)
    assert r.returncode == 0 and (tmp_path / "out" / "stdin.dfg.mlir").is_file()


def test_a_bad_stdin_is_one_located_line_and_writes_nothing(tmp_path: Path) -> None:
    r = loom("compile", "-", "-o", str(tmp_path / "out"), stdin=b"func.func @f(%a: i32) -> i32 {\n  return %b : i32\n}\n",
             cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    line = one_error_line(r.stderr)
    assert line.startswith("<stdin>:2:") and ": error: [" in line
    assert list(tmp_path.iterdir()) == []


def test_verify_reads_stdin_and_names_it(tmp_path: Path) -> None:
    r = loom("verify", "-", "--json", stdin=DOT.read_bytes(), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert {o["status"] for o in doc["obligations"]} == {"proved"}
    assert "<stdin>" in r.stdout and str(tmp_path) not in r.stdout  # no temporary path in the report


def test_sim_reads_inputs_from_stdin(tmp_path: Path) -> None:
    inputs = (EXAMPLES / "dot.inputs.json").read_bytes()
    r = loom("sim", str(DOT), "--inputs", "-", "--json", stdin=inputs)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == json.loads(run("sim", str(DOT), "--inputs", str(EXAMPLES / "dot.inputs.json"),
                                                  "--json")[1])


def test_stdin_feeds_one_input_only() -> None:
    code, out, err = run("sim", "-", "--inputs", "-")
    assert code == 2 and out == ""
    assert "standard input (-) is given 2 times" in one_error_line(err)


def test_adg_verify_reads_stdin() -> None:
    fabric = run("adg", "mesh", "--rows", "2", "--cols", "2")[1].encode()
    r = loom("adg", "verify", "-", "-v", stdin=fabric)
    assert r.returncode == 0, r.stderr
    first, *pes = r.stdout.splitlines()
    assert first.startswith("<stdin>: ok: fabric.module @mesh_2x2: 4 PEs")
    assert pes and all(p.startswith("  pe @") and " FUs: " in p for p in pes)
    assert loom("adg", "verify", "-", "-q", stdin=fabric).stdout == ""


# ----------------------------------------------------------------------------- reports on stdout


def test_junit_dash_prints_the_xml_alone_on_stdout(tmp_path: Path) -> None:
    f = tmp_path / "r.xml"
    code, out, err = run("verify", str(DOT), "--junit", "-")
    assert code == 0
    root = ET.fromstring(out)  # stdout is the XML document and nothing else
    assert root.tag == "testsuites" and int(root.get("tests")) > 0
    assert "obligations:" in err  # the human report went to stderr
    run("verify", str(DOT), "--junit", str(f), "-q")
    assert ET.fromstring(f.read_text()).get("tests") == root.get("tests")


def test_sarif_dash_prints_the_json_alone_on_stdout() -> None:
    code, out, _ = run("verify", str(DOT), "--sarif", "-", "-q")
    assert code == 0
    assert json.loads(out)["version"] == "2.1.0"


@pytest.mark.parametrize("argv", [["--json", "--junit", "-"], ["--junit", "-", "--sarif", "-"],
                                  ["--json", "--sarif", "-"]])
def test_two_documents_on_stdout_are_a_usage_error(argv: list[str]) -> None:
    code, out, err = run("verify", str(DOT), *argv)
    assert code == 2 and out == ""
    assert "would both print on stdout" in one_error_line(err)


# ----------------------------------------------------------------------------- -q / -v of sim and hdl


def test_sim_quiet_prints_the_status_and_verbose_every_value(tmp_path: Path) -> None:
    inputs = tmp_path / "in.json"
    n = 20
    inputs.write_text(json.dumps({"x": [1.0] * n, "y": [2.0] * n, "n": n}))
    code, out, _ = run("sim", str(DOT), "--inputs", str(inputs), "-q")
    assert code == 0 and out == "status: completed\n"
    code, out, _ = run("sim", str(DOT), "--inputs", str(inputs), "-v")
    assert code == 0 and "..." not in out and out.count("2.0") >= n
    code, out, _ = run("sim", str(DOT), "--inputs", str(inputs))
    assert "..." in out  # the default abbreviates a memref after 16 values


def test_hdl_verbose_lists_every_file_and_quiet_none(tmp_path: Path) -> None:
    code, out, err = run("hdl", str(DOT), "-o", str(tmp_path / "v"), "-v")
    assert code == 0, err
    written = sorted(p.name for p in (tmp_path / "v").iterdir())
    assert out.splitlines() == [f"wrote {tmp_path / 'v' / name}" for name in written]
    code, out, err = run("hdl", str(DOT), "-o", str(tmp_path / "q"), "-q")
    assert code == 0 and out == "" and sorted(p.name for p in (tmp_path / "q").iterdir()) == written
