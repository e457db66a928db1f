"""The README's Tour is executable: every ``$ command`` runs and prints what the README shows.

A Tour block is a fenced block with no language tag. Its ``$ `` lines are commands
(run with bash, in order, in a scratch copy of ``examples/``, stdout and stderr
together); the lines up to the next command are the expected output, where a line
``...`` (indented or not) stands for any number of lines and times (``0.123s``, ``(1.23 s)``) are
compared as times, not values. Every ``--flag`` the README gives a subcommand must
be in that subcommand's ``--help``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from support.paths import ROOT, SHARED

README = ROOT / "README.md"
_TIMES = [(re.compile(r"\b\d+\.\d+s\b"), "<t>s"), (re.compile(r"\(\d+\.\d+ s\)"), "(<t> s)")]


def tour_steps(text: str) -> list[tuple[str, list[str]]]:
    """(command, expected output lines) for every ``$`` line of every untagged fenced block, in order."""
    steps: list[tuple[str, list[str]]] = []
    fenced = inside = False
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            inside = fenced and line.strip() == "```"
            current = None
            continue
        if not inside:
            continue
        if line.startswith("$ "):
            current = []
            steps.append((line[2:], current))
        elif current is not None:
            current.append(line)
    return steps


def _norm(line: str) -> str:
    for pat, rep in _TIMES:
        line = pat.sub(rep, line)
    return line.rstrip()


def matches(expected: list[str], actual: list[str]) -> bool:
    """Does ``actual`` match ``expected``, where an expected ``...`` line matches any run of lines?"""
    exp = [_norm(x) for x in expected]
    act = [_norm(x) for x in actual]
    while act and not act[-1]:
        act.pop()
    memo: dict[tuple[int, int], bool] = {}

    def go(i: int, j: int) -> bool:
        if (i, j) not in memo:
            if i == len(exp):
                memo[i, j] = j == len(act)
            elif exp[i].strip() == "...":
                memo[i, j] = any(go(i + 1, k) for k in range(j, len(act) + 1))
            else:
                memo[i, j] = j < len(act) and exp[i] == act[j] and go(i + 1, j + 1)
        return memo[i, j]

    return go(0, 0)


def test_the_matcher_can_fail():
    assert matches(["a", "...", "c 1.00s"], ["a", "b", "b", "c 2.50s", ""])
    assert not matches(["a", "c"], ["a", "b", "c"])
    assert not matches(["a", "..."], ["b"])
    assert not matches(["x 3 proved"], ["x 4 proved"])


@pytest.mark.shared
def test_every_tour_command_prints_what_the_readme_shows(tmp_path):
    """Commands run in a scratch checkout (a copy of ``examples/``) with ``../shared`` beside it, as in a clone."""
    steps = tour_steps(README.read_text(encoding="utf-8"))
    assert len(steps) >= 8, "the Tour lost its commands"
    (tmp_path / "shared").symlink_to(SHARED, target_is_directory=True)
    tmp_path = tmp_path / "checkout"
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    shim = bindir / "loom"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m loom "$@"\n')
    shim.chmod(0o755)
    # LOOM_RTL_SIM=iverilog: `loom sim --rtl` prints the same report with either simulator; Verilator's build is
    # 40 s of this test's 120 (tests/rtl/test_hdl_cosim.py runs the Verilator path with its assertions on)
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
           "PYTHONPATH": str(ROOT), "LOOM_RTL_SIM": "iverilog"}
    for cmd, expected in steps:
        r = subprocess.run(["bash", "-c", cmd + " 2>&1"], cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=300)
        actual = r.stdout.splitlines()
        assert matches(expected, actual), f"$ {cmd}\n--- README shows:\n" + "\n".join(expected) + \
            "\n--- it prints:\n" + r.stdout


def _help(sub: str) -> str:
    r = subprocess.run([sys.executable, "-m", "loom", sub, "--help"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.mark.parametrize("sub", ["compile", "sim", "verify"])
def test_every_flag_the_readme_names_is_in_the_help(sub):
    text = README.read_text(encoding="utf-8")
    flags = set()
    for line in text.splitlines():
        for m in re.finditer(rf"loom {sub}\b([^`|&;]*)", line):
            flags |= set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])\b", m.group(1)))
    help_text = _help(sub)
    missing = sorted(f for f in flags if f not in help_text)
    assert not missing, f"README names {missing} for `loom {sub}`, which its --help does not list"


def test_the_package_table_names_every_package():
    """Every package under loom/ has a row in the README's package table (a new one must say what its job is)."""
    text = (ROOT / "README.md").read_text()
    rows = set(re.findall(r"`(loom/\w+)`", "\n".join(l for l in text.splitlines() if l.startswith("| `loom/"))))
    packages = {f"loom/{p.name}" for p in (ROOT / "loom").iterdir() if (p / "__init__.py").is_file()}
    assert packages - rows == set()
