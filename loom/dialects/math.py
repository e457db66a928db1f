"""math dialect: every op is ``%a[, %b, ...] [fastmath<...>] : T`` with operands and result of type T."""

from __future__ import annotations

from dataclasses import replace

from collections.abc import Callable

from loom.dialects.checks import (
    OPERAND_TYPE,
    VerifyContext,
    all_same,
    counts,
    fail,
    is_float_like,
    is_int_like,
)
from loom.dialects.opdef import OpDef
from loom.dialects.arith import drop_default_flags
from loom.dialects.syntax import FASTMATH, same_type_variadic
from loom.ir.core import Operation
from loom.ir.types import Type

FLOAT_UNARY = (
    "absf", "sqrt", "rsqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
    "tanh", "sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "ceil", "floor", "round",
    "roundeven", "trunc", "erf", "cbrt",
)
FLOAT_BINARY = ("powf", "atan2", "copysign")
INT_UNARY = ("absi", "ctlz", "cttz", "ctpop")

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


def generic_math(name: str) -> OpDef:
    """Definition for a math op loom has no specific entry for: same-type operands and result."""
    return OpDef(name, _FORMAT, _verifier(None, None, ""), normalize=drop_default_flags)


OPS = [
    replace(d, normalize=drop_default_flags)
    for d in (
        [OpDef("math.fma", _FORMAT, _verifier(3, is_float_like, "float"))]
        + [OpDef(f"math.{n}", _FORMAT, _verifier(1, is_float_like, "float")) for n in FLOAT_UNARY]
        + [OpDef(f"math.{n}", _FORMAT, _verifier(2, is_float_like, "float")) for n in FLOAT_BINARY]
        + [OpDef(f"math.{n}", _FORMAT, _verifier(1, is_int_like, "integer")) for n in INT_UNARY]
    )
]
