"""issue 26: verify --rtl's default bounded check of the DFG-level monitors is two tasks -- dfg_mem (co-simulation's
memory with at most sby.STALLS stalls, over the whole-run depth plus the stalls) and dfg (any memory timing, at
most sby.FREE_DEPTH cycles) -- because task dfg over the whole-run depth took many minutes (specs/hdl.md, "Limits
and time"). A depth the user gives keeps the single free task."""

from __future__ import annotations

import re
from pathlib import Path

from support.hdl import ROOT, dfg_func, hand, need, sby_says

from loom.hdl.emit import emit, write_all
from loom.hdl.formal import replay, verify
from loom.hdl.formal.depth import DEFAULT_N
from loom.hdl.formal.refenv import BOUND, DONE_BY, STALLS as STALLS_DEFINE
from loom.hdl.formal.sby import FREE_DEPTH, STALLS, SbyVerdict, run_task
from loom.hdl.formal.verify import RtlVerdict, merge_verdicts

DOT = ROOT / "examples" / "dot.scf.mlir"


def test_the_project_has_both_tasks_at_their_depths():
    func, _ = dfg_func(DOT)
    sby = emit(func, "dot", dfg_depth=17, free_depth=12).files["dot.sby"]
    assert "\ndfg: depth 12\n" in sby and f"\ndfg_mem: depth {17 + STALLS}\n" in sby
    defines = f"-DLOOM_REF_ENV -D{STALLS_DEFINE}={STALLS} -D{BOUND}={DEFAULT_N} -DLOOM_STICKY"
    assert f"dfg_mem: verilog_defines {defines}\n" in sby and DONE_BY not in sby
    # one query at the last step (sticky properties keep every earlier cycle's verdict)
    assert f"\ndfg_mem: skip {17 + STALLS - 1}\n" in sby and "dfg_mem: smtbmc --nopresat --unroll yices -- --noincr" in sby
    top = emit(func, "dot", dfg_depth=17).files["dot.sv"]
    # dfg_mem claims the runs at trip counts up to the bound its depth was measured for: n in [0, DEFAULT_N] there
    assert f"`LOOM_ASSUME_ALWAYS(ref_a_bound_in_n, in_n_data <= 64'd`{BOUND})" in top.split(f"`ifdef {BOUND}")[1]
    # with --rtl-bound the top assumes that range for every task: dfg_mem needs no range of its own
    assert f"-D{BOUND}=" not in emit(func, "dot", dfg_depth=17, rtl_bound=2).files["dot.sby"]
    # the stall budget counts refused requests and held-back due responses of every memory port
    assert f"`LOOM_ASSUME_ALWAYS(ref_a_stalls, ref_stalls + ref_stall_now <= 8'd`{STALLS_DEFINE})" in top
    assert set(re.findall(r"4'\((\w+)_req_valid && !\w+_req_ready\)", top)) == {"u_x_data_rd0", "u_y_data_rd0"}
    assert "\ndfg: depth 17\n" in emit(func, "dot", dfg_depth=17).files["dot.sby"]  # loom hdl: as before


def test_merge_keeps_a_refutation_and_both_scopes():
    def v(status, detail="", trace=None):
        return RtlVerdict("balance.%x", status, "proved", ["top"], trace, detail)

    (got,) = merge_verdicts([v("bounded", "held for 18 cycles from reset, mem (bounded, not a proof)")],
                            [v("bounded", "held for 12 cycles from reset, free (bounded, not a proof)")])
    assert got.status == "bounded" and got.detail.startswith("held for 18 cycles from reset, mem; held for 12")
    (got,) = merge_verdicts([v("bounded")], [v("refuted", "fails", "t.vcd")])
    assert (got.status, got.trace) == ("refuted", "t.vcd")
    (got,) = merge_verdicts([v("unknown")], [v("bounded")])
    assert got.status == "unknown"
    (got,) = merge_verdicts([v("refuted", "", "m.vcd")], [v("unknown")])
    assert (got.status, got.trace) == ("refuted", "m.vcd")


def _tasks(monkeypatch, **kw):
    """The (task, depth) pairs check_function runs on dot, every SymbiYosys task answered PASS."""
    ran = []

    def fake(wd, sby, task, timeout=None, progress=None, depth=None):
        ran.append((task, depth))
        return SbyVerdict(task, "pass", 0.0, [], None, "")

    monkeypatch.setattr(verify, "sby_run_task", fake)
    monkeypatch.setattr(verify, "run_depth", lambda func, bound, buffers=None: 17)
    func, _ = dfg_func(DOT)
    rep = verify.check_function(func, "dot", {}, **kw)
    return rep, [(t, d) for t, d in ran if t.startswith("dfg")]


def test_the_default_runs_dfg_mem_over_the_whole_run_and_dfg_over_a_prefix(monkeypatch):
    rep, ran = _tasks(monkeypatch)
    assert ran == [("dfg_mem", 17 + STALLS), ("dfg", min(17, FREE_DEPTH))]
    mons = [v for v in rep.verdicts if v.id.split(".")[0] in ("len", "balance")]
    assert mons and all(v.status == "bounded" and "co-simulation's memory" in v.detail
                        and "any memory timing" in v.detail for v in mons)
    text = verify.human(rep)
    assert f"task dfg_mem, bounded model check of {17 + STALLS} cycles" in text and "task dfg, bounded model check of 12" in text
    assert verify.to_json(rep)["dfg_mem"] == "proved" and verify.to_json(rep)["free_depth"] == 12


def test_a_run_too_long_for_dfg_mem_lowers_its_argument_range(monkeypatch):
    """matmul's whole run at n = 3 is 99 steps (one yices query had no answer), at n = 2 37: without --rtl-bound task
    dfg_mem takes the largest n <= DEFAULT_N whose run fits MEM_STEPS, its depth, and every report names [0, n]."""
    from loom.hdl.formal.depth import MEM_STEPS

    depths = {3: MEM_STEPS + 30, 2: MEM_STEPS - 20, 1: 13}
    ran = []

    def fake(wd, sby, task, timeout=None, progress=None, depth=None):
        ran.append((task, depth))
        return SbyVerdict(task, "pass", 0.0, [], None, "")

    monkeypatch.setattr(verify, "sby_run_task", fake)
    monkeypatch.setattr(verify, "run_depth", lambda func, bound, buffers=None: depths[DEFAULT_N if bound is None else bound])
    func, _ = dfg_func(DOT)
    assert verify.default_depth(func) == (2, MEM_STEPS - 20)
    rep = verify.check_function(func, "dot", {})
    assert rep.mem_n == 2 and ("dfg_mem", MEM_STEPS - 20 + STALLS) in ran
    mons = [v for v in rep.verdicts if v.id.startswith("balance.")]
    assert mons and all("memref sizes in [0, 2]" in v.detail for v in mons)
    assert "a whole run at trip counts up to 2)" in verify.human(rep)
    depths[2] = MEM_STEPS + 1  # nothing fits: n = 1, whatever its depth
    assert verify.default_depth(func) == (1, 13)
    depths[3] = MEM_STEPS - STALLS  # fits: the default range
    assert verify.default_depth(func) == (DEFAULT_N, MEM_STEPS - STALLS)
    # fixed trip counts longer than MEM_STEPS even at n = 1 (gemm.c: 1609): the first MEM_STEPS cycles, said as such
    depths.update({3: 1609, 2: 1609, 1: 1609})
    ran.clear()
    rep = verify.check_function(func, "dot", {"balance.%x_loop_ctrl": "refuted"})
    assert (rep.mem_n, rep.run_steps) == (1, 1609) and ("dfg_mem", MEM_STEPS) in ran
    assert "not a whole run: one needs 1609 cycles" in verify.human(rep)
    v = next(v for v in rep.verdicts if v.id == "balance.%x_loop_ctrl")
    assert v.status == verify.NOT_REACHED and not v.disagrees, v  # Z3's witness run is longer than the check
    # and whole runs at n = 1 in RTL simulation, every monitor live (loom.hdl.formal.replay.whole_runs)
    need("iverilog")
    runs = 1 + len(replay.SEEDS)
    assert rep.simulated is not None and len(rep.simulated.complete) == runs and not rep.simulated.fired
    assert f"simulated: {runs} whole runs held every monitor" in verify.human(rep)
    assert v.detail.endswith("Z3's witness gives no inputs")  # no witness was given: nothing to replay


def test_a_depth_the_user_gives_is_the_free_task_alone(monkeypatch):
    _, ran = _tasks(monkeypatch, dfg_depth=9)
    assert ran == [("dfg", 9)]


def test_dfg_mem_finds_the_war_race_with_z3s_id(tmp_path):
    """bad_missing_edge_war (the store may overtake the load): task dfg_mem at the whole-run depth fails with the
    label of Z3's refutation, and writes the counterexample's VCD."""
    need("yowasp-sby")
    need("yices-smt2")
    func = hand("bad_missing_edge_war")
    e = emit(func, "war", dfg_depth=16, free_depth=12)
    write_all(tmp_path, e.files)
    v = run_task(tmp_path, "war.sby", "dfg_mem", timeout=900)
    label = next(m.label for m in e.design.monitors.props if m.obligation == "mem.a.order.ld0<st0")
    assert v.status == "fail" and [f.rsplit(".", 1)[-1] for f in v.failed] == [label], sby_says(v)
    assert v.trace and Path(v.trace).stat().st_size > 0


def test_a_witness_beyond_dfg_mems_arguments_is_not_reached(monkeypatch):
    """Task dfg_mem assumes arguments in [0, DEFAULT_N]: a pass there says nothing of Z3's witness at n = 5 unless
    task dfg's free prefix contains that whole run; then it is `not reached` (with the --rtl-bound to give), never
    DISAGREE; a witness inside the range stays a disagreement."""
    monkeypatch.setattr(verify, "run_depth", lambda func, bound, buffers=None: 10 + 3 * bound)
    func, _ = dfg_func(DOT)
    ok = SbyVerdict("dfg_mem", "pass", 0.0, [], None, "")

    def report(n):
        rep = verify.RtlReport("dot", mem=ok, free_depth=12)
        rep.verdicts = [RtlVerdict("balance.%x", "bounded", "refuted", ["top"])]
        verify.not_reached(rep, func, {"balance.%x": {"n": n}}, 10 + 3 * DEFAULT_N, None)
        return rep.verdicts[0]

    far = report(DEFAULT_N + 2)
    assert far.status == verify.NOT_REACHED and f"[0, {DEFAULT_N}]" in far.detail
    assert f"--rtl-bound {DEFAULT_N + 2}" in far.detail and not far.disagrees
    near = report(DEFAULT_N)
    assert near.status == "bounded" and near.disagrees


def test_a_memory_answering_in_the_request_cycle_keeps_its_own_order(tmp_path):
    """ok_memory_ports_2d: an on-chip memory answers a store in the cycle it is made, and the transparent channels
    let the next store of the chain fire in that cycle too. Its self-order monitors (st0 against its own earlier
    iterations) counted that done as an earlier request's and failed at step 4, where Z3 proves the order: with
    the done of the current request allowed, task dfg passes."""
    need("yowasp-sby")
    need("yices-smt2")
    e = emit(hand("ok_memory_ports_2d"), "p2d", free_depth=6)
    write_all(tmp_path, e.files)
    v = run_task(tmp_path, "p2d.sby", "dfg", timeout=900)
    assert v.status == "pass", sby_says(v)
