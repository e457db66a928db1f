"""Fabric legalization: DFG ops outside upstream's FU-body allowlist rewritten, exactly, into allowed ones.

spec-fabric-function_unit-ops lists what a ``fabric.function_unit`` body may contain, and nothing else may
be there, so ``loom adg mesh --fit`` cannot give such an op an FU. Where an op has an exact rewrite (the
same bits for every input, NaN, +-0 and infinities included) into allowed ops, the mapper maps that instead.

One rule today, ``math.roundeven`` on f32/f64, by the round-to-nearest-even add-subtract of 2^(p-1)
(p = the significand's bits: 2^23 for f32, 2^52 for f64)::

    t    = handshake.join x            (a token per x: the constants' trigger)
    big  = 2^(p-1), zero = 0.0         (handshake.constant t)
    a    = math.absf x
    y    = (a + big) - big             (|x| < 2^(p-1): a + big lies in [2^(p-1), 2^p), whose spacing is 1,
                                        so the addition rounds a to the nearest integer, ties to even --
                                        big is even -- and the subtraction is exact)
    s    = select(x < 0, -y, y)        (the sign back; -0 for x in (-0.5, 0))
    keep = (a >= big or a is NaN) or x == 0
    r    = select(keep, x, s)          (|x| >= 2^(p-1) and infinities are already integers, a NaN is
                                        returned as it came, and +-0 keeps its sign, which no compare sees)

The tanh and atan2 of libm have no such rewrite (specs/mapping.md): ``refuse_unallowed`` names such an op, at
its location, for ``loom map`` and ``loom adg mesh --fit`` alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from loom.ir.attributes import FloatAttr, IntegerAttr
from loom.ir.core import Block, Operation, Value, replace_all_uses
from loom.ir.types import FloatType, IntegerType, i1, none
from loom.semantics.predicates import CMPF_PREDICATES

if TYPE_CHECKING:
    from loom.map.dfg import DFG

# the constant 2^(p-1) per float type: every float of at least this magnitude is an integer
_BIG = {"f32": 2.0 ** 23, "f64": 2.0 ** 52}


def legalize_for_fabric(func: Operation) -> Operation:
    """``func``, every op of its body that has an exact rewrite into allowlisted ops rewritten in place."""
    block = func.regions[0].blocks[0]
    for op in [op for op in block.ops if op.name == "math.roundeven" and str(op.results[0].type) in _BIG]:
        _roundeven(func, block, op)
    return func


def refuse_unallowed(dfg: DFG) -> None:
    """Raise a located CPL_FABRIC_FU_OP_NOT_ALLOWED at the first op node of ``dfg`` (read after
    ``legalize_for_fabric``) outside the FU-body allowlist: no fabric reader accepts an FU for it, so no
    fabric maps the kernel, which is outside the subset ``loom map`` covers -- not a fabric too small."""
    from loom.diagnostics import LoomError
    from loom.map.adg.read import FU_ALLOWED, FU_OP

    for n in dfg.nodes:
        if n.kind == "op" and n.op is not None and not n.name.startswith("fabric.") and n.name not in FU_ALLOWED:
            raise LoomError(f"'{n.name}' is outside upstream's FU-body allowlist (spec-fabric-function_unit-ops) "
                            f"and has no exact rewrite into it (specs/mapping.md), so no fabric can map it",
                            n.op.loc, FU_OP)


def _roundeven(func: Operation, block: Block, op: Operation) -> None:
    """``op`` (math.roundeven x) replaced by the add-subtract rule of the module docstring."""
    x, t = op.operands[0], op.results[0].type
    assert isinstance(t, FloatType)
    base = op.results[0].name_hint or "roundeven"
    at = block.ops.index(op)
    new: list[Operation] = []

    def emit(name: str, operands: list[Value], result, hint: str, **attrs) -> Value:
        o = Operation.create(name, operands, [result], attrs, loc=op.loc, result_names=[f"{base}_{hint}"])
        new.append(o)
        return o.results[0]

    def cmpf(pred: str, a: Value, b: Value, hint: str) -> Value:
        return emit("arith.cmpf", [a, b], i1, hint, predicate=IntegerAttr(CMPF_PREDICATES.index(pred), IntegerType(64)))

    tok = emit("handshake.join", [x], none, "tok")
    big = emit("handshake.constant", [tok], t, "big", value=FloatAttr(_BIG[str(t)], t))
    zero = emit("handshake.constant", [tok], t, "zero", value=FloatAttr(0.0, t))
    a = emit("math.absf", [x], t, "abs")
    y = emit("arith.subf", [emit("arith.addf", [a, big], t, "up"), big], t, "mag")
    s = emit("arith.select", [cmpf("olt", x, zero, "neg"), emit("arith.negf", [y], t, "negmag"), y], t, "signed")
    keep = emit("arith.ori", [cmpf("uge", a, big, "big_or_nan"), cmpf("oeq", x, zero, "is_zero")], i1, "keep")
    r = emit("arith.select", [keep, x, s], t, "r")
    for k, o in enumerate(new):
        block.insert(at + k, o)
    replace_all_uses(func, op.results[0], r)
    block.remove(op)
