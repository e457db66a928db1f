"""Helper invariants of the unbounded DFG-monitor proof (loom/hdl/invariants.py): the count relations come from
the operator tables, every helper is an assertion, and task dfg_prove of <stem>_prove.sby proves the monitors by
k-induction (a faulty DFG does not pass it)."""

from __future__ import annotations

import re

import pytest

from hdl_support import ROOT, dfg_func, need
from loom.hdl.emit import emit, write_all
from loom.hdl.invariants import TASK, _left_null_space
from loom.hdl.sby import run_task


def test_left_null_space_of_a_cond_br_table():
    """cond_br: rules to_true / to_false read cond and data, emit true or false: C(cond) = C(data) =
    P(true) + P(false), so the relations are C(cond) - C(data) = 0 and C(data) - P(true) - P(false) = 0."""
    rows = [[1, 1], [1, 1], [1, 0], [0, 1]]  # C(cond), C(data), P(true), P(false) per rule
    basis = _left_null_space(rows)
    assert len(basis) == 2
    for y in basis:
        assert all(sum(y[i] * rows[i][j] for i in range(4)) == 0 for j in range(2))
    assert _left_null_space([[1, 0], [0, 1]]) == []


def _inv(name: str):
    func, _ = dfg_func(ROOT / "examples" / f"{name}.scf.mlir")
    return emit(func, name)


def test_every_helper_is_asserted_and_tied_to_registers():
    """Each helper is an assertion in the top (under LOOM_DFG_INVARIANTS), each peek wire is tied by the .sby,
    and the gate's count relation P(after_cond) + [need_next] = P(after_value) is among them."""
    e = _inv("dot")
    top = e.files["dot.sv"]
    sby = e.files["dot_prove.sby"]
    labels = re.findall(r"`LOOM_ASSERT_ALWAYS\((inv_\w+),", top)
    assert len(labels) == len(set(labels)) > 50
    assert "`LOOM_ASSUME" not in top.split("`ifdef LOOM_DFG_INVARIANTS", 1)[1].split("`endif", 1)[0]
    for wire in set(re.findall(r"\b(lm_q_\w+)", top)):
        assert f"connect -nounset -set {wire} " in sby, wire
    assert "gate" in top and "count relation" in top
    assert re.search(r"inv_u_afterValue_\d+, .*lm_p_v_afterCond.*lm_q_u_afterValue_state", top)
    assert "mode prove" in sby and "smtbmc yices" in sby and f"[tasks]\n{TASK}" in sby
    assert emit(*(dfg_func(ROOT / "examples" / "dot.scf.mlir")[0], "dot")).files == e.files  # deterministic



@pytest.mark.skipif(__import__("os").environ.get("LOOM_SBY_ALL") != "1",
                    reason="SymbiYosys minutes (~2 min on 2 cores): LOOM_SBY_ALL=1 runs it")
def test_sum_kernel_monitors_proved_for_every_run(tmp_path):
    """The one-loop SUM kernel: k-induction proves 13 of its 16 DFG-level monitors (len.L0.raw, every balance,
    the raw/once classes) for runs of any length; len.L0.after_cond and the body classes fail their induction
    step (a modular-counter state no equality excludes) and stay with the bounded task dfg."""
    import argparse
    import tempfile
    from pathlib import Path

    from hdl_support import SUM
    from loom.cli import _dfg_module, _pick_function
    from loom.hdl.invariants import prove

    need("yowasp-sby")
    need("yices-smt2")
    src = Path(tempfile.mkdtemp()) / "sum.scf.mlir"
    src.write_text(SUM)
    ns = argparse.Namespace(max_join_fanin=None, no_rar=False)
    func = _pick_function(_dfg_module(src, None, ns), None, ("handshake.func",), src)
    e = emit(func, "sum")
    write_all(tmp_path, e.files)
    r = prove(tmp_path, "sum", e.design, e.invariants, ["loom_props.svh"] + e.sv_files, timeout=600)
    assert r.status == "pass", [(v.status, v.failed) for v in r.runs]
    assert "ob_len_L0_raw" in r.proved and "ob_balance_return" in r.proved and len(r.proved) >= 13
    assert set(r.dropped) <= {"ob_len_L0_after_cond", "ob_class_afterValue", "ob_class_afterCond"}
