"""memref ops with no address arithmetic: dealloc, copy, assume_alignment, rank (mlir-opt's pretty forms)."""

from __future__ import annotations

from loom.dialects.checks import (
    ARITY,
    ATTRIBUTE,
    RESULT_TYPE,
    TYPE_MISMATCH,
    VerifyContext,
    counts,
    fail,
    memref_operand,
)
from loom.dialects.opdef import OpDef
from loom.dialects.syntax import AsmParser, AsmPrinter, AttrDict, Format, MemrefSig, Opd, OpDraft
from loom.ir.attributes import IntegerAttr
from loom.ir.core import Operation
from loom.ir.types import IntegerType, MemRefType, Type, index

_I32 = IntegerType(32)


def _memref(p: AsmParser, what: str) -> MemRefType:
    tok = p.peek()
    t = p.parse_type()
    if not isinstance(t, MemRefType):
        raise p.error(f"expected a memref type for {what}, found '{t}'", tok)
    return t


def _attrs(p: AsmParser, st: OpDraft) -> None:
    tok = p.peek()
    for k, v in p.parse_attr_dict().items():
        st.set_attr(p, k, v, tok)


class CopySyntax:
    """``memref.copy %src, %dst : memref<..> to memref<..>``."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        st.operands.append(p.parse_operand())
        p.expect(",", " between source and target")
        st.operands.append(p.parse_operand())
        _attrs(p, st)
        p.expect(":", " before the source type")
        src = _memref(p, "the source")
        p.expect("to", " between the source and target types")
        st.operand_types, st.result_types = [src, _memref(p, "the target")], []

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        if len(op.operands) != 2 or op.results or op.regions or op.successors:
            return None
        a, b = op.operands
        if not isinstance(a.type, MemRefType) or not isinstance(b.type, MemRefType):
            return None
        return f" {w.value(a)}, {w.value(b)}" + w.attr_dict(op.attributes) + f" : {w.type(a.type)} to {w.type(b.type)}"


class AssumeAlignmentSyntax:
    """``[%r =] memref.assume_alignment %m, 16 : memref<..>`` (newer MLIR gives the memref back as a result)."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        st.operands.append(p.parse_operand())
        p.expect(",", " before the alignment")
        tok = p.peek()
        st.set_attr(p, "alignment", IntegerAttr(p.parse_int(), _I32), tok)
        _attrs(p, st)
        p.expect(":", " before the memref type")
        t = _memref(p, "memref.assume_alignment")
        st.operand_types = [t]
        st.result_types = [t] if st.n_bound > 0 else []

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        a = op.attributes.get("alignment")
        if len(op.operands) != 1 or not isinstance(a, IntegerAttr) or a.type != _I32 or op.regions or op.successors:
            return None
        t: Type = op.operands[0].type
        if not isinstance(t, MemRefType) or [r.type for r in op.results] not in ([], [t]):
            return None
        rest = {k: v for k, v in op.attributes.items() if k != "alignment"}
        return f" {w.value(op.operands[0])}, {a.value}" + w.attr_dict(rest) + f" : {w.type(t)}"


def verify_dealloc(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=1, results=0)
    memref_operand(op, op.operands[0])


def verify_copy(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=2, results=0)
    a, b = (memref_operand(op, v) for v in op.operands)
    if a.element != b.element:
        fail(op, TYPE_MISMATCH, f"source and target element types differ: {a.element} and {b.element}")
    if len(a.shape) != len(b.shape) or any(x is not None and y is not None and x != y for x, y in zip(a.shape, b.shape)):
        fail(op, TYPE_MISMATCH, f"source and target shapes differ: {a} and {b}")


def verify_assume_alignment(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=1)
    t = memref_operand(op, op.operands[0])
    a = op.attributes.get("alignment")
    if not isinstance(a, IntegerAttr) or a.value <= 0 or a.value & (a.value - 1):
        fail(op, ATTRIBUTE, "needs a positive power-of-two 'alignment'")
    if len(op.results) > 1:
        fail(op, ARITY, f"expects at most 1 result, found {len(op.results)}")
    if op.results and op.results[0].type != t:
        fail(op, RESULT_TYPE, f"result type {op.results[0].type} differs from the operand type {t}")


def verify_rank(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=1, results=1)
    memref_operand(op, op.operands[0])
    if op.results[0].type != index:
        fail(op, RESULT_TYPE, f"must give an index, found {op.results[0].type}")


OPS = [
    OpDef("memref.dealloc", Format(Opd("memref"), AttrDict(), MemrefSig("free")), verify_dealloc),
    OpDef("memref.copy", CopySyntax(), verify_copy),
    OpDef("memref.assume_alignment", AssumeAlignmentSyntax(), verify_assume_alignment),
    OpDef("memref.rank", Format(Opd("memref"), AttrDict(), MemrefSig("rank")), verify_rank),
]
