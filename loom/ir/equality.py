"""Structural equality of IR, ignoring SSA names, block labels and locations.

Two ops are equal when they have the same name, attributes, result types,
regions (block by block, argument types, ops in order) and successors, and their
operands correspond under the bijection between the values the two sides define.
Values used but defined outside the compared ops must correspond consistently
too (first use fixes the pairing). Attributes compare structurally with
dictionaries order-insensitive and floats by bit pattern (any NaN equals any NaN).
"""

from __future__ import annotations

import math
import struct
from typing import Any

from loom.ir.attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DenseElementsAttr,
    DictAttr,
    FloatAttr,
)
from loom.ir.core import Block, Module, Operation, Value


def _float_eq(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return struct.pack("<d", a) == struct.pack("<d", b)


def _scalar_eq(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        if type(a) is not type(b):
            return False
        return _float_eq(a, b)
    return type(a) is type(b) and a == b


def attrs_equal(a: Attribute, b: Attribute) -> bool:
    """Structural attribute equality (dictionaries unordered, floats by bits)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, DictAttr):
        da, db = dict(a.entries), dict(b.entries)  # type: ignore[union-attr]
        return da.keys() == db.keys() and all(attrs_equal(da[k], db[k]) for k in da)
    if isinstance(a, ArrayAttr):
        return len(a.elements) == len(b.elements) and all(attrs_equal(x, y) for x, y in zip(a.elements, b.elements))  # type: ignore[union-attr]
    if isinstance(a, FloatAttr):
        return a.type == b.type and _float_eq(a.value, b.value)  # type: ignore[union-attr]
    if isinstance(a, DenseArrayAttr):
        return a.element_type == b.element_type and _values_eq(a.values, b.values)  # type: ignore[union-attr]
    if isinstance(a, DenseElementsAttr):
        return a.type == b.type and a.splat == b.splat and _values_eq(a.values, b.values)  # type: ignore[union-attr]
    return a == b


def _values_eq(a: tuple, b: tuple) -> bool:
    return len(a) == len(b) and all(_scalar_eq(x, y) for x, y in zip(a, b))


def attr_dicts_equal(a: dict[str, Attribute], b: dict[str, Attribute]) -> bool:
    return a.keys() == b.keys() and all(attrs_equal(a[k], b[k]) for k in a)


class _Matcher:
    """Walks two op trees in step, pairing the values and blocks they define."""

    def __init__(self) -> None:
        self.values: dict[int, Value] = {}
        self.reverse: dict[int, Value] = {}
        self.blocks: dict[int, Block] = {}
        self.pending: list[tuple[Operation, Operation]] = []

    def pair_value(self, a: Value, b: Value) -> bool:
        if a.type != b.type:
            return False
        ka, kb = id(a), id(b)
        if ka in self.values or kb in self.reverse:
            return self.values.get(ka) is b and self.reverse.get(kb) is a
        self.values[ka] = b
        self.reverse[kb] = a
        return True

    def structure(self, a: Operation, b: Operation) -> bool:
        """Everything but operands and successors; pairs definitions on the way."""
        if a.name != b.name or len(a.results) != len(b.results) or len(a.operands) != len(b.operands):
            return False
        if len(a.regions) != len(b.regions) or len(a.successors) != len(b.successors):
            return False
        if not attr_dicts_equal(a.attributes, b.attributes):
            return False
        for ra, rb in zip(a.results, b.results):
            if not self.pair_value(ra, rb):
                return False
        for ga, gb in zip(a.regions, b.regions):
            if len(ga.blocks) != len(gb.blocks):
                return False
            for ba, bb in zip(ga.blocks, gb.blocks):
                self.blocks[id(ba)] = bb
                if len(ba.args) != len(bb.args) or len(ba.ops) != len(bb.ops):
                    return False
                for xa, xb in zip(ba.args, bb.args):
                    if not self.pair_value(xa, xb):
                        return False
                for oa, ob in zip(ba.ops, bb.ops):
                    if not self.structure(oa, ob):
                        return False
        self.pending.append((a, b))
        return True

    def uses(self) -> bool:
        for a, b in self.pending:
            for va, vb in zip(a.operands, b.operands):
                if not self.pair_value(va, vb):
                    return False
            for sa, sb in zip(a.successors, b.successors):
                if self.blocks.get(id(sa)) is not sb:
                    return False
        return True


def ops_equal(a: Operation, b: Operation) -> bool:
    """Whether ``a`` and ``b`` are structurally identical (names and locations ignored)."""
    m = _Matcher()
    return m.structure(a, b) and m.uses()


def modules_equal(a: Module, b: Module) -> bool:
    """Whether two modules hold structurally identical ops (aliases and ``explicit`` ignored)."""
    return ops_equal(a.op, b.op)


def first_difference(a: Operation, b: Operation) -> str | None:
    """A short description of where ``a`` and ``b`` first differ (for test messages), or None."""
    if ops_equal(a, b):
        return None
    if a.name != b.name:
        return f"op name {a.name} != {b.name}"
    if not attr_dicts_equal(a.attributes, b.attributes):
        return f"{a.name}: attributes {a.attributes} != {b.attributes}"
    if [r.type for r in a.results] != [r.type for r in b.results]:
        return f"{a.name}: result types differ"
    if len(a.operands) != len(b.operands):
        return f"{a.name}: operand counts differ"
    for ga, gb in zip(a.regions, b.regions):
        if len(ga.blocks) != len(gb.blocks):
            return f"{a.name}: block counts differ ({len(ga.blocks)} vs {len(gb.blocks)})"
        for ba, bb in zip(ga.blocks, gb.blocks):
            if len(ba.ops) != len(bb.ops):
                return f"{a.name}: op counts differ ({[o.name for o in ba.ops]} vs {[o.name for o in bb.ops]})"
            for oa, ob in zip(ba.ops, bb.ops):
                d = first_difference(oa, ob)
                if d is not None:
                    return d
    return f"{a.name}: operands or successors differ"
