"""The printer never emits custom syntax that parses back differently.

Every registered op is built with shapes its custom syntax does not fit (wrong
operand/result counts, odd types, stray regions and attributes); the printer must
then fall back to the generic form, so print -> parse is still the identity.
"""

from __future__ import annotations

import pytest

from loom.dialects.registry import known_ops
from loom.ir.attributes import IntegerAttr, StringAttr, TypeAttr, UnitAttr
from loom.ir.core import Block, Module, Operation, Region
from loom.ir.equality import first_difference, modules_equal
from loom.ir.types import FunctionType, MemRefType, i1, i32
from loom.mlir import parse_text, print_module

ATTRS = [
    {"x": IntegerAttr(1)},
    {"value": IntegerAttr(3, i32), "predicate": IntegerAttr(2, i32), "unsignedCmp": UnitAttr()},
    {"sym_name": StringAttr("s"), "function_type": TypeAttr(FunctionType((i32,), ()))},
    {"ldCount": IntegerAttr(0, i32), "stCount": IntegerAttr(1, i32), "slots": IntegerAttr(2, i32), "bufferType": StringAttr("seq")},
]
SHAPES = [  # (operands, results, regions, blocks per region)
    (0, 0, 0, 0), (1, 1, 0, 0), (2, 1, 0, 0), (3, 2, 0, 0), (1, 0, 1, 1), (1, 1, 2, 1), (2, 0, 1, 2), (0, 1, 1, 0),
]


def build(name: str, n_opd: int, n_res: int, n_reg: int, n_blk: int, t, attrs) -> Module:
    b = Block.create([t] * 3)
    regions = [Region.of(*[Block.create([t] * (k % 2)) for k in range(n_blk)]) for _ in range(n_reg)]
    b.append(Operation.create(name, list(b.args[:n_opd]), [t] * n_res, dict(attrs), regions))
    holder = Operation.create("test.holder", regions=[Region.of(b)])
    m = Module.empty("odd")
    m.body.append(holder)
    return m


@pytest.mark.parametrize("name", known_ops())
def test_odd_shapes_round_trip(name: str):
    types = [i32, i1, MemRefType((4,), i32)]
    for k, (n_opd, n_res, n_reg, n_blk) in enumerate(SHAPES):  # every shape, with types and attributes rotating
        m = build(name, n_opd, n_res, n_reg, n_blk, types[k % len(types)], ATTRS[k % len(ATTRS)])
        text = print_module(m)
        again = parse_text(text, "odd.mlir", verify=False)
        assert modules_equal(m, again), f"{first_difference(m.op, again.op)}\n{text}"
        assert print_module(again) == text
