"""CIRCT-style inputs written for loom (tests/data/circt/): each ``X.mlir`` runs through ``loom sim`` and
``loom verify`` and must give what ``X.expect.json`` says.

``X.expect.json``: ``inputs`` (the sim inputs document), optional ``func``; then either ``error`` (the code
both commands report in their one located error line, exit 2) or ``sim`` (``exit`` and ``results``) and
``verify`` (``exit``).
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from loom.cli import main

from support.paths import DATA

DATA = DATA / "circt"
CASES = sorted(p.with_suffix("").with_suffix("").name for p in DATA.glob("*.expect.json"))


def run(*argv: str) -> tuple[int, str, str]:
    """``loom`` in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def _expect(case: str) -> dict:
    return json.loads((DATA / f"{case}.expect.json").read_text())


def _sim(case: str, tmp_path: Path) -> tuple[int, str, str]:
    exp = _expect(case)
    inputs = tmp_path / "inputs.json"
    inputs.write_text(json.dumps(exp["inputs"]))
    extra = ["--func", exp["func"]] if "func" in exp else []
    return run("sim", str(DATA / f"{case}.mlir"), "--inputs", str(inputs), "--json", *extra)


def test_every_case_has_its_input() -> None:
    assert CASES, "no cases"
    for case in CASES:
        assert (DATA / f"{case}.mlir").is_file(), case


@pytest.mark.parametrize("case", CASES)
def test_sim_gives_the_expected_outcome(case: str, tmp_path: Path) -> None:
    exp = _expect(case)
    code, out, err = _sim(case, tmp_path)
    if "error" in exp:
        assert code == 2 and out == "", (out, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and f"error: [{exp['error']}]" in lines[0], err
        assert lines[0].startswith(str(DATA / f"{case}.mlir") + ":"), err
        return
    assert code == exp["sim"]["exit"], (out, err)
    doc = json.loads(out)
    assert doc["results"] == exp["sim"]["results"], doc


@pytest.mark.parametrize("case", CASES)
def test_verify_gives_the_expected_outcome(case: str) -> None:
    exp = _expect(case)
    extra = ["--func", exp["func"]] if "func" in exp else []
    code, out, err = run("verify", "-q", "--bmc-k", "3", str(DATA / f"{case}.mlir"), *extra)
    if "error" in exp:
        assert code == 2, (out, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and f"error: [{exp['error']}]" in lines[0], err
        return
    assert code == exp["verify"]["exit"], out + err
