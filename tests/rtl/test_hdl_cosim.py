"""RTL co-simulation agrees exactly with the token simulator: every example, with and without --stall."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from loom.cli import main
from loom.hdl import rtlsim
from loom.hdl.emit import emit
from loom.hdl.rtlsim import run
from loom.runtime import decode_inputs, function_arg_names, run_result_json
from loom.sim import simulate

from support.hdl import EXAMPLES, ROOT, dfg_func, need, stem


def _docs(path: Path, stall, simulator: str = "iverilog", inputs_path=None, vcd: Path | None = None):
    func, module = dfg_func(path)
    raw = json.loads(Path(inputs_path or str(path).replace(".scf.mlir", ".inputs.json")).read_text())
    names, types = function_arg_names(func), [a.type for a in func.regions[0].entry.args]
    ref = simulate(func, decode_inputs(names, types, raw, "<inputs>", module=module))
    rtl = run(emit(func, stem(path)), decode_inputs(names, types, raw, "<inputs>", module=module), module,
              stall=stall, simulator=simulator, vcd=vcd)
    as_doc = lambda r: run_result_json(r.status, r.results, r.memrefs, r.residual_tokens, r.channels, r.error,
                                       func=func)
    return as_doc(ref), as_doc(rtl)


@pytest.mark.parametrize("stall", [None, 7], ids=["nostall", "stall7"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name.split(".")[0])
def test_example_agrees_with_token_simulator(path, stall):
    need("iverilog")
    ref, rtl = _docs(path, stall)
    assert ref["status"] == "completed"
    assert rtl == ref


def test_verilator_with_assertions_agrees_and_writes_a_vcd(tmp_path, monkeypatch):
    """The default simulator, with every component's properties checked as immediate assertions while it runs:
    saxpy has extmemory load and store port pairs (their request/response assertions and assumptions) and
    arguments forked into several FIFOs, under random stalls and memory latency. The same build traces the
    waveform (Verilator's --trace): one Verilator build of ~20 s CPU serves both (test_vcd_is_written checks the
    CLI's --vcd with iverilog; the flag reaches the simulator through the same ``run(vcd=...)``)."""
    need("verilator")
    monkeypatch.setenv("LOOM_RTL_CACHE", str(tmp_path / "cache"))  # its own: the second run below must hit it
    path = ROOT / "examples" / "saxpy.scf.mlir"
    vcd = tmp_path / "w" / "saxpy.vcd"
    vcd.parent.mkdir()
    ref, rtl = _docs(path, 3, simulator="verilator", vcd=vcd)
    assert rtl == ref
    text = vcd.read_text()
    assert "$enddefinitions" in text and "clk" in text and "cycle" in text
    # another seed runs the same binary from the build cache (loom.hdl.simcache): no second build, the same
    # answer, another schedule in the waveform
    builds = []
    monkeypatch.setattr(rtlsim, "_build", lambda *a: builds.append(a))
    ref, rtl = _docs(path, 4, simulator="verilator", vcd=vcd)
    assert rtl == ref and builds == [] and vcd.read_text() != text


def test_cli_same_json_and_exit_code(capsys, monkeypatch):
    need("iverilog")
    monkeypatch.setenv("LOOM_RTL_SIM", "iverilog")
    path = ROOT / "examples" / "find_first.scf.mlir"
    inputs = str(path).replace(".scf.mlir", ".inputs.json")
    assert main(["sim", "--lower", str(path), "--inputs", inputs, "--json"]) == 0
    ref = capsys.readouterr().out
    assert main(["sim", "--rtl", str(path), "--inputs", inputs, "--json", "--stall", "11"]) == 0
    doc = json.loads(capsys.readouterr().out)
    rtl = doc.pop("rtl")  # the RTL run's own figures, beside the token simulator's document
    assert doc == json.loads(ref)
    assert rtl["simulator"] == "iverilog" and rtl["version"].startswith("Icarus Verilog")
    assert rtl["cycles"] > rtl["return_cycle"] > 0 and rtl["vcd"] is None
    assert main(["sim", "--lower", str(path), "--inputs", inputs]) == 0
    ref_h = capsys.readouterr().out
    assert main(["sim", "--rtl", str(path), "--inputs", inputs]) == 0
    out = capsys.readouterr().out
    assert out.startswith(ref_h)
    assert re.fullmatch(r"rtl: (\d+) cycles \(the return fired at cycle (\d+)\), Icarus Verilog.*\n"
                        r"(rtl: loop %\w+: \d+ index tokens, II [-\d.]+ \(cycles (-?\d+|None) to (-?\d+|None)\), "
                        r"bound [\d.]+(, [\d.]+ with its inner loops)?\n)*",
                        out[len(ref_h):]), out[len(ref_h):]


def test_cycles_are_deterministic_and_grow_with_the_trip_count(tmp_path, capsys, monkeypatch):
    """issue 26: the testbench's `LOOM end <why> <cycle>` and the return's cycle, reported; the same on every
    run (no wall clock); dot's cycles grow with n."""
    need("iverilog")
    monkeypatch.setenv("LOOM_RTL_SIM", "iverilog")
    path = ROOT / "examples" / "dot.scf.mlir"
    got = []
    for n in (1, 4, 4):
        inp = tmp_path / f"dot{n}.json"
        inp.write_text(json.dumps({"x": [1.0] * n, "y": [2.0] * n, "n": n}))
        assert main(["sim", "--rtl", str(path), "--inputs", str(inp), "--json"]) == 0
        rtl = json.loads(capsys.readouterr().out)["rtl"]
        got.append((rtl["return_cycle"], rtl["cycles"], rtl["loops"]))
    assert got[1] == got[2] and got[0][0] < got[1][0], got
    # one loop: its index stream pushes a token per test of the condition (n + 1); II = cycles per token
    (one,), (four, ) = got[0][2], got[1][2]
    assert one["stream"] == four["stream"] == "index" and (one["tokens"], four["tokens"]) == (2, 5)
    # the loop's II: the slowest of its index stream and its carries (a stream runs ahead into its FIFOs)
    assert four["ii"] >= round((four["last_cycle"] - four["first_cycle"]) / 4, 2) and four["ii"] >= 1
    assert four["bound"] == four["bound_run"] == 3  # the load port's request, 2 cycles of memory, then the next


def test_vcd_is_written(tmp_path, capsys, monkeypatch):
    """``loom sim --rtl --vcd``: the waveform file and the line naming it (Verilator's waveform: the test above)."""
    sim = "iverilog"
    need(sim)
    monkeypatch.setenv("LOOM_RTL_SIM", sim)
    path = ROOT / "examples" / "find_first.scf.mlir"
    inputs = str(path).replace(".scf.mlir", ".inputs.json")
    vcd = tmp_path / "w" / "ff.vcd"
    vcd.parent.mkdir()
    assert main(["sim", "--rtl", str(path), "--inputs", inputs, "--vcd", str(vcd)]) == 0
    assert f"waveform {vcd}" in capsys.readouterr().out
    text = vcd.read_text()
    assert "$enddefinitions" in text and "clk" in text and "cycle" in text


def test_vcd_needs_rtl_and_a_writable_file(tmp_path, capsys):
    path = ROOT / "examples" / "find_first.scf.mlir"
    inputs = str(path).replace(".scf.mlir", ".inputs.json")
    assert main(["sim", str(path), "--inputs", inputs, "--vcd", str(tmp_path / "x.vcd")]) == 2
    assert "--vcd" in capsys.readouterr().err
    assert main(["sim", "--rtl", str(path), "--inputs", inputs, "--vcd", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "error: [" in err and "names a directory" in err


def test_runtime_error_matches(tmp_path):
    need("iverilog")
    src = tmp_path / "div.scf.mlir"
    src.write_text("func.func @div(%a: i32, %b: i32) -> i32 {\n  %q = arith.divsi %a, %b : i32\n  return %q : i32\n}\n")
    inp = tmp_path / "div.inputs.json"
    inp.write_text('{"a": 7, "b": 0}')
    ref, rtl = _docs(src, None, inputs_path=inp)
    assert ref["status"] == "error" and "RT_ARITH_DIV_BY_ZERO" in ref["error"]
    assert rtl == ref


def test_faulty_dfg_leaves_the_same_residual_tokens(tmp_path, capsys):
    """The README's fault (a body carry fed by the raw stream): both simulators see the left-over token."""
    need("iverilog")
    assert main(["compile", str(ROOT / "examples" / "dot.scf.mlir"), "-o", str(tmp_path)]) == 0
    dfg = tmp_path / "dot.dfg.mlir"
    dfg.write_text(dfg.read_text().replace("%afterCond, %x_ctrl_t", "%willContinue, %x_ctrl_t"))
    ref, rtl = _docs(dfg, 5, inputs_path=ROOT / "examples" / "dot.inputs.json")
    assert ref["residual_tokens"] > 0
    assert rtl == ref


def test_no_simulator_is_one_line_exit_2(capsys, monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv("LOOM_RTL_SIM", raising=False)
    path = ROOT / "examples" / "dot.scf.mlir"
    rc = main(["sim", "--rtl", str(path), "--inputs", str(path).replace(".scf.mlir", ".inputs.json")])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and len(err.splitlines()) == 1 and "no RTL simulator" in err


@pytest.mark.parametrize("value, says", [("bogus", "unknown RTL simulator 'bogus'"),
                                         ("verilator", "verilator is not installed")])
def test_a_simulator_choice_that_cannot_be_met_says_why(capsys, monkeypatch, value, says):
    """LOOM_RTL_SIM naming an unknown or missing simulator is one line located at the variable, not the
    generic 'install one' (both may well be installed)."""
    monkeypatch.setenv("LOOM_RTL_SIM", value)
    if value == "verilator":
        monkeypatch.setenv("PATH", "/nonexistent")
    path = ROOT / "examples" / "dot.scf.mlir"
    rc = main(["sim", "--rtl", str(path), "--inputs", str(path).replace(".scf.mlir", ".inputs.json")])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and err.splitlines() == [f"LOOM_RTL_SIM: error: [HDL_NO_SIMULATOR] {err.split('] ', 1)[1]}"]
    assert says in err


def test_corpus_deadlocks_reproduced_in_rtl():
    """Every corpus DFG deadlocks in the token simulator (README Findings); the RTL, with FIFOs deep enough to
    hold what the unbounded channels hold, deadlocks identically: same document and same stuck report."""
    need("iverilog")
    from support.sim_corpus import CORPUS, INPUTS
    from loom.mlir import parse_file

    seen = 0
    for f in sorted((CORPUS / "loom-legacy").glob("*.mlir")):
        module = parse_file(f)
        for func in module.functions():
            name = func.attributes["sym_name"].value
            if func.name != "handshake.func" or name not in INPUTS:
                continue
            names, types = function_arg_names(func), [a.type for a in func.regions[0].entry.args]
            dec = lambda: decode_inputs(names, types, INPUTS[name], "<inputs>", module=module)  # noqa: E731
            ref = simulate(func, dec())
            rtl = run(emit(func, f.stem, fifo_depth=64), dec(), module, simulator="iverilog")
            doc = lambda r: run_result_json(r.status, r.results, r.memrefs, r.residual_tokens,  # noqa: E731
                                            r.channels, r.error, func=func)
            assert doc(rtl) == doc(ref), name
            assert rtl.deadlock_report == ref.deadlock_report, name
            seen += 1
    assert seen >= 10


def test_rtl_qor_table_is_the_one_in_the_spec(monkeypatch):
    """tools/rtl_qor.py: cycles, loop IIs and bounds at size 16 under both buffer policies; specs/hdl.md keeps the
    table as the tool prints it at this commit (a change of the RTL's timing shows here). Three examples (one
    loop, a load and a store on one memory, a nest with five load ports) keep the test short; the tool checks all."""
    import importlib.util

    need("iverilog")
    monkeypatch.setenv("LOOM_RTL_SIM", "iverilog")
    spec = importlib.util.spec_from_file_location("rtl_qor", ROOT / "tools" / "rtl_qor.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    got = [mod.measure(ROOT / "examples" / f"{ex}.scf.mlir", b, 16) for ex in ("dot", "saxpy", "stencil2d")
           for b in ("uniform", "opt")]
    rows = mod.table(got)[2:]
    assert rows[0] == "| dot | 114 -> 57 | %index: 6.25 -> 3.12, 3 (1.04) |"
    spec_text = (ROOT / "specs" / "hdl.md").read_text()
    assert [r for r in rows if r not in spec_text] == []
    assert mod.within_target(got)
    assert not mod.within_target([{**r, "buffers": "opt"} for r in got if r["buffers"] == "uniform"])
