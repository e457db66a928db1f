"""Operator lemmas (obligation 1): proved on every table, refuted on mutated tables, stream preconditions per DFG."""

from __future__ import annotations

import dataclasses

import pytest
import z3

from loom.ir.types import MemRefType, f32, i1, i32, index, none
from loom.lower import LowerOptions, lower_module
from loom.mlir import parse_text
from loom.semantics import dataflow_ops, handshake_ops, memory_ops
from loom.semantics.expr import Const, In, Reg, app
from loom.semantics.functions import CONT_CONDS, STEP_OPS
from loom.sim import simulate
from loom.verify.lemmas.contracts import contracts_for
from loom.verify.lemmas.induction import SPLIT_RULES, induction_query, prove, split_unsat
from loom.verify.lemmas.check import check_lemmas, lemma_obligations
from loom.verify.obligation import VerifyContext
from loom.verify.solve import run_query
from loom.verify.lemmas.termination import MAXI, TERMINATION, run_concrete, termination_query
from loom.verify.z3model import MachineModel

CTX = VerifyContext(timeout=60, want_smt2=True)

TABLES = {
    "gate": dataflow_ops.gate(index),
    "carry_none": dataflow_ops.carry(none),
    "carry_i32": dataflow_ops.carry(i32),
    "invariant_f32": dataflow_ops.invariant(f32),
    "cond_br": handshake_ops.cond_br(none),
    "mux_i1": handshake_ops.mux(i1, i32, 2),
    "mux_index3": handshake_ops.mux(index, none, 3),
    "fork3": handshake_ops.fork(i32, 3),
    "join2": handshake_ops.join([none, none]),
    "merge": handshake_ops.merge(i32, 2),
    "control_merge": handshake_ops.control_merge(none, index, 2),
    "constant": handshake_ops.constant(none, index, 7),
    "sink": handshake_ops.sink(i32),
    "buffer": handshake_ops.buffer(i32, 2),
    "load": handshake_ops.load([index, index], f32),
    "store": handshake_ops.store([index], i32),
    "return": handshake_ops.return_([i32, none]),
    "extmemory": memory_ops.memory(MemRefType((None,), i32), 2, 1, external=True),
    "memory": memory_ops.memory(MemRefType((4, 4), f32), 1, 2, external=False),
}


def _prove_all(machine, name):
    cs = contracts_for(machine)
    assert cs, f"no contract for {machine.op_name}"
    return [(c, prove(machine, c, name, timeout=60)) for c in cs]


@pytest.mark.parametrize("key", sorted(TABLES))
def test_every_operator_table_meets_its_contract(key):
    for c, r in _prove_all(TABLES[key], f"lem_{key}"):
        assert r.status == "proved", (c.id, r.detail)
        assert r.smt2 and "(check-sat)" in r.smt2
        assert r.method.startswith("1-induction")


STREAMS = [(op, c) for op in STEP_OPS for c in list(CONT_CONDS) + [None]]


def test_every_stream_variant_has_shape_and_termination_proved():
    assert len(STREAMS) == 36
    for k, (op, c) in enumerate(STREAMS):
        m = dataflow_ops.stream(op, c)
        obs = lemma_obligations(m, CTX, f"strm{k}")
        assert {o.id.rsplit(".", 1)[1] for o in obs} == {"shape", "terminates"}
        for o in obs:
            assert o.status == "proved", (o.id, o.detail)
            assert o.kind == "fsm" and o.smt2


@pytest.mark.parametrize(
    "op,cond,weak",
    [
        ("*=", "<", lambda x, t, b, k: z3.Or(x >= b, z3.And(x >= 0, t >= 2, (b - 1) * t <= MAXI))),  # from 0
        ("*=", "<", lambda x, t, b, k: z3.Or(x >= b, z3.And(x >= 1, t >= 1, (b - 1) * t <= MAXI))),  # step 1
        ("+=", "<", lambda x, t, b, k: z3.Or(x >= b, t > 0)),  # wrap near INT64_MAX
        ("+=", "!=", lambda x, t, b, k: z3.BoolVal(True)),  # no exact hit
        ("/=", "<", lambda x, t, b, k: z3.Or(x >= b, z3.And(t >= 2, x < 0))),  # positive bound
    ],
)
def test_termination_query_fails_for_too_weak_preconditions(op, cond, weak):
    """The stated preconditions are needed: weakening one lets the query find a run that never ends."""
    from loom.verify.solve import run_query

    term = dataclasses.replace(TERMINATION[(op, cond)], pre=weak)
    name = f"weak{STEP_OPS.index(op)}{CONT_CONDS.index(cond)}{abs(hash(weak)) % 1000}"
    res = run_query(
        termination_query(MachineModel(dataflow_ops.stream(op, cond), name), term).assertions(), 60
    )
    assert res.status == "sat"


def test_preconditions_exclude_the_classic_non_terminating_cases():
    m_mul = dataflow_ops.stream("*=", "<")
    assert run_concrete(m_mul, 0, 2, 10, 10_000) is None  # *= from 0 never ends
    assert run_concrete(m_mul, 3, 1, 10, 10_000) is None  # *= with step 1 never ends
    assert run_concrete(m_mul, 1, 2, 10, 10_000) == 4  # 1, 2, 4, 8 | 16
    assert run_concrete(dataflow_ops.stream("+=", "!="), 0, 2, 5, 10_000) is None  # jumps over the bound
    assert run_concrete(dataflow_ops.stream("+=", "!="), 0, 2, 6, 10_000) == 3
    assert run_concrete(dataflow_ops.stream("+=", "<"), 0, 0, 4, 10) == -1  # zero step: a runtime error
    x, t, b = (z3.BitVecVal(v, 64) for v in (0, 2, 5))
    assert z3.is_false(z3.simplify(TERMINATION[("+=", "!=")].for_dfg(x, t, b)))
    assert z3.is_true(z3.simplify(TERMINATION[("+=", "!=")].for_dfg(x, t, z3.BitVecVal(6, 64))))


# ----------------------------------------------------------------------------- mutated tables are refuted


def _mutate(machine, rule_name, **changes):
    rules = tuple(dataclasses.replace(r, **changes) if r.name == rule_name else r for r in machine.rules)
    return dataclasses.replace(machine, rules=rules)


MUTANTS = {
    "gate emits a value on the false head": (
        _mutate(dataflow_ops.gate(index), "head_false", emits=(("after_value", In("before_value")),)),
        "gate",
    ),
    "gate swallows the final false": (_mutate(dataflow_ops.gate(index), "next_false", emits=()), "gate"),
    "carry does not reset after a false": (
        _mutate(dataflow_ops.carry(none), "cond_false", next="need_cond"),
        "carry",
    ),
    "carry emits the seed twice": (
        _mutate(dataflow_ops.carry(i32), "cond_false", emits=(("o", Const(0)),)),
        "carry",
    ),
    "invariant replays the condition instead of the seed": (
        _mutate(dataflow_ops.invariant(i1), "cond_true", emits=(("o", In("d")),)),
        "invariant",
    ),
    "stream emits the updated index": (
        _mutate(
            dataflow_ops.stream("+=", "<"),
            "continue",
            emits=(("idx", app("step.+=", Reg("next"), Reg("step"))), ("cont", Const(1))),
        ),
        "stream",
    ),
    "stream ends without a false": (_mutate(dataflow_ops.stream("+=", "<"), "exit", emits=()), "stream"),
    "cond_br routes true tokens to the false output": (
        _mutate(handshake_ops.cond_br(i32), "to_true", emits=(("false", In("data")),)),
        "cond_br",
    ),
    "mux emits the wrong input": (
        _mutate(handshake_ops.mux(i1, i32, 2), "pick0", emits=(("out", In("select")),)),
        "mux",
    ),
    "join consumes only its first input": (
        _mutate(handshake_ops.join([none, none]), "fire", reads=("in0",)),
        "join",
    ),
    "load issues without a ctrl token": (
        _mutate(handshake_ops.load([index], i32), "issue", reads=("addr0",)),
        "load",
    ),
    "memory store port gives no done": (
        _mutate(memory_ops.memory(MemRefType((4,), i32), 1, 1, external=True), "store0", emits=()),
        "memory",
    ),
}


@pytest.mark.parametrize("what", sorted(MUTANTS))
def test_a_mutated_table_is_refuted_with_a_trace(what):
    machine, kind = MUTANTS[what]
    results = _prove_all(machine, "mut" + str(sorted(MUTANTS).index(what)))
    refuted = [(c, r) for c, r in results if r.status == "refuted"]
    assert refuted, [(c.id, r.status, r.detail) for c, r in results]
    c, r = refuted[0]
    assert c.id.startswith(f"fsm.{kind}") or kind == "memory"
    assert r.trace and r.trace[-1]["rule"] in {x.name for x in machine.rules}
    assert "violates" in r.detail


def test_an_unreachable_bad_rule_is_proved_by_spacer_not_refuted():
    """1-induction fails (an unreachable state has a bad rule), BMC finds nothing: Spacer proves it, re-checked."""
    from loom.semantics.machine import Rule

    g = dataflow_ops.gate(index)
    ghost = Rule(
        "garbage",
        "ghost",
        ("before_value", "before_cond"),
        "need_head",
        emits=(("after_cond", Const(1)), ("after_value", Const(5))),
    )
    weird = dataclasses.replace(g, states=g.states + ("ghost",), rules=g.rules + (ghost,))
    ((c, r),) = _prove_all(weird, "ghost_gate")
    assert r.status == "proved", r.detail
    assert r.method.startswith("Spacer") and r.smt2 and "(check-sat)" in r.smt2


# ----------------------------------------------------------------------------- DFG-level stream preconditions

LOOP_STEP = """
func.func @k(%a: memref<16xi32>, %lb: index, %ub: index, %s: index) {{
  %c0 = arith.constant 0 : i32
  scf.for %i = %lb to %ub step {step} {{
    memref.store %c0, %a[%i] : memref<16xi32>
  }}
  return
}}
"""


def _lowered(text: str):
    m = lower_module(parse_text(text, "k.scf.mlir"), None, LowerOptions())
    return next(f for f in m.functions() if f.name == "handshake.func")


def _pre(func):
    return [o for o in check_lemmas(func, CTX) if o.id.startswith("fsm.stream.pre.")]


def test_loom_streams_with_a_constant_step_meet_their_precondition():
    func = _lowered(
        LOOP_STEP.format(step="%c1").replace(
            "%c0 = arith.constant 0 : i32", "%c0 = arith.constant 0 : i32\n  %c1 = arith.constant 1 : index"
        )
    )
    (o,) = _pre(func)
    assert o.status == "proved", o.detail


def test_a_data_dependent_step_is_refuted_with_inputs_that_hang_the_stream():
    func = _lowered(LOOP_STEP.format(step="%s"))
    (o,) = _pre(func)
    assert o.status == "refuted", o.detail
    args = o.counterexample["arguments"]
    ops = o.counterexample["operands"]
    assert ops["step"] <= 0 or ops["bound"] - 1 + ops["step"] > 2**63 - 1
    # reproduce: the simulator never completes on these inputs (the stream keeps emitting)
    inputs = {"a": [0] * 16, "lb": args.get("lb", 0), "ub": args.get("ub", 0), "s": args.get("s", 0)}
    res = simulate(func, inputs, max_steps=20_000)
    if ops["step"] == 0:  # zero step: the stream stops on its runtime error, which the lemma states
        assert res.status == "error" and "RT_DATAFLOW_STREAM_ZERO_STEP" in str(res.error), (res.status, res.error)
    else:
        assert res.status != "completed" or not res.quiescent


def test_star_equals_from_zero_is_refuted_on_a_hand_made_stream():
    """A DFG whose stream multiplies from 0: the precondition finding names the operands."""
    text = """
    handshake.func @s(%b: index, %start_token: none, ...) -> (index, none) {
      %z = handshake.constant %start_token {value = 0 : index} : index
      %two = handshake.constant %start_token {value = 2 : index} : index
      %idx, %cont = dataflow.stream %z, %two, %b {step_op = "*=", cont_cond = "<"} : (index, index, index) -> (index, i1)
      %v, %c = dataflow.gate %idx, %cont : index, i1 -> index, i1
      %o = dataflow.carry %c, %b, %v : i1, index, index -> index
      handshake.return %o, %start_token : index, none
    }
    """
    func = next(f for f in parse_text(text, "s.dfg.mlir").functions() if f.name == "handshake.func")
    (o,) = _pre(func)
    assert o.status == "refuted"
    assert o.counterexample["operands"]["start"] == 0 and o.counterexample["arguments"]["b"] > 0
    res = simulate(func, {"b": o.counterexample["arguments"]["b"]}, max_steps=5_000)
    assert res.status != "completed" or not res.quiescent  # the stream is still emitting


def test_exact_hit_on_constants_is_decided_by_running_the_table():
    text = """
    handshake.func @s(%start_token: none, ...) -> none {
      %one = handshake.constant %start_token {value = 1 : index} : index
      %three = handshake.constant %start_token {value = 3 : index} : index
      %b = handshake.constant %start_token {value = %BOUND : index} : index
      %idx, %cont = dataflow.stream %one, %three, %b {step_op = "*=", cont_cond = "!="} : (index, index, index) -> (index, i1)
      handshake.sink %idx : index
      handshake.sink %cont : i1
      handshake.return %start_token : none
    }
    """
    hit = next(
        f
        for f in parse_text(text.replace("%BOUND", "81"), "s.dfg.mlir").functions()
        if f.name == "handshake.func"
    )
    (o,) = _pre(hit)
    assert o.status == "proved" and "4 trips" in o.detail
    miss = next(
        f
        for f in parse_text(text.replace("%BOUND", "80"), "s.dfg.mlir").functions()
        if f.name == "handshake.func"
    )
    (o,) = _pre(miss)
    assert o.status == "refuted"


def test_tiny_timeouts_give_unknown_never_proved():
    m = dataflow_ops.gate(index)
    obs = lemma_obligations(m, VerifyContext(timeout=1e-6), "tiny_gate")
    assert obs and all(o.status == "unknown" for o in obs)
    from loom.verify.solve import run_query

    x, t, b = z3.BitVecs("x t b", 64)
    hard = z3.And(x >= 1, t >= 2, z3.BVMulNoOverflow(b - 1, t, True), x < b, z3.Not(x * t > x))
    assert run_query([hard], timeout=0.2).status == "unknown"


def test_a_wide_memory_is_proved_rule_by_rule_and_its_mutant_still_refuted():
    wide = memory_ops.memory(MemRefType((None,), i32), 14, 12, external=True)
    assert len(wide.rules) >= SPLIT_RULES
    (c, r), = _prove_all(wide, "lem_wide")
    assert r.status == "proved" and r.method == "1-induction (plain solver, rule by rule)", r.detail
    assert r.smt2 and "(check-sat)" in r.smt2
    assert run_query([z3.parse_smt2_string(r.smt2)[0]], 60, want_model=False).status == "unsat"
    bad = _mutate(wide, "store3", emits=())
    results = _prove_all(bad, "lem_wide_bad")
    assert [x.status for _, x in results] == ["refuted"], [x.detail for _, x in results]


@pytest.mark.parametrize("what", sorted(MUTANTS)[:3] + ["memory store port gives no done"])
def test_the_rule_by_rule_split_agrees_with_the_whole_query(what):
    n = sorted(MUTANTS).index(what)
    for i, machine in enumerate([MUTANTS[what][0], TABLES["fork3"]]):
        for c in contracts_for(machine):
            model = MachineModel(machine, f"split{n}_{i}", data_mode="uf")
            q = induction_query(model, c)
            whole = run_query(q, 60, want_model=False, want_smt2=False).status
            assert split_unsat(q[0], 60) == (whole == "unsat"), (i, c.id, whole)
