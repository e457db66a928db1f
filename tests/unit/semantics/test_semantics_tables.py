"""machine_for over concrete ops, table well-formedness, the function vocabulary, describe, tagged packing."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loom.diagnostics import LoomError, VerifyError
from loom.ir import (
    Block,
    BoolAttr,
    FloatAttr,
    IntegerAttr,
    Location,
    Operation,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
)
from loom.ir.types import FloatType, IntegerType, MemRefType, TaggedType, f32, i1, i8, i32, i64, index, none
from loom.semantics import (
    Apply,
    Const,
    In,
    Reg,
    describe,
    evaluate,
    machine_for,
    pack_tagged,
    unpack_tagged,
)
from loom.semantics import dataflow_ops, handshake_ops, memory_ops
from loom.semantics.expr import subexprs
from loom.semantics.functions import CONT_CONDS, STEP_OPS, is_known_function
from loom.sim.standalone import run_machine

LOC = Location("k.mlir", 3, 5)


def vals(*types):
    """Fresh SSA values of the given types (block arguments of a throwaway block)."""
    return Block.create(list(types)).args


def mk(name, operand_types, result_types, **attrs):
    return Operation.create(name, vals(*operand_types), list(result_types), attrs, loc=LOC)


def sample_ops() -> list[Operation]:
    mem = MemRefType((None,), f32)
    return [
        mk("dataflow.stream", [index] * 3, [index, i1], step_op=StringAttr("-="), cont_cond=StringAttr(">=")),
        mk("dataflow.stream", [index] * 3, [index, i1]),
        mk("dataflow.gate", [f32, i1], [f32, i1]),
        mk("dataflow.carry", [i1, i32, i32], [i32]),
        mk("dataflow.invariant", [i1, none], [none]),
        mk("handshake.fork", [i32], [i32, i32, i32]),
        mk("handshake.join", [none, i32], [none]),
        mk("handshake.cond_br", [i1, f32], [f32, f32]),
        mk("handshake.mux", [index, i32, i32, i32], [i32]),
        mk("handshake.merge", [none, none], [none]),
        mk("handshake.control_merge", [none, none], [none, index]),
        mk("handshake.constant", [none], [i32], value=IntegerAttr(-1, i32)),
        mk("handshake.constant", [none], [i1], value=BoolAttr(True)),
        mk("handshake.constant", [none], [f32], value=FloatAttr(0.1, f32)),
        mk("handshake.sink", [i32], []),
        mk("handshake.buffer", [i32], [i32], slots=IntegerAttr(2)),
        mk("handshake.load", [index, f32, none], [f32, index]),
        mk("handshake.store", [index, index, i32, none], [i32, index, index]),
        mk("handshake.extmemory", [mem, f32, index, index], [f32, none, none], ldCount=IntegerAttr(1), stCount=IntegerAttr(1)),
        mk(
            "handshake.memory",
            [index],
            [i32, none],
            ldCount=IntegerAttr(1),
            stCount=IntegerAttr(0),
            memRefType=TypeAttr(MemRefType((256,), i32)),
            **{"loom.global_memref": SymbolRefAttr(".crctable.2")},
        ),
        mk("handshake.return", [f32, none], []),
        mk("ub.poison", [], [i32]),
        mk("arith.addf", [f32, f32], [f32]),
        mk("arith.cmpi", [i32, i32], [i1], predicate=IntegerAttr(2, i64)),
        mk("arith.index_cast", [i32], [index]),
        mk("math.fma", [f32, f32, f32], [f32]),
        mk("arith.constant", [], [i32], value=IntegerAttr(5, i32)),
        mk("memref.dim", [MemRefType((4, None), f32), index], [index]),
    ]


@pytest.mark.parametrize("op", sample_ops(), ids=lambda o: o.name)
def test_machine_for_aligns_ports_with_the_op(op: Operation) -> None:
    m = machine_for(op)
    m.check()
    assert m.op_name == op.name
    assert len(m.inputs) == len(op.operands)
    assert len(m.outputs) == len(op.results)
    for p, v in zip(m.inputs, op.operands):
        assert p.type == v.type
    for p, r in zip(m.outputs, op.results):
        assert p.type == r.type
    text = describe(m)
    assert text.startswith(op.name)
    for rule in m.rules:
        assert rule.name in text


@pytest.mark.parametrize("op", sample_ops(), ids=lambda o: o.name)
def test_every_table_uses_only_the_documented_vocabulary(op: Operation) -> None:
    m = machine_for(op)
    for rule in m.rules:
        for e in rule.expressions():
            for x in subexprs(e):
                assert isinstance(x, (In, Reg, Const, Apply))
                if isinstance(x, Apply):
                    assert is_known_function(x.fn), x.fn
    for _, e in m.sources:
        assert isinstance(e, Const)


def test_constants_resolve_to_runtime_values() -> None:
    ops = {str(o.attributes.get("value")): o for o in sample_ops() if o.name == "handshake.constant"}
    m = machine_for(ops["-1 : i32"])
    assert m.rules[0].emits == (("out", Const(0xFFFFFFFF)),)
    assert machine_for(ops["true"]).rules[0].emits == (("out", Const(1)),)
    f = machine_for(ops[str(FloatAttr(0.1, f32))]).rules[0].emits[0][1].value
    assert f != 0.1 and abs(f - 0.1) < 1e-8  # rounded to f32


def test_memory_and_source_details() -> None:
    ops = {o.name: o for o in sample_ops()}
    m = machine_for(ops["handshake.memory"])
    assert m.memory is not None and m.memory.source == "fresh" and m.memory.global_name == ".crctable.2"
    assert machine_for(ops["handshake.extmemory"]).memory.source == "operand"
    poison = machine_for(ops["ub.poison"])
    assert poison.rules == () and poison.sources == (("out", Const(0)),)
    const = machine_for(ops["arith.constant"])
    assert const.sources == (("out", Const(5)),)


def test_legacy_stop_cond_is_read_as_cont_cond() -> None:
    op = mk("dataflow.stream", [index] * 3, [index, i1], step_op=StringAttr("+="), stop_cond=StringAttr("!="))
    r = run_machine(machine_for(op), {"start": [0], "step": [2], "bound": [6]})
    assert r.outputs["idx"] == [0, 2, 4, 6] and r.outputs["cont"] == [1, 1, 1, 0]


@pytest.mark.parametrize(
    "op, code",
    [
        (mk("dataflow.stream", [index] * 3, [index, i1], step_op=StringAttr("%=")), "CPL_DATAFLOW_STREAM_INVALID_STEP_OP"),
        (mk("dataflow.stream", [index] * 3, [index, i1], cont_cond=StringAttr("==")), "CPL_DATAFLOW_STREAM_INVALID_CONT_COND"),
        (mk("dataflow.stream", [i32, index, index], [index, i1]), "CPL_DATAFLOW_STREAM_OPERAND_TYPE"),
        (mk("dataflow.gate", [f32, i32], [f32, i1]), "CPL_DATAFLOW_GATE_COND_TYPE"),
        (mk("dataflow.gate", [f32, i1], [i32, i1]), "CPL_DATAFLOW_GATE_TYPE_MISMATCH"),
        (mk("dataflow.carry", [i32, i32, i32], [i32]), "CPL_DATAFLOW_CARRY_CTRL_TYPE"),
        (mk("dataflow.carry", [i1, i32, f32], [i32]), "CPL_DATAFLOW_CARRY_TYPE_MISMATCH"),
        (mk("dataflow.invariant", [i8, i32], [i32]), "CPL_DATAFLOW_INVARIANT_CTRL_TYPE"),
        (mk("dataflow.invariant", [i1, i32], [f32]), "CPL_DATAFLOW_INVARIANT_TYPE_MISMATCH"),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_malformed_dataflow_ops_raise_the_spec_code(op: Operation, code: str) -> None:
    with pytest.raises(VerifyError) as ei:
        machine_for(op)
    assert ei.value.code == code
    assert str(ei.value).startswith("k.mlir:3:5: error: [" + code + "]")


@pytest.mark.parametrize(
    "op",
    [
        mk("handshake.cond_br", [i1, f32, f32], [f32, f32]),
        mk("handshake.extmemory", [MemRefType((4,), f32), index], [f32, none], ldCount=IntegerAttr(2), stCount=IntegerAttr(0)),
        mk("handshake.extmemory", [MemRefType((4,), f32), index], [f32, none]),
        mk("handshake.memory", [index], [f32, none], ldCount=IntegerAttr(1), stCount=IntegerAttr(0)),
        mk("handshake.load", [index], [f32]),
        mk("handshake.constant", [none], [i32]),
        mk("memref.load", [MemRefType((4,), f32), index], [f32]),
        mk("scf.for", [index] * 3, []),
        mk("arith.frobnicate", [i32], [i32]),
    ],
    ids=lambda o: o.name,
)
def test_ops_without_valid_semantics_raise_located_loom_errors(op: Operation) -> None:
    with pytest.raises(LoomError) as ei:
        machine_for(op)
    assert str(ei.value).startswith("k.mlir:3:5: error:")


# ----------------------------------------------------------------------------- exclusivity


def _values_for(t):
    if t == i1:
        return [0, 1]
    if isinstance(t, FloatType):
        return [0.0, -1.5]
    if t == none:
        return [None]
    return [0, 1, 2, 3, (1 << 64) - 1]


def _exclusive_tables():
    for op in sample_ops():
        m = machine_for(op)
        if m.choice == "exclusive" and not any(r.name.startswith("store") for r in m.rules):
            yield m
    for so, cc in itertools.product(STEP_OPS, CONT_CONDS + (None,)):
        yield dataflow_ops.stream(so, cc)


@pytest.mark.parametrize("m", list(_exclusive_tables()), ids=lambda m: m.op_name)
def test_exclusive_tables_never_enable_two_rules_at_once(m) -> None:
    """Rules of one state that read the same ports never have overlapping guards (checked exhaustively)."""
    from loom.semantics.expr import ports_read, registers_read

    for state in m.states:
        rules = m.rules_in(state)
        guards = [r.guard for r in rules if r.guard is not None]
        ports = sorted(set().union(*(ports_read(g) for g in guards))) if guards else []
        regs = sorted(set().union(*(registers_read(g) for g in guards))) if guards else []
        domains = [_values_for(m.input(p).type) for p in ports]
        domains += [_values_for(next(r for r in m.registers if r.name == n).type) for n in regs]
        for combo in itertools.product(*domains):
            heads = dict(zip(ports, combo))
            rv = dict(zip(regs, combo[len(ports):]))
            by_reads: dict = {}
            for r in rules:
                if r.guard is None or evaluate(r.guard, heads, rv):
                    by_reads.setdefault(frozenset(r.reads), []).append(r.name)
            for group in by_reads.values():
                assert len(group) <= 1, (m.op_name, state, group, heads, rv)


# ----------------------------------------------------------------------------- vocabulary


M64 = (1 << 64) - 1


@pytest.mark.parametrize(
    "fn, a, b, want",
    [
        ("cmp.<", M64, 0, 1),  # -1 < 0 signed
        ("cmp.>", M64, 0, 0),
        ("ucmp.<", M64, 0, 0),
        ("cmp.!=", 3, 3, 0),
        ("step.+=", M64, 2, 1),
        ("step.-=", 0, 1, M64),
        ("step.*=", 1 << 63, 2, 0),
        ("step./=", (-7) & M64, 2, (-3) & M64),  # truncates toward zero
        ("step./=", 1 << 63, M64, 1 << 63),  # INT_MIN / -1 wraps
        ("step.<<=", 1, 64, 0),
        ("step.>>=", (-8) & M64, 1, (-4) & M64),  # arithmetic shift
        ("step.>>=", (-8) & M64, 200, M64),
    ],
)
def test_index_functions_are_signed_with_wraparound(fn: str, a: int, b: int, want: int) -> None:
    assert evaluate(Apply(fn, (In("a"), In("b"))), {"a": a, "b": b}, {}) == want


def test_evaluate_registers_constants_and_memory() -> None:
    from loom.runtime import MemRefView

    view = MemRefView.from_flat([10, 20, 30], i32, [3])
    e = Apply("mem.read", (Apply("step.+=", (Reg("r"), Const(1))),))
    assert evaluate(e, {}, {"r": 1}, view) == 30
    assert evaluate(Apply("not", (Const(0),)), {}, {}) == 1
    with pytest.raises(ValueError):
        evaluate(Apply("frobnicate", (Const(0),)), {}, {})


# ----------------------------------------------------------------------------- tagged values


@settings(max_examples=100, deadline=None)
@given(v=st.integers(0, (1 << 32) - 1), tag=st.integers(0, 31))
def test_tagged_packs_value_low_tag_high(v: int, tag: int) -> None:
    t = TaggedType(i32, IntegerType(5))
    word = pack_tagged(v, tag, t)
    assert word & 0xFFFFFFFF == v and word >> 32 == tag
    assert unpack_tagged(word, t) == (v, tag)


def test_tagged_float_and_carry_passes_tagged_words_unchanged() -> None:
    t = TaggedType(f32, IntegerType(5))
    word = pack_tagged(1.5, 3, t)
    assert word == 0x3FC00000 | (3 << 32)
    assert unpack_tagged(word, t) == (1.5, 3)
    r = run_machine(dataflow_ops.carry(t), {"a": [word], "d": [1, 0], "b": [word + 1]})
    assert r.outputs["o"] == [word, word + 1]


def test_memory_ops_builder_rejects_nothing_it_cannot_run() -> None:
    m = memory_ops.memory(MemRefType((), i32), ld_count=1, st_count=1, external=False)  # rank 0
    assert [p.name for p in m.inputs] == ["st0.data"]
    assert handshake_ops.join([none]).rules[0].reads == ("in0",)

