"""Helpers for op verifiers: raising located VerifyErrors with codes, common type tests.

Every code used here is listed in specs/errors.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NoReturn

from loom.diagnostics import VerifyError
from loom.ir.core import Operation, Value
from loom.ir.types import (
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    TaggedType,
    TensorType,
    Type,
    VectorType,
    i1,
)

ARITY = "CPL_IR_ARITY"
TYPE_MISMATCH = "CPL_IR_TYPE_MISMATCH"
OPERAND_TYPE = "CPL_IR_OPERAND_TYPE"
RESULT_TYPE = "CPL_IR_RESULT_TYPE"
ATTRIBUTE = "CPL_IR_ATTRIBUTE"
TERMINATOR = "CPL_IR_TERMINATOR"
INDEX_COUNT = "CPL_IR_INDEX_COUNT"
UNKNOWN_SYMBOL = "CPL_IR_UNKNOWN_SYMBOL"


@dataclass
class VerifyContext:
    """Facts about the whole module that op verifiers may need.

    ``symbols``: top-level symbol name -> op; ``non_terminators``: registered op names
    that cannot end a block (unregistered ops might).
    """

    symbols: dict[str, Operation] = field(default_factory=dict)
    non_terminators: frozenset[str] = frozenset()


def fail(op: Operation, code: str, message: str) -> NoReturn:
    """Raise a VerifyError at ``op``'s location: ``'op.name' message``."""
    raise VerifyError(f"'{op.name}' {message}", op.loc, code)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def counts(
    op: Operation,
    operands: int | None = None,
    results: int | None = None,
    min_operands: int | None = None,
    regions: int = 0,
) -> None:
    """Check the number of operands, results and regions (CPL_IR_ARITY)."""
    if operands is not None and len(op.operands) != operands:
        fail(op, ARITY, f"expects {_plural(operands, 'operand')}, found {len(op.operands)}")
    if min_operands is not None and len(op.operands) < min_operands:
        fail(op, ARITY, f"expects at least {_plural(min_operands, 'operand')}, found {len(op.operands)}")
    if results is not None and len(op.results) != results:
        fail(op, ARITY, f"expects {_plural(results, 'result')}, found {len(op.results)}")
    if len(op.regions) != regions:
        fail(op, ARITY, f"expects {_plural(regions, 'region')}, found {len(op.regions)}")


def element(t: Type) -> Type:
    """The element type of a vector/tensor, else ``t`` itself."""
    return t.element if isinstance(t, (VectorType, TensorType)) else t


def is_int_like(t: Type) -> bool:
    return isinstance(element(t), (IntegerType, IndexType))


def is_float_like(t: Type) -> bool:
    return isinstance(element(t), FloatType)


def is_i1(t: Type) -> bool:
    return t == i1


def with_element(t: Type, elem: Type) -> Type:
    """``t``'s vector/tensor shape around element type ``elem`` (``elem`` itself for a scalar)."""
    if isinstance(t, VectorType):
        return VectorType(t.shape, elem)
    if isinstance(t, TensorType):
        return TensorType(t.shape, elem)
    return elem


def bool_like(t: Type) -> Type:
    """The i1 type of ``t``'s shape: what comparisons and float classifications return."""
    return with_element(t, i1)


def same_shape(a: Type, b: Type) -> bool:
    """``a`` and ``b`` are both scalars, or vectors/tensors of one shape (elements aside)."""
    return bool_like(a) == bool_like(b)


def all_same(op: Operation, values: Sequence[Value], what: str, code: str = TYPE_MISMATCH) -> Type:
    """All ``values`` have one type (returned); else ``code``."""
    t = values[0].type
    for v in values[1:]:
        if v.type != t:
            fail(op, code, f"{what} must all have the same type, found {t} and {v.type}")
    return t


def types_equal(op: Operation, got: Sequence[Type], want: Sequence[Type], what: str, code: str = TYPE_MISMATCH) -> None:
    """``got`` equals ``want`` element-wise (and in length)."""
    got, want = list(got), list(want)
    if got != want:
        g = ", ".join(map(str, got)) or "nothing"
        w = ", ".join(map(str, want)) or "nothing"
        fail(op, code, f"{what}: found ({g}), expected ({w})")


def memref_operand(op: Operation, v: Value) -> MemRefType:
    if not isinstance(v.type, MemRefType):
        fail(op, OPERAND_TYPE, f"expects a memref operand, found {v.type}")
    return v.type


def tagged_value(t: Type) -> Type:
    """The value part of a tagged type, else ``t``."""
    return t.value if isinstance(t, TaggedType) else t


def parent_of_kind(op: Operation, names: tuple[str, ...]) -> Operation | None:
    p = op.parent_op
    return p if p is not None and p.name in names else None


def must_be_last(op: Operation) -> None:
    """A terminator must be the last op of its block (CPL_IR_TERMINATOR)."""
    if op.parent is not None and op.parent.ops and op.parent.ops[-1] is not op:
        fail(op, TERMINATOR, "must be the last operation of its block")
