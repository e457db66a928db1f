"""``Machines``: machine_for memoized by op signature -- the same table as machine_for, shared only when the ops
agree on everything machine_for reads."""

from __future__ import annotations

import struct

import pytest

from loom.diagnostics import VerifyError
from loom.ir import Block, FloatAttr, IntegerAttr, Location, Operation, StringAttr, SymbolRefAttr, TypeAttr
from loom.ir.attributes import ArrayAttr, DenseElementsAttr
from loom.ir.types import MemRefType, TensorType, f32, f64, i1, i32, i64, index, none
from loom.semantics import describe, machine_for
from loom.semantics.build import Machines, signature

LOC = Location("k.mlir", 3, 5)


def mk(name, operand_types, result_types, **attrs) -> Operation:
    return Operation.create(name, Block.create(list(operand_types)).args, list(result_types), attrs, loc=LOC)


def sample_ops() -> list[Operation]:
    mem = MemRefType((None,), f32)
    return [
        mk("dataflow.stream", [index] * 3, [index, i1], step_op=StringAttr("-="), cont_cond=StringAttr(">=")),
        mk("dataflow.carry", [i1, i32, i32], [i32]),
        mk("handshake.fork", [i32], [i32, i32, i32]),
        mk("handshake.mux", [index, i32, i32, i32], [i32]),
        mk("handshake.constant", [none], [f32], value=FloatAttr(0.1, f32)),
        mk("handshake.buffer", [i32], [i32], slots=IntegerAttr(2), initValues=ArrayAttr((IntegerAttr(7),))),
        mk("handshake.load", [index, f32, none], [f32, index]),
        mk("handshake.extmemory", [mem, f32, index, index], [f32, none, none], ldCount=IntegerAttr(1),
           stCount=IntegerAttr(1)),
        mk("handshake.memory", [index], [i32, none], ldCount=IntegerAttr(1), stCount=IntegerAttr(0),
           memRefType=TypeAttr(MemRefType((256,), i32)), **{"loom.global_memref": SymbolRefAttr(".crctable.2")}),
        mk("ub.poison", [], [i32]),
        mk("arith.cmpi", [i32, i32], [i1], predicate=IntegerAttr(2, i64)),
        mk("arith.constant", [], [i32], value=IntegerAttr(5, i32)),
        mk("memref.dim", [MemRefType((4, None), f32), index], [index]),
    ]


def _twin(op: Operation) -> Operation:
    """An op like ``op`` (same name, attributes, types) on fresh values at another location."""
    ins = Block.create([v.type for v in op.operands]).args
    return Operation.create(op.name, ins, [r.type for r in op.results], dict(op.attributes),
                            loc=Location("other.mlir", 9, 1))


@pytest.mark.parametrize("op", sample_ops(), ids=lambda o: o.name)
def test_memo_gives_machine_for_and_shares_it_between_twins(op: Operation) -> None:
    machines = Machines()
    m = machines(op)
    assert m == machine_for(op)
    assert machines(_twin(op)) is m


def _nan(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


@pytest.mark.parametrize("a,b", [(0.0, -0.0), (_nan(0x7FF8000000000001), _nan(0x7FF8000000000002))])
def test_floats_equal_under_eq_get_their_own_tables(a: float, b: float) -> None:
    # FloatAttr's == says 0.0 == -0.0 (and any NaN equals any NaN): the signature must not
    x = mk("handshake.constant", [none], [f64], value=FloatAttr(a, f64))
    y = mk("handshake.constant", [none], [f64], value=FloatAttr(b, f64))
    assert FloatAttr(a, f64) == FloatAttr(b, f64)
    assert signature(x) != signature(y)
    machines = Machines()
    assert machines(x) is not machines(y)
    assert machines(y) == machine_for(y)


def test_dense_values_are_keyed_exactly() -> None:
    t = TensorType((2,), f32)
    x = DenseElementsAttr((0.0, 1.0), t)
    y = DenseElementsAttr((-0.0, 1.0), t)
    assert x == y
    ox, oy = (mk("arith.constant", [], [i32], value=a) for a in (x, y))
    assert signature(ox) != signature(oy)


def test_a_copy_of_a_source_is_not_shared_with_a_plain_copy() -> None:
    src = Operation.create("handshake.source", [], [none], {}, loc=Location("k.mlir", 1, 1))
    fed = Operation.create("handshake.fork", [src.results[0]], [none, none], {}, loc=Location("k.mlir", 2, 1))
    plain = mk("handshake.fork", [none], [none, none])
    machines = Machines()
    a, b = machines(fed), machines(plain)
    assert describe(a) != describe(b)
    assert a == machine_for(fed) and b == machine_for(plain)


def test_a_bad_op_raises_at_its_own_location_every_time() -> None:
    bad = mk("handshake.fork", [i32, i32], [i32])
    machines = Machines()
    with pytest.raises(VerifyError) as first:
        machines(bad)
    twin = _twin(bad)
    with pytest.raises(VerifyError) as second:
        machines(twin)
    assert first.value.loc == bad.loc and second.value.loc == twin.loc
    assert machines.memo == {}


def test_integer_attribute_keys_tell_bool_values_from_ints() -> None:
    a = mk("arith.cmpi", [i32, i32], [i1], predicate=IntegerAttr(1, i32))
    b = mk("arith.cmpi", [i32, i32], [i1], predicate=IntegerAttr(True, i32))
    assert IntegerAttr(1, i32) == IntegerAttr(True, i32)
    assert signature(a) != signature(b)
