"""DFG-level RTL monitors (loom/hdl/monitors/__init__.py): one SVA label per loom verify obligation, in both backends;
a bounded SymbiYosys run refutes a racy DFG with the same ID as Z3; verify --rtl pairs the verdicts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest


from loom.hdl.emit import emit, write_all
from loom.hdl.monitors import label_of
from loom.hdl.formal.sby import SbyVerdict, run_task
from loom.hdl.formal.verify import RtlReport, human, monitor_verdicts
from loom.verify.driver import verify_function
from loom.verify.obligation import VerifyContext

from support.paths import DATA
from support.hdl import hand
from support.hdl import EXAMPLES, ROOT, dfg_func, need, sby_says, stem

HAND = DATA / "handwritten"
# families with a cycle-level form in the top (every class.* of the examples has one too: asserted below)
MONITORED = re.compile(r"^(len\.L\d+\.(raw|after_cond)|balance\..+|class\..+|mem\..+\.order\..+<.+|mem\.access\..+|"
                       r"done\.postdom|fsm\.stream\.pre\..+|fsm\.stream\[.+\]\.terminates)$")


def test_labels_are_legal_unique_and_deterministic():
    taken: set[str] = set()
    ids = ["mem.y.order.ld1<st0", "balance.%x_loop_ctrl", "class.%index", "mem.indep.x|y", "refine.load@7:7",
           "balance.%x-loop.ctrl"]
    labels = [label_of(i, taken) for i in ids]
    assert labels[:3] == ["ob_mem_y_order_ld1_lt_st0", "ob_balance_x_loop_ctrl", "ob_class_index"]
    assert all(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", x) for x in labels)
    assert len(set(labels)) == len(labels)
    assert label_of("balance.%x_loop_ctrl", set()) == labels[1]


@pytest.mark.parametrize("path", EXAMPLES, ids=stem)
def test_every_monitored_obligation_of_verify_has_its_property(path, tmp_path):
    """Each len/balance/mem order/mem access/done.postdom obligation that loom verify reports is one labelled
    assertion in the top, registered in props.json with its exact ID and the file:line of its label."""
    func, _ = dfg_func(path)
    ids = {o.id for o in verify_function(func, VerifyContext(),
                                         checkers=("lemmas", "lengths", "structure", "memory")).obligations}
    e = emit(func, stem(path))
    mons = e.design.monitors.props
    got = {m.obligation for m in mons}
    assert got <= ids, got - ids
    want = {i for i in ids if MONITORED.match(i)}
    assert want <= got, want - got
    write_all(tmp_path, e.files)
    doc = json.loads((tmp_path / f"{stem(path)}.props.json").read_text())
    dfg = [p for p in doc["properties"] if p["kind"] == "dfg"]
    assert sorted(p["obligation"] for p in dfg) == sorted(m.obligation for m in mons)
    lines = (tmp_path / f"{stem(path)}.sv").read_text().splitlines()
    for p in dfg:
        label = p["id"].split(".", 1)[1]
        assert f"`LOOM_ASSERT_ALWAYS({label}," in lines[p["line"] - 1]
        assert p["mode"] == "bounded" and p["dfg_loc"]
    assert emit(func, stem(path)).files == e.files  # deterministic


def test_verify_checkers_filter_keeps_the_ids():
    """The test above asks verify_function for three checkers only; the full run has the same IDs for them."""
    func, _ = dfg_func(ROOT / "examples" / "saxpy.scf.mlir")
    some = {o.id for o in verify_function(func, VerifyContext(), checkers=("lengths", "structure", "memory")).obligations}
    full = {o.id for o in verify_function(func, VerifyContext()).obligations}
    assert some <= full and "len.L0.raw" in some and "mem.y.order.ld1<st0" in some


@pytest.mark.parametrize("name", ["saxpy", "matmul", "find_first"])
def test_monitors_elaborate_with_pyslang_without_new_diagnostics(name):
    from loom.hdl.lint import slang_diagnostics

    func, _ = dfg_func(ROOT / "examples" / f"{name}.scf.mlir")
    for sva in ("full", "yosys"):
        e = emit(func, name, sva=sva)
        with_m = slang_diagnostics(e.files, full=sva == "full")
        without = slang_diagnostics(e.files, full=sva == "full", defines=())
        assert [k for k, _ in with_m if k == "error"] == []
        assert len(with_m) == len(without), [t for _, t in with_m if "lm_" in t or "ob_" in t][:3]
        assert "`LOOM_ASSERT_ALWAYS(ob_len_L0_raw," in e.files[f"{name}.sv"]


def test_a_broken_monitor_is_caught_by_pyslang():
    from loom.hdl.lint import slang_diagnostics

    func, _ = dfg_func(ROOT / "examples" / "saxpy.scf.mlir")
    e = emit(func, "saxpy", sva="full")
    e.files["saxpy.sv"] = e.files["saxpy.sv"].replace("!lm_end ||", "!lm_no_such ||", 1)
    assert any(k == "error" for k, _ in slang_diagnostics(e.files))


def test_monitor_verdicts_pair_with_z3_and_disagree_loudly():
    func, _ = dfg_func(ROOT / "examples" / "saxpy.scf.mlir")
    mons = emit(func, "saxpy").design.monitors.props
    z3 = {m.obligation: "proved" for m in mons}
    ok = monitor_verdicts(SbyVerdict("dfg", "pass", 1.0, [], None, ""), mons, z3, 55)
    assert {v.status for v in ok} == {"bounded"} and not any(v.disagrees for v in ok)
    bad = monitor_verdicts(SbyVerdict("dfg", "fail", 1.0, ["saxpy_dfg.ob_balance_return"], "t.vcd", ""), mons, z3, 55)
    by = {v.id: v for v in bad}
    assert by["balance.return"].status == "refuted" and by["balance.return"].disagrees
    assert by["len.L0.raw"].status == "unknown" and not by["len.L0.raw"].disagrees
    rep = RtlReport("saxpy", verdicts=bad, dfg=SbyVerdict("dfg", "fail", 1.0, [], None, ""), dfg_depth=55)
    text = human(rep)
    assert "DISAGREE rtl.balance.return" in text and "bounded model check of 55 cycles" in text


def test_race_dfg_fails_in_sby_with_its_z3_id(tmp_path):
    """bad_missing_edge_war: Z3 refutes mem.a.order.ld0<st0; the bounded RTL check fails that label."""
    need("yowasp-sby")
    need("yices-smt2")
    func = hand("bad_missing_edge_war")
    refuted = {o.id for o in verify_function(func, VerifyContext(), checkers=("memory",)).obligations
               if o.status == "refuted"}
    assert refuted == {"mem.a.order.ld0<st0"}
    e = emit(func, "war", rtl_bound=3, dfg_depth=16)
    write_all(tmp_path, e.files)
    v = run_task(tmp_path, "war.sby", "dfg", timeout=900)
    assert v.status == "fail", sby_says(v)
    label = next(m.label for m in e.design.monitors.props if m.obligation == "mem.a.order.ld0<st0")
    assert [f.rsplit(".", 1)[-1] for f in v.failed] == [label]
    assert v.trace and Path(v.trace).exists()


def test_correct_twin_holds_at_the_same_depth(tmp_path):
    """ok_war_chain (the race DFG with its load -> store edge) shows no violation at the same depth: the failure
    above comes from the race, not from the monitors (a bounded check; a whole run needs depth 52 at N = 3)."""
    need("yowasp-sby")
    need("yices-smt2")
    func = hand("ok_war_chain")
    e = emit(func, "warok", rtl_bound=3, dfg_depth=16)
    assert any(m.obligation == "mem.a.order.ld0<st0" for m in e.design.monitors.props)
    write_all(tmp_path, e.files)
    v = run_task(tmp_path, "warok.sby", "dfg", timeout=900)
    assert v.status == "pass", sby_says(v)


ORDER = DATA / "hdl_order"


def _with_source(name: str, monkeypatch):
    """A DFG of tests/data/hdl_order written with --debug-info, and its SCF source (locations are relative)."""
    from loom.verify.driver import functions_to_verify

    monkeypatch.chdir(ORDER)
    scf = f"{name.split('_')[0]}.scf.mlir"
    (func, src), = functions_to_verify(Path(f"{name}.dfg.mlir"), source=Path(scf))
    return func, src


def test_order_monitor_states_program_order(monkeypatch):
    """With the source, mem.a.order.ld0<st0 is the request/done count form in the source's order (ld0 first),
    the self pair st0<st0 is 'every earlier request completed'; without it, the chain's order."""
    func, src = _with_source("war_ok", monkeypatch)
    mons = {m.obligation: m for m in emit(func, "w", source=src, buffers="uniform").design.monitors.props}
    ld_st = mons["mem.a.order.ld0<st0"]
    assert "program order" in ld_st.statement and "source" in ld_st.statement
    assert "lm_n_v_a_lddone >= (lm_n_v_st_a_addr + 16'd1)" in ld_st.cond
    assert "lm_n_v_a_stdone >= lm_n_v_x_addr" in ld_st.cond
    assert "lm_n_v_a_stdone == lm_n_v_st_a_addr" in mons["mem.a.order.st0<st0"].cond
    # with transparent FIFOs (--buffers opt) a done and the request it enables can share a cycle: the done
    # counts include the current cycle's transfer, which may be the current request's own (a memory that answers
    # at once), so they reach at least the earlier requests (tests/rtl/test_hdl_dfg_mem.py runs it)
    opt = {m.obligation: m for m in emit(func, "w", source=src).design.monitors.props}
    assert ("(lm_n_v_a_stdone + 16'((v_a_stdone_valid && v_a_stdone_ready))) >= lm_n_v_st_a_addr"
            in opt["mem.a.order.st0<st0"].cond)


def test_order_monitor_keeps_mutual_exclusion_where_instances_do_not_correspond():
    """bad_missing_edge_war: the load and store take forks of one ctrl token (parallel): no order is derivable,
    the form stays mutual exclusion and says why."""
    mons = {m.obligation: m for m in emit(hand("bad_missing_edge_war"), "war").design.monitors.props}
    m = mons["mem.a.order.ld0<st0"]
    assert m.statement.startswith("mutual exclusion") and "parallel ctrl tokens" in m.statement


def test_swapped_order_fails_in_sby_with_z3_id(tmp_path, monkeypatch):
    """war_swapped runs the store of a[i] before the load the source puts first, never overlapping them: Z3
    (with --source) refutes mem.a.order.ld0<st0 and the program-order monitor fails with that label."""
    need("yowasp-sby")
    need("yices-smt2")
    func, src = _with_source("war_swapped", monkeypatch)
    # (the source's a[i] has no size precondition, so its safe.load bounds are refuted too: not the RTL's business)
    refuted = {o.id for o in verify_function(func, VerifyContext(), source=src).obligations if o.status == "refuted"
               and o.kind != "safety"}
    assert refuted == {"mem.a.order.ld0<st0"}
    e = emit(func, "sw", rtl_bound=1, dfg_depth=12, source=src)
    write_all(tmp_path, e.files)
    v = run_task(tmp_path, "sw.sby", "dfg", timeout=600)
    label = next(m.label for m in e.design.monitors.props if m.obligation == "mem.a.order.ld0<st0")
    assert v.status == "fail" and [f.rsplit(".", 1)[-1] for f in v.failed] == [label], sby_says(v)


@pytest.mark.sby_slow
def test_mutual_exclusion_cannot_see_the_swapped_order(tmp_path, monkeypatch):
    """The old form of the same pair (mutual exclusion of outstanding requests) holds on war_swapped over the
    same bound: a wrong order without overlap is invisible to it."""
    need("yowasp-sby")
    need("yices-smt2")
    import loom.verify.memory.shape as shape
    from loom.verify.memory.shape import OrderShape

    func, src = _with_source("war_swapped", monkeypatch)
    # DfgFacts imports order_shape where it computes the order shapes, so the module's own name is the one to patch
    monkeypatch.setattr(shape, "order_shape", lambda *a: OrderShape("exclusive", why="forced for the test"))
    e = emit(func, "sw", rtl_bound=1, dfg_depth=12, source=src)
    assert next(m for m in e.design.monitors.props if m.obligation == "mem.a.order.ld0<st0").statement.startswith(
        "mutual exclusion")
    write_all(tmp_path, e.files)
    v = run_task(tmp_path, "sw.sby", "dfg", timeout=600)
    assert v.status == "pass", sby_says(v)


@pytest.mark.parametrize(("depth", "timeout"), [(12, 600), pytest.param(24, 900, marks=pytest.mark.sby_slow)])
def test_program_order_twin_holds(tmp_path, monkeypatch, depth, timeout):
    """war_ok (the same kernel, chained in the source's order) shows no violation of any monitor at bound 1. At
    depth 24 (~85 s, marker sby_slow) runs with n = 0 and n = 1 reach their end, so every end-of-run form
    (class, balance, len) is checked, not only the per-cycle ones."""
    need("yowasp-sby")
    need("yices-smt2")
    func, src = _with_source("war_ok", monkeypatch)
    e = emit(func, "ok", rtl_bound=1, dfg_depth=depth, source=src)
    write_all(tmp_path, e.files)
    v = run_task(tmp_path, "ok.sby", "dfg", timeout=timeout)
    assert v.status == "pass", sby_says(v)


def test_stream_precondition_fails_in_sby_with_z3_id(tmp_path):
    """bad_stream_mul_zero: a '*=' stream from 0 never moves; Z3 refutes fsm.stream.pre.%ai and the monitor on
    the stream's operands fails with that label when the stream takes them."""
    need("yowasp-sby")
    need("yices-smt2")
    func = hand("bad_stream_mul_zero")
    refuted = {o.id for o in verify_function(func, VerifyContext()).obligations if o.status == "refuted"}
    assert refuted == {"fsm.stream.pre.%ai"}
    e = emit(func, "mz", dfg_depth=6)
    mons = {m.obligation: m for m in e.design.monitors.props}
    assert "fsm.stream[*=,<].terminates" in mons  # the progress relation: x2 > x, which 0 * 2 = 0 breaks
    write_all(tmp_path, e.files)
    v = run_task(tmp_path, "mz.sby", "dfg", timeout=600)
    assert v.status == "fail" and [f.rsplit(".", 1)[-1] for f in v.failed] == [mons["fsm.stream.pre.%ai"].label]


def test_class_monitor_states_the_consumers_clock():
    """bad_raw_index_body feeds the raw index (N+1 tokens) to a body-local load: Z3 refutes class.%idx2#1,
    whose consumers require the body clock; the monitor compares with the body count (true tokens of the raw
    condition), not with the raw clock the channel actually has."""
    mons = {m.obligation: m for m in emit(hand("bad_raw_index_body"), "rib").design.monitors.props}
    m = mons["class.%idx2#1"]
    assert m.statement.startswith("body class") and "lm_np1_v_cont" in m.cond


@pytest.mark.sby_slow
def test_class_fails_in_sby_with_z3_id(tmp_path):
    need("yowasp-sby")
    need("yices-smt2")
    func = hand("bad_raw_index_body")
    refuted = {o.id for o in verify_function(func, VerifyContext()).obligations if o.status == "refuted"}
    e = emit(func, "rib", rtl_bound=1, dfg_depth=28)
    write_all(tmp_path, e.files)
    v = run_task(tmp_path, "rib.sby", "dfg", timeout=900)
    by_label = {m.label: m.obligation for m in e.design.monitors.props}
    failed = {by_label[f.rsplit(".", 1)[-1]] for f in v.failed}
    assert v.status == "fail" and "class.%idx2#1" in failed and failed <= refuted, (failed, refuted, sby_says(v))


def test_conditional_access_order_counts_its_branch(monkeypatch):
    """cwar: the store runs only in even iterations, after the load: the instance a store request belongs to is
    its branch's firing count, so the form stays program order (not mutual exclusion)."""
    func, src = _with_source("cwar_ok", monkeypatch)
    m = {m.obligation: m for m in emit(func, "c", source=src, buffers="uniform").design.monitors.props}[
        "mem.a.order.ld0<st0"]
    assert "a branch decides" in m.statement
    assert "lm_n_v_a_lddone >= (lm_n_v_a_ctrl_t_0 + lm_n_v_a_ctrl_f_0)" in m.cond
    assert "lm_n_v_a_stdone >= lm_n_v_a_ctrl_t_0" in m.cond


@pytest.mark.sby_slow
def test_conditional_swapped_order_fails_in_sby_with_z3_id(tmp_path, monkeypatch):
    """cwar_swapped stores a[i] (even i) before loading it: Z3 refutes mem.a.order.ld0<st0 and so does SBY;
    cwar_ok holds over the same 18 cycles (n <= 1: iteration 0 is even, so the store runs)."""
    need("yowasp-sby")
    need("yices-smt2")
    for name, want in (("cwar_swapped", "fail"), ("cwar_ok", "pass")):
        func, src = _with_source(name, monkeypatch)
        # (the source's a[i] has no size precondition: its safety findings are not the order monitor's business)
        refuted = {o.id for o in verify_function(func, VerifyContext(), source=src).obligations
                   if o.status == "refuted" and o.kind != "safety"}
        assert refuted == ({"mem.a.order.ld0<st0"} if want == "fail" else set())
        e = emit(func, "c", rtl_bound=1, dfg_depth=18, source=src)
        write_all(tmp_path / name, e.files)
        v = run_task(tmp_path / name, "c.sby", "dfg", timeout=900)
        assert v.status == want, (name, sby_says(v))
        if want == "fail":
            label = next(m.label for m in e.design.monitors.props if m.obligation == "mem.a.order.ld0<st0")
            assert [f.rsplit(".", 1)[-1] for f in v.failed] == [label]
