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
