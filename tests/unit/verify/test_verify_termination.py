"""Termination of while loops (``len.<W>.terminates``, loom/verify/lengths/ranking.py): ranking functions,
lassos and closed recurrence sets, each checked two ways -- the verdict of the proof, and runs of the SCF
interpreter and the token simulator (deterministic step caps).

The kernels are in tests/data/termination (each with an inputs file and a comment saying what it shows).
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest
import z3

from loom.interp import run_json
from loom.ir.core import Module
from loom.lower import LowerOptions, lower_module
from loom.mlir import parse_file
from loom.sim import simulate
from loom.verify.driver import functions_to_verify, verify_function
from loom.verify.lengths import ranking
from loom.verify.lengths.check import analyze
from loom.verify.obligation import Obligation, VerifyContext

from support.cli import loom_here
from support.paths import DATA, ROOT

DATA = DATA / "termination"
CTX = VerifyContext(want_smt2=True)
CAP_INTERP = 200_000  # SCF interpreter operations
CAP_SIM = 50_000  # token simulator firings
INT64_MIN = -(1 << 63)

PROVED = {  # kernel -> the ranking function's text
    "count_up": "%n_w - %carry_i",
    "countdown_by3_zero": "%carry_x - %c0_0",
    "ne_up": "(%n_w - %carry_i) mod 2^32",
    "either": "max(%n_w - %carry_i (unsigned), %m_w - %carry_j (unsigned))",
}


# arguments swept per kernel: small and boundary values whose runs end within the caps (ne_up with n < 0
# and either with a "negative" index end too, after 2^32 and 2^64 iterations: not runnable here)
SWEEP = {
    "count_up": [0, 1, 7, -1, -5, 300, -(1 << 31), (1 << 31) - 1 - 3 * 1000],
    "countdown_by3_zero": [0, 1, 2, 3, 7, 300, -1, INT64_MIN],
    "ne_up": [0, 1, 2, 7, 300],
    "either": [0, 1, 2, 7, 300],
}


def _path(name: str) -> Path:
    return DATA / f"{name}.scf.mlir"


def _inputs(name: str) -> dict:
    return json.loads((DATA / f"{name}.inputs.json").read_text())


@functools.lru_cache(maxsize=None)
def _module(name: str) -> Module:
    return parse_file(_path(name))


def _source(name: str):
    return next(f for f in _module(name).functions() if f.name == "func.func")


@functools.lru_cache(maxsize=None)
def _dfg(name: str):
    return next(f for f in lower_module(_module(name), None, LowerOptions()).functions()
                if f.name == "handshake.func")


@functools.lru_cache(maxsize=None)
def _obligations(name: str) -> tuple[Obligation, ...]:
    (f, src), = functions_to_verify(_path(name), None, None)
    return tuple(verify_function(f, CTX, source=src, checkers=("lengths", "refine")).obligations)


def _terminates(name: str) -> Obligation:
    (ob,) = [o for o in _obligations(name) if o.id == "len.L0.terminates"]
    return ob


def _interp(name: str, inputs: dict, cap: int = CAP_INTERP):
    return run_json(_module(name), _source(name).attributes["sym_name"].value, inputs, max_steps=cap)


def _sim(name: str, inputs: dict, cap: int = CAP_SIM):
    return simulate(_dfg(name), inputs, max_steps=cap)


# ---------------------------------------------------------------------------------------------- ranking
@pytest.mark.parametrize("name", sorted(PROVED))
def test_a_ranking_function_proves_the_loop_ends(name):
    ob = _terminates(name)
    assert ob.status == "proved", ob.detail
    assert ob.method == "smt" and ob.rule.startswith(f"ranking function {PROVED[name]}"), ob.rule
    # the archived query is one script a fresh solver answers unsat
    assert ob.smt2 and "(check-sat)" in ob.smt2
    s = z3.Solver()
    s.add(z3.parse_smt2_string(ob.smt2))
    assert s.check() == z3.unsat
    # nothing counts on an assumed termination any more
    assert all("L0 terminates" not in o.assumes for o in _obligations(name)), \
        [o.id for o in _obligations(name) if o.assumes]


@pytest.mark.parametrize("name", sorted(PROVED))
def test_a_proved_loop_ends_in_both_runs_on_every_input_tried(name):
    """The execution side: the kernel's inputs file, and a sweep of small and extreme arguments, all end
    (well within the caps) in the interpreter and the simulator, with the same results."""
    base = _inputs(name)
    picks = SWEEP[name]
    tried = [base] + [{k: picks[(i + j) % len(picks)] for j, k in enumerate(base)} for i in range(len(picks))]
    for inputs in tried:
        ref, got = _interp(name, inputs), _sim(name, inputs, 4 * CAP_SIM)
        assert ref.status == "completed", (inputs, ref.status, ref.error)
        assert got.status == "completed" and got.results == ref.results, (inputs, got.status, got.results)


def test_the_candidate_fails_when_the_counter_can_wrap():
    """while (x > lo) x -= 3 with a free lo: x - lo is no ranking function (the subtraction wraps below
    INT64_MIN), so the loop stays assumed -- and the wrap is real: from x = INT64_MIN + 2, lo = INT64_MIN
    both runs are still looping at their caps."""
    ob = _terminates("countdown_by3")
    assert ob.status == "assumed" and "no ranking function" in ob.detail
    assert any("L0 terminates" in o.assumes for o in _obligations("countdown_by3"))
    wrap = {"x0": INT64_MIN + 2, "lo": INT64_MIN}
    assert _interp("countdown_by3", wrap).error.code == "RT_STEP_LIMIT"
    assert _sim("countdown_by3", wrap).error.code == "RT_SIM_STEP_LIMIT"
    assert _interp("countdown_by3", _inputs("countdown_by3")).status == "completed"


def test_the_invariant_is_what_makes_the_disjunction_ranked():
    """either: without i == j, max(n - i, m - j) is refuted by an unreachable state (i at the top of the
    index range while j < m: i + 1 wraps); the invariant found from the seeds excludes it."""
    ob = _terminates("either")
    assert "under the invariant %carry_i == %carry_j" in ob.rule, ob.rule
    a = analyze(_dfg("either"))
    (rank,) = a.typing.ranked.values()
    assert rank.invariant == ["%carry_i == %carry_j"]


def test_a_loop_guarded_into_zero_trips_is_ranked_under_its_invariant():
    """ok_while_guarded_fixpoint (while x >= 0: x >>= 1, entered only with x < 0): the rank alone fails at
    its unreachable fixed point x = 0; the invariant x < 0 from the guard proves it (vacuously)."""
    f = next(g for g in parse_file(ROOT / "tests/data/handwritten/ok_while_guarded_fixpoint.mlir").functions())
    obs = verify_function(f, CTX, checkers=("lengths",)).obligations
    (ob,) = [o for o in obs if o.id == "len.L0.terminates"]
    assert ob.status == "proved" and "under the invariant" in ob.rule, (ob.status, ob.rule)
    for x in (-5, -1, INT64_MIN):
        assert simulate(f, {"x": x}, max_steps=CAP_SIM).status == "completed"


def test_find_first_is_ranked_by_its_bound():
    (f, src), = functions_to_verify(ROOT / "examples" / "find_first.scf.mlir", None, None)
    obs = verify_function(f, CTX, source=src, checkers=("lengths", "refine")).obligations
    (ob,) = [o for o in obs if o.id == "len.L0.terminates"]
    assert ob.status == "proved" and ob.rule == "ranking function %n_w - %carry_i (unsigned)", ob.rule
    assert not any(o.assumes for o in obs)


def test_collatz_stays_assumed():
    (f, src), = functions_to_verify(ROOT / "examples" / "collatz.scf.mlir", None, None)
    obs = verify_function(f, CTX, source=src, checkers=("lengths",)).obligations
    (ob,) = [o for o in obs if o.id == "len.L0.terminates"]
    assert ob.status == "assumed" and ob.method == "none"
    assert [o.id for o in obs if o.assumes and o.assumes != ("L0 terminates",)] == []
    assert sum(1 for o in obs if o.assumes == ("L0 terminates",)) > 10


# ---------------------------------------------------------------------------------------------- divergence
def test_an_odd_countdown_is_refuted_by_a_closed_recurrence_set():
    ob = _terminates("down_by_two")
    assert ob.status == "refuted" and ob.nature == "behaviour", ob.detail
    assert ob.method == "smt" and ob.rule == "closed recurrence set"
    cex = ob.counterexample
    x = cex["arguments"]["x"]
    assert x % 2 == 1 and cex["recurrence_set"] == ["%carry_v mod 2 == 1"]
    # the stem: the control state of the first iterations, every one in the set and stepping by -2
    stem = [st["%carry_v"] for st in cex["stem"]]
    assert stem[0] == x and all(v % 2 == 1 for v in stem) and all(b == a - 2 for a, b in zip(stem, stem[1:]))
    # replayed by the verifier itself: the simulator hits its cap with the loop running, and so does the
    # interpreter on the source
    assert cex["replay"]["code"] == "RT_SIM_STEP_LIMIT" and cex["replay"]["condition_tokens"] > 1000
    assert cex["source_replay"]["code"] == "RT_STEP_LIMIT"
    # and here, independently: the witness runs on at both caps, an even start ends
    assert _interp("down_by_two", {"x": x}).error.code == "RT_STEP_LIMIT"
    assert _sim("down_by_two", {"x": x}).error.code == "RT_SIM_STEP_LIMIT"
    even = _inputs("down_by_two")
    assert _interp("down_by_two", even).status == "completed" and _sim("down_by_two", even).status == "completed"


def test_a_period_two_lasso_is_refuted():
    ob = _terminates("flip")
    assert ob.status == "refuted" and ob.rule == "while-loop lasso", (ob.status, ob.rule)
    cex = ob.counterexample
    assert (cex["stuck_at_iteration"], cex["repeats_iteration"]) == (1, 0)
    x0 = cex["arguments"]["x0"]
    assert x0 not in (0, 3) and 3 - (3 - x0) == x0  # x0 -> 3 - x0 -> x0, never 0
    assert cex["source_replay"]["code"] == "RT_STEP_LIMIT"
    assert _sim("flip", {"x0": x0}).error.code == "RT_SIM_STEP_LIMIT"
    assert _interp("flip", _inputs("flip")).status == "completed"


def test_a_zero_step_is_a_fixed_point():
    ob = _terminates("step_arg")
    assert ob.status == "refuted" and ob.rule == "while-loop fixed point"
    args = ob.counterexample["arguments"]
    assert args["s"] == 0 and args["n"] > 0
    assert _interp("step_arg", args).error.code == "RT_STEP_LIMIT"
    assert _sim("step_arg", args).error.code == "RT_SIM_STEP_LIMIT"
    assert _sim("step_arg", _inputs("step_arg")).status == "completed"


def test_a_dfg_without_its_source_is_refuted_from_the_token_simulator_alone(tmp_path):
    """loom verify on the compiled DFG (no --source): the same recurrence set, replayed in the simulator."""
    def loom(*args):
        return subprocess.run([sys.executable, "-m", "loom", *args], capture_output=True, text=True, cwd=ROOT)

    r = loom_here("compile", str(_path("down_by_two")), "-o", str(tmp_path))
    assert r.returncode == 0, r.stderr
    r = loom("verify", "--json", "--bmc-k", "1", str(tmp_path / "down_by_two.dfg.mlir"))
    assert r.returncode == 1, r.stdout + r.stderr
    doc = json.loads(r.stdout)
    (ob,) = [o for o in doc["obligations"] if o["id"] == "len.L0.terminates"]
    assert ob["status"] == "refuted" and ob["rule"] == "closed recurrence set"
    assert ob["counterexample"]["replay"]["code"] == "RT_SIM_STEP_LIMIT"
    assert "source_replay" not in ob["counterexample"]


def test_a_replay_that_ends_makes_the_verdict_unknown(monkeypatch):
    """A recurrence set whose replay does not hit the cap is not reported as refuted (the guard that keeps a
    wrong set from becoming a counterexample): simulate a set found for arguments on which the loop ends."""
    from loom.verify.lengths import check

    real = ranking.find_recurrence

    def wrong_args(w):
        rec, n = real(w)
        if rec is not None:
            rec.args = {"x": 6}  # an even start: the loop ends
        return rec, n

    monkeypatch.setattr("loom.verify.lengths.typer_while.find_recurrence", wrong_args)
    obs = check.check_lengths(_dfg("down_by_two"), VerifyContext())
    (ob,) = [o for o in obs if o.id == "len.L0.terminates"]
    assert ob.status == "unknown" and "ends with status completed" in ob.detail, ob.detail


def test_verdicts_are_deterministic():
    a = [(o.id, o.status, o.rule, o.detail) for o in check_lengths_of("down_by_two")]
    b = [(o.id, o.status, o.rule, o.detail) for o in check_lengths_of("down_by_two")]
    assert a == b


def check_lengths_of(name: str) -> list[Obligation]:
    from loom.verify.lengths.check import check_lengths

    return check_lengths(_dfg(name), VerifyContext())


def test_the_search_respects_an_assumption():
    """With x pinned to 0 by an assumption the loop runs no iteration: nothing is refuted outside the legal
    inputs, and the invariant x == 0 (from the seed under the assumption) proves it ends."""
    from loom.verify.assume import parse_assumption
    from loom.verify.lengths.check import check_lengths

    ctx = VerifyContext(assumptions=(parse_assumption("x <= 0 && x >= 0"),))
    (ob,) = [o for o in check_lengths(_dfg("down_by_two"), ctx) if o.id == "len.L0.terminates"]
    assert ob.status == "proved" and "under the invariant" in ob.rule, (ob.status, ob.rule, ob.detail)


# ---------------------------------------------------------------------------------------------- exhaustive i8
W8 = 256


def _s8(v: int) -> int:
    v &= W8 - 1
    return v - W8 if v >= W8 // 2 else v


def _cmp8(p: str, a: int, b: int) -> bool:
    sa, sb, ua, ub = _s8(a), _s8(b), a & 255, b & 255
    return {"slt": sa < sb, "sle": sa <= sb, "sgt": sa > sb, "sge": sa >= sb, "ult": ua < ub, "ule": ua <= ub,
            "ugt": ua > ub, "uge": ua >= ub, "ne": ua != ub, "eq": ua == ub}[p]


def _op8(o: str, a: int, k: int) -> int:
    ua, uk = a & 255, k & 255
    return {"addi": ua + uk, "subi": ua - uk, "muli": ua * uk, "shrsi": _s8(ua) >> uk, "shrui": ua >> uk,
            "xori": ua ^ uk, "ori": ua | uk, "andi": ua & uk}[o] & 255


def _ends8(p: str, o: str, k: int, x0: int, b: int) -> bool:
    """Whether while (x p b) x = x o k ends from x0 (the state is x alone: a repeat never ends)."""
    x, seen = x0 & 255, set()
    while _cmp8(p, x, b):
        if x in seen:
            return False
        seen.add(x)
        x = _op8(o, x, k)
    return True


def _kernel8(p: str, o: str, k: int) -> str:
    return f"""module {{
  func.func @k(%x0: i8, %b: i8) -> i8 {{
    %k = arith.constant {k} : i8
    %r = scf.while (%x = %x0) : (i8) -> i8 {{
      %go = arith.cmpi {p}, %x, %b : i8
      scf.condition(%go) %x : i8
    }} do {{
    ^bb0(%x: i8):
      %x1 = arith.{o} %x, %k : i8
      scf.yield %x1 : i8
    }}
    return %r : i8
  }}
}}"""


LOOPS8 = [  # (predicate, op, k) and the verdict loom must reach
    ("slt", "addi", 1, "proved"), ("ugt", "shrui", 1, "proved"), ("eq", "xori", -1, "proved"),
    ("sgt", "subi", 1, "proved"), ("sge", "subi", 3, "refuted"), ("ne", "subi", 2, "refuted"),
    ("sgt", "shrsi", 1, "refuted"), ("sgt", "subi", 2, "refuted"), ("ule", "ori", 1, "refuted"),
    ("ult", "addi", 5, "assumed"),
]


@pytest.mark.parametrize("p,o,k,verdict", LOOPS8)
def test_verdicts_agree_with_every_i8_input(p, o, k, verdict):
    """Soundness against exhaustive execution: a proved loop ends from all 65,536 (x0, b); a refuted one
    diverges from the witness (in this file's own i8 semantics, and in the SCF interpreter up to its cap);
    an assumed one (ends only after wrapping around) is neither."""
    from loom.mlir import parse_text

    m = parse_text(_kernel8(p, o, k), "k8.scf.mlir")
    f = next(g for g in lower_module(m, None, LowerOptions()).functions() if g.name == "handshake.func")
    from loom.verify.lengths.check import check_lengths

    (ob,) = [x for x in check_lengths(f, VerifyContext()) if x.id == "len.L0.terminates"]
    assert ob.status == verdict, (ob.status, ob.rule, ob.detail)
    ends = {(x0, b): _ends8(p, o, k, x0, b) for x0 in range(W8) for b in range(W8)}
    if verdict == "proved":
        assert all(ends.values())
    elif verdict == "refuted":
        a = ob.counterexample["arguments"]
        x0, b = a.get("x0", 0), a.get("b", 0)
        assert ends[(x0 & 255, b & 255)] is False
        assert run_json(m, "k", {"x0": x0, "b": b}, max_steps=CAP_INTERP).error.code == "RT_STEP_LIMIT"
    else:
        assert all(ends.values())  # it does end: no recurrence set may exist


def test_a_loop_that_spins_on_loaded_data_is_refuted_by_a_run_that_repeats_its_state(tmp_path):
    """No ranking, lasso or recurrence set decides a loop whose exit depends on memory; a source run on inputs
    the assumptions admit that comes back to the same carried values and memory never ends. Checked again
    independently: loom sim on those inputs hits its step cap on the source and on the DFG."""
    ob = _terminates("spin_on_data")
    assert ob.status == "refuted" and ob.nature == "behaviour" and ob.rule == "a run repeats a state of the loop"
    cex = ob.counterexample
    assert cex["source_replay"]["code"] == "RT_SCF_WHILE_REPEATS" and cex["replay"]["code"] == "RT_SIM_STEP_LIMIT"
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps(cex["inputs"]))
    src = loom_here("sim", str(_path("spin_on_data")), "--inputs", str(inputs), "--json",
                    "--max-steps", "50000")
    assert json.loads(src.stdout)["error"].startswith("RT_STEP_LIMIT")
    dfg = simulate(_dfg("spin_on_data"), cex["inputs"], max_steps=50_000)
    assert dfg.error is not None and dfg.error.code == "RT_SIM_STEP_LIMIT"


def test_carried_values_that_repeat_while_memory_changes_are_not_a_repeated_state():
    """The flag cycles 0, 1, 0, 1 while a counter in memory grows to 6: the watched run completes with the
    same result as the plain one, and the termination stays assumed (never refuted)."""
    module = _module("toggle_count")
    plain = run_json(module, "toggle", {"m": [0]})
    watched = run_json(module, "toggle", {"m": [0]}, watch_loops=True)
    assert plain.status == watched.status == "completed" and plain.results == watched.results
    assert _terminates("toggle_count").status == "assumed"


@pytest.mark.parametrize("name", ["collatz", "find_first", "clamp_count", "popcount_lut"])
def test_watching_loops_changes_no_run_of_the_examples(name):
    path = ROOT / "examples" / f"{name}.scf.mlir"
    module = parse_file(path)
    func = next(f for f in module.functions() if f.name == "func.func").attributes["sym_name"].value
    inputs = json.loads(path.with_name(f"{name}.inputs.json").read_text())
    plain = run_json(module, func, inputs)
    watched = run_json(module, func, inputs, watch_loops=True)
    assert (plain.status, plain.results, plain.steps) == (watched.status, watched.results, watched.steps)
