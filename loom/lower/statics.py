"""Compile-time facts about SCF values: integer constants and statically known loop trips."""

from __future__ import annotations

from typing import Optional

from loom.ir.attributes import BoolAttr, IntegerAttr
from loom.ir.core import Operation, OpResult, Value
from loom.semantics.layout import width_of


def const_int(v: Value) -> Optional[int]:
    """The value of an integer ``arith.constant`` result, else None."""
    op = v.op if isinstance(v, OpResult) else None
    if op is None or op.name != "arith.constant":
        return None
    a = op.attributes.get("value")
    if isinstance(a, IntegerAttr):
        return a.value
    if isinstance(a, BoolAttr):
        return int(a.value)
    return None


def static_trips_positive(lb: Value, ub: Value, unsigned: bool) -> Optional[bool]:
    """Whether ``lb < ub`` (the body runs at least once) when both bounds are constants, else None."""
    lo, hi = const_int(lb), const_int(ub)
    if lo is None or hi is None:
        return None
    w = width_of(lb.type)
    lo, hi = lo % (1 << w), hi % (1 << w)
    if not unsigned:
        lo = lo - (1 << w) if lo >> (w - 1) else lo
        hi = hi - (1 << w) if hi >> (w - 1) else hi
    return lo < hi


def statically_skipped(op: Operation) -> bool:
    """An scf.for whose constant bounds prove it runs zero times (the lowering drops its body)."""
    return (
        op.name == "scf.for"
        and static_trips_positive(op.operands[0], op.operands[1], "unsignedCmp" in op.attributes) is False
    )
