"""A clock derived past a refuted balance is not a proof: the obligations computed from that op's outputs are
unknown (issue 26's RTL cross-check found ``class.%x_loop_ctrl`` "proved" while SymbiYosys's monitor failed it on
the README's faulty DFG); on a correct DFG nothing changes."""

from __future__ import annotations

from loom.lower import LowerOptions, lower_module
from loom.mlir import parse_file, parse_text, print_module
from loom.verify import VerifyContext, verify_function

from support.paths import ROOT


def _dot(faulty: bool):
    module = lower_module(parse_file(ROOT / "examples" / "dot.scf.mlir"), None, LowerOptions())
    text = print_module(module)
    if faulty:
        assert text.count("%afterCond, %x_ctrl_t") == 1
        text = text.replace("%afterCond, %x_ctrl_t", "%willContinue, %x_ctrl_t")
    func = next(f for f in parse_text(text, "dot.dfg.mlir").functions() if f.name == "handshake.func")
    return {o.id: o for o in verify_function(func, VerifyContext()).obligations}


def test_clocks_past_a_refuted_balance_are_not_proved():
    got = _dot(faulty=True)
    assert got["balance.%x_loop_ctrl"].status == "refuted"
    ctrl = got["class.%x_loop_ctrl"]
    assert ctrl.status == "unknown" and "balance.%x_loop_ctrl, which is refuted" in ctrl.detail
    assert ctrl.smt2 is None
    # everything downstream of the carry, up to the return, rests on it
    assert got["balance.return"].status == "unknown"
    # what does not depend on the carry's outputs keeps its proof (the stream feeding the carry)
    upstream = [o for i, o in got.items() if i.startswith("len.")]
    assert upstream and all(o.status == "proved" for o in upstream)


def test_a_correct_dfg_keeps_every_proof():
    got = _dot(faulty=False)
    assert all(o.status in ("proved", "skipped") for i, o in got.items() if i.split(".")[0] in ("class", "balance",
                                                                                                 "len"))
