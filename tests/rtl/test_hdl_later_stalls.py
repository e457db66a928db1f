"""issue 26's coverage gap: a schedule-dependent monitor (mem.*.order, mem.access.*, done.postdom) failing only after
cycle sby.FREE_DEPTH and only with more than sby.STALLS memory stalls is in neither bounded task (dfg: every memory
timing over a prefix; dfg_mem: at most STALLS stalls over the whole run). specs/hdl.md, "Later stalls": Z3's order
proof covers every schedule of the DFG, and the RTL refines the DFG for every memory timing, so a Z3 proof covers the
RTL there; a Z3 refutation that the bounded pair held is `not reached`, never DISAGREE, and its witness is replayed
in RTL simulation under random memory stalls. tests/data/hdl_order/late_race.dfg.mlir is order-wrong only with 2+
stalls after cycle 26; late_order.dfg.mlir is its ordered twin."""

from __future__ import annotations

import pytest
from support.hdl import hand, need, sby_says
from support.paths import DATA

from loom.hdl.emit import emit, write_all
from loom.hdl.formal import replay, verify
from loom.hdl.formal.sby import FREE_DEPTH, STALLS, SbyVerdict, run_task
from loom.hdl.formal.verify import NOT_REACHED, RtlReport, RtlVerdict, not_reached
from loom.hdl.formal.replay import SimRun

ORDER = DATA / "hdl_order"
OID = "mem.a.order.ld0<st0"


def _func(name: str):
    from support.hdl import dfg_func

    return dfg_func(ORDER / f"{name}.dfg.mlir")[0]


def _report(status: str = "bounded") -> RtlReport:
    rep = RtlReport("late_race", mem=SbyVerdict("dfg_mem", "pass", 0.0, [], None, ""), free_depth=FREE_DEPTH)
    rep.verdicts = [RtlVerdict(OID, status, "refuted", ["top"], None, "held"),
                    RtlVerdict("balance.%x", "bounded", "refuted", ["top"], None, "held")]
    return rep


def test_a_refuted_order_form_the_bounded_pair_held_is_not_reached(monkeypatch):
    """Z3 refutes, both bounded tasks held: not a disagreement (their memory timings are not all of Z3's); a stalled
    replay that shows the monitor failing settles it as refuted; a count form (schedule-free) still disagrees."""
    monkeypatch.setattr(verify, "run_depth", lambda func, n, buffers=None: 30)
    asked = []

    def runs(oid, stall=None):
        asked.append(stall)
        fired = {"ob_order": 91} if stall == 3 else {}
        return SimRun("completed", 117, fired if oid == OID else {}, 0, "iverilog")

    rep = _report()
    not_reached(rep, None, {OID: {}, "balance.%x": {"n": 1}}, 30, None, replay_with=runs,
                labels={OID: ["ob_order"], "balance.%x": ["ob_bal"]})
    got = {v.id: v for v in rep.verdicts}
    assert got[OID].status == "refuted" and not got[OID].disagrees and got[OID].evidence == "simulation"
    assert "under --stall 3" in got[OID].detail and f"at most {STALLS} memory stall(s)" in got[OID].detail
    assert asked == [None, 1, 2, 3]  # the stall-free replay first, then the seeds in turn up to the first that fails
    assert got["balance.%x"].disagrees  # token counts do not depend on the schedule: a real disagreement
    rep = _report()
    not_reached(rep, None, {OID: {}}, 30, None, replay_with=lambda oid, stall=None: SimRun("completed", 40, {}, 0, "x"),
                labels={OID: ["ob_order"]})
    v = rep.verdicts[0]
    assert v.status == NOT_REACHED and not v.disagrees and "another memory timing" in v.detail, v.detail
    assert verify.category(v) == "not reached"


def test_an_end_of_run_witness_without_its_memref_still_runs():
    """bad_capture_found_le: Z3's balance witness names n=0, k=0 but not the memref a; the token simulator's run of it
    (a sized by the largest argument, a ramp) deadlocks, so the end-of-run monitor is not reached (was DISAGREE)."""
    func = hand("bad_capture_found_le")
    assert verify._never_ends(func, {"n": 0, "k": 0}) == "deadlock"
    assert verify._never_ends(func, {"n": 3, "k": 1}) is None
    # the audit's other two: Z3's balance witnesses n=1 and n=2 name no memref either, and deadlock
    assert verify._never_ends(hand("bad_extra_done_edge"), {"n": 1}) == "deadlock"
    assert verify._never_ends(hand("bad_done_exits_swapped_const"), {"n": 2}) == "deadlock"
    # a witness naming no arguments (trip counts only) runs at DEFAULT_N: it was a DISAGREE in the audit
    assert verify._never_ends(hand("bad_done_exits_swapped_const"), None) == "deadlock"
    assert verify._never_ends(hand("ok_fork_sum"), None) is None


def test_a_witness_run_stopped_by_a_fault_or_still_firing_has_no_end():
    """The session-20 audit's last two DISAGREEs: bad_mux_select_range's balance witness x=2 stops at a select out of
    range (the DFG run is undefined past it), bad_merge_spin's c=False livelocks; neither run reaches the end an
    end-of-run monitor waits for. A livelock decides only when the depth's cycles cannot fire WITNESS_STEPS ops."""
    assert verify._never_ends(hand("bad_mux_select_range"), {"x": 2}, 6) == (
        "stops at the runtime fault RT_HANDSHAKE_MUX_SELECT_RANGE")
    assert verify._never_ends(hand("bad_mux_select_range"), {"x": 1}, 6) is None  # completes
    spin = hand("bad_merge_spin")
    assert verify._never_ends(spin, {"c": False}, 6).startswith("still firing after")
    assert verify._never_ends(spin, {"c": False}, None) is None  # no depth: nothing bounds the RTL run
    assert verify._never_ends(spin, {"c": False}, verify.WITNESS_STEPS) is None  # the RTL could have fired as much
    assert verify._never_ends(spin, {"c": True}, 6) is None


def test_the_late_race_shows_only_under_stalls_in_simulation():
    """late_race's RTL under co-simulation's memory holds the order monitor; under random stalls it fails late."""
    need("iverilog")
    func = _func("late_race")
    e = emit(func, "lr", dfg_depth=34, free_depth=FREE_DEPTH)
    label = next(m.label for m in e.design.monitors.props if m.obligation == OID)
    inputs = {"a": [1, 2, 3, 4]}
    assert replay.run(e, func, inputs).fired == {}
    hits = {s: replay.run(e, func, inputs, stall=s).fired.get(label) for s in replay.SCHEDULE_SEEDS}
    assert any(c is not None and c > FREE_DEPTH for c in hits.values()), hits
    ok = _func("late_order")
    e2 = emit(ok, "lo", dfg_depth=34, free_depth=FREE_DEPTH)
    assert all(not replay.run(e2, ok, inputs, stall=s).fired for s in replay.SCHEDULE_SEEDS)


@pytest.mark.sby_slow
def test_the_bounded_pair_misses_the_late_race_that_two_stalls_show(tmp_path):
    """The gap is real: dfg (12 cycles, any timing) and dfg_mem (1 stall) pass late_race; dfg_mem with 2 stalls fails
    with Z3's ID. Its ordered twin passes dfg_mem with 2 stalls (the refinement argument's claim, tested)."""
    need("yowasp-sby")
    need("yices-smt2")
    func = _func("late_race")
    depth = verify.run_depth(func, None)
    for stalls, want in ((STALLS, "pass"), (2, "fail")):
        e = emit(func, "lr", dfg_depth=depth, free_depth=FREE_DEPTH, stalls=stalls)
        wd = tmp_path / f"s{stalls}"
        write_all(wd, e.files)
        v = run_task(wd, "lr.sby", "dfg_mem", timeout=900)
        assert v.status == want, sby_says(v)
        if want == "fail":
            label = next(m.label for m in e.design.monitors.props if m.obligation == OID)
            assert [f.rsplit(".", 1)[-1] for f in v.failed] == [label], sby_says(v)
        else:
            assert run_task(wd, "lr.sby", "dfg", timeout=900).status == "pass"
    ok = _func("late_order")
    e = emit(ok, "lo", dfg_depth=verify.run_depth(ok, None), free_depth=FREE_DEPTH, stalls=2)
    write_all(tmp_path / "ok", e.files)
    v = run_task(tmp_path / "ok", "lo.sby", "dfg_mem", timeout=900)
    assert v.status == "pass", sby_says(v)
