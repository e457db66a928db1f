"""The bounded cross-check (loom.verify.bmc.explore): proved on loom's output, and in agreement with the simulator."""

from __future__ import annotations

import functools
import random

import pytest

from loom.lower import LowerOptions, lower_module
from loom.mlir import parse_file, parse_text
from loom.sim import simulate
from loom.testing.scf_gen import GenConfig, generate_program
from loom.verify.bmc.explore import check_bmc, control_values, explore
from loom.verify.bmc.plain import plain_bmc
from loom.verify.lengths.check import check_lengths
from loom.verify.mutate import BY_NAME, mutants
from loom.verify.obligation import VerifyContext

from support.paths import ROOT

EXAMPLES = sorted(p.name[: -len(".scf.mlir")] for p in (ROOT / "examples").glob("*.scf.mlir"))


@functools.lru_cache(maxsize=None)
def compiled(name: str):
    m = lower_module(parse_file(ROOT / "examples" / f"{name}.scf.mlir"), None, LowerOptions())
    return m, [f for f in m.functions() if f.name == "handshake.func"][0]


def faulty(res) -> bool:
    return res.status != "completed" or res.residual_tokens > 0


@pytest.mark.parametrize("name", EXAMPLES)
def test_examples_are_proved_up_to_k(name):
    _, f = compiled(name)
    obs = check_bmc(f, VerifyContext(bmc_k=2))
    assert [o.id for o in obs] == ["bmc.K2.deadlock", "bmc.K2.residual"]
    for o in obs:
        assert o.status == "proved" and o.bounded == 2 and o.kind == "bmc", o.detail
        assert o.smt2 is None and "not a single SMT query" in o.detail


def test_default_bound_on_nested_loops():
    _, f = compiled("triangular")
    obs = check_bmc(f, VerifyContext())
    assert all(o.status == "proved" and o.bounded == 4 for o in obs)


def test_only_control_values_are_tracked():
    _, f = compiled("dot")
    rel = control_values(f)
    names = {v.name_hint for v in rel if v.name_hint}
    assert {"guard", "n"} <= names  # the guard and the loop bound decide control
    ops = {v.op.name for v in rel if hasattr(v, "op")}
    assert "arith.mulf" not in ops and "arith.addf" not in ops  # the dot product itself is data


def vec(n: int) -> dict:
    return {"x": [1.0] * n, "y": [2.0] * n, "n": n}


@pytest.mark.parametrize("operator", ["memcarry_after_to_raw", "carry_raw_to_after", "branch_force_true",
                                      "fork_drop", "cond_br_swap", "mux_swap"])
def test_bmc_and_simulator_agree_on_dot_mutants(operator):
    """BMC refutes a mutant iff the simulator shows a deadlock/leftover token for some n <= K; the
    refutation's arguments reproduce it."""
    m, _ = compiled("dot")
    mu = list(mutants(m, "dot", [BY_NAME[operator]]))[0]
    k = 2
    res = explore(mu.func, k, 30)
    sims = {n: faulty(simulate(mu.func, vec(n), max_steps=100_000)) for n in range(0, k + 1)}
    assert (res.status == "violation") == any(sims.values()), (res, sims)
    if res.status == "violation":
        n = res.arguments["n"]
        assert 0 <= n <= k and sims[n], res
        assert not any(sims[j] for j in range(0, res.bound)), "the reported bound is the smallest"


def test_bmc_catches_a_causality_deadlock_the_counting_calculus_cannot_decide():
    """Swapping a done split's exits keeps per-activation token counts equal for constant trip counts,
    but the feedback token is then only produced after the iteration that needs it."""
    m, _ = compiled("tile_scale")
    mu = [x for x in mutants(m, "tile_scale", [BY_NAME["cond_br_swap"]]) if "m_body_done_t_0" in x.site][0]
    lengths = {o.id: o.status for o in check_lengths(mu.func, VerifyContext())}
    assert "refuted" not in lengths.values() and "unknown" in lengths.values()
    obs = {o.id: o for o in check_bmc(mu.func, VerifyContext(bmc_k=1))}
    assert any(o.status == "refuted" for o in obs.values())
    ins = {"m": [[0.0] * 8 for _ in range(6)], "row": 0, "col": 0, "s": 2.0}
    assert faulty(simulate(mu.func, ins))


def test_generated_programs_agree_with_simulation():
    """On random kernels BMC proves every run within K clean, and the simulator runs them clean."""
    for seed in range(8):
        p = generate_program(random.Random(500 + seed), GenConfig(max_ops=25, max_trip=2, max_depth=2))
        m = lower_module(p.module, p.func_name, LowerOptions())
        f = [g for g in m.functions() if g.name == "handshake.func"][0]
        obs = check_bmc(f, VerifyContext(bmc_k=2, timeout=20))
        assert all(o.status == "proved" for o in obs), (seed, [o.detail for o in obs])
        assert not faulty(simulate(f, p.inputs)), seed


def test_budget_never_reads_as_a_proof_at_the_requested_bound():
    _, f = compiled("matmul")
    obs = check_bmc(f, VerifyContext(bmc_k=4, timeout=0.05))
    for o in obs:
        assert o.status != "refuted"
        assert o.status == "unknown", o.detail  # a budget cut short of K=4 is never "proved"


def test_while_loop_is_bounded_by_k():
    _, f = compiled("collatz")
    res = explore(f, 3, 30)
    assert res.status == "ok" and res.pruned > 0  # runs needing a fourth iteration are outside the bound
    assert explore(f, 2, 30).paths < res.paths  # a larger bound explores more runs


TINY_BAD = """
handshake.func @t(%a: i32, %s: none, ...) -> (i32, none) attributes {argNames = ["a", "s"]} {
  %k = handshake.constant %s {value = true} : i1
  %t, %f = handshake.cond_br %k, %a : i32
  handshake.sink %t : i32
  handshake.return %f, %s : i32, none
}
"""
TINY_OK = TINY_BAD.replace("%f, %s : i32, none\n", "%t, %s : i32, none\n").replace(
    "handshake.sink %t : i32", "handshake.sink %f : i32")


def test_plain_baseline_agrees_with_the_explorer_on_tiny_networks():
    bad = parse_text(TINY_BAD).functions()[0]
    ok = parse_text(TINY_OK).functions()[0]
    assert plain_bmc(bad, 5, timeout=60).status == "sat"
    assert plain_bmc(ok, 5, timeout=60).status == "unsat"
    assert explore(bad, 1, 10).status == "violation"
    assert explore(ok, 1, 10).status == "ok"
    assert faulty(simulate(bad, {"a": 3})) and not faulty(simulate(ok, {"a": 3}))
