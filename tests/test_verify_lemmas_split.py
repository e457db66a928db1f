"""Wide tables are proved rule by rule with each step's frame substituted; that decision agrees with
solving the whole induction query, on loom's tables and on broken ones."""

from __future__ import annotations

import dataclasses

import pytest

from loom.ir.types import MemRefType, f32, i32, index, none
from loom.semantics import dataflow_ops, handshake_ops, memory_ops
from loom.verify.lemmas.contracts import contracts_for
from loom.verify.lemmas.induction import SPLIT_RULES, induction_query, split_unsat_framed
from loom.verify.solve import run_query
from loom.verify.z3model import MachineModel


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
