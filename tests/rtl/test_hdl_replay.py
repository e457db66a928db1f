"""issue 26: what a bounded formal check cannot contain is simulated in RTL with the DFG-level monitors live --
Z3's witness run replayed (the monitor fires: agree; the run completes without it: DISAGREE; no simulation: still
`not reached`), and whole runs of a kernel whose smallest run is longer than task dfg_mem's MEM_STEPS (gemm.c)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from support.hdl import ROOT, dfg_func, need

from loom.hdl.emit import emit
from loom.hdl.formal import replay, verify
from loom.hdl.formal.replay import SimRun, WholeRuns
from loom.hdl.formal.sby import SbyVerdict
from loom.hdl.formal.verify import NOT_REACHED, RtlReport, RtlVerdict, exit_code, human, not_reached, to_json

DOT = ROOT / "examples" / "dot.scf.mlir"
GEMM = ROOT / "examples" / "c" / "gemm.c"


@pytest.fixture(scope="module")
def faulty_dot(tmp_path_factory):
    """README's faulty dot DFG (the memory-control carry's branch on the raw stream) and Z3's report of it."""
    from loom.cli import main
    from loom.verify import VerifyContext, verify_file

    out = tmp_path_factory.mktemp("fault")
    assert main(["compile", "-q", str(DOT), "-o", str(out)]) == 0
    path = out / "dot.dfg.mlir"
    text = path.read_text()
    assert text.count("%afterCond, %x_ctrl_t") == 1
    path.write_text(text.replace("%afterCond, %x_ctrl_t", "%willContinue, %x_ctrl_t"))
    (report,) = verify_file(path, VerifyContext())
    return path, report


def _witness(report):
    cex = {o.id: o.counterexample for o in report.obligations if o.status == "refuted"}
    return ({k: c.get("arguments") for k, c in cex.items()},
            {k: c["replay"]["inputs"] for k, c in cex.items() if isinstance(c.get("replay"), dict)})


def test_the_monitor_fires_in_a_replay_of_z3s_witness(faulty_dot):
    """The witness of balance.%x_loop_ctrl (n = 1, Z3's memory contents) simulated with the monitors live fails
    that monitor's label (and class.%x_loop_ctrl's), in the cycle the loop ends; the correct dot holds on it."""
    need("iverilog")
    path, report = faulty_dot
    args, inputs = _witness(report)
    assert args["balance.%x_loop_ctrl"] == {"n": 1}
    func, _ = dfg_func(path)
    e = emit(func, "dot", monitors=True)
    label = {m.obligation: m.label for m in e.design.monitors.props}
    got = replay.run(e, func, inputs["balance.%x_loop_ctrl"])
    assert got.status == "completed" and got.simulator == "iverilog"
    assert set(got.fired) == {label["balance.%x_loop_ctrl"], label["class.%x_loop_ctrl"]}, got
    assert replay.fires(got, "balance.%x_loop_ctrl", [label["balance.%x_loop_ctrl"]]) == got.fired[
        label["balance.%x_loop_ctrl"]] < 20
    assert replay.fires(got, "bmc.K4.residual", []) == got.cycles and got.residual > 0  # tokens left after done
    ok, _ = dfg_func(DOT)
    held = replay.run(emit(ok, "dot", monitors=True), ok, inputs["balance.%x_loop_ctrl"])
    assert held.status == "completed" and held.fired == {} and held.residual == 0


def test_a_depth_too_short_for_the_witness_agrees_through_the_replay(faulty_dot, monkeypatch):
    """check_function with --rtl-depth 6 --rtl-bound 1 (SymbiYosys answered PASS by a stub: the monitors held for 6
    cycles, which no run at n = 1 fits): the replay of Z3's witness refutes balance.%x_loop_ctrl, agreeing with Z3,
    and the report says an RTL simulation decided it. Without a simulator it stays `not reached`, with why."""
    need("iverilog")
    monkeypatch.setattr(verify, "sby_available", lambda: "yowasp-sby")
    monkeypatch.setattr(verify, "sby_command", lambda: (["yowasp-sby"], "stub"))
    monkeypatch.setattr(verify, "sby_run_task", lambda wd, sby, task, timeout=None, progress=None, depth=None:
                        SbyVerdict(task, "pass", 0.0, [], None, ""))
    monkeypatch.setattr(verify, "prove_components", lambda *a, **k: {})
    path, report = faulty_dot
    args, inputs = _witness(report)
    z3 = {o.id: o.status for o in report.obligations}
    func, _ = dfg_func(path)
    rep = verify.check_function(func, "dot", z3, bound=1, dfg_depth=6, z3_args=args, z3_inputs=inputs)
    v = next(v for v in rep.verdicts if v.id == "balance.%x_loop_ctrl")
    assert v.status == "refuted" and not v.disagrees and v.evidence == "simulation", v
    assert v.detail.startswith("RTL simulation of Z3's witness (n=1; iverilog, co-simulation's memory), ")
    assert "not reached within 6 cycles" in v.detail and "DISAGREE" not in human(rep)
    c = next(v for v in rep.verdicts if v.id == "class.%x_loop_ctrl")  # Z3: unknown; the same run fails it in RTL
    assert (c.status, c.z3, c.evidence) == ("refuted", "unknown", "simulation") and "another obligation" in c.detail
    assert to_json(rep)["verdicts"][[x.id for x in rep.verdicts].index(v.id)]["evidence"] == "simulation"
    monkeypatch.setattr(replay, "simulator", lambda: None)
    rep = verify.check_function(func, "dot", z3, bound=1, dfg_depth=6, z3_args=args, z3_inputs=inputs)
    v = next(v for v in rep.verdicts if v.id == "balance.%x_loop_ctrl")
    assert v.status == NOT_REACHED and v.detail.endswith("no RTL simulator (apt-get install iverilog)"), v.detail


def test_what_a_replay_decides(monkeypatch):
    """A completed replay where a count monitor holds is a DISAGREE (its verdict does not depend on the schedule); an
    order monitor stays `not reached` (another memory timing may show it); a run that does not complete decides
    nothing; a witness without inputs is not simulated."""
    monkeypatch.setattr(verify, "run_depth", lambda func, n, buffers=None: 31)
    runs = {"balance.%x": SimRun("completed", 40, {}, 0, "iverilog"),
            "mem.a.order.ld0<st0": SimRun("completed", 40, {}, 0, "iverilog"),
            "len.L0.raw": SimRun("deadlock", 230, {}, 3, "iverilog"),
            "class.%y": SimRun("completed", 40, {"ob_class_y": 17}, 0, "iverilog")}
    rep = RtlReport("dot", bound=1, verdicts=[RtlVerdict(k, "bounded", "refuted", ["top"], None, "held for 15 cycles")
                                              for k in list(runs) + ["balance.%z"]])
    labels = {"balance.%x": ["ob_balance_x"], "mem.a.order.ld0<st0": ["ob_mem_a"], "len.L0.raw": ["ob_len"],
              "class.%y": ["ob_class_y"], "balance.%z": ["ob_balance_z"]}
    not_reached(rep, None, {k: {"n": 1} for k in runs}, 15, None, replay_with=runs.get, labels=labels)
    got = {v.id: v for v in rep.verdicts}
    assert got["balance.%x"].status == "bounded" and got["balance.%x"].disagrees
    assert "ran to its end in 40 cycles and the monitor held where Z3 refutes" in got["balance.%x"].detail
    assert got["mem.a.order.ld0<st0"].status == NOT_REACHED and "another memory timing" in got[
        "mem.a.order.ld0<st0"].detail
    assert got["len.L0.raw"].status == NOT_REACHED and "did not complete (deadlock after 230" in got["len.L0.raw"].detail
    assert got["class.%y"].status == "refuted" and "ob_class_y fails at cycle 17" in got["class.%y"].detail
    assert got["balance.%z"].status == NOT_REACHED and "Z3's witness gives no inputs" in got["balance.%z"].detail
    assert exit_code([rep]) == 1


def _whole(fired=None, status="completed") -> WholeRuns:
    w = WholeRuns(1)
    for seed in (None,) + replay.SEEDS:
        w.runs.append(("ramp", seed, SimRun(status, 1610 if seed is None else 11000 + seed, dict(fired or {}), 0,
                                            "iverilog")))
    return w


def test_whole_runs_are_evidence_of_their_own_kind_in_every_format():
    """rtl.simulated: a pass that is neither proved nor bounded, in text, JSON, JUnit and SARIF alike; a monitor
    failing there is refuted (exit 1); runs that are not whole leave it unknown (exit 3)."""
    from loom.hdl.formal.verify import junit_suites, sarif_results, simulated_status

    rep = RtlReport("gemm", verdicts=[RtlVerdict("balance.%x", "bounded", "proved", ["top"], None, "held")],
                    simulated=_whole())
    n = 1 + len(replay.SEEDS)
    assert f"simulated: {n} whole runs held every monitor" in human(rep) and exit_code([rep]) == 0
    assert to_json(rep)["simulated"]["status"] == "simulated" and to_json(rep)["simulated"]["whole"] == n
    suite = ET.tostring(junit_suites([rep])[0], encoding="unicode")
    assert 'name="rtl.simulated"' in suite and 'errors="0"' in suite and 'failures="0"' in suite
    assert [r["kind"] for r in sarif_results([rep], 0) if r["properties"]["obligation"] == "rtl.simulated"] == ["pass"]
    bad = RtlReport("gemm", simulated=_whole({"ob_balance_x": 1500}))
    assert simulated_status(bad) == "refuted" and exit_code([bad]) == 1
    assert simulated_status(RtlReport("gemm", simulated=_whole(status="deadlock"))) == "unknown"
    assert exit_code([RtlReport("gemm", simulated=_whole(status="deadlock"))]) == 3


def test_gemm_whole_runs_hold_every_monitor(monkeypatch):
    """gemm.c's fixed 8x8x8 run (1,609 cycles, past task dfg_mem's 70 steps) simulated whole with its 568 monitors
    live, without stalls and with one stall seed: every monitor holds; the check that a firing is seen at all is the
    faulty dot above."""
    need("iverilog")
    monkeypatch.setattr(replay, "SEEDS", (1,))
    func, _ = dfg_func(GEMM)
    e = emit(func, "gemm", monitors=True)
    got = replay.whole_runs(e, func, 1)
    assert [(f, s, r.status) for f, s, r in got.runs] == [("ramp", None, "completed"), ("ramp", 1, "completed")]
    assert got.runs[0][2].cycles == 1610 and got.runs[1][2].cycles > 1610  # stalls make the run longer
    assert got.fired == {} and got.line().startswith("simulated: 2 whole runs held every monitor")
