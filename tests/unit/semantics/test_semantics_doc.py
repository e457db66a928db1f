"""specs/semantics.md shows ``describe`` output of real tables; fail when the code and the page drift apart."""

from __future__ import annotations

import re

import pytest

from loom.ir.types import MemRefType, i1, i32, index, none
from loom.semantics import describe
from loom.semantics import dataflow_ops as d
from loom.semantics import handshake_ops as h
from loom.semantics import memory_ops as mo
from loom.semantics.functions import PURE_FUNCTIONS

from support.paths import ROOT

DOC = ROOT / "specs" / "semantics.md"

DOCUMENTED = {
    "stream": d.stream("+=", "<"),
    "stream-sign": d.stream("+=", None),
    "gate": d.gate(i32),
    "carry": d.carry(i32),
    "invariant": d.invariant(i32),
    "fork": h.fork(i32, 2),
    "join": h.join([none, none]),
    "cond_br": h.cond_br(i32),
    "mux": h.mux(index, i32, 2),
    "merge": h.merge(i32, 2),
    "control_merge": h.control_merge(none, index, 2),
    "constant": h.constant(none, i32, 7),
    "load": h.load([index], i32),
    "store": h.store([index], i32),
    "extmemory": mo.memory(MemRefType((None,), i32), 1, 1, external=True),
    "return": h.return_([i32, none]),
    "poison": h.source("ub.poison", i32, 0),
    "addi": h.combinational("arith.addi", (), [i32, i32], [i32]),
    "dim": mo.dim(MemRefType((None, None), i32)),
}


@pytest.mark.parametrize("key", sorted(DOCUMENTED))
def test_documented_table_matches_describe(key: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "```\n" + describe(DOCUMENTED[key]) + "\n```" in text, f"specs/semantics.md is stale for {key}"


def test_every_vocabulary_function_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    documented = set(re.findall(r"`((?:cmp|ucmp|step)\.[^`]+|not|and|or|eq|ne|mem\.read|mem\.dim)`", text))
    assert set(PURE_FUNCTIONS) | {"mem.read", "mem.dim"} <= documented
    assert "`scalar:<op>`" in text


def test_i1_mux_has_no_range_rule() -> None:
    assert [r.name for r in h.mux(i1, i32, 2).rules] == ["pick0", "pick1"]
