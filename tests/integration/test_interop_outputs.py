"""Output paths (issue 12): bad -o/--junit/--sarif/--emit-smt2 give one located line and exit 2; compile
writes all outputs or none, also when writing fails midway; one stem twice is an error."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
from pathlib import Path

import pytest

import loom.outputs
from loom.cli import main

from support.paths import ROOT

EXAMPLES = ROOT / "examples"
DOT, SAXPY = str(EXAMPLES / "dot.scf.mlir"), str(EXAMPLES / "saxpy.scf.mlir")


def run(*argv: str) -> tuple[int, str, str]:
    """``loom`` in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def one_error(err: str, path: str, code: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"{path}: error: [{code}] "), err
    assert "Traceback" not in err


def test_compile_into_an_existing_file_is_located(tmp_path: Path) -> None:
    f = tmp_path / "taken"
    f.write_text("keep me")
    code, out, err = run("compile", DOT, "-o", str(f))
    assert code == 2 and out == ""
    one_error(err, str(f), "IO_OUTPUT_DIR")
    assert f.read_text() == "keep me"


def test_compile_under_a_file_is_located(tmp_path: Path) -> None:
    f = tmp_path / "plain"
    f.write_text("")
    code, _, err = run("compile", DOT, "-o", str(f / "sub"))
    assert code == 2
    one_error(err, str(f / "sub"), "IO_OUTPUT_DIR")


def test_two_inputs_with_one_stem_are_an_error_and_nothing_is_written(tmp_path: Path) -> None:
    other = tmp_path / "src" / "dot.scf.mlir"
    other.parent.mkdir()
    shutil.copy(DOT, other)
    out = tmp_path / "out"
    code, _, err = run("compile", DOT, str(other), "-o", str(out))
    assert code == 2
    one_error(err, str(other), "IO_OUTPUT_CLASH")
    assert not out.exists()


def test_a_failed_write_leaves_no_output_and_restores_old_files(tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "dot.dfg.mlir").write_text("old dot")
    real_replace = os.replace
    calls = []

    def flaky(src, dst):
        calls.append(dst)
        if str(dst).endswith("saxpy.dfg.mlir") and len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(loom.outputs.os, "replace", flaky)
    code, stdout, err = run("compile", DOT, SAXPY, "-o", str(out))
    assert code == 2 and stdout == ""
    one_error(err, str(out / "saxpy.dfg.mlir"), "IO_OUTPUT_FILE")
    assert sorted(p.name for p in out.iterdir()) == ["dot.dfg.mlir"]
    assert (out / "dot.dfg.mlir").read_text() == "old dot"


def test_an_output_name_taken_by_a_directory_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "dot.dfg.mlir").mkdir(parents=True)
    code, _, err = run("compile", SAXPY, DOT, "-o", str(out))
    assert code == 2
    one_error(err, str(out / "dot.dfg.mlir"), "IO_OUTPUT_FILE")
    assert not (out / "saxpy.dfg.mlir").exists()


@pytest.mark.parametrize("flag", ["--junit", "--sarif"])
def test_report_file_naming_a_directory_fails_before_verifying(flag: str, tmp_path: Path) -> None:
    code, out, err = run("verify", "-q", DOT, flag, str(tmp_path))
    assert code == 2 and out == ""
    one_error(err, str(tmp_path), "IO_OUTPUT_FILE")


@pytest.mark.parametrize("flag", ["--junit", "--sarif"])
def test_report_file_under_a_file_is_located(flag: str, tmp_path: Path) -> None:
    f = tmp_path / "plain"
    f.write_text("")
    target = str(f / "r.xml")
    code, _, err = run("verify", "-q", DOT, flag, target)
    assert code == 2
    one_error(err, target, "IO_OUTPUT_FILE")


def test_emit_smt2_naming_a_file_is_located(tmp_path: Path) -> None:
    f = tmp_path / "plain"
    f.write_text("x")
    code, out, err = run("verify", "-q", DOT, "--emit-smt2", str(f))
    assert code == 2 and out == ""
    one_error(err, str(f), "IO_OUTPUT_DIR")
    assert f.read_text() == "x"


def test_overwriting_outputs_leaves_no_temporary_or_backup_files(tmp_path: Path) -> None:
    out = tmp_path / "out"
    for _ in range(2):
        code, _, err = run("compile", DOT, SAXPY, "-o", str(out))
        assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["dot.dfg.mlir", "saxpy.dfg.mlir"]
