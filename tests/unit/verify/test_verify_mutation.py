"""Mutation testing of ``loom verify``: every operator on every example, judged by simulation.

Each mutant of each lowered example is simulated on generated inputs (trip
counts 0, 1 and several) against the SCF interpreter, and verified with all
obligations (``loom.verify.driver.verify_function``). A mutant that simulation
shows wrong must be refuted; every refutation must be explained by a real fault:
wrong behaviour in the simulator (on the generated inputs or on inputs built
from the counterexample), a memory race shown by a randomly scheduled run, or
the violation of a stated structural rule of the spec. The kill rate is printed.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
from collections import Counter
from typing import Optional

import pytest


from loom.interp import run_json
from loom.ir.types import IndexType, MemRefType
from loom.mlir import parse_text, print_module
from loom.runtime import function_arg_names
from loom.semantics import machine_for
from loom.sim import simulate
from loom.testing.differential import same_value
from loom.verify.driver import verify_function
from loom.verify.lemmas.check import LemmaCache
from loom.verify.mutate import OPERATORS, mutants

from support.paths import ROOT
from support.examples import EXAMPLE_NAMES, MUTATION_CTX, example_lowered, example_source

SIZES = [(0, (0, 0)), (1, (1, 0)), (1, (1, 1)), (2, (2, 1)), (3, (3, 2)), (4, (3, 3)), (2, (2, 3)), (5, (4, 4))]
EXTRA = {  # scalar-controlled trip counts the size variants do not reach
    "collatz": [{"n": v} for v in (0, 1, 2, 3, 6, 7)],
    "find_first": [{"a": [5, 7, 9], "key": k} for k in (5, 9, 4)],
    "tile_scale": [{"row": 0, "col": 0}, {"row": 4, "col": 2}],
}
MAX_STEPS = 100_000


def _cycle(values):
    flat: list = []

    def walk(x):
        if isinstance(x, list):
            for y in x:
                walk(y)
        else:
            flat.append(x)

    walk(values)
    return itertools.cycle(flat or [0])


def _resize(t: MemRefType, given, rows: int, cols: int):
    fill = _cycle(given)
    if t.rank == 1:
        return [next(fill) for _ in range(rows)]
    return [[next(fill) for _ in range(cols)] for _ in range(rows)]


@functools.lru_cache(maxsize=None)
def input_variants(name: str) -> tuple:
    """Given inputs plus resized ones (empty, one element, several) on which the interpreter completes."""
    src, f = example_source(name)
    given = json.loads((ROOT / "examples" / f"{name}.inputs.json").read_text())
    names = function_arg_names(f)
    args = f.regions[0].entry.args
    out = [given]
    for length, (r, c) in SIZES:
        v = {}
        for n, a in zip(names, args):
            x, t = given.get(n), a.type
            if isinstance(t, MemRefType) and any(d is None for d in t.shape) and t.rank in (1, 2):
                v[n] = _resize(t, x, length if t.rank == 1 else r, c)
            elif isinstance(t, IndexType) and isinstance(x, int):
                v[n] = min(x, length)
            else:
                v[n] = x
        out.append(v)
    out += [{**given, **extra} for extra in EXTRA.get(name, [])]
    return tuple(v for v in out if run_json(src, name, v).status == "completed")


def behaviour_fault(name: str, dfg, inputs: dict, sim=None) -> Optional[str]:
    """Why the DFG's run differs from the interpreter's on ``inputs`` (None when it agrees)."""
    src, _ = example_source(name)
    ref = run_json(src, name, inputs)
    if ref.status != "completed":
        return None
    got = sim if sim is not None else simulate(dfg, inputs, max_steps=MAX_STEPS)
    if got.status != "completed":
        return f"{got.status}: {got.error or got.deadlock_report.splitlines()[0]}"
    if got.residual_tokens:
        return f"{got.residual_tokens} residual token(s)"
    if len(ref.results) != len(got.results) or not all(same_value(a, b) for a, b in zip(ref.results, got.results)):
        return f"results {got.results} instead of {ref.results}"
    for k, view in ref.memrefs.items():
        want, have = view.to_flat(), got.memrefs.get(k)
        if have is None or len(have) != len(want) or not all(same_value(a, b) for a, b in zip(want, have)):
            return f"memref {k} differs"
    return None


def sim_fault(name: str, dfg) -> Optional[tuple[str, dict]]:
    for v in input_variants(name):
        why = behaviour_fault(name, dfg, v)
        if why is not None:
            return why, v
    return None


# ---------------------------------------------------------------------------- explanations
def witness_inputs(name: str, args: dict) -> list[dict]:
    """Inputs built from a counterexample's argument values (scalars and memref sizes)."""
    _, f = example_source(name)
    types = dict(zip(function_arg_names(f), (a.type for a in f.regions[0].entry.args)))
    out = []
    for base in input_variants(name):
        v = dict(base)
        for key, val in args.items():
            mem, _, dim = key.partition(".dim")
            if dim and mem in types and isinstance(types[mem], MemRefType):
                t = types[mem]
                shape = [len(v[mem])] + ([len(v[mem][0]) if v[mem] else 0] if t.rank == 2 else [])
                shape[int(dim)] = max(0, min(int(val), 6))
                v[mem] = _resize(t, base[mem], shape[0], shape[1] if t.rank == 2 else 0)
            elif key in types and not isinstance(types[key], MemRefType):
                v[key] = val
        out.append(v)
    return out


def random_run(func, inputs: dict, rng: random.Random):
    """One run of the token network with a random firing order (any enabled actor may go next).

    Uses the simulator's network (compiled table rules, bound memories) with its own scheduler.
    """
    from loom.sim.engine import residual_count
    from loom.sim.network import build_network
    from loom.sim.result import SimResult

    net = build_network(func, inputs)
    returned = None
    for _ in range(MAX_STEPS):
        enabled = []
        for actor in net.actors:
            for rule in actor.rules[actor.state]:
                if all(rule.queues):
                    for i, q in rule.reads:
                        actor.heads[i] = q[0]
                    if rule.guard is None or rule.guard(actor.heads, actor.regs, actor.memory):
                        enabled.append((actor, rule))
                        break
        if not enabled:
            break
        actor, rule = rng.choice(enabled)
        for i, q in rule.reads:
            actor.heads[i] = q[0]
        heads, regs, mem = actor.heads, actor.regs, actor.memory
        values = [(f(heads, regs, mem), appends) for f, appends in rule.emits]
        new = [(n, f(heads, regs, mem)) for n, f in rule.updates]
        for n, v in new:
            regs[n] = v
        eff = rule.effect
        if eff is not None:
            if eff[0] == "write":
                mem.store(eff[2](heads, regs, mem), [a(heads, regs, mem) for a in eff[1]])
            elif eff[0] == "complete" and returned is None:
                returned = [f(heads, regs, mem) for f in eff[1]]
            elif eff[0] == "fail":
                return None
        for q in rule.queues:
            q.popleft()
        for v, appends in values:
            for ap in appends:
                ap(v)
        actor.state = rule.next
    results = list(returned[:-1]) if returned else []
    return SimResult("completed" if returned is not None else "deadlock", results,
                     {n: view.to_flat() for n, view in net.memrefs.items()}, residual_count(net))


def race_shown(name: str, dfg, tries: int = 12) -> bool:
    """Some random schedule gives a result the interpreter does not (a reachable ordering race)."""
    rng = random.Random(7)
    for v in input_variants(name):
        for _ in range(tries):
            res = random_run(dfg, v, rng)
            if res is not None and behaviour_fault(name, dfg, v, sim=res) is not None:
                return True
    return False


# Stated rules of spec-dataflow-memory the ctrl-done network must follow even where another dependence
# (e.g. a store's data computed from the load) happens to order the accesses in this particular graph.
SPEC_RULES = ("never consumed", "CPL_", "no path leads to the return", "a token no op consumes", "nothing orders",
              "out of order", "not ordered")


def explain(name: str, mu, ob) -> Optional[str]:
    """Why refuted obligation ``ob`` of mutant ``mu`` is a real fault (None: unexplained)."""
    cex = ob.counterexample or {}
    if ob.kind in ("length", "balance", "bmc", "refinement"):
        for v in witness_inputs(name, cex.get("arguments", {})):
            why = behaviour_fault(name, mu.func, v)
            if why is not None:
                return f"simulation on the counterexample's inputs: {why}"
        return None
    if ob.kind == "memory":
        if any(r in ob.detail for r in SPEC_RULES):
            return "spec rule: " + ob.detail[:80]
        if race_shown(name, mu.func):
            return "ordering race shown by a random schedule"
        return None
    if ob.kind in ("structure", "fsm"):
        return "spec rule / operator precondition: " + ob.detail[:80]
    return None


# ---------------------------------------------------------------------------- tests
@pytest.fixture(scope="module")
def all_mutants():
    """One mutant per (example, operator): the first site, re-parsed from its printed text."""
    return [(name, mu) for name in EXAMPLE_NAMES for mu in mutants(example_lowered(name), name, per_operator=1)]


def test_every_operator_yields_valid_mutants(all_mutants):
    seen = Counter(mu.operator for _, mu in all_mutants)
    assert set(seen) == {o.name for o in OPERATORS}, set(o.name for o in OPERATORS) - set(seen)
    assert len(OPERATORS) >= 10
    for _, mu in all_mutants[:: max(1, len(all_mutants) // 20)]:
        again = parse_text(print_module(mu.module), "<roundtrip>")  # printable and parsable again
        (f,) = [g for g in again.functions() if g.name == "handshake.func"]
        for op in f.regions[0].entry.ops:
            machine_for(op)  # every op still has token semantics: types line up
        assert print_module(again) == print_module(mu.module)


def test_unmutated_examples_agree_with_the_interpreter_on_every_variant():
    for name in EXAMPLE_NAMES:
        f = [g for g in example_lowered(name).functions() if g.name == "handshake.func"][0]
        variants = input_variants(name)
        assert len(variants) >= 4, name
        for v in variants:
            assert behaviour_fault(name, f, v) is None, (name, v)


def _judge(name: str, mu, cache: LemmaCache) -> dict:
    """Simulate and verify one mutant; explain every refutation simulation did not show."""
    _, src = example_source(name)
    fault = sim_fault(name, mu.func)
    rep = verify_function(mu.func, MUTATION_CTX, source=src, cache=cache)
    refuted = [o for o in rep.obligations if o.status == "refuted"]
    unexplained: list[str] = []
    explanations: list[str] = []
    if refuted and fault is None:
        for ob in refuted:
            why = explain(name, mu, ob)
            (explanations if why else unexplained).append(why or f"{ob.id}: {ob.detail}")
    return {"example": name, "operator": mu.operator, "site": mu.site, "fault": fault,
            "refuted": [o.id for o in refuted], "unexplained": unexplained, "explained": explanations,
            "how": sorted({f"{o.method} ({o.nature or 'behaviour'})" for o in refuted})}


@pytest.fixture(scope="module")
def judged(all_mutants):
    cache = LemmaCache()
    return [_judge(name, mu, cache) for name, mu in all_mutants]


def test_kill_rate(judged, capsys):
    wrong = [r for r in judged if r["fault"]]
    killed = [r for r in wrong if r["refuted"]]
    survived = [r for r in wrong if not r["refuted"]]
    equivalent = [r for r in judged if not r["fault"] and not r["refuted"]]
    refuted_only = [r for r in judged if not r["fault"] and r["refuted"]]
    rate = len(killed) / len(wrong)
    with capsys.disabled():
        print(f"\nmutation kill rate: {len(killed)}/{len(wrong)} behaviour-changing mutants refuted = {rate:.1%} "
              f"({len(judged)} mutants, {len(equivalent)} equivalent, {len(refuted_only)} refuted without a "
              "difference on the generated inputs, each explained below)")
        by_op = Counter((r["operator"], bool(r["refuted"])) for r in wrong)
        for op in sorted({o for o, _ in by_op}):
            print(f"  {op:22s} killed {by_op[(op, True)]:3d}  survived {by_op[(op, False)]:3d}")
        how = Counter(h for r in killed + refuted_only for h in r["how"])
        print("  refuting obligations by method (nature), counted once per mutant: "
              + ", ".join(f"{h}: {n}" for h, n in sorted(how.items())))
        for r in survived:
            print(f"  SURVIVOR {r['example']} {r['operator']}: {r['site']} -- {r['fault'][0]}")
        for r in refuted_only:
            print(f"  refuted, same on the inputs: {r['example']} {r['operator']}: {r['explained'][:1]}")
    # every mutant simulation shows wrong is refuted: token-level faults by the length/balance/memory/BMC
    # obligations, functional ones (trip counts, data conditions) by refinement against the source
    assert not survived, [(r["example"], r["operator"], r["site"]) for r in survived]


def test_every_refutation_is_a_real_fault(judged):
    bad = [(r["example"], r["operator"], r["site"], r["unexplained"]) for r in judged if r["unexplained"]]
    assert not bad, bad


def test_functional_faults_are_killed_by_refinement(judged):
    """Mutants that change what is computed (wrong results, memory or an access out of bounds; not a
    deadlock or a residual token) are refuted by a refine.* obligation."""
    rows = [r for r in judged if r["operator"] in ("stream_cont_cond", "branch_force_true") and r["fault"]
            and not r["fault"][0].startswith("deadlock") and "residual" not in r["fault"][0]]
    assert len(rows) >= 10
    for r in rows:
        assert any(i.startswith("refine.") for i in r["refuted"]), r


def test_refinement_never_refutes_a_mutant_that_computes_the_same(judged):
    """Control-only mutants (ctrl-done edges, joins) that compute the same values keep every refine.*
    obligation: refinement speaks about values, addresses and trip counts only."""
    for r in judged:
        if not r["fault"]:
            assert not any(i.startswith("refine.") for i in r["refuted"]), r


def test_length_faults_are_killed_without_help_from_other_checkers(judged):
    loop_ops = {"inv_after_to_raw", "memcarry_after_to_raw", "carry_raw_to_after", "gate_remove"}
    rows = [r for r in judged if r["operator"] in loop_ops and r["fault"]]
    assert rows
    for r in rows:
        assert any(i.startswith(("balance.", "len.", "class.", "bmc.")) for i in r["refuted"]), r
