"""A tiny builder for handshake.func graphs in tests (IR API, no parser needed), and its own checks."""

from __future__ import annotations

from typing import Optional, Sequence

from loom.ir import (
    ArrayAttr,
    Block,
    FunctionType,
    IntegerAttr,
    Operation,
    Region,
    StringAttr,
    TypeAttr,
    Value,
)
from loom.ir.attributes import Attribute
from loom.ir.types import Type, i1, index, none


class Graph:
    """Builds one handshake.func: ``arg(...)`` names, ``op(...)`` appends ops, ``ret(...)`` closes."""

    def __init__(self, name: str, arg_types: Sequence[Type], arg_names: Sequence[str]) -> None:
        self.block = Block.create(list(arg_types), list(arg_names))
        self.func = Operation.create(
            "handshake.func",
            attributes={
                "sym_name": StringAttr(name),
                "function_type": TypeAttr(FunctionType(tuple(arg_types), ())),
                "argNames": ArrayAttr(tuple(StringAttr(n) for n in arg_names)),
            },
            regions=[Region.of(self.block)],
        )
        self.args = {n: a for n, a in zip(arg_names, self.block.args)}

    def op(
        self,
        name: str,
        operands: Sequence[Value],
        result_types: Sequence[Type],
        names: Optional[Sequence[str]] = None,
        **attrs: Attribute,
    ) -> Operation:
        if names is not None and len(names) == 1 and len(result_types) > 1:
            names = list(names) * len(result_types)  # like MLIR's %x:2, printed %x#0, %x#1
        o = Operation.create(name, list(operands), list(result_types), dict(attrs), result_names=names)
        self.block.append(o)
        return o

    def ret(self, *values: Value) -> Operation:
        ft = self.func.attributes["function_type"].type
        self.func.attributes["function_type"] = TypeAttr(FunctionType(ft.inputs, tuple(v.type for v in values)))
        return self.op("handshake.return", list(values), [])


def stream_gate_carry(step_op: str = "+=", cont_cond: Optional[str] = "<") -> Graph:
    """The corpus 'dataflow-flowops' graph: stream -> gate -> carry, returning the carry output."""
    g = Graph("flow", [index, index, index, index], ["start", "step", "bound", "init"])
    a = g.args
    attrs = {"step_op": StringAttr(step_op)}
    if cont_cond is not None:
        attrs["cont_cond"] = StringAttr(cont_cond)
    s = g.op("dataflow.stream", [a["start"], a["step"], a["bound"]], [index, i1], ["idx", "cont"], **attrs)
    gt = g.op("dataflow.gate", list(s.results), [index, i1], ["av", "ac"])
    c = g.op("dataflow.carry", [gt.results[1], a["init"], gt.results[0]], [index], ["o"])
    g.ret(c.results[0])
    return g


def test_builder_makes_a_well_formed_function() -> None:
    g = stream_gate_carry()
    assert g.func.name == "handshake.func"
    assert [op.name for op in g.block.ops] == ["dataflow.stream", "dataflow.gate", "dataflow.carry", "handshake.return"]
    assert all(op.parent is g.block for op in g.block.ops)
    assert g.func.attributes["function_type"].type.results == (index,)
    assert IntegerAttr(1).value == 1 and none is not None
