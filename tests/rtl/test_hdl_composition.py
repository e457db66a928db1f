"""issue 26: tasks top and top_in prove the composition's assume-guarantee premises (specs/hdl.md, "Composition"):
every internal input assumption is asserted, given the guarantees tasks components and fifo prove; the
environment's assumptions (an argument's FIFO, a memory response) stay assumed. A wiring fault the old task top
assumed away (a fork whose producer sees ready while one of its FIFOs is full) is refuted."""

from __future__ import annotations

import re

from support.hdl import SUM, dfg_func, need, sby_says

from loom.hdl.emit import emit, write_all
from loom.hdl.formal.sby import run_task
from loom.hdl.netlist import AG_IN, AG_OUT, ag_cut


def _sum(tmp_path):
    src = tmp_path / "sum.scf.mlir"
    src.write_text(SUM)
    func, _ = dfg_func(src)
    return emit(func, "sum")


def test_the_premises_select_internal_assumptions_only(tmp_path):
    e = _sum(tmp_path)
    sby = e.files["sum.sby"]
    # every FIFO's input assumption is internal (an argument's protocol is assumed on the top's port instead)
    assert "top: chformal -assert -assert2assume n:u_*.p_* n:f_*.p_*\n" in sby
    assert "top: chformal -assume -assume2assert n:f_*.a_*\n" in sby
    assert "`LOOM_ASSUME_NEXT(e_in_n_valid_stays, in_n_valid && !in_n_ready, in_n_valid)" in e.files["sum.sv"]
    # top_in: the components' guarantees and the FIFOs' input assumptions are no premise of the components' inputs
    assert "top_in: chformal -assert -remove n:u_*.p_* n:f_*.p_ptrs_* n:f_*.p_count_*\n" in sby
    assert "top_in: chformal -assume -remove n:f_*.a_*\n" in sby
    assert "top_in: chformal -assume -assume2assert n:u_*.a_* n:u_*.a_*_resp_* %d\n" in sby
    assert "\ntop: depth 2\n" in sby and "\ntop_in: depth 2\n" in sby
    # both cut the components out (the always-valid sources stay) and read their handshake properties restated on
    # the top's wires: a cut component's output guarantees assumed in top, its input assumptions asserted in top_in
    cut = ag_cut(e.design)
    assert cut and f"top: verilog_defines -D{AG_OUT}\n" in sby and f"top_in: verilog_defines -D{AG_IN}\n" in sby
    kept = [i.name for i in e.design.instances if i.name not in cut]
    assert re.search(r"^top: cutpoint c:u_\*" + "".join(f" c:{k} %d" for k in kept) + "$", sby, re.M)
    top = e.files["sum.sv"]
    for i in e.design.instances:
        if i.name in cut and i.component.machine.outputs:
            assert f"`LOOM_ASSUME_NEXT(g_{i.name}_" in top
    assert "`LOOM_ASSERT_NEXT(i_u_" in top.split(f"`elsif {AG_IN}")[1]


def test_the_premises_hold_and_a_fork_that_drops_a_token_fails_them(tmp_path):
    need("yowasp-sby")
    e = _sum(tmp_path)
    good = tmp_path / "good"
    write_all(good, e.files)
    for task in ("top", "top_in"):
        v = run_task(good, "sum.sby", task, timeout=900)
        assert v.status == "pass", (task, sby_says(v))
    # the producer of a forked value sees ready when only its first FIFO can take the token: the second FIFO's
    # input valid falls before that FIFO took the token
    forks = re.findall(r"^  assign (v_\w+)_ready = (f_\w+)_in_ready && (f_\w+)_in_ready;$", e.files["sum.sv"], re.M)
    # an argument's fork (n) and an operation's (a cond_br's true side)
    assert {"v_n", "v_ctrl_t"} <= {f[0] for f in forks}, forks
    for value, first, second in (f for f in forks if f[0] in ("v_n", "v_ctrl_t")):
        bad = dict(e.files)
        line = f"  assign {value}_ready = {first}_in_ready && {second}_in_ready;"
        bad["sum.sv"] = bad["sum.sv"].replace(line, f"  assign {value}_ready = {first}_in_ready;")
        wd = tmp_path / value
        write_all(wd, bad)
        v = run_task(wd, "sum.sby", "top", timeout=900)
        assert v.status in ("fail", "unknown") and f"{second}.a_in_valid_stays" in " ".join(v.failed), sby_says(v)
