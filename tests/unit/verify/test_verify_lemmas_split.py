"""Tables are proved rule by rule with each step's frame substituted, on one solver a run shares; that
decision agrees with solving the whole induction query, on loom's tables and on broken ones."""

from __future__ import annotations

import dataclasses

import pytest

from loom.ir.types import MemRefType, f32, i32, index, none
from loom.semantics import dataflow_ops, handshake_ops, memory_ops
from loom.verify.lemmas.contracts import contracts_for
from loom.verify.lemmas.induction import SPLIT_RULES, induction_query, prove, split_unsat_framed
from loom.verify.solve import ScopedChecks, run_query
from loom.verify.z3model import MachineModel

from support.paths import ROOT


def _mutate(machine, rule_name, **changes):
    rules = tuple(dataclasses.replace(r, **changes) if r.name == rule_name else r for r in machine.rules)
    return dataclasses.replace(machine, rules=rules)


WIDE = memory_ops.memory(MemRefType((None,), i32), 14, 12, external=True)
TABLES = {
    "wide extmemory": WIDE,
    "wide memory": memory_ops.memory(MemRefType((8,), f32), 13, 12, external=False),
    "wide store port gives no done": _mutate(WIDE, "store3", emits=()),
    "wide load port gives no data": _mutate(
        WIDE, "load2", emits=tuple(e for e in next(r for r in WIDE.rules if r.name == "load2").emits
                                   if not e[0].endswith(".data"))
    ),
    "gate": dataflow_ops.gate(index),
    "carry": dataflow_ops.carry(none),
    "carry without reset": _mutate(dataflow_ops.carry(none), "cond_false", next="need_cond"),
    "fork3": handshake_ops.fork(i32, 3),
    "stream": dataflow_ops.stream("+=", "<"),
}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_framed_split_agrees_with_the_whole_query(name):
    machine = TABLES[name]
    for i, c in enumerate(contracts_for(machine)):
        tag = f"fr{sorted(TABLES).index(name)}_{i}"
        whole = run_query(induction_query(MachineModel(machine, tag, data_mode="uf"), c), 60, want_model=False,
                          want_smt2=False).status
        assert whole in ("sat", "unsat")
        framed = split_unsat_framed(MachineModel(machine, tag, data_mode="uf"), c, 60)
        assert framed == (whole == "unsat"), (name, c.id, whole)


def test_the_wide_tables_really_are_wide_and_the_broken_ones_fail():
    assert len(WIDE.rules) >= SPLIT_RULES
    verdicts = {}
    for name in ("wide extmemory", "wide store port gives no done", "wide load port gives no data"):
        (c,) = contracts_for(TABLES[name])
        verdicts[name] = split_unsat_framed(MachineModel(TABLES[name], f"w{len(verdicts)}", data_mode="uf"), c, 60)
    assert verdicts == {"wide extmemory": True, "wide store port gives no done": False,
                        "wide load port gives no data": False}


# ----------------------------------------------------------------------------- one solver for a run's lemmas


def _scopes(checks: ScopedChecks) -> int:
    return checks.solver.num_scopes()


def test_one_shared_solver_proves_and_refutes_tables_in_any_order():
    """The run's lemma solver carries nothing from one proof to the next: a broken table between good ones
    is refuted (the whole-query fallback finds the trace), the good ones stay proved, and no scope is left
    open -- also after a check that ran out of time."""
    checks = ScopedChecks()
    good, bad = TABLES["carry"], TABLES["carry without reset"]
    (c_good,) = contracts_for(good)
    (c_bad,) = contracts_for(bad)
    verdicts = []
    for i, (machine, c) in enumerate([(good, c_good), (bad, c_bad), (good, c_good), (bad, c_bad)]):
        r = prove(machine, c, f"shared{i}", timeout=60, want_smt2=False, checks=checks)
        verdicts.append(r.status)
        assert _scopes(checks) == 0
        if r.status == "refuted":
            assert r.trace and r.trace[-1]["rule"] in {x.name for x in bad.rules}
            assert "violates" in r.detail
    assert verdicts == ["proved", "refuted", "proved", "refuted"]
    tiny = prove(good, c_good, "shared_tiny", timeout=1e-6, want_smt2=False, checks=checks)
    assert tiny.status == "unknown" and _scopes(checks) == 0
    again = prove(good, c_good, "shared_again", timeout=None, want_smt2=False, checks=checks)
    assert again.status == "proved" and again.method == "1-induction (plain solver, rule by rule)"


def test_check_lemmas_refutes_a_faulty_table_with_the_lemma_id_and_a_trace_on_the_shared_solver():
    """check_lemmas proves a function's tables on its cache's one solver; a faulty table among good ones is
    refuted under its own lemma id with a trace, and the cached good verdicts are reported again."""
    from loom.verify.lemmas.check import LemmaCache, lemma_obligations
    from loom.verify.obligation import VerifyContext

    ctx = VerifyContext(timeout=60, want_smt2=True)
    cache = LemmaCache()
    obs = []
    for k, name in enumerate(["gate", "carry without reset", "fork3", "wide store port gives no done"]):
        obs += lemma_obligations(TABLES[name], ctx, f"cl{k}", checks=cache.checks)
    by_status = {o.id: o.status for o in obs}
    assert by_status["fsm.gate[index].shape"] == "proved"
    assert by_status["fsm.fork[3;i32].balance"] == "proved"
    refuted = [o for o in obs if o.status == "refuted"]
    assert {o.id.split("[")[0] for o in refuted} == {"fsm.carry", "fsm.extmemory"}, [o.id for o in refuted]
    for o in refuted:
        assert o.counterexample["trace"], o.id
        assert o.smt2 and "(check-sat)" in o.smt2  # the whole query, which the solver found satisfiable
    for o in obs:
        if o.status == "proved":
            assert o.smt2 and "(check-sat)" in o.smt2 and o.rule == "1-induction (plain solver, rule by rule)"
    assert _scopes(cache.checks) == 0


def test_monitor_integers_build_the_terms_z3py_builds():
    """MonitorInt's C-API operators give exactly z3py's terms (the archived scripts depend on it)."""
    import z3

    from loom.verify.lemmas.induction import Contract, MonitorInt, int_vars, monitor_vars

    c = Contract("f", "p", "", int_vars("a", "b") + (("q", "bool"),), None, None, None)
    m = monitor_vars(c, "mi")
    a, b, q = m["a"], m["b"], m["q"]
    assert isinstance(a, MonitorInt) and not isinstance(q, MonitorInt)
    A, B, Q = z3.Int("mon.mi.a"), z3.Int("mon.mi.b"), z3.Bool("mon.mi.q")
    pairs = [
        (a + 1, A + 1), (1 + a, 1 + A), (a - 1, A - 1), (1 - a, 1 - A), (a + b - 2, A + B - 2),
        (a == 0, A == 0), (a == b + 1, A == B + 1), (a != b, A != B), (a != 3, A != 3), (a >= 1, A >= 1),
        (a > b, A > B), (a <= 1, A <= 1), (a < b, A < B), (a + z3.If(q, 1, 0), A + z3.If(Q, 1, 0)),
        (a + (1 << 40), A + (1 << 40)), (a - 5 == -3, A - 5 == -3),
    ]
    for got, want in pairs:
        assert got.eq(want), (got, want)
    assert (a == None) is False and (a != None) is True  # noqa: E711 - z3py's meaning of None
    assert {a: 1}[A] == 1  # hashes as the term


def test_a_counter_update_inside_a_larger_term_makes_the_framed_split_decline():
    """A framed step substitutes a Counter's definitions only for the update term itself: a contract that
    wraps that term makes framed_parts decline, and the whole query still proves the lemma."""
    import z3

    from loom.verify.lemmas.induction import framed_parts
    from loom.verify.solve import conjunction

    machine = TABLES["fork3"]
    (c,) = contracts_for(machine)
    assert framed_parts(MachineModel(machine, "wrap0", data_mode="uf"), c) is not None

    def wrapped_step(st):
        upd, bad = c.step(st)
        return conjunction([upd, z3.BoolVal(True)]), bad

    wrapped = dataclasses.replace(c, step=wrapped_step)
    assert framed_parts(MachineModel(machine, "wrap1", data_mode="uf"), wrapped) is None
    r = prove(machine, wrapped, "wrap2", timeout=60, want_smt2=False)
    assert r.status == "proved" and r.method == "1-induction (plain solver)", (r.status, r.method)


def test_the_renamed_invariant_is_the_invariant_built_anew_on_every_example_table():
    """framed_parts builds a contract's invariant once and renames it for the next configuration; the fast
    path is only sound if that is exactly the term the contract builds over the next configuration. Checked
    on every contract of every distinct table of the examples (and the tables above)."""

    from loom.cli import _dfg_module
    from loom.semantics import machine_for
    from loom.verify.lemmas.check import body_ops, lemma_key
    from loom.verify.lemmas.induction import _renamed, monitor_vars

    machines = dict(TABLES)
    for path in sorted((ROOT / "examples").glob("*.scf.mlir")):
        for func in _dfg_module(path, None, None).functions():
            if func.name == "handshake.func":
                for op in body_ops(func):
                    m = machine_for(op)
                    machines.setdefault(lemma_key(m), m)
    assert len(machines) > 40
    checked = 0
    for k, machine in enumerate(machines.values()):
        model = MachineModel(machine, f"rn{k}", data_mode="uf")
        for c in contracts_for(machine):
            s, m = model.new_state("k"), monitor_vars(c, "k")
            s2, m2 = model.new_state("k1"), monitor_vars(c, "k1")
            assert _renamed(c.invariant(model, s, m), s, m, s2, m2).eq(c.invariant(model, s2, m2)), c.id
            checked += 1
    assert checked >= len(machines)
