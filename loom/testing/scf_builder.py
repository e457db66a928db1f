"""A small programmatic builder of SCF functions (func / arith / memref / scf) in loom's IR.

Used by the random program generator and by tests that need a precise kernel.
Ops get exactly the shapes of specs/ir-conventions.md; regions are built with
Python callbacks, so nesting in the builder mirrors nesting in the program.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

from loom.ir.attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DenseElementsAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from loom.ir.core import Block, Module, Operation, Region, Value
from loom.ir.location import Location
from loom.ir.types import FloatType, FunctionType, IntegerType, MemRefType, TensorType, Type, i1, i64, index
from loom.semantics.predicates import CMPF_PREDICATES, CMPI_PREDICATES

# predicate name -> its enum value (loom.semantics.predicates)
CMPI = {p: k for k, p in enumerate(CMPI_PREDICATES)}
CMPF = {p: k for k, p in enumerate(CMPF_PREDICATES)}
K_DYNAMIC = -9223372036854775808


class _MemoryOps:
    """ScfBuilder's memory ops: loads, stores, allocations, globals and views (a mixin; the function being
    built is ScfBuilder's)."""

    def load(self, mem: Value, idx: Sequence[Value]) -> Value:
        t = mem.type
        assert isinstance(t, MemRefType)
        return self.op("memref.load", [mem, *idx], [t.element]).result

    def store(self, value: Value, mem: Value, idx: Sequence[Value]) -> None:
        self.op("memref.store", [value, mem, *idx])

    def alloca(self, t: MemRefType, name: Optional[str] = None, op_name: str = "memref.alloca") -> Value:
        return self.op(op_name, [], [t], names=[name]).result

    def global_(
        self, sym: str, t: MemRefType, values: Optional[Sequence] = None, constant: bool = False
    ) -> None:
        attrs: dict[str, Attribute] = {
            "sym_name": StringAttr(sym),
            "type": TypeAttr(t),
            "sym_visibility": StringAttr("private"),
        }
        if values is not None:
            attrs["initial_value"] = DenseElementsAttr(tuple(values), TensorType(t.shape, t.element))
        else:
            attrs["initial_value"] = UnitAttr()
        if constant:
            attrs["constant"] = UnitAttr()
        self.globals.append(Operation.create("memref.global", attributes=attrs, loc=self._loc()))

    def get_global(self, sym: str, t: MemRefType) -> Value:
        return self.op("memref.get_global", [], [t], {"name": SymbolRefAttr(sym)}).result

    def subview(
        self, src: Value, offsets: Sequence, sizes: Sequence, strides: Sequence, t: MemRefType
    ) -> Value:
        """``offsets``/``sizes``/``strides`` entries are ints (static) or index Values (dynamic)."""
        return self._view("memref.subview", src, (offsets, sizes, strides), t)

    def reinterpret_cast(
        self, src: Value, offset, sizes: Sequence, strides: Sequence, t: MemRefType
    ) -> Value:
        return self._view("memref.reinterpret_cast", src, ([offset], sizes, strides), t)

    def _view(self, name: str, src: Value, lists: tuple[Sequence, Sequence, Sequence], t: MemRefType) -> Value:
        """An offset/size/stride view: ints go to the ``static_*`` attributes, Values become operands."""
        dyn: list[Value] = []
        attrs: dict[str, Attribute] = {}
        for key, vals in zip(("static_offsets", "static_sizes", "static_strides"), lists):
            stat = []
            for v in vals:
                if isinstance(v, int):
                    stat.append(v)
                else:
                    stat.append(K_DYNAMIC)
                    dyn.append(v)
            attrs[key] = DenseArrayAttr(i64, tuple(stat))
        return self.op(name, [src, *dyn], [t], attrs).result

    def memref_cast(self, src: Value, t: MemRefType) -> Value:
        return self.op("memref.cast", [src], [t]).result

    def collapse_shape(self, src: Value, groups: Sequence[Sequence[int]], t: MemRefType) -> Value:
        return self.op("memref.collapse_shape", [src], [t], {"reassociation": _groups_attr(groups)}).result

    def expand_shape(self, src: Value, groups: Sequence[Sequence[int]], t: MemRefType) -> Value:
        shape = tuple(K_DYNAMIC if s is None else s for s in t.shape)
        return self.op(
            "memref.expand_shape",
            [src],
            [t],
            {"reassociation": _groups_attr(groups), "static_output_shape": DenseArrayAttr(i64, shape)},
        ).result


class _ControlOps:
    """ScfBuilder's structured control flow: scf.for, scf.while and scf.if, each region filled by a callback
    (a mixin)."""

    def _region(
        self,
        arg_types: Sequence[Type],
        fill: Callable[[list[Value]], None],
        names: Optional[Sequence[Optional[str]]] = None,
    ) -> Region:
        block = Block.create(list(arg_types), names)
        self._blocks.append(block)
        try:
            fill(list(block.args))
        finally:
            self._blocks.pop()
        return Region.of(block)

    def for_(
        self,
        lb: Value,
        ub: Value,
        step: Value,
        inits: Sequence[Value],
        body: Callable[[Value, list[Value]], Sequence[Value]],
        unsigned: bool = False,
    ) -> list[Value]:
        types = [v.type for v in inits]

        def fill(args: list[Value]) -> None:
            ys = body(args[0], args[1:])
            self.op("scf.yield", list(ys))

        region = self._region([lb.type] + types, fill)
        attrs: dict[str, Attribute] = {"unsignedCmp": UnitAttr()} if unsigned else {}
        return list(self.op("scf.for", [lb, ub, step, *inits], types, attrs, [region]).results)

    def while_(
        self,
        inits: Sequence[Value],
        before: Callable[[list[Value]], tuple[Value, Sequence[Value]]],
        after_types: Sequence[Type],
        after: Callable[[list[Value]], Sequence[Value]],
    ) -> list[Value]:
        def fill_before(args: list[Value]) -> None:
            cond, vals = before(args)
            self.op("scf.condition", [cond, *vals])

        def fill_after(args: list[Value]) -> None:
            self.op("scf.yield", list(after(args)))

        r0 = self._region([v.type for v in inits], fill_before)
        r1 = self._region(list(after_types), fill_after)
        return list(self.op("scf.while", list(inits), list(after_types), None, [r0, r1]).results)

    def if_(
        self,
        cond: Value,
        result_types: Sequence[Type],
        then: Callable[[], Sequence[Value]],
        else_: Optional[Callable[[], Sequence[Value]]] = None,
    ) -> list[Value]:
        def fill(fn: Callable[[], Sequence[Value]]) -> Callable[[list[Value]], None]:
            def inner(_args: list[Value]) -> None:
                self.op("scf.yield", list(fn()))

            return inner

        regions = [self._region([], fill(then))]
        regions.append(self._region([], fill(else_)) if else_ is not None else Region())
        return list(self.op("scf.if", [cond], list(result_types), None, regions).results)


class ScfBuilder(_MemoryOps, _ControlOps):
    """Builds one ``func.func`` op by op; ``module()`` wraps it (and any globals) in a Module. The basics
    (constants, arith, casts) are here, memory and control flow in the mixins above."""

    def __init__(
        self,
        name: str,
        arg_types: Sequence[Type],
        result_types: Sequence[Type],
        arg_names: Optional[Sequence[str]] = None,
        filename: str = "<generated>",
    ) -> None:
        names = list(arg_names) if arg_names is not None else [f"arg{i}" for i in range(len(arg_types))]
        self.filename = filename
        self._line = 1
        self.entry = Block.create(list(arg_types), names)
        self.func = Operation.create(
            "func.func",
            attributes={
                "sym_name": StringAttr(name),
                "function_type": TypeAttr(FunctionType(tuple(arg_types), tuple(result_types))),
            },
            regions=[Region.of(self.entry)],
            loc=self._loc(),
        )
        self.globals: list[Operation] = []
        self._blocks: list[Block] = [self.entry]

    def _loc(self) -> Location:
        self._line += 1
        return Location(self.filename, self._line, 5)

    @property
    def args(self) -> list[Value]:
        return list(self.entry.args)

    @property
    def block(self) -> Block:
        return self._blocks[-1]

    def op(
        self,
        name: str,
        operands: Sequence[Value] = (),
        result_types: Sequence[Type] = (),
        attributes: Optional[dict[str, Attribute]] = None,
        regions: Sequence[Region] = (),
        names: Optional[Sequence[Optional[str]]] = None,
    ) -> Operation:
        o = Operation.create(name, operands, result_types, attributes, regions, self._loc(), names)
        self.block.append(o)
        return o

    def const(self, value, t: Type, name: Optional[str] = None, at_entry: bool = False) -> Value:
        """``arith.constant``; ``at_entry`` puts it at the top of the function (visible everywhere)."""
        attr: Attribute = (
            FloatAttr(float(value), t) if isinstance(t, FloatType) else IntegerAttr(int(value), t)
        )
        if not at_entry:
            return self.op("arith.constant", [], [t], {"value": attr}, names=[name]).result
        o = Operation.create("arith.constant", [], [t], {"value": attr}, loc=self._loc(), result_names=[name])
        self.entry.insert(0, o)
        return o.result

    def arith(
        self,
        name: str,
        operands: Sequence[Value],
        t: Optional[Type] = None,
        attributes: Optional[dict[str, Attribute]] = None,
    ) -> Value:
        rt = t if t is not None else operands[0].type
        return self.op(name, operands, [rt], attributes).result

    def cmpi(self, pred: str, a: Value, b: Value) -> Value:
        return self.arith("arith.cmpi", [a, b], i1, {"predicate": IntegerAttr(CMPI[pred], i64)})

    def cmpf(self, pred: str, a: Value, b: Value) -> Value:
        return self.arith("arith.cmpf", [a, b], i1, {"predicate": IntegerAttr(CMPF[pred], i64)})

    def select(self, c: Value, a: Value, b: Value) -> Value:
        return self.arith("arith.select", [c, a, b], a.type)

    def cast(self, name: str, v: Value, t: Type) -> Value:
        return self.arith(name, [v], t)

    def ret(self, values: Sequence[Value] = ()) -> None:
        """``func.return``; the function type's results become the returned values' types."""
        self.op("func.return", list(values))
        ft = self.func.attributes["function_type"]
        assert isinstance(ft, TypeAttr) and isinstance(ft.type, FunctionType)
        self.func.attributes["function_type"] = TypeAttr(
            FunctionType(ft.type.inputs, tuple(v.type for v in values))
        )

    def module(self) -> Module:
        m = Module.empty(self.filename)
        m.explicit = True
        for g in self.globals:
            m.body.append(g)
        m.body.append(self.func)
        return m

def _groups_attr(groups: Sequence[Sequence[int]]) -> ArrayAttr:
    return ArrayAttr(tuple(ArrayAttr(tuple(IntegerAttr(i) for i in g)) for g in groups))


def int_type(width: int) -> IntegerType:
    return IntegerType(width)


__all__ = ["ScfBuilder", "CMPI", "CMPF", "K_DYNAMIC", "index", "int_type"]
