"""Appends handshake/dataflow ops to the body of the handshake.func being built.

One method per op kind, each producing exactly the IR shape fixed in
specs/ir-conventions.md. Values that are not built yet (loop feedback, memory
interface results) are ``Forward`` placeholders whose uses are recorded and
patched when the real value is known, so no pass over the whole function is
needed (the lowering stays linear in the size of the kernel).
"""

from __future__ import annotations

from typing import Optional, Sequence

from loom.ir.attributes import Attribute, BoolAttr, IntegerAttr, StringAttr, TypeAttr
from loom.ir.core import Block, Operation, OpResult, Value
from loom.ir.location import UNKNOWN, Location
from loom.ir.types import IntegerType, MemRefType, Type, i1, index, none

_PLACEHOLDER_OP = "loom.placeholder"


class Forward:
    """A value to be supplied later; ``value`` stands in for it in operand lists until ``resolve``."""

    __slots__ = ("value", "target", "_builder")

    def __init__(self, builder: "DfgBuilder", type: Type, name: Optional[str]) -> None:
        op = Operation.create(_PLACEHOLDER_OP, result_types=[type], result_names=[name])
        self.value: OpResult = op.results[0]
        self.target: Optional[Value] = None
        self._builder = builder

    def get(self) -> Value:
        """The resolved value if known, else the placeholder."""
        return self._builder.current(self.value)

    def resolve(self, value: Value) -> None:
        """Supply the real value; every recorded use is patched now."""
        self._builder.resolve(self, value)


class DfgBuilder:
    """Owns the flat op list of one handshake.func body under construction."""

    def __init__(self, block: Block) -> None:
        self.block = block
        self._uses: dict[int, list[tuple[Operation, int]]] = {}  # id(placeholder) -> uses
        self._forwards: dict[int, Forward] = {}

    # ------------------------------------------------------------------ placeholders
    def forward(self, type: Type, name: Optional[str] = None) -> Forward:
        fwd = Forward(self, type, name)
        self._uses[id(fwd.value)] = []
        self._forwards[id(fwd.value)] = fwd
        return fwd

    def current(self, v: Value) -> Value:
        """Follow resolved placeholders to the value they stand for."""
        while True:
            fwd = self._forwards.get(id(v))
            if fwd is None or fwd.target is None:
                return v
            v = fwd.target

    def resolve(self, fwd: Forward, value: Value) -> None:
        if fwd.target is not None:
            raise AssertionError("placeholder resolved twice")
        value = self.current(value)
        if value is fwd.value:
            raise AssertionError("placeholder resolved to itself")
        fwd.target = value
        uses = self._uses.pop(id(fwd.value))
        for op, i in uses:
            op.operands[i] = value
        if id(value) in self._uses:  # resolved to another pending placeholder: its uses move along
            self._uses[id(value)].extend(uses)

    def unresolved(self) -> list[Forward]:
        return [self._forwards[k] for k in self._uses]

    # ------------------------------------------------------------------ generic creation
    def create(
        self,
        name: str,
        operands: Sequence[Value],
        result_types: Sequence[Type],
        attributes: Optional[dict[str, Attribute]] = None,
        loc: Location = UNKNOWN,
        names: Optional[Sequence[Optional[str]]] = None,
    ) -> Operation:
        ops = [self.current(v) for v in operands]
        op = Operation.create(name, ops, result_types, attributes, loc=loc, result_names=names)
        for i, v in enumerate(ops):
            uses = self._uses.get(id(v))
            if uses is not None:
                uses.append((op, i))
        self.block.append(op)
        return op

    # ------------------------------------------------------------------ handshake
    def constant(
        self, ctrl: Value, value: Attribute, type: Type, loc: Location, name: Optional[str] = None
    ) -> Value:
        return self.create("handshake.constant", [ctrl], [type], {"value": value}, loc, [name]).result

    def cond_br(
        self, cond: Value, data: Value, loc: Location, name: Optional[str] = None
    ) -> tuple[Value, Value]:
        base = name or "br"
        op = self.create(
            "handshake.cond_br", [cond, data], [data.type, data.type], None, loc, [f"{base}_t", f"{base}_f"]
        )
        return op.results[0], op.results[1]

    def mux(
        self, select: Value, on_false: Value, on_true: Value, loc: Location, name: Optional[str] = None
    ) -> Value:
        """``handshake.mux`` with an i1 select: false picks ``on_false`` (data 0)."""
        return self.create(
            "handshake.mux", [select, on_false, on_true], [on_true.type], None, loc, [name]
        ).result

    def join(self, inputs: Sequence[Value], loc: Location, name: Optional[str] = None) -> Value:
        return self.create("handshake.join", list(inputs), [none], None, loc, [name]).result

    def sink(self, value: Value, loc: Location) -> Operation:
        return self.create("handshake.sink", [value], [], None, loc)

    def load(
        self,
        addresses: Sequence[Value],
        data_from_mem: Value,
        ctrl: Value,
        elem: Type,
        loc: Location,
        name: str,
    ) -> Operation:
        types = [elem] + [a.type for a in addresses]
        names = [name] + [f"{name}_addr"] * len(addresses)
        return self.create("handshake.load", [*addresses, data_from_mem, ctrl], types, None, loc, names)

    def store(
        self, addresses: Sequence[Value], data: Value, ctrl: Value, loc: Location, name: str
    ) -> Operation:
        types = [data.type] + [a.type for a in addresses]
        names = [f"{name}_data"] + [f"{name}_addr"] * len(addresses)
        return self.create("handshake.store", [*addresses, data, ctrl], types, None, loc, names)

    def extmemory(
        self,
        memref: Value,
        ports: Sequence[Value],
        result_types: Sequence[Type],
        ld: int,
        st: int,
        ident: int,
        loc: Location,
        names: Sequence[Optional[str]],
    ) -> Operation:
        attrs = {
            "ldCount": IntegerAttr(ld, IntegerType(32)),
            "stCount": IntegerAttr(st, IntegerType(32)),
            "id": IntegerAttr(ident, IntegerType(32)),
        }
        return self.create("handshake.extmemory", [memref, *ports], result_types, attrs, loc, names)

    def memory(
        self,
        ports: Sequence[Value],
        result_types: Sequence[Type],
        ld: int,
        st: int,
        ident: int,
        memref_type: MemRefType,
        extra: dict[str, Attribute],
        loc: Location,
        names: Sequence[Optional[str]],
    ) -> Operation:
        attrs: dict[str, Attribute] = {
            "ldCount": IntegerAttr(ld, IntegerType(32)),
            "stCount": IntegerAttr(st, IntegerType(32)),
            "id": IntegerAttr(ident, IntegerType(32)),
            "memRefType": TypeAttr(memref_type),
            "lsq": BoolAttr(False),
        }
        attrs.update(extra)
        return self.create("handshake.memory", list(ports), result_types, attrs, loc, names)

    # ------------------------------------------------------------------ dataflow
    def stream(self, start: Value, step: Value, bound: Value, loc: Location) -> tuple[Value, Value]:
        attrs = {"step_op": StringAttr("+="), "cont_cond": StringAttr("<")}
        op = self.create(
            "dataflow.stream", [start, step, bound], [index, i1], attrs, loc, ["index", "willContinue"]
        )
        return op.results[0], op.results[1]

    def gate(self, value: Value, cond: Value, loc: Location) -> tuple[Value, Value]:
        op = self.create(
            "dataflow.gate", [value, cond], [value.type, i1], None, loc, ["afterValue", "afterCond"]
        )
        return op.results[0], op.results[1]

    def carry(self, d: Value, a: Value, b: Value, loc: Location, name: Optional[str] = None) -> Value:
        return self.create("dataflow.carry", [d, a, b], [a.type], None, loc, [name]).result

    def invariant(self, d: Value, a: Value, loc: Location, name: Optional[str] = None) -> Value:
        return self.create("dataflow.invariant", [d, a], [a.type], None, loc, [name]).result

    # ------------------------------------------------------------------ arith helpers (index math for views)
    def arith(
        self,
        name: str,
        operands: Sequence[Value],
        type: Type,
        loc: Location,
        attributes: Optional[dict[str, Attribute]] = None,
        result_name: Optional[str] = None,
    ) -> Value:
        return self.create(name, list(operands), [type], attributes, loc, [result_name]).result

    def cmpi(
        self, predicate: int, lhs: Value, rhs: Value, loc: Location, name: Optional[str] = None
    ) -> Value:
        return self.arith(
            "arith.cmpi", [lhs, rhs], i1, loc, {"predicate": IntegerAttr(predicate, IntegerType(64))}, name
        )
