"""``scalar:<op>`` -> SystemVerilog, bit-exact with ``loom.semantics.scalar`` (floats: ``loom.hdl.datapath.floats``).

The integer ops' expressions are their descriptors' (``loom.semantics.ops.INT_OPS[op].sv``): synthesizable,
signed arithmetic on a wire of its own (an SV expression mixing signed and unsigned operands is evaluated
unsigned); division and remainder by zero give 0 and raise the ``RT_ARITH_DIV_BY_ZERO`` hazard, which the
component reports as a runtime error exactly where the simulator raises it. This module adds the ops that are
not integer ops (``arith.bitcast``) and hands floats to their behavioural simulation models.
"""

from __future__ import annotations

from typing import Sequence

from loom.hdl.datapath.floats import canon, float_sv
from loom.hdl.datapath.expr import HdlUnsupported, SvExprBuilder
from loom.ir.types import FloatType, Type
from loom.semantics.expr import ScalarInfo
from loom.semantics.ops import DIVS, INT_OPS, PLAIN, SIGNED_CMP, UNSIGNED_CMP  # noqa: F401 - the table's names

__all__ = ["DIVS", "PLAIN", "SIGNED_CMP", "UNSIGNED_CMP", "scalar_sv"]


def scalar_sv(op: str, info: ScalarInfo, a: Sequence[str], b: SvExprBuilder) -> tuple[str, Type]:
    """The wire holding result ``info.result_index`` of ``op`` applied to the operand wires ``a``."""
    out_t = info.result_types[info.result_index]
    d = INT_OPS.get(op)
    if d is not None:
        try:
            return d.sv(a, info, b), out_t
        except ValueError as e:  # an attribute the op cannot be built with (a cmpi predicate out of range)
            raise HdlUnsupported(str(e)) from None
    if op == "arith.bitcast":
        if isinstance(out_t, FloatType):  # a float value's NaN is always the quiet NaN (loom.semantics.scalar)
            return b.wire(out_t, canon(a[0], out_t)), out_t
        return b.wire(out_t, a[0]), out_t
    if op == "arith.constant":
        raise HdlUnsupported("arith.constant with operands")
    return float_sv(op, info, a, b, out_t)
