"""Tokens that re-arm a primed buffer are not residual, in the simulator and in both BMCs alike; an extra
token behind the same buffer still is."""

from __future__ import annotations

import pytest

from loom.mlir import parse_file, parse_text
from loom.sim import simulate
from loom.verify.bmc.plain import plain_bmc

from support.paths import DATA

DATA = DATA / "circt"

# the same loop, but the exit also pushes a second token into the select fork: one too many
EXTRA = (DATA / "mux_loop_sum.mlir").read_text().replace(
    "%sel = buffer [1] seq %cond#0 {initValues = [0]} : i1",
    "%sel = buffer [1] seq %twice {initValues = [0]} : i1\n    %twice = merge %cond#0, %again : i1\n"
    "    %again = constant %ctl_out_copy {value = false} : i1",
).replace("return %acc_out, %ctl_out : i64, none",
          "%ctl_out_copy, %ctl_ret = fork [2] %ctl_out : none\n    return %acc_out, %ctl_ret : i64, none")


def _func(text: str | None = None):
    module = parse_text(text) if text is not None else parse_file(DATA / "mux_loop_sum.mlir")
    return module.functions()[0]


def test_rearmed_loop_is_clean_in_the_simulator() -> None:
    r = simulate(_func(), {})
    assert r.status == "completed" and r.results == [45] and r.residual_tokens == 0


def test_one_token_too_many_is_still_residual() -> None:
    r = simulate(_func(EXTRA), {})
    assert r.status == "completed" and r.results == [45]
    assert r.residual_tokens > 0


SMALL = """
handshake.func @t(%go: none, ...) -> (i32, none) attributes {argNames = ["go"], resNames = ["out0", "outCtrl"]} {
  %v = buffer [1] seq %back {initValues = [7]} : i32
  %g:GO = fork [GO] %go : none
  %c = constant %g#0 {value = 1 : i32} : i32
  %r = arith.addi %v, %c : i32
  %r2:2 = fork [2] %r : i32
  BACK
  return %r2#1, %g#1 : i32, none
}
"""
CLEAN = SMALL.replace("GO", "2").replace("BACK", "%back = br %r2#0 : i32")
TWO_BACK = SMALL.replace("GO", "3").replace(
    "BACK", "%zero = constant %g#2 {value = 0 : i32} : i32\n  %back = merge %r2#0, %zero : i32")


@pytest.mark.parametrize("text, clean", [(CLEAN, True), (TWO_BACK, False)])
def test_simulator_and_plain_bmc_agree_on_rearming(text: str, clean: bool) -> None:
    func = _func(text)
    r = simulate(func, {})
    assert r.status == "completed" and r.results == [8]
    assert (r.residual_tokens == 0) == clean, r.residual_tokens
    assert (plain_bmc(func, steps=14).status == "unsat") == clean
