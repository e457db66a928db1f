"""Long runs of macro-call lines are broken so Verilator's preprocessor accepts them (``loom.hdl.macro_runs``)."""

from __future__ import annotations

import subprocess

import pytest

from loom.hdl.macro_runs import BREAK_EVERY, NEVER_DEFINED, break_macro_runs
from support.hdl import need


def _module(body: list[str]) -> str:
    head = ["`define M(a, b) wire a = b;", "`define E(a, b)", "module t(input clk);"]
    return "\n".join(head + body + ["endmodule"]) + "\n"


def _calls(macro: str, n: int) -> list[str]:
    return [f"  `{macro}(w{k}, clk)" for k in range(n)]


def _verilator(tmp_path, text: str) -> subprocess.CompletedProcess:
    (tmp_path / "t.sv").write_text(text)
    return subprocess.run(["verilator", "--lint-only", "-Wno-DECLFILENAME", "-Wno-UNUSEDSIGNAL", "t.sv"],
                          cwd=tmp_path, capture_output=True, text=True)


# 1,100 calls in a row: in a disabled block (Verilator still counts them) and of a macro expanding to nothing
BODIES = {"disabled": ["`ifdef OFF", *_calls("M", 1100), "`endif"], "empty": _calls("E", 1100)}


@pytest.mark.parametrize("kind", sorted(BODIES))
def test_verilator_refuses_the_long_run_and_accepts_it_broken(tmp_path, kind):
    need("verilator")
    raw = _verilator(tmp_path, _module(BODIES[kind]))
    assert raw.returncode != 0 and "Recursive `define substitution" in raw.stderr  # the failure is real here
    broken = _verilator(tmp_path, _module(break_macro_runs(BODIES[kind])))
    assert broken.returncode == 0, broken.stderr


def test_iverilog_accepts_the_broken_run(tmp_path):
    need("iverilog")
    (tmp_path / "t.sv").write_text(_module(break_macro_runs(BODIES["disabled"] + BODIES["empty"])))
    r = subprocess.run(["iverilog", "-g2012", "-o", "t.vvp", "t.sv"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_short_runs_are_unchanged_and_calls_are_never_split():
    short = _calls("M", BREAK_EVERY)
    assert break_macro_runs(short) == short
    # a plain line resets the count: two runs of BREAK_EVERY with a declaration between need no break
    assert break_macro_runs(short + ["  wire x;"] + short) == short + ["  wire x;"] + short
    # a call that spans lines is never cut: the break waits for its closing parenthesis
    spanning = _calls("M", BREAK_EVERY - 1) + ["  `M(wide,", "  `E(x, y))"] + _calls("M", 3)
    out = break_macro_runs(spanning)
    k = out.index(f"`ifdef {NEVER_DEFINED}")
    assert out[k - 1] == "  `E(x, y))" and out[k + 3] == "  `M(w0, clk)"
    assert [x for x in out if NEVER_DEFINED not in x and not x.startswith("  loom_pp_break_")
            and x != "`endif"] == spanning
