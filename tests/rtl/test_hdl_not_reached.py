"""issue 26: a bounded RTL check too shallow (or too narrow) to contain Z3's witness run says `not reached`, never
DISAGREE; only a check that contained the witness can disagree. run_depth (the cycles of a whole run, measured by
RTL simulation) is replaced by a table here: no simulator, no SymbiYosys."""

from __future__ import annotations

import pytest

from loom.hdl.formal import verify
from loom.hdl.formal.verify import (NOT_REACHED, RtlReport, RtlVerdict, counts, exit_code, human, not_reached,
                                    summary_line)


@pytest.fixture
def depths(monkeypatch):
    asked = []

    def run_depth(func, n):
        asked.append(n)
        return {1: 31, 2: 50, None: 40}[n]

    monkeypatch.setattr(verify, "run_depth", run_depth)
    return asked


def _rep(bound=None) -> RtlReport:
    return RtlReport("dot", bound=bound, verdicts=[
        RtlVerdict("balance.%x", "bounded", "refuted", ["top"], None, "held for 15 cycles"),
        RtlVerdict("bmc.K4.residual", "bounded", "refuted", ["dot_dfg"], None, "bounded: 15 cycles"),
        RtlVerdict("len.L0.raw", "bounded", "proved", ["top"], None, "held for 15 cycles"),
        RtlVerdict("fsm.carry[f32].shape", "proved", "proved", ["c"])])


def test_a_depth_below_the_witness_run_is_not_reached(depths):
    rep = _rep(bound=1)
    assert sum(v.disagrees for v in rep.verdicts) == 2  # as reported before issue 26
    not_reached(rep, None, {"balance.%x": {"n": 1}, "bmc.K4.residual": {"n": 1}}, 15, 15)
    got = {v.id: (v.status, v.detail) for v in rep.verdicts}
    assert got["balance.%x"] == (NOT_REACHED, "not reached within 15 cycles (the witness, n=1, needs 31: raise "
                                              "--rtl-depth)")
    assert got["bmc.K4.residual"][0] == NOT_REACHED and got["len.L0.raw"][0] == "bounded"
    assert not any(v.disagrees for v in rep.verdicts) and depths == [1]  # one measurement per witness size
    assert counts(rep)["not reached"] == 2 and "DISAGREE" not in human(rep)
    assert summary_line(rep) == "  4 RTL verdicts: 1 agree with Z3, 1 bounded, 2 not reached"
    assert exit_code([rep]) == 3


def test_a_depth_that_contains_the_witness_run_still_disagrees(depths):
    rep = _rep(bound=1)
    not_reached(rep, None, {"balance.%x": {"n": 1}, "bmc.K4.residual": {"n": 1}}, 31, 31)
    assert [v.id for v in rep.verdicts if v.disagrees] == ["balance.%x", "bmc.K4.residual"]
    assert exit_code([rep]) == 1 and "2 DISAGREE WITH Z3" in summary_line(rep)


def test_a_witness_outside_the_bound_is_not_reached(depths):
    rep = _rep(bound=1)
    not_reached(rep, None, {"balance.%x": {"n": 2, "m": 0}}, 100, None)
    (v,) = [v for v in rep.verdicts if v.id == "balance.%x"]
    assert v.status == NOT_REACHED and v.detail == "not reached: Z3's witness (m=0, n=2) is outside --rtl-bound 1"
    assert depths == []


def test_without_the_witness_the_bound_decides(depths):
    rep = _rep(bound=None)
    not_reached(rep, None, {}, 39, None)  # no bmc depth: the bmc.* check keeps its verdict
    got = {v.id: v.status for v in rep.verdicts}
    assert got == {"balance.%x": NOT_REACHED, "bmc.K4.residual": "bounded", "len.L0.raw": "bounded",
                   "fsm.carry[f32].shape": "proved"}


def test_the_default_depth_is_a_whole_run_at_the_bound():
    """Task dfg's default depth is the steps of a whole run at the bound (the last transfer's cycle over the fills
    plus RUN_SLACK, as task dfg_ref counts them), not 50 % more: the solver's time per step doubles, and a
    witness run at a smaller n needs no more steps than that."""
    from support.hdl import ROOT, dfg_func, need

    need("iverilog")
    from loom.hdl.formal.depth import DEFAULT_N, RUN_SLACK, trip_cycles

    func, _ = dfg_func(ROOT / "examples" / "dot.scf.mlir")
    whole = trip_cycles(func, DEFAULT_N)
    assert whole is not None and verify.run_depth(func, None) == whole + RUN_SLACK
    assert verify.run_depth(func, 1) == trip_cycles(func, 1) + RUN_SLACK <= verify.run_depth(func, None)


@pytest.mark.sby_slow
def test_the_readme_fault_is_found_at_the_default_depth(tmp_path):
    """README's faulty dot DFG (the memory-control carry on the raw stream) with --rtl-bound 1: task dfg at the
    whole-run depth of n = 1 refutes balance.%x_loop_ctrl as Z3 does (about a minute of CPU)."""
    from support.hdl import ROOT, dfg_func, need

    need("iverilog")
    need("yowasp-sby")
    need("yices-smt2")
    from loom.cli import main
    from loom.verify import VerifyContext, verify_file

    assert main(["compile", "-q", str(ROOT / "examples" / "dot.scf.mlir"), "-o", str(tmp_path)]) == 0
    path = tmp_path / "dot.dfg.mlir"
    text = path.read_text()
    assert text.count("%afterCond, %x_ctrl_t") == 1
    path.write_text(text.replace("%afterCond, %x_ctrl_t", "%willContinue, %x_ctrl_t"))
    (report,) = verify_file(path, VerifyContext())
    z3 = {o.id: o.status for o in report.obligations}
    assert z3["balance.%x_loop_ctrl"] == "refuted"
    func, _ = dfg_func(path)
    rep = verify.check_function(func, "dot", z3, bound=1, keep=tmp_path / "rtl")
    assert rep.dfg_depth == verify.run_depth(func, 1)
    got = {v.id: v for v in rep.verdicts}
    v = got["balance.%x_loop_ctrl"]
    assert v.status == "refuted" and not v.disagrees and v.trace, (v.status, v.detail)
    assert exit_code([rep]) == 1


def test_an_end_of_run_monitor_cannot_reach_a_witness_run_that_never_ends(depths):
    """bad_nested_bound_once deadlocks for n >= 2: Z3 refutes balance.%iacc with n = 2, a run the token simulator
    shows never ending, so the end-of-run monitor (which checks counts when the run has ended) never fires on it
    at any depth -- not reached, not a disagreement; a witness run that completes (n = 1 here) still disagrees,
    and a bmc.* verdict (no end-of-run form) keeps the depth rule."""
    from support.hdl import hand

    func = hand("bad_nested_bound_once")
    rep = RtlReport("triangular", bound=3, verdicts=[
        RtlVerdict("balance.%iacc", "bounded", "refuted", ["top"], None, "held for 63 cycles"),
        RtlVerdict("len.L1.raw", "bounded", "refuted", ["top"], None, "held for 63 cycles"),
        RtlVerdict("bmc.K4.deadlock", "bounded", "refuted", ["top"], None, "bounded: 63 cycles")])
    not_reached(rep, func, {"balance.%iacc": {"n": 2}, "len.L1.raw": {"n": 1}, "bmc.K4.deadlock": {"n": 2}}, 63, 63)
    got = {v.id: v for v in rep.verdicts}
    assert got["balance.%iacc"].status == NOT_REACHED and not got["balance.%iacc"].disagrees
    assert "never ends (the token simulator: deadlock)" in got["balance.%iacc"].detail
    assert got["len.L1.raw"].disagrees and got["bmc.K4.deadlock"].disagrees
