"""Every example's RTL is clean under ``verilator --lint-only -Wall`` and pyslang; the only waivers are the listed ones."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from loom.hdl.emit import emit
from loom.hdl.lint import slang_diagnostics, verilator_lint, waivers
from support.hdl import EXAMPLES, ROOT, dfg_func, emit_every_example, need, stem

# the ways the design is compiled: plain (synthesis, iverilog), Yosys-backend properties, full SVA, both
# backends with the DFG-level monitors of the top (task dfg of the .sby) and with the safety monitors
CONFIGS = {"plain": (), "yosys": ("LOOM_ASSERTIONS",), "full": ("LOOM_ASSERTIONS", "LOOM_SVA_FULL"),
           "monitors": ("LOOM_ASSERTIONS", "LOOM_DFG_MONITORS"),
           "monitors-full": ("LOOM_ASSERTIONS", "LOOM_SVA_FULL", "LOOM_DFG_MONITORS"),
           "safety-full": ("LOOM_ASSERTIONS", "LOOM_SVA_FULL", "LOOM_SAFETY")}


@pytest.fixture(scope="module")
def designs(tmp_path_factory) -> tuple[Path, list[str], dict[str, str]]:
    """Every example emitted into one directory (same-named components are the same text), its SV files
    (library first, the tops last) and every file's text."""
    d = tmp_path_factory.mktemp("lint")
    designs, texts = emit_every_example(d)
    tops = [f"{e.stem}.sv" for e in designs]
    sv = sorted(n for n in texts if n.endswith(".sv") and n not in tops) + tops
    return d, sv, texts


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_verilator_wall_is_clean_on_every_example(designs, config):
    need("verilator")
    d, sv, _ = designs
    assert verilator_lint(d, sv, CONFIGS[config]) == []


def test_verilator_lint_can_fail(tmp_path):
    """The check is real: an unused wire and a truncating assignment in the top are both reported."""
    need("verilator")
    func, _ = dfg_func(ROOT / "examples" / "dot.scf.mlir")
    e = emit(func, "dot")
    e.files["dot.sv"] = e.files["dot.sv"].replace(
        "endmodule", "  wire [3:0] lint_probe = 8'hff;\nendmodule")
    for name, text in e.files.items():
        (tmp_path / name).write_text(text)
    out = "\n".join(verilator_lint(tmp_path, e.sv_files, top=e.design.top))
    assert "%Warning-UNUSEDSIGNAL" in out and "lint_probe" in out
    assert "%Warning-WIDTH" in out


def _documented_waivers() -> set[str]:
    text = (ROOT / "specs" / "hdl.md").read_text()
    section = text.split("## Lint", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `(\w+)` \|", section, re.M))


def test_every_waiver_is_listed_in_the_spec(designs):
    """A waiver in the emitted RTL must be in specs/hdl.md's table, and every row there is still in use."""
    _, _, texts = designs
    used = {w for t in texts.values() for w in waivers(t)}
    documented = _documented_waivers()
    assert used <= documented, sorted(used - documented)
    assert documented <= used, sorted(documented - used)


def test_waivers_cover_single_declarations(designs):
    """Each lint_off is switched back on within the same line: no waiver leaks over a whole module."""
    _, _, texts = designs
    for name, text in texts.items():
        for line in text.splitlines():
            for rule in waivers(line):
                assert f"lint_on {rule}" in line, (name, line)


@pytest.mark.parametrize("sva", ["full", "yosys"])
def test_pyslang_has_zero_diagnostics_on_every_example(sva):
    for path in EXAMPLES:
        func, _ = dfg_func(path)
        e = emit(func, stem(path), sva=sva)
        assert slang_diagnostics(e.files, full=sva == "full", defines=("LOOM_DFG_MONITORS", "LOOM_SAFETY")) == [], \
            stem(path)
