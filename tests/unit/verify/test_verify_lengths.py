"""Stream lengths and balance (loom.verify.lengths.check): no false alarms, and real faults refuted with the
smallest trip count -- which the token simulator then reproduces."""

from __future__ import annotations

import functools
import random

import pytest
import z3
from hypothesis import HealthCheck, given, settings

from conftest import scaled

from loom.lower import LowerOptions, lower_module
from loom.mlir import parse_file
from loom.sim import simulate
from loom.testing.scf_gen import GenConfig, generate_program, scf_programs
from loom.verify.lengths.check import analyze, check_lengths
from loom.verify.mutate import BY_NAME, mutants
from loom.verify.obligation import VerifyContext

from support.paths import ROOT, SHARED

EXAMPLES = sorted(p.name[: -len(".scf.mlir")] for p in (ROOT / "examples").glob("*.scf.mlir"))
CORPUS = SHARED / "corpus" / "loom-legacy"


@functools.lru_cache(maxsize=None)
def compiled(name: str):
    """(module, handshake.func) of examples/<name>.scf.mlir lowered by loom."""
    m = lower_module(parse_file(ROOT / "examples" / f"{name}.scf.mlir"), None, LowerOptions())
    return m, [f for f in m.functions() if f.name == "handshake.func"][0]


def statuses(obs):
    return {o.id: o.status for o in obs}


def not_proved(obs):
    return [f"{o.id}: {o.status}: {o.detail}" for o in obs if o.status not in ("proved", "assumed")]


def mutant(example: str, operator: str, site: int = 0):
    m, _ = compiled(example)
    return list(mutants(m, example, [BY_NAME[operator]]))[site]


def faulty(res) -> bool:
    return res.status != "completed" or res.residual_tokens > 0


def vec_inputs(n: int) -> dict:
    return {"x": [1.0] * n, "y": [2.0] * n, "n": n}


# ---------------------------------------------------------------------------- no false alarms
@pytest.mark.parametrize("name", EXAMPLES)
def test_every_example_is_proved(name):
    _, f = compiled(name)
    obs = check_lengths(f, VerifyContext())
    assert obs and not not_proved(obs)
    kinds = {o.id.split(".", 1)[0] for o in obs}
    assert {"len", "balance", "class"} <= kinds


def test_classification_of_a_for_loop():
    _, f = compiled("dot")
    a = analyze(f)
    by_name = {n: v for v, n in a.names.items()}
    assert "N_L0+1 per activation of L0 (raw)" in a.length(by_name["%willContinue"])
    assert "N_L0 per activation of L0 (body)" in a.length(by_name["%afterCond"])
    assert "N_L0 per activation of L0 (body)" in a.length(by_name["%x_loop_ctrl"])
    assert "N_L0-1" in a.length(by_name["%x_body_done_t"])
    assert a.length(by_name["%acc_f"]).startswith("1 token per run")
    obs = {o.id: o for o in check_lengths(f, VerifyContext())}
    assert obs["len.L0.raw"].status == "proved" and obs["len.L0.after_cond"].status == "proved"
    assert "raw" in obs["class.%willContinue"].detail and "body" in obs["class.%afterCond"].detail


def test_while_loop_is_opened_by_hypothesis_and_confirmed():
    _, f = compiled("collatz")
    a = analyze(f)
    assert [lp.kind for lp in a.typing.loops] == ["while"]
    assert a.typing.loops[0].first_cond is not None  # N >= 1 iff the first condition holds
    obs = statuses(check_lengths(f, VerifyContext()))
    assert obs["len.L0.raw"] == "proved"


@settings(max_examples=scaled(12), deadline=None, suppress_health_check=list(HealthCheck))
@given(scf_programs(GenConfig(max_ops=35)))
def test_generated_programs_are_proved(prog):
    m = lower_module(prog.module, prog.func_name, LowerOptions())
    f = [f for f in m.functions() if f.name == "handshake.func"][0]
    assert not not_proved(check_lengths(f, VerifyContext()))


def test_seeded_generated_programs_are_proved():
    for seed in range(25):
        p = generate_program(random.Random(1000 + seed), GenConfig(max_ops=50))
        m = lower_module(p.module, p.func_name, LowerOptions())
        f = [f for f in m.functions() if f.name == "handshake.func"][0]
        assert not not_proved(check_lengths(f, VerifyContext())), seed


def test_proved_obligations_carry_smt2_that_z3_answers_unsat():
    _, f = compiled("triangular")
    obs = check_lengths(f, VerifyContext(want_smt2=True))
    with_script = [o for o in obs if o.smt2]
    assert len(with_script) > 10
    # exactly the obligations a solver decided carry a script; the rest were closed by the clock rules
    assert all((o.method == "smt") == bool(o.smt2) for o in obs if o.status == "proved")
    assert any(o.method == "typing rule" for o in obs)
    for o in with_script:
        s = z3.Solver()
        s.from_string(o.smt2)
        assert s.check() == z3.unsat, o.id
        assert not z3.is_false(z3.simplify(z3.And(*z3.parse_smt2_string(o.smt2, ctx=z3.Context())))), o.id


# ---------------------------------------------------------------------------- refutations
def refuted(obs):
    return [o for o in obs if o.status == "refuted"]


def test_memory_carry_on_raw_is_refuted_at_one_iteration_and_simulation_agrees():
    mu = mutant("dot", "memcarry_after_to_raw")
    bad = refuted(check_lengths(mu.func, VerifyContext()))
    assert bad
    cex = bad[0].counterexample
    assert cex["trip_counts"] == {"L0": 1} and cex["max_trip_count"] == 1
    assert cex["channel"].startswith("%") and cex["op"]
    assert cex["tokens"][cex["channel"]] != cex["tokens"]["consumed"]
    assert len(cex["trace"]["consumed"]) == cex["tokens"]["consumed"]
    assert faulty(simulate(mu.func, vec_inputs(1)))
    assert not faulty(simulate(mu.func, vec_inputs(0)))  # the smallest trip count really is 1


def test_body_invariant_on_raw_is_refuted_with_its_channel():
    mu = mutant("saxpy", "inv_after_to_raw")
    obs = check_lengths(mu.func, VerifyContext())
    bad = refuted(obs)
    assert bad
    inv = mu.site.split(":", 1)[0]
    assert any(o.counterexample["channel"] == inv or o.counterexample.get("against") == inv
               or inv in o.detail for o in bad)
    assert all(o.counterexample["max_trip_count"] == 1 for o in bad)
    ins = {"a": 2.0, "x": [1.0], "y": [1.0], "n": 1}
    assert faulty(simulate(mu.func, ins))
    assert not faulty(simulate(mu.func, {**ins, "x": [], "y": [], "n": 0}))


def test_boundary_carry_on_after_cond_is_refuted():
    mu = mutant("dot", "carry_raw_to_after")
    bad = refuted(check_lengths(mu.func, VerifyContext()))
    assert bad and min(o.counterexample["max_trip_count"] for o in bad) == 1
    assert faulty(simulate(mu.func, vec_inputs(1)))


def test_zero_trip_fault_is_refuted_at_zero_iterations():
    """Without the guard, a body-local carry on after_cond keeps its seed when the loop runs 0 times."""
    mu = mutant("dot", "branch_force_true")
    assert "%guard" in mu.site
    bad = refuted(check_lengths(mu.func, VerifyContext()))
    assert bad
    zero = [o for o in bad if o.counterexample["trip_counts"] == {"L0": 0}]
    assert zero and "N >= 1" in zero[0].detail
    assert zero[0].counterexample["arguments"].get("n", 0) <= 0
    assert faulty(simulate(mu.func, vec_inputs(0)))
    assert not faulty(simulate(mu.func, vec_inputs(2)))


def test_gate_removed_is_a_body_local_consumer_on_raw():
    mu = mutant("saxpy", "gate_remove")
    obs = check_lengths(mu.func, VerifyContext())
    cls = [o for o in refuted(obs) if o.id.startswith("class.")]
    assert cls and "raw (N+1)" in cls[0].detail
    assert cls[0].counterexample["trip_counts"] == {"L0": 1}
    ins = {"a": 2.0, "x": [1.0, 2.0], "y": [1.0, 1.0], "n": 1}
    res = simulate(mu.func, ins)
    assert faulty(res) or res.memrefs["y"] != [3.0, 1.0]  # the body ran twice for n = 1


def test_nested_loop_witness_names_the_inner_activation():
    mu = mutant("triangular", "inv_after_to_raw", 1)
    bad = refuted(check_lengths(mu.func, VerifyContext()))
    assert bad
    trips = bad[0].counterexample["trip_counts"]
    assert trips["L0"] >= 1 and any(k.startswith("L1@L0=") for k in trips)
    L = [[1] * 4 for _ in range(4)]
    res = simulate(mu.func, {"L": L, "x": [1] * 4, "y": [0] * 4})
    assert faulty(res)


def test_untypable_construct_is_unknown_never_proved():
    """A gate whose condition is not a loop condition cannot be typed: unknown with a reason."""
    from loom.mlir import parse_text

    text = """
    handshake.func @g(%v: index, %c: i1, %s: none, ...) -> (index, none) attributes {argNames = ["v", "c", "s"]} {
      %a, %b = dataflow.gate %v, %c : index, i1 -> index, i1
      handshake.sink %b : i1
      handshake.return %a, %s : index, none
    }
    """
    f = parse_text(text).functions()[0]
    obs = check_lengths(f, VerifyContext())
    assert any(o.status == "unknown" and "not the condition of a loop" in o.detail for o in obs)
    assert not any(o.status == "proved" and o.id.startswith("class.%a") for o in obs)


# ---------------------------------------------------------------------------- corpus
def _corpus_functions():
    if not CORPUS.is_dir():
        return []
    out = []
    for p in sorted(CORPUS.glob("*.mlir")):
        for f in parse_file(p).functions():
            if f.name == "handshake.func":
                out.append((p.name, f))
    return out


def _corpus_inputs(f, args: dict) -> dict:
    from loom.ir.types import MemRefType, NoneType
    from loom.runtime import function_arg_names

    out = {}
    for name, a in zip(function_arg_names(f), f.regions[0].entry.args):
        if isinstance(a.type, NoneType):
            continue
        if isinstance(a.type, MemRefType):
            out[name] = [0] * 16 if str(a.type.element).startswith("i") else [0.0] * 16
        else:
            out[name] = args.get(name, 1)
    return out


@pytest.mark.shared
@pytest.mark.parametrize("file,func", _corpus_functions(), ids=lambda x: getattr(x, "name", x))
def test_corpus_refutations_are_real_in_the_simulator(file, func):
    """Whatever the calculus refutes in the legacy DFGs, the simulator shows with the witness's arguments."""
    obs = check_lengths(func, VerifyContext())
    bad = [o for o in obs if o.status == "refuted"]
    # every legacy DFG deadlocks once its loop runs (README, Findings): the calculus must say so
    assert bad, [(o.id, o.status) for o in obs if o.status != "proved"]
    small = min(bad, key=lambda o: o.counterexample["max_trip_count"])
    res = simulate(func, _corpus_inputs(func, small.counterexample["arguments"]), max_steps=200_000)
    assert faulty(res), (small.id, small.detail)
