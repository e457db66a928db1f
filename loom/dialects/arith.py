"""arith dialect: constants, integer/float arithmetic, comparisons, select and casts."""

from __future__ import annotations

from dataclasses import replace

from collections.abc import Callable

from loom.dialects.checks import (
    ATTRIBUTE,
    OPERAND_TYPE,
    RESULT_TYPE,
    TYPE_MISMATCH,
    VerifyContext,
    all_same,
    bool_like,
    counts,
    element,
    fail,
    is_float_like,
    is_i1,
    is_int_like,
    same_shape,
)
from loom.dialects.opdef import OpDef
from loom.dialects.syntax import (
    FASTMATH,
    OVERFLOW,
    AttrDict,
    CmpSig,
    ConstantSig,
    EnumAttr,
    FlagAttr,
    Format,
    Lit,
    Opd,
    PickSig,
    SelectSig,
    binary,
    cast,
    constant_type,
    unary,
)
from loom.ir.attributes import IntegerAttr, OpaqueAttr
from loom.ir.core import Operation
from loom.ir.types import FloatType, IndexType, IntegerType, TensorType, Type, VectorType

from loom.semantics.layout import width_of
from loom.semantics.predicates import CMPF_PREDICATES, CMPI_PREDICATES, ROUNDING_MODES  # noqa: F401 - the enums

INT_BINARY_OVERFLOW = ("addi", "subi", "muli", "shli")
INT_BINARY = (
    "divsi", "divui", "remsi", "remui", "ceildivsi", "ceildivui", "floordivsi",
    "andi", "ori", "xori", "shrsi", "shrui", "maxsi", "minsi", "maxui", "minui",
)
INT_EXTENDED = ("mulsi_extended", "mului_extended")  # two results: low and high halves of the product
FLOAT_BINARY = ("addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf", "minnumf")


# ---------------------------------------------------------------------------- verifiers


def _same_type_op(
    kind: Callable[[Type], bool], what: str, n: int, results: int = 1
) -> Callable[[Operation, VerifyContext], None]:
    def verify(op: Operation, ctx: VerifyContext) -> None:
        counts(op, operands=n, results=results)
        t = all_same(op, [*op.operands, *op.results], "operands and result" + ("s" if results > 1 else ""))
        if not kind(t):
            fail(op, OPERAND_TYPE, f"expects {what} operands, found {t}")

    return verify


def verify_addui_extended(op: Operation, ctx: VerifyContext) -> None:
    """``arith.addui_extended``: integer operands and sum of one type, and an i1 (shaped like them) overflow."""
    counts(op, operands=2, results=2)
    t = all_same(op, [*op.operands, op.results[0]], "operands and sum")
    if not is_int_like(t):
        fail(op, OPERAND_TYPE, f"expects integer or index operands, found {t}")
    if op.results[1].type != bool_like(t):
        fail(op, RESULT_TYPE, f"overflow result must be {bool_like(t)}, found {op.results[1].type}")


def _cmp(kind: Callable[[Type], bool], what: str, n_predicates: int) -> Callable[[Operation, VerifyContext], None]:
    def verify(op: Operation, ctx: VerifyContext) -> None:
        counts(op, operands=2, results=1)
        t = all_same(op, op.operands, "compared operands")
        if not kind(t):
            fail(op, OPERAND_TYPE, f"expects {what} operands, found {t}")
        want = bool_like(t)
        if op.results[0].type != want:
            fail(op, RESULT_TYPE, f"result must be {want}, found {op.results[0].type}")
        p = op.attributes.get("predicate")
        if not (isinstance(p, IntegerAttr) and 0 <= p.value < n_predicates):
            fail(op, ATTRIBUTE, f"needs an integer 'predicate' attribute in 0..{n_predicates - 1}")

    return verify


def verify_select(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=3, results=1)
    c = op.operands[0].type
    if not (is_i1(c) or (isinstance(c, (VectorType, TensorType)) and is_i1(c.element))):
        fail(op, OPERAND_TYPE, f"condition must be i1, found {c}")
    all_same(op, [op.operands[1], op.operands[2], op.results[0]], "true value, false value and result")


def verify_constant(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=0, results=1)
    v = op.attributes.get("value")
    t = constant_type(v) if v is not None else None
    if t is None:
        fail(op, ATTRIBUTE, "needs a typed 'value' attribute (number, boolean or dense)")
    if t != op.results[0].type:
        fail(op, TYPE_MISMATCH, f"value has type {t} but the result is {op.results[0].type}")


def _width(t: Type) -> int:
    return width_of(element(t))


def _cast(src: Callable[[Type], bool], dst: Callable[[Type], bool], width: str, what: str) -> Callable[[Operation, VerifyContext], None]:
    """A cast verifier: operand/result kinds and the width relation (``<``, ``>``, ``=`` or ``*``)."""

    def verify(op: Operation, ctx: VerifyContext) -> None:
        counts(op, operands=1, results=1)
        a, b = op.operands[0].type, op.results[0].type
        if not src(a):
            fail(op, OPERAND_TYPE, f"operand must be {what.split(' to ')[0]}, found {a}")
        if not dst(b):
            fail(op, RESULT_TYPE, f"result must be {what.split(' to ')[1]}, found {b}")
        if not same_shape(a, b):
            fail(op, TYPE_MISMATCH, f"operand {a} and result {b} must have the same shape")
        wa, wb = _width(a), _width(b)
        ok = {"<": wb < wa, ">": wb > wa, "=": wb == wa, "*": True}[width]
        if not ok:
            rel = {"<": "narrower than", ">": "wider than", "=": "as wide as"}[width]
            fail(op, RESULT_TYPE, f"result {b} must be {rel} the operand {a}")

    return verify


def _is_int(t: Type) -> bool:
    return isinstance(element(t), IntegerType)


def _is_index(t: Type) -> bool:
    return isinstance(element(t), IndexType)


def _index_cast(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=1, results=1)
    a, b = op.operands[0].type, op.results[0].type
    if not ((_is_int(a) and _is_index(b)) or (_is_index(a) and _is_int(b))):
        fail(op, OPERAND_TYPE, f"casts between an integer and index, found {a} to {b}")


def _bitcast(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=1, results=1)
    a, b = op.operands[0].type, op.results[0].type
    for t in (a, b):
        if not isinstance(element(t), (IntegerType, FloatType)):
            fail(op, OPERAND_TYPE, f"bitcasts integers and floats, found {t}")
    if _width(a) != _width(b):
        fail(op, TYPE_MISMATCH, f"operand {a} and result {b} must have the same bit width")


# ---------------------------------------------------------------------------- table


def _ops() -> list[OpDef]:
    ops: list[OpDef] = [
        OpDef("arith.constant", Format(AttrDict(), ConstantSig()), verify_constant),
        OpDef(
            "arith.cmpi",
            Format(EnumAttr("predicate", CMPI_PREDICATES, trailing=","), Opd("lhs"), Lit(",", space=False), Opd("rhs"), AttrDict(), CmpSig()),
            _cmp(is_int_like, "integer or index", len(CMPI_PREDICATES)),
        ),
        OpDef(
            "arith.cmpf",
            Format(
                EnumAttr("predicate", CMPF_PREDICATES, trailing=","), Opd("lhs"), Lit(",", space=False), Opd("rhs"),
                FlagAttr(*FASTMATH), AttrDict(), CmpSig(),
            ),
            _cmp(is_float_like, "float", len(CMPF_PREDICATES)),
        ),
        OpDef(
            "arith.select",
            Format(Opd("cond"), Lit(",", space=False), Opd("true"), Lit(",", space=False), Opd("false"), AttrDict(), SelectSig()),
            verify_select,
        ),
        OpDef("arith.negf", unary(FASTMATH), _same_type_op(is_float_like, "float", 1)),
    ]
    for n in INT_BINARY_OVERFLOW:
        ops.append(OpDef(f"arith.{n}", binary(OVERFLOW), _same_type_op(is_int_like, "integer or index", 2)))
    for n in INT_BINARY:
        ops.append(OpDef(f"arith.{n}", binary(), _same_type_op(is_int_like, "integer or index", 2)))
    for n in INT_EXTENDED:
        low_high = _same_type_op(is_int_like, "integer or index", 2, results=2)
        ops.append(OpDef(f"arith.{n}", binary(results=2), low_high))
    sum_overflow = PickSig(operands=(0, 0), results=(0, 1), what="arith.addui_extended")  # ``: T, i1``
    addui = Format(Opd("lhs"), Lit(",", space=False), Opd("rhs"), AttrDict(), sum_overflow)
    ops.append(OpDef("arith.addui_extended", addui, verify_addui_extended))
    for n in FLOAT_BINARY:
        ops.append(OpDef(f"arith.{n}", binary(FASTMATH), _same_type_op(is_float_like, "float", 2)))
    casts = [
        ("extsi", _cast(_is_int, _is_int, ">", "integer to integer"), None),
        ("extui", _cast(_is_int, _is_int, ">", "integer to integer"), None),
        ("trunci", _cast(_is_int, _is_int, "<", "integer to integer"), OVERFLOW),
        ("extf", _cast(is_float_like, is_float_like, ">", "float to float"), FASTMATH),
        ("truncf", _cast(is_float_like, is_float_like, "<", "float to float"), FASTMATH),
        ("sitofp", _cast(_is_int, is_float_like, "*", "integer to float"), None),
        ("uitofp", _cast(_is_int, is_float_like, "*", "integer to float"), None),
        ("fptosi", _cast(is_float_like, _is_int, "*", "float to integer"), None),
        ("fptoui", _cast(is_float_like, _is_int, "*", "float to integer"), None),
        ("index_cast", _index_cast, None),
        ("index_castui", _index_cast, None),
        ("bitcast", _bitcast, None),
    ]
    rounding = EnumAttr("roundingmode", ROUNDING_MODES, optional=True, width=32)  # truncf: MLIR's RoundingMode
    for n, verify, flag in casts:
        ops.append(OpDef(f"arith.{n}", cast(flag, enum=rounding if n == "truncf" else None), verify))
    return [replace(d, normalize=drop_default_flags) for d in ops]


def drop_default_flags(op: Operation) -> None:
    """``#arith.overflow<none>`` / ``#arith.fastmath<none>`` mean no flag: drop them, as mlir-opt's pretty form does.

    Generic-form output spells them out; without this, the same op read from the
    two forms would differ in its attributes.
    """
    for attr, _, prefix in (OVERFLOW, FASTMATH):
        a = op.attributes.get(attr)
        if isinstance(a, OpaqueAttr) and a.text.replace(" ", "") == f"{prefix}<none>":
            del op.attributes[attr]


OPS = _ops()

