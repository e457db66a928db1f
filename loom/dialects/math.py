"""math dialect: most ops are ``%a[, %b, ...] [fastmath<...>] : T`` with operands and result of type T.

The exceptions: ``math.fpowi %x, %n : F, I`` (a float raised to an integer power, result F)
and the float classifications ``math.isnan %x : F`` (result i1 shaped like F).
"""

from __future__ import annotations

from dataclasses import replace

from collections.abc import Callable

from loom.dialects.checks import (
    OPERAND_TYPE,
    RESULT_TYPE,
    TYPE_MISMATCH,
    VerifyContext,
    all_same,
    bool_like,
    counts,
    fail,
    is_float_like,
    is_int_like,
    same_shape,
)
from loom.dialects.opdef import OpDef
from loom.dialects.arith import drop_default_flags
from loom.dialects.syntax import FASTMATH, AttrDict, CmpSig, FlagAttr, Format, Lit, Opd, PickSig, same_type_variadic
from loom.ir.core import Operation
from loom.ir.types import Type

FLOAT_UNARY = (
    "absf", "sqrt", "rsqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
    "tanh", "sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "ceil", "floor", "round",
    "roundeven", "trunc", "erf", "cbrt",
)
FLOAT_BINARY = ("powf", "atan2", "copysign")
INT_UNARY = ("absi", "ctlz", "cttz", "ctpop")
FLOAT_CLASS = ("isnan", "isinf", "isfinite")  # the classifications loom's semantics define

_FPOWI_FORMAT = Format(
    Opd("lhs"), Lit(",", space=False), Opd("rhs"), FlagAttr(*FASTMATH), AttrDict(),
    PickSig(operands=(0, 1), results=(0,), what="math.fpowi"),
)
_CLASS_FORMAT = Format(
    Opd("operand"), AttrDict(), FlagAttr(*FASTMATH), CmpSig(operands=1, what="float classification"),
)

_FORMAT = same_type_variadic(FASTMATH)


def _verifier(n: int | None, kind: Callable[[Type], bool] | None, what: str) -> Callable[[Operation, VerifyContext], None]:
    def verify(op: Operation, ctx: VerifyContext) -> None:
        if n is None:
            counts(op, min_operands=1, results=1)
        else:
            counts(op, operands=n, results=1)
        t = all_same(op, [*op.operands, *op.results], "operands and result")
        if kind is not None and not kind(t):
            fail(op, OPERAND_TYPE, f"expects {what} operands, found {t}")

    return verify


def verify_fpowi(op: Operation, ctx: VerifyContext) -> None:
    """``math.fpowi``: a float base, an integer exponent of the same shape, a result of the base's type."""
    counts(op, operands=2, results=1)
    base, power = op.operands[0].type, op.operands[1].type
    if not is_float_like(base):
        fail(op, OPERAND_TYPE, f"expects a float base, found {base}")
    if not is_int_like(power):
        fail(op, OPERAND_TYPE, f"expects an integer or index exponent, found {power}")
    if not same_shape(base, power):
        fail(op, TYPE_MISMATCH, f"base {base} and exponent {power} must have the same shape")
    all_same(op, [op.operands[0], op.results[0]], "base and result")


def verify_float_class(op: Operation, ctx: VerifyContext) -> None:
    """``math.isnan`` and kin: a float operand and an i1 result of its shape."""
    counts(op, operands=1, results=1)
    t = op.operands[0].type
    if not is_float_like(t):
        fail(op, OPERAND_TYPE, f"expects a float operand, found {t}")
    if op.results[0].type != bool_like(t):
        fail(op, RESULT_TYPE, f"result must be {bool_like(t)}, found {op.results[0].type}")


def generic_math(name: str) -> OpDef:
    """Definition for a math op loom has no specific entry for, so that it reads with MLIR's types.

    A classification (``math.is*``, e.g. ``math.isnormal``) gives i1; any other op has
    same-type operands and result.
    """
    if name.startswith("math.is"):
        return OpDef(name, _CLASS_FORMAT, verify_float_class, normalize=drop_default_flags)
    return OpDef(name, _FORMAT, _verifier(None, None, ""), normalize=drop_default_flags)


OPS = [
    replace(d, normalize=drop_default_flags)
    for d in (
        [OpDef("math.fma", _FORMAT, _verifier(3, is_float_like, "float"))]
        + [OpDef(f"math.{n}", _FORMAT, _verifier(1, is_float_like, "float")) for n in FLOAT_UNARY]
        + [OpDef(f"math.{n}", _FORMAT, _verifier(2, is_float_like, "float")) for n in FLOAT_BINARY]
        + [OpDef(f"math.{n}", _FORMAT, _verifier(1, is_int_like, "integer")) for n in INT_UNARY]
        + [OpDef("math.fpowi", _FPOWI_FORMAT, verify_fpowi)]
        + [OpDef(f"math.{n}", _CLASS_FORMAT, verify_float_class) for n in FLOAT_CLASS]
    )
]
